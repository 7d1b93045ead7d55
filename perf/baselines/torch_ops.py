#!/usr/bin/env python3
"""torch_ops.py: the PyTorch baseline of the v1.1 bandwidth-bound primitives (perf/shapes/ops-v11.csv).

    python3 perf/baselines/torch_ops.py --cases FILE [--ms T] [--warmup W] [--device cuda|cpu] [--only RE]

Reads the same case file as `perf/run-device.sh ops-v11` hands to cldnn-bench and cudnn_ops (parsed by
perf/merge.py's v11_read_cases, so the three tools read one format) and times PyTorch's own kernels on
each case, FP32 (TF32 off):
    copy      y.copy_(x)
    optensor  torch.add(a, b, out=c)            (b broadcast: its dims from params)
    reduce    torch.sum / torch.amax / ... (dim=the reduced dims, keepdim=True, out=c)
    dropout   fwd torch.ops.aten.native_dropout(x, p, True) (F.dropout(training=True)'s kernel: y and
              the mask), bwd torch.ops.aten.native_dropout_backward(dy, mask, 1 / (1 - p))
    norm      layer: fwd torch.ops.aten.native_layer_norm (F.layer_norm's kernel, saves mean and rstd),
              bwd torch.ops.aten.native_layer_norm_backward (dx, dweight, dbias)
              group: fwd torch.ops.aten.native_group_norm (F.group_norm's), bwd native_group_norm_backward
              rms:   fwd F.rms_norm (torch >= 2.4; before, the manual x * rsqrt(mean(x^2) + eps) * w, said
                     in the header), bwd torch.ops.aten._fused_rms_norm_backward where the torch version
                     and device have it (CUDA in recent versions), else autograd's backward of a saved fwd
                     graph with a fixed gradient (torch.autograd.grad(y, (x, w), dy, retain_graph=True),
                     which includes autograd's launch overhead); a '#' line says which
The backward ops are called directly (not through autograd) for pure kernel time, with the statistics of one
forward call made before the timing.
Every case is also timed as a device-to-device copy of its input (x.clone()'s kernel, y.copy_(x)), printed
as a `RESULT torch-copy` line: perf/merge.py turns it into the copy bandwidth PyTorch reaches at that size.

Timing (the protocol of perf/baselines/cuda_timing.h): W warm-up calls (3), batches growing 4x until one
takes T / 10 ms, then the iterations for which 5 repetitions take about T ms (--ms, 20), 5 repetitions of
(event, iterations calls, event); the median per call. On CPU (--device cpu, a smoke test of the script)
the host clock replaces the events.

Output: '#' header lines (torch version, device), then per case
    RESULT torch NAME OP DIR US
    RESULT torch-copy NAME OP DIR US
with US the median microseconds per call, or FAIL and a reason token in its place (the detail on stderr).
Exit status 0, 1 when a case failed, 2 on a usage or case-file error.
"""
import argparse
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from merge import v11_read_cases  # noqa: E402  (the one parser of the case format)

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

REPS = 5
EPS = 1e-5


class Timer:
    """The cuda_timing.h protocol with CUDA events, or the host clock on CPU."""

    def __init__(self, device, ms, warmup):
        self.cuda = device.type == "cuda"
        self.ms, self.warmup = ms, warmup
        if self.cuda:
            self.e0 = torch.cuda.Event(enable_timing=True)
            self.e1 = torch.cuda.Event(enable_timing=True)

    def calls(self, fn, n):
        """Elapsed ms of n calls."""
        if self.cuda:
            self.e0.record()
            for _ in range(n):
                fn()
            self.e1.record()
            self.e1.synchronize()
            return self.e0.elapsed_time(self.e1)
        t = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t) * 1e3

    def measure(self, fn):
        """Median microseconds per call."""
        if self.warmup:
            self.calls(fn, self.warmup)
        n = 1
        while True:
            ms = self.calls(fn, n)
            if ms >= self.ms / 10 or n >= 4096:
                break
            n *= 4
        per = ms / n
        iters = max(1, min(1 << 20, int(self.ms / REPS / per) if per > 0 else 1))
        return statistics.median(self.calls(fn, iters) / iters for _ in range(REPS)) * 1e3


def rand(shape, device, lo=-1.0, hi=1.0, seed=0):
    g = torch.Generator(device="cpu").manual_seed(seed)
    return (torch.rand(shape, generator=g) * (hi - lo) + lo).to(device)


def reduce_fn(op):
    """A function (x, dims, out) for a reduce op name of the case format."""
    table = {
        "add": lambda x, d, o: torch.sum(x, dim=d, keepdim=True, out=o),
        "max": lambda x, d, o: torch.amax(x, dim=d, keepdim=True, out=o),
        "min": lambda x, d, o: torch.amin(x, dim=d, keepdim=True, out=o),
        "amax": lambda x, d, o: o.copy_(torch.amax(x.abs(), dim=d, keepdim=True)),
        "avg": lambda x, d, o: torch.mean(x, dim=d, keepdim=True, out=o),
        "mul": lambda x, d, o: torch.prod(x, dim=d[0], keepdim=True, out=o),
        "norm1": lambda x, d, o: torch.linalg.vector_norm(x, 1, dim=d, keepdim=True, out=o),
        "norm2": lambda x, d, o: torch.linalg.vector_norm(x, 2, dim=d, keepdim=True, out=o),
    }
    return table[op]


def rms_norm_fwd():
    """(F.rms_norm or the manual formula, a note for the header)."""
    if hasattr(F, "rms_norm"):
        return (lambda x, shape, w: F.rms_norm(x, shape, w, EPS)), "F.rms_norm"

    def manual(x, shape, w):
        dims = tuple(range(x.dim() - len(shape), x.dim()))
        return x * torch.rsqrt(x.pow(2).mean(dim=dims, keepdim=True) + EPS) * w
    return manual, "manual x * rsqrt(mean(x^2) + eps) * w (this torch has no F.rms_norm)"


def case_fn(k, dev):
    """The timed call of case k (a closure over its tensors)."""
    dims, p, op, d = k["dims"], k["p"], k["op"], k["dir"]
    x = rand(dims, dev, -4.0, 4.0, 1)
    if op == "copy":
        y = torch.empty_like(x)
        return lambda: y.copy_(x)
    if op == "optensor":
        if p["op"] != "add":
            raise NotImplementedError("optensor " + p["op"])
        b, c = rand(p["b"], dev, seed=2), torch.empty_like(x)
        return lambda: torch.add(x, b, out=c)
    if op == "reduce":
        red = tuple(i for i, (a, c) in enumerate(zip(dims, p["c"])) if c == 1 and a != 1)
        out = torch.empty(p["c"], device=dev)
        if p["op"] == "mul" and len(red) != 1:
            raise NotImplementedError("reduce mul over several dims (torch.prod takes one)")
        f = reduce_fn(p["op"])
        return lambda: f(x, red, out)
    if op == "dropout":
        if d == "fwd":
            return lambda: torch.ops.aten.native_dropout(x, p["p"], True)
        _, mask = torch.ops.aten.native_dropout(x, p["p"], True)
        dy, scale = rand(dims, dev, seed=3), 1.0 / (1.0 - p["p"])
        return lambda: torch.ops.aten.native_dropout_backward(dy, mask, scale)
    mode, param = p["mode"], p["param"]
    dy = rand(dims, dev, seed=3)
    if mode == "group":
        n, ch, hw = dims[0], dims[1], dims[2] * dims[3]
        w, b = rand([ch], dev, seed=4), rand([ch], dev, seed=5)
        if d == "fwd":
            return lambda: torch.ops.aten.native_group_norm(x, w, b, n, ch, hw, param, EPS)
        _, mean, rstd = torch.ops.aten.native_group_norm(x, w, b, n, ch, hw, param, EPS)
        return lambda: torch.ops.aten.native_group_norm_backward(dy, x, mean, rstd, w, n, ch, hw, param,
                                                                 [True, True, True])
    shape = dims[len(dims) - param:]
    w, b = rand(shape, dev, seed=4), rand(shape, dev, seed=5)
    if mode == "layer":
        if d == "fwd":
            return lambda: torch.ops.aten.native_layer_norm(x, shape, w, b, EPS)
        _, mean, rstd = torch.ops.aten.native_layer_norm(x, shape, w, b, EPS)
        return lambda: torch.ops.aten.native_layer_norm_backward(dy, x, shape, mean, rstd, w, b, [True, True, True])
    fwd, _ = rms_norm_fwd()
    if d == "fwd":
        return lambda: fwd(x, shape, w)
    return rms_norm_bwd(x, shape, w, dy, fwd)


RMS_BWD_SAID = []


def rms_norm_bwd(x, shape, w, dy, fwd):
    """The timed call of RMS norm's backward: torch.ops.aten._fused_rms_norm_backward where this torch and
    device have it (pure kernel time, as the other norms), else autograd's backward of a saved graph; the
    first call says which on a '#' line."""
    try:
        _, rstd = torch.ops.aten._fused_rms_norm(x, shape, w, EPS)
        torch.ops.aten._fused_rms_norm_backward(dy, x, shape, rstd, w, [True, True])
        how = "torch.ops.aten._fused_rms_norm_backward"

        def call():
            return torch.ops.aten._fused_rms_norm_backward(dy, x, shape, rstd, w, [True, True])
    except (AttributeError, NotImplementedError, RuntimeError):
        xg, wg = x.clone().requires_grad_(True), w.clone().requires_grad_(True)
        y = fwd(xg, shape, wg)
        how = "autograd's backward of a saved F.rms_norm graph (no aten fused backward here)"

        def call():
            return torch.autograd.grad(y, (xg, wg), dy, retain_graph=True)
    if how not in RMS_BWD_SAID:
        RMS_BWD_SAID.append(how)
        print(f"# torch rms_norm backward: {how}")
    return call


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", required=True)
    ap.add_argument("--ms", type=float, default=20.0)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--only", default=".", help="regular expression on NAME:DIR")
    a = ap.parse_args(argv)
    if a.ms <= 0 or a.warmup < 0:
        ap.error("--ms > 0, --warmup >= 0")
    try:
        cases = v11_read_cases(a.cases)
    except (OSError, ValueError) as e:
        print(f"torch_ops: {a.cases}: {e}", file=sys.stderr)
        return 2
    dev = torch.device(a.device)
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            print("torch_ops: no CUDA device", file=sys.stderr)
            return 1
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        name = torch.cuda.get_device_name(dev)
    else:
        name = f"CPU, {torch.get_num_threads()} threads"
    print(f"# torch: {torch.__version__} (CUDA {torch.version.cuda}), device {name}, {a.cases}")
    print(f"# torch rms_norm: {rms_norm_fwd()[1]}; backward of layer / group norm and dropout: the aten "
          "backward ops")
    print(f"# torch timing: {'CUDA events' if dev.type == 'cuda' else 'host clock'}, {a.warmup} warm-up, "
          f"5 repetitions of ~{a.ms:g} ms in all, median per call")
    sys.stdout.flush()
    timer = Timer(dev, a.ms, a.warmup)
    status, copies = 0, {}
    for k in cases:
        if not re.search(a.only, f"{k['name']}:{k['dir']}"):
            continue
        tag = f"{k['name']} {k['op']} {k['dir']}"
        try:
            us = "%.3f" % timer.measure(case_fn(k, dev))
        except NotImplementedError as e:
            us = "FAIL unsupported"
            print(f"torch_ops: {k['name']}: {e}", file=sys.stderr)
        except (RuntimeError, ValueError, TypeError) as e:
            us = "FAIL exec"
            status = 1
            print(f"torch_ops: {k['name']}: {e}", file=sys.stderr)
        print(f"RESULT torch {tag} {us}")
        key = tuple(k["dims"])
        if key not in copies:
            x = rand(k["dims"], dev, seed=1)
            y = torch.empty_like(x)
            copies[key] = "%.3f" % timer.measure(lambda: y.copy_(x))
            del x, y
        print(f"RESULT torch-copy {tag} {copies[key]}")
        sys.stdout.flush()
        if dev.type == "cuda":
            torch.cuda.empty_cache()
    return status


if __name__ == "__main__":
    sys.exit(main())
