"""triton_kernels.py - Triton kernels for the cross-check against ncu:
elementwise add, row softmax and a tiled matmul, each with one fixed
configuration (no autotuning, so that profiled and plain runs agree)."""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.jit
def softmax_kernel(out, inp, stride, ncols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(inp + row * stride + cols, mask=cols < ncols, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(out + row * stride + cols, e / tl.sum(e, axis=0), mask=cols < ncols)


@triton.jit
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        av = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        bv = tl.load(b + (k + rk)[:, None] * N + rn[None, :])
        acc += tl.dot(av, bv)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


torch.manual_seed(0)
dev = "cuda"
n = 1 << 22
x, y = torch.randn(n, device=dev), torch.randn(n, device=dev)
o = torch.empty_like(x)
add_kernel[(triton.cdiv(n, 1024),)](x, y, o, n, BLOCK=1024)
s_in = torch.randn(4096, 781, device=dev)
s_out = torch.empty_like(s_in)
softmax_kernel[(4096,)](s_out, s_in, s_in.stride(0), 781, BLOCK=1024)
M = N = K = 1024
a = torch.randn(M, K, device=dev, dtype=torch.float16)
b = torch.randn(K, N, device=dev, dtype=torch.float16)
c = torch.empty(M, N, device=dev, dtype=torch.float16)
matmul_kernel[(M // 128, N // 128)](a, b, c, M, N, K, BM=128, BN=128, BK=32)
torch.cuda.synchronize()
print("triton add %.6f softmax %.6f matmul %.4f" % (o.double().sum().item(), s_out.double().sum().item(), c.double().sum().item()))
