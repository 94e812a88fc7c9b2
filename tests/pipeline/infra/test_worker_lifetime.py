"""Workers of a local process pool never outlive the run that started them, even after kill -9."""
from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time

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


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Tesseract to have OCR grandchildren")
def test_kill_minus_nine_of_extract_leaves_no_worker_or_tesseract_running(tmp_path, sample_site):
    folder = tmp_path / "season"
    shutil.copytree(sample_site / "zawodowy", folder)
    command = [sys.executable, "-m", "pipeline.cli", "extract", "--source", "sample_pl", "--from", str(folder),
               "--no-progress", "--workers", "2", "--root", str(tmp_path / "project")]
    parent = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: dict[int, psutil.Process] = {}
    try:
        deadline = time.time() + 120
        while time.time() < deadline and parent.poll() is None:
            for child in _descendants(parent.pid):
                seen.setdefault(child.pid, child)
            if _alive_tesseract(seen):
                break
            time.sleep(0.05)
        assert parent.poll() is None, "the run ended before a worker started Tesseract"
        assert _alive_tesseract(seen), "no Tesseract grandchild appeared within 120 s"
        assert len(seen) >= 3, f"expected workers and Tesseract under the run, saw {[(_name(p), p.pid) for p in seen.values()]}"

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
