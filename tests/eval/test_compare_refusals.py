"""compare refuses unpublishable runs and runs over other data or another protocol, unless asked."""
from __future__ import annotations

import dataclasses
import json

import pytest

from eval.analysis.compare import ComparisonRefused, Side, compare
from tests.eval.conftest import make_question, run_cli, run_standin, write_parquet


@pytest.fixture
def good_run(tmp_path, curated, openai_server, standin_key):
    out = tmp_path / "good"
    assert run_standin(curated, openai_server, out) == 0
    return out


@pytest.fixture
def truncated_run(tmp_path, curated, openai_server, standin_key, good_run):
    openai_server.scripts["Q06"] = ["length"]
    out = tmp_path / "truncated"
    assert run_standin(curated, openai_server, out) == 3
    return out


def test_a_run_with_truncated_answers_is_refused(good_run, truncated_run, tmp_path, capsys):
    assert run_cli("eval", "compare", good_run, truncated_run, "--json", tmp_path / "c.json") == 2
    err = capsys.readouterr().err
    assert "may not be published, comparison refused" in err and "side B: 1 answers truncated" in err
    assert not (tmp_path / "c.json").exists()


def test_allowed_explicitly_the_comparison_records_why_it_is_not_publishable(good_run, truncated_run, tmp_path, capsys):
    out = tmp_path / "c.json"
    assert run_cli("eval", "compare", good_run, truncated_run, "--json", out, "--allow-unpublishable") == 0
    result = json.loads(out.read_text())
    assert result["gap_pp"] == pytest.approx(12.5)  # the truncated answer scores zero
    assert result["publishable"] is False and result["allowed"]["unpublishable"] is True
    assert result["a"]["publishable"] is True and result["b"]["publishable"] is False
    assert any("truncated" in r for r in result["b"]["unpublishable_reasons"])
    assert result["reasons"] and all(r.startswith("side B:") for r in result["reasons"])
    assert "warning" in capsys.readouterr().out


def test_missing_answers_are_refused_and_score_zero_only_when_allowed(good_run, tmp_path, curated, openai_server):
    openai_server.scripts["Q04"] = ["500"]
    incomplete = tmp_path / "incomplete"
    assert run_standin(curated, openai_server, incomplete, "--max-attempts", "1") == 2
    with pytest.raises(ComparisonRefused, match="1 missing answers"):
        compare(Side(good_run), Side(incomplete))
    result = compare(Side(good_run), Side(incomplete), allow_unpublishable=True)
    assert result.gap_pp == pytest.approx(12.5) and not result.publishable
    assert any("answers missing" in r for r in result.b.unpublishable_reasons)


def test_a_run_over_other_data_is_refused_even_when_the_questions_align(good_run, tmp_path, questions, openai_server):
    # The same scorable questions, plus an open question that is skipped: another dataset id.
    extra = dataclasses.replace(make_question(9), type="open", choices=[], choice_labels=[], answer=None, answer_index=None)
    other = write_parquet(tmp_path / "other" / "d.parquet", questions + [extra])
    other_run = tmp_path / "other_run"
    assert run_standin(other, openai_server, other_run) == 0
    with pytest.raises(ComparisonRefused, match=r"runs differ in data or protocol.*\n  - dataset_id differs"):
        compare(Side(good_run), Side(other_run))
    result = compare(Side(good_run), Side(other_run), allow_protocol_mismatch=True)
    assert result.gap_pp == 0.0 and not result.publishable
    assert result.a.dataset_id != result.b.dataset_id
    assert result.reasons[0].startswith("protocol mismatch: dataset_id differs")


def test_a_run_under_another_protocol_is_refused(good_run, tmp_path, curated, openai_server, capsys):
    descriptions = tmp_path / "descriptions.jsonl"
    descriptions.write_text("")  # the questions have no figures; the protocol still differs
    other = tmp_path / "figure_text"
    assert run_cli("eval", "run", "--data", curated, "--model", "openai:standin", "--base-url", openai_server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq-figure-text", "--figure-descriptions", descriptions,
                   "--out", other, "--no-progress") == 0
    capsys.readouterr()
    assert run_cli("eval", "compare", good_run, other, "--json", tmp_path / "c.json") == 2
    err = capsys.readouterr().err
    assert "protocol differs (A: mcq, B: mcq-figure-text)" in err and "prompt_sha256 differs" in err
    assert run_cli("eval", "compare", good_run, other, "--json", tmp_path / "c.json", "--allow-protocol-mismatch") == 0
    assert json.loads((tmp_path / "c.json").read_text())["allowed"]["protocol_mismatch"] is True
