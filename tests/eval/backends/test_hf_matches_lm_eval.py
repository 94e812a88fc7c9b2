"""Our Hugging Face backend gives the per-question log-likelihood choices lm-evaluation-harness gives:
same model, same questions, same prompt strings, scored by lm-eval's own `simple_evaluate(model="hf")`."""
from __future__ import annotations

import pytest

from eval.models.hf import HFBackend
from tests.eval.backends.lmeval_reference import ReferenceDoc, choice_requests, run_lm_eval

LOGPROB_TOLERANCE = 1e-4


@pytest.fixture(scope="module")
def lm_eval_scores(tiny_model_dir, reference_docs, tmp_path_factory):
    return run_lm_eval(tiny_model_dir, reference_docs, tmp_path_factory.mktemp("lm-eval-task"), batch_size=4)


def assert_same_as_lm_eval(ours, reference, requests):
    for result, expected, request in zip(ours, reference, requests, strict=True):
        assert result.qid == expected.qid
        # The comparison is only meaningful if lm-eval scored exactly the strings we scored.
        assert expected.arguments == tuple((request.context, c) for c in request.continuations), request.qid
        assert result.logprobs == pytest.approx(expected.logprobs, abs=LOGPROB_TOLERANCE), request.qid
        assert result.is_greedy == expected.is_greedy, request.qid
        assert result.chosen == expected.chosen, request.qid


def test_choices_logprobs_and_greedy_flags_equal_lm_eval(tiny_backend, reference_docs, lm_eval_scores):
    requests = choice_requests(reference_docs)
    ours = tiny_backend.score_choices(requests)
    assert_same_as_lm_eval(ours, lm_eval_scores, requests)
    # A model that separates its options: otherwise equal argmaxes would prove little.
    gaps = [sorted(r.logprobs)[-1] - sorted(r.logprobs)[-2] for r in ours]
    assert min(gaps) > 100 * LOGPROB_TOLERANCE


def test_the_one_at_a_time_path_equals_lm_eval_too(tiny_model_dir, reference_docs, lm_eval_scores):
    naive = HFBackend(tiny_model_dir, reuse_context=False, show_progress=False)
    requests = choice_requests(reference_docs)
    assert_same_as_lm_eval(naive.score_choices(requests), lm_eval_scores, requests)


def test_inputs_longer_than_the_model_window_are_left_truncated_as_lm_eval_does(tiny_model_dir, tmp_path):
    window = 16
    docs = [
        ReferenceDoc("long-letters", "Stolicą Polski jest Warszawa. Zażółć gęślą jaźń. Odpowiedź:", ("A", "B"), 0),
        ReferenceDoc("long-texts", "Ποια είναι η πρωτεύουσα της Ελλάδας; Η Αθήνα είναι η πρωτεύουσα.",
                     ("Αθήνα", "Η Αθήνα είναι η πρωτεύουσα", "Λάρισα"), 0),
        ReferenceDoc("fits", "2 + 2 =", ("4", "5"), 0),
    ]
    ours = HFBackend(tiny_model_dir, max_length=window, show_progress=False)
    requests = choice_requests(docs)
    lengths = [len(o.context) + len(o.continuation) for r in requests[:2]
               for o in (ours.encode_option(r.context, c) for c in r.continuations)]
    assert min(lengths) > window + 1  # the first two questions really overflow the window
    reference = run_lm_eval(tiny_model_dir, docs, tmp_path, extra_model_args=f"max_length={window}")
    assert_same_as_lm_eval(ours.score_choices(requests), reference, requests)


def test_acc_and_acc_norm_per_question_equal_lm_eval_including_our_cloze_prompts(tiny_backend, reference_docs, lm_eval_scores):
    from eval.scorers.answers import first_argmax, norm_argmax

    requests = choice_requests(reference_docs)
    ours = tiny_backend.score_choices(requests)
    assert sum(d.qid.startswith("cloze-") for d in reference_docs) == 4
    disagreements = 0
    for result, expected, request, doc in zip(ours, lm_eval_scores, requests, reference_docs, strict=True):
        acc = float(first_argmax(list(result.logprobs)) == doc.gold)
        acc_norm = float(norm_argmax(list(result.logprobs), list(request.continuations)) == doc.gold)
        assert (acc, acc_norm) == (expected.acc, expected.acc_norm), doc.qid
        disagreements += acc != acc_norm
    assert disagreements > 0  # the normalisation is exercised, not just equal to acc
