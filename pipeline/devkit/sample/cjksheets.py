"""Japanese and Chinese exam sheets as their national exams print them, with their keys and their truth.

- `japanese_center`: a sheet like Japan's common test (大学入学共通テスト): parts `第１問`, `第２問` whose questions
  `問１`, `問２` … restart in each part, full-width digits, options `①`–`④` (in a row, or one a line), footer
  `－ １ －`; the key a ruled table per part under its heading (`第１問` over `解答番号 | 正解`).
- `chinese_gaokao`: a sheet like China's gaokao: `一、选择题` then `1．`, `2．` … with options `A．`–`D．` in a
  2×2 grid (full-width stops), then `二、填空题` whose questions have no options; footer `数学试题　第1页（共2页）`;
  the key a list of entries `1．B　2．D …` under `参考答案`.

Each builder writes the sheet and its key PDF into a folder and returns `CjkSet`: the paths and, per question,
the number as a record holds it, its options ({label: text}) and its answer. `damaged=True` prints one question
without its header (Japanese: no `問３`, its stem straight after the options before it; Chinese: no `6．`), which no
header pattern can place: the parser must flag it and say so in its problems, never pass it off silently.
Deterministic: no randomness, the same files every time.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.devkit.sample.keysheets import ruled_rows
from pipeline.devkit.sample.pdfgen import CJK_FONT_JP, CJK_FONT_SC, PageItem, PageSpec, TextBox, build_pdf, text_height

# The specs for these sheets, written from the docs alone (docs/guides/new-exam-family.md): `ja_center_test` (①–④),
# `ja_center_kana_test` (ア–エ), `zh_gaokao_test` (A–D, printed plain or full-width).
CJK_SPECS = Path(__file__).parent / "cjkspecs"
SIZE = 10.5  # points: body text
LEFT = 20.0  # mm: the column's left edge
WIDTH = 170.0  # mm: the column's width
FULL_WIDTH_DIGITS = str.maketrans("0123456789", "０１２３４５６７８９")
CIRCLED = ("①", "②", "③", "④")
KANA = ("ア", "イ", "ウ", "エ")
CAPITALS = ("A", "B", "C", "D")
WIDE_CAPITALS = ("Ａ", "Ｂ", "Ｃ", "Ｄ")


@dataclass(frozen=True)
class CjkQuestion:
    number: str  # as the record holds it: `1.2` is part 1's 問２
    stem: str
    options: tuple[str, ...]  # the option texts, in label order; empty: a question without options
    answer: str | None  # the label the key prints (one of the sheet's `labels`); None: no key entry


@dataclass(frozen=True)
class CjkSet:
    sheet: Path
    key: Path
    labels: tuple[str, ...]  # as the sheet prints them
    questions: tuple[CjkQuestion, ...]
    lost: tuple[str, ...] = ()  # numbers of questions printed without their number (`damaged`)

    def expected(self) -> dict[str, CjkQuestion]:
        return {q.number: q for q in self.questions if q.number not in self.lost}


def full_width(text: str) -> str:
    return text.translate(FULL_WIDTH_DIGITS)


# ------------------------------------------------------------------------------------------------- Japanese

# Two parts, four questions each; part 1 prints its short options in a row, part 2 its long ones one a line.
JA_PARTS: tuple[tuple[str, tuple[tuple[str, tuple[str, ...], str], ...]], ...] = (
    ("次の問い（問１～問４）に答えよ。（配点　２０）", (
        ("日本で最も長い川として最も適当なものを、次の①～④のうちから一つ選べ。", ("利根川", "信濃川", "石狩川", "北上川"), "②"),
        ("平安京に都が移された年として正しいものを、次の①～④のうちから一つ選べ。", ("７１０年", "７９４年", "１１９２年", "１６０３年"), "②"),
        ("水の沸点（１気圧）として正しいものを、次の①～④のうちから一つ選べ。", ("５０℃", "７５℃", "１００℃", "１２０℃"), "③"),
        ("「枕草子」の作者を、次の①～④のうちから一つ選べ。", ("紫式部", "清少納言", "和泉式部", "小野小町"), "②"),
    )),
    ("次の文章を読み、後の問い（問１～問４）に答えよ。（配点　２０）", (
        ("下線部の説明として最も適当なものを、次の①～④のうちから一つ選べ。",
         ("川の流れが速く、短い距離で海に注ぐため。", "雨が少なく、水が地下にしみこむため。",
          "冬に雪が多く、春に雪解け水が流れ込むため。", "湖から流れ出す水が一年中一定であるため。"), "③"),
        ("空欄 ア に入る語として最も適当なものを、次の①～④のうちから一つ選べ。",
         ("扇状地", "三角州", "河岸段丘", "リアス海岸"), "①"),
        ("この地域の気候の特徴として最も適当なものを、次の①～④のうちから一つ選べ。",
         ("一年を通じて降水量が少ない。", "夏に降水量が多く、冬は乾燥する。", "冬に降水量が多い。", "梅雨がない。"), "③"),
        ("本文の内容と合致するものを、次の①～④のうちから一つ選べ。",
         ("人口は増え続けている。", "農業は行われていない。", "観光業が主な産業である。", "工業が盛んである。"), "④"),
    )),
)


def _ja_sheet_pages(damaged: bool, labels: tuple[str, ...]) -> tuple[list[PageSpec], tuple[str, ...]]:
    items: list[PageItem] = [TextBox("令和１３年度　大学入学共通テスト（試作問題）　地理", LEFT, 14, WIDTH, size=12, bold=True, font=CJK_FONT_JP)]
    y = 26.0
    lost: list[str] = []
    for p, (heading, questions) in enumerate(JA_PARTS, 1):
        title = TextBox(f"第{full_width(str(p))}問　{heading}", LEFT, y, WIDTH, size=SIZE + 0.5, bold=True, font=CJK_FONT_JP)
        items.append(title)
        y += text_height(title) + 3
        for n, (stem, options, _) in enumerate(questions, 1):
            number = f"問{full_width(str(n))}"
            header = f"{number}　"
            if damaged and (p, n) == (2, 3):  # the header left out: the stem alone after the options before it
                header = ""
                lost.append(f"{p}.{n}")
            box = TextBox(f"{header}{_relabelled(stem, labels)}", LEFT, y, WIDTH, size=SIZE, font=CJK_FONT_JP)
            items.append(box)
            y += text_height(box) + 2
            if p == 1:  # in a row: each option at its own place
                for i, text in enumerate(options):
                    items.append(TextBox(f"{labels[i]}　{text}", LEFT + 8 + i * 40, y, 38, size=SIZE, font=CJK_FONT_JP))
                y += SIZE * 0.5 + 2
            else:
                for i, text in enumerate(options):
                    option = TextBox(f"{labels[i]}　{text}", LEFT + 8, y, WIDTH - 8, size=SIZE, font=CJK_FONT_JP)
                    items.append(option)
                    y += text_height(option) + 0.8
            y += 5
    items.append(TextBox("－ １ －", LEFT, 284, WIDTH, size=9, font=CJK_FONT_JP, align="C"))
    return [PageSpec(tuple(items))], tuple(lost)


def _relabelled(text: str, labels: tuple[str, ...]) -> str:
    """`text` (written with ①–④) with the sheet's own labels."""
    return text.translate({ord(c): label for c, label in zip(CIRCLED, labels)})


def _ja_key_pages(labels: tuple[str, ...]) -> list[PageSpec]:
    items: list[PageItem] = [TextBox("令和１３年度　大学入学共通テスト（試作問題）　地理　正解表", LEFT, 14, WIDTH, size=13, bold=True, font=CJK_FONT_JP)]
    for p, (_, questions) in enumerate(JA_PARTS, 1):
        x = LEFT + (p - 1) * 80
        items.append(TextBox(f"第{full_width(str(p))}問", x, 28, 50, size=12, bold=True, font=CJK_FONT_JP))
        rows = [["解答番号", "正解", "配点"]] + [[str(n), _relabelled(answer, labels), "5"] for n, (_, _, answer) in enumerate(questions, 1)]
        items += ruled_rows(x, 36, [24.0, 18.0, 16.0], rows, size=11, font=CJK_FONT_JP, height=11 * 0.62)
    return [PageSpec(tuple(items))]


def japanese_center(folder: Path, damaged: bool = False, labels: tuple[str, ...] = CIRCLED) -> CjkSet:
    """`labels`: ①–④ (`CIRCLED`) or ア–エ (`KANA`, a bare katakana before an ideographic space)."""
    folder.mkdir(parents=True, exist_ok=True)
    pages, lost = _ja_sheet_pages(damaged, labels)
    sheet = build_pdf(folder / "sheet.pdf", pages)
    key = build_pdf(folder / "key.pdf", _ja_key_pages(labels))
    questions = tuple(CjkQuestion(f"{p}.{n}", _relabelled(stem, labels), options, _relabelled(answer, labels))
                      for p, (_, part) in enumerate(JA_PARTS, 1) for n, (stem, options, answer) in enumerate(part, 1))
    return CjkSet(sheet, key, labels, questions, lost)


# ------------------------------------------------------------------------------------------------- Chinese

ZH_CHOICE: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("已知集合A＝{1，2，3}，B＝{2，3，4}，则A∩B＝（　　）", ("{1}", "{2，3}", "{1，4}", "{1，2，3，4}"), "B"),
    ("若复数z满足z（1＋i）＝2，则z的虚部为（　　）", ("－1", "1", "－i", "i"), "A"),
    ("函数f（x）＝sin 2x的最小正周期为（　　）", ("π/2", "π", "2π", "4π"), "B"),
    ("已知向量a＝（1，2），b＝（2，m），若a∥b，则m＝（　　）", ("－4", "－1", "1", "4"), "D"),
    ("某班有男生20人，女生30人，用分层抽样抽取10人，则应抽取女生（　　）", ("4人", "5人", "6人", "8人"), "C"),
    ("已知等差数列{an}中，a1＝2，a3＝6，则a5＝（　　）", ("8", "10", "12", "14"), "B"),
    ("下列函数中，在区间（0，＋∞）上单调递减的是（　　）", ("y＝x²", "y＝2^x", "y＝lg x", "y＝1/x"), "D"),
    ("抛物线y²＝4x的焦点坐标为（　　）", ("（1，0）", "（0，1）", "（2，0）", "（0，2）"), "A"),
)
ZH_FILL = ("函数f（x）＝x²－2x＋3的最小值为________。", "已知tanα＝2，则tan2α＝________。")


def _zh_sheet_pages(damaged: bool, labels: tuple[str, ...]) -> tuple[list[PageSpec], tuple[str, ...]]:
    font = CJK_FONT_SC
    items: list[PageItem] = [TextBox("2031年普通高等学校招生全国统一考试（模拟）　数学", LEFT, 14, WIDTH, size=13, bold=True, font=font, align="C")]
    y = 26.0
    heading = TextBox("一、选择题：本题共8小题，每小题5分，共40分。在每小题给出的四个选项中，只有一项是符合题目要求的。",
                      LEFT, y, WIDTH, size=SIZE, bold=True, font=font)
    items.append(heading)
    y += text_height(heading) + 3
    lost: list[str] = []
    for n, (stem, options, _) in enumerate(ZH_CHOICE, 1):
        number = f"{n}．"
        if damaged and n in (6, 7):  # two headers in a row left out: no numbering can tell where 7 starts
            number = ""
            lost.append(str(n))
        box = TextBox(f"{number}{stem}", LEFT, y, WIDTH, size=SIZE, font=font)
        items.append(box)
        y += text_height(box) + 1.5
        for row in range(2):  # a 2×2 grid: A and B, then C and D
            for col in range(2):
                i = row * 2 + col
                items.append(TextBox(f"{labels[i]}．{options[i]}", LEFT + 6 + col * 80, y, 74, size=SIZE, font=font))
            y += SIZE * 0.5 + 1.5
        y += 4
    heading = TextBox("二、填空题：本题共2小题，每小题5分，共10分。", LEFT, y, WIDTH, size=SIZE, bold=True, font=font)
    items.append(heading)
    y += text_height(heading) + 3
    for n, stem in enumerate(ZH_FILL, len(ZH_CHOICE) + 1):
        box = TextBox(f"{n}．{stem}", LEFT, y, WIDTH, size=SIZE, font=font)
        items.append(box)
        y += text_height(box) + 6
    items.append(TextBox("数学试题　第1页（共1页）", LEFT, 284, WIDTH, size=9, font=font, align="C"))
    return [PageSpec(tuple(items))], tuple(lost)


def _zh_key_pages(labels: tuple[str, ...]) -> list[PageSpec]:
    font = CJK_FONT_SC
    items: list[PageItem] = [TextBox("2031年普通高等学校招生全国统一考试（模拟）　数学　参考答案", LEFT, 14, WIDTH, size=13, bold=True, font=font)]
    items.append(TextBox("一、选择题：本题共8小题，每小题5分，共40分。", LEFT, 28, WIDTH, size=SIZE, bold=True, font=font))
    entries = [f"{n}．{labels[CAPITALS.index(answer)]}" for n, (_, _, answer) in enumerate(ZH_CHOICE, 1)]
    for row in range(0, len(entries), 4):
        items.append(TextBox("　　".join(entries[row:row + 4]), LEFT, 36 + row // 4 * 7, WIDTH, size=SIZE, font=font))
    items.append(TextBox("二、填空题：9．2　　10．－4/3", LEFT, 54, WIDTH, size=SIZE, font=font))
    return [PageSpec(tuple(items))]


def chinese_gaokao(folder: Path, damaged: bool = False, labels: tuple[str, ...] = CAPITALS) -> CjkSet:
    """`labels`: `A`–`D` (`CAPITALS`) or the full-width `Ａ`–`Ｄ` (`WIDE_CAPITALS`), in the sheet and in its key; the
    records hold the spec's labels (`A`–`D`) either way."""
    folder.mkdir(parents=True, exist_ok=True)
    pages, lost = _zh_sheet_pages(damaged, labels)
    sheet = build_pdf(folder / "sheet.pdf", pages)
    key = build_pdf(folder / "key.pdf", _zh_key_pages(labels))
    questions = tuple(CjkQuestion(str(n), stem, options, labels[CAPITALS.index(answer)])
                      for n, (stem, options, answer) in enumerate(ZH_CHOICE, 1))
    questions += tuple(CjkQuestion(str(n), stem, (), None) for n, stem in enumerate(ZH_FILL, len(ZH_CHOICE) + 1))
    return CjkSet(sheet, key, labels, questions, lost)


__all__ = ["CAPITALS", "CJK_SPECS", "CIRCLED", "KANA", "WIDE_CAPITALS", "CjkQuestion", "CjkSet", "chinese_gaokao", "full_width", "japanese_center"]
