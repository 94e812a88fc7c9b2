"""The Hub client never takes Xet, whatever the environment says: every download and upload goes through our bounded
client (`infra.bound_hub_client`), not `hf_xet`'s own.

huggingface_hub reads a file through `hf_xet` (a Rust client of its own: no decoded-size bound, no proxy or redirect
rules of ours, its own cache of blobs shared across repos by hash) whenever `hf_xet` is installed and the server says
the file is on Xet (`X-Xet-Hash` and a token route), and uploads through it whenever `hf_xet` is installed. Our tests
turned it off with `HF_HUB_DISABLE_XET=1`; a user's shell does not. Before, with the variable unset, `publish` asked
the stand-in for a Xet write token and failed, and `verify hf://…` and `eval`'s loader asked for a Xet read token.
Measured in `docs/results.md`, "Trust at the seams a tenth time".
"""
from __future__ import annotations

import huggingface_hub.constants as hub_constants

from eval.dataset.loading import load_data
from pipeline.publish import publish_to_hub
from pipeline.publish.verify import verify_location

REPO = "examcorpus/bench"


def leave_xet_on(hub, monkeypatch):
    """The stand-in as a Hub that puts files on Xet, and a process that never set `HF_HUB_DISABLE_XET`."""
    monkeypatch.delenv("HF_HUB_DISABLE_XET", raising=False)
    monkeypatch.setattr(hub_constants, "HF_HUB_DISABLE_XET", False)
    hub.xet = True
    hub.log.clear()
    return hub


def xet_asked(hub) -> list[str]:
    return [line for line in hub.log if "xet" in line.lower()]


def test_publish_uploads_through_our_client_not_xet(hub, monkeypatch, split_dir):
    xet_left_on = leave_xet_on(hub, monkeypatch)
    result = publish_to_hub(split_dir, "public", REPO, release_id="v1", show_progress=False)
    assert xet_asked(xet_left_on) == []
    assert xet_left_on.calls("PUT /lfs-upload/") >= 1  # the Parquet files went by LFS, through our client
    assert result.commit in xet_left_on.repos[REPO].commits


def test_verify_and_the_eval_loader_read_a_release_on_xet_through_our_client(hub, monkeypatch, split_dir, tmp_path):
    publish_to_hub(split_dir, "public", REPO, release_id="v1", show_progress=False)  # Xet off, as the fixture sets it
    xet_left_on = leave_xet_on(hub, monkeypatch)
    assert verify_location(f"hf://{REPO}@v1").problems == []
    data = load_data(f"hf://{REPO}@v1", cache_dir=tmp_path / "eval-cache")
    assert data.kind == "hub" and data.revision == xet_left_on.repos[REPO].tags["v1"] and data.questions
    assert xet_asked(xet_left_on) == []
    assert xet_left_on.calls("GET /datasets/") >= 2  # the files were read from the stand-in over HTTP
