# Generator of the "why and where" fixtures in tests/data/where (run by hand from the
# repository root; tests/report/test_where_cli.sh checks that the committed files are what
# this writes).  The instruction-level records follow docs/output-format.md
# ("source_function", "source_instr", the summary's "sampling" and "results").
#
# The machine code and the line numbers are those of tests/gpu/where/stall_kernels.cu as
# recorded: nvdisasm-hex-stall_kernels.txt gives each instruction's two 64-bit words (the
# record's "code", 16 bytes an instruction, little-endian), nvdisasm-g-stall_kernels.txt its
# source line.  stall_chase's counts are Nsight Compute's own for one launch
# (ncu-source-sass-stall_chase.csv), so that the report's Nsight Compute source-page layout
# can be checked against ncu's columns; the other kernels' counts are made up, each with one
# planted problem at a known line:
#   stall_barrier  4-way bank conflicts at line 34 (LDS), barrier stalls at 33 and 35
#   stall_diverge  half-warp divergence at line 56, idle lanes in the loops of 58 and 61
#   stall_fma      math-pipe throttle at lines 20-21, and warp-state counters in its launch
#                  record (the stall verdicts' counter path)
#   stall_stream   no line information and no samples (rows are SASS instructions, ranked
#                  by instructions executed)
# where-hostile.jsonl holds what a damaged or hostile file may: control characters, bidi
# overrides, markup and formula prefixes in names, defects (impossible counts), duplicates
# and malformed records.  Launch and device records are checked against
# metrics/records/record_fields.def by the report fixtures' own check (make-fixtures.py's).
import ast
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
SRC = "tests/gpu/where/stall_kernels.cu"  # relative: readable when the report runs from the root


def load_record_check():
    """record_fields() and dumps() of tests/data/report/make-fixtures.py, without running it."""
    path = os.path.join(ROOT, "tests", "data", "report", "make-fixtures.py")
    tree = ast.parse(open(path).read(), path)
    keep = [n for n in tree.body
            if isinstance(n, (ast.Import, ast.ImportFrom))
            or (isinstance(n, ast.FunctionDef) and n.name in ("record_fields", "dumps"))
            or (isinstance(n, ast.Assign) and any(getattr(t, "id", "") in ("DEF", "FIELDS")
                                                  for t in n.targets))]
    env = {"__file__": path}
    exec(compile(ast.Module(body=keep, type_ignores=[]), path, "exec"), env)
    return env["dumps"]


dumps = load_record_check()


def stall_table():
    """ncu column -> (sampled name, not-issued column), from metrics/instructions/stall_reasons.def."""
    text = open(os.path.join(ROOT, "metrics", "instructions", "stall_reasons.def")).read()
    out = {}
    for m in re.finditer(r'^GP_STALL\((\w+), (NULL|"[^"]*"), (NULL|"[^"]*"), (NULL|"[^"]*"), '
                         r'(NULL|"[^"]*"),', text, re.M):
        sampled, ncu, ncu_ni = (None if x == "NULL" else x.strip('"')
                                for x in (m.group(2), m.group(4), m.group(5)))
        if sampled and ncu:
            out[ncu] = (sampled, ncu_ni)
    if len(out) < 18:
        sys.exit("make-where.py: stall_reasons.def not read")
    return out


def listing():
    """{function: [(pc, text, word0, word1, line)]} from the recorded listings."""
    funcs, cur = {}, None
    lines = open(os.path.join(HERE, "nvdisasm-hex-stall_kernels.txt")).read().split("\n")
    for i, l in enumerate(lines):
        m = re.match(r"^\.text\.(\w+):", l)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        if l.startswith("//----") and ".text." not in l:
            cur = None
        m = re.match(r"^\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;\s*/\* (0x[0-9a-f]{16}) \*/", l)
        if m and cur is not None:
            w1 = re.search(r"/\* (0x[0-9a-f]{16}) \*/", lines[i + 1]).group(1)
            cur.append([int(m.group(1), 16), m.group(2), int(m.group(3), 16), int(w1, 16), 0])
    cur, line = None, 0
    for l in open(os.path.join(HERE, "nvdisasm-g-stall_kernels.txt")):
        m = re.match(r"^\.text\.(\w+):", l)
        if m:
            cur, line, at = funcs[m.group(1)], 0, 0
            continue
        m = re.match(r'^\s*//## File ".*", line (\d+)', l)
        if m:
            line = int(m.group(1))
        m = re.match(r"^\s*/\*([0-9a-f]{4,})\*/", l)
        if m and cur is not None:
            while at < len(cur) and cur[at][0] != int(m.group(1), 16):
                at += 1
            if at < len(cur):
                cur[at][4] = line
    return funcs


def code_hex(ins):
    return "".join(w.to_bytes(8, "little").hex() for i in ins for w in (i[2], i[3]))


SMCLK = 1.755e9
BASE = {
    "sm__cycles_elapsed.avg.per_second": SMCLK, "dram__cycles_elapsed.avg.per_second": 2.619e9,
    "lts__cycles_elapsed.avg.per_second": SMCLK,
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained": 16896,
    "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained": 8448,
    "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained": 16896,
    "dram__bytes.sum.peak_sustained": 1280, "lts__t_bytes.sum.peak_sustained": 5120,
    "l1tex__t_bytes.sum.peak_sustained": 16896,
    "smsp__average_thread_inst_executed_per_inst_executed.ratio": 32,
    "smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio": 32,
    "sm__warps_active.avg.pct_of_peak_sustained_active": 80,
}
DEVICE = {"type": "device", "device": 0, "name": "NVIDIA H100 80GB HBM3", "chip": "GH100",
          "cc": [9, 0], "sm_count": 132, "max_threads_per_sm": 2048, "max_blocks_per_sm": 32,
          "max_warps_per_sm": 64, "warp_size": 32, "regs_per_sm": 65536,
          "max_regs_per_block": 65536, "max_regs_per_thread": 255, "reg_alloc_unit": 256,
          "warp_alloc_granularity": 4, "smem_per_sm": 233472, "smem_per_block": 49152,
          "smem_per_block_optin": 232448, "smem_reserved_per_block": 1024,
          "l2_bytes": 52428800, "mem_bus_width_bits": 5120, "mem_clock_khz": 2619000,
          "sm_clock_khz": 1980000, "dram_bytes_per_s_theoretical": 3.35232e12}
lid = [0]


def launch(kernel, grid, block, dur_ns, m, pid=5151, smem=0):
    lid[0] += 1
    mm = dict(BASE)
    mm.update({"gpu__time_duration.sum": dur_ns, "sm__cycles_elapsed.avg": dur_ns * 1e-9 * SMCLK,
               "sm__cycles_active.avg": dur_ns * 1e-9 * SMCLK * 0.98})
    mm.update(m)
    return {"type": "launch", "launch_id": lid[0], "pid": pid, "host": "h100-node", "device": 0,
            "context": 1, "stream": 7, "kernel": kernel, "mangled": kernel, "grid": grid,
            "block": block, "cluster": [1, 1, 1], "regs_per_thread": 32, "static_smem": smem,
            "dynamic_smem": 0, "local_bytes_per_thread": 0, "api": "cuLaunchKernel", "passes": 2,
            "snapshot": "device", "bytes_saved": 1048576, "bytes_restored": 1048576,
            "replay_ms": 1.5, "caches": "flushed", "metrics": mm}


def function(name, ins, sass_launches, sampled_launches, lineinfo=True, module="7c1f4e2a9b3d5e60"):
    samples = sum(i.get("samples", 0) for i in ins)
    rec = {"type": "source_function", "device": 0, "kernel": name, "mangled": name,
           "module": module, "code_bytes": len(CODE[name]) // 2, "code": CODE[name],
           "lineinfo": lineinfo}
    if not lineinfo:
        rec["lineinfo_why"] = "the module was compiled without -lineinfo"
    rec.update({"sass_launches": sass_launches, "sampled_launches": sampled_launches,
                "samples": samples,
                "samples_not_issued": sum(i.get("samples_not_issued", 0) for i in ins),
                "instructions": len(ins)})
    return rec


def instr(name, pc, line=None, module="7c1f4e2a9b3d5e60", **counts):
    rec = {"type": "source_instr", "device": 0, "module": module, "mangled": name, "pc": pc}
    if line:
        rec["file"], rec["line"] = SRC, line
    rec.update(counts)
    return rec


FUNCS = listing()
CODE = {k: code_hex(v) for k, v in FUNCS.items()}
STALLS = stall_table()


def chase_from_ncu():
    """stall_chase's instructions with Nsight Compute's counts for one launch."""
    rows = list(csv.reader(open(os.path.join(HERE, "ncu-source-sass-stall_chase.csv"))))
    head, base = rows[1], int(rows[2][0], 16)
    line_of = {i[0]: i[4] for i in FUNCS["stall_chase"]}
    out = []
    for r in rows[2:]:
        c = dict(zip(head, r))
        pc = int(c["Address"], 16) - base
        n = lambda k: int(c[k])
        if n("Instructions Executed") == 0 and n("# Samples") == 0:
            continue  # the library writes instructions with data
        rec = instr("stall_chase", pc, line_of.get(pc) or None)
        if n("Instructions Executed"):
            rec.update({"inst_executed": n("Instructions Executed"),
                        "thread_inst_executed": n("Thread Instructions Executed"),
                        "thread_inst_executed_pred_on": n("Predicated-On Thread Instructions Executed"),
                        "divergent_branches": n("Divergent Branches")})
            if c["Address Space"] == "Global":
                rec.update({"access": "global_ld" if c["Access Operation"] == "Load" else "global_st",
                            "access_bits": n("Access Size"),
                            "l1_tags_global": n("L1 Tag Requests Global"),
                            "sectors_global": n("L2 Theoretical Sectors Global"),
                            "sectors_global_ideal": n("L2 Theoretical Sectors Global Ideal")})
        rec["samples"] = n("# Samples")
        rec["samples_not_issued"] = n("Warp Stall Sampling (Not-issued Samples)")
        st = {s: n(col) for col, (s, ni) in STALLS.items() if n(col)}
        sn = {s: n(ni) for col, (s, ni) in STALLS.items() if n(ni)}
        if st:
            rec["stall"] = st
        if sn:
            rec["stall_not_issued"] = sn
        out.append(rec)
    return out


def made_up(name, launches, plant, lineinfo=True, sampled=True):
    """Counts for every instruction of name: a warp per 32 threads, 1024 loop trips on the
    lines in plant's loops; plant(pc, line, text) adds the planted problem's counts."""
    out = []
    last_exit = max(pc for pc, text, w0, w1, line in FUNCS[name] if text.endswith("EXIT"))
    for pc, text, w0, w1, line in FUNCS[name]:
        if pc > last_exit:
            continue  # the self-loop and padding after the last EXIT never run
        base = plant(pc, line, text)
        if base is None:
            continue
        inst = base.pop("inst", 8448)
        threads = base.pop("threads", 32)
        rec = instr(name, pc, line if lineinfo and line else None,
                    inst_executed=inst * launches, thread_inst_executed=threads * inst * launches,
                    thread_inst_executed_pred_on=threads * inst * launches,
                    divergent_branches=base.pop("divergent", 0) * launches)
        samples = base.pop("stall", {})
        if sampled:
            rec["samples"] = sum(samples.values())
            rec["samples_not_issued"] = sum(v for k, v in samples.items() if k != "selected")
            if samples:
                rec["stall"] = samples
                rec["stall_not_issued"] = {k: v for k, v in samples.items() if k != "selected"}
        for k, v in base.items():
            rec[k] = v * launches if isinstance(v, int) and k != "access_bits" else v
        out.append(rec)
    return out


def barrier_plant(pc, line, text):
    loop = 33 <= line <= 35 or line == 32 or line == 31
    d = {"inst": 8448 * 64 if loop else 8448}
    if "STS" in text:
        d.update({"access": "shared_st", "access_bits": 32, "wavefronts_shared": 8448 * 64,
                  "wavefronts_shared_ideal": 8448 * 64, "stall": {"mio_throttle": 40, "selected": 2}})
    elif "LDS" in text:
        d.update({"access": "shared_ld", "access_bits": 32, "wavefronts_shared": 4 * 8448 * 64,
                  "wavefronts_shared_ideal": 8448 * 64,
                  "stall": {"short_scoreboard": 150, "mio_throttle": 60, "selected": 5}})
    elif "BAR" in text:
        d["stall"] = {"barrier": 400 if line == 33 else 250, "selected": 4}
    elif "STG" in text:
        d.update({"access": "global_st", "access_bits": 32, "l1_tags_global": 8448,
                  "sectors_global": 33792, "sectors_global_ideal": 33792,
                  "stall": {"long_scoreboard": 6}})
    elif loop:
        d["stall"] = {"wait": 3, "selected": 3}
    return d


def diverge_plant(pc, line, text):
    d = {}
    if line == 58:
        d.update({"inst": 8448 * 1024, "threads": 16, "stall": {"wait": 80, "math_pipe_throttle": 10}})
    elif line == 61:
        d.update({"inst": 8448 * 512, "threads": 16, "stall": {"wait": 40, "selected": 8}})
    elif line == 56 and "BRA" in text:
        d.update({"divergent": 8448, "stall": {"branch_resolving": 30}})
    elif line == 57 or line == 60:
        d.update({"inst": 8448 * 256, "threads": 16, "stall": {"wait": 4}})
    elif "STG" in text:
        d.update({"access": "global_st", "access_bits": 32, "l1_tags_global": 8448,
                  "sectors_global": 33792, "sectors_global_ideal": 33792,
                  "stall": {"long_scoreboard": 5, "drain": 3}})
    return d


def fma_plant(pc, line, text):
    d = {}
    if line in (20, 21):
        d.update({"inst": 8448 * 4096, "stall": {"math_pipe_throttle": 300, "wait": 120,
                                                 "selected": 60}})
    elif line == 19:
        d.update({"inst": 8448 * 1024, "stall": {"wait": 10}})
    elif "STG" in text:
        d.update({"access": "global_st", "access_bits": 32, "l1_tags_global": 8448,
                  "sectors_global": 33792, "sectors_global_ideal": 33792})
    return d


def stream_plant(pc, line, text):
    d = {"inst": 8448 * 16 if 43 <= line <= 48 else 8448}
    if "LDG" in text:
        d.update({"access": "global_ld", "access_bits": 128, "l1_tags_global": 8448 * 16,
                  "sectors_global": 8448 * 16 * 16, "sectors_global_ideal": 8448 * 16 * 16})
    elif "STG" in text:
        d.update({"access": "global_st", "access_bits": 128, "l1_tags_global": 8448 * 16,
                  "sectors_global": 8448 * 16 * 16, "sectors_global_ideal": 8448 * 16 * 16})
    return d


def warpstate(**share):
    """Warp-state counters for a latency of 20 cycles between issues."""
    m = {"smsp__average_warp_latency_per_inst_issued.ratio": 20.0,
         "smsp__issue_active.avg.per_cycle_active": 0.35,
         "smsp__warps_eligible.avg.per_cycle_active": 0.6,
         "smsp__warps_active.avg.per_cycle_active": 12.0}
    for reason in ("barrier", "branch_resolving", "dispatch_stall", "drain", "gmma", "imc_miss",
                   "lg_throttle", "long_scoreboard", "math_pipe_throttle", "membar",
                   "mio_throttle", "misc", "no_instruction", "not_selected", "selected",
                   "short_scoreboard", "sleeping", "tex_throttle", "wait"):
        m["smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % reason] = \
            20.0 * share.get(reason, 0) / 100
    return m


def stall_file():
    recs = [DEVICE]
    N = 8448 * 32
    # chase: 4-byte gathers 8x wasteful (Nsight Compute's 32.9M sectors for 4.2M ideal)
    recs.append(launch("stall_chase", [8448, 1, 1], [32, 1, 1], 9.5e6,
                       {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum": 4224000 * 32 * 128 // 128,
                        "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum": N * 4,
                        "dram__bytes_read.sum": 32866531 * 32, "dram__bytes_write.sum": N * 4,
                        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct": 12.85}))
    for duration in (2.1e6, 2.0e6):  # two launches of one kernel
        recs.append(launch("stall_barrier", [8448, 1, 1], [256, 1, 1], duration,
                           {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum": 0,
                            "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum": N * 4,
                            "dram__bytes_read.sum": 0, "dram__bytes_write.sum": N * 4,
                            "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct": 62.5,
                            "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum": 5 * 8448 * 64,
                            "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum":
                                2 * 8448 * 64},
                           smem=4096))
    recs.append(launch("stall_diverge", [8448, 1, 1], [32, 1, 1], 4.0e6,
                       {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum": 0,
                        "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum": N * 4,
                        "dram__bytes_read.sum": 0, "dram__bytes_write.sum": N * 4,
                        "smsp__average_thread_inst_executed_per_inst_executed.ratio": 16.4,
                        "smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio": 16.2}))
    m = {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum": 0,
         "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum": N * 4,
         "dram__bytes_read.sum": 0, "dram__bytes_write.sum": N * 4}
    m.update(warpstate(math_pipe_throttle=45, wait=30, selected=15, not_selected=10))
    recs.append(launch("stall_fma", [8448, 1, 1], [32, 1, 1], 6.0e6, m))
    for dur in (3.1e6, 3.0e6):
        recs.append(launch("stall_stream", [1056, 1, 1], [256, 1, 1], dur,
                           {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum": 64 << 20,
                            "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum": 64 << 20,
                            "dram__bytes_read.sum": 64 << 20, "dram__bytes_write.sum": 64 << 20}))
    chase = chase_from_ncu()
    recs.append(function("stall_chase", chase, 1, 1))
    recs += chase
    barrier = made_up("stall_barrier", 2, barrier_plant)
    recs.append(function("stall_barrier", barrier, 2, 2))
    recs += barrier
    diverge = made_up("stall_diverge", 1, diverge_plant)
    recs.append(function("stall_diverge", diverge, 1, 1))
    recs += diverge
    fma = made_up("stall_fma", 1, fma_plant)
    recs.append(function("stall_fma", fma, 1, 1))
    recs += fma
    stream = made_up("stall_stream", 2, stream_plant, lineinfo=False, sampled=False)
    recs.append(function("stall_stream", stream, 2, 0, lineinfo=False))
    recs += stream
    samples = sum(r.get("samples", 0) for r in recs if r["type"] == "source_function")
    recs.append({"type": "summary", "launches_seen": 7, "launches_profiled": 7,
                 "launches_failed": 0, "launches_reduced": 0,
                 "sampling": {"state": "on", "interval_cycles": 2048, "launches": 5,
                              "samples": samples + 40, "dropped": 12, "non_user": 28,
                              "starts": 1, "start_ms": 4.1, "stop_ms": 1.2},
                 "results": {"valid": True}})
    return recs


def hostile_file():
    """Names and counts a damaged or hostile file may hold; every one must come out escaped,
    bounded, or as one message."""
    recs = [DEVICE]
    evil = "ev\u202eil\x1b[31m<script>alert(1)</script>"
    k1 = "=cmd|' /C calc'!A0,\"x\""
    recs.append(launch(k1, [132, 1, 1], [128, 1, 1], 1.0e6,
                       {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum": 1 << 20,
                        "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum": 1 << 20,
                        "dram__bytes_read.sum": 1 << 20, "dram__bytes_write.sum": 1 << 20,
                        "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct": 25.0},
                       pid=6161))
    code = CODE["stall_fma"]
    f = {"type": "source_function", "device": 0, "kernel": k1, "mangled": "m\u0007angled",
         "module": "0123456789abcdef", "code_bytes": len(code) // 2, "code": code,
         "lineinfo": True, "sass_launches": 1, "sampled_launches": 1, "samples": 100,
         "samples_not_issued": 60, "instructions": 9}
    recs.append(f)
    files = ["/nonexistent/dir/" + evil + ".cu",      # missing, and hostile
             "src/\x01\x7f\u2028bad\ud800.cu",         # control characters, separator, lone surrogate
             "/etc/passwd",                              # not a source file: never read
             "tests/gpu/where",                          # a directory
             "a,b\"c\n=d.cu"]                            # CSV-hostile
    def ins(pc, **kw):
        r = {"type": "source_instr", "device": 0, "module": "0123456789abcdef",
             "mangled": "m\u0007angled", "pc": pc}
        r.update(kw)
        return r
    recs.append(ins(0x00, file=files[0], line=3, inst_executed=100, thread_inst_executed=3200,
                    thread_inst_executed_pred_on=3200, samples=40, samples_not_issued=30,
                    stall={"long_scoreboard": 30, "a_future_reason": 10},
                    stall_not_issued={"long_scoreboard": 30}, access="global_ld", access_bits=32,
                    sectors_global=400, sectors_global_ideal=100, l1_tags_global=100))
    # defects: ideal above actual; more threads than 32 a warp; samples not adding up
    recs.append(ins(0x10, file=files[1], line=7, inst_executed=100, thread_inst_executed=3200,
                    thread_inst_executed_pred_on=3200, access="global_ld", access_bits=32,
                    sectors_global=100, sectors_global_ideal=400, samples=20,
                    samples_not_issued=10, stall={"mio_throttle": 20}))
    recs.append(ins(0x20, file=files[2], line=1, inst_executed=10, thread_inst_executed=9999,
                    thread_inst_executed_pred_on=3200, samples=20, samples_not_issued=25,
                    stall={"wait": 5}, wavefronts_shared=10, wavefronts_shared_ideal=20,
                    access="shared_ld"))
    recs.append(ins(0x30, file=files[3], line=2, inst_executed=10, thread_inst_executed=320,
                    thread_inst_executed_pred_on=320, samples=10, samples_not_issued=0,
                    stall={"selected": 10}, access="quantum_ld"))
    recs.append(ins(0x40, file=files[4], line=5, inst_executed=10, thread_inst_executed=320,
                    thread_inst_executed_pred_on=320, samples=10, samples_not_issued=10,
                    stall={"\u202e\x1b[2J": 10}))
    # malformed: each one message, the record skipped
    recs.append(ins(0x00, file=files[0], line=3, inst_executed=1))          # duplicate
    recs.append(ins(0x50, inst_executed=-5))                                # negative
    recs.append(ins(0x60, file=files[0]))                                   # file without line
    recs.append(ins(len(code) // 2 + 16, inst_executed=1))                  # beyond the code
    recs.append(ins(0x70, inst_executed=float("1e300")))                    # not a count
    recs.append(ins(0x80, stall={"wait": "many"}))                          # not a number
    recs.append({"type": "source_instr", "device": 0, "module": "ffff", "mangled": "nobody",
                 "pc": 0, "inst_executed": 1})                              # no function
    recs.append(dict(f))                                                    # duplicate function
    bad = dict(f, code="zz" + code[2:])                                     # not hex
    bad["mangled"] = "other"
    recs.append(bad)
    recs.append(dict(f, mangled="odd", code=code[:-1]))                     # odd digits
    recs.append({"type": "summary", "sampling": {"state": "off",
                 "why": "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES \x1b[31m<b>"}, "results":
                 {"valid": False, "from_launch": 7, "kernel": evil, "reason": "a pass left the "
                  "context unusable \u202e"}})
    return recs


def bytes_file():
    """Names holding bytes that are not UTF-8 (written raw, as JSON allows no escape for
    them): "@FF@" and "@C0@" stand for the bytes 0xff and 0xc0."""
    recs = [DEVICE, launch("k@C0@(int)", [132, 1, 1], [128, 1, 1], 1.0e6,
                           {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum": 1 << 20,
                            "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum": 1 << 20,
                            "dram__bytes_read.sum": 1 << 20, "dram__bytes_write.sum": 1 << 20},
                           pid=7171)]
    recs.append({"type": "source_function", "device": 0, "kernel": "k@C0@(int)",
                 "mangled": "k@FF@", "module": "0123456789abcdef", "code_bytes": 32,
                 "code": None, "code_why": "no code @FF@", "lineinfo": True,
                 "sass_launches": 1, "sampled_launches": 1, "samples": 10,
                 "samples_not_issued": 5, "instructions": 2})
    for pc, line in ((0, 3), (16, 4)):
        recs.append({"type": "source_instr", "device": 0, "module": "0123456789abcdef",
                     "mangled": "k@FF@", "pc": pc, "file": "src/@FF@bad@C0@.cu", "line": line,
                     "inst_executed": 10, "thread_inst_executed": 320,
                     "thread_inst_executed_pred_on": 320, "samples": 5,
                     "samples_not_issued": 5 if pc else 0,
                     "stall": {"wait" if pc else "r@FF@": 5},
                     "stall_not_issued": {"wait": 5} if pc else {}})
    return recs


def write(name, recs):
    with open(os.path.join("tests", "data", "where", name), "wb") as f:
        for r in recs:
            # malformed records are written as they are: the check is for good ones
            if r["type"] in ("device", "launch"):
                line = dumps(r)
            else:
                line = json.dumps(r, separators=(",", ":"))
            f.write(line.encode().replace(b"@FF@", b"\xff").replace(b"@C0@", b"\xc0") + b"\n")


write("where-stall.jsonl", stall_file())
write("where-hostile.jsonl", hostile_file())
write("where-bytes.jsonl", bytes_file())
