"""Per-stage timers: seconds add up per name until take() hands them over and starts from zero."""
import pytest

from pipeline.infra import add_seconds, take, take_detail, timed


def test_take_hands_over_each_stage_once_and_starts_again():
    take()
    for _ in range(3):
        with timed("layout"):
            sum(range(1000))
    with timed("text"):
        pass
    taken = take()
    assert set(taken) == {"layout", "text"} and all(seconds >= 0 for seconds in taken.values())
    assert take() == {}


def test_a_step_that_raises_is_still_timed():
    take()
    with pytest.raises(ValueError), timed("parse"):
        int("not a number")
    assert set(take()) == {"parse"}


def test_add_seconds_sums_stage_by_stage_into_a_new_dict():
    totals = {"text": 1.0}
    assert add_seconds(totals, {"text": 0.5, "ocr": 2.0}) == {"text": 1.5, "ocr": 2.0}
    assert totals == {"text": 1.0}


def test_parts_of_a_stage_add_into_it_for_the_report_and_stay_apart_in_the_detail():
    take_detail()
    with timed("text:pdfium"):
        pass
    with timed("text:glyphs"):
        sum(range(1000))
    with timed("layout"):
        pass
    detail = take_detail()
    assert set(detail) == {"text:pdfium", "text:glyphs", "layout"}
    assert all(wall >= 0 and cpu >= 0 for wall, cpu in detail.values())
    with timed("text:pdfium"), timed("text:glyphs"):
        pass
    taken = take()
    assert set(taken) == {"text"}
    assert take_detail() == {}  # take() started the parts from zero too
