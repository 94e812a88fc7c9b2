"""A deadline for a whole network exchange, not for each socket read.

A socket timeout bounds one read: a server that sends a byte before each read would time out holds a
connection for as long as it likes. A `Deadline` shuts the watched sockets down when it passes, which
ends whatever read is waiting on them (the reader sees the connection end, and asks `expired`).
"""
from __future__ import annotations

import socket
import threading
import time


class Deadline:
    """The moment a request must be done by; `watch` a connection's socket to have it shut down then."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.expired = False
        self._timers: list[threading.Timer] = []
        self._lock = threading.Lock()

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def watch(self, sock: socket.socket, how: int = socket.SHUT_RDWR) -> None:
        """Have `sock` shut down (`how`: SHUT_RD leaves a server able to answer) when the deadline passes."""
        timer = threading.Timer(max(0.0, self.remaining()), self._cut, (sock, how))
        timer.daemon = True
        with self._lock:
            self._timers.append(timer)
        timer.start()

    def _cut(self, sock: socket.socket, how: int) -> None:
        self.expired = True
        try:
            sock.shutdown(how)
        except OSError:
            pass  # already closed

    def cancel(self) -> None:
        with self._lock:
            for timer in self._timers:
                timer.cancel()
            self._timers.clear()
