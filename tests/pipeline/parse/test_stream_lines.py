"""A stream line's text is its line's text: read once when the stream line is made, and made anew by every
`replace`, whichever field it changes (parse's rules cut, join and relabel lines with `replace`). Inside one
sheet's parse a document's stream is read once, and every stream cut from it is the one reading it anew gives."""
from __future__ import annotations

from dataclasses import replace

from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.stream import StreamLine, line_stream, streams_kept


def test_a_stream_lines_text_follows_its_line_through_every_replace():
    item = StreamLine(2, Line("A. pierwsza", 60.0, 100.0, 300.0, 112.0), ocr=True)
    assert item.text == "A. pierwsza"
    relined = replace(item, line=replace(item.line, text="B. druga", x0=200.0))
    assert relined.text == "B. druga" and relined.line.x0 == 200.0 and item.text == "A. pierwsza"
    moved = replace(relined, page=3, fold_digits=True)
    assert (moved.text, moved.page, moved.fold_digits) == ("B. druga", 3, True)


def test_stream_lines_compare_and_show_by_page_line_and_reading_alone():
    """The text read from the line adds nothing to equality or to the shown form: two stream lines are equal
    exactly when their pages, lines and readings are."""
    line = Line("1. Pytanie", 50.0, 80.0, 400.0, 92.0)
    assert StreamLine(1, line) == StreamLine(1, replace(line))
    assert StreamLine(1, line) != StreamLine(1, line, ocr=True) and StreamLine(1, line) != StreamLine(2, line)
    assert StreamLine(1, line) != StreamLine(1, replace(line, text="2. Pytanie"))
    assert repr(StreamLine(1, line)) == f"StreamLine(page=1, line={line!r}, ocr=False, fold_digits=False)"


# One sheet's parse reads a document's stream once (`streams_kept`): the booklet split, each stop's cut and the stop
# report ask the same document again. What each of them gets is what reading the stream anew gives.

def _document(lines: list[Line], method: PageMethod = PageMethod.TEXT) -> ExtractedDocument:
    return ExtractedDocument(sha256="0" * 64, path="sheet.pdf", page_count=1, pages=[Page(1, 595, 842, method, lines=lines)],
                             stage_version="test")


def _counting_reader(asked: list[str]):
    """An OCR line reader that reads "0K" as "OK" and counts what it was asked."""
    def read(text: str) -> tuple[str, bool]:
        asked.append(text)
        return text.replace("0K", "OK"), False
    return read


_SHEET_LINES = [
    Line("1. Pierwsze pytanie", 50.0, 80.0, 400.0, 92.0),
    Line("A. tak", 60.0, 100.0, 300.0, 112.0),
    Line("....", 60.0, 118.0, 300.0, 130.0),  # a leader: never in the stream, but a stop may match it
    Line("**0K** Koniec", 50.0, 140.0, 400.0, 152.0),
    Line("2. Drugie pytanie", 50.0, 160.0, 400.0, 172.0),
]


def test_a_kept_stream_cut_by_a_stop_is_the_stream_the_stop_ends():
    """Stops matching a line the stream holds, a leader line it leaves out, a line only as the reader repaired it
    (OCR page), and no line at all: each stream read inside `streams_kept` equals the one read without it."""
    for method in (PageMethod.TEXT, PageMethod.OCR):
        document = _document(list(_SHEET_LINES), method)
        reader = _counting_reader([])
        for stops in ([], [r"^2\."], [r"^\.+$"], [r"^\**OK"], [r"Koniec"], [r"nowhere"]):
            alone = line_stream(document, stops, reader=reader)
            with streams_kept():
                line_stream(document, reader=reader)  # the whole stream read first, as `split_booklet` does
                kept = line_stream(document, stops, reader=reader)
            assert kept == alone, (method, stops)


def test_a_kept_stream_asks_the_reader_once_and_hands_out_lists_of_its_own():
    document = _document(list(_SHEET_LINES), PageMethod.OCR)
    asked: list[str] = []
    reader = _counting_reader(asked)
    with streams_kept():
        first = line_stream(document, reader=reader)
        first.clear()  # a caller's list is its own
        again = line_stream(document, reader=reader)
        cut = line_stream(document, [r"^2\."], reader=reader)
    assert len(asked) == len(_SHEET_LINES)
    assert again == line_stream(document, reader=reader) and len(cut) == len(again) - 1


def test_another_reader_reads_an_ocr_document_anew_and_shares_a_text_layers():
    """A stream an OCR'd line was read into is the reader's own; a text layer's lines never reach a reader, so
    one stream serves every reader (the stop report reads with the passes for no labels)."""
    ocr_asked: list[str] = []
    other_asked: list[str] = []
    ocr_document = _document(list(_SHEET_LINES), PageMethod.OCR)
    with streams_kept():
        line_stream(ocr_document, reader=_counting_reader(ocr_asked))
        read_by_other = line_stream(ocr_document, reader=lambda text: (other_asked.append(text) or text, False))
    assert len(other_asked) == len(_SHEET_LINES) and read_by_other[2].text == "0K Koniec"
    text_document = _document(list(_SHEET_LINES))
    text_asked: list[str] = []
    with streams_kept():
        line_stream(text_document, reader=_counting_reader(text_asked))
        assert line_stream(text_document, reader=lambda text: (text_asked.append(text) or text, False)) == line_stream(
            text_document, reader=_counting_reader([]))
    assert text_asked == []


def test_the_enclosed_labels_a_spec_keeps_make_a_stream_of_their_own():
    document = _document([Line("① jeden", 60.0, 100.0, 300.0, 112.0)])
    reader = _counting_reader([])
    with streams_kept():
        plain = line_stream(document, reader=reader)
        kept = line_stream(document, labels=["①", "②"], reader=reader)
    assert (plain[0].text, kept[0].text) == ("1 jeden", "① jeden")


def test_wrapped_lines_join_with_a_space_except_after_a_word_broken_by_a_hyphen():
    """The join looks only at where the text so far ends: a letter and a hyphen there ("operar-") take the next
    line without a space, whatever the text before them holds (a hyphen after a letter earlier in the text, a
    digit and a hyphen at its end, a hyphen alone); blank parts and the parts' own spaces are dropped."""
    from pipeline.parse.stream import join_wrapped

    assert join_wrapped(["operar-", "se-á con-", "tinuación"]) == "operar-se-á con-tinuación"
    assert join_wrapped(["trans-", "port (1-", "2) i", "dalej"]) == "trans-port (1- 2) i dalej"
    assert join_wrapped(["  x-  ", "", "   ", "\ty\n"]) == "x-y"
    assert join_wrapped(["-", "a", "é-", "ü", "ś_-", "z"]) == "- a é-ü ś_- z"
    assert join_wrapped(["Ελλη-", "νικά", "Съе-", "шь", "1-", "2"]) == "Ελλη-νικά Съе-шь 1- 2"
    assert join_wrapped([]) == "" and join_wrapped(["", " "]) == ""
