#!/bin/sh
# multi_gpu.sh - the several-GPU checks, for a machine with two GPUs (about
# 5 minutes on an H200 pair); run alone (sh tests/gpu/multi_gpu.sh) or by
# device-check.sh with MULTI_GPU=1.  run-gpu-tests.sh keeps its own multigpu
# replay case (section 2b); this script adds:
#  1. tests/gpu/multi_device.cu from one host thread and from two (one per
#     device): writers, in-place updates, cudaMemcpyPeer/PeerAsync, a kernel
#     reading the other device's memory through peer access.  Its stdout
#     unchanged under the profiler, one device record per device, and every
#     launch profiled with the right device: the program says on stderr how
#     many launches of which kernel it made on each device.
#  2. a kernel on device 0 updating device 1's memory in place through peer
#     access: its result must not change either (the replay has to restore
#     memory of a device other than the launching one).
#  3. one device at a time (CUDA_VISIBLE_DEVICES), for each GPU's cost per
#     profiled launch.
#  4. PyTorch (tests/gpu/torch_nccl.py): an NCCL all-reduce between two
#     processes, one per GPU, each writing its own files (%q{RANK}, %p); the
#     reduced values unchanged; with NCCL's kernels excluded from profiling,
#     then with every kernel profiled.
#  5. gpuprof-characterize over tests/data/characterize/selftest.suite with
#     --gpus auto and --gpus 1: the programs spread over both GPUs, the same
#     summary apart from what is measured (times and counter values).
# Prints PASS/FAIL/SKIP lines, a FIGURES block and "multi-gpu: N passed,
# N failed, N skipped".  Without two GPUs every part reports SKIP.
# MGPU_TIMEOUT (default 120) bounds each program; logs go under
# $GPU_TEST_OUT/mgpu (default build/gpu-test-out/mgpu).
. tests/gpu/common.sh
LIB=$(cd "$B" 2>/dev/null && pwd)/libgpuprof.so
M=$OUT/mgpu
rm -rf "$M" # a run's files only: the torch check counts files per rank
mkdir -p "$M"
FIG=$M/figures.txt
: >"$FIG"
T=${MGPU_TIMEOUT:-120}
# NVLink multicast stays off in this process and in every child
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
PARTS="multi_device one-thread|multi_device two-threads|peer access kernel|peer write|one device at a time|torch nccl, NCCL kernels excluded|torch nccl, every kernel|characterize --gpus auto|characterize auto vs 1"

finish() {
    echo "FIGURES"
    sed 's/^/  /' "$FIG"
    echo "multi-gpu: $pass passed, $fail failed, $skip skipped"
    [ $fail -eq 0 ]
    exit $?
}
skip_all() { # why
    oifs=$IFS; IFS='|'
    for p in $PARTS; do skipped "$p: $1"; done
    IFS=$oifs
    echo "none (skipped: $1)" >>"$FIG"
    finish
}

ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "$ngpu" = 0 ]; then skip_all "no GPU on this machine"; fi
if [ "$ngpu" -lt 2 ]; then skip_all "this machine has $ngpu GPU, 2 needed"; fi
for f in "$LIB" $G/multi_device $B/gpuprof-characterize; do
    [ -f "$f" ] || { bad "$f is not built (make)"; finish; }
done
nvidia-smi --query-gpu=index,name --format=csv,noheader | sed 's/^/GPU /' >>"$FIG"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# The launch and device records of JSONL against the "expect device D KERNEL
# N" lines of EXPECT: prints what it found; fails on any difference, a record
# with fewer than 2 passes (the replay restore would not be exercised) or a
# device record missing or repeated.
mg_check() { # jsonl expect
    python3 - "$1" "$2" <<'EOF'
import collections, json, sys
try:
    recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
except (OSError, ValueError) as e:
    print("no records: %s" % e)
    sys.exit(1)
want = collections.Counter()
for line in open(sys.argv[2]):
    w = line.split()
    if len(w) == 5 and w[0] == "expect" and w[1] == "device":
        want[(int(w[2]), w[3])] = int(w[4])
got = collections.Counter()
ms = collections.defaultdict(list)
low_passes = 0
for r in recs:
    if r.get("type") == "launch":
        got[(r["device"], r["kernel"].split("(")[0])] += 1
        ms[r["device"]].append(r.get("replay_ms") or 0.0)
        low_passes += (r.get("passes") or 0) < 2
devrecs = [(r["device"], r.get("name", "?")) for r in recs if r.get("type") == "device"]
def tally(c):
    return "; ".join("dev %d: %s" % (d, ", ".join("%s %d" % (k, c[(dd, k)])
                                                  for dd, k in sorted(c) if dd == d))
                     for d in sorted({d for d, _ in c}))
line = ("%s; device records %s; replay_ms per launch %s"
        % (tally(got), ", ".join("%d '%s'" % x for x in devrecs),
           ", ".join("dev %d %.1f" % (d, sum(v) / len(v)) for d, v in sorted(ms.items()))))
bad = []
if got != want:
    bad.append("expected %s" % tally(want))
if sorted(d for d, _ in devrecs) != sorted({d for d, _ in want}):
    bad.append("device records for %s, launches on %s"
               % (sorted(d for d, _ in devrecs), sorted({d for d, _ in want})))
if low_passes:
    bad.append("%d records with fewer than 2 passes" % low_passes)
print(line + "".join("; MISMATCH: " + b for b in bad))
sys.exit(1 if bad else 0)
EOF
}

# 1. two devices from one thread and from two
peer=""
for mode in one-thread two-threads; do
    t0=$(now)
    exp=$(timeout -k 5 "$T" $G/multi_device $mode 2>"$M/md-$mode.plain.err"); erc=$?
    t1=$(now)
    got=$(GPUPROF_OUTPUT=$M/md-$mode timeout -k 5 "$T" env LD_PRELOAD="$LIB" \
          $G/multi_device $mode 2>"$M/md-$mode.err"); rc=$?
    t2=$(now)
    check=$(mg_check "$M/md-$mode.jsonl" "$M/md-$mode.plain.err"); crc=$?
    if [ $erc -eq 0 ] && [ $rc -eq 0 ] && [ -n "$exp" ] && [ "$exp" = "$got" ] && [ $crc -eq 0 ]; then
        ok "multi_device $mode: $got; $check"
    else
        bad "multi_device $mode: rc $rc (plain $erc), plain '$exp' profiled '$got'; $check"
        tail -3 "$M/md-$mode.err"
    fi
    n=$(grep -c '"type":"launch"' "$M/md-$mode.jsonl" 2>/dev/null)
    echo "multi_device $mode: native $(secs "$t0" "$t1") s, profiled $(secs "$t1" "$t2") s, ${n:-0} launches profiled: $check" >>"$FIG"
    grep -m1 "profiler added" "$M/md-$mode.err" | sed 's/^\[gpuprof [0-9]*\] */  exit summary: /' >>"$FIG"
    grep -q "peer access .* not supported" "$M/md-$mode.plain.err" && peer=no
done
if [ "$peer" = no ]; then
    skipped "peer access kernel: $(grep -m1 'not supported' "$M/md-one-thread.plain.err")"
elif grep -q "mg_peer_read" "$M/md-one-thread.plain.err" && grep -q "mg_peer_read" "$M/md-two-threads.plain.err"; then
    ok "peer access kernel: mg_peer_read read the other device's memory on both devices (counts and results checked above)"
else bad "peer access kernel: the program made no mg_peer_read launch"; fi

# 2. a kernel on device 0 that writes device 1's memory through peer access
exp=$(timeout -k 5 "$T" $G/multi_device peer-write 2>"$M/pw.plain.err"); erc=$?
got=$(GPUPROF_OUTPUT=$M/pw timeout -k 5 "$T" env LD_PRELOAD="$LIB" $G/multi_device peer-write 2>"$M/pw.err"); rc=$?
if grep -q "not supported" "$M/pw.plain.err"; then
    skipped "peer write: $(grep -m1 'not supported' "$M/pw.plain.err")"
else
    check=$(mg_check "$M/pw.jsonl" "$M/pw.plain.err"); crc=$?
    if [ $erc -eq 0 ] && [ $rc -eq 0 ] && [ -n "$exp" ] && [ "$exp" = "$got" ] && [ $crc -eq 0 ]; then
        ok "peer write: device 1's memory updated in place by a kernel on device 0, unchanged under replay: $got"
    else
        bad "peer write (kernel on device 0 updates device 1's memory in place): rc $rc (plain $erc), plain '$exp' profiled '$got'; $check"
        tail -3 "$M/pw.err"
    fi
fi

# 3. one device at a time: the cost of a profiled launch on each GPU
nbad=0; desc=""
for d in 0 1; do
    t0=$(now)
    exp=$(CUDA_VISIBLE_DEVICES=$d timeout -k 5 "$T" $G/multi_device one-device 40 2>"$M/od$d.plain.err"); erc=$?
    t1=$(now)
    got=$(CUDA_VISIBLE_DEVICES=$d GPUPROF_OUTPUT=$M/od$d timeout -k 5 "$T" env LD_PRELOAD="$LIB" \
          $G/multi_device one-device 40 2>"$M/od$d.err"); rc=$?
    t2=$(now)
    n=$(grep -c '"type":"launch"' "$M/od$d.jsonl" 2>/dev/null)
    if [ $erc -eq 0 ] && [ $rc -eq 0 ] && [ -n "$exp" ] && [ "$exp" = "$got" ] && [ "${n:-0}" = 41 ]; then
        desc="$desc GPU $d: $n launches;"
    else
        nbad=$((nbad + 1)); desc="$desc GPU $d: rc $rc (plain $erc), plain '$exp' profiled '$got', ${n:-0} records of 41;"
    fi
    native=$(secs "$t0" "$t1"); prof=$(secs "$t1" "$t2")
    per=$(awk -v a="$native" -v b="$prof" -v n="${n:-0}" 'BEGIN { if (n > 0) printf "%.1f", (b - a) * 1000 / n; else print "n/a" }')
    echo "GPU $d alone (one-device 40): native $native s, profiled $prof s, ${n:-0} launches: $per ms per profiled launch (wall difference / launches)" >>"$FIG"
    grep -m1 "profiler added" "$M/od$d.err" | sed 's/^\[gpuprof [0-9]*\] */  exit summary: /' >>"$FIG"
done
if [ $nbad = 0 ]; then ok "one device at a time (CUDA_VISIBLE_DEVICES):$desc outputs unchanged"
else bad "one device at a time:$desc"; fi

# 4. PyTorch: NCCL all-reduce, two processes, one per GPU
# The ranks' files: exactly one JSONL per rank, its launches and device record
# on that rank's GPU only, each launch naming the rank (RANK); no NCCL kernel
# among them (gpuprof never replays one: its peer would not run it again).
torch_files() { # prefix
    python3 - "$1" "$2" <<'EOF'
import glob, json, sys
prefix = sys.argv[1]
out, bad = [], []
for rank in (0, 1):
    files = glob.glob("%s-%d-*.jsonl" % (prefix, rank))
    if len(files) != 1:
        bad.append("rank %d: %d files" % (rank, len(files)))
        continue
    recs = [json.loads(l) for l in open(files[0]) if l.strip()]
    launches = [r for r in recs if r.get("type") == "launch"]
    devs = sorted({r["device"] for r in recs if r.get("type") in ("launch", "device")})
    nccl = sum("nccl" in r["kernel"].lower() for r in launches)
    out.append("rank %d: %d launches (%d NCCL) on device %s" % (rank, len(launches), nccl, devs))
    if not launches or devs != [rank]:
        bad.append("rank %d: %d launches, devices %s" % (rank, len(launches), devs))
    if nccl:
        bad.append("rank %d: %d NCCL kernels profiled" % (rank, nccl))
    ranks = sorted({r.get("rank") for r in launches})
    if launches and ranks != [rank]:
        bad.append("rank %d: records name rank %s" % (rank, ranks))
print("; ".join(out + bad))
sys.exit(1 if bad else 0)
EOF
}
if ! python3 -c "import sys, torch, torch.distributed as d; sys.exit(0 if torch.cuda.device_count() >= 2 and d.is_nccl_available() else 1)" >/dev/null 2>&1; then
    skipped "torch nccl, NCCL kernels excluded: python3 cannot import torch with NCCL and 2 GPUs here"
    skipped "torch nccl, every kernel: python3 cannot import torch with NCCL and 2 GPUs here"
else
    t0=$(now)
    texp=$(timeout -k 10 "$T" python3 tests/gpu/torch_nccl.py 2>"$M/tn.plain.err"); erc=$?
    t1=$(now)
    echo "torch nccl: native $(secs "$t0" "$t1") s" >>"$FIG"
    sums=$(echo "$texp" | sed -n 's/.*allreduce sums //p' | sort -u | wc -l)
    if [ $erc -ne 0 ] || [ "$(echo "$texp" | grep -c 'exact ok')" != 2 ] || [ "$sums" != 1 ]; then
        bad "torch nccl: the plain run failed (rc $erc): '$texp'"; tail -5 "$M/tn.plain.err"
        skipped "torch nccl, every kernel: the plain run failed"
    else
        # a: NCCL's kernels excluded by the user's filter; b: no filter, and
        # gpuprof leaves them out itself (each summary says so)
        for step in x all; do
            if [ $step = x ]; then name="NCCL kernels excluded"; excl="GPUPROF_KERNEL_EXCLUDE=nccl"
            else name="every kernel"; excl="GPUPROF_ENABLE=1"; fi
            t0=$(now)
            tgot=$(env $excl GPUPROF_OUTPUT="$M/tn-$step-%q{RANK}-%p" \
                   timeout -k 10 "$T" env LD_PRELOAD="$LIB" python3 tests/gpu/torch_nccl.py \
                   2>"$M/tn-$step.err"); rc=$?
            t1=$(now)
            files=$(torch_files "$M/tn-$step"); frc=$?
            said=$(grep -c "communication kernel (NCCL)" "$M/tn-$step.err")
            [ $step = all ] && [ "$said" != 2 ] && { frc=1; files="$files; $said summaries name the NCCL kernels left out (2 expected)"; }
            if [ $rc -eq 0 ] && [ "$tgot" = "$texp" ] && [ $frc -eq 0 ]; then
                ok "torch nccl, $name: reduced values unchanged; $files"
            else
                bad "torch nccl, $name: rc $rc$([ $rc = 124 ] && echo ' (timed out)'), output '$tgot' (plain '$texp'); $files"
                grep -v "^expect" "$M/tn-$step.err" | tail -4
            fi
            echo "torch nccl, $name: profiled $(secs "$t0" "$t1") s; $files" >>"$FIG"
            grep "profiler added" "$M/tn-$step.err" | sed 's/^\[gpuprof [0-9]*\] */  exit summary: /' >>"$FIG"
        done
    fi
fi

# 5. characterize: the self-test suite over both GPUs, and on one
SUITE=tests/data/characterize/selftest.suite
for g in auto 1; do
    t0=$(now)
    timeout -k 10 $((T * 3)) $B/gpuprof-characterize run $SUITE -o "$M/char-$g" --force --gpus $g \
        >"$M/char-$g.out" 2>"$M/char-$g.err"
    eval "crc_$g=\$?"
    echo "characterize --gpus $g: $(secs "$t0" "$(now)") s, exit status $(eval echo \$crc_$g)" >>"$FIG"
done
# which GPU each program ran on (result.json's "gpu"; null with one GPU)
spread=$(python3 - "$M/char-auto" <<'EOF'
import collections, glob, json, sys
c = collections.Counter()
for f in glob.glob(sys.argv[1] + "/*/result.json"):
    c[json.load(open(f)).get("gpu")] += 1
print(" ".join("GPU %s: %d" % (g, n) for g, n in sorted(c.items(), key=str)))
sys.exit(0 if len([g for g in c if g is not None]) >= 2 else 1)
EOF
); src=$?
if [ "$crc_auto" = 0 ] && [ $src -eq 0 ]; then ok "characterize --gpus auto: every program ok, programs per GPU: $spread"
else bad "characterize --gpus auto: exit status $crc_auto, programs per GPU: $spread"; tail -5 "$M/char-auto.err"; fi
echo "characterize --gpus auto, programs per GPU: $spread" >>"$FIG"
# Compared: programs (name, status, message, kernels, launches, bad lines) and
# kernels (program, kernel, device, launches) of kernels.json.  Left out as
# measured (summary.c): native_wall_s, profiled_wall_s, slowdown,
# program_time_share, suite_time_share and the metric values; the verdicts,
# which follow from those values, are listed when they differ, not judged.
cmp=$(python3 - "$M/char-auto/summary/kernels.json" "$M/char-1/summary/kernels.json" <<'EOF'
import json, sys
def load(p):
    d = json.load(open(p))
    progs = sorted((p["name"], p["status"], p["message"], p.get("kernels"), p.get("launches"),
                    p.get("bad_lines")) for p in d["programs"])
    kern = sorted((k["program"], k["kernel"], k["device"], k["launches"]) for k in d["kernels"])
    verd = {(k["program"], k["kernel"]): [v["label"] for v in k["verdicts"]] for k in d["kernels"]}
    return progs, kern, verd
try:
    a, b = load(sys.argv[1]), load(sys.argv[2])
except (OSError, ValueError, KeyError) as e:
    print("cannot read the summaries: %s" % e)
    sys.exit(1)
diff = [x for x in a[1] if x not in b[1]] + [x for x in b[1] if x not in a[1]]
vd = sorted(k for k in a[2] if k in b[2] and a[2][k] != b[2][k])
msg = "%d programs, %d kernels" % (len(a[0]), len(a[1]))
if vd:
    msg += "; verdicts differ for %s" % ", ".join("%s/%s" % k for k in vd[:5])
if a[0] != b[0]:
    print(msg + "; programs differ: %s vs %s" % ([x for x in a[0] if x not in b[0]],
                                                [x for x in b[0] if x not in a[0]]))
    sys.exit(1)
if diff:
    print(msg + "; kernels differ: %s" % diff[:6])
    sys.exit(1)
print(msg)
EOF
); mrc=$?
if [ "$crc_auto" = "$crc_1" ] && [ $mrc -eq 0 ]; then ok "characterize --gpus auto vs 1: summaries agree apart from measured values: $cmp"
else bad "characterize --gpus auto vs 1: exit status $crc_auto vs $crc_1; $cmp"; fi

finish
