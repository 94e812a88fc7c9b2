"""The split rule lives in a YAML file with a sensible default; bad files are refused naming the problem."""
from __future__ import annotations

import pytest

from pipeline.split import DEFAULT_CONFIG, SplitConfigError, load_split_config


def test_the_default_rule_holds_back_the_newest_year_of_each_family_and_withholds_flagged_records():
    config = load_split_config()
    assert config.path == str(DEFAULT_CONFIG)
    assert (config.newest_years, config.private_years, config.withhold_flagged) == (1, {}, True)
    assert config.leakage.on_leak == "fail" and config.leakage.near_duplicate_jaccard == 0.8
    assert "newest 1 year" in config.describe()


def test_explicit_years_are_recorded_and_change_the_rule_hash(tmp_path):
    path = tmp_path / "split.yaml"
    path.write_text("private:\n  newest_years: 2\n  years:\n    pl_cke_zawodowy: [2026, 2025]\n")
    config = load_split_config(path)
    assert config.private_years == {"pl_cke_zawodowy": (2026, 2025)}
    assert config.to_dict()["private_years"] == {"pl_cke_zawodowy": [2025, 2026]}
    assert "pl_cke_zawodowy: 2025, 2026" in config.describe()
    assert config.sha256() != load_split_config().sha256()
    assert config.sha256() == load_split_config(path).sha256()


@pytest.mark.parametrize("text, problem", [
    ("private:\n  newest: 1\n", r"unknown key\(s\) private.newest"),
    ("leakage:\n  on_leak: ignore\n", r"on_leak must be one of fail, withhold_public, got 'ignore'"),
    ("private:\n  years:\n    pl_x: 2024\n", r"private.years.pl_x must be a non-empty list"),
    ("leakage:\n  near_duplicate_jaccard: 1.5\n", r"near_duplicate_jaccard must be a number in \(0, 1\]"),
    ("leakage:\n  allowed_pairs: [[a]]\n", r"allowed_pairs entries are \[private_id, public_id\]"),
    ("private: [1\n", r"not valid YAML"),
])
def test_a_bad_config_is_refused_naming_the_file_and_the_key(tmp_path, text, problem):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(SplitConfigError, match=problem) as info:
        load_split_config(path)
    assert str(path) in str(info.value)


def test_a_missing_config_file_is_named(tmp_path):
    with pytest.raises(SplitConfigError, match=r"nope.yaml: cannot read the split config"):
        load_split_config(tmp_path / "nope.yaml")
