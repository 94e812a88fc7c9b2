"""Fixtures every test folder shares. The browser is one Chromium per test process: Playwright's sync
API allows one running instance per thread, so two session fixtures (or a test starting its own) in one
pytest worker would fail whichever comes second."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="session", autouse=True)
def compiled_object_code(tmp_path_factory):
    """The compiled loops' object code (`pipeline.extract.objectcache`) kept in the test session's own folder, which
    the processes tests start inherit: a test run never reads or writes the user's cache."""
    from pipeline.extract.objectcache import ENV_FOLDER

    os.environ[ENV_FOLDER] = str(tmp_path_factory.mktemp("compiled"))


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (`make setup` installs Debian's chromium)")
    if shutil.which("chromium") is None:
        pytest.skip("chromium is not on PATH")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.js_errors = errors
    yield tab
    context.close()
