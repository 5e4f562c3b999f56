#!/usr/bin/env python3
"""compare-peaks.py RECORDED NEW [PERCENT] - a new gpupeak peaks.json
against a recorded one (tools/gpupeak/results/): the same keys (a "why"
may come and go with a null), and every number that moved by more than
PERCENT (default 5) or became null, biggest moves first.  Exit status 1 when
the keys differ; moved figures are for a person to judge (run-to-run noise
on one GPU is a few percent; another GPU moves everything)."""
import json
import sys

VARIES = ('seconds', 'map_seconds')  # wall time, not a figure


def leaves(v, path, out, keys):
    if isinstance(v, dict):
        for k, x in v.items():
            if k != 'why':
                keys.add(path + '.' + k)
            leaves(x, path + '.' + k, out, keys)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            # elements by name where they have one, else by position
            name = x.get('name') if isinstance(x, dict) else None
            leaves(x, '%s[%s]' % (path, name if name else i), out, keys)
    else:
        out[path] = v


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    pct = float(sys.argv[3]) if len(sys.argv) == 4 else 5.0
    old, new = {}, {}
    kold, knew = set(), set()
    leaves(json.load(open(sys.argv[1])), '', old, kold)
    leaves(json.load(open(sys.argv[2])), '', new, knew)

    def shape(keys):  # positions of unnamed array elements vary (TLB levels)
        out = set()
        for k in keys:
            parts = k.split('[')
            out.add('['.join(p if not p[:1].isdigit() else 'N' + p[p.index(']'):]
                             for p in parts))
        return out

    missing, extra = sorted(shape(kold) - shape(knew)), sorted(shape(knew) - shape(kold))
    for k in missing:
        print('key only in the recorded file: %s' % k)
    for k in extra:
        print('key only in the new file: %s' % k)
    moved = []
    for k in sorted(set(old) & set(new)):
        a, b = old[k], new[k]
        if k.rsplit('.', 1)[-1] in VARIES:
            continue
        if isinstance(a, (int, float)) and isinstance(b, (int, float)) \
                and not isinstance(a, bool) and not isinstance(b, bool):
            base = max(abs(a), abs(b))
            d = 0.0 if base == 0 else 100.0 * (b - a) / base
            if abs(d) > pct:
                moved.append((abs(d), '%-70s %12.6g -> %-12.6g (%+.1f%%)' % (k, a, b, d)))
        elif (a is None) != (b is None):
            moved.append((1e9, '%-70s %12s -> %s' % (k, a, b)))
    for _, line in sorted(moved, reverse=True):
        print(line)
    print('%s vs %s: %d keys only recorded, %d only new; %d of %d shared figures moved by more '
          'than %g%% or to/from null' % (sys.argv[1], sys.argv[2], len(missing), len(extra),
                                         len(moved), len(set(old) & set(new)), pct))
    return 1 if missing or extra else 0


if __name__ == '__main__':
    sys.exit(main())
