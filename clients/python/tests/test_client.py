"""The client against a live ``memlane serve``: MEMLANE_URL names it, MEMLANE_API_KEY is a key of its tenant.

Run by test/python-client.test.ts, which starts a server on a temporary SQLite file; by hand:
``MEMLANE_URL=http://127.0.0.1:8787 MEMLANE_API_KEY=mlk_… python3 -m unittest discover -s tests``.
"""

from __future__ import annotations

import os
import tempfile
import unittest
import uuid

from memlane_client import (
    ConflictError,
    InvalidInputError,
    MemlaneClient,
    MemlaneConnectionError,
    MethodNotAllowedError,
    NotFoundError,
    UnauthorizedError,
)

URL = os.environ.get("MEMLANE_URL")
KEY = os.environ.get("MEMLANE_API_KEY")


def fresh(prefix: str) -> str:
    """An agent id no other test uses: tests share one server."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@unittest.skipUnless(URL and KEY, "set MEMLANE_URL and MEMLANE_API_KEY to a running memlane serve and a key")
class ClientTest(unittest.TestCase):
    client: MemlaneClient

    @classmethod
    def setUpClass(cls) -> None:
        cls.client = MemlaneClient(URL or "", KEY, timeout=60)

    def test_sessions_turns_close_and_recall(self) -> None:
        agent = fresh("ava")
        session = self.client.start_session(agent, "sam", at="2024-03-02T18:00:00Z", meta={"channel": "py"})
        self.assertEqual(session["status"], "open")
        turns = self.client.add_turns(
            agent,
            session["id"],
            [
                {"speaker": agent, "text": "Hi Sam, how are things?"},
                {"speaker": "sam", "text": "I work as a nurse in Leeds and I adopted a beagle called Biscuit."},
            ],
        )
        self.assertEqual([t["index"] for t in turns], [0, 1])
        read = self.client.get_session(agent, session["id"])
        self.assertEqual([t["speaker"] for t in read["turns"]], [agent, "sam"])
        job = self.client.close_session(agent, session["id"])
        self.assertEqual(job["kind"], "consolidate")
        self.assertEqual(self.client.wait_for_job(job["id"])["state"], "done")
        self.assertIn(job["id"], [j["id"] for j in self.client.list_jobs()])
        self.assertEqual([s["id"] for s in self.client.list_sessions(agent)], [session["id"]])
        self.assertEqual(len(self.client.list_sessions(agent, status="consolidated", partner="sam")), 1)
        self.assertEqual(self.client.list_sessions(agent, status="open"), [])
        recall = self.client.recall(agent, "Where does Sam work?", about="sam")
        self.assertTrue(recall["hits"], "the consolidated session is recalled")
        self.assertIn(agent, self.client.list_agents())

    def test_memories_corrections_history_and_forget(self) -> None:
        agent = fresh("ava")
        added = self.client.add_memory(agent, "sam", "Sam works as a nurse in Leeds.", meta={"source": "crm"})
        first = added["memory"]
        self.assertEqual(self.client.get_memory(agent, first["id"])["text"], first["text"])
        updated = self.client.update_memory(agent, first["id"], "Sam works as a midwife in Leeds.")
        fresh_version = updated["memory"]
        with self.assertRaises(ConflictError):
            self.client.update_memory(agent, first["id"], "Sam is a vet.")
        statuses = {m["id"]: m["status"] for m in self.client.list_memories(agent, status="any")}
        self.assertEqual(statuses, {first["id"]: "superseded", fresh_version["id"]: "active"})
        self.client.restore_memory(agent, first["id"])
        self.assertEqual([m["id"] for m in self.client.list_memories(agent)], [first["id"]])
        history = self.client.history(agent, first["id"])
        self.assertEqual([c["type"] for c in history["corrections"]], ["ADD", "UPDATE", "RESTORE"])
        self.assertTrue(self.client.operations(agent, limit=5))
        report = self.client.forget(agent, memory_ids=[first["id"]])
        self.assertGreaterEqual(report["memories"], 1)
        with self.assertRaises(NotFoundError):
            self.client.history(agent, first["id"])

    def test_ingest_job_and_export(self) -> None:
        agent = fresh("ava")
        job = self.client.ingest(
            {
                "agent": agent,
                "sessions": [
                    {
                        "id": "s1",
                        "at": "2024-03-02T18:00",
                        "partner": "sam",
                        "turns": [{"speaker": "sam", "text": "I play the cello in an orchestra on Sundays."}],
                    },
                    {
                        "id": "k1",
                        "at": "2024-03-03T18:00",
                        "partner": "kim",
                        "turns": [{"speaker": "kim", "text": "I run marathons in Bristol."}],
                    },
                ],
            }
        )
        self.assertEqual(self.client.wait_for_job(job["id"])["state"], "done")
        records = list(self.client.export(agent))
        self.assertEqual(records[0]["type"], "header")
        self.assertEqual(records[0]["format"], "memlane-export")
        self.assertEqual(records[-1]["type"], "end")
        self.assertEqual(records[-1]["counts"]["sessions"], 2)
        sam = list(self.client.export(agent, about="sam"))
        self.assertEqual([r["id"] for r in sam if r["type"] == "session"], ["s1"])
        self.assertNotIn("marathons", str(sam))
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "export.jsonl")
            self.assertEqual(self.client.export_to(agent, path), len(records))
        with self.assertRaises(NotFoundError):
            list(self.client.export(agent, about="nobody"))

    def test_one_call_messages(self) -> None:
        agent = fresh("ava")
        messages = [
            {"role": "user", "content": "I moved to Bristol last week."},
            {"role": "assistant", "content": "Congratulations on the move!"},
        ]
        key = uuid.uuid4().hex
        try:
            first = self.client.add_messages(agent, "sam", messages, idempotency_key=key)
        except (NotFoundError, MethodNotAllowedError) as missing:
            self.skipTest(f"this server has no POST /v1/agents/{{agent}}/messages route ({missing.code})")
        again = self.client.add_messages(agent, "sam", messages, idempotency_key=key)
        self.assertEqual([first["replayed"], again["replayed"]], [False, True])
        self.assertEqual(again["session"]["id"], first["session"]["id"])
        self.assertEqual([t["speaker"] for t in first["turns"]], ["sam", agent])
        self.assertEqual(len(self.client.list_sessions(agent)), 1, "a retried call stores nothing twice")
        if first["job"] is not None:
            self.assertEqual(self.client.wait_for_job(first["job"]["id"])["state"], "done")
        with self.assertRaises(InvalidInputError):
            self.client.add_messages(agent, "sam", [{"role": "user", "content": "hi"}, {"role": "robot", "content": "?"}])
        self.assertEqual(len(self.client.list_sessions(agent)), 1, "a bad message stores nothing")

    def test_typed_errors(self) -> None:
        with self.assertRaises(InvalidInputError) as bad:
            self.client.start_session("ava", "sam", meta={"x": 1}, strategy="no-such-strategy")
        self.assertEqual(bad.exception.status, 400)
        self.assertTrue(bad.exception.field)
        with self.assertRaises(NotFoundError) as missing:
            self.client.history("ava", "mem_nothing_here")
        self.assertEqual(missing.exception.code, "NOT_FOUND")
        with self.assertRaises(UnauthorizedError):
            MemlaneClient(URL or "", "mlk_0000000000000000_wrong").list_agents()
        with self.assertRaises(MemlaneConnectionError):
            MemlaneClient("http://127.0.0.1:9", KEY, timeout=5).list_agents()


if __name__ == "__main__":
    unittest.main()
