#!/usr/bin/env python3
"""compare_details.py - gpuprof's details page against Nsight Compute's.

usage: compare_details.py NCU.csv GPUPROF.csv [--label NAME] [--min 0.99] [--detail]
       compare_details.py --summary NCU.csv GPUPROF.csv [--label NAME] [--min 0.99]

NCU.csv: `ncu --page details --csv` (any output of the program before its
header is skipped); GPUPROF.csv: `gpuprof-report --page details --csv` of the
same program's records.  Launches are matched by kernel short name and the
ordinal of that kernel's launch (compare.py's short_name: Nsight Compute's
"function" name base).  Every (launch, section, metric) row of ncu's page
(rule rows, whose Metric Name is empty, left out) must be in gpuprof's page:
  - present with a value: the pair is judged;
  - present as n/a with its reason (gpuprof's GpuprofUnavailable rule row of
    the section, "<Section> / <Label> (<metric>): <reason>"): explained, not
    judged (a metric gpuprof cannot collect, or ncu's value is a name such
    as CachePreferNone);
  - absent, or n/a without a reason: MISSING, a failure.
Values are read in their units (us, Ghz, Kbyte/s ... to base units) and agree
when:
  - percentages (unit %): within 1 point;
  - durations, frequencies, cycles and per-second rates (clock-sensitive: the
    clock and the warm-up differ between any two runs): judged apart, within
    10%, not part of the share below;
  - other values (counts, ratios, occupancy limits, sizes): within 5%, or
    within the rounding of the two decimals a page prints.
ncu's "n/a" is no oracle: such rows are counted, not judged.
Prints the disagreements (all with --detail, else the first 30), the rows
gpuprof lacks, one line per metric with its agreement, then
  details NAME: N ncu rows, N present, N explained, N missing; N values
    judged, N agree (P%); clock-sensitive N, N within 10%; N unmatched launches
and the same counts as `details-counts key=N ...` for scripts to add up; exits
1 when a row is missing, a launch is unmatched or fewer than --min
of the judged values agree.
--summary: the pages are `--print-summary per-kernel --csv`: ncu's header,
every ncu row (kernel, block, grid, section, metric) with ncu's invocations
in gpuprof's page (n/a counted, not judged) and no row ncu's page lacks for
those kernels, and each minimum, maximum and average judged as above.  Python 3 standard library only."""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'xcheck'))
from compare import short_name  # noqa: E402

# unit -> (base unit, factor)
PREFIX = {'': 1.0, 'K': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12, 'P': 1e15}
TIME = {'ns': 1.0, 'nsecond': 1.0, 'us': 1e3, 'usecond': 1e3, 'ms': 1e6, 'msecond': 1e6,
        's': 1e9, 'second': 1e9}


def base_unit(unit):
    """(family, factor): the unit's family and what it multiplies by to base."""
    u = unit.strip()
    if u in TIME:
        return 'ns', TIME[u]
    low = u.lower()
    if low.endswith('hz') and low[:-2].upper() in PREFIX:
        return 'hz', PREFIX[low[:-2].upper()]
    for p, f in PREFIX.items():
        if p and u.startswith(p + 'byte'):
            return u[len(p):], f
    return u, 1.0


def number(s):
    try:
        return float(s.replace(',', ''))
    except (ValueError, AttributeError):
        return None


REASON = re.compile(r'^(.*?) / (.*) \(([^ ()]+)\): (.*)$')


def load(path):
    """[(kernel, {(section, metric): row dict})] in ID order; an n/a row of
    gpuprof's gets the reason its GpuprofUnavailable rule row gives, as
    'Rule Description'.  Metric rows are 15 fields and a trailing comma, rule
    rows 20 fields (Nsight Compute 2025.3's layout)."""
    rows = list(csv.reader(open(path, errors='replace', newline='')))
    try:
        start = next(i for i, r in enumerate(rows) if r[:2] == ['ID', 'Process ID'])
    except StopIteration:
        return []
    head = rows[start]
    launches, order, reasons = {}, [], {}
    for r in rows[start + 1:]:
        if len(r) < 15 or not r[0].strip().isdigit():
            continue
        d = dict(zip(head, r + [''] * (len(head) - len(r))))
        lid = int(d['ID'])
        if not d.get('Metric Name'):
            m = REASON.match(d.get('Rule Description', ''))
            if d.get('Rule Name') == 'GpuprofUnavailable' and m:
                reasons[(lid, m.group(1), m.group(2))] = m.group(4)
            continue  # a rule's row
        if lid not in launches:
            launches[lid] = (d.get('Kernel Name', ''), {})
            order.append(lid)
        launches[lid][1][(d.get('Section Name', ''), d['Metric Name'])] = d
    for lid, (kernel, rs) in launches.items():
        for key, d in rs.items():
            if d['Metric Value'] == 'n/a' and not d.get('Rule Description'):
                d['Rule Description'] = reasons.get((lid,) + key, '')
    return [launches[i] for i in order]


def clock_sensitive(label, family):
    return family in ('ns', 'hz') or family.endswith('/s') or 'Cycles' in label or \
        'Frequency' in label


def judge(label, n_row, g_row):
    """('agree'|'differ'|'clock-agree'|'clock-differ'|'ncu-na', text)."""
    nv, gv = number(n_row['Metric Value']), number(g_row['Metric Value'])
    nf, nm = base_unit(n_row.get('Metric Unit', ''))
    gf, gm = base_unit(g_row.get('Metric Unit', ''))
    if nv is None:
        return 'ncu-na', 'ncu %s' % n_row['Metric Value']
    if nf != gf and not (nf == '' and gf == ''):
        return 'differ', 'unit %r against ncu %r' % (g_row.get('Metric Unit'), n_row.get('Metric Unit'))
    a, b = nv * nm, gv * gm
    text = 'ncu %s %s, gpuprof %s %s' % (n_row['Metric Value'], n_row.get('Metric Unit', ''),
                                         g_row['Metric Value'], g_row.get('Metric Unit', ''))
    rel = abs(a - b) / max(abs(a), abs(b)) if max(abs(a), abs(b)) else 0.0
    if clock_sensitive(label, nf):
        return ('clock-agree' if rel <= 0.10 else 'clock-differ'), text
    if nf == '%':
        return ('agree' if abs(a - b) <= 1.0 else 'differ'), text
    rounding = 0.01 * max(nm, gm)
    return ('agree' if rel <= 0.05 or abs(a - b) <= rounding + 1e-12 else 'differ'), text


def tally(counts, verdict):
    """counts a judged verdict: clock-sensitive ones apart"""
    if verdict.startswith('clock'):
        counts['clock'] += 1
        counts['clock_ok'] += verdict == 'clock-agree'
    else:
        counts['judged'] += 1
        counts['agree'] += verdict == 'agree'


def compare(ncu_path, gp_path, label='', min_share=0.99, detail=False, out=sys.stdout):
    ncu, gp = load(ncu_path), load(gp_path)
    by_key, seen = {}, {}
    for kernel, rows in gp:
        k = short_name(kernel)
        by_key[(k, seen.get(k, 0))] = rows
        seen[k] = seen.get(k, 0) + 1
    seen = {}
    counts = dict(rows=0, present=0, explained=0, missing=0, judged=0, agree=0, clock=0,
                  clock_ok=0, ncu_na=0, unmatched=0)
    per_metric, differ, missing, explained = {}, [], [], {}
    for kernel, rows in ncu:
        k = short_name(kernel)
        i = seen.get(k, 0)
        seen[k] = i + 1
        grows = by_key.get((k, i))
        if grows is None:
            counts['unmatched'] += 1
            missing.append('%s#%d: no such launch in gpuprof\'s page' % (k, i))
            continue
        for key, n_row in rows.items():
            counts['rows'] += 1
            g_row = grows.get(key)
            if g_row is None or (g_row['Metric Value'] == 'n/a' and
                                 not g_row.get('Rule Description')):
                counts['missing'] += 1
                missing.append('%s#%d %s / %s: %s' % (k, i, key[0], key[1],
                                                      'absent' if g_row is None else
                                                      'n/a without a reason'))
                continue
            counts['present'] += 1
            if g_row['Metric Value'] == 'n/a':
                counts['explained'] += 1
                explained.setdefault(key, g_row.get('Rule Description'))
                continue
            verdict, text = judge(key[1], n_row, g_row)
            m = per_metric.setdefault(key, [0, 0])
            if verdict == 'ncu-na':
                counts['ncu_na'] += 1
                continue
            tally(counts, verdict)
            m[0] += 1
            m[1] += verdict in ('agree', 'clock-agree')
            if verdict in ('differ', 'clock-differ'):
                differ.append('%s%s#%d %s / %s: %s' % ('(clock) ' if verdict == 'clock-differ'
                                                       else '', k, i, key[0], key[1], text))
    for line in differ if detail else differ[:30]:
        print('  DIFFER %s' % line, file=out)
    if len(differ) > 30 and not detail:
        print('  ... %d more (--detail)' % (len(differ) - 30), file=out)
    for line in missing:
        print('  MISSING %s' % line, file=out)
    for key, why in sorted(explained.items()):
        print('  n/a %s / %s: %s' % (key[0], key[1], why), file=out)
    for key, (n, ok) in sorted(per_metric.items()):
        if n and (detail or ok < n):
            print('  %-40s %-42s %4d of %4d agree' % (key[0][:40], key[1][:42], ok, n), file=out)
    share = counts['agree'] / counts['judged'] if counts['judged'] else 0.0
    print('details %s: %d ncu rows, %d present, %d explained, %d missing; %d values judged, '
          '%d agree (%.2f%%); clock-sensitive %d, %d within 10%%; %d ncu n/a; %d unmatched '
          'launches' % (label, counts['rows'], counts['present'], counts['explained'],
                        counts['missing'], counts['judged'], counts['agree'], 100 * share,
                        counts['clock'], counts['clock_ok'], counts['ncu_na'],
                        counts['unmatched']), file=out)
    print('details-counts %s' % ' '.join('%s=%d' % kv for kv in sorted(counts.items())), file=out)
    ok = counts['missing'] == 0 and counts['unmatched'] == 0 and counts['rows'] > 0 and \
        counts['judged'] > 0 and share >= min_share
    return (0 if ok else 1), counts


def load_summary(path):
    """({(kernel, block, grid, section, metric): row dict}, header) of a
    --print-summary per-kernel --csv page"""
    rows = list(csv.reader(open(path, errors='replace', newline='')))
    try:
        start = next(i for i, r in enumerate(rows) if r[:2] == ['Process ID', 'Process Name'])
    except StopIteration:
        return {}, []
    head, out = rows[start], {}
    for r in rows[start + 1:]:
        if len(r) == len(head):
            d = dict(zip(head, r))
            out[(d['Kernel Name'], d['Block Size'], d['Grid Size'], d['Section Name'],
                 d['Metric Name'])] = d
    return out, head


def compare_summary(ncu_path, gp_path, label='', min_share=0.99, out=sys.stdout):
    """The per-kernel summary's CSV: ncu's header; every ncu row (kernel,
    shape, section, metric) in gpuprof's, with ncu's invocations; each
    minimum, maximum and average judged as a details value is."""
    ncu, nhead = load_summary(ncu_path)
    gp, ghead = load_summary(gp_path)
    c = dict(rows=len(ncu), missing=0, na=0, judged=0, agree=0, clock=0, clock_ok=0)
    if nhead != ghead:
        print('  HEADER gpuprof %s, ncu %s' % (ghead, nhead), file=out)
        c['missing'] += 1
        gp = {}
    for key, n in sorted(ncu.items()):
        g = gp.get(key)
        if g is None or g['Invocations'] != n['Invocations']:
            c['missing'] += 1
            print('  MISSING %s / %s / %s: %s' % (short_name(key[0]), key[3], key[4],
                                                  'absent' if g is None else 'invocations %s, ncu %s'
                                                  % (g['Invocations'], n['Invocations'])), file=out)
            continue
        if g['Average'] == 'n/a':
            c['na'] += 1
            continue
        for col in ('Minimum', 'Maximum', 'Average'):
            verdict, text = judge(key[4], {'Metric Value': n[col], 'Metric Unit': n['Metric Unit']},
                                  {'Metric Value': g[col], 'Metric Unit': g['Metric Unit']})
            if verdict == 'ncu-na':
                continue
            tally(c, verdict)
            if verdict in ('differ', 'clock-differ'):
                print('  DIFFER %s / %s / %s %s: %s' % (short_name(key[0]), key[3], key[4], col,
                                                        text), file=out)
    # rows ncu's summary has not, for the launches both have (a script
    # reading ncu's rows must find the same ones)
    kernels = set(k[:3] for k in ncu)
    extra = sorted(k for k in gp if k[:3] in kernels and k not in ncu)
    c['extra'] = len(extra)
    for key in extra[:10]:
        print('  EXTRA %s / %s / %s' % (short_name(key[0]), key[3], key[4]), file=out)
    share = c['agree'] / c['judged'] if c['judged'] else 0.0
    print('summary %s: %d ncu rows, %d missing, %d extra, %d n/a; %d values judged, %d agree '
          '(%.2f%%); clock-sensitive %d, %d within 10%%' % (label, c['rows'], c['missing'],
                                                           c['extra'], c['na'], c['judged'],
                                                           c['agree'], 100 * share, c['clock'],
                                                           c['clock_ok']), file=out)
    ok = c['missing'] == 0 and c['extra'] == 0 and c['judged'] > 0 and share >= min_share
    return (0 if ok else 1), c


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description='gpuprof\'s details page against ncu\'s')
    ap.add_argument('ncu')
    ap.add_argument('gpuprof')
    ap.add_argument('--label', default='')
    ap.add_argument('--min', type=float, default=0.99)
    ap.add_argument('--detail', action='store_true')
    ap.add_argument('--summary', action='store_true',
                    help='the pages are --print-summary per-kernel --csv')
    a = ap.parse_args(argv[1:])
    if a.summary:
        return compare_summary(a.ncu, a.gpuprof, a.label, a.min)[0]
    return compare(a.ncu, a.gpuprof, a.label, a.min, a.detail)[0]


if __name__ == '__main__':
    sys.exit(main(sys.argv))
