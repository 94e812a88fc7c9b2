"""Which hosts the downloader may contact, and the credentials a `--base-url` may carry.

An index page is written by someone else: a link it gives may lead anywhere, including the
machine's own services (127.0.0.1, 169.254.169.254 cloud metadata, a 10.x intranet). Links are
therefore followed only to hosts the spec names (its base_url, its index-page and template hosts,
`download.allowed_hosts`) or `--base-url` names; a redirect may leave those hosts (archive sites
redirect to CDNs) but never to a loopback, link-local or private address. A redirect target's name
is resolved once, here, and the connection goes to the address that was checked (`RedirectVerdict`):
a name resolved again at connect time could answer differently (DNS rebinding) and pass the check.
"""
from __future__ import annotations

import base64
import ipaddress
import socket
import string
import urllib.parse
from dataclasses import dataclass
from typing import Callable

from pipeline.acquire.httpclient import RedirectVerdict
from pipeline.specs import DownloadSpec

Resolver = Callable[[str], list[str]]  # host name -> its IP addresses, in the order to try them


def system_resolver(host: str) -> list[str]:
    infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    return [info[4][0].split("%")[0] for info in infos]


def split_credentials(url: str) -> tuple[str, str | None]:
    """(the URL without user:password@, an HTTP Basic Authorization value or None)."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is None and parts.password is None:
        return url, None
    netloc = parts.hostname or ""
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if parts.port is not None:
        netloc += f":{parts.port}"
    clean = urllib.parse.urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    user = urllib.parse.unquote(parts.username or "")
    password = urllib.parse.unquote(parts.password or "")
    return clean, "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


def redact(text: str, url: str | None) -> str:
    """`text` with the user:password@ of `url` replaced, for messages that might echo it."""
    if not url:
        return text
    parts = urllib.parse.urlsplit(url)
    if parts.password is None and parts.username is None:
        return text
    userinfo = parts.netloc.rsplit("@", 1)[0]
    return text.replace(userinfo + "@", "***@")


def host_of(url: str) -> str | None:
    try:
        return urllib.parse.urlsplit(url).hostname
    except ValueError:
        return None


def _template_host(template: str) -> str | None:
    """The literal host of a template such as 'https://cdn.example.org/{year}/'; None for '{base_url}/…'."""
    names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
    return None if "base_url" in names else host_of(template.format_map({n: "0" for n in names}))


def address_problem(host: str, *, resolve: bool = True, resolver: Resolver | None = None) -> str | None:
    """Why `host` is an internal address (loopback, link-local, private, reserved), or None.

    A name is looked up in DNS only with `resolve`; an IP literal is judged as it is.
    """
    return _checked(host, resolve=resolve, resolver=resolver)[0]


def _checked(host: str, *, resolve: bool, resolver: Resolver | None) -> tuple[str | None, list[str]]:
    """(why `host` is internal or None, the addresses that were judged)."""
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        if not resolve:
            return None, []
        try:
            addresses = [ipaddress.ip_address(a) for a in (resolver or system_resolver)(host)]
        except (OSError, UnicodeError, ValueError):
            return None, []  # it will fail to connect with its own clear message
    for address in addresses:
        for kind in ("loopback", "link_local", "private", "multicast", "unspecified", "reserved"):
            if getattr(address, f"is_{kind}"):
                shown = host if str(address) == host else f"{host} ({address})"
                return f"{shown} is a {kind.replace('_', '-')} address", [str(a) for a in addresses]
    return None, [str(a) for a in addresses]


@dataclass(frozen=True)
class HostPolicy:
    hosts: frozenset[str]  # named by the spec or --base-url: links may lead there, private or not
    resolver: Resolver | None = None  # None: the system's (socket.getaddrinfo)

    @classmethod
    def for_spec(cls, settings: DownloadSpec, base_url: str) -> "HostPolicy":
        named = {host_of(settings.base_url), host_of(base_url), *settings.allowed_hosts}
        named |= {_template_host(t) for t in settings.index_pages + settings.url_templates}
        return cls(frozenset(h.lower() for h in named if h))

    def link_problem(self, url: str) -> str | None:
        """Why a link found on an index page is not followed, or None."""
        host = (host_of(url) or "").lower()
        if host in self.hosts:
            return None
        internal = address_problem(host, resolve=False)  # refused anyway: a DNS lookup would only slow the scrape
        why = f"{internal}, and" if internal else f"host {host}"
        return (
            f"{why} is not one of the spec's hosts ({', '.join(sorted(self.hosts))}); "
            "name it in download.allowed_hosts to fetch it"
        )

    def redirect_problem(self, url: str) -> str | None:
        """Why a redirect target is refused: it leaves the named hosts for an internal address."""
        return self.check_redirect(url).problem

    def check_redirect(self, url: str) -> RedirectVerdict:
        """Whether a redirect target may be fetched and, for a name outside the named hosts, the
        address it was judged by: the connection must go there, not to a second lookup."""
        host = (host_of(url) or "").lower()
        if host in self.hosts:
            return RedirectVerdict()
        internal, addresses = _checked(host, resolve=True, resolver=self.resolver)
        if internal is not None:
            return RedirectVerdict(problem=f"redirect to {url} refused: {internal} that the spec does not name")
        literal = addresses == [host]
        return RedirectVerdict(connect_to=() if literal else tuple(dict.fromkeys(addresses)))
