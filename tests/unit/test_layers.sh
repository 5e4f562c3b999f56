#!/bin/sh
# test_layers.sh - the layering rules of docs/architecture.md, checked on the
# sources: no include circle among the headers of preload/ replay/ metrics/
# util/; no circle between the modules of preload/ and replay/, nor between
# those of metrics/ (module X uses module Y when X.c or X.h includes Y.h);
# the rooms of metrics/ in layers: a file of a room includes only util/ and
# the rooms its face header names on its "May use:" line, and each room's
# list names only rooms below it; no two object files of metrics/, replay/,
# preload/, util/, tools/ (and of each folder named in CALL_DIRS) that call each other in a
# loop, read from the built objects with nm (SKIP when they are not built);
# replay/, metrics/ and util/ never include a preload/ header, metrics/ and
# util/ never a replay/ one; the driver table only in replay/; the CUPTI
# boundary (callbacks.c) called by the core's start (inject.c) and calling
# the core, never called by the policy; no source file outside tests/ over
# 800 lines; the launch path reaching its subsystems only through
# launch_hooks.h's list.
# ROOT=dir checks another tree (the test of this test plants violations).
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$ROOT" || exit 1
pass=0
fail=0
skip=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "from to" for every quoted include that names a file of the tree (from the
# root, or next to the including file)
for f in preload/*.[ch] replay/*.[ch] metrics/*/*.[ch] util/*.[ch]; do
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

# metrics/: modules (a file without its extension) in no circle
grep '^metrics/.* metrics/' "$tmp/edges" | sed 's/\.[ch] / /; s/\.[ch]$//' | awk '$1 != $2' |
    circle >"$tmp/mmcircle"
check "no circle between the modules of metrics/: $(cat "$tmp/mmcircle")" '[ ! -s "$tmp/mmcircle" ]'

# the rooms of metrics/, bottom first; each room's face says what it may use
rooms="records catalog instructions verdicts model ncu report"
face() { if [ "$1" = report ]; then echo metrics/report/report.h; else echo "metrics/$1/$1.h"; fi; }
: >"$tmp/rooms"
below=util
for r in $rooms; do
    f=$(face "$r")
    may=$(sed -n 's/^ \* May use: //p' "$f" 2>/dev/null | tr -d ',')
    [ -n "$may" ] || echo "$f: no face, or no May use: line" >>"$tmp/rooms"
    for m in $may; do
        case " $below " in *" $m "*) ;; *) echo "$r may use $m, which is not below it" >>"$tmp/rooms" ;; esac
    done
    grep "^metrics/$r/" "$tmp/edges" | while read -r from to; do
        case "$to" in
            util/*) ;;
            metrics/$r/*) ;;
            metrics/*)
                t=${to#metrics/}; t=${t%%/*}
                case " $may " in *" $t "*) ;; *) echo "$from includes $to ($r may use: $may)" ;; esac ;;
            *) echo "$from includes $to" ;;
        esac
    done >>"$tmp/rooms"
    below="$below $r"
done
ls metrics | grep -v '^module.mk$' | while read -r d; do
    case " $rooms " in *" $d "*) ;; *) echo "metrics/$d is no room of the list" ;; esac
done >>"$tmp/rooms"
check "the rooms of metrics/ in layers: $(cat "$tmp/rooms")" '[ ! -s "$tmp/rooms" ]'
grep '^util/[^ ]* metrics/' "$tmp/edges" >"$tmp/umet"
check "util/ includes no metrics/ header: $(cat "$tmp/umet")" '[ ! -s "$tmp/umet" ]'

# calls: "caller callee" between object files, from their symbols
B=${BUILD:-build}
calls_of() { # object files -> "from to" lines (names relative to $B)
    for o in "$@"; do
        nm "$o" 2>/dev/null | awk -v m="${o#"$B"/}" 'NF == 3 && $2 ~ /[TDBRC]/ { print "D", $3, m }
                                                    NF == 2 && $1 == "U" { print "U", $2, m }'
    done | awk '$1 == "D" { def[$2] = $3; next } { use[++n] = $2; by[n] = $3 }
        END { for (i = 1; i <= n; i++) if ((use[i] in def) && def[use[i]] != by[i])
                  print by[i], def[use[i]] }' | sort -u
}
for d in metrics util lib/replay lib/preload tools ${CALL_DIRS:-}; do
    objs=$(find "$B/$d" -name '*.o' 2>/dev/null)
    if [ -z "$objs" ] || ! command -v nm >/dev/null 2>&1; then
        skip=$((skip + 1)); echo "SKIP no call circle in $d: $B/$d is not built (or no nm)"
        continue
    fi
    # shellcheck disable=SC2086
    calls_of $objs | circle >"$tmp/ccircle"
    check "no two files of $d calling each other in a loop: $(cat "$tmp/ccircle")" '[ ! -s "$tmp/ccircle" ]'
done

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
    [ "$n" -gt 800 ] && echo "$f ($n lines)"
done >"$tmp/long"
check "no source file outside tests/ over 800 lines: $(cat "$tmp/long")" '[ ! -s "$tmp/long" ]'

echo "layers: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
