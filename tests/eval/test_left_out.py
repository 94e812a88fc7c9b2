"""A question of the run's selection that cannot be scored (not a closed question, no key, options without labels) is
never asked and is in no accuracy's denominator: the run names each one with why, in scores.json (`left_out`), in
what `eval run` prints under the scores and on the run's page, so a score never rests on a selection shrunk unsaid.
Real `eval run` against the OpenAI-compatible stand-in."""
from __future__ import annotations

import dataclasses
import json

from eval.log.browse import render_report
from eval.log.rescore import audit
from tests.eval.conftest import make_question, run_standin, write_parquet


def _selection():
    asked = [make_question(i) for i in range(1, 5)]
    open_task = dataclasses.replace(make_question(5), type="open", choices=[], choice_labels=[], answer=None, answer_index=None)
    unkeyed = [dataclasses.replace(make_question(i), answer=None, answer_index=None) for i in (6, 7)]
    return asked, open_task, unkeyed


def test_questions_that_cannot_be_scored_are_named_by_the_run_with_why(tmp_path, openai_server, standin_key, capsys):
    asked, open_task, unkeyed = _selection()
    out = tmp_path / "run"
    assert run_standin(write_parquet(tmp_path / "d" / "pl_test.parquet", [*asked, open_task, *unkeyed]), openai_server, out) == 0
    scores = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert scores["overall"]["n_questions"] == 4
    assert scores["left_out"] == {
        "no answer key": {"count": 2, "ids": sorted(q.id for q in unkeyed)},
        "type open is not a closed question": {"count": 1, "ids": [open_task.id]},
    }
    printed = capsys.readouterr().out
    assert f"left out, not asked: 2 question(s), no answer key: {', '.join(sorted(q.id for q in unkeyed))}" in printed
    assert f"left out, not asked: 1 question(s), type open is not a closed question: {open_task.id}" in printed
    assert open_task.id in render_report(out)  # the page's header says it too
    assert audit(out).verification.ok  # the sealed run reproduces its scores.json with the names in it


def test_a_long_list_is_cut_on_screen_and_whole_in_the_scores(tmp_path, openai_server, standin_key, capsys):
    asked = [make_question(i) for i in range(1, 3)]
    unkeyed = [dataclasses.replace(make_question(i), answer=None, answer_index=None) for i in range(3, 16)]
    out = tmp_path / "run"
    assert run_standin(write_parquet(tmp_path / "d" / "pl_test.parquet", asked + unkeyed), openai_server, out) == 0
    assert len(json.loads((out / "scores.json").read_text(encoding="utf-8"))["left_out"]["no answer key"]["ids"]) == 13
    assert "and 3 more (scores.json)" in capsys.readouterr().out


def test_a_config_or_language_asked_for_that_the_data_has_not_is_refused_before_anything_is_sent(tmp_path, openai_server,
                                                                                                  standin_key, capsys):
    """`--configs pl_test,pl_tset` (a slip) would score pl_test alone under a plan naming two configs."""
    asked, _, _ = _selection()
    data = write_parquet(tmp_path / "d" / "pl_test.parquet", asked)
    for option, value, said in (("--configs", "pl_test,pl_tset", "config(s) pl_tset asked for, but no question of the data "
                                 "has it (configs here: pl_test)"),
                                ("--languages", "pl,el", "language(s) el asked for, but no question of the data has it "
                                 "(languages here: pl)")):
        out = tmp_path / option.strip("-")
        assert run_standin(data, openai_server, out, option, value) != 0
        assert said in capsys.readouterr().err
        assert not (out / "scores.json").exists()
    assert openai_server.requests == []  # nothing sent
