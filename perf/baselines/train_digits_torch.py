#!/usr/bin/env python3
"""train_digits_torch.py: the PyTorch anchor for examples/train_digits (cldnn): the same network, the
same data, split, epoch orders, initial weights and hyper-parameters, trained on CUDA with cuDNN in
strict FP32 (no TF32 in convolutions or matrix products), printing per epoch the mean training loss,
the test loss and accuracy, and the seconds of training (synchronized), then a RESULT line in
train_digits' format.

    python3 perf/baselines/train_digits_torch.py [--data digits.csv(.gz)] [--epochs 10] [--batch 32]
        [--lr 0.05] [--momentum 0.9] [--weight-decay 0] [--seed 1] [--device cuda]

The network (examples/train_digits/train_digits.cpp): conv 3x3 8 (no bias) -> BatchNorm2d (momentum
0.1, eps 1e-5) -> ReLU -> max pool 2x2 -> conv 3x3 16 -> ReLU -> average pool 2x2 -> FC 10 -> cross
entropy; SGD with momentum (PyTorch's form, which the cldnn and CPU paths copy).
The shared definitions of examples/train_digits/data.hpp are repeated here: splitmix64, the split
(a permutation from seed*2+1, the first round(0.2 n) indices held out), one permutation of the
training indices per epoch from seed*2+2 (floor(train/batch) full batches), He-normal weights from
seed*2+3 in parameter order. Data: --data, else scikit-learn's own digits.csv.gz.
"""
import argparse
import gzip
import math
import os
import sys
import time

MASK = (1 << 64) - 1
SIDE, PIXELS, CLASSES, CONV1, CONV2, AVG = 8, 64, 10, 8, 16, 2
FEATURES = CONV2 * (SIDE // 2 // AVG) ** 2


class Rng:
    """splitmix64, as digits::Rng."""

    def __init__(self, seed):
        self.s = seed & MASK

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self):
        return (self.next() >> 11) * (1.0 / 9007199254740992.0)

    def normal(self):
        u1 = self.uniform()
        u2 = self.uniform()
        return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)

    def permutation(self, n):
        p = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.next() % (i + 1)
            p[i], p[j] = p[j], p[i]
        return p


def default_data():
    import importlib.util
    spec = importlib.util.find_spec("sklearn")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("train_digits_torch: no --data and no scikit-learn to take digits.csv.gz from")
    return os.path.join(list(spec.submodule_search_locations)[0], "datasets", "data", "digits.csv.gz")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    images, labels = [], []
    with opener(path, "rt") as f:
        for line in f:
            if not line.strip():
                continue
            v = [int(t) for t in line.split(",")]
            images.append([x / 16.0 for x in v[:PIXELS]])
            labels.append(v[PIXELS])
    return images, labels


def split(n, seed):
    p = Rng(seed * 2 + 1).permutation(n)
    n_test = int(math.floor(n * 0.2 + 0.5))
    return p[n_test:], p[:n_test]


def initial_params(seed):
    rng = Rng(seed * 2 + 3)

    def he(count, fan_in):
        s = math.sqrt(2.0 / fan_in)
        return [rng.normal() * s for _ in range(count)]

    return [he(CONV1 * 9, 9), [1.0] * CONV1, [0.0] * CONV1, he(CONV2 * CONV1 * 9, CONV1 * 9), [0.0] * CONV2,
            he(CLASSES * FEATURES, FEATURES), [0.0] * CLASSES]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--momentum", type=float, default=0.9)
    ap.add_argument("--weight-decay", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", default="cuda")
    a = ap.parse_args()

    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    dev = torch.device(a.device)

    path = a.data or default_data()
    images, labels = load(path)
    train, test = split(len(labels), a.seed)
    B = a.batch
    nb = len(train) // B
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu"
    print(f"data: {path}")
    print(f"samples: {len(labels)} (train {len(train)}, test {len(test)}); epochs {a.epochs}, batch {B} "
          f"({nb} steps/epoch), lr {a.lr:g}, momentum {a.momentum:g}, weight decay {a.weight_decay:g}, seed {a.seed}")
    print(f"[torch] device: {name}; torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}, "
          f"allow_tf32 conv {torch.backends.cudnn.allow_tf32} matmul {torch.backends.cuda.matmul.allow_tf32}")

    X = torch.tensor(images, dtype=torch.float32, device=dev).view(-1, 1, SIDE, SIDE)
    Y = torch.tensor(labels, dtype=torch.long, device=dev)
    model = nn.Sequential(
        nn.Conv2d(1, CONV1, 3, padding=1, bias=False), nn.BatchNorm2d(CONV1, eps=1e-5, momentum=0.1), nn.ReLU(),
        nn.MaxPool2d(2), nn.Conv2d(CONV1, CONV2, 3, padding=1), nn.ReLU(), nn.AvgPool2d(AVG), nn.Flatten(),
        nn.Linear(FEATURES, CLASSES)).to(dev)
    init = initial_params(a.seed)
    with torch.no_grad():
        for p, v in zip(model.parameters(), init):  # conv1.w, bn.w, bn.b, conv2.w, conv2.b, fc.w, fc.b
            p.copy_(torch.tensor(v, dtype=torch.float32).view_as(p))
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=a.momentum, weight_decay=a.weight_decay)
    test_idx = torch.tensor(test, device=dev)
    orders = Rng(a.seed * 2 + 2)
    times, acc, train_loss = [], 0.0, 0.0
    for e in range(a.epochs):
        perm = orders.permutation(len(train))
        order = [train[i] for i in perm][: nb * B]
        if dev.type == "cuda":
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        idx = torch.tensor(order, device=dev)
        model.train()
        total = torch.zeros((), device=dev)
        for i in range(nb):
            bi = idx[i * B:(i + 1) * B]
            loss = F.cross_entropy(model(X[bi]), Y[bi])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            total += loss.detach()
        train_loss = total.item() / nb  # synchronizes
        times.append(time.perf_counter() - t0)
        model.eval()
        with torch.no_grad():
            logp = F.log_softmax(model(X[test_idx]), dim=1)
            yt = Y[test_idx]
            test_loss = F.nll_loss(logp, yt).item()
            acc = 100.0 * (logp.argmax(1) == yt).float().mean().item()
        print(f"[torch] epoch {e + 1:2d}/{a.epochs}: train loss {train_loss:.4f}, test loss {test_loss:.4f}, "
              f"test accuracy {acc:6.2f}%, {times[-1]:.3f} s", flush=True)
    rest = sum(times[1:]) / (len(times) - 1) if len(times) > 1 else times[0]
    print(f"RESULT path=torch test_acc={acc:.2f} train_loss={train_loss:.4f} epoch1_s={times[0]:.4f} "
          f"epoch_s={rest:.4f}")


if __name__ == "__main__":
    main()
