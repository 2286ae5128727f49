#!/bin/sh
# t_loaders.sh — CLI-level loader tests (issue #3): the same dataset as <f8, <f4, Fortran-order
# .npy, CSV and IDX gives the same `gsrscope run --format csv` output; every bad input gives
# exit status 2, a one-line message naming the file on stderr and nothing on stdout.
# Needs $GSRSCOPE (set by tests/run_tests.sh); NumPy (python3-numpy) for the format checks.
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
if [ -z "$GSRSCOPE" ] || [ ! -e "$GSRSCOPE" ]; then
    echo "SKIP - gsrscope binary not built (\$GSRSCOPE='$GSRSCOPE')"
    echo "0 passed, 0 failed, 1 skipped"; exit 0
fi
if [ ! -x "$GSRSCOPE" ]; then echo "FAIL: $GSRSCOPE is not executable"; echo "0 passed, 1 failed"; exit 1; fi
T=$(mktemp -d /tmp/gs_t_loaders.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
REPO=$(pwd)
RUN="$GSRSCOPE run --format csv --tasks 3 --seed 2"

PY=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import numpy' >/dev/null 2>&1; then PY=$p; break; fi
done

# ---- default data: the bundled sample ----
if (cd "$T" && GSRSCOPE_DATA="$REPO/sample_features/fashion-mnist" $RUN >"$T/def.csv" 2>"$T/def.err"); then
    if head -n 1 "$T/def.csv" | grep -q '^method,task,' && [ "$(wc -l <"$T/def.csv")" -ge 3 ]; then ok
    else bad "default run: unexpected output: $(head -c 300 "$T/def.csv")"; fi
else bad "default run on the bundled sample failed: $(cat "$T/def.err")"; fi

# Columns to compare: everything but the timing column (last).
# the CSV without its seconds column (found by name: df follows it)
strip_time() { awk -f "$(dirname "$0")/no_seconds.awk" "$1"; }
# acc, head_acc, tail_acc (columns 6-8) within 0.5 percentage points.
acc_close() {
    paste -d, "$1" "$2" | awk -F, -v n="$(head -n 1 "$1" | awk -F, '{print NF}')" '
        NR == 1 { next }
        { for (c = 6; c <= 8; c++) { a = $c; b = $(c + n); if (a == "" && b == "") continue;
              d = a - b; if (d < 0) d = -d; if (d > 0.5) { print "row " NR " column " c ": " a " vs " b; bad = 1 } } }
        END { exit bad }'
}

if [ -n "$PY" ]; then
    # ---- one dataset, five formats ----
    "$PY" - "$T" <<'EOF' || bad "NumPy could not write the datasets"
import sys, os, gzip, struct
import numpy as np
t = sys.argv[1]
r = np.random.default_rng(3)
C, d = 6, 24
means = r.normal(size=(C, d))
def split(n):
    y = np.repeat(np.arange(C), n)
    x = means[y] + 0.8 * r.normal(size=(len(y), d))
    return np.abs(x) * 40.0 + 0.3, y
X, y = split(40)
T, yt = split(15)
for name, f in (("f8", lambda a: a), ("f4", lambda a: a.astype("<f4")), ("fo", np.asfortranarray)):
    os.makedirs(f"{t}/{name}")
    np.save(f"{t}/{name}/train_features.npy", f(X)); np.save(f"{t}/{name}/train_labels.npy", y)
    np.save(f"{t}/{name}/test_features.npy", f(T)); np.save(f"{t}/{name}/test_labels.npy", yt.astype("<i4"))
def csv(path, x, y, header):
    with open(path, "w") as fh:
        if header: fh.write(",".join([f"f{j}" for j in range(d)] + ["label"]) + "\n")
        for row, lab in zip(x, y): fh.write(",".join(repr(float(v)) for v in row) + f",{lab}\n")
csv(f"{t}/train.csv", X, y, True); csv(f"{t}/test.csv", T, yt, False)
# IDX: integer pixels, 4x6 "images"; the same values as an npy folder
Xi, Ti = np.round(X).clip(0, 255).astype(np.uint8), np.round(T).clip(0, 255).astype(np.uint8)
os.makedirs(f"{t}/idx"); os.makedirs(f"{t}/u1")
def idx(path, a, gz):
    b = bytes([0, 0, 8, a.ndim]) + b"".join(struct.pack(">I", s) for s in a.shape) + a.tobytes()
    (gzip.open(path + ".gz", "wb") if gz else open(path, "wb")).write(b)
idx(f"{t}/idx/train-images-idx3-ubyte", Xi.reshape(-1, 4, 6), True)
idx(f"{t}/idx/train-labels-idx1-ubyte", y.astype(np.uint8), False)
idx(f"{t}/idx/t10k-images-idx3-ubyte", Ti.reshape(-1, 4, 6), False)
idx(f"{t}/idx/t10k-labels-idx1-ubyte", yt.astype(np.uint8), True)
np.save(f"{t}/u1/train_features.npy", Xi); np.save(f"{t}/u1/train_labels.npy", y.astype(np.uint8))
np.save(f"{t}/u1/test_features.npy", Ti); np.save(f"{t}/u1/test_labels.npy", yt)
# rows in a shuffled order (the rows a run keeps are scattered through the file) as .npy in C and
# Fortran order, .npz stored and compressed, one-array .npz files, and CSV (read whole)
p = r.permutation(len(y)); Xs, ys = X[p], y[p]
for name, f in (("sh", lambda a: a), ("shfo", np.asfortranarray)):
    os.makedirs(f"{t}/{name}")
    np.save(f"{t}/{name}/train_features.npy", f(Xs)); np.save(f"{t}/{name}/train_labels.npy", ys)
    np.save(f"{t}/{name}/test_features.npy", f(T)); np.save(f"{t}/{name}/test_labels.npy", yt)
np.savez(f"{t}/sh.npz", train_features=Xs, train_labels=ys, test_features=T, test_labels=yt)
np.savez_compressed(f"{t}/shc.npz", train_features=np.asfortranarray(Xs), train_labels=ys,
                    test_features=np.asfortranarray(T), test_labels=yt.astype("|u1"))
np.savez_compressed(f"{t}/sh_trf.npz", Xs.astype("<f2")); np.savez(f"{t}/sh_trl.npz", ys)
np.savez_compressed(f"{t}/sh_tef.npz", T.astype("<f2")); np.savez(f"{t}/sh_tel.npz", yt)
np.save(f"{t}/sh_trf2.npy", Xs.astype("<f2")); np.save(f"{t}/sh_tef2.npy", T.astype("<f2"))
csv(f"{t}/sh_train.csv", Xs, ys, True); csv(f"{t}/sh_test.csv", T, yt, False)
# bad inputs
B = f"{t}/bad"; os.makedirs(B)
good = open(f"{t}/f8/train_features.npy", "rb").read()
open(f"{B}/magic.npy", "wb").write(b"NOTNPY" + good[6:])
open(f"{B}/hlen.npy", "wb").write(good[:8] + b"\xff\x7f" + good[10:200])
np.save(f"{B}/bigendian.npy", X.astype(">f8"))
np.save(f"{B}/object.npy", np.array([[1, "a"]], dtype=object), allow_pickle=True)
np.save(f"{B}/complex.npy", X.astype(np.complex128))
np.save(f"{B}/rank3.npy", X.reshape(-1, 4, 6))
open(f"{B}/truncated.npy", "wb").write(good[:-5])
open(f"{B}/trailing.npy", "wb").write(good + b"\0\0")
h = "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 8), }"
h = h + " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
open(f"{B}/overflow.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
Xn = X.copy(); Xn[11, 4] = np.nan; np.save(f"{B}/nan.npy", Xn)
Xn = X.copy(); Xn[2, 0] = np.inf; np.save(f"{B}/inf.npy", Xn)
np.save(f"{B}/shortlabels.npy", y[:-1])
yn = y.copy(); yn[5] = -2; np.save(f"{B}/neglabels.npy", yn)
np.save(f"{B}/fraclabels.npy", y + 0.5)
np.save(f"{B}/oneclass.npy", np.zeros_like(y))
np.save(f"{B}/dims.npy", T[:, :-1])
with open(f"{B}/ragged.csv", "w") as fh: fh.write("1,2,0\n3,4,1\n5,1\n")
with open(f"{B}/text.csv", "w") as fh: fh.write("1,2,0\n3,4,1\n5,six,1\n")
with open(f"{B}/comma.csv", "w") as fh: fh.write("1,2,0\n3,4,1\n5;5,6,1\n")
os.makedirs(f"{B}/idxtrunc")
for f in os.listdir(f"{t}/idx"):
    data = open(f"{t}/idx/{f}", "rb").read()
    open(f"{B}/idxtrunc/{f}", "wb").write(data[:-7] if f.startswith("train-images") else data)
EOF
    files() { echo "--train-features $1/train_features.npy --train-labels $1/train_labels.npy --test-features $1/test_features.npy --test-labels $1/test_labels.npy"; }
    # shellcheck disable=SC2046
    if $RUN --data "$T/f8" >"$T/o_f8.csv" 2>"$T/e"; then ok; else bad "--data f8: $(cat "$T/e")"; fi
    # shellcheck disable=SC2046
    if $RUN $(files "$T/fo") >"$T/o_fo.csv" 2>"$T/e"; then ok; else bad "Fortran files: $(cat "$T/e")"; fi
    if $RUN --train-features "$T/train.csv" --train-labels "$T/train.csv" --test-features "$T/test.csv" \
            --test-labels "$T/test.csv" >"$T/o_csv.csv" 2>"$T/e"; then ok; else bad "CSV: $(cat "$T/e")"; fi
    if $RUN --data "$T/f4" >"$T/o_f4.csv" 2>"$T/e"; then ok; else bad "--data f4: $(cat "$T/e")"; fi
    if [ "$(wc -l <"$T/o_f8.csv")" -ge 4 ]; then ok; else bad "f8 output has too few lines"; fi
    if [ "$(strip_time "$T/o_f8.csv")" = "$(strip_time "$T/o_fo.csv")" ]; then ok
    else bad "Fortran-order output differs from <f8"; fi
    if [ "$(strip_time "$T/o_f8.csv")" = "$(strip_time "$T/o_csv.csv")" ]; then ok
    else bad "CSV output differs from <f8"; diff "$T/o_f8.csv" "$T/o_csv.csv" | head -5; fi
    if msg=$(acc_close "$T/o_f8.csv" "$T/o_f4.csv"); then ok; else bad "<f4 accuracies differ from <f8: $msg"; fi
    if $RUN --idx "$T/idx" >"$T/o_idx.csv" 2>"$T/e"; then ok; else bad "--idx: $(cat "$T/e")"; fi
    if $RUN --data "$T/u1" >"$T/o_u1.csv" 2>"$T/e"; then ok; else bad "--data u1: $(cat "$T/e")"; fi
    if [ "$(strip_time "$T/o_idx.csv")" = "$(strip_time "$T/o_u1.csv")" ]; then ok
    else bad "--idx output differs from the same pixels as |u1 .npy"; fi

    # shuffled rows: every container gives the numbers of the CSV files (which are read whole)
    if $RUN --train-features "$T/sh_train.csv" --train-labels "$T/sh_train.csv" --test-features "$T/sh_test.csv" \
            --test-labels "$T/sh_test.csv" >"$T/o_shcsv.csv" 2>"$T/e"; then ok; else bad "shuffled CSV: $(cat "$T/e")"; fi
    for src in sh shfo sh.npz shc.npz; do
        if $RUN --data "$T/$src" >"$T/o_$src.csv" 2>"$T/e" && [ "$(wc -l <"$T/o_$src.csv")" -ge 4 ] &&
           [ "$(strip_time "$T/o_$src.csv")" = "$(strip_time "$T/o_shcsv.csv")" ]; then ok
        else bad "shuffled rows, --data $src: output differs from CSV: $(cat "$T/e")"; fi
    done
    # one array per .npz (np.savez's arr_0), <f2: the same numbers as the same <f2 values as .npy
    if $RUN --train-features "$T/sh_trf.npz" --train-labels "$T/sh_trl.npz" --test-features "$T/sh_tef.npz" \
            --test-labels "$T/sh_tel.npz" >"$T/o_sh1.csv" 2>"$T/e" &&
       $RUN --train-features "$T/sh_trf2.npy" --train-labels "$T/sh/train_labels.npy" --test-features "$T/sh_tef2.npy" \
            --test-labels "$T/sh/test_labels.npy" >"$T/o_sh2.csv" 2>"$T/e" &&
       [ "$(strip_time "$T/o_sh1.csv")" = "$(strip_time "$T/o_sh2.csv")" ]; then ok
    else bad "one-array .npz files differ from the same .npy files: $(cat "$T/e")"; fi
    if msg=$(acc_close "$T/o_sh1.csv" "$T/o_shcsv.csv"); then ok; else bad "<f2 accuracies differ from <f8: $msg"; fi

    # ---- bad inputs: exit 2, message names the file, nothing on stdout ----
    B="$T/bad"; F8="$T/f8"
    expect_bad() { # what file-in-message args...
        what=$1; name=$2; shift 2
        $RUN "$@" >"$T/bo" 2>"$T/be"; rc=$?
        if [ "$rc" -eq 2 ] && [ ! -s "$T/bo" ] && grep -qF -- "$name" "$T/be" && [ "$(wc -l <"$T/be")" -eq 1 ]; then ok
        else bad "$what: exit $rc, stdout $(wc -c <"$T/bo") bytes, stderr: $(cat "$T/be")"; fi
    }
    tf() { echo "--train-features $1 --train-labels ${2:-$F8/train_labels.npy} --test-features ${3:-$F8/test_features.npy} --test-labels ${4:-$F8/test_labels.npy}"; }
    for f in magic hlen bigendian object complex rank3 truncated trailing overflow nan inf; do
        # shellcheck disable=SC2046
        expect_bad "$f.npy" "$B/$f.npy" $(tf "$B/$f.npy")
    done
    # shellcheck disable=SC2046
    expect_bad "NaN position" "X[11, 4] is NaN (row and column counted from 0, as in NumPy)" $(tf "$B/nan.npy")
    for f in shortlabels fraclabels oneclass; do
        # shellcheck disable=SC2046
        expect_bad "$f" "$B/$f.npy" $(tf "$F8/train_features.npy" "$B/$f.npy")
    done
    # shellcheck disable=SC2046
    expect_bad "dimensions differ" "$B/dims.npy" $(tf "$F8/train_features.npy" "" "$B/dims.npy")
    for f in ragged text comma; do
        expect_bad "$f.csv" "$B/$f.csv" --train-features "$B/$f.csv" --train-labels "$B/$f.csv" \
            --test-features "$T/test.csv" --test-labels "$T/test.csv"
    done
    expect_bad "CSV position" "text.csv: line 3, column 2: 'six' is not a number" --train-features "$B/text.csv" \
        --train-labels "$B/text.csv" --test-features "$T/test.csv" --test-labels "$T/test.csv"
    # shellcheck disable=SC2046
    expect_bad "missing file" "$T/nothere.npy: cannot open: No such file or directory" $(tf "$T/nothere.npy")
    expect_bad "--data missing" "$T/nodir" --data "$T/nodir"
    expect_bad "--idx truncated gz" "train-images-idx3-ubyte.gz" --idx "$B/idxtrunc"
    expect_bad "--idx missing" "$T/nodir/train-images-idx3-ubyte" --idx "$T/nodir"
    expect_bad "--label-col out of range" "--label-col 40" --label-col 40 --train-features "$T/train.csv" \
        --train-labels "$T/train.csv" --test-features "$T/test.csv" --test-labels "$T/test.csv"
    # memory limit: labels (read whole) refused by name; features (read by rows) by the run's
    # estimate of what it keeps; exit status non-zero and nothing on stdout either way
    $RUN --data "$F8" --max-memory 1K >"$T/bo" 2>"$T/be"; rc=$?
    if [ "$rc" -ne 0 ] && [ ! -s "$T/bo" ] && grep -q "train_labels.npy: needs .* but --max-memory leaves only" "$T/be"; then ok
    else bad "--max-memory 1K: exit $rc: $(cat "$T/be")"; fi
    $RUN --data "$F8" --max-memory 20K >"$T/bo" 2>"$T/be"; rc=$?
    if [ "$rc" -ne 0 ] && [ ! -s "$T/bo" ] && grep -q "this run needs about .* allowed by --max-memory" "$T/be"; then ok
    else bad "--max-memory 20K: exit $rc: $(cat "$T/be")"; fi
else
    echo "SKIP - NumPy not available (install python3-numpy): format and bad-input checks"
    skipped=1
fi

echo "$pass passed, $fail failed, ${skipped:-0} skipped"
[ "$fail" -eq 0 ]
