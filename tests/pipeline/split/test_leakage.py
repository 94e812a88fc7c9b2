"""The leakage guard finds a private question on the public side by id, by text, by near-duplicate
text and by figure, and does not confuse different questions that share a sheet's instruction."""
from __future__ import annotations

import random
from dataclasses import replace

from pipeline.split import LeakageSettings, find_leaks, normalise_text
from pipeline.split.leakage import jaccard, near_duplicates, question_text, shingles
from tests.pipeline.split.conftest import make_record, sentence

SETTINGS = LeakageSettings()


def checks(pairs):
    return {(p.check, p.private_id, p.public_id) for p in pairs}


def test_normalised_text_ignores_case_accents_punctuation_and_spacing():
    assert normalise_text("Który  PRZEWÓD\nma izolację?") == normalise_text("ktory przewod, ma  izolacje")
    assert normalise_text("Η στοίβα;") == normalise_text("η στοιβα")
    assert normalise_text("A1") != normalise_text("A2")


def test_different_questions_are_not_leaks():
    public = [make_record(i, year=2022) for i in range(1, 30)]
    private = [make_record(i, year=2023) for i in range(1, 30)]
    assert find_leaks(private, public, SETTINGS) == []


def test_the_same_id_on_both_sides_is_a_leak():
    q = make_record(1, year=2022)
    assert ("id", q.id, q.id) in checks(find_leaks([q], [replace(q, question="zupełnie inne pytanie")], SETTINGS))


def test_a_copy_differing_only_in_case_accents_and_punctuation_is_a_text_leak():
    public = make_record(1, year=2022)
    private = make_record(7, year=2023, question=public.question.upper().replace("Ó", "O") + "!!", choices=public.choices)
    found = checks(find_leaks([private], [public], SETTINGS))
    assert ("text", private.id, public.id) in found and ("near_duplicate", private.id, public.id) in found


def test_a_lightly_edited_copy_is_a_near_duplicate_with_its_exact_similarity():
    public = make_record(1, year=2022)
    edited = public.question.replace(public.question.split()[2], "zmienione", 1)
    private = make_record(7, year=2023, question=edited, choices=public.choices)
    [pair] = find_leaks([private], [public], SETTINGS)
    assert pair.check == "near_duplicate" and (pair.private_id, pair.public_id) == (private.id, public.id)
    exact = jaccard(shingles(question_text(private), 5), shingles(question_text(public), 5))
    assert pair.similarity == round(exact, 6) and 0.8 <= exact < 1


def test_a_shared_figure_is_a_leak_even_when_the_text_differs():
    public = make_record(1, year=2022, images=("ab" * 32,))
    private = make_record(2, year=2023, images=("ab" * 32,))
    [pair] = find_leaks([private], [public], SETTINGS)
    assert pair.check == "image" and "abababababab" in pair.detail


def test_statements_under_the_same_sheet_instruction_are_different_questions():
    instruction = ("Να χαρακτηρίσετε τις προτάσεις που ακολουθούν, γράφοντας στο τετράδιό σας\n"
                   "δίπλα στο γράμμα που αντιστοιχεί σε κάθε πρόταση τη λέξη Σωστό, αν η\n"
                   "πρόταση είναι σωστή, ή τη λέξη Λάθος, αν η πρόταση είναι λανθασμένη.\n")
    def block(year):
        return [make_record(i, year=year, language="el", qtype="true_false", choices=["Σωστό", "Λάθος"],
                            question=instruction + sentence(f"{year}-{i}", 6, "el")) for i in range(1, 6)]
    public, private = block(2022), block(2023)
    whole = max(jaccard(shingles(question_text(a), 5), shingles(question_text(b), 5)) for a in private for b in public)
    assert whole > 0.6  # left in, the instruction alone would make them look alike
    assert find_leaks(private, public, SETTINGS) == []
    copied = replace(private[0], question=public[3].question)
    assert ("text", copied.id, public[3].id) in checks(find_leaks([copied], public, SETTINGS))


def test_reviewed_pairs_can_be_allowed():
    public = make_record(1, year=2022, images=("cd" * 32,))
    private = make_record(2, year=2023, images=("cd" * 32,))
    assert find_leaks([private], [public], replace(SETTINGS, allowed_pairs=((private.id, public.id),))) == []


def test_minhash_candidates_miss_no_pair_that_exact_all_pairs_jaccard_finds():
    rng = random.Random(7)
    public = [make_record(i, year=2022) for i in range(1, 201)]
    private = []
    for i in range(1, 201):  # every fourth private question is an edited copy, with 1-4 words replaced
        if i % 4 == 0:
            base = public[rng.randrange(len(public))]
            words = base.question.split()
            for _ in range(rng.randint(1, 4)):
                words[rng.randrange(len(words))] = rng.choice(["licznik", "kabel", "moc", "faza"])
            private.append(make_record(i, year=2023, question=" ".join(words), choices=base.choices))
        else:
            private.append(make_record(i, year=2023))
    sets = {q.id: shingles(question_text(q), 5) for q in [*private, *public]}
    exact = {(a.id, b.id) for a in private for b in public if jaccard(sets[a.id], sets[b.id]) >= SETTINGS.near_duplicate_jaccard}
    found = {(p.private_id, p.public_id) for p in near_duplicates(private, public, SETTINGS)}
    assert len(exact) >= 20 and found == exact
