#!/bin/sh
# test_layers.sh - the layering rules of docs/architecture.md, checked on the
# sources: no include circle among the headers of preload/ replay/ metrics/
# util/; no circle between the modules of preload/ and replay/ (module X uses
# module Y when X.c or X.h includes Y.h); replay/, metrics/ and util/ never
# include a preload/ header, metrics/ and util/ never a replay/ one; the
# driver table only in replay/; the CUPTI boundary (callbacks.c) called by the
# core's start (inject.c) and calling the core, never called by the policy;
# the launch path reaching its subsystems only through launch_hooks.h's list;
# no source file outside tests/ over 900 lines.
# ROOT=dir checks another tree (the test of this test plants violations).
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 1
pass=0
fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "from to" for every quoted include that names a file of the tree (from the
# root, or next to the including file as metrics/ does)
for f in preload/*.[ch] replay/*.[ch] metrics/*.[ch] util/*.[ch]; do
    [ -f "$f" ] || continue
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
        while read -r inc; do
            if [ -f "$inc" ]; then
                echo "$f $inc"
            elif [ -f "$(dirname "$f")/$inc" ]; then
                echo "$f $(dirname "$f")/$inc"
            fi
        done
done >"$tmp/edges"

# prints one circle of the graph on stdin ("from to" lines), or nothing
circle() {
    awk '
    { if (!($1 in seen)) { seen[$1] = 1; nodes[++nn] = $1 }
      adj[$1] = adj[$1] " " $2 }
    function visit(n,    i, k, parts) {
        state[n] = 1; stack[++depth] = n
        k = split(adj[n], parts, " ")
        for (i = 1; i <= k; i++) {
            if (found) return
            if (state[parts[i]] == 1) { found = parts[i]; path = ""
                for (j = depth; j >= 1; j--) { path = stack[j] " -> " path; if (stack[j] == found) break }
                print path found; return }
            if (state[parts[i]] == 0) visit(parts[i])
        }
        state[n] = 2; depth--
    }
    END { for (x = 1; x <= nn && !found; x++) if (state[nodes[x]] == 0) visit(nodes[x]) }'
}

grep '\.h .*\.h$' "$tmp/edges" | circle >"$tmp/hcircle"
check "no include circle among headers: $(cat "$tmp/hcircle")" '[ ! -s "$tmp/hcircle" ]'

# modules: a file's name without its extension; only edges between two
# modules.
grep '^\(preload\|replay\)/.* \(preload\|replay\)/' "$tmp/edges" |
    sed 's/\.[ch] / /; s/\.[ch]$//' | awk '$1 != $2' | circle >"$tmp/mcircle"
check "no circle between the modules of preload/ and replay/: $(cat "$tmp/mcircle")" \
    '[ ! -s "$tmp/mcircle" ]'

grep '^\(replay\|metrics\|util\)/[^ ]* preload/' "$tmp/edges" >"$tmp/up"
check "replay/, metrics/, util/ include no preload/ header: $(cat "$tmp/up")" '[ ! -s "$tmp/up" ]'
grep '^\(metrics\|util\)/[^ ]* replay/' "$tmp/edges" >"$tmp/up2"
check "metrics/, util/ include no replay/ header: $(cat "$tmp/up2")" '[ ! -s "$tmp/up2" ]'

grep -l 'gp_drv\.' preload/*.c metrics/*.c util/*.c tools/*/*.c 2>/dev/null >"$tmp/drv"
check "the driver table is used only in replay/: $(cat "$tmp/drv")" '[ ! -s "$tmp/drv" ]'

grep -l 'gp_callbacks_\|gp_cupti_\|"preload/callbacks.h"' preload/*.c preload/*.h 2>/dev/null |
    grep -v '^preload/callbacks\.[ch]$\|^preload/inject\.c$' >"$tmp/cb"
check "only inject.c calls the CUPTI boundary: $(cat "$tmp/cb")" '[ ! -s "$tmp/cb" ]'
grep -l 'cupti' preload/*.c preload/*.h 2>/dev/null | xargs grep -l '#include <cupti' 2>/dev/null |
    grep -v '^preload/callbacks\.c$' >"$tmp/cupti"
check "CUPTI's headers only in callbacks.c among preload/: $(cat "$tmp/cupti")" '[ ! -s "$tmp/cupti" ]'

# the launch path reaches the subsystems on its list (launch_hooks.h) only
# through the list: no call of their functions by hand, no include of their
# headers
grep -l '"preload/\(sampling\|variants\|crosscheck\|batch\)\.h"\|gp_\(sampling\|variants\|crosscheck\|batch\)_[a-z_]*(' \
    preload/launch.c preload/profile.c preload/graphs.c preload/start.c 2>/dev/null >"$tmp/byhand"
check "the launch path calls no subsystem by hand: $(cat "$tmp/byhand")" '[ ! -s "$tmp/byhand" ]'

for f in $(find preload replay metrics util tools include -name '*.[ch]' -o -name '*.cu' 2>/dev/null); do
    n=$(wc -l <"$f")
    [ "$n" -gt 900 ] && echo "$f ($n lines)"
done >"$tmp/long"
check "no source file outside tests/ over 900 lines: $(cat "$tmp/long")" '[ ! -s "$tmp/long" ]'

echo "layers: $pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
