"""A tiny, randomly initialised Llama-style model with a tokenizer trained here, saved like any
Hugging Face checkpoint: the offline model that the log-likelihood tests and `make bench` score with.

Nothing is downloaded: the BPE tokenizer is trained on a few multilingual sentences (Polish, Greek,
Slovak, Spanish, English, digits) and the weights come from a fixed seed, so every build is identical.
"""
from __future__ import annotations

from pathlib import Path

TRAINING_TEXT = """\
Question: What is the capital of Poland? Answer: Warsaw. Stolicą Polski jest Warszawa.
Które z poniższych zdań jest prawdziwe? Zażółć gęślą jaźń. Źdźbło trawy rośnie szybko.
Ποια είναι η πρωτεύουσα της Ελλάδας; Η Αθήνα είναι η πρωτεύουσα. Ερώτηση: Πόσο κάνει δύο συν δύο;
Ktoré mesto je hlavným mestom Slovenska? Bratislava. Čo je ťažšie, železo alebo pierko?
¿Cuál es la capital del Perú? La capital es Lima. El corazón bombea la sangre por el cuerpo.
A. B. C. D. E. Odpowiedź: A Απάντηση: Β Answer: C Respuesta: D Odpoveď: E
0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 100 1000 2 + 2 = 4 3 * 3 = 9 7 - 5 = 2
The quick brown fox jumps over the lazy dog. Pchnąć w tę łódź jeża lub ośm skrzyń fig.
Matematyka, biologia, chemia, fizyka, historia, geografia. Μαθηματικά, φυσική, χημεία, ιστορία.
"""


def build_tiny_llama(
    directory: Path,
    *,
    seed: int = 1234,
    vocab_size: int = 400,
    max_position_embeddings: int = 512,
) -> Path:
    """Trains the tokenizer, initialises the model and saves both under `directory`; returns it."""
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    directory.mkdir(parents=True, exist_ok=True)
    # Byte-level BPE (as GPT-2, Llama 3 and SmolLM2 use) so any Polish or Greek text encodes without <unk>.
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<s>", "</s>", "<pad>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(TRAINING_TEXT.splitlines(), trainer=trainer)
    bos, eos = tokenizer.token_to_id("<s>"), tokenizer.token_to_id("</s>")
    # Prepends BOS like Llama tokenizers do, so lm-eval's and our BOS handling are both exercised.
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A", pair="<s> $A <s> $B", special_tokens=[("<s>", bos)]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>", pad_token="<pad>"
    )
    fast.save_pretrained(directory)

    config = LlamaConfig(
        vocab_size=tokenizer.get_vocab_size(),
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=3,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=max_position_embeddings,
        # A wide init makes the next-token distribution peaked, so options differ clearly and an
        # argmax comparison with lm-eval is meaningful rather than a coin toss between near-ties.
        initializer_range=0.3,
        bos_token_id=bos,
        eos_token_id=eos,
        pad_token_id=tokenizer.token_to_id("<pad>"),
        tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config).eval()
    model.save_pretrained(directory)
    return directory


def with_chat_template(model_dir: Path, folder: Path, template: str) -> Path:
    """A copy of the model in `folder` whose tokenizer carries `template` as its chat template."""
    import shutil

    from transformers import AutoTokenizer

    shutil.copytree(model_dir, folder)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    tokenizer.chat_template = template
    tokenizer.save_pretrained(folder)
    return folder
