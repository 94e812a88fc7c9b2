"""Shared fixtures for the publish tests: a split folder made by the real split stage from generated
records whose figures are real PNG files under the project folder (the current folder, as for
`make publish`), and helpers that read a release back."""
from __future__ import annotations

import hashlib
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.split import load_split_config, run_split
from tests.pipeline.split.conftest import make_corpus, make_record, write_curated

SOURCES = {"pl_test": ("pl", [2021, 2022, 2023]), "el_test": ("el", [2022, 2023])}


def make_split(root: Path, questions) -> Path:
    run_split(write_curated(root / "curated", questions), root / "split", load_split_config())
    return root / "split"


def make_figure(project: Path, seed: int) -> str:
    """A real PNG (a pattern drawn from `seed`) at raw/figures/<sha[:8]>.png under project; its SHA-256."""
    from PIL import Image

    image = Image.new("RGB", (24 + seed % 7, 16), (seed * 37 % 256, seed * 91 % 256, 120))
    for x in range(0, image.width, 3):
        image.putpixel((x, seed % 16), (255, 255, 255))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    data = buffer.getvalue()
    sha = hashlib.sha256(data).hexdigest()
    (project / "raw" / "figures").mkdir(parents=True, exist_ok=True)
    (project / "raw" / "figures" / f"{sha[:8]}.png").write_bytes(data)
    return sha


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """The project folder figure paths are relative to, as the current folder."""
    folder = tmp_path / "project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def corpus(project):
    records = make_corpus(SOURCES)
    # a true/false block and figures (one reviewed, two on one question), so every column type reaches the release
    records.append(make_record(90, source="el_test", year=2022, language="el", qtype="true_false", choices=["Σωστό", "Λάθος"]))
    records.append(replace(make_record(91, source="pl_test", year=2022, images=(make_figure(project, 1),)),
                           image_description="Schemat obwodu z dwoma opornikami.", reviewed_by="anna"))
    records.append(replace(make_record(92, source="el_test", year=2022, language="el",
                                       images=(make_figure(project, 2), make_figure(project, 3))),
                           image_description="[1] Πίνακας τιμών.\n\n[2] Διάγραμμα ροής.", reviewed_by="nikos"))
    return records


@pytest.fixture
def split_dir(tmp_path, corpus) -> Path:
    return make_split(tmp_path / "work", corpus)


def manifest_of(release: Path) -> dict:
    return json.loads((release / "manifest.json").read_text(encoding="utf-8"))


def change_an_answer(release: Path) -> tuple[str, str, str]:
    """The first data file's first question given another answer, written back in place as a valid Parquet (what
    someone rewriting a published file does): (the file's path in the release, the question's id, the new answer)."""
    import pyarrow.parquet as pq

    rel = next(e["path"] for e in manifest_of(release)["files"] if e["path"].endswith(".parquet"))
    table = pq.read_table(release / rel)
    answers = table.column("answer").to_pylist()
    answers[0] = "B" if answers[0] != "B" else "C"
    table = table.set_column(table.schema.get_field_index("answer"), "answer", [answers])
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    (release / rel).write_bytes(buffer.getvalue())
    return rel, table.column("id")[0].as_py(), answers[0]


HUB_TOKEN = "hf_test_SECRET_token_never_printed_0123456789"


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """The Hub stand-in, with this process pointed at it: endpoint, token, Xet off, caches in tmp."""
    import huggingface_hub.constants as hub_constants

    from pipeline.devkit.hub_standin import start_hub

    server_state, server = start_hub(HUB_TOKEN)
    env = {"HF_ENDPOINT": server_state.endpoint, "HF_TOKEN": HUB_TOKEN, "HF_HUB_DISABLE_XET": "1",
           "HF_HOME": str(tmp_path / "hf_home"), "HF_HUB_CACHE": str(tmp_path / "hf_home" / "hub"),
           "HF_DATASETS_CACHE": str(tmp_path / "hf_home" / "datasets"), "HF_HUB_DISABLE_TELEMETRY": "1"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(hub_constants, "HF_HUB_DISABLE_XET", True)
    server_state.env = env
    yield server_state
    server.shutdown()
    server.server_close()
