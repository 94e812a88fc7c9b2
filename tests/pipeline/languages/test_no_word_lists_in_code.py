"""No Python module outside the language data keeps a per-language word list.

A word list is two or more words of the language files side by side in code: the items of a tuple,
list, set or dict, the arguments of one call, or the alternatives of a regex in one string ("Strona|Página|Σελίδα"); a letter
list is a string made only of the text-layer check's letters ("ąćęłńóśźż"). One word
alone is not a list (a docstring's example, a spec field's description), and one-letter words are left
out (option labels "A", "B" are no true/false words). Docstrings are prose and are not scanned.

`pipeline/devkit` is left out: its sample generators print Polish and Greek exam sheets and their
local site, which are the test material itself, not knowledge the pipeline reads.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from pipeline.languages import all_languages

ROOT = Path(__file__).resolve().parents[3]
SCANNED = ("pipeline", "eval")
EXCLUDED = ("pipeline/devkit/", "pipeline/languages/")


def _known_words() -> dict[str, str]:
    """Every word of every language file, as written -> the language it comes from. Compared as
    written, so that English field names in code ("question", "answer") are not taken for the
    prompt words "Question", "Answer"."""
    words: dict[str, str] = {}
    for code, lang in all_languages().items():
        found = [*lang.page_furniture.page_words, *lang.page_furniture.of_words, *lang.answer_words, *lang.refusal_phrases,
                 *lang.true_false.true_words, *lang.true_false.false_words, *lang.explanation_words,
                 *lang.explanation_headings, *lang.voided_words, *lang.accept_also,
                 *[word for words in lang.numerals.values() for word in words]]
        if lang.prompt is not None:
            found += list(lang.prompt.model_dump().values())
        words.update({w: code for w in found if len(w) > 1})
    return words


def _letters() -> set[str]:
    """The letters with a diacritic the language files list for the text-layer check, in both cases."""
    letters = {c for lang in all_languages().values() for c in lang.text_quality.split_letters}
    return letters | {c.upper() for c in letters}


def _is_letter_list(text: str, letters: set[str]) -> bool:
    chars = set(text) - {" "}
    return len(chars) >= 5 and chars <= letters


def _not_words(tree: ast.AST) -> set[int]:
    """Docstrings (prose) and the names in `__all__` (a class may be called Page or Figure)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            ids.add(id(node.value))
            ids.update(id(e) for e in ast.walk(node.value))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                ids.add(id(first.value))
    return ids


def _alternatives(pattern: str) -> list[str]:
    """The plain words a regex string offers as alternatives: "(?:Strona|Str\\.|Page)" -> Strona, Str., Page."""
    if "|" not in pattern:
        return []
    pieces = re.split(r"\||\(\?:|\(\?P<\w+>|[()]", pattern)
    return [re.sub(r"\\(.)", r"\1", p).strip() for p in pieces if p.strip()]


def word_lists(source: str, known: dict[str, str]) -> list[str]:
    """Each place in `source` where two or more known words stand side by side, as 'line N: words'."""
    tree = ast.parse(source)
    skip = _not_words(tree)
    letters = _letters()
    found = []
    for node in ast.walk(tree):
        items: list[str] = []
        if id(node) in skip:
            continue
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        elif isinstance(node, ast.Call):  # a record of words: LanguageText(question="Pytanie", answer="Odpowiedź")
            items = [e.value for e in (*node.args, *(k.value for k in node.keywords))
                     if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        elif isinstance(node, ast.Dict):
            items = [e.value for e in (*node.keys, *node.values)
                     if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _is_letter_list(node.value, letters):
                found.append(f"line {node.lineno}: letters {node.value!r}")
            items = _alternatives(node.value)
        hits = sorted({w for w in items if w in known})
        if len(hits) >= 2:
            found.append(f"line {node.lineno}: {hits}")
    return found


def test_the_scan_finds_the_word_lists_that_lived_in_code_before_the_language_files():
    known = _known_words()
    before = '''
BUILTIN = (r"^\\s*(?:Strona|Str\\.|Página|Pagina|Page|Σελίδα|Strana)\\s*\\d{1,3}",)
ANSWER_WORDS = {"pl": ("Odpowiedź", "Poprawna odpowiedź"), "en": ("Answer", "Final answer")}
TRUE_FALSE = {True: ("p", "prawda", "prawdziwe"), False: ("f", "fałsz")}
DEFAULT_VOIDED = ("anulada", "anulado", "-", "*")
_DIACRITIC_LETTERS = frozenset("ąćęłńóśźżáäčďĄĆĘŁŃÓŚŹŻÁÄČĎ")
PL = LanguageText(question="Pytanie", answer="Odpowiedź", passage="Tekst")
'''
    assert sorted(line.split(":")[0] for line in word_lists(before, known)) == [
        "line 2", "line 3", "line 3", "line 4", "line 5", "line 6", "line 7"]
    # One word in prose or a description, and option labels, are no word list.
    fine = ('"""Odpowiedź and Respuesta are answer words."""\nLABELS = ("A", "B", "C")\nHELP = "e.g. Strona 3"\n'
            '__all__ = ["Figure", "Page"]\nACCENTED_VOWEL = re.compile(r"(?<=í)i|(?<=á)a|(?<=ó)o|(?<=ú)u|(?<=é)e")\n')
    assert word_lists(fine, known) == []


def test_no_python_module_outside_the_language_data_keeps_a_word_list():
    known = _known_words()
    offenders = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(EXCLUDED):
                continue
            offenders += [f"{relative} {hit}" for hit in word_lists(path.read_text(encoding="utf-8"), known)]
    assert offenders == [], "per-language words belong in pipeline/languages/data/<code>.yaml:\n" + "\n".join(offenders)
