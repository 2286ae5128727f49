#!/bin/sh
# Fault injection (issue #8).
#  GS_FAIL_ALLOC=N (src/base/common.c): the N-th gs_malloc/gs_calloc fails. For a spread of N on
#    `run --tasks 2`: exit 0 (N past the last allocation) or exit 1/2 with exactly one stderr line
#    "gsrscope: ..."; never a crash (status >= 128).
#  GS_FAIL_WRITE=ENOSPC|EIO (src/base/io.c): io_atomic_commit fails. `run --save-state DIR` and
#    `export -o X.png` must exit 1 with one clear line naming the file and the error, and leave no
#    file or temporary file behind; an existing X.png must stay byte-identical.
. "$(dirname "$0")/lib.sh"

# --- allocation failures ---
ns=$(seq 1 25; seq 30 10 200; echo 100000)
failed_some=0
for n in $ns; do
    GS_FAIL_ALLOC=$n "$G" run --tasks 2 --quiet >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -ge 128 ]; then bad "GS_FAIL_ALLOC=$n: crashed (status $rc)"
    elif [ "$rc" -eq 0 ]; then
        if [ -s "$tmp/out" ]; then ok "GS_FAIL_ALLOC=$n: no allocation failed, normal run"; else bad "GS_FAIL_ALLOC=$n: exit 0 but no output"; fi
    elif [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ]; then
        failed_some=$((failed_some+1))
        if one_line && grep -q 'out of memory' "$tmp/err"; then ok "GS_FAIL_ALLOC=$n: exit $rc, $(cut -c1-70 "$tmp/err")"
        else bad "GS_FAIL_ALLOC=$n: exit $rc but not one 'gsrscope: ... out of memory' line"; fi
    else bad "GS_FAIL_ALLOC=$n: unexpected exit $rc"; fi
done
if [ "$failed_some" -ge 15 ]; then ok "$failed_some injected allocation failures were reported"
else : >"$tmp/err"; bad "only $failed_some runs saw an injected allocation failure (is GS_FAIL_ALLOC wired?)"; fi

# --- write failures ---
for e in ENOSPC EIO; do
    case $e in ENOSPC) txt='No space left on device' ;; EIO) txt='Input/output error' ;; esac
    d="$tmp/state-$e"
    GS_FAIL_WRITE=$e "$G" run --tasks 2 --quiet --save-state "$d" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    left=$(ls -A "$d" 2>/dev/null | wc -l)
    if [ "$rc" -eq 1 ] && one_line && grep -qF "$txt" "$tmp/err" && grep -qF "$d/" "$tmp/err" && [ "$left" -eq 0 ]; then
        ok "GS_FAIL_WRITE=$e --save-state: exit 1, one line, folder empty"
    else bad "GS_FAIL_WRITE=$e --save-state: exit $rc, $left file(s) left: $(ls -A "$d" 2>/dev/null | tr '\n' ' ')"; fi

    o="$tmp/png-$e"; mkdir -p "$o"
    GS_FAIL_WRITE=$e "$G" export --tasks 2 --quiet --figure accuracy -o "$o/x.png" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    left=$(ls -A "$o" | wc -l)
    if [ "$rc" -eq 1 ] && one_line && grep -qF "$txt" "$tmp/err" && grep -qF "$o/x.png" "$tmp/err" && [ "$left" -eq 0 ] && [ ! -s "$tmp/out" ]; then
        ok "GS_FAIL_WRITE=$e export: exit 1, one line, no file"
    else bad "GS_FAIL_WRITE=$e export: exit $rc, $left file(s) left: $(ls -A "$o" | tr '\n' ' ')"; fi

    # An existing output must survive a failed overwrite unchanged.
    printf 'previous contents\n' >"$o/x.png"
    GS_FAIL_WRITE=$e "$G" export --tasks 2 --quiet --figure accuracy -o "$o/x.png" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -eq 1 ] && [ "$(cat "$o/x.png")" = "previous contents" ] && [ "$(ls -A "$o" | wc -l)" -eq 1 ]; then
        ok "GS_FAIL_WRITE=$e export over an existing file: old file intact, no temporary"
    else bad "GS_FAIL_WRITE=$e export over an existing file: exit $rc, files: $(ls -A "$o" | tr '\n' ' ')"; fi
done

# Control: without injection the same commands write their files (the test can tell the difference).
"$G" export --tasks 2 --quiet --figure accuracy -o "$tmp/ok.png" >/dev/null 2>"$tmp/err" </dev/null
if [ $? -eq 0 ] && [ -s "$tmp/ok.png" ] && [ "$(ls -A "$tmp" | grep -c '^ok.png')" -eq 1 ]; then ok "export without injection writes the PNG"
else bad "export without injection failed"; fi
"$G" run --tasks 2 --quiet --save-state "$tmp/state-ok" >/dev/null 2>"$tmp/err" </dev/null
if [ $? -eq 0 ] && [ -s "$tmp/state-ok/rows.npy" ]; then ok "--save-state without injection writes rows.npy"
else bad "--save-state without injection failed"; fi

finish
