"""Spec patterns stay bounded in time, and labels stay found, on widened input (issue 25, the width seam).

Every spec pattern is matched on text with its full-width forms folded (`pipeline.widths`), within the time bound
of `pipeline.patterns`. The attacks: a pattern with catastrophic backtracking on a long full-width line; the same
pattern reaching a key's printed identity (its sheet code, its variant), which the key check matched with Python's
`re`, outside any bound (a key line could hang the run); a compatibility form that widens a text eighteen-fold
under NFKC, in the leakage guard's canonical form; and a label set given in full width by a spec.
"""
from __future__ import annotations

import dataclasses
import signal
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from pipeline.devkit.sample.cjksheets import CJK_SPECS, WIDE_CAPITALS, chinese_gaokao
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, cjk_font
from pipeline.extract import search_rule
from pipeline.patterns import PatternTimeout, spec_pattern
from pipeline.specs import load_spec
from pipeline.split import load_split_config
from pipeline.split.leakage import find_leaks
from tests.pipeline.parse.conftest import run_family
from tests.pipeline.parse.test_silent_loss import _key, _spec
from tests.pipeline.split.conftest import make_corpus, make_record

# Exponential in every backtracking engine, the `regex` module's too, on a line of words that does not end in ! or ¡.
AMBIGUOUS = r"(\w|\w\s|\s?\w)+[!¡]$"
BOUND_S = 0.3


@contextmanager
def hang_guard(seconds: int):
    """Fails the test, instead of hanging it, where a match is not bounded (`re` checks signals as it runs)."""
    def stop(signum, frame):
        raise AssertionError(f"still matching after {seconds} s: no time bound held")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def test_a_catastrophic_pattern_on_a_long_full_width_line_stops_at_its_bound(monkeypatch):
    monkeypatch.setenv("EXAMCORPUS_PATTERN_TIMEOUT_S", str(BOUND_S))
    line = full_width("ab cd " * 400)  # 2,400 full-width characters: words to the folded pattern

    started = time.monotonic()
    with hang_guard(20), pytest.raises(PatternTimeout):
        spec_pattern(AMBIGUOUS).search(line)

    assert time.monotonic() - started < BOUND_S + 5


def test_a_key_line_that_makes_the_sheet_code_pattern_backtrack_is_bounded(tmp_path, monkeypatch):
    """The sheet prints its code where the pattern matches at once; the key prints a line Python's `re` backtracks
    on for minutes (12 words: 21 s here; 30 words: beyond any run). The key's identity check asks the pattern as
    every other rule does: bounded, a run past the bound raised naming the pattern (the season reports it as the
    file's problem). The `regex` module answers this one at once, so the sheet is parsed and the key applied."""
    monkeypatch.setenv("EXAMCORPUS_PATTERN_TIMEOUT_S", str(BOUND_S))
    spec = _spec(sheet_code=r"^Kod: (?P<code>(?:\w|\w\s|\s?\w)+)[!¡]$")
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec((
        TextBox("Kod: EE01!", 20, 12, 170, size=10),
        TextBox("1. Pytanie o sieci komputerowe?", 20, 20, 170, size=10),
        *(TextBox(f"{label}. odpowiedź {label.lower()}", 25, 27 + 6 * i, 120, size=10) for i, label in enumerate("ABC")),
    ))])
    key = _key(tmp_path / "k.pdf", ["Kod: " + "ab " * 30, "1. A"])

    started = time.monotonic()
    with hang_guard(30):
        try:
            result = run_family(spec, sheet, [key], {"year": "2030"})
        except PatternTimeout as stopped:
            assert stopped.pattern == spec.layout.sheet_code
        else:
            assert [q.answer for q in result.questions] == ["A"]

    assert time.monotonic() - started < 20


@pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")
def test_a_sheet_printing_its_code_in_full_width_keeps_the_key_printing_it_plain(tmp_path):
    """The sheet's code is read as printed (`ＥＥ０１`, what the record keeps); the key prints `EE01`. Compared with
    full-width forms folded, they are one code: the key is the sheet's, not refused as another sheet's."""
    spec = _spec(sheet_code=r"^Kod: (?P<code>[A-Z]{2}\d{2})$")
    assert "sheet_code" in spec.key.checks
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec((
        TextBox("Kod: ＥＥ０１", 20, 12, 170, size=10, font="NotoSansCJKjp"),
        TextBox("1. Pytanie o sieci komputerowe?", 20, 20, 170, size=10),
        *(TextBox(f"{label}. odpowiedź {label.lower()}", 25, 27 + 6 * i, 120, size=10) for i, label in enumerate("ABC")),
    ))])
    key = _key(tmp_path / "k.pdf", ["Kod: EE01", "1. B"])

    result = run_family(spec, sheet, [key], {"year": "2030"})

    assert [q.answer for q in result.questions] == ["B"], result.problems
    assert [q.sheet_code for q in result.questions] == ["ＥＥ０１"], "the code as printed"


def test_a_compatibility_form_that_widens_eighteen_fold_keeps_the_leakage_guard_linear():
    """U+FDFA is eighteen characters under NFKC: a public context of 20,000 of them is 360,000 characters of
    canonical text; the guard still reads it in seconds, and still finds the private question pasted after it."""
    corpus = make_corpus({"pl_test": ("pl", [2022, 2023])})
    private = next(q for q in corpus if q.year == 2023)
    widened = dataclasses.replace(make_record(40, source="pl_test", year=2022),
                                  context="\ufdfa" * 20_000 + " " + private.question)
    settings = load_split_config().leakage

    started = time.process_time()
    leaks = find_leaks([q for q in corpus if q.year == 2023], [*(q for q in corpus if q.year == 2022), widened], settings)

    assert time.process_time() - started < 30
    assert any(p.private_id == private.id and p.public_id == widened.id for p in leaks)


def test_a_label_set_given_in_full_width_finds_the_plain_labels_a_sheet_prints(tmp_path):
    """The spec names its labels `Ａ`–`Ｄ`; the sheet prints `A．`–`D．` (D has no look-alike in another script, so
    only its plain form finds it). Every option and every answer is read, under the spec's labels."""
    spec = load_spec(str(CJK_SPECS / "zh_gaokao_test.yaml"))
    options = spec.layout.options.model_copy(update={"labels": list(WIDE_CAPITALS)})
    spec = spec.model_copy(update={"layout": spec.layout.model_copy(update={"options": options})})
    if cjk_font() is None:
        pytest.skip("fonts-noto-cjk is not installed")
    printed = chinese_gaokao(Path(tmp_path) / "2031")

    result = run_family(spec, printed.sheet, [printed.key], {"year": "2031"})

    found = {q.number: q for q in result.questions}
    choice = [n for n, truth in printed.expected().items() if truth.options]
    assert len(choice) == 8
    for number in choice:
        assert found[number].choice_labels == list(WIDE_CAPITALS), (number, found[number].choice_labels)
        assert found[number].answer in WIDE_CAPITALS, number
    assert not result.problems


@pytest.mark.parametrize("pattern, text", [
    ("ＩＮＳＴＲＵＣＣＩＯＮＥＳ ＧＥＮＥＲＡＬＥＳ", "INSTRUCCI0NES GENERA1ES"),  # a rule written in full width, a plain reading
    ("INSTRUCCIONES GENERALES", "ＩＮＳＴＲＵＣＣＩ０ＮＥＳ ＧＥＮＥＲＡ１ＥＳ"),  # a plain rule, a full-width reading
])
def test_a_rule_allowing_ocr_misreadings_compares_full_width_forms_folded_as_the_exact_rule_does(pattern, text):
    assert search_rule(pattern, text, ocr=True) == (True, 2)
