"""The Hugging Face log-likelihood backend: shared-context scoring equals one forward pass per option,
results do not depend on the batch size, the context runs once per question, and bad input fails
clearly."""
from __future__ import annotations

import json

import pytest

from eval.models.base import ChoiceRequest, LoglikelihoodBackend
from eval.models.hf import HFBackend, ModelLoadError, weights_fingerprint
from tests.eval.backends.lmeval_reference import choice_requests
from tests.eval.backends.tiny_model import build_tiny_llama


def assert_same_results(actual, expected, tolerance):
    for got, want in zip(actual, expected, strict=True):
        assert got.qid == want.qid
        assert got.logprobs == pytest.approx(want.logprobs, abs=tolerance), got.qid
        assert got.is_greedy == want.is_greedy, got.qid
        assert got.chosen == want.chosen, got.qid


def test_is_a_loglikelihood_backend(tiny_backend):
    assert isinstance(tiny_backend, LoglikelihoodBackend)


def test_shared_context_scoring_equals_a_full_forward_pass_per_option(tiny_model_dir, tiny_backend, reference_docs):
    requests = choice_requests(reference_docs)
    naive = HFBackend(tiny_model_dir, reuse_context=False, show_progress=False)
    assert_same_results(tiny_backend.score_choices(requests), naive.score_choices(requests), tolerance=1e-4)


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_results_do_not_depend_on_the_batch_size(tiny_model_dir, tiny_backend, reference_docs, batch_size):
    requests = choice_requests(reference_docs)
    other = HFBackend(tiny_model_dir, batch_size=batch_size, show_progress=False)
    assert_same_results(other.score_choices(requests), tiny_backend.score_choices(requests), tolerance=1e-4)


def _count_forward_passes(backend) -> list[dict]:
    calls = []
    forward = backend.model.forward

    def counting_forward(*args, **kwargs):
        input_ids = kwargs.get("input_ids", args[0] if args else None)
        calls.append({"shape": tuple(input_ids.shape), "mask": kwargs.get("attention_mask")})
        return forward(*args, **kwargs)

    backend.model.forward = counting_forward
    return calls


def test_each_context_runs_once_and_all_options_of_a_question_follow_it_in_one_more_pass(tiny_model_dir):
    backend = HFBackend(tiny_model_dir, batch_size=8, show_progress=False)
    options = (" Warszawa i Kraków", " Η Αθήνα", " 2 + 2 = 4", " Zażółć gęślą jaźń")
    requests = [ChoiceRequest(f"q{i}", f"Pytanie {i}: Które zdanie jest prawdziwe?\nOdpowiedź:", options)
                for i in range(10)]
    tails = [len(backend.encode_option(requests[0].context, c).continuation) - 1 for c in options]
    assert min(tails) >= 1
    backend.score_choices(requests)  # the first call also checks packing against one pass per option
    calls = _count_forward_passes(backend)
    backend.score_choices(requests)
    lengths = sorted((len(backend.encode_option(r.context, options[0]).context) for r in requests), reverse=True)
    first, second = max(lengths[:8]), max(lengths[8:])  # longest contexts first
    # Two batches of questions (8 + 2), two passes each: the contexts, then every option's tokens after
    # its first, all four options packed in their question's row and never the context again.
    assert [c["shape"] for c in calls] == [(8, first), (8, sum(tails)), (2, second), (2, sum(tails))]
    assert calls[1]["mask"].shape == (8, 1, sum(tails), first + sum(tails))


def test_a_packed_option_sees_its_context_and_its_own_earlier_tokens_only(tiny_model_dir):
    backend = HFBackend(tiny_model_dir, batch_size=8, show_progress=False)
    options = (" Warszawa i Kraków", " Η Αθήνα")
    request = ChoiceRequest("q", "Pytanie: Które zdanie jest prawdziwe?\nOdpowiedź:", options)
    backend.score_choices([request])
    calls = _count_forward_passes(backend)
    backend.score_choices([request])
    first, second = (len(backend.encode_option(request.context, c).continuation) - 1 for c in options)
    context_length = calls[0]["shape"][1]
    visible = (calls[1]["mask"][0, 0] == 0).tolist()  # additive mask: 0 where a token may attend
    for query in range(first + second):
        start, end = (0, first) if query < first else (first, first + second)
        expected = [True] * context_length + [start <= key <= query for key in range(first + second)]
        assert visible[query] == expected, query


def test_a_model_that_ignores_the_packing_mask_falls_back_to_one_pass_per_option(tiny_model_dir, reference_docs, capsys):
    backend = HFBackend(tiny_model_dir, batch_size=4, show_progress=False)
    forward = backend.model.forward

    def ignoring_4d_masks(*args, **kwargs):
        if kwargs.get("attention_mask") is not None and kwargs["attention_mask"].dim() == 4:
            kwargs["attention_mask"] = None  # as an architecture that applies its own causal mask would
        return forward(*args, **kwargs)

    backend.model.forward = ignoring_4d_masks
    requests = choice_requests(reference_docs)
    naive = HFBackend(tiny_model_dir, reuse_context=False, show_progress=False)
    assert_same_results(backend.score_choices(requests), naive.score_choices(requests), tolerance=1e-4)
    assert "packed option scoring disagrees" in capsys.readouterr().err
    assert backend.describe()["packed_options"].startswith("off")


def test_letter_options_need_only_the_context_pass(tiny_model_dir):
    backend = HFBackend(tiny_model_dir, batch_size=16, show_progress=False)
    calls = []
    forward = backend.model.forward
    backend.model.forward = lambda *a, **k: calls.append(1) or forward(*a, **k)
    requests = [ChoiceRequest(f"q{i}", f"Pytanie {i}: Ile to jest {i} + {i}?\nOdpowiedź:", (" A", " B", " C", " D"))
                for i in range(12)]
    results = backend.score_choices(requests)
    assert len(calls) == 1
    assert all(len(r.logprobs) == 4 for r in results)


def test_chosen_is_the_first_of_tied_best_options(tiny_backend):
    result = tiny_backend.score_choices([ChoiceRequest("tie", "Answer:", (" A", " B", " A", " B"))])[0]
    assert result.logprobs[0] == result.logprobs[2] and result.logprobs[1] == result.logprobs[3]
    assert result.chosen == (0 if result.logprobs[0] >= result.logprobs[1] else 1)


def test_results_keep_the_order_of_the_requests(tiny_backend, reference_docs):
    requests = choice_requests(reference_docs)
    reordered = list(reversed(requests))
    forward_results = {r.qid: r for r in tiny_backend.score_choices(requests)}
    backward = tiny_backend.score_choices(reordered)
    assert [r.qid for r in backward] == [r.qid for r in reordered]
    assert_same_results(backward, [forward_results[r.qid] for r in reordered], tolerance=1e-4)


def test_trailing_whitespace_of_the_context_moves_into_the_continuation(tiny_backend):
    tokenizer = tiny_backend.tokenizer
    option = tiny_backend.encode_option("Odpowiedź: \n", " A")
    assert list(option.context) == tokenizer.encode("Odpowiedź:")
    assert list(option.context + option.continuation)[len(option.context):] == \
        tokenizer.encode("Odpowiedź: \n A")[len(option.context):]


def test_an_empty_context_becomes_the_bos_token(tiny_backend):
    bos = tiny_backend.tokenizer.bos_token_id
    plain = tiny_backend.encode_option("", " Lima")
    assert plain.context == (bos,)
    assert list(plain.continuation) == tiny_backend.tokenizer.encode(" Lima", add_special_tokens=False)
    # A continuation that itself starts with BOS conditions on its own first token, as lm-eval does.
    prefixed = tiny_backend.encode_option("", "<s>Lima")
    assert prefixed.context == (bos,)
    assert list(prefixed.continuation) == tiny_backend.tokenizer.encode("Lima", add_special_tokens=False)


def test_text_already_starting_with_bos_gets_no_second_bos(tiny_backend):
    bos = tiny_backend.tokenizer.bos_token_id
    option = tiny_backend.encode_option("<s>Question:", " A")
    assert option.context[0] == bos and option.context[1] != bos


def test_a_missing_model_path_is_a_clear_error(tmp_path):
    missing = tmp_path / "no-such-model"
    with pytest.raises(ModelLoadError, match="no-such-model: model path does not exist"):
        HFBackend(missing)


def test_a_folder_without_config_is_a_clear_error(tmp_path):
    with pytest.raises(ModelLoadError, match="no config.json"):
        HFBackend(tmp_path)


def test_a_file_that_is_not_gguf_is_a_clear_error(tmp_path):
    weights = tmp_path / "model.bin"
    weights.write_bytes(b"\0" * 16)
    with pytest.raises(ModelLoadError, match="model.bin: is a file but not a .gguf model"):
        HFBackend(weights)


def test_a_broken_checkpoint_is_a_clear_error(tmp_path):
    (tmp_path / "config.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelLoadError, match="cannot load a causal language model"):
        HFBackend(tmp_path)


def test_a_continuation_without_tokens_is_rejected(tiny_backend):
    with pytest.raises(ValueError, match="question 'q1': continuation '' encodes to no tokens"):
        tiny_backend.score_choices([ChoiceRequest("q1", "Answer:", (" A", ""))])


def test_a_question_without_options_is_rejected(tiny_backend):
    with pytest.raises(ValueError, match="question 'q2': no continuations"):
        tiny_backend.score_choices([ChoiceRequest("q2", "Answer:", ())])


def test_describe_names_the_model_its_weights_and_settings(tiny_model_dir, tiny_backend):
    description = tiny_backend.describe()
    json.dumps(description)  # goes into the run folder as JSON
    assert description["model_path"] == str(tiny_model_dir)
    assert description["dtype"] == "float32"
    assert description["batch_size"] == 4
    assert description["max_length"] == 512
    assert description["model_type"] == "llama"
    assert description["torch"].startswith("2.") and description["transformers"]
    assert len(description["weights_fingerprint"]["sha256"]) == 64


def test_the_weights_fingerprint_changes_with_the_weights(tiny_model_dir, tmp_path):
    same = weights_fingerprint(tiny_model_dir, None)
    assert weights_fingerprint(tiny_model_dir, None) == same
    other = build_tiny_llama(tmp_path / "other", seed=99)
    assert weights_fingerprint(other, None)["sha256"] != same["sha256"]


def test_the_revision_of_a_git_clone_is_its_head_commit(tmp_path):
    from eval.models.hf import model_revision

    commit = "0123456789abcdef0123456789abcdef01234567"
    (tmp_path / ".git" / "refs" / "heads").mkdir(parents=True)
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / ".git" / "refs" / "heads" / "main").write_text(commit + "\n")
    assert model_revision(tmp_path) == commit
    snapshot = tmp_path / "hub" / "snapshots" / commit
    snapshot.mkdir(parents=True)
    assert model_revision(snapshot) == commit
    assert model_revision(tmp_path / "hub") is None


def test_continuation_passes_are_cut_where_padding_costs_more_than_another_pass():
    from eval.models.hf import _tail_chunks

    widths = [2, 2, 3, 3, 20, 21]  # sorted ascending, as the backend sorts its rows
    assert _tail_chunks(widths, call_cost=10, max_slots=1000) == [[0, 1, 2, 3], [4, 5]]
    assert _tail_chunks(widths, call_cost=1000, max_slots=1000) == [[0, 1, 2, 3, 4, 5]]  # a pass costs more
    assert _tail_chunks(widths, call_cost=1000, max_slots=40) == [[0, 1, 2, 3], [4], [5]]  # memory bound
    assert _tail_chunks([50], call_cost=1, max_slots=10) == [[0]]  # a single row always runs


def test_several_continuation_passes_per_batch_give_the_same_scores(tiny_model_dir, tiny_backend, reference_docs):
    requests = choice_requests(reference_docs)
    split = HFBackend(tiny_model_dir, batch_size=4, show_progress=False)
    split._call_cost_tokens = 1  # as a large model would: a pass per tail width, copies of the cache rows
    calls = _count_forward_passes(split)
    assert_same_results(split.score_choices(requests), tiny_backend.score_choices(requests), tolerance=1e-4)
    batches = -(-len(requests) // 4)
    assert len(calls) > 2 * batches + 4  # (the first call adds the packing check's passes)
