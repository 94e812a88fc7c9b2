"""Shared fixtures for pipeline tests: the generated sample archive and season folders built from it."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.devkit.sample.site import build_sample_site

PL_TEXT_SHEET = "zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny.pdf"
PL_TEXT_KEY = "zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny-odpowiedzi.pdf"


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory) -> Path:
    """The embedded sample archive (index page, sheets, keys, truth.json), generated once per session."""
    site = tmp_path_factory.mktemp("sample_site")
    build_sample_site(site)
    return site


@pytest.fixture(scope="session")
def sample_truth(sample_site) -> dict:
    return json.loads((sample_site / "truth.json").read_text(encoding="utf-8"))


@pytest.fixture
def season_folder(tmp_path, sample_site) -> Path:
    """A local folder laid out like arkusze.pl holding one text-layer Polish sheet and its key."""
    folder = tmp_path / "season"
    for name in (PL_TEXT_SHEET, PL_TEXT_KEY):
        target = folder / Path(name).name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sample_site / name, target)
    return folder


@pytest.fixture
def project_root(tmp_path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root
