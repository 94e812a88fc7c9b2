"""An HF_ENDPOINT naming a mirror with its credentials (`http://user:password@mirror/`), as a mirror behind
HTTP Basic is named: the real `examcorpus publish` against the Hub stand-in taking the Basic password.

The URL is used to connect; the card a release publishes cites the site, the summary names it, and an
error quotes it, each without the user:password@ it carried.
"""
from __future__ import annotations

from pipeline.cli import main
from tests.pipeline.publish.conftest import HUB_TOKEN

REPO = "examcorpus/bench"


def publish_argv(split_dir) -> list[str]:
    return ["publish", "--split-dir", str(split_dir), "--repo", REPO, "--release", "v1", "--no-progress"]


def with_userinfo(endpoint: str, password: str) -> str:
    return endpoint.replace("http://", f"http://mirror-user:{password}@", 1)


def test_a_mirrors_password_in_hf_endpoint_is_in_no_published_file_nor_the_summary(hub, split_dir, monkeypatch, capsys):
    hub.basic_auth = True  # the mirror takes the token as the Basic password
    monkeypatch.setenv("HF_ENDPOINT", with_userinfo(hub.endpoint, HUB_TOKEN))
    monkeypatch.setenv("HF_TOKEN", "hf_bearer_the_mirror_does_not_read_42")
    assert main(publish_argv(split_dir)) == 0
    out = capsys.readouterr()
    assert HUB_TOKEN not in out.out + out.err
    assert f"→ {hub.endpoint}/datasets/{REPO}" in out.out
    repo = hub.repos[REPO]
    assert {path for files in repo.commits.values() for path, data in files.items() if HUB_TOKEN.encode() in data} == set()
    commit = repo.commits[repo.tags["v1"]]
    card = commit["README.md"].decode()
    assert f"url = {{{hub.endpoint}/datasets/{REPO}}}" in card


def test_a_refused_mirror_password_is_not_quoted_by_the_error(hub, split_dir, monkeypatch, capsys):
    hub.basic_auth = True
    wrong = "mirror-password-wrong-0451"
    monkeypatch.setenv("HF_ENDPOINT", with_userinfo(hub.endpoint, wrong))
    assert main(publish_argv(split_dir)) == 1
    err = capsys.readouterr().err
    assert "401" in err and "***@127.0.0.1" in err
    assert wrong not in err and "mirror-user" not in err
