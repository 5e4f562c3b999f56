#!/bin/sh
# test_harness.sh - the scripts around the build, no GPU needed: run-tests.sh
# shows why a suite skipped; check-deps.sh fetches uthash.h with apt-get
# download (a stand-in apt-get serves a package built here) or says exactly
# what to install; `make demo` without a GPU shows the recorded report; the
# user documentation has no words of the workshop it was written in, and the
# README's quick start uses the launcher.
suite=harness
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
b=${BUILD:-build}
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"

# 1. run-tests.sh: skip reasons under the suite's line, a failure fails the run
cat >"$tmp/a.sh" <<'S'
echo "SKIP thing: the reason"
echo "a: 1 passed, 0 failed, 1 skipped"
S
cat >"$tmp/b.sh" <<'S'
echo "b: 2 passed, 0 failed, 1 skipped"
S
cat >"$tmp/c.sh" <<'S'
echo "c: 0 passed, 1 failed, 0 skipped"; exit 1
S
sh tests/run-tests.sh "$tmp/a.sh" "$tmp/b.sh" >"$tmp/rt.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "^a: 1 passed" "$tmp/rt.out" && grep -q "^    SKIP thing: the reason$" "$tmp/rt.out" &&
   grep -q "^    SKIP (the test gave no reason: $tmp/b.sh)" "$tmp/rt.out" &&
   grep -q "^3 passed, 0 failed, 2 skipped$" "$tmp/rt.out"; then ok
else ko "run-tests.sh skip reasons: $(cat "$tmp/rt.out")"; fi
sh tests/run-tests.sh "$tmp/a.sh" "$tmp/c.sh" >"$tmp/rt2.out" 2>&1; rc=$?
if [ $rc -ne 0 ] && grep -q "^1 passed, 1 failed, 1 skipped$" "$tmp/rt2.out"; then ok
else ko "run-tests.sh with a failure: rc $rc"; fi

# 2. check-deps.sh: uthash.h fetched into $BUILD/include, or the install line
if command -v dpkg-deb >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
    mkdir -p "$tmp/pkg/DEBIAN" "$tmp/pkg/usr/include"
    printf 'Package: uthash-dev\nVersion: 9.9\nArchitecture: all\nMaintainer: t <t@t>\nDescription: test\n' \
        >"$tmp/pkg/DEBIAN/control"
    echo "/* stand-in uthash.h */" >"$tmp/pkg/usr/include/uthash.h"
    dpkg-deb --build "$tmp/pkg" "$tmp/uthash-dev_9.9_all.deb" >/dev/null 2>&1
    printf '#!/bin/sh\n[ "$1 $2" = "download uthash-dev" ] && cp "%s" . \n' "$tmp/uthash-dev_9.9_all.deb" \
        >"$tmp/bin/apt-get"
    chmod +x "$tmp/bin/apt-get"
    PATH=$tmp/bin:$PATH UTHASH_DIRS=$tmp/none BUILD=$tmp/b1 sh tests/check-deps.sh >"$tmp/cd.out" 2>&1; rc=$?
    if [ $rc -eq 0 ] && grep -q "stand-in" "$tmp/b1/include/uthash.h" 2>/dev/null &&
       grep -q "using $tmp/b1/include/uthash.h" "$tmp/cd.out"; then ok
    else ko "check-deps.sh did not fetch uthash.h: rc $rc, $(cat "$tmp/cd.out")"; fi
    # a second run finds it there and says nothing
    PATH=$tmp/bin:$PATH UTHASH_DIRS=$tmp/none BUILD=$tmp/b1 sh tests/check-deps.sh >"$tmp/cd2.out" 2>&1; rc=$?
    if [ $rc -eq 0 ] && [ ! -s "$tmp/cd2.out" ]; then ok; else ko "check-deps.sh second run: $(cat "$tmp/cd2.out")"; fi
else
    skip=$((skip + 2)); echo "SKIP check-deps.sh fetching uthash.h: dpkg-deb or dpkg not installed"
fi
printf '#!/bin/sh\necho "E: Unable to locate package uthash-dev" >&2; exit 100\n' >"$tmp/bin/apt-get"
chmod +x "$tmp/bin/apt-get"
PATH=$tmp/bin:$PATH UTHASH_DIRS=$tmp/none BUILD=$tmp/b2 sh tests/check-deps.sh >"$tmp/cd3.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "install it with:  apt-get install -y uthash-dev" "$tmp/cd3.out" &&
   grep -q "Unable to locate package" "$tmp/cd3.out"; then ok
else ko "check-deps.sh without uthash: rc $rc, $(cat "$tmp/cd3.out")"; fi

# 3. the demo without a GPU: the recorded report, and it says so
if [ -x "$b/gpuprof-report" ] && [ -x "$b/gpuprof" ]; then
    printf '#!/bin/sh\nexit 9\n' >"$tmp/bin/nvidia-smi"
    chmod +x "$tmp/bin/nvidia-smi"
    PATH=$tmp/bin:$PATH DEMO_OUT=$tmp/demo BUILD=$b sh tests/demo.sh >"$tmp/demo.out" 2>&1; rc=$?
    if [ $rc -eq 0 ] && grep -q "no NVIDIA GPU on this machine" "$tmp/demo.out" &&
       grep -q "^#1 one_block$" "$tmp/demo.out" && grep -q "recorded run" "$tmp/demo.out" &&
       grep -q "<svg" "$tmp/demo/report.html" 2>/dev/null; then ok
    else ko "demo without a GPU: rc $rc, $(head -5 "$tmp/demo.out")"; fi
    # read by a newcomer: short (10 kernels), no wall of n/a, the memory chart on the page
    lines=$(wc -l <"$tmp/demo.out"); nas=$(grep -c 'n/a' "$tmp/demo.out")
    if [ "$lines" -le 250 ] && [ "$nas" -le 10 ] && grep -q 'class="memchart"' "$tmp/demo/report.html" 2>/dev/null; then ok
    else ko "demo without a GPU: $lines lines, $nas with n/a (at most 250 and 10), or no memory chart"; fi
else
    ko "$b/gpuprof-report or $b/gpuprof not built"
fi

# 4. user documentation: no workshop words; the quick start uses the launcher
docs="README.md docs/user-guide.md docs/report.md docs/characterize.md docs/output-format.md docs/gpupeak.md"
words=$(grep -n -i -E "lent (gpu )?machine|issue [0-9]+|this session|the session's|workshop" $docs)
if [ -z "$words" ]; then ok; else ko "workshop words in the user docs: $words"; fi
quick=$(sed -n '/^## Quick start/,/^## /p' README.md)
if printf '%s\n' "$quick" | grep -q "build/gpuprof " &&
   printf '%s\n' "$quick" | grep -q "build/gpuprof-report"; then ok
else ko "README's quick start does not use build/gpuprof"; fi

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
