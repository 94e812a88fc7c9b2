"""URLs that may carry credentials (`https://user:password@mirror/`), made fit to write down.

A mirror or proxy behind HTTP Basic is often named with its credentials in the URL (`HF_ENDPOINT`, a
`--base-url`): the URL may be used to connect, but what is printed, raised or written into a file a
release publishes (its card, its manifest) names the site without them.
"""
from __future__ import annotations

import re
import urllib.parse

# scheme://userinfo@, up to the authority's last @ (a password may hold an unescaped one, as urlsplit reads it)
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s]*@")


def without_userinfo(url: str) -> str:
    """`url` with any user:password@ taken out (scheme, host, port, path, query and fragment kept)."""
    parts = urllib.parse.urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urllib.parse.urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def redact_userinfo(text: str) -> str:
    """`text` with the user:password@ of every URL in it replaced by `***@`."""
    return _USERINFO.sub(lambda m: f"{m.group(1)}***@", text)
