#!/usr/bin/env python3
"""trim-recorded.py - a trimmed copy of one program of the cross-check's
output (tests/gpu/xcheck/run.sh: P.jsonl, P.ncu.csv, P.ncu2.csv,
P.ncu-dram.csv) for tests/data/against/recorded: gpuprof's device and launch
records only (no instruction-level records), and of ncu's columns the fixed
ones, those gpuprof's records have and a few of ncu's own (the device's
name, the launch statistics); every row, value and quote as ncu wrote it,
the lines before the table too.

usage: trim-recorded.py SRC_DIR PROGRAM DEST_DIR"""
import csv
import io
import json
import os
import sys

KEEP = {'device__attribute_display_name', 'launch__grid_size', 'launch__block_size',
        'launch__registers_per_thread'}


def main():
    src, prog, dest = sys.argv[1:4]
    metrics = set()
    with open(os.path.join(src, prog + '.jsonl')) as f, \
            open(os.path.join(dest, prog + '.jsonl'), 'w') as out:
        for line in f:
            r = json.loads(line)
            if r.get('type') in ('device', 'launch'):
                out.write(line)
                metrics.update(r.get('metrics', {}))
    for ext in ('ncu.csv', 'ncu2.csv', 'ncu-dram.csv'):
        path = os.path.join(src, prog + '.' + ext)
        if not os.path.exists(path):
            continue
        lines = open(path).read().splitlines(True)
        start = next(i for i, l in enumerate(lines) if l.startswith('"ID","Process ID"'))
        rows = list(csv.reader(lines[start:]))
        cols = [i for i, h in enumerate(rows[0]) if i < 11 or h in metrics or h in KEEP]
        buf = io.StringIO()
        w = csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator='\n')
        for r in rows:
            w.writerow([r[i] for i in cols])
        with open(os.path.join(dest, prog + '.' + ext), 'w') as out:
            out.write(''.join(lines[:start]) + buf.getvalue())


if __name__ == '__main__':
    main()
