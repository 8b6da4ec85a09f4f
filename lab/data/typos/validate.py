# Validate typos.jsonl (standard library only).
import json, re, sys, collections, os
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "typos.jsonl")
ok = True; ids = set(); styles = collections.Counter(); rw = collections.Counter(); lens = []
for n, line in enumerate(open(path, encoding="utf-8"), 1):
    try:
        o = json.loads(line)
    except Exception as e:
        print("line %d: bad json: %s" % (n, e)); ok = False; continue
    if o["id"] in ids: print("dup id", o["id"]); ok = False
    ids.add(o["id"]); styles[o["style"]] += 1
    if o.get("realword"): rw[o["style"]] += 1
    lens.append(len(o["text"].split()))
    t = o["text"]
    for w, r in o["typos"]:
        pat = r"\b" + re.escape(w) + r"\b"
        if len(re.findall(pat, t)) != 1:
            print(o["id"], "typo %r not exactly once in text" % w); ok = False
        t = re.sub(pat, r, t)
    if t != o["fixed"]:
        print(o["id"], "mismatch:\n  got  %r\n  want %r" % (t, o["fixed"])); ok = False
    if o["style"] == "clean" and (o["typos"] or o["text"] != o["fixed"]):
        print(o["id"], "clean line has typos"); ok = False
    if o["style"] != "clean" and not 1 <= len(o["typos"]) <= 4:
        print(o["id"], "typo count out of range"); ok = False
print("lines:", len(ids), "words per text: min %d max %d" % (min(lens), max(lens)))
for s, c in sorted(styles.items()):
    print("  %-12s %3d  (realword %d)" % (s, c, rw[s]))
print("realword total:", sum(rw.values()))
print("OK" if ok else "FAILED"); sys.exit(0 if ok else 1)
