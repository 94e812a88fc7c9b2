"""What the download stage reports that is tied to no one file (an index page down, a link refused)
is a typed diagnostic: its code says which, and the report counts it as a problem (error severity)."""
from __future__ import annotations

from pipeline.acquire import download_source
from pipeline.diagnostics import Code, Severity

from .support import make_pdf, make_spec

MAT = "/files/2023/MAT-100-2305.pdf"


def test_an_unreadable_index_page_and_a_refused_link_are_notes_with_their_codes(site, raw_dir, fast):
    site.put(MAT, make_pdf("ours"))
    site.page("/lista.html", [MAT, "https://mirror.example.net" + MAT])
    spec = make_spec(index_pages=["{base_url}/lista.html", "{base_url}/gone.html"])

    result = download_source(spec, raw_dir, base_url=site.base_url, progress=False, options=fast)

    assert [e.url for e in result.entries] == [site.url(MAT)]
    by_code = {note.code: note for note in result.notes}
    assert set(by_code) == {Code.LINK_REFUSED, Code.INDEX_UNREAD}
    assert site.url("/gone.html") in by_code[Code.INDEX_UNREAD] and "could not be read" in by_code[Code.INDEX_UNREAD]
    assert "mirror.example.net is not one of the spec's hosts" in by_code[Code.LINK_REFUSED]
    assert all(note.severity is Severity.ERROR for note in result.notes)
