#!/usr/bin/env python3
"""test_compare_where.py - compare_where.py's judging of warp-state ratios on
made-up files: within 5% or 0.05 agrees; a pair ncu's second run does not
repeat is set apart (not judged, counted, said with whether gpuprof agrees
with the first run); without the second run every pair is judged."""
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
    report = []
    got = compare_where.judge_ratios(ws, load_ncu(first), report)
    expect(got == (1, 2, 0), "without it every pair is judged: %s" % (got,))
    expect(not any("unstable" in l for l in report), "no pair set apart: %s" % report)

print("compare-where: %d passed, %d failed, 0 skipped" % (passed, failed))
sys.exit(1 if failed else 0)
