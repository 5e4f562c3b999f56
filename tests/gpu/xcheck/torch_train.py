"""torch_train.py - a PyTorch training step for the cross-check against ncu:
convolutions, matmuls, reductions, a loss and an optimizer step, twice.
Prints a checksum of the parameters (deterministic algorithms, no cuDNN
autotuning, so that the output is the same with and without a profiler)."""
import torch

torch.manual_seed(0)
torch.backends.cudnn.benchmark = False
torch.backends.cudnn.deterministic = True
torch.use_deterministic_algorithms(True, warn_only=True)
dev = "cuda"
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
    torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(4),
    torch.nn.Flatten(), torch.nn.Linear(32 * 16, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10),
).to(dev)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 3, 32, 32, device=dev)
y = torch.randint(0, 10, (64,), device=dev)
for step in range(2):
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
torch.cuda.synchronize()
print("torch_train loss %.6f params %.6f" % (loss.item(), sum(p.double().sum().item() for p in model.parameters())))
