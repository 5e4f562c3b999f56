# Generator of tests/data/details fixtures (run by hand from the repository root;
# tests/report/test_details_cli.sh checks that the files are what this writes).
#   h100-full.jsonl  a `gpuprof --set full` run on an H100 as the library writes it:
#                    every launch's "sections" names the full set and its metrics hold a
#                    value for each row of the details page sections.def collects, so the
#                    page's values can be checked by hand: three launches, two of one
#                    kernel (its summary: min, max, average), one with a null metric and
#                    its reason, one with a hostile process name
# The rows are read from metrics/ncu/sections.def (the literal GP_NCU_ROW lines of the
# page's rows); each metric gets a value from its name, some fixed below to values whose
# Nsight Compute display is known (Duration 19.58 us, DRAM Frequency 3.19 Ghz, ...).
import json
import os
import re
import sys
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
ROW = re.compile(r'^GP_NCU_ROW\("(\w+)", (HEAD|BODY), "([^"]*)", "([^"]+)", "([^"]*)", "([^"]*)"', re.M)
SET = re.compile(r'^GP_NCU_SET\("full", "([^"]*)"', re.M)

text = open(os.path.join(ROOT, "metrics", "ncu", "sections.def")).read()
full = SET.search(text).group(1).split()
rows = [m.groups() for m in ROW.finditer(text)]
plain = [r[3] for r in rows if r[0] in full and r[5] == ""]
formula_inputs = ["smsp__inst_executed.sum"]  # SourceCounters' branch ratio

# values Nsight Compute printed for an H100 kernel (its details page), so that the page
# shows the same text: hopper_w8a16_split_k_mosaic_gpu_kernel
FIXED = {
    "dram__cycles_elapsed.avg.per_second": 3.19e9,
    "gpc__cycles_elapsed.avg.per_second": 1.78e9,
    "gpc__cycles_elapsed.max": 35069,
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": 65.48,
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed": 65.48,
    "gpu__time_duration.sum": 19580,
    "l1tex__throughput.avg.pct_of_peak_sustained_active": 31.32,
    "lts__throughput.avg.pct_of_peak_sustained_elapsed": 68.34,
    "sm__cycles_active.avg": 28175.42,
    "sm__throughput.avg.pct_of_peak_sustained_elapsed": 54.04,
    "dram__bytes.sum.per_second": 3.14e12,
    "sm__warps_active.avg.pct_of_peak_sustained_active": 37.66,
    "sm__warps_active.avg.per_cycle_active": 24.10,
    "smsp__inst_executed_op_branch.sum": 81920,
    "smsp__inst_executed.sum": 1024000,
}

def value(name, launch):
    if name in FIXED:
        v = FIXED[name]
    else:
        v = (zlib.crc32(name.encode()) % 100000) / 100.0
        if name.endswith(".pct") or "pct_of_peak" in name:
            v = v % 100
    # the second launch of the kernel: half as long, everything else +10%
    if launch == 1:
        v = v / 2 if name == "gpu__time_duration.sum" else v * 1.1
    return round(v, 4)

device = {"type": "device", "device": 0, "name": "NVIDIA H100 80GB HBM3", "chip": "GH100",
          "cc": [9, 0], "sm_count": 132, "max_threads_per_sm": 2048, "max_blocks_per_sm": 32,
          "max_warps_per_sm": 64, "warp_size": 32, "regs_per_sm": 65536,
          "max_regs_per_block": 65536, "max_regs_per_thread": 255, "reg_alloc_unit": 256,
          "warp_alloc_granularity": 4, "smem_per_sm": 233472, "smem_per_block": 49152,
          "smem_per_block_optin": 232448, "smem_reserved_per_block": 1024,
          "l2_bytes": 52428800, "mem_bus_width_bits": 5120, "mem_clock_khz": 2619000,
          "sm_clock_khz": 1980000, "dram_bytes_per_s_theoretical": 3352320000000.0}

def launch(i, kernel, grid, block, regs, dyn, static, process="app", pid=4242, null=None):
    names = list(dict.fromkeys(plain + formula_inputs))
    m = {n: value(n, i) for n in names}
    rec = {"type": "launch", "launch_id": i + 1, "pid": pid, "host": "h100-node",
           "process": process, "device": 0, "context": 1, "stream": 14, "kernel": kernel,
           "mangled": "_Z" + kernel.split("(")[0], "grid": grid, "block": block,
           "cluster": [1, 1, 1], "regs_per_thread": regs, "static_smem": static,
           "dynamic_smem": dyn, "local_bytes_per_thread": 0, "api": "cuLaunchKernel",
           "passes": 39, "snapshot": "device", "bytes_saved": 1048576,
           "bytes_restored": 1048576, "replay_ms": 210.5, "caches": "flushed",
           "sections": ",".join(sorted(full)), "metrics": m}
    if null:
        m[null[0]] = None
        rec["missing"] = {null[0]: null[1]}
    return rec

recs = [device,
        launch(0, "split_k_kernel(float const*, float*)", [896, 1, 1], [128, 1, 1], 63, 30736, 1),
        launch(1, "split_k_kernel(float const*, float*)", [896, 1, 1], [128, 1, 1], 63, 30736, 1,
               null=("lts__t_sector_hit_rate.pct", "no L2 requests (0 sectors)")),
        launch(2, "reduce_kernel(float*)", [224, 1, 1], [128, 1, 1], 21, 0, 0,
               process="app\x1b[31mred", pid=4243)]
out = os.path.join("tests", "data", "details", "h100-full.jsonl")
with open(out, "w") as f:
    for r in recs:
        f.write(json.dumps(r, separators=(",", ":")) + "\n")
