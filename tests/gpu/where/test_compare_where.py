#!/usr/bin/env python3
"""test_compare_where.py - compare_where.py's judging on made-up files.
Warp-state ratios: within 5% or 0.05 agrees; a pair ncu's second run does
not repeat is set apart (not judged, counted, said with whether gpuprof
agrees with the first run); without the second run every pair is judged.
Stall shares: a launch ncu's source page prints twice counts once; a top
reason within sampling noise of ncu's agrees, a clearly different one
fails; a kernel whose two ncu runs differ is set apart; a kernel that
differs is judged against ncu with warm caches too and still fails."""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "xcheck"))
import compare_where  # noqa: E402
from compare import load_ncu  # noqa: E402

passed = failed = 0
BAR = "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"
DRAIN = "smsp__average_warps_issue_stalled_drain_per_issue_active.ratio"
WAIT = "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio"


def expect(cond, what):
    global passed, failed
    passed += bool(cond)
    failed += not cond
    if not cond:
        print("FAIL: " + what)


def raw(path, bar, drain, wait):
    with open(path, "w") as f:
        f.write('"ID","Process ID","Kernel Name","%s","%s","%s"\n' % (BAR, DRAIN, WAIT))
        f.write('"","","","ratio","ratio","ratio"\n')
        f.write('"0","1","k","%s","%s","%s"\n' % (bar, drain, wait))


with tempfile.TemporaryDirectory() as d:
    ws = os.path.join(d, "ws.jsonl")
    with open(ws, "w") as f:
        f.write(json.dumps({"type": "launch", "kernel": "k(int)",
                            "metrics": {BAR: 0.70, DRAIN: 1.0, WAIT: 2.0}}) + "\n")
    first, again = os.path.join(d, "r1.csv"), os.path.join(d, "r2.csv")
    raw(first, 0.76, 1.0, 2.5)   # barrier 0.06 off, drain equal, wait 25% off
    raw(again, 0.69, 1.01, 2.5)  # ncu does not repeat its barrier value
    report = []
    got = compare_where.judge_ratios(ws, load_ncu(first), report, None, load_ncu(again))
    expect(got == (1, 1, 1), "with the second run: 1 agrees, 1 differs, 1 set apart: %s" % (got,))
    expect(any(l.startswith("ratio-unstable k#0 " + BAR) for l in report),
           "the pair ncu did not repeat is listed: %s" % report)
    expect("ratio-unstable: 1 pairs ncu did not repeat, 0 of them agree with the first run"
           in report, "the count of pairs set apart: %s" % report)
    expect("ratio-self: 3 pairs in both ncu runs: its second run agrees with its first on 2,"
           " gpuprof on 1" in report, "ncu against itself beside gpuprof: %s" % report)
    report = []
    got = compare_where.judge_ratios(ws, load_ncu(first), report)
    expect(got == (1, 2, 0), "without it every pair is judged: %s" % (got,))
    expect(not any("unstable" in l or "ratio-self" in l for l in report),
           "no pair set apart, no second run to measure ncu against: %s" % report)


# stall shares: ncu's source page, its duplicated blocks, a near tie, a
# kernel ncu does not repeat
HEAD = ('"Address","Source","Warp Stall Sampling (All Samples)","stall_barrier",'
        '"stall_long_sb","stall_drain"\n')


def source(path, blocks):
    """blocks: [(kernel, [(all, barrier, long_sb, drain) per instruction])]"""
    with open(path, "w") as f:
        for kernel, rows in blocks:
            f.write('"Kernel Name","%s"\n' % kernel)
            f.write(HEAD)
            for i, (a, b, l, d) in enumerate(rows):
                f.write('"0x%x","  FFMA R%d","%d","%d","%d","%d"\n' % (0x1000 + 16 * i, i, a, b, l, d))


def ours_src(path, rows):
    with open(path, "w") as f:
        f.write(json.dumps({"type": "source_function", "kernel": "k(int)", "mangled": "_Z1ki",
                            "samples": sum(r[0] for r in rows), "sass_launches": 1}) + "\n")
        for i, (a, b, l, d) in enumerate(rows):
            st = {k: v for k, v in (("barrier", b), ("long_scoreboard", l), ("drain", d)) if v}
            f.write(json.dumps({"type": "source_instr", "mangled": "_Z1ki", "pc": 16 * i,
                                "samples": a, "stall": st}) + "\n")


def rows_of(shares, hot=(700, 600, 500, 400, 300, 200)):
    """six instructions, each with the kernel's shares (barrier, long_sb, drain)"""
    out = []
    for a in hot:
        b, l = int(a * shares[0]), int(a * shares[1])
        out.append((a, b, l, a - b - l))
    return out


with tempfile.TemporaryDirectory() as d:
    o, n1, n2 = (os.path.join(d, x) for x in ("o.jsonl", "n1.csv", "n2.csv"))
    base = rows_of((0.40, 0.35))
    ours_src(o, base)
    source(n1, [("k(int)", base), ("k(int)", base)])  # one launch printed twice
    got = compare_where.load_ncu_source(n1)
    expect(got["k"][0] == 1 and got["k"][1][0]["Warp Stall Sampling (All Samples)"] == 700,
           "a block printed twice counts once: %s" % (got["k"][0],))
    report = []
    r = compare_where.judge_shares(compare_where.load_ours(o), got, 1000, report)
    expect(r == (1, 0, 0), "equal shares agree: %s %s" % (r, report))
    def judge_pair(ncu_shares, our_shares):
        """ncu's and gpuprof's shares of kernel k judged: (result, report)."""
        source(n1, [("k(int)", rows_of(ncu_shares))])
        ours_src(o, rows_of(our_shares))
        rep = []
        return compare_where.judge_shares(compare_where.load_ours(o),
                                          compare_where.load_ncu_source(n1), 1000, rep), rep

    # a near tie: gpuprof's top is barrier, ncu's long scoreboard by a hair
    r, report = judge_pair((0.37, 0.38), (0.38, 0.37))
    expect(r == (1, 0, 0), "a top reason within sampling noise agrees: %s %s" % (r, report))
    # a clear difference of top reason fails
    r, report = judge_pair((0.20, 0.60), (0.60, 0.20))
    expect(r == (0, 1, 0), "another top reason fails: %s %s" % (r, report))
    # ncu's second run differs from its first by 12 points: set apart
    source(n2, [("k(int)", rows_of((0.32, 0.48)))])
    source(n1, [("k(int)", rows_of((0.20, 0.60)))])
    report = []
    r = compare_where.judge_shares(compare_where.load_ours(o), compare_where.load_ncu_source(n1),
                                   1000, report, again=compare_where.load_ncu_source(n2))
    expect(r == (0, 0, 0) and any(l.startswith("share-unstable k:") for l in report) and
           "share-unstable: 1 kernels ncu did not repeat, 0 of them agree with one of its runs"
           in report, "a kernel ncu does not repeat is set apart: %s %s" % (r, report))
    # ncu repeats itself: judged as before
    report = []
    r = compare_where.judge_shares(compare_where.load_ours(o), compare_where.load_ncu_source(n1),
                                   1000, report, again=compare_where.load_ncu_source(n1))
    expect(r == (0, 1, 0), "a kernel ncu repeats is judged: %s %s" % (r, report))
    # ncu with warm caches agrees with gpuprof: still a failure, said on its line
    n3 = os.path.join(d, "n3.csv")
    source(n3, [("k(int)", rows_of((0.60, 0.20)))])
    report = []
    r = compare_where.judge_shares(compare_where.load_ours(o), compare_where.load_ncu_source(n1),
                                   1000, report, warm=compare_where.load_ncu_source(n3))
    expect(r == (0, 1, 0) and any(l.startswith("FAIL share k:") and
                                  l.endswith("against ncu --cache-control none: top barrier/"
                                             "barrier, worst share difference 0.0 points (), "
                                             "hottest 5 of 5 in common: agrees") for l in report)
           and "share-warm: 1 of the 1 kernels that differ agree with ncu --cache-control none"
           in report, "a failure that agrees with warm caches says so: %s %s" % (r, report))
    report = []
    compare_where.judge_shares(compare_where.load_ours(o), compare_where.load_ncu_source(n1),
                               1000, report, warm=compare_where.load_ncu_source(n1))
    expect("share-warm: 0 of the 1 kernels that differ agree with ncu --cache-control none"
           in report, "one that does not: %s" % report)
    # ncu in application replay agrees (its samples from the program's own
    # run, as gpuprof's): still a failure, both judgements on its line
    report = []
    r = compare_where.judge_shares(compare_where.load_ours(o), compare_where.load_ncu_source(n1),
                                   1000, report, warm=compare_where.load_ncu_source(n1),
                                   app=compare_where.load_ncu_source(n3))
    fails = [l for l in report if l.startswith("FAIL share k:")]
    expect(r == (0, 1, 0) and len(fails) == 1 and
           "; against ncu --cache-control none: top barrier/long_scoreboard" in fails[0] and
           fails[0].endswith("against ncu --replay-mode application: top barrier/barrier, worst "
                             "share difference 0.0 points (), hottest 5 of 5 in common: agrees")
           and "share-app: 1 of the 1 kernels that differ agree with ncu --replay-mode "
           "application" in report and "share-warm: 0 of the 1 kernels that differ agree with "
           "ncu --cache-control none" in report,
           "a failure that agrees with application replay says so: %s %s" % (r, report))
    # a kernel that passes is not judged against the other runs
    report = []
    compare_where.judge_shares(compare_where.load_ours(o), compare_where.load_ncu_source(n3),
                               1000, report, app=compare_where.load_ncu_source(n1))
    expect("share-app: 0 of the 0 kernels that differ agree with ncu --replay-mode application"
           in report and not any("against ncu --replay-mode" in l for l in report),
           "a kernel that agrees is judged once: %s" % report)

print("compare-where: %d passed, %d failed, 0 skipped" % (passed, failed))
sys.exit(1 if failed else 0)
