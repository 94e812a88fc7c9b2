"""Generated sheets for each exam family and a helper that runs extract + parse with a real spec."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.extract import ExtractOptions, extract_document
from pipeline.acquire import ManifestEntry
from pipeline.parse import ParseResult, parse_sheet
from pipeline.records import Question
from pipeline.specs import SourceSpec, load_spec
from tests.fixtures import sheets


def entry(path: Path, role: str, spec: SourceSpec, facts: dict[str, str]) -> ManifestEntry:
    return ManifestEntry(
        url=path.as_uri(), final_url=path.as_uri(), spec=spec.name, role=role, facts=dict(facts),
        status="local", sha256="0" * 64, path=str(path),
    )


@dataclass
class Parsed:
    result: ParseResult
    expected: list[sheets.Expected]

    def by_number(self) -> dict[str, Question]:
        return {q.number: q for q in self.result.questions}


def run_family(
    spec: SourceSpec | str, sheet: Path, keys: list[Path], facts: dict[str, str], figures_root: Path | None = None
) -> ParseResult:
    spec = load_spec(spec) if isinstance(spec, str) else spec
    figures = {"figures_dir": figures_root / "raw" / "figures", "figures_root": figures_root} if figures_root else {}
    options = ExtractOptions.from_spec(spec, **figures)
    key_docs = [(extract_document(k, "1" * 64, options), entry(k, "key", spec, facts)) for k in keys]
    document = extract_document(sheet, "0" * 64, options)
    return parse_sheet(document, entry(sheet, "sheet", spec, facts), key_docs, spec)


@pytest.fixture(scope="session")
def fixture_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("parse_fixtures")


@pytest.fixture(scope="session")
def cke_set(fixture_root) -> sheets.FixtureSet:
    return sheets.cke_matura(fixture_root / "cke")


@pytest.fixture(scope="session")
def cke_parsed(cke_set) -> Parsed:
    return Parsed(run_family("pl_cke_matura_informatyka", cke_set.sheets[0], cke_set.keys, {"year": "2030"}), cke_set.expected)


@pytest.fixture(scope="session")
def peru_set(fixture_root) -> sheets.FixtureSet:
    return sheets.peru_grid(fixture_root / "peru")


@pytest.fixture(scope="session")
def peru_parsed(peru_set) -> Parsed:
    return Parsed(run_family("pe_conareme", peru_set.sheets[0], [], {"year": "2031", "form": "A"}), peru_set.expected)


@pytest.fixture(scope="session")
def slovak_set(fixture_root) -> sheets.FixtureSet:
    return sheets.slovak_booklet(fixture_root / "sk")


@pytest.fixture(scope="session")
def slovak_parsed(slovak_set) -> Parsed:
    return Parsed(run_family("sk_maturita_sjl", slovak_set.sheets[0], slovak_set.keys, {"year": "2031"}), slovak_set.expected)


@pytest.fixture(scope="session")
def greek_set(fixture_root) -> sheets.FixtureSet:
    return sheets.greek_paper(fixture_root / "gr")


@pytest.fixture(scope="session")
def greek_parsed(greek_set) -> Parsed:
    return Parsed(run_family("gr_panellinies", greek_set.sheets[0], greek_set.keys, {"year": "2031"}), greek_set.expected)


@pytest.fixture(scope="session")
def vocational_set(fixture_root) -> sheets.FixtureSet:
    return sheets.vocational(fixture_root / "zawodowy")
