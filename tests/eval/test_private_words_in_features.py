"""`eval features` lists words of the questions it scores: never a private split's words unmarked.

The report (`features.csv`, `features.md`) ranks words found in `--min-count` questions or more, to be read and handed
on like the key-errors report. Before, a run on the private split gave the words of its questions as features, in
any spelling the extraction left (a zero-width space, a soft hyphen, a Cyrillic look-alike letter), and said nothing
of where they came from. Now words are counted over the questions whose text may be shown: a question scored on the
private split gives no word unless `--private-text` asks, and then the report says in its first lines, in a
`text_split` column and on the terminal that it is not public. Runs on all of `curated/` (split `all`, the
development use) keep their words under the same note. Measured in `docs/results.md`, "Trust at the seams a twelfth
time".
"""
from __future__ import annotations

import csv
import unicodedata
from dataclasses import replace

from tests.eval.conftest import SECRET, TOKEN, make_question, run_cli, write_parquet

STEM = "Które rozporządzenie ministra reguluje ochronę tajemnicy przedsiębiorstwa państwowego?"
LOOK_ALIKES = str.maketrans("оаеср", "oaecp")  # Cyrillic letters that print as Latin ones


def disguised(text: str, i: int) -> str:
    """The stem as an extraction may carry it, each question in another disguise (the plain one included)."""
    return [text, text.replace("tajemnicy", "taje\u200bmnicy"), text.replace("ministra", "mini\u00adstra"),
            text.replace("rozporządzenie", "rоzporządzenie"), text.replace("reguluje", "regulujе")][i % 5]


def folded(word: str) -> str:
    """A word with its disguises undone: format characters dropped, look-alike letters read as Latin."""
    return "".join(c for c in word if unicodedata.category(c) != "Cf").translate(LOOK_ALIKES).lower()


PRIVATE_WORDS = {folded(w) for w in STEM.rstrip("?").split() if len(w) >= 3}


def _runs(tmp_path, openai_server, monkeypatch):
    """Two models on the private split (6 questions holding the stem) and on the public split (6 others)."""
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    private = [replace(make_question(i), question=f"[Q{i:02d}] {disguised(STEM, i)} (wariant {i})") for i in range(11, 17)]
    public = [make_question(i, number=str(i)) for i in range(21, 27)]
    for questions in (private, public):
        for q in questions:
            openai_server.answers[TOKEN.search(q.question).group(1)] = q.answer
    split = tmp_path / "build" / "split"
    (split / "split.json").parent.mkdir(parents=True)
    (split / "split.json").write_text("{}", encoding="utf-8")
    for name, questions in (("private", private), ("public", public)):
        data = write_parquet(split / f"{name}.parquet", questions)
        for model in ("m1", "m2"):
            openai_server.scripts.clear()
            openai_server.scripts.update({"Q12": ["wrong"], "Q22": ["wrong"]} if model == "m2" else {})
            assert run_cli("eval", "run", "--data", data, "--model", f"openai:{model}", "--base-url",
                           openai_server.base_url, "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out",
                           tmp_path / "runs" / f"{name}-{model}", "--no-progress") == 0


def _rows(out):
    with open(out / "features.csv", newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_no_word_of_a_private_question_is_a_feature_in_any_disguise(tmp_path, openai_server, monkeypatch, capsys):
    _runs(tmp_path, openai_server, monkeypatch)
    out = tmp_path / "features"
    assert run_cli("eval", "features", tmp_path / "runs", "--out", out, "--min-count", "3") == 0
    rows = _rows(out)
    words = {r["feature"] for r in rows if r["kind"] == "word"}
    assert {"ile", "bitów", "bajt"} <= words  # the public questions' words stay
    assert not {folded(w) for w in words} & PRIVATE_WORDS, words
    assert {r["text_split"] for r in rows if r["kind"] == "word"} == {"public"}
    md = (out / "features.md").read_text(encoding="utf-8")
    assert not any(word in folded(md) for word in PRIVATE_WORDS)
    assert "words of 6 question(s) of the private split are left out" in md
    assert "left out" in capsys.readouterr().out
    assert {r["feature"] for r in rows if r["kind"] == "key position"} == {"A", "B", "C", "D"}  # over every question


def test_asked_for_the_private_words_the_report_says_it_is_not_public(tmp_path, openai_server, monkeypatch, capsys):
    _runs(tmp_path, openai_server, monkeypatch)
    out = tmp_path / "features"
    assert run_cli("eval", "features", tmp_path / "runs", "--out", out, "--min-count", "3", "--private-text") == 0
    rows = _rows(out)
    private = {r["feature"] for r in rows if r["kind"] == "word" and r["text_split"] == "private"}
    assert {"przedsiębiorstwa", "państwowego", "ochronę"} <= private
    md = (out / "features.md").read_text(encoding="utf-8")
    assert md.splitlines()[2].startswith("**NOT PUBLIC: this report lists words of 6 question(s) not of the public "
                                         "split (split private)")
    assert "NOT PUBLIC" in capsys.readouterr().out
