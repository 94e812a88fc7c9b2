"""Parse's routines rewritten to do less work a line give what the routines they replaced gave: each is checked
against the replaced behaviour, written out here as it was, on many generated blocks of lines (labels in several
styles, glued and run-on labels, rows, columns, page breaks, bold marks, enclosed and full-width characters).
A difference in any answer fails; the measurements are in docs/results.md ("Parse doing less a line", issue 31)."""
from __future__ import annotations

import random
from dataclasses import replace
from statistics import median

import pytest

from pipeline.extract import Line
from pipeline.parse import gridkeys, options as options_module, stream as stream_module
from pipeline.parse.geometry import Pitch, measure_pitch
from pipeline.parse.labels import (
    _ENCLOSED, _ENCLOSED_SPAN, _enclosed_table_without, canonical_label, matched_label, opening_label, option_start_regex,
    plain_enclosed,
)
from pipeline.parse.options import (
    Option, OptionBlock, _bare_label_row, _bare_label_runs, _beside_label, _between_labels, _column_owner,
    _continues_in_column, _grid_rows_in_label_order, _in_last_row_cell, _pull_label_partners, _right_of_on_row,
    _split_inner_labels, _split_run_on_options, find_options,
)
from pipeline.parse.recovery import Point, Recovery
from pipeline.parse.stream import StreamLine, _BOLD_LEAD, _BOLD_PREFIX, unmark_prefix

LABELS = ["A", "B", "C", "D", "E"]
STYLES = [["A)"], ["A."], ["(A)"], ["A"], ["A)", "A."], ["①"]]
WORDS = ["tekst", "pytanie", "odpowiedź", "2", "x", "alfa", "B", "c)", "12.", "(d)", "**mocno**", "Ⓑ", "Ａ．", "oraz", "–"]


def _label_text(rng: random.Random, label: str, style: str) -> str:
    printed = label if rng.random() < 0.8 else label.lower()
    if style == "①":
        printed = "①②③④⑤"[LABELS.index(label)]
        return printed
    return style.replace("A", printed)


def _text(rng: random.Random, styles: list[str]) -> str:
    """A line's text: words, sometimes opening with a label, sometimes holding later labels inside it."""
    words = [rng.choice(WORDS) for _ in range(rng.randint(0, 7))]
    if rng.random() < 0.5:
        words.insert(0, _label_text(rng, rng.choice(LABELS), rng.choice(styles)))
    for _ in range(rng.choice([0, 0, 1, 2])):
        words.insert(rng.randint(0, len(words)), _label_text(rng, rng.choice(LABELS), rng.choice(styles)))
    glue = "" if rng.random() < 0.1 else " "
    return glue.join(words) if words else rng.choice(["", " ", "A"])


def _block(rng: random.Random, styles: list[str]) -> list[StreamLine]:
    """A block's lines: down one or two columns or along rows, now and then on the next page."""
    lines, page, top = [], 1, 100.0
    for _ in range(rng.randint(1, 14)):
        if rng.random() < 0.08:
            page, top = page + 1, 60.0
        x0 = rng.choice([56.0, 56.0, 70.0, 300.0, 56.0 + rng.random() * 4])
        height = rng.choice([12.8, 12.8, 10.0, 20.0])
        same_row = rng.random() < 0.2
        top = top if same_row else top + rng.choice([13.75, 13.75, 16.0, 30.0, -5.0])
        text = _text(rng, styles)
        size = rng.choice([11.1, 11.1, 9.0, None])
        lines.append(StreamLine(page, Line(text=text, x0=x0, top=top, x1=x0 + rng.choice([40.0, 200.0]), bottom=top + height,
                                           font_size=size), ocr=rng.random() < 0.1))
    return lines


def _blocks(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        styles = rng.choice(STYLES)
        labels = LABELS[: rng.choice([4, 5])] if styles != ["①"] else ["①", "②", "③", "④", "⑤"][: rng.choice([4, 5])]
        yield _block(rng, styles), labels, option_start_regex(labels, styles), (3 if "A" in styles else None)


# ---------------------------------------------------------------- find_options, as it read labels before


def _label_lines_after_asked_per_line(lines, labels, option_re):
    after = [set() for _ in lines]
    seen: dict[int, set[str]] = {}
    for index in range(len(lines) - 1, -1, -1):
        after[index] = set(seen.get(lines[index].page, set()))
        label = opening_label(lines[index].text, labels, option_re)
        if label is not None:
            seen.setdefault(lines[index].page, set()).add(label)
    return after


def _next_label_lines_asked_per_line(lines, labels, option_re):
    found = [None] * len(lines)
    following = None
    for index in range(len(lines) - 1, -1, -1):
        found[index] = following
        if opening_label(lines[index].text, labels, option_re) is not None:
            following = lines[index]
    return found


def _find_options_asked_per_walk(lines, labels, option_re, bare_min_run=None, recovery=None) -> OptionBlock:
    """`find_options` as it was: each walk over the lines asked each line's label again, and the loop matched it
    once more; the labels used so far gathered anew for every line."""
    pitch = _measure_pitch_pairwise(lines)
    if bare_min_run:
        lines = [_bare_label_row(sl, labels, bare_min_run) for sl in _bare_label_runs(lines, labels, option_re, bare_min_run)]
    lines = _split_inner_labels(_split_run_on_options(_pull_label_partners(lines, option_re), labels, option_re), labels, option_re)
    lines, restored = (recovery or Recovery.every()).lines(Point.OPTION_LINES, lines, labels=labels, option_re=option_re)
    lines = _grid_rows_in_label_order(lines, labels, option_re)
    stem, options, trailing, previous = [], [], [], None
    label_after = _label_lines_after_asked_per_line(lines, labels, option_re)
    next_label = _next_label_lines_asked_per_line(lines, labels, option_re)
    beside_next = []
    for index, item in enumerate(lines):
        match = option_re.match(item.text)
        label = canonical_label(matched_label(match), labels) if match else None
        used = {o.label for o in options}
        upcoming = next_label[index]
        if label is None and not trailing and upcoming is not None and _beside_label(item, upcoming):
            beside_next.append(item)
            previous = item
            continue
        if label == labels[0] and len(options) == 1:
            stem += options[0].lines + trailing
            options, trailing, used = [], [], set()
        if label is not None and label not in used and (options or label == labels[0]) and not trailing:
            options.append(Option(label, item, [match.group("text").strip(), *(sl.text for sl in beside_next)], [item, *beside_next]))
            beside_next = []
        elif options and previous is options[-1].first and not options[-1].parts[0] and item.page == previous.page:
            options[-1].parts.append(item.text)
            options[-1].lines.append(item)
        elif not options:
            stem.append(item)
        elif not trailing and (
            _continues_in_column(options, item, pitch) or _between_labels(options, item, label_after[index], labels)
            or _right_of_on_row(options[-1].lines[-1], item) or _in_last_row_cell(options, item)
        ):
            owner = _column_owner(options, item)
            owner.parts.append(item.text)
            owner.lines.append(item)
        else:
            trailing.append(item)
        previous = item
    if beside_next:
        (options[-1].lines if options else stem).extend(beside_next)
        if options:
            options[-1].parts.extend(sl.text for sl in beside_next)
    options.sort(key=lambda o: labels.index(o.label))
    return OptionBlock(stem, options, trailing, restored)


@pytest.mark.parametrize("seed", range(4))
def test_options_read_with_each_lines_label_read_once_are_those_read_per_walk(seed):
    blocks = list(_blocks(seed, 200))
    with_options = 0
    for lines, labels, option_re, bare in blocks:
        found = find_options(lines, labels, option_re, bare)
        # The labels repeated inside an option are said since the routine was copied here; the rest is as it was.
        assert replace(found, repeated=[]) == _find_options_asked_per_walk(lines, labels, option_re, bare), [
            sl.text for sl in lines]
        with_options += bool(found.options)
    assert with_options > len(blocks) // 4, "the generated blocks hold options"


@pytest.mark.parametrize("seed", range(4))
def test_the_label_walks_given_the_lines_labels_answer_as_asking_each_line(seed):
    for lines, labels, option_re, _ in _blocks(100 + seed, 200):
        opening = [opening_label(sl.text, labels, option_re) for sl in lines]
        assert options_module._label_lines_after(lines, opening) == _label_lines_after_asked_per_line(lines, labels, option_re)
        assert options_module._next_label_lines(lines, opening) == _next_label_lines_asked_per_line(lines, labels, option_re)


# ---------------------------------------------------------------- measure_pitch, as it asked each pair


def _height(item):
    return max(item.line.bottom - item.line.top, 0.01)


def _stacked(previous, item):
    if previous.page != item.page or item.line.top < previous.line.top + 0.5 * _height(previous):
        return False
    if min(previous.line.x1, item.line.x1) <= max(previous.line.x0, item.line.x0):
        return False
    a, b = previous.line.font_size, item.line.font_size
    return not (a and b and abs(a - b) > 0.1 * max(a, b))


def _measure_pitch_pairwise(lines):
    gaps, heights = [], []
    for previous, item in zip(lines, lines[1:]):
        if _stacked(previous, item):
            gaps.append(max(item.line.top - previous.line.bottom, 0.0))
            heights.append(_height(previous))
    if not gaps:
        return None
    gaps.sort()
    return Pitch(leading=gaps[(len(gaps) - 1) // 4], height=median(heights))


@pytest.mark.parametrize("seed", range(4))
def test_the_pitch_measured_in_one_walk_is_the_pitch_measured_pair_by_pair(seed):
    measured = 0
    for lines, *_ in _blocks(200 + seed, 300):
        pitch = measure_pitch(lines)
        assert pitch == _measure_pitch_pairwise(lines)
        measured += pitch is not None
    assert measured > 50, "the generated blocks hold stacked lines"


# ---------------------------------------------------------------- a stream line's text


def _unmark_prefix_by_patterns(text: str) -> str:
    match = _BOLD_PREFIX.match(text)
    if match:
        rest = text[match.end():]
        return match.group("inner") + (" " + rest if rest else "")
    lead = _BOLD_LEAD.match(text)
    if lead and "**" in text[lead.end():]:
        return f"{lead.group('lead')} **{text[lead.end():]}"
    return text


def _plain_enclosed_by_search(text: str, keep: frozenset[str] = frozenset()) -> str:
    if _ENCLOSED_SPAN.search(text) is None:
        return text
    return text.translate(_enclosed_table_without(keep) if keep else _ENCLOSED)


@pytest.mark.parametrize("seed", range(3))
def test_a_lines_text_unmarked_and_its_enclosed_labels_read_as_the_patterns_read_them(seed):
    rng = random.Random(300 + seed)
    pieces = ["*", "**", " ", "  ", "1", "01", "A.", "a", "Ktoré", "text", "Ⓑ", "①", "⑴", "\t", "Ａ", "x*y"]
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 9)))
        assert unmark_prefix(text) == _unmark_prefix_by_patterns(text), text
        for keep in (frozenset(), frozenset({"①"})):
            assert plain_enclosed(text, keep) == _plain_enclosed_by_search(text, keep), text


def _read_stream_as_before(document, include_dropped, keep, reader, stops):
    stream, texts, asked = [], [], False
    for page in document.pages:
        if page.dropped_reason and not include_dropped:
            continue
        ocr_page = page.method is stream_module.PageMethod.OCR
        for line in page.lines:
            read = ocr_page or line.ocr
            fold = False
            if read:
                asked = True
                repaired, fold = reader(line.text)
                line = line if repaired == line.text else replace(line, text=repaired)
            if stops is not None and stops.found_in(line.text):
                return stream_module._Read(stream, texts, asked)
            texts.append((line.text, len(stream)))
            text = stream_module._stream_text(line.text, keep)
            if text is None:
                continue
            stream.append(StreamLine(page.number, line if text == line.text else replace(line, text=text), read, fold))
    return stream_module._Read(stream, texts, asked)


def test_a_documents_stream_is_read_as_before_ocrd_lines_repaired_and_stopped_where_a_stop_matches():
    from pipeline.extract import ExtractedDocument, Page, PageMethod
    from pipeline.patterns import AnyPattern

    rng = random.Random(400)
    for round_ in range(60):
        pages = []
        for number in range(1, rng.randint(1, 4) + 1):
            method = rng.choice([PageMethod.TEXT, PageMethod.TEXT, PageMethod.OCR])
            lines = [Line(text=rng.choice(["**1.** Pytanie", "__ __", "A) tak", "Koniec testu", "3.l Zadanie", "Ⓑ nie", "…", "tekst"]),
                          x0=56.0, top=100.0 + 14 * k, x1=300.0, bottom=112.0 + 14 * k, ocr=rng.random() < 0.2)
                     for k in range(rng.randint(0, 12))]
            pages.append(Page(number=number, width=595.0, height=842.0, method=method, lines=lines,
                              dropped_reason="scratch" if rng.random() < 0.1 else None))
        document = ExtractedDocument(sha256="0" * 64, path="sheet.pdf", page_count=len(pages), pages=pages, stage_version="")
        reader = Recovery.every().line_reader(LABELS)
        stops = AnyPattern(["^Koniec"]) if round_ % 2 else None
        for include_dropped in (False, True):
            for keep in (frozenset(), frozenset({"Ⓑ"})):
                assert (stream_module._read_stream(document, include_dropped, keep, reader, stops)
                        == _read_stream_as_before(document, include_dropped, keep, reader, stops))


# ---------------------------------------------------------------- a key cell's width


def test_a_words_width_kept_per_word_is_the_sum_of_its_characters_advances():
    rng = random.Random(500)
    alphabet = "ABCDabcd0123456789iljI.,:;|!'frt-()[]*/mwMW\u0336\u0338ĄéΩ "
    for _ in range(5000):
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))
        em = rng.choice([7.5, 10.0, 11.04, 12.0])
        assert gridkeys._estimated_width(word, em) == em * sum(gridkeys._advance(ch) for ch in word), word
