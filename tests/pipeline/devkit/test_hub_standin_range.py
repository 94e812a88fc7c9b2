"""The Hub stand-in's file route under a hostile Range header: a malformed one is ignored (the whole file),
never an int() error that closes the connection unanswered."""
from __future__ import annotations

import http.client

import pytest

from pipeline.devkit.hub_standin import Repo, start_hub
from pipeline.devkit.standin_http import stop

DATA = bytes(range(200))


@pytest.fixture
def hub():
    hub, server = start_hub("tok")
    hub.repos["org/data"] = Repo(private=False, commits={"c1": {"a.bin": DATA}}, branches={"main": "c1"})
    yield server
    stop(server)


def _get(server, range_header: str) -> tuple[int, bytes]:
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=5)
    conn.request("GET", "/datasets/org/data/resolve/main/a.bin", headers={"Range": range_header})
    resp = conn.getresponse()
    body = resp.read()
    conn.close()
    return resp.status, body


def test_a_byte_range_gives_206_with_those_bytes(hub):
    assert _get(hub, "bytes=10-19") == (206, DATA[10:20])
    assert _get(hub, "bytes=-5") == (206, DATA[-5:])


@pytest.mark.parametrize("header", ["bytes=\xb2-", "bytes=-", "bytes=" + "9" * 5000 + "-", "bytes=1_0-20", "bytes=0-1,5-6"])
def test_a_malformed_range_gets_the_whole_file(hub, header):
    assert _get(hub, header) == (200, DATA)
