"""Shared fixtures for the split tests (and, by import, the publish tests): real Question records whose
texts are distinct pseudo-sentences, so only the leaks a test plants look alike."""
from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.records import ImageRef, Question, question_id, questions_to_table

WORDS = {
    "pl": ("przewód napięcie rezystancja obwód silnik uzwojenie izolacja pomiar prąd moc sieć faza "
           "zabezpieczenie wyłącznik gniazdo kabel transformator częstotliwość licznik energia").split(),
    "el": ("αλγόριθμος πίνακας μεταβλητή στοίβα ουρά αναζήτηση ταξινόμηση εντολή βρόχος συνάρτηση "
           "διαδικασία λίστα δέντρο γράφος κόμβος τιμή σύγκριση επανάληψη πρόγραμμα δεδομένα").split(),
}
LABELS = ["A", "B", "C", "D"]


def sentence(seed: str, n: int = 12, language: str = "pl") -> str:
    rng = random.Random(hashlib.sha256(seed.encode()).digest())
    return " ".join(rng.choice(WORDS[language]) for _ in range(n)) + f" {seed}?"


def make_record(i: int, *, source: str = "pl_test", year: int = 2020, language: str = "pl", exam: str = "egzamin_zawodowy",
                question: str | None = None, choices: list[str] | None = None, images: tuple[str, ...] = (),
                flags: tuple[str, ...] = (), qtype: str = "single_choice", sheet: str | None = None) -> Question:
    """Question i of one sheet of `source` in `year`; `images` are figure SHA-256s."""
    seed = f"{source}-{year}-{i}"
    choices = choices if choices is not None else [sentence(f"{seed}-{l}", 3, language) for l in LABELS]
    labels = LABELS[:len(choices)]
    answer_index = i % len(labels) if labels else None
    sheet_sha = sheet or hashlib.sha256(f"{source}-{year}".encode()).hexdigest()
    return Question(
        id=question_id(source, year, "maj", "S-1", str(i)), source=source, country="PL" if language == "pl" else "GR",
        language=language, exam=exam, level=None, subject="informatyka", year=year, session="maj", sheet_code="S-1",
        number=str(i), type=qtype, question=question or sentence(seed, 12, language), context=None, choices=choices,
        choice_labels=labels, answer=labels[answer_index] if labels else None, answer_index=answer_index, points=1.0,
        images=[ImageRef(f"raw/figures/{h[:8]}.png", 1, (0.0, 0.0, 10.0, 10.0), h) for h in images],
        source_url=f"https://exams.example.org/{source}/{year}.pdf", source_sha256=sheet_sha, pages=[1],
        pipeline_version="test", flags=list(flags),
    )


def make_corpus(sources: dict[str, tuple[str, list[int]]], per_year: int = 6) -> list[Question]:
    """sources: name -> (language, years); per_year questions in each."""
    return [make_record(i, source=s, year=y, language=lang) for s, (lang, years) in sources.items()
            for y in years for i in range(1, per_year + 1)]


def write_curated(folder: Path, questions: list[Question]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    by_source: dict[str, list[Question]] = {}
    for q in questions:
        by_source.setdefault(q.source, []).append(q)
    for source, qs in by_source.items():
        pq.write_table(questions_to_table(qs), folder / f"{source}.parquet")
    return folder


@pytest.fixture
def corpus() -> list[Question]:
    return make_corpus({"pl_test": ("pl", [2021, 2022, 2023]), "el_test": ("el", [2022, 2023])})


@pytest.fixture
def curated_dir(tmp_path, corpus) -> Path:
    return write_curated(tmp_path / "curated", corpus)
