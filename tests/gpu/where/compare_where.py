#!/usr/bin/env python3
"""compare_where.py - gpuprof's instruction-level data and warp-state
statistics against Nsight Compute's, on one program.

usage: compare_where.py --ours SRC.jsonl --ncu-source SRC.csv --ncu-raw RAW.csv
                        [--ours-warpstate WS.jsonl] [--ncu-raw-again RAW2.csv]
                        [--ncu-raw-nocache RAWN.csv] [--ncu-source-again SRC2.csv]
                        [--ncu-source-nocache SRCN.csv] [--ncu-source-app SRCA.csv]
                        [--min-samples N]
                        [--label NAME]

SRC.jsonl: gpuprof's records with source_function/source_instr records
(e.g. --set source).  SRC.csv: `ncu --page source --csv --print-source sass`
of the same program (one block per profiled launch).  RAW.csv: `ncu --page
raw --csv --print-units base` of the same run with the SourceCounters and
WarpStateStats sections.  WS.jsonl: gpuprof's records with the warp-state
metrics (--section WarpStateStats).  RAW2.csv: a second ncu run with the
WarpStateStats section and the same settings: a ratio pair whose two ncu
values are not within 5% or 0.05 of each other has no repeatable oracle
value and is set apart (not judged; counted and said), as the cross-check
does with its second ncu run.  RAWN.csv: ncu with --cache-control none
(the pairs that disagree but agree with it are counted).  SRC2.csv: ncu's
source page from a second run with the first run's settings: a kernel
whose two ncu runs do not meet the share conditions against each other is
set apart (share-unstable: not judged, counted and said).  SRCN.csv: ncu's
source page with --cache-control none: a kernel whose shares differ is also
judged against it and the line says how (still a failure; gpuprof samples
the program's own launches, whose caches are not flushed).  SRCA.csv: ncu's
source page in application replay (--replay-mode application): its samples
come from the program's own run of each launch, as gpuprof's do; a kernel
whose shares differ is judged against it the same way (still a failure).

Judged, per the issue's validation rules:
  instr   per-instruction counts (instructions executed, thread instructions,
          predicated-on thread instructions, divergent branches, global
          sectors and ideal sectors, L1 tag requests, shared wavefronts and
          ideal wavefronts where ncu's page has them) EQUAL ncu's per-launch
          average over the same launches; a pair agrees when equal to 0.1%
          (a mean over identical launches) or within 1.
  share   for each kernel with >= N samples on both sides (default 1000):
          the same top stall reason (or one within sampling noise of it:
          two standard deviations of the difference of the two counts, on
          either side), every reason's share within 5 points,
          and at least 4 of ncu's 5 hottest instructions among gpuprof's 5
          (up to sampling noise: within two standard deviations of
          gpuprof's fifth, since in a loop of equal instructions the order
          of the hottest is chance).
  ratio   warp-state ratios per (launch, reason) within 5% or 0.05.
Prints the disagreements, then one line per class
  where-<class>: N passed, N failed, N skipped
Python 3 standard library only; runs on the GPU machine."""
import argparse
import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'xcheck'))
from compare import short_name, load_ncu, load_gpuprof, match_rows  # noqa: E402

# ncu's source-page column -> gpuprof's source_instr field (None: derived)
INSTR_COLUMNS = [
    ('Instructions Executed', 'inst_executed'),
    ('Thread Instructions Executed', 'thread_inst_executed'),
    ('Predicated-On Thread Instructions Executed', 'thread_inst_executed_pred_on'),
    ('Divergent Branches', 'divergent_branches'),
    ('L1 Tag Requests Global', 'l1_tags_global'),
    ('L2 Theoretical Sectors Global', 'sectors_global'),
    ('L2 Theoretical Sectors Global Ideal', 'sectors_global_ideal'),
    ('L2 Theoretical Sectors Global Excessive', None),
    ('L1 Wavefronts Shared', 'wavefronts_shared'),
    ('L1 Wavefronts Shared Ideal', 'wavefronts_shared_ideal'),
    ('L1 Wavefronts Shared Excessive', None),
]


# ncu's source-page stall columns -> CUPTI's reason names (gpuprof's)
STALL_COLUMNS = {
    'stall_barrier': 'barrier', 'stall_branch_resolving': 'branch_resolving',
    'stall_dispatch': 'dispatch_stall', 'stall_drain': 'drain', 'stall_imc': 'imc_miss',
    'stall_lg': 'lg_throttle', 'stall_long_sb': 'long_scoreboard',
    'stall_math': 'math_pipe_throttle', 'stall_membar': 'membar', 'stall_mio': 'mio_throttle',
    'stall_misc': 'misc', 'stall_no_inst': 'no_instructions',
    'stall_not_selected': 'not_selected', 'stall_selected': 'selected',
    'stall_short_sb': 'short_scoreboard', 'stall_sleep': 'sleeping', 'stall_tex': 'tex_throttle',
    'stall_wait': 'wait',
}


def kernel_key(name):
    """Functions are told apart by their whole demangled name (two template
    instances share a short name), compared without spaces and without the
    parameter list (Nsight Compute writes a template's parameters as T1,
    T2, ...; the demangler writes the types)."""
    s = ''.join(name.split()).replace('(anonymousnamespace)', '<unnamed>')
    # template literals as the two demanglers write them: (int)4 / 4,
    # (unsignedint)512 / 512u, (bool)1 / true
    s = re.sub(r'\[lambda\(([^()]*)\)\(instance(\d+)\)\]', r'{lambda(\1)#\2}', s)
    s = re.sub(r'\(bool\)1', 'true', s)
    s = re.sub(r'\(bool\)0', 'false', s)
    s = re.sub(r'\((?:unsigned)?(?:int|long|longlong|short|char)\)(-?\d+)', r'\1', s)
    s = re.sub(r'(?<=[\d])(?:ull|ul|ll|u|l)(?=[,>)])', '', s)
    if s.endswith(')'):
        depth = 0
        for i in range(len(s) - 1, -1, -1):
            depth += {')': 1, '(': -1}.get(s[i], 0)
            if depth == 0:
                return s[:i]
    return s


def num(v):
    try:
        return float(str(v).replace(',', ''))
    except ValueError:
        return None


def load_ours(path):
    funcs, instrs = {}, {}
    for line in open(path, errors='replace'):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        t = r.get('type')
        if t == 'source_function':
            funcs[kernel_key(r.get('kernel', ''))] = r
        elif t == 'source_instr':
            instrs.setdefault(r['mangled'], {})[r['pc']] = r
    out = {}
    for key, f in funcs.items():
        out[key] = (f, instrs.get(f['mangled'], {}))
    return out


def derived(rec, col):
    if col == 'L2 Theoretical Sectors Global Excessive':
        a, b = rec.get('sectors_global'), rec.get('sectors_global_ideal')
    else:
        a, b = rec.get('wavefronts_shared'), rec.get('wavefronts_shared_ideal')
    return None if a is None or b is None else a - b


def load_ncu_source(path):
    """kernel short name -> (launch blocks, {pc: {column: sum}}, sample pcs).
    A block equal, row for row, to the one before it of the same kernel is
    dropped: Nsight Compute's source page can print a launch twice (seen for
    Thrust's kernels, sample counts and all), and two real launches that
    equal each other row for row change no per-launch mean either."""
    out = {}
    blocks = []  # (kernel, [rows]) in file order

    kernel, head = None, None
    for row in csv.reader(open(path, errors='replace')):
        if not row:
            continue
        if row[0] == 'Kernel Name':
            kernel = kernel_key(row[1]) if len(row) > 1 else None
            head = None
            if kernel:
                blocks.append((kernel, []))
            continue
        if row[0] == 'Address' and kernel:
            head = row
            continue
        if not head or not kernel or len(row) != len(head):
            continue
        if row[0].startswith('0x'):
            blocks[-1][1].append((tuple(head), tuple(row)))
    last = {}
    for kernel, rows in blocks:
        if last.get(kernel) == rows:
            continue
        last[kernel] = rows
        nblocks, per_pc = out.get(kernel, (0, {}))
        out[kernel] = (nblocks + 1, per_pc)
        base = None
        for head, row in rows:
            addr = int(row[0], 16)
            if base is None:
                base = addr
            d = per_pc.setdefault(addr - base, {'_sass': row[1].strip()})
            for h, v in zip(head, row):
                x = num(v)
                if x is not None and h not in ('Address', 'Source'):
                    d[h] = d.get(h, 0.0) + x
    return out


def judge_instr(ours, ncu_src, report):
    passed = failed = skipped = 0
    for kernel, (blocks, per_pc) in sorted(ncu_src.items()):
        if kernel not in ours:
            skipped += 1
            report.append('instr %s: no gpuprof record' % kernel[:80])
            continue
        f, instrs = ours[kernel]
        n = f.get('sass_launches', 0)
        if not n:
            skipped += 1
            report.append('instr %s: gpuprof ran no SASS pass on it' % kernel[:80])
            continue
        bad_here = 0
        for pc, cols in sorted(per_pc.items()):
            rec = instrs.get(pc, {})
            for col, field in INSTR_COLUMNS:
                if col not in cols:
                    continue
                want = cols[col] / blocks
                got = derived(rec, col) if field is None else rec.get(field)
                if got is None:
                    if want == 0:
                        passed += 1  # no record: the instruction never ran
                    else:
                        skipped += 1
                    continue
                got = got / n
                if abs(got - want) <= max(1.0, 1e-3 * abs(want)):
                    passed += 1
                else:
                    failed += 1
                    bad_here += 1
                    if bad_here <= 5:
                        report.append('instr %s +%#x %s (%s): gpuprof %.6g, ncu %.6g' %
                                      (short_name(f.get('kernel', '')), pc, col,
                                       cols.get('_sass', ''), got, want))
    return passed, failed, skipped


def ncu_reason_totals(ncu_src, kernel):
    """Reason -> samples summed over the kernel's instructions on ncu's
    source page (its stall columns, not-issued ones left out)."""
    tot = {}
    for cols in ncu_src.get(kernel, (0, {}))[1].values():
        for c, reason in STALL_COLUMNS.items():
            if c in cols:
                tot[reason] = tot.get(reason, 0.0) + cols[c]
    return tot, sum(tot.values())


def top_reasons(tot):
    """The reasons whose count is within sampling noise of the largest (two
    standard deviations of the difference of two counts): any of them is
    the top reason, as far as the samples can tell."""
    if not tot:
        return set()
    top = max(tot.values())
    return {r for r, c in tot.items() if top - c <= 2 * (top + c) ** 0.5}


def ours_reason_totals(instrs):
    tot = {}
    for r in instrs.values():
        for k, v in r.get('stall', {}).items():
            tot[k] = tot.get(k, 0) + v
    return tot


def share_verdict(otot, osum, instrs, ntot, nsum, per_pc):
    """(ok, top ours, top ncu, worst difference, its reason, hottest in
    common) for one kernel: the same top reason (within sampling noise),
    every share within 5 points, 4 of ncu's 5 hottest instructions among
    gpuprof's five."""
    otop = max(otot, key=otot.get)
    ntop = max(ntot, key=ntot.get)
    ok = bool(top_reasons(otot) & top_reasons(ntot))
    worst, worst_r = 0.0, ''
    for k in set(otot) | set(ntot):
        d = abs(100.0 * otot.get(k, 0) / osum - 100.0 * ntot.get(k, 0) / nsum)
        if d > worst:
            worst, worst_r = d, k
    ok = ok and worst <= 5.0
    # an instruction of ncu's five hottest is among gpuprof's five when it
    # is, or when its count is within sampling noise (two standard
    # deviations) of gpuprof's fifth: in a loop of equal instructions the
    # order of the top five is chance, for either tool
    order = sorted(instrs, key=lambda pc: -instrs[pc].get('samples', 0))
    hot_o = set(order[:5])
    fifth = instrs[order[4]].get('samples', 0) if len(order) >= 5 else 0
    col = 'Warp Stall Sampling (All Samples)'
    hot_n = sorted(per_pc, key=lambda pc: -per_pc[pc].get(col, 0))[:5]
    common = None
    if hot_n:
        common = sum(1 for pc in hot_n if pc in hot_o or
                     instrs.get(pc, {}).get('samples', 0) >= fifth - 2 * fifth ** 0.5)
    ok = ok and (common is None or common >= 4)
    return ok, otop, ntop, worst, worst_r, common


def ncu_as_ours(per_pc):
    """ncu's per-instruction samples in gpuprof's form (for judging one ncu
    run against the other)."""
    out = {}
    for pc, cols in per_pc.items():
        st = {reason: cols[c] for c, reason in STALL_COLUMNS.items() if cols.get(c)}
        out[pc] = {'samples': cols.get('Warp Stall Sampling (All Samples)', 0), 'stall': st}
    return out


# ncu runs under other conditions a kernel whose shares differ is judged
# against too (it still fails): (key, how its line names it, label)
ALT_RUNS = (('warm', 'ncu --cache-control none', 'warm'),
            ('app', 'ncu --replay-mode application', 'app'))


def judge_shares(ours, ncu_src, min_samples, report, tag='share', again=None, warm=None,
                 app=None):
    """With `again` (ncu's second run, same settings): a kernel whose two ncu
    runs do not meet the conditions against each other has no oracle value;
    it is set apart (share-unstable), counted and said with whether gpuprof
    meets them against either run, as the warp-state ratios are.  With
    `warm` (ncu's source page with --cache-control none): a kernel that
    fails is also judged against it and the line says how (gpuprof samples
    the program's own launches, whose caches are not flushed); it still
    counts as failed.  With `app` (ncu's source page in application replay:
    its samples come from the program's own run of each launch, as
    gpuprof's do, not from a replayed pass) the same."""
    passed = failed = skipped = 0
    unstable = unstable_ok = 0
    alts = {'warm': warm, 'app': app}
    alt_failed = {k: 0 for k in alts}
    alt_ok = {k: 0 for k in alts}
    for kernel, (f, instrs) in sorted(ours.items()):
        ntot, nsum = ncu_reason_totals(ncu_src, kernel)
        osum = float(f.get('samples', 0))
        name = short_name(f.get('kernel', ''))
        if nsum < min_samples or osum < min_samples:
            skipped += 1
            report.append('%s %s: %d gpuprof and %d ncu samples (< %d): not judged' %
                          (tag, name, osum, nsum, min_samples))
            continue
        otot = ours_reason_totals(instrs)
        per_pc = ncu_src.get(kernel, (0, {}))[1]
        ok, otop, ntop, worst, worst_r, common = share_verdict(otot, osum, instrs, ntot, nsum,
                                                              per_pc)
        line = ('%s %s: %d/%d samples, top %s/%s, worst share difference %.1f points (%s), '
                'hottest %s of 5 in common' % (tag, name, osum, nsum, otop, ntop, worst, worst_r,
                                               '?' if common is None else common))
        if again is not None and kernel in again:
            atot, asum = ncu_reason_totals(again, kernel)
            if asum >= min_samples:
                a_pc = again[kernel][1]
                steady = share_verdict(ntot, nsum, ncu_as_ours(per_pc), atot, asum, a_pc)
                if not steady[0]:
                    ok_a = share_verdict(otot, osum, instrs, atot, asum, a_pc)[0]
                    unstable += 1
                    unstable_ok += ok or ok_a
                    report.append('%s-unstable %s: ncu against itself: top %s/%s, worst share '
                                  'difference %.1f points (%s), hottest %s of 5 in common; '
                                  'not judged (gpuprof against its first run: %s)' %
                                  (tag, name, steady[1], steady[2], steady[3], steady[4],
                                   steady[5], line.split(': ', 1)[1]))
                    continue
        for key, how, _ in ALT_RUNS:
            alt = alts[key]
            if ok or alt is None or kernel not in alt:
                continue
            wtot, wsum = ncu_reason_totals(alt, kernel)
            if wsum < min_samples:
                continue
            w = share_verdict(otot, osum, instrs, wtot, wsum, alt[kernel][1])
            alt_failed[key] += 1
            alt_ok[key] += w[0]
            line += ('; against %s: top %s/%s, worst share difference %.1f points (%s), '
                     'hottest %s of 5 in common: %s' %
                     (how, w[1], w[2], w[3], w[4], w[5], 'agrees' if w[0] else 'differs'))
        report.append(('' if ok else 'FAIL ') + line)
        passed += ok
        failed += not ok
    for key, how, label in ALT_RUNS:
        if alts[key] is not None:
            report.append('%s-%s: %d of the %d kernels that differ agree with %s' %
                          (tag, label, alt_ok[key], alt_failed[key], how))
    if again is not None:
        report.append('%s-unstable: %d kernels ncu did not repeat, %d of them agree with one of '
                      'its runs' % (tag, unstable, unstable_ok))
    return passed, failed, skipped


def ncu_by_key(raw):
    return {(k, i): row for k, i, row, _ in match_rows(raw)}


def close(g, n):
    return abs(g - n) <= 0.05 or abs(g - n) <= 0.05 * abs(n)


def judge_ratios(ws_path, raw, report, raw_nocache=None, raw_again=None):
    """Against ncu with its cache control (all); a pair that disagrees but
    agrees with ncu --cache-control none (caches kept warm) is counted
    apart; a pair whose value ncu's second run (raw_again) does not repeat
    is not judged (skipped), counted with how many agree with the first."""
    passed = failed = skipped = warm = unstable = unstable_ok = 0
    # over every pair both ncu runs value: how often ncu's second run
    # agrees with its first, and how often gpuprof does (the yardstick for
    # the share of pairs gpuprof can be expected to match)
    both = self_ok = ours_ok = 0
    other = ncu_by_key(raw_nocache) if raw_nocache else {}
    again = ncu_by_key(raw_again) if raw_again else {}
    gp = load_gpuprof(ws_path)
    by_key = ncu_by_key(raw)
    seen = {}
    for r in gp:
        k = short_name(r.get('kernel', ''))
        i = seen.get(k, 0)
        seen[k] = i + 1
        row = by_key.get((k, i))
        for m, g in sorted(r.get('metrics', {}).items()):
            if not (m.startswith('smsp__average_warp') or m in (
                    'smsp__issue_active.avg.per_cycle_active',
                    'smsp__warps_eligible.avg.per_cycle_active',
                    'smsp__warps_active.avg.per_cycle_active')):
                continue
            n = row['values'].get(m) if row else None
            if g is None or n is None:
                skipped += 1
                continue
            na = again.get((k, i), {}).get('values', {}).get(m)
            if na is not None:
                both += 1
                self_ok += close(na, n)
                ours_ok += close(g, n)
            if na is not None and not close(na, n):
                unstable += 1
                unstable_ok += close(g, n)
                skipped += 1
                report.append('ratio-unstable %s#%d %s: ncu %.4g, ncu again %.4g, gpuprof %.4g'
                              % (k, i, m, n, na, g))
                continue
            if close(g, n):
                passed += 1
                continue
            n2 = other.get((k, i), {}).get('values', {}).get(m)
            if n2 is not None and close(g, n2):
                warm += 1
            failed += 1
            report.append('ratio %s#%d %s: gpuprof %.4g, ncu %.4g%s' %
                          (k, i, m, g, n, '' if n2 is None else
                           ' (--cache-control none: %.4g)' % n2))
    if raw_nocache:
        report.append('ratio: %d of the %d pairs that disagree agree with ncu '
                      '--cache-control none' % (warm, failed))
    if raw_again:
        # read by check.sh: the pairs set apart and how many of them agree
        # with ncu's first run (the figure counting every pair)
        report.append('ratio-unstable: %d pairs ncu did not repeat, %d of them agree with the '
                      'first run' % (unstable, unstable_ok))
        report.append('ratio-self: %d pairs in both ncu runs: its second run agrees with its '
                      'first on %d, gpuprof on %d' % (both, self_ok, ours_ok))
    return passed, failed, skipped


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ours', required=True)
    ap.add_argument('--ncu-source', required=True)
    ap.add_argument('--ncu-raw', required=True)
    ap.add_argument('--ours-warpstate')
    ap.add_argument('--ncu-raw-nocache')
    ap.add_argument('--ncu-raw-again')
    ap.add_argument('--ncu-source-again')
    ap.add_argument('--ncu-source-nocache')
    ap.add_argument('--ncu-source-app')
    ap.add_argument('--min-samples', type=int, default=1000)
    ap.add_argument('--label', default='')
    a = ap.parse_args()
    ours = load_ours(a.ours)
    ncu_src = load_ncu_source(a.ncu_source)
    raw = load_ncu(a.ncu_raw)
    report = []
    lab = (a.label + ' ') if a.label else ''
    res = {'instr': judge_instr(ours, ncu_src, report),
           'share': judge_shares(ours, ncu_src, a.min_samples, report, again=(
               load_ncu_source(a.ncu_source_again)
               if a.ncu_source_again and os.path.exists(a.ncu_source_again) else None),
                                    warm=(load_ncu_source(a.ncu_source_nocache)
                                          if a.ncu_source_nocache and
                                          os.path.exists(a.ncu_source_nocache) else None),
                                    app=(load_ncu_source(a.ncu_source_app)
                                         if a.ncu_source_app and
                                         os.path.exists(a.ncu_source_app) else None))}
    if a.ours_warpstate:
        res['ratio'] = judge_ratios(a.ours_warpstate, raw, report,
                                    load_ncu(a.ncu_raw_nocache) if a.ncu_raw_nocache else None,
                                    load_ncu(a.ncu_raw_again) if a.ncu_raw_again else None)
    for line in report:
        print(lab + line)
    for cls, (p, f, s) in res.items():
        print('%swhere-%s: %d passed, %d failed, %d skipped' % (lab, cls, p, f, s))


if __name__ == '__main__':
    main()
