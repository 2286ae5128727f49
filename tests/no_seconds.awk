# no_seconds.awk — a run's CSV without its `seconds` column (found by name in the header; the
# wall time is the one column that differs between two runs of the same numbers).
BEGIN { FS = "," }
NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seconds") s = i }
{ o = ""; sep = ""; for (i = 1; i <= NF; i++) if (i != s) { o = o sep $i; sep = "," } print o }
