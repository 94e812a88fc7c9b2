"""Failures a backend raises besides base.TechnicalFailure (the retryable kind)."""
from __future__ import annotations


class ConfigurationFailure(Exception):
    """Every request would fail the same way (bad key, unknown model, wrong URL): stop the run."""


class RequestRejected(Exception):
    """The service refused this one request as malformed (a 4xx other than 408/429): kept as a
    technical failure, not retried, since sending the same request again gets the same answer."""

    def __init__(self, message: str, *, status: int | None = None):
        super().__init__(message)
        self.status = status
