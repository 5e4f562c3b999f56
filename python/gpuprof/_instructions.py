"""Reading the instruction-level records of gpuprof's JSON-lines files ("source_function" and
"source_instr", docs/output-format.md): one row per SASS instruction with data."""

import collections
import warnings

from . import _sqlite
from ._load import _Seen, _as_frame, _distinct, _launch_key, _estimate_key, _paths, _records, _say_skipped, _scalar

# Fields of the function joined to each of its instructions.
_FUNCTION_FIELDS = ("kernel", "mangled", "module", "code_bytes", "lineinfo", "sass_launches",
                    "sampled_launches")
# Counts of an instruction (absent in the record: None, never 0).
_COUNTS = ("inst_executed", "thread_inst_executed", "thread_inst_executed_pred_on",
           "divergent_branches", "l1_tags_global", "sectors_global", "sectors_global_ideal",
           "wavefronts_shared", "wavefronts_shared_ideal", "samples", "samples_not_issued")
# Counts of the SASS pass: sums over the function's sass_launches.
_SASS = _COUNTS[:9]


def _minus(a, b):
    return None if a is None or b is None else a - b


def _number(v):
    return v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))


def _malformed(rec):
    """Why an instruction-level record cannot be used, or None (a hostile
    line is skipped and counted, never an exception)."""
    for k in ("device", "module", "mangled", "kernel", "file", "line", "access", "pc"):
        if not _scalar(rec.get(k)):
            return "a malformed record (%s)" % k
    for k in _COUNTS + ("sass_launches",):
        if not _number(rec.get(k)):
            return "a malformed record (%s)" % k
    for k in ("stall", "stall_not_issued"):
        v = rec.get(k)
        if v is not None and (not isinstance(v, dict) or not all(map(_number, v.values()))):
            return "a malformed record (%s)" % k
    return None


def _rows_of_file(path, seen):
    devices, functions, rows = {}, {}, []
    bad = collections.Counter()
    seen.new_process()
    for lineno, rec, line in _records(path, raw=True):
        kind = rec.get("type")
        if kind in ("device", "source_function", "source_instr") and _malformed(rec):
            bad[_malformed(rec)] += 1
            continue
        # the report's rule for a process read twice: its launch records
        # repeat earlier ones, and its instruction-level records (which name
        # no process) are left out with them
        if kind in ("launch", "variant_estimate") and _scalar(rec.get("host")):
            seen.first(path, _launch_key(rec) if kind == "launch" else _estimate_key(rec), line)
            continue
        if kind in ("source_function", "source_instr") and seen.process_repeated():
            seen.repeats[path] += 1
            continue
        if kind == "device":
            devices[rec.get("device")] = rec.get("name")
        elif kind == "summary":
            seen.new_process()
            functions = {}  # the next process's functions are its own
        elif kind == "source_function":
            functions[(rec.get("device"), rec.get("module"), rec.get("mangled"))] = rec
        elif kind == "source_instr":
            fn = functions.get((rec.get("device"), rec.get("module"), rec.get("mangled")))
            if fn is None:
                bad["a source_instr without its source_function"] += 1
                continue
            row = {"file": path, "device": rec.get("device"),
                   "device_name": devices.get(rec.get("device"))}
            for k in _FUNCTION_FIELDS:
                row[k] = fn.get(k)
            row["pc"] = rec.get("pc")
            row["source_file"] = rec.get("file")
            row["line"] = rec.get("line")
            row["access"] = rec.get("access")
            row["access_bits"] = rec.get("access_bits")
            for k in _COUNTS:
                row[k] = rec.get(k)
            launches = fn.get("sass_launches") or 0
            for k in _SASS:
                v = rec.get(k)
                row[k + "_per_launch"] = v / launches if v is not None and launches else None
            row["excess_sectors"] = _minus(rec.get("sectors_global"),
                                           rec.get("sectors_global_ideal"))
            row["conflict_wavefronts"] = _minus(rec.get("wavefronts_shared"),
                                                rec.get("wavefronts_shared_ideal"))
            for reason, v in (rec.get("stall") or {}).items():
                row["stall_" + reason] = v
            for reason, v in (rec.get("stall_not_issued") or {}).items():
                row["stall_not_issued_" + reason] = v
            rows.append(row)
    _say_skipped(path, bad, "record")
    return rows


def load_instructions(paths, as_frame=None):
    """One row per SASS instruction with data ("source_instr" records) of the given JSON-lines
    files (a path, a glob pattern, or a list of them), with its function's fields joined:
    kernel (demangled name), mangled, module, code_bytes, lineinfo, sass_launches,
    sampled_launches, and device, device_name.

    Columns: pc, source_file and line (None without line information), access, access_bits,
    the counts as recorded (inst_executed, thread_inst_executed, ... : sums over the
    function's sass_launches; samples, samples_not_issued: sums over its sampled launches),
    the SASS counts per launch (inst_executed_per_launch, ...), excess_sectors and
    conflict_wavefronts (actual less ideal), and stall_<reason> and
    stall_not_issued_<reason> for each stall reason with samples.  A count the record does
    not have is None (NaN in pandas), never 0; an instruction without a stall reason's
    column had no sample of it.

    as_frame: None: a pandas DataFrame when pandas is installed, else a list of dicts;
    True: a DataFrame (ImportError without pandas); False: a list of dicts."""
    files = _distinct(_paths(paths))
    if any(_sqlite.is_db(f) for f in files):  # databases: _sqlite.py
        return _as_frame(_sqlite.merge(files, _sqlite.instruction_rows,
                                       lambda fs: load_instructions(fs, False)), as_frame)
    rows = []
    seen = _Seen()
    for path in files:
        rows.extend(_rows_of_file(path, seen))
    seen.say("launch, variant_estimate or instruction-level")
    return _as_frame(rows, as_frame)
