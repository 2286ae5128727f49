#!/bin/sh
# t_teach_export.sh — the teaching figures from the command line: `export --figure claims` (six
# rows, each holds/fails with numbers; PNG written) and `export --figure collapse`, whose numbers
# are checked against NumPy on the --save-state files of the same run: per seen class, u = the
# class's mean row minus the mean of all rows, normalized; energy uᵀGu + τ for GACL's and GSR's G.
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok - $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; [ -n "$2" ] && printf '%s\n' "$2" | sed 's/^/    /' | head -n 30; }
G=${GSRSCOPE:-build/gsrscope}
t=$(mktemp -d /tmp/gs_t_teach_export.XXXXXX)
trap 'rm -rf "$t"' EXIT INT TERM
P="--tau 10 --beta 10 --quiet"

if "$G" export $P --methods gacl,gsr,gacl+oversample --figure claims -o "$t/claims.png" --data "$t/claims.csv" 2> "$t/err" \
    && [ -s "$t/claims.png" ]; then
    rows=$(tail -n +2 "$t/claims.csv" | grep -cE '^"[^"]+","(holds|fails)","[^"]*[0-9][^"]*","[^"]+"$')
    if [ "$rows" -eq 12 ]; then ok "claims: twelve rows (with gacl+oversample), each holds or fails with numbers and a reason"
    else bad "claims rows ($rows)" "$(cat "$t/claims.csv")"; fi
    if grep -q '^"tail accuracy up","holds","tail GACL 0.0 % → GSR' "$t/claims.csv"; then
        ok "claims: tail accuracy up holds at τ = 10, β = 10 (GACL's tail at 0 %)"; else bad "tail claim" "$(cat "$t/claims.csv")"; fi
else bad "export --figure claims" "$(cat "$t/err")"; fi
# without an oversample run the mass/geometry row is unknown and says what to run
if "$G" export $P --figure claims -o "$t/claims2.png" --data "$t/claims2.csv" 2> "$t/err" \
    && grep -q '^"the tail gain comes from the mix.s geometry, not its mass","unknown","","run gacl+oversample too' "$t/claims2.csv"; then
    ok "claims without gacl+oversample: the split row is '?' and names gacl+oversample"
else bad "split row without oversample" "$(cat "$t/claims2.csv")"; fi

"$G" run $P --save-state "$t/state" > /dev/null 2> "$t/err" || bad "run --save-state" "$(cat "$t/err")"
if "$G" export $P --figure collapse -o "$t/collapse.svg" --data "$t/collapse.csv" 2> "$t/err"; then
    if /usr/bin/python3 - "$t/state" "$t/collapse.csv" <<'PY'
import csv, sys
import numpy as np
d, path = sys.argv[1], sys.argv[2]
X = np.load(d + "/rows.npy"); y = np.load(d + "/rows_labels.npy")
tau = 10.0
mu = X.mean(axis=0)
classes = sorted(set(y.tolist()), key=lambda c: (-int((y == c).sum()), c))
want = {}
for name in ("gacl", "gsr"):
    Gm = np.load(d + "/" + name + "/G.npy")
    e = []
    for c in classes:
        u = X[y == c].mean(axis=0) - mu
        u /= np.linalg.norm(u)
        e.append(u @ Gm @ u + tau)
    want[name.upper()] = e
got = {}
for row in csv.DictReader(open(path)):
    got.setdefault(row["series"], {})[int(float(row["x"]))] = float(row["y"])
worst = 0.0
for name, e in want.items():
    for k, v in enumerate(e, 1):
        g = got[name][k]
        worst = max(worst, abs(g - v) / abs(v))
tau_rows = [s for s in got if s.startswith("τ")]
print("classes %d, max relative difference %.2e, τ line %s" % (len(classes), worst, tau_rows))
sys.exit(0 if worst < 1e-9 and len(classes) == len(got["GACL"]) and tau_rows else 1)
PY
    then ok "collapse: energies equal NumPy's uᵀGu + τ from --save-state (GACL and GSR)"
    else bad "collapse against NumPy" "$(head -5 "$t/collapse.csv")"; fi
else bad "export --figure collapse" "$(cat "$t/err")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
