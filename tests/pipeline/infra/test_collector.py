"""The collector's policy around one file (`pipeline.infra.collector`): held back while a file is extracted or
parsed, one collection after each file that frees what the file left as cyclic garbage, CPython's own
schedule of older generations kept, and the thresholds left as they were, however the file ends. The
files are real generated sheets read by the real `extract_document` and `parse_sheet`."""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import textwrap
import weakref
from pathlib import Path

import pytest

from pipeline.acquire import ManifestEntry
from pipeline.extract import ExtractOptions, extract_document
from pipeline.infra import collector, one_file
from pipeline.parse import parse_sheet
from pipeline.specs import load_spec
from tests.fixtures import sheets

ROOT = Path(__file__).resolve().parents[3]


class Node:
    other: object = None


def _cycle() -> weakref.ref:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


class Collections:
    """The generations the collector walks while it is installed (gc.callbacks)."""

    def __init__(self) -> None:
        self.generations: list[int] = []

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.generations.append(info["generation"])

    def __enter__(self) -> Collections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self)


@pytest.fixture
def default_thresholds():
    """The collector as CPython starts it, whatever the test run set; put back after."""
    kept, enabled = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(700, 10, 10)
    gc.enable()
    gc.collect()
    yield
    gc.set_threshold(*kept)
    (gc.enable if enabled else gc.disable)()


@pytest.fixture(scope="module")
def vocational_sheets(tmp_path_factory):
    folder = tmp_path_factory.mktemp("collector")
    fixture = sheets.vocational(folder, count=6)
    spec = load_spec("pl_cke_zawodowy")

    def entry(path: Path, role: str) -> ManifestEntry:
        return ManifestEntry(path.as_uri(), path.as_uri(), spec.name, role, {"year": "2030"}, "local", "0" * 64, path=str(path))

    return spec, [(sheet, entry(sheet, "sheet")) for sheet in fixture.sheets]


def test_a_run_over_many_files_collects_once_after_each_and_leaves_the_thresholds_as_they_were(
        default_thresholds, vocational_sheets):
    spec, jobs = vocational_sheets
    options = ExtractOptions.from_spec(spec)
    extract_document(jobs[0][0], "0" * 64, options)  # the first file of a process loads what it loads lazily
    per_file: list[list[int]] = []
    questions = 0
    for sheet, sheet_entry in jobs * 3:
        with Collections() as extracting:
            document = extract_document(sheet, "0" * 64, options)
        young_after_extract = gc.get_count()[0]
        with Collections() as parsing:
            questions += len(parse_sheet(document, sheet_entry, [], spec).questions)
        per_file += [extracting.generations, parsing.generations]
        assert young_after_extract < 100, "no collection ran as the file was done"
        assert gc.get_threshold() == (700, 10, 10)
    assert questions > 0, "the sheets were read"
    # Each file's objects would have been walked many times at the young threshold of 700; held back, the
    # collector ran once a file, after it (a sheet's pages make far fewer than FILE_THRESHOLD survivors).
    assert all(len(generations) == 1 for generations in per_file), per_file


def test_cyclic_garbage_a_file_leaves_is_freed_before_the_next_file_starts(default_thresholds):
    with one_file():
        left = _cycle()
        assert left() is not None
    assert left() is None


def test_older_generations_are_still_collected_on_cpythons_schedule(default_thresholds):
    with Collections() as seen:
        for _ in range(130):
            with one_file():
                _cycle()
    # Young after each file, the middle every 10 files, the whole heap every 100: memory stays bounded.
    assert seen.generations.count(2) >= 1 and seen.generations.count(1) >= 10
    assert gc.get_count()[1] <= 10 and gc.get_count()[2] <= 10


def test_nested_files_change_the_policy_once_and_a_failing_file_restores_it(default_thresholds):
    with pytest.raises(RuntimeError), one_file():
        assert gc.get_threshold()[0] == collector.FILE_THRESHOLD
        with one_file():  # a key read inside a sheet's run
            pass
        assert gc.get_threshold()[0] == collector.FILE_THRESHOLD, "the inner file restored the thresholds early"
        raise RuntimeError("the file failed")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_process_that_turned_the_collector_off_gets_no_collection(default_thresholds):
    gc.disable()
    with Collections() as seen, one_file():
        _cycle()
    assert seen.generations == [] and not gc.isenabled()


def test_a_programs_start_is_held_back_until_its_first_settle_and_a_settle_inside_a_file_waits_for_its_end():
    code = textwrap.dedent("""
        import gc, json
        from pipeline.infra import one_file, own_process, settle
        before = gc.get_threshold()
        own_process()
        held = gc.get_threshold()
        with one_file():
            settle()  # the compiled reader loaded mid-file (`extract.charloop`)
            inside = gc.get_threshold()
        print(json.dumps({"before": before, "held": held, "inside": inside, "after": gc.get_threshold()}))
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["held"][0] == collector.FILE_THRESHOLD and out["inside"][0] == collector.FILE_THRESHOLD
    assert out["after"] == out["before"]
