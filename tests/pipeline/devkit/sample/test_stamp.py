"""The sample archive is rebuilt only when its generator or its files changed."""
from pipeline.devkit.sample.stamp import STAMP_FILE, ensure_sample_site


def test_an_intact_archive_is_not_rebuilt_and_an_altered_one_is(tmp_path):
    site = ensure_sample_site(tmp_path / "site")
    index = site / "index.html"
    first_mtime = index.stat().st_mtime_ns
    assert (site / STAMP_FILE).exists()
    ensure_sample_site(site)
    assert index.stat().st_mtime_ns == first_mtime
    original = index.read_bytes()
    index.write_bytes(b"<html>tampered</html>")
    ensure_sample_site(site)
    assert index.read_bytes() == original
