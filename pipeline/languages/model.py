"""The schema of one language file (`pipeline/languages/data/<iso639-1>.yaml`).

Every model forbids unknown fields, so a misspelt key is an error naming the file and the field.
The checks tie the parts together where the code relies on it: the file is named after its code,
the prompt's closing line names the prompt's own answer word, the answer-extraction words accept
that word, and letters are given in lower case (the code derives the capitals).
"""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class _Strict(BaseModel):
    # defer_build: a model's validator is built when it is first validated, its nested models' inlined in it;
    # built at import, every nested model built its own too, which a run never uses (about 20 ms a process).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _lower_letters(value: str) -> str:
    bad = [c for c in value if not (c.isalpha() and c == c.lower())]
    if bad:
        raise ValueError(f"lower-case letters only (capitals are derived), not {''.join(bad)!r}")
    if len(set(value)) != len(value):
        raise ValueError("a letter is given twice")
    return value


def _no_blanks(value: list[str]) -> list[str]:
    if any(not w.strip() or w != w.strip() for w in value):
        raise ValueError("entries must be non-empty and without leading or trailing spaces")
    return value


def _lower_case_only(value: list[str], fold=str.lower, why: str = "") -> list[str]:
    """`value` unchanged when every entry is already lower case by `fold` (`str.casefold` where entries are
    compared casefolded: it also rejects a final ς or ß); else what to give instead, and why."""
    upper = [w for w in value if w != fold(w)]
    if upper:
        raise ValueError(f"give these in lower case{why}: {upper}")
    return value


def _unequal_lower_pairs(value: dict[str, str]) -> list[str]:
    """The pairs of a {spelling: spelling} map that are not two different non-empty lower-case spellings."""
    return [f"{k}: {v}" for k, v in value.items() if not k or not v or k == v or k != k.lower() or v != v.lower()]


class Codes(_Strict):
    iso639_1: str = Field(pattern=r"^[a-z]{2}$", description="ISO 639-1, the code records and specs use: pl")
    iso639_2: str = Field(pattern=r"^[a-z]{3}$", description="ISO 639-2/T: pol")
    tesseract: list[str] = Field(min_length=1, description="Tesseract traineddata names for the language: [pol]")
    companions: list[str] = Field(
        default_factory=list,
        description="Tesseract traineddata of the script its pages print beside their own (the Latin units, codes and digits of a "
        "Greek page: `cm`, `Test 26`, a table's numbers, which the Greek model reads as Greek look-alikes): number cells are read "
        "with it too, and words the page's own model was unsure of again with it alone (pass `companion-words`): [eng]",
    )

    @field_validator("tesseract", "companions")
    @classmethod
    def _tesseract_names(cls, value: list[str]) -> list[str]:
        bad = [v for v in value if not re.fullmatch(r"[a-z]{3}(?:_[a-z]+)?", v)]
        if bad:
            raise ValueError(f"not Tesseract language names (like pol, chi_sim): {bad}")
        return value


class PageFurniture(_Strict):
    """Words of the running footers every sheet prints ("Strona 3 z 12"), removed by extract on any sheet."""

    page_words: list[str] = Field(default_factory=list, description="printed before a page number: Strona, Str.")
    of_words: list[str] = Field(default_factory=list, description="between a page number and the page count: z")

    _blanks = field_validator("page_words", "of_words")(_no_blanks)


class TextQuality(_Strict):
    """Letters the text-layer check (pipeline.extract.quality) uses to spot glyphs split off their words."""

    split_letters: str = Field(
        default="", description="letters with a diacritic that never stand alone as a word (a lone one is a split glyph)"
    )
    never_initial: str = Field(default="", description="letters no word starts with (a token starting with one is a split tail)")
    misread_letters: dict[str, str] = Field(
        default_factory=dict,
        description="lower case; letters printed close together and what OCR reads them as when blur joins them: {ri: n, rn: m}"
                    " (a word no dictionary knows that one of them makes a known word is an unsure reading)",
    )

    optional_marks: dict[str, str] = Field(
        default_factory=dict,
        description="lower case; a marked letter print may write bare, and that letter: {ё: е} (both spellings are words, so a"
                    " twin read with the other is judged by the ink over the letter: pass `mark-checks`)",
    )
    marked_letters: str = Field(
        default="",
        description="the only letters with marks the language writes in its script (monotonic Greek: άέήίόύώϊϋΐΰ); another"
                    " marked letter of the script is a misread (`ὐ` for `ύ`: pass `mark-checks`); empty: not judged",
    )

    _letters = field_validator("split_letters", "never_initial", "marked_letters")(_lower_letters)

    @field_validator("optional_marks")
    @classmethod
    def _optional_pairs(cls, value: dict[str, str]) -> dict[str, str]:
        bad = _unequal_lower_pairs(value) + [f"{k}: {v}" for k, v in value.items() if len(k) != 1 or len(v) != 1]
        if bad:
            raise ValueError(f"optional_marks map one marked letter to one bare letter, in lower case: {bad}")
        return value

    @field_validator("misread_letters")
    @classmethod
    def _misread_pairs(cls, value: dict[str, str]) -> dict[str, str]:
        bad = _unequal_lower_pairs(value)
        if bad:
            raise ValueError(f"misread_letters map printed letters to other letters, in lower case: {bad}")
        return value

    @model_validator(mode="after")
    def _initial_are_split_letters(self) -> TextQuality:
        extra = sorted(set(self.never_initial) - set(self.split_letters))
        if extra:
            raise ValueError(f"never_initial letters {''.join(extra)!r} must also be split_letters")
        return self


class LabelShapes(_Strict):
    """How OCR misreads a lone option label of the script (a key's answer cell, a label alone in its line)."""

    same_shape: str = Field(
        default="", description="small letters whose capital has the same shape, only bigger: a lone one takes the labels' case (в, г)"
    )
    lookalikes: dict[str, str] = Field(
        default_factory=dict, description="a lone character Tesseract reads for a label letter, and that letter: {ὃ: δ}"
    )
    marked_lookalikes: dict[str, str] = Field(
        default_factory=dict,
        description="a character Tesseract reads for a label letter printed with its mark in a row of options (`6)` for `б)`), "
                    "and that letter: {6: б}; only a row's label sequence takes it so (`parse.rowlabels`), never a lone cell",
    )

    header_lookalikes: dict[str, str] = Field(
        default_factory=dict,
        description="a character the language's OCR model reads for a capital printed alone beside its script's words, in a "
                    "key header naming a booklet type (`유형 A` read `유형 4` by the Korean model), and that capital: {4: A}; only "
                    "a header's booklet name takes it so (`parse.bookletlabels`), never an answer cell",
    )

    _letters = field_validator("same_shape")(_lower_letters)

    @field_validator("lookalikes", "marked_lookalikes", "header_lookalikes")
    @classmethod
    def _single_characters(cls, value: dict[str, str]) -> dict[str, str]:
        bad = [f"{k}: {v}" for k, v in value.items() if len(k) != 1 or len(v) != 1 or k == v]
        if bad:
            raise ValueError(f"lookalikes map one character to another: {bad}")
        return value


class GlyphCells(_Strict):
    """The script sets every glyph on one square cell (Hangul, Han, kana): OCR measures word spaces and dropped
    glyphs in cells (`pipeline.extract.ocr.glyphcells`). Widths are in cells, measured on the page."""

    word_space: float = Field(gt=0, lt=1, description="white between two glyphs from which it is a word space: 0.34")
    glyph_from: float = Field(gt=0, le=1, description="uncovered ink beside a word, or a box's excess over its text, from which "
                                                       "a glyph was dropped: 0.6")


class Spelling(_Strict):
    """The language's spelling dictionaries: OCR checks uncertain words against them (`pipeline.extract.ocr.hunspell`)."""

    dictionaries: list[str] = Field(
        min_length=1, description="hunspell dictionary names under /usr/share/hunspell, any of which may know a word: [pl_PL]"
    )
    debian_packages: list[str] = Field(min_length=1, description="the Debian packages that ship them (`make setup` installs them): [hunspell-pl]")
    same_words: dict[str, str] = Field(
        default_factory=dict,
        description="letter sequences the language writes either way in one word, where its dictionaries know only one way "
                    "(Vietnamese tone marks on either vowel: {òa: oà}); a word they do not know is asked again written the other way",
    )

    @field_validator("same_words")
    @classmethod
    def _same_words(cls, value: dict[str, str]) -> dict[str, str]:
        bad = _unequal_lower_pairs(value)
        if bad:
            raise ValueError(f"same_words pair two different lower-case spellings: {bad}")
        return value

    @field_validator("dictionaries")
    @classmethod
    def _dictionary_names(cls, value: list[str]) -> list[str]:
        bad = [v for v in value if not re.fullmatch(r"[a-z]{2,3}(?:_[A-Z]{2})?", v)]
        if bad:
            raise ValueError(f"not hunspell dictionary names (like pl_PL, ko): {bad}")
        return value


class GluedWords(_Strict):
    """The language's one-letter words, and the common words that follow them: OCR loses the narrow space after
    a one-letter word (`Alos` for `A los`, `Aun` for `A un`), and both recognisers read the glued form alike, so
    only the language knows it. An OCR'd word that is one of `one_letter` and one of `followers` run together,
    and not one of `words`, makes its question unsure; a lone letter that is none of `one_letter` (a speck read
    as `r`) does too (`pipeline.parse.misreadsigns`)."""

    one_letter: list[str] = Field(min_length=1, description="lower case; the words of one letter: a, e, o, u, y")
    followers: list[str] = Field(min_length=1, description="lower case; the commonest short words after them: el, la, los, un")
    words: list[str] = Field(default_factory=list, description="lower case; words that read as such a pair but are words: uno, ese")

    _blanks = field_validator("one_letter", "followers", "words")(_no_blanks)

    @field_validator("one_letter", "followers", "words")
    @classmethod
    def _lower(cls, value: list[str]) -> list[str]:
        return _lower_case_only(value)

    @field_validator("one_letter")
    @classmethod
    def _one_letter(cls, value: list[str]) -> list[str]:
        long = [w for w in value if len(w) != 1 or not w.isalpha()]
        if long:
            raise ValueError(f"one letter each: {long}")
        return value


def numeral_problems(value: dict[int, list[str]]) -> list[str]:
    """What is wrong with a numerals table ({value: its words}): it must give 0–20 and the tens to 100, each word
    in lower case, once, under one value only."""
    problems = [f"no words for {n}" for n in [*range(21), *range(30, 101, 10)] if not value.get(n)]
    problems += [f"{n} is no number from 0 to 1000" for n in value if not 0 <= n <= 1000]
    seen: dict[str, int] = {}
    for number, words in value.items():
        for word in words:
            if not word.strip() or word != word.strip() or " " * 2 in word:
                problems.append(f"{number}: {word!r} must be non-empty, single-spaced, without spaces around")
            elif word != word.lower() or any(ch.isdigit() for ch in word):
                problems.append(f"{number}: {word!r} must be in lower case, without digits")
            elif word in seen:
                problems.append(f"{word!r} is given under {seen[word]} and {number}")
            seen[word] = number
    return problems


class PromptWords(_Strict):
    """The words of eval's prompt protocols. Frozen once published: a changed word changes scores."""

    instruction: str = Field(min_length=1, description="the opening line: what follows and what to choose")
    finish_with: str = Field(min_length=1, description="generative prompts only: how to state the answer ('<answer>: X')")
    question: str = Field(min_length=1, description="heading of the question: Pytanie")
    answer: str = Field(min_length=1, description="the answer word a prompt ends at: Odpowiedź")
    passage: str = Field(min_length=1, description="heading of a shared passage: Tekst")
    figure: str = Field(min_length=1, description="what a figure is called: Rysunek")
    no_description: str = Field(min_length=1, description="said of a figure with no reviewed description")

    @model_validator(mode="after")
    def _finish_names_the_answer_word(self) -> PromptWords:
        if f"{self.answer}: X" not in self.finish_with:
            raise ValueError(f"finish_with must show the answer line '{self.answer}: X'")
        return self


class TrueFalseWords(_Strict):
    """How replies (and keys) say true and false, one letter abbreviations included: P/F, Σ/Λ."""

    true_words: list[str] = Field(min_length=1, description="P, Prawda")
    false_words: list[str] = Field(min_length=1, description="F, Fałsz")

    _blanks = field_validator("true_words", "false_words")(_no_blanks)

    @model_validator(mode="after")
    def _disjoint(self) -> TrueFalseWords:
        both = {w.casefold() for w in self.true_words} & {w.casefold() for w in self.false_words}
        if both:
            raise ValueError(f"words both true and false: {sorted(both)}")
        return self


class Language(_Strict):
    """Everything examcorpus knows about one language."""

    name: str = Field(min_length=1, description="English name: Polish")
    native_name: str = Field(min_length=1, description="the language's own name: polski")
    codes: Codes
    script: Literal["Latin", "Greek", "Cyrillic", "Hangul", "Arabic", "Hebrew", "Han", "Devanagari"] = Field(
        description="the script sheets are printed in"
    )
    decimal_mark: Literal[",", "."] = Field(description="the mark numbers are written with: 3,5 or 3.5")
    spelling: Spelling | None = Field(default=None, description="spelling dictionaries; none: OCR checks no word against one")
    page_furniture: PageFurniture = Field(default_factory=PageFurniture)
    text_quality: TextQuality = Field(default_factory=TextQuality)
    glued_words: GluedWords | None = Field(
        default=None, description="one-letter words and their followers; none: OCR'd questions are not judged by them"
    )
    label_shapes: LabelShapes = Field(default_factory=LabelShapes)
    numerals: dict[int, list[str]] = Field(
        default_factory=dict,
        description="lower case; the words a number is written with, 0–20 and the tens to 100 at least, every form a key may "
                    "print beside its digits (genders, cases, spellings: {3: [tri, traja]}): an OCR'd key entry whose "
                    "alternatives hold a number and a word of another value is unsure (`pipeline.parse.shortentries`)",
    )
    word_spaces: bool = Field(
        default=True,
        description="the script sets a space between words; false (Japanese, Chinese): no space stands between two of its "
                    "glyphs, so OCR joins the pieces of a line Tesseract read apart where no gap of a glyph's width parts them "
                    "(pass `wide-glyph-gaps`)",
    )
    glyph_cells: GlyphCells | None = Field(
        default=None, description="the script's glyphs stand on square cells; none: OCR measures no word space or glyph by cells"
    )
    prompt: PromptWords | None = Field(default=None, description="eval prompt words; none: the language cannot be evaluated")
    answer_words: list[str] = Field(min_length=1, description="how a reply names its answer: Odpowiedź, Poprawna odpowiedź")
    refusal_phrases: list[str] = Field(default_factory=list, description="lower case; short and conservative: nie mogę")
    true_false: TrueFalseWords
    explanation_words: list[str] = Field(default_factory=list, description="words opening a reason after an answer: ponieważ")
    explanation_headings: list[str] = Field(
        default_factory=list, description="lower case; a line opening with one starts an explanation: uzasadnienie"
    )
    voided_words: list[str] = Field(default_factory=list, description="key entries meaning the question was annulled: anulowane")
    accept_also: list[str] = Field(
        default_factory=list, description="lower case; a key's note that one more answer is accepted: uznać także"
    )

    _blanks = field_validator(
        "answer_words", "refusal_phrases", "explanation_words", "explanation_headings", "voided_words", "accept_also"
    )(_no_blanks)

    @field_validator("numerals")
    @classmethod
    def _numerals(cls, value: dict[int, list[str]]) -> dict[int, list[str]]:
        problems = numeral_problems(value) if value else []
        if problems:
            raise ValueError("; ".join(problems))
        return value

    @field_validator("refusal_phrases", "explanation_headings", "accept_also")
    @classmethod
    def _lower_case(cls, value: list[str]) -> list[str]:
        return _lower_case_only(value, str.casefold, " (replies are compared casefolded)")

    @model_validator(mode="after")
    def _answer_word_is_extracted(self) -> Language:
        if self.prompt is not None and self.prompt.answer not in self.answer_words:
            raise ValueError(f"answer_words must include the prompt's answer word {self.prompt.answer!r}")
        return self

    @property
    def code(self) -> str:
        return self.codes.iso639_1


class ScriptData(_Strict):
    """What OCR confuses in the words of one script, whatever the language (`pipeline/languages/scripts.yaml`)."""

    confusable: list[tuple[str, str]] = Field(
        default_factory=list,
        description="pairs of letters (or runs of letters) read for each other, either way, at one place of a word: [[i, l], [rn, m]]",
    )
    marks: bool = Field(default=False, description="a diacritic lost or gained on one letter is a confusion too: periodo / período")
    unit_symbols: list[str] = Field(
        default_factory=list,
        description="symbols of units and quantities written in this script on pages of every script, bare of prefixes: [g, L, mol, Pa, pH]",
    )
    unit_prefixes: str = Field(default="", description="the one-letter prefixes a unit symbol takes: kmcd")
    element_symbols: list[str] = Field(
        default_factory=list, description="chemical elements' symbols, of which formulas are written in this script: [H, C, Na, Cl]",
    )
    lookalikes: dict[str, str] = Field(
        default_factory=dict,
        description="this script's letters printed in the very shape of a Latin letter, each with that letter: {Α: A, Ρ: P, ο: o}",
    )

    digit_shapes: dict[str, str] = Field(
        default_factory=dict,
        description="digits a scan reads for a unit's letter of this script in their shape, each with that letter (a unit alone in "
                    "`unit_symbols`): {'9': g, '1': l}",
    )

    @field_validator("digit_shapes")
    @classmethod
    def _digit_letters(cls, value: dict[str, str]) -> dict[str, str]:
        bad = [f"{a}: {b}" for a, b in value.items() if len(a) != 1 or not a.isdigit() or len(b) != 1 or not b.isalpha()]
        if bad:
            raise ValueError(f"digit shapes are a digit and a letter: {bad}")
        return value

    @field_validator("lookalikes")
    @classmethod
    def _single_letters(cls, value: dict[str, str]) -> dict[str, str]:
        bad = [f"{a}: {b}" for a, b in value.items() if len(a) != 1 or len(b) != 1 or not (a + b).isalpha() or a == b]
        if bad:
            raise ValueError(f"look-alikes are two different single letters: {bad}")
        return value

    @field_validator("unit_symbols", "element_symbols")
    @classmethod
    def _symbols(cls, value: list[str]) -> list[str]:
        bad = [v for v in value if not v or not v.isalnum() or v != v.strip()]
        if bad or len(set(value)) != len(value):
            raise ValueError(f"symbols are letters and digits, each given once: {bad or value}")
        return value

    @field_validator("confusable")
    @classmethod
    def _pairs(cls, value: list[tuple[str, str]]) -> list[tuple[str, str]]:
        bad = [f"{a}: {b}" for a, b in value if not a or not b or a == b or not (a + b).isalpha()]
        if bad:
            raise ValueError(f"confusable pairs are two different runs of letters: {bad}")
        return value

