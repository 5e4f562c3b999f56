#!/usr/bin/env python3
"""test_compare.py - compare.py's judging on made-up files (no GPU): DRAM
write-backs against ncu's DRAM-alone run when there is one, the second ncu
run setting pairs apart (and the second DRAM-alone run those of the
DRAM-alone metrics), a ratio with a zero denominator.  Prints
`compare: N passed, N failed, N skipped`."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print('FAIL', what)


def ncu_csv(path, rows):
    names = sorted({m for _, vals in rows for m in vals})
    head = ['ID', 'Process ID', 'Kernel Name'] + names
    with open(path, 'w') as f:
        f.write('program output before the table\n')
        f.write(','.join('"%s"' % h for h in head) + '\n')
        f.write(','.join('""' for _ in head) + '\n')  # the units line
        for i, (kernel, vals) in enumerate(rows):
            cells = [str(i), '1', kernel] + ['%s' % vals.get(m, '') for m in names]
            f.write(','.join('"%s"' % c for c in cells) + '\n')


def gpuprof_jsonl(path, launches):
    with open(path, 'w') as f:
        for kernel, vals in launches:
            f.write(json.dumps({'type': 'launch', 'kernel': kernel, 'metrics': vals}) + '\n')


def run(d):
    out = subprocess.run([sys.executable, os.path.join(HERE, 'compare.py'), d, '--detail'],
                         capture_output=True, text=True)
    line = [l for l in out.stdout.splitlines() if l.startswith('xcheck:')]
    return out.stdout, line[0] if line else ''


def main():
    gp = [('void k<int>(float *)', {'dram__bytes_write.sum': 20000.0,
                                    'dram__throughput.avg.pct_of_peak_sustained_elapsed': 10.0,
                                    'smsp__inst_executed.sum': 100.0,
                                    'l1tex__t_sector_hit_rate.pct': None})]
    full = [('k', {'dram__bytes_write.sum': 2000000, 'smsp__inst_executed.sum': 100,
                   'dram__throughput.avg.pct_of_peak_sustained_elapsed': 20,
                   'l1tex__t_sector_hit_rate.pct': 0})]
    alone = [('k', {'dram__bytes_write.sum': 30000,
                    'dram__throughput.avg.pct_of_peak_sustained_elapsed': 10.2})]
    with tempfile.TemporaryDirectory() as d:
        gpuprof_jsonl(os.path.join(d, 'p.jsonl'), gp)
        ncu_csv(os.path.join(d, 'p.ncu.csv'), full)
        text, line = run(d)
        check('2 passed, 2 failed' in line,
              'without the DRAM-alone run the write-backs are judged against the full-list run: ' + line)
        ncu_csv(os.path.join(d, 'p.ncu-dram.csv'), alone)
        text, line = run(d)
        check('4 passed, 0 failed' in line, 'with it they agree: ' + line)
        # a second full-list run disagreeing on the DRAM writes sets nothing
        # apart (those are judged against the DRAM-alone run), on the
        # instructions it does
        full2 = [('k', dict(full[0][1], **{'dram__bytes_write.sum': 900000,
                                           'smsp__inst_executed.sum': 150}))]
        ncu_csv(os.path.join(d, 'p.ncu2.csv'), full2)
        text, line = run(d)
        check('3 passed, 0 failed' in line and 'NCU-UNSTABLE' in text and
              'smsp__inst_executed.sum' in text.split('NCU-UNSTABLE', 1)[1] and
              'dram__bytes_write' not in text.split('NCU-UNSTABLE', 1)[1],
              'the unstable pair is the instruction count only: ' + line)
        # a DRAM-alone value gpuprof does not reach is still a difference
        ncu_csv(os.path.join(d, 'p.ncu-dram.csv'),
                [('k', {'dram__bytes_write.sum': 900000,
                        'dram__throughput.avg.pct_of_peak_sustained_elapsed': 10.2})])
        text, line = run(d)
        check('2 passed, 1 failed' in line and 'DIFF' in text and 'dram__bytes_write' in text,
              'a real write-back difference fails: ' + line)
        # a second DRAM-alone run that does not repeat that value sets it
        # apart; one that repeats it leaves it judged
        ncu_csv(os.path.join(d, 'p.ncu-dram2.csv'),
                [('k', {'dram__bytes_write.sum': 25000,
                        'dram__throughput.avg.pct_of_peak_sustained_elapsed': 10.1})])
        text, line = run(d)
        check('2 passed, 0 failed' in line and 'NCU-UNSTABLE' in text and
              'dram__bytes_write' in text.split('NCU-UNSTABLE', 1)[1],
              'the write-back ncu did not repeat is set apart: ' + line)
        ncu_csv(os.path.join(d, 'p.ncu-dram2.csv'),
                [('k', {'dram__bytes_write.sum': 905000,
                        'dram__throughput.avg.pct_of_peak_sustained_elapsed': 10.1})])
        text, line = run(d)
        check('2 passed, 1 failed' in line and 'DIFF' in text,
              'a write-back ncu repeats is judged: ' + line)
    print('compare: %d passed, %d failed, 0 skipped' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
