"""torch_ranges.py - capture ranges from PyTorch, run by tests/gpu/run-gpu-tests.sh
under build/gpuprof: torch.cuda.nvtx.range (NVTX push/pop) and
torch.cuda.profiler.profile (cudaProfilerStart/Stop).  Each place uses its own
elementwise kernel, so the records say which places were profiled:

    x * 2.0                  warm-up, before any range        (MulFunctor)
    torch.sin  inside nvtx.range("warmup")                    (sin_kernel)
    torch.cos  inside profiler.profile() and nvtx.range("step") (cos_kernel)
    torch.exp  inside profiler.profile() only                 (exp_kernel)

Prints a checksum that must not change under the profiler."""
import torch

x = torch.linspace(-1.0, 1.0, 1 << 20, device="cuda")
for _ in range(3):  # warm-up: what an autotuner or a first iteration would do
    y = x * 2.0
torch.cuda.synchronize()
with torch.cuda.nvtx.range("warmup"):
    z = torch.sin(x)
with torch.cuda.profiler.profile():
    with torch.cuda.nvtx.range("step"):
        w = torch.cos(x)
    v = torch.exp(x)
torch.cuda.synchronize()
total = (y.double().sum() + z.double().sum() + w.double().sum() + v.double().sum()).item()
print("torch checksum %.6f" % total)
