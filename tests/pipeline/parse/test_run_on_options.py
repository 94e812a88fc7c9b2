"""Options printed as running text: in the stem's own paragraph ('… ¿cuál? A) uno B) dos C) tres D) cuatro'),
wrapped over lines, a label left at a line's end with its text on the next, or on a line of their own that
runs on. Each sheet is a real PDF read through its text layer; every option must come out exact, and a stem
that only names labels ('los casos (a) y (b)') or bare letters stays a stem."""
from __future__ import annotations

from pipeline.devkit.sample.pdfgen import TextBox
from tests.pipeline.parse.repertoire_sheets import LEFT, ROW, SIZE, by_number, pdf, run, spec

WIDTH = 170  # mm: each printed line fits on one line


def _sheet(tmp_path, paragraphs: list[list[str]]):
    """Question after question, each a list of printed lines (the first opens with the number), one box per line."""
    boxes, y = [], 20.0
    for lines in paragraphs:
        for text in lines:
            boxes.append(TextBox(text, LEFT, y, WIDTH, size=SIZE))
            y += ROW
        y += 3
    return pdf(tmp_path / "2031" / "sheet.pdf", boxes)


def test_options_in_the_stems_paragraph_are_read_exactly_whether_one_line_or_wrapped(tmp_path):
    sheet = _sheet(tmp_path, [
        ["1. ¿Cuál es la capital de Francia? A) Madrid B) París C) Roma D) Berlín"],
        ["2. ¿Cuántos lados tiene un hexágono regular convexo? A) cinco lados B) seis", "lados C) siete lados D) ocho lados"],
        ["3. ¿Qué gas respiran las plantas de noche? A) oxígeno B) nitrógeno C)", "helio D) argón"],
    ])
    found = by_number(run(spec(options={"styles": ["A)"]}), sheet))
    assert found["1"].choices == ["Madrid", "París", "Roma", "Berlín"]
    assert found["2"].choices == ["cinco lados", "seis lados", "siete lados", "ocho lados"]
    assert found["3"].choices == ["oxígeno", "nitrógeno", "helio", "argón"], "a label at a line's end takes the next line's start"
    assert found["1"].question == "¿Cuál es la capital de Francia?"
    assert found["2"].question == "¿Cuántos lados tiene un hexágono regular convexo?"
    assert all(q.type == "single_choice" for q in found.values())


def test_options_run_on_from_a_line_of_their_own_with_the_last_one_wrapped(tmp_path):
    sheet = _sheet(tmp_path, [
        ["1. Qual destas cidades fica no Brasil?", "(A) Lisboa (B) Porto (C) Luanda (D) Maputo (E)", "Belo Horizonte"],
        ["2. Qual destes é um metal?", "(A) madeira (B) vidro (C) papel (D) pedra (E)", "ferro fundido e aço"],
    ])
    found = by_number(run(spec(options={"labels": ["A", "B", "C", "D", "E"], "styles": ["(A)"], "min_count": 5}), sheet))
    assert found["1"].choices == ["Lisboa", "Porto", "Luanda", "Maputo", "Belo Horizonte"]
    assert found["2"].choices == ["madeira", "vidro", "papel", "pedra", "ferro fundido e aço"]
    assert found["1"].question == "Qual destas cidades fica no Brasil?"


def test_a_stem_naming_two_labels_or_bare_letters_is_no_run_of_options(tmp_path):
    sheet = _sheet(tmp_path, [
        ["1. Compare los casos A) y B) del anexo y explique la diferencia entre ellos."],
        ["2. Los puntos A B C D forman un cuadrado de lado 4: calcule su área."],
    ])
    found = by_number(run(spec(options={"styles": ["A)"]}), sheet))
    assert found["1"].choices == [] and found["1"].question == "Compare los casos A) y B) del anexo y explique la diferencia entre ellos."
    assert found["2"].choices == [] and found["2"].question.startswith("Los puntos A B C D")


def test_options_one_per_line_with_wrapped_texts_are_left_to_the_geometry(tmp_path):
    """No label stands inside a line or at a line's end: the run-on reading leaves the lines as they are."""
    sheet = _sheet(tmp_path, [
        ["1. ¿Cuál es correcto?", "A) el primero de los enunciados", "B) el segundo", "C) el tercero", "D) ninguno"],
    ])
    found = by_number(run(spec(options={"styles": ["A)"]}), sheet))
    assert found["1"].choices == ["el primero de los enunciados", "el segundo", "el tercero", "ninguno"]
