"""Versioned prompt files: `prompts/<version>/<language>.txt`, one per question language.

A version folder is never edited once annotations were made with it: a new wording is a new folder,
so "same image, model and prompt version" really means the same request.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from string import Template

PROMPTS_DIR = Path(__file__).parent / "prompts"
DEFAULT_PROMPT_VERSION = "v1"


class PromptError(LookupError):
    """No prompt file for a version or language."""


@dataclass(frozen=True)
class PromptTemplate:
    version: str
    language: str
    template: str

    def render(self, question: str, choices: list[str], labels: list[str], context: str | None = None) -> str:
        stem = question if not context else f"{context}\n\n{question}"
        options = "\n".join(f"{label}. {text}" for label, text in zip(labels or [], choices or [])) or "-"
        # Template, not str.format: exam text is full of braces ({x | x > 0}) and must stay as it is.
        return Template(self.template).safe_substitute(question=stem, options=options)


def available_prompt_languages(version: str = DEFAULT_PROMPT_VERSION, prompts_dir: Path = PROMPTS_DIR) -> list[str]:
    folder = prompts_dir / version
    return sorted(p.stem for p in folder.glob("*.txt")) if folder.is_dir() else []


def load_prompt(language: str, version: str = DEFAULT_PROMPT_VERSION, prompts_dir: Path = PROMPTS_DIR) -> PromptTemplate:
    folder = prompts_dir / version
    if not folder.is_dir():
        versions = sorted(p.name for p in prompts_dir.iterdir() if p.is_dir()) if prompts_dir.is_dir() else []
        raise PromptError(f"prompt version {version!r} not found in {prompts_dir} (have: {', '.join(versions) or 'none'})")
    path = folder / f"{language}.txt"
    if not path.is_file():
        have = ", ".join(available_prompt_languages(version, prompts_dir)) or "none"
        raise PromptError(f"no prompt for language {language!r}: {path} is missing (version {version} has: {have})")
    return PromptTemplate(version=version, language=language, template=path.read_text(encoding="utf-8"))


def prompt_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
