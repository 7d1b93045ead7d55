#!/usr/bin/env python3
"""pytorch_bench.py: PyTorch on cldnn (device "ocl", integrations/pytorch) against PyTorch on CUDA.

    python3 perf/pytorch_bench.py [--devices ocl,cuda] [--models resnet50,mobilenet_v2]
        [--train-batches 32,64] [--infer-batches 1,64] [--size 224] [--steps 10] [--warmup 3]
        [--tiny 5000] [--out FILE.md] [--meta key=value ...]

The same torchvision model code on each device, FP32 with TF32 off on both sides
(torch.backends.cudnn.allow_tf32 and torch.backends.cuda.matmul.allow_tf32 False) and
torch.backends.cudnn.benchmark = True (cuDNN's autotuner on CUDA; cldnn's Find on ocl, once per
shape). Random images of --size, 1000 classes.
  train  forward, cross-entropy, backward, SGD step (momentum 0.9, weight decay 1e-4): images/s over
         --steps steps after --warmup (the warm-up includes the algorithm searches), device
         synchronized around the timed steps
  infer  eval mode under torch.no_grad(): images/s over max(--steps, 50 / batch) forward passes
  tiny   host overhead per op: --tiny in-place `x.add_(1.0)` on a one-element tensor, then --tiny
         out-of-place `x + y`, synchronized at the end: ops per second (the result is checked)
The ocl runs set CLDNN_TORCH_FALLBACK=warn; every op that fell back to the CPU is listed (none
expected). Prints one `RESULT` line per measurement and writes a markdown table to --out.
"""
import argparse
import os
import platform
import sys
import time
import traceback

os.environ.setdefault("CLDNN_TORCH_FALLBACK", "warn")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torchvision  # noqa: E402


def sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize()
    elif dev.type == "ocl":
        torch.ocl.synchronize()


def train_rate(name, dev, batch, size, steps, warmup):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(num_classes=1000).to(dev)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
    x = torch.randn(batch, 3, size, size).to(dev)
    y = torch.randint(0, 1000, (batch,)).to(dev)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss

    t0 = time.perf_counter()
    for _ in range(warmup):
        loss = step()
    sync(dev)
    first = time.perf_counter() - t0
    if not torch.isfinite(loss.detach().cpu()):
        raise RuntimeError("loss is not finite")
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    sync(dev)
    dt = time.perf_counter() - t0
    return batch * steps / dt, dt / steps * 1e3, first


def infer_rate(name, dev, batch, size, steps, warmup):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(num_classes=1000).to(dev).eval()
    x = torch.randn(batch, 3, size, size).to(dev)
    iters = max(steps, 50 // batch)
    with torch.no_grad():
        t0 = time.perf_counter()
        for _ in range(warmup):
            model(x)
        sync(dev)
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(iters):
            model(x)
        sync(dev)
        dt = time.perf_counter() - t0
    return batch * iters / dt, dt / iters * 1e3, first


def tiny_rate(dev, n):
    x = torch.zeros(1, device=dev)
    for _ in range(10):
        x.add_(1.0)
    sync(dev)
    t0 = time.perf_counter()
    for _ in range(n):
        x.add_(1.0)
    sync(dev)
    inplace = n / (time.perf_counter() - t0)
    if float(x.cpu()[0]) != 10.0 + n:
        raise RuntimeError("tiny loop: x = %r, want %r" % (float(x.cpu()[0]), 10.0 + n))
    y = torch.ones(1, device=dev)
    z = x + y
    sync(dev)
    t0 = time.perf_counter()
    for _ in range(n):
        z = x + y
    sync(dev)
    outplace = n / (time.perf_counter() - t0)
    if float(z.cpu()[0]) != 11.0 + n:
        raise RuntimeError("tiny loop: x + y = %r" % float(z.cpu()[0]))
    return inplace, outplace


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--devices", default="ocl,cuda")
    ap.add_argument("--models", default="resnet50,mobilenet_v2")
    ap.add_argument("--train-batches", default="32,64")
    ap.add_argument("--infer-batches", default="1,64")
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--tiny", type=int, default=5000)
    ap.add_argument("--out", default=None)
    ap.add_argument("--meta", action="append", default=[], help="key=value lines for the table's header")
    args = ap.parse_args()

    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    devices = [d for d in args.devices.split(",") if d]
    if "ocl" in devices:
        import cldnn_torch  # noqa: F401  (registers the ocl device)
    names = {}
    if "ocl" in devices:
        names["ocl"] = torch.ocl.get_device_name()
    if "cuda" in devices and torch.cuda.is_available():
        names["cuda"] = torch.cuda.get_device_name(0)
    res = {}  # (kind, model, batch, device) -> (images/s, ms per step, warm-up s) or an error string
    cases = [("train", m, int(b)) for m in args.models.split(",") for b in args.train_batches.split(",")]
    cases += [("infer", m, int(b)) for m in args.models.split(",") for b in args.infer_batches.split(",")]
    for d in devices:
        if d not in names:
            print("# device %s is not available" % d, flush=True)
            continue
        dev = torch.device(d)
        for kind, m, b in cases:
            fn = train_rate if kind == "train" else infer_rate
            try:
                r = fn(m, dev, b, args.size, args.steps, args.warmup)
                res[(kind, m, b, d)] = r
                print("RESULT %s %s batch=%d %s %.1f images/s %.2f ms/step warmup %.1f s" %
                      (kind, m, b, d, r[0], r[1], r[2]), flush=True)
            except Exception as e:  # noqa: BLE001  (a failed case is reported, the others still run)
                traceback.print_exc()
                res[(kind, m, b, d)] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:120])
                print("RESULT %s %s batch=%d %s FAILED %s" % (kind, m, b, d, res[(kind, m, b, d)]), flush=True)
            if d == "ocl":
                torch.ocl.empty_cache()
            elif d == "cuda":
                torch.cuda.empty_cache()
        if args.tiny > 0:
            try:
                r = tiny_rate(dev, args.tiny)
                res[("tiny", "", 0, d)] = r
                print("RESULT tiny %s add_ %.0f ops/s, x + y %.0f ops/s" % (d, r[0], r[1]), flush=True)
            except Exception as e:  # noqa: BLE001
                traceback.print_exc()
                res[("tiny", "", 0, d)] = "%s: %s" % (type(e).__name__, e)
    if args.out:
        write_table(args, res, names, cases)
    return 0 if all(not isinstance(v, str) for v in res.values()) else 1


def write_table(args, res, names, cases):
    lines = ["# PyTorch on cldnn (ocl) against PyTorch on CUDA", ""]
    for m in args.meta:
        k, _, v = m.partition("=")
        lines.append("- %s: %s" % (k, v))
    lines.append("- torch %s, torchvision %s, Python %s" % (torch.__version__, torchvision.__version__,
                                                             platform.python_version()))
    for d, n in names.items():
        lines.append("- %s: %s" % (d, n))
    lines.append("- FP32, TF32 off on both sides, cudnn.benchmark = True (ocl: cldnn's Find), %dx%d random images, "
                 "%d warm-up + %d timed steps" % (args.size, args.size, args.warmup, args.steps))
    lines.append("- command: `python3 perf/pytorch_bench.py --devices %s --models %s --train-batches %s "
                 "--infer-batches %s --size %d --steps %d --warmup %d --tiny %d`" % (
                     args.devices, args.models, args.train_batches, args.infer_batches, args.size, args.steps,
                     args.warmup, args.tiny))
    lines += ["", "| case | model | batch | ocl images/s | cuda images/s | ocl / cuda | ocl ms/step | cuda ms/step |"
              " ocl warm-up s |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]

    def cell(v, i, fmt):
        return fmt % v[i] if isinstance(v, tuple) else ("n/a" if v is None else "FAILED")

    for kind, m, b in cases:
        o, c = res.get((kind, m, b, "ocl")), res.get((kind, m, b, "cuda"))
        ratio = "%.2f" % (o[0] / c[0]) if isinstance(o, tuple) and isinstance(c, tuple) else "n/a"
        lines.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s |" % (
            kind, m, b, cell(o, 0, "%.1f"), cell(c, 0, "%.1f"), ratio, cell(o, 1, "%.2f") if o else "n/a",
            cell(c, 1, "%.2f") if c else "n/a", cell(o, 2, "%.1f") if o else "n/a"))
    o, c = res.get(("tiny", "", 0, "ocl")), res.get(("tiny", "", 0, "cuda"))
    if o or c:
        lines += ["", "| host overhead (one-element tensor) | ocl ops/s | cuda ops/s | ocl / cuda |", "|---|---:|---:|---:|"]
        for i, what in enumerate(("x.add_(1.0)", "x + y")):
            ratio = "%.2f" % (o[i] / c[i]) if isinstance(o, tuple) and isinstance(c, tuple) else "n/a"
            lines.append("| `%s` | %s | %s | %s |" % (what, cell(o, i, "%.0f") if o else "n/a",
                                                     cell(c, i, "%.0f") if c else "n/a", ratio))
    failed = [(k, v) for k, v in res.items() if isinstance(v, str)]
    if failed:
        lines += ["", "Failed cases:"] + ["- %s %s batch %d on %s: %s" % (k[0], k[1], k[2], k[3], v) for k, v in failed]
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
