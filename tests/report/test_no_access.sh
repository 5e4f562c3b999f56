#!/bin/sh
# test_no_access.sh - an efficiency of nothing is n/a with what the kernel
# did not do, in every layout: a launch with 0 shared wavefronts and 0
# loaded sectors (CUPTI gives its ratios there as 0, and so does Nsight
# Compute) gets shared_efficiency and gld_efficiency n/a with the reason in
# the text, null with the reason in JSON, "n/a" in both Nsight Compute CSV
# layouts; a launch with accesses keeps its values (a real 0 included).
suite=report-no-access
pass=0; fail=0; skip=0
b=${BUILD:-build}
rep=$b/gpuprof-report
in=tests/data/report/no-access.jsonl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2" >&2; fi; }
if [ ! -x "$rep" ]; then
    echo "FAIL: $rep not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
"$rep" --details "$in" >"$tmp/text" 2>&1
t 'grep -q "shared_efficiency  *smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct: no shared-memory accesses (0 shared wavefronts)" "$tmp/text"' \
  "text: shared_efficiency's reason"
t 'grep -q "shared_efficiency_nvprof  *no shared-memory accesses" "$tmp/text"' "text: nvprof's shared efficiency's reason"
t 'grep -q "shared_bank_efficiency  *no shared-memory accesses" "$tmp/text"' "text: bank efficiency's reason"
t 'grep -q "gld_efficiency  *smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct: no global loads" "$tmp/text"' \
  "text: gld_efficiency's reason"
t '! grep -q "division by zero" "$tmp/text"' "text: a division by zero where a count is 0"
# the short report: nothing done is no gap, so no n/a line for it; the real 0 stays
"$rep" "$in" >"$tmp/brief" 2>&1
t '! grep -q "^   n/a" "$tmp/brief" && grep -q "efficiency: global load 0.0%" "$tmp/brief"' \
  "short text: an n/a for an access the kernel did not make, or the real 0 lost"
"$rep" -f json "$in" >"$tmp/json" 2>/dev/null
t 'python3 - "$tmp/json" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
k = {x["kernel"]: x for x in d["kernels"]}
none, some = k["noshared"], k["withshared"]
m = lambda x, n: x["metrics"][n]
assert m(none, "shared_efficiency") is None, m(none, "shared_efficiency")
assert "no shared-memory accesses" in none["missing"]["shared_efficiency"]
assert m(none, "gld_efficiency") is None and "no global loads" in none["missing"]["gld_efficiency"]
assert m(none, "gst_efficiency") == 100
assert m(some, "shared_efficiency") == 25 and m(some, "shared_bank_efficiency") == 25
assert m(some, "gld_efficiency") == 0  # loads that used nothing of their sectors: a real 0
PY' "json: null with the reason where nothing was accessed, values kept elsewhere"
"$rep" -f ncu-raw-csv "$in" >"$tmp/raw" 2>/dev/null
"$rep" -f ncu-csv "$in" >"$tmp/details" 2>/dev/null
t 'python3 - "$tmp/raw" "$tmp/details" <<PY
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, data = rows[0], {r[4]: r for r in rows[2:]}
col = lambda n: head.index(n)
sh = "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct"
ld = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"
assert data["noshared"][col(sh)] == "n/a" and data["noshared"][col(ld)] == "n/a"
assert data["withshared"][col(sh)] == "25" and data["withshared"][col(ld)] == "0"
det = {(r[4], r[12]): r[14] for r in csv.reader(open(sys.argv[2]))}
assert det[("noshared", sh)] == "n/a" and det[("withshared", sh)] == "25"
PY' "ncu layouts: n/a where Nsight Compute prints 0 over no accesses"
# records without the wavefront count (runs that did not collect it): a
# launch that allocates no shared memory made no shared access, so CUPTI's 0
# is withheld as well; with shared memory allocated, or the allocation not
# in the record, there is no way to tell and the 0 stays
"$rep" -f json tests/data/report/no-count.jsonl >"$tmp/nc" 2>/dev/null
t 'python3 - "$tmp/nc" <<PY
import json, sys
d = json.load(open(sys.argv[1]))
k = {x["kernel"]: x for x in d["kernels"]}
m = lambda x: x["metrics"]["shared_efficiency"]
assert m(k["nosmem"]) is None, m(k["nosmem"])
assert "no shared-memory accesses (0 shared wavefronts), the launch allocates no shared memory" in k["nosmem"]["missing"]["shared_efficiency"]
assert m(k["dynsmem"]) == 0 and m(k["unknownsmem"]) == 0
PY' "no wavefront count: withheld only where the launch allocates no shared memory"
echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
