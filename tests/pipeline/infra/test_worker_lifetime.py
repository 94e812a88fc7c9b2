"""Workers of a local process pool never outlive the run that started them, even after kill -9."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

SCANNED_SHEET = "inf02-2024-styczen-egzamin-zawodowy-pisemny.pdf"  # OCR keeps the workers busy


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


OCR_BUSY_CPU_S = 0.5  # CPU seconds a worker spends after loading libtesseract: it is reading a page


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Tesseract to keep the workers busy with OCR")
@pytest.mark.parametrize("engine", ["in-process", "cli"])
def test_kill_minus_nine_of_extract_leaves_no_worker_or_tesseract_running(tmp_path, sample_site, engine):
    """Killed while its workers OCR: in process (a worker has libtesseract loaded and keeps using CPU
    after loading it), or by the CLI (a `tesseract` grandchild runs). Nothing it started survives."""
    folder = tmp_path / "season"
    shutil.copytree(sample_site / "zawodowy", folder)
    command = [sys.executable, "-m", "pipeline.cli", "extract", "--source", "sample_pl", "--from", str(folder),
               "--no-progress", "--workers", "2", "--root", str(tmp_path / "project")]
    environment = {k: v for k, v in os.environ.items() if k != "EXAMCORPUS_TESSERACT_MODE"}
    if engine == "cli":
        environment["EXAMCORPUS_TESSERACT_MODE"] = "cli"
    parent = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
    seen: dict[int, psutil.Process] = {}
    loaded_at: dict[int, float] = {}  # worker pid -> its CPU seconds when libtesseract was first seen loaded
    busy = _alive_tesseract if engine == "cli" else (lambda processes: _ocr_in_process(processes, loaded_at))
    try:
        # Seen once is enough: a `tesseract` child may finish a small crop between two looks, and asking
        # again after the loop raced with it (CI saw the process terminated a moment after it was found).
        ocr_seen = False
        deadline = time.time() + 120
        while time.time() < deadline and parent.poll() is None and not ocr_seen:
            for child in _descendants(parent.pid):
                seen.setdefault(child.pid, child)
            ocr_seen = busy(seen)
            if not ocr_seen:
                time.sleep(0.05)
        assert ocr_seen, f"no worker OCRing ({engine}) within 120 s or before the run ended"
        assert parent.poll() is None, "the run ended before it could be killed"
        assert len(seen) >= 2, f"expected workers under the run, saw {[(_name(p), p.pid) for p in seen.values()]}"

        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.time() + 10
        while time.time() < deadline and any(_alive(pid) for pid in seen):
            time.sleep(0.05)
        survivors = [(pid, _name(p)) for pid, p in seen.items() if _alive(pid)]
        assert survivors == [], f"processes outlived the killed run: {survivors}"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid, process in seen.items():  # never leak what this test started, even when it fails
            if _alive(pid):
                process.kill()


def _ocr_in_process(seen: dict[int, psutil.Process], loaded_at: dict[int, float]) -> bool:
    """A worker with libtesseract loaded that has used OCR_BUSY_CPU_S more CPU since it was seen loaded."""
    for pid, process in seen.items():
        try:
            used = sum(process.cpu_times()[:2])
            if pid not in loaded_at:
                if "libtesseract" in Path(f"/proc/{pid}/maps").read_text():
                    loaded_at[pid] = used
            elif used - loaded_at[pid] >= OCR_BUSY_CPU_S and _alive(pid):
                return True
        except (psutil.Error, OSError):
            continue
    return False


def _name(process: psutil.Process) -> str:
    try:
        return process.name()
    except psutil.Error:
        return "?"


def _alive_tesseract(seen: dict[int, psutil.Process]) -> bool:
    return any(_alive(pid) and "tesseract" in _name(p) for pid, p in seen.items())


# A parent whose workers each start a long-running grandchild, as OCR workers start Tesseract.
PARENT_SCRIPT = """
import signal, subprocess, sys
from pipeline.infra import make_executor

# Ctrl-C as in a terminal: a parent started by a pytest-xdist worker inherits SIGINT ignored.
signal.signal(signal.SIGINT, signal.default_int_handler)

def sleeper(_):
    subprocess.run(["sleep", "120"])

with make_executor("process", workers=2) as pool:
    print("running", flush=True)
    list(pool.imap_unordered(sleeper, range(2)))
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: signal.Signals(s).name)
def test_a_signalled_parent_takes_its_workers_and_their_children_with_it(signum):
    parent = subprocess.Popen([sys.executable, "-c", PARENT_SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seen: dict[int, psutil.Process] = {}
    try:
        assert parent.stdout.readline().strip() == b"running"
        deadline = time.time() + 30
        while time.time() < deadline and sum(_name(p) == "sleep" for p in seen.values()) < 2:
            for child in _descendants(parent.pid):
                seen.setdefault(child.pid, child)
            time.sleep(0.05)
        assert sum(_name(p) == "sleep" for p in seen.values()) == 2, [(_name(p), pid) for pid, p in seen.items()]

        parent.send_signal(signum)
        # Ctrl-C does not wait for the running tasks (120 s sleeps) to finish; the margin is for a loaded machine.
        parent.wait(timeout=60)
        deadline = time.time() + 10
        while time.time() < deadline and any(_alive(pid) for pid in seen):
            time.sleep(0.05)
        assert [(pid, _name(p)) for pid, p in seen.items() if _alive(pid)] == []
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid, process in seen.items():
            if _alive(pid):
                process.kill()
