"""gpuprof: read gpuprof's results in Python.

    import gpuprof
    df = gpuprof.load("gpuprof-*.jsonl")      # one row per profiled launch

Each row holds the launch record (kernel, grid, block, pid, host, rank, ...),
one column per collected PerfWorks metric, the facts of the launch's device
(``device_name``, ``device_sm_count``, ...) and the report's derived metrics
per launch (``achieved_occupancy``, ``dram_util``, ... and ``name``, the short
kernel name), which ``gpuprof-report --format json`` computes.  A value that
was not measured is missing (``None``, NaN in pandas), never 0; the record's
reasons are in the ``missing`` column.

The result is a pandas DataFrame when pandas is installed, else a list of
dicts (``as_frame=False`` asks for the list).  Pure Python, standard library
only; pandas is optional.

    rows = gpuprof.load_instructions("gpuprof-*.jsonl")   # one row per SASS instruction

gives the instruction-level records (below), and

    est = gpuprof.load_estimates("gpuprof-*.jsonl")       # one row per kernel variant

the estimates of replay mode none (``GPUPROF_REPLAY=none``): per variant its
launch count, each metric's estimated total and its error bound
(``bound_<metric>``); files of both modes load together.  load_instructions
gives the instruction-level records (stall samples, SASS counts, source line) with the
function's kernel name joined in.
"""

from ._load import load, load_estimates, load_report, find_report, ReportNotFound
from ._instructions import load_instructions

__all__ = ["load", "load_estimates", "load_instructions", "load_report", "find_report", "ReportNotFound"]
__version__ = "0.1.0"
