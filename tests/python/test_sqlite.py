"""The SQLite databases (docs/database.md) read back: JSON lines -> database -> the loader
equals JSON lines -> the loader (launches, estimates, instructions), hostile names stored
and read back unchanged, a database left unfinished refused, the documented schema equal to
the database's, and the page's example queries run with their results checked against the
JSON report.  Needs python3 and build/gpuprof-report (GPUPROF_REPORT); run by
tests/python/test_sqlite.sh."""
import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)

import gpuprof  # noqa: E402
from gpuprof import _sqlite  # noqa: E402
from harness import check, finish, skip  # noqa: E402

REPORT = os.environ["GPUPROF_REPORT"]
DATA = os.path.join(ROOT, "tests", "data")
TMP = tempfile.mkdtemp(prefix="gp-sqlite-")


def rel(*p):
    return os.path.relpath(os.path.join(*p), os.getcwd())


def make_db(name, files, extra=()):
    out = os.path.join(TMP, name)
    run = subprocess.run([REPORT, "--format", "sqlite", "-o", out] + list(extra) + files,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    check(run.returncode == 0 and os.path.isfile(out),
          "%s written (exit %d: %s)" % (name, run.returncode, run.stderr.strip()))
    return out


def same(a, b, derived=()):
    """Row lists equal: every key and value; the derived metrics within 1e-13 (the JSON
    report prints 15 significant digits, the database keeps the double)."""
    if len(a) != len(b):
        return "%d rows against %d" % (len(a), len(b))
    for i, (x, y) in enumerate(zip(a, b)):
        if set(x) != set(y):
            return "row %d keys: %s / %s" % (i, sorted(set(x) - set(y)), sorted(set(y) - set(x)))
        for k in x:
            u, v = x[k], y[k]
            if u == v or (u is None and v is None):
                continue
            if (isinstance(u, (int, float)) and isinstance(v, (int, float)) and
                    not isinstance(u, bool) and math.isclose(u, v, rel_tol=1e-13, abs_tol=1e-300)):
                continue
            return "row %d %s: %r / %r" % (i, k, u, v)
    return None


def round_trip():
    rep = os.path.join(DATA, "report")
    # (the JSON-lines loader joins the derived metrics by file, host, pid and launch_id:
    # records without them, no-access.jsonl's, get none there, and are compared without)
    cases = [["h100-planted.jsonl"], ["h100-second.jsonl"], ["h100-pcie-rank1.jsonl"],
             ["names.jsonl"], ["no-access.jsonl"], ["none-mode.jsonl"],
             ["h100-planted.jsonl", "h100-pcie-rank1.jsonl"],
             ["h100-planted.jsonl", "h100-second.jsonl"]]
    for n, case in enumerate(cases):
        files = [rel(rep, f) for f in case]
        db = make_db("rt%d.db" % n, files)
        joined = case != ["no-access.jsonl"]
        for what, fn in (("load", lambda p: gpuprof.load(p, as_frame=False, derived=joined)),
                         ("load(derived=False)",
                          lambda p: gpuprof.load(p, as_frame=False, derived=False)),
                         ("load_estimates", lambda p: gpuprof.load_estimates(p, as_frame=False)),
                         ("load_estimates(derived)",
                          lambda p: gpuprof.load_estimates(p, as_frame=False, derived=True))):
            a, b = fn(files), fn(db)
            diff = same(a, b)
            check(diff is None and (a or what.startswith("load_est")),
                  "%s of %s: database equals JSON lines (%s)" % (what, "+".join(case), diff))
    # instruction-level records
    where = [rel(DATA, "where", f) for f in ("recorded-h200-stall.jsonl",
                                             "recorded-h200-triton.jsonl")]
    db = make_db("where.db", where)
    a, b = gpuprof.load_instructions(where, as_frame=False), gpuprof.load_instructions(db, as_frame=False)
    diff = same(a, b)
    check(diff is None and len(a) > 100, "load_instructions: database equals JSON lines (%s)" % diff)
    a, b = gpuprof.load(where, as_frame=False), gpuprof.load(db, as_frame=False)
    check(same(a, b) is None, "load of the where fixtures: database equals JSON lines (%s)"
          % same(a, b))
    # a database and JSON lines in one call, in the order given
    planted = rel(rep, "h100-planted.jsonl")
    second_db = os.path.join(TMP, "rt1.db")
    mixed = gpuprof.load([second_db, planted], as_frame=False)
    check(same(mixed, gpuprof.load([rel(rep, "h100-second.jsonl")], as_frame=False) +
               gpuprof.load([planted], as_frame=False)) is None,
          "a database and a JSON-lines file loaded together, in their order")
    try:
        import pandas  # noqa: F401
        df = gpuprof.load(os.path.join(TMP, "rt0.db"))
        check(len(df) == 12 and "dram_util" in df.columns, "the database as a DataFrame")
    except ImportError:
        skip("the database as a DataFrame", "pandas is not installed")


def hostile():
    hdir = os.path.join(DATA, "report", "hostile")
    files = [rel(hdir, f) for f in sorted(os.listdir(hdir)) if f.endswith(".jsonl")]
    for f in files:
        db = os.path.join(TMP, "h-" + os.path.basename(f) + ".db")
        run = subprocess.run([REPORT, "--format", "sqlite", "-o", db, f], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        js = subprocess.run([REPORT, "--format", "json", f], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
        if js.returncode != 0:
            check(run.returncode != 0 and not os.path.exists(db),
                  "%s: nothing usable, no database" % f)
            continue
        doc = json.loads(js.stdout.decode("utf-8"))
        con = sqlite3.connect(db)
        con.text_factory = bytes
        with open(f, "rb") as fh:
            raw = fh.read()
        kernels = [tuple(r) for r in con.execute("SELECT kernel, mangled FROM kernels ORDER BY rank")]
        want = [(k["kernel"], k["mangled"]) for k in doc["kernels"]]
        # text as the JSON report writes it (a byte that is not UTF-8 as U+FFFD); such a name
        # is a BLOB of the very bytes of the record
        shown = [tuple(x.decode("utf-8", "replace") for x in r) for r in kernels]
        blobs = [x for r in con.execute("SELECT kernel FROM kernels WHERE typeof(kernel) = 'blob'")
                 for x in r]
        check(shown == want and all(b in raw for b in blobs),
              "%s: kernel names stored and read back unchanged (%d as bytes)" % (f, len(blobs)))
        names = [r[0].decode("utf-8", "replace")
                 for r in con.execute("SELECT name FROM kernels ORDER BY rank")]
        check(names == [k["name"] for k in doc["kernels"]], "%s: short names unchanged" % f)
        con.text_factory = str
        # every launch's own strings as the JSON-lines loader reads them
        try:
            a = gpuprof.load(f, as_frame=False, derived=False)
        except (UnicodeDecodeError, ValueError) as e:
            skip("%s launches" % f, "the JSON-lines loader cannot read it (%s)" % e)
            con.close()
            continue
        b = gpuprof.load(db, as_frame=False, derived=False)
        fields = ("kernel", "mangled", "host", "process", "missing")
        check([[r.get(k) for k in fields] for r in a] == [[r.get(k) for k in fields] for r in b],
              "%s: launch names, hosts and reasons unchanged" % f)
        con.close()


def unfinished():
    src = os.path.join(TMP, "rt0.db")
    bad = os.path.join(TMP, "unfinished.db")
    shutil.copy(src, bad)
    con = sqlite3.connect(bad)
    con.execute("UPDATE meta SET value = 'no' WHERE key = 'complete'")
    con.commit()
    con.close()
    try:
        gpuprof.load(bad, as_frame=False)
        check(False, "an unfinished database is refused")
    except _sqlite.DatabaseError as e:
        check("was not finished" in str(e), "an unfinished database is refused: %s" % e)
    junk = os.path.join(TMP, "junk.db")
    with open(junk, "wb") as f:
        f.write(b"SQLite format 3\x00" + b"\xff" * 200)
    try:
        gpuprof.load(junk, as_frame=False)
        check(False, "a damaged database is refused")
    except _sqlite.DatabaseError as e:
        check("not a gpuprof database" in str(e), "a damaged database is refused: %s" % e)


def doc_tables():
    """docs/database.md's tables and their columns against a database's."""
    with open(os.path.join(ROOT, "docs", "database.md")) as f:
        page = f.read()
    documented = {}
    tables_part = page.split("\n## Tables\n", 1)[-1].split("\n## ", 1)[0]
    for section in tables_part.split("\n### ")[1:]:
        name = re.match(r"`(\w+)`", section)
        if name:
            cols = re.findall(r"^\| ([^|]*) \|", section, re.M)
            documented[name.group(1)] = [c for cell in cols for c in re.findall(r"`([^`]+)`", cell)]
    con = sqlite3.connect(os.path.join(TMP, "rt0.db"))
    tables = [r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")]
    for t in tables:
        cols = [r[1] for r in con.execute("PRAGMA table_info(%s)" % t)]
        doc = documented.get(t)
        if doc is None:
            check(False, "docs/database.md documents table %s" % t)
            continue
        # a documented "key_x, _y, _z" or "(record fields)" row stands for several
        expanded = []
        for c in doc:
            expanded.extend(c.split(", "))
        missing = [c for c in cols if c not in expanded and not (t == "launches" or t == "devices")]
        check(not missing, "docs/database.md: columns of %s documented (missing %s)" % (t, missing))
    check(set(documented) <= set(tables), "docs/database.md documents no table that does not exist "
          "(%s)" % sorted(set(documented) - set(tables)))
    con.close()
    return page


def doc_queries(page):
    """The page's example queries: each ```sql block after a "#### Query N" heading runs on
    the study database and gives what the JSON report says."""
    queries = re.findall(r"^#### (\d)\. .*?\n```sql\n(.*?)```", page, re.M | re.S)
    check(len(queries) >= 5, "docs/database.md has five example queries (%d)" % len(queries))
    return dict(queries)


def main():
    round_trip()
    hostile()
    unfinished()
    page = doc_tables()
    queries = doc_queries(page)
    import test_sqlite_queries
    test_sqlite_queries.run(queries, REPORT, TMP)
    shutil.rmtree(TMP, ignore_errors=True)
    finish("python sqlite")


if __name__ == "__main__":
    main()
