#!/usr/bin/env python3
"""torch_attn.py: the PyTorch baseline of scaled dot-product attention, the grid of issue 22, and the join.

    python3 perf/baselines/torch_attn.py --commands [--verify-max S] [--iters N]   # cldnn-bench attn lines
    python3 perf/baselines/torch_attn.py [--ms T] [--device cuda|cpu] [--only RE]  # time PyTorch
    python3 perf/baselines/torch_attn.py --merge CLDNN_LOG TORCH_LOG [--title T] [--meta K=V]... [--cmd C]...

The grid (one list for both tools): B = 8, H = Hkv = 16, D = Dv in {64, 128}, Sq = Sk in {512, 1024, 2048,
4096, 8192}, causal 0 and 1, fwd and fwdbwd, float / half / bfloat16, every tensor B,S,H,D in memory
(PyTorch's (B, S, H, D) tensors seen as (B, H, S, D) through transpose(1, 2), cldnn-bench --layout bshd).

--commands prints `NAME<TAB>ARGS` lines for perf/run-device.sh's bench_cases: cldnn-bench attn with --md
(TENSOR_OP_MATH for FP16 / BF16: their tensor-core solver, as PyTorch's flash kernels),
-V 1 where S <= --verify-max (1024: the double reference costs S^2 D per head) and -V 0 above.

Timing PyTorch: F.scaled_dot_product_attention(q, k, v, is_causal=causal) (scale 1 / sqrt(D), no dropout):
fwd under torch.no_grad(); fwdbwd the forward and torch.autograd.grad(o, (q, k, v), do) (autograd's launch
overhead included, as a training step pays it). FP16 / BF16 on the flash back-end
(torch.nn.attention.sdpa_kernel(SDPBackend.FLASH_ATTENTION)); FP32 (TF32 off) on each of the efficient,
cuDNN and math back-ends that runs, the fastest reported (its name in the last column). Timing: torch_ops.py's
Timer (perf/baselines/cuda_timing.h's protocol, CUDA events; the median per call).

Rows (both tools, the join's key the first twelve cells):
    | B | H | Hkv | Sq | Sk | D | Dv | causal | dropout | dir | layout | dtype | time (ms) | TFLOP/s | note |
FLOPs: fwd 2 B H Sq Sk (D + Dv), halved when causal; fwdbwd 3.5 x fwd (the backward 2.5 x).
--merge joins the rows of cldnn-bench (its --md rows in CLDNN_LOG) with PyTorch's (TORCH_LOG) into one
markdown table: both times and TFLOP/s, cldnn's speed relative to PyTorch (torch ms / cldnn ms) and the
issue's target (FP32 1.0, FP16 / BF16 0.6). Exit status 0, 1 when a case failed, 2 on a usage error.
"""
import argparse
import os
import re
import sys

GRID_D = (64, 128)
GRID_S = (512, 1024, 2048, 4096, 8192)
DTYPES = ("float", "half", "bfloat16")
B, H = 8, 16


def grid():
    for dt in DTYPES:
        for d in GRID_D:
            for s in GRID_S:
                for causal in (0, 1):
                    for direction in ("fwd", "fwdbwd"):
                        yield dt, d, s, causal, direction


def flops(b, h, sq, sk, d, dv, causal, direction):
    f = 2.0 * b * h * sq * sk * (d + dv) * (0.5 if causal else 1.0)
    return f * (3.5 if direction == "fwdbwd" else 2.5 if direction == "bwd" else 1.0)


def key_of(cells):
    return tuple(cells[:12])


def row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def case_name(dt, d, s, causal, direction):
    return f"attn-{dt}-d{d}-s{s}-c{causal}:{direction}"


def commands(args):
    for dt, d, s, causal, direction in grid():
        verify = 1 if s <= args.verify_max else 0
        a = (f"attn -b {B} --heads {H} --hkv {H} --sq {s} --sk {s} --hd {d} --dv {d} --causal {causal} "
             f"--dir {direction} --layout bshd -d {dt} --math {'default' if dt == 'float' else 'tensor'} "
             f"-V {verify} -i {args.iters} -w 3 --md")
        print(f"{case_name(dt, d, s, causal, direction)}\t{a}")
    return 0


def time_torch(args):
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from torch_ops import Timer  # the one implementation of cuda_timing.h's protocol in Python

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    device = torch.device(args.device)
    timer = Timer(device, args.ms, args.warmup)
    print(f"# torch {torch.__version__}, device {torch.cuda.get_device_name() if device.type == 'cuda' else 'cpu'}")
    types = {"float": torch.float32, "half": torch.float16, "bfloat16": torch.bfloat16}
    only = re.compile(args.only)
    status = 0
    for dt, d, s, causal, direction in grid():
        if not only.search(case_name(dt, d, s, causal, direction)):
            continue
        g = torch.Generator(device="cpu").manual_seed(1)

        def rand():
            return (torch.rand((B, s, H, d), generator=g) * 2 - 1).to(device=device, dtype=types[dt]).transpose(1, 2)

        q, k, v, do = rand(), rand(), rand(), rand()
        backends = ([("flash", SDPBackend.FLASH_ATTENTION)] if dt != "float" else
                    [("efficient", SDPBackend.EFFICIENT_ATTENTION),
                     ("cudnn", getattr(SDPBackend, "CUDNN_ATTENTION", None)),  # torch >= 2.3
                     ("math", SDPBackend.MATH)])
        backends = [(n, b) for n, b in backends if b is not None]
        if device.type != "cuda":
            backends = [("math", SDPBackend.MATH)]
        best, name, why = None, "-", []
        for bname, backend in backends:
            try:
                with sdpa_kernel(backend):
                    if direction == "fwd":
                        def fn():
                            with torch.no_grad():
                                F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
                    else:
                        qg, kg, vg = (t.detach().requires_grad_(True) for t in (q, k, v))

                        def fn():
                            o = F.scaled_dot_product_attention(qg, kg, vg, is_causal=bool(causal))
                            torch.autograd.grad(o, (qg, kg, vg), do)
                    ms = timer.measure(fn) * 1e-3  # microseconds per call
                if best is None or ms < best:
                    best, name = ms, bname
            except Exception as e:  # a back-end that does not take the case (or runs out of memory)
                why.append(f"{bname}: {type(e).__name__}")
                print(f"# {case_name(dt, d, s, causal, direction)} {bname}: {e}".splitlines()[0], file=sys.stderr)
            if device.type == "cuda":
                torch.cuda.empty_cache()
        cells = [B, H, H, s, s, d, d, causal, 0, direction, "bshd", dt]
        if best is None:
            status = 1
            cells += ["-", "-", "FAIL " + "; ".join(why)]
        else:
            cells += [f"{best:.4f}", f"{flops(B, H, s, s, d, d, causal, direction) / (best * 1e-3) / 1e12:.4g}", name]
        print(row(cells), flush=True)
    return status


def read_rows(path):
    """The 15-cell markdown rows of a log, by key."""
    rows = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("| ") or line.startswith("| B |"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 15 and cells[0].isdigit():
                rows[key_of(cells)] = cells
    return rows


def merge(args):
    cl, to = read_rows(args.merge[0]), read_rows(args.merge[1])
    print(f"# {args.title}\n")
    for m in args.meta:
        print(f"- {m}")
    for c in args.cmd:
        print(f"- `{c}`")
    print()
    print("| dtype | D | S | causal | dir | cldnn ms | cldnn TFLOP/s | torch ms | torch TFLOP/s | torch back-end | "
          "cldnn / torch speed | target | verify |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---|")
    status = 0
    for dt, d, s, causal, direction in grid():
        k = tuple(str(x) for x in (B, H, H, s, s, d, d, causal, 0, direction, "bshd", dt))
        c, t = cl.get(k), to.get(k)
        if c is None and t is None:
            continue  # not run (ONLY)
        target = 1.0 if dt == "float" else 0.6
        ratio, verdict = "-", "-"
        if c and t and c[12] != "-" and t[12] != "-":
            r = float(t[12]) / float(c[12])
            ratio = f"{r:.2f}"
            verdict = f"{target:.1f} {'met' if r >= target else 'missed'}"
        if not c or "FAIL" in c[14]:
            status = 1
        print(row([dt, d, s, causal, direction, c[12] if c else "FAIL (no row)", c[13] if c else "-",
                   t[12] if t else "-", t[13] if t else "-", t[14] if t else "-", ratio, verdict,
                   c[14] if c else "-"]))
    return status


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commands", action="store_true")
    ap.add_argument("--verify-max", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--merge", nargs=2, metavar=("CLDNN_LOG", "TORCH_LOG"))
    ap.add_argument("--title", default="Scaled dot-product attention: cldnn vs PyTorch")
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--cmd", action="append", default=[])
    ap.add_argument("--ms", type=float, default=50.0)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--only", default=".", help="regular expression on the case names (attn-DT-dD-sS-cC:DIR)")
    args = ap.parse_args(argv)
    if args.commands:
        return commands(args)
    if args.merge:
        return merge(args)
    return time_torch(args)


if __name__ == "__main__":
    sys.exit(main())
