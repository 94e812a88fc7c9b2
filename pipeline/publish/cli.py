"""`examcorpus publish`: a split → an immutable release in a local folder (`--to DIR`) or on the Hub (`--repo`).
`examcorpus verify RELEASE`: a release folder or `hf://OWNER/NAME@TAG` checked byte for byte."""
from __future__ import annotations

import sys
from pathlib import Path

from pipeline.infra import add_command


def register(subparsers) -> None:
    p = add_command(
        subparsers, "publish", _cmd_publish,
        help="publish one split as an immutable release: a local folder (--to) or a Hub dataset repo (--repo)",
        description="Writes Parquet per config and split (figures inside, as images), a dataset card (README.md), "
        "manifest.json (every file's and figure's SHA-256, the source PDFs, the split rule, errata since the previous "
        "release), SHA256SUMS and exports (lm-eval task YAML, an Inspect AI task, LLMzSzŁ JSONL). A release id is never overwritten. The public split goes only to public "
        "targets and the private split only to private ones.",
    )
    p.add_argument("--split-dir", type=Path, default=Path("build/split"), help="split folder (default build/split/)")
    p.add_argument("--split", choices=("public", "private"), default="public", help="which split to publish (default public)")
    p.add_argument("--release", help="release id, e.g. v2026.1 (default: v<UTC date>)")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--to", type=Path, help="local release folder (must not hold a release already)")
    target.add_argument("--repo", help="Hub dataset repo ORG/NAME (token from HF_TOKEN or the HF cache)")
    p.add_argument("--previous", type=Path, help="previous release folder, for the errata (default: the newest "
                   "release beside --to, or the release main holds on --repo)")
    p.add_argument("--name", default="examcorpus", help="dataset name in the card and manifest")
    p.add_argument("--images-root", type=Path, default=Path("."), help="folder the records' figure paths are "
                   "relative to (default: the current folder, the project root holding raw/figures/)")
    p.add_argument("--license", default="other", help="Hub license id for the card (default: other; exam texts "
                   "belong to their publishers)")
    p.add_argument("--license-name", help="with --license other: the license's short name (default "
                   "exam-publishers-terms)")
    p.add_argument("--license-link", help="with --license other: URL or release file of the terms (default: a "
                   "LICENSE.md written into the release)")
    p.add_argument("--author", action="append", default=[], help="an author for the card's citation (repeat for "
                   "several; default: '<name> contributors')")
    p.add_argument("--url", help="homepage cited in the card (default: the Hub repo's page with --repo)")
    p.add_argument("--private-target", action="store_true",
                   help="with --to: the folder is a private (access-controlled) target; required for --split private")
    p.add_argument("--sign-key", type=Path, help="the publisher's Ed25519 private key (PEM, from `examcorpus release-key`; "
                   "encrypted ones read EXAMCORPUS_SIGNING_PASSPHRASE): the manifest is signed (manifest.json.sig) and "
                   "its public key named in the manifest and the card")
    p.add_argument("--no-progress", action="store_true")


    v = subparsers.add_parser(
        "verify", help="check a release (folder or hf://OWNER/NAME@TAG): every file and figure against its SHA-256",
        description="Checks every file manifest.json lists (size, SHA-256), that no other file is present, "
        "SHA256SUMS (as `sha256sum -c` does) and each figure inside the Parquet against its SHA-256. A Hub release "
        "is downloaded afresh from HF_ENDPOINT (default huggingface.co). Exit 0 when intact, 1 when not, 2 when "
        "it cannot be read. A signed release's manifest signature is checked against --key (the publisher's public "
        "key, obtained from the publisher), or else against the key the release names, which says nothing of who "
        "signed it; an unsigned release is said so, and fails only with --key.")
    v.add_argument("release", help="a release folder, or hf://OWNER/NAME@TAG")
    v.add_argument("--key", type=Path, help="the publisher's public key (PEM NAME.pub, or the base64 line the card "
                   "shows): the release must be signed by it")
    v.set_defaults(func=_cmd_verify)

    k = subparsers.add_parser(
        "release-key", help="make a publisher's Ed25519 key pair for signing releases (publish --sign-key)",
        description="Writes OUT.key (the private key, PEM PKCS#8, readable by its owner only; encrypted when "
        "EXAMCORPUS_SIGNING_PASSPHRASE is set) and OUT.pub (the public key, PEM), never over existing files. Keep "
        "OUT.key out of the project and of every release; hand OUT.pub to researchers by another channel than the "
        "release itself (a website, a paper), so `examcorpus verify --key OUT.pub` checks who signed it.")
    k.add_argument("--out", type=Path, required=True, help="path and name of the pair, without suffix")
    k.set_defaults(func=_cmd_release_key)


def _cmd_release_key(args) -> int:
    from pipeline.publish.signing import SigningError, read_public_key, write_key_pair

    try:
        private_path, public_path = write_key_pair(args.out)
    except (SigningError, OSError) as exc:
        print(f"examcorpus release-key: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {private_path} (private: keep it secret) and {public_path} "
          f"(public, fingerprint {read_public_key(public_path).fingerprint})")
    return 0


def _cmd_verify(args) -> int:
    from pipeline.publish import VerifyError, verify_location
    from pipeline.publish.signing import SigningError, read_public_key

    try:
        report = verify_location(args.release, key=read_public_key(args.key) if args.key else None)
    except (VerifyError, SigningError) as exc:
        print(f"examcorpus verify: {exc}", file=sys.stderr)
        return 2
    print(report.summary(), file=sys.stdout if report.ok else sys.stderr)
    return 0 if report.ok else 1


def _cmd_publish(args) -> int:
    from pipeline.publish import CardInfo, PublishError, default_release_id, publish_to_folder, publish_to_hub
    from pipeline.publish.signing import SigningError, SigningKey

    release = args.release or default_release_id()
    try:
        signing_key = SigningKey(args.sign_key) if args.sign_key else None
    except SigningError as exc:
        print(f"examcorpus publish: {exc}", file=sys.stderr)
        return 1
    info = CardInfo(authors=tuple(args.author), url=args.url, license_id=args.license, license_name=args.license_name,
                    license_link=args.license_link)
    try:
        if args.to is not None:
            result = publish_to_folder(args.split_dir, args.split, args.to, release_id=release, name=args.name,
                                       previous=args.previous, private_target=args.private_target, info=info,
                                       images_root=args.images_root, show_progress=not args.no_progress,
                                       signing_key=signing_key)
        else:
            result = publish_to_hub(args.split_dir, args.split, args.repo, release_id=release, name=args.name,
                                    previous=args.previous, info=info, images_root=args.images_root,
                                    show_progress=not args.no_progress, signing_key=signing_key)
    except PublishError as exc:
        print(f"examcorpus publish: {exc}", file=sys.stderr)
        return 1
    print(result.summary())
    return 0
