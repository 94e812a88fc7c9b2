"""Publishing to the Hub (a stand-in on 127.0.0.1 speaking the Hub's upload and download endpoints):
one commit plus a tag per release, loadable with `datasets` at the tag; immutable; visibility kept;
an interrupted publish leaves no release and a retry completes it; the token never shows."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest

from eval.dataset.loading import load_data
from pipeline.cli import main
from pipeline.publish import PublishError, publish_to_hub
from pipeline.split import read_split
from tests.pipeline.publish.conftest import HUB_TOKEN, make_split

REPO = "examcorpus/bench"

LOAD_EVERY_CONFIG = """
import json, sys, datasets
from huggingface_hub import DatasetCard
repo, revision = sys.argv[1], sys.argv[2]
card = DatasetCard.load(repo, repo_type="dataset")  # main's card names the configs
out = {}
for c in card.data.configs:
    ds = datasets.load_dataset(repo, c["config_name"], split="test", revision=revision)
    out[c["config_name"]] = sorted(ds["id"])
print(json.dumps(out))
"""


def publish(split_dir, release_id, split="public", repo=REPO):
    return publish_to_hub(split_dir, split, repo, release_id=release_id, show_progress=False)


def test_a_release_is_a_commit_plus_tag_that_datasets_loads_for_every_config(hub, split_dir, tmp_path):
    result = publish(split_dir, "v1")
    repo = hub.repos[REPO]
    assert repo.private is False and repo.tags == {"v1": result.commit} and repo.branches["main"] == result.commit
    files = repo.commits[result.commit]
    manifest = json.loads(files["manifest.json"])
    assert {e["path"] for e in manifest["files"]} | {"manifest.json", "SHA256SUMS", ".gitattributes"} == set(files)
    assert hub.calls("POST /api/validate-yaml") == 1  # the card passed the Hub's metadata check
    # a researcher's fresh process, pointed at the stand-in by HF_ENDPOINT
    env = dict(hub.env, HF_HOME=str(tmp_path / "researcher"), HF_HUB_CACHE=str(tmp_path / "researcher" / "hub"),
               HF_DATASETS_CACHE=str(tmp_path / "researcher" / "ds"))
    env.pop("HF_TOKEN")  # a public repo needs none
    done = subprocess.run([sys.executable, "-c", LOAD_EVERY_CONFIG, REPO, "v1"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    public = read_split(split_dir).questions("public")
    assert json.loads(done.stdout.splitlines()[-1]) == {
        "el_test": sorted(q.id for q in public if q.source == "el_test"),
        "pl_test": sorted(q.id for q in public if q.source == "pl_test")}


def test_republishing_a_release_id_is_refused_and_sends_nothing(hub, split_dir):
    publish(split_dir, "v1")
    commits = len(hub.repos[REPO].commits)
    with pytest.raises(PublishError, match=f"{REPO}: release v1 is already a tag; releases are immutable"):
        publish(split_dir, "v1")
    assert len(hub.repos[REPO].commits) == commits and hub.calls("POST /api/datasets/examcorpus/bench/preupload") == 1


def test_visibility_public_data_to_public_repos_and_private_to_private(hub, split_dir):
    publish(split_dir, "v1")
    with pytest.raises(PublishError, match=r"examcorpus/bench \(public repo\): refusing to publish the private split"):
        publish(split_dir, "p1", split="private")
    result = publish(split_dir, "p1", split="private", repo="examcorpus/held-out")
    assert hub.repos["examcorpus/held-out"].private is True and result.manifest["visibility"] == "private"
    with pytest.raises(PublishError, match=r"held-out \(private repo\): the public split goes to a public target"):
        publish(split_dir, "v1", repo="examcorpus/held-out")
    assert set(hub.repos["examcorpus/held-out"].tags) == {"p1"}
    assert not any(p.endswith("public.parquet") for p in hub.repos["examcorpus/held-out"].commits[result.commit])


@pytest.mark.parametrize("fault", ["commit", "tag"])
def test_an_interrupted_publish_leaves_no_release_and_a_retry_completes_it(hub, split_dir, fault):
    hub.faults[fault] = [500]
    with pytest.raises(PublishError, match=r"publishing release v1 \(no tag was made; run again to complete it\)"):
        publish(split_dir, "v1")
    assert hub.repos[REPO].tags == {}
    with pytest.raises(Exception):
        load_data(f"hf://{REPO}@v1")
    uploads = hub.calls("PUT /lfs-upload/")
    result = publish(split_dir, "v1")
    assert hub.repos[REPO].tags == {"v1": result.commit}
    assert hub.calls("PUT /lfs-upload/") == uploads  # files that reached the Hub are not sent again
    data = load_data(f"hf://{REPO}@v1", cache_dir=hub.env["HF_HUB_CACHE"])
    assert data.revision == result.commit and len(data.questions) == len(read_split(split_dir).questions("public"))
    assert result.manifest["previous_release"] is None  # the half-made attempt was never a release


def test_a_correction_is_a_new_tag_with_errata_and_the_old_tag_still_serves_the_old_data(hub, tmp_path, corpus):
    publish(make_split(tmp_path / "a", corpus), "v1")
    target = next(q for q in corpus if q.source == "pl_test" and q.year == 2021)
    new_answer = "D" if target.answer != "D" else "C"
    fixed = [replace(q, answer=new_answer, answer_index="ABCD".index(new_answer)) if q.id == target.id else q for q in corpus]
    result = publish(make_split(tmp_path / "b", fixed), "v2")
    assert result.manifest["previous_release"] == "v1"
    assert [(e["id"], e["reason"]) for e in result.manifest["errata"]] == [
        (target.id, f"answer {target.answer} → {new_answer}; answer_index changed")]
    cache = hub.env["HF_HUB_CACHE"]
    old = {q.id: q.answer for q in load_data(f"hf://{REPO}@v1", cache_dir=cache).questions}
    new = {q.id: q.answer for q in load_data(f"hf://{REPO}@v2", cache_dir=cache).questions}
    assert (old[target.id], new[target.id]) == (target.answer, new_answer)


def test_the_token_is_never_printed_even_when_the_hub_quotes_it(hub, split_dir, capsys):
    hub.echo_auth_in_errors = True
    hub.faults["commit"] = [500]
    argv = ["publish", "--split-dir", str(split_dir), "--repo", REPO, "--release", "v1", "--no-progress"]
    assert main(argv) == 1
    assert main(argv) == 0
    out = capsys.readouterr()
    assert "injected fault at commit" in out.err and "***" in out.err
    assert HUB_TOKEN not in out.out + out.err


def test_without_a_token_publishing_is_refused_clearly(hub, split_dir, monkeypatch):
    monkeypatch.delenv("HF_TOKEN")
    with pytest.raises(PublishError, match="no Hugging Face token: set HF_TOKEN or run `hf auth login`"):
        publish(split_dir, "v1")
    assert REPO not in hub.repos
