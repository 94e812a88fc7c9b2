"""A figure found on a scan keeps its own lines (`scanfigures.own_rules`): `prepare` erased them as rules."""
from __future__ import annotations

from PIL import Image, ImageDraw

from pipeline.extract.ocr.scanfigures import own_rules
from pipeline.extract.ocr.segment import Region

DPI = 300


def _chart(rule_under: tuple[int, int] | None = None) -> Image.Image:
    """A line chart at 300 dpi: axes 5 px wide reaching past a trace, and optionally a rule under it (x0, x1)."""
    page = Image.new("L", (1600, 1200), 255)
    draw = ImageDraw.Draw(page)
    draw.line([(300, 200), (300, 700), (1100, 700)], fill=20, width=5)
    draw.line([(300 + 20 * i, 450 + (90 if i % 3 else -150)) for i in range(40)], fill=60, width=3)
    if rule_under:
        draw.line([(rule_under[0], 760), (rule_under[1], 760)], fill=20, width=3)
    return page


TRACE = Region(300, 298, 1082, 542)  # the ink left on the prepared page: the trace, its axes erased


def test_a_charts_axes_are_taken_into_its_box():
    grown = own_rules(TRACE, _chart(), DPI)
    assert grown.left <= 298 and grown.top <= 200 and grown.right >= 1100 and grown.bottom >= 700
    assert grown.bottom < 720 and grown.top > 180  # nothing more than the axes


def test_a_rule_running_on_past_the_figure_stays_out():
    # A rule touching the grown box is not considered (only the figure's box as found is), and a rule
    # touching the figure but running on past it is the page's: neither moves the box past the axes.
    page = _chart(rule_under=(100, 1500))
    draw = ImageDraw.Draw(page)
    draw.line([(100, 545), (1500, 545)], fill=20, width=3)  # an answer line across the page, at the trace's foot
    grown = own_rules(TRACE, page, DPI)
    assert grown.left > 250 and grown.right < 1150 and grown.bottom < 720


def test_a_figure_with_no_rule_near_keeps_its_box():
    page = Image.new("L", (1600, 1200), 255)
    ImageDraw.Draw(page).line([(300 + 20 * i, 450 + (90 if i % 3 else -150)) for i in range(40)], fill=60, width=3)
    assert own_rules(TRACE, page, DPI) == TRACE
