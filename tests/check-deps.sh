#!/bin/sh
# Says plainly what is missing to build gpuprof, and how to install it.  When
# uthash.h is missing and apt-get can download the uthash-dev package, the
# header is extracted into $BUILD/include (the Makefile searches there), so a
# machine without root can still build.
#   UTHASH_DIRS (tests): where to look for an installed uthash.h
missing=0
B=${BUILD:-build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
UTHASH_DIRS=${UTHASH_DIRS:-/usr/include /usr/local/include}
have_uthash() {
    for d in $UTHASH_DIRS "$B/include"; do
        [ -f "$d/uthash.h" ] && return 0
    done
    return 1
}
fetch_uthash() {
    command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 || return 1
    t=$(mktemp -d) || return 1
    echo "gpuprof: uthash.h not found; fetching it with apt-get download uthash-dev" >&2
    if (cd "$t" && apt-get download uthash-dev >"$t/log" 2>&1) &&
       deb=$(ls "$t"/uthash-dev_*.deb 2>/dev/null | head -n 1) && [ -n "$deb" ] &&
       dpkg -x "$deb" "$t/x" && [ -f "$t/x/usr/include/uthash.h" ] &&
       mkdir -p "$B/include" && cp "$t"/x/usr/include/*.h "$B/include/"; then
        echo "gpuprof: using $B/include/uthash.h from the uthash-dev package" >&2
        rm -rf "$t"
        return 0
    fi
    sed 's/^/gpuprof:   apt-get: /' "$t/log" 2>/dev/null | tail -n 2 >&2
    rm -rf "$t"
    return 1
}
if ! have_uthash && ! fetch_uthash; then
    echo "gpuprof: uthash.h not found, and apt-get download uthash-dev could not fetch it." >&2
    echo "gpuprof: install it with:  apt-get install -y uthash-dev" >&2
    echo "gpuprof: (or put uthash.h from https://github.com/troydhanson/uthash/tree/master/src in $B/include/)" >&2
    missing=1
fi
if [ ! -f "$CUDA_HOME/include/cupti.h" ] || [ ! -x "$CUDA_HOME/bin/nvcc" ]; then
    echo "gpuprof: CUDA toolkit with CUPTI not found at $CUDA_HOME (set CUDA_HOME=...)." >&2
    missing=1
fi
exit $missing
