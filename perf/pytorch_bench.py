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
  profile  (--profile, training cases) one more step with every op synchronized before and after,
         its wall time summed per op (and per convolution shape) on each device: where the time goes
  tiny   host overhead per op: --tiny in-place `x.add_(1.0)` on a one-element tensor, then --tiny
         out-of-place `x + y`, synchronized at the end: ops per second (the result is checked)
The ocl runs set CLDNN_TORCH_FALLBACK=warn; every op that fell back to the CPU is listed (none
expected). Prints one `RESULT` line per measurement and writes a markdown table to --out.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import traceback

os.environ.setdefault("CLDNN_TORCH_FALLBACK", "warn")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torchvision  # noqa: E402
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402


def sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize()
    elif dev.type == "ocl":
        torch.ocl.synchronize()


# Ops whose names differ between the backends for the same work (cuDNN's batch norm on CUDA, the
# native one on ocl) are reported under one name.
def op_name(func):
    name = func.overloadpacket.__name__
    for prefix in ("cudnn_", "miopen_", "native_", "_native_"):
        if name.startswith(prefix):
            name = name[len(prefix):]
    return name.replace("_legit", "").replace("_no_training", "").replace("_no_update", "")


def conv_key(name, args):
    x, w = (args[0], args[1]) if name == "convolution" else (args[1], args[2])
    stride = args[3] if name == "convolution" else args[4]
    groups = args[8] if name == "convolution" else args[9]
    return "%s x%s w%s s%s%s" % (name, "x".join(map(str, x.shape)), "x".join(map(str, w.shape)),
                                 stride[0], " g%d" % groups if groups != 1 else "")


class OpTimer(TorchDispatchMode):
    """Wall time of each op with the device synchronized before and after it: per op name, and
    per convolution shape (forward and backward). The inner calls of an op are not seen."""

    def __init__(self, dev):
        super().__init__()
        self.dev, self.ops, self.convs = dev, {}, {}

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        sync(self.dev)
        t0 = time.perf_counter()
        out = func(*args, **(kwargs or {}))
        sync(self.dev)
        dt = time.perf_counter() - t0
        name = op_name(func)
        n, s = self.ops.get(name, (0, 0.0))
        self.ops[name] = (n + 1, s + dt)
        if (name, len(args)) in (("convolution", 9), ("convolution_backward", 11)):
            key = conv_key(name, args)
            n, s = self.convs.get(key, (0, 0.0))
            self.convs[key] = (n + 1, s + dt)
        return out


def train_rate(name, dev, batch, size, steps, warmup, profile=False):
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
    prof = None
    if profile:
        with OpTimer(dev) as prof:
            step()
        sync(dev)
    return batch * steps / dt, dt / steps * 1e3, first, prof


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
    ap.add_argument("--profile", action="store_true", help="per-op times of one training step")
    ap.add_argument("--out", default=None)
    ap.add_argument("--json", default=None, help=argparse.SUPPRESS)  # a per-device child's results
    ap.add_argument("--meta", action="append", default=[], help="key=value lines for the table's header")
    args = ap.parse_args()

    # An empty list (--infer-batches "") or batch 0 leaves that kind of case out.
    def batches(text):
        return [int(b) for b in text.split(",") if b.strip() and int(b) > 0]
    cases = [("train", m, b) for m in args.models.split(",") for b in batches(args.train_batches)]
    cases += [("infer", m, b) for m in args.models.split(",") for b in batches(args.infer_batches)]
    devices = [d for d in args.devices.split(",") if d]
    if len(devices) == 1:
        res, names, profiles = {}, {}, {}
        run_device(args, devices[0], cases, res, names, profiles)
    else:
        res, names, profiles = run_each(args, devices, cases)
    if args.out:
        write_table(args, res, names, cases, profiles)
    return 0 if all(not isinstance(v, str) for v in res.values()) else 1


# One process per device: with cldnn_torch imported, PrivateUse1 is PyTorch's accelerator and the
# autograd engine looks for CUDA tensors' streams on it (torch 2.11: "opt_ready_stream &&
# opt_parent_stream INTERNAL ASSERT FAILED" in backward), so CUDA cannot train in the ocl process.
def run_each(args, devices, cases):
    res, names, profiles = {}, {}, {}
    argv = [a for a in sys.argv[1:]]
    for d in devices:
        with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
            path = f.name
        cmd = [sys.executable, "-X", "faulthandler", os.path.abspath(__file__)] + argv + \
            ["--devices", d, "--json", path, "--out", ""]
        rc = subprocess.call(cmd)
        try:
            with open(path) as f:
                got = json.load(f)
        except (OSError, ValueError):
            got = {"res": [], "names": {}, "profiles": []}
        os.unlink(path)
        for k, v in got["res"]:
            res[tuple(k)] = tuple(v) if isinstance(v, list) else v
        names.update(got["names"])
        for k, v in got["profiles"]:
            profiles[tuple(k)] = v
        if rc != 0:
            for kind, m, b in cases + [("tiny", "", 0)]:
                res.setdefault((kind, m, b, d), "the process ended with status %d before this case" % rc)
    return res, names, profiles


def run_device(args, d, cases, res, names, profiles):
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    if d == "ocl":
        import cldnn_torch  # noqa: F401  (registers the ocl device)
        names["ocl"] = torch.ocl.get_device_name()
    elif d == "cuda" and torch.cuda.is_available():
        names["cuda"] = torch.cuda.get_device_name(0)
    if d not in names:
        print("# device %s is not available" % d, flush=True)
        return

    def save():  # after each case: a run cut short (a time limit, a crash) still leaves what it measured
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"res": [[list(k), v] for k, v in res.items()], "names": names,
                           "profiles": [[list(k), v] for k, v in profiles.items()]}, f)
        if args.out:
            write_table(args, res, names, cases, profiles)

    dev = torch.device(d)
    for kind, m, b in cases:
        try:
            if kind == "train":
                r = train_rate(m, dev, b, args.size, args.steps, args.warmup, args.profile)
                if r[3] is not None:
                    profiles[(m, b, d)] = {"ops": r[3].ops, "convs": r[3].convs}
                    print_profile(m, b, d, profiles[(m, b, d)])
                r = r[:3]
            else:
                r = infer_rate(m, dev, b, args.size, args.steps, args.warmup)
            res[(kind, m, b, d)] = r
            print("RESULT %s %s batch=%d %s %.1f images/s %.2f ms/step warmup %.1f s" %
                  (kind, m, b, d, r[0], r[1], r[2]), flush=True)
        except Exception as e:  # noqa: BLE001  (a failed case is reported, the others still run)
            traceback.print_exc()
            res[(kind, m, b, d)] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:120])
            print("RESULT %s %s batch=%d %s FAILED %s" % (kind, m, b, d, res[(kind, m, b, d)]), flush=True)
        save()
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
        save()


def print_profile(m, b, d, prof):
    for name, (n, t) in sorted(prof["ops"].items(), key=lambda kv: -kv[1][1]):
        print("PROFILE %s batch=%d %s op %s %d calls %.3f ms" % (m, b, d, name, n, t * 1e3), flush=True)
    for key, (n, t) in sorted(prof["convs"].items(), key=lambda kv: -kv[1][1]):
        print("PROFILE %s batch=%d %s conv %s %d calls %.3f ms" % (m, b, d, key, n, t * 1e3), flush=True)


def profile_lines(m, b, profiles, top=25):
    """Per-op and per-convolution-shape tables of one training step on both devices, the
    largest time differences first."""
    o, c = profiles.get((m, b, "ocl")), profiles.get((m, b, "cuda"))
    if o is None and c is None:
        return []
    lines = []
    for what, part in (("op", "ops"), ("convolution shape", "convs")):
        ot, ct = o[part] if o else {}, c[part] if c else {}
        keys = sorted(set(ot) | set(ct), key=lambda k: -(ot.get(k, (0, 0))[1] - ct.get(k, (0, 0))[1]))
        tot_o, tot_c = sum(v[1] for v in ot.values()), sum(v[1] for v in ct.values())
        lines += ["", "%s batch %d, one training step with each op synchronized, per %s (top %d by ocl - cuda; "
                  "totals %.1f ms ocl, %.1f ms cuda):" % (m, b, what, top, tot_o * 1e3, tot_c * 1e3), "",
                  "| %s | calls | ocl ms | cuda ms | ocl - cuda ms |" % what, "|---|---:|---:|---:|---:|"]
        for k in keys[:top]:
            on, os_ = ot.get(k, (0, 0.0))
            cn, cs = ct.get(k, (0, 0.0))
            lines.append("| %s | %d | %.3f | %.3f | %.3f |" % (k, max(on, cn), os_ * 1e3, cs * 1e3, (os_ - cs) * 1e3))
    return lines


def write_table(args, res, names, cases, profiles):
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
                 "--infer-batches %s --size %d --steps %d --warmup %d --tiny %d%s`" % (
                     args.devices, args.models, args.train_batches, args.infer_batches, args.size, args.steps,
                     args.warmup, args.tiny, " --profile" if args.profile else ""))
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
    for kind, m, b in cases:
        if kind == "train":
            lines += profile_lines(m, b, profiles)
    failed = [(k, v) for k, v in res.items() if isinstance(v, str)]
    if failed:
        lines += ["", "Failed cases:"] + ["- %s %s batch %d on %s: %s" % (k[0], k[1], k[2], k[3], v) for k, v in failed]
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
