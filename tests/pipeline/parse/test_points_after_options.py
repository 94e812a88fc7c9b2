"""A question's points printed on a line of their own below its options, set apart from the last option (a blank
line, left of the labels), are the question's points: read, not dropped with the line (`build._take_points`)."""
from __future__ import annotations

from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family
from tests.pipeline.parse.test_dropped_text import three_answer_key, three_question_sheet


def _spec():
    """The vocational spec with "1." numbering, 3+ options and points printed as "(N pkt)"."""
    spec = load_spec("pl_cke_zawodowy")
    options = spec.layout.options.model_copy(update={"min_count": 3, "keep_partial": False})
    update = {"question_start": r"^(?P<number>\d{1,2})\.\s+(?=\S)", "options": options, "skip_types": [],
              "points": r"\((?P<points>\d+)\s*pkt\)\s*$"}
    return spec.model_copy(update={"layout": spec.layout.model_copy(update=update)})


def test_points_on_their_own_line_below_the_options_are_the_questions_points(tmp_path):
    result = run_family(_spec(), three_question_sheet(tmp_path / "s.pdf", {"2": "(3 pkt)"}), [three_answer_key(tmp_path / "k.pdf")], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert found["2"].points == 3.0
    assert [found[n].answer for n in "123"] == ["A", "B", "C"]
    assert found["2"].choices == ["odpowiedź a2", "odpowiedź b2", "odpowiedź c2"]  # the points line is no option's text
