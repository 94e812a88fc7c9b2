"""The two stages end to end: what `examcorpus describe` wrote against the Gemini stand-in is what
the review page offers, and an accepted description is what the merge puts into the record."""
from __future__ import annotations

import pyarrow.parquet as pq

from pipeline.describe import DescribeOptions, RetryPolicy, describe_curated
from pipeline.records import table_to_questions
from pipeline.review import ReviewStore, accepted_figures, merge_descriptions
from tests.pipeline.describe.builders import figure_question, write_curated
from pipeline.devkit.gemini_standin import GeminiStandIn
from tests.pipeline.review.builders import review_client


def test_described_figures_are_reviewed_and_merged(tmp_path):
    root = tmp_path / "project"
    curated = write_curated(root, [figure_question(root, i) for i in range(1, 4)])
    standin = GeminiStandIn(scripts={"F03": ["block"]}).start()
    try:
        options = DescribeOptions(root=root, base_url=standin.base_url, retry=RetryPolicy(max_attempts=1), show_progress=False)
        assert describe_curated(options, api_key="test-key").counts == {"pending": 2, "blocked": 1}
    finally:
        standin.stop()

    store = ReviewStore.open(root, [curated])
    client = review_client(store)
    ids = client.get("/api/queue", query_string={"status": "pending"}).json["ids"]
    assert len(ids) == 2
    item = client.get(f"/api/items/{ids[0]}").json
    assert item["description"].startswith("Figure F0")
    client.post(f"/api/items/{ids[0]}/decision", json={"action": "accept", "annotator": "Ala", "version": 0})

    rows = [q.to_row() for q in table_to_questions(pq.read_table(curated))]
    merged, _ = merge_descriptions(rows, accepted_figures(store))
    described = [r for r in merged if r["image_description"]]
    assert [r["id"] for r in described] == [item["record_id"]]
    assert described[0]["image_description"] == item["description"]
