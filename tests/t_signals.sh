#!/bin/sh
# Big inputs and signals, headless (issue #8).
#  - `run --expand 200000`, a 100000-column data file and --max-memory too small are refused
#    before allocating: exit 2, one "gsrscope: ..." line with the estimate (GiB). Only "finishes"
#    is checked (timeout 20), never a time.
#  - SIGINT/SIGTERM during `run --synthetic --spectrum all --expand 2000 --save-state DIR`
#    (~13 s uninterrupted): exit 130/143, exactly one stderr line "gsrscope: interrupted",
#    nothing on stdout, no state files or temporaries. Same for export; sweep stops at once.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3

# --- refusals with the estimate ---
refuse() { # what, grep pattern, args...
    what=$1; pat=$2; shift 2
    timeout 20 "$G" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -eq 2 ] && one_line && grep -qE "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then ok "$what: exit 2, $(cut -c1-90 "$tmp/err")"
    else bad "$what: exit $rc (want 2 and one line matching '$pat')"; fi
}
refuse "run --expand 200000" 'needs .*[0-9.]+ [GT]iB' run --expand 200000 --quiet
refuse "run --synthetic --expand 200000" 'needs .*[0-9.]+ [GT]iB' run --synthetic --expand 200000 --quiet
refuse "export --expand 200000" 'needs .*[0-9.]+ [GT]iB' export --expand 200000 --figure accuracy -o "$tmp/a.png" --quiet
refuse "run --expand 20000 --max-memory 1G" '[0-9.]+ GiB.*--max-memory' run --expand 20000 --max-memory 1G --quiet
"$PY" - "$tmp" <<'PYEOF'
import numpy as np, sys
d = sys.argv[1]
np.save(d + "/wide_x.npy", np.ones((4, 100000), np.float32)); np.save(d + "/wide_y.npy", np.array([0, 1, 0, 1]))
PYEOF
refuse "100000-column features (D×D cannot fit)" 'needs about [0-9.]+ [GT]iB.*100000' run --train-features "$tmp/wide_x.npy" \
    --train-labels "$tmp/wide_y.npy" --test-features "$tmp/wide_x.npy" --test-labels "$tmp/wide_y.npy" --tasks 1 --quiet
[ -e "$tmp/a.png" ] && bad "export refused but wrote a.png"

# --- signals during a long run ---
sig_run() { # signal, want status, what, args...
    sig=$1; want=$2; what=$3; shift 3
    "$G" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null &
    pid=$!
    sleep 1
    kill -"$sig" "$pid" 2>/dev/null
    # bounded wait: the run must stop well before its ~13 s
    i=0; while kill -0 "$pid" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; wait "$pid"; : >"$tmp/err"; bad "$what: SIG$sig: still running after 20 s"; return; fi
    wait "$pid"; rc=$?
    if [ "$rc" -eq "$want" ] && one_line 'interrupted$' && [ ! -s "$tmp/out" ]; then ok "$what: SIG$sig -> exit $rc, one line 'gsrscope: interrupted'"
    else bad "$what: SIG$sig -> exit $rc (want $want, one line 'gsrscope: interrupted', empty stdout)"; fi
}
long="--synthetic --spectrum all --expand 2000"
for s in INT TERM; do
    case $s in INT) want=130 ;; TERM) want=143 ;; esac
    rm -rf "$tmp/st"; mkdir "$tmp/st"
    sig_run $s $want "run $long --save-state" run $long --save-state "$tmp/st/state" --quiet
    if [ -z "$(ls -A "$tmp/st")" ]; then ok "SIG$s: no --save-state files or temporaries"
    else : >"$tmp/err"; bad "SIG$s: left $(ls -A "$tmp/st" | head -n 3)"; fi
done
sig_run INT 130 "export $long" export $long --figure dashboard -o "$tmp/d.png" --quiet
if [ -z "$(ls -A "$tmp" | grep '^d\.png')" ]; then ok "export SIGINT: no d.png or temporary"; else : >"$tmp/err"; bad "export SIGINT left $(ls "$tmp" | grep d.png)"; fi
sig_run INT 130 "sweep" sweep --synthetic --expand 2000 --param tau=0.1,1 --quiet

finish
