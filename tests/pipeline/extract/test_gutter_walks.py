"""A gutter walk down a page's rows gives, from every start row and for every gutter tried, what walking
the rows one by one gives, to the last bit, however the walks before it were remembered
(`columns.GutterWalks`, which makes a page's walks linear in its rows)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.extract.columns import GutterWalks, _free_intervals, _open_free_intervals

MIN_GUTTER = 9.0


def walked_row_by_row(spans, start, gutter, min_gutter=MIN_GUTTER):
    """The rule as a plain loop: the gutter narrows on each row to the widest (the first of the widest)
    of the row's free intervals inside it, at least min_gutter wide, and each row's ink left and right
    of it is added up from the start."""
    free = [_open_free_intervals(row, min_gutter) for row in spans]
    end, current, left_fill, right_fill = start, gutter, 0.0, 0.0
    while end < len(spans):
        widest, widest_width = None, 0.0
        for a, b in free[end]:
            a, b = max(a, current[0]), min(b, current[1])
            if b - a >= min_gutter and (widest is None or b - a > widest_width):
                widest, widest_width = (a, b), b - a
        if widest is None:
            break
        current = widest
        left = right = 0.0
        for x0, x1 in spans[end]:
            if x1 <= current[0]:
                left += x1 - x0
            if x0 >= current[1]:
                right += x1 - x0
        left_fill += left
        right_fill += right
        end += 1
    return end, current, left_fill, right_fill


# Rows of ink spans on a few grid positions (so rows share edges and walks meet) with odd widths (so
# the sums are not exact in binary).
EDGES = st.sampled_from([20.0, 35.3, 60.1, 150.7, 180.2, 200.0, 290.9, 300.3, 315.0, 420.6, 560.1, 575.0])


@st.composite
def page_rows(draw):
    rows = []
    for _ in range(draw(st.integers(1, 30))):
        edges = sorted(set(draw(st.lists(EDGES, min_size=2, max_size=8))))
        pairs = [(edges[i], edges[i + 1]) for i in range(0, len(edges) - 1, 2)]
        rows.append(pairs or [(edges[0], edges[0] + 0.1)])
    return rows


@settings(max_examples=300, deadline=None)
@given(page_rows())
def test_every_walk_is_the_row_by_row_walk(spans):
    walks = GutterWalks(spans, MIN_GUTTER)
    for start in range(len(spans)):  # as `bands` tries them: each start row, each of its inner gaps
        row = spans[start]
        for gutter in _free_intervals(row, row[0][0], row[-1][1]):
            assert walks.walk(start, gutter) == walked_row_by_row(spans, start, gutter)


def test_walks_from_neighbouring_rows_that_meet_take_the_rest_of_the_earlier_one():
    # Twelve rows of two columns; the first row's gap is wider than the rest, so the walk from row 0
    # holds the gap of the rows below from row 2 on, as the walk from row 1 does.
    spans = [[(30.0, 250.0), (320.0, 560.0)]] + [[(30.0, 280.0), (300.0, 560.0)]] * 11
    walks = GutterWalks(spans, MIN_GUTTER)
    first = walks.walk(0, (250.0, 320.0))
    remembered = len(walks._rest)
    assert walks.walk(1, (280.0, 300.0)) == walked_row_by_row(spans, 1, (280.0, 300.0)) == (12, (280.0, 300.0), 2750.0, 2860.0)
    assert first == walked_row_by_row(spans, 0, (250.0, 320.0))
    assert len(walks._rest) == remembered + 1  # the second walk walked its first row only


class _EdgeRow:
    def __init__(self, x0, x1):
        self.x0, self.x1 = x0, x1


ROW_EDGE = st.one_of(st.floats(0.0, 600.0), st.just(float("nan")))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(ROW_EDGE, ROW_EDGE), min_size=1, max_size=20), st.data())
def test_a_bands_edges_are_min_and_max_over_its_rows_nan_edges_included(edges, data):
    # A band's edges are asked for each gutter a walk tries, over a slice of the page's rows: the array
    # form answers what `min`/`max` over the rows answer, also where a row's edge is NaN (which `min`
    # skips unless it comes first, where numpy would spread it).
    from pipeline.extract.columns import _RowEdges

    rows = [_EdgeRow(x0, x1) for x0, x1 in edges]
    start = data.draw(st.integers(0, len(rows) - 1))
    end = data.draw(st.integers(start + 1, len(rows)))
    low, high = _RowEdges(rows).span(start, end)
    expected_low, expected_high = min(r.x0 for r in rows[start:end]), max(r.x1 for r in rows[start:end])
    assert (low == expected_low or (low != low and expected_low != expected_low))
    assert (high == expected_high or (high != high and expected_high != expected_high))
