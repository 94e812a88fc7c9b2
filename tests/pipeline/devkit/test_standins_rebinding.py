"""A stand-in a user runs as a program (`python -m pipeline.devkit.hub_standin`, `gemini_standin`) answers only
requests addressed to it: a page on another name rebound to 127.0.0.1 (DNS rebinding) is refused (421) before any
route, as the review server refuses it.

Before, the Hub stand-in answered any Host: a page whose name was rebound to the stand-in's address read its private
repos with the token its own docstring suggests (`hf_local`), and could publish to it. Measured in `docs/results.md`,
"Trust at the seams a tenth time".
"""
from __future__ import annotations

import http.client
import json
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

TOKEN = "hf_local"


@pytest.fixture
def running():
    """Start `python -m MODULE ARGS…` as a user would; its URL (printed first), stopped when stdin closes."""
    started = []

    def start(module: str, *args: str) -> str:
        process = subprocess.Popen([sys.executable, "-m", module, "--port", "0", "--until-stdin-closes", *args],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started.append(process)
        return process.stdout.readline().strip()

    yield start
    for process in started:
        process.stdin.close()
        process.wait(timeout=30)


def ask(url: str, method: str, path: str, host: str | None = None, body: dict | None = None) -> tuple[int, bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    headers = {"Host": host or parts.netloc, "Authorization": f"Bearer {TOKEN}"}
    data = json.dumps(body).encode() if body is not None else None
    if data is not None:
        headers["Content-Type"] = "application/json"
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    answer = response.status, response.read()
    connection.close()
    return answer


def test_the_hub_standin_refuses_a_page_rebound_to_its_address(running):
    url = running("pipeline.devkit.hub_standin", "--token", TOKEN)
    port = urlsplit(url).port
    assert ask(url, "POST", "/api/repos/create", body={"name": "me/secret", "private": True, "type": "dataset"})[0] == 200
    assert ask(url, "GET", "/api/datasets/me/secret")[0] == 200  # addressed to it: answered
    assert ask(url, "GET", "/api/datasets/me/secret", host=f"localhost:{port}")[0] == 200
    status, body = ask(url, "GET", "/api/datasets/me/secret", host=f"evil.example:{port}")
    assert status == 421 and b"me/secret" not in body, body
    assert b"evil.example" in body  # says which name it was asked under
    status, _ = ask(url, "POST", "/api/repos/create", host=f"evil.example:{port}", body={"name": "me/planted"})
    assert status == 421
    assert ask(url, "GET", "/api/datasets/me/planted")[0] == 404  # nothing was created


def test_the_gemini_standin_refuses_a_page_rebound_to_its_address(running):
    url = running("pipeline.devkit.gemini_standin")
    port = urlsplit(url).port
    path = "/v1beta/models/gemini-2.0-flash:generateContent"
    assert ask(url, "POST", path, body={"contents": []})[0] != 421
    assert ask(url, "POST", path, host=f"rebound.example:{port}", body={"contents": []})[0] == 421
