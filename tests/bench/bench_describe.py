"""Describe throughput against the local Gemini stand-in (a fixed per-request latency, like a distant
model): 1,000 figures with the concurrency limit vs one at a time; then the review page's action
latency (queue, item, decision; p50/p95 over real HTTP) with 10,000 records loaded.
`python -m tests.bench describe`."""
from __future__ import annotations

import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from pipeline.describe import AppendLog, DescribeOptions, RetryPolicy, describe_curated
from pipeline.records import ImageRef
from pipeline.review import ReviewStore, serve_review
from tests.pipeline.describe.builders import figure_question, write_curated, write_png
from tests.pipeline.review.builders import annotation_for

FIGURES = 1_000
LATENCY_S = 0.020
CONCURRENCY = 16
SERIAL_FIGURES = 200  # one at a time is timed on a slice: 1,000 would add half a minute and say nothing new
REVIEW_RECORDS = 10_000
ACTIONS = 300


def _describe_bench(root: Path) -> None:
    questions = [figure_question(root, i) for i in range(1, FIGURES + 1)]
    write_curated(root, questions)
    # The stand-in runs in its own process: in this one it would share the GIL with the SDK's work.
    standin = subprocess.Popen([sys.executable, "-m", "pipeline.devkit.gemini_standin", "--slow-s", str(LATENCY_S),
                                "--until-stdin-closes"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    base_url = standin.stdout.readline().strip()
    try:
        options = DescribeOptions(root=root, base_url=base_url, concurrency=CONCURRENCY, timeout_s=30,
                                  retry=RetryPolicy(max_attempts=2), show_progress=False)
        started = time.perf_counter()
        summary = describe_curated(options, api_key="bench-key")
        parallel = time.perf_counter() - started
        assert summary.counts == {"pending": FIGURES}, summary.lines()

        serial_root = root / "serial"
        write_curated(serial_root, questions[:SERIAL_FIGURES])
        (serial_root / "raw").symlink_to(root / "raw")
        started = time.perf_counter()
        serial_summary = describe_curated(replace(options, root=serial_root, concurrency=1), api_key="bench-key")
        serial = time.perf_counter() - started
        assert serial_summary.counts == {"pending": SERIAL_FIGURES}

        started = time.perf_counter()
        rerun = describe_curated(options, api_key="bench-key")
        rerun_s = time.perf_counter() - started
        assert rerun.counts == {} and rerun.already_done == FIGURES
    finally:
        standin.stdin.close()
        standin.wait(timeout=10)
    par_rate, ser_rate = FIGURES / parallel, SERIAL_FIGURES / serial
    print(f"describe {FIGURES} figures, stand-in latency {LATENCY_S * 1000:.0f} ms/request:")
    print(f"  concurrency {CONCURRENCY}: {parallel:.2f} s, {par_rate:.0f} figures/s")
    print(f"  one at a time ({SERIAL_FIGURES} figures): {serial:.2f} s, {ser_rate:.0f} figures/s")
    print(f"  speed-up {par_rate / ser_rate:.1f}x; a re-run (all already described) takes {rerun_s:.2f} s and sends nothing")


def _p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def _review_bench(root: Path) -> None:
    figure = "raw/figures/shared.png"
    sha = write_png(root / figure, seed=7)
    base = figure_question(root, 1, figures=0)
    image = ImageRef(path=figure, page=1, bbox=(0.0, 0.0, 100.0, 100.0), sha256=sha)
    questions = [replace(base, id=f"bench:{i}", number=str(i), year=2015 + i % 10, exam=("matura", "zawodowy")[i % 2], images=[image])
                 for i in range(REVIEW_RECORDS)]
    curated = write_curated(root, questions, name="bench")
    AppendLog(root / "annotations" / "descriptions.jsonl").append([annotation_for(q).to_dict() for q in questions])
    started = time.perf_counter()
    store = ReviewStore.open(root, [curated])
    load_s = time.perf_counter() - started
    timings: dict[str, list[float]] = {"queue (filtered)": [], "item": [], "decision": [], "search (text)": [], "table (sorted)": [],
                                       "undo": []}
    with serve_review(store) as url:
        host, port = url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port))

        def call(method: str, path: str, body: dict | None = None) -> dict:
            data = json.dumps(body).encode() if body is not None else None
            connection.request(method, path, body=data, headers={"Content-Type": "application/json", "Origin": url})
            response = connection.getresponse()
            payload = json.loads(response.read())
            assert response.status == 200, payload
            return payload

        ids = call("GET", "/api/queue?status=pending")["ids"]
        for n in range(ACTIONS):
            t = time.perf_counter()
            call("GET", f"/api/queue?status=pending&exam=matura&year={2015 + n % 10}")
            timings["queue (filtered)"].append(time.perf_counter() - t)
            t = time.perf_counter()
            item = call("GET", f"/api/items/{ids[n]}")
            timings["item"].append(time.perf_counter() - t)
            t = time.perf_counter()
            decided = call("POST", f"/api/items/{ids[n]}/decision", {"action": "accept", "annotator": "bench", "version": item["version"]})
            timings["decision"].append(time.perf_counter() - t)
            t = time.perf_counter()
            call("GET", f"/api/queue?status=&q=bench:{n * 7}")  # a search scans every item's ids and texts
            timings["search (text)"].append(time.perf_counter() - t)
            t = time.perf_counter()
            call("GET", f"/api/table?status=&sort={('status', 'year', 'reviewed_by')[n % 3]}&dir=desc")
            timings["table (sorted)"].append(time.perf_counter() - t)
            if n % 2:
                t = time.perf_counter()
                call("POST", f"/api/items/{ids[n]}/undo", {"annotator": "bench", "version": decided["item"]["version"]})
                timings["undo"].append(time.perf_counter() - t)
        connection.close()
    print(f"review page with {REVIEW_RECORDS} records (loaded in {load_s:.2f} s), {ACTIONS} of each action over HTTP:")
    for name, values in timings.items():
        p95 = _p(values, 95) * 1000
        print(f"  {name:17} p50 {_p(values, 50) * 1000:6.1f} ms  p95 {p95:6.1f} ms  {'ok' if p95 < 100 else 'OVER'} (target p95 < 100 ms)")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _describe_bench(Path(tmp) / "describe")
        _review_bench(Path(tmp) / "review")


if __name__ == "__main__":
    main()
