"""The memlane REST client: one method per route, standard library only (urllib, json)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, cast

from .errors import MemlaneConnectionError, MethodNotAllowedError, error_from_answer
from .types import (
    ForgetReport,
    History,
    Job,
    Memory,
    MemoryStatus,
    Message,
    MessagesResult,
    Operation,
    Recall,
    Session,
    SessionWithTurns,
    Turn,
    TurnInput,
)

__all__ = ["MemlaneClient"]


def _quote(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def _drop_none(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """A body without the fields left unset: the server refuses nulls where a value is optional."""
    return {k: v for k, v in fields.items() if v is not None}


class MemlaneClient:
    """A client of one memlane server (``memlane serve``), working in the tenant of its API key.

    Args:
        base_url: the server's origin, e.g. ``"http://127.0.0.1:8787"``.
        api_key: a key from ``memlane keys create --tenant <t>``, sent as ``Authorization: Bearer``.
        timeout: seconds to wait for each answer.

    Every method raises a :class:`~memlane_client.errors.MemlaneError` subclass for an error answer
    (``NotFoundError``, ``InvalidInputError``…) and ``MemlaneConnectionError`` when none came.

    Example::

        client = MemlaneClient("http://127.0.0.1:8787", api_key="mlk_…")
        client.add_messages("ava", partner="sam", messages=[{"role": "user", "content": "I moved to Leeds."}])
        hits = client.recall("ava", "Where does Sam live?", about="sam")["hits"]
    """

    def __init__(self, base_url: str, api_key: Optional[str] = None, *, timeout: float = 30.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    # -- transport ---------------------------------------------------------------------------

    def _open(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        query: Optional[Mapping[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Any:
        """Sends one request and returns the open response; raises the typed error of an error answer."""
        url = self.base_url + path
        params = {k: ("true" if v is True else "false" if v is False else str(v)) for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        data = None
        sent: Dict[str, str] = {"accept": "application/json"}
        if self.api_key:
            sent["authorization"] = f"Bearer {self.api_key}"
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            sent["content-type"] = "application/json"
        elif method == "POST":
            # Bodiless POSTs (close, restore) still say JSON: the server reads no body there.
            data = b""
            sent["content-type"] = "application/json"
        sent.update(headers or {})
        request = urllib.request.Request(url, data=data, method=method, headers=sent)
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as answer:
            raw = answer.read()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = None
            raise error_from_answer(answer.code, parsed, answer.headers.get("Retry-After")) from None
        except (urllib.error.URLError, OSError) as failure:
            raise MemlaneConnectionError(f"No answer from {self.base_url}: {failure}") from failure

    def _call(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        with self._open(method, path, body, **kwargs) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def _every_page(self, path: str, query: Dict[str, Any], key: str) -> List[Any]:
        """Every row of a paged list, following ``nextCursor`` (a server without pages answers in one)."""
        rows: List[Any] = []
        query = dict(query)
        while True:
            page = self._call("GET", path, query=query)
            rows.extend(page[key])
            cursor = page.get("nextCursor")
            if not cursor:
                return rows
            query["cursor"] = cursor

    # -- service -----------------------------------------------------------------------------

    def health(self) -> Dict[str, Any]:
        """``GET /health``: whether the server is up (no key needed)."""
        return cast(Dict[str, Any], self._call("GET", "/health"))

    def list_agents(self) -> List[str]:
        """The tenant's agents with stored sessions or memories."""
        return cast(List[str], self._call("GET", "/v1/agents")["agents"])

    def get_agent(self, agent: str) -> Dict[str, Any]:
        """An agent's partners and how many sessions, turns, memories, edges and operations it holds."""
        return cast(Dict[str, Any], self._call("GET", f"/v1/agents/{_quote(agent)}"))

    # -- sessions ----------------------------------------------------------------------------

    def start_session(
        self,
        agent: str,
        partner: Optional[str] = None,
        *,
        partners: Optional[List[str]] = None,
        at: Optional[str] = None,
        id: Optional[str] = None,
        meta: Optional[Dict[str, Any]] = None,
        strategy: Optional[str] = None,
        per_turn: Optional[str] = None,
        scope: Optional[str] = None,
    ) -> Session:
        """Starts a session of ``agent`` with ``partner`` (or ``partners``); returns it, open."""
        body = _drop_none(
            {
                "agent": agent,
                "partner": partner,
                "partners": partners,
                "at": at,
                "id": id,
                "meta": meta,
                "strategy": strategy,
                "perTurn": per_turn,
                "scope": scope,
            }
        )
        return cast(Session, self._call("POST", "/v1/sessions", body))

    def add_turn(
        self,
        agent: str,
        session_id: str,
        speaker: str,
        text: str,
        *,
        at: Optional[str] = None,
        id: Optional[str] = None,
        meta: Optional[Dict[str, Any]] = None,
        per_turn: Optional[str] = None,
    ) -> Turn:
        """Records one utterance of an open session; ``speaker`` is the agent or a partner present."""
        body = _drop_none({"speaker": speaker, "text": text, "at": at, "id": id, "meta": meta, "perTurn": per_turn})
        return cast(Turn, self._call("POST", f"/v1/agents/{_quote(agent)}/sessions/{_quote(session_id)}/turns", body))

    def add_turns(self, agent: str, session_id: str, turns: Iterable[TurnInput]) -> List[Turn]:
        """Records several utterances in order, one request each (stops at the first refused)."""
        return [
            self.add_turn(
                agent,
                session_id,
                t["speaker"],
                t["text"],
                at=t.get("at"),
                id=t.get("id"),
                meta=t.get("meta"),
            )
            for t in turns
        ]

    def reply(self, agent: str, session_id: str, *, query: Optional[str] = None, record: Optional[bool] = None) -> Dict[str, Any]:
        """The agent's next utterance, grounded in what it recalls (needs a chat model on the server)."""
        body = _drop_none({"query": query, "record": record})
        return cast(Dict[str, Any], self._call("POST", f"/v1/agents/{_quote(agent)}/sessions/{_quote(session_id)}/reply", body))

    def close_session(self, agent: str, session_id: str) -> Job:
        """Ends a session and queues its consolidation; returns the job (see :meth:`wait_for_job`)."""
        return cast(Job, self._call("POST", f"/v1/agents/{_quote(agent)}/sessions/{_quote(session_id)}/close")["job"])

    def list_sessions(self, agent: str, *, status: Optional[str] = None, partner: Optional[str] = None) -> List[Session]:
        """An agent's sessions, oldest first; ``status="open"`` lists the ones never closed."""
        query = {"status": status, "partner": partner}
        return cast(List[Session], self._every_page(f"/v1/agents/{_quote(agent)}/sessions", query, "sessions"))

    def get_session(self, agent: str, session_id: str) -> SessionWithTurns:
        """A session with its turns."""
        return cast(SessionWithTurns, self._call("GET", f"/v1/agents/{_quote(agent)}/sessions/{_quote(session_id)}"))

    # -- one-call writes ---------------------------------------------------------------------

    def add_messages(
        self,
        agent: str,
        partner: str,
        messages: Iterable[Message],
        *,
        at: Optional[str] = None,
        meta: Optional[Dict[str, Any]] = None,
        infer: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
    ) -> MessagesResult:
        """Stores a whole exchange as one session in one call (``POST /v1/agents/{agent}/messages``).

        Each message is ``{"role" | "speaker", "content" | "text", "at"?}`` (OpenAI-style roles:
        ``user`` is the partner, ``assistant`` the agent). With ``infer=False`` the messages are
        stored as given. An ``idempotency_key`` makes a retried call store nothing twice.
        """
        body = _drop_none({"partner": partner, "messages": list(messages), "at": at, "meta": meta, "infer": infer})
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return cast(MessagesResult, self._call("POST", f"/v1/agents/{_quote(agent)}/messages", body, headers=headers))

    # -- recall and memories -----------------------------------------------------------------

    def recall(
        self,
        agent: str,
        query: str,
        *,
        about: Optional[str] = None,
        scope: Optional[str] = None,
        k: Optional[int] = None,
        **more: Any,
    ) -> Recall:
        """What ``agent`` remembers for ``query``: about one partner (``about``) or, with ``scope="agent"``, all of it.

        Further fields of the server's recall input (``units``, ``at``…) pass through ``more``.
        """
        body = _drop_none({"agent": agent, "query": query, "about": about, "scope": scope, "k": k, **more})
        return cast(Recall, self._call("POST", "/v1/recall", body))

    def list_memories(
        self,
        agent: str,
        *,
        status: Optional[MemoryStatus | str] = None,
        about: Optional[str] = None,
        session_id: Optional[str] = None,
    ) -> List[Memory]:
        """An agent's memories: active ones unless ``status`` says otherwise (``"any"`` for every version)."""
        query = {"status": status, "about": about, "sessionId": session_id}
        return cast(List[Memory], self._every_page(f"/v1/agents/{_quote(agent)}/memories", query, "memories"))

    def get_memory(self, agent: str, memory_id: str) -> Memory:
        """One memory, whatever its status. A server without the get route is asked for the memory's history."""
        path = f"/v1/agents/{_quote(agent)}/memories/{_quote(memory_id)}"
        try:
            found = self._call("GET", path)
        except MethodNotAllowedError:
            return self.history(agent, memory_id)["memory"]
        return cast(Memory, found.get("memory", found) if isinstance(found, dict) else found)

    def update_memory(self, agent: str, memory_id: str, text: str, *, meta: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        """Corrects an active memory: a new version with ``text`` supersedes it (nothing is erased)."""
        body = _drop_none({"text": text, "meta": meta})
        return cast(Dict[str, Any], self._call("PATCH", f"/v1/agents/{_quote(agent)}/memories/{_quote(memory_id)}", body))

    def restore_memory(self, agent: str, memory_id: str) -> Dict[str, Any]:
        """Makes a past version current again, retiring what had replaced it."""
        return cast(Dict[str, Any], self._call("POST", f"/v1/agents/{_quote(agent)}/memories/{_quote(memory_id)}/restore"))

    def add_memory(
        self, agent: str, about: str, text: str, *, at: Optional[str] = None, meta: Optional[Dict[str, Any]] = None
    ) -> Dict[str, Any]:
        """States a fact, stored as given with no inference; returns the memory and its operation."""
        body = _drop_none({"about": about, "text": text, "at": at, "meta": meta})
        return cast(Dict[str, Any], self._call("POST", f"/v1/agents/{_quote(agent)}/memories", body))

    def history(self, agent: str, memory_id: str) -> History:
        """A memory with every operation on it and what it replaced or was replaced by."""
        return cast(History, self._call("GET", f"/v1/agents/{_quote(agent)}/memories/{_quote(memory_id)}/history"))

    def timeline(self, agent: str, memory_id: str) -> Dict[str, Any]:
        """A memory's versions in conversation time."""
        return cast(Dict[str, Any], self._call("GET", f"/v1/agents/{_quote(agent)}/memories/{_quote(memory_id)}/timeline"))

    def operations(
        self, agent: str, *, status: Optional[str] = None, type: Optional[str] = None, session_id: Optional[str] = None, limit: Optional[int] = None
    ) -> List[Operation]:
        """The operation log, newest first."""
        query = {"status": status, "type": type, "sessionId": session_id, "limit": limit}
        return cast(List[Operation], self._call("GET", f"/v1/agents/{_quote(agent)}/operations", query=query)["operations"])

    def forget(
        self,
        agent: str,
        *,
        about: Optional[str] = None,
        memory_ids: Optional[List[str]] = None,
        session_id: Optional[str] = None,
    ) -> ForgetReport:
        """Deletes for real (cannot be undone): everything about a person, some memories, or a session."""
        body = _drop_none({"agent": agent, "about": about, "memoryIds": memory_ids, "sessionId": session_id})
        return cast(ForgetReport, self._call("POST", "/v1/forget", body))

    # -- jobs --------------------------------------------------------------------------------

    def ingest(self, transcripts: Any) -> Job:
        """Uploads a transcript (or a list of them) in the memlane format; returns the queued job."""
        return cast(Job, self._call("POST", "/v1/ingest", transcripts)["job"])

    def list_jobs(self) -> List[Job]:
        """The tenant's ingest and consolidation jobs, oldest first."""
        return cast(List[Job], self._call("GET", "/v1/jobs")["jobs"])

    def get_job(self, job_id: str) -> Job:
        """One job: its state and, for a finished ingest, its reports."""
        return cast(Job, self._call("GET", f"/v1/jobs/{_quote(job_id)}"))

    def wait_for_job(self, job_id: str, *, timeout: float = 60.0, interval: float = 0.2) -> Job:
        """Polls a job until it is done or failed; raises ``TimeoutError`` past ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.get_job(job_id)
            if job["state"] in ("done", "failed"):
                return job
            if time.monotonic() > deadline:
                raise TimeoutError(f"job {job_id} is still {job['state']} after {timeout}s")
            time.sleep(interval)

    def failures(self, agent: str) -> List[Operation]:
        """Failed consolidations and per-turn work waiting for a retry."""
        return cast(List[Operation], self._call("GET", f"/v1/agents/{_quote(agent)}/failures")["failures"])

    def retry(self, agent: str, *, session_id: Optional[str] = None, open: Optional[bool] = None) -> Dict[str, Any]:
        """Runs failed work again (``open=True`` also closes sessions a killed chat left open)."""
        body = _drop_none({"sessionId": session_id, "open": open})
        return cast(Dict[str, Any], self._call("POST", f"/v1/agents/{_quote(agent)}/retry", body))

    # -- export ------------------------------------------------------------------------------

    def export(self, agent: str, *, about: Optional[str] = None, embeddings: bool = False) -> Iterator[Dict[str, Any]]:
        """The agent's memory as the export format's records (docs/formats.md), read as they stream in.

        The first record is the header, the last the end line with the counts. ``about`` keeps
        only one person's data; ``embeddings`` adds the stored vectors.
        """
        for line in self.export_lines(agent, about=about, embeddings=embeddings):
            yield json.loads(line)

    def export_lines(self, agent: str, *, about: Optional[str] = None, embeddings: bool = False) -> Iterator[str]:
        """The export as raw JSON lines (each ending in a newline), to write to a file as they come."""
        query = {"about": about, "embeddings": embeddings}
        response = self._open("GET", f"/v1/agents/{_quote(agent)}/export", query=query)
        with response:
            for raw in response:
                yield raw.decode("utf-8")

    def export_to(self, agent: str, path: str, *, about: Optional[str] = None, embeddings: bool = False) -> int:
        """Writes the export to ``path`` (for ``memlane import``); returns the number of lines."""
        count = 0
        with open(path, "w", encoding="utf-8") as out:
            for line in self.export_lines(agent, about=about, embeddings=embeddings):
                out.write(line)
                count += 1
        return count

