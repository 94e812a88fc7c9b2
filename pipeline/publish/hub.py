"""Publishing a release to a Hugging Face Hub dataset repo: one commit holding the whole release, then
a tag named after the release id, so `load_dataset(repo, config, revision=release_id)` returns exactly it.

- Immutable: a release id that is already a tag is refused.
- No half release: the files go up first (preupload/LFS), then one commit makes them visible; the Hub
  applies a commit whole or not at all. Only the tag makes it a release, and it is made last. An upload
  or commit that fails leaves no tag, and publishing again completes the release (files already
  uploaded are not sent twice).
- Public data to public repos only: the repo's visibility is read from the Hub before anything is sent,
  and a new repo is created with the visibility of the split.
- The token comes from `HF_TOKEN` or the HF cache (huggingface_hub's own lookup); it is never printed,
  and error messages from the Hub are shown without request headers.
- A body the Hub (or a mirror) sends gzipped is decoded by us, and refused past 100 times its bytes on the wire
  (`infra.bound_hub_client`): nothing is sent after such a refusal, so the releases already there stay as they are.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from pipeline.infra import ResponseTooLarge, UnreadableEncoding, bound_hub_client, redact_userinfo, without_userinfo
from pipeline.publish.card import CardInfo
from pipeline.publish.layout import MANIFEST_NAME
from pipeline.publish.release import PublishError, PublishResult, build_release, check_release_id, check_visibility
from pipeline.publish.signing import SigningKey

KEEP_ON_MAIN = frozenset({".gitattributes"})
BODY_REFUSALS = (ResponseTooLarge, UnreadableEncoding)  # a body the bounded client would not decode (`bound_hub_client`)


def _api():
    from huggingface_hub import HfApi, get_token

    bound_hub_client()
    token = get_token()  # HF_TOKEN, then the cache written by `hf auth login`
    if not token:
        raise PublishError("no Hugging Face token: set HF_TOKEN or run `hf auth login`")
    # Read at call time (huggingface_hub reads HF_ENDPOINT once, at import): a mirror or a test stand-in.
    return HfApi(endpoint=os.environ.get("HF_ENDPOINT") or None, token=token)


def _hub_error(action: str, repo_id: str, exc: Exception, token: str | None = None) -> PublishError:
    """The Hub's own message (first line), with the token blanked should a server have quoted it, and the
    user:password@ of any URL in it (an HF_ENDPOINT naming a mirror with its credentials) taken out."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    server_message = getattr(exc, "server_message", None)
    if server_message:
        text += f"; the Hub said: {server_message.strip()}"
    if token:
        text = text.replace(token, "***")
    return PublishError(redact_userinfo(f"{repo_id}: {action} failed ({type(exc).__name__}: {text})"))


def publish_to_hub(split_dir: Path, split: str, repo_id: str, *, release_id: str, name: str = "examcorpus",
                   previous: Path | None = None, info: CardInfo | None = None, images_root: Path = Path("."),
                   show_progress: bool = True, signing_key: SigningKey | None = None) -> PublishResult:
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete
    from huggingface_hub.errors import HfHubHTTPError, RepositoryNotFoundError

    check_release_id(release_id)
    if repo_id.count("/") != 1:
        raise PublishError(f"{repo_id}: a Hub repo is ORG/NAME")
    api = _api()
    if not show_progress:
        from huggingface_hub.utils import disable_progress_bars

        disable_progress_bars()
    want_private = split == "private"
    # Where the release is cited and said to be (its card, the summary): the site, never the
    # credentials an HF_ENDPOINT may carry for a mirror behind HTTP Basic.
    repo_url = f"{without_userinfo(api.endpoint)}/datasets/{repo_id}"
    try:
        try:
            repo = api.repo_info(repo_id, repo_type="dataset")
        except RepositoryNotFoundError:
            api.create_repo(repo_id, repo_type="dataset", private=want_private, exist_ok=True)
            repo = api.repo_info(repo_id, repo_type="dataset")
        check_visibility(split, bool(repo.private), f"{repo_id} ({'private' if repo.private else 'public'} repo)")
        tags = {t.name for t in api.list_repo_refs(repo_id, repo_type="dataset").tags}
    except (HfHubHTTPError, *BODY_REFUSALS) as exc:
        raise _hub_error("reading the repo", repo_id, exc, api.token) from None
    if release_id in tags:
        raise PublishError(f"{repo_id}: release {release_id} is already a tag; releases are immutable, "
                           "publish a correction under a new release id")

    with tempfile.TemporaryDirectory(prefix="examcorpus-release-") as tmp:
        tmp_path = Path(tmp)
        if previous is None:
            previous = _previous_release(api, repo_id, tags, tmp_path / "previous")
        staging = tmp_path / "release"
        staging.mkdir()
        manifest = build_release(split_dir, split, staging, release_id=release_id, name=name, previous=previous,
                                 repo_hint=repo_id, visibility="private" if repo.private else "public",
                                 info=info, images_root=images_root, repo_url=repo_url,
                                 show_progress=show_progress, signing_key=signing_key)
        files = sorted(p.relative_to(staging).as_posix() for p in staging.rglob("*") if p.is_file())
        try:
            on_main = set(api.list_repo_files(repo_id, repo_type="dataset")) if repo.sha else set()
        except (HfHubHTTPError, *BODY_REFUSALS) as exc:
            raise _hub_error("listing the repo", repo_id, exc, api.token) from None
        # main holds exactly this release: files of the previous one that are gone now are deleted
        operations = [CommitOperationAdd(path_in_repo=f, path_or_fileobj=str(staging / f)) for f in files]
        operations += [CommitOperationDelete(path_in_repo=f) for f in sorted(on_main - set(files) - KEEP_ON_MAIN)]
        try:
            commit = api.create_commit(repo_id, repo_type="dataset", operations=operations,
                                       commit_message=f"Release {release_id} ({split} split)",
                                       commit_description=f"{manifest['counts']['questions']} questions; "
                                       f"{len(manifest['errata'])} errata since {manifest['previous_release']}")
            api.create_tag(repo_id, repo_type="dataset", tag=release_id, revision=commit.oid,
                           tag_message=f"examcorpus release {release_id}")
        except (HfHubHTTPError, *BODY_REFUSALS) as exc:
            raise _hub_error(f"publishing release {release_id} (no tag was made; run again to complete it)",
                             repo_id, exc, api.token) from None
    return PublishResult(release_id, split, repo_url, manifest, commit=commit.oid)


def _previous_release(api, repo_id: str, tags: set[str], into: Path) -> Path | None:
    """The release main holds, when it is a tagged release: main always moves to the newest release.
    If main holds an untagged commit (a publish that failed at the tag), its manifest names the release
    before it."""
    from huggingface_hub import hf_hub_download, snapshot_download
    from huggingface_hub.errors import EntryNotFoundError, HfHubHTTPError, RevisionNotFoundError

    try:
        path = hf_hub_download(repo_id, MANIFEST_NAME, repo_type="dataset", revision="main", cache_dir=into / "cache",
                               endpoint=api.endpoint, token=api.token)
    except (EntryNotFoundError, RevisionNotFoundError):
        return None
    except (HfHubHTTPError, *BODY_REFUSALS) as exc:
        raise _hub_error("reading the previous release", repo_id, exc, api.token) from None
    on_main = json.loads(Path(path).read_text(encoding="utf-8"))
    previous = on_main.get("release") if on_main.get("release") in tags else on_main.get("previous_release")
    if previous not in tags:
        return None
    try:
        folder = snapshot_download(repo_id, repo_type="dataset", revision=previous, cache_dir=into / "cache",
                                   allow_patterns=[MANIFEST_NAME, "data/**"], endpoint=api.endpoint, token=api.token)
    except (HfHubHTTPError, *BODY_REFUSALS) as exc:
        raise _hub_error(f"downloading the previous release {previous}", repo_id, exc, api.token) from None
    return Path(folder)
