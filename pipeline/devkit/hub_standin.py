"""A Hugging Face Hub stand-in: the endpoints `huggingface_hub` (upload, with Xet off) and `datasets`
(load at a revision) use, with git-like commits, branches, tags and LFS objects, and faults that can
be injected per endpoint. Everything is kept in memory: a throwaway Hub for trying `publish --repo`,
`load_dataset` and `examcorpus verify hf://…` offline, and the publish tests' Hub.

    python -m pipeline.devkit.hub_standin --port 8091 --token hf_local   # prints its URL
    export HF_ENDPOINT=http://127.0.0.1:8091 HF_TOKEN=hf_local HF_HUB_DISABLE_XET=1
    examcorpus publish --repo me/bench --release v1 && examcorpus verify hf://me/bench@v1

Endpoints: repo create (POST /api/repos/create), repo info (GET /api/datasets/R[/revision/REV]), refs
(GET …/refs), tag (POST …/tag/REV), preupload (POST …/preupload/REV), LFS batch (POST
/datasets/R.git/info/lfs/objects/batch) and upload (PUT /lfs-upload/OID), commit (POST …/commit/REV,
ndjson), tree (GET …/tree/REV[/PATH]), paths-info (POST …/paths-info/REV), resolve (GET/HEAD
/datasets/R/resolve/REV/PATH, Range supported). Writes need `Authorization: Bearer <token>`.
"""
from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

LFS_SUFFIXES = (".parquet", ".jsonl")  # as the Hub's .gitattributes would route them


def git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass
class Repo:
    private: bool
    commits: dict[str, dict[str, bytes]] = field(default_factory=dict)  # oid -> path -> bytes
    branches: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    lfs_paths: set[str] = field(default_factory=set)

    def resolve(self, revision: str) -> str | None:
        revision = unquote(revision)
        if revision in self.branches:
            return self.branches[revision]
        if revision in self.tags:
            return self.tags[revision]
        return revision if revision in self.commits else None


@dataclass
class HubServer:
    token: str
    repos: dict[str, Repo] = field(default_factory=dict)
    lfs: dict[str, bytes] = field(default_factory=dict)  # sha256 -> bytes
    faults: dict[str, list[int]] = field(default_factory=dict)  # endpoint -> statuses to answer, in turn
    echo_auth_in_errors: bool = False  # a careless server that quotes the credentials it got
    log: list[str] = field(default_factory=list)
    endpoint: str = ""
    env: dict[str, str] = field(default_factory=dict)  # what the test pointed huggingface_hub at
    lock: threading.Lock = field(default_factory=threading.Lock)

    def fault(self, name: str) -> int | None:
        with self.lock:
            queue = self.faults.get(name) or []
            return queue.pop(0) if queue else None

    def calls(self, prefix: str) -> int:
        return sum(1 for line in self.log if line.startswith(prefix))


def _handler(hub: HubServer):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        # -- plumbing -------------------------------------------------------------------------
        def _send(self, code: int, body: bytes = b"", headers: dict | None = None, ctype: str = "application/json"):
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _json(self, code: int, payload, headers: dict | None = None):
            self._send(code, json.dumps(payload).encode(), headers)

        def _error(self, code: int, message: str, error_code: str | None = None):
            if hub.echo_auth_in_errors:
                message += f" (request had Authorization: {self.headers.get('Authorization')})"
            self._json(code, {"error": message}, {"X-Error-Code": error_code, "X-Error-Message": message}
                       if error_code else {"X-Error-Message": message})

        def _body(self) -> bytes:
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def _authorised(self) -> bool:
            if self.headers.get("Authorization") == f"Bearer {hub.token}":
                return True
            self._error(401, "Invalid credentials in Authorization header")
            return False

        def _repo(self, repo_id: str, *, write: bool = False) -> Repo | None:
            repo = hub.repos.get(repo_id)
            if repo is None or (repo.private and self.headers.get("Authorization") != f"Bearer {hub.token}"):
                self._error(404, "Repository not found", "RepoNotFound")
                return None
            if write and not self._authorised():
                return None
            return repo

        def _injected(self, name: str) -> bool:
            status = hub.fault(name)
            if status is None:
                return False
            self._error(status, f"injected fault at {name}")
            return True

        # -- routing --------------------------------------------------------------------------
        def do_HEAD(self):
            self.do_GET()

        def do_GET(self):
            url = urlsplit(self.path)
            path, query = url.path, parse_qs(url.query)
            hub.log.append(f"{self.command} {path}")
            if path.startswith("/api/datasets/"):
                repo_id, rest = _split_repo(path[len("/api/datasets/"):])
                repo = self._repo(repo_id)
                if repo is None:
                    return
                if rest in ("", "revision") or rest.startswith("revision/"):
                    return self._info(repo_id, repo, rest[len("revision/"):] if rest.startswith("revision/") else "main")
                if rest == "refs":
                    return self._refs(repo)
                if rest.startswith("tree/"):
                    revision, _, sub = rest[len("tree/"):].partition("/")
                    return self._tree(repo, revision, unquote(sub), recursive=query.get("recursive", ["false"])[0].lower() in ("1", "true"))
            if path.startswith("/datasets/") and "/resolve/" in path:
                repo_id, _, rest = path[len("/datasets/"):].partition("/resolve/")
                repo = self._repo(repo_id)
                if repo is None:
                    return
                revision, _, name = rest.partition("/")
                return self._resolve(repo, revision, unquote(name))
            self._error(404, f"no route {path}")

        def do_POST(self):
            path = urlsplit(self.path).path
            hub.log.append(f"POST {path}")
            body = self._body()
            if path == "/api/repos/create":
                return self._create(json.loads(body))
            if path == "/api/validate-yaml":
                errors = validate_card(json.loads(body).get("content", ""))
                return self._json(400 if errors else 200, {"errors": [{"message": e} for e in errors], "warnings": []})
            if path.startswith("/datasets/") and path.endswith(".git/info/lfs/objects/batch"):
                repo_id = path[len("/datasets/"):-len(".git/info/lfs/objects/batch")]
                if self._repo(repo_id, write=True) is None or self._injected("lfs_batch"):
                    return
                return self._lfs_batch(json.loads(body))
            if path.startswith("/api/datasets/"):
                repo_id, rest = _split_repo(path[len("/api/datasets/"):])
                if rest.startswith("paths-info/"):
                    repo = self._repo(repo_id)
                    return repo and self._paths_info(repo, rest[len("paths-info/"):], body)
                repo = self._repo(repo_id, write=True)
                if repo is None:
                    return
                if rest.startswith("preupload/"):
                    return self._preupload(repo, json.loads(body))
                if rest.startswith("commit/"):
                    return self._injected("commit") or self._commit(repo_id, repo, rest[len("commit/"):], body)
                if rest.startswith("tag/"):
                    return self._injected("tag") or self._tag(repo, rest[len("tag/"):], json.loads(body))
            self._error(404, f"no route {path}")

        def do_PUT(self):
            path = urlsplit(self.path).path
            hub.log.append(f"PUT {path}")
            data = self._body()
            if path.startswith("/lfs-upload/"):
                if self._injected("lfs_upload"):
                    return
                oid = path.rsplit("/", 1)[1]
                if hashlib.sha256(data).hexdigest() != oid:
                    return self._error(400, "sha256 mismatch")
                hub.lfs[oid] = data
                return self._send(200)
            self._error(404, f"no route {path}")

        # -- endpoints ------------------------------------------------------------------------
        def _create(self, payload: dict):
            if not self._authorised():
                return
            repo_id = f"{payload['organization']}/{payload['name']}" if payload.get("organization") else payload["name"]
            if repo_id in hub.repos:
                return self._error(409, "You already created this dataset repo", "RepoExists")
            private = payload.get("visibility") == "private" or bool(payload.get("private"))
            repo = hub.repos[repo_id] = Repo(private=private)
            initial = {".gitattributes": b"*.parquet filter=lfs diff=lfs merge=lfs -text\n"}
            oid = hashlib.sha1(f"{repo_id} initial".encode()).hexdigest()
            repo.commits[oid], repo.branches["main"] = initial, oid  # as the Hub does: one initial commit
            self._json(200, {"url": f"{hub.endpoint}/datasets/{repo_id}", "name": repo_id})

        def _info(self, repo_id: str, repo: Repo, revision: str):
            commit = repo.resolve(revision)
            if commit is None:
                return self._error(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            files = repo.commits[commit]
            self._json(200, {"_id": repo_id, "id": repo_id, "author": repo_id.split("/")[0], "sha": commit,
                             "private": repo.private, "disabled": False, "gated": False, "downloads": 0, "likes": 0,
                             "tags": [], "lastModified": "2026-01-01T00:00:00.000Z", "createdAt": "2026-01-01T00:00:00.000Z",
                             "siblings": [{"rfilename": p} for p in sorted(files)]})

        def _refs(self, repo: Repo):
            def ref(kind, name, oid):
                return {"name": name, "ref": f"refs/{kind}/{name}", "targetCommit": oid}
            self._json(200, {"branches": [ref("heads", n, o) for n, o in repo.branches.items()],
                             "tags": [ref("tags", n, o) for n, o in repo.tags.items()],
                             "converts": [], "pullRequests": []})

        def _entry(self, repo: Repo, path: str, data: bytes) -> dict:
            entry = {"type": "file", "oid": git_blob_sha1(data), "size": len(data), "path": path}
            if path in repo.lfs_paths:
                entry["lfs"] = {"oid": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
            return entry

        def _tree(self, repo: Repo, revision: str, sub: str, *, recursive: bool):
            commit = repo.resolve(revision)
            if commit is None:
                return self._error(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            files = repo.commits[commit]
            prefix = f"{sub.strip('/')}/" if sub.strip("/") else ""
            if prefix and not any(p.startswith(prefix) for p in files):
                return self._error(404, f"{sub} not found", "EntryNotFound")
            entries, folders = [], set()
            for p, data in sorted(files.items()):
                if not p.startswith(prefix):
                    continue
                rest = p[len(prefix):]
                if "/" in rest and not recursive:
                    folders.add(prefix + rest.split("/", 1)[0])
                    continue
                if recursive:
                    parts = rest.split("/")[:-1]
                    folders.update(prefix + "/".join(parts[:i + 1]) for i in range(len(parts)))
                entries.append(self._entry(repo, p, data))
            entries += [{"type": "directory", "oid": hashlib.sha1(f.encode()).hexdigest(), "size": 0, "path": f} for f in sorted(folders)]
            self._json(200, entries)

        def _paths_info(self, repo: Repo, revision: str, body: bytes):
            commit = repo.resolve(revision)
            if commit is None:
                return self._error(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            ctype = self.headers.get("Content-Type", "")
            if "json" in ctype:
                paths = json.loads(body).get("paths", [])
            else:
                paths = parse_qs(body.decode()).get("paths", [])
            files = repo.commits[commit]
            out = []
            for p in paths:
                if p in files:
                    out.append(self._entry(repo, p, files[p]))
                elif any(f.startswith(p.rstrip("/") + "/") for f in files):
                    out.append({"type": "directory", "oid": hashlib.sha1(p.encode()).hexdigest(), "size": 0, "path": p})
            self._json(200, out)

        def _resolve(self, repo: Repo, revision: str, name: str):
            commit = repo.resolve(revision)
            if commit is None:
                return self._error(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            data = repo.commits[commit].get(name)
            if data is None:
                return self._error(404, "Entry not found", "EntryNotFound")
            etag = hashlib.sha256(data).hexdigest() if name in repo.lfs_paths else git_blob_sha1(data)
            headers = {"X-Repo-Commit": commit, "ETag": f'"{etag}"', "Accept-Ranges": "bytes"}
            if name in repo.lfs_paths:
                headers.update({"X-Linked-Etag": f'"{etag}"', "X-Linked-Size": str(len(data))})
            span = self.headers.get("Range")
            if span and span.startswith("bytes="):
                start_s, _, end_s = span[len("bytes="):].partition("-")
                start = int(start_s) if start_s else max(0, len(data) - int(end_s))
                end = min(int(end_s), len(data) - 1) if start_s and end_s else len(data) - 1
                headers["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
                return self._send(206, data[start:end + 1], headers, "application/octet-stream")
            self._send(200, data, headers, "application/octet-stream")

        def _preupload(self, repo: Repo, payload: dict):
            files = [{"path": f["path"], "uploadMode": "lfs" if f["path"].endswith(LFS_SUFFIXES) else "regular",
                      "shouldIgnore": False, "oid": None} for f in payload["files"]]
            self._json(200, {"files": files, "commitOid": repo.branches.get("main")})

        def _lfs_batch(self, payload: dict):
            objects = []
            for obj in payload["objects"]:
                entry = {"oid": obj["oid"], "size": obj["size"], "authenticated": True}
                if obj["oid"] not in hub.lfs:  # already stored: no actions, the client skips it
                    entry["actions"] = {"upload": {"href": f"{hub.endpoint}/lfs-upload/{obj['oid']}", "header": {}}}
                objects.append(entry)
            self._send(200, json.dumps({"transfer": "basic", "objects": objects}).encode(),
                       ctype="application/vnd.git-lfs+json")

        def _commit(self, repo_id: str, repo: Repo, revision: str, body: bytes):
            branch = unquote(revision)
            lines = [json.loads(line) for line in body.splitlines() if line.strip()]
            if not lines or lines[0].get("key") != "header":
                return self._error(400, "commit payload must start with a header line")
            parent = repo.branches.get(branch)
            files = dict(repo.commits.get(parent, {})) if parent else {}
            for line in lines[1:]:
                key, value = line["key"], line["value"]
                if key == "file":
                    files[value["path"]] = base64.b64decode(value["content"])
                    repo.lfs_paths.discard(value["path"])
                elif key == "lfsFile":
                    data = hub.lfs.get(value["oid"])
                    if data is None:
                        return self._error(422, f"LFS object {value['oid']} was never uploaded")
                    files[value["path"]] = data
                    repo.lfs_paths.add(value["path"])
                elif key == "deletedFile":
                    files.pop(value["path"], None)
                else:
                    return self._error(400, f"unsupported commit operation {key}")
            oid = hashlib.sha1(f"{parent}{time.time_ns()}{sorted(files)}".encode()).hexdigest()
            repo.commits[oid] = files
            repo.branches[branch] = oid
            self._json(200, {"success": True, "commitOid": oid, "commitUrl": f"{hub.endpoint}/datasets/{repo_id}/commit/{oid}"})

        def _tag(self, repo: Repo, revision: str, payload: dict):
            commit = repo.resolve(revision)
            if commit is None:
                return self._error(404, f"Invalid rev id: {revision}", "RevisionNotFound")
            if payload["tag"] in repo.tags:
                return self._error(409, f"Tag {payload['tag']} already exists")
            repo.tags[payload["tag"]] = commit
            self._json(200, {})

    return Handler


SIZE_CATEGORIES = {"n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "10M<n<100M", "100M<n<1B", "1B<n<10B"}
TASK_CATEGORIES = {"multiple-choice", "question-answering", "text-generation", "text-classification", "translation",
                   "summarization", "table-question-answering", "zero-shot-classification"}
MULTILINGUALITY = {"monolingual", "multilingual", "translation", "other"}
CREATORS = {"crowdsourced", "expert-generated", "found", "machine-generated", "no-annotation", "other"}
LICENSES = {"other", "unknown", "apache-2.0", "mit", "cc-by-4.0", "cc-by-sa-4.0", "cc-by-nc-4.0", "cc0-1.0", "odc-by"}


def validate_card(content: str) -> list[str]:
    """What the Hub's /api/validate-yaml rejects in a dataset card, for the keys a release uses."""
    import re

    import yaml

    match = re.match(r"^---\n(.*?)\n---\n", content, re.S)
    if not match:
        return ["README.md has no YAML metadata block"]
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        return [f"YAML: {exc}"]
    errors = []
    if meta.get("license") not in LICENSES:
        errors.append(f'"license" must be a Hub license id, got {meta.get("license")!r}')
    if meta.get("license") == "other" and not (meta.get("license_name") and meta.get("license_link")):
        errors.append('"license: other" needs "license_name" and "license_link"')
    if "license_name" in meta and not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", str(meta["license_name"])):
        errors.append('"license_name" must be a lowercase slug')
    for key, allowed in (("multilinguality", MULTILINGUALITY), ("annotations_creators", CREATORS),
                         ("language_creators", CREATORS)):
        values = meta.get(key, [])
        if not set([values] if isinstance(values, str) else values) <= allowed:
            errors.append(f'"{key}": unknown {values!r}')
    for key in ("tags", "source_datasets"):
        if not all(isinstance(x, str) for x in meta.get(key, [])):
            errors.append(f'"{key}" must be a list of strings')
    if not all(isinstance(x, str) and re.fullmatch(r"[a-z]{2,3}", x) for x in meta.get("language", [])):
        errors.append('"language" must be a list of ISO 639 codes')
    if not set(meta.get("task_categories", [])) <= TASK_CATEGORIES:
        errors.append(f'"task_categories": unknown {sorted(set(meta["task_categories"]) - TASK_CATEGORIES)}')
    if not set(meta.get("size_categories", [])) <= SIZE_CATEGORIES:
        errors.append(f'"size_categories": unknown {meta.get("size_categories")}')
    if "pretty_name" in meta and not isinstance(meta["pretty_name"], str):
        errors.append('"pretty_name" must be a string')
    for config in meta.get("configs", []):
        files = config.get("data_files") if isinstance(config, dict) else None
        if not isinstance(config.get("config_name"), str) or not isinstance(files, (str, list)):
            errors.append(f'"configs": each needs config_name and data_files, got {config!r}')
        elif isinstance(files, list) and not all(isinstance(f, dict) and {"split", "path"} <= set(f) for f in files):
            errors.append(f'"configs.{config["config_name"]}.data_files": entries need split and path')
    infos = meta.get("dataset_info", [])
    for info in infos if isinstance(infos, list) else [infos]:
        if not isinstance(info.get("features"), list):
            errors.append('"dataset_info.features" must be a list')
    return errors


def _split_repo(rest: str) -> tuple[str, str]:
    parts = rest.split("/", 2)
    return "/".join(parts[:2]), parts[2] if len(parts) > 2 else ""


def start_hub(token: str, host: str = "127.0.0.1", port: int = 0) -> tuple[HubServer, ThreadingHTTPServer]:
    hub = HubServer(token=token)
    server = ThreadingHTTPServer((host, port), _handler(hub))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    hub.endpoint = f"http://{host}:{server.server_address[1]}"
    return hub, server


def main(argv: list[str] | None = None) -> int:
    """`python -m pipeline.devkit.hub_standin [--host H] [--port N] [--token T] [--until-stdin-closes]`:
    prints the endpoint URL first, serves until Ctrl-C (or until stdin closes)."""
    import argparse
    import os
    import sys

    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.hub_standin",
                                     description="An in-memory Hugging Face Hub for offline publish/load/verify.")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free one; the URL is printed)")
    parser.add_argument("--token", default=os.environ.get("HF_TOKEN"), help="the token writes need (default $HF_TOKEN)")
    parser.add_argument("--until-stdin-closes", action="store_true", help="stop when stdin closes, not on Ctrl-C")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token (or set HF_TOKEN): writes are refused without the token the server expects")
    hub, server = start_hub(args.token, args.host, args.port)
    print(hub.endpoint, flush=True)
    try:
        if args.until_stdin_closes:
            sys.stdin.read()
        else:
            print("Hub stand-in serving (in memory); Ctrl-C stops it", file=sys.stderr, flush=True)
            threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
        server.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
