"""Evaluation: models run on curated or published records under versioned protocols, scored with
intervals, compared pairwise, and set against human exam results (see eval/README.md and `eval.cli`).

Packages, in the order a run goes through them (each `__init__` names its input, output and public names):
- `dataset`: the data a run scores, loaded and pinned by SHA-256, and few-shot pools.
- `prompts`: versioned prompt protocols and the judge's rubrics.
- `models`: model backends behind one interface (Hugging Face, OpenAI-compatible, Gemini).
- `scorers`: answer extraction and statuses, structured answers, the LLM judge, similarity.
- `run`: the plan, the runner (attempts, retries, resume) and provenance.
- `log`: the run folder's typed records, its manifest, recomputed statuses, scores, the offline audit.
- `analysis`: statistics, comparison, correlation with human results, leaderboard, passing, key errors,
  features, contamination.
- `cli`: `examcorpus eval ...`.

`eval.backends.*`, the documented path of the model backends before they became `eval.models`, still
imports the very same modules (one module object each, so isinstance checks hold across both names).
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

MOVED_PACKAGES = {"eval.backends": "eval.models"}


class _MovedPackageFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves an old dotted path to the module now at the new one, as the same module object."""

    def find_spec(self, name, path=None, target=None):
        for old in MOVED_PACKAGES:
            if name == old or name.startswith(old + "."):
                return importlib.util.spec_from_loader(name, self, is_package=name == old)
        return None

    def __init__(self) -> None:
        self._real_specs: dict[str, object] = {}

    def create_module(self, spec):
        old = next(o for o in MOVED_PACKAGES if spec.name == o or spec.name.startswith(o + "."))
        module = importlib.import_module(MOVED_PACKAGES[old] + spec.name[len(old):])
        self._real_specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module) -> None:
        # Already executed under its new name; the import system has just given it the old name's
        # spec, so it gets its own back (reloading and pickling go by the real name).
        module.__spec__ = self._real_specs.pop(module.__name__)


# First, before the path finders: they would load a second copy of a moved module from the new
# package's folder under the old name.
if not any(isinstance(finder, _MovedPackageFinder) for finder in sys.meta_path):
    sys.meta_path.insert(0, _MovedPackageFinder())
