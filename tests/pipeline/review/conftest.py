"""Fixtures for the review tests: a project with curated figure questions and generated annotations
(tests/pipeline/review/builders.py), the store, the Flask test client, a
live server on 127.0.0.1, and Chromium driven by Playwright for the browser tests."""
from __future__ import annotations


import pytest

from pipeline.review import ReviewStore, serve_review
from tests.pipeline.review.builders import build_review_project, review_client



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


