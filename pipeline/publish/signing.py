"""A release's manifest signed by its publisher's key (Ed25519), so a release is verifiable by more than its own word.

`manifest.json` and `SHA256SUMS` list every file's SHA-256, but whoever can rewrite a file can rewrite both
listings to match it. The publisher's Ed25519 signature over the exact bytes of `manifest.json` is what they
cannot make: it is `manifest.json.sig` (the 64 raw bytes, so `openssl pkeyutl -verify -pubin -inkey KEY.pub
-rawin -in manifest.json -sigfile manifest.json.sig` checks it without this tool), and the public key is named
in the manifest (`signature`) and in the card. A key named by the release itself only says the manifest was not
changed after it was signed; who signed it is checked against a key the researcher holds from elsewhere
(`examcorpus verify --key publisher.pub`), and that fails on any rewritten manifest however its key was swapped.

Keys are PEM files: `examcorpus release-key --out NAME` writes `NAME.key` (PKCS#8, readable by its owner only,
encrypted when `EXAMCORPUS_SIGNING_PASSPHRASE` is set) and `NAME.pub` (SubjectPublicKeyInfo). A public key may also
be given as the base64 line the card shows. The private key is read only to sign: no release file, message or
error holds any of its bytes (an error names the file and what is wrong with it, never its content).
"""
from __future__ import annotations

import base64
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pipeline.infra import read_small_file
from pipeline.publish.layout import SIGNATURE_NAME

ALGORITHM = "ed25519"
PASSPHRASE_ENV = "EXAMCORPUS_SIGNING_PASSPHRASE"
MAX_KEY_FILE_BYTES = 64 * 1024  # a PEM key is a few hundred bytes; anything larger is no key file
SIGNATURE_BYTES = 64


# How the card names the key (`card`), and how `verify` reads it back to compare with the manifest's.
CARD_KEY_LINE = "Signing key (Ed25519, base64): `{key}` (fingerprint `{fingerprint}`)."
CARD_KEY = re.compile(r"Signing key \(Ed25519, base64\): `([^`]*)`")


class SigningError(ValueError):
    """A key that cannot be read or used; the message never holds the key file's bytes."""


@dataclass(frozen=True)
class PublicKey:
    raw: bytes  # the 32 bytes of the Ed25519 public key

    @property
    def text(self) -> str:
        """The key as the manifest and the card name it: base64 of its 32 bytes."""
        return base64.b64encode(self.raw).decode("ascii")

    @property
    def fingerprint(self) -> str:
        """`SHA256:` and the first 32 hex digits of the raw key's SHA-256: short enough to read aloud."""
        return "SHA256:" + hashlib.sha256(self.raw).hexdigest()[:32]

    def manifest_entry(self) -> dict:
        return {"algorithm": ALGORITHM, "public_key": self.text, "fingerprint": self.fingerprint, "file": SIGNATURE_NAME}


def _key_file_bytes(path: Path, what: str) -> bytes:
    """A key file's bytes: a regular file of at most `MAX_KEY_FILE_BYTES` (a pipe named by mistake would hold the read)."""
    try:
        return read_small_file(path, MAX_KEY_FILE_BYTES)
    except OSError as exc:
        raise SigningError(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None


class SigningKey:
    """The publisher's private key, read from a PEM file; it signs and names its public half, nothing else."""

    def __init__(self, path: Path):
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        data = _key_file_bytes(Path(path), "signing key")
        passphrase = os.environ.get(PASSPHRASE_ENV)
        try:
            key = load_pem_private_key(data, password=passphrase.encode() if passphrase else None)
        except TypeError:  # encrypted without a passphrase given, or a passphrase for an unencrypted key
            raise SigningError(f"{path}: the signing key is {'not ' if passphrase else ''}encrypted; "
                               f"{'unset' if passphrase else 'set'} {PASSPHRASE_ENV}") from None
        except Exception:  # a wrong passphrase, not PEM, a damaged key: say so without echoing what was read
            raise SigningError(f"{path}: not a PEM private key this tool can read (or the passphrase in "
                               f"{PASSPHRASE_ENV} is wrong)") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise SigningError(f"{path}: a {type(key).__name__.lstrip('_')}, not an Ed25519 key "
                               "(make one with `examcorpus release-key`)")
        self._key = key
        self.public = PublicKey(_raw_public(key.public_key()))

    def sign(self, data: bytes) -> bytes:
        return self._key.sign(data)

    def __repr__(self) -> str:  # never the key's bytes, wherever a key object is printed or logged
        return f"SigningKey({self.public.fingerprint})"


def _raw_public(key) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def read_public_key(path: Path) -> PublicKey:
    """A public key file: PEM (`-----BEGIN PUBLIC KEY-----`) or the base64 line a card or manifest shows."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from cryptography.hazmat.primitives.serialization import load_pem_public_key

    data = _key_file_bytes(Path(path), "public key")
    if b"PRIVATE KEY" in data:
        raise SigningError(f"{path}: a private key; `verify --key` takes the public one (NAME.pub)")
    if b"-----BEGIN" in data:
        try:
            key = load_pem_public_key(data)
        except Exception:
            raise SigningError(f"{path}: not a PEM public key") from None
        if not isinstance(key, Ed25519PublicKey):
            raise SigningError(f"{path}: a {type(key).__name__.lstrip('_')}, not an Ed25519 public key")
        return PublicKey(_raw_public(key))
    public = public_key_from_text(data.decode("ascii", "replace").strip())
    if public is None:
        raise SigningError(f"{path}: neither a PEM public key nor the base64 of an Ed25519 key's 32 bytes")
    return public


def public_key_from_text(text: object) -> PublicKey | None:
    """The key a manifest names (base64 of 32 bytes), or None where the text is not one."""
    if not isinstance(text, str):
        return None
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError:
        return None
    return PublicKey(raw) if len(raw) == 32 else None


def signature_valid(public: PublicKey, data: bytes, signature: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if len(signature) != SIGNATURE_BYTES:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public.raw).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


def write_key_pair(out: Path) -> tuple[Path, Path]:
    """`OUT.key` (private, mode 0600, never overwritten) and `OUT.pub`; encrypted when the passphrase variable is set."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (BestAvailableEncryption, Encoding, NoEncryption,
                                                              PrivateFormat, PublicFormat)

    private_path, public_path = Path(f"{out}.key"), Path(f"{out}.pub")
    for path in (private_path, public_path):
        if path.exists():
            raise SigningError(f"{path}: exists; a key pair is never overwritten")
    key = Ed25519PrivateKey.generate()
    passphrase = os.environ.get(PASSPHRASE_ENV)
    encryption = BestAvailableEncryption(passphrase.encode()) if passphrase else NoEncryption()
    private_pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, encryption)
    private_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never readable by others, not even briefly
    with os.fdopen(fd, "wb") as handle:
        handle.write(private_pem)
    public_path.write_bytes(key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo))
    return private_path, public_path


__all__ = ["ALGORITHM", "CARD_KEY", "CARD_KEY_LINE", "PASSPHRASE_ENV", "PublicKey", "SigningError", "SigningKey", "public_key_from_text",
           "read_public_key", "signature_valid", "write_key_pair"]
