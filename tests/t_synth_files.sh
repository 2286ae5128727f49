#!/bin/sh
# t_synth_files.sh — `synth --out DIR` writes the very data `--synthetic` runs on, whatever the
# seed: `run --data DIR` equals `run --synthetic` (every number of every task, validation rows
# included) at --seed 1 and --seed 2; --synthetic's data (source and checksum) are the same at
# every --seed; `table --synthetic --data DIR --seeds 2,3` gives the two column groups the same
# numbers. Prints "N passed, N failed".
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

"$G" synth --out "$tmp/syn" --quiet 2>"$tmp/err" && ok "synth --out" || bad "synth --out"
common="--methods gacl,slda --tasks 4 --val-frac 0.2 --format json --quiet"
for s in 1 2; do
    "$G" run --synthetic --seed $s $common >"$tmp/mem$s.json" 2>"$tmp/err" || bad "run --synthetic --seed $s"
    "$G" run --data "$tmp/syn" --seed $s $common >"$tmp/files$s.json" 2>"$tmp/err" || bad "run --data --seed $s"
done
"$PY" - "$tmp" <<'PY' >"$tmp/err" 2>&1 && ok "run --data DIR = run --synthetic at seeds 1 and 2 (every task's numbers, validation too)" || bad "run --data DIR differs from run --synthetic"
import json, sys
d = sys.argv[1]
for s in (1, 2):
    a = json.load(open(f"{d}/mem{s}.json"))
    b = json.load(open(f"{d}/files{s}.json"))
    for key in ("rows", "test_rows", "head_classes", "val_rows"):
        assert a["params"][key] == b["params"][key], (s, key, a["params"][key], b["params"][key])
    for ma, mb in zip(a["methods"], b["methods"], strict=True):
        assert ma["name"] == mb["name"]
        assert ma["a_last"] == mb["a_last"] and ma["a_avg"] == mb["a_avg"], (s, ma["name"], ma["a_last"], mb["a_last"])
        for ta, tb in zip(ma["tasks"], mb["tasks"], strict=True):
            for k, v in ta.items():
                if k == "seconds":
                    continue
                assert v == tb[k], (s, ma["name"], ta["task"], k, v, tb[k])
PY
"$PY" - "$tmp/mem1.json" "$tmp/mem2.json" <<'PY' >"$tmp/err" 2>&1 && ok "--synthetic: the same data at --seed 1 and --seed 2" || bad "--synthetic's data depend on --seed"
import json, sys
a, b = (json.load(open(f))["params"] for f in sys.argv[1:])
assert (a["data_source"], a["data_checksum"]) == (b["data_source"], b["data_checksum"]), (a["data_source"], b["data_source"])
PY
"$G" table --synthetic --data "$tmp/syn" --methods gacl --tasks 4 --seeds 2,3 --val-frac 0.2 --format csv --quiet \
    >"$tmp/t.csv" 2>"$tmp/err" && ok "table --synthetic --data DIR" || bad "table --synthetic --data DIR"
"$PY" - "$tmp/t.csv" <<'PY' >"$tmp/err" 2>&1 && ok "table: the two column groups agree (seeds 2,3)" || bad "table: the groups differ"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2, rows
# every number equal; only the source's title and how it was given ("data") differ
a, b = ({k: v for k, v in r.items() if k not in ("source", "data")} for r in rows)
assert rows[0]["source"] != rows[1]["source"] and a == b, (a, b)
PY
finish
