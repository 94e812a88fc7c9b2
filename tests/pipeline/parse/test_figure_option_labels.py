"""Options that are graphs, printed in a grid of labels (A) B) / C) D)), each graph's axis letters and ticks under
its label (the PAES M1 sheet's question 38: the graph of f(x) = (x + 3)², a stem with an exponent). The letters a
graph prints lower in its cell than a paragraph's leading reaches belong to its option, in the last row of labels
as in the rows above it (`options._in_last_row_cell`): before, the last row's axis letters were text after the
options, a few letters that `build` drops as page furniture, and option D read `Y` for its `Y X −3`, silently."""
from __future__ import annotations

from pipeline.devkit.sample.pdfgen import TextBox
from tests.pipeline.parse.repertoire_sheets import LEFT, SIZE, by_number, lines_at, pdf, run, spec

CELL = 42.0  # mm: a row of graphs, from its labels to the next row's
COLUMN = 85.0  # mm: the grid's second column, right of the first


def _graph_option(label: str, tick: str, x: float, y: float) -> list[TextBox]:
    """A graph's option: its label, the vertical axis's letter beside it, and under it (28 mm lower, inside the cell)
    the tick where the curve meets the axis and the horizontal axis's letter, small as a graph's labels are."""
    return [TextBox(f"{label})", x, y, 10, size=SIZE), TextBox("Y", x + 12, y - 0.5, 6, size=SIZE - 0.3),
            TextBox(tick, x + 22, y + 28, 8, size=SIZE - 0.3), TextBox("X", x + 48, y + 29, 6, size=SIZE - 0.3)]


def _graph_sheet(path):
    y = 20.0
    boxes = [TextBox("1. ¿Cuál de los siguientes gráficos representa mejor a la función f definida por", LEFT, y, 170, size=SIZE),
             TextBox("f(x) = (x + 3) , con dominio el conjunto de los números reales?", LEFT + 6, y + 6, 160, size=SIZE),
             TextBox("2", LEFT + 6 + 27.4, y + 5.2, 4, size=SIZE * 0.7)]  # the exponent, raised after its bracket
    for row, (left, right) in enumerate((("A", "B"), ("C", "D"))):
        top = y + 16 + row * CELL
        boxes += _graph_option(left, "3", LEFT + 6, top) + _graph_option(right, "−3", LEFT + 6 + COLUMN, top)
    boxes += [TextBox("2. Enunciado de la pregunta 2", LEFT, y + 16 + 2 * CELL + 4, 170, size=SIZE),
              *lines_at(["A) uno", "B) dos", "C) tres", "D) cuatro"], LEFT + 6, y + 16 + 2 * CELL + 10)]
    return pdf(path, boxes)


def test_a_graphs_axis_letters_under_its_label_stay_with_its_option_in_every_row_of_the_grid(tmp_path):
    sheet = _graph_sheet(tmp_path / "2031" / "sheet.pdf")
    key = pdf(tmp_path / "2031" / "key.pdf", lines_at(["1. C", "2. A"], LEFT, 20))
    questions = by_number(run(spec(), sheet, key))
    graphs = questions["1"]
    assert graphs.answer == "C" and graphs.choice_labels == ["A", "B", "C", "D"]
    for label, choice in zip(graphs.choice_labels, graphs.choices):
        assert sorted(choice.split()) == sorted(["Y", "3" if label in "AC" else "−3", "X"]), (label, choice)
    assert not graphs.flags, graphs.flags
    assert questions["2"].choices == ["uno", "dos", "tres", "cuatro"]
