"""torch_nccl.py - an NCCL all-reduce between two processes, one per GPU, run
by tests/gpu/multi_gpu.sh with and without the profiler.

    python3 tests/gpu/torch_nccl.py          # starts ranks 0 and 1, prints their lines

Without RANK in the environment this process starts the two ranks itself
(as torchrun would: RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR=127.0.0.1 and a
free MASTER_PORT in each one's environment, so that GPUPROF_OUTPUT can name
files by rank with %q{RANK}), never touches CUDA, and prints the ranks'
stdout in rank order.  Each rank runs elementwise kernels on its GPU, then
all-reduces (sum) three times, and prints the reduced values; both ranks must
print the same sums, and the integer-valued one must equal the sum computed
here on the host ("exact ok").  Exit status: 0, or the first failing rank's.
"""
import os
import socket
import subprocess
import sys
import time

N = 1 << 20
ROUNDS = 3
NO_MULTICAST = {"NCCL_NVLS_ENABLE": "0", "TORCH_SYMM_MEM_DISABLE_MULTICAST": "1",
                "NVSHMEM_DISABLE_NVLS": "1"}


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def launch(world=2):
    port = str(free_port())
    procs = []
    for rank in range(world):
        env = dict(os.environ)
        env.update(NO_MULTICAST)
        env.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world),
                   MASTER_ADDR="127.0.0.1", MASTER_PORT=port)
        procs.append(subprocess.Popen([sys.executable, os.path.abspath(__file__)], env=env,
                                      stdout=subprocess.PIPE))
    # a rank that fails leaves the other waiting in NCCL for ever: end it
    rc = 0
    while any(p.poll() is None for p in procs):
        failed = [p for p in procs if p.poll()]
        if failed:
            rc = rc or failed[0].returncode
            for p in procs:
                if p.poll() is None:
                    p.kill()
        time.sleep(0.2)
    for p in procs:
        sys.stdout.write(p.stdout.read().decode(errors="replace"))
        rc = rc or p.returncode
    return rc


def expected_exact(world):
    # sum over ranks r of (r + 1) * (i % 1000) for every i, in float64 on the host
    per_rank = sum(i % 1000 for i in range(1000)) * (N // 1000) + sum(i % 1000 for i in range(N % 1000))
    return float(per_rank * sum(r + 1 for r in range(world)) * ROUNDS)


def worker():
    import torch
    import torch.distributed as dist

    rank = int(os.environ["RANK"])
    world = int(os.environ["WORLD_SIZE"])
    local = int(os.environ.get("LOCAL_RANK", rank))
    torch.cuda.set_device(local)
    dev = torch.device("cuda", local)
    dist.init_process_group("nccl", init_method="env://", rank=rank, world_size=world)
    base = torch.arange(N, device=dev, dtype=torch.float32)
    exact_total = 0.0
    sums = []
    for r in range(ROUNDS):
        # integer-valued floats: any order of the reduction gives the same value
        exact = torch.remainder(base, 1000.0) * float(rank + 1)
        wavy = torch.sin(base * (0.001 * (r + 1))) * float(rank + 1) + 0.5 * r
        dist.all_reduce(exact, op=dist.ReduceOp.SUM)
        dist.all_reduce(wavy, op=dist.ReduceOp.SUM)
        exact_total += exact.double().sum().item()
        sums.append(wavy.double().sum().item())
    torch.cuda.synchronize()
    want = expected_exact(world)
    print("rank %d device %d: exact %s (%.1f), allreduce sums %s"
          % (rank, torch.cuda.current_device(), "ok" if exact_total == want else "WRONG",
             exact_total, " ".join("%.9e" % s for s in sums)), flush=True)
    dist.destroy_process_group()
    return 0 if exact_total == want else 1


if __name__ == "__main__":
    if "RANK" in os.environ:
        sys.exit(worker())
    for k, v in NO_MULTICAST.items():
        os.environ.setdefault(k, v)
    sys.exit(launch())
