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
from pipeline.specs import tesseract_package

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
            package = tesseract_package(model)  # Debian's name: chi_sim's is tesseract-ocr-chi-sim
            assert package in apt_packages, f"{lang.code}: {package} is not installed by make setup"


def test_every_language_files_spelling_dictionaries_are_installed(apt_packages):
    for lang in all_languages().values():
        for package in lang.spelling.debian_packages if lang.spelling else ():  # Japanese, Chinese: none in Debian
            assert package in apt_packages, f"{lang.code}: {package} is not installed by make setup"


def test_korean_is_among_them(apt_packages):
    """Korean has language data but no shipped spec: the case the spec-derived list missed."""
    assert "tesseract-ocr-kor" in apt_packages


def test_chinese_tesseract_data_goes_by_its_debian_name(apt_packages):
    """Tesseract's `chi_sim` is Debian's tesseract-ocr-chi-sim: the underscore of a model's name is never a package's."""
    assert {"tesseract-ocr-chi-sim", "tesseract-ocr-jpn"} <= apt_packages
    assert not any("_" in package for package in apt_packages)


def test_a_language_without_a_spelling_dictionary_says_so_explicitly():
    """Japanese and Chinese have no hunspell dictionary in Debian: their files write `spelling: null`, not nothing."""
    for code in ("ja", "zh"):
        text = (REPO / "pipeline" / "languages" / "data" / f"{code}.yaml").read_text(encoding="utf-8")
        assert "\nspelling: null" in text and all_languages()[code].spelling is None
