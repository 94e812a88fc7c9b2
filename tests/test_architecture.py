"""The layout rules of README's "Layout" table, checked on the source tree: no import cycles, modules
small enough to read in one sitting, every package saying what it does, and stage packages used
through the names their `__init__` exports."""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("pipeline", "eval")
MAX_MODULE_LINES = 600
# Packages whose insides are their own business: other packages import their public names only.
STAGE_PACKAGES = ("pipeline.infra", "pipeline.acquire", "pipeline.extract", "pipeline.extract.ocr", "pipeline.parse")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every `from X import names` and `import X`, at any depth of the file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
    return found


def _dependencies(name: str) -> set[str]:
    """Modules of this project that `name` imports (a package's own submodules and parents excluded:
    a package importing its children, or a child its parent, is no cycle of the layout)."""
    targets = set()
    for module, names in _imports(MODULES[name]):
        candidates = [f"{module}.{n}" for n in names] + [module]
        targets.update(c for c in candidates if c in MODULES)
    return {t for t in targets if not (t.startswith(name + ".") or name.startswith(t + "."))}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back_through_others():
    graph = {name: _dependencies(name) for name in MODULES}
    assert _cycles(graph) == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_reads_in_one_sitting(name):
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE_LINES, f"{MODULES[name].relative_to(ROOT)}: {lines} lines"


@pytest.mark.parametrize("name", sorted(n for n, p in MODULES.items() if p.name == "__init__.py"))
def test_every_package_says_what_it_does(name):
    docstring = ast.get_docstring(ast.parse(MODULES[name].read_text(encoding="utf-8")))
    assert docstring and len(docstring) > 40, f"{name}: no docstring saying what the package does"


@pytest.mark.parametrize("package", STAGE_PACKAGES)
def test_stage_packages_are_used_through_their_public_names(package):
    public = set(importlib.import_module(package).__all__)
    offenders = []
    for name, path in MODULES.items():
        if name == package or name.startswith(package + "."):
            continue
        for module, names in _imports(path):
            if module == package:
                offenders += [f"{name}: {module}.{n} is not public" for n in names if n not in public]
            elif module.startswith(package + ".") and module not in STAGE_PACKAGES:
                offenders.append(f"{name}: imports {module} (use {package})")
    assert offenders == []


# --------------------------------------------------------------------------- eval, grouped as Inspect groups it

EVAL_PACKAGES = ("eval.dataset", "eval.prompts", "eval.models", "eval.scorers", "eval.run", "eval.log", "eval.analysis")
MAX_EVAL_TOP_LEVEL_MODULES = 8


def test_eval_keeps_its_top_level_to_a_few_modules_beside_its_packages():
    top = sorted(p.name for p in (ROOT / "eval").glob("*.py"))
    assert len(top) <= MAX_EVAL_TOP_LEVEL_MODULES, top
    packages = sorted(p.parent.name for p in (ROOT / "eval").glob("*/__init__.py"))
    assert packages == sorted(name.split(".")[1] for name in EVAL_PACKAGES)


def _public_names(docstring: str) -> list[tuple[str, str]]:
    """(module, name) of every "- `module`: `name`, `name`" line of a package docstring's Public list
    (a line may name several modules, each followed by its names; continuation lines add names)."""
    public = docstring.split("Public:", 1)[1]
    found, module = [], None
    for line in public.splitlines():
        stripped = line.strip()
        if not stripped or not (stripped.startswith("- ") or (module and line.startswith("  "))):
            module = None if not stripped.startswith("- ") else module
            continue
        for token in stripped.removeprefix("- ").replace(";", ",").split(","):
            token = token.strip()
            if token.startswith("`") and "`:" in token:
                module = token.split("`")[1]
                token = token.split(":", 1)[1].strip()
            if token.startswith("`") and module:
                found.append((module, token.split("`")[1]))
    return found


@pytest.mark.parametrize("package", [p for p in EVAL_PACKAGES if p != "eval.analysis"])
def test_every_eval_package_names_its_input_output_and_public_names_and_they_exist(package):
    docstring = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8")))
    assert "Input:" in docstring and "Output:" in docstring and "Public:" in docstring, package
    names = _public_names(docstring)
    assert len(names) >= 3
    missing = [f"{package}.{module}.{name}" for module, name in names
               if not hasattr(importlib.import_module(f"{package}.{module}"), name)]
    assert missing == []


def test_the_documented_backend_path_imports_the_very_same_modules():
    from eval.backends.base import ChoiceRequest
    from eval.backends.hf import HFBackend, packaged_smollm2_gguf

    models_base = importlib.import_module("eval.models.base")
    models_hf = importlib.import_module("eval.models.hf")
    assert ChoiceRequest is models_base.ChoiceRequest and HFBackend is models_hf.HFBackend
    assert packaged_smollm2_gguf is models_hf.packaged_smollm2_gguf
    assert models_hf.__spec__.name == "eval.models.hf"
