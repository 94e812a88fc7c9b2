"""Double review: two annotators judge each figure blind, matching judgements decide it, the others
wait in an adjudication queue, and Cohen's kappa per annotator pair is reported (API, CLI, and the
page in Chromium at 1366×768)."""
from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from pipeline.cli import main as cli
from pipeline.describe import read_jsonl
from pipeline.review import ReviewStore, serve_review
from pipeline.review.agreement import cohen_kappa, pair_agreements
from pipeline.review.double import AGREEMENT_FILE, BLIND_FILE, DoubleReview
from tests.pipeline.review.builders import review_client

LAPTOP_WINDOW = {"width": 1366, "height": 657}


def test_cohens_kappa_against_a_hand_computed_case():
    first = ["accept", "accept", "reject", "reject", "edit"]
    second = ["accept", "reject", "reject", "reject", "edit"]
    # observed 4/5; chance (2·1 + 2·3 + 1·1) / 25 = 9/25; kappa = (0.8 - 0.36) / 0.64
    assert cohen_kappa(first, second) == pytest.approx(0.6875)
    assert cohen_kappa(["accept"] * 3, ["accept"] * 3) is None  # one category only: undefined, not 1 or 0
    assert cohen_kappa(["accept", "reject"], ["reject", "accept"]) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="paired"):
        cohen_kappa(["accept"], [])


def test_pairs_are_measured_only_over_items_both_judged():
    judgements = {"i1": {"Ala": "accept", "Basia": "accept", "Celina": "reject"}, "i2": {"Ala": "reject", "Basia": "accept"},
                  "i3": {"Celina": "edit"}}
    pairs = {(p.first, p.second): p for p in pair_agreements(judgements)}
    assert set(pairs) == {("Ala", "Basia"), ("Ala", "Celina"), ("Basia", "Celina")}
    assert (pairs["Ala", "Basia"].items, pairs["Ala", "Basia"].agreed) == (2, 1)
    assert pairs["Ala", "Basia"].confusion["reject"]["accept"] == 1
    assert pairs["Ala", "Celina"].items == 1


@pytest.fixture
def double_client(store):
    double = DoubleReview.open(store)
    client = review_client(store, double=double)
    return client, double


def blind_queue(client, name):
    return client.get("/api/queue", query_string={"status": "pending", "annotator": name}).json["ids"]


def test_each_figure_goes_to_two_annotators_blind_and_disagreements_wait_for_an_adjudicator(double_client, store, review_project):
    client, double = double_client
    root, curated, _ = review_project
    ids = blind_queue(client, "Ala")
    assert len(ids) == 6  # every pending figure; the blocked one is not pending
    votes = {"Ala": ["accept", "accept", "reject"], "Basia": ["accept", "reject", "reject"]}
    for name, actions in votes.items():
        for item_id, action in zip(ids, actions):
            shown = client.get(f"/api/items/{item_id}").json
            assert (shown["status"], shown["reviewed_by"]) == ("pending", None)  # blind: nobody's verdict
            assert shown["description"] == shown["generated"]["description"]
            body = {"action": action, "annotator": name, **({"reason": f"{name}: zły"} if action == "reject" else {})}
            response = client.post(f"/api/items/{item_id}/vote", json=body)
            assert response.status_code == 200, response.json
        assert blind_queue(client, name) == ids[3:]  # what she judged left her queue
    assert blind_queue(client, "Celina") == ids[3:]  # two judgements each: the first three are not hers
    third = client.post(f"/api/items/{ids[0]}/vote", json={"action": "accept", "annotator": "Celina"})
    assert third.status_code == 400 and "2 blind judgements already" in third.json["error"]
    again = client.post(f"/api/items/{ids[4]}/vote", json={"action": "accept", "annotator": "Ala"})
    assert client.post(f"/api/items/{ids[4]}/vote", json={"action": "accept", "annotator": "Ala"}).status_code == 400
    assert again.status_code == 200

    # Matching judgements decide; the differing one waits for adjudication.
    assert (store.get(ids[0]).status, store.get(ids[0]).reviewed_by) == ("accepted", "Ala & Basia")
    assert (store.get(ids[2]).status, store.get(ids[2]).reason) == ("rejected", "Basia: zły")
    assert store.get(ids[1]).status == "pending"
    adjudicate = client.get("/api/queue", query_string={"status": "pending", "adjudicate": "1"}).json["ids"]
    assert adjudicate == [ids[1]]
    detail = client.get(f"/api/items/{ids[1]}", query_string={"adjudicate": "1"}).json
    assert sorted((v["annotator"], v["action"]) for v in detail["votes"]) == [("Ala", "accept"), ("Basia", "reject")]
    decided = client.post(f"/api/items/{ids[1]}/decision", json={"version": 0, "action": "accept", "annotator": "Dorota"})
    assert decided.status_code == 200
    assert client.get("/api/queue", query_string={"adjudicate": "1"}).json["ids"] == []

    report = client.get("/api/agreement").json
    assert report["pairs"][0]["annotators"] == ["Ala", "Basia"] and report["pairs"][0]["kappa"] == pytest.approx(0.4)
    assert (report["judged_items"], report["awaiting_second"], report["disagreements"]) == (4, 1, 0)
    assert len(read_jsonl(root / BLIND_FILE)) == 7
    reopened = DoubleReview.open(ReviewStore.open(root, [curated]))  # the judgements are replayed after a restart
    assert reopened.agreement()[0].kappa == pytest.approx(0.4)


def test_the_single_review_server_has_no_votes(client):
    item_id = client.get("/api/queue").json["ids"][0]
    assert client.post(f"/api/items/{item_id}/vote", json={"action": "accept", "annotator": "Ala"}).status_code == 404
    assert client.get("/api/agreement").status_code == 404
    assert client.get("/api/queue").json["mode"] == "single"


def test_the_agreement_command_prints_kappa_and_writes_the_report(review_project, store, capsys):
    root, curated, _ = review_project
    double = DoubleReview.open(store)
    ids = store.query(status="pending")
    for name, actions in {"Ala": ["accept", "reject"], "Basia": ["accept", "accept"]}.items():
        for item_id, action in zip(ids, actions):
            double.vote(item_id, annotator=name, action=action, reason="nie" if action == "reject" else None)
    assert cli(["review", "--root", str(root), "--agreement"]) == 0
    out = capsys.readouterr().out
    assert "| Ala – Basia | 2 | 1 | 50.0% | 0.000 |" in out
    written = json.loads((root / AGREEMENT_FILE).read_text(encoding="utf-8"))
    assert written["pairs"][0]["kappa"] == 0.0 and written["disagreements"] == 1


def test_two_annotators_in_the_browser_produce_a_kappa_in_the_report(browser, store):
    double = DoubleReview.open(store)
    with serve_review(store, double=double) as url:
        tabs = {}
        for name in ("Ala", "Basia"):
            context = browser.new_context(viewport=LAPTOP_WINDOW)
            tab = context.new_page()
            tab.js_errors = []
            tab.on("pageerror", lambda exc, tab=tab: tab.js_errors.append(str(exc)))
            tab.goto(f"{url}/")
            expect(tab.locator("#mode")).to_have_text("double review: blind")
            tab.fill("#annotator", name)
            tab.locator("#annotator").press("Enter")
            tab.dispatch_event("#annotator", "change")
            expect(tab.locator("#meta")).to_contain_text("1 of 6")
            tabs[name] = tab
        ala, basia = tabs["Ala"], tabs["Basia"]
        ala.keyboard.press("a")
        expect(ala.locator("#meta")).to_contain_text("1 of 5")
        ala.keyboard.press("a")
        expect(ala.locator("#meta")).to_contain_text("1 of 4")

        basia.keyboard.press("a")
        expect(basia.locator("#meta")).to_contain_text("1 of 5")
        assert basia.locator("#state").text_content().startswith("status: pending")  # Ala's accept is not shown
        basia.keyboard.press("r")
        basia.locator("#reason").fill("opis nie pasuje")
        basia.locator("#reason").press("Enter")
        expect(basia.locator("#meta")).to_contain_text("1 of 4")

        basia.click("#agreement-open")
        rows = basia.locator("#agreement-rows tr")
        expect(rows).to_have_count(1)
        cells = rows.first.locator("td").all_text_contents()
        assert cells[:3] == ["Ala – Basia", "2", "1"]
        assert cells[4] == "0.000"  # observed 1/2, chance 1/2 (Ala accepted both, Basia one of two)
        expect(basia.locator("#agreement-note")).to_contain_text("disagreements to adjudicate: 1")
        basia.keyboard.press("Escape")

        judge = ala.context.new_page()
        judge.goto(f"{url}/?adjudicate=1")
        expect(judge.locator("#mode")).to_have_text("adjudication: both judgements shown")
        expect(judge.locator("#votes")).to_contain_text("Basia: reject")
        judge.fill("#annotator", "Dorota")
        judge.locator("#annotator").press("Enter")
        judge.keyboard.press("a")
        expect(judge.locator("#empty")).to_have_text("No disagreements wait for adjudication.")
        assert ala.js_errors == [] and basia.js_errors == []
        for tab in tabs.values():
            tab.context.close()
    decided = [(e["annotator"], e["action"]) for e in read_jsonl(store.log.path)]
    assert decided == [("Ala & Basia", "accept"), ("Dorota", "accept")]  # the agreed figure, then the adjudicated one


def test_a_vote_goes_through_the_same_origin_and_schema_checks_as_every_write(double_client, store):
    client, double = double_client
    item_id = store.query(status="pending")[0]
    foreign = client.post(f"/api/items/{item_id}/vote", json={"action": "accept", "annotator": "Ala"},
                          headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403 and foreign.json["field"] == "Origin"
    for field, value in [("action", "approve"), ("annotator", 7), ("version", 0), ("reason", ["x"])]:
        refused = client.post(f"/api/items/{item_id}/vote", json={"action": "accept", "annotator": "Ala", field: value})
        assert refused.status_code == 400 and refused.json["field"] == field, (field, refused.json)
    no_reason = client.post(f"/api/items/{item_id}/vote", json={"action": "reject", "annotator": "Ala", "reason": "  "})
    assert no_reason.status_code == 400 and no_reason.json["field"] == "reason"
    assert double.votes == {} and not (store.root / BLIND_FILE).exists()
