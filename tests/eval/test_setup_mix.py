"""Runs of one model on one dataset under one protocol name, but with settings that change the numbers
(examples before each question, a sampling temperature, the first N questions only): the leaderboard
keeps them apart and says how each was run, and `eval compare` refuses them unless asked. Real
`eval run`s against the OpenAI-compatible stand-in, then the real `eval leaderboard` and `eval compare`."""
from __future__ import annotations

import csv

import pytest

from eval.analysis.leaderboard import build_leaderboard
from tests.eval.conftest import run_cli, run_standin


@pytest.mark.parametrize("extra, shown", [(("--shots", "1"), "mcq@1 shots=1"),
                                          (("--temperature", "0.7"), "mcq@1 temperature=0.7"),
                                          (("--limit", "3"), "mcq@1 limit=3")])
def test_a_run_with_other_number_changing_settings_is_its_own_row_and_displaces_nothing(
        tmp_path, curated, openai_server, standin_key, extra, shown):
    runs = tmp_path / "runs"
    openai_server.scripts["Q02"] = ["wrong"]
    assert run_standin(curated, openai_server, runs / "1-plain") == 0
    assert run_standin(curated, openai_server, runs / "2-other", *extra) == 0  # newer, same model, data and protocol
    board = build_leaderboard([runs])
    assert board.superseded == []
    assert sorted(r.protocol for r in board.rows) == sorted(["mcq@1", shown])
    out = tmp_path / "board"
    assert run_cli("eval", "leaderboard", runs, "--out", out) == 0
    with open(out / "leaderboard.csv", newline="") as fh:
        assert sorted(r["protocol"] for r in csv.DictReader(fh)) == sorted(["mcq@1", shown])
    assert f"| {shown} |" in (out / "leaderboard.md").read_text()


def test_compare_refuses_runs_with_other_shots_or_temperature_unless_asked(tmp_path, curated, openai_server, standin_key, capsys):
    assert run_standin(curated, openai_server, tmp_path / "plain") == 0
    assert run_standin(curated, openai_server, tmp_path / "shots", "--shots", "1") == 0
    assert run_standin(curated, openai_server, tmp_path / "warm", "--temperature", "0.7") == 0
    capsys.readouterr()
    for other, said in (("shots", "setup differs (A: defaults, B: shots=1)"), ("warm", "setup differs (A: defaults, B: temperature=0.7)")):
        assert run_cli("eval", "compare", tmp_path / "plain", tmp_path / other, "--json", tmp_path / f"{other}.json") == 2
        assert said in capsys.readouterr().err
    assert run_cli("eval", "compare", tmp_path / "plain", tmp_path / "shots", "--json", tmp_path / "c.json",
                   "--allow-protocol-mismatch") == 0
