"""Splitting curated records: the newest year of each family goes private, flagged records go nowhere,
the same input always gives the same split, and a leak fails the split with a report naming the pairs."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pipeline.diagnostics import Code, diagnose
from pipeline.split import (LeakageError, SplitDataError, SplitInputError, load_split_config, parse_split_config,
                            read_split, run_split, split_records)
from tests.pipeline.split.conftest import make_record, write_curated


def years(questions):
    return sorted({(q.source, q.year) for q in questions})


def test_the_newest_year_of_each_family_is_private_and_the_rest_public(corpus):
    result = split_records(corpus, load_split_config())
    assert years(result.private) == [("el_test", 2023), ("pl_test", 2023)]
    assert years(result.public) == [("el_test", 2022), ("pl_test", 2021), ("pl_test", 2022)]
    assert result.rule.private_years == {"el_test": [2023], "pl_test": [2023]}
    assert [q.id for q in result.public] == sorted(q.id for q in result.public)
    assert len(result.public) + len(result.private) == len(corpus)


def test_an_unsure_ocr_reading_queues_a_record_for_the_audit_but_does_not_withhold_it(corpus):
    unsure = diagnose(Code.OCR_UNCERTAIN, parts="option B", words="FAT3Z")
    only_unsure = replace(corpus[0], flags=[unsure])
    also_unkeyed = replace(corpus[-1], flags=[unsure, "no key entry"])
    result = split_records([only_unsure, also_unkeyed] + corpus[1:-1], load_split_config())
    released = {q.id: q for q in result.public + result.private}
    assert only_unsure.id in released and released[only_unsure.id].flag_codes == ["ocr.uncertain"]
    assert [(w.id, w.reason) for w in result.withheld] == [(also_unkeyed.id, "flagged: no key entry")]


def test_explicit_years_per_source_win_over_newest_years(corpus):
    config = parse_split_config({"private": {"newest_years": 2, "years": {"pl_test": [2021]}}})
    result = split_records(corpus, config)
    assert years(result.private) == [("el_test", 2022), ("el_test", 2023), ("pl_test", 2021)]
    assert result.rule.config["private_years"] == {"pl_test": [2021]}


def test_flagged_records_are_in_neither_split_and_are_listed_with_their_flags(corpus):
    flagged = [replace(corpus[0], flags=["no key entry"]), replace(corpus[-1], flags=["key label not among options"])]
    records = flagged + corpus[1:-1]
    result = split_records(records, load_split_config())
    kept = {q.id for q in result.public + result.private}
    assert not kept & {q.id for q in flagged}
    assert {(w.id, w.reason) for w in result.withheld} == {(flagged[0].id, "flagged: no key entry"),
                                                           (flagged[1].id, "flagged: key label not among options")}
    keep = split_records(records, parse_split_config({"withhold_flagged": False}))
    assert {q.id for q in flagged} <= {q.id for q in keep.public + keep.private} and keep.withheld == []


def test_one_id_twice_is_refused(corpus):
    with pytest.raises(SplitInputError, match=corpus[0].id):
        split_records(corpus + [corpus[0]], load_split_config())


def test_the_split_folder_is_byte_identical_on_a_rerun(tmp_path, curated_dir):
    config = load_split_config()
    run_split(curated_dir, tmp_path / "a", config)
    run_split(curated_dir, tmp_path / "b", config)
    for name in ("public.parquet", "private.parquet", "split.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    folder = read_split(tmp_path / "a")
    assert folder.manifest["counts"] == {"public": 18, "private": 12, "withheld": 0}
    assert [i["path"] for i in folder.manifest["inputs"]] == ["el_test.parquet", "pl_test.parquet"]
    assert len(folder.questions("private")) == 12 and folder.rule["config_sha256"] == config.sha256()


def leaky_corpus(corpus):
    public = next(q for q in corpus if q.source == "pl_test" and q.year == 2022)
    copy = make_record(99, source="pl_test", year=2023, question=public.question, choices=public.choices)
    return corpus + [copy], copy, public


def test_a_leak_fails_the_split_names_the_pairs_and_leaves_nothing_to_publish(tmp_path, corpus):
    records, copy, public = leaky_corpus(corpus)
    out = tmp_path / "split"
    run_split(write_curated(tmp_path / "ok", corpus), out, load_split_config())  # an earlier good split
    with pytest.raises(LeakageError) as info:
        run_split(write_curated(tmp_path / "leaky", records), out, load_split_config())
    assert {(p.check, p.private_id, p.public_id) for p in info.value.pairs} == {
        ("text", copy.id, public.id), ("near_duplicate", copy.id, public.id)}
    assert f"private {copy.id} ~ public {public.id}" in str(info.value)
    assert f"private {copy.id} ~ public {public.id}" in (out / "leakage.md").read_text()
    assert json.loads((out / "split.json").read_text())["status"] == "failed"
    assert not (out / "public.parquet").exists() and not (out / "private.parquet").exists()
    with pytest.raises(SplitDataError, match="failed its leakage guard"):
        read_split(out)


def test_withhold_public_keeps_the_public_twin_out_and_lists_it(corpus):
    records, copy, public = leaky_corpus(corpus)
    result = split_records(records, parse_split_config({"leakage": {"on_leak": "withhold_public"}}))
    assert public.id not in {q.id for q in result.public} and copy.id in {q.id for q in result.private}
    [withheld] = result.withheld
    assert withheld.id == public.id and f"text of private {copy.id}" in withheld.reason


def test_bad_curated_input_is_named(tmp_path):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "x.parquet").write_bytes(b"not parquet")
    with pytest.raises(SplitDataError, match=r"x.parquet: not a readable Parquet file"):
        run_split(tmp_path / "c", tmp_path / "out", load_split_config())
    with pytest.raises(SplitDataError, match=r"no curated \*.parquet files"):
        run_split(tmp_path / "empty", tmp_path / "out", load_split_config())


def test_a_split_file_changed_after_the_split_is_refused_on_reading(tmp_path, curated_dir):
    run_split(curated_dir, tmp_path / "split", load_split_config())
    folder = read_split(tmp_path / "split")
    private = folder.questions("private")
    (tmp_path / "split" / "private.parquet").write_bytes((tmp_path / "split" / "public.parquet").read_bytes())
    with pytest.raises(SplitDataError, match=r"private.parquet: SHA-256 .* changed after the split"):
        read_split(tmp_path / "split").questions("private")
    assert len(private) == 12
