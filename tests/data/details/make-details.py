# Generator of tests/data/details/h100-full.jsonl (run by hand from the repository root;
# tests/report/test_details_cli.sh checks that the file is what this writes): a
# `gpuprof --set full` run on an H100 as the library writes it.  Its first two launches are
# the two launches of fill_f32 that Nsight Compute 2025.3.1 profiled with --set full on an
# H100 SXM (cuBLAS's test program, build/tests/gpu/xcheck/libs blas): each metric of a row
# of the details page that sections.def has gpuprof collect holds the value ncu printed in
# base units (ncu-fill_f32.details-base.csv), so gpuprof-report's pages of these launches
# must print what ncu printed (ncu-fill_f32.details.txt, .details.csv, .summary.txt) for
# every row gpuprof has.  The third launch, of another kernel and process, has made-up
# values, a null metric with its reason and a process name with an escape sequence.
import csv
import json
import os
import re
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
HERE = os.path.join("tests", "data", "details")
ROW = re.compile(r'^GP_NCU_ROW\("(\w+)", HEAD, "([^"]*)", "([^"]+)", "([^"]*)", "([^"]*)"', re.M)
SET = re.compile(r'^GP_NCU_SET\("full", "([^"]*)"', re.M)
SEC = re.compile(r'^GP_NCU_SECTION\("(\w+)", "([^"]*)"', re.M)
text = open(os.path.join(ROOT, "metrics", "ncu", "sections.def")).read()
full = SET.search(text).group(1).split()
display = {m.group(1): m.group(2) for m in SEC.finditer(text)}
plain = {(m.group(2), m.group(1)): m.group(3) for m in ROW.finditer(text)
         if m.group(1) in full and m.group(5) == ""}
# the counters the Source Counters' branch ratio reads, from the rows that show them
also = {"smsp__inst_executed.sum": ("Executed Instructions", "Instruction Statistics"),
        "smsp__inst_executed_op_branch.sum": ("Branch Instructions", "Source Counters")}

def ncu_launches():
    rows = list(csv.reader(open(os.path.join(HERE, "ncu-fill_f32.details-base.csv"))))
    head, out = rows[0], {}
    for r in rows[1:]:
        d = dict(zip(head, r))
        if d.get("Metric Name"):
            out.setdefault(d["ID"], {})[(d["Metric Name"], d["Section Name"])] = d["Metric Value"]
    return out

def num(s):
    return float(s.replace(",", ""))

device = {"type": "device", "device": 0, "name": "NVIDIA H100 80GB HBM3", "chip": "GH100",
          "cc": [9, 0], "sm_count": 132, "max_threads_per_sm": 2048, "max_blocks_per_sm": 32,
          "max_warps_per_sm": 64, "warp_size": 32, "regs_per_sm": 65536,
          "max_regs_per_block": 65536, "max_regs_per_thread": 255, "reg_alloc_unit": 256,
          "warp_alloc_granularity": 4, "smem_per_sm": 233472, "smem_per_block": 49152,
          "smem_per_block_optin": 232448, "smem_reserved_per_block": 1024,
          "l2_bytes": 52428800, "mem_bus_width_bits": 5120, "mem_clock_khz": 2619000,
          "sm_clock_khz": 1980000, "dram_bytes_per_s_theoretical": 3352320000000.0}

def launch(i, pid, process, kernel, grid, block, regs, dyn, metrics, missing=None):
    rec = {"type": "launch", "launch_id": i + 1, "pid": pid, "host": "127.0.0.1",
           "process": process, "device": 0, "context": 1, "stream": 7, "kernel": kernel,
           "mangled": "_Z" + kernel.split("(")[0], "grid": grid, "block": block,
           "cluster": [1, 1, 1], "regs_per_thread": regs, "static_smem": 0,
           "dynamic_smem": dyn, "local_bytes_per_thread": 0, "api": "cuLaunchKernel",
           "passes": 39, "snapshot": "device", "bytes_saved": 1048576,
           "bytes_restored": 1048576, "replay_ms": 210.5, "caches": "flushed",
           "sections": ",".join(sorted(full)), "metrics": metrics}
    if missing:
        rec["missing"] = missing
    return rec

recs = [device]
ncu = ncu_launches()
names = sorted(set(plain.values()) | set(also))
for i in ("0", "1"):
    vals = ncu[i]
    m = {}
    for (label, sec), metric in sorted(plain.items()):
        if (label, display[sec]) in vals:
            m[metric] = num(vals[(label, display[sec])])
    for metric, key in also.items():
        m[metric] = num(vals[key])
    recs.append(launch(int(i), 759, "libs", "fill_f32(float *, unsigned long, unsigned int)",
                       [256, 1, 1], [256, 1, 1], 18, 0, m))
# made-up values for another kernel of another process, one of them null
m = {n: round((zlib.crc32(n.encode()) % 100000) / 1000.0, 3) for n in names}
m["lts__t_sector_hit_rate.pct"] = None
recs.append(launch(2, 760, "app\x1b[31mred", "reduce_kernel(float*)", [224, 1, 1], [128, 1, 1],
                   21, 30736, m, {"lts__t_sector_hit_rate.pct": "no L2 requests (0 sectors)"}))
with open(os.path.join(HERE, "h100-full.jsonl"), "w") as f:
    for r in recs:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
