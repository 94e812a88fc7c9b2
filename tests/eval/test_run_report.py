"""Every run has a page to browse (report.html, `eval view`): each question's prompt, response,
extracted answer, status and score, filtered by status, correctness, config, subject and language,
and searched as text, in a real Chromium. Model output is shown, never run; the page asks the
network for nothing; ten thousand answers open one page at a time."""
from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import pytest

from eval.log.browse import REPORT, render_report, report_rows
from eval.log.integrity import verify
from tests.eval.conftest import HOSTILE_RESPONSE, make_question, run_cli, run_standin, write_parquet



@pytest.fixture
def questions():
    """Two subjects, two languages; question 3's stem carries markup of its own."""
    out = []
    for i in range(1, 9):
        q = make_question(i, language="pl" if i <= 6 else "el")
        out.append(dataclasses.replace(q, subject="informatyka" if i % 2 else "matematyka"))
    out[2] = dataclasses.replace(out[2], question=out[2].question + " <script>window.__pwned = 'stem'</script>")
    return out


@pytest.fixture
def finished(tmp_path, questions, openai_server, standin_key):
    openai_server.scripts.update({"Q02": ["wrong"], "Q04": ["noletter"], "Q05": ["hostile"]})
    data = write_parquet(tmp_path / "curated" / "pl_test.parquet", questions)
    out = tmp_path / "runs" / "run"
    assert run_standin(data, openai_server, out) == 0
    return out


def _open(page, file: Path) -> list[str]:
    """Load the page from disk; every request it makes is recorded (and refused unless it is the file)."""
    requests: list[str] = []

    def route(handle):
        requests.append(handle.request.url)
        return handle.continue_() if handle.request.url == file.as_uri() else handle.abort()

    page.route("**/*", route)
    page.goto(file.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    return requests


def _shown(page) -> list[str]:
    return page.eval_on_selector_all(".item", "items => items.map(i => i.dataset.qid)")


def test_every_run_ends_with_its_page_listed_in_the_manifest(finished):
    assert (finished / REPORT).is_file()
    assert verify(finished).ok  # the page is part of the sealed record
    rows = report_rows(finished)
    assert len(rows) == 8 and {r.status for r in rows} == {"correct", "wrong", "extraction_failure"}


def test_the_page_shows_every_answer_with_its_prompt_response_and_score(finished, page, questions):
    requests = _open(page, finished / REPORT)
    assert requests == [(finished / REPORT).as_uri()]  # self-contained: nothing else is fetched
    assert page.text_content("#count") == "8 of 8 answers match"
    assert page.text_content("#title").startswith("standin on sha256:")  # the model's name, the data's short id
    assert "state: complete, publishable" in page.text_content("#meta")
    q2 = questions[1]
    item = page.locator(f'.item[data-qid="{q2.id}"]')
    assert "wrong" in item.locator(".status").text_content()
    assert item.locator(".score").text_content() == "score 0"
    assert f"key {q2.answer}" in item.locator(".answer").text_content()
    item.locator("summary").click()
    assert q2.question in item.locator("pre.prompt").text_content()
    assert item.locator("pre.response").text_content().startswith("Odpowiedź: ")
    assert page.js_errors == []


def test_model_output_and_question_markup_are_printed_never_run(finished, page, questions):
    _open(page, finished / REPORT)
    for q in (questions[2], questions[4]):
        page.locator(f'.item[data-qid="{q.id}"] summary').click()
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img").count() == 0 and page.locator("#results script").count() == 0
    response = page.locator(f'.item[data-qid="{questions[4].id}"] pre.response').text_content()
    assert response.startswith(HOSTILE_RESPONSE.replace("\u2028", "\u2028"))
    assert "<script>window.__pwned = 'stem'</script>" in page.locator(f'.item[data-qid="{questions[2].id}"] pre.prompt').text_content()
    assert page.js_errors == []


def test_filters_and_search_narrow_the_answers(finished, page, questions):
    _open(page, finished / REPORT)
    ids = {q.id: q for q in questions}
    page.select_option("#f-status", "wrong")
    assert _shown(page) == [questions[1].id]
    page.select_option("#f-status", "")
    page.select_option("#f-correct", "no")
    assert sorted(_shown(page)) == sorted([questions[1].id, questions[3].id])
    page.select_option("#f-correct", "yes")
    page.select_option("#f-language", "el")
    assert sorted(_shown(page)) == sorted(q.id for q in questions[6:])
    page.select_option("#f-language", "")
    page.select_option("#f-subject", "matematyka")
    assert sorted(_shown(page)) == sorted([questions[5].id, questions[7].id])  # 2 is wrong, 4 has no letter
    assert all(ids[qid].subject == "matematyka" for qid in _shown(page))
    page.select_option("#f-subject", "")
    page.select_option("#f-correct", "")
    page.keyboard.press("/")  # the search box takes the keyboard
    page.keyboard.type("(wariant 7)")
    assert _shown(page) == [questions[6].id]
    page.fill("#f-search", "window.__pwned")  # the prompt's own text and the response are searched
    assert sorted(_shown(page)) == sorted([questions[2].id, questions[4].id])
    page.fill("#f-search", "no such text anywhere")
    assert _shown(page) == [] and page.text_content("#count") == "0 of 8 answers match"


def test_eval_view_points_at_the_page_or_writes_a_fresh_one(finished, tmp_path, capsys):
    assert run_cli("eval", "view", finished) == 0
    assert str(finished / REPORT) in capsys.readouterr().err
    fresh = tmp_path / "elsewhere" / "page.html"
    assert run_cli("eval", "view", finished, "--out", fresh) == 0
    assert fresh.read_text(encoding="utf-8") == (finished / REPORT).read_text(encoding="utf-8")
    assert run_cli("eval", "view", tmp_path) == 1
    assert "not a run folder" in capsys.readouterr().err


def _synthetic_run(folder: Path, n: int) -> None:
    """A run folder of n answered questions, written as a run writes them (a few KB of prompt each)."""
    folder.mkdir(parents=True)
    plan = {"plan": {"data": "x", "data_pin": {"dataset_id": "sha256:" + "0" * 64}, "repeats": 1,
                     "model": {"backend": "openai", "name": "big-model", "display_name": "Big Model 70B"}},
            "protocol": {"name": "mcq", "version": "1", "extraction_rule": "letter-v1"}, "backend_kind": "generative"}
    (folder / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    statuses = ("correct", "wrong", "refusal", "extraction_failure")
    with open(folder / "prompts.jsonl", "w", encoding="utf-8") as prompts, open(folder / "attempts.jsonl", "w", encoding="utf-8") as attempts:
        for i in range(n):
            qid = f"q{i:05d}"
            text = f"Question {i}: " + "lorem ipsum dolor sit amet " * 60
            prompts.write(json.dumps({"qid": qid, "config": f"exam_{i % 3}", "language": ("pl", "el", "ko")[i % 3],
                                      "labels": ["A", "B", "C", "D"], "answer": "A",
                                      "messages": [{"role": "user", "content": text}],
                                      "meta": {"subject": ("math", "physics")[i % 2], "year": 2020}}) + "\n")
            status = statuses[i % 4]
            attempts.write(json.dumps({"qid": qid, "repeat": 0, "attempt": 1, "time": "2026-01-01T00:00:00Z", "status": status,
                                       "response": f"reasoning {i} " * 40 + ("Answer: A" if status == "correct" else "Answer: B"),
                                       "extracted": {"correct": "A", "wrong": "B"}.get(status)}) + "\n")


def test_ten_thousand_answers_open_one_page_at_a_time(tmp_path, page):
    run = tmp_path / "big"
    _synthetic_run(run, 10_000)
    out = tmp_path / "big.html"
    started = time.perf_counter()
    out.write_text(render_report(run), encoding="utf-8")
    rendered = time.perf_counter() - started
    started = time.perf_counter()
    _open(page, out)
    loaded = time.perf_counter() - started
    assert page.text_content("#count") == "10000 of 10000 answers match"
    assert page.locator(".item").count() == 50 and page.text_content("#page-info") == "page 1 of 200"
    page.click("#last")
    assert page.text_content("#page-info") == "page 200 of 200" and _shown(page)[-1] == "q09999"
    started = time.perf_counter()
    page.fill("#f-search", "question 9876:")
    searched = time.perf_counter() - started
    assert _shown(page) == ["q09876"]
    page.fill("#f-search", "")
    page.select_option("#f-status", "refusal")
    assert page.text_content("#count") == "2500 of 10000 answers match"
    print(f"\n10k answers: page {out.stat().st_size / 1e6:.1f} MB, written in {rendered:.2f} s, "
          f"opened in {loaded:.2f} s, first search {searched:.2f} s")
    assert page.js_errors == []
