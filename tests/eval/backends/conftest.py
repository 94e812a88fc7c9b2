"""Shared fixtures for the log-likelihood backend tests: a tiny offline model and the questions
that our backend and lm-evaluation-harness both score."""
from __future__ import annotations

import dataclasses
import os

import pytest

from tests.eval.backends.lmeval_reference import ReferenceDoc
from tests.eval.backends.tiny_model import build_tiny_llama

OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


@pytest.fixture(scope="session", autouse=True)
def offline_hub():
    """Nothing here may reach the Hub: lm-eval and transformers must resolve everything locally."""
    saved = {name: os.environ.get(name) for name in OFFLINE_ENV}
    os.environ.update(OFFLINE_ENV)
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory):
    return build_tiny_llama(tmp_path_factory.mktemp("tiny-llama"))


@pytest.fixture(scope="session")
def tiny_backend(tiny_model_dir):
    from eval.models.hf import HFBackend

    return HFBackend(tiny_model_dir, batch_size=4, show_progress=False)


@pytest.fixture(scope="session")
def reference_docs() -> list[ReferenceDoc]:
    """Questions covering every tokenisation branch of lm-eval's HFLM: letter options (one token),
    answer texts of different token lengths, trailing whitespace in the context, an empty context,
    text that already starts with the BOS token, Polish, Greek, Slovak and Spanish."""
    docs = [
        ReferenceDoc("pl-letters", "Stolicą Polski jest:\nA. Kraków\nB. Warszawa\nC. Gdańsk\nD. Poznań\nOdpowiedź:",
                     ("A", "B", "C", "D"), 1),
        ReferenceDoc("el-letters", "Ποια είναι η πρωτεύουσα της Ελλάδας;\nΑ. Αθήνα\nΒ. Πάτρα\nΑπάντηση:",
                     ("Α", "Β"), 0),
        ReferenceDoc("pl-texts", "Pytanie: Które z poniższych zdań jest prawdziwe?\nOdpowiedź:",
                     ("Zażółć gęślą jaźń.", "Źdźbło trawy rośnie szybko.", "Tak", "Pchnąć w tę łódź jeża"), 0),
        ReferenceDoc("el-texts", "Ερώτηση: Πόσο κάνει δύο συν δύο;\nΑπάντηση:",
                     ("τέσσερα", "Η Αθήνα είναι η πρωτεύουσα", "5", "δύο συν δύο"), 0),
        ReferenceDoc("sk-texts", "Ktoré mesto je hlavným mestom Slovenska?",
                     ("Bratislava", "Košice", "Čo je ťažšie, železo alebo pierko?"), 0),
        ReferenceDoc("es-five", "¿Cuál es la capital del Perú? Respuesta:",
                     ("Lima", "Cusco", "Arequipa", "Trujillo", "La capital es Lima."), 0),
        ReferenceDoc("math", "Question: 2 + 2 = ?\nAnswer:", ("4", "3 * 3 = 9", "22", "7 - 5 = 2"), 0),
        ReferenceDoc("trailing-space", "Answer: ", ("Warsaw", "W", "Lima Lima"), 0),
        ReferenceDoc("trailing-newline", "Question: What is the capital of Poland?\n", ("Warsaw.", "Lima."), 0),
        ReferenceDoc("trailing-mixed", "Odpoveď: \n ", ("A", "B", "Bratislava"), 2),
        ReferenceDoc("empty-context", "", ("Αθήνα", "Warszawa", "1"), 0),
        ReferenceDoc("bos-prefixed", "<s>Question: What is the capital of Peru?\nAnswer:", ("Lima", "Athens"), 0),
        ReferenceDoc("long", " ".join(["Matematyka, biologia, chemia, fizyka, historia, geografia."] * 6)
                     + "\nΜαθηματικά, φυσική, χημεία, ιστορία.\nOdpowiedź:", ("A", "Matematyka", "ιστορία", "D"), 1),
    ]
    for n in range(10):
        docs.append(ReferenceDoc(f"sum-{n}", f"Pytanie {n}: Ile to jest {n} + {n}?\nOdpowiedź:",
                                 (str(2 * n), str(n), f"{n} + {n} = {2 * n}", "100"), 0))
    return docs + cloze_docs()


def cloze_docs() -> list[ReferenceDoc]:
    """Our own mcq-cloze prompts (one-shot, Polish and Greek), options of very different lengths so
    that acc and acc_norm can disagree: lm-eval scores exactly the strings our run would score."""
    from eval.prompts.protocols import PROTOCOLS, PromptBuilder
    from tests.eval.conftest import make_question

    texts = ["Osiem bitów tworzy jeden bajt w każdym współczesnym komputerze", "8", "dwa", "Szesnaście bitów"]
    docs = []
    for language in ("pl", "el"):
        qs = [make_question(i, language=language, source=f"cloze_{language}") for i in (1, 2)]
        qs = [dataclasses.replace(q, choices=texts) for q in qs]
        builder = PromptBuilder(PROTOCOLS["mcq-cloze"], shots=1)
        for prompt in builder.build_all(qs, lambda q: q.source):
            choices = tuple(c[1:] for c in prompt.continuations)  # lm-eval adds the " " delimiter itself
            docs.append(ReferenceDoc(f"cloze-{prompt.qid}", prompt.context, choices, prompt.labels.index(prompt.answer)))
    return docs
