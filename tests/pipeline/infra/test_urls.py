"""A URL's user:password@ taken out of what is printed, raised or published, in every form a URL may hold it."""
from __future__ import annotations

import pytest

from pipeline.infra import redact_userinfo, without_userinfo


@pytest.mark.parametrize("url, site", [
    ("https://user:pass@mirror.example/hf", "https://mirror.example/hf"),
    ("http://user:p@ss@127.0.0.1:8080/x?q=1#f", "http://127.0.0.1:8080/x?q=1#f"),  # an unescaped @ in the password
    ("http://token@[::1]:9000/", "http://[::1]:9000/"),
    ("HTTPS://u:%40pw@Mirror.Example.:443", "https://Mirror.Example.:443"),  # urlsplit lowers the scheme
    ("https://mirror.example/a@b", "https://mirror.example/a@b"),  # an @ in the path is no userinfo
])
def test_a_url_without_its_userinfo_keeps_everything_else(url, site):
    assert without_userinfo(url) == site


def test_every_url_of_a_message_loses_its_password_and_nothing_else():
    message = ("Client error '401' for url 'http://user:p@ss@127.0.0.1:8080/api/repos/create' (retry "
               "https://tok3n@[::1]:9/x?next=a@b; mail admin@example.org)")
    assert redact_userinfo(message) == ("Client error '401' for url 'http://***@127.0.0.1:8080/api/repos/create' (retry "
                                        "https://***@[::1]:9/x?next=a@b; mail admin@example.org)")
