"""download_source against a real HTTP server on 127.0.0.1 that injects faults, counted server-side."""
from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import pytest

from pipeline.acquire import DownloadOptions, download_source
from pipeline.acquire import RetryPolicy
from pipeline.acquire import Manifest
from pipeline.diagnostics import Code, Severity

from .conftest import SHEETS
from .support import Site, hang, make_pdf, make_spec, reset_after, status, trickle, truncate_after

MAT = "/files/2023/MAT-100-2305.pdf"
POL = "/files/2023/POL-100-2305.pdf"
KEY = "/files/2023/MAT-100-2305-zasady.pdf"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def by_url(result, site: Site, path: str):
    [entry] = [e for e in result.entries if e.url == site.url(path)]
    return entry


def run(site: Site, raw_dir: Path, options: DownloadOptions, **kwargs):
    spec = kwargs.pop("spec", None) or make_spec()
    return download_source(spec, raw_dir, base_url=site.base_url, progress=False, options=options, **kwargs)


# --------------------------------------------------------------------------- finding and storing


def test_downloads_every_claimed_link_into_content_addressed_storage(year_site, raw_dir, fast):
    result = run(year_site, raw_dir, fast)

    assert sorted(e.url for e in result.entries) == sorted(year_site.url(p) for p in SHEETS)
    assert [e.status for e in result.entries] == ["downloaded"] * 3
    assert result.unmatched == 2  # /o-nas/ and informator.pdf; mailto: is not a web link
    for path, data in SHEETS.items():
        entry = by_url(result, year_site, path)
        assert entry.sha256 == sha(data) and entry.bytes == len(data)
        assert entry.path == f"raw/{sha(data)}.pdf"
        assert (raw_dir.parent / entry.path).read_bytes() == data
        assert entry.content_type == "application/pdf"
        assert entry.etag and entry.last_modified
        assert datetime.fromisoformat(entry.fetched_at).utcoffset().total_seconds() == 0
    assert by_url(result, year_site, KEY).role == "key"
    assert by_url(result, year_site, MAT).role == "sheet"
    assert by_url(result, year_site, POL).facts == {"year": "2023", "sheet_code": "POL"}
    assert len(year_site.to(MAT)) == 1  # linked twice, fetched once


def test_manifest_on_disk_holds_one_entry_per_url_with_provenance(year_site, raw_dir, fast):
    run(year_site, raw_dir, fast)
    lines = (raw_dir / "manifest.jsonl").read_text().splitlines()
    assert len(lines) == 3
    first = json.loads(lines[0])
    assert {"url", "final_url", "sha256", "bytes", "content_type", "etag", "last_modified", "fetched_at", "spec", "role", "facts", "path", "status", "error"} <= first.keys()
    manifest = Manifest.load(raw_dir / "manifest.jsonl")
    assert manifest.get(year_site.url(KEY)).spec == "testexam"


def test_every_request_names_the_tool_in_its_user_agent(year_site, raw_dir, fast):
    run(year_site, raw_dir, fast)
    agents = {r.headers.get("User-Agent") for r in year_site.state.requests}
    assert len(agents) == 1 and agents.pop().startswith("examcorpus/")


def test_url_templates_expand_years_and_variables(site, raw_dir, fast):
    for code in ("MAT", "POL"):
        for year in (2022, 2023):
            site.put(f"/files/{year}/{code}-100-{year}.pdf", make_pdf(f"{code} {year}"))
    spec = make_spec(url_templates=["{base_url}/files/{year}/{code}-100-{year}.pdf"], variables={"code": ["MAT", "POL"]}, years=[2022, 2023])

    result = run(site, raw_dir, fast, spec=spec)

    assert len(result.ok) == 4
    assert {(e.facts["year"], e.facts["sheet_code"]) for e in result.entries} == {("2022", "MAT"), ("2022", "POL"), ("2023", "MAT"), ("2023", "POL")}


def test_years_argument_limits_pages_and_files(site, raw_dir, fast):
    for year in (2022, 2023):
        site.put(f"/files/{year}/MAT-100-{year}.pdf", make_pdf(f"MAT {year}"))
        site.page(f"/arkusze/{year}/index.html", [f"/files/{year}/MAT-100-{year}.pdf"])
    spec = make_spec(years=[2022, 2023])

    result = run(site, raw_dir, fast, spec=spec, years=[2022])

    assert [e.facts["year"] for e in result.entries] == ["2022"]
    assert site.to("/arkusze/2023/") == []


def test_year_comes_from_the_index_page_when_the_rule_has_none(site, raw_dir, fast):
    site.put("/docs/arkusz-matematyka.pdf", make_pdf("no year in the name"))
    site.page("/arkusze/2021/index.html", ["/docs/arkusz-matematyka.pdf"])
    spec = make_spec(years=[2021], links=[{"role": "sheet", "pattern": r"/docs/arkusz-(?P<sheet_code>\w+)\.pdf$"}])

    [entry] = run(site, raw_dir, fast, spec=spec).entries

    assert entry.facts == {"year": "2021", "sheet_code": "matematyka"}


def test_a_rule_that_yields_no_year_is_reported_not_downloaded(site, raw_dir, fast):
    site.put("/docs/a.pdf", make_pdf("a"))
    site.page("/lista.html", ["/docs/a.pdf"])
    spec = make_spec(index_pages=["{base_url}/lista.html"], years=[], links=[{"role": "sheet", "pattern": r"/docs/\w+\.pdf$"}])

    [entry] = run(site, raw_dir, fast, spec=spec).entries

    assert entry.status == "failed" and "gives no year" in entry.error and entry.url in entry.error
    assert site.to("/docs/a.pdf") == []


def test_absolute_links_into_the_spec_site_follow_a_base_url_override(site, raw_dir, fast):
    site.put(MAT, SHEETS[MAT])
    site.page("/arkusze/2023/index.html", ["https://exams.example.org" + MAT, "http://exams.example.org" + MAT])

    result = run(site, raw_dir, fast)

    assert [e.url for e in result.entries] == [site.url(MAT)]
    assert result.entries[0].status == "downloaded"


def test_an_unreachable_index_page_is_a_note_and_the_other_pages_still_count(site, raw_dir, fast):
    site.put("/files/2022/MAT-100-2022.pdf", make_pdf("2022"))
    site.page("/arkusze/2022/index.html", ["/files/2022/MAT-100-2022.pdf"])
    spec = make_spec(years=[2021, 2022])  # no page for 2021

    result = run(site, raw_dir, fast, spec=spec)

    assert [e.status for e in result.entries] == ["downloaded"]
    assert len(result.notes) == 1 and "/arkusze/2021/" in result.notes[0] and "HTTP 404" in result.notes[0]


def test_a_spec_without_a_download_section_is_a_clear_error(raw_dir, fast):
    spec = make_spec(local_files=[{"role": "sheet", "pattern": r"(?P<year>\d{4})\.pdf$"}])
    web_less = spec.model_copy(update={"download": None})
    with pytest.raises(ValueError, match="no `download` section; use --from DIR"):
        download_source(web_less, raw_dir, progress=False, options=fast)


# --------------------------------------------------------------------------- conditional re-runs


def test_a_rerun_asks_conditionally_and_transfers_no_bodies(year_site, raw_dir, fast):
    run(year_site, raw_dir, fast)
    first_requests = len(year_site.state.requests)

    again = run(year_site, raw_dir, fast)

    second = year_site.state.requests[first_requests:]
    file_requests = [r for r in second if r.path in SHEETS]
    assert sorted(r.status for r in file_requests) == [304, 304, 304]
    assert sum(r.body_bytes for r in file_requests) == 0
    assert all(r.headers.get("If-None-Match") and r.headers.get("If-Modified-Since") for r in file_requests)
    assert [e.status for e in again.entries] == ["not_modified"] * 3
    assert all((raw_dir.parent / e.path).is_file() for e in again.entries)


def test_a_changed_file_is_fetched_again_on_rerun(year_site, raw_dir, fast):
    run(year_site, raw_dir, fast)
    new = make_pdf("Matematyka 2023 arkusz, poprawiony")
    year_site.put(MAT, new)

    again = run(year_site, raw_dir, fast)

    entry = by_url(again, year_site, MAT)
    assert entry.status == "downloaded" and entry.sha256 == sha(new)
    assert year_site.to(MAT)[-1].status == 200


def test_a_stored_file_that_went_missing_is_fetched_unconditionally(year_site, raw_dir, fast):
    first = run(year_site, raw_dir, fast)
    (raw_dir.parent / by_url(first, year_site, MAT).path).unlink()

    again = run(year_site, raw_dir, fast)

    last = year_site.to(MAT)[-1]
    assert "If-None-Match" not in last.headers and last.status == 200
    assert by_url(again, year_site, MAT).status == "downloaded"
    assert (raw_dir.parent / by_url(again, year_site, MAT).path).read_bytes() == SHEETS[MAT]


def test_a_failure_on_rerun_keeps_the_good_copy_in_the_manifest(year_site, raw_dir, fast):
    run(year_site, raw_dir, fast)
    year_site.inject(MAT, status(404))

    again = run(year_site, raw_dir, fast)

    assert by_url(again, year_site, MAT).status == "failed"
    kept = Manifest.load(raw_dir / "manifest.jsonl").get(year_site.url(MAT))
    assert kept.ok and kept.sha256 == sha(SHEETS[MAT])


# --------------------------------------------------------------------------- retries


def test_server_errors_are_retried_with_growing_backoff(year_site, raw_dir, fast):
    year_site.inject(MAT, status(500), status(502), status(500))

    result = run(year_site, raw_dir, fast)

    requests = year_site.to(MAT)
    assert [r.status for r in requests] == [500, 502, 500, 200]
    waits = [e.wait for e in result.retries if e.url == year_site.url(MAT)]
    assert waits == [0.05, 0.1, 0.2]  # base 0.05 doubling, no jitter in these options
    gaps = [b.at - a.at for a, b in zip(requests, requests[1:])]
    assert all(gap >= wait * 0.9 for gap, wait in zip(gaps, waits))
    assert by_url(result, year_site, MAT).status == "downloaded"


def test_retry_after_from_the_server_wins_over_a_shorter_backoff(year_site, raw_dir, fast):
    year_site.inject(MAT, status(503, retry_after="1"))

    result = run(year_site, raw_dir, fast)

    first, second = year_site.to(MAT)
    assert second.at - first.at >= 0.95
    assert [e.wait for e in result.retries] == [1.0]
    assert by_url(result, year_site, MAT).status == "downloaded"


def test_too_many_requests_is_retried(year_site, raw_dir, fast):
    year_site.inject(POL, status(429))

    result = run(year_site, raw_dir, fast)

    assert [r.status for r in year_site.to(POL)] == [429, 200]
    assert by_url(result, year_site, POL).ok


@pytest.mark.parametrize("code", [400, 403, 404, 410])
def test_client_errors_fail_at_once_and_the_rest_of_the_run_goes_on(year_site, raw_dir, fast, code):
    year_site.inject(MAT, status(code))

    result = run(year_site, raw_dir, fast)

    assert len(year_site.to(MAT)) == 1
    entry = by_url(result, year_site, MAT)
    assert entry.status == "failed"
    assert entry.error.startswith(year_site.url(MAT)) and f"HTTP {code}" in entry.error
    assert sorted(e.status for e in result.entries) == ["downloaded", "downloaded", "failed"]
    assert result.problems == [entry]


def test_retries_stop_after_the_policy_allows_and_name_the_problem(year_site, raw_dir, fast):
    year_site.state.always[MAT] = status(500)

    result = run(year_site, raw_dir, fast)

    assert len(year_site.to(MAT)) == fast.retry.attempts
    entry = by_url(result, year_site, MAT)
    assert entry.status == "failed" and "HTTP 500" in entry.error and "gave up after 4 tries" in entry.error


def test_a_server_that_does_not_answer_in_time_is_retried(year_site, raw_dir, fast):
    year_site.inject(KEY, hang(2.0))  # the client gives up after 0.5 s

    result = run(year_site, raw_dir, fast)

    assert len(year_site.to(KEY)) == 2
    assert "timed out" in result.retries[0].problem
    assert by_url(result, year_site, KEY).sha256 == sha(SHEETS[KEY])


# --------------------------------------------------------------------------- interrupted transfers


@pytest.mark.parametrize("fault", [reset_after, truncate_after], ids=["connection-reset", "truncated-body"])
def test_an_interrupted_transfer_resumes_with_range_and_sends_only_the_rest(site, raw_dir, fast, fault):
    data = make_pdf("a longer sheet", pages=3, padding=3000)
    half = len(data) // 2
    site.put(MAT, data)
    site.page("/arkusze/2023/index.html", [MAT])
    site.inject(MAT, fault(half))

    result = run(site, raw_dir, fast)

    first, second = site.to(MAT)
    assert first.body_bytes == half
    assert second.headers["Range"] == f"bytes={half}-"
    assert second.headers["If-Range"] == first_etag(result)
    assert second.status == 206 and second.body_bytes == len(data) - half
    entry = result.entries[0]
    assert entry.status == "downloaded" and entry.sha256 == sha(data)
    assert (raw_dir.parent / entry.path).read_bytes() == data
    assert list((raw_dir / "partial").iterdir()) == []


def first_etag(result) -> str:
    return result.entries[0].etag


def test_a_persistent_truncation_is_reported_and_resumed_by_the_next_run(site, raw_dir, fast):
    data = make_pdf("sheet", pages=2, padding=2000)
    site.put(MAT, data)
    site.page("/arkusze/2023/index.html", [MAT])
    site.state.always[MAT] = truncate_after(300)
    options = DownloadOptions(timeout=0.5, retry=RetryPolicy(attempts=2, backoff_base=0.01, jitter=0), checkpoint_interval=0)

    failed = run(site, raw_dir, options).entries[0]

    assert failed.status == "failed"
    assert failed.url in failed.error and "truncated body" in failed.error and "to resume next run" in failed.error
    assert not list(raw_dir.glob("*.pdf"))
    requests = site.to(MAT)
    assert requests[1].headers["Range"] == "bytes=300-"

    del site.state.always[MAT]
    done = run(site, raw_dir, options).entries[0]

    assert site.to(MAT)[-1].headers["Range"] == "bytes=600-"
    assert site.to(MAT)[-1].body_bytes == len(data) - 600
    assert done.status == "downloaded" and done.sha256 == sha(data)


def test_a_range_answered_with_the_whole_changed_file_restarts_cleanly(site, raw_dir, fast):
    old = make_pdf("old version", pages=2, padding=2000)
    site.put(MAT, old)
    site.page("/arkusze/2023/index.html", [MAT])
    site.state.always[MAT] = truncate_after(500)
    options = DownloadOptions(timeout=0.5, retry=RetryPolicy(attempts=1), checkpoint_interval=0)
    assert run(site, raw_dir, options).entries[0].status == "failed"
    del site.state.always[MAT]
    new = make_pdf("new version, different size", pages=2, padding=2500)
    site.put(MAT, new)

    entry = run(site, raw_dir, options).entries[0]

    last = site.to(MAT)[-1]
    assert last.headers["Range"] == "bytes=500-" and last.status == 200  # If-Range no longer matches
    assert entry.status == "downloaded" and entry.sha256 == sha(new)
    assert (raw_dir.parent / entry.path).read_bytes() == new


# --------------------------------------------------------------------------- redirects


def test_a_redirect_chain_is_followed_and_the_final_url_recorded(site, raw_dir, fast):
    site.put("/storage/v2/MAT-100-2305.pdf", SHEETS[MAT])
    site.state.redirects[MAT] = (301, "/old/MAT.pdf")
    site.state.redirects["/old/MAT.pdf"] = (302, site.url("/storage/v2/MAT-100-2305.pdf"))
    site.page("/arkusze/2023/index.html", [MAT])

    entry = run(site, raw_dir, fast).entries[0]

    assert entry.url == site.url(MAT)
    assert entry.final_url == site.url("/storage/v2/MAT-100-2305.pdf")
    assert entry.status == "downloaded" and entry.sha256 == sha(SHEETS[MAT])


def test_a_redirect_loop_fails_with_the_loop_named(site, raw_dir, fast):
    site.state.redirects[MAT] = (302, "/a.pdf")
    site.state.redirects["/a.pdf"] = (302, MAT)
    site.page("/arkusze/2023/index.html", [MAT])

    entry = run(site, raw_dir, fast).entries[0]

    assert entry.status == "failed" and "redirect loop" in entry.error
    assert len(site.to(MAT)) == 1  # not retried: it would loop again


# --------------------------------------------------------------------------- not a PDF


@pytest.mark.parametrize(
    ("body", "content_type", "what", "ext"),
    [
        (b"<!DOCTYPE html><html><body>Strona nie istnieje</body></html>", None, "HTML page, not a PDF", "html"),
        (b"", None, "empty body", "empty"),
        (b"\x89PNG\r\n\x1a\n fake image", "image/png", "not a PDF", "bin"),
    ],
    ids=["html-error-page", "empty", "wrong-type"],
)
def test_a_file_that_is_not_a_pdf_is_quarantined_with_a_clear_message(year_site, raw_dir, fast, body, content_type, what, ext):
    year_site.put(MAT, body)
    if content_type:
        year_site.state.content_types[MAT] = content_type

    result = run(year_site, raw_dir, fast)

    entry = by_url(result, year_site, MAT)
    assert entry.status == "rejected" and entry.path is None
    assert entry.error.startswith(year_site.url(MAT)) and what in entry.error
    quarantined = raw_dir / "quarantine" / f"{sha(body)}.{ext}"
    assert quarantined.read_bytes() == body and str(quarantined.relative_to(raw_dir.parent)) in entry.error
    assert not (raw_dir / f"{sha(body)}.pdf").exists()
    assert len(result.ok) == 2


def test_a_real_pdf_with_a_wrong_content_type_is_accepted(year_site, raw_dir, fast):
    year_site.state.content_types[MAT] = "application/octet-stream"
    entry = by_url(run(year_site, raw_dir, fast), year_site, MAT)
    assert entry.status == "downloaded" and entry.content_type == "application/octet-stream"


def test_a_pdf_with_leading_whitespace_is_accepted(year_site, raw_dir, fast):
    year_site.put(MAT, b"\xef\xbb\xbf\r\n" + SHEETS[MAT])
    assert by_url(run(year_site, raw_dir, fast), year_site, MAT).status == "downloaded"


# --------------------------------------------------------------------------- politeness


def test_requests_to_one_host_are_spaced_by_the_rate_limit_across_threads(site, raw_dir, fast):
    paths = [f"/files/2023/S{chr(65 + i)}-100-2305.pdf" for i in range(6)]
    for path in paths:
        site.put(path, make_pdf(path))
    site.page("/arkusze/2023/index.html", paths)
    spec = make_spec(rate=10.0, concurrency=4)

    run(site, raw_dir, fast, spec=spec)

    times = sorted(r.at for r in site.state.requests)  # the index page and six files
    assert len(times) == 7
    # The limiter spaces the sends; the server sees arrivals, which a loaded machine can delay one by one (by
    # more than half a gap: seen at 24 ms apart under load), so one gap may shrink while the next grows; any three
    # arrivals still span two sends' spacing less one such delay. Unlimited, four threads would send all seven in a
    # few ms.
    assert times[-1] - times[0] >= 6 * 0.1 * 0.95
    assert min(c - a for a, c in zip(times, times[2:])) >= 0.1


def test_concurrency_overlaps_slow_transfers(site, raw_dir, fast):
    paths = [f"/files/2023/S{chr(65 + i)}-100-2305.pdf" for i in range(4)]
    for path in paths:
        data = make_pdf(path)
        site.put(path, data)
        site.inject(path, trickle(len(data) // 2 + 1, 0.3))  # each transfer takes at least 0.3 s
    site.page("/arkusze/2023/index.html", paths)

    result = run(site, raw_dir, fast, spec=make_spec(concurrency=4))

    starts = sorted(site.to(p)[0].at for p in paths)
    assert starts[-1] - starts[0] < 0.3  # all four began before the first could finish
    assert len(result.ok) == 4


def test_manifest_and_raw_files_stay_consistent_when_the_downloader_is_killed(site, raw_dir, tmp_path):
    paths = [f"/files/2023/K{chr(65 + i)}-100-2305.pdf" for i in range(10)]
    payloads = {p: make_pdf(p, padding=4000) for p in paths}
    for index, path in enumerate(paths):
        site.put(path, payloads[path])
        if index >= 3:  # the first three finish at once, the rest crawl until the kill
            site.inject(path, trickle(400, 0.1))
    site.page("/arkusze/2023/index.html", paths)
    spec = make_spec(concurrency=4)
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec.model_dump(mode="json")))
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from pipeline.specs import parse_spec\n"
        "from pipeline.acquire.download import DownloadOptions, download_source\n"
        "spec = parse_spec(json.loads(Path(sys.argv[1]).read_text()), 'testexam.yaml')\n"
        "download_source(spec, Path(sys.argv[2]), base_url=sys.argv[3], progress=False,\n"
        "                options=DownloadOptions(timeout=5, checkpoint_interval=0))\n"
    )
    repo = Path(__file__).resolve().parents[3]
    child = subprocess.Popen([sys.executable, "-c", script, str(spec_file), str(raw_dir), site.base_url], cwd=repo)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            crawling = [r for r in site.state.requests if r.fault == "trickle" and r.body_bytes >= 800]
            if len(crawling) >= 2 and len(_entries_on_disk(raw_dir)) >= 3:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the child never reached the middle of the download")
    finally:
        child.kill()  # SIGKILL: no cleanup code runs
        child.wait()

    seen = _entries_on_disk(raw_dir)  # parses: never half a manifest
    assert 3 <= len(seen) < len(paths)
    for entry in seen:
        assert entry["status"] == "downloaded"
        assert sha((raw_dir.parent / entry["path"]).read_bytes()) == entry["sha256"]
    for stored in raw_dir.glob("*.pdf"):  # no half-written file under a content address
        assert sha(stored.read_bytes()) == stored.stem
    assert any(p.stat().st_size > 0 for p in (raw_dir / "partial").glob("*.part"))

    before = len(site.state.requests)
    result = run(site, raw_dir, DownloadOptions(timeout=5, checkpoint_interval=0))

    assert {e.url: e.sha256 for e in result.entries} == {site.url(p): sha(d) for p, d in payloads.items()}
    assert all(e.ok for e in result.entries)
    rerun = site.state.requests[before:]
    resumed = [r for r in rerun if "Range" in r.headers]
    assert resumed and all(r.status == 206 for r in resumed)
    assert sorted(r.status for r in rerun if r.headers.get("If-None-Match")) == [304] * len(seen)
    assert list((raw_dir / "partial").glob("*.part")) == []


def _entries_on_disk(raw_dir: Path) -> list[dict]:
    try:
        text = (raw_dir / "manifest.jsonl").read_text()
    except FileNotFoundError:
        return []
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_a_redirected_download_prints_plain_progress_lines_and_none_when_progress_is_off(year_site, raw_dir, fast,
                                                                                        monkeypatch, capsys):
    monkeypatch.setenv("EXAMCORPUS_PROGRESS_EVERY_S", "0")  # a line at every file (the default is one every 30 s)
    download_source(make_spec(), raw_dir, base_url=year_site.base_url, progress=True, options=fast)
    err = capsys.readouterr().err  # stderr here is not a terminal, as in `make extract 2> log`
    counts = [int(m.group(1)) for m in re.finditer(r"download \S+: (\d+)/3 file", err)]
    assert counts and counts[-1] == 3 and counts == sorted(counts)
    assert "\r" not in err
    run(year_site, raw_dir.parent / "again", fast)  # progress=False
    assert "file" not in capsys.readouterr().err


def test_links_of_years_not_asked_for_on_an_index_page_of_every_year_are_said_not_fetched(site, raw_dir, fast):
    """One index page lists every year; `--years 2022` fetches 2022's files, and the crawl's 2023 find is a note."""
    for year in (2022, 2023):
        site.put(f"/files/{year}/MAT-100-{year}.pdf", make_pdf(f"MAT {year}"))
    site.page("/wszystkie.html", ["/files/2022/MAT-100-2022.pdf", "/files/2023/MAT-100-2023.pdf"])
    spec = make_spec(index_pages=["{base_url}/wszystkie.html"], years=[2022, 2023])

    result = run(site, raw_dir, fast, spec=spec, years=[2022])

    assert [e.facts["year"] for e in result.entries] == ["2022"] and site.to("/files/2023/") == []
    [note] = [n for n in result.notes if n.code is Code.YEARS_NOT_ASKED]
    assert str(note) == (f"testexam: 1 linked file(s) of year(s) 2023 not fetched (years asked: 2022): "
                         f"{site.url('/files/2023/MAT-100-2023.pdf')}")
    assert note.severity is Severity.INFO  # a choice of the run, no problem: --strict passes
