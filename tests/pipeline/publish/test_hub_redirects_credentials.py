"""The Hub client's token never follows a redirect to another origin, whatever the path publish or verify takes.

A mirror (HF_ENDPOINT) or a Hub answering 301/302/303/307/308 to another origin (another host or port) must not
have the token sent there: the stand-in `elsewhere` records every request it gets. huggingface_hub's client (httpx)
follows the redirect and drops `Authorization` on the way: this held before these tests; they keep it so should the
client, its settings (`infra.bound_hub_client`) or its library change. Measured in `docs/results.md`, "Trust at the
seams a twelfth time".
"""
from __future__ import annotations

import threading

import pytest

from pipeline.publish import PublishError, VerifyError, publish_to_hub, verify_location
from tests.fixtures.http import StandInHandler, base_url, serve, stop
from tests.pipeline.publish.conftest import HUB_TOKEN


class Recording(StandInHandler):
    """Answers 404 to everything, keeping each request's headers."""

    seen: list[dict] = []
    lock = threading.Lock()

    def _answer(self) -> None:
        with self.lock:
            self.seen.append({"method": self.command, "path": self.path, **{k.lower(): v for k, v in self.headers.items()}})
        if self.command in ("POST", "PUT"):
            self.read_body()
        self.send_json(404, {"error": "Repository not found"})

    do_GET = do_HEAD = do_POST = do_PUT = _answer


def redirecting_to(target: str, status: int) -> type[StandInHandler]:
    class Redirecting(StandInHandler):
        def _answer(self) -> None:
            if self.command in ("POST", "PUT"):
                self.read_body()
            self.send_body(status, b"", {"Location": target + self.path})

        do_GET = do_HEAD = do_POST = do_PUT = _answer

    return Redirecting


@pytest.fixture
def servers(monkeypatch):
    Recording.seen = []
    elsewhere = serve(Recording)
    yield elsewhere, monkeypatch
    stop(elsewhere)


def _point_at(monkeypatch, tmp_path, endpoint: str) -> None:
    import huggingface_hub.constants as hub_constants
    for key, value in {"HF_ENDPOINT": endpoint, "HF_TOKEN": HUB_TOKEN, "HF_HUB_DISABLE_XET": "1",
                       "HF_HOME": str(tmp_path / "hf_home"), "HF_HUB_CACHE": str(tmp_path / "hf_home" / "hub"),
                       "HF_HUB_DISABLE_TELEMETRY": "1"}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(hub_constants, "HF_HUB_DISABLE_XET", True)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_publish_sends_no_token_to_the_origin_a_redirect_names(tmp_path, servers, split_dir, status):
    elsewhere, monkeypatch = servers
    # the other origin by another name and port: `localhost` against the mirror's 127.0.0.1
    target = base_url(elsewhere).replace("127.0.0.1", "localhost")
    mirror = serve(redirecting_to(target, status))
    try:
        _point_at(monkeypatch, tmp_path, base_url(mirror))
        with pytest.raises(PublishError):
            publish_to_hub(split_dir, "public", "owner/exams", release_id="v1", show_progress=False)
    finally:
        stop(mirror)
    assert Recording.seen  # the redirect was followed: the other origin was asked
    assert not [r for r in Recording.seen if "authorization" in r or HUB_TOKEN in str(r)], Recording.seen


@pytest.mark.parametrize("status", [302, 307])
def test_verify_of_a_hub_release_sends_no_token_to_the_origin_a_redirect_names(tmp_path, servers, status):
    elsewhere, monkeypatch = servers
    mirror = serve(redirecting_to(base_url(elsewhere).replace("127.0.0.1", "localhost"), status))
    try:
        _point_at(monkeypatch, tmp_path, base_url(mirror))
        with pytest.raises((VerifyError, PublishError)):
            verify_location("hf://owner/exams@v1", cache_dir=tmp_path / "cache")
    finally:
        stop(mirror)
    assert Recording.seen  # the redirect was followed: the other origin was asked
    assert not [r for r in Recording.seen if "authorization" in r or HUB_TOKEN in str(r)], Recording.seen
