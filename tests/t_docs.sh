#!/bin/sh
# t_docs.sh — every number README.md and the man pages quote about a run is the program's own:
# the sentences are read from the documents, their numbers compared with `run --format json`
# rounded to the decimals the document shows. Nothing in them points outside the repository.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
"$G" run --quiet --format json --preset teaching >"$tmp/teach.json" 2>"$tmp/err" || bad "run --preset teaching"
"$G" run --quiet --format json --synthetic >"$tmp/syn.json" 2>"$tmp/err" || bad "run --synthetic"
$PY - "$tmp/teach.json" "$tmp/syn.json" README.md man/gsrscope.1 man/gsrscope.7 <<'PYEOF'
import json, re, sys
teach, syn = (json.load(open(p)) for p in sys.argv[1:3])
docs = {p: re.sub(r"\s+", " ", re.sub(r"\\f[BIRP]|\\\(\*[a-z]|\\", "", open(p).read())) for p in sys.argv[3:]}
passed = failed = 0
def check(ok, what):
    global passed, failed
    if ok: passed += 1; print("ok - " + what)
    else: failed += 1; print("FAIL - " + what)
def same(quoted, value):  # the program's number rounded as the document writes it
    dec = len(quoted.split(".")[1]) if "." in quoted else 0
    return f"{value:.{dec}f}" == quoted
def method(d, name): return next(m for m in d["methods"] if m["name"] == name)

# The teaching demo, quoted in README and in the man page (the preset's description).
pat = (r"GACL's tail accuracy falls to ([0-9.]+) % from task ([0-9]+) on \(head ([0-9.]+) %, A_last ([0-9.]+) %\) "
       r"while GSR keeps the tail at ([0-9.]+) % \(head ([0-9.]+) %, A_last ([0-9.]+) %\)")
ga, gs = method(teach, "gacl"), method(teach, "gsr")
for path in ("README.md", "man/gsrscope.1"):
    m = re.search(pat, docs[path])
    check(m is not None, f"{path} quotes the teaching demo")
    if not m: continue
    tail0, t0, gh, gl, st, sh, sl = m.groups()
    check(all(same(tail0, t["tail_acc"]) for t in ga["tasks"][int(t0) - 1:]) and not same(tail0, ga["tasks"][0]["tail_acc"]),
          f"{path}: GACL tail {tail0} % from task {t0} on")
    check(same(gh, ga["tasks"][-1]["head_acc"]) and same(gl, ga["a_last"]), f"{path}: GACL head {gh} %, A_last {gl} %")
    check(same(st, gs["tasks"][-1]["tail_acc"]) and same(sh, gs["tasks"][-1]["head_acc"]) and same(sl, gs["a_last"]),
          f"{path}: GSR tail {st} %, head {sh} %, A_last {sl} %")

# Paper scale, README: "GACL's tail accuracy is about 19 % and GSR's about 75 %".
m = re.search(r"GACL's tail accuracy is about ([0-9]+) % and GSR's about ([0-9]+) %", docs["README.md"])
check(m is not None, "README quotes the --synthetic tail accuracies")
if m:
    check(same(m.group(1), method(syn, "gacl")["tasks"][-1]["tail_acc"]) and same(m.group(2), method(syn, "gsr")["tasks"][-1]["tail_acc"]),
          f"--synthetic: GACL tail ≈ {m.group(1)} %, GSR tail ≈ {m.group(2)} %")
# The synthetic set as the man page describes it.
m = re.search(r"C = ([0-9]+) classes, d = ([0-9]+), ([0-9]+) training and ([0-9]+) test rows per", docs["man/gsrscope.1"])
check(m is not None and int(m.group(1)) == syn["params"]["classes"] and int(m.group(2)) == syn["params"]["d"]
      and int(m.group(4)) * int(m.group(1)) == syn["params"]["test_rows"], "man: --synthetic is C = 100, d = 768, 100 test rows per class")

# Nothing points at files outside the repository.
for path, text in docs.items():
    spec = "SP" + "EC"  # spelled in two parts so that this file does not itself mention it
    check(not re.search(spec + r"\.md|" + spec + r" §|shared/", text), f"{path} does not refer to the spec or other outside files")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PYEOF
