"""The one scan record the measuring tools share: every form of the `--scans` syntax, its written forms, and
clear errors for what it is not."""
import hashlib

import pytest

from pipeline.devkit.sample.raster import rasterize_pdf
from pipeline.devkit.sample.scansetting import ScanSetting


@pytest.mark.parametrize(("text", "expected"), [
    ("200/0.6/80", ScanSetting(200, 0.6, 80)),
    ("150/0.8/70/-1.5", ScanSetting(150, 0.8, 70, tilt=-1.5)),
    ("200/0.6/80/-1.5/s0.003", ScanSetting(200, 0.6, 80, tilt=-1.5, noise=0.01, speckle=0.003)),
    ("200/0.6/80/0/g0.03", ScanSetting(200, 0.6, 80, noise=0.03)),
    ("200/0.8/70/1.2/0.03", ScanSetting(200, 0.8, 70, tilt=1.2, noise=0.03)),  # a bare number is the grain
    ("300/0.4/90/0/g0.02/s0.001", ScanSetting(300, 0.4, 90, noise=0.02, speckle=0.001)),
    ("300/0.4/90/0/s0.001/g0", ScanSetting(300, 0.4, 90, noise=0.0, speckle=0.001)),
    (" 200/0.6/80 ", ScanSetting(200, 0.6, 80)),
])
def test_every_form_of_the_syntax_parses_and_is_written_back_to_the_same_setting(text, expected):
    setting = ScanSetting.parse(text)
    assert setting == expected
    assert ScanSetting.parse(str(setting)) == setting


def test_a_plain_setting_is_written_as_the_three_numbers_the_tools_print():
    setting = ScanSetting.parse("150/0.8/70")
    assert str(setting) == "150/0.8/70"
    assert setting.label() == "150dpi blur 0.8 q70"
    assert setting.folder() == "150-0.8-70"


def test_a_tilt_other_grain_or_specks_show_in_label_and_folder():
    setting = ScanSetting.parse("200/0.6/80/-1.5/s0.003")
    assert str(setting) == "200/0.6/80/-1.5/s0.003"
    assert setting.label() == "200dpi blur 0.6 q80 tilt -1.5 specks 0.003"
    assert setting.folder() == "200-0.6-80-t-1.5-g0.01-s0.003"
    grainy = ScanSetting.parse("200/0.6/80/0/g0.03")
    assert grainy.label() == "200dpi blur 0.6 q80 grain 0.03"
    assert grainy.folder() != ScanSetting(200, 0.6, 80).folder()


def test_a_list_keeps_its_order_and_passes_over_empty_items():
    assert ScanSetting.parse_list("150/0.8/70,,300/0.4/90,") == [ScanSetting(150, 0.8, 70), ScanSetting(300, 0.4, 90)]
    assert ScanSetting.parse_list("") == []


@pytest.mark.parametrize(("text", "message"), [
    ("200/0.6", "expected dpi/blur/jpeg"),
    ("200/0.6/80/0/g0.1/s0.1/g0.2", "expected dpi/blur/jpeg"),
    ("200dpi/0.6/80", "whole numbers"),
    ("200/soft/80", "whole numbers"),
    ("200/0.6/80.5", "whole numbers"),
    ("200/0.6/80/left", "whole numbers"),
    ("200/0.6/80/0/x0.1", "not 'x0.1'"),
    ("200/0.6/80/0/", "not ''"),
    ("200/0.6/80/0/g0.1/g0.2", "grain given twice"),
    ("200/0.6/0", "JPEG quality must be 1 to 100"),
    ("0/0.6/80", "dpi must be positive"),
    ("200/-0.6/80", "must not be negative"),
    ("200/0.6/80/0/s2", "specks a share"),
])
def test_what_is_not_a_scan_setting_is_refused_with_the_reason(text, message):
    with pytest.raises(ValueError, match=message) as refused:
        ScanSetting.parse(text)
    assert "scan " in str(refused.value)


def test_rasterising_a_setting_is_rasterize_pdf_with_its_numbers(tmp_path, booklet_pdf):
    setting = ScanSetting.parse("100/0.5/75/0.5/s0.002")
    by_record = setting.rasterise(booklet_pdf, tmp_path / "record.pdf", seed=4)
    by_hand = rasterize_pdf(booklet_pdf, tmp_path / "hand.pdf", dpi=100, blur=0.5, jpeg_quality=75, noise=0.01, rotate_deg=0.5,
                            speckle=0.002, seed=4)
    other_seed = setting.rasterise(booklet_pdf, tmp_path / "default-seed.pdf")  # seeded by dpi + JPEG quality
    digest = [hashlib.sha256(p.read_bytes()).hexdigest() for p in (by_record, by_hand, other_seed)]
    assert digest[0] == digest[1] != digest[2]
    assert digest[2] == hashlib.sha256(rasterize_pdf(booklet_pdf, tmp_path / "175.pdf", dpi=100, blur=0.5, jpeg_quality=75, noise=0.01,
                                                     rotate_deg=0.5, speckle=0.002, seed=175).read_bytes()).hexdigest()
