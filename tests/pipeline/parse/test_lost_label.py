"""An option whose label OCR lost altogether is cut back out of the option before it at its one
paragraph break (a sentence ended well short of the right edge, then a capital); anything less
certain is left as read, and text pages are never touched. A lost first label is taken from the end of
the stem, where the option's lines stand indented to the options' text column."""
from __future__ import annotations

from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.labels import option_start_regex
from pipeline.parse.lostlabel import restore_lost_first_label, restore_lost_labels, restore_trailing_labels
from pipeline.parse.options import find_options
from pipeline.parse.recovery import Recovery
from pipeline.parse.stream import line_stream

LABELS = ["A", "B", "C", "D"]
OPTION_RE = option_start_regex(LABELS, ["A)"])  # lower-case labels match too


def _lines(rows: list[tuple[float, float, str]], method: PageMethod):
    lines = [Line(text=t, x0=x0, top=80 + 11 * i, x1=x1, bottom=89 + 11 * i, font_size=9) for i, (x0, x1, t) in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    return line_stream(ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test"), labels=LABELS,
                       reader=Recovery.every().line_reader(LABELS))


def _restored(rows, method=PageMethod.OCR):
    options, flags = restore_lost_labels(find_options(_lines(rows, method), LABELS, OPTION_RE).options, LABELS)
    return {o.label: " ".join(o.parts) for o in options}, flags


STEM = (28, 528, "26. ¿Cuál es la utilidad principal de indexar archivos?")
# Option b)'s label left no ink Tesseract read: its lines hang on a)'s, at the same text indent.
LOST_B = [STEM,
          (50, 566, "a) Realizar copias de seguridad de los archivos, mensajes de correo electrónico u otro"),
          (71, 168, "borrado en la búsqueda."),
          (71, 556, "Copiar los archivos, mensajes de correo electrónico u otro contenido local en OneDrive y"),
          (71, 200, "sincronizarlos con la copia local."),
          (50, 566, "c) Seleccionar los archivos para mantenerlos fuera de las"),
          (50, 507, "d) Obtener resultados aún más rápido.")]


def test_the_lost_option_starts_at_the_one_paragraph_break_of_the_option_before_the_gap():
    options, flags = _restored(LOST_B)
    assert options == {
        "A": "Realizar copias de seguridad de los archivos, mensajes de correo electrónico u otro borrado en la búsqueda.",
        "B": "Copiar los archivos, mensajes de correo electrónico u otro contenido local en OneDrive y sincronizarlos con la copia local.",
        "C": "Seleccionar los archivos para mantenerlos fuera de las",
        "D": "Obtener resultados aún más rápido.",
    }
    assert flags == ["option B: its label was not read (OCR); taken from the paragraph break in option A"]


def test_without_a_break_or_with_two_the_option_is_left_as_read():
    run_on = [*LOST_B[:2], (71, 566, "borrado en la búsqueda de los archivos que se indexaron antes y"), *LOST_B[3:]]
    assert _restored(run_on)[1] == []  # the line before "Copiar" runs to the right edge: no paragraph ends there
    lower = [*LOST_B[:3], (71, 556, "copiar los archivos, mensajes de correo electrónico u otro contenido local en OneDrive y"), *LOST_B[4:]]
    assert _restored(lower)[1] == []  # a line in lower case continues the sentence
    two = [*LOST_B[:4], (71, 200, "sincronizarlos con la copia."), (71, 400, "Después se borran todos."), *LOST_B[5:]]
    options, flags = _restored(two)
    assert flags == [] and "B" not in options


def test_no_label_skipped_or_a_text_page_changes_nothing():
    whole = [*LOST_B[:3], (50, 556, "b) Copiar los archivos, mensajes de correo electrónico u otro contenido local en OneDrive y"), *LOST_B[4:]]
    assert _restored(whole)[1] == []
    options, flags = _restored(LOST_B, PageMethod.TEXT)
    assert flags == [] and set(options) == {"A", "C", "D"}


def _first_restored(rows, method=PageMethod.OCR):
    lines, flag = restore_lost_first_label(_lines(rows, method), LABELS, OPTION_RE)
    found = find_options(lines, LABELS, OPTION_RE)
    return [sl.text for sl in found.stem], {o.label: " ".join(o.parts) for o in found.options}, flag


# Option a)'s label left no ink Tesseract read: its line ends the stem, indented to the text column.
LOST_A = [(50, 560, "17. Conforme a la Ley 39/2015, previa su declaración de lesividad para el interés público,"),
          (50, 400, "podrán impugnar ante el orden jurisdiccional:"),
          (71, 420, "Los actos favorables para los interesados que sean anulables."),
          (50, 500, "b) Los actos desfavorables que sean nulos de pleno derecho."),
          (50, 500, "c) Los actos favorables y desfavorables que sean anulables."),
          (50, 500, "d) Los actos favorables, ya sean nulos o anulables.")]


def test_a_lost_first_label_is_taken_from_the_indented_lines_that_end_the_stem():
    stem, options, flag = _first_restored(LOST_A)
    assert stem == [LOST_A[0][2], LOST_A[1][2]]
    assert options == {"A": "Los actos favorables para los interesados que sean anulables.",
                       "B": "Los actos desfavorables que sean nulos de pleno derecho.",
                       "C": "Los actos favorables y desfavorables que sean anulables.",
                       "D": "Los actos favorables, ya sean nulos o anulables."}
    assert flag == "option A: its label was not read (OCR); its lines taken from the end of the stem by their indent"
    # a two-line first option, its label printed in the second one's style
    wrapped = [*LOST_A[:2], (71, 560, "Los actos favorables para los interesados que sean anulables en"), (71, 300, "la vía administrativa."), *LOST_A[3:]]
    wrapped[4] = (50, 500, "B) Los actos desfavorables que sean nulos de pleno derecho.")
    lines, flag = restore_lost_first_label(_lines(wrapped, PageMethod.OCR), LABELS, OPTION_RE)
    assert [sl.text for sl in lines[2:4]] == ["A) Los actos favorables para los interesados que sean anulables en", "la vía administrativa."]
    assert flag


def test_a_first_option_is_not_invented_where_the_layout_leaves_doubt():
    # the stem itself hangs at the text column after its number line, which does not end a sentence
    hanging = [(50, 560, "17. Conforme a la Ley 39/2015, previa su declaración de lesividad para el"),
               (71, 400, "interés público, podrán impugnar ante el orden jurisdiccional:"), *LOST_A[2:]]
    assert _first_restored(hanging)[2] is None
    # the line before "b)" is not indented: stem text, not an option
    flush = [*LOST_A[:2], (50, 420, "Los actos favorables para los interesados que sean anulables."), *LOST_A[3:]]
    assert _first_restored(flush)[2] is None
    # only "b)" read: one label is no sequence
    assert _first_restored(LOST_A[:4])[2] is None
    # the first label was read: nothing to restore
    read = [*LOST_A[:2], (50, 420, "a) Los actos favorables para los interesados que sean anulables."), *LOST_A[3:]]
    assert _first_restored(read)[2] is None
    # a text layer's lines are never touched
    stem, options, flag = _first_restored(LOST_A, PageMethod.TEXT)
    assert flag is None and options == {}


def test_a_first_label_misread_as_a_word_at_the_label_column_is_put_back_there():
    """INAP 2.26: "a)" read as "al" (itself a Spanish word) at the label column; the indented line after it
    is the option's wrapped end, not the option."""
    rows = [(28, 528, "26. ¿Cuál es la utilidad principal de indexar archivos en la Búsqueda en Windows 10?"),
            (50, 566, "al Realizar copias de seguridad de los archivos, mensajes de correo electrónico u otro contenido"),
            (71, 168, "borrado en la búsqueda."),
            (50, 556, "b) Copiar los archivos en OneDrive y sincronizarlos con la copia local."),
            (50, 566, "c) Seleccionar los archivos para que no se utilicen en las búsquedas."),
            (50, 507, "d) Obtener resultados aún más rápido.")]
    stem, options, flag = _first_restored(rows)
    assert stem == [rows[0][2]]
    assert options["A"] == "Realizar copias de seguridad de los archivos, mensajes de correo electrónico u otro contenido borrado en la búsqueda."
    assert flag == "option A: its label was read as 'al' (OCR); taken as the label at the label column"
    # where stem and labels share their left edge, a stem line may open with the word "al": not a label
    flush = [(50, 528, "26. ¿Cuál es la utilidad principal de indexar archivos"), (50, 566, "al buscar en Windows 10?"), *rows[2:]]
    stem, options, flag = _first_restored(flush)
    assert "al buscar en Windows 10?" in stem and not (flag or "").startswith("option A: its label was read as")


# DEMRE L 2023 question 51 on a scan: "A)" read, the labels of B, C and D lost; each option one sentence.
LOST_BCD = [(28, 528, "51. Según el texto, ¿qué permitió el estudio de la “cupulita”?"),
            (50, 500, "A) Descifrar algunos enigmas relacionados con la construcción de la cúpula."),
            (71, 520, "Demostrar la autenticidad de uno de los mayores milagros de la arquitectura."),
            (71, 505, "Reposicionar el valor de la geometría básica y pura de los modelos a escala."),
            (71, 540, "Reconstruir algunos rasgos de la estructura de mampostería más grande del"),
            (71, 120, "planeta.")]


def _trailing(rows, method=PageMethod.OCR, min_count=3):
    found = find_options(_lines(rows, method), LABELS, OPTION_RE)
    options, flags = restore_trailing_labels(found.options, LABELS, min_count)
    return {o.label: " ".join(o.parts) for o in options}, flags


def test_the_options_after_the_last_label_read_come_from_its_sentence_breaks():
    options, flags = _trailing(LOST_BCD)
    assert options == {
        "A": "Descifrar algunos enigmas relacionados con la construcción de la cúpula.",
        "B": "Demostrar la autenticidad de uno de los mayores milagros de la arquitectura.",
        "C": "Reposicionar el valor de la geometría básica y pura de los modelos a escala.",
        "D": "Reconstruir algunos rasgos de la estructura de mampostería más grande del planeta.",
    }
    assert flags == [f"option {label}: its label was not read (OCR); taken from the sentence breaks in option A" for label in "BCD"]


def test_trailing_options_are_not_invented_where_the_sentences_do_not_fit():
    # a question with enough options read is left alone
    assert _trailing(LOST_BCD, min_count=1)[1] == []
    # more sentence breaks than labels left: an open answer's text, not options
    many = [*LOST_BCD[:5], (71, 300, "planeta."), (71, 300, "Otra frase más."), (71, 300, "Y otra.")]
    assert _trailing(many)[1] == []
    # one sentence running over lines: too few options to make a choice question
    run_on = [LOST_BCD[0], LOST_BCD[1], (71, 520, "demostrar la autenticidad de uno de los mayores milagros")]
    assert _trailing(run_on)[1] == []
    # a text layer is never touched
    assert _trailing(LOST_BCD, PageMethod.TEXT)[1] == []


def test_figure_options_read_as_junk_are_not_made_into_options():
    """DEMRE M1 45 on a scan: the options are figures; "A) YA", an empty "B)", then the figures' letters.
    Cut at its "sentences" it became a choice question of junk whose key answer was no option."""
    junk = [(28, 528, "45. ¿Cuál de los siguientes gráficos representa la relación?"),
            (50, 80, "A) YA"), (50, 80, "B)"), (71, 90, "X X."), (71, 90, "Q P."), (71, 90, "Y.")]
    assert _trailing(junk)[1] == []
    short = [*LOST_BCD[:2], (71, 150, "Sífilis."), (71, 150, "Gonorrea."), (71, 150, "Clamidia.")]
    assert _trailing(short)[1] == []  # one-word options: too little to tell a sentence from a figure's label


def _parsed(rows):
    from pipeline.acquire import ManifestEntry
    from pipeline.extract import ExtractedDocument
    from pipeline.parse import parse_sheet
    from pipeline.specs import load_spec

    spec = load_spec("cl_demre_paes")
    lines = [Line(text=t, x0=x0, top=80 + 11 * i, x1=x1, bottom=89 + 11 * i, font_size=9) for i, (x0, x1, t) in enumerate(rows)]
    document = ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, stage_version="test",
                                 pages=[Page(number=1, width=595, height=842, method=PageMethod.OCR, lines=lines)])
    sheet = ManifestEntry(url="file:///x.pdf", final_url="file:///x.pdf", spec=spec.name, role="sheet", facts={"year": "2023"},
                          status="local", sha256="0" * 64, path="x.pdf")
    return {q.number: q for q in parse_sheet(document, sheet, [], spec).questions}


def test_a_question_whose_trailing_labels_were_lost_is_a_choice_question_unless_text_follows_its_options():
    question = _parsed(LOST_BCD)["51"]
    assert question.type == "single_choice" and len(question.choices) == 4
    # an open task's answer line after the "options" (CKE 2025 task 3): they are no choice question's
    answer_line = [*LOST_BCD, (28, 400, "Odpowiedź dla pliku dron_przyklad.txt to 2 i 14000.")]
    assert _parsed(answer_line)["51"].type != "single_choice"


def _placed(rows: list[tuple[float, float, str]], method: PageMethod = PageMethod.OCR):
    lines = [Line(text=t, x0=x, top=top, x1=x + 7 * len(t), bottom=top + 12, font_size=11) for x, top, t in rows]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    return line_stream(ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test"), labels=LABELS,
                       reader=Recovery.every().line_reader(LABELS))


def _grid_restored(rows, method=PageMethod.OCR):
    options, flags = restore_lost_labels(find_options(_placed(rows, method), LABELS, OPTION_RE).options, LABELS)
    return {o.label: o.text for o in options}, flags


def _table_option(label: str | None, top: float, figures: str) -> list[tuple[float, float, str]]:
    """DEMRE M1 17: each option a two-row table, its label beside the first row."""
    first = [(100, top, f"{label}) Figura")] if label else [(134, top, "Figura")]
    return [*first, (300, top, "1 2 3"), (134, top + 20, "Cantidad"), (300, top + 20, figures)]


def test_a_label_lost_in_a_column_of_evenly_spaced_options_is_put_where_the_pitch_puts_it():
    rows = [(65, 80, "17. ¿En cuál de las siguientes tablas?"),
            *_table_option("A", 120, "4 4 4"), *_table_option("B", 170, "2 4 8"), *_table_option(None, 222, "1 4 16"), *_table_option("D", 270, "2 2 2")]
    options, flags = _grid_restored(rows)
    assert options == {"A": "Figura 1 2 3 Cantidad 4 4 4", "B": "Figura 1 2 3 Cantidad 2 4 8",
                       "C": "Figura 1 2 3 Cantidad 1 4 16", "D": "Figura 1 2 3 Cantidad 2 2 2"}
    assert flags == ["option C: its label was not read (OCR); taken from where the labels' grid puts it, in option B"]


def test_no_option_is_cut_where_the_pitch_is_uneven_or_on_a_text_layer():
    uneven = [(65, 80, "17. ¿En cuál de las siguientes tablas?"),
              *_table_option("A", 120, "4 4 4"), *_table_option("B", 150, "2 4 8"), *_table_option(None, 222, "1 4 16"), *_table_option("D", 270, "2 2 2")]
    options, flags = _grid_restored(uneven)
    assert flags == [] and set(options) == {"A", "B", "D"}
    rows = [(65, 80, "17. ¿En cuál de las siguientes tablas?"),
            *_table_option("A", 120, "4 4 4"), *_table_option("B", 170, "2 4 8"), *_table_option(None, 222, "1 4 16"), *_table_option("D", 270, "2 2 2")]
    options, flags = _grid_restored(rows, PageMethod.TEXT)
    assert flags == [] and set(options) == {"A", "B", "D"}


def test_a_label_lost_in_a_grid_of_graphs_is_put_at_its_row_and_column():
    # DEMRE M1 30: graphs in two columns (A B / C D), "C)" lost; its graph's lines sit in A's column.
    def graph(x: float, top: float, label: str | None) -> list[tuple[float, float, str]]:
        head = [(x, top, f"{label})"), (x + 36, top + 1, "Porcentaje")] if label else [(x + 38, top + 1, "Porcentaje")]
        return [*head, (x + 40, top + 60, "15"), (x + 80, top + 130, f"Tiempo {label or 'C'}")]
    rows = [(65, 80, "30. ¿Cuál de los siguientes gráficos?"), *graph(100, 120, "A"), *graph(350, 120, "B"), *graph(100, 330, None), *graph(350, 330, "D")]
    options, flags = _grid_restored(rows)
    assert options == {"A": "Porcentaje 15 Tiempo A", "B": "Porcentaje 15 Tiempo B", "C": "Porcentaje 15 Tiempo C", "D": "Porcentaje 15 Tiempo D"}
    assert flags == ["option C: its label was not read (OCR); taken from where the labels' grid puts it, in option A"]


def test_a_lone_label_with_its_text_beside_it_ends_no_paragraph():
    # "B)" alone on its line, its text in a cell beside it: the ")" ends no sentence of option B.
    rows = [(28, 80, "39. ¿En cuál de las siguientes figuras?"), (50, 100, "A) Triángulo de lado 1 cm."),
            (50, 115, "B)"), (80, 115, "Cuadrado de lado 1,5 cm"), (80, 130, "Rectángulo de lados 2 cm y 3 cm"),
            (50, 145, "D) Cuadrado de lado 1 cm")]
    options, flags = _grid_restored(rows)
    assert options["B"] == "Cuadrado de lado 1,5 cm"
    assert not any("paragraph break" in flag for flag in flags)  # C comes from the even pitch of the rows


def test_a_first_label_printed_back_before_a_lone_second_label_keeps_a_space():
    # "B)" read alone on its line: "A)" printed back in its style still opens the first option's text.
    rows = [(28, 80, "16. ¿Cuál es el valor de 2/6?"), (71, 100, "27"), (50, 120, "B)"), (71, 120, "-1"), (50, 140, "C) 2/3"), (50, 160, "D) 3/2")]
    lines, flag = restore_lost_first_label(_placed(rows), LABELS, OPTION_RE)
    assert flag and [sl.text for sl in lines][1] == "A)  27"
    assert {o.label: o.text for o in find_options(lines, LABELS, OPTION_RE).options}["A"] == "27"


def _sheet_of_four_option_questions(last_question: list[tuple[float, float, str]]) -> list[tuple[float, float, str]]:
    rows = []
    for n in range(1, 10):
        rows += [(28, 400, f"{n}. ¿Qué afirma el texto número {n}?"),
                 *[(50, 300, f"{label}) Opción {label.lower()} de la pregunta {n}.") for label in "ABCD"]]
    return rows + last_question


# INAP 1.8 on a scan: "d)" lost, its line at the options' text indent after the last option read.
LOST_D = [(28, 500, "10. De acuerdo con el artículo 7, ¿qué publicarán las Administraciones?"),
          (50, 560, "A) Los documentos que deban ser sometidos a información pública."),
          (50, 300, "B) Las cuentas anuales que deban rendirse."),
          (50, 250, "C) Los proyectos de Decreto Ley."),
          (71, 520, "Las retribuciones percibidas por todos los órganos superiores.")]


def test_where_nearly_every_question_has_four_options_one_read_with_three_gets_its_lost_last_label():
    question = _parsed(_sheet_of_four_option_questions(LOST_D))["10"]
    assert question.choices == ["Los documentos que deban ser sometidos a información pública.", "Las cuentas anuales que deban rendirse.",
                                "Los proyectos de Decreto Ley.", "Las retribuciones percibidas por todos los órganos superiores."]
    assert "option D: its label was not read (OCR); taken from the sentence breaks in option C" in question.flags
    # alone, three options are a question of three (the spec allows it): nothing is cut
    assert len(_parsed(LOST_D)["10"].choices) == 3
