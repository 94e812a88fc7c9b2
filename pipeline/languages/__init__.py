"""Languages: what examcorpus knows about each language, as one validated data file per language.

Input: `pipeline/languages/data/<iso639-1>.yaml`, one file per language (schema: `model.Language`).
Output: typed `Language` records, loaded and validated once per process and cached.

Extract (page-furniture words, the text-layer check's letters), parse (words meaning "annulled" in
keys) and eval (prompt words, answer, refusal, true/false and explanation words, the decimal mark)
all read their per-language words from here; no Python module keeps a word list of its own. Adding a
language means adding a file.

Public functions and types:
- `language(code)` -> Language; raises `UnknownLanguage` (naming the known codes) when no file exists
- `find_language(code)` -> Language | None
- `all_languages()` -> {code: Language}, sorted by code
- `known_codes()` -> the codes with a data file
- `data_sha256()` -> one digest of every language file and `scripts.yaml`, in the cache keys of OCR readings and extraction
- `language_for_tesseract(name)` -> Language | None: the language whose Tesseract data is `name` (pol)
- `label_lookalikes(labels)`, `booklet_lookalikes(labels)`: the characters OCR reads for an option label, a key header's booklet name
- `script_data(script)` -> ScriptData: what OCR confuses in the script's words (`scripts.yaml`; empty for a script it lacks)
- `in_script(text, script)` -> text: its letters that have a twin of the same shape in `script` written as that twin
- `Language`, `PromptWords`, `ScriptData`, `Spelling`, `TrueFalseWords`, `LanguageDataError`, `UnknownLanguage`, `DATA_DIR`
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

import yaml
from pydantic import ValidationError

from pipeline.languages.model import GluedWords, Language, PageFurniture, PromptWords, ScriptData, Spelling, TextQuality, TrueFalseWords

DATA_DIR = Path(__file__).parent / "data"
SCRIPTS_FILE = Path(__file__).parent / "scripts.yaml"
# libyaml's parser where PyYAML was built with it: the same documents (every language and source file
# loads to equal values either way) at a tenth of the pure-Python parser's CPU, which every process paid
# at start for the eleven files.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class LanguageDataError(ValueError):
    """A language file that cannot be used; the message names the file and the field."""


class UnknownLanguage(KeyError):
    """A language code with no data file."""

    def __init__(self, code: str):
        self.code = code
        super().__init__(code)

    def __str__(self) -> str:
        return (f"no language data for {self.code!r}: add pipeline/languages/data/{self.code}.yaml "
                f"(known: {', '.join(known_codes())})")


def caseless(text: str) -> str:
    """`text` as words are compared ignoring case, in any language: casefolded, the Turkish dotted and dotless i one
    letter. `str.casefold` folds a Turkish capital `İ` to `i` + U+0307 and `I` to `i`, never to `ı`, so a key printing
    `İPTAL` or a reply `YANLIŞ` would not match the lower-case words `iptal`, `yanlış`; Greek final `ς` and German `ß`
    casefold alike already (`σ`, `ss`)."""
    return text.casefold().replace("i\u0307", "i").replace("\u0131", "i")


def _read_mapping(path: Path, of_what: str) -> dict:
    """A data file's YAML top level, which must be a mapping (`of_what`: of what, for the error)."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except (OSError, yaml.YAMLError) as exc:
        raise LanguageDataError(f"{path}: cannot read: {exc}") from None
    if not isinstance(data, dict):
        raise LanguageDataError(f"{path}: the top level must be a mapping of {of_what}")
    return data


def _invalid(path: Path, exc: ValidationError) -> LanguageDataError:
    """A data file's validation errors as one error naming each field."""
    problems = "; ".join(f"field '{'.'.join(map(str, e['loc'])) or '(top)'}': {e['msg']}" for e in exc.errors())
    return LanguageDataError(f"{path}: {problems}")


def _load_file(path: Path) -> Language:
    data = _read_mapping(path, "fields")
    try:
        record = Language.model_validate(data)
    except ValidationError as exc:
        raise _invalid(path, exc) from None
    if record.code != path.stem:
        raise LanguageDataError(f"{path}: field 'codes.iso639_1': {record.code!r} must match the file name {path.stem!r}")
    return record


@functools.cache
def all_languages() -> dict[str, Language]:
    """Every language file, validated; a bad file is an error at first use, naming the file and field."""
    return {path.stem: _load_file(path) for path in sorted(DATA_DIR.glob("*.yaml"))}


def known_codes() -> list[str]:
    return list(all_languages())


def find_language(code: str) -> Language | None:
    return all_languages().get(code)


def language(code: str) -> Language:
    found = find_language(code)
    if found is None:
        raise UnknownLanguage(code)
    return found


def language_for_tesseract(name: str) -> Language | None:
    """The language whose `codes.tesseract` names Tesseract's data `name` (OCR settings name languages so)."""
    return next((lang for lang in all_languages().values() if name in lang.codes.tesseract), None)


@functools.cache
def label_lookalikes(labels: tuple[str, ...]) -> dict[str, str]:
    """{a character OCR reads for one of `labels`' letters where it stands as a label: that label}, from every language's
    `label_shapes` (a lone label's look-alikes, those of a label with its mark, and the capital of a small letter whose
    capital has its shape). A label alphabet is its script's, so the languages that print its letters say how they are
    misread; a look-alike of a letter is one of its capital's too (`6` for `б` and `Б`), and none of a label itself; a
    character two of them read for two different labels of `labels` is no label's."""
    by_letter = {label.casefold(): label for label in labels}
    found: dict[str, set[str]] = {}
    for record in all_languages().values():
        shapes = record.label_shapes
        pairs = [*shapes.lookalikes.items(), *shapes.marked_lookalikes.items(), *((ch.upper(), ch) for ch in shapes.same_shape)]
        for read, letter in pairs:
            label = letter if letter in labels else by_letter.get(letter.casefold())
            if label is not None and read != label and read not in labels:
                found.setdefault(read, set()).add(label)
    return {read: letters.pop() for read, letters in found.items() if len(letters) == 1}


@functools.cache
def booklet_lookalikes(labels: tuple[str, ...]) -> dict[str, str]:
    """{a character OCR reads in a key header's booklet name: the characters of `labels` it may stand for}, from every
    language's `label_shapes.header_lookalikes` (a capital read as a digit beside another script's words) and the
    labels' own look-alikes (`label_lookalikes`). A character that is itself one of the labels' stands for nothing else."""
    letters = {ch for label in labels for ch in label}
    found: dict[str, set[str]] = {}
    for record in all_languages().values():
        for read, letter in record.label_shapes.header_lookalikes.items():
            for ch in {letter, letter.lower()} & letters:
                found.setdefault(read, set()).add(ch)
    for read, label in label_lookalikes(tuple(sorted(letters))).items():
        found.setdefault(read, set()).add(label)
    return {read: "".join(sorted(chars)) for read, chars in found.items() if read not in letters}


@functools.cache
def _twins() -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """({a letter of any script with a Latin twin: that Latin letter}, {script: {Latin letter: its twin in script}})
    from `scripts.yaml`'s `lookalikes`."""
    to_latin: dict[str, str] = {}
    from_latin: dict[str, dict[str, str]] = {}
    for name, data in _all_scripts().items():
        for letter, latin in data.lookalikes.items():
            to_latin.setdefault(letter, latin)
            from_latin.setdefault(name, {}).setdefault(latin, letter)
    return to_latin, from_latin


def in_script(text: str, script: str) -> str:
    """`text` with each letter that has a twin of the very same shape in `script` (`scripts.yaml` `lookalikes`; Latin
    is every twin's other half) written as that twin: `A1` on a Greek page is `Α1`, Cyrillic `А1` on a Latin one `A1`.
    A letter with no twin in `script` (Greek `Σ`, Latin `Q`) stays as it is."""
    to_latin, from_latin = _twins()
    into = from_latin.get(script, {})
    if script != "Latin" and not into:
        return text
    written = []
    for ch in text:
        latin = to_latin.get(ch) or (ch if ch.isascii() and ch.isalpha() else None)
        twin = None if latin is None else latin if script == "Latin" else into.get(latin)
        written.append(twin or ch)
    return "".join(written)


@functools.cache
def _all_scripts() -> dict[str, ScriptData]:
    data = _read_mapping(SCRIPTS_FILE, "scripts")
    try:
        return {name: ScriptData.model_validate(entry) for name, entry in data.items()}
    except ValidationError as exc:
        raise _invalid(SCRIPTS_FILE, exc) from None


def script_data(script: str) -> ScriptData:
    """What OCR confuses in the words of `script` (a `Language.script`: Latin, Greek …); nothing for a script the file lacks."""
    return _all_scripts().get(script, ScriptData())


@functools.cache
def data_sha256() -> str:
    """One digest of every language file and the script file: what OCR passes and parse read of a language, so an
    edit of it (a unit, a look-alike, a mark) reads pages again instead of serving what the old data produced."""
    digest = hashlib.sha256()
    for path in [*sorted(DATA_DIR.glob("*.yaml")), SCRIPTS_FILE]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


__all__ = [
    "DATA_DIR", "GluedWords", "Language", "LanguageDataError", "PageFurniture", "PromptWords", "SCRIPTS_FILE", "ScriptData", "Spelling", "TextQuality", "TrueFalseWords",
    "UnknownLanguage", "all_languages", "booklet_lookalikes", "caseless", "data_sha256", "find_language", "known_codes", "label_lookalikes", "language",
    "language_for_tesseract", "script_data", "in_script",
]
