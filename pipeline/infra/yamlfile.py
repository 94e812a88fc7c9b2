"""YAML from a user's file, refusing alias bombs.

A YAML alias (`*name`) repeats a whole anchored node; nine nested lists of nine aliases are a 300-byte
document that expands to 9⁹ nodes ("billion laughs"). PyYAML shares the repeated objects, so loading
alone is quick, but anything that walks the result (a duplicate-key check, pydantic validation, JSON
hashing) walks every expanded node and runs for minutes. The document is composed first, its
expanded size counted without expanding it (each node's size once, memoised), and refused when its
aliases add more than `ALIAS_EXPANSION_BUDGET` nodes to what is written in the file.

A key given twice in one mapping is refused as well (`YamlDuplicateKeyError`, naming each field and its
lines): PyYAML keeps the last value without a word, so a reader of the file (a reviewer of a split config
or a plan) may take the first for what applies.

Nesting is bounded too: `[[[[…]]]]` a thousand deep made the composer raise RecursionError, not a
YAML error, so `specs check` ended in a traceback; a document that composes but nests past
`MAX_NESTING` (aliases counted) would do the same to the walks after it.

And its size: PyYAML reads a character at a time in Python, so 4 MiB of short keys took 21 CPU s and 690 MB to
compose; a document past `MAX_YAML_CHARS` (a spec, a split config or a plan is a few kilobytes) is refused before a
character of it is read (`YamlTooLargeError`).
"""
from __future__ import annotations

import yaml

# Nodes that aliases may add on top of the document's own: anchors for shared defaults (`<<: *base`)
# in a spec or a config stay far below this; a bomb is far above it.
ALIAS_EXPANSION_BUDGET = 10_000
MAX_NESTING = 64  # lists and mappings within one another; a spec nests five or six deep
MAX_YAML_CHARS = 1 << 20  # the largest YAML the project writes or ships is about 3 KB


class YamlTooLargeError(yaml.YAMLError):
    """The document is longer than `MAX_YAML_CHARS`; not read."""


class YamlAliasBombError(yaml.YAMLError):
    """The document's aliases expand beyond the budget; the message says by how much."""


class YamlNestingError(yaml.YAMLError):
    """The document nests lists and mappings deeper than `MAX_NESTING`."""


class YamlDuplicateKeyError(yaml.YAMLError):
    """A mapping gives a key twice; `problems` names each field and its lines."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


def duplicate_keys(root: yaml.Node) -> list[str]:
    """Keys given twice in one mapping of a composed document (`<<` merge keys aside), as
    "field 'a.b': given twice (lines 3 and 7); keep one". Call it after the alias budget check:
    it walks aliased nodes as often as they are used."""
    problems: list[str] = []

    def walk(node: yaml.Node, where: list[str]) -> None:
        if isinstance(node, yaml.MappingNode):
            first: dict[str, int] = {}
            for key, value in node.value:
                name = str(key.value) if isinstance(key, yaml.ScalarNode) else "?"
                line = key.start_mark.line + 1
                if name in first and name != "<<":
                    field = ".".join(where + [name])
                    problems.append(f"field '{field}': given twice (lines {first[name]} and {line}); keep one")
                first.setdefault(name, line)
                walk(value, where + [name])
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                walk(item, where + [str(index)])

    walk(root, [])
    return problems


def nesting_depth(root: yaml.Node) -> int:
    """How deep lists and mappings nest in the document once its aliases are expanded (a scalar is 1)."""
    heights: dict[int, int] = {}

    def height(node: yaml.Node) -> int:
        key = id(node)
        if key in heights:
            return heights[key]
        heights[key] = 1  # a recursive anchor counts once, not forever
        children = [c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode) else \
            node.value if isinstance(node, yaml.SequenceNode) else []
        heights[key] = 1 + max((height(c) for c in children), default=0)
        return heights[key]

    return height(root)


def expanded_size(root: yaml.Node) -> tuple[int, int]:
    """(nodes written in the document, nodes after every alias is expanded), without expanding."""
    sizes: dict[int, int] = {}
    written: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        written.add(key)
        sizes[key] = 1  # a recursive anchor counts once, not forever
        total = 1
        if isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            total += sum(size(item) for item in node.value)
        sizes[key] = total
        return total

    expanded = size(root)
    return len(written), expanded


def load_yaml(text: str, *, budget: int = ALIAS_EXPANSION_BUDGET) -> object:
    """`yaml.safe_load(text)`, refusing a document whose aliases expand to more than `budget` nodes
    beyond its own (raises `YamlAliasBombError`, a `yaml.YAMLError`), that nests deeper than
    `MAX_NESTING` (`YamlNestingError`) or that gives a key twice in one mapping
    (`YamlDuplicateKeyError`, every such key in its `problems`), or that is longer than `MAX_YAML_CHARS`
    (`YamlTooLargeError`)."""
    if len(text) > MAX_YAML_CHARS:
        raise YamlTooLargeError(f"refused: {len(text):,} characters, more than the {MAX_YAML_CHARS:,} a YAML file here "
                                "may have (not read)")
    loader = yaml.SafeLoader(text)
    try:
        try:
            root = loader.get_single_node()
        except RecursionError:
            raise YamlNestingError(f"refused: lists or mappings nested too deep to read (more than {MAX_NESTING} allowed)") from None
        if root is None:
            return None
        depth = nesting_depth(root)
        if depth > MAX_NESTING:
            raise YamlNestingError(f"refused: lists or mappings nested {depth} deep (at most {MAX_NESTING})")
        written, expanded = expanded_size(root)
        if expanded - written > budget:
            raise YamlAliasBombError(
                f"refused: its aliases expand {written} written nodes to {expanded:,} (more than {budget:,} "
                "extra nodes allowed; an alias bomb?)")
        duplicates = duplicate_keys(root)
        if duplicates:
            raise YamlDuplicateKeyError(duplicates)
        return loader.construct_document(root)
    finally:
        loader.dispose()


__all__ = ["ALIAS_EXPANSION_BUDGET", "MAX_NESTING", "YamlAliasBombError", "YamlDuplicateKeyError", "YamlNestingError", "duplicate_keys", "expanded_size", "load_yaml", "nesting_depth"]
