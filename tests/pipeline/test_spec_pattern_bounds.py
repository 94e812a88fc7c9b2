"""Spec patterns are matched within a time bound. A pattern with catastrophic backtracking on a real
generated PDF, through a real `extract --from` run in a child process, no longer hangs the run: the
run ends, and a pattern that runs past the bound is a problem of that file naming the pattern and
the line. `specs check` warns about the nested quantifiers behind such patterns."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from pipeline.patterns import AnyPattern, PatternTimeout, nested_quantifiers, spec_pattern
from pipeline.specs import spec_path

ROOT = Path(__file__).resolve().parents[2]
NESTED = r"(\w+\s?)+$"  # exponential in Python's re on a line ending in punctuation
# Exponential in every backtracking engine, the regex module's too, on a line of words (none ends in ! or ¡).
AMBIGUOUS = r"(\w|\w\s|\s?\w)+[!¡]$"


def spec_with(tmp_path: Path, field: str, pattern: str) -> Path:
    data = yaml.safe_load(spec_path("sample_pl").read_text(encoding="utf-8"))
    layout, name = field.split(".")
    data[layout].setdefault(name, []).append(pattern)
    path = tmp_path / "specs" / "sample_pl.yaml"
    path.parent.mkdir()
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def examcorpus(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """The real CLI in a child process; its timeout is a hang guard, not a measurement."""
    return subprocess.run([sys.executable, "-m", "pipeline.cli", *args], capture_output=True, text=True, timeout=240,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def extract(spec: Path, folder: Path, root: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return examcorpus("extract", "--source", str(spec), "--from", str(folder), "--root", str(root), "--no-progress",
                      "--workers", "1", env=env)


def test_a_nested_quantifier_in_a_spec_no_longer_hangs_the_run_and_specs_check_warns(tmp_path, season_folder, project_root):
    spec = spec_with(tmp_path, "layout.drop_lines", NESTED)
    done = extract(spec, season_folder, project_root)
    assert done.returncode == 0, done.stderr
    assert (project_root / "curated" / "reports" / "sample_pl.json").is_file()
    checked = examcorpus("specs", "check", "--skip-ocr-check", str(spec))
    assert checked.returncode == 0 and "1 warning(s)" in checked.stdout
    assert f"{spec}: warning: field 'layout.drop_lines[3]'" in checked.stderr and repr(NESTED) in checked.stderr


@pytest.mark.parametrize("field", ["layout.drop_lines", "layout.stop_at"])
def test_a_pattern_past_its_time_bound_is_a_problem_naming_it_and_the_line(tmp_path, season_folder, project_root, field):
    """drop_lines is applied while extracting (in a worker process), stop_at while parsing."""
    spec = spec_with(tmp_path, field, AMBIGUOUS)
    done = extract(spec, season_folder, project_root, env={"EXAMCORPUS_PATTERN_TIMEOUT_S": "0.2"})
    assert done.returncode == 0, done.stderr
    report = json.loads((project_root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))
    errors = [e for f in report["files"] for e in f["errors"]]
    timed_out = [e for e in errors if "gave up after 0.2 s on the line" in e]
    assert timed_out, errors
    assert all(repr(AMBIGUOUS) in e or AMBIGUOUS in e for e in timed_out)
    codes = {d["code"] for f in report["files"] for d in f["diagnostics"] if "gave up after" in d["message"]}
    assert codes == {"spec.pattern_timeout" if field == "layout.stop_at" else "extract.unavailable"}
    assert "Traceback" not in done.stderr


def test_a_bounded_pattern_matches_as_re_does_and_raises_past_its_bound(monkeypatch):
    import re

    for pattern, text in [(r"^Zadanie\s+(?P<number>\d{1,3})\.?\s*$", "Zadanie 12."), (r"(?m)^BRUDNOPIS", "x\nBRUDNOPIS"),
                          (r"Σωστό.*Λάθος", "Σωστό ή Λάθος"), (r"\b[A-Z]{1,3}\.\d{2}\b", "kod EE.08 i EE.09")]:
        ours, theirs = spec_pattern(pattern).search(text), re.search(pattern, text)
        assert (ours and ours.group(0)) == (theirs and theirs.group(0))
        assert [m.group(0) for m in spec_pattern(pattern).finditer(text)] == [m.group(0) for m in re.finditer(pattern, text)]
    monkeypatch.setenv("EXAMCORPUS_PATTERN_TIMEOUT_S", "0.05")
    with pytest.raises(PatternTimeout) as caught:
        spec_pattern(AMBIGUOUS).search("Które z poniższych zdań dotyczących obwodu elektrycznego jest prawdziwe?")
    assert repr(AMBIGUOUS) in str(caught.value) and "Które z poniższych" in str(caught.value)


def test_nested_quantifiers_are_found_in_the_structure_not_the_spelling():
    for risky in (NESTED, r"(a+)+", r"(?:\d+\.)+", r"((ab)*c)+", r"(\d+\s*){2,}", r"(?P<x>(?:\w+,?)*)"):
        assert nested_quantifiers(risky), risky
    for sound in (r"^Zadanie\s+(?P<number>\d{1,3})", r"\d{1,2}(?:\.\d{1,2})*", r"(ab)+c", r"[(\w+)+]", r"\(\w+\)+"):
        assert nested_quantifiers(sound) == [], sound


def test_any_of_several_patterns_is_found_exactly_where_one_of_them_is_alone(monkeypatch):
    """Rules without groups or global flags are asked in one search; the others, and a joined search past
    its bound, one by one: the answer is the members' own either way, and a timeout names the member."""
    import re

    joinable = [r"^Strona \d+ z \d+$", r"^Więcej arkuszy", r"(?i:brudnopis)\s*$"]
    unjoinable = [r"^Strona \d+ z \d+$", r"(?m)^BRUDNOPIS", r"^(\w)\1$"]
    lines = ["Strona 2 z 12", "x Strona 2 z 12", "Więcej arkuszy znajdziesz", "BRUDNOPIS", "Uwaga: Brudnopis ",
             "aa", "ab", "x\nBRUDNOPIS", "Zadanie 3."]
    for rules in (joinable, unjoinable):
        either = AnyPattern(rules)
        assert (either.joined is not None) == (rules is joinable)
        assert [either.found_in(line) for line in lines] == [any(re.search(r, line) for r in rules) for line in lines]
    monkeypatch.setenv("EXAMCORPUS_PATTERN_TIMEOUT_S", "0.05")
    risky = r"(?:\w|\w\s|\s?\w)+[!¡]$"  # AMBIGUOUS without its group: joinable, and past its bound alone
    with pytest.raises(PatternTimeout) as caught:
        AnyPattern([r"^Strona \d+$", risky]).found_in("Które z poniższych zdań dotyczących obwodu elektrycznego jest prawdziwe?")
    assert caught.value.pattern == risky


def test_a_held_bound_is_read_once_and_still_stops_a_runaway_match(monkeypatch):
    """Inside `held_bound` (a sheet's parse) every match is bounded by the reading made on entering it,
    in that thread only; outside, by the environment as it is now. A runaway pattern is still stopped."""
    import threading

    from pipeline.patterns import held_bound, match_timeout

    monkeypatch.setenv("EXAMCORPUS_PATTERN_TIMEOUT_S", "0.05")
    with held_bound() as seconds:
        assert seconds == 0.05
        monkeypatch.setenv("EXAMCORPUS_PATTERN_TIMEOUT_S", "7")
        assert match_timeout() == 0.05
        other: list[float] = []
        thread = threading.Thread(target=lambda: other.append(match_timeout()))
        thread.start()
        thread.join()
        assert other == [7.0]  # another thread reads the environment
        with pytest.raises(PatternTimeout) as caught:
            spec_pattern(AMBIGUOUS).search("Które z poniższych zdań dotyczących obwodu elektrycznego jest prawdziwe?")
        assert caught.value.seconds == 0.05
    assert match_timeout() == 7.0


def test_an_answer_is_kept_per_text_and_a_bound_run_past_raises_every_time(monkeypatch):
    """A pattern asked the same text again answers as it did the first time, and keeps at most `FOUND_KEPT`
    answers; a text it runs past its bound on raises each time it is asked (a timeout is never kept as an answer,
    so no later ask of the line passes silently as "no match")."""
    import re

    from pipeline.patterns import FOUND_KEPT, KEPT_TEXT_TO, SpecPattern

    header = SpecPattern(r"^Zadanie\s+(?P<number>\d{1,3})")  # its own answers, not the shared pattern's
    for _ in range(2):
        assert header.match("Zadanie 12. Oblicz").group("number") == "12"
        assert header.search("Zadanie 7").group("number") == "7" and header.match("Patrz Zadanie 7") is None
    texts = [f"Zadanie {n} z {n + 1}" for n in range(FOUND_KEPT + 50)]
    assert [header.search(t).group("number") for t in texts] == [re.match(r"^Zadanie\s+(\d{1,3})", t).group(1) for t in texts]
    assert len(header._found) <= FOUND_KEPT
    header._found.clear()
    page = "Zadanie 3. " + "tekst " * KEPT_TEXT_TO  # a page's whole text is answered, not kept
    assert header.match(page).group("number") == "3" and header._found == {}
    monkeypatch.setenv("EXAMCORPUS_PATTERN_TIMEOUT_S", "0.05")
    runaway = SpecPattern(AMBIGUOUS)
    line = "Które z poniższych zdań dotyczących obwodu elektrycznego jest prawdziwe?"
    for _ in range(2):
        with pytest.raises(PatternTimeout):
            runaway.search(line)
        with pytest.raises(PatternTimeout):
            runaway.search_within(line, 0.05)
