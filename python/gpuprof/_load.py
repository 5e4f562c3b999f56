"""Reading gpuprof's JSON-lines files and joining the report's derived metrics."""

import collections
import errno
import glob
import json
import math
import os
import shutil
import stat
import subprocess
import sys
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


# The report's bounds (metrics/load.h, metrics/json.h): a file of at most
# MAX_FILE bytes, lines of at most MAX_LINE bytes, values nested at most
# MAX_DEPTH deep.  A line beyond them is skipped, as the report skips it.
MAX_FILE = 16 << 30
MAX_LINE = 32 << 20
MAX_DEPTH = 64


class _BadLine(ValueError):
    """A line the report refuses too; str() is the reason counted."""


def _open_input(path):
    """A binary stream of path: a regular file or a pipe only.  A FIFO is
    opened without waiting for a writer (one nobody writes reads as empty
    instead of blocking forever); a device (/dev/zero, a terminal), a
    directory or a socket is refused with OSError, as the report refuses it."""
    if path == "-":
        return os.fdopen(os.dup(0), "rb")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) |
                 getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
            kind = ("a directory" if stat.S_ISDIR(st.st_mode) else
                    "a character device" if stat.S_ISCHR(st.st_mode) else
                    "a block device" if stat.S_ISBLK(st.st_mode) else
                    "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
            raise OSError(errno.EINVAL, "cannot read %s: it is %s, not a regular file or a pipe"
                          % (path, kind))
        if stat.S_ISREG(st.st_mode) and st.st_size > MAX_FILE:
            raise OSError(errno.EFBIG, "cannot read %s: it is larger than %d bytes"
                          % (path, MAX_FILE))
        os.set_blocking(fd, True)  # reads wait for a slow writer again
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _lines(path, skipped):
    """(line number, bytes) of each non-empty line of path, at most MAX_LINE
    bytes each (a longer line is read and dropped, never held whole, and
    counted in skipped), MAX_FILE bytes in all."""
    got = 0
    with _open_input(path) as f:
        lineno = 0
        while True:
            line = f.readline(MAX_LINE + 1)
            if not line:
                return
            lineno += 1
            got += len(line)
            if got > MAX_FILE:
                raise OSError(errno.EFBIG, "cannot read %s: it is larger than %d bytes"
                              % (path, MAX_FILE))
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):  # the rest of the long line
                    line = f.readline(MAX_LINE + 1)
                    got += len(line)
                    if got > MAX_FILE:
                        raise OSError(errno.EFBIG, "cannot read %s: it is larger than %d bytes"
                                      % (path, MAX_FILE))
                skipped["longer than %d bytes" % MAX_LINE] += 1
                continue
            line = line.strip()
            if line:
                yield lineno, line


def _no_constant(name):
    raise _BadLine("NaN or Infinity")


def _finite_float(text):
    v = float(text)
    if math.isinf(v):  # 1e999: an infinity the report refuses
        raise _BadLine("a number beyond the double range")
    return v


def _bounded_int(text):
    v = int(text)
    if abs(v) > sys.float_info.max:
        raise _BadLine("a number beyond the double range")
    return v


def _no_repeat(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise _BadLine("a repeated key")
        d[k] = v
    return d


def _depth_ok(value):
    """Whether value is nested at most MAX_DEPTH deep (the report's limit)."""
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            if d > MAX_DEPTH:
                return False
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return True


def _parse(line):
    """A record from a line's bytes, as strict as the report: an object, no
    NaN or Infinity token, no number beyond the double range, no
    key twice in an object, nesting at most MAX_DEPTH deep.  Raises _BadLine
    with the reason."""
    # bytes that are not UTF-8 in a string become U+FFFD, as the report's
    # JSON writes them (the report reads such a name); elsewhere they make
    # the line malformed
    text = line.decode("utf-8", errors="replace")
    try:
        rec = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float,
                         parse_int=_bounded_int, object_pairs_hook=_no_repeat)
    except _BadLine:
        raise
    except RecursionError:
        raise _BadLine("nested deeper than %d" % MAX_DEPTH)
    except ValueError:
        raise _BadLine("malformed JSON")
    if not isinstance(rec, dict):
        raise _BadLine("not a JSON object")
    if not _depth_ok(rec):
        raise _BadLine("nested deeper than %d" % MAX_DEPTH)
    return rec


def _say_skipped(path, skipped, what="line"):
    """One warning naming how many lines of path were skipped, and why."""
    n = sum(skipped.values())
    if n:
        warnings.warn("%s: %d %s%s skipped (%s)" % (
            path, n, what, "" if n == 1 else "s",
            ", ".join("%d %s" % (c, why) for why, c in sorted(skipped.items()))))


def _records(path, raw=False):
    """(line number, record) of each JSON line of a file, or (line number,
    record, line bytes) with raw.  A line the report would refuse (malformed,
    not an object, NaN or Infinity, a number beyond the double range, a
    repeated key, nested too deep, too long) is skipped and counted; one warning per file says
    how many and why.  A file that is not a regular file or a pipe, or is
    larger than MAX_FILE, raises OSError."""
    skipped = collections.Counter()
    try:
        for lineno, line in _lines(path, skipped):
            try:
                rec = _parse(line)
            except _BadLine as e:
                skipped[str(e)] += 1
                continue
            yield (lineno, rec, line) if raw else (lineno, rec)
    finally:
        _say_skipped(path, skipped)


def _distinct(files):
    """files without a file named again (the same device and inode: a path
    given twice, a link to it), which the report also reads once; a warning
    says so."""
    out, ids = [], {}
    for path in files:
        try:
            st = os.stat(path)
        except OSError:
            out.append(path)  # opening it says why
            continue
        if stat.S_ISREG(st.st_mode):
            key = (st.st_dev, st.st_ino)
            if key in ids:
                warnings.warn("%s is the file %s again: read once" % (path, ids[key]))
                continue
            ids[key] = path
        out.append(path)
    return out


class _Seen:
    """The rule for a record seen twice, the report's: a launch or
    variant_estimate record whose identity (host, pid, launch_id; for an
    estimate its variant) and text repeat an earlier one's is one record
    read twice (a file given twice, lines copied): counted once, and one
    warning says how many were left out.  The same identity with other
    values is another run whose process had the same id: kept, and joined
    by its own file."""

    def __init__(self):
        self.seen = {}
        self.repeats = collections.Counter()
        self.proc_new = self.proc_repeats = 0

    def first(self, path, key, line):
        digests = self.seen.setdefault(key, set())
        h = hash(line)  # SipHash under Python's per-process key
        if h in digests:
            self.repeats[path] += 1
            self.proc_repeats += 1
            return False
        digests.add(h)
        self.proc_new += 1
        return True

    def new_process(self):
        """A file starts, or a summary record ends a process."""
        self.proc_new = self.proc_repeats = 0

    def process_repeated(self):
        """Whether every launch or estimate record of the process being read
        was read before: its records that name no process (instruction-level
        records) are then left out too."""
        return self.proc_repeats > 0 and self.proc_new == 0

    def say(self, what):
        for path, n in sorted(self.repeats.items()):
            warnings.warn("%s: %d %s record%s repeat%s one read before (the same process, "
                          "launch or variant and values): counted once"
                          % (path, n, what, "" if n == 1 else "s", "s" if n == 1 else ""))


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


def _scalar(v):
    return v is None or isinstance(v, (str, int, float, bool))


def _well_formed(rec):
    """Why rec cannot be a record of its type, or None: the fields the rows
    are made of must have their types (a hostile line is skipped, never an
    exception)."""
    for k in ("host", "pid", "launch_id", "device", "kernel", "context"):
        if not _scalar(rec.get(k)):
            return "a malformed record (%s)" % k
    for k in ("metrics", "missing", "bound", "collected"):
        if rec.get(k) is not None and not isinstance(rec.get(k), dict):
            return "a malformed record (%s)" % k
    return None


def _typed_records(path, kind):
    """(record, the columns of its device's facts, line bytes) for each record
    of type kind in path, the device being the last device record before it.
    A record whose fields have the wrong types is skipped and counted."""
    devices = {}
    bad = collections.Counter()
    for lineno, rec, line in _records(path, raw=True):
        t = rec.get("type")
        why = _well_formed(rec) if t in ("device", kind) else None
        if why:
            bad[why] += 1
        elif t == "device":
            devices[rec.get("device")] = {
                "device_" + k: v for k, v in rec.items() if k not in _NOT_FACTS}
        elif t == kind:
            yield rec, devices.get(rec.get("device"), {}), line
    _say_skipped(path, bad, "record")


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


def _launch_key(rec):
    return tuple(v if _scalar(v) else repr(v)
                 for v in (rec.get("host"), rec.get("pid"), rec.get("launch_id")))


def _rows_of_file(path, seen):
    rows = []
    for rec, device, line in _typed_records(path, "launch"):
        if not seen.first(path, _launch_key(rec), line):
            continue
        row = _flat_row(path, rec)
        row.setdefault("missing", {})
        row.setdefault("rank", None)
        row.update(rec.get("metrics") or {})
        row.update(device)
        rows.append(row)
    return rows


# variant_estimate fields kept as they are (not metric columns)
_ESTIMATE_LISTS = ("configurations", "bound", "collected", "missing")


def _estimate_key(rec):
    shape = tuple(tuple(v) if isinstance(v, list) and all(_scalar(x) for x in v) else repr(v)
                  for v in (rec.get("grid"), rec.get("block")))
    return (rec.get("host"), rec.get("pid"), rec.get("context"), rec.get("device"),
            rec.get("kernel"), shape, repr(rec.get("dynamic_smem")))


def _estimates_of_file(path, seen):
    rows = []
    for rec, device, line in _typed_records(path, "variant_estimate"):
        if not seen.first(path, _estimate_key(rec), line):
            continue
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
    files = _distinct(_paths(paths))
    if any(_sqlite.is_db(f) for f in files):  # databases: _sqlite.py
        return _as_frame(_sqlite.merge(files, lambda f: _sqlite.estimate_rows(f, derived),
                                       lambda fs: load_estimates(fs, False, derived, report,
                                                                 peaks)), as_frame)
    rows = []
    seen = _Seen()
    for path in files:
        rows.extend(_estimates_of_file(path, seen))
    seen.say("variant_estimate")
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
    files = _distinct(_paths(paths))
    if any(_sqlite.is_db(f) for f in files):  # databases: _sqlite.py
        return _as_frame(_sqlite.merge(files, lambda f: _sqlite.launch_rows(f, derived),
                                       lambda fs: load(fs, report, derived, False, peaks)),
                         as_frame)
    rows = []
    seen = _Seen()
    for path in files:
        rows.extend(_rows_of_file(path, seen))
    seen.say("launch")
    if derived and rows:  # nothing to join: the report would refuse an empty input
        try:
            doc = load_report(files, report=report, peaks=peaks)
        except ReportNotFound as e:
            warnings.warn("%s; the rows have the raw metrics only" % e)
            doc = None
        if doc is not None:
            # joined by the file too: two runs whose processes had the same
            # id (on the same host) have the same (host, pid, launch_id), and
            # one run's launch must never get the other's derived metrics
            per_launch = {}
            for lm in doc.get("launch_metrics", []):
                key = (lm.get("file"), lm.get("host"), lm.get("pid"), lm.get("launch_id"))
                per_launch.setdefault(key, lm)
            for row in rows:
                lm = per_launch.get((row.get("file"), row.get("host"), row.get("pid"),
                                     row.get("launch_id")))
                if lm is None:
                    continue
                row["name"] = lm.get("name")
                row["kernel_rank"] = lm.get("kernel_rank")
                for k, v in (lm.get("metrics") or {}).items():
                    row["derived_" + k if k in row else k] = v
    return _as_frame(rows, as_frame)
