#!/usr/bin/env python3
"""check_estimates.py - replay mode none's estimates against kernel replay's
per-launch values of the same program (tests/gpu/replay_none.sh).

    check_estimates.py [--partial] [--per-launch] NONE.jsonl DEFAULT.jsonl FIXED_KERNEL DRIFT_KERNEL
    check_estimates.py --ncu [--one-pass ALONE.csv] [--partial] NONE.jsonl NCU.csv FIXED_KERNEL DRIFT_KERNEL
    (either form may add --stepped)

For each variant_estimate record of NONE.jsonl (kernel, grid, block, dynamic
shared memory) the launch records of DEFAULT.jsonl with the same key are the
truth: the sum of each additive counter over them, the mean of a rate, ratio
or percentage.  Variants of FIXED_KERNEL (same work each launch): each
estimate within 2% of the truth (1 point for a percentage; bytes as the
cross-check judges them, 5% or 64 KiB a launch: DRAM write-backs of a few
hundred bytes are noise; times and cycles 5%, what two runs of kernels of a
few microseconds differ by) on at least 99% of the (variant, metric) pairs.  Variants of DRIFT_KERNEL: the difference within
the printed bound on at least 95% of the pairs (an exact match needs none).  Every variant launched at
least as many times as it has configurations: every metric valued (with
--partial, for a run of a share of the launches that a short program cannot
take round every configuration: every null metric has its reason).
--per-launch: NONE.jsonl comes from a longer run of the same program than
DEFAULT.jsonl; the truth of FIXED_KERNEL is then its mean launch in
DEFAULT.jsonl times the estimate's launches, and an estimate agrees when it
is within 2% (as above) or within its printed bound (a duration or a cycle
count differs between two runs by about as much); DRIFT_KERNEL ("-": none)
is not compared (its work depends on the run's length).
--ncu: the truth is Nsight Compute's raw page of the same program (ncu
--csv --page raw --print-units base, the same metric list, every launch):
its rows are matched to a variant by the kernel's function name, grid and
block (ncu's table has no dynamic shared memory column unless asked for; a
variant is then keyed without it), and the same rules apply.  A variant with
another number of ncu rows than launches fails; a metric ncu has no column
for is not compared.
--one-pass ALONE.csv (with --ncu): ncu's run of the metrics whose value
follows its own pass count (DRAM writes, DRAM throughput, L2 bytes: alone,
ncu profiles them in one pass) over the same launches; its values are the
truth for those metrics, as the cross-check takes them (gpuprof-report
--against-one-pass).  The verdict with the whole list's values for every
metric is printed beside it as a FIGURES line.
--stepped: the list has metrics no one-pass configuration takes; each
variant must have a configuration of several passes (collected over its
successive launches, one pass each) that completed at least once.
Prints one line per check (PASS/FAIL) and the figures; exits 1 on a FAIL.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "xcheck"))
from compare import load_ncu, short_name  # noqa: E402  (the cross-check's ncu reader)

CLOCKED = re.compile(r"cycles|duration|per_second")

NOT_ADDITIVE = (".per_second", ".ratio", ".pct", "peak_sustained", ".per_")


def additive(name):
    return not any(s in name for s in NOT_ADDITIVE)


def records(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def key(r):
    return (r["kernel"], tuple(r["grid"]), tuple(r["block"]), r.get("dynamic_smem", 0))


def ncu_key(kernel, grid, block):
    return (short_name(kernel), tuple(grid), tuple(block))


def dims(text):
    """ncu's "(4096, 1, 1)" as [4096, 1, 1] (None when it is not that)."""
    try:
        v = [int(x) for x in text.strip().strip("()").split(",")]
    except (ValueError, AttributeError):
        return None
    return v if len(v) == 3 else None


def two_runs(m, t, n):
    """What two runs of the same n launches may differ by in metric m whose
    truth is t: 2% (1 point for a percentage, `.pct` or `pct_of_peak_*`);
    bytes as the cross-check judges them, 5% or 64 KiB a launch (DRAM write-backs of a few hundred
    bytes are noise); times and cycles 5% (kernels of a few microseconds:
    ncu against itself differs by 256 ns at the 95th percentile)."""
    if m.endswith(".pct") or "pct_of_peak" in m:  # a percentage: 1 point
        return 1.0
    if "bytes" in m:
        return max(0.05 * abs(t), 65536.0 * n)
    if CLOCKED.search(m):
        return 0.05 * abs(t)
    return 0.02 * abs(t)


def ncu_truth(path):
    """Nsight Compute's rows by (function name, grid, block): per row the
    numeric metrics (None where ncu printed n/a)."""
    truth = {}
    for row in load_ncu(path):
        grid, block = dims(row["raw"].get("Grid Size")), dims(row["raw"].get("Block Size"))
        if grid is None or block is None:
            continue
        values = {m: v for m, v in row["values"].items() if "__" in m}
        truth.setdefault(ncu_key(row["kernel"], grid, block), []).append(values)
    return truth


def new_stats():
    return {"fixed_pairs": 0, "fixed_ok": 0, "drift_pairs": 0, "drift_ok": 0,
            "drift_ok_runs": 0, "worst": []}


def with_one_pass(truth, one):
    """truth with each metric of ncu's one-pass run (the metrics whose value
    follows ncu's pass count: DRAM writes, DRAM throughput, L2 bytes, as the
    cross-check takes them) in place of the full list's, where the run has
    the variant's launches (the same number of rows)."""
    out = {}
    for k, rows in truth.items():
        alone = one.get(k)
        if not alone or len(alone) != len(rows):
            out[k] = rows
            continue
        out[k] = [dict(r, **{m: v for m, v in a.items() if v is not None})
                  for r, a in zip(rows, alone)]
    return out


def judge_pairs(e, launches, st, from_ncu, per_launch, fixed, drift):
    """Judges estimate e's metrics against the launches' values, into st."""
    if not launches:
        return
    is_fixed = e["kernel"].startswith(fixed)
    is_drift = e["kernel"].startswith(drift)
    for m, est in e["metrics"].items():
        if from_ncu and m not in launches[0]:
            continue  # ncu has no column for it (gpuprof's own sums)
        vals = [l.get(m) for l in launches]
        if est is None or any(v is None for v in vals) or not vals:
            continue
        t = sum(vals) if additive(m) else sum(vals) / len(vals)
        if per_launch and additive(m):
            t = t / len(vals) * e["launches"]
        diff = abs(est - t)
        # the floor of bytes is per launch: those the estimate covers
        lim = two_runs(m, t, e["launches"] if per_launch else len(vals))
        if is_fixed:
            st["fixed_pairs"] += 1
            good = diff <= lim + 1e-9
            if per_launch and not good:
                b = e["bound"].get(m)
                good = b is not None and diff <= b + 1e-9 * abs(t)
            st["fixed_ok"] += good
            if not good:
                st["worst"].append((diff / max(abs(t), 1e-30), e["kernel"][:30], m, est, t, None))
        elif is_drift:
            st["drift_pairs"] += 1
            b = e["bound"].get(m)
            good = diff <= 1e-9 * abs(t) or (b is not None and diff <= b + 1e-9 * abs(t))
            st["drift_ok"] += good
            # the truth comes from another run: the bound widened by what
            # two runs of the same launches differ by (a second figure)
            st["drift_ok_runs"] += good or (b is not None and diff <= b + lim + 1e-9 * abs(t))
            if not good:
                st["worst"].append((diff / max(abs(t), 1e-30), e["kernel"][:30], m, est, t, b))


def main(argv):
    partial = "--partial" in argv
    per_launch = "--per-launch" in argv
    from_ncu = "--ncu" in argv
    stepped = "--stepped" in argv
    one_pass = None
    if "--one-pass" in argv:
        i = argv.index("--one-pass")
        if i + 1 >= len(argv):
            print("--one-pass needs a file", file=sys.stderr)
            return 2
        one_pass = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    argv = [a for a in argv if a not in ("--partial", "--per-launch", "--ncu", "--stepped")]
    if len(argv) != 5 or (one_pass and not from_ncu):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    none_path, default_path, fixed, drift = argv[1:]
    estimates = [r for r in records(none_path) if r.get("type") == "variant_estimate"]
    truth = {}
    same_list = None  # with --one-pass: the full list's truth, for a second figure
    if from_ncu:
        truth = ncu_truth(default_path)
        if one_pass:
            same_list = truth
            truth = with_one_pass(truth, ncu_truth(one_pass))
    else:
        for r in records(default_path):
            if r.get("type") == "launch":
                truth.setdefault(key(r), []).append(r["metrics"])
    failed = 0

    def check(ok, what):
        nonlocal failed
        print(("PASS " if ok else "FAIL ") + what)
        failed += not ok

    check(len(estimates) > 0, "variant_estimate records: %d" % len(estimates))
    stats = {"": new_stats(), "same list": new_stats()}
    for e in estimates:
        k = ncu_key(e["kernel"], e["grid"], e["block"]) if from_ncu else key(e)
        launches = truth.get(k, [])
        n_conf = len(e.get("configurations", []))
        nulls = [m for m, v in e["metrics"].items() if v is None]
        if stepped:
            several = [c for c in e.get("configurations", []) if c.get("passes", 1) > 1]
            done = sum(c["launches"] for c in several)
            check(several and done > 0,
                  "%s %s: %s" % (e["kernel"][:40], list(e["grid"]),
                                 "; ".join("configuration %d of %d passes collected %d times "
                                           "over its launches %d-%d" % (
                                               c["configuration"], c["passes"], c["launches"],
                                               c["first"], c["last"]) for c in several)
                                 if several else "no configuration of several passes"))
        if partial:
            why = e.get("missing") or {}
            check(all(why.get(m) for m in nulls),
                  "%s %s: %d of %d metrics valued, every null with its reason (%d launches, "
                  "%d unprofiled)" % (e["kernel"][:40], list(e["grid"]),
                                       len(e["metrics"]) - len(nulls), len(e["metrics"]),
                                       e["launches"], e.get("unprofiled_launches", 0)))
        elif e["launches"] >= max(n_conf, 1):
            check(not nulls, "%s %s: every metric valued (%d launches, %d configurations)%s"
                  % (e["kernel"][:40], list(e["grid"]), e["launches"], n_conf,
                     "" if not nulls else "; null: " + ", ".join(nulls[:5])))
        if per_launch:
            if not launches or not e["kernel"].startswith(fixed):
                continue
        elif len(launches) != e["launches"]:
            check(False, "%s: %d launches estimated, %d launch records in %s"
                  % (e["kernel"][:40], e["launches"], len(launches),
                     "ncu's table" if from_ncu else "kernel replay"))
            continue
        judge_pairs(e, launches, stats[""], from_ncu, per_launch, fixed, drift)
        if same_list is not None:
            judge_pairs(e, same_list.get(k, []), stats["same list"], from_ncu, per_launch, fixed,
                        drift)
    st = stats[""]
    fixed_pairs, fixed_ok, worst = st["fixed_pairs"], st["fixed_ok"], st["worst"]
    drift_pairs, drift_ok, drift_ok_runs = st["drift_pairs"], st["drift_ok"], st["drift_ok_runs"]
    if fixed_pairs:
        share = 100.0 * fixed_ok / fixed_pairs
        check(share >= 99.0, "identical launches: %d of %d (variant, metric) pairs within 2%% "
              "(1 point for percentages): %.1f%% (>= 99%%)" % (fixed_ok, fixed_pairs, share))
    else:
        check(False, "no estimate of %s to compare" % fixed)
    if drift_pairs and not per_launch:
        share = 100.0 * drift_ok / drift_pairs
        check(share >= 95.0, "drifting launches: %d of %d pairs within the printed bound: "
              "%.1f%% (>= 95%%)" % (drift_ok, drift_pairs, share))
        print("FIGURES drifting launches: %d of %d pairs (%.1f%%) within the bound plus what two "
              "runs of the same launches differ by (the identical launches' tolerance)"
              % (drift_ok_runs, drift_pairs, 100.0 * drift_ok_runs / drift_pairs))
        sl = stats["same list"]
        if same_list is not None and sl["drift_pairs"] and sl["fixed_pairs"]:
            print("FIGURES against ncu's run of the whole list for every metric (no one-pass "
                  "run): identical launches %d of %d, drifting launches %d of %d within the "
                  "printed bound" % (sl["fixed_ok"], sl["fixed_pairs"], sl["drift_ok"],
                                     sl["drift_pairs"]))
    elif not per_launch:
        check(False, "no estimate of %s to compare" % drift)
    for w in sorted(worst, reverse=True)[:10]:
        print("  off by %.2f%%: %s %s estimate %.6g truth %.6g bound %s"
              % (100 * w[0], w[1], w[2], w[3], w[4], w[5]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
