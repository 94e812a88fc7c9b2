"""A release's file names come from its records' sources: one that no release may hold is refused before anything is
written, naming the source and its odd characters.

A config's Parquet is `data/<source>/<split>.parquet` and its LLMzSzŁ export `exports/llmzszl/<source>.jsonl`. A spec's
name is `[a-z][a-z0-9_]*`, but a curated file made by hand or by another tool carries any source: before, one spelt
with a look-alike of `/` (U+2215 DIVISION SLASH, U+FF0F FULLWIDTH SOLIDUS, U+2044 FRACTION SLASH) was published into
a folder of that name, and the release then failed its own `examcorpus verify` ("no file a release holds"): a
release on the Hub that no one can verify. A source with a real `/` and `..` named a path outside the release folder.
Measured in `docs/results.md`, "Trust at the seams a twelfth time".
"""
from __future__ import annotations

from dataclasses import replace

import pyarrow.parquet as pq
import pytest

from pipeline.publish import PublishError, publish_to_folder, verify_location
from pipeline.records import questions_to_table
from pipeline.split import load_split_config, run_split
from tests.pipeline.split.conftest import make_corpus

SOURCES = {"pl_test": ("pl", [2021, 2022, 2023]), "el_test": ("el", [2022, 2023])}


def split_with_source(root, source: str):
    """A split made by the split stage from a curated file (named plainly) whose Polish records carry `source`."""
    records = [replace(r, source=source) if r.source == "pl_test" else r for r in make_corpus(SOURCES)]
    curated = root / "curated"
    curated.mkdir(parents=True)
    pq.write_table(questions_to_table(records), curated / "all.parquet")
    run_split(curated, root / "split", load_split_config())
    return root / "split"


@pytest.mark.parametrize("source, named", [
    ("pl\u2215test", "U+2215 DIVISION SLASH"),
    ("pl\uff0ftest", "U+FF0F FULLWIDTH SOLIDUS"),
    ("pl\u2044test", "U+2044 FRACTION SLASH"),
    ("pl/../../escaped", "'/'"),
    ("pl\\..\\x", "'\\\\'"),
])
def test_a_source_no_release_file_name_may_hold_is_refused_before_anything_is_written(tmp_path, source, named):
    split = split_with_source(tmp_path / "work", source)
    release = tmp_path / "out" / "release"
    with pytest.raises(PublishError) as err:
        publish_to_folder(split, "public", release, release_id="v1", show_progress=False)
    assert repr(source) in str(err.value) and named in str(err.value), str(err.value)
    assert not release.exists()
    assert not [p for p in tmp_path.rglob("*") if "escaped" in p.name or p.name == "x"]


def test_the_sources_a_spec_may_name_publish_and_verify(tmp_path):
    split = split_with_source(tmp_path / "work", "pl_test.v2-a")
    publish_to_folder(split, "public", tmp_path / "release", release_id="v1", show_progress=False)
    assert verify_location(str(tmp_path / "release")).ok
