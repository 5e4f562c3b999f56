"""The Python tests' counting: check(), skip() and the closing line
"NAME: N passed, N failed, N skipped" (exit status 1 when a check failed)."""
import sys

_counts = {"passed": 0, "failed": 0, "skipped": 0}


def check(cond, what):
    if cond:
        _counts["passed"] += 1
    else:
        _counts["failed"] += 1
        print("FAIL %s" % what, file=sys.stderr)


def skip(what, why):
    _counts["skipped"] += 1
    print("SKIP %s: %s" % (what, why), file=sys.stderr)


def finish(suite):
    print("%s: %d passed, %d failed, %d skipped"
          % (suite, _counts["passed"], _counts["failed"], _counts["skipped"]))
    sys.exit(1 if _counts["failed"] else 0)
