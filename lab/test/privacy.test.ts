import assert from "node:assert/strict";
import { test } from "node:test";
import { evaluateChat, evaluatePart, loadStatements, privacyMarkdown } from "../eval/privacy/evaluate.js";
import { tokenF1 } from "../eval/qa/token-f1.js";

const FIXTURE = new URL("./fixtures/privacy-statements.jsonl", import.meta.url).pathname;

test("privacy eval scores a small fixture by style and kind, and the request clean-up", () => {
  const rows = loadStatements(FIXTURE);
  const report = evaluatePart(rows, "tune");
  assert.equal(report.all.n, 6);
  assert.equal(report.all.tp + report.all.fn, 4);
  assert.ok(report.byStyle.casual && report.byKind.health);
  assert.equal(report.request.tp, 1);
  assert.equal(report.clean.n, 1);
  assert.equal(report.clean.exact, 1);
  const chat = evaluateChat(rows.map((r) => r.text));
  assert.equal(chat.turns, 6);
  assert.ok(chat.microsPerTurn > 0);
  const md = privacyMarkdown([report], chat, true);
  assert.match(md, /## tune split/);
  assert.match(md, /turns flagged/);
});

test("token F1 compares lowercase words", () => {
  assert.equal(tokenF1("The cat sat.", "the cat sat"), 1);
  assert.equal(tokenF1("a b", "c d"), 0);
});
