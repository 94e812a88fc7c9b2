"""`examcorpus inspect KEY.pdf --key`: each line of an answer key with the part it went to (parts found
by position, column then row) and the entries read in it; and, for a key printed in the booklet, the
same from its heading on, while the questions printed beside it stay the sheet's."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pipeline.devkit import inspect_sheet
from tests.pipeline.parse.repertoire_sheets import spec
from tests.pipeline.parse.test_key_positions import LATIN_ENTRY, LATIN_PARTS, booklet, four_parts

ROOT = Path(__file__).resolve().parents[3]
SECTIONS = [{"start": f"^{heading}$", "prefix": f"{n}."} for n, (heading, _) in enumerate(LATIN_PARTS, start=1)]


def rules_by_text(inspection) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in inspection.lines:
        found.setdefault(line.text, []).append(line.rule)
    return found


def test_each_key_line_shows_the_part_it_went_to_two_by_two(tmp_path):
    key = four_parts(tmp_path / "key.pdf", LATIN_PARTS, centred=True)
    inspection = inspect_sheet(key, spec(key={"entry": LATIN_ENTRY, "sections": SECTIONS}), ocr_cache_dir=tmp_path / "ocr", key=True)
    rules = rules_by_text(inspection)
    assert rules["Tercera parte"] == ["key part 3. opens (column 1, part 3.)"]
    assert rules["Cuarta parte"] == ["key part 4. opens (column 2, part 4.)"]
    # "1. A" of the first part and "1. C" of the third share a column; "1. D" is the fourth part's.
    assert rules["1. A"] == ["key entry 1.1 → A (column 1, part 1.)"]
    assert rules["1. C"] == ["key entry 3.1 → C (column 1, part 3.)"]
    assert rules["1. D"] == ["key entry 4.1 → D (column 2, part 4.)"]


def test_a_key_in_the_booklet_shows_its_entries_and_leaves_the_questions_beside_it(tmp_path):
    sheet = booklet(tmp_path / "sheet.pdf", key_beside=True)
    the_spec = spec(layout={"drop_pages": ["(?m)^INSTRUCTIONS"]}, key={"in_sheet": "^ANSWER KEY"})
    rules = rules_by_text(inspect_sheet(sheet, the_spec, ocr_cache_dir=tmp_path / "ocr"))
    assert rules["9. A 30-year-old man presents with chest pain."] == ["question_start → number 9"]
    assert rules["ANSWER KEY"] == ["key.in_sheet '^ANSWER KEY' (answer key starts)"]
    assert rules["9. D"] == ["key entry 9 → D (column 1, part -) [key.in_sheet]"]


def test_the_command_takes_key(tmp_path):
    key = four_parts(tmp_path / "key.pdf", LATIN_PARTS)
    spec_path = tmp_path / "parts.yaml"
    spec_path.write_text(
        "name: parts\ndescription: a key of four parts\n"
        "metadata: {country: ES, language: es, exam: test, subject: test}\nocr: {languages: [spa]}\n"
        "local: {files: [{role: sheet, pattern: 'sheet\\.pdf$', facts: {year: '2031'}}]}\npairing: {'on': [year]}\n"
        "layout: {question_start: '^(?P<number>\\d+)\\.'}\n"
        f"key: {{kind: list, entry: '{LATIN_ENTRY}', sections: [{', '.join('{start: ' + repr(s['start']) + ', prefix: ' + repr(s['prefix']) + '}' for s in SECTIONS)}]}}\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    shown = subprocess.run([sys.executable, "-m", "pipeline.cli", "inspect", str(key), "--source", str(spec_path), "--key",
                            "--ocr-cache", str(tmp_path / "ocr")], capture_output=True, text=True, env=env, cwd=ROOT)
    assert shown.returncode == 0, shown.stderr
    assert "key entry 2.10 → C (column 2, part 2.)" in shown.stdout
