"""What a curator reads after a run (issue 26, item 11): the report names the files no rule claimed, shows
file names decoded and keeps its table readable, says when answers were kept from an earlier run
because this run's key failed, and a run refuses to merge into another family's curated file.

Real generated PDFs, real `examcorpus extract` runs (the CLI's main), real Parquet."""
from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from pipeline.cli import main as examcorpus
from tests.pipeline.season_sheets import KEY_NAME, SHEET_NAME, key_pdf, questions_about, sheet_pdf

SOURCES = Path(__file__).resolve().parents[2] / "pipeline" / "sources"
SHEET = SHEET_NAME.format(q="ele02", year=2023, session="czerwiec")
KEY = KEY_NAME.format(q="ele02", year=2023, session="czerwiec")
NUMBERS = [str(n) for n in range(1, 9)]


def season(folder: Path, topic: str = "prąd") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    sheet_pdf(folder / SHEET, "EGZAMIN ZAWODOWY · Arkusz ELE.02-X-23.06", questions_about(topic, NUMBERS))
    key_pdf(folder / KEY, [(n, "ABCD"[int(n) % 4]) for n in NUMBERS])
    return folder


def extract(spec: str | Path, root: Path, folder: Path, *extra: str) -> int:
    return examcorpus(["extract", "--source", str(spec), "--from", str(folder), "--root", str(root),
                       "--no-progress", "--workers", "1", "--executor", "inline", *extra])


def report_json(root: Path, source: str = "sample_pl") -> dict:
    return json.loads((root / "curated" / "reports" / f"{source}.json").read_text(encoding="utf-8"))


def report_md(root: Path, source: str = "sample_pl") -> str:
    return (root / "curated" / "reports" / f"{source}.md").read_text(encoding="utf-8")


def spec_copy(folder: Path, name: str, **changes) -> Path:
    data = yaml.safe_load((SOURCES / "sample_pl.yaml").read_text(encoding="utf-8"))
    data["name"] = name
    data.update(changes)
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_the_report_names_each_file_no_rule_claimed(tmp_path, project_root):
    folder = season(tmp_path / "season")
    (folder / "extra").mkdir()
    (folder / "extra" / "ele02-2023-czerwiec-arkusz-próbny.pdf").write_bytes((folder / SHEET).read_bytes())
    assert extract("sample_pl", project_root, folder) == 0
    data = report_json(project_root)
    assert data["ignored_links"] == 1
    assert data["ignored_names"] == ["extra/ele02-2023-czerwiec-arkusz-próbny.pdf"]
    assert "1 links or files matched no rule of the spec: `extra/ele02-2023-czerwiec-arkusz-próbny.pdf`" in report_md(project_root)


def test_non_ascii_file_names_are_shown_decoded_and_the_table_keeps_every_column(tmp_path, project_root, capsys):
    """A Hangul file name (long, East Asian wide) is shown as written, not percent-encoded, and the
    summary table still shows every count."""
    name = "hangul_family"
    qualification = "전기전자공학기초"
    rules = {"files": [
        {"role": "key", "pattern": r"(?:^|/)(?P<qualification>[^/-]+)-(?P<year>\d{4})-(?P<session>[^/-]+)-정답지\.pdf$"},
        {"role": "sheet", "pattern": r"(?:^|/)(?P<qualification>[^/-]+)-(?P<year>\d{4})-(?P<session>[^/-]+)-대학수학능력시험_문제지_홀수형\.pdf$"},
    ]}
    spec = spec_copy(tmp_path, name, local=rules)
    folder = tmp_path / "season"
    folder.mkdir()
    sheet_name = f"{qualification}-2023-유월-대학수학능력시험_문제지_홀수형.pdf"
    sheet_pdf(folder / sheet_name, "EGZAMIN ZAWODOWY · Arkusz ELE.02-X-23.06", questions_about("prąd", NUMBERS))
    key_pdf(folder / f"{qualification}-2023-유월-정답지.pdf", [(n, "ABCD"[int(n) % 4]) for n in NUMBERS])
    capsys.readouterr()
    assert extract(spec, project_root, folder) == 0
    printed = capsys.readouterr().out
    assert "%E" not in printed and "%E" not in report_md(project_root, name)
    assert f"| {sheet_name} | sheet |" in report_md(project_root, name)
    sheet_row = [line for line in printed.splitlines() if "│ sheet │" in line]
    assert len(sheet_row) == 1, printed
    cells = [cell.strip() for cell in sheet_row[0].strip("│").split("│")]
    assert cells[1:] == ["sheet", "local", "2", "0", "8", "8", "0", "0"], printed
    assert sheet_name.startswith(cells[0]) and cells[0], printed  # the name's first part, folded onto more lines


def test_a_failed_key_keeps_earlier_answers_flagged_and_the_report_counts_them_apart(tmp_path, project_root):
    folder = season(tmp_path / "season")
    assert extract("sample_pl", project_root, folder) == 0
    curated = project_root / "curated" / "sample_pl.parquet"
    before = pq.read_table(curated).to_pylist()
    assert sum(r["answer"] is not None for r in before) == 8

    key = folder / KEY
    good_key = key.read_bytes()
    key.write_bytes(good_key[:300])  # the key is broken this run
    assert extract("sample_pl", project_root, folder) == 0
    after = pq.read_table(curated).to_pylist()
    assert [r["answer"] for r in after] == [r["answer"] for r in before]  # kept, not wiped
    assert all("season.answer_kept_from_earlier" in r["flag_codes"] for r in after)
    [sheet] = [f for f in report_json(project_root)["files"] if f["url"].endswith(SHEET)]
    assert (sheet["keyed"], sheet["keyed_kept"]) == (0, 8)
    assert f"| {SHEET} | sheet | local | 2 | 0 | 8 | 0 (+8 kept) |" in report_md(project_root)
    assert "0 keyed (+8 answers kept from earlier runs" in report_md(project_root)

    assert extract("sample_pl", project_root, folder) == 0  # broken again: flagged once, not twice
    assert all(r["flag_codes"].count("season.answer_kept_from_earlier") == 1 for r in pq.read_table(curated).to_pylist())

    key.write_bytes(good_key)  # the key is back: the answers are this run's again, the flag gone
    assert extract("sample_pl", project_root, folder) == 0
    assert pq.read_table(curated).to_pylist() == before


def test_out_naming_another_sources_parquet_is_refused_and_left_untouched(tmp_path, project_root, capsys):
    folder = season(tmp_path / "season")
    shared = tmp_path / "out" / "curated.parquet"
    assert extract("sample_pl", project_root, folder, "--out", str(shared)) == 0
    written = shared.read_bytes()
    other = spec_copy(tmp_path, "other_family")
    capsys.readouterr()
    assert extract(other, project_root, season(tmp_path / "other", "opór"), "--out", str(shared)) != 0
    message = capsys.readouterr().err
    assert "holds 8 curated record(s) of source(s) sample_pl, not other_family" in message
    assert shared.read_bytes() == written
    assert not (project_root / "curated" / "reports" / "other_family.md").exists()


def test_out_naming_a_file_that_is_not_parquet_is_refused_and_left_untouched(tmp_path, project_root, capsys):
    target = tmp_path / "notes.parquet"
    target.write_text("my notes, not a table", encoding="utf-8")
    assert extract("sample_pl", project_root, season(tmp_path / "season"), "--out", str(target)) != 0
    assert "not a curated Parquet file" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "my notes, not a table"


def test_when_only_some_unclaimed_links_are_files_the_report_says_which_count_it_names():
    from pipeline.report import RunReport

    report = RunReport(source="s", pipeline_version="v", ignored_links=10,
                       ignored_names=["http://127.0.0.1/a/plan%C3%B3w.pdf", "http://127.0.0.1/b.pdf"])

    assert ("10 links or files matched no rule of the spec; the 2 files among them: "
            "`http://127.0.0.1/a/planów.pdf`, `http://127.0.0.1/b.pdf`.") in report.to_markdown()
