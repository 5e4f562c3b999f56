"""torch_loop.py - a PyTorch training loop for replay mode none's targets
(tests/gpu/bench/none_targets.sh): a small convolutional network on random
images, STEPS optimizer steps (argument 1, default 200), the same kernels
launched at every step.  Deterministic algorithms and no cuDNN autotuning,
so that the printed checksum is the same with and without a profiler."""
import sys
import time

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
torch.manual_seed(0)
torch.backends.cudnn.benchmark = False
torch.backends.cudnn.deterministic = True
torch.use_deterministic_algorithms(True, warn_only=True)
dev = "cuda"
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 64, 3, padding=1), torch.nn.BatchNorm2d(64), torch.nn.ReLU(),
    torch.nn.Conv2d(64, 128, 3, padding=1), torch.nn.BatchNorm2d(128), torch.nn.ReLU(),
    torch.nn.MaxPool2d(2),
    torch.nn.Conv2d(128, 256, 3, padding=1), torch.nn.BatchNorm2d(256), torch.nn.ReLU(),
    torch.nn.AvgPool2d(8), torch.nn.Flatten(),
    torch.nn.Linear(256 * 16, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10),
).to(dev)
opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
x = torch.randn(128, 3, 64, 64, device=dev)
y = torch.randint(0, 10, (128,), device=dev)
t0 = time.time()
for step in range(steps):
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
torch.cuda.synchronize()
print("torch_loop %d steps: loss %.6f params %.6f" % (
    steps, loss.item(), sum(p.double().sum().item() for p in model.parameters())))
print("torch_loop: %.2f s in the loop" % (time.time() - t0), file=sys.stderr)
