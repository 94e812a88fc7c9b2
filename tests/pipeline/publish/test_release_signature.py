"""A release verifiable by more than its own word: the manifest signed by the publisher's Ed25519 key.

The attacks are made as an attacker would make them, on a real release folder: a data file changed and the
manifest and SHA256SUMS rewritten to match it; the same with the manifest re-signed by another key and that key
swapped into the manifest and the card; the signature stripped. `examcorpus verify --key publisher.pub` fails each;
the private key is in no release file and no line the commands print."""
from __future__ import annotations

import base64
import json
import shutil
import subprocess

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.rsa import generate_private_key
from cryptography.hazmat.primitives.serialization import (Encoding, NoEncryption, PrivateFormat, PublicFormat,
                                                          load_pem_private_key)

from pipeline.cli import main
from pipeline.publish.layout import CARD_NAME, MANIFEST_NAME, SIGNATURE_NAME, SUMS_NAME
from pipeline.publish.manifest import sha256_bytes
from pipeline.publish.signing import read_public_key
from pipeline.publish.verify import sums_text
from tests.pipeline.publish.conftest import change_an_answer

OPENSSL = shutil.which("openssl")


@pytest.fixture
def keys(tmp_path, capsys):
    assert main(["release-key", "--out", str(tmp_path / "keys" / "publisher")]) == 0
    capsys.readouterr()
    return tmp_path / "keys" / "publisher.key", tmp_path / "keys" / "publisher.pub"


@pytest.fixture
def signed(tmp_path, split_dir, keys, capsys):
    to = tmp_path / "releases" / "v1"
    assert main(["publish", "--split-dir", str(split_dir), "--to", str(to), "--release", "v1", "--no-progress",
                 "--sign-key", str(keys[0])]) == 0
    return to


def verify(capsys, release, *key) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["verify", str(release), *(("--key", str(key[0])) if key else ())])
    out = capsys.readouterr()
    return code, out.out + out.err


def rewrite_listings(release, manifest: dict | None = None) -> None:
    """What an attacker does after changing files: the manifest's entries and SHA256SUMS made to match them."""
    manifest = manifest or json.loads((release / MANIFEST_NAME).read_text(encoding="utf-8"))
    for entry in manifest["files"]:
        data = (release / entry["path"]).read_bytes()
        entry["sha256"], entry["bytes"] = sha256_bytes(data), len(data)
    (release / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    listed = sorted(p.relative_to(release).as_posix() for p in release.rglob("*") if p.is_file() and p.name != SUMS_NAME)
    (release / SUMS_NAME).write_text(sums_text(release, listed), encoding="utf-8")


def test_a_signed_release_names_its_key_in_manifest_and_card_and_verifies_against_the_publishers_key(signed, keys, capsys):
    public = read_public_key(keys[1])
    manifest = json.loads((signed / MANIFEST_NAME).read_text(encoding="utf-8"))
    assert manifest["signature"] == {"algorithm": "ed25519", "public_key": public.text,
                                     "fingerprint": public.fingerprint, "file": SIGNATURE_NAME}
    assert f"`{public.text}`" in (signed / CARD_NAME).read_text(encoding="utf-8")
    assert SIGNATURE_NAME in (signed / SUMS_NAME).read_text(encoding="utf-8")
    code, out = verify(capsys, signed, keys[1])
    assert code == 0, out
    assert f"signed by the key given ({public.fingerprint})" in out
    code, out = verify(capsys, signed)  # no key: checked against the key it names, and said to be only that
    assert code == 0, out
    assert "the key the release itself names" in out and "not who signed it" in out


@pytest.mark.skipif(OPENSSL is None, reason="needs the openssl command")
def test_openssl_checks_the_signature_with_the_public_key_file_alone(signed, keys):
    done = subprocess.run([OPENSSL, "pkeyutl", "-verify", "-pubin", "-inkey", str(keys[1]), "-rawin",
                           "-in", MANIFEST_NAME, "-sigfile", SIGNATURE_NAME], cwd=signed, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "Signature Verified Successfully" in done.stdout, done.stdout + done.stderr


def test_a_changed_answer_with_manifest_and_sums_rewritten_to_match_fails_verification(signed, keys, capsys):
    rel, _, _ = change_an_answer(signed)
    rewrite_listings(signed)
    assert subprocess.run(["sha256sum", "-c", SUMS_NAME], cwd=signed, capture_output=True).returncode == 0  # the sums agree
    code, out = verify(capsys, signed, keys[1])
    assert code == 1, out
    assert f"{SIGNATURE_NAME}: not a signature of {MANIFEST_NAME} by the key given" in out
    assert rel not in out.split("not a signature")[0]  # the data file itself matches the rewritten listings
    code, out = verify(capsys, signed)  # without a key too: the manifest no longer matches the key it names
    assert code == 1 and "by the key the manifest names" in out, out


def test_a_manifest_re_signed_with_another_key_swapped_into_manifest_and_card_fails_against_the_publishers_key(
        signed, keys, capsys):
    change_an_answer(signed)
    attacker = Ed25519PrivateKey.generate()
    attacker_text = base64.b64encode(attacker.public_key().public_bytes(Encoding.Raw, format=PublicFormat.Raw)).decode()
    publisher = read_public_key(keys[1])
    card = (signed / CARD_NAME).read_text(encoding="utf-8").replace(publisher.text, attacker_text)
    (signed / CARD_NAME).write_text(card, encoding="utf-8")
    manifest = json.loads((signed / MANIFEST_NAME).read_text(encoding="utf-8"))
    manifest["signature"]["public_key"] = attacker_text
    rewrite_listings(signed, manifest)
    (signed / SIGNATURE_NAME).write_bytes(attacker.sign((signed / MANIFEST_NAME).read_bytes()))
    rewrite_listings(signed)  # the new signature's digest in SHA256SUMS
    code, out = verify(capsys, signed)
    assert code == 0 and "not who signed it" in out, out  # consistent in itself: only the publisher's key can tell
    code, out = verify(capsys, signed, keys[1])
    assert code == 1, out
    assert "names the signing key" in out and f"not the key given ({publisher.fingerprint})" in out
    assert f"not a signature of {MANIFEST_NAME} by the key given" in out


def test_a_key_swapped_into_the_manifest_but_not_the_card_fails_even_without_a_key(signed, keys, capsys):
    attacker = Ed25519PrivateKey.generate()
    manifest = json.loads((signed / MANIFEST_NAME).read_text(encoding="utf-8"))
    manifest["signature"]["public_key"] = base64.b64encode(
        attacker.public_key().public_bytes(Encoding.Raw, format=PublicFormat.Raw)).decode()
    rewrite_listings(signed, manifest)
    (signed / SIGNATURE_NAME).write_bytes(attacker.sign((signed / MANIFEST_NAME).read_bytes()))
    rewrite_listings(signed)
    code, out = verify(capsys, signed)
    assert code == 1, out
    assert f"{CARD_NAME}: names {read_public_key(keys[1]).fingerprint} as the signing key" in out


def test_a_stripped_signature_is_said_unsigned_and_fails_where_the_publishers_key_is_given(signed, keys, capsys):
    change_an_answer(signed)
    (signed / SIGNATURE_NAME).unlink()
    manifest = json.loads((signed / MANIFEST_NAME).read_text(encoding="utf-8"))
    del manifest["signature"]
    rewrite_listings(signed, manifest)
    code, out = verify(capsys, signed)
    assert code == 0 and "unsigned" in out, out  # not an error unless a key is required
    code, out = verify(capsys, signed, keys[1])
    assert code == 1 and "unsigned" in out and read_public_key(keys[1]).fingerprint in out, out


def test_a_signature_file_left_with_its_key_taken_out_of_the_manifest_fails(signed, capsys):
    manifest = json.loads((signed / MANIFEST_NAME).read_text(encoding="utf-8"))
    del manifest["signature"]
    rewrite_listings(signed, manifest)
    code, out = verify(capsys, signed)
    assert code == 1 and f"a signature, but {MANIFEST_NAME} names no signing key" in out, out


def test_an_unsigned_release_says_so_and_fails_only_when_a_key_is_required(tmp_path, split_dir, keys, capsys):
    to = tmp_path / "releases" / "v1"
    assert main(["publish", "--split-dir", str(split_dir), "--to", str(to), "--release", "v1", "--no-progress"]) == 0
    assert "signature" not in json.loads((to / MANIFEST_NAME).read_text(encoding="utf-8"))
    assert not (to / SIGNATURE_NAME).exists()
    code, out = verify(capsys, to)
    assert code == 0 and "unsigned" in out, out
    code, out = verify(capsys, to, keys[1])
    assert code == 1 and "unsigned" in out, out


def test_the_private_key_is_in_no_release_file_and_no_line_printed(tmp_path, split_dir, capsys):
    out = tmp_path / "keys" / "publisher"
    assert main(["release-key", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    pem = (tmp_path / "keys" / "publisher.key").read_bytes()
    assert (tmp_path / "keys" / "publisher.key").stat().st_mode & 0o077 == 0  # readable by its owner only
    seed = load_pem_private_key(pem, None).private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    secrets = [seed, base64.b64encode(seed), seed.hex().encode(), *(line for line in pem.splitlines()[1:-1])]
    to = tmp_path / "releases" / "v1"
    assert main(["publish", "--split-dir", str(split_dir), "--to", str(to), "--release", "v1", "--no-progress",
                 "--sign-key", str(tmp_path / "keys" / "publisher.key")]) == 0
    code, said = verify(capsys, to, tmp_path / "keys" / "publisher.pub")
    assert code == 0, said
    assert main(["verify", str(to), "--key", str(tmp_path / "keys" / "publisher.key")]) == 2  # the private one, by mistake
    errors = capsys.readouterr()
    assert "a private key; `verify --key` takes the public one" in errors.err
    shown = (printed.out + printed.err + said + errors.out + errors.err).encode()
    for path in [p for p in to.rglob("*") if p.is_file()]:
        data = path.read_bytes()
        assert not any(secret in data for secret in secrets), f"{path.name} holds the private key"
    assert not any(secret in shown for secret in secrets)


def test_keys_it_cannot_use_are_refused_without_echoing_them(tmp_path, split_dir, capsys, monkeypatch):
    rsa = generate_private_key(public_exponent=65537, key_size=2048)
    rsa_pem = rsa.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    (tmp_path / "rsa.key").write_bytes(rsa_pem)
    monkeypatch.setenv("EXAMCORPUS_SIGNING_PASSPHRASE", "correct horse")
    assert main(["release-key", "--out", str(tmp_path / "locked")]) == 0
    monkeypatch.delenv("EXAMCORPUS_SIGNING_PASSPHRASE")
    capsys.readouterr()
    to = tmp_path / "releases" / "v1"
    for key, said in ((tmp_path / "rsa.key", "not an Ed25519 key"),
                      (tmp_path / "locked.key", "is encrypted; set EXAMCORPUS_SIGNING_PASSPHRASE")):
        assert main(["publish", "--split-dir", str(split_dir), "--to", str(to), "--release", "v1", "--no-progress",
                     "--sign-key", str(key)]) == 1
        err = capsys.readouterr().err
        assert said in err and "BEGIN" not in err and not to.exists()
        assert not any(line.decode() in err for line in key.read_bytes().splitlines()[1:-1])
    monkeypatch.setenv("EXAMCORPUS_SIGNING_PASSPHRASE", "correct horse")  # the right passphrase: it signs
    assert main(["publish", "--split-dir", str(split_dir), "--to", str(to), "--release", "v1", "--no-progress",
                 "--sign-key", str(tmp_path / "locked.key")]) == 0
    code, out = verify(capsys, to, tmp_path / "locked.pub")
    assert code == 0, out
    assert main(["release-key", "--out", str(tmp_path / "locked")]) == 1  # a pair is never overwritten
    assert "never overwritten" in capsys.readouterr().err


def test_a_signed_hub_release_verifies_by_tag_against_the_publishers_key_and_a_rewritten_manifest_there_fails(
        hub, split_dir, keys, capsys):
    assert main(["publish", "--split-dir", str(split_dir), "--repo", "examcorpus/bench", "--release", "v1",
                 "--no-progress", "--sign-key", str(keys[0])]) == 0
    code, out = verify(capsys, "hf://examcorpus/bench@v1", keys[1])
    assert code == 0 and f"signed by the key given ({read_public_key(keys[1]).fingerprint})" in out, out
    [files] = [f for f in hub.repos["examcorpus/bench"].commits.values() if MANIFEST_NAME in f]  # the release commit
    manifest = json.loads(files[MANIFEST_NAME])
    manifest["added_since_previous"] = 99  # any rewrite; SHA256SUMS made to match it
    files[MANIFEST_NAME] = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode()
    sums = [f"{sha256_bytes(files[MANIFEST_NAME])}  {MANIFEST_NAME}" if line.endswith(f"  {MANIFEST_NAME}") else line
            for line in files[SUMS_NAME].decode().splitlines()]
    files[SUMS_NAME] = ("\n".join(sums) + "\n").encode()
    code, out = verify(capsys, "hf://examcorpus/bench@v1", keys[1])
    assert code == 1 and f"not a signature of {MANIFEST_NAME} by the key given" in out, out


def test_a_pipe_named_as_the_key_and_a_signature_file_of_any_size_are_lines_not_hangs_or_tracebacks(
        signed, keys, tmp_path, capsys):
    import os

    os.mkfifo(tmp_path / "pipe.pub")  # no writer: opening it to read would wait for ever
    assert main(["verify", str(signed), "--key", str(tmp_path / "pipe.pub")]) == 2
    assert "not a regular file" in capsys.readouterr().err
    (signed / SIGNATURE_NAME).write_bytes(b"\0" * 4096)  # past any signature's size
    rewrite_listings(signed)
    code, out = verify(capsys, signed, keys[1])
    assert code == 1 and f"{SIGNATURE_NAME}: unreadable" in out and "over the 1,024 bytes allowed" in out, out
