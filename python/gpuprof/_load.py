"""Reading gpuprof's JSON-lines files and joining the report's derived metrics."""

import glob
import json
import os
import shutil
import subprocess
import warnings

from . import _sqlite

# Launch-record fields that are [x, y, z]: one column per axis.
_DIM3 = ("grid", "block", "cluster")
# Device-record fields that are not facts of the device.
_NOT_FACTS = ("type", "schema", "device")


class ReportNotFound(RuntimeError):
    """gpuprof-report, which computes the derived metrics, was not found."""


def _paths(paths):
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out = []
    for p in paths:
        p = os.fspath(p)
        hits = sorted(glob.glob(p)) if any(c in p for c in "*?[") else [p]
        if not hits:
            raise FileNotFoundError("no file matches %r" % p)
        out.extend(hits)
    if not out:
        raise ValueError("no input file given")
    return out


def find_report(report=None):
    """The gpuprof-report executable: `report`, $GPUPROF_REPORT, the build
    directory of this repository, or the PATH.  Raises ReportNotFound."""
    if report is not None:
        if os.path.isfile(report) and os.access(report, os.X_OK):
            return os.path.abspath(report)
        raise ReportNotFound("%s is not an executable gpuprof-report" % report)
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.environ.get("GPUPROF_REPORT"),
                  os.path.join(here, "..", "..", "build", "gpuprof-report"),
                  shutil.which("gpuprof-report")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    raise ReportNotFound(
        "gpuprof-report not found (give report=PATH, set GPUPROF_REPORT, or build it with make)")


def load_report(paths, report=None, peaks=None):
    """The report of the files as a dict: `gpuprof-report --format json`
    (schema "gpuprof-report/1": devices, kernels with their metrics, verdicts
    and roofline, and every launch's derived metrics under "launch_metrics")."""
    cmd = [find_report(report), "--format", "json"]
    if peaks:
        cmd += ["--peaks", os.fspath(peaks)]
    cmd += _paths(paths)
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         universal_newlines=True)
    if run.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s"
                           % (" ".join(cmd), run.returncode, run.stderr.strip()))
    return json.loads(run.stdout)


def _records(path):
    """(line number, record) of each JSON line of a file; a malformed line is
    said and skipped."""
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                yield lineno, json.loads(line)
            except ValueError as e:
                warnings.warn("%s:%d: malformed JSON (%s); line skipped" % (path, lineno, e))


def _as_frame(rows, as_frame):
    """rows as load() returns them: a DataFrame when pandas is there (or
    as_frame is True), the list itself when as_frame is False."""
    if as_frame is False:
        return rows
    try:
        import pandas
    except ImportError:
        if as_frame:
            raise
        return rows
    return pandas.DataFrame(rows)


def _typed_records(path, kind):
    """(record, the columns of its device's facts) for each record of type
    kind in path, the device being the last device record before it."""
    devices = {}
    for lineno, rec in _records(path):
        t = rec.get("type")
        if t == "device":
            devices[rec.get("device")] = {
                "device_" + k: v for k, v in rec.items() if k not in _NOT_FACTS}
        elif t == kind:
            yield rec, devices.get(rec.get("device"), {})


def _flat_row(path, rec):
    """A row of rec's own fields (not type, schema or metrics), grid, block
    and cluster one column per axis, with the file it came from."""
    row = {"file": path}
    for k, v in rec.items():
        if k in ("type", "schema", "metrics"):
            continue
        if k in _DIM3 and isinstance(v, list):
            for axis, x in zip("xyz", v):
                row["%s_%s" % (k, axis)] = x
        else:
            row[k] = v
    return row


def _rows_of_file(path):
    rows = []
    for rec, device in _typed_records(path, "launch"):
        row = _flat_row(path, rec)
        row.setdefault("missing", {})
        row.setdefault("rank", None)
        row.update(rec.get("metrics") or {})
        row.update(device)
        rows.append(row)
    return rows


# variant_estimate fields kept as they are (not metric columns)
_ESTIMATE_LISTS = ("configurations", "bound", "collected", "missing")


def _estimates_of_file(path):
    rows = []
    for rec, device in _typed_records(path, "variant_estimate"):
        row = _flat_row(path, rec)
        for k in _ESTIMATE_LISTS:
            row.setdefault(k, {} if k != "configurations" else [])
        row.setdefault("estimated", True)
        row.update(rec.get("metrics") or {})
        for k, v in (rec.get("bound") or {}).items():
            row["bound_" + k] = v
        row.update(device)
        rows.append(row)
    return rows


def load_estimates(paths, as_frame=None, derived=False, report=None, peaks=None):
    """One row per kernel variant estimated in replay mode none (the
    ``variant_estimate`` records of the given files; files of both modes may
    be mixed, launch records are left to load()).

    Each row has the variant (kernel, grid_x.., block_x.., dynamic_smem),
    ``launches`` (N, all launches of the variant), ``exact_launches`` (those
    profiled in kernel replay, which also have launch records),
    ``unprofiled_launches`` (those that ran outside the profiler's share of
    the run, counted only), ``estimated``
    (True), one column per metric with its estimate (the total over the N
    launches for counts and times; the mean launch's value for rates, ratios
    and percentages), ``bound_<metric>`` (its error bound, same unit),
    ``collected`` (launches that gave each metric), ``configurations`` (per
    configuration: kind, launches, first and last launch ordinal),
    ``missing`` (the reason of each null) and the device's facts.  A metric
    no launch collected is None with its reason, never 0.

    derived: join the report's derived metrics of each variant's mean launch
    (``duration``, ``dram_util``, ...) with their bounds (``bound_<name>``),
    as ``gpuprof-report --format json`` computes them (its "estimates")."""
    files = _paths(paths)
    if any(_sqlite.is_db(f) for f in files):  # databases: _sqlite.py
        return _as_frame(_sqlite.merge(files, lambda f: _sqlite.estimate_rows(f, derived),
                                       lambda fs: load_estimates(fs, False, derived, report,
                                                                 peaks)), as_frame)
    rows = []
    for path in files:
        rows.extend(_estimates_of_file(path))
    if derived and rows:
        doc = load_report(files, report=report, peaks=peaks)
        by_key = {}
        for e in doc.get("estimates", []):
            key = (e.get("kernel"), tuple(e.get("grid") or ()), tuple(e.get("block") or ()),
                   e.get("dynamic_smem"))
            by_key.setdefault(key, e)
        for row in rows:
            key = (row.get("kernel"), (row.get("grid_x"), row.get("grid_y"), row.get("grid_z")),
                   (row.get("block_x"), row.get("block_y"), row.get("block_z")),
                   row.get("dynamic_smem"))
            e = by_key.get(key)
            if e is None:
                continue
            for k, v in (e.get("metrics") or {}).items():
                row["derived_" + k if k in row else k] = v
            for k, v in (e.get("bound") or {}).items():
                row["bound_" + k] = v
    return _as_frame(rows, as_frame)


def load(paths, report=None, derived=True, as_frame=None, peaks=None):
    """One row per profiled launch of the given JSON-lines files (a path, a
    glob pattern, or a list of them).

    derived:  join the report's derived metrics per launch (needs
              gpuprof-report: `report`, $GPUPROF_REPORT, this repository's
              build/, or the PATH; when it is not found a warning says so and
              the rows have the raw metrics only).
    as_frame: None: a pandas DataFrame when pandas is installed, else a list
              of dicts; True: a DataFrame (ImportError without pandas);
              False: a list of dicts.
    peaks:    a gpupeak peaks file for the measured-ceiling metrics.
    """
    files = _paths(paths)
    if any(_sqlite.is_db(f) for f in files):  # databases: _sqlite.py
        return _as_frame(_sqlite.merge(files, lambda f: _sqlite.launch_rows(f, derived),
                                       lambda fs: load(fs, report, derived, False, peaks)),
                         as_frame)
    rows = []
    for path in files:
        rows.extend(_rows_of_file(path))
    if derived:
        try:
            doc = load_report(files, report=report, peaks=peaks)
        except ReportNotFound as e:
            warnings.warn("%s; the rows have the raw metrics only" % e)
            doc = None
        if doc is not None:
            per_launch = {}
            for lm in doc.get("launch_metrics", []):
                key = (lm.get("host"), lm.get("pid"), lm.get("launch_id"))
                per_launch[key] = lm
            for row in rows:
                lm = per_launch.get((row.get("host"), row.get("pid"), row.get("launch_id")))
                if lm is None:
                    continue
                row["name"] = lm.get("name")
                row["kernel_rank"] = lm.get("kernel_rank")
                for k, v in (lm.get("metrics") or {}).items():
                    row["derived_" + k if k in row else k] = v
    return _as_frame(rows, as_frame)
