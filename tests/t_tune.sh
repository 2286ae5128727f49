#!/bin/sh
# `gsrscope tune` chooses on validation rows only: with the test labels permuted it chooses exactly
# the same values (and the same validation numbers) while the printed test numbers change; the
# choice is at least as good on validation as every grid point (checked with `sweep`, another
# path through the engine), and `run` at the chosen values prints the same validation and test
# numbers; `sweep` marks each method's best row by validation; the README's tuning example is
# rerun and compared; bad usage is refused.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
S=sample_features/fashion-mnist

# The "ok - " / "FAIL - " lines a Python check printed to FILE, counted here; none: WHAT did not run.
replay() { # FILE WHAT
    grep '^ok - \|^FAIL - ' "$1" >"$tmp/lines"
    while read -r line; do
        case $line in
        "ok - "*) ok "${line#ok - }" ;;
        *) bad "${line#FAIL - }" ;;
        esac
    done <"$tmp/lines"
    grep -q '^ok - ' "$1" || { cat "$1" >"$tmp/err"; bad "$2 did not run"; }
}

# Refusals (exit 2, one line).
expect2() { # PATTERN ARGS...
    pat=$1; shift
    "$G" "$@" >"$tmp/out" 2>"$tmp/err"
    if [ $? -eq 2 ] && one_line "$pat" && [ ! -s "$tmp/out" ]; then ok "refused: $*"; else bad "not refused: $*"; fi
}
expect2 "tune: needs a validation split" tune --methods gacl --param tau
expect2 "--param: tune searches alpha_base, xi, beta, tau, gauss_a, gauss_b, slda_eps, klda_gamma, klda_reg, fecam_alpha and fecam_tukey, not 'rho'" tune --val-frac 0.2 --param tau,rho
expect2 '-o: not an option of `run` (it applies to: export, tune)' run -o x.txt
expect2 "-o $tmp/no/such/t.txt: " tune --val-frac 0.2 --methods ncm -o "$tmp/no/such/t.txt"
expect2 '--objective: not an option of `run` (it applies to: tune)' run --objective tail
expect2 "--objective: unknown value" tune --val-frac 0.2 --param tau --objective best
expect2 "--seeds: '0x' is not a seed" tune --val-frac 0.2 --param tau --seeds 1,0x
expect2 "--save-state: not an option of .tune." tune --val-frac 0.2 --param tau --save-state x

# A parameter a method does not use is skipped and said, never refused; a method using none of
# the tunable rows is "nothing to tune"; without --param each method tunes what it reads.
"$G" tune --val-frac 0.2 --methods gacl,ncm --param beta >"$tmp/skip.txt" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q '^gacl: beta not used (skipped)$' "$tmp/skip.txt" && grep -q '^ncm: nothing to tune' "$tmp/skip.txt"
then ok "--param beta with gacl,ncm: skipped and said, not refused"; else bad "--param a method does not use"; fi
"$G" tune --val-frac 0.2 --methods gacl,slda,ncm,gsr --expand 200 --format json -o "$tmp/all.tuned" >"$tmp/all.json" 2>"$tmp/err"
if [ $? -eq 0 ] && "$PY" - "$tmp" <<'PYEOF' 2>>"$tmp/err"
import json, sys
t = sys.argv[1]
a = json.load(open(f"{t}/all.json"))
m = {x["name"]: x for x in a["methods"]}
assert sorted(m["gacl"]["chosen"]) == ["tau"], m["gacl"]["chosen"]
assert sorted(m["slda"]["chosen"]) == ["slda_eps"], m["slda"]["chosen"]
assert m["ncm"]["chosen"] == {} and m["ncm"]["skipped"] == ["nothing to tune"], m["ncm"]
assert sorted(m["gsr"]["chosen"]) == ["alpha_base", "beta", "tau", "xi"], m["gsr"]["chosen"]
assert a["test_fit"] == "the fit without the validation rows" and a["tuned_file"] == f"{t}/all.tuned"
assert a["reproduce"].startswith("gsrscope tune ") and a["reproduce"].endswith(f" -o {t}/all.tuned"), a["reproduce"]
# the file: '#' lines, then METHOD.KEY=VALUE for every chosen value, exactly (%.17g)
lines = open(f"{t}/all.tuned").read().splitlines()
com = [l for l in lines if l.startswith("#")]
val = [l for l in lines if l and not l.startswith("#")]
assert lines[:len(com)] == com, "comments first"
assert any(l.startswith("# reproduce: gsrscope tune ") for l in com) and any("val-frac 0.2" in l for l in com), com
want = {f"{x['name']}.{k}": v for x in a["methods"] for k, v in x["chosen"].items()}
got = {l.split("=", 1)[0]: float(l.split("=", 1)[1]) for l in val}
assert got == want, (got, want)
PYEOF
then ok "without --param: each method its own parameters; -o writes them exactly, with the reproducing command"
else bad "tune without --param / -o"; fi
# the reproducing command reproduces: same output, byte for byte (table, with -o)
"$G" tune --val-frac 0.2 --methods gacl,ncm --param tau -o "$tmp/r.tuned" >"$tmp/r1.txt" 2>"$tmp/err"
cmd=$(sed -n 's/^reproduce: gsrscope //p' "$tmp/r1.txt")
mv "$tmp/r.tuned" "$tmp/r1.tuned"
# shellcheck disable=SC2086
"$G" $cmd >"$tmp/r2.txt" 2>"$tmp/err"
if [ -n "$cmd" ] && cmp -s "$tmp/r1.txt" "$tmp/r2.txt" && cmp -s "$tmp/r1.tuned" "$tmp/r.tuned" &&
   grep -q 'test (fit without the validation rows)' "$tmp/r1.txt"; then ok "the reproduce line reproduces the table and the file"
else bad "reproduce line: '$cmd'"; fi
"$G" tune --val-frac 0.2 --methods gacl --param tau --format csv >"$tmp/c.csv" 2>"$tmp/err"
if tail -n 2 "$tmp/c.csv" | head -n 1 | grep -q '^# test_\*: the test accuracy of the fit without the validation rows$' &&
   tail -n 1 "$tmp/c.csv" | grep -q '^# reproduce: gsrscope tune .*--format csv$'; then ok "CSV: the test note and the reproduce line"
else bad "CSV notes"; fi

# The bundled sample, and a copy with the test labels permuted.
mkdir -p "$tmp/p"
cp "$S/train_features.npy" "$S/train_labels.npy" "$S/test_features.npy" "$tmp/p/"
"$PY" -c "
import numpy as np
y = np.load('$S/test_labels.npy'); np.random.default_rng(3).shuffle(y); np.save('$tmp/p/test_labels.npy', y)"
args="tune --val-frac 0.2 --methods gacl,gsr --param tau,beta --objective balanced --format json"
"$G" $args --data "$S" >"$tmp/a.json" 2>"$tmp/err" && "$G" $args --data "$tmp/p" >"$tmp/b.json" 2>"$tmp/err"
if [ $? -eq 0 ]; then ok "tune on the sample and on permuted test labels"; else bad "tune runs failed"; fi
"$G" sweep --data "$S" --val-frac 0.2 --methods gacl,gsr --format json \
    --param tau=0.0001,0.001,0.01,0.1,1,10,100,1000,10000,100000 >"$tmp/sw.json" 2>"$tmp/err" ||
    bad "sweep over the tau grid failed"
"$PY" - "$tmp" <<'PYEOF' >"$tmp/py" 2>&1
import json, sys
t = sys.argv[1]
def strict(p): return json.load(open(p), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
a, b, sw = strict(f"{t}/a.json"), strict(f"{t}/b.json"), strict(f"{t}/sw.json")
def check(name, cond): print(("ok - " if cond else "FAIL - ") + name)
check("objective and split reported", a["objective"] == "balanced" and a["val_frac"] == 0.2 and a["val_rows"] > 0)
for ma, mb in zip(a["methods"], b["methods"]):
    n = ma["name"]
    check(f"{n}: permuted test labels, same choice", ma["chosen"] == mb["chosen"] and ma["not_used"] == mb["not_used"])
    check(f"{n}: permuted test labels, same validation numbers", ma["validation"] == mb["validation"])
    check(f"{n}: permuted test labels, other test numbers", ma["test"] != mb["test"])
    check(f"{n}: numbers are JSON numbers", all(type(v) in (int, float) for v in ma["test"].values())
          and all(type(v) in (int, float) for v in ma["chosen"].values()))
    # every τ grid point of the sweep (β at its default 1 = the β the τ search started from)
    obj = max(0.5 * (p["results"][n]["val_head"]["mean"] + p["results"][n]["val_tail"]["mean"]) for p in sw["points"])
    check(f"{n}: the choice is at least as good on validation as every tau grid point ({ma['validation']['objective']:.4f} >= {obj:.4f})",
          ma["validation"]["objective"] >= obj - 1e-9)
check("gacl: beta reported as not used", a["methods"][0]["not_used"] == ["beta"] and list(a["methods"][0]["chosen"]) == ["tau"])
# sweep's best_by_validation is the argmax of val_a_last (first of equals)
for n in ("gacl", "gsr"):
    v = [p["results"][n]["val_a_last"]["mean"] for p in sw["points"]]
    marks = [p["results"][n]["best_by_validation"] for p in sw["points"]]
    check(f"sweep: {n}'s best row by validation marked", marks.count(True) == 1 and marks.index(True) == v.index(max(v)))
for m in a["methods"]:
    print("CHOSEN %s %s" % (m["name"], " ".join("--%s %.17g" % (k, v) for k, v in m["chosen"].items())))
PYEOF
replay "$tmp/py" "the JSON check"

# `run` at the chosen values: the same validation and test numbers as tune printed.
grep '^CHOSEN ' "$tmp/py" | while read -r _ name opts; do
    "$G" run --data "$S" --val-frac 0.2 --methods "$name" $opts --format json --quiet >"$tmp/r_$name.json" 2>"$tmp/err"
done
if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import json, sys
t = sys.argv[1]
a = json.load(open(f"{t}/a.json"))
for m in a["methods"]:
    r = json.load(open(f"{t}/r_{m['name']}.json"))["methods"][0]
    last = r["tasks"][-1]
    assert abs(last["val_head_acc"] - m["validation"]["head_acc"]) < 1e-9 and abs(last["val_tail_acc"] - m["validation"]["tail_acc"]) < 1e-9, m["name"]
    assert abs(r["a_last"] - m["test"]["a_last"]) < 1e-9 and abs(r["a_avg"] - m["test"]["a_avg"]) < 1e-9, m["name"]
PYEOF
then ok "run at the chosen values prints tune's validation and test numbers"; else bad "run at the chosen values differs"; fi

# --seeds: the choice maximizes the mean validation objective over the seeds (each its own split
# and stream); it still never reads test labels (permuted copy: same choice, other test numbers);
# every per-seed number equals `run --seed k` at the chosen values, the mean ± std are recomputed
# here, and no tau grid point of `sweep --seeds` has a better mean objective.
sargs="tune --val-frac 0.2 --methods gacl,gsr --param tau,beta --objective balanced --seeds 1,2 --format json"
"$G" $sargs --data "$S" >"$tmp/sa.json" 2>"$tmp/err" && "$G" $sargs --data "$tmp/p" >"$tmp/sb.json" 2>"$tmp/err" \
    && ok "tune --seeds 1,2 on the sample and on permuted test labels" || bad "tune --seeds runs failed"
"$G" sweep --data "$S" --val-frac 0.2 --methods gacl,gsr --format json --seeds 1,2 \
    --param tau=0.0001,0.001,0.01,0.1,1,10,100,1000,10000,100000 >"$tmp/ssw.json" 2>"$tmp/err" ||
    bad "sweep --seeds over the tau grid failed"
"$PY" - "$tmp" <<'PYEOF' >"$tmp/spy" 2>&1
import json, sys
t = sys.argv[1]
a, b, sw = (json.load(open(f"{t}/{n}.json")) for n in ("sa", "sb", "ssw"))
def check(name, cond): print(("ok - " if cond else "FAIL - ") + name)
check("seeds listed, one split per seed", a["seeds"] == [1, 2] and len(a["val_rows"]) == 2 and all(v > 0 for v in a["val_rows"]))
for ma, mb in zip(a["methods"], b["methods"]):
    n = ma["name"]
    check(f"{n} --seeds: permuted test labels, same choice", ma["chosen"] == mb["chosen"])
    check(f"{n} --seeds: permuted test labels, same validation numbers",
          ma["validation"] == mb["validation"] and [p["validation"] for p in ma["per_seed"]] == [p["validation"] for p in mb["per_seed"]])
    check(f"{n} --seeds: permuted test labels, other test numbers", ma["test"] != mb["test"])
    ok = True
    for g in ("validation", "test"):
        for k, m in ma[g].items():
            v = [p[g][k] for p in ma["per_seed"]]
            mean = sum(v) / 2
            sd = abs(v[0] - v[1]) / 2 ** 0.5
            ok &= abs(m - mean) < 1e-9 and abs(ma[g + "_std"][k] - sd) < 1e-9
    check(f"{n} --seeds: mean and sample std of the per-seed numbers", ok)
    obj = max(0.5 * (p["results"][n]["val_head"]["mean"] + p["results"][n]["val_tail"]["mean"]) for p in sw["points"])
    check(f"{n} --seeds: the mean objective is at least every tau grid point's ({ma['validation']['objective']:.4f} >= {obj:.4f})",
          ma["validation"]["objective"] >= obj - 1e-9)
    print("CHOSEN %s %s" % (n, " ".join("--%s %.17g" % (k, v) for k, v in ma["chosen"].items())))
PYEOF
replay "$tmp/spy" "the --seeds JSON check"
grep '^CHOSEN ' "$tmp/spy" | while read -r _ name opts; do
    for k in 1 2; do
        "$G" run --data "$S" --val-frac 0.2 --seed $k --methods "$name" $opts --format json --quiet >"$tmp/sr_${name}_$k.json" 2>"$tmp/err"
    done
done
if "$PY" - "$tmp" <<'PYEOF' 2>"$tmp/err"
import json, sys
t = sys.argv[1]
a = json.load(open(f"{t}/sa.json"))
for m in a["methods"]:
    for p in m["per_seed"]:
        r = json.load(open(f"{t}/sr_{m['name']}_{p['seed']}.json"))["methods"][0]
        last = r["tasks"][-1]
        assert abs(last["val_head_acc"] - p["validation"]["head_acc"]) < 1e-9, (m["name"], p["seed"])
        assert abs(last["val_tail_acc"] - p["validation"]["tail_acc"]) < 1e-9, (m["name"], p["seed"])
        assert abs(r["a_last"] - p["test"]["a_last"]) < 1e-9 and abs(r["a_avg"] - p["test"]["a_avg"]) < 1e-9, (m["name"], p["seed"])
PYEOF
then ok "run --seed k at the chosen values prints tune's per-seed numbers"; else bad "run --seed k at the chosen values differs"; fi
"$G" tune --data "$S" --val-frac 0.2 --methods gacl --param tau --seeds 1,2 >"$tmp/st.txt" 2>"$tmp/err" \
    && grep -q '^seeds 1,2: ' "$tmp/st.txt" && grep -q '^gacl .* ± ' "$tmp/st.txt" && ok "tune --seeds table: mean ± std" \
    || bad "tune --seeds table"
# progress (stderr not a terminal): one line per method, tuned over every seed; none under --quiet
"$G" tune --data "$S" --val-frac 0.2 --methods gacl,gsr --param tau --seeds 1,2 >"$tmp/pt.txt" 2>"$tmp/err"
grep -v '^gsrscope: warning:' "$tmp/err" >"$tmp/prog"
if [ "$(wc -l <"$tmp/prog")" -eq 2 ] && head -n 1 "$tmp/prog" | grep -qE '^gsrscope: tune 1/2 gacl done \([0-9.]+ s; about [0-9.]+ (s|min|h) left\)$' &&
   tail -n 1 "$tmp/prog" | grep -qE '^gsrscope: tune 2/2 gsr done \([0-9.]+ s\)$'; then
    ok "tune progress: one line per method"; else bad "tune progress lines"; fi
"$G" tune --data "$S" --val-frac 0.2 --methods gacl --param tau --quiet >/dev/null 2>"$tmp/err"
if [ $? -eq 0 ] && ! grep -v '^gsrscope: warning:' "$tmp/err" | grep -q .; then ok "tune --quiet: no progress"
else bad "tune --quiet printed progress"; fi

# The README's tuning example: the command after "$ " in the block after the marker, rerun.
awk '/<!-- tune-example -->/ {f=1; next} f && /^```/ {n++; if (n == 2) exit; next} f && n == 1' README.md >"$tmp/readme"
cmd=$(sed -n 's/^\$ build\/gsrscope //p' "$tmp/readme")
if [ -n "$cmd" ]; then
    sed '1d' "$tmp/readme" >"$tmp/want"
    # shellcheck disable=SC2086
    "$G" $cmd >"$tmp/got" 2>"$tmp/err"
    if cmp -s "$tmp/want" "$tmp/got"; then ok "README tuning example: same output"
    else diff "$tmp/want" "$tmp/got" >"$tmp/err"; bad "README tuning example differs"; fi
else
    bad "README has no tuning example"
fi
finish
