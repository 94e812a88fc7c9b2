"""A YAML alias bomb ("billion laughs": nine nested lists of nine aliases, a few hundred bytes that
expand to 9⁹ nodes) in any user YAML file fails fast with a clear message; anchors used as intended
(shared defaults merged with `<<: *base`) still load."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pipeline.infra import YamlAliasBombError, YamlNestingError, load_yaml
from pipeline.infra.yamlfile import ALIAS_EXPANSION_BUDGET

ROOT = Path(__file__).resolve().parents[2]


def billion_laughs(levels: int = 9) -> str:
    """Anchor `a` is "lol"; each next anchor is a list of nine aliases of the one before."""
    names = "abcdefghij"
    lines = ['a: &a "lol"']
    for level in range(1, levels + 1):
        lines.append(f"{names[level]}: &{names[level]} [{','.join(['*' + names[level - 1]] * 9)}]")
    return "\n".join(lines) + "\n"


def examcorpus(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The real CLI in a child process; the timeout only keeps a hang from stalling the suite."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def test_specs_check_refuses_a_billion_laughs_spec_naming_the_file(tmp_path):
    bomb = tmp_path / "pl_bomb.yaml"
    bomb.write_text("name: pl_bomb\n" + billion_laughs(), encoding="utf-8")
    assert len(bomb.read_bytes()) < 400
    done = examcorpus("specs", "check", "--skip-ocr-check", str(bomb))
    assert done.returncode == 1
    assert str(bomb) in done.stderr and "alias" in done.stderr and "refused" in done.stderr
    assert "Traceback" not in done.stderr


def test_split_refuses_a_billion_laughs_config(tmp_path):
    config = tmp_path / "split.yaml"
    config.write_text(billion_laughs() + "leakage:\n  allowed_pairs: *j\n", encoding="utf-8")
    done = examcorpus("split", "--curated", str(tmp_path / "curated"), "--config", str(config), "--out", str(tmp_path / "s"))
    assert done.returncode == 2
    assert f"{config}: not valid YAML" in done.stderr and "alias" in done.stderr


def test_the_budget_counts_expansion_not_the_written_document():
    with pytest.raises(YamlAliasBombError, match="refused"):
        load_yaml(billion_laughs(levels=5))  # 9⁵ = 59,049 nodes from 50 written
    assert load_yaml(billion_laughs(levels=3))["d"][0] == [["lol"] * 9] * 9  # 9³ = 729 nodes: within the budget
    assert isinstance(YamlAliasBombError("x"), yaml.YAMLError)  # every caller's YAML error handling applies


def test_anchors_used_as_intended_still_load():
    text = "base: &base {dpi: 300, languages: [pol, eng]}\nsheet: {<<: *base, dpi: 400}\nkey: {<<: *base}\n"
    assert load_yaml(text) == yaml.safe_load(text)
    wide = "row: &row [" + ", ".join(str(i) for i in range(100)) + "]\ntable: [" + ", ".join(["*row"] * 90) + "]\n"
    assert 90 * 100 < ALIAS_EXPANSION_BUDGET and load_yaml(wide) == yaml.safe_load(wide)
    assert load_yaml("") is None


def test_specs_check_refuses_a_deeply_nested_spec_naming_the_file(tmp_path):
    """Before: `[[[…]]]` a thousand deep made PyYAML's composer raise RecursionError, a traceback, not a YAML error."""
    deep = tmp_path / "pl_deep.yaml"
    deep.write_text("name: pl_deep\nlayout: " + "[" * 1000 + "]" * 1000 + "\n", encoding="utf-8")
    done = examcorpus("specs", "check", "--skip-ocr-check", str(deep))
    assert done.returncode == 1
    assert str(deep) in done.stderr and "nested too deep" in done.stderr
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr


def test_split_refuses_a_config_nested_past_the_bound_through_aliases(tmp_path):
    """Written shallow, nested deep once expanded: each anchor a list holding the one before."""
    lines = ["a0: &a0 [x]"] + [f"a{n}: &a{n} [*a{n - 1}]" for n in range(1, 80)]
    config = tmp_path / "split.yaml"
    config.write_text("\n".join(lines) + "\nleakage:\n  allowed_pairs: *a79\n", encoding="utf-8")
    done = examcorpus("split", "--curated", str(tmp_path / "curated"), "--config", str(config), "--out", str(tmp_path / "s"))
    assert done.returncode == 2
    assert f"{config}: not valid YAML" in done.stderr and "nested 83 deep" in done.stderr


def test_nesting_within_the_bound_still_loads():
    assert load_yaml("a: " + "[" * 60 + "1" + "]" * 60) is not None
    assert isinstance(YamlNestingError("x"), yaml.YAMLError)
