#!/bin/sh
# capture_ranges.sh - capture ranges on a GPU, under the launcher (build/gpuprof):
#  14. a C program (tests/gpu/ranges.c, driver API) with NVTX push/pop ranges
#      (default domain, a domain of its own, another thread's launch while the
#      main thread is inside a range), a start/end range and
#      cuProfilerStart/Stop: which of its eight kernels get records, with the
#      program's output unchanged, in kernel replay and in replay mode none;
#      the info lines; %q{VAR} and the rank;
#  15. PyTorch (tests/gpu/torch_ranges.py): torch.cuda.nvtx.range and
#      torch.cuda.profiler.profile, when python3 imports torch with CUDA.
# Run by run-gpu-tests.sh, or alone: sh tests/gpu/capture_ranges.sh.  Without a
# GPU every case reports SKIP.  Prints "gpu-ranges: N passed, N failed, N skipped".
. tests/gpu/common.sh
if ! nvidia-smi -L >/dev/null 2>&1; then
    skipped "capture_ranges: no GPU on this machine"
    skipped "torch_ranges: no GPU on this machine"
    echo "gpu-ranges: $pass passed, $fail failed, $skip skipped"
    exit 0
fi
for f in $B/gpuprof $B/libgpuprof.so $G/ranges $G/range_kernels.cubin; do
    if [ ! -f "$f" ]; then
        bad "$f is not built (make)"
        echo "gpu-ranges: $pass passed, $fail failed, $skip skipped"
        exit 1
    fi
done

# 14. capture ranges from a C program
R=$G/ranges
RCUBIN=$G/range_kernels.cubin
rexp=$($R $RCUBIN 2>&1)
ranges_case() { # name  want (kernels with records, sorted)  launcher options...
    name=$1; want=$2; shift 2
    gotout=$(timeout 300 $B/gpuprof -f -o $OUT/rng-$name "$@" $R $RCUBIN 2>$OUT/rng-$name.err); rc=$?
    got=$(grep '"type":"launch"' $OUT/rng-$name.jsonl 2>/dev/null | grep -o '"kernel":"rk_[a-z_]*' |
          sed 's/.*"rk_/rk_/' | sort -u | tr '\n' ' ')
    if [ $rc -eq 0 ] && [ "$gotout" = "$rexp" ] && [ "$got" = "$want" ]; then ok "ranges $name: $got"
    else bad "ranges $name: rc $rc, output '$gotout' (plain '$rexp'), records of '$got', want '$want'"
         tail -3 $OUT/rng-$name.err; fi
}
all7="rk_fwd rk_other_thread rk_outside rk_phase rk_profiled rk_step rk_warmup "
ranges_case default "$all7" # cuProfilerStop ends profiling: rk_after_stop is left out
ranges_case nostartstop "rk_after_stop $all7" --disable-profiler-start-stop
ranges_case step "rk_step " --nvtx-include step/
ranges_case anchored "rk_step " --nvtx-include '[train/step]'
ranges_case nested "rk_step " --nvtx-include 'train/*/step' --nvtx-exclude 'warmup/'
ranges_case regex "rk_step " --nvtx-include 'regex:^tr/'
ranges_case domain "rk_fwd " --nvtx-include model@fwd/
ranges_case startend "rk_phase " --nvtx-include phase2
ranges_case either "rk_phase rk_step " --nvtx-include step/ --nvtx-include phase2
ranges_case exclude "rk_fwd rk_other_thread rk_outside rk_phase rk_profiled rk_step " --nvtx-exclude warmup/
ranges_case fromstart "rk_profiled " --profile-from-start off
ranges_case count "rk_step " --nvtx-include step/ -k regex:rk_ -c 1
# replay mode none: the same ranges and filters decide which launches count
ranges_case none "$all7" --replay-mode none
ranges_case none-step "rk_step " --replay-mode none --nvtx-include step/
ranges_case none-kernel "rk_fwd " --replay-mode none -k regex:fwd
est=$(cat $OUT/rng-none-step.jsonl $OUT/rng-none-kernel.jsonl 2>/dev/null | grep '"type":"variant_estimate"' |
      grep -o '"kernel":"rk_[a-z_]*' | sed 's/.*"rk_/rk_/' | sort -u | tr '\n' ' ')
case " $est" in
    *rk_warmup*|*rk_outside*|*rk_phase*|*rk_other_thread*|*rk_profiled*|*rk_after_stop*)
        bad "replay mode none: variant estimates of launches outside the ranges or filters: $est" ;;
    *) ok "replay mode none: variant estimates only inside the ranges and filters (${est:-none})" ;;
esac
if grep -q "outside the NVTX ranges asked for" $OUT/rng-step.err &&
   grep -q "outside cudaProfilerStart/Stop" $OUT/rng-fromstart.err; then ok "ranges: the summary names both reasons"
else bad "ranges: the summary lacks the reasons"; grep "not profiled" $OUT/rng-step.err $OUT/rng-fromstart.err; fi
# GPUPROF_LOG_LEVEL=info: one line at start, one per profiled launch
ranges_case verbose "$all7" --verbose
ninfo=$(grep -c "info: profiled rk_" $OUT/rng-verbose.err)
if grep -q "info: gpuprof [0-9.]*: metrics: the default set" $OUT/rng-verbose.err && [ "$ninfo" = 7 ]; then
    ok "log level info: the start-up line and $ninfo progress lines"
else bad "log level info: $ninfo progress lines, start-up line: $(grep -c 'info: gpuprof' $OUT/rng-verbose.err)"; fi
# %q{VAR} in the output name, and the rank in the records
got=$(OMPI_COMM_WORLD_RANK=3 timeout 300 $B/gpuprof -f -o "$OUT/rank-%q{OMPI_COMM_WORLD_RANK}" -c 1 $R $RCUBIN 2>$OUT/rank.err)
if [ "$got" = "$rexp" ] && grep -q '"rank":3,' $OUT/rank-3.jsonl 2>/dev/null; then ok "%q{OMPI_COMM_WORLD_RANK} and the rank recorded"
else bad "%q{} and rank: $(ls $OUT/rank-* 2>/dev/null)"; tail -3 $OUT/rank.err; fi

# 15. capture ranges from PyTorch: torch.cuda.nvtx.range and
#     torch.cuda.profiler.profile (cudaProfilerStart/Stop); the warm-up before
#     them is what --profile-from-start off skips (autotuning, first iterations)
if python3 -c "import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)" >/dev/null 2>&1; then
    texp=$(python3 tests/gpu/torch_ranges.py 2>&1)
    torch_case() { # name  "kernels with records"  "kernels without"  launcher options...
        name=$1; present=$2; absent=$3; shift 3
        tgot=$(timeout 600 $B/gpuprof -f -o $OUT/torch-$name "$@" python3 tests/gpu/torch_ranges.py \
               2>$OUT/torch-$name.err); rc=$?
        grep '"type":"launch"' $OUT/torch-$name.jsonl >$OUT/torch-$name.launches 2>/dev/null
        miss=""; extra=""
        for k in $present; do grep -q "$k" $OUT/torch-$name.launches || miss="$miss $k"; done
        for k in $absent; do grep -q "$k" $OUT/torch-$name.launches && extra="$extra $k"; done
        if [ $rc -eq 0 ] && [ "$tgot" = "$texp" ] && [ -z "$miss$extra" ]; then
            ok "torch $name: records of $present, none of $absent"
        else bad "torch $name: rc $rc, output '$tgot' (plain '$texp'), missing:$miss, unwanted:$extra"
             tail -3 $OUT/torch-$name.err; fi
    }
    torch_case step "cos_kernel" "sin_kernel exp_kernel MulFunctor" --nvtx-include step/
    torch_case fromstart "cos_kernel exp_kernel" "sin_kernel MulFunctor" --profile-from-start off
    torch_case exclude "MulFunctor cos_kernel exp_kernel" "sin_kernel" --nvtx-exclude warmup/
else
    skipped "torch_ranges: python3 cannot import torch with CUDA here"
fi

echo "gpu-ranges: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
