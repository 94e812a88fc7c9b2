"""Same output before and after: the curated records and extracted documents of the real corpus and of a
generated archive, written with every version stamp blanked, and two such snapshots compared.

A speed change to extract or parse must not change what a season run curates. `dump` runs each corpus
family (`tests.fixtures.corpus`-style pairs of spec and folder, `--from` the folder) and a generated
archive (`pipeline.devkit.sample.archive`, served over HTTP as a curator's run fetches it) through
`run_source` in one process, and writes per family `<name>.records.json` (every curated record, sorted
by id), `<name>.problems.json` (the run report's problem lines) and `<name>.documents.json` (every
extracted document, stricter than the records: each line's text and box). Version stamps
(`pipeline_version`, `stage_version`), the run's own root and the archive server's address are blanked.
`compare` names every file and record that differs.

    python -m pipeline.devkit.snapshot dump /tmp/before --archive-sheets 40 --ocr-cache /tmp/ocr-cache
    python -m pipeline.devkit.snapshot dump /tmp/after  --archive-sheets 40 --ocr-cache /tmp/ocr-cache
    python -m pipeline.devkit.snapshot compare /tmp/before /tmp/after

`--ocr-cache DIR` keeps Tesseract's page readings between dumps (the layout is redone from them on
every run, `pipeline.extract.ocr.cache`), so the archive's scans cost OCR time once.
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from pipeline.infra import write_text_atomic

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
# (spec, folder under the corpus): every family the corpus tests run.
CORPUS_FAMILIES = (
    ("pl_cke_matura_informatyka", "pl_cke_matura_informatyka"),
    ("sk_maturita_sjl", "sk_nucem_maturita_sjl"),
    ("pe_conareme", "pe_conareme_residentado_medico"),
    ("es_inap", "es_inap_auxiliar_administrativo"),
    ("cl_demre_paes", "cl_demre_paes"),
    ("br_fgv_oab", "br_fgv_oab"),
    ("br_inep_revalida", "br_inep_revalida"),
    ("pl_cke_zawodowy", "pl_cke_zawodowy_ee09_praktyczny_2019_negative"),
)
ARCHIVE_SPECS = ("sample_pl", "sample_el")
BLANK = ""
VERSION_FIELDS = ("pipeline_version", "stage_version")


def _blanked(value, replacements: dict[str, str]):
    """`value` with version stamps emptied and run-specific strings (root, server address) replaced."""
    if isinstance(value, dict):
        return {k: BLANK if k in VERSION_FIELDS else _blanked(v, replacements) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_blanked(v, replacements) for v in value]
    if isinstance(value, str):
        for old, new in replacements.items():
            value = value.replace(old, new)
    return value


def _documents(cache_root: Path, replacements: dict[str, str]) -> list[dict]:
    """Every extracted document the run cached, blanked, in the order of their paths."""
    folder = cache_root / "documents"
    found = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.rglob("*.json"))] if folder.is_dir() else []
    return sorted((_blanked(d, replacements) for d in found), key=lambda d: (d["path"], d["sha256"]))


def _readings(root: Path) -> Path:
    """Where a run in `root` keeps its OCR page readings."""
    from pipeline.extract.ocr import ReadingCache
    from pipeline.season import RunOptions

    return ReadingCache(RunOptions(root=root).cache_root).folder


def _seed_ocr_cache(root: Path, ocr_cache: Path | None) -> None:
    if ocr_cache is not None and ocr_cache.is_dir():
        shutil.copytree(ocr_cache, _readings(root), dirs_exist_ok=True)


def _keep_ocr_cache(root: Path, ocr_cache: Path | None) -> None:
    readings = _readings(root)
    if ocr_cache is not None and readings.is_dir():
        shutil.copytree(readings, ocr_cache, dirs_exist_ok=True)


def dump_family(name: str, spec_name: str, out: Path, *, from_dir: Path | None = None, base_url: str | None = None,
                ocr_cache: Path | None = None) -> float:
    """Run one spec in a fresh root and write its three snapshot files; returns the run's seconds."""
    from pipeline.season import RunOptions, run_source
    from pipeline.specs import load_spec

    with tempfile.TemporaryDirectory(prefix=f"snapshot-{name}-") as tmp:
        root = Path(tmp)
        _seed_ocr_cache(root, ocr_cache)
        options = RunOptions(root=root, from_dir=from_dir, base_url=base_url, executor="inline", show_progress=False)
        started = time.perf_counter()
        result = run_source(load_spec(spec_name), options)
        seconds = time.perf_counter() - started
        _keep_ocr_cache(root, ocr_cache)
        replacements = {str(root): "{ROOT}"} | ({base_url: "{BASE_URL}"} if base_url else {})
        records = sorted((_blanked(q.to_row(), replacements) for q in result.questions), key=lambda r: r["id"])
        files = {
            "records": records,
            "problems": _blanked(result.report.problem_lines(), replacements),
            "documents": _documents(options.cache_root, replacements),
        }
        for kind, value in files.items():
            text = json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True, default=str)
            write_text_atomic(out / f"{name}.{kind}.json", text + "\n")
    return seconds


def dump(out: Path, *, corpus: Path = CORPUS, archive_sheets: int = 40, ocr_cache: Path | None = None,
         site: Path | None = None) -> None:
    from pipeline.devkit.sample.archive import build_archive_site
    from pipeline.devkit.serve import serve_directory

    out.mkdir(parents=True, exist_ok=True)
    if corpus.is_dir():
        for spec_name, folder in CORPUS_FAMILIES:
            seconds = dump_family(f"corpus-{spec_name}", spec_name, out, from_dir=corpus / folder)
            print(f"corpus {spec_name}: {seconds:.1f} s", flush=True)
    else:
        print(f"corpus not found at {corpus}: only the generated archive", flush=True)
    if archive_sheets <= 0:
        return
    with tempfile.TemporaryDirectory(prefix="snapshot-site-") as tmp:
        site_dir = site or Path(tmp)
        if not (site_dir / "truth.json").is_file():
            build_archive_site(site_dir, archive_sheets)
        with serve_directory(site_dir) as base_url:
            for spec_name in ARCHIVE_SPECS:
                seconds = dump_family(f"archive-{spec_name}", spec_name, out, base_url=base_url, ocr_cache=ocr_cache)
                print(f"archive {spec_name}: {seconds:.1f} s", flush=True)


def compare(before: Path, after: Path, *, shown: int = 5) -> list[str]:
    """Every difference between two snapshot folders, in words; empty when they are the same."""
    differences: list[str] = []
    names = sorted({p.name for p in before.glob("*.json")} | {p.name for p in after.glob("*.json")})
    for name in names:
        a, b = before / name, after / name
        if not a.is_file() or not b.is_file():
            differences.append(f"{name}: only in {'after' if b.is_file() else 'before'}")
            continue
        old, new = json.loads(a.read_text(encoding="utf-8")), json.loads(b.read_text(encoding="utf-8"))
        if old == new:
            continue
        if len(old) != len(new):
            differences.append(f"{name}: {len(old)} entries before, {len(new)} after")
        unequal = [i for i, (x, y) in enumerate(zip(old, new)) if x != y]
        for i in unequal[:shown]:
            differences.append(f"{name}[{i}]: {_first_difference(old[i], new[i])}")
        if len(unequal) > shown:
            differences.append(f"{name}: {len(unequal) - shown} more entries differ")
    return differences


def _first_difference(old, new, where: str = "") -> str:
    """The path to the first value that differs, and both values (shortened)."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                return _first_difference(old.get(key), new.get(key), f"{where}.{key}")
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (x, y) in enumerate(zip(old, new)):
            if x != y:
                return _first_difference(x, y, f"{where}[{i}]")
    return f"{where or '.'}: {json.dumps(old, ensure_ascii=False)[:200]} -> {json.dumps(new, ensure_ascii=False)[:200]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.snapshot", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    dumping = commands.add_parser("dump", help="write a snapshot of the corpus and a generated archive")
    dumping.add_argument("out", type=Path)
    dumping.add_argument("--corpus", type=Path, default=CORPUS, help=f"the real corpus (default {CORPUS})")
    dumping.add_argument("--archive-sheets", type=int, default=40, help="generated sheets (0: none)")
    dumping.add_argument("--site", type=Path, help="build the archive here, or reuse the one already there")
    dumping.add_argument("--ocr-cache", type=Path, help="keep OCR page readings here between dumps")
    comparing = commands.add_parser("compare", help="every difference between two snapshots")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "dump":
        dump(args.out, corpus=args.corpus, archive_sheets=args.archive_sheets, ocr_cache=args.ocr_cache, site=args.site)
        return 0
    differences = compare(args.before, args.after)
    print("\n".join(differences) if differences else f"same output: {args.before} and {args.after}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
