#!/usr/bin/env python3
"""sass_own_compare.py - one launch at a time, each instrumented metric of
gpuprof's default set as CUPTI's instrumented pass gave it (the record's
Nsight Compute name) beside the SASS pass's own derivation of it on the same
launch (gpuprof__sass_own__<name after smsp__sass_>), from records written
with GPUPROF_SASS_EFFICIENCY=check.

Prints one line per (launch, metric) pair, "same" or "DIFF", then per metric
how many pairs agree, and "sass-own: N passed, N failed, N skipped" (a pair
where neither side has a value is skipped; one side only is a difference).
Exit status 1 when any pair differs: the SASS pass's derivation can replace
CUPTI's instrumented pass only for the metrics where this never happens.

Equal means the same number as the records print it (9 significant digits):
counts must be identical; percentages within 2e-8 relative.

usage: sass_own_compare.py RECORDS.jsonl [...]"""
import json
import math
import sys

OWN = 'gpuprof__sass_own__'


def equal(a, b):
    if a == b:
        return True
    return abs(a - b) <= 2e-8 * max(abs(a), abs(b))


def pairs(path):
    for line in open(path, encoding='utf-8', errors='replace'):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get('type') != 'launch':
            continue
        m = r.get('metrics') or {}
        for name, own in m.items():
            if not name.startswith(OWN):
                continue
            ncu = 'smsp__sass_' + name[len(OWN):]
            if ncu not in m:
                continue
            yield r, ncu, m[ncu], own, (r.get('missing') or {})


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    passed = failed = skipped = 0
    per = {}
    for path in argv[1:]:
        for r, name, cupti, own, missing in pairs(path):
            kernel = (r.get('kernel') or '?')[:60]
            tag = '%s launch %s %s %s' % (path, r.get('launch_id'), kernel, name)
            stat = per.setdefault(name, [0, 0])
            if cupti is None and own is None:
                skipped += 1
                print('skip %s: neither has a value (%s)' % (tag, missing.get(name, '?')))
                continue
            stat[1] += 1
            if cupti is not None and own is not None and equal(float(cupti), float(own)):
                passed += 1
                stat[0] += 1
                print('same %s: cupti %s own %s' % (tag, cupti, own))
            else:
                failed += 1
                why = ''
                if own is None:
                    why = ' (own: %s)' % missing.get(OWN + name[len('smsp__sass_'):], '?')
                elif cupti is None:
                    why = ' (cupti: %s)' % missing.get(name, '?')
                print('DIFF %s: cupti %s own %s%s' % (tag, cupti, own, why))
    for name in sorted(per):
        ok, n = per[name]
        print('metric %s: %d of %d launches equal' % (name, ok, n))
    print('sass-own: %d passed, %d failed, %d skipped' % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
