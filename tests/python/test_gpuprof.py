"""Tests of the Python loader (python/gpuprof) on the report fixtures; run by
tests/python/test_python.sh.  Prints "python: N passed, N failed, N skipped"."""

import os
import sys
import types
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import gpuprof  # noqa: E402

sys.path.insert(0, HERE)
from harness import check, finish, skip  # noqa: E402,F401

FIX = os.path.join(ROOT, "tests", "data", "report")
PLANTED = os.path.join(FIX, "h100-planted.jsonl")
PCIE = os.path.join(FIX, "h100-pcie-rank1.jsonl")

def by_kernel(rows, prefix):
    return [r for r in rows if r["kernel"].startswith(prefix)]


# replay mode none: a file holding a launch record and a variant_estimate record
NONE = os.path.join(FIX, "none-mode.jsonl")
est = gpuprof.load_estimates(NONE, as_frame=False)
check(len(est) == 1 and est[0]["estimated"] is True and est[0]["launches"] == 200,
      "one variant estimate of 200 launches")
check(est[0]["gpu__time_duration.sum"] == 200 * 180000 and
      abs(est[0]["bound_gpu__time_duration.sum"] - 360000) < 1e-6, "estimated total and its bound")
check(est[0]["sm__cycles_elapsed.max"] is None and
      est[0]["missing"]["sm__cycles_elapsed.max"].startswith("configuration 3 not collected"),
      "a metric no launch collected is None with its reason")
check(est[0]["device_sm_count"] == 132 and est[0]["grid_x"] == 262144, "device facts and shape")
check([c["kind"] for c in est[0]["configurations"]] == ["counters", "instrumented", "sass"],
      "configurations and their kinds")
both = gpuprof.load(NONE, as_frame=False, derived=False)
check(len(both) == 1 and both[0]["launch_id"] == est[0]["first_launch_id"],
      "records of both modes load together: the exact first launch is a launch row")
check(gpuprof.load_estimates(PLANTED, as_frame=False) == [], "no estimates in a kernel-replay file")
estd = gpuprof.load_estimates(NONE, as_frame=False, derived=True)
check(abs(estd[0]["duration"] - 180e-6) < 1e-12 and abs(estd[0]["bound_duration"] - 1.8e-6) < 1e-9,
      "derived metrics of the mean launch with bounds: %r %r"
      % (estd[0].get("duration"), estd[0].get("bound_duration")))

# one row per launch, metrics as columns, device facts joined, derived metrics per launch
rows = gpuprof.load(PLANTED, as_frame=False)
check(isinstance(rows, list) and len(rows) == 12, "12 launches, got %d" % len(rows))
saxpy = by_kernel(rows, "saxpy_4x4")[0]
check(saxpy["gpu__time_duration.sum"] == 180000, "raw metric column")
check(saxpy["device_name"] == "NVIDIA H100 80GB HBM3" and saxpy["device_sm_count"] == 132,
      "device facts joined")
check((saxpy["grid_x"], saxpy["block_x"], saxpy["block_y"]) == (4096, 4, 4), "grid/block columns")
check(saxpy["name"] == "saxpy_4x4" and saxpy["achieved_occupancy"] == 47.5,
      "derived metrics joined: name %r, achieved_occupancy %r"
      % (saxpy.get("name"), saxpy.get("achieved_occupancy")))
check(abs(saxpy["theoretical_occupancy"] - 50.0) < 1e-9, "theoretical occupancy of 4x4 blocks")
tiny = by_kernel(rows, "tiny_kernel")
check(len(tiny) == 3 and sorted(r["achieved_occupancy"] for r in tiny) == [60.0, 70.0, 80.0],
      "per launch, not per kernel: %r" % [r.get("achieved_occupancy") for r in tiny])
reduce = by_kernel(rows, "reduce_partial")[0]
check(reduce["rf_g"] is None and reduce["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"] is None,
      "n/a is None, never 0")
check("CUPTI_ERROR_NOT_SUPPORTED" in reduce["missing"]["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"],
      "the reason of a missing value")

# two hosts' device 0: each launch gets its own process's device
rows = gpuprof.load([PLANTED, PCIE], as_frame=False)
pcie = [r for r in rows if r["host"] == "pcie-node"]
check(len(rows) == 14 and len(pcie) == 2, "two files: %d rows" % len(rows))
check(all(r["device_name"] == "NVIDIA H100 PCIe" and r["device_sm_count"] == 114 and r["rank"] == 1
          and r["process"] == "copy_app" for r in pcie), "the PCIe host's device and rank")
check(all(r["rank"] is None for r in rows if r["host"] == "h100-node"), "no rank: None")
check(len(gpuprof.load([PLANTED, os.path.join(FIX, "h100-se*.jsonl")], as_frame=False,
                       derived=False)) == 13, "a glob pattern")

# without the report tool: raw metrics, and a warning that says so
raw = gpuprof.load(PLANTED, as_frame=False, derived=False)
check("achieved_occupancy" not in raw[0] and "sm__warps_active.avg.pct_of_peak_sustained_active" in raw[0],
      "derived=False: raw metrics only")
import gpuprof._load as L  # noqa: E402
check(os.path.isfile(gpuprof.find_report()), "find_report finds the one built here")
try:
    gpuprof.find_report("/nonexistent/gpuprof-report")
    check(False, "an explicit report path that does not exist is an error")
except gpuprof.ReportNotFound as e:
    check("/nonexistent/gpuprof-report" in str(e), "the error names the path")
try:
    orig = L.find_report

    def missing(report=None):
        raise gpuprof.ReportNotFound("gpuprof-report not found (test)")
    L.find_report = missing
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        rows = gpuprof.load(PLANTED, as_frame=False)
    check(len(rows) == 12 and "achieved_occupancy" not in rows[0], "no report tool: raw rows")
    check(any("raw metrics only" in str(x.message) for x in w), "no report tool: a warning")
finally:
    L.find_report = orig

# the report itself
doc = gpuprof.load_report(PLANTED)
check(doc["schema"] == "gpuprof-report/1" and doc["kernels"][0]["name"] == "one_block"
      and doc["kernels"][0]["verdicts"][0]["id"] == "few_blocks", "load_report")
try:
    gpuprof.load(os.path.join(FIX, "no-such-file.jsonl"))
    check(False, "a missing file raises")
except (FileNotFoundError, RuntimeError):
    check(True, "")

# pandas: a DataFrame when installed; the list otherwise, and as_frame=True says so
try:
    import pandas  # noqa: F401
    have_pandas = True
except ImportError:
    have_pandas = False
if have_pandas:
    df = gpuprof.load(PLANTED)
    check(df.shape[0] == 12 and "dram__bytes_read.sum" in df.columns and "device_name" in df.columns,
          "DataFrame: %r" % (df.shape,))
    check(df.loc[df.kernel.str.startswith("reduce_partial"), "rf_g"].isna().all(), "n/a is NaN")
else:
    rows = gpuprof.load(PLANTED)
    check(isinstance(rows, list) and len(rows) == 12, "no pandas: a list of dicts")
    try:
        gpuprof.load(PLANTED, as_frame=True)
        check(False, "as_frame=True without pandas raises ImportError")
    except ImportError:
        check(True, "")
    # the DataFrame path, with a stand-in module that records what it is given
    fake = types.ModuleType("pandas")
    fake.DataFrame = lambda rows: ("frame", rows)
    sys.modules["pandas"] = fake
    got = gpuprof.load(PLANTED)
    del sys.modules["pandas"]
    check(got[0] == "frame" and len(got[1]) == 12, "the rows become a DataFrame when pandas is there")
    skip("a real pandas DataFrame", "pandas is not installed")

# hostile input: the loader is as strict and as bounded as the report; a bad
# line is skipped with a count (one warning per file saying how many and
# why), never an exception
import json  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402

TMP = tempfile.mkdtemp()
with open(PLANTED, "rb") as f:
    planted_lines = f.read().splitlines(True)
device_line = [l for l in planted_lines if b'"type":"device"' in l.replace(b" ", b"")][0]
launch_line = [l for l in planted_lines if b'"type":"launch"' in l.replace(b" ", b"")][0]


def write(name, lines):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(b"".join(lines))
    return path


def loaded(fn, *args, **kw):
    """(result or the exception, the warnings' texts)"""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            got = fn(*args, **kw)
        except Exception as e:  # noqa: BLE001
            got = e
    return got, [str(x.message) for x in w]


bad_lines = {
    "null": b"null\n",
    "deep": b'{"type":"launch","x":' + b"[" * 100 + b"]" * 100 + b"}\n",
    "very deep": b'{"type":"launch","x":' + b"[" * 200000 + b"]" * 200000 + b"}\n",
    "Infinity": launch_line.replace(b'"launch_id":', b'"inf":Infinity,"launch_id":'),
    "NaN": launch_line.replace(b'"launch_id":', b'"nan":NaN,"launch_id":'),
    "1e999": launch_line.replace(b'"launch_id":', b'"big":-1e999,"launch_id":'),
    "huge int": launch_line.replace(b'"launch_id":', b'"big":1' + b"0" * 400 + b',"launch_id":'),
    "repeated key": launch_line.replace(b'"launch_id":', b'"pid":1,"pid":2,"launch_id":'),
    "not json": b"{\xff\n",
    "list": b"[1,2]\n",
    "metrics a list": b'{"type":"launch","launch_id":99,"metrics":[1]}\n',
    "pid a list": b'{"type":"launch","launch_id":99,"pid":[1],"metrics":{}}\n',
}
for what, line in bad_lines.items():
    path = write("bad.jsonl", [device_line, line, launch_line])
    got, w = loaded(gpuprof.load, path, as_frame=False, derived=False)
    check(isinstance(got, list) and len(got) == 1 and any("1 line skipped" in x or "1 record skipped" in x
                                                          for x in w),
          "a %s line: %r, warnings %r" % (what, got if not isinstance(got, list) else len(got), w))
# bytes that are not UTF-8 in a name are kept as the report keeps them (U+FFFD)
got, w = loaded(gpuprof.load, os.path.join(FIX, "hostile", "utf8_bad.jsonl"), as_frame=False, derived=False)
check(isinstance(got, list) and len(got) == 1 and "\ufffd" in got[0]["kernel"], "invalid UTF-8 in a name: %r" % (got,))
got, w = loaded(gpuprof.load_instructions, os.path.join(ROOT, "tests", "data", "where", "where-bytes.jsonl"),
                as_frame=False)
check(isinstance(got, list) and len(got) > 0, "load_instructions of names with stray bytes: %r" % (got,))
# a line over the limit is dropped without being held (the limit made small here)
import gpuprof._load as L2  # noqa: E402
old = L2.MAX_LINE
try:
    L2.MAX_LINE = 4096
    path = write("long.jsonl", [device_line, b'{"type":"launch","x":"' + b"a" * 100000 + b'"}\n', launch_line])
    got, w = loaded(gpuprof.load, path, as_frame=False, derived=False)
    check(isinstance(got, list) and len(got) == 1 and any("longer than 4096 bytes" in x for x in w),
          "a line over the limit: %r %r" % (got, w))
finally:
    L2.MAX_LINE = old
# only regular files and pipes: /dev/zero refused, a FIFO nobody writes does
# not block, a FIFO with a writer is read
got, w = loaded(gpuprof.load, "/dev/zero", as_frame=False, derived=False)
check(isinstance(got, OSError) and "character device" in str(got), "/dev/zero: %r" % (got,))
fifo = os.path.join(TMP, "fifo.jsonl")
os.mkfifo(fifo)
result = []
t = threading.Thread(target=lambda: result.append(loaded(gpuprof.load, fifo, as_frame=False)))
t.daemon = True
t.start()
t.join(20)
check(not t.is_alive() and result and result[0][0] == [], "a FIFO without a writer: %r" % (result,))


def feed():
    with open(fifo, "wb") as f:
        f.write(device_line + launch_line)


writer = threading.Thread(target=feed)
writer.daemon = True
writer.start()
import time  # noqa: E402
time.sleep(0.3)  # the writer waits in open() for a reader
got, w = loaded(gpuprof.load, fifo, as_frame=False, derived=False)
writer.join(20)
check(isinstance(got, list) and len(got) == 1, "a FIFO with a writer: %r" % (got,))

# two runs whose processes had the same id: each launch joined to its own
# file's derived metrics, never the other's
a = write("runA.jsonl", [device_line, launch_line])
b = write("runB.jsonl", [device_line, launch_line.replace(b'"gpu__time_duration.sum":', b'"gpu__time_duration.sum":9')
                         .replace(b'"gpu__time_duration.sum": ', b'"gpu__time_duration.sum": 9')])
got, w = loaded(gpuprof.load, [a, b], as_frame=False)
check(isinstance(got, list) and len(got) == 2 and
      all(abs(r["duration"] - r["gpu__time_duration.sum"] * 1e-9) < 1e-15 for r in got),
      "same pid, two runs: %r" % ([(r.get("gpu__time_duration.sum"), r.get("duration")) for r in got]
                                  if isinstance(got, list) else got))
# a record read twice (the same file twice, a line copied) is counted once
# and said; the report's rule
got, w = loaded(gpuprof.load, [PLANTED, PLANTED], as_frame=False)
check(isinstance(got, list) and len(got) == 12 and any("again: read once" in x for x in w)
      and all("achieved_occupancy" in r for r in got),
      "the same file twice: %r rows, %r" % (len(got) if isinstance(got, list) else got, w))
copy = write("copy.jsonl", planted_lines)
got, w = loaded(gpuprof.load, [PLANTED, copy], as_frame=False, derived=False)
check(isinstance(got, list) and len(got) == 12 and any("12 launch records repeat" in x for x in w),
      "a copy of a file: %r rows, %r" % (len(got) if isinstance(got, list) else got, w))
where = os.path.join(ROOT, "tests", "data", "where", "where-stall.jsonl")
with open(where, "rb") as f:
    wcopy = write("where-copy.jsonl", [f.read()])
one, _ = loaded(gpuprof.load_instructions, where, as_frame=False)
two, w = loaded(gpuprof.load_instructions, [where, wcopy], as_frame=False)
check(isinstance(two, list) and len(two) == len(one) > 0 and any("repeat" in x for x in w),
      "instruction records of a process read twice: %r rows, want %r" % (
          len(two) if isinstance(two, list) else two, len(one)))
other = write("where-other.jsonl", [open(where, "rb").read().replace(b'"pid":5151', b'"pid":5152')])
two, w = loaded(gpuprof.load_instructions, [where, other], as_frame=False)
check(isinstance(two, list) and len(two) == 2 * len(one), "two processes' instruction records: %r"
      % (len(two) if isinstance(two, list) else two))
path = write("twice.jsonl", [device_line, launch_line, launch_line])
got, w = loaded(gpuprof.load, path, as_frame=False)
check(isinstance(got, list) and len(got) == 1 and any("1 launch record repeats" in x for x in w),
      "a launch line repeated: %r %r" % (got if not isinstance(got, list) else len(got), w))
with open(NONE, "rb") as f:
    none_lines = f.read().splitlines(True)
est_line = [l for l in none_lines if b"variant_estimate" in l][0]
path = write("est3.jsonl", none_lines + [est_line, est_line])
got, w = loaded(gpuprof.load_estimates, path, as_frame=False)
check(isinstance(got, list) and len(got) == 1 and got[0]["launches"] == 200 and
      any("2 variant_estimate records repeat" in x for x in w), "a variant estimate three times: %r" % (got,))

finish("python")
