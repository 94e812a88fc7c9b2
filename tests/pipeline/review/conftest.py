"""Fixtures for the review tests: a project with curated figure questions and generated annotations
(tests/pipeline/review/builders.py), the store, the Flask test client, a
live server on 127.0.0.1, and Chromium driven by Playwright for the browser tests."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.review import ReviewStore, serve_review
from tests.pipeline.review.builders import build_review_project, review_client

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture
def review_project(tmp_path):
    root = tmp_path / "project"
    curated, questions = build_review_project(root)
    return root, curated, questions


@pytest.fixture
def store(review_project) -> ReviewStore:
    root, curated, _ = review_project
    return ReviewStore.open(root, [curated])


@pytest.fixture
def client(store):
    return review_client(store)


@pytest.fixture
def live_url(store):
    with serve_review(store) as url:
        yield url


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
