"""A review server killed with SIGKILL loses no decision it acknowledged: a real `examcorpus review`
process, real HTTP, kill -9 right after the answer, and a new server that shows the decision."""
from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

EXAMCORPUS = Path(sys.executable).parent / "examcorpus"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(root: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    server = subprocess.Popen([str(EXAMCORPUS), "review", "--root", str(root), "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()  # "review page: http://127.0.0.1:PORT/ (...)", printed once it listens
    assert "review page: http://127.0.0.1:" in line, server.stderr.read() if server.poll() is not None else line
    return server, f"http://127.0.0.1:{port}"


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def _post(url: str, body: dict) -> dict:
    origin = "/".join(url.split("/")[:3])  # scheme://host:port, as the page's own fetch sends it
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Origin": origin})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_an_acknowledged_decision_survives_kill_minus_nine_of_the_server(review_project):
    root, _, _ = review_project
    server, url = _serve(root)
    try:
        first = _get(f"{url}/api/queue?status=pending")["ids"][0]
        item = _get(f"{url}/api/items/{first}")
        _post(f"{url}/api/items/{first}/decision", {"version": item["version"], "action": "accept", "annotator": "Ala",
                                                    "description": "Zaakceptowany opis", "transcription": "R1"})
    finally:
        server.kill()  # SIGKILL the moment the answer came: no handler, no flush at exit
        server.wait()
    again, url = _serve(root)
    try:
        after = _get(f"{url}/api/items/{first}")
        assert after["status"] == "accepted" and after["description"] == "Zaakceptowany opis"
        assert after["version"] > item["version"]
    finally:
        again.kill()
        again.wait()
