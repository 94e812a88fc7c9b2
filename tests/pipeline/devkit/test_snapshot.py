"""The same-output check for speed work: a snapshot holds every curated record, problem and extracted
document of a run with the version stamps and the run's own root blanked, so two runs of unchanged
code compare equal, and any changed record, line or box is named."""
from __future__ import annotations

import json

from pipeline import PIPELINE_VERSION
from pipeline.devkit import snapshot
from tests.fixtures import sheets


def test_two_runs_of_the_same_code_give_the_same_snapshot_and_a_changed_line_is_named(tmp_path):
    sheets.vocational(tmp_path / "sheets", count=6)
    for name in ("before", "after"):
        snapshot.dump_family("vocational", "pl_cke_zawodowy", tmp_path / name, from_dir=tmp_path / "sheets")
    assert snapshot.compare(tmp_path / "before", tmp_path / "after") == []

    records = json.loads((tmp_path / "after" / "vocational.records.json").read_text(encoding="utf-8"))
    assert len(records) == 6 and all(r["pipeline_version"] == "" for r in records)
    documents_text = (tmp_path / "after" / "vocational.documents.json").read_text(encoding="utf-8")
    assert PIPELINE_VERSION not in documents_text
    documents = json.loads(documents_text)
    assert documents and all(d["path"].startswith("{ROOT}/raw/") for d in documents)  # the run's root, blanked
    first_line = documents[0]["pages"][0]["lines"][0]
    first_line["x0"] += 0.01
    (tmp_path / "after" / "vocational.documents.json").write_text(json.dumps(documents), encoding="utf-8")
    records[2]["choices"][1] += " (changed)"
    (tmp_path / "after" / "vocational.records.json").write_text(json.dumps(records), encoding="utf-8")
    differences = snapshot.compare(tmp_path / "before", tmp_path / "after")
    assert any(d.startswith("vocational.documents.json[0]: .pages[0].lines[0].x0:") for d in differences), differences
    assert any(d.startswith("vocational.records.json[2]: .choices[1]:") and "(changed)" in d for d in differences), differences


def test_a_file_missing_from_one_side_and_a_changed_count_are_named(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "x.records.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "b" / "x.records.json").write_text("[1]", encoding="utf-8")
    (tmp_path / "a" / "y.problems.json").write_text("[]", encoding="utf-8")
    assert snapshot.compare(tmp_path / "a", tmp_path / "b") == [
        "x.records.json: 2 entries before, 1 after", "y.problems.json: only in before",
    ]
