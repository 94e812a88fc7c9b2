"""Long-lived objects set aside from the cyclic garbage collector, in a program's own process.

Python's full collection walks every container object the process holds. An `examcorpus extract`
process holds about 60,000 of them once its modules are imported (numpy, pyarrow, pydantic's models,
the specs and language data) and about 90,000 more once numba's compiled loops are loaded
(`extract.charloop`), all alive until the process ends; a 150-sheet run made five full collections of
70 ms each walking them, about 3 % of its CPU, and the count grows with the run's allocations.
`gc.freeze()` moves what is alive into a generation the collector never walks.

Only a process that is a program's own may do that: a frozen object that later becomes cyclic garbage is
never freed, which a short program settling its start can afford and a test run or a notebook calling
`pipeline.cli.main` many times cannot. So `own_process()` (the `examcorpus` entry point run as a program)
opts in, and `settle()` does nothing in a process that did not. Each settle collects first, so no
garbage of the moment is frozen with the living. The collector still runs as before over everything
created after the last settle; what is collected, and so what a run writes, is unchanged.

Forked pool workers inherit the frozen generation (fewer pages copied on write), and the opt-in with it.

Modules a file's reading imports for the first time (the OCR passes and their recogniser, scipy's and onnxruntime's
tables, on the first file with drawn text or a scan) live until the process ends too: after the file that imported
them, the collector settles again (`collector.one_file`, through `settle_new_modules`), so a run's later full
collections walk only what its files made since (on the corpus's bench run two full collections of 70 ms each,
which found nothing to free, were about 3 % of its CPU).
"""
from __future__ import annotations

import gc
import sys

from pipeline.infra import collector

_own = False
_modules_settled = 0  # the modules imported at the last settle


def own_process() -> None:
    """This process is a program's own (`examcorpus` run from a shell): its long-lived objects may be
    frozen, by the `settle()` calls of the stages it runs (once their modules are loaded)."""
    global _own
    _own = True
    collector.hold_until_settled()  # the start's imports are no garbage: collected once, at the first settle
    collector.after_each_file(settle_new_modules)


def is_own_process() -> bool:
    return _own


def settle() -> bool:
    """Set aside every object alive now, after collecting the garbage of the moment, where the process is
    a program's own; call it once long-lived modules or tables are loaded. Returns whether it froze."""
    if not _own:
        return False
    gc.collect()
    gc.freeze()
    global _modules_settled
    _modules_settled = len(sys.modules)
    collector.release_start()
    return True


def settle_new_modules() -> bool:
    """Settle where modules were imported since the last settle (a file's reading loaded them); whether it did."""
    return len(sys.modules) > _modules_settled and settle()
