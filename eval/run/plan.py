"""The run plan: what data, which questions, which protocol, which model with which settings.

Read from a YAML/JSON plan file or built from CLI flags; unknown fields are errors naming the file.
Operational settings (concurrency, timeouts, retry policy) may change when a run is resumed; every
other field is part of the run's identity and must match the run folder's plan exactly.
"""
from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from pipeline.infra import load_yaml, loads_unique_keys

from eval.models.registry import backend_entry, kind_of

PLAN_VERSION = 1
OPERATIONAL_MODEL_FIELDS = ("concurrency", "timeout_s", "batch_size", "device")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelSettings(_Strict):
    backend: str = Field(description="prefix: hf, openai, gemini")
    name: str = Field(description="model name at the endpoint, or a local path for hf")
    display_name: str | None = Field(None, description="what tables and reports call the model (--name); default: the "
                                     "model's own name (GGUF general.name, the Hub repository id, the API's model id)")
    base_url: str | None = None
    api_key_env: str | None = Field(None, description="name of the environment variable holding the key (never the key)")
    temperature: float = 0.0
    max_tokens: int = Field(1024, gt=0)
    reasoning_effort: str | None = None
    seed: int | None = Field(None, description="request seed; repeat r sends seed + r")
    max_tokens_field: Literal["max_tokens", "max_completion_tokens"] = "max_tokens"
    system_prompt: str | None = Field(None, description="hf-generate: a system message before the question (chat template) or text")
    scoring: Literal["generative", "loglikelihood"] | None = Field(
        None, description="default: the backend's own; openai: with loglikelihood scores options via /completions (echo + logprobs)")
    # operational: may differ on resume
    concurrency: int = Field(4, ge=1, le=512)
    timeout_s: float = Field(120.0, gt=0)
    batch_size: int = Field(8, ge=1)
    device: str = "cpu"
    dtype: str | None = None

    @field_validator("base_url")
    @classmethod
    def _no_credentials(cls, value: str | None) -> str | None:
        # The plan is stored in the run folder: a key in the URL would end up there.
        if value and ("@" in value.split("//", 1)[-1].split("/", 1)[0] or "?" in value):
            raise ValueError("base_url must not carry credentials or a query string; name the key's variable in api_key_env")
        return value

    @field_validator("display_name")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        # It becomes a table cell, a CSV field and a page title: one printable line of sensible length.
        if value is not None and (not value.strip() or len(value) > 200 or any(not ch.isprintable() for ch in value)):
            raise ValueError("display_name (--name) must be one line of 1-200 printable characters")
        return value

    @field_validator("backend")
    @classmethod
    def _known(cls, value: str) -> str:
        backend_entry(value)
        return value

    @model_validator(mode="after")
    def _system_prompt_supported(self) -> "ModelSettings":
        if self.system_prompt is not None and not backend_entry(self.backend).system_prompt:
            raise ValueError(f"system_prompt: the {self.backend} backend sends the protocol's single user message only")
        return self


class RetryPolicy(_Strict):
    max_attempts: int = Field(6, ge=1, description="per question and repeat, per session, technical failures only")
    base_delay_s: float = Field(1.0, ge=0)
    max_delay_s: float = Field(60.0, ge=0)
    max_retry_after_s: float = Field(300.0, ge=0, description="longest wait a server's Retry-After may impose; a longer one "
                                     "is cut to this and the attempt says so (retry_after_capped)")


class RunPlan(_Strict):
    plan_version: Literal[1] = PLAN_VERSION
    data: str = Field(description="curated Parquet file/folder, release folder, or hf://OWNER/NAME@TAG")
    data_pin: dict | None = Field(None, description="expected dataset_id/revision/files; checked before anything is sent")
    configs: list[str] | None = None
    languages: list[str] | None = None
    limit: int | None = Field(None, ge=1, description="first N scorable questions by id (smoke runs)")
    protocol: str
    protocol_version: str | None = None
    shots: int = Field(0, ge=0)
    fewshot: int = Field(0, ge=0, description="examples from fewshot_pool before each question; never a scored question (eval.dataset.fewshot)")
    fewshot_pool: str | None = Field(None, description="'public-split' (build/split), a split folder, or a Parquet/JSONL file")
    fewshot_seed: int = Field(0, description="which pool examples are shown: the k lowest sha256(seed:id) per source and language")
    figure_descriptions: str | None = Field(None, description="JSONL of reviewed figure descriptions (mcq-figure-text)")
    images_root: str | None = Field(None, description="folder figure paths are relative to (mcq-vision)")
    model: ModelSettings
    repeats: int = Field(1, ge=1)
    retry: RetryPolicy = Field(default_factory=RetryPolicy)

    @model_validator(mode="after")
    def _one_kind_of_shots(self) -> "RunPlan":
        if self.fewshot and self.shots:
            raise ValueError("give shots (examples among the scored questions) or fewshot (from a declared pool), not both")
        if self.fewshot_pool and not self.fewshot:
            raise ValueError("fewshot_pool is given but fewshot is 0; set fewshot to the number of examples")
        if self.fewshot and self.fewshot_pool is None:
            self.fewshot_pool = "public-split"  # the default pool, written into the stored plan
        return self

    def identity(self) -> dict:
        data = self.model_dump(mode="json")
        data.pop("retry")
        data.pop("images_root")
        for key in OPERATIONAL_MODEL_FIELDS:
            data["model"].pop(key)
        data["model"].pop("display_name")  # a label: set when the run begins, it does not change what is sent
        return data

    @property
    def kind(self) -> str:
        return kind_of(self.model)


def load_plan(path: str | Path) -> RunPlan:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        raw = loads_unique_keys(text) if path.suffix == ".json" else load_yaml(text)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise ValueError(f"{path}: unreadable plan ({exc})") from None
    if not isinstance(raw, dict):
        raise ValueError(f"{path}: a plan is a mapping of fields")
    try:
        return RunPlan.model_validate(raw)
    except ValidationError as exc:
        problems = "\n".join(f"  - {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise ValueError(f"{path}: invalid run plan:\n{problems}") from None
