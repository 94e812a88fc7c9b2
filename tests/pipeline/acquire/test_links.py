"""Link extraction from index pages and classification by a spec's file rules."""
from __future__ import annotations

from pipeline.acquire import extract_links, match_rules, url_match_target
from pipeline.specs import FileRule

PAGE = """<!DOCTYPE html><html><body>
<a href="../../images/2024/OMAP-100-2405.pdf">arkusz</a>
<a href="/images/2024/OMAP-100-2405-zasady.pdf#page=2">zasady</a>
<a href="http://cke.gov.pl/images/2024/OPOP-100-2405.pdf">polski</a>
<a href="https://static2.cke.gov.pl/x.pdf">mirror</a>
<a href="mailto:sekretariat@cke.gov.pl">mail</a><a href="javascript:void(0)">js</a><a>no href</a>
<map><area href="mapa.pdf"></map>
<a href="../../images/2024/OMAP-100-2405.pdf">again</a>
<a href="/images/2024/egzamin%20%C3%B3smoklasisty.pdf">encoded</a>
</body></html>"""


def test_links_resolve_against_the_page_drop_fragments_repeats_and_non_web_schemes():
    links = extract_links(PAGE, "https://cke.gov.pl/egzamin/arkusze/2024-2/", upgrade_to_https=False)
    assert links == [
        "https://cke.gov.pl/egzamin/images/2024/OMAP-100-2405.pdf",
        "https://cke.gov.pl/images/2024/OMAP-100-2405-zasady.pdf",
        "http://cke.gov.pl/images/2024/OPOP-100-2405.pdf",
        "https://static2.cke.gov.pl/x.pdf",
        "https://cke.gov.pl/egzamin/arkusze/2024-2/mapa.pdf",
        "https://cke.gov.pl/images/2024/egzamin%20%C3%B3smoklasisty.pdf",
    ]


def test_http_links_become_https_only_when_asked():
    links = extract_links(PAGE, "https://cke.gov.pl/egzamin/arkusze/2024-2/", upgrade_to_https=True)
    assert "https://cke.gov.pl/images/2024/OPOP-100-2405.pdf" in links
    assert not any(link.startswith("http://") for link in links)


def test_a_base_element_changes_how_relative_links_resolve():
    links = extract_links('<base href="https://files.example.org/d/"><a href="a.pdf">a</a>', "https://example.org/page")
    assert links == ["https://files.example.org/d/a.pdf"]


def test_the_first_matching_rule_wins_and_named_groups_become_facts():
    rules = [
        FileRule(role="key", pattern=r"(?P<sheet_code>[A-Z]+)-100-(?P<year>\d{4})-zasady\.pdf$", facts={"session": "main"}),
        FileRule(role="sheet", pattern=r"(?P<sheet_code>[A-Z]+)-100-.*\.pdf$"),
    ]
    key = match_rules("https://x/OMAP-100-2024-zasady.pdf", rules)
    assert key.role == "key" and key.facts == {"sheet_code": "OMAP", "year": "2024", "session": "main"}
    sheet = match_rules("https://x/OMAP-100-2024.pdf", rules, context={"year": "2024"})
    assert sheet.role == "sheet" and sheet.facts == {"year": "2024", "sheet_code": "OMAP"}
    assert match_rules("https://x/informator.pdf", rules) is None


def test_pattern_groups_override_the_page_year_and_fixed_facts():
    rules = [FileRule(role="sheet", pattern=r"/(?P<year>\d{4})/(?P<variant>[XY])?-?a\.pdf", facts={"year": "1999", "form": "A"})]
    found = match_rules("https://x/2021/-a.pdf", rules, context={"year": "2020"})
    assert found.facts == {"year": "2021", "form": "A"}  # an unmatched optional group adds nothing


def test_rules_see_percent_decoded_urls():
    target = url_match_target("https://cke.gov.pl/images/egzamin%20%C3%B3smoklasisty.pdf")
    assert target == "https://cke.gov.pl/images/egzamin ósmoklasisty.pdf"


def test_a_two_digit_yy_group_stands_for_the_year_20yy_unless_a_year_is_known():
    rule = FileRule(role="sheet", pattern=r"them_(?P<form>\w+?)_(?P<yy>\d{2})\d{4}\.pdf$")
    assert match_rules("x/them_ist_180613.pdf", [rule]).facts["year"] == "2018"
    assert match_rules("x/them_ist_180613.pdf", [rule], {"year": "2019"}).facts["year"] == "2019"
