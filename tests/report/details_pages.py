#!/usr/bin/env python3
"""details_pages.py - reads Nsight Compute's text pages (the details page and
--print-summary per-kernel) into rows, for tests/report/test_details_cli.sh.

  details_pages.py compare [--summary] NCU.txt GPUPROF.txt
      every row of every table of NCU.txt (per kernel line, section and
      label: the cells after the label) must be in GPUPROF.txt with the same
      cells, unless gpuprof's row is n/a (its reasons are listed after the
      page).  --summary: a row gpuprof leaves out of its summary must be
      named in its list of n/a rows, and an average may differ from ncu's by
      one unit of its last digit (the means of values the fixture holds
      rounded to two decimals).  Prints 'rows N same N na N differ N absent
      N' and exits 1 on a difference or an absent row.  Columns are found
      from the dashed rules, as they are laid out.
      --rounded: gpuprof's page is of values ncu printed rounded to two
      decimals (its raw page), so a cell may differ from ncu's by one unit
      of the second decimal (19.00 against 19).  --min SHARE: a difference
      fails only when fewer than SHARE of the rows with a value on both
      pages are the same (an absent row always fails)."""
import sys


def tables(path):
    """{(kernel line, section, label): [cells]}; the kernel line of a
    launch whose line an earlier launch had too ends in ' #N' (its ordinal
    among them), so launches of one shape are not taken for one"""
    out, kernel, section, seen = {}, None, None, {}
    lines = open(path, errors='replace').read().split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('  ') and not line.startswith('   '):
            kernel = line.strip()
            seen[kernel] = seen.get(kernel, 0) + 1
            if seen[kernel] > 1:
                kernel += ' #%d' % (seen[kernel] - 1)
        elif line.startswith('    Section: '):
            section = line[len('    Section: '):]
        elif line.startswith('    -') and i + 2 < len(lines) and lines[i + 2].startswith('    -'):
            widths = [len(w) for w in line.strip().split(' ')]
            j = i + 3
            while j < len(lines) and not lines[j].startswith('    -'):
                cells, at, row = [], 4, lines[j]
                for w in widths:
                    cells.append(row[at:at + w].strip())
                    at += w + 1
                out[(kernel, section, cells[0])] = cells[1:]
                j += 1
            i = j
        i += 1
    return out


def number(s):
    try:
        return float(s.replace(',', ''))
    except ValueError:
        return None


def near(a, b):
    """cells equal but for one unit of the last of two decimals"""
    if len(a) != len(b) or a[0] != b[0]:
        return False
    for x, y in zip(a[1:], b[1:]):
        p, q = number(x), number(y)
        if x != y and (p is None or q is None or abs(p - q) > 0.0100001):
            return False
    return True


def compare(ncu_path, gp_path, summary=False, rounded=False, min_share=None):
    n, g = tables(ncu_path), tables(gp_path)
    text = open(gp_path, errors='replace').read()
    same = na = differ = absent = 0
    for key, cells in n.items():
        mine = g.get(key)
        if mine is None and summary and ('    %s / %s (' % key[1:]) in text:
            na += 1
        elif mine is None:
            absent += 1
            print('ABSENT %s / %s / %s' % key)
        elif mine == cells or ((summary or rounded) and near(mine, cells)):
            same += 1
        elif mine and mine[-1] == 'n/a':
            na += 1
        else:
            differ += 1
            print('DIFFER %s / %s / %s: ncu %s, gpuprof %s' % (key + (cells, mine)))
    print('rows %d same %d na %d differ %d absent %d' % (len(n), same, na, differ, absent))
    if absent or not n or not same:
        return 1
    if min_share is None:
        return 1 if differ else 0
    return 0 if same / float(same + differ) >= min_share else 1


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description='Nsight Compute\'s text pages against gpuprof\'s')
    ap.add_argument('verb', choices=['compare'])
    ap.add_argument('ncu')
    ap.add_argument('gpuprof')
    ap.add_argument('--summary', action='store_true')
    ap.add_argument('--rounded', action='store_true')
    ap.add_argument('--min', type=float, default=None)
    a = ap.parse_args(argv[1:])
    return compare(a.ncu, a.gpuprof, a.summary, a.rounded, a.min)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
