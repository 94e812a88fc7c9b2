"""The review page: a Flask app bound to 127.0.0.1 serving one static page and a small JSON API.

Flask because it is maintained (Pallets), synchronous (the store is a dict behind a lock: no event
loop to reason about), ships a threaded WSGI server good enough for a handful of local annotators,
and has a test client. The page builds every piece of model or PDF text with textContent, and a
Content-Security-Policy forbids inline script, so a payload in a description stays text.

Before any route, `pipeline.review.guard` checks the Host (DNS rebinding), the Origin of every write
and the body's size; every POST body is read through a strict schema (`pipeline.review.schemas`).
Every error, a refused request or a bug, is a JSON object with an `error` (and the `field` at fault
where there is one), never an HTML page.
"""
from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, abort, jsonify, request, send_file
from werkzeug.exceptions import HTTPException, InternalServerError

from pipeline.infra import ascii_int
from pipeline.review import connections
from pipeline.review.connections import SlotServer, TimedRequestHandler
from pipeline.review.double import DoubleReview
from pipeline.review.guard import LocalOrigins, framing_problem, install_request_guards, set_local_origins
from pipeline.review.overrides import CorrectionStore, OverrideConflict, OverrideError, UnknownQuestion
from pipeline.review.pages import RenderBusy, page_text, parse_box, render_page_png
from pipeline.review.schemas import ApiError, CorrectionBody, DecisionBody, UndoBody, VoteBody, read_body
from pipeline.review.store import ConflictError, ReviewInputError, ReviewStore, UnknownItem

STATIC_DIR = Path(__file__).parent / "static"
FIGURE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp", ".gif": "image/gif"}
SECURITY_HEADERS = {"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"


def create_app(store: ReviewStore, corrections: CorrectionStore | None = None, origins: LocalOrigins | None = None,
               double: DoubleReview | None = None) -> Flask:
    """The app answering to `origins` (by default the loopback names on port 80, as Flask's test
    client addresses it; `serve_review` sets the port it is bound to). With `double`, the page is in
    double-review mode (`pipeline.review.double`): blind judgements, agreement, adjudication."""
    corrections = corrections or CorrectionStore.open(store.root, store.questions)
    app = Flask(__name__, static_folder=str(STATIC_DIR), static_url_path="/static")
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    install_request_guards(app, origins or LocalOrigins())

    @app.after_request
    def security_headers(response):
        response.headers["Content-Security-Policy"] = CSP
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.errorhandler(ApiError)
    def refused(exc: ApiError):
        return jsonify(exc.body()), exc.status

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        """Werkzeug's own refusals (404, 405, a chunked body over the cap: 413) as JSON too; a body cut off by the
        request's deadline (`connections`) is a 408."""
        deadline = request.environ.get(connections.DEADLINE_KEY)
        if deadline is not None and deadline.expired:
            return jsonify({"error": f"408 the request body did not arrive within {connections.BODY_SECONDS:g} s",
                            "field": None}), 408
        return jsonify({"error": f"{exc.code} {exc.name}: {exc.description}", "field": None}), exc.code

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("review server error on %s %s", request.method, request.path)
        return jsonify({"error": f"internal error ({type(exc).__name__}); the request changed nothing it had not confirmed",
                        "field": None}), InternalServerError.code

    @app.errorhandler(ReviewInputError)
    def bad_input(exc):
        return jsonify({"error": str(exc), "field": exc.field}), 404 if isinstance(exc, UnknownItem) else 400

    @app.errorhandler(ConflictError)
    def conflict(exc):
        return jsonify({"error": "conflict", "message": "changed in another tab or by another annotator since you opened it",
                        "current": exc.item.detail(), "progress": store.progress()}), 409

    @app.get("/")
    def index():
        return send_file(STATIC_DIR / "index.html", mimetype="text/html")

    @app.get("/favicon.ico")
    def favicon():
        return "", 204

    def queried_ids() -> list[str]:
        args = request.args
        year_text = args.get("year", "")
        year = ascii_int(year_text, max_digits=4, strip="") if year_text else None
        if year_text and year is None:  # not '٢٠٢٢', '2_022' or 5000 digits (int() raised)
            raise ReviewInputError(f"year must be a number, not {year_text[:20]!r}", field="year")
        return store.query(status=args.get("status") or None, exam=args.get("exam") or None,
                           year=year, language=args.get("language") or None, text=args.get("q") or None)

    @app.get("/api/queue")
    def queue():
        ids = queried_ids()
        if double is not None:  # an annotator's own blind queue, or the adjudicator's disagreements
            ids = double.disagreements(ids) if request.args.get("adjudicate") == "1" else double.queue_for(request.args.get("annotator", ""), ids)
        return jsonify({"ids": ids, "progress": store.progress(), "facets": store.facets(), "mode": "double" if double else "single"})

    @app.get("/api/table")
    def table():
        """The queue as rows (id, exam, year, number, language, status, who), sorted by `sort`, the first `limit`."""
        limit = ascii_int(request.args.get("limit", "200"), max_digits=4, strip="")
        if limit is None or not 1 <= limit <= 1000:
            raise ReviewInputError(f"limit must be a number from 1 to 1000, not {request.args.get('limit', '')[:20]!r}", field="limit")
        ids = queried_ids()
        rows = store.table(ids, sort=request.args.get("sort") or "item_id", descending=request.args.get("dir") == "desc", limit=limit)
        return jsonify({"rows": rows, "total": len(ids)})

    @app.get("/api/items/<item_id>")
    def item(item_id: str):
        if double is not None:
            return jsonify(double.adjudication_detail(item_id) if request.args.get("adjudicate") == "1" else double.blind_detail(item_id))
        return jsonify(store.get(item_id).detail())

    @app.post("/api/items/<item_id>/vote")
    def vote(item_id: str):
        if double is None:
            raise ApiError("this server is not in double-review mode (`examcorpus review --double`)", field=None, status=404)
        body = read_body(request, VoteBody)
        double.vote(item_id, annotator=body.annotator, action=body.action, description=body.description,
                    transcription=body.transcription, reason=body.reason)
        return jsonify({"item": {**double.blind_detail(item_id), "status": "judged"}, "progress": store.progress()})

    @app.get("/api/agreement")
    def agreement():
        if double is None:
            raise ApiError("this server is not in double-review mode (`examcorpus review --double`)", field=None, status=404)
        return jsonify(double.report())

    @app.post("/api/items/<item_id>/decision")
    def decision(item_id: str):
        body = read_body(request, DecisionBody)
        updated = store.decide(item_id, action=body.action, annotator=body.annotator, version=body.version,
                               description=body.description, transcription=body.transcription, reason=body.reason)
        return jsonify({"item": updated.detail(), "progress": store.progress()})

    @app.post("/api/items/<item_id>/undo")
    def undo(item_id: str):
        body = read_body(request, UndoBody)
        updated = store.undo(item_id, annotator=body.annotator, version=body.version)
        return jsonify({"item": updated.detail(), "progress": store.progress()})

    @app.get("/figure/<item_id>")
    def figure(item_id: str):
        path = store.figure_path(item_id)
        # Served only as the raster image a crop is, its type fixed by its suffix: a figure path naming an HTML,
        # SVG or text file in the project would otherwise be served as a page of this origin or as a file's text.
        mimetype = FIGURE_TYPES.get(path.suffix.lower())
        if mimetype is None or not path.is_file():
            abort(404)
        return send_file(path, mimetype=mimetype)

    _add_audit_routes(app, corrections)
    return app


def _add_audit_routes(app: Flask, corrections: CorrectionStore) -> None:
    """The extraction audit: any curated question beside its rendered pages, corrected as overrides."""

    @app.errorhandler(OverrideError)
    def bad_override(exc):
        return jsonify({"error": str(exc), "field": exc.field}), 404 if isinstance(exc, UnknownQuestion) else 400

    @app.errorhandler(OverrideConflict)
    def override_conflict(exc):
        return jsonify({"error": "conflict", "message": f"corrected by {exc.current.annotator} at {exc.current.at} meanwhile",
                        "version": exc.version}), 409

    @app.get("/audit")
    def audit_page():
        return send_file(STATIC_DIR / "audit.html", mimetype="text/html")

    @app.get("/api/audit/queue")
    def audit_queue():
        ids = corrections.queue(flagged_only=request.args.get("all") != "1", code=request.args.get("code") or None)
        return jsonify({"ids": ids, "codes": corrections.flag_code_counts()})

    @app.get("/api/audit/questions/<path:question_id>")
    def audit_question(question_id: str):
        return jsonify(corrections.detail(question_id))

    @app.post("/api/audit/questions/<path:question_id>")
    def audit_correct(question_id: str):
        body = read_body(request, CorrectionBody)
        override = corrections.correct(question_id, annotator=body.annotator, version=body.version, question=body.question,
                                       choices=list(body.choices), answer=body.answer, broken=body.broken, note=body.note)
        return jsonify({"version": override.version, "question": corrections.detail(question_id)})

    @app.errorhandler(RenderBusy)
    def render_busy(exc: RenderBusy):
        return jsonify({"error": str(exc), "field": None}), 503, {"Retry-After": "2"}

    # The page number is read here, not by werkzeug's int converter: its \d+ takes '١' (Arabic-Indic one).
    @app.get("/page/<sheet_sha256>/<page>.png")
    def page_image(sheet_sha256: str, page: str):
        box = parse_box(request.args.get("box"))
        return app.response_class(render_page_png(corrections.root, sheet_sha256, _page_number(page), box=box), mimetype="image/png")

    @app.get("/page/<sheet_sha256>/<page>.txt")
    def printed_text(sheet_sha256: str, page: str):
        """The printed text layer of a page (within the question's region), JSON like every API answer."""
        box = parse_box(request.args.get("box"))
        number = _page_number(page)
        return jsonify({"page": number, "text": page_text(corrections.root, sheet_sha256, number, box=box)})


def _page_number(text: str) -> int:
    number = ascii_int(text, max_digits=6, strip="")
    if number is None:
        raise OverrideError(f"page: not a page number: {text[:20]!r}", field="page")
    return number


class _QuietHandler(TimedRequestHandler):
    """Logs failures only: a line per click would bury the URL the annotator needs. A request must come in time
    (`connections`: slowloris), else it is answered 408. A request whose body length is ambiguous is answered 400
    here, where the repeated headers are still seen (werkzeug's environ keeps the last Content-Length only)."""

    def parse_request(self) -> bool:
        if not super().parse_request() or not self.head_in_time():
            return False
        problem = framing_problem(self.headers.get_all("Content-Length") or [], self.headers.get_all("Transfer-Encoding") or [])
        if problem is None:
            return True
        self._answer_json(400, problem, "Content-Length")
        return False

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The request handler's own refusals (a header line over 64 KiB: 431, a request line too long: 414, a
        malformed one: 400) as JSON with the app's headers, like every other answer: http.server's default is an
        HTML page without a Content-Security-Policy or nosniff. A request line cut off by the deadline is a 408."""
        if self.expired():
            return self.timed_out()
        self._answer_json(code, f"{code} {message or self.responses.get(code, ('',))[0]}", None)

    def timed_out(self) -> None:
        self.request_version = "HTTP/1.1"  # a request line cut off is answered with a status line all the same
        if self.evicted:  # closed to make room for another connection: every slot was taken
            self._answer_json(408, "408 the request line and headers did not arrive while other connections waited "
                              "for a slot", None)
            return
        self._answer_json(408, f"408 the request line and headers did not arrive within {connections.HEAD_SECONDS:g} s", None)

    def _answer_json(self, code: int, problem: str, field: str | None) -> None:
        body = json.dumps({"error": problem, "field": field}).encode()
        self.close_connection = True
        self.send_response(code)
        headers = {"Content-Type": "application/json", "Content-Length": str(len(body)), "Connection": "close",
                   "Content-Security-Policy": CSP, **SECURITY_HEADERS}
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD" and code >= 200 and code not in (204, 304):
            self.wfile.write(body)

    def log_request(self, code="-", size="-"):
        if str(code).startswith("5"):
            super().log_request(code, size)


@contextmanager
def serve_review(store: ReviewStore, host: str = "127.0.0.1", port: int = 0, allowed_hosts: tuple[str, ...] = (),
                 double: DoubleReview | None = None):
    """Serves the page in a background thread; yields its base URL. It answers to the loopback names
    and `host` with its port, and to `allowed_hosts` (`guard.parse_allowed_host` values)."""
    app = create_app(store, double=double)
    server = SlotServer(host, port, app, _QuietHandler, busy_headers={"Content-Security-Policy": CSP, **SECURITY_HEADERS})
    set_local_origins(app, LocalOrigins(bound_host=host, port=server.server_port, extra_hosts=tuple(allowed_hosts)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
