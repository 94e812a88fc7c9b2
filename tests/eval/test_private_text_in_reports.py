"""What an eval run writes never carries a private question's text unmarked: the key-errors report, the run's page.

The report is a file handed on: to a curator, a publisher, an issue. Before, it wrote every doubted question's stem
and options whatever split the runs scored, and said nothing of it: a run on the private split put the private
questions' text in `key_errors.md` and `key_errors.csv`. Now a private split's question is listed by id, key, votes
and audit link only, unless `--private-text` asks for its text, and then the report says in its first lines that it is
not public. The private question here is disguised as an extraction may carry it (a zero-width space, a soft hyphen,
a Cyrillic look-alike letter); the release's leakage check (`leakscan.release_leaks`, run over the report's folder as
over a staged release) is what looks for it. The run's page (`report.html`, `eval view --out FILE`) shows every prompt
(it is the run's record): on a run not of the public split it now says first that it is not public.
"""
from __future__ import annotations

import csv
from dataclasses import replace

from pipeline.publish.leakscan import release_leaks
from pipeline.split.config import LeakageSettings
from tests.eval.conftest import SECRET, TOKEN, make_question, run_cli, write_parquet

STEM = "W którym roku uchwalono ustawę o ochronie danych osobowych obowiązującą w szkołach publicznych?"


def disguised(text: str) -> str:
    """The text as an extraction may carry it: a zero-width space, a soft hyphen, a Cyrillic `о` for a Latin one."""
    return text.replace("roku", "ro\u200bku").replace("ochronie", "och\u00adronie").replace("osobowych", "\u043esobowych")


def _private_questions():
    clean = [replace(make_question(i), question=f"[Q{i:02d}] {STEM} (wariant {i})") for i in range(11, 15)]
    return clean, [replace(q, question=disguised(q.question)) for q in clean]


def _runs_on_the_private_split(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    clean, shown = _private_questions()
    for q in shown:
        openai_server.answers[TOKEN.search(q.question).group(1)] = q.answer
    split = tmp_path / "build" / "split"
    data = write_parquet(split / "private.parquet", shown)
    (split / "split.json").write_text("{}", encoding="utf-8")  # a split folder: its private.parquet is the private split
    for model in ("m1", "m2"):
        openai_server.scripts.clear()
        openai_server.scripts.update({"Q12": ["wrong"]})  # both models pick the same other option: a key in doubt
        assert run_cli("eval", "run", "--data", data, "--model", f"openai:{model}", "--base-url", openai_server.base_url,
                       "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", tmp_path / "runs" / model,
                       "--no-progress") == 0
    return clean, shown


def _leaks(folder, clean):
    return release_leaks(folder, clean, [], LeakageSettings())


def test_the_leakage_check_sees_the_disguised_question_where_it_stands(tmp_path):
    """The check the assertions below rest on finds the disguised text in a file (so its silence means something)."""
    clean, shown = _private_questions()
    (tmp_path / "notes.md").write_text(f"# notes\n\n{shown[1].question}\n", encoding="utf-8")
    assert any(clean[1].id in found for found in _leaks(tmp_path, clean))


def test_a_private_split_s_question_is_listed_without_its_text(tmp_path, openai_server, monkeypatch):
    clean, shown = _runs_on_the_private_split(tmp_path, openai_server, monkeypatch)
    out = tmp_path / "keys"
    assert run_cli("eval", "key-errors", tmp_path / "runs", "--out", out) == 0
    with open(out / "key_errors.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    doubted = next(q for q in clean if "[Q12]" in q.question)
    assert [r["qid"] for r in rows] == [doubted.id]  # still listed: id, key, votes
    assert rows[0]["question"] == "" and rows[0]["options"] == "" and rows[0]["split"] == "private (text left out)"
    md = (out / "key_errors.md").read_text(encoding="utf-8")
    assert doubted.id in md and "left out" in md
    assert _leaks(out, clean) == []


def test_asked_for_the_private_text_is_written_and_the_report_says_it_is_not_public(tmp_path, openai_server, monkeypatch):
    clean, shown = _runs_on_the_private_split(tmp_path, openai_server, monkeypatch)
    out = tmp_path / "keys"
    assert run_cli("eval", "key-errors", tmp_path / "runs", "--out", out, "--private-text") == 0
    md = (out / "key_errors.md").read_text(encoding="utf-8")
    assert md.splitlines()[2].startswith("**NOT PUBLIC: this report holds the text of 1 question(s) not of the public split "
                                         "(split private)")
    with open(out / "key_errors.csv", newline="") as handle:
        assert [r["split"] for r in csv.DictReader(handle)] == ["private"]
    assert _leaks(out, clean)  # the text is there, as asked, under the report's own warning


# --------------------------------------------------------------------------- the run's page (report.html, eval view)


def _open(page, file) -> None:
    page.route("**/*", lambda handle: handle.continue_() if handle.request.url == file.as_uri() else handle.abort())
    page.goto(file.as_uri())
    page.wait_for_selector("body[data-ready='1']")


def test_the_page_of_a_run_on_the_private_split_says_first_that_it_is_not_public(tmp_path, openai_server, monkeypatch,
                                                                                   page):
    """The run's page shows every prompt, the private ones too (it is the run's record): it must say so before
    anything else, for `eval view --out FILE` writes it wherever asked. Read in Chromium."""
    clean, _ = _runs_on_the_private_split(tmp_path, openai_server, monkeypatch)
    shared = tmp_path / "to-share" / "page.html"
    assert run_cli("eval", "view", tmp_path / "runs" / "m1", "--out", shared) == 0
    _open(page, shared)
    notice = page.locator("#not-public")
    assert notice.is_visible() and notice.text_content().startswith("Not public: this page shows the text of the private "
                                                                     "split's questions (split private).")
    assert page.title().startswith("[not public] ") and "split: private" in page.locator("#meta").text_content()
    assert _leaks(shared.parent, clean)  # the text is there (the page is the run's record), under its notice


def test_the_page_of_a_run_on_the_public_split_carries_no_notice(tmp_path, openai_server, monkeypatch, page):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    split = tmp_path / "build" / "split"
    data = write_parquet(split / "public.parquet", [make_question(i) for i in range(1, 4)])
    (split / "split.json").write_text("{}", encoding="utf-8")
    assert run_cli("eval", "run", "--data", data, "--model", "openai:m1", "--base-url", openai_server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", tmp_path / "run", "--no-progress") == 0
    _open(page, tmp_path / "run" / "report.html")
    assert not page.locator("#not-public").is_visible() and "split: public" in page.locator("#meta").text_content()
    assert not page.title().startswith("[not public]")
