#!/bin/sh
# synth_calibration.sh — README's calibration table: the bundled MobileNetV2 embeddings against
# --synthetic. Geometry (NumPy on the files, tests/calibration.py: top eigenvalue share of the
# uncentered Gram, λ2 and λ11 shares, mean cosine, balanced ridge probe τ = 1 on all training
# rows) and, from `gsrscope run --format json` at the defaults, GACL's and GSR's head and tail
# accuracy after the last task.
# Usage: tools/synth_calibration.sh [--format table|json]   (from the repository's top folder;
# GSRSCOPE=path of the binary, default build/gsrscope; PYTHON=a python3 with NumPy, default
# /usr/bin/python3). Writes the synthetic set (.npy, about 370 MB) to a temporary folder.
set -e
G=${GSRSCOPE:-build/gsrscope}
PY=${PYTHON:-/usr/bin/python3}
fmt=table
[ "$1" = "--format" ] && fmt=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gsrscope-calibration.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
"$G" synth --out "$tmp/synthetic" --quiet
"$G" run --sample mobilenetv2 --quiet --format json > "$tmp/mobilenetv2.json" 2> "$tmp/err"
"$G" run --synthetic --quiet --format json > "$tmp/synthetic.json" 2> "$tmp/err"
"$PY" tests/calibration.py mobilenetv2=sample_features/fashion-mnist-mobilenetv2 synthetic="$tmp/synthetic" \
    --run mobilenetv2="$tmp/mobilenetv2.json" --run synthetic="$tmp/synthetic.json" --format "$fmt"
