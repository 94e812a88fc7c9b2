"""`examcorpus inspect` on options printed side by side (issue 26, item 4): every line the parser took as
an option label is shown as one, whatever the alphabet (circled ①–⑤, Greek α–δ), and a line holding
several options names each label it was split at; none shows as "continuation"."""
from __future__ import annotations


import pytest

from pipeline.devkit import inspect_sheet
from pipeline.devkit.sample.pdfgen import CJK_FONT, TextBox, cjk_font
from pipeline.specs import parse_spec
from tests.pipeline.parse.repertoire_sheets import pdf


def _spec(labels: list[str]):
    return parse_spec({
        "name": "rows_family",
        "description": "options side by side",
        "metadata": {"country": "KR", "language": "ko", "exam": "test", "subject": "수학", "license_note": "generated"},
        "ocr": {"languages": ["kor"]},
        "local": {"files": [{"role": "sheet", "pattern": r"(?P<year>\d{4})/sheet\.pdf$"}]},
        "pairing": {"on": ["year"]},
        "layout": {
            "question_start": r"^(?P<number>\d{1,2})\.\s+(?=\S)",
            "options": {"labels": labels, "styles": ["A."]},
        },
        "key": {"kind": "list", "entry": r"(?P<number>\d{1,2})\.\s*(?P<answer>\S)"},
    }, "rows_family.yaml")


def _rule(inspection, text_start: str) -> str:
    rules = [line.rule for line in inspection.lines if line.text.startswith(text_start)]
    assert rules, f"no line starting {text_start!r}: {[line.text for line in inspection.lines]}"
    return rules[0]


@pytest.mark.skipif(cjk_font() is None, reason="Hangul sheets need fonts-noto-cjk (make system-packages)")
def test_circled_labels_in_a_row_and_in_a_grid_show_as_option_labels(tmp_path):
    boxes = [
        TextBox("1. 함수 f(x)=x+1 에 대하여 f(2)의 값은?", 20, 20, 170, size=10, font=CJK_FONT),
        TextBox("① 1   ② 2   ③ 3   ④ 4   ⑤ 5", 26, 27, 160, size=10, font=CJK_FONT),
        TextBox("2. 다음 중 가장 큰 수는?", 20, 40, 170, size=10, font=CJK_FONT),
    ]
    boxes += [TextBox(t, 26 + 34 * (i % 3), 47 + 5.5 * (i // 3), 32, size=10, font=CJK_FONT) for i, t in enumerate(
        ["① 2", "② 3", "③ 4", "④ 5", "⑤ 6"])]
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    inspection = inspect_sheet(sheet, _spec(["①", "②", "③", "④", "⑤"]), ocr_cache_dir=tmp_path / "ocr")
    assert _rule(inspection, "① 1") == "option labels ①, ②, ③, ④, ⑤ (side by side)"
    for label, text in zip("①②③④⑤", "23456"):
        assert _rule(inspection, f"{label} {text}") == f"option label {label}"
    assert not [line for line in inspection.lines if "continuation" in line.rule]


def test_greek_labels_in_one_row_show_each_label(tmp_path):
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", [
        TextBox("1. Ποια είναι η τιμή του 2 + 3;", 20, 20, 170, size=10),
        TextBox("α. 4   β. 5   γ. 6   δ. 7", 26, 27, 160, size=10),
    ])
    inspection = inspect_sheet(sheet, _spec(["α", "β", "γ", "δ"]), ocr_cache_dir=tmp_path / "ocr")
    assert _rule(inspection, "α. 4") == "option labels α, β, γ, δ (side by side)"
