"""The leaderboard, built from real run folders: equal vote per dataset, newest run per slot, counts in cells."""
from __future__ import annotations

import csv
import dataclasses
import json
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from eval.analysis.leaderboard import short_id
from tests.eval.conftest import SECRET, TOKEN, make_question, run_cli, write_parquet


def _exam(source: str, tokens: range, *, english: bool = False):
    """Questions of one dataset; with english=True also their English versions, numbered alike."""
    pl = [make_question(i, source=source, number=str(k + 1)) for k, i in enumerate(tokens)]
    en = [dataclasses.replace(make_question(i + 50, source=source, number=str(k + 1)), language="en", id=f"{q.id}:en")
          for k, (i, q) in enumerate(zip(tokens, pl))]
    return pl + (en if english else [])


@pytest.fixture
def runs(tmp_path, openai_server, monkeypatch):
    """Six real runs against the stand-in; each scripts which questions come out wrong."""
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    exam_a, exam_b = _exam("exam_a", range(11, 15), english=True), _exam("exam_b", range(21, 29))
    for q in exam_a + exam_b:
        openai_server.answers[TOKEN.search(q.question).group(1)] = q.answer
    data_a = write_parquet(tmp_path / "data" / "a" / "exam_a.parquet", exam_a)
    data_b = write_parquet(tmp_path / "data" / "b" / "exam_b.parquet", exam_b)
    root = tmp_path / "runs"

    def run(name, model, data, wrong=(), *extra, expect=0):
        openai_server.scripts.clear()
        openai_server.scripts.update({f"Q{t:02d}": ["wrong"] for t in wrong})
        assert run_cli("eval", "run", "--data", data, "--model", f"openai:{model}", "--base-url", openai_server.base_url,
                       "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", root / name, "--no-progress", *extra) == expect

    run("m1-a-old", "m1", data_a)                                  # pl 100, en 100: superseded below
    run("m1-a-new", "m1", data_a, [11, 61, 62])                    # pl 75, en 50: counts, though lower
    run("m1-b", "m1", data_b)                                      # pl 100 on 8 questions
    run("m1-b-high", "m1", data_b, [21, 22], "--reasoning-effort", "high")  # its own row: 75
    run("m2-a", "m2", data_a, [11, 12, 63])                        # pl 50, en 75
    openai_server.default_action = "length"
    run("m3-truncated", "m3", data_b, expect=3)                    # finished, not publishable: left out
    openai_server.default_action = "correct"
    return root


def _rows(path):
    with open(path, newline="") as fh:
        return {(r["model"], r["effort"]): r for r in csv.DictReader(fh)}


def test_each_dataset_is_one_vote_and_the_newest_run_counts(tmp_path, runs, capsys):
    out = tmp_path / "board"
    assert run_cli("eval", "leaderboard", runs, "--out", out) == 0
    assert "m3-truncated: finished but not publishable" in capsys.readouterr().err
    rows = _rows(out / "leaderboard.csv")
    assert set(rows) == {("m1", ""), ("m1", "high"), ("m2", "")}
    m1 = rows[("m1", "")]
    # 75 % on exam_a (4 questions) and 100 % on exam_b (8): 87.5, not the question-weighted 91.7
    assert float(m1["pl_accuracy_pct"]) == 87.5 and m1["pl_datasets"] == "2"
    assert float(m1["en_accuracy_pct"]) == 50.0 and m1["en_datasets"] == "1"
    assert float(m1["all_accuracy_pct"]) == 75.0 and m1["all_datasets"] == "3"
    assert m1["pl_minus_en_pp"] == ""  # pl covers exam_b, en does not: no like-for-like gap
    m2 = rows[("m2", "")]
    assert float(m2["pl_minus_en_pp"]) == -25.0  # same dataset, version, protocol and questions
    high = rows[("m1", "high")]
    assert float(high["pl_accuracy_pct"]) == 75.0 and high["en_accuracy_pct"] == "" and high["en_datasets"] == "0"

    md = (out / "leaderboard.md").read_text()
    data_a, data_b = (short_id(json.loads((runs / r / "plan.json").read_text())["plan"]["data_pin"]["dataset_id"])
                      for r in ("m1-a-new", "m1-b"))
    # en first, then pl; each cell: accuracy, 95 % interval, questions, (datasets)
    assert (f"| m1 | openai | – | mcq@1 | all | {', '.join(sorted([data_a, data_b]))} | 50.0 [0.0, 100.0] n=4 (1) | "
            "87.5 [68.8, 100.0] n=12 (2) | 75.0 [54.2, 95.8] n=16 (3) | – |") in md
    assert f"| m1 | openai | high | mcq@1 | all | {data_b} | – | 75.0 [37.5, 100.0] n=8 (1) | 75.0 [37.5, 100.0] n=8 (1) | – |" in md
    assert "- m1-a-old: exam_a/pl m1 100.00 %" in md and "- m1-a-old: exam_a/en m1 100.00 %" in md
    assert "m1-a-new" in md.split("## Older runs")[0]


def test_model_metadata_adds_accuracy_against_size_and_release_date(tmp_path, runs):
    import xml.etree.ElementTree as ET

    meta = tmp_path / "models.yaml"
    meta.write_text("models:\n  openai:m1: {released: 2024-05-13, params_b: 8}\n  openai:m2: {params_b: 70}\n")
    out = tmp_path / "board"
    assert run_cli("eval", "leaderboard", runs, "--out", out, "--models", meta) == 0
    assert sorted(p.name for p in (out / "plots").iterdir()) == [
        "accuracy_vs_release.png", "accuracy_vs_release.svg", "accuracy_vs_size.png", "accuracy_vs_size.svg"]
    size = ET.tostring(ET.parse(out / "plots" / "accuracy_vs_size.svg").getroot(), encoding="unicode")
    release = ET.tostring(ET.parse(out / "plots" / "accuracy_vs_release.svg").getroot(), encoding="unicode")
    assert "m2" in size and "m1 high" in size
    assert "m1 high" in release and "m2" not in release  # m2 has no release date
    meta.write_text("models:\n  openai:m1: {params_b: -1}\n")
    assert run_cli("eval", "leaderboard", runs, "--out", out, "--models", meta) == 1


class _Table(HTMLParser):
    def __init__(self):
        super().__init__()
        self.header, self.rows, self._row, self._in = [], [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._in = tag
            self._row.append("")

    def handle_endtag(self, tag):
        if tag == "tr" and self._row is not None:
            (self.rows if self._in == "td" else self.header).append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._row is not None and self._in:
            self._row[-1] += data


def _parse(text: str) -> _Table:
    table = _Table()
    table.feed(text)
    return table


def test_the_html_page_sorts_its_columns_in_chromium(tmp_path, runs):
    out = tmp_path / "board"
    assert run_cli("eval", "leaderboard", runs, "--out", out) == 0
    page = out / "leaderboard.html"
    static = _parse(page.read_text())
    assert static.header[0] == ["model", "API", "effort", "protocol", "split", "data", "en", "pl", "all", "pl − en"]
    assert [r[0] for r in static.rows] == ["m1", "m1", "m2"]  # by "all": 75.0, 75.0, 62.5
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        pytest.skip("no Chromium on this machine")

    def rendered(fragment: str) -> _Table:
        dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", f"{page.as_uri()}#{fragment}"],
                             capture_output=True, text=True, timeout=60, check=True).stdout
        return _parse(dom)

    by_en = rendered("sort=6&dir=desc")  # en column: m2 75, m1 50, then the dash, last
    assert [r[6].split(" [")[0] for r in by_en.rows] == ["75.0", "50.0", "–"]
    assert [r[2] for r in by_en.rows] == ["–", "–", "high"]
    by_gap = rendered("sort=9&dir=asc")  # the dash sorts last in either direction
    assert [r[9] for r in by_gap.rows] == ["-25.0", "–", "–"]


def test_the_html_pages_sortable_headers_are_reached_and_sorted_with_the_keyboard(tmp_path, runs, page):
    from playwright.sync_api import expect

    out = tmp_path / "board"
    assert run_cli("eval", "leaderboard", runs, "--out", out) == 0
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto((out / "leaderboard.html").as_uri())
    page.keyboard.press("Tab")  # the first header: model
    assert page.evaluate("document.activeElement.textContent") == "model"
    page.keyboard.press("Enter")
    expect(page.locator("th").first).to_have_attribute("aria-sort", "descending")
    for _ in range(6):
        page.keyboard.press("Tab")  # to the 7th header: en
    page.keyboard.press(" ")
    expect(page.locator("th").nth(6)).to_have_attribute("aria-sort", "descending")
    assert [t.split(" [")[0] for t in page.locator("tbody tr td:nth-child(7)").all_text_contents()] == ["75.0", "50.0", "–"]
    page.keyboard.press("Enter")  # again: the other way
    expect(page.locator("th").nth(6)).to_have_attribute("aria-sort", "ascending")
