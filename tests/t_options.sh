#!/bin/sh
# t_options.sh — one rule for options: each applies to the subcommand it is given to or is
# refused (exit 2, one line naming the option and the subcommand); --preset and --session
# apply to run, export and sweep with defaults < preset < session < command line; run says
# which values are not defaults and where they came from (header, JSON, PNG metadata).
# Independent checks: a preset's numbers equal those of the same values given as flags.
. "$(dirname "$0")/lib.sh"

refused() { # refused DESC OPTION SUBCOMMAND-WORD ARGS...: exit 2, one line naming both
    desc=$1 opt=$2 cmd=$3; shift 3
    "$G" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && one_line "$opt: not an option of $cmd"; then ok "$desc"
    else bad "$desc (exit $rc)"; fi
}
refused "run --seeds is refused" --seeds '`run`' run --seeds 1,2
refused "export --param is refused" --param '`export`' export --param tau=1,2 --figure accuracy -o "$tmp/x.png"
refused "sweep --task is refused" --task '`sweep`' sweep --task 3 --param tau=1,2
refused "synth --seed is refused" --seed '`synth`' synth --seed 3 --out "$tmp/syn"
refused "run --figure is refused" --figure '`run`' run --figure accuracy
refused "the TUI's --dpi is refused" --dpi 'the TUI' --dpi 300
refused "export --theorem is refused" --theorem '`export`' export --theorem --figure accuracy -o "$tmp/x.png"
[ ! -e "$tmp/x.png" ] && ok "nothing written by a refused export" || bad "refused export wrote a file"

# --preset: applies to run, export, sweep; an unknown name is refused, naming the known ones.
for cmd in run sweep; do
    extra=""; [ $cmd = sweep ] && extra="--seeds 1"
    # shellcheck disable=SC2086
    "$G" $cmd --preset bogus $extra >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && one_line "--preset: unknown preset 'bogus' (known: .*teaching" && ok "$cmd --preset bogus: exit 2" ||
        bad "$cmd --preset bogus (exit $rc)"
done
"$G" export --preset bogus --figure accuracy -o "$tmp/b.png" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && one_line "--preset: unknown" && [ ! -e "$tmp/b.png" ] && ok "export --preset bogus: exit 2, no file" ||
    bad "export --preset bogus (exit $rc)"

"$G" run --format csv --quiet >"$tmp/def.csv" 2>"$tmp/err" || bad "default run"
"$G" run --format csv --quiet --preset teaching >"$tmp/teach.csv" 2>"$tmp/err" || bad "teaching run"
"$G" run --format csv --quiet --tau 10 --beta 10 >"$tmp/flags.csv" 2>"$tmp/err" || bad "flags run"
cut -d, -f1-13 "$tmp/def.csv" >"$tmp/a"; cut -d, -f1-13 "$tmp/teach.csv" >"$tmp/b"; cut -d, -f1-13 "$tmp/flags.csv" >"$tmp/c"
cmp -s "$tmp/a" "$tmp/b" && bad "run --preset teaching gives the default results" || ok "run --preset teaching differs from defaults"
cmp -s "$tmp/b" "$tmp/c" && ok "run --preset teaching = run --tau 10 --beta 10" || bad "preset and the same flags differ"

"$G" export --quiet --figure accuracy -o "$tmp/def.png" --csv "$tmp/def_fig.csv" 2>"$tmp/err" || bad "default export"
"$G" export --quiet --preset teaching --figure accuracy -o "$tmp/teach.png" --csv "$tmp/teach_fig.csv" 2>"$tmp/err" || bad "teaching export"
"$G" export --quiet --tau 10 --beta 10 --figure accuracy -o "$tmp/flags.png" --csv "$tmp/flags_fig.csv" 2>"$tmp/err" || bad "flags export"
cmp -s "$tmp/def.png" "$tmp/teach.png" && bad "export --preset teaching: same figure as defaults" || ok "export --preset teaching: another figure"
cmp -s "$tmp/teach_fig.csv" "$tmp/flags_fig.csv" && ! cmp -s "$tmp/def_fig.csv" "$tmp/teach_fig.csv" &&
    ok "export --preset teaching plots the numbers of --tau 10 --beta 10" || bad "export preset numbers"
grep -aq 'not_default.*beta=10 (preset teaching); tau=10 (preset teaching)' "$tmp/teach.png" &&
    ok "PNG metadata names the preset's values" || bad "PNG metadata: no not_default from the preset"

"$G" sweep --quiet --format csv --preset teaching --seeds 1 >"$tmp/sw_t.csv" 2>"$tmp/err" &&
"$G" sweep --quiet --format csv --tau 10 --beta 10 --seeds 1 >"$tmp/sw_f.csv" 2>>"$tmp/err" &&
"$G" sweep --quiet --format csv --seeds 1 >"$tmp/sw_d.csv" 2>>"$tmp/err" || bad "sweeps ran"
cmp -s "$tmp/sw_t.csv" "$tmp/sw_f.csv" && ! cmp -s "$tmp/sw_t.csv" "$tmp/sw_d.csv" &&
    ok "sweep --preset teaching = sweep with the same flags, not the defaults" || bad "sweep --preset"

# --session applies (a hand-written file holding only tau), and the layers' order.
printf '# gsrscope session 1\ntau=3\nend\n' >"$tmp/s.session"
"$G" run --format csv --quiet --session "$tmp/s.session" >"$tmp/ss0" 2>"$tmp/err"; rc1=$?
"$G" run --format csv --quiet --tau 3 >"$tmp/st0" 2>>"$tmp/err"; rc2=$?
cut -d, -f1-13 "$tmp/ss0" >"$tmp/ss"; cut -d, -f1-13 "$tmp/st0" >"$tmp/st"
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ -s "$tmp/ss" ] && cmp -s "$tmp/ss" "$tmp/st" && ! cmp -s "$tmp/ss" "$tmp/a" &&
    ok "run --session S applies S's τ" || bad "run --session (exit $rc1, $rc2)"
"$G" export --quiet --session "$tmp/s.session" --figure accuracy -o "$tmp/s.png" --csv "$tmp/s_fig.csv" 2>"$tmp/err" &&
"$G" export --quiet --tau 3 --figure accuracy -o "$tmp/t3.png" --csv "$tmp/t3_fig.csv" 2>>"$tmp/err" &&
cmp -s "$tmp/s_fig.csv" "$tmp/t3_fig.csv" && ok "export --session S applies S" || bad "export --session"

tau_line() { "$G" run --quiet "$@" 2>"$tmp/err" | grep -m1 '^α_base='; }
tau_line --preset teaching --tau 1 | grep -q ' β=10  τ=1  ' && ok "--preset teaching --tau 1: τ = 1, β = 10" || bad "flag loses to preset"
tau_line --session "$tmp/s.session" --tau 5 | grep -q ' τ=5  ' && ok "--session S --tau 5: τ = 5" || bad "flag loses to session"
tau_line --tau 5 --session "$tmp/s.session" | grep -q ' τ=5  ' && ok "flag before --session still wins" || bad "flag order"
tau_line --preset teaching --session "$tmp/s.session" | grep -q ' β=10  τ=3  ' && ok "session over preset, preset over defaults" ||
    bad "preset < session"

# Where values came from: header line and JSON.
"$G" run --quiet --preset teaching --session "$tmp/s.session" --seed 4 >"$tmp/h" 2>"$tmp/err"
grep -q '^not at default: beta=10 (preset teaching); tau=3 (session .*s.session); seed=4 (command line)$' "$tmp/h" &&
    ok "run's header says which values are not defaults and where from" || bad "header: $(grep 'not at' "$tmp/h")"
"$G" run --quiet >"$tmp/h0" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q '^α_base=' "$tmp/h0" && ! grep -q '^not at default' "$tmp/h0" && ok "a default run lists nothing" ||
    bad "a default run: exit $rc, or defaults listed as changed"
"$G" run --quiet --format json --preset teaching --tau 0.01 >"$tmp/j.json" 2>"$tmp/err"
python3 - "$tmp/j.json" <<'PY' && ok "JSON not_default: numbers, sources; a value set back to its default is not listed" || bad "JSON not_default"
import json, sys
d = json.load(open(sys.argv[1]))["params"]
nd = {e["name"]: e for e in d["not_default"]}
assert set(nd) == {"beta"}, nd
assert nd["beta"]["value"] == 10 and nd["beta"]["from"] == "preset teaching", nd
assert d["tau"] == 0.01 and d["beta"] == 10
PY

# A data source on the command line replaces the session's.
mkdir -p "$tmp/proj"
cp -r sample_features/fashion-mnist "$tmp/proj/mydata"
printf '# gsrscope session 1\ndata_dir=mydata\ntau=3\nend\n' >"$tmp/proj/rel.session"
(cd / && "$G" run --quiet --format csv --session "$tmp/proj/rel.session") >"$tmp/rel.csv" 2>"$tmp/err" &&
    cut -d, -f1-13 "$tmp/rel.csv" | cmp -s - "$tmp/st" && ok "relative data_dir is read next to the session file, from any folder" ||
    bad "relative data path in a session"
(cd / && "$G" run --quiet --format csv --session "$tmp/proj/rel.session" --synthetic --tasks 2 --max-aug 5) >"$tmp/o" 2>"$tmp/err" &&
    ok "--synthetic on the command line replaces the session's data_dir" || bad "data source from the command line"
finish
