"""Links on index pages, and which of them (or of a local folder's files) a spec's file rules claim.

A file rule is a regular expression searched (re.search, so anchor it yourself if needed) in the
percent-decoded URL or the folder-relative POSIX path; the first rule that matches decides the
file's role, its named groups and fixed facts become the file's pairing facts.
"""
from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Sequence

from pipeline.patterns import spec_pattern
from pipeline.specs import FileRule


@dataclass(frozen=True)
class RuleMatch:
    role: str
    facts: dict[str, str]
    pattern: str = field(compare=False)


def match_rules(target: str, rules: Sequence[FileRule], context: dict[str, str] | None = None) -> RuleMatch | None:
    """The first rule matching `target`, with facts: context (e.g. the index page's year), then the
    rule's fixed facts, then the pattern's named groups (most specific wins)."""
    for rule in rules:
        found = spec_pattern(rule.pattern).search(target)
        if found:
            groups = {k: v for k, v in found.groupdict().items() if v is not None}
            return RuleMatch(rule.role, _with_full_year({**(context or {}), **rule.facts, **groups}), rule.pattern)
    return None


def _with_full_year(facts: dict[str, str]) -> dict[str, str]:
    """Many file names carry only a two-digit year (`…_180613.pdf`, `MIN-P1_1P-162`): a `yy` group
    stands for the year 20yy, unless a four-digit `year` is known."""
    if "year" not in facts and facts.get("yy", "").isdecimal() and len(facts["yy"]) == 2:
        return {**facts, "year": f"20{facts['yy']}"}
    return facts


def url_match_target(url: str) -> str:
    """What rules see for a URL: the whole URL, percent-decoded so patterns can use plain characters."""
    return urllib.parse.unquote(url)


class _LinkCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.hrefs: list[str] = []
        self.base_href: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "base" and values.get("href") and self.base_href is None:
            self.base_href = values["href"]
        elif tag in ("a", "area") and values.get("href"):
            self.hrefs.append(values["href"].strip())


def extract_links(html_text: str, page_url: str, *, upgrade_to_https: bool = False) -> list[str]:
    """Absolute http(s) URLs of the page's <a>/<area> links, in page order, without fragments or repeats.

    Relative links resolve against the page's final URL (or its <base href>). With `upgrade_to_https`
    plain-http links become https: archive sites often mix both schemes for the same files.
    """
    collector = _LinkCollector()
    collector.feed(html_text)
    collector.close()
    base = urllib.parse.urljoin(page_url, collector.base_href) if collector.base_href else page_url
    links: list[str] = []
    seen: set[str] = set()
    for href in collector.hrefs:
        absolute, _fragment = urllib.parse.urldefrag(urllib.parse.urljoin(base, href))
        parts = urllib.parse.urlsplit(absolute)
        if parts.scheme not in ("http", "https"):
            continue  # mailto:, javascript:, data: ...
        if upgrade_to_https and parts.scheme == "http":
            absolute = urllib.parse.urlunsplit(("https",) + tuple(parts)[1:])
        if absolute not in seen:
            seen.add(absolute)
            links.append(absolute)
    return links
