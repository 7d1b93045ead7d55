"""A small CNN trained for a few SGD steps on the ocl device and on the CPU: the same losses and
parameters, with no op falling back to the CPU (run in a subprocess with CLDNN_TORCH_FALLBACK=error)."""
import os
import subprocess
import sys

TRAIN = r'''
import copy, torch, torch.nn as nn, torch.nn.functional as F
import cldnn_torch

torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1, bias=False)
        self.fc = nn.Linear(8 * 2 * 2, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        x = F.adaptive_avg_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(torch.flatten(x, 1))

def train(model, device, steps=4):
    model = model.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
    g = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(steps):
        x = torch.randn(4, 3, 8, 8, generator=g).to(device)
        t = torch.randint(0, 10, (4,), generator=g).to(device)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), t)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    model.eval()
    with torch.no_grad():
        out = model(torch.randn(2, 3, 8, 8, generator=g).to(device)).cpu()
    return losses, {k: v.detach().cpu() for k, v in model.state_dict().items()}, out

net = Net()
lc, sc, oc = train(copy.deepcopy(net), "cpu")
lo, so, oo = train(copy.deepcopy(net), "ocl")
print("losses cpu", lc)
print("losses ocl", lo)
torch.testing.assert_close(torch.tensor(lo), torch.tensor(lc), atol=1e-4, rtol=1e-4)
for k in sc:
    torch.testing.assert_close(so[k], sc[k], atol=1e-4, rtol=1e-4, msg=lambda m: k + ": " + m)
torch.testing.assert_close(oo, oc, atol=1e-4, rtol=1e-4)
print("OK")
'''


def test_small_cnn_sgd_matches_cpu_without_fallback():
    env = dict(os.environ, CLDNN_TORCH_FALLBACK=os.environ.get("CLDNN_TORCH_MODEL_FALLBACK", "error"))
    r = subprocess.run([sys.executable, "-c", TRAIN], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "OK" in r.stdout, r.stdout + r.stderr
