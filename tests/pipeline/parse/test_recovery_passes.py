"""Parse's OCR recovery runs as declared passes, the shape of the page passes: one ordered registry, each
pass with a name, a version, a cost, a point of parsing and a condition; a spec disables one by name as
it disables a page pass; the parse cache key holds the enabled passes' versions (an OCR-only pass only
for sheets read by OCR); `examcorpus ocr passes` and the docs list them."""
from __future__ import annotations

from dataclasses import replace

import pytest
import yaml

from pipeline.acquire import ManifestEntry
from pipeline.cli import main
from pipeline.devkit.docgen import render_markers
from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.extract.ocr import Cost, OcrSettings, pass_names
from pipeline.infra import load_yaml
from pipeline.parse import (PARSE_PASSES, Point, Recovery, check_ocr_pass_names, find_options, option_start_regex,
                            parse_pass_names, parse_sheet, recovery_for, recovery_key)
from pipeline.parse import ocrpasses, recovery
from pipeline.parse.stream import line_stream
from pipeline.specs import SpecError, parse_spec, spec_path

LABELS = ["A", "B", "C", "D"]
OPTION_RE = option_start_regex(LABELS, ["A)"])
# An OCR'd question whose label C was read as "0" at the label column: only the `label-column` pass knows it.
ROWS = [(70, "1. ¿Por qué se plantea un enfoque intersectorial?"), (99, "A) Porque la lucha contra la pobreza"),
        (100, "B) Porque el entorno determina la salud"), (101, "0 Porque la disponibilidad de recursos"),
        (100, "D) Porque el descubrimiento de curas")]


def _document(rows, method=PageMethod.OCR) -> ExtractedDocument:
    lines = [Line(text=t, x0=x, top=80 + 14 * i, x1=500, bottom=90 + 14 * i, font_size=10) for i, (x, t) in enumerate(rows)]
    return ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, stage_version="test",
                             pages=[Page(number=1, width=595, height=842, method=method, lines=lines)])


def _spec(tmp_path, disable: list[str] | None = None):
    data = load_yaml(spec_path("es_inap").read_text(encoding="utf-8"))
    data["layout"]["options"] = {**data["layout"].get("options", {}), "labels": LABELS, "styles": ["A)"], "min_count": 4}
    data["layout"]["question_start"] = r"^(?P<number>\d{1,3})\.\s+"
    data["layout"].pop("sections", None)
    if disable is not None:
        data["ocr"]["passes"] = {"disable": disable}
    return parse_spec(data, tmp_path / "es_inap.yaml")


def _parsed(spec, rows=ROWS, method=PageMethod.OCR):
    sheet = ManifestEntry(url="file:///x.pdf", final_url="file:///x.pdf", spec=spec.name, role="sheet", facts={"year": "2024"},
                          status="local", sha256="0" * 64, path="x.pdf")
    return parse_sheet(_document(rows, method), sheet, [], spec).questions


def test_every_parse_pass_declares_a_unique_name_a_version_a_cost_a_point_a_condition_and_what_it_does():
    names = parse_pass_names()
    assert len(names) == len(set(names)) >= 9
    assert not set(names) & set(pass_names()), "a page pass and a parse pass share a name: a spec could not tell them apart"
    for parse_pass in PARSE_PASSES:
        assert parse_pass.version and isinstance(parse_pass.cost, Cost) and isinstance(parse_pass.point, Point)
        assert parse_pass.condition, f"{parse_pass.name}: its condition has no docstring"
        assert parse_pass.summary, f"{parse_pass.name}: its step has no docstring"
        assert not parse_pass.required
    # The registry lists the points in the order parsing meets them, and it is the one the runner reads.
    points = [p.point for p in PARSE_PASSES]
    order = [Point.OCR_LINE, Point.STREAM, Point.NUMBER_RUNS, Point.BLOCKS, Point.MARK, Point.QUESTION_LINES, Point.OPTION_LINES, Point.OPTIONS,
             Point.KEY_COLUMN, Point.KEY_TEXT, Point.KEY_ENTRY, Point.DRAFTS]
    assert points == sorted(points, key=order.index)
    assert recovery.registered() == PARSE_PASSES and Recovery.every().passes == PARSE_PASSES


def test_a_point_runs_its_enabled_passes_in_the_registrys_order_and_no_other():
    lines = line_stream(_document(ROWS), labels=LABELS, reader=Recovery.every().line_reader(LABELS))
    every = find_options(lines, LABELS, OPTION_RE, recovery=Recovery.every())
    assert [o.label for o in every.options] == LABELS and every.flags  # restored, and flagged
    without = find_options(lines, LABELS, OPTION_RE, recovery=recovery_for(["label-column"]))
    assert [o.label for o in without.options] == ["A", "B", "D"] and without.flags == []
    # Only the point's own passes run: the stream's passes do nothing to option lines.
    ran = []
    spy = replace(ocrpasses._label_column, step=lambda work, passes: ran.append(work.lines) or work)
    Recovery((spy,)).run(Point.STREAM, recovery.LinesWork(lines))
    assert ran == []
    Recovery((spy,)).run(Point.OPTION_LINES, recovery.LinesWork(lines))
    assert ran == [lines]


def test_a_spec_disables_a_parse_pass_by_name_and_the_page_passes_do_not_see_it(tmp_path):
    spec = _spec(tmp_path, ["label-column", "roman-numerals"])
    assert OcrSettings.from_spec(spec).disabled_passes == ("roman-numerals",)  # the OCR reading's key is not touched
    assert "label-column" not in [p.name for p in recovery_for(spec.ocr.passes.disable).passes]
    every = _parsed(_spec(tmp_path))[0]
    assert every.choice_labels == LABELS and any("read as '0'" in flag for flag in every.flags)
    # Without it, a later pass (`lost-labels`) puts C where the labels' column puts it, misread mark and all.
    without = _parsed(spec)[0]
    assert without.choice_labels == LABELS and without.choices[2] == "0 Porque la disponibilidad de recursos"
    assert any("where the labels' grid puts it" in flag for flag in without.flags)
    # With neither, nothing is mended: three labels are no choice question here, and the record says so.
    neither = _parsed(_spec(tmp_path, ["label-column", "lost-labels"]))[0]
    assert neither.choice_labels == [] and "parse.lost_labels" in neither.flag_codes


def test_an_unknown_pass_name_is_a_spec_error_naming_both_kinds_of_pass(tmp_path):
    assert check_ocr_pass_names(["key-runs", "figures"]) == ["key-runs", "figures"]
    with pytest.raises(SpecError, match=r"'label-colum'.*the passes are .*'figures'.*'label-column'.*examcorpus ocr passes"):
        _spec(tmp_path, ["label-colum"])
    with pytest.raises(SpecError, match="'recognise'.*cannot be disabled"):
        _spec(tmp_path, ["label-column", "recognise"])


def test_the_parse_cache_key_holds_each_enabled_pass_version_and_an_ocr_only_one_only_for_sheets_read_by_ocr(monkeypatch):
    version = {p.name: p.version for p in PARSE_PASSES}
    base_ocr, base_text = recovery_key([], True), recovery_key([], False)
    label_column = ("label-column", version["label-column"])
    assert label_column in base_ocr and label_column not in base_text
    assert ("unnumbered", version["unnumbered"]) in base_text  # it changes text-layer sheets too
    assert label_column not in recovery_key(["label-column"], True)
    bumped = tuple(replace(p, version=p.version + "+next") if p.name == "label-column" else p for p in PARSE_PASSES)
    monkeypatch.setattr(recovery, "_REGISTRY", [bumped])
    assert recovery_key([], True) != base_ocr  # scanned sheets are parsed again
    assert recovery_key([], False) == base_text  # text-layer sheets keep their cached parse
    assert recovery_key(["label-column"], True) == [k for k in base_ocr if k[0] != "label-column"]


def test_a_text_layer_sheet_is_left_as_it_is_by_every_ocr_only_pass(tmp_path):
    every, none = _spec(tmp_path), _spec(tmp_path, [p.name for p in PARSE_PASSES if p.ocr_only])
    assert [q.to_row() for q in _parsed(every, method=PageMethod.TEXT)] == [q.to_row() for q in _parsed(none, method=PageMethod.TEXT)]


def test_examcorpus_ocr_passes_lists_the_parse_passes_after_the_page_passes_and_marks_the_disabled(tmp_path, capsys):
    spec_file = tmp_path / "es_inap.yaml"
    data = load_yaml(spec_path("es_inap").read_text(encoding="utf-8"))
    data["ocr"]["passes"] = {"disable": ["key-runs"]}
    spec_file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert main(["ocr", "passes", "--spec", str(spec_file)]) == 0
    out = capsys.readouterr().out
    parse_part = out[out.index("parse passes"):]
    positions = [parse_part.index(f". {name} v") for name in parse_pass_names()]
    assert positions == sorted(positions) and out.index("page passes") < out.index("parse passes")
    version = {p.name: p.version for p in PARSE_PASSES}
    assert f"key-runs v{version['key-runs']} [cheap; disabled]" in parse_part
    assert f"label-column v{version['label-column']} [cheap; enabled]" in parse_part
    assert f"at:   {Point.KEY_COLUMN.value}" in parse_part


def test_the_reference_page_tables_the_parse_passes_from_the_registry():
    table = render_markers("<!-- generated:ocr-parse-passes -->\n")
    for parse_pass in PARSE_PASSES:
        assert f"| `{parse_pass.name}` | {parse_pass.version} | cheap | {parse_pass.point.value} |" in table


def test_a_stream_is_never_read_without_naming_the_ocr_line_passes_it_reads_with(tmp_path):
    """`line_stream` has no default reader: a caller that forgot one would read every OCR'd line unrepaired
    (a look-alike label, a number read with letters) while text-layer sheets read alike, a loss no test of a
    text sheet shows. It names the passes, and the spec's disabled ones stay off."""
    rows = [(70, "1O. ¿Cuál es la capital?"), (99, "c) Lima")]
    document = _document(rows)
    with pytest.raises(TypeError, match="reader"):
        line_stream(document, labels=LABELS)  # type: ignore[call-arg]
    every = line_stream(document, labels=LABELS, reader=Recovery.every().line_reader(LABELS))
    assert [(sl.text, sl.fold_digits) for sl in every] == [("1O. ¿Cuál es la capital?", True), ("C) Lima", True)]
    disabled = recovery_for(_spec(tmp_path, ["label-lookalikes", "number-lookalikes"]).ocr.passes.disable)
    without = line_stream(document, labels=LABELS, reader=disabled.line_reader(LABELS))
    assert [(sl.text, sl.fold_digits) for sl in without] == [("1O. ¿Cuál es la capital?", False), ("c) Lima", False)]
    # A text page's lines are the text layer's, whatever the reader.
    assert [sl.text for sl in line_stream(_document(rows, PageMethod.TEXT), labels=LABELS,
                                          reader=Recovery.every().line_reader(LABELS))] == ["1O. ¿Cuál es la capital?", "c) Lima"]


def test_parse_reads_an_ocr_sheets_lines_with_the_passes_its_spec_leaves(tmp_path):
    rows = [(70, "1O. ¿Cuál es la capital del Perú?"), (99, "A) Lima"), (99, "B) Cusco"), (99, "C) Arequipa"), (99, "D) Piura")]
    assert [q.number for q in _parsed(_spec(tmp_path), rows)] == ["10"]  # `number-lookalikes`: "1O." is question 10
    assert [q.number for q in _parsed(_spec(tmp_path, ["number-lookalikes"]), rows)] == []


def test_a_text_layer_sheet_is_parsed_without_asking_the_ocr_only_passes(tmp_path, monkeypatch):
    """Their conditions are not even asked where no file was read by OCR; a sheet read by OCR asks them."""
    asked: list[str] = []

    def watched(parse_pass):
        def when(work):
            asked.append(parse_pass.name)
            return parse_pass.when(work)
        return replace(parse_pass, when=when)

    monkeypatch.setattr(recovery, "_REGISTRY", [tuple(watched(p) if p.ocr_only else p for p in PARSE_PASSES)])
    spec = _spec(tmp_path)
    text = _parsed(spec, method=PageMethod.TEXT)
    assert asked == []
    assert not any("read as '0'" in flag for flag in text[0].flags)  # a text layer's "0" is what was printed
    assert any("read as '0'" in flag for flag in _parsed(spec)[0].flags) and "label-column" in asked


def test_a_text_page_with_words_read_in_place_is_parsed_with_every_pass(tmp_path):
    """Drawn text read by OCR on a text page (`Line.ocr`) makes the sheet one read by OCR."""
    document = _document(ROWS, PageMethod.TEXT)
    document.pages[0].lines[3].ocr = True
    sheet = ManifestEntry(url="file:///x.pdf", final_url="file:///x.pdf", spec="es_inap", role="sheet", facts={"year": "2024"},
                          status="local", sha256="0" * 64, path="x.pdf")
    question = parse_sheet(document, sheet, [], _spec(tmp_path)).questions[0]
    assert question.choice_labels == LABELS and any("read as '0'" in flag for flag in question.flags)
