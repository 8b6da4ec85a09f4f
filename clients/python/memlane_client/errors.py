"""Typed errors: one class per error code the memlane server answers (docs/errors.md).

Every error answer is ``{"error": {"code", "message", "field"?, "details"?}}``; the client raises
the class of its code, so callers branch on the class, never on the message text.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Type


class MemlaneError(Exception):
    """An error answer from the server (or no answer at all: see :class:`MemlaneConnectionError`).

    Attributes:
        code: the server's error code, e.g. ``"NOT_FOUND"``.
        status: the HTTP status (0 when no answer came).
        field: the input field to blame, when one is.
        details: whatever else the server said about it.
    """

    code: str = "UNEXPECTED"

    def __init__(
        self,
        message: str,
        *,
        code: Optional[str] = None,
        status: int = 0,
        field: Optional[str] = None,
        details: Optional[Dict[str, Any]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.status = status
        self.field = field
        self.details: Dict[str, Any] = details or {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status}, message={self.message!r})"


class InvalidInputError(MemlaneError):
    """400 INVALID_INPUT: the request does not fit its schema; ``field`` names the field. Nothing changed."""

    code = "INVALID_INPUT"


class UnauthorizedError(MemlaneError):
    """401 UNAUTHORIZED: no API key, or one that is unknown, wrong or revoked."""

    code = "UNAUTHORIZED"


class NotFoundError(MemlaneError):
    """404 NOT_FOUND: nothing with that id in the key's tenant."""

    code = "NOT_FOUND"


class MethodNotAllowedError(MemlaneError):
    """405 METHOD_NOT_ALLOWED: the path answers other methods (an older server may lack a route)."""

    code = "METHOD_NOT_ALLOWED"


class ConflictError(MemlaneError):
    """409 CONFLICT: the write collides with what is stored (a taken id, a closed session, a past version)."""

    code = "CONFLICT"


class PayloadTooLargeError(MemlaneError):
    """413 PAYLOAD_TOO_LARGE: the body is larger than the server's limit."""

    code = "PAYLOAD_TOO_LARGE"


class BusyError(MemlaneError):
    """429 BUSY: the tenant has as much work waiting as the server allows; nothing was changed.

    ``retry_after`` is the number of seconds the server asked to wait, when it said.
    """

    code = "BUSY"

    @property
    def retry_after(self) -> Optional[float]:
        value = self.details.get("retryAfterSeconds")
        return float(value) if isinstance(value, (int, float)) else None


class StoreUnavailableError(MemlaneError):
    """503 STORE_UNAVAILABLE: the database cannot be reached."""

    code = "STORE_UNAVAILABLE"


class ModelUnavailableError(MemlaneError):
    """503 MODEL_UNAVAILABLE: the chat model cannot be reached."""

    code = "MODEL_UNAVAILABLE"


class ModelTimeoutError(MemlaneError):
    """504 MODEL_TIMEOUT: the model did not answer in time."""

    code = "MODEL_TIMEOUT"


class SchemaMismatchError(MemlaneError):
    """502 SCHEMA_MISMATCH: the model's answers never fit their schema."""

    code = "SCHEMA_MISMATCH"


class UnsupportedError(MemlaneError):
    """501 UNSUPPORTED: the deployment cannot do this."""

    code = "UNSUPPORTED"


class MemlaneConnectionError(MemlaneError):
    """No answer: the server could not be reached, or the connection broke."""

    code = "CONNECTION"


_BY_CODE: Dict[str, Type[MemlaneError]] = {
    cls.code: cls
    for cls in (
        InvalidInputError,
        UnauthorizedError,
        NotFoundError,
        MethodNotAllowedError,
        ConflictError,
        PayloadTooLargeError,
        BusyError,
        StoreUnavailableError,
        ModelUnavailableError,
        ModelTimeoutError,
        SchemaMismatchError,
        UnsupportedError,
    )
}
# Answers the server gives without an engine error code of their own.
_BY_STATUS: Dict[int, Type[MemlaneError]] = {
    400: InvalidInputError,
    401: UnauthorizedError,
    404: NotFoundError,
    405: MethodNotAllowedError,
    409: ConflictError,
    413: PayloadTooLargeError,
    415: InvalidInputError,
    429: BusyError,
}


def error_from_answer(status: int, body: Any, retry_after: Optional[str] = None) -> MemlaneError:
    """The typed error for an error answer's status and parsed JSON body (or None when it had none)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        cls = _BY_STATUS.get(status, MemlaneError)
        return cls(f"HTTP {status}", code=None if cls is not MemlaneError else "HTTP_ERROR", status=status)
    code = str(error.get("code", "HTTP_ERROR"))
    cls = _BY_CODE.get(code) or _BY_STATUS.get(status, MemlaneError)
    details = error.get("details") if isinstance(error.get("details"), dict) else {}
    if retry_after is not None and "retryAfterSeconds" not in details:
        try:
            details = {**details, "retryAfterSeconds": float(retry_after)}
        except ValueError:
            pass
    field = error.get("field")
    return cls(
        str(error.get("message", f"HTTP {status}")),
        code=code,
        status=status,
        field=str(field) if field is not None else None,
        details=details,
    )
