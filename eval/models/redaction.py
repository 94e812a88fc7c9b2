"""Credentials out of every string a run stores or prints.

A service may echo what it was sent (a proxy's error page, a debugging endpoint, a 200 with the
request in its body), and a URL may carry user:password@. So the key is not only kept out of the
request we record: every record written to a run folder and every message printed goes through
`redact`, which replaces the known key values (read from the environment variables a run names)
and anything shaped like a credential: an Authorization / x-goog-api-key / api-key value, a Bearer
or Basic token, a URL's userinfo password, a `key=` query parameter.
"""
from __future__ import annotations

import os
import re
from typing import Iterable

from pydantic import BaseModel

REDACTED = "[redacted]"
# A value this short would blank out ordinary words of the answers; such a key is no key anyway.
MIN_SECRET_LENGTH = 6
# The variables the API backends read when a run names none (eval.backends.registry).
DEFAULT_KEY_VARIABLES = ("OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")

_HEADER_VALUE = re.compile(
    r"(?i)(\b(?:proxy-)?authorization|\bx-goog-api-key|\bx-api-key|\bapi-key|\bapi_key)(\"?'?\s*[:=]\s*\"?'?)"
    r"(?:(?:bearer|basic|token)\s+)?[^\s\"',;}&]+"
)
# A token, not a word ("basic understanding"): it has a digit, as keys and base64 pairs nearly always do.
_SCHEME_TOKEN = re.compile(r"(?i)\b(bearer|basic)\s+(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{8,}")
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^/\s:@]*):[^/\s@]*@")
_QUERY_KEY = re.compile(r"(?i)([?&](?:key|api_key|api-key|access_token)=)[^&\s\"'#]+")


def secret_values(variables: Iterable[str | None] = ()) -> tuple[str, ...]:
    """The values of the named environment variables and of the backends' default key variables."""
    names = {name for name in (*variables, *DEFAULT_KEY_VARIABLES) if name}
    values = {os.environ.get(name, "") for name in names}
    return tuple(sorted((v for v in values if len(v) >= MIN_SECRET_LENGTH), key=len, reverse=True))


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    for secret in secrets:
        if secret and len(secret) >= MIN_SECRET_LENGTH:
            text = text.replace(secret, REDACTED)
    text = _HEADER_VALUE.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    text = _SCHEME_TOKEN.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = _URL_PASSWORD.sub(lambda m: f"{m.group(1)}:{REDACTED}@", text)
    return _QUERY_KEY.sub(lambda m: f"{m.group(1)}{REDACTED}", text)


def redact(value, secrets: Iterable[str] = ()):
    """`value` (a string, dicts and lists of them, as a JSON record is, or a pydantic record) with
    credentials replaced."""
    secrets = tuple(secrets)
    if isinstance(value, str):
        return redact_text(value, secrets)
    if isinstance(value, dict):
        return {redact(k, secrets) if isinstance(k, str) else k: redact(v, secrets) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(redact(v, secrets) for v in value)
    if isinstance(value, BaseModel):  # a typed run-folder record (eval.log.records): its fields, extra ones included
        return type(value).model_validate(redact(value.model_dump(exclude_unset=True), secrets))  # unset stays unset
    return value
