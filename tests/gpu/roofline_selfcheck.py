#!/usr/bin/env python3
"""roofline_selfcheck.py - judges gpuprof's roofline on gpupeak's own peak
kernels (run by tests/gpu/roofline_selfcheck.sh).

  roofline_selfcheck.py roofs                 the roofs of metrics/catalog/roofs.def: name bench
  roofline_selfcheck.py check ROOF REPORT.json  one roof against the report of its bench's run

REPORT.json is `gpuprof-report -f json --peaks PEAKS RECORDS` of a run of
`gpupeak --only BENCH` under gpuprof.  Of the run's launches, the one with
the highest achieved rate of the roof is the peak kernel at its measured
launch length (gpupeak's first launches calibrate the iteration count and are
shorter).  It must land within 5% of the measured ceiling (gpupeak's figure
in the roof's quantity, at that launch's clock for clocked roofs), never above
the architectural ceiling (2% for rounding of the clocks), and the report must
name no roofline bug.  Prints one PASS or FAIL line with the figures."""
import json
import re
import sys

TOL = 0.05
SLACK = 0.02


def roofs(path='metrics/catalog/roofs.def'):
    """[(name, achieved, arch, peak, bench, clocked)] from the table."""
    text = open(path).read()
    out = []
    for m in re.finditer(r'^GP_ROOF\(\s*(\w+),\s*"([^"]*)",\s*"([^"]*)",\s*"([^"]*)",\s*"([^"]*)",'
                         r'\s*"([^"]*)",\s*([01]),', text, re.M):
        out.append((m.group(2), m.group(3), m.group(4), m.group(5), m.group(6), int(m.group(7))))
    return out


def check(roof, report):
    table = {r[0]: r for r in roofs()}
    if roof not in table:
        return False, '%s: no such roof in metrics/catalog/roofs.def' % roof
    name, achieved, arch, _peak, bench, clocked = table[roof]
    d = json.load(open(report))
    kernels = {k['kernel']: k for k in d.get('kernels', [])}
    best = None
    for l in d.get('launch_metrics', []):
        v = l['metrics'].get(achieved)
        if v is not None and (best is None or v > best['metrics'][achieved]):
            best = l
    if best is None:
        return False, '%s (%s): no profiled launch has %s' % (name, bench, achieved)
    k = kernels.get(best['kernel'])
    if not k or 'roofs' not in k:
        return False, '%s (%s): the report has no roofs for %s' % (name, bench, best['kernel'])
    r = k['roofs'][name]
    got = best['metrics'][achieved]
    a = best['metrics'].get(arch)
    meas = r.get('measured')
    # the kernel's measured ceiling is at the kernel's mean clock; move it to
    # this launch's
    if clocked and meas is not None:
        kc, lc = k['metrics'].get('sm_clock'), best['metrics'].get('sm_clock')
        if kc and lc:
            meas = meas * lc / kc
    bugs = [x['bug'] for x in k['roofs'].values() if x.get('bug')]
    fig = '%s (%s, %s): achieved %.4g, measured ceiling %s, architectural %s' % (
        name, bench, best['name'], got, '%.4g' % meas if meas else 'n/a', '%.4g' % a if a else 'n/a')
    if meas is None or a is None:
        return False, fig + ': a ceiling is n/a (%s)' % (k.get('missing', {}).get(arch, 'no peaks'))
    probs = []
    if got > a * (1 + SLACK):
        probs.append('above the architectural ceiling')
    if meas > a * (1 + SLACK):
        probs.append('measured ceiling above the architectural one')
    if abs(got / meas - 1) > TOL:
        probs.append('%.1f%% of the measured ceiling, not within %d%%' % (100 * got / meas, 100 * TOL))
    if bugs:
        probs.append('the report says: ' + bugs[0])
    if probs:
        return False, fig + ': ' + '; '.join(probs)
    return True, fig + ': %.1f%% of measured, %.1f%% of architectural' % (100 * got / meas, 100 * got / a)


def main(argv):
    if len(argv) >= 2 and argv[1] == 'roofs':
        for r in roofs():
            print(r[0], r[4])
        return 0
    if len(argv) == 4 and argv[1] == 'check':
        ok, line = check(argv[2], argv[3])
        print(('PASS ' if ok else 'FAIL ') + 'roofline self-check ' + line)
        return 0 if ok else 1
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
