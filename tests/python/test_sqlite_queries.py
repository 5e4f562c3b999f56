"""The five example queries of docs/database.md, each run on a database of the test fixtures
and its result checked against what the JSON report (or the study's kernels.json, or the
loader) says.  Called by test_sqlite.py."""
import json
import math
import os
import shutil
import sqlite3
import subprocess

import gpuprof
from harness import check

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DATA = os.path.join(ROOT, "tests", "data")


def close(a, b):
    return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def report_json(report, files):
    run = subprocess.run([report, "--format", "json"] + files, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    return json.loads(run.stdout.decode("utf-8"))


def study(report, tmp):
    """characterize's study.db of the fixture suite (shell programs that copy the report's
    fixtures where the profiler would write; no GPU needed)."""
    tool = os.path.join(os.path.dirname(report), "gpuprof-characterize")
    base = os.path.join(tmp, "study")
    os.makedirs(os.path.join(base, "work"))
    shutil.copy(os.path.join(DATA, "characterize", "fixture.suite"), base)
    for f in ("h100-planted.jsonl", "h100-second.jsonl"):
        shutil.copy(os.path.join(DATA, "report", f), os.path.join(base, "work"))
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="0")
    env.pop("LD_PRELOAD", None)
    subprocess.run([tool, "run", "--no-gpu-check", os.path.join(base, "fixture.suite"), "-o",
                    os.path.join(base, "out")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                   env=env)
    return os.path.join(base, "out", "summary")


def run(queries, report, tmp):
    planted = os.path.join(DATA, "report", "h100-planted.jsonl")
    db = os.path.join(tmp, "rt0.db")  # test_sqlite.py made it from planted
    con = sqlite3.connect(db)
    doc = report_json(report, [planted])

    # 1. top kernels by time
    rows = con.execute(queries["1"]).fetchall()
    want = sorted(doc["kernels"], key=lambda k: (-k["metrics"]["duration"], k["rank"]))[:10]
    check(len(rows) == len(want) and all(
        r[0] == k["rank"] and r[1] == k["name"] and r[2] == k["launches"] and
        close(r[3], k["metrics"]["duration"]) and close(r[4], k["time_share_pct"]) and
        r[5] == (k["verdicts"][0]["label"] if k["verdicts"] else None)
        for r, k in zip(rows, want)), "query 1 (top kernels) against the JSON report: %s" % rows[:2])

    # 2. each program's DRAM utilization, in a study
    summary = study(report, tmp)
    scon = sqlite3.connect(os.path.join(summary, "study.db"))
    rows = scon.execute(queries["2"]).fetchall()
    with open(os.path.join(summary, "kernels.json")) as f:
        kj = json.load(f)
    want = {}
    for k in kj["kernels"]:
        m = k["metrics"]
        if m["dram_util"] is not None and m["duration"] is not None:
            s = want.setdefault(k["program"], [0.0, 0.0, 0])
            s[0] += m["dram_util"] * m["duration"]
            s[1] += m["duration"]
            s[2] += 1
    got = {r[0]: (r[1], r[2]) for r in rows}
    check(len(got) == 2 and set(got) == set(want) and all(
        close(got[p][0], want[p][0] / want[p][1]) and got[p][1] == want[p][2] for p in want),
        "query 2 (a program's DRAM utilization) against kernels.json: %s / %s" % (got, want))
    prog = dict(scon.execute("SELECT name, status FROM programs"))
    check(prog.get("defect") == "profiler_defect" and prog.get("kernels-planted") == "ok" and len(prog) == 11,
          "study.db's programs table: %s" % prog)
    scon.close()

    # 3. the hottest lines of a kernel
    where = os.path.join(tmp, "where.db")
    wcon = sqlite3.connect(where)
    rows = wcon.execute(queries["3"]).fetchall()
    agg = {}
    for r in gpuprof.load_instructions(os.path.join(DATA, "where", "recorded-h200-stall.jsonl"),
                                       as_frame=False):
        if r["kernel"] == "stall_chase" and r["line"] is not None:
            a = agg.setdefault((r["source_file"], r["line"]), [0, 0])
            a[0] += r["samples"] or 0
            a[1] += r["inst_executed"] or 0
    best = sorted(agg.items(), key=lambda x: -x[1][0])[:5]
    check(len(rows) == len(best) > 0 and all(
        (r[0], r[1]) == k and r[2] == v[0] and r[3] == v[1] for r, (k, v) in zip(rows, best)),
        "query 3 (hottest lines) against load_instructions: %s / %s" % (rows[:2], best[:2]))
    wcon.close()

    # 4. one kernel's launches
    rows = con.execute(queries["4"]).fetchall()
    durs = [r["gpu__time_duration.sum"] for r in gpuprof.load(planted, as_frame=False)
            if r["name"] == "tiny_kernel"]
    check(len(durs) == 3 and rows[0][0] == 3 and close(rows[0][1], min(durs)) and
          close(rows[0][2], sum(durs) / 3) and close(rows[0][3], max(durs)),
          "query 4 (one kernel's launches) against the loader: %s / %s" % (rows, durs))

    # 5. uncoalesced, worst first
    rows = con.execute(queries["5"]).fetchall()
    want = sorted(((k["name"], v["label"], v["score"]) for k in doc["kernels"]
                   for v in k["verdicts"] if v["id"] == "uncoalesced"), key=lambda x: -x[2])
    check(len(rows) == len(want) > 0 and all(
        r[0] is None and r[1] == w[0] and r[2] == w[1] and close(r[3], w[2])
        for r, w in zip(rows, want)), "query 5 (uncoalesced) against the JSON report: %s / %s"
          % (rows, want))
    con.close()
