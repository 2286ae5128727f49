#!/bin/sh
# t_layers.sh — the layers of src/README.md hold in the built objects. Its "may call" table
# (parsed here: the one source of the rule; main.c is its own row) must allow every call (or data
# reference) from a file of folder A to a symbol another folder B defines (nm of $BUILD/obj), and
# every include of a header B owns (include/gs_*.h belongs to the folder that defines most of its
# functions; a folder's private header to that folder); and no files call each other in a circle.
# Only src/tui/tui.c calls curses (the names the curses libraries linked into $G define).
# A self-test adds three tiny objects (a call up and an include up, two files calling each other)
# and must see all three.
. "$(dirname "$0")/lib.sh"
OBJ=${BUILD:-build}/obj

# ---- the table: "A B" (A may call folder B), "A h:gs_x.h" (A may call what gs_x.h declares) ----
awk -F'|' '
/^\| `/ {
    f = $2; gsub(/[ `\/]/, "", f)
    if (NF != 5) { print "bad row (not 3 columns): " $0 > "/dev/stderr"; bad = 1; next }
    name[++n] = f
    if ($4 ~ /everything below/) below[n] = 1
    # "`learners/`, `augmenters/` (through their tables)": the folders before a parenthesis
    # "(through ... tables)" are reached only through their tables (data, not functions)
    ns = split($4, seg, ")")
    for (i = 1; i <= ns; i++) {
        s = seg[i]; q = ""
        if (index(s, "(")) { q = substr(s, index(s, "(")); s = substr(s, 1, index(s, "(") - 1) }
        how = q ~ /^\(through .*tables/ ? " tables" : ""
        s = s q
        while (match(s, /`[^`]*`/)) {
            tok = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
            if (tok ~ /\/$/) { sub(/\/$/, "", tok); print f, tok how }
            else if (tok ~ /^gs_.*\.h$/) print f, "h:" tok
        }
    }
}
END {
    for (i = 1; i <= n; i++) {
        print "row", name[i]
        if (below[i]) for (j = i + 1; j <= n; j++) print name[i], name[j]
    }
    exit bad
}' src/README.md >"$tmp/allow" 2>"$tmp/err"
rows=$(grep -c '^row ' "$tmp/allow")
missing=""
for d in src/*/; do
    d=${d#src/}; d=${d%/}
    grep -qx "row $d" "$tmp/allow" || missing="$missing $d"
done
grep -qx "row main.c" "$tmp/allow" || missing="$missing main.c"
unknown=$(awk '$1 != "row" && $2 !~ /^h:/ { print $2 }' "$tmp/allow" | sort -u | while read -r d; do
    grep -qx "row $d" "$tmp/allow" || printf ' %s' "$d"; done)
if [ -s "$tmp/err" ] || [ "$rows" -lt 2 ] || [ -n "$missing" ] || [ -n "$unknown" ]; then
    echo "folders without a row:$missing; named but without a row:$unknown" >>"$tmp/err"
    bad "src/README.md's may-call table: $rows rows, one per folder of src/ and main.c"
else ok "src/README.md's may-call table: $rows rows, one per folder of src/ and main.c"; fi
rm -f "$tmp/err"

# ---- what the headers declare: "include/gs_x.h ident" for every name followed by ( outside comments
awk '
FNR == 1 { inc = 0 }
{
    s = $0; out = ""
    while (s != "") {
        if (inc) { p = index(s, "*/"); if (!p) { s = ""; break } s = substr(s, p + 2); inc = 0; continue }
        p = index(s, "/*"); q = index(s, "//")
        if (q && (!p || q < p)) { out = out substr(s, 1, q - 1); s = ""; break }
        if (!p) { out = out s; s = ""; break }
        out = out substr(s, 1, p - 1); s = substr(s, p + 2); inc = 1
    }
    while (match(out, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
        id = substr(out, RSTART, RLENGTH); sub(/[ \t]*\($/, "", id)
        print FILENAME, id; out = substr(out, RSTART + RLENGTH)
    }
}' include/gs_*.h >"$tmp/decl"

# check OBJS-LIST SRCS-LIST: the violations ("src/x/a.c calls f (src/y/b.c): x may not call y",
# "... includes gs_y.h (y/): ...") and the circles ("circle: src/a.c → src/b.c (f) → ...")
check() {
    # shellcheck disable=SC2046
    nm -A -P $(cat "$1") >"$tmp/nm" 2>"$tmp/nmerr" || { cat "$tmp/nmerr"; return 1; }
    # shellcheck disable=SC2046
    grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $(cat "$2") >"$tmp/inc" || :
    awk -v ALLOW="$tmp/allow" -v DECL="$tmp/decl" -v NM="$tmp/nm" -v INC="$tmp/inc" '
    function folder(p) { if (p == "src/main.c") return "main.c"; sub(/^src\//, "", p); sub(/\/.*/, "", p); return p }
    function srcpath(p) { sub(/:$/, "", p); sub(/^(.*\/)?obj\//, "src/", p); sub(/\.o$/, ".c", p); return p }
    function strong(v,   i, n, w, ws, k, comp) {
        idx[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
        n = split(adj[v], ws, " ")
        for (i = 1; i <= n; i++) {
            w = ws[i]
            if (!(w in idx)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
            else if (on[w] && idx[w] < low[v]) low[v] = idx[w]
        }
        if (low[v] != idx[v]) return
        nscc++; k = 0
        do { w = stack[sp--]; on[w] = 0; scc[w] = nscc; k++ } while (w != v)
        if (k > 1) circle(v)
    }
    # one circle through v inside its component: breadth first from v back to v
    function circle(v,   q, h, t, u, i, n, ws, w, seen, from, path, end) {
        h = 1; t = 0; q[++t] = v; seen[v] = 1; end = ""
        while (h <= t && end == "") {
            u = q[h++]; n = split(adj[u], ws, " ")
            for (i = 1; i <= n; i++) {
                w = ws[i]
                if (scc[w] != scc[v]) continue
                if (w == v) { end = u; break }
                if (!(w in seen)) { seen[w] = 1; from[w] = u; q[++t] = w }
            }
        }
        path = " → " v " (" esym[end, v] ")"
        for (u = end; u != v; u = from[u]) path = " → " u " (" esym[from[u], u] ")" path
        print "circle: " v path
    }
    BEGIN {
        while ((getline l < ALLOW) > 0) { split(l, a, " "); if (a[1] != "row") may[a[1], a[2]] = a[3] == "" ? "all" : a[3] }
        while ((getline l < NM) > 0) {
            split(l, a, " "); f = srcpath(a[1]); files[f] = 1
            if (a[3] == "U") { nu++; uf[nu] = f; us[nu] = a[2] }
            else if (a[3] ~ /^[A-TV-Z]$/) { def[a[2]] = f; code[a[2]] = a[3] ~ /^[TW]$/ }
        }
        # a header belongs to the folder defining most of its functions
        while ((getline l < DECL) > 0) {
            split(l, a, " "); h = a[1]; sub(/.*\//, "", h); declared[h, a[2]] = 1
            if ((a[2] in def) && !((h, a[2]) in counted)) {
                counted[h, a[2]] = 1; c = ++votes[h, folder(def[a[2]])]
                if (c > best[h]) { best[h] = c; owner[h] = folder(def[a[2]]) }
            }
        }
        for (i = 1; i <= nu; i++) {
            f = uf[i]; s = us[i]
            if (!(s in def)) continue
            g = def[s]; A = folder(f); B = folder(g)
            if (g != f && !((f, g) in esym)) { esym[f, g] = s; adj[f] = adj[f] " " g }
            how = (A, B) in may ? may[A, B] : ""
            if (A == B || how == "all" || (how == "tables" && !code[s])) continue
            ok = 0
            for (k in may) { split(k, kk, SUBSEP); if (kk[1] == A && kk[2] ~ /^h:/ && ((substr(kk[2], 3), s) in declared)) ok = 1 }
            if (ok) continue
            if (how == "tables") print f " calls " s " (" g "): " A " may call " B " only through its tables"
            else print f " calls " s " (" g "): " A " may not call " B
        }
        while ((getline l < INC) > 0) {
            p = index(l, ":"); f = substr(l, 1, p - 1); h = substr(l, p + 1)
            sub(/^[^"]*"/, "", h); sub(/".*$/, "", h)
            if (f ~ /^include\//) { b = f; sub(/.*\//, "", b); A = owner[b]; if (A == "") continue }
            else { sub(/^(.*\/)?src\//, "src/", f); A = folder(f) }
            if (h ~ /\//) { B = h; sub(/\/[^\/]*$/, "", B); sub(/.*\//, "", B) }
            else if (h ~ /^gs_/) B = owner[h]
            else B = A
            if (B == "" || A == B || ((A, B) in may) || ((A, "h:" h) in may)) continue
            print f " includes " h " (" B "/): " A " may not call " B
        }
        for (f in files) if (!(f in idx)) strong(f)
    }' </dev/null
}

ls "$OBJ"/main.o "$OBJ"/*/*.o >"$tmp/objs" 2>/dev/null
ls src/main.c src/*/*.c src/*/*.h include/gs_*.h >"$tmp/srcs"
if [ "$(wc -l <"$tmp/objs")" -lt 20 ]; then
    echo "$OBJ: no objects (build first: make)" >"$tmp/err"; bad "the built objects"; finish; exit
fi
check "$tmp/objs" "$tmp/srcs" >"$tmp/found" || { bad "nm of $OBJ"; finish; exit; }
report() { # report PATTERN TITLE
    if grep -q "$1" "$tmp/found"; then
        bad "$2 ($(grep -c "$1" "$tmp/found"))"; grep "$1" "$tmp/found" | sort | sed 's/^/#   /'
    else ok "$2"; fi
}
report ' calls .*may \(not call\|call .* only through\)' "every call between folders is allowed by src/README.md's table"
report ' includes .*may not call' "every include of another folder's header is allowed by the table"
report '^circle: ' "no circle of calls between files"

# ---- curses: only tui/tui.c calls it (the UI thread); the names the linked curses libraries define
for l in $(ldd "$G" 2>/dev/null | awk '/curses|tinfo/ { print $3 }'); do
    nm -D --defined-only "$l" | awk '$2 ~ /^[TDBVW]$/ { sub(/@.*/, "", $3); print $3 }'
done | sort -u >"$tmp/curses"
if [ ! -s "$tmp/curses" ]; then
    echo "no curses library linked into $G (ldd)" >"$tmp/err"; bad "only src/tui/tui.c calls curses"
else
    awk 'NR == FNR { c[$1] = 1; next }
         $3 == "U" && ($2 in c) { f = $1; sub(/:$/, "", f); sub(/^(.*\/)?obj\//, "src/", f); sub(/\.o$/, ".c", f)
                                  if (f != "src/tui/tui.c") print f " calls curses\047s " $2 ": only src/tui/tui.c calls curses" }' \
        "$tmp/curses" "$tmp/nm" | sort -u >"$tmp/cursed"
    if [ -s "$tmp/cursed" ]; then bad "only src/tui/tui.c calls curses ($(wc -l <"$tmp/cursed"))"; sed 's/^/#   /' "$tmp/cursed"
    else ok "only src/tui/tui.c calls curses (no other file uses a name the linked curses libraries define)"; fi
fi

# ---- self-test: base/ calling and including tui/, two files calling each other ----
mkdir -p "$tmp/obj/base" "$tmp/src/base"
cat >"$tmp/src/base/zz_up.c" <<'EOF'
#include "gs_tui.h"
int zz_up(void) { return tui_main(0); }
EOF
printf 'int zz_b(int);\nint zz_a(int n) { return n ? zz_b(n - 1) : 0; }\n' >"$tmp/src/base/zz_a.c"
printf 'int zz_a(int);\nint zz_b(int n) { return n ? zz_a(n - 1) : 1; }\n' >"$tmp/src/base/zz_b.c"
built=1
for f in zz_up zz_a zz_b; do
    ${CC:-cc} -Iinclude -c "$tmp/src/base/$f.c" -o "$tmp/obj/base/$f.o" 2>"$tmp/err" || built=0
done
if [ $built -eq 1 ]; then
    cp "$tmp/objs" "$tmp/objs2"; ls "$tmp"/obj/base/*.o >>"$tmp/objs2"
    cp "$tmp/srcs" "$tmp/srcs2"; ls "$tmp"/src/base/*.c >>"$tmp/srcs2"
    check "$tmp/objs2" "$tmp/srcs2" >"$tmp/found2"
    grep -qxF "src/base/zz_up.c calls tui_main (src/tui/tui.c): base may not call tui" "$tmp/found2" &&
        grep -qxF "src/base/zz_up.c includes gs_tui.h (tui/): base may not call tui" "$tmp/found2" &&
        grep -q '^circle: src/base/zz_[ab].c → src/base/zz_[ab].c (zz_[ab]) → src/base/zz_[ab].c (zz_[ab])$' "$tmp/found2" &&
        ok "self-test: a call and an include from base/ up to tui/, and a circle of two files, are found" ||
        { sed 's/^/#   /' "$tmp/found2" | grep zz_; bad "self-test: the fake violations are found"; }
else bad "self-test: compiling the fake objects"; fi
finish
