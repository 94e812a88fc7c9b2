"""A leaderboard never lets a run displace or pool with one it cannot be compared with: another
protocol, another dataset (id, version) or another split makes another slot and another row."""
from __future__ import annotations

import csv
import json

from eval.analysis.leaderboard import build_leaderboard
from pipeline.split.config import load_split_config
from pipeline.split.store import run_split
from tests.eval.conftest import run_cli
from tests.eval.test_split_scope import questions  # noqa: F401  (the fixture: two years, no near-duplicates)


def test_runs_of_two_protocols_on_two_datasets_each_keep_their_own_row(tmp_path, curated, openai_server, completions_server,
                                                                       standin_key):
    run_split(curated.parent, tmp_path / "split", load_split_config(None))
    public = tmp_path / "split" / "public.parquet"
    runs = tmp_path / "runs"

    def run(name, data, server, protocol, *extra):
        assert run_cli("eval", "run", "--data", data, "--model", "openai:standin", "--base-url", server.base_url,
                       "--api-key-env", "STANDIN_KEY", "--protocol", protocol, "--out", runs / name, "--no-progress", *extra) == 0

    openai_server.scripts["Q02"] = ["wrong"]  # a public question: 4 of 5 right
    run("1-mcq-public", public, openai_server, "mcq")
    run("2-cloze-curated", curated.parent, completions_server, "mcq-cloze", "--scoring", "loglikelihood")  # newer
    run("3-mcq-curated", curated.parent, openai_server, "mcq")  # newest, same protocol as the first

    board = build_leaderboard([runs])
    assert board.superseded == []  # nothing displaced
    assert sorted(e.run_id for e in board.counted) == ["1-mcq-public", "2-cloze-curated", "3-mcq-curated"]
    rows = {(r.protocol, r.split): r for r in board.rows}
    assert set(rows) == {("mcq@1", "public"), ("mcq-cloze@1", "all"), ("mcq@1", "all")}
    assert rows[("mcq@1", "public")].cells["pl"].accuracy_pct == 80.0 and rows[("mcq@1", "public")].cells["pl"].questions == 5
    assert rows[("mcq@1", "all")].cells["pl"].accuracy_pct == 90.0 and rows[("mcq@1", "all")].cells["pl"].questions == 10
    assert all(r.cells["pl"].datasets == 1 for r in board.rows)  # no row pools two datasets of one config

    out = tmp_path / "board"
    assert run_cli("eval", "leaderboard", runs, "--out", out) == 0
    md = (out / "leaderboard.md").read_text()
    public_row = next(line for line in md.splitlines() if "| mcq@1 | public |" in line)
    cell = rows[("mcq@1", "public")].cells["pl"]
    assert f"| 80.0 [{cell.ci_low:.1f}, {cell.ci_high:.1f}] n=5 (1) |" in public_row and cell.ci_low < 80.0 < cell.ci_high
    assert "| mcq-cloze@1 | all |" in md
    with open(out / "leaderboard.csv", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert sorted((r["protocol"], r["split"], r["pl_questions"]) for r in table) == [
        ("mcq-cloze@1", "all", "10"), ("mcq@1", "all", "10"), ("mcq@1", "public", "5")]
    pins = {json.loads((runs / n / "plan.json").read_text())["plan"]["data_pin"]["dataset_id"] for n in ("1-mcq-public", "3-mcq-curated")}
    assert len(pins) == 2  # two datasets indeed
