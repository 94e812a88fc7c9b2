"""Publish: immutable releases (Parquet per config and split, dataset card, manifest) on the Hub.

Input: a split folder (`pipeline.split`). Output: a release folder and, for the Hub, a commit plus tag.
A release holds one split: `data/<config>/<split>.parquet` (figures inside, as `datasets` images),
`README.md` (card with Hub YAML; the split is called `test` there), `manifest.json` (files and figures
with SHA-256, source PDFs, pipeline version, split rule, errata), `manifest.json.sig` (with a signing key: the
publisher's Ed25519 signature of the manifest, `signing`), `SHA256SUMS` (`sha256sum -c`),
`LICENSE.md` (with `license: other`) and `exports/` (lm-eval tasks, an Inspect AI task, LLMzSzŁ JSONL). The public split goes only to public targets and
the private split only to private ones, whatever the flags.

Public functions:
- `publish_to_folder(split_dir, split, to, release_id=…)`: a local release `datasets.load_dataset(to, config)` reads.
- `publish_to_hub(split_dir, split, repo_id, release_id=…)`: commit + tag `release_id` on a Hub dataset repo.
- `build_release(...)`: the release files into an empty folder; `CardInfo`: authors, URL, license for the card.
- `verify_location("DIR" | "hf://OWNER/NAME@TAG", key=)` → `VerifyReport`; `verify_release(dir)`: its problems.
- `signing.SigningKey(path)` (publish's `signing_key=`), `signing.read_public_key(path)` (verify's `key=`),
  `signing.write_key_pair(out)`.
- `clean_stale_staging(parent)`: remove staging folders of killed publishes (`staging`); `publish_to_folder` calls it.
- `default_release_id()`, `config_names(questions)`, `errata(previous, current)`; `PublishError` for refusals.
- `register(subparsers)`: the `examcorpus publish`, `examcorpus verify` and `examcorpus release-key` commands.
"""
from pipeline.publish.card import CardInfo
from pipeline.publish.cli import register
from pipeline.publish.hub import publish_to_hub
from pipeline.publish.layout import COMPRESSION, ROW_GROUP_ROWS, config_names, parquet_bytes
from pipeline.publish.manifest import Erratum, errata
from pipeline.publish.release import PublishError, PublishResult, build_release, default_release_id, publish_to_folder
from pipeline.publish.staging import clean_stale_staging
from pipeline.publish.verify import VerifyError, VerifyReport, verify_location, verify_release

__all__ = [
    "COMPRESSION", "ROW_GROUP_ROWS", "CardInfo", "Erratum", "PublishError", "PublishResult", "VerifyError",
    "VerifyReport", "build_release", "clean_stale_staging", "config_names", "default_release_id", "errata", "parquet_bytes",
    "publish_to_folder", "publish_to_hub", "register", "verify_location", "verify_release",
]
