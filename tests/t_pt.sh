#!/bin/sh
# t_pt.sh — torch.save (.pt) files give exactly the numbers of the same arrays saved as .npy:
# GACL's four files (float32 and float16 features, int16 and int64 labels), a dict of strided
# views (a column slice, a transposed slice with a storage offset, labels sharing one storage),
# bfloat16 features in an OrderedDict; by --data DIR, --data FILE.pt, the four-file options and
# FILE:KEY members (of a .pt and of an .npz with its own names). A pickle naming any other global
# is refused naming the file and the global. The committed files (tests/pt/, written by
# tests/pt/make_pt.py) are always checked; where torch is installed the script writes fresh ones.
. "$(dirname "$0")/lib.sh"
RUN="$G run --format csv --tasks 3 --seed 2"

# same WHAT PT_ARGS... -- NPY_ARGS...: the two runs print the same CSV (but the seconds column)
same() {
    what=$1; shift
    a=""; while [ "$1" != "--" ]; do a="$a $1"; shift; done; shift
    # shellcheck disable=SC2086
    if $RUN $a >"$tmp/pt.csv" 2>"$tmp/err" && $RUN "$@" >"$tmp/npy.csv" 2>>"$tmp/err" &&
        [ "$(wc -l <"$tmp/pt.csv")" -ge 4 ] && no_seconds "$tmp/pt.csv" >"$tmp/a" && no_seconds "$tmp/npy.csv" >"$tmp/b" &&
        cmp -s "$tmp/a" "$tmp/b"; then ok "$what"
    else bad "$what: $(diff "$tmp/a" "$tmp/b" 2>/dev/null | head -n 4)"; fi
}

check_sets() { # DIR (holding a/, views.pt, bf.pt, other.pt and the *_npy folders)
    P=$1
    same "$2 GACL's X_train.pt ... (f32/f16 features, i16/i64 labels) = .npy" --data "$P/a" -- --data "$P/a_npy"
    same "$2 four-file options with .pt" --train-features "$P/a/X_train.pt" --train-labels "$P/a/y_train.pt" \
        --test-features "$P/a/X_test.pt" --test-labels "$P/a/y_test.pt" -- --data "$P/a_npy"
    same "$2 a dict of strided views (--data FILE.pt) = .npy" --data "$P/views.pt" -- --data "$P/views_npy"
    same "$2 FILE.pt:KEY members" --train-features "$P/views.pt:X_train" --train-labels "$P/views.pt:y_train" \
        --test-features "$P/views.pt:X_test" --test-labels "$P/views.pt:y_test" -- --data "$P/views_npy"
    same "$2 bfloat16 features, uint8 labels in an OrderedDict" --data "$P/bf.pt" -- --data "$P/bf_npy"
    $RUN --data "$P/other.pt" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && one_line "$P/other.pt: the pickle names the global 'torch.nn.modules.linear.Linear'"; then
        ok "$2 a pickle of a module is refused naming the file and the global"
    else bad "$2 other.pt: exit $rc"; fi
}

check_sets tests/pt "committed:"

PY=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
TPY=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import torch, numpy' >/dev/null 2>&1; then TPY=$p; break; fi
done
if [ -n "$TPY" ]; then
    if "$TPY" tests/pt/make_pt.py "$tmp/fresh" 2>"$tmp/err"; then check_sets "$tmp/fresh" "fresh torch.save:"
    else bad "tests/pt/make_pt.py failed"; fi
else
    skip "fresh torch.save files: torch not installed (python3-torch); the committed .pt files were checked"
fi

# An .npz with its own member names: FILE.npz:NAME (with or without .npy)
if [ -n "$PY" ]; then
    "$PY" -c "
import numpy as np, sys
d = 'tests/pt/a_npy/'
np.savez(sys.argv[1], X_train=np.load(d + 'train_features.npy'), y_train=np.load(d + 'train_labels.npy'),
         X_test=np.load(d + 'test_features.npy'), y_test=np.load(d + 'test_labels.npy'))" "$tmp/own.npz"
    same "FILE.npz:NAME members" --train-features "$tmp/own.npz:X_train" --train-labels "$tmp/own.npz:y_train.npy" \
        --test-features "$tmp/own.npz:X_test" --test-labels "$tmp/own.npz:y_test" -- --data tests/pt/a_npy
    same "--data FILE.npz with GACL's names X_train, ..." --data "$tmp/own.npz" -- --data tests/pt/a_npy
    "$PY" -c "
import numpy as np, sys
np.savez(sys.argv[1], feats=np.zeros((3, 2)), labs=np.arange(3))" "$tmp/other.npz"
    $RUN --data "$tmp/other.npz" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ "$rc" -eq 2 ] && one_line "$tmp/other.npz: has no member train_features.npy (it holds: feats.npy, labs.npy)" &&
        grep -qF "name one as $tmp/other.npz:MEMBER" "$tmp/err"; then ok "an .npz with other names says how to name a member"
    else bad "other.npz without a member: exit $rc"; fi
else
    skip "the .npz member check: NumPy not installed"
fi
$RUN --train-features tests/pt/views.pt:nokey --train-labels tests/pt/views.pt:y_train \
    --test-features tests/pt/views.pt:X_test --test-labels tests/pt/views.pt:y_test >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" -eq 2 ] && one_line "tests/pt/views.pt: has no tensor 'nokey' (it holds: X_train, y_train, X_test, y_test)"; then
    ok "an unknown key is refused, listing the keys"
else bad "views.pt:nokey: exit $rc"; fi
finish
