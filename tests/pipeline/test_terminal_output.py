"""Names and text from outside printed on a terminal: control sequences shown escaped, never sent.

The attacks: files of a `--from` folder named with ANSI and OSC sequences (a colour, a window title, a
line erase), a folder named `[/red]` (rich markup) holding a link that leads nowhere, and a PDF whose text
layer maps a glyph to ESC sequences, printed by `examcorpus inspect`. Before: the escapes reached the
terminal raw, and the folder's name made the run summary raise `rich.errors.MarkupError` (exit 1, a
traceback, after the curated file was written).
"""
from __future__ import annotations


from pipeline.cli import main as examcorpus
from pipeline.devkit.sample.pdfgen import FONT_FILES, font_dir
from pipeline.devkit.sample.rawtext import Placed, set_line, write_pdf
from pipeline.infra import printable

FONT = font_dir() / FONT_FILES[("DejaVuSans", False)]
TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"


def test_printable_shows_every_control_and_bidi_character_as_its_escape():
    assert printable("a\x1b[31mb" + TITLE + "\u202eexe.pdf\x9b1m") == "a\\x1b[31mb\\x1b]0;pwned\\x07\\u202eexe.pdf\\x9b1m"
    assert printable("two\nlines\tand tab") == "two\nlines\tand tab"
    assert printable("two\nlines", newlines=False) == "two\\nlines"
    assert printable("Zadanie 1. Ile wynosi 2·3? ΑΒΓ 問１") == "Zadanie 1. Ile wynosi 2·3? ΑΒΓ 問１"


def test_a_season_folder_of_hostile_names_prints_them_escaped(tmp_path, season_folder, capsys):
    (season_folder / f"\x1b[31mRED\x1b[0m{TITLE}.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    (season_folder / f"bad{CLEAR}-2022-maj-egzamin-zawodowy-pisemny.pdf").write_bytes(b"<html></html>")
    (season_folder / "[/red]").mkdir(parents=True)  # a folder `[` holding a folder `red]`
    (season_folder / "[/red]" / "x.pdf").symlink_to(tmp_path / "nowhere.pdf")
    (season_folder / "\u202eFDP.exe").mkdir()
    (season_folder / "\u202eFDP.exe" / "y.pdf").symlink_to(tmp_path / "nowhere.pdf")
    root = tmp_path / "project"
    assert examcorpus(["extract", "--source", "sample_pl", "--from", str(season_folder), "--root", str(root),
                       "--no-progress", "--workers", "1"]) == 0
    out = capsys.readouterr()
    printed = out.out + out.err
    assert "\x1b" not in printed and "\u202e" not in printed
    assert "\\x1b[31mRED\\x1b[0m\\x1b]0;pwned\\x07.pdf" in printed and f"bad{printable(CLEAR)}-2022" in printed
    assert "[/red]/x.pdf: dangling symbolic link" in printed and "\\u202eFDP.exe/y.pdf" in printed
    report = (root / "curated" / "reports" / "sample_pl.md").read_text(encoding="utf-8")
    assert "\x1b" not in report and "\\x1b[31mRED" in report


def test_inspect_prints_a_text_layers_control_characters_escaped(tmp_path, capsys):
    """The glyph `Z` of `Zadanie 1.` mapped, by the PDF's own ToUnicode map, to a right-to-left override, a C1
    CSI (U+009B, `2J` after it), ESC `[2J` and a left-to-right isolate. pdfium drops C0 controls (ESC) from a
    text layer; the C1 control and the bidi controls came through, printed raw before."""
    glyphs = set_line(FONT, "Zadanie 1. Ile to jest?", 60, 80, 11)
    glyphs[0] = Placed(glyphs[0].glyph, "\u202e\x9b2J" + CLEAR + "\u2066Z", glyphs[0].x, glyphs[0].y, glyphs[0].size)
    sheet = write_pdf(tmp_path / "sheet.pdf", [glyphs], FONT)
    assert examcorpus(["inspect", str(sheet), "--source", "sample_pl"]) == 0
    printed = capsys.readouterr().out
    assert not any(c in printed for c in "\x1b\x9b\u202e\u2066")
    assert "\\u202e\\x9b2J" in printed and "\\u2066Zadanie" in printed
