"""A question's points printed on a line of their own below its options, set apart from the last option (a blank
line, left of the labels), are the question's points: read, not dropped with the line (`build._take_points`)."""
from __future__ import annotations

from pathlib import Path

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family


def _spec():
    """The vocational spec with "1." numbering, 3+ options and points printed as "(N pkt)"."""
    spec = load_spec("pl_cke_zawodowy")
    options = spec.layout.options.model_copy(update={"min_count": 3, "keep_partial": False})
    update = {"question_start": r"^(?P<number>\d{1,2})\.\s+(?=\S)", "options": options, "skip_types": [],
              "points": r"\((?P<points>\d+)\s*pkt\)\s*$"}
    return spec.model_copy(update={"layout": spec.layout.model_copy(update=update)})


def _sheet(path: Path, points: dict[str, str]) -> Path:
    items, y = [], 20.0
    for number in "123":
        items.append(TextBox(f"{number}. Pytanie numer {number} o sieci komputerowe?", 20, y, 170, size=10))
        y += 7
        for label in "ABC":
            items.append(TextBox(f"{label}. odpowiedź {label.lower()}{number}", 25, y, 120, size=10))
            y += 6
        if number in points:
            y += 8
            items.append(TextBox(points[number], 20, y, 170, size=10))
            y += 6
        y += 8
    return build_pdf(path, [PageSpec(tuple(items))])


def _key(path: Path) -> Path:
    return build_pdf(path, [PageSpec(tuple(TextBox(t, 20, 20 + 7 * i, 170, size=10) for i, t in enumerate(["1. A", "2. B", "3. C"])))])


def test_points_on_their_own_line_below_the_options_are_the_questions_points(tmp_path):
    result = run_family(_spec(), _sheet(tmp_path / "s.pdf", {"2": "(3 pkt)"}), [_key(tmp_path / "k.pdf")], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert found["2"].points == 3.0
    assert [found[n].answer for n in "123"] == ["A", "B", "C"]
    assert found["2"].choices == ["odpowiedź a2", "odpowiedź b2", "odpowiedź c2"]  # the points line is no option's text
