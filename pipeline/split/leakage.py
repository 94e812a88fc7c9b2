"""The leakage guard: proof that no private question reaches the public split.

Five checks, each private record against every public one, on texts in their canonical joined form
(`pipeline.split.canonical`: character references read, invisible characters removed, NFKC, look-alike
letters folded to their UTS #39 prototype, case-folded, accents, punctuation and spaces dropped; with
markup kept and with markup rendered):
- `id`: the same record id on both sides;
- `text`: the same canonical question text plus options, in either case fold. The stem alone is not
  enough: Panhellenic true/false blocks repeat the same instruction every year and differ only in the
  statement, which our records keep in the text;
- `near_duplicate`: Jaccard similarity of character 5-gram shingles of that text at or above the
  threshold, after dropping sheet boilerplate: a line that appears in two or more questions of one
  sheet (an instruction such as the Panhellenic "Να χαρακτηρίσετε…" heading every true/false statement)
  says nothing about which question it is, and left in it makes two different statements look ~0.8
  alike on the embedded sample. Candidates come from MinHash LSH (datasketch), which is near-linear
  where all-pairs Jaccard is quadratic; every candidate is then verified with the exact Jaccard of
  its shingle sets (as 32-bit codes), so a reported pair is never a MinHash artefact, and its
  similarity is what the report shows;
- `image`: a figure with the same SHA-256 on both sides;
- `contained`: a private record's release text field (any text field of the schema a model reads:
  question, context, options, answer, figure description and transcription) inside any string a public
  record carries into a release (those fields, and a subject, a sheet code or a figure's path too),
  whole or as part of a longer text (a private passage pasted into a public `context`), in every form;
  only texts of at least `contained_min_chars` letters and digits are looked for, and only for pairs no
  other check has named. `PrivateTexts` finds them in any text: publish looks for them in every file of
  a release with it. A sheet's own instruction is not a leak: a text that is the
  whole of one field in two or more questions of the private sheet, and the whole of that field in two
  or more questions of the public sheet (the Panhellenic "Να χαρακτηρίσετε…" heading five true/false
  statements every year, at most `INSTRUCTION_MAX_CHARS` long), is printed on the public sheet itself.
  A passage pasted into a public record stands in that record alone, and a passage several questions
  share is longer than an instruction, so both are still caught.
"""
from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator

import numpy as np
from dataclasses import dataclass


from pipeline.records import Question
from pipeline.split.canonical import FORMS, RELEASE_TEXT_FIELDS, canonical_text, folded, prepared, record_strings, release_values
from pipeline.split.config import LeakageSettings

MINHASH_SEED = 1  # fixed: the same records always give the same candidates
MINHASH_SCHEME = "affine32"  # named, so a datasketch upgrade cannot change the candidates silently
# Shingles are hashed with CRC-32 (C, deterministic) rather than datasketch's default SHA-1 in Python:
# ~5x faster, and the affine permutations on top give the independence MinHash needs. Candidates are
# verified on the same 32-bit codes: two distinct shingles of one pair collide with probability ~1e-5.
# LSH tuned for recall: banded at threshold − 0.2 with false negatives weighted 9:1, so a pair exactly at
# the threshold 0.8 is a candidate with probability 1 − (1 − 0.8⁵)²⁵ ≈ 0.99995 (25 bands of 5 rows at 128
# permutations). Banded at the threshold itself, such a pair is found only ~40% of the time. The extra
# candidates cost one exact Jaccard each.
LSH_MARGIN = 0.2
ANCHOR_WORDS = 3  # a private text `contained` looks for has at least this many words besides its first and last
FRAGMENT_SHARE = 0.5  # pieces of a private text in public records that make up this much of it are a leak
ANCHOR_CHARS = 24  # a private text is looked up by the hash of its first this many letters and digits
_HASH_BASE = np.uint64(1_000_003)
# An instruction is a sentence or two (the Panhellenic true/false heading is ~190 canonical characters);
# a passage several private questions share is longer and never taken for one, however the sheets repeat it.
INSTRUCTION_MAX_CHARS = 300  # words of a private text looked up in the public ones before a substring check
LSH_WEIGHTS = (0.1, 0.9)


@dataclass(frozen=True, order=True)
class LeakPair:
    check: str  # "id" | "text" | "near_duplicate" | "image" | "contained"
    private_id: str
    public_id: str
    similarity: float = 1.0
    detail: str = ""

    def describe(self) -> str:
        extra = f" ({self.detail})" if self.detail else ""
        return f"{self.check}: private {self.private_id} ~ public {self.public_id}, similarity {self.similarity:.3f}{extra}"


def normalise_text(text: str, fold: str = "small") -> str:
    """The form two copies of one question share whatever invisible characters, look-alike letters,
    OCR, case, accents or punctuation did to them (`pipeline.split.canonical`)."""
    return canonical_text(text, fold)


def question_text(q: Question, fold: str = "small", rendered: bool = False) -> str:
    """What a model sees of a question (stem and options), canonical (spaced; the near-duplicate check's
    form); the shared passage is left out because several different questions may rightly share one."""
    return canonical_text("\n".join([q.question, *q.choices]), fold, rendered)


class CanonicalForms(dict):
    """Canonical forms (spaced) of texts in one form, each computed once: the guard reads the same
    lines (a sheet's instruction, a shared passage, a subject) many times. Texts that read the same once
    prepared (references read, markup dropped when `rendered`) share one entry."""

    def __init__(self, fold: str = "small", rendered: bool = False):
        super().__init__()
        self.fold, self.rendered = fold, rendered
        self._prepared: dict[str, str] = {}

    def __missing__(self, text: str) -> str:
        ready = prepared(text, self.rendered)
        form = self._prepared.get(ready)
        if form is None:
            form = self._prepared[ready] = folded(ready, self.fold)
        self[text] = form
        return form

    def joined(self, text: str) -> str:
        return self[text].replace(" ", "")


def sheet_boilerplate(questions: list[Question], fold: str = "small",
                      forms: CanonicalForms | None = None) -> dict[str, frozenset[str]]:
    """Per sheet (source_sha256): the normalised question lines shared by two or more of its questions."""
    forms = forms if forms is not None else CanonicalForms(fold)
    seen: dict[str, dict[str, int]] = {}
    for q in questions:
        counts = seen.setdefault(q.source_sha256, {})
        for line in {forms[l] for l in q.question.splitlines()} - {""}:
            counts[line] = counts.get(line, 0) + 1
    return {sheet: frozenset(l for l, n in counts.items() if n > 1) for sheet, counts in seen.items()}


def distinctive_text(q: Question, boilerplate: dict[str, frozenset[str]], fold: str = "small",
                     forms: CanonicalForms | None = None) -> str:
    """The question text without its sheet's shared lines (all of it when nothing else is left)."""
    forms = forms if forms is not None else CanonicalForms(fold)
    shared = boilerplate.get(q.source_sha256, frozenset())
    lines = [forms[l] for l in q.question.splitlines()]
    kept = [l for l in lines if l and l not in shared] or lines
    return " ".join(part for part in [*kept, *(forms[c] for c in q.choices)] if part)


def shingles(text: str, size: int) -> set[str]:
    if len(text) <= size:
        return {text} if text else set()
    return {text[i:i + size] for i in range(len(text) - size + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 1.0
    shared = len(a & b)
    return shared / (len(a) + len(b) - shared)


def find_leaks(private: list[Question], public: list[Question], settings: LeakageSettings) -> list[LeakPair]:
    """Every (private, public) pair that shares an id, a text, a near-identical text, a figure, or whose
    public record carries a private text inside one of its fields, minus the pairs a curator reviewed
    and allowed. Texts are compared in every canonical form (`FORMS`: both case folds, markup kept and rendered). Sorted, so the same input
    gives the same report."""
    allowed = set(settings.allowed_pairs)
    found: dict[tuple[str, str, str], LeakPair] = {}

    def add(pair: LeakPair) -> None:
        if (pair.private_id, pair.public_id) not in allowed:
            found.setdefault((pair.check, pair.private_id, pair.public_id), pair)

    public_ids = {q.id for q in public}
    for q in private:
        if q.id in public_ids:
            add(LeakPair("id", q.id, q.id))

    by_image: dict[str, list[str]] = {}
    for q in public:
        for img in q.images:
            by_image.setdefault(img.sha256, []).append(q.id)
    for q in private:
        for img in q.images:
            for pub_id in by_image.get(img.sha256, []):
                add(LeakPair("image", q.id, pub_id, detail=f"figure sha256 {img.sha256[:12]}…"))

    for fold, rendered in FORMS:  # joined: what separates two letters of a word separates nothing
        by_text: dict[str, list[str]] = {}
        for q in public:
            by_text.setdefault(question_text(q, fold, rendered).replace(" ", ""), []).append(q.id)
        for q in private:
            for pub_id in by_text.get(question_text(q, fold, rendered).replace(" ", ""), []):
                add(LeakPair("text", q.id, pub_id))
    # Near-duplicates in the small-letter fold only: the capital fold differs from it in capitals alone,
    # too few letters of a text to move a Jaccard similarity much, and a second MinHash pass doubles the cost.
    for pair in near_duplicates(private, public, settings):
        add(pair)
    paired = {(key[1], key[2]) for key in found}
    for fold, rendered in FORMS:
        for pair in [*contained_texts(private, public, settings.contained_min_chars, fold, rendered),
                     *fragment_texts(private, public, settings.contained_min_chars, fold, rendered)]:
            if (pair.private_id, pair.public_id) not in paired:
                paired.add((pair.private_id, pair.public_id))
                add(pair)
    return sorted(found.values())


def fragment_texts(private: list[Question], public: list[Question], min_chars: int, fold: str = "small",
                   rendered: bool = False) -> list[LeakPair]:
    """Pairs where public records' release text fields (each at least `min_chars` long, its inner words:
    `looked_for`) stand inside one of a private record's release text fields and together make up at least
    `FRAGMENT_SHARE` of it: a private question cut in pieces, each piece in a public record of its own (no piece is
    the private text, nor holds it, so `contained` misses it). A stem two exams share (`Which of the following …`)
    is a small part of a question: no leak. Checked `contained`, the detail naming both fields. A public sheet's own
    instruction (the whole of a field two or more of its questions share) is no piece."""
    forms = CanonicalForms(fold, rendered)
    public_texts = {p.id: {name: forms.joined(value) for name, value in release_values(p).items() if forms[value]}
                    for p in public}
    instructions = _sheet_instructions(public, public_texts)
    pieces = {(p.id, name): inner for p in public for name, value in release_values(p).items()
              if (inner := looked_for(forms[value], min_chars))
              and (name, public_texts[p.id][name]) not in instructions.get(p.source_sha256, ())}
    index = PrivateTexts((public_id, name, inner) for (public_id, name), inner in pieces.items())
    places = [(q.id, name, forms.joined(value)) for q in private for name, value in release_values(q).items()]
    found: dict[int, dict[tuple[str, str], int]] = {}
    for place, public_id, public_field in index.find_all([text for _, _, text in places]):
        found.setdefault(place, {})[(public_id, public_field)] = len(pieces[(public_id, public_field)])
    pairs: dict[tuple[str, str], LeakPair] = {}
    for place, by_piece in found.items():
        private_id, private_field, text = places[place]
        if sum(by_piece.values()) < FRAGMENT_SHARE * len(text):
            continue
        for public_id, public_field in sorted(by_piece):
            pairs.setdefault((private_id, public_id), LeakPair(
                "contained", private_id, public_id, detail=f"public {public_field} is a piece of private {private_field} "
                f"({len(by_piece)} piece(s) in public records make up {sum(by_piece.values()) / len(text):.0%} of it)"))
    return list(pairs.values())


def contained_texts(private: list[Question], public: list[Question], min_chars: int, fold: str = "small",
                   rendered: bool = False) -> list[LeakPair]:
    """Pairs where a private record's release text field (question, context, options, answer, figure
    description or transcription, canonical, at least `min_chars` long: `looked_for`) appears inside a
    string a public record carries (`record_strings`), alone or as part of a longer text, compared joined
    (no spaces): a private passage pasted into a public `context`, a question pasted into a `subject`.
    The detail names both fields."""
    pairs: dict[tuple[str, str], LeakPair] = {}
    for found in contained_places(private, public, min_chars, fold, rendered):
        if not found.instruction and (found.private_id, found.public_id) not in pairs:
            pairs[(found.private_id, found.public_id)] = LeakPair(
                "contained", found.private_id, found.public_id,
                detail=f"private {found.private_field} inside public {found.public_field}")
    return list(pairs.values())


@dataclass(frozen=True)
class Contained:
    """One private text found inside one string of a public record."""

    private_id: str
    private_field: str
    public_id: str
    public_field: str
    instruction: bool  # both sheets print it as their own instruction: no private text


def contained_places(private: list[Question], public: list[Question], min_chars: int, fold: str = "small",
                     rendered: bool = False) -> Iterator[Contained]:
    """Every place `contained_texts` looks at where a private text stands in a public record, each marked
    whether it is a sheet instruction both sheets print (not a leak)."""
    forms = CanonicalForms(fold, rendered)
    private_texts = {q.id: {name: forms.joined(value) for name, value in release_values(q).items() if forms[value]}
                     for q in private}
    public_texts = {p.id: public_strings(p, forms) for p in public}
    private_instructions = _sheet_instructions(private, private_texts)
    public_instructions = _sheet_instructions(public, public_texts)
    index = PrivateTexts((q.id, name, inner) for q in private for name, value in release_values(q).items()
                         if (inner := looked_for(forms[value], min_chars)))
    sheet_of = {q.id: q.source_sha256 for q in private}
    places = [(p, name, text) for p in public for name, text in public_texts[p.id].items()]
    for place, private_id, private_field in index.find_all([text for _, _, text in places]):
        p, public_field, text = places[place]
        whole = private_texts[private_id][private_field]
        instruction = (whole == text and private_field == public_field and len(whole) <= INSTRUCTION_MAX_CHARS
                       and (public_field, text) in public_instructions.get(p.source_sha256, ())
                       and (private_field, whole) in private_instructions.get(sheet_of[private_id], ()))
        yield Contained(private_id, private_field, p.id, public_field, instruction)


def looked_for(text: str, min_chars: int) -> str:
    """What of a private text (canonical, spaced) `contained` looks for: nothing when it is shorter than
    `min_chars` or ANCHOR_WORDS + 2 words, else its inner words joined. The first and last words are left
    out: a copy may change them, or glue them to its own words."""
    words = text.split()
    if len(text) < min_chars or len(words) < ANCHOR_WORDS + 2:
        return ""
    return "".join(words[1:-1])


def public_strings(q: Question, forms: CanonicalForms) -> dict[str, str]:
    """A public record's strings, joined canonical, by field: the release text fields (a list's items
    joined) and every other string by its path (`subject`, `images[0].path`)."""
    texts = {name: joined for name, value in release_values(q).items() if (joined := forms.joined(value))}
    for path, value in record_strings(q).items():
        if path.split("[", 1)[0].split(".", 1)[0] not in RELEASE_TEXT_FIELDS:
            if joined := forms.joined(value):
                texts[path] = joined
    return texts


class PrivateTexts:
    """Private texts (joined canonical forms, chosen by the caller) to be found inside other texts.
    Each is keyed by a hash of its first characters; `find_all` hashes every window of all the texts at
    once (numpy, a polynomial hash modulo 2**64) and checks only the windows whose hash is a key, so the
    texts cost a few array passes, not a look-up per character."""

    def __init__(self, entries: Iterable[tuple[str, str, str]]):
        """entries: (private id, field, joined text), none empty."""
        listed = [entry for entry in entries if entry[2]]
        self.width = min([ANCHOR_CHARS, *(len(text) for _, _, text in listed)])
        self.by_hash: dict[int, list[tuple[str, str, str]]] = {}
        for private_id, name, text in listed:
            key = 0
            for char in text[:self.width]:  # _window_hashes of one window, in Python integers
                key = (key * int(_HASH_BASE) + ord(char)) & 0xFFFF_FFFF_FFFF_FFFF
            self.by_hash.setdefault(key, []).append((private_id, name, text))
        self.keys = np.array(sorted(self.by_hash), dtype=np.uint64)

    def __len__(self) -> int:
        return sum(len(v) for v in self.by_hash.values())

    def find_all(self, texts: list[str]) -> Iterator[tuple[int, str, str]]:
        """(index of the text in `texts`, private id, field) for each private text inside one of `texts`
        (joined forms: no text holds a NUL, which keeps them apart)."""
        if not self.by_hash or not texts:
            return
        whole = "\0".join(texts)
        if len(whole) < self.width:
            return
        starts = np.cumsum([0] + [len(t) + 1 for t in texts[:-1]])
        hashes = _window_hashes(whole, self.width)
        for at in np.flatnonzero(np.isin(hashes, self.keys)).tolist():
            for private_id, name, needle in self.by_hash[int(hashes[at])]:
                if whole.startswith(needle, at):
                    yield int(np.searchsorted(starts, at, side="right")) - 1, private_id, name


def _window_hashes(text: str, width: int) -> np.ndarray:
    """The hash of each `width`-character window of `text`, in order (wrapping uint64 arithmetic)."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    count = len(codes) - width + 1
    hashes = np.zeros(count, dtype=np.uint64)
    for j in range(width):
        hashes = hashes * _HASH_BASE + codes[j:j + count]
    return hashes


def _sheet_instructions(questions: list[Question], texts: dict[str, dict[str, str]]) -> dict[str, set[tuple[str, str]]]:
    """Per sheet (source_sha256): the (field, canonical text) pairs two or more of its questions share whole."""
    counts: dict[str, dict[tuple[str, str], int]] = {}
    for q in questions:
        sheet = counts.setdefault(q.source_sha256, {})
        for item in texts[q.id].items():
            sheet[item] = sheet.get(item, 0) + 1
    return {sheet: {item for item, n in items.items() if n > 1} for sheet, items in counts.items()}


def shingle_codes(text: str, size: int) -> np.ndarray:
    """The shingles as sorted unique CRC-32 codes: ~0.6 KB a question where a set of strings takes
    ~15 KB, which is what lets 100k questions be compared in memory."""
    codes = np.fromiter((zlib.crc32(s.encode("utf-8")) for s in shingles(text, size)), dtype=np.uint32)
    return np.unique(codes)


def code_jaccard(a: np.ndarray, b: np.ndarray) -> float:
    if not a.size and not b.size:
        return 1.0
    shared = np.intersect1d(a, b, assume_unique=True).size
    return shared / (a.size + b.size - shared)


def near_duplicates(private: list[Question], public: list[Question], settings: LeakageSettings,
                    fold: str = "small") -> list[LeakPair]:
    """Pairs whose distinctive texts (joined: spaces and punctuation inside a word change no shingle) are
    at least `near_duplicate_jaccard` alike."""
    from datasketch import MinHashLSH  # imported here: it takes ~0.6 s, and every CLI start would pay it

    size, threshold = settings.shingle_chars, settings.near_duplicate_jaccard
    forms = CanonicalForms(fold)
    boilerplate = sheet_boilerplate([*private, *public], fold, forms)
    pub_codes = {q.id: shingle_codes(distinctive_text(q, boilerplate, fold, forms), size) for q in public}
    lsh = MinHashLSH(threshold=max(0.05, threshold - LSH_MARGIN), num_perm=settings.num_perm, weights=LSH_WEIGHTS)
    with lsh.insertion_session() as session:
        for qid, sketch in zip(pub_codes, _minhashes(pub_codes.values(), settings.num_perm)):
            session.insert(qid, sketch, check_duplication=False)  # ids are unique: checked by the split
    priv_codes = {q.id: shingle_codes(distinctive_text(q, boilerplate, fold, forms), size) for q in private}
    pairs = []
    for qid, sketch in zip(priv_codes, _minhashes(priv_codes.values(), settings.num_perm)):
        mine = priv_codes[qid]
        for pub_id in sorted(lsh.query(sketch)):
            similarity = code_jaccard(mine, pub_codes[pub_id])
            if similarity >= threshold:
                pairs.append(LeakPair("near_duplicate", qid, pub_id, round(similarity, 6)))
    return pairs


def _minhashes(code_arrays, num_perm: int):
    """One MinHash per question; MinHash.generator sets up the permutations once for all of them. The
    codes are already CRC-32 hashes of the shingles, so the hash function passes them through."""
    from datasketch import MinHash

    return MinHash.generator((codes.tolist() for codes in code_arrays), num_perm=num_perm, seed=MINHASH_SEED,
                             scheme=MINHASH_SCHEME, hashfunc=int)


def leak_report(pairs: list[LeakPair], *, private: list[Question], public: list[Question], limit: int = 200) -> str:
    """Markdown naming each pair; question text is shown so a curator can judge it (this report is
    a curator's artefact, never published)."""
    by_id = {q.id: q for q in [*private, *public]}
    lines = [f"# Leakage guard: {len(pairs)} pair(s) of a private and a public question", ""]
    for pair in pairs[:limit]:
        lines.append(f"- {pair.describe()}")
        for side, qid in (("private", pair.private_id), ("public", pair.public_id)):
            text = by_id[qid].question.replace("\n", " ") if qid in by_id else "?"
            lines.append(f"  - {side}: {text[:160]}")
    if len(pairs) > limit:
        lines.append(f"- … and {len(pairs) - limit} more (see split.json)")
    lines += ["", "Fix the data, list reviewed false positives under leakage.allowed_pairs, or set "
              "leakage.on_leak: withhold_public to keep the public twins out of the release."]
    return "\n".join(lines) + "\n"


__all__ = ["LeakPair", "CanonicalForms", "Contained", "PrivateTexts", "contained_places", "contained_texts", "fragment_texts", "looked_for", "public_strings", "release_values", "distinctive_text", "sheet_boilerplate", "find_leaks", "jaccard", "leak_report", "near_duplicates", "normalise_text", "question_text", "shingles"]
