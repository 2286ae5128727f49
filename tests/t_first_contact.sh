#!/bin/sh
# t_first_contact.sh — a new user's first `make check` and `make run` on a fresh clone of this
# tree, on a machine whose build packages appear only when apt-get installs them.
#
# Stubs first in PATH play that machine: dpkg-query reports every package missing and
# pkg-config fails until the stub apt-get has "installed" them (a marker file), after which
# pkg-config is the real one. A Makefile that computes its flags before `deps` ran builds
# without the include and library flags and fails here, as it did on real fresh machines.
. "$(dirname "$0")/lib.sh"

if [ -n "${GS_SANITIZED:-}${GS_VALGRIND:-}" ]; then
    skip "first contact builds a plain tree; the plain make check runs it"
    finish; exit
fi
unset MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS
real_pc=$(command -v pkg-config) || { echo "FAIL - no pkg-config"; exit 1; }

fake=$tmp/fake
mkdir -p "$fake/bin"
cat >"$fake/bin/dpkg-query" <<EOF
#!/bin/sh
[ -f "$fake/installed" ] || { echo "dpkg-query: no packages found matching \$*" >&2; exit 1; }
printf 'install ok installed'
EOF
cat >"$fake/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$fake/apt.log"
case " \$* " in *" install "*) touch "$fake/installed" ;; esac
exit 0
EOF
cat >"$fake/bin/pkg-config" <<EOF
#!/bin/sh
[ -f "$fake/installed" ] || { echo "Package cairo was not found in the pkg-config search path." >&2; exit 1; }
exec "$real_pc" "\$@"
EOF
printf '#!/bin/sh\nexec "$@"\n' >"$fake/bin/sudo"
chmod +x "$fake/bin/"*

# A fresh clone of HEAD, plus the tracked files changed in the working tree (so the test checks
# what is about to be committed; a file the build needs but git does not track stays missing,
# as it would for a real clone).
src=$PWD
clone=$tmp/clone
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    git clone -q --no-hardlinks "$src" "$clone" || { echo "FAIL - git clone"; exit 1; }
    git -C "$src" diff --name-only HEAD | while read -r f; do
        if [ -f "$src/$f" ]; then mkdir -p "$clone/$(dirname "$f")"; cp "$src/$f" "$clone/$f"; else rm -f "$clone/$f"; fi
    done
else
    mkdir -p "$clone" && tar -C "$src" --exclude='./build*' -cf - . | tar -C "$clone" -xf -
fi
# make check in the clone runs one small test program and no shell test (this one included).
rm -f "$clone"/tests/t_*.sh

fresh() { rm -rf "$clone/build" "$fake/installed" "$fake/apt.log"; }
in_clone() { (cd "$clone" && PATH="$fake/bin:$PATH" make -j2 BUILD=build "$@") >"$tmp/out" 2>"$tmp/err"; }

fresh
if in_clone check TEST_SRC=tests/data/test_npy.c; then ok "first make check on a fresh clone succeeds"
else bad "first make check on a fresh clone fails"; tail -n 5 "$tmp/out"; fi
grep -Eq '^[1-9][0-9]* passed, 0 failed(, 0 skipped)?$' "$tmp/out" && ok "its test program ran and passed" ||
    { bad "no passing summary line"; tail -n 3 "$tmp/out"; }
grep -q ' install ' "$fake/apt.log" 2>/dev/null && ok "it installed the missing packages first" ||
    bad "apt-get install was not called"

fresh
if in_clone run ARGS=--version && grep -q '^gsrscope ' "$tmp/out"; then ok "first make run on a fresh clone runs the program"
else bad "first make run on a fresh clone fails"; tail -n 3 "$tmp/out"; fi

# Without `deps`, a plain make says what to do in one line instead of a compiler error.
fresh
if in_clone build/gsrscope; then bad "make without the packages succeeded"
elif grep -q "make deps" "$tmp/err" && ! grep -q "error:" "$tmp/err"; then ok "plain make without the packages says to run make deps"
else bad "plain make without the packages: unclear error"; fi
finish
