"""A model server on this machine is reached directly, whatever proxy the environment names.

urllib sends every request through `http_proxy`/`https_proxy` when they are set (as for pip behind a company proxy),
loopback hosts included. A proxy reaches its own 127.0.0.1, not this machine's: before (`d753c64`), a request for a
local model server went to the proxy with its `Authorization: Bearer` key, and the run failed on the proxy's 502s.
A remote server is still reached through the proxy, as the environment asks. Measured in `docs/results.md`, "Trust
at the seams an eighth time". Both servers are real, the proxy on 127.0.0.2 (another loopback address: the
proxy's host, not the model server's).
"""
from __future__ import annotations

import json

import pytest

from eval.models.bounded_http import is_loopback
from eval.models.openai_compat import post_json
from tests.fixtures.http import StandInHandler, serve, stop

KEY = "sk-local-secret-0123456789"


@pytest.fixture
def proxy(monkeypatch):
    seen: list[tuple[str, str | None]] = []

    class Proxy(StandInHandler):
        def do_POST(self):
            seen.append((self.requestline, self.headers.get("Authorization")))
            self.send_body(502, content_type=None)

    server = serve(Proxy, host="127.0.0.2")
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
        monkeypatch.setenv(name, f"http://127.0.0.2:{server.server_port}")
    for name in ("no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    yield seen
    stop(server)


@pytest.fixture
def model_server():
    class Model(StandInHandler):
        def do_POST(self):
            self.read_body()
            self.send_json(200, {"choices": [{"message": {"content": "A"}, "finish_reason": "stop"}]})

    server = serve(Model)
    yield server.server_port
    stop(server)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_a_local_model_server_is_reached_directly_and_the_proxy_never_sees_its_key(proxy, model_server, host):
    answer = post_json(f"http://{host}:{model_server}/v1/chat/completions", {"model": "m", "messages": []},
                       key=KEY, timeout_s=10)
    assert json.loads(answer)["choices"][0]["message"]["content"] == "A"
    assert proxy == []


def test_a_remote_model_server_is_still_reached_through_the_environments_proxy(proxy):
    """Held on `d753c64` too: the proxy is the environment's choice for hosts elsewhere."""
    with pytest.raises(Exception, match="502"):
        post_json("http://models.example.test/v1/chat/completions", {"model": "m"}, key=KEY, timeout_s=10)
    assert proxy == [("POST http://models.example.test/v1/chat/completions HTTP/1.1", f"Bearer {KEY}")]


@pytest.mark.parametrize("host, loopback", [
    ("127.0.0.1:8000", True), ("127.8.9.10", True), ("[::1]:8000", True), ("localhost", True), ("LOCALHOST:80", True),
    ("vllm.localhost:8000", True), ("localhost.example.test", False), ("127.0.0.1.example.test", False),
    ("10.0.0.1:8000", False), ("models.example.test", False),
])
def test_which_hosts_are_this_machine(host, loopback):
    assert is_loopback(host) is loopback
