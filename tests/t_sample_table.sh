#!/bin/sh
# README's table of GACL against GSR on the bundled sets is what `sh tools/sample_table.sh`
# prints today (every row rerun), and the story README tells from it holds: on both sets the
# teaching preset drives GACL's tail to 0 % while GSR keeps it above 20 %, with the head kept.
. "$(dirname "$0")/lib.sh"
sh tools/sample_table.sh "$G" > "$tmp/table.md" 2> "$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^| \(pixels\|mobilenetv2\) |' "$tmp/table.md")" -eq 6 ] \
    && ok "tools/sample_table.sh: six rows" || bad "tools/sample_table.sh: exit $rc"
sed -n '/<!-- sample-table -->/,/<!-- \/sample-table -->/p' README.md | grep '^|' > "$tmp/readme.md"
if cmp -s "$tmp/table.md" "$tmp/readme.md"; then ok "README's table is the command's output"
else bad "README's table differs from sh tools/sample_table.sh:"; diff "$tmp/readme.md" "$tmp/table.md" | sed 's/^/#   /'; fi
awk -F'|' '$3 ~ /teaching/ {
        gt = $6 + 0; st = $9 + 0; gh = $5 + 0; sh = $8 + 0
        if (!(gt == 0 && st > 20 && sh >= gh - 1)) bad = 1; n++ }
    END { exit (n == 2 && !bad) ? 0 : 1 }' "$tmp/table.md" \
    && ok "teaching: GACL tail 0 %, GSR tail > 20 %, GSR head not below GACL's by more than a point" \
    || bad "teaching rows do not tell the story README tells"
finish
