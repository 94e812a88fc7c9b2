"""Spec patterns, matched within a time bound.

A spec's regular expressions are a curator's input, and one with catastrophic backtracking (`(\\w+\\s?)+$`
takes seconds a line, doubling with every character) would hang a run. Every spec pattern is therefore
compiled here with the `regex` module, whose matching takes a `timeout`: a match that runs past
`MATCH_TIMEOUT_S` raises `PatternTimeout`, naming the pattern and the line, which the run reports as a
problem of that file before going on with the others. `nested_quantifiers` finds the usual cause in
a pattern's structure, for `specs check` to warn about before any run.

The `regex` module is used in its version-0 mode, which matches as `re` does.
"""
from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import regex

from pipeline.widths import fold_pattern, fold_width

# Seconds one match of one spec pattern on one text may take; a sound pattern takes microseconds on a
# page. $EXAMCORPUS_PATTERN_TIMEOUT_S changes it (a slow machine, a test).
MATCH_TIMEOUT_S = 2.0
TIMEOUT_ENV = "EXAMCORPUS_PATTERN_TIMEOUT_S"


_held = threading.local()  # `held_bound`'s reading, per thread


def match_timeout() -> float:
    """The bound of one match: `held_bound`'s reading inside one, else the environment's now."""
    seconds = getattr(_held, "seconds", None)
    return seconds if seconds is not None else _bound_from_environment()


def _bound_from_environment() -> float:
    try:
        return max(0.01, float(os.environ.get(TIMEOUT_ENV, MATCH_TIMEOUT_S)))
    except ValueError:
        return MATCH_TIMEOUT_S


@contextmanager
def held_bound() -> Iterator[float]:
    """The bound read from the environment once for a unit of work (a sheet's parse, which asks tens of
    thousands of bounded matches: reading the environment for each cost about a third of what the
    bound adds to a match), and every match in this thread inside it bounded by that reading."""
    previous = getattr(_held, "seconds", None)
    _held.seconds = seconds = _bound_from_environment()
    try:
        yield seconds
    finally:
        _held.seconds = previous


class PatternTimeout(RuntimeError):
    """A spec pattern ran past its time bound on one text (a line or a page)."""

    def __init__(self, pattern: str, text: str, seconds: float):
        super().__init__(pattern, text, seconds)  # as args, so the error pickles across worker processes
        self.pattern, self.text, self.seconds = pattern, text, seconds

    def __str__(self) -> str:
        line = " ".join(self.text.split())
        shown = line if len(line) <= 120 else line[:117] + "…"
        return (f"spec pattern {self.pattern!r} gave up after {self.seconds:g} s on the line {shown!r} (catastrophic "
                "backtracking: simplify it, e.g. no quantified group around a quantifier such as (\\w+\\s?)+)")


def _re_parser():
    """Python's own regular-expression parser (`re._parser`, `sre_parse` before 3.11)."""
    try:
        from re import _parser as parser  # type: ignore[attr-defined]  # Python ≥ 3.11
    except ImportError:  # pragma: no cover
        import sre_parse as parser  # type: ignore[no-redef]
    return parser


# Flags under which a pattern's leading literal characters match themselves and nothing else, forwards
# (no case folding, no verbose spacing, no reversed or fuzzy matching).
_GATE_FLAGS = regex.UNICODE | regex.VERSION0 | regex.ASCII | regex.DOTALL | regex.MULTILINE
_SPECIAL = set("\\.^$|?*+()[]{}#")
_QUANTIFIERS = set("*+?{")


def literal_gate(pattern: str, compiled) -> tuple[bool, str] | None:
    """(anchored, prefix) where every match of `pattern` starts with the literal `prefix`, at the text's
    start if `anchored` (`^` or `\\A`, and no multi-line mode): a text without it cannot match, which a
    plain string test tells in a fraction of a bounded search's set-up (most lines a header or stop
    rule is asked of start otherwise). None where the pattern does not begin with such a literal.

    The prefix is read twice and both readings must agree: as the pattern's own characters (up to the
    first one the syntax gives a meaning, less a last character a quantifier follows) and from `re`'s
    parse tree (the leading literals of a pattern with no alternation at its top level). A syntax only
    the `regex` module has (a fuzzy `{e<=1}`, a POSIX class) cannot pass for a literal that way."""
    if compiled.flags & ~_GATE_FLAGS:
        return None
    body, anchored = pattern, False
    for anchor in ("^", "\\A"):
        if body.startswith(anchor):
            body, anchored = body[len(anchor):], anchor == "\\A" or not compiled.flags & regex.MULTILINE
            break
    end = 0
    while end < len(body) and body[end] not in _SPECIAL:
        end += 1
    if end < len(body) and body[end] in _QUANTIFIERS:
        end -= 1  # "ab+" needs only "a"
    prefix = body[:max(end, 0)]
    if not prefix:
        return None
    parser = _re_parser()
    try:
        tree = list(parser.parse(pattern, compiled.flags & (regex.DOTALL | regex.MULTILINE | regex.ASCII)))
    except (re.error, OverflowError, RecursionError):
        return None
    ops = tree[1:] if tree and tree[0][0] is parser.AT else tree
    if (tree and tree[0][0] is parser.AT) != (body is not pattern) or any(op is parser.BRANCH for op, _ in tree):
        return None
    literals = "".join(chr(arg) for op, arg in ops[:len(prefix)] if op is parser.LITERAL)
    return (anchored, prefix) if literals == prefix else None


# `SpecPattern` answers kept per pattern: a page's lines a few times over. The same line is asked the same
# pattern by several rules (a section heading by the numbering and by its runs, a key heading by each key
# reader), and a bounded match costs several microseconds of clock reads before it looks at the text.
FOUND_KEPT = 2048
# Only texts of a line's length are kept: a page's or a document's whole text is asked once, and keeping it (a match
# holds its text) would hold whole documents in memory for the life of the process.
KEPT_TEXT_TO = 1024


class PrintedMatch:
    """A match found on a text's folded form (`pipeline.widths`), read from the printed text: its groups and
    `string` are the printed characters (`１．` stays `１．` in what a record keeps), its positions the same (the
    fold is one character for one). Anything else a match has is the folded match's."""

    __slots__ = ("_found", "string")

    def __init__(self, found, string: str):
        self._found, self.string = found, string

    def _text(self, group):
        start, end = self._found.span(group)
        return None if start < 0 else self.string[start:end]

    def group(self, *groups):
        if len(groups) <= 1:
            return self._text(groups[0] if groups else 0)
        return tuple(self._text(g) for g in groups)

    def __getitem__(self, group):
        return self._text(group)

    def groups(self, default=None):
        return tuple(default if (t := self._text(i)) is None else t for i in range(1, self._found.re.groups + 1))

    def groupdict(self, default=None):
        return {name: default if (t := self._text(name)) is None else t for name in self._found.re.groupindex}

    def __getattr__(self, name):
        return getattr(self._found, name)

    def __repr__(self) -> str:
        return f"<PrintedMatch span={self._found.span()} match={self._text(0)!r}>"


def _printed(found, text: str, folded: str):
    """`found` (a match on `folded`, or None) as a match on `text`."""
    return found if found is None or folded is text else PrintedMatch(found, text)


class SpecPattern:
    """A compiled spec pattern whose every match is bounded in time; the `re.Pattern` methods the
    pipeline uses, with the same results. A pattern that opens with a literal (`literal_gate`) is
    searched only in a text that holds it, where it can match: elsewhere the answer is None at once.
    A `search` or `match` of a whole text is kept (`FOUND_KEPT` of them) per text and bound: asked
    again, the answer is the one already found (a bound run past is raised each time, never kept).

    Pattern and text are compared with full-width forms folded (`pipeline.widths`): `^第1問` finds `第１問`,
    `\\d+\\.` finds `１．`; what a match gives is read from the printed text (`PrintedMatch`)."""

    __slots__ = ("pattern", "flags", "_compiled", "_gate", "_found")

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags = pattern, int(flags)
        folded = fold_pattern(pattern)
        if (problem := size_problem(folded)) is not None:
            raise PatternTooLarge(f"{pattern[:120]!r} is not compiled: {problem}")
        self._compiled = regex.compile(folded, int(flags) | regex.VERSION0)
        self._gate = literal_gate(folded, self._compiled)
        self._found: dict[tuple, object] = {}

    def _kept(self, method, text, seconds: float, folded: str | None = None):
        """`method(text)` within `seconds`, the answer kept per (method, text, seconds); `folded`: the text's
        folded form, matched in its place."""
        key = (method, text, seconds)
        found = self._found
        if key in found:
            return found[key]
        on = text if folded is None else folded
        try:
            result = method(on, timeout=seconds)
        except TimeoutError:
            raise PatternTimeout(self.pattern, str(text), seconds) from None
        if folded is not None:
            result = _printed(result, text, folded)
        if len(text) > KEPT_TEXT_TO:
            return result
        if len(found) >= FOUND_KEPT:
            found.clear()
        found[key] = result
        return result

    def _cannot_start(self, text, searched: bool) -> bool:
        """Whether the gate rules a match out: `searched` a search (anywhere), else a match at the start."""
        gate = self._gate
        if gate is None or not isinstance(text, str):
            return False
        anchored, prefix = gate
        return not text.startswith(prefix) if anchored or not searched else prefix not in text

    @property
    def groupindex(self):
        return self._compiled.groupindex

    def _bounded(self, method, text, *args, **kwargs):
        seconds = match_timeout()
        try:
            return method(text, *args, timeout=seconds, **kwargs)
        except TimeoutError:
            raise PatternTimeout(self.pattern, str(text), seconds) from None

    def _one(self, method, text, args, searched: bool, seconds: float | None = None):
        """A search or match (`searched`) on the folded text, gated and kept, read from the printed text."""
        if not isinstance(text, str):
            if seconds is None:
                return self._bounded(method, text, *args)
            try:
                return method(text, *args, timeout=seconds)
            except TimeoutError:
                raise PatternTimeout(self.pattern, str(text), seconds) from None
        if args:
            folded = fold_width(text)
            return _printed(self._bounded(method, folded, *args), text, folded)
        if seconds is None:
            seconds = match_timeout()
        key = (method, text, seconds)
        if key in self._found:  # asked before: no fold, no gate
            return self._found[key]
        folded = fold_width(text)
        if self._cannot_start(folded, searched):
            return None
        return self._kept(method, text, seconds, folded)

    def search(self, text: str, *args):
        return self._one(self._compiled.search, text, args, True)

    def search_within(self, text: str, seconds: float):
        """`search` within `seconds` (`match_timeout()` read once by a caller asking many lines)."""
        return self._one(self._compiled.search, text, (), True, seconds)

    def match(self, text: str, *args):
        return self._one(self._compiled.match, text, args, False)

    def fullmatch(self, text: str, *args):
        folded = fold_width(text) if isinstance(text, str) else text
        if not args and self._cannot_start(folded, False):
            return None
        return _printed(self._bounded(self._compiled.fullmatch, folded, *args), text, folded)

    def finditer(self, text: str, *args):
        folded = fold_width(text) if isinstance(text, str) else text
        found = self._bounded(lambda t, *a, **k: list(self._compiled.finditer(t, *a, **k)), folded, *args)
        return iter([_printed(m, text, folded) for m in found])

    def findall(self, text: str, *args):
        folded = fold_width(text) if isinstance(text, str) else text
        if folded is text:
            return self._bounded(self._compiled.findall, text, *args)
        groups = self._compiled.groups
        found = [PrintedMatch(m, text) for m in self._bounded(lambda t, *a, **k: list(self._compiled.finditer(t, *a, **k)), folded, *args)]
        return [m.group(0) if groups == 0 else (m.group(1) or "") if groups == 1 else tuple(m.groups("")) for m in found]

    def sub(self, repl, text: str, count: int = 0):
        """Replaced on the printed text: a callable `repl` is given `PrintedMatch`es; a template's group references
        are expanded from the printed text."""
        folded = fold_width(text) if isinstance(text, str) else text
        if folded is text:
            return self._bounded(lambda t, **k: self._compiled.sub(repl, t, count, **k), text)
        pieces, at = [], 0
        for n, m in enumerate(self.finditer(text)):
            if count and n >= count:
                break
            pieces += [text[at:m.start()], repl(m) if callable(repl) else _expanded(repl, m)]
            at = m.end()
        return "".join([*pieces, text[at:]])

    def __repr__(self) -> str:
        return f"SpecPattern({self.pattern!r})"


_GROUP_REFERENCE = regex.compile(r"\\g<(\w+)>|\\(\d{1,2})")


def _expanded(template: str, found: PrintedMatch) -> str:
    """`template` with its group references (`\\1`, `\\g<name>`) as `found`'s printed groups."""
    parts, at = [], 0
    for ref in _GROUP_REFERENCE.finditer(template):
        name = ref.group(1) or ref.group(2)
        parts += [template[at:ref.start()], found.group(int(name) if name.isdigit() else name) or ""]
        at = ref.end()
    parts.append(template[at:])
    return "".join(parts)


@lru_cache(maxsize=1024)
def spec_pattern(pattern: str, flags: int = 0) -> SpecPattern:
    """The bounded, compiled form of a spec pattern (compiled once per process)."""
    return SpecPattern(pattern, flags)


class AnyPattern:
    """Whether any of several spec patterns is found in a text, in one bounded search where they can be
    asked as one: `(?:a)|(?:b)` is found in a text exactly where `a` or `b` is, as long as no member has
    a group (a back reference would count the other members' groups), a global inline flag (it would
    reach the other members) or a backtracking verb (`(*SKIP)` moves where the search tries next). The
    time bound holds a search, not a pattern: a line rules are asked of one by one costs a bounded
    search per rule, the largest part of it the bound's own set-up, so this halves a furniture check
    with two rules. The bound is read when the rules are (`match_timeout`). Past its bound the joined search asks each member alone, so a timeout names the
    member that runs past it, as it would without joining."""

    __slots__ = ("members", "joined", "seconds")

    def __init__(self, patterns: list[str] | tuple[str, ...], flags: int = 0):
        self.seconds = match_timeout()  # read once: the environment is no faster to read than the search
        self.members = [spec_pattern(p, flags) for p in patterns]
        plain = regex.compile("", int(flags) | regex.VERSION0).flags
        joined = "|".join(f"(?:{m.pattern})" for m in self.members)
        joinable = len(self.members) > 1 and all(
            m._compiled.groups == 0 and m._compiled.flags == plain and "(*" not in m.pattern for m in self.members
        ) and size_problem(fold_pattern(joined)) is None  # each member within the bound, together perhaps not
        self.joined = spec_pattern(joined, flags) if joinable else None

    def found_in(self, text: str) -> bool:
        if self.joined is not None:
            try:
                return self.joined.search_within(text, self.seconds) is not None
            except PatternTimeout:
                pass  # each member alone, within its own bound: the one past it is named
        return any(m.search_within(text, self.seconds) for m in self.members)


def nested_quantifiers(pattern: str) -> list[str]:
    """The repeated groups of `pattern` that hold an unbounded quantifier, such as `(\\w+\\s?)+`: the
    structure behind catastrophic backtracking. Read from the pattern's parse tree, not its spelling."""
    parser = _re_parser()
    try:
        tree = parser.parse(pattern)
    except re.error:
        return []
    repeats = {parser.MAX_REPEAT, parser.MIN_REPEAT, getattr(parser, "POSSESSIVE_REPEAT", parser.MAX_REPEAT)}
    found: list[str] = []

    def children(op, arg):
        if op in repeats:
            yield arg[2]
        elif op is parser.SUBPATTERN:
            yield arg[-1]
        elif op is parser.BRANCH:
            yield from arg[1]
        elif op in (parser.ASSERT, parser.ASSERT_NOT):
            yield arg[1]
        elif op is parser.GROUPREF_EXISTS:
            yield from (a for a in arg[1:] if a is not None)
        elif hasattr(parser, "ATOMIC_GROUP") and op is parser.ATOMIC_GROUP:
            yield arg

    def repeats_within(sub) -> bool:
        for op, arg in sub:
            if op in repeats and op is not getattr(parser, "POSSESSIVE_REPEAT", None) and arg[1] == parser.MAXREPEAT:
                return True  # unbounded: a bounded inner repeat (\d{1,2}) cannot blow up on its own
            if any(repeats_within(child) for child in children(op, arg)):
                return True
        return False

    def walk(sub) -> None:
        for op, arg in sub:
            if op in repeats and arg[1] > 1 and op is not getattr(parser, "POSSESSIVE_REPEAT", None):
                if repeats_within(arg[2]):
                    found.append(f"a repeated group holding an unbounded repeat (group max {'∞' if arg[1] == parser.MAXREPEAT else arg[1]})")
                    continue
            for child in children(op, arg):
                walk(child)

    walk(tree)
    return found


# The nodes a spec pattern may compile to. The `regex` module writes out each required repetition of a group
# (`(?:ab){300}` is 300 copies), so nested counts multiply: `(?:(?:(?:a{1000}){1000}){1000})`, 34 characters, asked
# for gigabytes at compile time and had a run killed for memory; `(?:(?:ab){300}){300}` takes 24 MB. A shipped spec's
# largest pattern is a few hundred nodes.
MAX_COMPILED_NODES = 100_000


def compiled_size(pattern: str) -> int | None:
    """How many nodes `pattern` compiles to at most, each required repetition of a repeated part counted (a pattern
    Python's parser rejects counts 0: its own error says why); None where its groups nest too deep to parse."""
    parser = _re_parser()
    try:
        tree = parser.parse(pattern)
    except re.error:
        return 0
    except RecursionError:
        return None
    repeats = {parser.MAX_REPEAT, parser.MIN_REPEAT, getattr(parser, "POSSESSIVE_REPEAT", parser.MAX_REPEAT)}

    def size(sub) -> int:
        total = 0
        for op, arg in sub:
            if op in repeats:
                total += 1 + max(arg[0], 1) * size(arg[2])
            elif op is parser.SUBPATTERN:
                total += 1 + size(arg[-1])
            elif op is parser.BRANCH:
                total += 1 + sum(size(branch) for branch in arg[1])
            elif op in (parser.ASSERT, parser.ASSERT_NOT):
                total += 1 + size(arg[1])
            elif op is parser.GROUPREF_EXISTS:
                total += 1 + sum(size(a) for a in arg[1:] if a is not None)
            elif hasattr(parser, "ATOMIC_GROUP") and op is parser.ATOMIC_GROUP:
                total += 1 + size(arg)
            else:
                total += 1
        return total

    try:
        return size(tree)
    except RecursionError:
        return None


def size_problem(pattern: str) -> str | None:
    """Why `pattern` is not compiled (its size past `MAX_COMPILED_NODES`, or groups nested too deep), or None."""
    nodes = compiled_size(pattern)
    if nodes is None:
        return "its groups nest too deep to compile"
    if nodes > MAX_COMPILED_NODES:
        return (f"it compiles to {nodes:,} nodes, past {MAX_COMPILED_NODES:,} (each required repetition of a group is "
                "written out, so nested counts multiply)")
    return None


class PatternTooLarge(ValueError):
    """A spec pattern that would take too much memory to compile (`size_problem`)."""


def pattern_fields(model, prefix: str = "") -> list[tuple[str, str]]:
    """(dotted field, pattern) for every regular expression in a spec model: the fields whose
    description says they hold a regex, however deep and in lists."""
    from pydantic import BaseModel

    found: list[tuple[str, str]] = []
    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        where = f"{prefix}{name}"
        is_regex = "regex" in (info.description or "").lower()
        items = value if isinstance(value, (list, tuple)) else [value]
        for index, item in enumerate(items):
            at = f"{where}[{index}]" if isinstance(value, (list, tuple)) else where
            if isinstance(item, BaseModel):
                found += pattern_fields(item, at + ".")
            elif is_regex and isinstance(item, str):
                found.append((at, item))
    return found


def pattern_warnings(model) -> list[str]:
    """`specs check` warnings: each spec pattern whose structure invites catastrophic backtracking."""
    return [f"field '{where}': {what} in {pattern!r}; it can backtrack exponentially on a line that does not "
            "match (runs stop it after the time bound and report the file); rewrite it without the nesting"
            for where, pattern in pattern_fields(model) for what in nested_quantifiers(pattern)]


__all__ = ["MATCH_TIMEOUT_S", "MAX_COMPILED_NODES", "AnyPattern", "PatternTimeout", "PatternTooLarge", "SpecPattern", "held_bound", "literal_gate", "match_timeout", "nested_quantifiers", "pattern_fields", "pattern_warnings",
           "compiled_size", "size_problem", "spec_pattern"]
