"""Reading gpuprof's SQLite databases (``gpuprof-report --format sqlite``, characterize's
``summary/study.db``; docs/database.md) into the same rows as the JSON-lines files give.

A database holds the records as gpuprof-report read them: the launch records' own values
(raw metrics, the record's ``missing`` reasons, fields it has no column for under
``extra``), the report's derived metrics per launch and its kernels.  The rows below are
the ones load(), load_estimates() and load_instructions() make from the JSON-lines files
the database was written from: the same columns and values (the derived metrics as stored,
where ``gpuprof-report --format json`` prints 15 significant digits).  Python's built-in
sqlite3 module reads them; nothing else is needed.
"""

import json
import os
import sqlite3
import stat
import urllib.parse

# The first bytes of every SQLite database file.
_MAGIC = b"SQLite format 3\x00"
_FORMAT = "gpuprof-db/1"
# Launch-record fields that are [x, y, z]: key_x, key_y, key_z columns.
_DIM3 = ("grid", "block", "cluster")
# Columns of the record tables that are not the record's own fields.
_LAUNCH_IDS = ("id", "file_id", "line", "kernel_id", "device_id", "extra")
_DEVICE_IDS = ("id", "program_id", "file_id", "line", "host", "pid", "extra", "device")
_ESTIMATE_IDS = ("id", "file_id", "line", "kernel_id", "device_id", "extra")
_ESTIMATE_JSON = ("configurations", "collected", "bound", "missing")


class DatabaseError(ValueError):
    """A file that is not a whole gpuprof database."""


def is_db(path):
    """True when path is an SQLite database file (by its first bytes, whatever its name).
    Only a regular file is looked into, without waiting: a named pipe or a device is left to
    the JSON-lines reader, which says what it makes of it."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # never opened: a FIFO's writer would see it
            return False
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return os.read(fd, len(_MAGIC)) == _MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


def _txt(v):
    """A value as the JSON-lines loader reads it: a string whose bytes were not UTF-8 (kept
    as a BLOB of those bytes) decoded as that loader decodes its lines, U+FFFD for a bad
    sequence."""
    return v.decode("utf-8", errors="replace") if isinstance(v, bytes) else v


def _tuple_row(cursor, row):
    return tuple(_txt(v) for v in row)


def _dict_row(cursor, row):
    return {d[0]: _txt(v) for d, v in zip(cursor.description, row)}


def _connect(path):
    """A read-only connection to a complete gpuprof database; DatabaseError says why not."""
    try:
        con = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(path)),
                              uri=True)
        con.row_factory = _tuple_row
        meta = dict(con.execute("SELECT key, value FROM meta"))
    except sqlite3.Error as e:
        raise DatabaseError("%s: not a gpuprof database (%s)" % (path, e))
    if meta.get("format") != _FORMAT:
        con.close()
        raise DatabaseError("%s: format is %r, not %s" % (path, meta.get("format"), _FORMAT))
    if meta.get("complete") != "yes":
        con.close()
        raise DatabaseError("%s was not finished (its writer stopped or was killed before the "
                            "end): write it again" % path)
    return con


def _columns(con, table):
    return [r[1] for r in con.execute("PRAGMA table_info(%s)" % table)]


def _record_fields(columns, ids):
    """The record's fields in column order: (key, [columns]) with [x, y, z] (and cc's
    [major, minor]) as one key."""
    out, seen = [], set()
    for c in columns:
        if c in ids:
            continue
        for suffixes in (("_x", "_y", "_z"), ("_major", "_minor")):
            base = next((c[:-len(s)] for s in suffixes if c.endswith(s)), None)
            if base is not None and all(base + s in columns for s in suffixes):
                if base not in seen:
                    seen.add(base)
                    out.append((base, [base + s for s in suffixes]))
                break
        else:
            out.append((c, [c]))
    return out


def _put(row, fields, values, prefix=""):
    """The record's fields (not None) into row, [x, y, z] fields one column per axis as
    the JSON-lines loader makes them, cc as its [major, minor] list."""
    for key, cols in fields:
        vals = [values[c] for c in cols]
        if all(v is None for v in vals):
            continue
        if len(cols) == 1:
            row[prefix + key] = vals[0]
        elif key in _DIM3 and not prefix:
            for c, v in zip(cols, vals):
                row[c] = v
        else:
            row[prefix + key] = vals


def _extra(row, text, prefix=""):
    if text:
        for k, v in json.loads(text).items():
            row[prefix + k] = v


def _devices(con):
    cols = _columns(con, "devices")
    fields = _record_fields(cols, _DEVICE_IDS)
    out = {}
    for r in con.execute("SELECT * FROM devices"):
        values = dict(zip(cols, r))
        facts = {}
        _put(facts, fields, values, "device_")
        _extra(facts, values["extra"], "device_")
        out[values["id"]] = facts
    return out


def _names(con):
    return {i: (kind, name) for i, kind, name in
            con.execute("SELECT id, kind, name FROM metric_names")}


def _by_owner(cursor):
    """(owner, [rows]) groups of a cursor ordered by its first column."""
    owner, group = None, []
    for r in cursor:
        if r[0] != owner:
            if group:
                yield owner, group
            owner, group = r[0], []
        group.append(r)
    if group:
        yield owner, group


def launch_rows(path, derived=True):
    """One row per launch of the database, as load() makes them from JSON lines."""
    con = _connect(path)
    try:
        files = dict(con.execute("SELECT id, path FROM files"))
        devices = _devices(con)
        names = _names(con)
        derived_names = [n for i, (k, n) in sorted(names.items()) if k == "derived"]
        kernels = {i: (n, r) for i, n, r in con.execute("SELECT id, name, rank FROM kernels")}
        reasons = dict(con.execute("SELECT id, text FROM reasons"))
        cols = _columns(con, "launches")
        fields = _record_fields(cols, _LAUNCH_IDS)
        metrics = _by_owner(con.execute("SELECT launch, metric, value FROM metrics "
                                        "ORDER BY launch, metric"))
        missing = _by_owner(con.cursor().execute(
            "SELECT launch, metric, reason FROM missing ORDER BY launch, metric"))
        next_m, next_x = next(metrics, None), next(missing, None)
        rows = []
        for r in con.cursor().execute("SELECT * FROM launches ORDER BY id"):
            values = dict(zip(cols, r))
            lid = values["id"]
            row = {"file": files.get(values["file_id"])}
            _put(row, fields, values)
            _extra(row, values["extra"])
            while next_x is not None and next_x[0] < lid:
                next_x = next(missing, None)
            if "missing" not in row:
                row["missing"] = {}
                if next_x is not None and next_x[0] == lid:
                    row["missing"] = {names[m][1]: reasons.get(x) for _, m, x in next_x[1]
                                      if names[m][0] == "counter"}
            row.setdefault("rank", None)
            while next_m is not None and next_m[0] < lid:
                next_m = next(metrics, None)
            values_of = next_m[1] if next_m is not None and next_m[0] == lid else []
            der = {}
            for _, m, v in values_of:
                kind, name = names[m]
                if kind == "counter":
                    row[name] = v
                else:
                    der[name] = v
            row.update(devices.get(values["device_id"], {}))
            if derived:
                name, rank = kernels.get(values["kernel_id"], (None, None))
                row["name"] = name
                row["kernel_rank"] = rank
                for n in derived_names:
                    row["derived_" + n if n in row else n] = der.get(n)
            rows.append(row)
        return rows
    finally:
        con.close()


def estimate_rows(path, derived=False):
    """One row per kernel variant of replay mode none, as load_estimates() makes them."""
    con = _connect(path)
    try:
        files = dict(con.execute("SELECT id, path FROM files"))
        devices = _devices(con)
        names = _names(con)
        cols = _columns(con, "estimates")
        fields = _record_fields(cols, _ESTIMATE_IDS + _ESTIMATE_JSON)
        metrics = {}
        for e, m, v, b in con.execute("SELECT estimate, metric, value, bound FROM "
                                      "estimate_metrics ORDER BY estimate, metric"):
            metrics.setdefault(e, []).append((names[m], v, b))
        rows = []
        for r in con.execute("SELECT * FROM estimates ORDER BY id"):
            values = dict(zip(cols, r))
            row = {"file": files.get(values["file_id"])}
            _put(row, fields, values)
            _extra(row, values["extra"])
            for k in _ESTIMATE_JSON:
                if values[k] is not None:
                    row[k] = json.loads(values[k])
                row.setdefault(k, {} if k != "configurations" else [])
            row.setdefault("estimated", True)
            for (kind, name), v, b in metrics.get(values["id"], []):
                if kind == "counter":
                    row[name] = v
            for k, v in (row.get("bound") or {}).items():
                row["bound_" + k] = v
            # the device is the one of the estimate's ordinal that came last before it
            dev = con.execute("SELECT id FROM devices WHERE file_id = ? AND device = ? AND "
                              "line < ? ORDER BY line DESC LIMIT 1",
                              (values["file_id"], values["device"], values["line"])).fetchone()
            row.update(devices.get(dev[0], {}) if dev else {})
            if derived:
                for (kind, name), v, b in metrics.get(values["id"], []):
                    if kind == "derived":
                        row["derived_" + name if name in row else name] = v
                        row["bound_" + name] = b
            rows.append(row)
        return rows
    finally:
        con.close()


# Counts of an instruction, as load_instructions() names them.
_COUNTS = ("inst_executed", "thread_inst_executed", "thread_inst_executed_pred_on",
           "divergent_branches", "l1_tags_global", "sectors_global", "sectors_global_ideal",
           "wavefronts_shared", "wavefronts_shared_ideal", "samples", "samples_not_issued")
_FUNCTION_FIELDS = ("kernel", "mangled", "module", "code_bytes", "lineinfo", "sass_launches",
                    "sampled_launches")


def instruction_rows(path):
    """One row per SASS instruction with data, as load_instructions() makes them."""
    con = _connect(path)
    try:
        con.row_factory = _dict_row
        files = {r["id"]: r["path"] for r in con.execute("SELECT id, path FROM files")}
        functions = {r["id"]: r for r in con.execute("SELECT * FROM source_functions")}
        stalls = {}
        for r in con.execute("SELECT function_id, pc, reason, samples, not_issued FROM stalls"):
            stalls.setdefault((r["function_id"], r["pc"]), []).append(r)
        rows = []
        for r in con.execute("SELECT * FROM source_instructions ORDER BY function_id, pc"):
            fn = functions[r["function_id"]]
            dev = con.execute("SELECT name FROM devices WHERE file_id = ? AND device = ? AND "
                              "line < ? ORDER BY line DESC LIMIT 1",
                              (fn["file_id"], fn["device"], fn["line"])).fetchone()
            row = {"file": files.get(fn["file_id"]), "device": fn["device"],
                   "device_name": dev["name"] if dev else None}
            for k in _FUNCTION_FIELDS:
                row[k] = fn[k] if k != "lineinfo" or fn[k] is None else bool(fn[k])
            row["pc"] = r["pc"]
            row["source_file"] = r["file"]
            row["line"] = r["line"]
            row["access"] = r["access"]
            row["access_bits"] = r["access_bits"]
            for k in _COUNTS:
                row[k] = r[k]
            launches = fn["sass_launches"] or 0
            for k in _COUNTS[:9]:
                row[k + "_per_launch"] = r[k] / launches if r[k] is not None and launches else None
            row["excess_sectors"] = (None if r["sectors_global"] is None or
                                     r["sectors_global_ideal"] is None else
                                     r["sectors_global"] - r["sectors_global_ideal"])
            row["conflict_wavefronts"] = (None if r["wavefronts_shared"] is None or
                                          r["wavefronts_shared_ideal"] is None else
                                          r["wavefronts_shared"] - r["wavefronts_shared_ideal"])
            for s in stalls.get((r["function_id"], r["pc"]), []):
                if s["samples"] is not None:
                    row["stall_" + s["reason"]] = s["samples"]
            for s in stalls.get((r["function_id"], r["pc"]), []):
                if s["not_issued"] is not None:
                    row["stall_not_issued_" + s["reason"]] = s["not_issued"]
            rows.append(row)
        return rows
    finally:
        con.close()


def merge(files, rows_of_db, rows_of_jsonl):
    """The rows of files in their order: a database's from rows_of_db(path), the JSON-lines
    files' from one rows_of_jsonl(list) call (the report joins them together), each row
    naming its file."""
    jsonl = [f for f in files if not is_db(f)]
    by_file = {}
    if jsonl:
        for row in rows_of_jsonl(jsonl):
            by_file.setdefault(row.get("file"), []).append(row)
    rows = []
    for f in files:
        rows.extend(rows_of_db(f) if is_db(f) else by_file.pop(f, []))
    return rows
