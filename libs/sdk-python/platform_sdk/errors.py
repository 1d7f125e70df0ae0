"""One exception class for every API error, with a subclass per kind of failure."""
from __future__ import annotations

from typing import Any, Optional


class PlatformError(Exception):
    """An error answer of the API (or a network failure, with status 0)."""

    def __init__(self, status: int, message: str, code: Optional[int] = None,
                 request_id: Optional[str] = None, body: Any = None) -> None:
        super().__init__(f"{status}: {message}")
        self.status = status
        self.code = code if code is not None else status
        self.message = message
        self.request_id = request_id
        self.body = body
        # Why, as a stable machine-readable string (app_not_found, ...), when the service gave one.
        reason = body.get("reason") if isinstance(body, dict) else None
        self.reason: Optional[str] = reason if isinstance(reason, str) else None


class ValidationError(PlatformError):
    """400: missing or invalid parameters; the message names every bad field."""


class AuthenticationError(PlatformError):
    """401: missing, invalid, expired or revoked credential."""


class PermissionDeniedError(AuthenticationError):
    """403: the credential lacks a scope (a kind of auth error)."""


class NotFoundError(PlatformError):
    """404."""


class ConflictError(PlatformError):
    """409: duplicate, or an idempotency key reused or in flight."""


class RateLimitError(PlatformError):
    """429; `retry_after` holds the seconds the server asked to wait."""

    def __init__(self, *args: Any, retry_after: Optional[float] = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.retry_after = retry_after


class ServerError(PlatformError):
    """5xx (including 502/503/504 from the AI upstream)."""


class APIConnectionError(PlatformError):
    """The request never got an answer (refused, reset, timed out)."""


def error_for(status: int, body: Any, request_id: Optional[str], retry_after: Optional[float] = None) -> PlatformError:
    message = body.get("message") if isinstance(body, dict) else None
    code = body.get("code") if isinstance(body, dict) and isinstance(body.get("code"), int) else status
    message = message or f"HTTP {status}"
    if status == 400:
        return ValidationError(status, message, code, request_id, body)
    if status == 401:
        return AuthenticationError(status, message, code, request_id, body)
    if status == 403:
        return PermissionDeniedError(status, message, code, request_id, body)
    if status == 404:
        return NotFoundError(status, message, code, request_id, body)
    if status == 409:
        return ConflictError(status, message, code, request_id, body)
    if status == 429:
        return RateLimitError(status, message, code, request_id, body, retry_after=retry_after)
    if status >= 500:
        return ServerError(status, message, code, request_id, body)
    return PlatformError(status, message, code, request_id, body)
