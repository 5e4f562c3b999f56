"""Checks of gpuprof-report's "where" outputs, for tests/report/test_where_cli.sh:

    where_check.py json FILE                 FILE is valid JSON (UTF-8)
    where_check.py width FILE                every CSV row as wide as its block's header
                                             (a "Kernel Name" line starts a block)
    where_check.py ncu-header FILE NCU       every block's header is NCU's (line 2)
    where_check.py ncu-compare FILE NCU      the first block reads as NCU's recorded page
                                             in every column gpuprof has data for

Exit status 0 when the check holds, else 1 with the reasons on stdout."""
import csv
import json
import re
import sys


def blocks(path):
    """[(header, rows)] of a CSV file."""
    out, cur = [], None
    for r in csv.reader(open(path, newline="", errors="surrogateescape")):
        if r[:1] == ["Kernel Name"]:
            cur = None
            continue
        if cur is None:
            cur = (r, [])
            out.append(cur)
        else:
            cur[1].append(r)
    return out


def main(argv):
    what, path = argv[1], argv[2]
    bad = []
    if what == "json":
        json.load(open(path, encoding="utf-8"))
    elif what == "width":
        for head, rows in blocks(path):
            bad += ["row %r: %d fields, the header %d" % (r[:2], len(r), len(head))
                    for r in rows if len(r) != len(head)]
    elif what == "ncu-header":
        want = list(csv.reader(open(argv[3], newline="")))[1]
        bad += ["a header differs from ncu's" for head, rows in blocks(path) if head != want]
    elif what == "ncu-compare":
        ncu = list(csv.reader(open(argv[3], newline="")))
        head, want = ncu[1], ncu[2:]
        ours = blocks(path)[0][1]
        if len(ours) != len(want):
            bad.append("%d rows, ncu %d" % (len(ours), len(want)))
        for a, b in zip(ours, want):
            for i, c in enumerate(head):
                x, y = a[i], b[i]
                # the address (ncu: virtual, gpuprof: offset) and what gpuprof does not count
                if c == "Address" or c.startswith("L2 Explicit Hit") or c.startswith("L2 Explicit Miss"):
                    continue
                if c == "Source":  # branch targets: ncu prints addresses, nvdisasm labels
                    x, y = re.sub(r"BRA .*", "BRA", x), re.sub(r"BRA .*", "BRA", y)
                if x != y:
                    bad.append("%s %s: ours %r, ncu %r" % (b[0], c, x, y))
    else:
        bad.append("unknown check " + what)
    print("\n".join(bad[:20]))
    return 1 if bad else 0


sys.exit(main(sys.argv))
