#!/bin/sh
# t_formats.sh — file extensions are matched in any case, by the parser (config/opts.c: CSV
# features hold their labels) and by the loaders (data/formats.c) alike, through the one test
# gs_ext_in: --train-features X.CSV runs as x.csv does (issue #33), and so do a .TXT table and
# an upper-case .NPY name. The table itself is tests/data/test_formats.c's.
. "$(dirname "$0")/lib.sh"
# Six classes of eight dimensions, labels in the last column (no NumPy needed).
awk -v n=90 -v s=1 'BEGIN { srand(s); for (i = 0; i < n; i++) { c = i % 6; l = "";
    for (j = 0; j < 8; j++) l = l sprintf("%.6f,", (j == c ? 3 : 0) + rand() - 0.5); print l c } }' >"$tmp/train.csv"
awk -v n=30 -v s=2 'BEGIN { srand(s); for (i = 0; i < n; i++) { c = i % 6; l = "";
    for (j = 0; j < 8; j++) l = l sprintf("%.6f,", (j == c ? 3 : 0) + rand() - 0.5); print l c } }' >"$tmp/test.csv"
cp "$tmp/train.csv" "$tmp/TRAIN.CSV"; cp "$tmp/test.csv" "$tmp/TEST.CSV"
cp "$tmp/train.csv" "$tmp/train.TXT"; cp "$tmp/test.csv" "$tmp/test.TXT"
RUN="$G run --quiet --format csv --tasks 3 --profile none"

$RUN --train-features "$tmp/train.csv" --test-features "$tmp/test.csv" 2>"$tmp/err" | no_seconds >"$tmp/lower"
[ -s "$tmp/lower" ] && [ "$(wc -l <"$tmp/lower")" -ge 4 ] && ok "x.csv features with inline labels run" || bad "x.csv run"
$RUN --train-features "$tmp/TRAIN.CSV" --test-features "$tmp/TEST.CSV" 2>"$tmp/err" | no_seconds >"$tmp/upper"
cmp -s "$tmp/lower" "$tmp/upper" && ok "--train-features X.CSV loads like x.csv (same numbers)" || bad "X.CSV: $(cat "$tmp/err")"
$RUN --train-features "$tmp/train.TXT" --test-features "$tmp/test.TXT" 2>"$tmp/err" | no_seconds >"$tmp/txt"
cmp -s "$tmp/lower" "$tmp/txt" && ok "--train-features x.TXT loads like x.csv" || bad "x.TXT: $(cat "$tmp/err")"

# A .npy file's name in upper case (the magic decides anyway), and an unknown name refused.
S=sample_features/fashion-mnist
for f in train_features train_labels test_features test_labels; do cp "$S/$f.npy" "$tmp/$f.NPY"; done
$G run --quiet --format csv --tasks 2 --profile none --train-features "$S/train_features.npy" --train-labels "$S/train_labels.npy" \
    --test-features "$S/test_features.npy" --test-labels "$S/test_labels.npy" 2>"$tmp/err" | no_seconds >"$tmp/npy"
$G run --quiet --format csv --tasks 2 --profile none --train-features "$tmp/train_features.NPY" --train-labels "$tmp/train_labels.NPY" \
    --test-features "$tmp/test_features.NPY" --test-labels "$tmp/test_labels.NPY" 2>"$tmp/err" | no_seconds >"$tmp/NPY"
[ -s "$tmp/npy" ] && cmp -s "$tmp/npy" "$tmp/NPY" && ok "X.NPY loads like x.npy" || bad "X.NPY"
echo "1,2,0" >"$tmp/feat.dat"
$G run --quiet --train-features "$tmp/feat.dat" --train-labels "$tmp/feat.dat" --test-features "$tmp/feat.dat" \
    --test-labels "$tmp/feat.dat" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line ".*feat.dat: unknown format (features must be .npy, .npz, .pt or .csv)" &&
    ok "an unknown extension is refused, naming the formats" || bad "unknown extension (exit $rc)"
finish
