"""The spec model: every section of a source spec as a strict pydantic model (`SourceSpec`).

Unknown fields, regexes without the named groups their field needs and wrong types are errors
naming the field; `pipeline.specs.loading` reads files into it."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from pipeline.patterns import size_problem


SOURCES_DIR = Path(__file__).resolve().parents[1] / "sources"


class SpecError(ValueError):
    """A spec that cannot be used; the message names the file and the field."""

    def __init__(self, path: Path | str, problems: list[str]):
        self.path = str(path)
        self.problems = problems
        super().__init__(f"{path}: invalid source spec:\n" + "\n".join(f"  - {p}" for p in problems))


class _Strict(BaseModel):
    # defer_build: a model's validator is built when it is first validated, its nested models' inlined in it;
    # built at import, every nested model built its own too, which a run never uses (about 20 ms a process).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _compiles(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"not a valid regular expression ({exc}): {pattern!r}") from None
    except RecursionError:
        pass  # groups nested too deep: said below
    if (problem := size_problem(pattern)) is not None:  # a run would ask the memory for it when compiling
        raise ValueError(f"a regular expression too large: {problem}: {pattern[:120]!r}")
    return pattern


def _needs_groups(pattern: str | None, *groups: str) -> str | None:
    """A pattern whose named groups the code reads must have them, or the run fails with IndexError."""
    if pattern is None:
        return None
    _compiles(pattern)
    missing = [g for g in groups if g not in re.compile(pattern).groupindex]
    if missing:
        named = ", ".join(f"(?P<{g}>...)" for g in missing)
        raise ValueError(f"the regex needs the named group(s) {named}: {pattern!r}")
    return pattern


# Language codes of the official Tesseract traineddata (tessdata/tessdata_fast/tessdata_best).
TESSERACT_LANGUAGES = frozenset(
    """afr amh ara asm aze aze_cyrl bel ben bod bos bre bul cat ceb ces chi_sim chi_sim_vert chi_tra
    chi_tra_vert chr cos cym dan deu div dzo ell eng enm epo equ est eus fao fas fil fin fra frk frm fry
    gla gle glg grc guj hat heb hin hrv hun hye iku ind isl ita ita_old jav jpn jpn_vert kan kat kat_old
    kaz khm kir kmr kor kor_vert lao lat lav lit ltz mal mar mkd mlt mon mri msa mya nep nld nor oci ori
    osd pan pol por pus que ron rus san sin slk slv snd spa spa_old sqi srp srp_latn sun swa swe syr tam
    tat tel tgk tha tir ton tur uig ukr urd uzb uzb_cyrl vie yid yor""".split()
)


def tesseract_package(language: str) -> str:
    """The Debian/Ubuntu package holding a Tesseract language: chi_sim -> tesseract-ocr-chi-sim."""
    return "tesseract-ocr-" + language.lower().replace("_", "-")


class Metadata(_Strict):
    country: str = Field(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, e.g. PL")
    language: str = Field(min_length=2, description="ISO 639-1, e.g. pl")
    exam: str = Field(description="the exam's name, copied into every record, e.g. matura")
    level: str | None = Field(default=None, description="the exam's level (e.g. rozszerzony), copied into every record")
    subject: str = Field(description="the subject, copied into every record; 'various' for a family of many subjects")
    license_note: str | None = Field(default=None, description="who holds the rights to the material, on what terms it is used")

    @field_validator("language")
    @classmethod
    def _has_language_data(cls, value: str) -> str:
        """Extract, parse and eval read the language's words from its file: a spec cannot name one without."""
        from pipeline.languages import UnknownLanguage, language  # read when a spec is validated, not on import

        try:
            language(value)
        except UnknownLanguage as exc:
            raise ValueError(str(exc)) from None
        return value


PAIRING_GROUPS = ("sheet_code", "year", "session", "variant", "folder", "qualification", "form")


class FileRule(_Strict):
    """Which files are sheets and which are keys, by a regex over a URL or a folder-relative path.

    Named groups (year, session, sheet_code, variant, qualification, folder, form) become the file's
    pairing facts; `year` is required somewhere (in the pattern or the spec's fixed facts); a two-digit
    `yy` group stands for 20yy when there is no `year`.
    """

    role: Literal["sheet", "key"] = Field(description="what a matching file is: a question sheet or its answer key")
    pattern: str = Field(description="regex searched in the URL or relative path; its named groups are the file's facts")
    facts: dict[str, str] = Field(default_factory=dict, description="fixed facts added to every match")

    _check = field_validator("pattern")(_compiles)


_WEB_URL = re.compile(r"https?://[^/\s?#@]+(?:[/?#]|$)", re.IGNORECASE)  # a scheme the download client fetches, a host


class DownloadSpec(_Strict):
    base_url: str = Field(description="default host; `--base-url` overrides it (mirrors, local servers)")
    index_pages: list[str] = Field(
        default_factory=list, description="templates with {base_url} and {year}; scraped for links"
    )
    url_templates: list[str] = Field(
        default_factory=list, description="direct file URL templates with {base_url}, {year} and `variables`"
    )
    variables: dict[str, list[str]] = Field(default_factory=dict, description="values of url_templates' {name} fields; all combinations")
    years: list[int] = Field(default_factory=list, description="years fetched when none is given")
    links: list[FileRule] = Field(min_length=1, description="which linked or templated URLs are sheets and which keys")
    rate_limit_per_host: float = Field(default=2.0, gt=0, description="requests per second per host")
    concurrency: int = Field(default=4, ge=1, le=64, description="downloads in flight at once")
    allowed_hosts: list[str] = Field(
        default_factory=list,
        description="hosts besides base_url's (and the index pages' and templates') that links may lead to, "
        "e.g. a CDN; a private, loopback or link-local host is only fetched when named here or by base_url",
    )
    max_file_mb: float | None = Field(
        default=None, gt=0, description="largest file fetched, in MiB; the global cap (EXAMCORPUS_MAX_DOWNLOAD_MB) still applies"
    )

    @field_validator("allowed_hosts")
    @classmethod
    def _bare_hosts(cls, value: list[str]) -> list[str]:
        bad = [v for v in value if not v or "/" in v or ":" in v.strip("[]") and not v.startswith("[")]
        if bad:
            raise ValueError(f"give bare host names or IP addresses (no scheme, port or path): {bad}")
        return [v.lower().strip("[]") for v in value]

    @field_validator("base_url")
    @classmethod
    def _web_base(cls, value: str) -> str:
        if not _WEB_URL.match(value):
            raise ValueError(f"give an http:// or https:// URL with a host, not {value[:80]!r} "
                             "(downloads fetch the web only: no file://, ftp:// or other scheme)")
        return value

    @field_validator("index_pages", "url_templates")
    @classmethod
    def _web_templates(cls, value: list[str]) -> list[str]:
        bad = [v for v in value if not v.startswith("{base_url}") and not _WEB_URL.match(v)]
        if bad:
            raise ValueError(f"each must open with {{base_url}} or an http:// or https:// URL with a host: {bad[:3]}")
        return value

    @model_validator(mode="after")
    def _has_entry_points(self):
        if not self.index_pages and not self.url_templates:
            raise ValueError("give at least one of index_pages or url_templates")
        return self


class LocalSpec(_Strict):
    files: list[FileRule] = Field(min_length=1, description="patterns over paths relative to --from DIR")


class PairingSpec(_Strict):
    on: list[str] = Field(min_length=1, description=f"facts that must be equal: any of {PAIRING_GROUPS}")
    key_serves_many: bool = Field(default=False, description="one key file covers several sheet forms")
    key_required: bool = Field(default=True, description="a sheet without a key is a problem; false: key in the sheet")

    @field_validator("on")
    @classmethod
    def _known_facts(cls, value: list[str]) -> list[str]:
        unknown = [v for v in value if v not in PAIRING_GROUPS]
        if unknown:
            raise ValueError(f"unknown pairing fact(s) {unknown}; use any of {list(PAIRING_GROUPS)}")
        return value


class OcrPassesSpec(_Strict):
    disable: list[str] = Field(default_factory=list, description="OCR passes not to run, by name: page passes and parse's "
                                                                 "recovery passes (`examcorpus ocr passes`)")

    @field_validator("disable")
    @classmethod
    def _known_passes(cls, value: list[str]) -> list[str]:
        from pipeline.parse import check_ocr_pass_names  # read when a spec is validated, not on import

        return check_ocr_pass_names(value)  # ValueError naming each unknown or required pass

    @property
    def page(self) -> list[str]:
        """The page passes among `disable` (what the OCR settings and their cache key hold; parse reads the rest)."""
        from pipeline.extract.ocr import pass_names

        return [name for name in self.disable if name in pass_names()]


class OcrSpec(_Strict):
    languages: list[str] = Field(min_length=1, description="Tesseract language codes, e.g. [pol]")
    dpi: int = Field(default=300, ge=72, le=600, description="resolution pages are rendered at for OCR")
    ellipsis: bool = Field(
        default=False,
        description="the publisher sets an ellipsis as one character (…): three dots read by OCR become it",
    )
    passes: OcrPassesSpec = Field(default_factory=OcrPassesSpec, description="which OCR passes run (page passes and parse's recovery passes)")

    @field_validator("languages")
    @classmethod
    def _known_languages(cls, value: list[str]) -> list[str]:
        unknown = [v for v in value if v not in TESSERACT_LANGUAGES and not v.startswith("script/")]
        if unknown:
            raise ValueError(
                f"not a Tesseract language code: {unknown} (codes are ISO 639-2 like pol, ell, slk, spa, eng; "
                "`tesseract --list-langs` shows the installed ones)"
            )
        return value


def _all_compile(value: list[str]) -> list[str]:
    return [_compiles(v) for v in value]


QUESTION_TYPES = ("single_choice", "true_false", "matching", "fill_in", "short_answer", "open")


class TypeRule(_Strict):
    """A question whose text matches `pattern` gets `type` (first matching rule wins)."""

    pattern: str = Field(description="regex searched in the question text, e.g. 'Σωστό.*Λάθος'")
    type: Literal["single_choice", "true_false", "matching", "fill_in", "short_answer", "open"] = Field(description="type of a match")

    _check = field_validator("pattern")(_compiles)


class OptionsSpec(_Strict):
    """How answer options are printed. Labels are matched case-insensitively and through look-alike
    letters of other scripts (Cyrillic А or Greek Α for Latin A), then reported in the form given here."""

    labels: list[str] = Field(default_factory=lambda: ["A", "B", "C", "D"], min_length=2, description="in order")
    styles: list[str] = Field(
        default_factory=lambda: ["A.", "A)", "(A)"],
        description="how a label is printed, written with the letter A: 'A.', 'A)', '(A)', 'A:'",
    )
    min_count: int = Field(default=3, ge=2, description="fewer options than this is not a choice question")
    under_words: bool = Field(
        default=False,
        description="the options are words of the stem's own sentence (underlined parts), each marked by its "
        "label printed on a row of labels right under it: each option is the word its label stands under",
    )
    keep_partial: bool = Field(
        default=False,
        description="families whose questions are all closed: a question with 2 labelled options but fewer than "
        "min_count (a label lost in a scan) stays a flagged choice question instead of becoming open",
    )

    @field_validator("styles")
    @classmethod
    def _styles_have_label(cls, value: list[str]) -> list[str]:
        bad = [v for v in value if v.count("A") != 1]
        if bad:
            raise ValueError(f"each style must contain the letter A exactly once (as the label's place): {bad}")
        return value


class TrueFalseSpec(_Strict):
    """Blocks of statements each judged true or false; every statement becomes its own question."""

    labels: dict[str, list[str]] = Field(
        description="answer label -> words that mean it, e.g. {P: [P, Prawda], F: [F, Fałsz]}", min_length=2
    )
    choices: dict[str, str] = Field(description="answer label -> choice text shown to a model, e.g. {P: Prawda}")
    statement: str = Field(
        default=r"^(?P<n>\d{1,2})[.)]\s*", description="regex opening a statement; group `n` is its number"
    )
    markers_in_row: bool = Field(
        default=True, description="statements carry the answer labels printed at the end of their row ('… P F')"
    )

    _check = field_validator("statement")(_compiles)

    @model_validator(mode="after")
    def _same_labels(self):
        if set(self.labels) != set(self.choices):
            raise ValueError(f"labels {sorted(self.labels)} and choices {sorted(self.choices)} must name the same answers")
        return self


class SectionRule(_Strict):
    """A part of the sheet (or key) whose question numbering restarts: "PRIMERA PARTE" and "SEGUNDA PARTE",
    each with its "Preguntas de reserva". A record's number is the section's prefix, then the printed
    number: question 5 of the section with prefix '2.' is 2.5 (the convention: prefix '<part id>.'); a
    nested section (reserve questions) adds its prefix to the enclosing one's: '2.' + 'R' gives 2.R5. The
    first rule may leave out `start`: it is then the part printed before any heading (an implicit first
    part), and its prefix numbers the questions from the sheet's start."""

    start: str | None = Field(
        default=None,
        description="regex of the heading line that opens the section; left out (first rule only): the part "
        "before any heading",
    )
    prefix: str = Field(min_length=1, description="put before the printed number, e.g. '1.' or 'R'")
    nested: bool = Field(default=False, description="inside the current top-level section (its prefix is added to it)")
    reserve: bool = Field(default=False, description="reserve questions: they count only if another is annulled")

    @field_validator("start")
    @classmethod
    def _start_compiles(cls, value: str | None) -> str | None:
        return None if value is None else _compiles(value)


def _implicit_first(rules: list[SectionRule]) -> list[SectionRule]:
    """Only the first section may have no heading (`start`), and it is a top-level part."""
    for index, rule in enumerate(rules):
        if rule.start is None and (index > 0 or rule.nested):
            raise ValueError(
                f"section {rule.prefix!r} has no start: only the first section may leave it out (the part before any "
                "heading), and it cannot be nested"
            )
    return rules


def default_voided() -> list[str]:
    """Entries that mean "annulled" in keys: every language file's words (pipeline/languages), dashes, an asterisk."""
    from pipeline.languages import all_languages  # read when a spec is validated, not on import

    # A lone stroke drawn through an empty cell (U+0335, U+0336: combining overlays) prints as a dash.
    return [*sorted({w for lang in all_languages().values() for w in lang.voided_words}), "-", "–", "—", "*", "\u0335", "\u0336"]


class LayoutSpec(_Strict):
    """Rules the parser needs to read a sheet of this family."""

    drop_lines: list[str] = Field(default_factory=list, description="regexes of header/footer/examiner-box lines")
    drop_pages: list[str] = Field(
        default_factory=list, description="regexes (multi-line) marking scratch/cover/reference pages, e.g. '(?m)^BRUDNOPIS'"
    )
    remove_repeated_lines: bool = Field(default=True, description="drop lines repeated at one place on most pages")
    drop_margin_notes: bool = Field(default=True, description="drop small print wholly in the side margins")
    segment_gap: float = Field(default=1.6, gt=0, description="a gap wider than this many font sizes splits a row")
    question_start: str = Field(description="regex matching a question header; groups `number`, optional `points`")
    question_max_indent: float | None = Field(
        default=None, ge=0,
        description="points a question header may start right of its column's left edge (the `indent` that "
        "`examcorpus inspect` prints): a line matching question_start further right is text, e.g. a numbered "
        "list inside a passage; none: any indent",
    )
    group_headers: bool = Field(
        default=True,
        description="a header whose number prefixes the next one ('Zadanie 3.' before 'Zadanie 3.1.') is a group: "
        "its text becomes the shared context of its parts",
    )
    points: str | None = Field(default=None, description="regex of a points line/suffix in a question; group `points`")
    options: OptionsSpec = Field(default_factory=OptionsSpec, description="how answer options are labelled")
    true_false: TrueFalseSpec | None = Field(default=None, description="blocks of statements judged true/false; none: no such blocks")
    type_rules: list[TypeRule] = Field(default_factory=list, description="question types decided by wording")
    unlabelled_type: Literal["open", "short_answer", "fill_in"] = Field(
        default="open", description="type of a question with no options that no type rule claims"
    )
    context_start: str | None = Field(default=None, description="regex opening a shared passage ('Ukážka 1')")
    cloze_marker: str | None = Field(
        default=None,
        description="regex of an item's marker inside its passage, group `number`, e.g. '\\((?P<number>\\d+)\\)' for "
        "'(21)': an item printing only its options gets the passage's sentence holding its marker as its stem",
    )
    stop_at: list[str] = Field(default_factory=list, description="regexes of a line after which nothing is parsed")
    sheet_code: str | None = Field(default=None, description="regex finding the sheet code; group `code`")
    skip_types: list[str] = Field(default_factory=list, description="question types not curated")
    sections: list[SectionRule] = Field(
        default_factory=list,
        description="parts whose question numbering restarts; their prefixes make the numbers (and record ids) unique",
    )
    _check_sections = field_validator("sections")(_implicit_first)
    closed_types: list[str] = Field(
        default_factory=list,
        description="the only question types this family prints, e.g. [single_choice]: a question read as "
        "another type (an open question whose printed option labels were lost) is flagged and reported, "
        "never passed off as that type; empty: no such promise",
    )

    _check_start = field_validator("question_start")(_compiles)
    _check_lists = field_validator("drop_lines", "drop_pages", "stop_at")(_all_compile)

    @field_validator("question_start")
    @classmethod
    def _has_number_group(cls, value: str) -> str:
        if "(?P<number>" not in value:
            raise ValueError("question_start needs a named group (?P<number>...) for the question number")
        return value

    @field_validator("cloze_marker")
    @classmethod
    def _cloze_groups(cls, value: str | None) -> str | None:
        return _needs_groups(None if value is None else _compiles(value), "number")

    @field_validator("context_start", "points", "sheet_code")
    @classmethod
    def _optional_compiles(cls, value: str | None) -> str | None:
        return None if value is None else _compiles(value)

    @field_validator("skip_types", "closed_types")
    @classmethod
    def _known_types(cls, value: list[str]) -> list[str]:
        bad = [v for v in value if v not in QUESTION_TYPES]
        if bad:
            raise ValueError(f"unknown question type(s) {bad}; use any of {list(QUESTION_TYPES)}")
        return value


KeyCheck = Literal["sheet_code", "year", "variant", "count", "labels"]
KEY_CHECKS: tuple[KeyCheck, ...] = ("sheet_code", "year", "variant", "count", "labels")


class KeySpec(_Strict):
    """Where the answers are.

    - marking_scheme: a scheme with task headers (`task_start`) whose answer follows `answer_marker`
      (without a marker, the task's own text is the answer: answer sheets listing "Α1. γ");
    - variant_table: rows "number answer answer …" under headers naming test variants (`variant_header`),
      the column chosen by the variant code found on the sheet (`variant_pattern`); a column further right
      (a note beside each answer, named in the header or not) is found from where the rows' cells stand
      and is no part of the answer;
    - list: rows of `entry` matches (number and answer, several per row allowed);
    - grid: horizontal grids, a row of question numbers over a row of answers ("1 2 3 … 20" over
      "D A B … B"; a leading row label such as "Questão" / "Gabarito" is skipped), paired by position;
      with `variant_header`, one grid block per booklet type or model, the block chosen like a
      variant_table column;
    - highlight: no key file; the correct option is highlighted in the sheet itself.

    Any kind: an entry whose answer is one of `voided` (an annulled question) records the question
    as voided, never as a wrong or missing answer; a number carrying `pilot_mark` ("7*") is a keyed
    pilot item; `sections` name the key's parts where its numbering restarts, as `layout.sections`
    do on the sheet; with `in_sheet`, the key is printed at the end of the booklet itself, from the
    line that matches it on. A key is read by position, column then row: a part takes the lines under
    its heading in its column (parts side by side or two by two, headings left-aligned or centred); a
    `stop_at` or `in_sheet` line ends or opens only its own column and what follows it, never the
    column printed beside it on its row. A question the key gives two different answers is a problem
    and stays unkeyed.
    """

    kind: Literal["list", "marking_scheme", "variant_table", "grid", "highlight"] = Field(description="how the key is printed (above)")
    entry: str | None = Field(
        default=None,
        description="regex of one key entry; groups `number`, `answer`; matched on each cell of a row (so `^…$` "
        "holds for a cell), or on the row's cells joined where that finds more",
    )
    task_start: str | None = Field(default=None, description="marking_scheme: regex of a task header; group `number`")
    answer_marker: str | None = Field(default=None, description="marking_scheme: e.g. '^(Poprawna odpowiedź|Rozwiązanie)'")
    answer_end: str | None = Field(
        default=None, description="marking_scheme: regex of a line that ends an answer ('^Schemat punktowania')"
    )
    variant_pattern: str | None = Field(default=None, description="regex finding the variant code on a sheet; group `variant`")
    variant_header: str | None = Field(default=None, description="regex finding each variant column in a key header; group `variant`")
    variant: str | None = Field(
        default=None,
        description="the variant (booklet type, model) whose column or block applies, when the sheet does not print "
        "it for `variant_pattern` to find, e.g. '1' for the Tipo 1 booklets of a folder",
    )
    variants: list[str] = Field(
        default_factory=list,
        description="every variant (booklet type, model) the key's headers name, as printed: [A, B, C, D]; a header name "
        "read as none of them is the one its look-alikes spell (`4` for `A` on a scan, the languages' data), or, when "
        "none or two do, reported with its column's answers given to no variant; none given: the sheet's own variant "
        "is matched so, and a header read as no look-alike of it stands as read",
    )
    stop_at: list[str] = Field(
        default_factory=list,
        description="regexes of a key line after which nothing is read; on a header row of side-by-side columns it "
        "ends only its own column (and what follows), the columns beside it are still read",
    )
    voided: list[str] = Field(
        default_factory=default_voided,
        description="answers that mean the question was annulled (compared whole, after NFKC, ignoring case; a lone "
        "stroke drawn through a grid cell, U+0335/U+0336, is a dash): the question is recorded as voided",
    )
    pilot_mark: str | None = Field(
        default=None, description="text printed right after a question number for a keyed, unscored pilot item, e.g. '*'"
    )
    sections: list[SectionRule] = Field(
        default_factory=list,
        description="the key's parts where its numbering restarts (see layout.sections); a list's entries and a grid's "
        "numbers take the prefix of the part whose heading stands above them in their column",
    )
    _check_sections = field_validator("sections")(_implicit_first)
    in_sheet: str | None = Field(
        default=None,
        description="regex of the line that opens the answer key printed inside the booklet (its last pages); "
        "the sheet is parsed up to that line and the key read from it on (a key printed beside the last questions "
        "takes only its own column); no separate key file is needed",
    )

    checks: list[KeyCheck] = Field(
        default_factory=lambda: list(KEY_CHECKS),
        description="the evidence that refuses a key as another sheet's: the sheet code, year or variant it prints, "
        "far more entries than the sheet's questions (count), answers naming labels the sheet lacks; leave one "
        "out (a key citing a regulation's year) and its evidence is reported, the key applied",
    )

    _check_list = field_validator("stop_at")(_all_compile)

    @field_validator("entry", "task_start", "answer_marker", "answer_end", "variant_pattern", "variant_header", "in_sheet")
    @classmethod
    def _optional_compiles(cls, value: str | None) -> str | None:
        return None if value is None else _compiles(value)

    @field_validator("variant_pattern", "variant_header")
    @classmethod
    def _has_variant_group(cls, value: str | None) -> str | None:
        return _needs_groups(value, "variant")

    @field_validator("entry")
    @classmethod
    def _entry_groups(cls, value: str | None) -> str | None:
        return _needs_groups(value, "number", "answer")

    @field_validator("task_start")
    @classmethod
    def _task_groups(cls, value: str | None) -> str | None:
        return _needs_groups(value, "number")

    @model_validator(mode="after")
    def _kind_has_its_fields(self):
        needed = {
            "marking_scheme": ["task_start"],
            "variant_table": ["variant_header"],
            "list": ["entry"],
            "grid": [],
            "highlight": [],
        }[self.kind]
        missing = [name for name in needed if getattr(self, name) is None]
        if missing:
            raise ValueError(f"key kind {self.kind!r} needs field(s) {missing}")
        if self.variant_header and self.variant_pattern is None and self.variant is None:
            raise ValueError("variant_header needs variant_pattern (the variant printed on the sheet) or variant (a fixed one)")
        if self.variants and not self.variant_header:
            raise ValueError("variants name what a key header prints: they need variant_header")
        if self.variant and self.variants and self.variant not in self.variants:
            raise ValueError(f"variant {self.variant!r} is none of variants {self.variants}")
        return self


class SourceSpec(_Strict):
    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$", description="the family's id, the file name (NAME.yaml); starts every record id")
    description: str = Field(description="what the family is, in a sentence or two (`specs list` shows it)")
    metadata: Metadata = Field(description="facts about the exam copied into every record")
    ocr: OcrSpec = Field(description="how pages without a usable text layer are read")
    download: DownloadSpec | None = Field(default=None, description="where the files are on the web; none: --from DIR only")
    local: LocalSpec | None = Field(default=None, description="which files of a --from DIR folder are sheets and keys")
    pairing: PairingSpec = Field(description="how a sheet finds its key")
    layout: LayoutSpec = Field(description="how a sheet is printed: the rules the parser reads it by")
    key: KeySpec = Field(description="how the answer key is printed")
    path: str | None = Field(default=None, exclude=True, description="set by the loader")


