"""`bench_steps`' bookkeeping: each wrapped function's CPU added to its step, and the steps a page, largest first."""
import types

import pytest

from tests.bench.bench_steps import StepClock, step_table


def test_a_wrapped_function_adds_its_time_to_its_step_call_after_call_and_still_returns_its_value():
    ticks = iter([0.0, 0.25, 1.0, 1.5])
    clock = StepClock(clock=lambda: next(ticks))
    owner = types.SimpleNamespace(double=lambda x: 2 * x)
    clock.wrap(owner, "double", "doubling")
    assert owner.double(3) == 6 and owner.double(4) == 8
    assert clock.seconds == {"doubling": pytest.approx(0.75)}


def test_a_step_that_raises_is_counted_too():
    ticks = iter([0.0, 0.5])
    clock = StepClock(clock=lambda: next(ticks))

    def fails():
        raise ValueError("no")

    owner = types.SimpleNamespace(fails=fails)
    clock.wrap(owner, "fails", "failing")
    with pytest.raises(ValueError):
        owner.fails()
    assert clock.seconds == {"failing": 0.5}


def test_steps_are_listed_a_page_largest_first_without_those_never_reached():
    table = step_table({"parse": 0.5, "layout": 2.0, "ocr": 0.0}, pages=1000)
    assert table == [("layout", pytest.approx(2.0)), ("parse", pytest.approx(0.5))]
