"""Tests of gpuprof.load_instructions on the "why and where" fixtures (tests/data/where); run
by tests/python/test_python_where.sh.  Prints "python-where: N passed, N failed, N skipped"."""

import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import gpuprof  # noqa: E402

sys.path.insert(0, HERE)
from harness import check, finish, skip  # noqa: E402,F401

FIX = os.path.join(ROOT, "tests", "data", "where")
STALL = os.path.join(FIX, "where-stall.jsonl")

rows = gpuprof.load_instructions(STALL, as_frame=False)
check(isinstance(rows, list) and len(rows) == 810, "one row per source_instr, got %d" % len(rows))
chase = [r for r in rows if r["kernel"] == "stall_chase"]
check(len(chase) == 120, "stall_chase's 120 records")
ldg = [r for r in chase if r["pc"] == 0x1b0]
check(len(ldg) == 1, "the LDG at 0x1b0")
if ldg:
    r = ldg[0]
    # Nsight Compute's own numbers for that instruction (ncu-source-sass-stall_chase.csv)
    check(r["source_file"] == "tests/gpu/where/stall_kernels.cu" and r["line"] == 11, "its line")
    check(r["inst_executed"] == 1056000 and r["sectors_global"] == 32866531, "its counts")
    check(r["excess_sectors"] == 28642531, "excess sectors %r" % r["excess_sectors"])
    check(r["stall_wait"] == 30 and r["stall_selected"] == 10 and r["samples"] == 40,
          "its stall reasons")
    check(r["stall_not_issued_wait"] == 29, "not-issued samples")
    check(r["device_name"] == "NVIDIA H100 80GB HBM3" and r["access"] == "global_ld",
          "device and access")
# per launch: stall_barrier ran its SASS pass twice
bar = [r for r in rows if r["kernel"] == "stall_barrier" and r["inst_executed"]]
check(bar and all(r["inst_executed_per_launch"] == r["inst_executed"] / 2 for r in bar),
      "per launch divides by sass_launches")
# absent is None, never 0: stall_stream has no samples and no line information
stream = [r for r in rows if r["kernel"] == "stall_stream"]
check(stream and all(r["samples"] is None and r["line"] is None for r in stream),
      "absent counts and lines are None")
check(all(r["conflict_wavefronts"] is None for r in chase), "no shared access: None")
# a second process's functions are its own: records are kept apart, both joined
import tempfile  # noqa: E402
other = os.path.join(tempfile.mkdtemp(), "other.jsonl")
with open(STALL, "rb") as f, open(other, "wb") as g:
    g.write(f.read().replace(b'"pid":5151', b'"pid":5152'))
twice = gpuprof.load_instructions([STALL, other], as_frame=False)
check(len(twice) == 2 * len(rows), "two processes' files, twice the rows")
# the same file twice is read once (the report's rule)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    once = gpuprof.load_instructions([STALL, STALL], as_frame=False)
check(len(once) == len(rows) and any("read once" in str(x.message) for x in w),
      "the same file twice: read once")
# a record without its function: a warning, skipped
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    hostile = gpuprof.load_instructions(os.path.join(FIX, "where-hostile.jsonl"), as_frame=False)
check(any("without its source_function" in str(x.message) for x in w), "orphan record warned")
check(any(r["pc"] == 0x10 and r["sectors_global_ideal"] == 400 for r in hostile),
      "the records as written (defects are the report's to judge)")
try:
    import pandas  # noqa: F401
    df = gpuprof.load_instructions(STALL)
    check(len(df) == 810 and "stall_long_scoreboard" in df.columns, "a DataFrame")
except ImportError:
    skip("a real pandas DataFrame", "pandas is not installed")
    check(isinstance(gpuprof.load_instructions(STALL), list), "a list without pandas")

finish("python-where")
