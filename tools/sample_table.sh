#!/bin/sh
# sample_table.sh — README's table of GACL against GSR on the two bundled sets.
#   sh tools/sample_table.sh [GSRSCOPE]      (default build/gsrscope)
# For each bundled set (--sample pixels, --sample mobilenetv2) and each preset (the defaults,
# teaching, reference) it runs `gsrscope run` (seed 1, the default
# long-tailed stream) and prints one Markdown row: A_last, head and tail accuracy (%) of both
# methods at the last task. tests/t_sample_table.sh reruns it and compares with README.
set -e
G=${1:-build/gsrscope}
# PRESETS="default teaching" leaves out the reference rows (an expansion to D = 5000: slow).
PRESETS=${PRESETS:-default teaching reference}
echo "| set | preset | GACL A_last | GACL head | GACL tail | GSR A_last | GSR head | GSR tail |"
echo "|---|---|---|---|---|---|---|---|"
for s in pixels mobilenetv2; do
    for p in $PRESETS; do
        if [ "$p" = default ]; then set -- ; else set -- --preset "$p"; fi
        "$G" run --sample "$s" "$@" --format csv --quiet | awk -F, -v s="$s" -v p="$p" '
            NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            { last[$1] = $0 }
            END {
                n = split(last["gacl"], g, ","); split(last["gsr"], r, ",")
                if (!n || !length(last["gsr"])) { print "sample_table: no gacl/gsr rows" > "/dev/stderr"; exit 1 }
                printf "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", s, p,
                    g[col["acc"]], g[col["head_acc"]], g[col["tail_acc"]],
                    r[col["acc"]], r[col["head_acc"]], r[col["tail_acc"]]
            }'
    done
done
