"""memlane_client: a typed Python client of the memlane REST service, standard library only.

Example::

    from memlane_client import MemlaneClient, NotFoundError

    client = MemlaneClient("http://127.0.0.1:8787", api_key="mlk_…")
    session = client.start_session("ava", "sam")
    client.add_turn("ava", session["id"], "sam", "I moved to Leeds last week.")
    client.wait_for_job(client.close_session("ava", session["id"])["id"])
    print(client.recall("ava", "Where does Sam live?", about="sam")["hits"])
"""

from .client import MemlaneClient
from .errors import (
    BusyError,
    ConflictError,
    InvalidInputError,
    MemlaneConnectionError,
    MemlaneError,
    MethodNotAllowedError,
    ModelTimeoutError,
    ModelUnavailableError,
    NotFoundError,
    PayloadTooLargeError,
    SchemaMismatchError,
    StoreUnavailableError,
    UnauthorizedError,
    UnsupportedError,
)

__version__ = "0.1.0"

__all__ = [
    "MemlaneClient",
    "MemlaneError",
    "MemlaneConnectionError",
    "InvalidInputError",
    "UnauthorizedError",
    "NotFoundError",
    "MethodNotAllowedError",
    "ConflictError",
    "PayloadTooLargeError",
    "BusyError",
    "StoreUnavailableError",
    "ModelUnavailableError",
    "ModelTimeoutError",
    "SchemaMismatchError",
    "UnsupportedError",
]
