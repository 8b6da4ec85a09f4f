"""The checker every rules set from rules-g on shares (standard library only): the case format,
the class and style counts, matchers that hold on the set's own words, the banned words and names
that keep a set apart from the ones before it. A set's validate.py gives its banned lists and calls
`run`. Exit status 1 on any error.
"""
import json
import re
import sys
from collections import Counter, defaultdict
from datetime import datetime

CLASSES = {"same": 24, "addition": 24, "change": 24, "stop": 24, "clean": 0}
STYLES = ["plain", "chatty", "terse", "typos", "formal", "indirect"]
PREFIX = {"same": "same-", "addition": "add-", "change": "chg-", "stop": "stop-", "clean": "clean-"}

errors, warnings = [], []


def err(cid, msg):
    errors.append(f"{cid}: {msg}")


def warn(cid, msg):
    warnings.append(f"{cid}: {msg}")


def elem_ok(e):
    if isinstance(e, str):
        return bool(e)
    return isinstance(e, list) and len(e) > 0 and all(isinstance(a, str) and a for a in e)


def alts(e):
    return [e] if isinstance(e, str) else e


def has(text, e):
    t = text.lower()
    return any(a.lower() in t for a in alts(e))


def matches(text, m):
    return all(has(text, e) for e in m["all"]) and not any(n.lower() in text.lower() for n in m.get("none", []))


def check_matcher(cid, where, m):
    if not isinstance(m, dict) or set(m) - {"all", "none"} or "all" not in m:
        err(cid, f"{where}: bad matcher shape {m!r}")
        return False
    if not isinstance(m["all"], list) or not m["all"] or not all(elem_ok(e) for e in m["all"]):
        err(cid, f"{where}: bad 'all' {m['all']!r}")
        return False
    if "none" in m and (not isinstance(m["none"], list) or not all(isinstance(n, str) and n for n in m["none"])):
        err(cid, f"{where}: bad 'none' {m['none']!r}")
        return False
    return True


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def run(BANNED, BANNED_NAMES, PATH=None):
    """Checks the cases at PATH (default: the command line's first argument, else cases.jsonl)."""
    PATH = PATH or (sys.argv[1] if len(sys.argv) > 1 else "cases.jsonl")
    errors.clear()
    warnings.clear()
    cases = []
    with open(PATH, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"line {n}", "blank line")
                continue
            try:
                cases.append(json.loads(line))
            except json.JSONDecodeError as e:
                err(f"line {n}", f"does not parse: {e}")

    ids = Counter(c.get("id") for c in cases)
    for i, k in ids.items():
        if k > 1:
            err(i, f"id used {k} times")

    by_class = Counter(c.get("class") for c in cases)
    style_by_class = defaultdict(Counter)
    partners = Counter()
    keyword_cases = defaultdict(set)

    for c in cases:
        cid = c.get("id", "?")
        keys = {"id", "class", "style", "partner", "agent", "sessions", "expect"}
        if set(c) != keys:
            err(cid, f"keys {sorted(c)} != {sorted(keys)}")
            continue
        cls, style, p, a = c["class"], c["style"], c["partner"], c["agent"]
        if cls not in CLASSES:
            err(cid, f"unknown class {cls}")
            continue
        if not cid.startswith(PREFIX[cls]):
            err(cid, f"id prefix does not fit class {cls}")
        if style not in STYLES:
            err(cid, f"unknown style {style}")
        style_by_class[cls][style] += 1
        partners[p] += 1
        for nm in (p, a):
            if nm in BANNED_NAMES:
                err(cid, f"name {nm!r} was used in an earlier set")
        if p == a:
            err(cid, "partner and agent have the same name")

        # sessions and turns
        ss = c["sessions"]
        if not isinstance(ss, list) or not 2 <= len(ss) <= 3:
            err(cid, "needs 2 or 3 sessions")
            continue
        prev = None
        for si, s in enumerate(ss):
            if set(s) != {"at", "turns"}:
                err(cid, f"session {si + 1}: keys {sorted(s)}")
                continue
            try:
                at = datetime.strptime(s["at"], "%Y-%m-%dT%H:%M")
            except ValueError:
                err(cid, f"session {si + 1}: bad time {s['at']!r}")
                at = None
            if prev and at and at <= prev:
                err(cid, f"session {si + 1}: time does not increase")
            prev = at or prev
            ts = s["turns"]
            if not 2 <= len(ts) <= 6:
                err(cid, f"session {si + 1}: {len(ts)} turns (want 2-6)")
            for ti, t in enumerate(ts):
                if set(t) != {"speaker", "text"} or not isinstance(t["text"], str) or not t["text"].strip():
                    err(cid, f"session {si + 1} turn {ti + 1}: bad turn {t!r}")
                    continue
                want = p if ti % 2 == 0 else a
                if t["speaker"] != want:
                    err(cid, f"session {si + 1} turn {ti + 1}: speaker {t['speaker']!r}, want {want!r}")

        person = [[t["text"] for t in s["turns"] if t.get("speaker") == p] for s in ss]
        agent_text = " ".join(t["text"] for s in ss for t in s["turns"] if t.get("speaker") == a)
        all_person = [t for sess in person for t in sess]
        earlier_person = [t for sess in person[:-1] for t in sess]
        later_person = [t for sess in person[1:] for t in sess]
        full_text = " ".join(t["text"] for s in ss for t in s["turns"]).lower()
        for b in BANNED:
            if b in full_text:
                err(cid, f"uses a banned example word {b!r}")

        ex = c["expect"]
        if not isinstance(ex, dict) or set(ex) != {"active", "once", "retired", "absent"}:
            err(cid, f"expect keys {sorted(ex) if isinstance(ex, dict) else ex!r}")
            continue
        ok = True
        for k in ex:
            if not isinstance(ex[k], list):
                err(cid, f"expect.{k} is not a list")
                ok = False
                continue
            for m in ex[k]:
                ok &= check_matcher(cid, f"expect.{k}", m)
        if not ok:
            continue

        # every matcher's keywords can be satisfied by what the person said
        for k in ("active", "once", "absent"):
            for m in ex[k]:
                for e in m["all"]:
                    if not any(has(t, e) for t in all_person):
                        err(cid, f"{k} keyword {e!r} not in the person's turns")
                if k != "absent" and not any(all(has(t, e) for e in m["all"]) for t in all_person):
                    err(cid, f"{k} matcher {m['all']!r} never co-occurs in one person turn")
                if k != "absent":
                    keyword_cases[json.dumps(alts(m["all"][0])[0].lower())].add(cid)
        for m in ex["retired"]:
            for e in m["all"]:
                if not any(has(t, e) for t in earlier_person):
                    err(cid, f"retired keyword {e!r} not in an earlier session's person turns")
            keyword_cases[json.dumps(alts(m["all"][0])[0].lower())].add(cid)
            # a faithful memory of the old sentence can match: some earlier sentence has all, none of none
            if not any(matches(sn, m) for t in earlier_person for sn in sentences(t)):
                err(cid, f"retired matcher {m['all']!r}: no earlier sentence holds it free of its 'none' words")
            # later sentences that name the old state also carry a word of the new state / the stop
            for t in later_person:
                for sn in sentences(t):
                    if all(has(sn, e) for e in m["all"]) and matches(sn, m):
                        err(cid, f"retired matcher {m['all']!r}: later sentence restates the old state: {sn!r}")

        # the agent does not restate the facts under test
        for k in ("once", "retired", "active"):
            for m in ex[k]:
                for e in m["all"]:
                    if isinstance(e, str) and len(e) > 3 and e.lower() in agent_text.lower() and k != "active":
                        warn(cid, f"agent turns contain {k} keyword {e!r}")

        # class-specific shape
        first, later = person[0], later_person
        if cls == "same":
            if not ex["once"] or ex["retired"] or ex["absent"]:
                err(cid, "same: wants once matchers only")
            for m in ex["once"]:
                sess_hits = sum(any(all(has(t, e) for e in m["all"]) for t in sess) for sess in person)
                if sess_hits < 2:
                    err(cid, f"same: once matcher {m['all']!r} is said in only {sess_hits} session(s)")
        elif cls == "addition":
            if len(ex["active"]) < 2 or ex["retired"] or ex["once"]:
                err(cid, "addition: wants >= 2 active matchers and nothing retired")
            old = [m for m in ex["active"] if any(matches(t, m) for t in first)]
            new = [m for m in ex["active"] if not any(matches(t, m) for t in first)
                   and any(matches(t, m) for t in later)]
            if not old or not new:
                err(cid, "addition: wants an item from session 1 and an item first said later")
        elif cls in ("change", "stop"):
            if not ex["active"] or not ex["retired"]:
                err(cid, f"{cls}: wants active and retired matchers")
            for m in ex["active"]:
                if not any(matches(t, m) for t in later):
                    err(cid, f"{cls}: active matcher {m['all']!r} not said in a later session")
                if any(matches(sn, m) for t in first for sn in sentences(t)):
                    err(cid, f"{cls}: active matcher {m['all']!r} already holds in a session-1 sentence")
            if cls == "stop":
                for r in ex["retired"]:
                    if not any(m["all"][0] == r["all"][0] for m in ex["active"]):
                        err(cid, "stop: the stop matcher does not name the habit")
        elif cls == "clean":
            if not ex["active"] or not ex["absent"]:
                err(cid, "clean: wants active and absent matchers")

    # counts
    for cls, n in CLASSES.items():
        if by_class[cls] != n:
            err("counts", f"class {cls}: {by_class[cls]} cases, want {n}")
        st = style_by_class[cls]
        vals = [st[s] for s in STYLES]
        if max(vals) - min(vals) > 1:
            err("counts", f"class {cls}: styles uneven {dict(st)}")
    if len(cases) != sum(CLASSES.values()):
        err("counts", f"{len(cases)} cases, want {sum(CLASSES.values())}")
    for p, k in partners.items():
        if k > 1:
            warn("names", f"partner {p} used in {k} cases")
    for kw, cs in sorted(keyword_cases.items()):
        if len(cs) > 1:
            warn("keywords", f"{kw} used as a keyword in {sorted(cs)}")

    # report
    print(f"{len(cases)} cases")
    print("class      " + " ".join(f"{s:>8}" for s in STYLES) + "   total")
    tot = Counter()
    for cls in CLASSES:
        st = style_by_class[cls]
        tot.update(st)
        print(f"{cls:<10} " + " ".join(f"{st[s]:>8}" for s in STYLES) + f"   {sum(st.values()):>5}")
    print(f"{'total':<10} " + " ".join(f"{tot[s]:>8}" for s in STYLES) + f"   {sum(tot.values()):>5}")
    nm = Counter()
    for c in cases:
        for k, v in c["expect"].items():
            nm[k] += len(v)
    print("matchers:", dict(nm))
    for w in warnings:
        print("WARN", w)
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else f"{len(errors)} error(s)")
    sys.exit(1 if errors else 0)
