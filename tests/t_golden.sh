#!/bin/sh
# t_golden.sh — the numbers and figure bytes a refactor must not change. tests/golden/ holds
# `run --format csv` (every column but `seconds`) on --synthetic, on the MobileNetV2 sample with
# the teaching preset and on the pixel sample with all eleven systems of Table 1, and the
# SHA-256 of every figure `export` draws on the MobileNetV2 teaching run (PNG) and of the
# synthetic dashboard. They were made by c719693, before src/ was split into folders.
# A change that is meant to move a number: GOLDEN_UPDATE=1 sh tests/t_golden.sh rewrites the
# files, and the commit says which numbers moved and why.
. "$(dirname "$0")/lib.sh"
export GSRSCOPE_ASSETS="$PWD/assets"
dir=tests/golden
# The last digits of float and BLAS arithmetic follow OpenBLAS's kernel for this processor
# (OPENBLAS_VERBOSE=2 names it): tests/golden/ holds what the Haswell/Zen kernels give, and
# tests/golden/CORE/ the files that differ under another kernel CORE, made by the same commit
# (c719693's numbers as re-pinned since). GOLDEN_UPDATE=1 writes into the kernel's own folder
# when it has one.
core=$(OPENBLAS_VERBOSE=2 "$G" --version 2>&1 | sed -n 's/^Core: //p' | head -n 1)
golden() { if [ -n "$core" ] && [ -f "$dir/$core/$1" ]; then echo "$dir/$core/$1"; else echo "$dir/$1"; fi; }
FIGS="accuracy spectrum stable-rank dashboard tau-sweep erank-cond class-acc eig-ratio theorem claims collapse ridge-lens"
ALL11=slda,fecam,ncm,klda,air,gacl,gacl+gsr,ranpac,ranpac+gsr,anacp,anacp+gsr


check_csv() { # name, then the run's arguments
    name=$1; shift
    if ! "$G" run "$@" --format csv --quiet > "$tmp/$name.raw" 2> "$tmp/err"; then
        bad "run $* exits 0"; return; fi
    no_seconds < "$tmp/$name.raw" > "$tmp/$name.csv"
    want=$(golden "$name.csv")
    if [ -n "${GOLDEN_UPDATE:-}" ]; then cp "$tmp/$name.csv" "$want"; fi
    if cmp -s "$tmp/$name.csv" "$want"; then ok "run $*: every number as in $want"
    else diff "$want" "$tmp/$name.csv" | head -n 6 > "$tmp/err"; bad "run $*: numbers differ from $want"; fi
}

check_csv synthetic --synthetic
check_csv mnv2_teaching --sample mobilenetv2 --preset teaching
# the eleven systems' estimate (10.2 GiB) is about twice their peak (4.5 GB): a budget of its
# own, so that the numbers are checked whatever else the machine runs meanwhile
# (GS_QUICK=1, make check: this one in make check-full only, 40 s of CPU and 4.5 GB)
if quick; then quick_note "the pixel run of the eleven systems (pixels_table1.csv)"
else check_csv pixels_table1 --sample pixels --methods "$ALL11" --max-memory 16G; fi

: > "$tmp/figs.sha256"
for f in $FIGS; do
    if "$G" export --sample mobilenetv2 --preset teaching --figure "$f" -o "$tmp/$f.png" --quiet 2> "$tmp/err"; then
        (cd "$tmp" && sha256sum "$f.png") >> "$tmp/figs.sha256"
    else bad "export --figure $f exits 0"; fi
done
if "$G" export --synthetic --figure dashboard -o "$tmp/synthetic-dashboard.png" --quiet 2> "$tmp/err"; then
    (cd "$tmp" && sha256sum synthetic-dashboard.png) >> "$tmp/figs.sha256"
else bad "export --synthetic --figure dashboard exits 0"; fi
figs=$(golden figures.sha256)
[ -n "${GOLDEN_UPDATE:-}" ] && cp "$tmp/figs.sha256" "$figs"
while read -r sum file; do
    want=$(awk -v f="$file" '$2==f{print $1}' "$figs")
    if [ "$sum" = "$want" ]; then ok "export $file: the same bytes"
    else echo "$file: $sum, expected ${want:-none}" > "$tmp/err"; bad "export $file: bytes differ from $figs"; fi
done < "$tmp/figs.sha256"
finish
