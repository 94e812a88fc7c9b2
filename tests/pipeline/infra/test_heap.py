"""A program's long-lived objects are set aside from the cyclic collector (`pipeline.infra.heap`): only in a
process that is the program's own, never with the garbage of the moment, and the collector still frees
what becomes garbage afterwards. Each case runs in a fresh interpreter, as freezing is for a whole process."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _run(code: str, **env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env}, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


CYCLE = """
    import gc, json, weakref
    class Node:
        pass
    def cycle():
        a, b = Node(), Node()
        a.other, b.other = b, a
        return weakref.ref(a)
"""


def test_a_process_that_is_no_programs_own_freezes_nothing():
    out = _run(CYCLE + """
    from pipeline.infra import settle
    kept = Node()
    print(json.dumps({"froze": settle(), "frozen": gc.get_freeze_count()}))
    """)
    assert out == {"froze": False, "frozen": 0}


def test_a_programs_own_process_sets_aside_the_living_and_collects_the_garbage_first():
    out = _run(CYCLE + """
    from pipeline.infra import own_process, settle
    from pipeline.infra.heap import is_own_process
    gc.disable()  # no collection but settle's own
    own_process()
    kept = Node()
    kept.self = kept
    dropped = cycle()  # garbage when settle runs
    froze = settle()
    frozen = gc.get_freeze_count()
    later = cycle()  # garbage made after the settle: the collector still frees it
    gc.collect()
    print(json.dumps({"own": is_own_process(), "froze": froze, "frozen": frozen, "dropped_freed": dropped() is None,
                      "later_freed": later() is None, "kept_tracked": gc.is_tracked(kept)}))
    """)
    assert out["own"] and out["froze"] and out["frozen"] > 1000  # the modules' objects at least
    assert out["dropped_freed"], "garbage alive at the settle was frozen with the living"
    assert out["later_freed"] and out["kept_tracked"]


@pytest.mark.parametrize("how, own", [("main()", True), ("main(['--help'])", False)])
def test_the_examcorpus_program_owns_its_process_and_a_caller_of_main_keeps_its_own(how, own):
    out = _run(f"""
    import contextlib, io, json, sys
    from pipeline import cli
    from pipeline.infra.heap import is_own_process
    sys.argv = ["examcorpus", "--help"]
    with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
        cli.{how}
    print(json.dumps({{"own": is_own_process()}}))
    """)
    assert out == {"own": own}


def test_loading_the_compiled_reader_sets_aside_numbas_tables_in_a_programs_process():
    pytest.importorskip("numba")
    out = _run("""
    import gc, json
    from pipeline.infra import own_process, settle
    own_process()
    settle()
    before = gc.get_freeze_count()
    from pipeline.extract import charloop
    reader = charloop.compiled_reader()
    print(json.dumps({"reader": reader is not None, "before": before, "after": gc.get_freeze_count()}))
    """, EXAMCORPUS_COMPILED_CHARS="1")
    if not out["reader"]:
        pytest.skip("numba could not build the compiled reader here")
    assert out["after"] > out["before"] + 10_000


@pytest.mark.parametrize("own", [True, False])
def test_modules_a_file_imports_are_set_aside_after_it_with_its_garbage_freed_first(own):
    out = _run(CYCLE + f"""
    import sys
    from pipeline.infra import own_process, settle
    from pipeline.infra.collector import per_file
    if {own}:
        own_process()
    settle()
    fresh = "xml.dom.minidom" not in sys.modules
    before = gc.get_freeze_count()

    @per_file
    def first_file():  # its reading imports a module the process had not loaded
        import xml.dom.minidom  # noqa: F401
        return cycle()  # cyclic garbage the file leaves

    @per_file
    def next_file():  # imports nothing new
        return cycle()

    dropped = first_file()
    after_first = gc.get_freeze_count()
    later = next_file()
    after_next = gc.get_freeze_count()
    gc.collect()
    print(json.dumps({{"fresh": fresh, "first": after_first - before, "next": after_next - after_first,
                      "dropped_freed": dropped() is None, "later_freed": later() is None}}))
    """)
    assert out["fresh"]
    if own:
        assert out["first"] > 500, "the module's objects were not set aside after the file that imported it"
        assert out["next"] == 0  # no module new since: no settle
    else:
        assert out["first"] == out["next"] == 0  # a process that is no program's own freezes nothing
    assert out["dropped_freed"] and out["later_freed"]
