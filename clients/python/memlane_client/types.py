"""The shapes the server answers, as TypedDicts (the OpenAPI document at ``/openapi.json`` is the reference).

They type the dictionaries the client returns; nothing is converted, so a field a newer server
adds is there too.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Literal, Optional

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # pragma: no cover - the client targets 3.11, this keeps older type checkers reading it
    from typing_extensions import NotRequired, TypedDict

MemoryStatus = Literal["active", "superseded", "forgotten"]
SessionStatus = Literal["open", "closed", "consolidated", "failed"]
JobState = Literal["queued", "running", "done", "failed"]


class Session(TypedDict):
    """A conversation of an agent with one partner or several."""

    id: str
    tenant: str
    agent: str
    partners: List[str]
    at: str
    status: SessionStatus
    strategy: str
    meta: Dict[str, Any]
    recordedAt: str


class Turn(TypedDict):
    """One utterance of a session."""

    id: str
    tenant: str
    agent: str
    sessionId: str
    index: int
    speaker: str
    text: str
    at: str
    meta: Dict[str, Any]


class SessionWithTurns(TypedDict):
    session: Session
    turns: List[Turn]


class Memory(TypedDict):
    """One version of a statement the agent remembers."""

    id: str
    tenant: str
    agent: str
    about: str
    text: str
    kind: str
    strategy: str
    observedAt: str
    recordedAt: str
    status: MemoryStatus
    invalidAt: Optional[str]
    sessionId: Optional[str]
    sourceTurns: List[str]
    attributes: Dict[str, Any]


# "from" is a Python keyword: the functional form spells it.
Edge = TypedDict(
    "Edge",
    {
        "id": str,
        "tenant": str,
        "agent": str,
        "from": str,
        "to": str,
        "type": str,
        "attributes": Dict[str, Any],
        "recordedAt": str,
    },
)
Edge.__doc__ = "A link between two memories: a version (Supersedes, FusedInto) or a relation."


class Operation(TypedDict):
    """An entry of the operation log: a change or a thinking step, with its rationale."""

    id: str
    type: str
    status: Literal["done", "failed"]
    strategy: str
    model: str
    sessionId: Optional[str]
    memoryIds: List[str]
    inputs: Any
    outputs: Any
    rationale: Optional[str]
    error: Optional[str]
    at: str
    recordedAt: str


class Job(TypedDict):
    """A background job: a session's consolidation or a transcript upload."""

    id: str
    kind: Literal["consolidate", "ingest"]
    state: JobState
    queuedAt: str
    agent: NotRequired[str]
    sessionId: NotRequired[str]
    error: NotRequired[str]
    finishedAt: NotRequired[str]
    position: NotRequired[int]
    reports: NotRequired[List[Dict[str, Any]]]


class RecallHit(TypedDict, total=False):
    id: str
    text: str
    score: float
    about: str
    observedAt: str
    kind: str


class Recall(TypedDict, total=False):
    """What an agent recalls for a query: the hits, best first, and standing instructions."""

    query: str
    hits: List[RecallHit]
    standing: List[Dict[str, Any]]


class History(TypedDict):
    """A memory with every operation on it and what it replaced or was replaced by."""

    memory: Memory
    operations: List[Operation]
    replacedBy: List[Memory]
    replaces: List[Memory]
    edges: List[Edge]
    corrections: List[Dict[str, Any]]


class ForgetReport(TypedDict):
    """How much a forget erased, row by row."""

    memories: int
    edges: int
    operations: int
    embeddings: int
    turns: int
    sessions: int
    redacted: int


class Message(TypedDict, total=False):
    """One message of a one-call write: ``role`` or ``speaker``, ``content`` or ``text``, ``at`` optional."""

    role: str
    speaker: str
    content: str
    text: str
    at: str


class MessagesResult(TypedDict):
    """What a one-call write stored: the session, its turns, the queued consolidation (None with
    ``infer=False``), and ``replayed`` when an earlier call with the same idempotency key did."""

    session: Session
    turns: List[Turn]
    job: Optional[Job]
    replayed: bool


class TurnInput(TypedDict, total=False):
    """One turn to add: ``speaker`` and ``text`` are required."""

    speaker: str
    text: str
    at: str
    id: str
    meta: Dict[str, Any]
