"""A fresh machine's `make setup` installs what every language the project knows needs to be read.

A curator writes a spec for a new exam family in any language that has language data; its scans must be
read on a fresh clone without anyone editing the Makefile. So the Debian packages come from the language
files, not from the shipped specs alone (a Korean spec would otherwise find no `kor` Tesseract data).
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pipeline.languages import all_languages

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def apt_packages() -> set[str]:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    listed = subprocess.run(["make", "-s", "--no-print-directory", "apt-packages"], cwd=REPO,
                            capture_output=True, text=True, check=True, timeout=60)
    return set(listed.stdout.split())


def test_every_language_files_tesseract_data_is_installed(apt_packages):
    for lang in all_languages().values():
        for model in lang.codes.tesseract:
            assert f"tesseract-ocr-{model}" in apt_packages, f"{lang.code}: tesseract-ocr-{model} is not installed by make setup"


def test_every_language_files_spelling_dictionaries_are_installed(apt_packages):
    for lang in all_languages().values():
        for package in lang.spelling.debian_packages:
            assert package in apt_packages, f"{lang.code}: {package} is not installed by make setup"


def test_korean_is_among_them(apt_packages):
    """Korean has language data but no shipped spec: the case the spec-derived list missed."""
    assert "tesseract-ocr-kor" in apt_packages
