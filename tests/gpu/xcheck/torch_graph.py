"""torch_graph.py - a PyTorch CUDA graph for the cross-check against ncu:
a small MLP step captured once and replayed three times."""
import torch

torch.manual_seed(0)
dev = "cuda"
w1 = torch.randn(512, 512, device=dev) / 16
w2 = torch.randn(512, 512, device=dev) / 16
x = torch.randn(256, 512, device=dev)
out = torch.empty(256, 512, device=dev)

def step():
    h = torch.relu(x @ w1)
    out.copy_(torch.softmax(h @ w2, dim=1) + x)

s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    step()  # warm-up outside the graph (cuBLAS handles, workspaces)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    step()
for _ in range(3):
    g.replay()
    x.copy_(out)
torch.cuda.synchronize()
print("torch_graph %.6f" % out.double().sum().item())
