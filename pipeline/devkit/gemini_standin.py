"""A stand-in for Gemini's REST `POST /v1beta/models/{model}:generateContent`, with scripted faults:
run `examcorpus describe` and the review page with no network and no API key spent.

Run it (prints its base URL, serves until Ctrl-C):

    python -m pipeline.devkit.gemini_standin --port 8090
    EXAMCORPUS_GEMINI_BASE_URL=http://127.0.0.1:8090 GEMINI_API_KEY=any make describe

Every figure gets a fixed, plausible description and transcription (a right triangle ABC), so the
describe → review → merge path can be tried end to end; `--slow-s` adds latency per request.
The describe tests and bench start it in-process (`GeminiStandIn().start()`) and script faults:

Each test question carries a token like [F07] in its text, which the prompt repeats. The stand-in
reads it and plays that token's script, one action per request (the last action repeats):
  ok        a JSON answer {"description", "transcription"} naming the token
  slow      ok after `slow_s`
  hang      sleeps `hang_s` (longer than the client's timeout), then ok
  429       RESOURCE_EXHAUSTED with a google.rpc.RetryInfo retryDelay of `retry_delay`
  500, 503  INTERNAL / UNAVAILABLE
  block     promptFeedback.blockReason SAFETY, no candidates
  safety    a candidate with finishReason SAFETY and no content
  empty     a candidate whose text is ""
  badjson   the model's text is not JSON (cut off mid-object)
  garbage   HTTP 200 whose body is not JSON at all
  badkey    HTTP 400 API_KEY_INVALID whose message echoes the key it got (a careless proxy)
  html      a description and transcription holding an HTML/script payload
  redirect  HTTP 307 to `redirect_to` (another origin, which must never see the key)
  trickle   the ok answer, headers and body, a byte every `trickle_s` (each read on time, the whole never)
  huge      the ok answer after `huge_bytes` of JSON white space (a valid body no answer needs)
  gzipbomb  the same body gzipped twice, sent as `Content-Encoding: gzip, gzip` (a few KB on the wire)
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer

from pipeline.devkit.standin_http import (Scripted, StandInHandler, answer_only_to_own_names, base_url, handling, serve,
                                         stop, wait_until_stopped)

TOKEN = re.compile(r"\[(F\d+)\]")
ROUTE = re.compile(r"/v1beta/models/([^/:]+):generateContent")
HTML_PAYLOAD = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold?</b>'


@dataclass
class GeminiStandIn(Scripted):
    scripts: dict[str, list[str]] = field(default_factory=dict)
    default_action: str = "ok"
    slow_s: float = 0.05
    hang_s: float = 2.0
    trickle_s: float = 0.05
    huge_bytes: int = 96 * 1024 * 1024
    retry_delay: str = "0.2s"
    requests: list[dict] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    base_url: str = ""
    redirect_to: str = ""
    _server: ThreadingHTTPServer | None = None

    def calls_for(self, token: str) -> list[dict]:
        return [r for r in self.requests if r["token"] == token]

    def start(self, host: str = "127.0.0.1", port: int = 0, own_names_only: bool = False) -> "GeminiStandIn":
        self._server = serve(_handler(self), host, port)
        if own_names_only:
            answer_only_to_own_names(self._server)
        self.base_url = base_url(self._server)
        return self

    def stop(self) -> None:
        if self._server is not None:
            stop(self._server)

    def respond(self, action: str, token: str | None, model: str, key: str | None) -> tuple[int, bytes]:
        usage = {"promptTokenCount": 300, "candidatesTokenCount": 80, "totalTokenCount": 380}
        meta = {"usageMetadata": usage, "modelVersion": f"{model}-standin-001"}
        if action == "429":
            return _json(429, {"error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).", "status": "RESOURCE_EXHAUSTED",
                                         "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": self.retry_delay}]}})
        if action in ("500", "503"):
            status = {"500": "INTERNAL", "503": "UNAVAILABLE"}[action]
            return _json(int(action), {"error": {"code": int(action), "message": "An internal error has occurred.", "status": status}})
        if action == "badkey":
            return _json(400, {"error": {"code": 400, "message": f"API key not valid: {key}", "status": "INVALID_ARGUMENT"}})
        if action == "garbage":
            return 200, b"<html>502 Bad Gateway</html>"
        if action == "block":
            return _json(200, {"promptFeedback": {"blockReason": "SAFETY", "safetyRatings": []}, **meta})
        if action == "safety":
            return _json(200, {"candidates": [{"finishReason": "SAFETY", "index": 0}], **meta})
        text = {
            "empty": "",
            "badjson": '{"description": "A circuit with two resis',
            "html": json.dumps({"description": f"Figure {token}: {HTML_PAYLOAD}", "transcription": HTML_PAYLOAD}),
        }.get(action)
        if text is None:
            token = token or "(no token)"
            text = json.dumps({"description": f"Figure {token}: a right triangle ABC with the right angle at C; AC = 3 cm, BC = 4 cm.",
                               "transcription": f"A\nB\nC\n3 cm\n4 cm\n{token}"}, ensure_ascii=False)
        return _json(200, {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}], **meta})


def _b64(data: str) -> bytes:
    """The SDK sends URL-safe base64 without padding; the API accepts both alphabets."""
    data = data.replace("-", "+").replace("_", "/")
    return base64.b64decode(data + "=" * (-len(data) % 4))


def _json(status: int, payload: dict) -> tuple[int, bytes]:
    return status, json.dumps(payload).encode()


def _handler(standin: GeminiStandIn):
    class Handler(StandInHandler):
        def do_POST(self):
            body = self.read_json()
            route = ROUTE.fullmatch(self.path.split("?")[0])
            parts = [p for c in body.get("contents", []) for p in c.get("parts", [])]
            text = "".join(p.get("text", "") for p in parts)
            images = [_b64(p["inlineData"]["data"]) for p in parts if "inlineData" in p]
            tokens = TOKEN.findall(text)
            token = tokens[-1] if tokens else None
            action = standin.next_action(token) if route else "404"
            with handling(standin, {
                "path": self.path, "headers": dict(self.headers), "body": body, "token": token, "action": action,
                "image_sha256": [hashlib.sha256(i).hexdigest() for i in images], "t": time.monotonic(),
            }):
                if action == "slow":
                    time.sleep(standin.slow_s)
                elif action == "hang":
                    time.sleep(standin.hang_s)
            if route is None:
                status, data = _json(404, {"error": {"code": 404, "message": f"no route {self.path}", "status": "NOT_FOUND"}})
            else:
                status, data = standin.respond(action, token, route.group(1), self.headers.get("x-goog-api-key"))
            if action == "redirect":
                self.send_body(307, b"", {"Location": standin.redirect_to + self.path})
                return
            if action in ("trickle", "huge", "gzipbomb"):
                self._send_raw(action, data)
                return
            self.send_body(status, data, content_type="application/json; charset=UTF-8")

        def _send_raw(self, action: str, data: bytes) -> None:
            padding = standin.huge_bytes if action == "huge" else 0
            head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\n"
                    f"Content-Length: {padding + len(data)}\r\nConnection: close\r\n\r\n").encode()
            self.close_connection = True
            if action == "gzipbomb":
                data, padding = gzip_bomb(standin.huge_bytes, data), 0
                head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Encoding: gzip, gzip\r\n"
                        f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n").encode()
            try:
                if action == "trickle":
                    for byte in head + data:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(standin.trickle_s)
                    return
                self.wfile.write(head)
                chunk = b" " * (1 << 20)
                for start in range(0, padding, len(chunk)):
                    self.wfile.write(chunk[:padding - start])
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

    return Handler


def gzip_bomb(padding: int, answer: bytes) -> bytes:
    """`padding` bytes of JSON white space then `answer`, gzipped, and the result gzipped again."""
    import gzip
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    spaces = b" " * (1 << 20)
    once = b"".join(packer.compress(spaces[:padding - start]) for start in range(0, padding, len(spaces)))
    return gzip.compress(once + packer.compress(answer) + packer.flush(), 9)


def main(argv: list[str] | None = None) -> int:
    """`python -m pipeline.devkit.gemini_standin [--host H] [--port N] [--slow-s S] [--until-stdin-closes]`:
    serve in a process of its own; prints the base URL first. The bench runs it so (keeping the SDK's
    CPU work and the server's off one GIL) and stops it by closing stdin."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.gemini_standin", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free one; the URL is printed)")
    parser.add_argument("--slow-s", type=float, default=0.0, help="seconds each answer waits (default 0)")
    parser.add_argument("--until-stdin-closes", action="store_true", help="stop when stdin closes, not on Ctrl-C")
    args = parser.parse_args(argv)
    # Run as a program, no page whose name is rebound to its address reaches it.
    standin = GeminiStandIn(default_action="slow", slow_s=args.slow_s).start(args.host, args.port, own_names_only=True)
    print(standin.base_url, flush=True)
    wait_until_stopped("Gemini stand-in", standin.stop, args.until_stdin_closes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
