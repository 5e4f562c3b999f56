#!/usr/bin/env python3
"""test_compare_details.py - compare_details.py's judging on made-up pages
(run by make test through test_compare_details.sh), and on the page
gpuprof-report writes for tests/data/details/h100-full.jsonl (argv[1])."""
import io
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_details as cd  # noqa: E402

HEAD = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
        '"Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit",'
        '"Metric Value","Rule Name","Rule Type","Rule Description","Estimated Speedup Type",'
        '"Estimated Speedup"\n')
passed = failed = 0


def row(lid, kernel, section, metric, unit, value, why=''):
    return ('"%d","1","app","h","%s","1","7","(128, 1, 1)","(8, 1, 1)","0","9.0","%s","%s",'
            '"%s","%s","","","%s","",""\n' % (lid, kernel, section, metric, unit, value, why))


def rule(lid, kernel, section):
    return ('"%d","1","app","h","%s","1","7","(128, 1, 1)","(8, 1, 1)","0","9.0","%s","","",'
            '"","SOLBottleneck","OPT","advice","global","12.5"\n' % (lid, kernel, section))


def page(rows, before=''):
    f = tempfile.NamedTemporaryFile('w', suffix='.csv', delete=False)
    f.write(before + HEAD + ''.join(rows))
    f.close()
    return f.name


def run(ncu_rows, gp_rows, min_share=0.99, before=''):
    a, b = page(ncu_rows, before), page(gp_rows)
    out = io.StringIO()
    rc, counts = cd.compare(a, b, 'test', min_share, True, out)
    os.unlink(a)
    os.unlink(b)
    return rc, counts, out.getvalue()


def check(cond, what, extra=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print('FAIL %s %s' % (what, extra))


K = 'void gemm<float>(float const*, float*)'
G = 'gemm<float>(const float *, float *)'  # gpuprof's demangler spaces it otherwise
SOL = 'GPU Speed Of Light Throughput'
base_n = [row(0, K, SOL, 'Duration', 'us', '19.58'), row(0, K, SOL, 'Elapsed Cycles', 'cycle', '35,069'),
          row(0, K, SOL, 'Memory Throughput', '%', '65.48'),
          row(0, K, 'Launch Statistics', 'Registers Per Thread', 'register/thread', '63'),
          row(0, K, 'Launch Statistics', 'Function Cache Configuration', '', 'CachePreferNone'),
          rule(0, K, 'SpeedOfLight'),
          row(1, K, SOL, 'Duration', 'ms', '1.00'), row(1, K, SOL, 'Memory Throughput', '%', '10.00')]
base_g = [row(0, G, SOL, 'Duration', 'ns', '19580'), row(0, G, SOL, 'Elapsed Cycles', 'cycle', '35069'),
          row(0, G, SOL, 'Memory Throughput', '%', '66.38'),
          row(0, G, 'Launch Statistics', 'Registers Per Thread', 'register/thread', '63'),
          row(0, G, 'Launch Statistics', 'Function Cache Configuration', '', 'n/a',
              'gpuprof cannot collect it: the function\'s cache preference'),
          row(1, G, SOL, 'Duration', 'us', '1050'), row(1, G, SOL, 'Memory Throughput', '%', '10.5')]

# matched by short name and ordinal across demanglers; program output before
# the header and rule rows skipped; thousands separators, units to base
rc, c, out = run(base_n, base_g, before='==PROF== Connected\nresult 42\n')
check(rc == 0, 'agreeing pages', out)
check(c['rows'] == 7 and c['present'] == 7 and c['explained'] == 1 and c['missing'] == 0,
      'counts', str(c))
check(c['judged'] == 3 and c['agree'] == 3 and c['clock'] == 3 and c['clock_ok'] == 3,
      'judged apart', str(c))
check('n/a Launch Statistics / Function Cache Configuration: gpuprof cannot collect' in out,
      'the reason of an explained row', out)

# a percentage 1.5 points off, a count 6% off: they differ; at 0.9 points
# and 4% they agree
g = list(base_g)
g[2] = row(0, G, SOL, 'Memory Throughput', '%', '66.98')
g[3] = row(0, G, 'Launch Statistics', 'Registers Per Thread', 'register/thread', '66.8')
rc, c, out = run(base_n, g)
check(rc == 1 and c['agree'] == 1 and 'DIFFER gemm#0 %s / Memory Throughput' % SOL in out,
      'differences', out)
rc, c, out = run(base_n, g, min_share=0.3)
check(rc == 0, '--min', out)
g[3] = row(0, G, 'Launch Statistics', 'Registers Per Thread', 'register/thread', '65.5')
rc, c, out = run(base_n, g)
check(c['agree'] == 2, 'a count 4% off agrees', str(c))
# clock-sensitive rows 20% off: listed, but not in the share
g = list(base_g)
g[0] = row(0, G, SOL, 'Duration', 'us', '23.6')
rc, c, out = run(base_n, g)
check(rc == 0 and c['clock_ok'] == 2 and '(clock) gemm#0' in out, 'clock rows apart', out)
# two-decimal rounding of small values: 0.00 against 0.0042
rc, c, out = run([row(0, K, 'Launch Statistics', 'Waves Per SM', '', '0.00')],
                 [row(0, G, 'Launch Statistics', 'Waves Per SM', '', '0.0042')])
check(rc == 0 and c['agree'] == 1, 'display rounding', out)
# a row gpuprof lacks, and an n/a without its reason: missing, fails
rc, c, out = run(base_n, base_g[:2] + base_g[3:])
check(rc == 1 and c['missing'] == 1 and 'MISSING gemm#0 %s / Memory Throughput: absent' % SOL in out,
      'an absent row', out)
g = list(base_g)
g[4] = row(0, G, 'Launch Statistics', 'Function Cache Configuration', '', 'n/a')
rc, c, out = run(base_n, g)
check(rc == 1 and 'n/a without a reason' in out, 'n/a without a reason', out)
# a launch gpuprof did not profile
rc, c, out = run(base_n + [row(2, 'other(int)', SOL, 'Duration', 'us', '1')], base_g)
check(rc == 1 and c['unmatched'] == 1 and 'other#0' in out, 'an unmatched launch', out)
# ncu's n/a is no oracle; a unit of another family differs
rc, c, out = run([row(0, K, SOL, 'Memory Throughput', '%', 'n/a'),
                  row(0, K, 'Occupancy', 'Block Limit Warps', 'block', '16')],
                 [row(0, G, SOL, 'Memory Throughput', '%', '3'),
                  row(0, G, 'Occupancy', 'Block Limit Warps', 'warp', '16')])
check(c['ncu_na'] == 1 and 'unit' in out and rc == 1, 'ncu n/a and units', out)
check(cd.base_unit('Tbyte/s') == ('byte/s', 1e12) and cd.base_unit('Ghz') == ('hz', 1e9) and
      cd.base_unit('Kbyte/block') == ('byte/block', 1e3) and cd.base_unit('msecond') == ('ns', 1e6),
      'units')

# the per-kernel summary's CSV: a row gpuprof lacks, or with other
# invocations, is missing; values judged as details values; n/a counted
SHEAD = ('"Process ID","Process Name","Host Name","Kernel Name","Block Size","Grid Size",'
         '"Device","CC","Invocations","Section Name","Metric Name","Metric Unit","Minimum",'
         '"Maximum","Average"\n')


def srow(kernel, inv, metric, unit, lo, hi, avg):
    return ('"1","app","h","%s","(128, 1, 1)","(8, 1, 1)","0","9.0","%d","%s","%s","%s",'
            '"%s","%s","%s"\n' % (kernel, inv, SOL, metric, unit, lo, hi, avg))


def srun(ncu_rows, gp_rows, head=SHEAD):
    files = []
    for h, rows in ((SHEAD, ncu_rows), (head, gp_rows)):
        f = tempfile.NamedTemporaryFile('w', suffix='.csv', delete=False)
        f.write(h + ''.join(rows))
        f.close()
        files.append(f.name)
    out = io.StringIO()
    rc, counts = cd.compare_summary(files[0], files[1], 'test', 0.99, out)
    for f in files:
        os.unlink(f)
    return rc, counts, out.getvalue()


sn = [srow(K, 2, 'Memory Throughput', '%', '10.00', '12.00', '11.00'),
      srow(K, 2, 'Elapsed Cycles', 'cycle', '1,000.00', '1,100.00', '1,050.00'),
      srow(K, 2, 'Stack Size', '', '1,024.00', '1,024.00', '1,024.00')]
sg = [srow(K, 2, 'Memory Throughput', '%', '10.40', '12.00', '11.00'),
      srow(K, 2, 'Elapsed Cycles', 'cycle', '1,010.00', '1,100.00', '1,050.00'),
      srow(K, 2, 'Stack Size', '', 'n/a', 'n/a', 'n/a')]
rc, c, out = srun(sn, sg)
check(rc == 0 and c['judged'] == 3 and c['agree'] == 3 and c['clock'] == 3 and c['na'] == 1,
      'summary: agreeing pages', out)
rc, c, out = srun(sn, sg[:1] + sg[2:])
check(rc == 1 and c['missing'] == 1 and 'Elapsed Cycles: absent' in out, 'summary: absent row', out)
rc, c, out = srun(sn, [srow(K, 1, 'Memory Throughput', '%', '10', '12', '11')] + sg[1:])
check(rc == 1 and 'invocations 1, ncu 2' in out, 'summary: invocations', out)
rc, c, out = srun(sn, [srow(K, 2, 'Memory Throughput', '%', '10', '14', '11')] + sg[1:])
check(rc == 1 and c['agree'] == 2 and 'DIFFER' in out and 'Maximum' in out, 'summary: a value', out)
rc, c, out = srun(sn, sg + [srow(K, 2, 'Function Cache Configuration', '', 'n/a', 'n/a', 'n/a')])
check(rc == 1 and c['extra'] == 1 and 'EXTRA' in out, 'summary: a row ncu has not', out)
rc, c, out = srun(sn, sg, SHEAD.replace('"Average"', '"Mean"'))
check(rc == 1 and 'HEADER' in out, 'summary: header', out)

# the page gpuprof-report writes reads back as itself: every row present
if len(sys.argv) > 1:
    out = io.StringIO()
    rc, c = cd.compare(sys.argv[1], sys.argv[1], 'self', 0.99, False, out)
    check(rc == 0 and c['rows'] > 150 and c['present'] == c['rows'] and c['explained'] > 10 and
          c['agree'] == c['judged'], 'gpuprof-report\'s own page', out.getvalue()[-400:])
print('compare-details: %d passed, %d failed, 0 skipped' % (passed, failed))
sys.exit(1 if failed else 0)
