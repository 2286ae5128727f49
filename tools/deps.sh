#!/bin/sh
# Install the Debian packages gsrscope needs, only those missing.
#   tools/deps.sh build   — compiler and libraries
#   tools/deps.sh test    — also what the tests use (tmux, NumPy, PyTorch for fresh .pt files, valgrind, clang, fonts, data)
#   tools/deps.sh bench   — also what `make bench` measures with (/usr/bin/time; PyTorch comes with test);
#                           never needed by the build, the tests or CI
# On a system without apt-get, print the list and stop with status 1.
set -e
BUILD_PKGS="gcc make pkg-config libncurses-dev libgsl-dev libopenblas-dev liblapacke-dev libpng-dev libcairo2-dev libpango1.0-dev zlib1g-dev libzip-dev libgif-dev fonts-dejavu-core"
TEST_PKGS="locales python3 python3-numpy python3-torch tmux valgrind clang libclang-rt-14-dev dataset-fashion-mnist libxml2-utils poppler-utils man-db groff-base python3-pil"
BENCH_PKGS="time"
want="$BUILD_PKGS"
[ "${1:-build}" = test ] && want="$BUILD_PKGS $TEST_PKGS"
[ "${1:-build}" = bench ] && want="$BUILD_PKGS $TEST_PKGS $BENCH_PKGS"

missing=""
for p in $want; do
    if command -v dpkg-query >/dev/null 2>&1; then
        st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        case "$st" in *"ok installed"*) continue ;; esac
    fi
    missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "gsrscope needs these packages (Debian names):$missing" >&2
    echo "Install them with your system's package manager, then run make again." >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
        echo "gsrscope: need root to install:$missing (no sudo found)" >&2; exit 1; fi
fi
echo "Installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# Another apt (unattended upgrades on a new machine, a second session) may hold the lock: wait.
LOCK="-o DPkg::Lock::Timeout=600"
# shellcheck disable=SC2086
$SUDO apt-get $LOCK update -qq >/dev/null 2>&1 || $SUDO apt-get $LOCK update
# shellcheck disable=SC2086
$SUDO apt-get $LOCK install -y -qq --no-install-recommends $missing >/dev/null || \
    $SUDO apt-get $LOCK install -y --no-install-recommends $missing
