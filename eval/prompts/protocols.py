"""Versioned prompt protocols: how a question becomes a request, in the question's own language.

A protocol is named and versioned; its text is frozen once published, because changing a word
changes scores. A change is a new version, never an edit in place. The protocol fixes:
- the instruction, in the question's language (the prompt words of pipeline/languages/data/<code>.yaml);
- zero-shot or k-shot, with fixed examples: the k questions of the same config and language whose
  ids hash lowest (sha256), never the question itself, so the same plan always shows the same shots;
- how figures reach the model: not at all, as reviewed descriptions/transcriptions in the text, or as
  images for a vision model;
- the answer-extraction rule (eval.scorers.answers) for generative answers.
Log-likelihood backends get the same text, ending at the language's answer word ("Odpowiedź:"),
with the option labels (" A", " B", ...) as the continuations to score.
"""
from __future__ import annotations

import base64
import json
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pipeline.languages import all_languages
from pipeline.records import CLOSED_TYPES, Question

FigureMode = Literal["none", "text", "image"]


@dataclass(frozen=True)
class LanguageText:
    instruction: str
    finish_with: str  # generative only: how to state the answer, naming the answer word
    question: str
    answer: str
    passage: str
    figure: str
    no_description: str


# The prompt words of every language whose file (pipeline/languages/data/<code>.yaml) has a prompt.
LANGUAGES: dict[str, LanguageText] = {
    code: LanguageText(**lang.prompt.model_dump()) for code, lang in all_languages().items() if lang.prompt is not None
}


@dataclass(frozen=True)
class Protocol:
    name: str
    version: str
    figures: FigureMode
    extraction_rule: str = "letter-v1"
    description: str = ""
    # letters: options listed with labels, the labels scored (" A"); cloze: no options in the text,
    # each option's own text scored as the continuation (log-likelihood only), with acc and acc_norm.
    formulation: Literal["letters", "cloze"] = "letters"

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"

    def added_language_sha256(self, languages: set[str]) -> dict[str, str]:
        """The prompt hash of each of `languages` given prompt words after this version was published
        (none for the languages its own frozen hash covers)."""
        return {lang: digest for lang, digest in language_prompt_sha256(self).items() if lang in languages}


PROTOCOLS: dict[str, Protocol] = {
    p.name: p
    for p in (
        Protocol("mcq", "1", "none", description="question, passage and options as text; figures left out"),
        Protocol("mcq-figure-text", "1", "text", description="as mcq, with each figure's reviewed description or transcription in the text"),
        Protocol("mcq-vision", "1", "image", description="as mcq, with each figure sent as an image (vision models)"),
        Protocol("mcq-cloze", "1", "none", formulation="cloze",
                 description="question and passage without the options; each option's text scored by log-likelihood"),
    )
}


def get_protocol(name: str, version: str | None = None) -> Protocol:
    base = name.split("@", 1)
    protocol = PROTOCOLS.get(base[0])
    if protocol is None:
        raise ValueError(f"unknown protocol {name!r}; known: {sorted(PROTOCOLS)}")
    wanted = version or (base[1] if len(base) > 1 else None)
    if wanted is not None and wanted != protocol.version:
        raise ValueError(f"protocol {protocol.name} has version {protocol.version}, the plan asks for {wanted}")
    return protocol


def is_scorable(q: Question) -> str | None:
    """None when the question can be asked and scored as a choice; otherwise why not."""
    if q.type not in {t.value for t in CLOSED_TYPES}:
        return f"type {q.type} is not a closed question"
    if len(q.choices) < 2 or len(q.choices) != len(q.choice_labels):
        return "options and labels missing or of different lengths"
    if q.voided:
        return "annulled by the official key"
    if q.answer_index is None or not 0 <= q.answer_index < len(q.choices):
        return "no answer key"
    if q.language not in LANGUAGES:
        return f"language {q.language} has no prompt template"
    return None


@dataclass(frozen=True)
class Prompt:
    """Everything sent for one question, stored in the run folder as the audit record."""

    qid: str
    config: str
    language: str
    labels: tuple[str, ...]
    answer: str
    messages: tuple[dict, ...]  # generative: one user message; images as {"type": "image_ref"} parts
    context: str  # log-likelihood: the text up to and including the answer word and colon
    continuations: tuple[str, ...]
    shot_ids: tuple[str, ...] = ()
    figures_without_description: int = 0

    def to_dict(self) -> dict:
        return {
            "qid": self.qid, "config": self.config, "language": self.language, "labels": list(self.labels),
            "answer": self.answer, "messages": list(self.messages), "context": self.context,
            "continuations": list(self.continuations), "shot_ids": list(self.shot_ids),
            "figures_without_description": self.figures_without_description,
        }

    @classmethod
    def from_dict(cls, d: dict) -> Prompt:
        return cls(
            qid=d["qid"], config=d["config"], language=d["language"], labels=tuple(d["labels"]),
            answer=d["answer"], messages=tuple(d["messages"]), context=d["context"],
            continuations=tuple(d["continuations"]), shot_ids=tuple(d.get("shot_ids", ())),
            figures_without_description=d.get("figures_without_description", 0),
        )


@dataclass
class PromptBuilder:
    protocol: Protocol
    shots: int = 0
    descriptions: dict[str, str] = field(default_factory=dict)  # image sha256 -> reviewed text

    def build_all(self, questions: list[Question], config_of) -> list[Prompt]:
        pools: dict[tuple[str, str], list[Question]] = {}
        for q in questions:
            pools.setdefault((config_of(q), q.language), []).append(q)
        for pool in pools.values():
            pool.sort(key=lambda q: hashlib.sha256(q.id.encode()).hexdigest())
        prompts = []
        for q in questions:
            pool = pools[(config_of(q), q.language)]
            shots = [s for s in pool[: self.shots + 1] if s.id != q.id][: self.shots]
            if len(shots) < self.shots:
                raise ValueError(
                    f"{config_of(q)}/{q.language}: {self.shots}-shot needs {self.shots + 1} questions, found {len(pool)}"
                )
            prompts.append(self.build(q, config_of(q), shots))
        return prompts

    def build(self, q: Question, config: str, shots: list[Question]) -> Prompt:
        words = LANGUAGES[q.language]
        parts: list[str | dict] = [words.instruction]
        missing = 0
        cloze = self.protocol.formulation == "cloze"
        for shot in shots:
            shot_parts, _ = self._question_block(shot, words)
            parts += shot_parts
            shown = shot.choices[shot.answer_index].strip() if cloze else shot.choice_labels[shot.answer_index]
            parts.append(f"{words.answer}: {shown}")
        block, missing = self._question_block(q, words)
        parts += block
        labels = tuple(q.choice_labels)
        context = "\n\n".join(p for p in parts if isinstance(p, str)) + f"\n\n{words.answer}:"
        generative = parts + [words.finish_with]
        return Prompt(
            qid=q.id, config=config, language=q.language, labels=labels,
            answer=q.choice_labels[q.answer_index], messages=({"role": "user", "content": _content(generative)},),
            context=context,
            continuations=tuple(f" {text.strip()}" for text in q.choices) if cloze else tuple(f" {label}" for label in labels),
            shot_ids=tuple(s.id for s in shots), figures_without_description=missing,
        )

    def _question_block(self, q: Question, words: LanguageText) -> tuple[list[str | dict], int]:
        parts: list[str | dict] = []
        missing = 0
        if q.context:
            parts.append(f"{words.passage}:\n{q.context.strip()}")
        if self.protocol.figures == "text":
            reviewed = reviewed_figure_texts(q)
            for i, image in enumerate(q.images, 1):
                # A descriptions file given to the run wins over what the review merged into the record.
                text = self.descriptions.get(image.sha256) or reviewed[i - 1]
                missing += text is None
                parts.append(f"[{words.figure} {i}: {text.strip() if text else words.no_description}]")
        elif self.protocol.figures == "image":
            for image in q.images:
                parts.append({"type": "image_ref", "path": image.path, "sha256": image.sha256})
        if self.protocol.formulation == "cloze":
            parts.append(f"{words.question}:\n{q.question.strip()}")  # the options are the continuations
            return parts, missing
        options = "\n".join(f"{label}. {text.strip()}" for label, text in zip(q.choice_labels, q.choices))
        parts.append(f"{words.question}:\n{q.question.strip()}\n\n{options}")
        return parts, missing


def _content(parts: list[str | dict]) -> str | list[dict]:
    """Plain text when there are no images (every server accepts it); OpenAI-style parts otherwise."""
    if all(isinstance(p, str) for p in parts):
        return "\n\n".join(parts)  # type: ignore[arg-type]
    content: list[dict] = []
    for p in parts:
        if isinstance(p, str):
            if content and content[-1]["type"] == "text":
                content[-1] = {"type": "text", "text": content[-1]["text"] + "\n\n" + p}
            else:
                content.append({"type": "text", "text": p})
        else:
            content.append(p)
    return content


def materialise_images(messages: tuple[dict, ...], images_root: Path) -> tuple[dict, ...]:
    """Replace stored image references with data URLs, checking each file's SHA-256 first."""
    out = []
    for message in messages:
        content = message["content"]
        if isinstance(content, str):
            out.append(message)
            continue
        parts = []
        for part in content:
            if part.get("type") != "image_ref":
                parts.append(part)
                continue
            path = images_root / part["path"]
            if not path.is_file():
                raise FileNotFoundError(f"{path}: figure image not found (images root {images_root})")
            data = path.read_bytes()
            if hashlib.sha256(data).hexdigest() != part["sha256"]:
                raise ValueError(f"{path}: SHA-256 differs from the one recorded in the data")
            url = "data:image/png;base64," + base64.b64encode(data).decode()
            parts.append({"type": "image_url", "image_url": {"url": url}})
        out.append(dict(message, content=parts))
    return tuple(out)


# The prompt hash of each shipped protocol version, frozen when it was published. A prompt whose
# text differs from its frozen hash is refused: change the version (and freeze the new hash) instead.
FROZEN_PROMPT_SHA256: dict[str, str] = {
    "mcq@1": "354220e15e7b0663ebc79802b46b93ad84a1572492809168a4b197e7697dddaf",
    "mcq-figure-text@1": "9e169cc5f0646f840f6210f212be3185c98f53162fcd33324a109a8e46852de9",
    "mcq-vision@1": "e63f9e78fe80b95908f811ed502ed362c7334c79ce9e66f1d4a25fb159d19340",
    "mcq-cloze@1": "39ad373927f683b8ba250d3658960e7cd48874eedead35bb8fd229bc274f5f92",
}
# The languages each frozen hash above covers: those its version was published with.
PUBLISHED_LANGUAGES: dict[str, tuple[str, ...]] = {key: ("el", "en", "es", "pl", "sk") for key in FROZEN_PROMPT_SHA256}
# A language given prompt words after a version was published is frozen on its own, per version, so
# adding a language file changes no published hash (and no earlier run's prompts).
FROZEN_LANGUAGE_PROMPT_SHA256: dict[str, dict[str, str]] = {
    "mcq@1": {
        "cs": "b5c25a2495d2c34f8e5b90cd8451aa9ec653bb1489275c2a490ff2f5bc05d180",
        "ja": "ad24a762925f044685a977449e88b134b794df89c70278945d9e33a1f21323eb",
        "ko": "0b53f08abb5b49e7c1e1f7e027d0d3fd7d156c2364a2611ccba7d6fabc8a8b9c",
        "pt": "6cc4cb05c3a14112e269fd46810285f519ffd4727af37e89063aa4ed77c30bcf",
        "tr": "59426bef2cfb341e6ea9d4a3c8d0d0d2e3d5005b00d4ed77ed2c87cfacb5b308",
        "vi": "7ff923df01659588a8e46bc7f21783cdb4550f35983e60fe3d817e703d25b10c",
        "zh": "1fa9fca46b127312b261224419848cfc52a95921506e007c5c4dd470b4595a0f",
    },
    "mcq-figure-text@1": {
        "cs": "e520a9025635a86718390d94a50c508fa897f9c16d7894861cb9518a8628c141",
        "ja": "8e9a8fda1a3cff817dba4cafcf14271aa157274d2033b5b956ea834f786a51a2",
        "ko": "dc810107a559116e597a89606bbab7b4fb1c19d3b2e6fb6f12edf9e263f53e63",
        "pt": "5ba4b673c13f2a1e692feac85c0c75c9956cd5af9564b430b053b5b2f26b3b0b",
        "tr": "94175600eb9944c13fde082ddf003e6ab8439d3280aeb295fe1222a16212c350",
        "vi": "6b64baee8bab129ed67706c17d66902d509aec2f6cbe4a46d948653c9b06855d",
        "zh": "e06c55e3fa87a9eb335472787ea3f78560b4916eb82c7f271f0c1f40a5b3d2a8",
    },
    "mcq-vision@1": {
        "cs": "4554bfba867fd81e09a48ad4422dacebfe9abcedb590a8ddf6bc4ff20f36a8a0",
        "ja": "06f647ddfcad1499b37ce638611efc041c23ede4f0a9f114a1ecabcd09caa0d2",
        "ko": "2d9c25a5073fb39c8b21562e6d86fa939a128146badb35381d4bee6fab272ad3",
        "pt": "959e0bb77d50ffa321e83e6cd20a511c9a7f890345405d3352d73414828d6782",
        "tr": "ab3e7f9e801ef52736e755def92200dc367541ad08ca0928e17e32adb6f985c7",
        "vi": "b3b4c5dbafee2e5fcd8bb123b5e4f58e458868f270f3fb5c50141527347034f4",
        "zh": "20aef032d47b65853e15b8374cd3ba3dbb31247eefb1b3586a5d6c9e00282140",
    },
    "mcq-cloze@1": {
        "cs": "849cc62592c498422d7bd0e190473abf489a55fdf2c275390a2515ce6375f23d",
        "ja": "96d67f4559e64dc0ca8aa1eae1c29dcf4a76081e270fa4dde779fcb31d06841f",
        "ko": "0cd1f165688abccc350453d363fad78c0dc2c8956392c5ca77143db1e1c364e1",
        "pt": "de788847913821bb6b942290005a57e8e2827d7fa8be5ecb17a06eb4e7a98096",
        "tr": "8a9e35648dcea64707df61832e445e7f43c30eaf1b08871da17ea556009fef93",
        "vi": "849e15163f81714308a86e946b3b106adc4bb55d65a8207d0f6079c61eebcfac",
        "zh": "4878ae00d9baf007a6573ca3e7b3074000dab958ca79be9cad1dc879af9414d0",
    },
}


def _probe_questions(language: str) -> list[Question]:
    """Two fixed questions exercising every part of a prompt: passage, figures with and without a
    description, options, and a one-shot example."""
    from pipeline.records import ImageRef

    images = [ImageRef("probe/fig1.png", 1, (0.0, 0.0, 1.0, 1.0), "1" * 64), ImageRef("probe/fig2.png", 1, (0.0, 0.0, 1.0, 1.0), "2" * 64)]
    return [
        Question(
            id=f"probe-{language}-{n}", source="probe", country="XX", language=language, exam="probe", level=None,
            subject="probe", year=2000, session=None, sheet_code=None, number=str(n), type="single_choice",
            question=f"<question {n}>", context=f"<passage {n}>", choices=["<option a>", "<option b>", "<option c>"],
            choice_labels=["A", "B", "C"], answer="B", answer_index=1, points=1.0, images=images,
            source_url="probe", source_sha256="0" * 64, pages=[1], pipeline_version="probe",
        )
        for n in (1, 2)
    ]


def prompt_sha256(protocol: Protocol, languages: list[str] | tuple[str, ...] | None = None) -> str:
    """SHA-256 of the protocol's full prompt text: each language's rendering of fixed probe questions
    (generative messages and log-likelihood context and continuations), with the rule it names.
    Built through the same code as real prompts, so a changed template or join changes it too.
    `languages`: those the hash covers; by default the ones the version was published with."""
    rendered = {"name": protocol.name, "version": protocol.version, "figures": protocol.figures,
                "extraction_rule": protocol.extraction_rule, "languages": {}}
    if protocol.formulation != "letters":
        rendered["formulation"] = protocol.formulation  # absent for letters: hashes frozen before the field existed
    builder = PromptBuilder(protocol, shots=1, descriptions={"1" * 64: "<description of figure 1>"})
    for language in sorted(published_languages(protocol) if languages is None else languages):
        if language not in LANGUAGES:
            raise ValueError(f"protocol {protocol.key} covers language {language}, whose file (pipeline/languages/data/"
                             f"{language}.yaml) has no prompt words")
        first, second = _probe_questions(language)
        prompt = builder.build(second, "probe", [first])
        rendered["languages"][language] = {"messages": list(prompt.messages), "context": prompt.context,
                                           "continuations": list(prompt.continuations)}
    text = json.dumps(rendered, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def published_languages(protocol: Protocol) -> tuple[str, ...]:
    """The languages a version's frozen hash covers: those it was published with; for a version not
    yet frozen, every language with prompt words."""
    return PUBLISHED_LANGUAGES.get(protocol.key, tuple(sorted(LANGUAGES)))


def language_prompt_sha256(protocol: Protocol) -> dict[str, str]:
    """The frozen-checked hash of each language given prompt words after the version was published."""
    base = set(published_languages(protocol))
    return {language: prompt_sha256(protocol, [language]) for language in sorted(LANGUAGES) if language not in base}


def check_frozen(protocol: Protocol) -> str:
    """The protocol's prompt hash, after checking it is the one frozen for its version, and that each
    language added since has the prompt frozen for it."""
    digest = prompt_sha256(protocol)
    frozen = FROZEN_PROMPT_SHA256.get(protocol.key)
    if frozen is None:
        raise ValueError(f"protocol {protocol.key} has no frozen prompt hash; add {digest} to FROZEN_PROMPT_SHA256 when publishing it")
    if digest != frozen:
        raise ValueError(f"protocol {protocol.key}: its prompt text changed since it was frozen (sha256 {digest}, frozen {frozen}); "
                         "a changed prompt changes scores, so give it a new version instead of editing this one")
    added = FROZEN_LANGUAGE_PROMPT_SHA256.get(protocol.key, {})
    for language, language_digest in language_prompt_sha256(protocol).items():
        if language not in added:
            raise ValueError(f"protocol {protocol.key}: language {language} has prompt words but no frozen prompt hash; "
                             f"add {language_digest} to FROZEN_LANGUAGE_PROMPT_SHA256[{protocol.key!r}][{language!r}] when publishing it")
        if language_digest != added[language]:
            raise ValueError(f"protocol {protocol.key}: its {language} prompt text changed since it was frozen (sha256 {language_digest}, "
                             f"frozen {added[language]}); a changed prompt changes scores, so give it a new version instead of editing this one")
    return digest


_FIGURE_NUMBER = re.compile(r"(?:^|\n\n)\[(\d+)\] ")


def _numbered_parts(text: str | None, count: int) -> list[str | None]:
    """pipeline.review's merge writes one figure's text as is and several as "[1] …\n\n[2] …"."""
    if not text:
        return [None] * count
    if count == 1:
        return [text]
    pieces = _FIGURE_NUMBER.split(text)
    found = {int(number): body.strip() for number, body in zip(pieces[1::2], pieces[2::2])}
    return [found.get(n) for n in range(1, count + 1)]


def reviewed_figure_texts(q: Question) -> list[str | None]:
    """Each figure's reviewed description, its transcription after it, from the record's merged fields."""
    descriptions = _numbered_parts(q.image_description, len(q.images))
    transcriptions = _numbered_parts(q.image_transcription, len(q.images))
    return [
        None if d is None else (f"{d} {t}" if t else d)
        for d, t in zip(descriptions, transcriptions)
    ]
