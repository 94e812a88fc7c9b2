"""The review server under hostile requests, over raw HTTP to a real `examcorpus review` process on
127.0.0.1: forged Host names (DNS rebinding), writes from foreign origins, page boxes that would
freeze the renderer, bodies too big to read, and bodies of the wrong shape. Each is refused with a
JSON error naming what is wrong, and none leaves a line in the decision or correction logs.

Every request has a socket timeout: a server that hangs (reading a 300 MB body, drawing a box a
trillion points wide) fails the test instead of stalling it."""
from __future__ import annotations

import hashlib
import http.client
import io
import json
import socket
import subprocess
import sys
import threading
import urllib.parse
from pathlib import Path

import pytest
from fpdf import FPDF
from PIL import Image

from pipeline.review import serve_review
from pipeline.review.guard import MAX_BODY_BYTES
from pipeline.review.pages import MAX_PAGE_PIXELS
from pipeline.review.schemas import MAX_ANSWER, MAX_NOTE, MAX_OPTION, MAX_OPTIONS, MAX_TEXT
from pipeline.review.names import MAX_NAME
from tests.pipeline.review.builders import build_review_project, write_sheet

EXAMCORPUS = Path(sys.executable).parent / "examcorpus"
TIMEOUT_S = 20  # far above any answer of a healthy server; only a hung one reaches it
LOGS = ("annotations/reviews.jsonl", "annotations/overrides.jsonl")
POSTER_PT = 3000  # a 3000 × 3000 pt page: 20 M pixels at the audit's 1.5 scale, over the budget


class Response:
    def __init__(self, raw: bytes):
        head, _, self.body = raw.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in header_lines)}

    def json(self) -> dict:
        assert self.headers.get("content-type", "").startswith("application/json"), (self.status, self.body[:200])
        return json.loads(self.body)


class Server:
    """A running `examcorpus review` and raw HTTP to it."""

    def __init__(self, root: Path, port: int, process: subprocess.Popen):
        self.root, self.port, self.process = root, port, process
        self.host = f"127.0.0.1:{port}"
        self.origin = f"http://{self.host}"

    def send(self, method: str, path: str, headers: dict | None = None, body: bytes = b"", *, length: int | None = None) -> Response:
        """One request as bytes on a socket; `headers` replace the defaults (Host, and for a write its
        Origin and Content-Type; a value of None leaves the header out)."""
        defaults = {"Host": self.host}
        if method != "GET":
            defaults |= {"Origin": self.origin, "Content-Type": "application/json", "Content-Length": str(len(body) if length is None else length)}
        merged = {k: v for k, v in (defaults | (headers or {})).items() if v is not None}
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in merged.items()) + "\r\n"
        with socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT_S) as sock:
            sock.sendall(head.encode("latin-1") + body)
            return Response(_read_response(sock))

    def get(self, path: str, **headers) -> Response:
        return self.send("GET", path, headers)

    def post(self, path: str, payload, headers: dict | None = None) -> Response:
        return self.send("POST", path, headers, json.dumps(payload).encode())

    def logs(self) -> dict[str, bytes]:
        return {name: (self.root / name).read_bytes() if (self.root / name).exists() else b"" for name in LOGS}


def _read_response(sock: socket.socket) -> bytes:
    """The head and the Content-Length bytes of the answer; not waiting for the connection to close,
    as a server draining an unread upload keeps it open until the client goes."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head = data.partition(b"\r\n\r\n")[0].decode("latin-1").lower()
    length = next((int(line.split(":", 1)[1]) for line in head.split("\r\n") if line.startswith("content-length:")), None)
    while (chunk := sock.recv(65536)) if length is None or len(data.partition(b"\r\n\r\n")[2]) < length else b"":
        data += chunk
    return data


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _poster_sheet(root: Path) -> str:
    pdf = FPDF(unit="pt", format=(POSTER_PT, POSTER_PT))
    pdf.add_page()
    pdf.set_font("helvetica", size=40)
    pdf.cell(0, 60, "Plakat")
    data = bytes(pdf.output())
    sha = hashlib.sha256(data).hexdigest()
    (root / "raw" / f"{sha}.pdf").write_bytes(data)
    return sha


def _start(root: Path, *options: str) -> Server:
    port = _free_port()
    process = subprocess.Popen([str(EXAMCORPUS), "review", "--root", str(root), "--port", str(port), *options],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()  # printed once it listens
    assert "review page: http://127.0.0.1:" in line, process.stderr.read() if process.poll() is not None else line
    return Server(root, port, process)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile") / "project"
    build_review_project(root)
    sheets = {"a4": write_sheet(root), "poster": _poster_sheet(root)}
    running = _start(root)
    running.sheets = sheets
    yield running
    running.process.kill()
    running.process.wait()


def _pending_decision(server: Server) -> tuple[str, dict]:
    """The URL and a valid body for a decision (an accept) on a pending item, at its current version."""
    item_id = server.get("/api/queue?status=pending").json()["ids"][0]
    item = server.get(f"/api/items/{item_id}").json()
    return f"/api/items/{item_id}/decision", {"version": item["version"], "action": "accept", "annotator": "Ala", "description": "Opis.",
                                              "transcription": ""}


def _correction(server: Server) -> tuple[str, dict]:
    """The URL and a valid body for a correction of a curated question, at its current version."""
    question_id = server.get("/api/audit/queue?all=1").json()["ids"][0]
    detail = server.get(f"/api/audit/questions/{question_id}").json()
    body = {"version": detail["version"], "annotator": "Celina", "question": detail["current"]["question"],
            "choices": detail["current"]["choices"], "answer": detail["current"]["answer"], "broken": False, "note": ""}
    return f"/api/audit/questions/{question_id}", body


def _undo(server: Server) -> tuple[str, dict]:
    """The URL and a valid body for an undo of an accepted item's decision (one is decided when none is
    accepted: the server is shared by the module's tests, and its pending items run out)."""
    accepted = server.get("/api/queue?status=accepted").json()["ids"]
    if accepted:
        decided = server.get(f"/api/items/{accepted[0]}").json()
    else:
        url, body = _pending_decision(server)
        decided = server.post(url, body).json()["item"]
    return f"/api/items/{decided['item_id']}/undo", {"version": decided["version"], "annotator": "Ala"}


WRITES = {"decision": _pending_decision, "correction": _correction, "undo": _undo}


# --- DNS rebinding: only the names the server was started for -------------------------------------

@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1.nip.io:{port}", "localhost:{other}", "127.0.0.1"])
def test_a_request_for_another_host_name_is_refused_reads_and_writes_alike(server, host):
    forged = host.format(port=server.port, other=server.port + 1)
    refused = server.get("/api/queue", Host=forged)
    assert refused.status == 421 and refused.json()["field"] == "Host" and forged in refused.json()["error"]
    assert server.get("/", Host=forged).status == 421  # not even the page that would run the attacker's script

    before = server.logs()
    url, body = _pending_decision(server)
    write = server.post(url, body, {"Host": forged, "Origin": f"http://{forged}"})  # what a rebound page sends
    assert write.status == 421 and server.logs() == before


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LOCALHOST", "[::1]"])
def test_the_loopback_names_with_the_servers_port_are_answered(server, name):
    assert server.get("/api/queue", Host=f"{name}:{server.port}").status == 200


def test_a_tunnelled_name_is_answered_only_when_allowed_by_name(review_project):
    root, _, _ = review_project
    server = _start(root, "--allow-host", "LOCALHOST:9000", "--allow-host", "review.lan")
    try:
        url, body = _pending_decision(server)
        tunnel = {"Host": "localhost:9000", "Origin": "http://localhost:9000"}  # ssh -L 9000:127.0.0.1:PORT
        assert server.post(url, body, tunnel).status == 200
        assert server.get("/api/queue", Host=f"review.lan:{server.port}").status == 200  # a name without a port: the server's
        assert server.get("/api/queue", Host="localhost:9001").status == 421
        assert server.get("/api/queue", Host="review.lan:9000").status == 421
    finally:
        server.process.kill()
        server.process.wait()
    refused = subprocess.run([str(EXAMCORPUS), "review", "--root", str(root), "--allow-host", "*.example"], capture_output=True, text=True,
                             timeout=60, check=False)
    assert refused.returncode == 2 and "not a host name with an optional port: '*.example'" in refused.stderr


def test_a_server_bound_to_another_address_answers_to_it_too(store):
    with serve_review(store, host="127.0.0.2") as url:  # all of 127/8 is loopback on Linux
        address = url.removeprefix("http://")
        connection = http.client.HTTPConnection(address, timeout=TIMEOUT_S)
        item_id = store.order[0]
        version = store.get(item_id).version
        connection.request("POST", f"/api/items/{item_id}/decision", headers={"Origin": url, "Content-Type": "application/json"},
                           body=json.dumps({"version": version, "action": "reject", "annotator": "Ala", "reason": "blurred"}))
        answer = connection.getresponse()
        assert answer.status == 200, answer.read()
        connection.close()
        assert store.get(item_id).status == "rejected"


# --- writes only from the server's own page --------------------------------------------------------

FOREIGN = [
    pytest.param({"Origin": "http://evil.example"}, id="foreign-origin"),
    pytest.param({"Origin": "http://127.0.0.1:{other}"}, id="another-local-port"),
    pytest.param({"Origin": "null"}, id="opaque-origin"),
    pytest.param({"Origin": None}, id="no-origin-no-referer"),
    pytest.param({"Origin": None, "Referer": "http://evil.example/page.html"}, id="foreign-referer"),
    pytest.param({"Sec-Fetch-Site": "cross-site"}, id="marked-cross-site"),
]


@pytest.mark.parametrize("endpoint", sorted(WRITES))
@pytest.mark.parametrize("headers", FOREIGN)
def test_a_write_not_from_the_servers_own_page_is_refused(server, endpoint, headers):
    url, body = WRITES[endpoint](server)
    headers = {k: v.format(other=server.port + 1) if v else v for k, v in headers.items()}
    before = server.logs()
    refused = server.post(url, body, headers)
    assert refused.status == 403 and refused.json()["field"] == "Origin", refused.body
    assert server.logs() == before


@pytest.mark.parametrize("endpoint", sorted(WRITES))
@pytest.mark.parametrize("headers", [
    pytest.param({}, id="origin-127.0.0.1"),
    pytest.param({"Origin": "http://localhost:{port}", "Host": "localhost:{port}"}, id="origin-localhost"),
    pytest.param({"Origin": None, "Referer": "http://127.0.0.1:{port}/audit"}, id="referer-only"),
    pytest.param({"Sec-Fetch-Site": "same-origin"}, id="marked-same-origin"),
])
def test_a_write_from_the_servers_own_page_is_stored(server, endpoint, headers):
    url, body = WRITES[endpoint](server)
    headers = {k: v.format(port=server.port) if v else v for k, v in headers.items()}
    before = server.logs()
    stored = server.post(url, body, headers)
    assert stored.status == 200, stored.body
    assert server.logs() != before


# --- page images: the box is checked against the page, the image stays within a budget -------------

@pytest.mark.parametrize("box", ["0,0,1e12,1e12", "0,0,1e9,1e9", "-1e9,0,10,10", "nan,0,10,10", "0,0,inf,10", "0,-inf,10,10",
                                 "700,900,800,1000", "-30,-30,-5,-5", "10,10,5,5", "1,2,3", "1,2,3,4,5", "1,2,3,x", ",,,"])
def test_a_page_box_that_is_not_on_the_page_is_refused_at_once(server, box):
    refused = server.get(f"/page/{server.sheets['a4']}/1.png?box={box}")
    assert refused.status == 400, refused.body[:200]
    assert refused.json()["error"].startswith("box: ") and refused.json()["field"] == "box"


def test_a_box_overhanging_the_page_a_little_is_drawn_clamped(server):
    page = server.get(f"/page/{server.sheets['a4']}/1.png?box=-10,-10,620,300")  # A4 is 595 pt wide: 25 pt over
    assert page.status == 200 and page.body.startswith(b"\x89PNG")


def test_an_oversized_page_is_rendered_within_the_pixel_budget(server):
    page = server.get(f"/page/{server.sheets['poster']}/1.png?box=100,100,2000,400")
    assert page.status == 200
    width, height = Image.open(io.BytesIO(page.body)).size
    assert width * height <= MAX_PAGE_PIXELS and width == height  # the whole page, smaller, not cropped
    assert width * height > MAX_PAGE_PIXELS * 0.9  # as large as the budget allows


def test_other_requests_are_served_while_a_client_trickles_its_body(server):
    url, _ = _pending_decision(server)
    slow = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT_S)
    try:  # half a request: headers for 1,000 bytes, then 10 of them, then silence
        slow.sendall((f"POST {url} HTTP/1.1\r\nHost: {server.host}\r\nOrigin: {server.origin}\r\n"
                      "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"version\"").encode())
        renders = [threading.Thread(target=server.get, args=(f"/page/{server.sheets['a4']}/{n % 2 + 1}.png",)) for n in range(4)]
        for thread in renders:
            thread.start()
        assert server.get("/api/queue").status == 200
        for thread in renders:
            thread.join(TIMEOUT_S)
    finally:
        slow.close()


# --- bodies: capped as a whole and field by field --------------------------------------------------

@pytest.mark.parametrize("endpoint", sorted(WRITES))
def test_a_body_claiming_300_mb_is_refused_before_it_is_read(server, endpoint):
    url, _ = WRITES[endpoint](server)
    before = server.logs()
    refused = server.send("POST", url, body=b'{"version": 0, "description": "' + b"x" * 65536, length=300 * 1024 * 1024)
    assert refused.status == 413 and refused.json()["field"] == "Content-Length"
    assert server.logs() == before


@pytest.mark.parametrize("endpoint", sorted(WRITES))
def test_a_chunked_body_over_the_cap_is_cut_off(server, endpoint):
    url, body = WRITES[endpoint](server)
    text_field = "description" if endpoint == "decision" else "note"
    data = json.dumps({**body, text_field: "x" * (MAX_BODY_BYTES + 100_000)}).encode()  # well-formed, only too big
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in (data[i:i + 65536] for i in range(0, len(data), 65536)))
    before = server.logs()
    refused = server.send("POST", url, {"Transfer-Encoding": "chunked", "Content-Length": None}, chunked + b"0\r\n\r\n")
    assert refused.status == 413, refused.body[:300]
    assert "413" in refused.json()["error"] and server.logs() == before


TOO_LONG = {
    "decision": [("annotator", "A" * (MAX_NAME + 1)), ("description", "x" * (MAX_TEXT + 1)),
                 ("transcription", "x" * (MAX_TEXT + 1)), ("reason", "x" * (MAX_NOTE + 1), "reject")],
    "correction": [("annotator", "C" * (MAX_NAME + 1)), ("question", "x" * (MAX_TEXT + 1)), ("choices", ["a"] * (MAX_OPTIONS + 1)),
                   ("choices.0", ["x" * (MAX_OPTION + 1)]), ("answer", "A" * (MAX_ANSWER + 1)), ("note", "x" * (MAX_NOTE + 1))],
}


@pytest.mark.parametrize("endpoint, case", [(e, c) for e, cases in TOO_LONG.items() for c in cases],
                         ids=[f"{e}-{c[0]}" for e, cases in TOO_LONG.items() for c in cases])
def test_an_over_long_field_is_refused_naming_the_field(server, endpoint, case):
    field, value, *action = case
    url, body = WRITES[endpoint](server)
    body = {**body, field.split(".")[0]: value, **({"action": action[0]} if action else {})}
    before = server.logs()
    refused = server.post(url, body)
    assert refused.status == 400 and refused.json()["field"] == field, refused.body[:300]
    assert "at most" in refused.json()["error"] and server.logs() == before


# --- bodies of the wrong shape: a typed 400 naming the field, never a 500 page ----------------------

WRONG_TYPES = {
    "decision": [("description", ["a list", "of lines"]), ("transcription", {"text": "x"}), ("reason", 5), ("annotator", 7),
                 ("annotator", None), ("action", 1), ("action", "approve"), ("version", "0"), ("version", True), ("version", 1.5),
                 ("version", -1), ("admin", True)],
    "correction": [("answer", 2), ("choices", "A\nB"), ("choices.1", ["ok", 3]), ("broken", "yes"), ("question", None),
                   ("note", []), ("version", "1"), ("annotator", ["Celina"]), ("sheet_sha256", "0" * 64)],
}


@pytest.mark.parametrize("endpoint, case", [(e, c) for e, cases in WRONG_TYPES.items() for c in cases],
                         ids=[f"{e}-{c[0]}-{type(c[1]).__name__}" for e, cases in WRONG_TYPES.items() for c in cases])
def test_a_field_of_the_wrong_type_is_a_400_naming_it(server, endpoint, case):
    field, value = case
    url, body = WRITES[endpoint](server)
    before = server.logs()
    refused = server.post(url, {**body, field.split(".")[0]: value})
    assert refused.status == 400, refused.body[:300]
    answer = refused.json()
    assert answer["field"] == field and answer["error"].startswith(f"{field}: ")
    assert server.logs() == before


@pytest.mark.parametrize("endpoint", sorted(WRITES))
@pytest.mark.parametrize("data, content_type, status", [
    pytest.param(b"[1, 2]", "application/json", 400, id="a-list"),
    pytest.param(b'{"version": 0,', "application/json", 400, id="cut-off-json"),
    pytest.param(b"\xff\xfe{}", "application/json", 400, id="not-utf8"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, "application/json", 400, id="nested-100000-deep"),
    pytest.param(b'{"version": 0}', "text/plain", 415, id="not-json-typed"),
    pytest.param(b"version=0&action=accept", "application/x-www-form-urlencoded", 415, id="a-form"),
])
def test_a_body_that_is_not_a_json_object_is_refused(server, endpoint, data, content_type, status):
    url, _ = WRITES[endpoint](server)
    before = server.logs()
    refused = server.send("POST", url, {"Content-Type": content_type}, data)
    assert refused.status == status and refused.json()["error"], refused.body[:300]
    assert server.logs() == before


def test_unknown_routes_and_methods_answer_json_too(server):
    assert server.get("/api/nothing-here").json()["error"].startswith("404")
    wrong_method = server.send("DELETE", "/api/queue")
    assert wrong_method.status == 405 and wrong_method.json()["error"].startswith("405")


# --- numbers in URLs: ASCII digits only, bounded; paths never leave the project ---------------------

def _arabic(digits: str) -> str:
    """`digits` in Arabic-Indic digits, percent-encoded as a browser sends them: int('١٠') == 10."""
    return urllib.parse.quote(digits.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")))


@pytest.mark.parametrize(("path", "field"), [
    ("/api/table?limit=" + _arabic("10"), "limit"),  # before: read as 10, a 200
    ("/api/table?limit=" + "9" * 5000, "limit"),  # before: int() raised past 4300 digits, a 500
    ("/api/queue?year=" + _arabic("2022"), "year"),
    ("/api/queue?year=" + "2" * 5000, "year"),
    ("/api/table?limit=%EF%BC%91%EF%BC%90", "limit"),  # full-width １０
])
def test_a_number_in_a_query_is_ascii_digits_or_a_400_naming_it(server, path, field):
    refused = server.get(path)
    assert refused.status == 400 and refused.json()["field"] == field, refused.body[:200]


def test_a_page_number_in_another_script_is_refused_not_read_as_a_number(server):
    sha = server.sheets["a4"]
    assert server.get(f"/page/{sha}/1.png").status == 200
    refused = server.get(f"/page/{sha}/{_arabic('1')}.png")  # before: werkzeug's int converter read '١' as 1
    assert refused.status == 400 and refused.json()["field"] == "page"
    assert server.get(f"/page/{sha}/{'9' * 5000}.txt").status == 400


@pytest.mark.parametrize("box", [",".join(_arabic(v) for v in ("50", "60", "400", "200")), "5_0,60,400,200", "%2050,60,400,200"])
def test_a_page_box_in_other_digits_is_refused(server, box):
    refused = server.get(f"/page/{server.sheets['a4']}/1.png?box={box}")  # before: float() read each as 50, 60…
    assert refused.status == 400 and refused.json()["field"] == "box", refused.body[:200]


@pytest.mark.parametrize("path", [
    "/static/..%2f..%2fserver.py", "/static/%2e%2e/%2e%2e/server.py", "/static/..%5c..%5cserver.py",
    "/static/%E2%80%A4%E2%80%A4/server.py",  # one-dot leaders, not dots
    "/static/..%EF%BC%8Fserver.py",  # a full-width solidus
    "/figure/..%2F..%2F..%2Fetc%2Fpasswd", "/figure/%2e%2e%2fcurated", "/page/..%2F..%2Fetc%2Fpasswd/1.png",
    "/page/" + "." * 64 + "/1.png", "/static/%c0%ae%c0%ae/server.py",  # an over-long UTF-8 dot
])
def test_encoded_and_look_alike_dots_and_slashes_reach_no_file_outside_the_static_folder(server, path):
    answer = server.get(path)
    assert answer.status in (400, 404), (answer.status, answer.body[:200])
    assert b"import " not in answer.body and b"root:" not in answer.body
