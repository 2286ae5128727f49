#!/bin/sh
# t_assets.sh — assets/ found in the source tree, through $GSRSCOPE_ASSETS and installed;
# a missing or broken asset is one clear line naming the file (exit 2); the reference preset's
# τ is the reference code's ridge 1e4 for the projection gsrscope uses.
. "$(dirname "$0")/lib.sh"

# Source tree: presets listed from assets/presets.
"$G" run --preset nope >/dev/null 2>"$tmp/err"
one_line "--preset: unknown preset 'nope' (known: paper, reference, teaching)" && ok "presets listed from assets/presets" ||
    bad "preset list"

# A broken preset names its file and line; a missing assets folder is one line.
mkdir -p "$tmp/a/presets"
printf '# test\ntitle=broken\nbeta=2\ntau=zz\n' >"$tmp/a/presets/broken"
GSRSCOPE_ASSETS=$tmp/a "$G" run --preset broken >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "$tmp/a/presets/broken: line 4: --tau: 'zz' is not a finite number" && ok "broken preset: file and line, exit 2" ||
    bad "broken preset (exit $rc)"
printf 'tau\n' >"$tmp/a/presets/noeq"
GSRSCOPE_ASSETS=$tmp/a "$G" run --preset noeq >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "$tmp/a/presets/noeq: line 1: expected name=value" && ok "preset line without '=': exit 2" || bad "noeq (exit $rc)"
GSRSCOPE_ASSETS=$tmp/none "$G" run --preset paper >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "$tmp/none: not a folder" && ok "missing assets folder: exit 2, named" || bad "missing assets (exit $rc)"
printf 'title=x\ntau=0.5\n' >"$tmp/a/presets/half"
GSRSCOPE_ASSETS=$tmp/a "$G" run --quiet --preset half 2>"$tmp/err" | grep -q ' τ=0.5 ' && ok "\$GSRSCOPE_ASSETS is read" || bad "GSRSCOPE_ASSETS"

# Installed: `make install` copies assets/ to $(PREFIX)/share/gsrscope, and the installed
# binary finds them there (no source tree next to it).
if [ -z "${GS_SANITIZED:-}" ] && (unset MAKEFLAGS MAKELEVEL; make -s install BUILD="${BUILD:-build}" DESTDIR="$tmp/inst" PREFIX=/usr >"$tmp/err" 2>&1); then
    "$tmp/inst/usr/bin/gsrscope" run --preset teaching --quiet 2>"$tmp/err" | grep -q ' β=10  τ=10 ' &&
        ok "installed binary reads its presets from share/gsrscope" || bad "installed presets"
    [ -f "$tmp/inst/usr/share/gsrscope/presets/reference" ] && ok "make install copies assets/" || bad "assets not installed"
else
    [ -n "${GS_SANITIZED:-}" ] && skip "install check under sanitizers" || bad "make install failed"
fi

# reference: --expand 5000 with the τ equal to the reference code's ridge 1e4 on N(0,1)
# weights; with the uniform projection U(-1/sqrt(d), 1/sqrt(d)) (variance 1/(3d)) that is
# τ = 1e4/(3d). The preset must name its projection, so the default cannot change its meaning.
p=assets/presets/reference
grep -q '^expand=5000$' $p && ok "reference expands to D = 5000" || bad "reference: expand"
tau=$(sed -n 's/^tau=//p' $p)
proj=$(sed -n 's/^projection=//p' $p)
case "$proj" in
gaussian) python3 -c "import sys; sys.exit(float(sys.argv[1]) != 1e4)" "$tau" && ok "reference: gaussian projection, τ = 1e4" ||
    bad "reference: gaussian needs tau=10000 (got $tau)" ;;
uniform) python3 -c "import sys; t=float(sys.argv[1]); sys.exit(abs(t*3*768/1e4-1) > 0.01)" "$tau" &&
    ok "reference: uniform projection, τ = 1e4/(3·768)" || bad "reference τ $tau" ;;
*) bad "assets/presets/reference must name its projection (projection=gaussian or uniform)" ;;
esac
"$G" run --preset reference --tasks 2 --max-memory 1K --quiet >/dev/null 2>"$tmp/err"
grep -q "expand 5000" "$tmp/err" && ok "the reference preset asks for D = 5000 (refused here by --max-memory)" || bad "reference preset: $(cat "$tmp/err")"
finish
