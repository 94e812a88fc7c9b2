"""`examcorpus split`: exit 0 with the rule and counts, 1 naming the pairs on a leak, 2 on bad input."""
from __future__ import annotations

from pipeline.cli import main
from tests.pipeline.split.conftest import make_record, write_curated


def test_split_prints_the_rule_and_counts(tmp_path, curated_dir, capsys):
    out = tmp_path / "split"
    assert main(["split", "--curated", str(curated_dir), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "pl_test: private years 2023" in printed and "public 18, private 12, withheld 0" in printed
    assert (out / "public.parquet").is_file()


def test_a_leak_exits_1_naming_the_pair(tmp_path, corpus, capsys):
    public = corpus[0]
    copy = make_record(50, source=public.source, year=2023, images=(), question=public.question, choices=public.choices)
    curated = write_curated(tmp_path / "curated", corpus + [copy])
    assert main(["split", "--curated", str(curated), "--out", str(tmp_path / "split")]) == 1
    assert f"private {copy.id} ~ public {public.id}" in capsys.readouterr().err


def test_a_bad_config_exits_2_naming_it(tmp_path, curated_dir, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("leakage:\n  on_leak: maybe\n")
    assert main(["split", "--curated", str(curated_dir), "--config", str(bad)]) == 2
    assert f"{bad}: leakage.on_leak must be one of" in capsys.readouterr().err


# a reviewer reads `on_leak: fail` first; the run would withhold the leaking public records instead
TWO_POLICIES = """\
version: 1
leakage:
  on_leak: fail
  near_duplicate_jaccard: 0.8
  on_leak: withhold_public
"""


def test_a_split_config_giving_the_leak_policy_twice_is_refused(tmp_path, corpus, capsys):
    public = corpus[0]
    copy = make_record(50, source=public.source, year=2023, images=(), question=public.question, choices=public.choices)
    curated = write_curated(tmp_path / "curated", corpus + [copy])
    config = tmp_path / "split.yaml"
    config.write_text(TWO_POLICIES)
    assert main(["split", "--curated", str(curated), "--config", str(config), "--out", str(tmp_path / "split")]) == 2
    assert "field 'leakage.on_leak': given twice (lines 3 and 5); keep one" in capsys.readouterr().err
    assert not (tmp_path / "split").exists()


# `pl_tset` is a slip for pl_test: its years were meant private; el_test has no 2019; the allowed pair names no record
MISSPELT_RULE = """\
version: 1
private:
  years:
    pl_tset: [2021]
    el_test: [2019, 2023]
leakage:
  allowed_pairs: [["pl_test:2021:maj:S_1:1", "pl_test:2099:maj:S_1:1"]]
"""


def test_a_split_rule_naming_what_no_record_has_is_said_in_the_output_and_split_json(tmp_path, curated_dir, capsys):
    import json

    config = tmp_path / "split.yaml"
    config.write_text(MISSPELT_RULE)
    out = tmp_path / "split"
    assert main(["split", "--curated", str(curated_dir), "--config", str(config), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    expected = [
        "private.years.el_test: no record of year(s) 2019 (its years: 2022, 2023)",
        "private.years.pl_tset: no record of source 'pl_tset' (sources: el_test, pl_test); its years made nothing private",
        "leakage.allowed_pairs [pl_test:2021:maj:S_1:1, pl_test:2099:maj:S_1:1]: no record pl_test:2099:maj:S_1:1",
    ]
    for line in expected:
        assert f"  rule matches no record: {line}" in printed
    assert "pl_test: private years 2023" in printed  # the slip left pl_test to the newest-year default
    assert json.loads((out / "split.json").read_text(encoding="utf-8"))["rule_unmatched"] == expected


def test_a_split_rule_whose_every_entry_matches_records_says_nothing_of_it(tmp_path, curated_dir, capsys):
    import json

    config = tmp_path / "split.yaml"
    config.write_text("version: 1\nprivate:\n  years:\n    pl_test: [2021]\n")
    out = tmp_path / "split"
    assert main(["split", "--curated", str(curated_dir), "--config", str(config), "--out", str(out)]) == 0
    assert "rule matches no record" not in capsys.readouterr().out
    assert json.loads((out / "split.json").read_text(encoding="utf-8"))["rule_unmatched"] == []
