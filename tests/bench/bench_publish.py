"""Split and publish 100k generated records: time and peak memory, against `datasets.Dataset.to_parquet`
of the same rows in the same run; then `load_dataset` time of the release.

Each phase runs in its own process so its peak RSS (VmHWM) is its own. The records are generated
with a Zipf-distributed vocabulary of 3,000 pseudo-words, so shingles overlap the way real exam text
does (common words shared, questions distinct) and the leakage guard sees realistic candidate counts.
`python -m tests.bench.bench_publish [N]` runs it alone (N records, default 100,000).
"""
from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCES = [("pl_cke_zawodowy", "pl"), ("pl_cke_matura", "pl"), ("gr_panellinies", "el"), ("sk_maturita", "sk"),
           ("es_ebau", "es")]
YEARS = [2021, 2022, 2023, 2024, 2025]
SYLLABLES = "ka to mi ra po le zu na se di wo ry ba ce fo gu ha je ko lu".split()


def _vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))))
    return sorted(words)


def generate(n: int):
    from pipeline.records import Question, question_id

    rng = random.Random(20261201)
    vocab = _vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(vocab))]  # Zipf: a few words everywhere, most rare
    per_group = n // (len(SOURCES) * len(YEARS))
    out = []
    for source, lang in SOURCES:
        for year in YEARS:
            words = rng.choices(vocab, weights, k=per_group * 26)
            for i in range(per_group):
                w = words[i * 26:(i + 1) * 26]
                out.append(Question(
                    id=question_id(source, year, "maj", "A-1", str(i + 1)), source=source, country=lang.upper(),
                    language=lang, exam=source.split("_", 1)[1], level=None, subject="mixed", year=year, session="maj",
                    sheet_code=f"A-1-{i // 40}", number=str(i + 1), type="single_choice", question=" ".join(w[:14]) + "?",
                    context=None, choices=[" ".join(w[14 + 3 * k:17 + 3 * k]) for k in range(4)],
                    choice_labels=["A", "B", "C", "D"], answer="ABCD"[i % 4], answer_index=i % 4, points=1.0, images=[],
                    source_url=f"https://exams.example.org/{source}/{year}/{i // 40}.pdf",
                    source_sha256=hashlib.sha256(f"{source}/{year}/{i // 40}".encode()).hexdigest(), pages=[1 + i % 20],
                    pipeline_version="bench"))
    return out


def _peak_mb() -> float:
    """This process's peak RSS: VmHWM, not ru_maxrss (Linux carries ru_maxrss over from the forking parent)."""
    return next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024


def phase(name: str, work: Path) -> dict:
    """One measured step, run inside a child process."""
    started = time.perf_counter()
    extra: dict = {}
    if name == "split":
        from pipeline.split import load_split_config, run_split

        result = run_split(work / "curated", work / "split", load_split_config())
        extra = {"public": len(result.public), "private": len(result.private)}
    elif name == "publish":
        from pipeline.publish import publish_to_folder

        publish_to_folder(work / "split", "public", work / "release", release_id="bench", show_progress=False)
        extra = {"bytes": sum(p.stat().st_size for p in (work / "release" / "data").rglob("*.parquet"))}
    elif name in ("ours_parquet_only", "datasets_to_parquet", "snappy_parquet"):
        extra = _write_same_rows(name, work)
    elif name == "load_dataset":
        import datasets

        from huggingface_hub import DatasetCard

        configs = [c["config_name"] for c in DatasetCard.load(work / "release" / "README.md").data.configs]
        rows = sum(len(datasets.load_dataset(str(work / "release"), c, split="test", cache_dir=str(work / "hf"))) for c in configs)
        extra = {"rows": rows, "configs": len(configs)}
    return {"phase": name, "seconds": round(time.perf_counter() - started, 2), "peak_rss_mb": round(_peak_mb(), 1), **extra}


def _write_same_rows(name: str, work: Path) -> dict:
    """The rows the release holds, per config, written by another writer (read time excluded)."""
    import pyarrow.parquet as pq

    from pipeline.publish import config_names, parquet_bytes
    from pipeline.records import QUESTION_SCHEMA, questions_to_table, table_to_questions

    questions = table_to_questions(pq.read_table(work / "split" / "public.parquet"))
    names = config_names(questions)
    by_config: dict[str, list] = {}
    for q in questions:
        by_config.setdefault(names[q.id], []).append(q)
    out = work / name
    out.mkdir(exist_ok=True)
    started = time.perf_counter()
    total = 0
    for config, qs in sorted(by_config.items()):
        path = out / f"{config}.parquet"
        if name == "ours_parquet_only":
            path.write_bytes(parquet_bytes(qs))
        elif name == "snappy_parquet":
            pq.write_table(questions_to_table(sorted(qs, key=lambda q: q.id)), path, compression="snappy", row_group_size=10_000)
        else:
            import datasets

            ds = datasets.Dataset.from_list([q.to_row() for q in qs], features=datasets.Features.from_arrow_schema(QUESTION_SCHEMA))
            ds.to_parquet(str(path))
        total += path.stat().st_size
    return {"write_seconds": round(time.perf_counter() - started, 2), "bytes": total}


def _run_child(name: str, work: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.bench.bench_publish", "--phase", name, str(work)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    """`make bench` passes its options (`--records N`: how many generated records; 100,000 unless given)."""
    import argparse

    import pyarrow.parquet as pq

    parser = argparse.ArgumentParser(prog="bench_publish")
    parser.add_argument("--records", type=int, default=100_000)
    n = parser.parse_known_args(argv or [])[0].records

    from pipeline.publish import COMPRESSION, ROW_GROUP_ROWS
    from pipeline.records import questions_to_table

    with tempfile.TemporaryDirectory(prefix="bench-publish-") as tmp:
        work = Path(tmp)
        started = time.perf_counter()
        questions = generate(n)
        (work / "curated").mkdir()
        for source, _ in SOURCES:
            pq.write_table(questions_to_table([q for q in questions if q.source == source]), work / "curated" / f"{source}.parquet")
        print(f"generated {len(questions)} records in {time.perf_counter() - started:.1f}s "
              f"(release Parquet: {COMPRESSION}, row groups of {ROW_GROUP_ROWS} rows)", flush=True)
        del questions
        results = {}
        for name in ("split", "publish", "ours_parquet_only", "datasets_to_parquet", "snappy_parquet", "load_dataset"):
            results[name] = r = _run_child(name, work)
            print(f"  {name:22} {json.dumps({k: v for k, v in r.items() if k != 'phase'})}", flush=True)
        ours, theirs = results["ours_parquet_only"], results["datasets_to_parquet"]
        print(f"Parquet writing, same rows: ours {ours['write_seconds']}s / {ours['bytes'] / 1e6:.1f} MB vs "
              f"datasets.to_parquet {theirs['write_seconds']}s / {theirs['bytes'] / 1e6:.1f} MB "
              f"(time ×{ours['write_seconds'] / max(theirs['write_seconds'], 1e-9):.2f}, size ×{ours['bytes'] / theirs['bytes']:.2f}); "
              f"snappy would be {results['snappy_parquet']['bytes'] / 1e6:.1f} MB")
        print(f"whole publish (read and verify split, Parquet, card, exports, manifest): {results['publish']['seconds']}s, "
              f"peak RSS {results['publish']['peak_rss_mb']} MB vs datasets baseline peak RSS {theirs['peak_rss_mb']} MB; "
              f"load_dataset of every config: {results['load_dataset']['seconds']}s")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--phase":
        print(json.dumps(phase(sys.argv[2], Path(sys.argv[3]))))
    else:
        main(sys.argv[1:])
