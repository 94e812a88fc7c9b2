"""Index-page links are followed only to the spec's hosts; redirects never reach internal addresses.

The spec's site is a fault server on 127.0.0.1 (reached through --base-url, as the sample is); a
second server on 127.0.0.2 stands for another machine an index page might point at.
"""
from __future__ import annotations

import pytest

from pipeline.acquire import download_source
from pipeline.specs import parse_spec

from .support import fault_site, make_pdf, make_spec

MAT = "/files/2023/MAT-100-2305.pdf"
POL = "/files/2023/POL-100-2305.pdf"


@pytest.fixture
def other(tmp_path):
    try:
        with fault_site(tmp_path / "other", host="127.0.0.2") as running:
            yield running
    except OSError as exc:  # a system without the 127/8 loopback range
        pytest.skip(f"cannot serve on 127.0.0.2: {exc}")


def run(site, raw_dir, fast, **spec_kwargs):
    spec = make_spec(index_pages=["{base_url}/lista.html"], **spec_kwargs)
    return download_source(spec, raw_dir, base_url=site.base_url, progress=False, options=fast)


def test_a_link_to_another_loopback_host_is_not_followed_and_is_reported(site, other, raw_dir, fast):
    site.put(MAT, make_pdf("ours"))
    other.put(POL, make_pdf("theirs"))
    site.page("/lista.html", [MAT, other.url(POL)])

    result = run(site, raw_dir, fast)

    assert [e.url for e in result.entries] == [site.url(MAT)]
    assert other.to(POL) == []  # not one request reached the other machine
    [note] = result.notes
    assert other.url(POL) in note and "127.0.0.2 is a loopback address" in note and "download.allowed_hosts" in note


def test_a_host_the_spec_names_in_allowed_hosts_is_followed(site, other, raw_dir, fast):
    site.put(MAT, make_pdf("ours"))
    other.put(POL, make_pdf("theirs"))
    site.page("/lista.html", [MAT, other.url(POL)])

    result = run(site, raw_dir, fast, download_extra={"allowed_hosts": ["127.0.0.2"]})

    assert {e.url: e.status for e in result.entries} == {site.url(MAT): "downloaded", other.url(POL): "downloaded"}
    assert result.notes == []


def test_link_local_and_private_addresses_are_never_contacted(site, raw_dir, fast):
    metadata = "http://169.254.169.254" + MAT
    intranet = "http://10.11.12.13" + POL
    site.page("/lista.html", [metadata, intranet])

    result = run(site, raw_dir, fast)

    assert result.entries == []
    assert any(metadata in n and "169.254.169.254 is a link-local address" in n for n in result.notes)
    assert any(intranet in n and "10.11.12.13 is a private address" in n for n in result.notes)


def test_a_link_to_a_foreign_public_host_is_not_followed(site, raw_dir, fast):
    foreign = "https://mirror.example.net" + MAT
    site.page("/lista.html", [foreign])

    result = run(site, raw_dir, fast)

    assert result.entries == []
    assert result.notes == [
        f"testexam: link {foreign} on {site.url('/lista.html')} not followed: host mirror.example.net is not one of "
        f"the spec's hosts (127.0.0.1, exams.example.org); name it in download.allowed_hosts to fetch it"
    ]


def test_a_redirect_to_an_internal_address_the_spec_does_not_name_is_refused(site, other, raw_dir, fast):
    other.put(POL, make_pdf("internal"))
    site.state.redirects[MAT] = (302, other.url(POL))
    site.page("/lista.html", [MAT])

    [entry] = run(site, raw_dir, fast).entries

    assert entry.status == "rejected"
    assert entry.error == f"{site.url(MAT)}: redirect to {other.url(POL)} refused: 127.0.0.2 is a loopback address that the spec does not name"
    assert other.to(POL) == []


def test_a_redirect_to_a_named_host_is_followed(site, other, raw_dir, fast):
    other.put(POL, make_pdf("cdn copy"))
    site.state.redirects[MAT] = (302, other.url(POL))
    site.page("/lista.html", [MAT])

    [entry] = run(site, raw_dir, fast, download_extra={"allowed_hosts": ["127.0.0.2"]}).entries

    assert entry.status == "downloaded" and entry.final_url == other.url(POL)


def test_the_policy_names_the_spec_hosts_base_url_and_literal_templates():
    from pipeline.acquire.hostpolicy import HostPolicy, address_problem

    spec = make_spec(
        "https://exams.example.org",
        index_pages=["{base_url}/arkusze/{year}/", "https://archive.example.com/{year}/list.html"],
        download_extra={"allowed_hosts": ["CDN.example.org"]},
    )
    policy = HostPolicy.for_spec(spec.download, "http://127.0.0.1:8123")
    assert policy.hosts == {"exams.example.org", "archive.example.com", "cdn.example.org", "127.0.0.1"}
    assert policy.link_problem("http://127.0.0.1:9999/x.pdf") is None  # a host, whatever the port
    assert address_problem("::1") == "::1 is a loopback address"
    assert address_problem("93.184.216.34") is None


def test_allowed_hosts_must_be_bare_host_names(tmp_path):
    spec = make_spec()
    data = spec.model_dump(exclude={"path"})
    data["download"]["allowed_hosts"] = ["https://cdn.example.org/files"]
    with pytest.raises(ValueError, match=r"download.allowed_hosts.*bare host names"):
        parse_spec(data, "testexam.yaml")


def test_credentials_in_a_base_url_become_a_header_and_are_never_echoed():
    from pipeline.acquire.hostpolicy import redact, split_credentials

    clean, header = split_credentials("https://curator:s3cr%40t@mirror.example.org:8443/exams")
    assert clean == "https://mirror.example.org:8443/exams"
    assert header == "Basic Y3VyYXRvcjpzM2NyQHQ="  # base64 of curator:s3cr@t
    url = "https://curator:s3cr%40t@mirror.example.org/x"
    assert redact(f"cannot read {url}", url) == "cannot read https://***@mirror.example.org/x"


def test_a_redirect_target_is_connected_to_at_the_address_that_was_checked(site, other, raw_dir, fast, monkeypatch):
    """DNS rebinding: the name answers a public address to the check and a loopback one afterwards.
    The connection must go to the checked address, never to a second answer (here: the machine's own
    server on 127.0.0.2, which must see no request)."""
    import socket

    checked, rebound = "93.184.215.14", other.base_url.split("//")[1].split(":")[0]
    port = int(other.base_url.rsplit(":", 1)[1].split("/")[0])
    answers = {"rebind.example": [checked]}  # the first lookup; every later one answers the internal address
    real_getaddrinfo, real_connect = socket.getaddrinfo, socket.create_connection

    def rebinding_dns(host, *args, **kwargs):
        if host == "rebind.example":
            address = answers.pop(host, [rebound])[0]
            return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, args[0] if args else 0))]
        return real_getaddrinfo(host, *args, **kwargs)

    connections = []

    def connect(address, *args, **kwargs):
        connections.append(address)
        if address[0] == checked:  # the public host is down (and this machine reaches no public host)
            raise ConnectionRefusedError(111, "Connection refused")
        return real_connect(address, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding_dns)
    monkeypatch.setattr(socket, "create_connection", connect)
    other.put(POL, make_pdf("internal"))
    site.state.redirects[MAT] = (302, f"http://rebind.example:{port}{POL}")
    site.page("/lista.html", [MAT])

    [entry] = run(site, raw_dir, fast).entries

    assert other.to(POL) == []
    assert (checked, port) in connections and ("rebind.example", port) not in connections
    assert entry.status != "downloaded"


def test_a_checked_address_is_connected_to_with_the_name_kept_as_the_host_header(site, other):
    """No second lookup: 'pinned.example' resolves nowhere, yet the hop reaches the checked address,
    and the server sees the name it was asked for."""
    from pipeline.acquire.httpclient import RedirectVerdict, open_url

    port = int(other.base_url.rsplit(":", 1)[1].split("/")[0])
    address = other.base_url.split("//")[1].split(":")[0]
    other.put(POL, make_pdf("cdn copy"))
    site.state.redirects[MAT] = (302, f"http://pinned.example:{port}{POL}")
    with open_url(site.url(MAT), timeout=5, redirect_check=lambda url: RedirectVerdict(connect_to=(address,))) as response:
        assert response.status == 200 and response.read().startswith(b"%PDF")
    [request] = other.to(POL)
    assert request.headers["Host"] == f"pinned.example:{port}"


def test_a_rerun_s_conditional_get_redirected_to_an_internal_address_is_refused_and_the_earlier_copy_kept(
        site, other, raw_dir, fast):
    from pipeline.acquire import Manifest

    site.put(MAT, make_pdf("ours"))
    site.page("/lista.html", [MAT])
    [first] = run(site, raw_dir, fast).entries
    assert first.status == "downloaded" and first.etag
    other.put(MAT, make_pdf("internal"))
    site.state.redirects[MAT] = (302, other.url(MAT))

    [again] = run(site, raw_dir, fast).entries

    assert site.to(MAT)[-1].headers.get("If-None-Match") == first.etag  # a conditional re-fetch
    assert again.status == "rejected" and "127.0.0.2 is a loopback address" in (again.error or "")
    assert other.to(MAT) == []  # not one request reached the internal address
    kept = Manifest.load(raw_dir / "manifest.jsonl").get(site.url(MAT))
    assert kept is not None and kept.ok and kept.sha256 == first.sha256
