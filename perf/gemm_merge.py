#!/usr/bin/env python3
"""gemm_merge.py: merges the GEMM benchmark logs of one device into one markdown results file.

Used by perf/run-gemm-sweep.sh; standard library only (python3 is on both machines).

  gemm_merge.py --cldnn LOG [--baseline TOOL=LOG ...] [--cmd CMD ...] [--note TEXT ...]
                [--meta KEY=VALUE ...] --out FILE

Inputs:
  cldnn LOG     output of `cldnn-bench gemm --shapes FILE --md-header ...`, one run per shape file,
                each preceded by a line `# set: NAME`; its `# device:` ... lines give the header
  baseline LOG  output of perf/baselines/<tool>_gemm (result lines `tool m n k a_t b_t batch ms
                tflops iters`, '#' header lines), with the same `# set: NAME` lines
Rows are matched by (set, m, n, k, a_t, b_t, batch) and order of appearance, so repeated shapes
pair up in order. Output: the header (date, device, driver, commit, wall time), the commands,
the baselines' own header lines (versions, math mode), the summary (every square NN shape with
m = n = k >= 2048 or the largest ones, and per set the geometric mean of cldnn / baseline over
the shapes both measured) and one table with every shape.
"""
import argparse
import datetime
import math
import re
import sys

TOOL_NAMES = {"cublas": "cuBLAS", "clblast": "CLBlast", "openblas": "OpenBLAS"}


def tool_name(t):
    """Display name of a baseline tool."""
    return TOOL_NAMES.get(t, t)


def parse_cldnn(path):
    """Returns (header dict of '# key: value' lines (first wins), list of row dicts with 'set')."""
    head, rows, cols, cur = {}, [], None, ""
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"# set: (.*)", line)
            if m:
                cur, cols = m.group(1).strip(), None
                continue
            m = re.match(r"# ([a-z]+): (.*)", line)
            if m:
                head.setdefault(m.group(1), m.group(2))
                if m.group(1) == "seed":
                    head.setdefault("seeds", [])
                    head["seeds"].append(m.group(2).split()[0])
                continue
            if not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if cells and cells[0] == "m":
                cols = cells
                continue
            if cols is None or not cells[0].isdigit():
                continue
            r = dict(zip(cols, cells))
            r["set"] = cur
            rows.append(r)
    return head, rows


def parse_baseline(path):
    """Returns (header lines, list of row dicts with 'set') of a baseline log."""
    head, rows, cur, verify = [], [], "", "-"
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"# set: (.*)", line)
            if m:
                cur = m.group(1).strip()
                continue
            m = re.match(r"# verify \d+ \d+ \d+: max err/tol (\S+) over (\d+) sampled elements \((\w+)\)", line)
            if m:  # the baseline's own check of the next row (cublas_gemm --verify)
                verify = f"{m.group(3)} ({m.group(1)}; {m.group(2)} sampled)"
                continue
            if line.startswith("#"):
                h = line[1:].strip()
                if h not in head and not h.startswith("tool "):
                    head.append(h)
                continue
            p = line.split()
            if len(p) < 10:
                continue
            rows.append({"set": cur, "key": (cur, p[1], p[2], p[3], p[4], p[5], p[6]),
                         "ms": p[7], "tflops": p[8], "iters": p[9], "why": " ".join(p[10:]), "verify": verify})
            verify = "-"
    return head, rows


def num(s):
    """The float of s, or None for '-' or garbage."""
    try:
        v = float(s)
        return v if v > 0 and math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def fmt(v, nd=2):
    """A number for the table, '-' for None."""
    if v is None:
        return "-"
    return f"{v:.{nd}f}" if v >= 0.1 else f"{v:.3g}"


def geomean(vals):
    """Geometric mean of positive values, or None."""
    vals = [v for v in vals if v]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cldnn", required=True)
    ap.add_argument("--baseline", action="append", default=[])
    ap.add_argument("--cmd", action="append", default=[])
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    meta = dict(x.split("=", 1) for x in a.meta)
    head, rows = parse_cldnn(a.cldnn)
    tools, bheads, bmap = [], {}, {}
    for spec in a.baseline:
        t, path = spec.split("=", 1)
        tools.append(t)
        bheads[t], brows = parse_baseline(path)
        q = {}
        for r in brows:
            q.setdefault(r["key"], []).append(r)
        bmap[t] = q

    # pair every cldnn row with the baselines' rows of the same key, in order
    table = []
    for r in rows:
        op = r.get("op", "NN")
        key = (r["set"], r["m"], r["n"], r["k"], op[0], op[1], r.get("batch", "1"))
        e = {"set": r["set"], "m": r["m"], "n": r["n"], "k": r["k"], "op": op, "batch": r.get("batch", "1"),
             "ms": num(r.get("time (ms)")), "tf": num(r.get("TFLOP/s")),
             "verify": next((v for c, v in r.items() if c.startswith("verify")), "-"), "base": {}}
        e["bverify"] = {}
        for t in tools:
            lst = bmap[t].get(key, [])
            b = lst.pop(0) if lst else None
            e["base"][t] = num(b["tflops"]) if b else None
            e["bverify"][t] = b["verify"] if b else "-"
        table.append(e)
    vtools = [t for t in tools if any(e["bverify"][t] != "-" for e in table)]

    def ratio(e, t):
        b = e["base"].get(t)
        return e["tf"] / b if e["tf"] and b else None

    sets = []
    for e in table:
        if e["set"] not in sets:
            sets.append(e["set"])
    out = []
    w = out.append
    w(f"# cldnn GEMM ({meta.get('math', 'FP32')}) vs {', '.join(tool_name(t) for t in tools) or 'no baseline'}: "
      f"{head.get('device', '?')}")
    w("")
    w(f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}")
    w(f"- device: {head.get('device', '?')}")
    w(f"- driver: {head.get('driver', '?')}")
    w(f"- platform: {head.get('platform', '?')}")
    w(f"- cldnn: {head.get('cldnn', '?')} at commit {meta.get('commit', 'unknown')}; "
      f"host: {meta.get('host', '?')}")
    if head.get("seeds"):
        w(f"- cldnn-bench seeds (one per shape file): {' '.join(head['seeds'])}")
    w(f"- sweep wall time: {meta.get('wall', '?')}; status: {meta.get('status', '?')}")
    for t in tools:
        w(f"- {tool_name(t)}: " + ("; ".join(bheads[t]) or "no output (it failed at start; see the run's log)"))
    for n in a.note:
        w(f"- note: {n}")
    w("")
    w("## Commands")
    w("")
    w("```")
    for c in a.cmd:
        w(c)
    w("```")
    w("")
    w("## Method")
    w("")
    fp16 = meta.get("math", "FP32").startswith("FP16")
    half = fp16 or "HALF" in meta.get("math", "")
    w(f"Column-major, minimum leading dimensions, alpha 1, beta 0, {'FP16' if half else 'FP32'} data repeating a "
      "random block")
    w("in [-1, 1). Each tool: warm-up, then the iterations per shape set from a first estimate so")
    w(f"that 5 repetitions take about {meta.get('ms', '?')} ms; the median per-call time of the 5.")
    w("cldnn and CLBlast: host clock around clFinish; cuBLAS: CUDA events; OpenBLAS: host clock.")
    w("TFLOP/s = 2 m n k batch / time. Ratios above 1: cldnn is faster. verify: cldnn's result")
    w("against a double dot product, tolerance 2 eps (sqrt(k) + 1) sum |a b|; (max err/tol; elements")
    w("checked, all or a random sample above 2^27 multiply-adds).")
    if fp16:
        w("Under FP16 the inputs are halves (products exact) but the tensor core truncates its FP32")
        w("additions, so the float term counts 4 eps instead of 2, and C's rounding to half adds")
        w("2^-10 |want| + 2^-24; a baseline's verify column (cuBLAS --fp16 --verify) uses the same")
        w("formula on its own data, so the two error figures compare directly.")
    elif meta.get("math", "FP32").startswith("TF32"):
        w("Under TF32 both inputs of every product carry a relative rounding of 2^-11, so the tolerance")
        w("adds 2 * 2^-11 sum |a b|; a baseline's verify column (cuBLAS --verify) uses the same formula")
        w("on its own data, so the two error figures compare directly.")
    w("")
    w("## Summary")
    w("")
    squares = [e for e in table if e["m"] == e["n"] == e["k"] and e["op"] == "NN" and e["batch"] == "1"]
    big = [e for e in squares if int(e["m"]) >= 2048] or squares
    for e in big:
        parts = [f"cldnn {fmt(e['tf'])} TFLOP/s"]
        for t in tools:
            parts.append(f"{tool_name(t)} {fmt(e['base'][t])} (cldnn/{tool_name(t)} {fmt(ratio(e, t), 3)})")
        w(f"- {e['m']}^3 ({e['set']}): " + ", ".join(parts))
    for s in sets:
        es = [e for e in table if e["set"] == s]
        parts = []
        for t in tools:
            rs = [ratio(e, t) for e in es]
            g = geomean(rs)
            cnt = sum(1 for x in rs if x)
            parts.append(f"cldnn/{tool_name(t)} {fmt(g, 3)} (geomean over {cnt} shapes, "
                         f"min {fmt(min([x for x in rs if x], default=None), 3)}, "
                         f"max {fmt(max([x for x in rs if x], default=None), 3)})")
        npass = sum(1 for e in es if e["verify"].startswith("PASS"))
        nfail = sum(1 for e in es if e["verify"].startswith("FAIL"))
        gtf = geomean([e["tf"] for e in es])
        w(f"- {s} ({len(es)} shapes): cldnn geomean {fmt(gtf)} TFLOP/s; " + "; ".join(parts) +
          f"; verify {npass} PASS, {nfail} FAIL, {len(es) - npass - nfail} other")
    w("")
    w("## Results")
    w("")
    showb = any(e["batch"] != "1" for e in table)
    hdr = ["set", "m", "n", "k", "op"] + (["batch"] if showb else []) + ["cldnn ms", "cldnn TFLOP/s"]
    hdr += [f"{tool_name(t)} TFLOP/s" for t in tools] + [f"cldnn/{tool_name(t)}" for t in tools] + ["verify"]
    hdr += [f"{tool_name(t)} verify" for t in vtools]
    w("| " + " | ".join(hdr) + " |")
    w("|" + "|".join(["---"] + ["---:"] * 3 + ["---"] + (["---:"] if showb else []) +
                     ["---:"] * (2 + 2 * len(tools)) + ["---"] * (1 + len(vtools))) + "|")
    for e in table:
        cells = [e["set"], e["m"], e["n"], e["k"], e["op"]] + ([e["batch"]] if showb else [])
        cells += [fmt(e["ms"], 4) if e["ms"] else "-", fmt(e["tf"])]
        cells += [fmt(e["base"][t]) for t in tools] + [fmt(ratio(e, t), 3) for t in tools] + [e["verify"]]
        cells += [e["bverify"][t] for t in vtools]
        w("| " + " | ".join(cells) + " |")
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
