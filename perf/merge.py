#!/usr/bin/env python3
"""merge.py: the markdown result tables of perf/run-device.sh, one subcommand per table kind.

Standard library only (python3 is on the development machine and on the lent GPU machines).

  merge.py sweep --log LOG --device D [--cmd C ...] [--meta K=V ...] --out FILE
      activation / tensor-op / softmax bandwidth (activ-tensor-*.md): the `|` rows of cldnn-bench --md
  merge.py gemm --cldnn LOG [--baseline TOOL=LOG ...] [--cmd C ...] [--note T ...] [--meta K=V ...] --out FILE
      cldnn-bench gemm against the GEMM baselines (gemm-*.md, gemm-tf32-*.md, gemm-fp16-*.md)
  merge.py conv [--lib cldnn] [--base cudnn] [--cmd C ...] [--note T ...] [--meta K=V ...] --out FILE LOG...
      cldnn-bench conv against cudnn_conv / onednn_conv (conv-*.md)
  merge.py ops-commands CASES
      one line per case of perf/shapes/ops-nets.csv: NAME:DIR<TAB>cldnn-bench arguments
  merge.py ops CASES CLDNN_LOG CUDNN_LOG [--title T] [--command C] [--versions]
      pooling / batch norm / LRN / softmax against cudnn_ops (pool-norm-*.md), on stdout
  merge.py ops-v11-commands CASES [--verify V] [--iters I]
      one line per case of perf/shapes/ops-v11.csv: NAME:DIR<TAB>cldnn-bench arguments
  merge.py ops-v11 CASES CLDNN_LOG CUDNN_LOG TORCH_LOG [--title T] [--command C] [--cmd C ...] [--note T ...]
                   [--meta K=V ...] [--all-cases] [--out FILE]
      op tensor / reduce / dropout / norms against cudnn_ops and torch_ops.py (ops-v11-*.md)
  merge.py convbiasact-plan FUSED_LOG SHAPES OUTDIR
      the shape file split by each layer's fused algorithm: OUTDIR/algo-N.csv, find.csv; prints `N FILE`
  merge.py convbiasact --fused LOG --plain LOG --separate LOG --cudnn LOG [--cmd C ...] [--note T ...]
                       [--meta K=V ...] --out FILE
      the fused convolution against the plain one, separate calls and cuDNN's (convbiasact-*.md)
  merge.py first-iter --run LABEL=LOG ... [--meta K=V ...] [--out FILE]
      cldnn-first-iter's FIRSTITER lines, one row per run (first-iter-*.md)
  merge.py train --cold LOG --warm LOG [--torch LOG] [--meta K=V ...] --out FILE
      train_digits and PyTorch's RESULT lines (train-digits-*.md)
  merge.py get-vs-find (--bench BIN [--device D] [--shapes F1,F2] [--sysdb DIR] | --logs FIND [HIT])
                       [--meta K=V ...] [--out FILE]
      Get's heuristic against Find's fastest, and the find-db hit rate (get-vs-find-*.md)
  merge.py host-cost --log LOG [--cmd C] [--meta K=V ...] --out FILE
      cldnn-host-cost's lines (host-cost-*.md)

The shared pieces (header lines `# key: value` of the tools, numbers, geometric means, markdown rows) are
defined once below; each table keeps the format of the committed files in perf/results/.
"""
import argparse
import datetime
import math
import os
import re
import subprocess
import sys
import tempfile

# --------------------------------------------------------------------------------------------- shared


def utc_now(fmt="%Y-%m-%d %H:%M UTC"):
    """The current UTC time, formatted."""
    return datetime.datetime.now(datetime.timezone.utc).strftime(fmt)


def num(s):
    """The positive finite float of s, or None ('-', FAIL, garbage)."""
    try:
        v = float(s)
        return v if v > 0 and math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def geomean(vals):
    """Geometric mean of the positive values (None and 0 left out), or None."""
    vals = [v for v in vals if v and v > 0]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def fmt_fixed(v, nd=2):
    """nd decimals (3 significant digits below 0.1), '-' for None."""
    if v is None:
        return "-"
    return f"{v:.{nd}f}" if v >= 0.1 else f"{v:.3g}"


def fmt_sig(v, nd=3):
    """nd significant digits (at least the integer part), '-' for None."""
    if v is None:
        return "-"
    if v >= 10 ** nd:
        return f"{v:.0f}"
    return f"{v:.{nd}g}" if v < 1 else f"{v:.{max(nd - 1 - int(math.floor(math.log10(v))), 0)}f}"


def fmt_pct(v, spec):
    """v with a %-format, '-' for None."""
    return spec % v if v is not None else "-"


def row(cells):
    """One markdown table row."""
    return "| " + " | ".join(cells) + " |"


def meta_dict(items):
    """KEY=VALUE strings as a dict (later wins)."""
    return dict(x.split("=", 1) for x in items)


HEADER_RE = re.compile(r"# ([a-z]+): (.*)")


def header_lines(lines):
    """{key: [values in order]} of the tools' `# key: value` lines."""
    out = {}
    for line in lines:
        m = HEADER_RE.match(line)
        if m:
            out.setdefault(m.group(1), []).append(m.group(2))
    return out


def read_lines(path):
    with open(path, errors="replace") as f:
        return [line.rstrip("\n") for line in f]


def write(lines, path):
    """Writes the lines to path, or to stdout for None or '-'."""
    text = "\n".join(lines) + "\n"
    if path and path != "-":
        with open(path, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


def code_block(lines):
    return ["```"] + list(lines) + ["```"]


# ---------------------------------------------------------------------------------------------- sweep


def cmd_sweep(a):
    lines = read_lines(a.log)
    head = header_lines(lines)
    meta = meta_dict(a.meta)

    def field(k):
        return head.get(k, [""])[0]

    seeds = "".join(re.sub(r"^(\d*).*", r"\1", s) + " " for s in head.get("seed", []))
    out = [f"# cldnn activation, tensor-op and softmax bandwidth: {field('device')}", "",
           f"- date: {utc_now()}",
           f"- device: {field('device')}",
           f"- driver: {field('driver')}",
           f"- platform: {field('platform')}",
           f"- cldnn: {field('cldnn')} at commit {meta.get('commit', 'unknown')}; host: {meta.get('host', '?')}",
           f"- seed of each command: {seeds}",
           f"- sweep wall time: {meta.get('wall', '?')}; status: {meta.get('status', '?')}",
           "", "## Commands", ""]
    out += code_block(f"CLDNN_DEVICE={a.device} cldnn-bench {c}" for c in a.cmd)
    out += ["", "## Results", "",
            "MB moved: the bytes the operation must move (each needed input read once, each output",
            "written once; prior output read only when beta != 0), 1e6 bytes. GB/s = MB moved / time.",
            "copy GB/s: clEnqueueCopyBuffer of the tensor's size in the same run (read + write counted).",
            f"ratio = GB/s / copy GB/s. Time: median of 5 repetitions of ({meta.get('iters', '?')} calls, clFinish).",
            "verify: against the double reference (float: 1e-6 abs + 1e-5 rel; half: 2e-3 + 2e-3; softmax:",
            "rel of |want| + 1 for log forward, of the same formula on absolute values for backward).", ""]
    out += [line for line in lines if line.startswith("|")]
    write(out, a.out)
    return 0


# ----------------------------------------------------------------------------------------------- gemm

GEMM_TOOLS = {"cublas": "cuBLAS", "clblast": "CLBlast", "openblas": "OpenBLAS"}


def gemm_tool(t):
    return GEMM_TOOLS.get(t, t)


def gemm_parse_cldnn(path):
    """(header dict of '# key: value' lines (first wins; 'seeds' lists every seed), rows with 'set')."""
    head, rows, cols, cur = {}, [], None, ""
    for line in read_lines(path):
        m = re.match(r"# set: (.*)", line)
        if m:
            cur, cols = m.group(1).strip(), None
            continue
        m = HEADER_RE.match(line)
        if m:
            head.setdefault(m.group(1), m.group(2))
            if m.group(1) == "seed":
                head.setdefault("seeds", []).append(m.group(2).split()[0])
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


def gemm_parse_baseline(path):
    """(header lines, rows with 'set') of a perf/baselines/<tool>_gemm log."""
    head, rows, cur, verify = [], [], "", "-"
    for line in read_lines(path):
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


def cmd_gemm(a):
    meta = meta_dict(a.meta)
    head, rows = gemm_parse_cldnn(a.cldnn)
    tools, bheads, bmap = [], {}, {}
    for spec in a.baseline:
        t, path = spec.split("=", 1)
        tools.append(t)
        bheads[t], brows = gemm_parse_baseline(path)
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
             "verify": next((v for c, v in r.items() if c.startswith("verify")), "-"), "base": {}, "bverify": {}}
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

    sets = list(dict.fromkeys(e["set"] for e in table))
    math_desc = meta.get("math", "FP32")
    out = []
    w = out.append
    w(f"# cldnn GEMM ({math_desc}) vs {', '.join(gemm_tool(t) for t in tools) or 'no baseline'}: "
      f"{head.get('device', '?')}")
    w("")
    w(f"- date: {utc_now()}")
    w(f"- device: {head.get('device', '?')}")
    w(f"- driver: {head.get('driver', '?')}")
    w(f"- platform: {head.get('platform', '?')}")
    w(f"- cldnn: {head.get('cldnn', '?')} at commit {meta.get('commit', 'unknown')}; host: {meta.get('host', '?')}")
    if head.get("seeds"):
        w(f"- cldnn-bench seeds (one per shape file): {' '.join(head['seeds'])}")
    w(f"- sweep wall time: {meta.get('wall', '?')}; status: {meta.get('status', '?')}")
    for t in tools:
        w(f"- {gemm_tool(t)}: " + ("; ".join(bheads[t]) or "no output (it failed at start; see the run's log)"))
    for n in a.note:
        w(f"- note: {n}")
    w("")
    w("## Commands")
    w("")
    out += code_block(a.cmd)
    w("")
    w("## Method")
    w("")
    fp16 = math_desc.startswith("FP16")
    half = fp16 or "HALF" in math_desc
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
    elif math_desc.startswith("TF32"):
        w("Under TF32 both inputs of every product carry a relative rounding of 2^-11, so the tolerance")
        w("adds 2 * 2^-11 sum |a b|; a baseline's verify column (cuBLAS --verify) uses the same formula")
        w("on its own data, so the two error figures compare directly.")
    w("")
    w("## Summary")
    w("")
    squares = [e for e in table if e["m"] == e["n"] == e["k"] and e["op"] == "NN" and e["batch"] == "1"]
    big = [e for e in squares if int(e["m"]) >= 2048] or squares
    for e in big:
        parts = [f"cldnn {fmt_fixed(e['tf'])} TFLOP/s"]
        for t in tools:
            parts.append(f"{gemm_tool(t)} {fmt_fixed(e['base'][t])} (cldnn/{gemm_tool(t)} {fmt_fixed(ratio(e, t), 3)})")
        w(f"- {e['m']}^3 ({e['set']}): " + ", ".join(parts))
    for s in sets:
        es = [e for e in table if e["set"] == s]
        parts = []
        for t in tools:
            rs = [x for x in (ratio(e, t) for e in es) if x]
            parts.append(f"cldnn/{gemm_tool(t)} {fmt_fixed(geomean(rs), 3)} (geomean over {len(rs)} shapes, "
                         f"min {fmt_fixed(min(rs, default=None), 3)}, max {fmt_fixed(max(rs, default=None), 3)})")
        npass = sum(1 for e in es if e["verify"].startswith("PASS"))
        nfail = sum(1 for e in es if e["verify"].startswith("FAIL"))
        w(f"- {s} ({len(es)} shapes): cldnn geomean {fmt_fixed(geomean([e['tf'] for e in es]))} TFLOP/s; " +
          "; ".join(parts) + f"; verify {npass} PASS, {nfail} FAIL, {len(es) - npass - nfail} other")
    w("")
    w("## Results")
    w("")
    showb = any(e["batch"] != "1" for e in table)
    hdr = ["set", "m", "n", "k", "op"] + (["batch"] if showb else []) + ["cldnn ms", "cldnn TFLOP/s"]
    hdr += [f"{gemm_tool(t)} TFLOP/s" for t in tools] + [f"cldnn/{gemm_tool(t)}" for t in tools] + ["verify"]
    hdr += [f"{gemm_tool(t)} verify" for t in vtools]
    w(row(hdr))
    w("|" + "|".join(["---"] + ["---:"] * 3 + ["---"] + (["---:"] if showb else []) +
                     ["---:"] * (2 + 2 * len(tools)) + ["---"] * (1 + len(vtools))) + "|")
    for e in table:
        cells = [e["set"], e["m"], e["n"], e["k"], e["op"]] + ([e["batch"]] if showb else [])
        cells += [fmt_fixed(e["ms"], 4) if e["ms"] else "-", fmt_fixed(e["tf"])]
        cells += [fmt_fixed(e["base"][t]) for t in tools] + [fmt_fixed(ratio(e, t), 3) for t in tools]
        cells += [e["verify"]] + [e["bverify"][t] for t in vtools]
        w(row(cells))
    write(out, a.out)
    return 0


# ----------------------------------------------------------------------------------------------- conv

CONV_DIRS = ["fwd", "bwd-data", "bwd-filter"]
CONV_LIBS = {"cldnn": "cldnn", "cudnn": "cuDNN"}
CONV_CLASSES = [
    ("all layers", lambda s: True),
    ("1x1", lambda s: s["r"] == 1 and s["s"] == 1),
    ("not 3x3 (1x1 included)", lambda s: not (s["r"] == 3 and s["s"] == 3)),
    ("depthwise", lambda s: s["g"] > 1 and s["c"] // s["g"] == 1),
]
CONV_SHAPE_RE = re.compile(r"(\d+)x(\d+)x(\d+)x(\d+) k(\d+) (\d+)x(\d+) p(\d+)x(\d+) u(\d+)x(\d+) d(\d+)x(\d+) g(\d+)$")


def conv_lib(lib):
    return CONV_LIBS.get(lib, lib)


def conv_parse_logs(paths):
    """Reads the RESULT lines of cldnn-bench conv --shapes and of the conv baselines
    (perf/baselines/conv_shapes.h):
      RESULT <lib> <dir> <name> <n>x<c>x<h>x<w> k<k> <r>x<s> p.x. u.x. d.x. g<g> <algo> <ms> <tflops>
    ms and tflops are FAIL for a failed measurement; `# set: NAME` sets the shape set of the lines after
    it (default "shapes"); `# key: value` lines are headers, given to the lib of the next RESULT line;
    `# <name> <dir> <algo>: text` is cldnn-bench's note on one measurement. A later line of the same
    (set, lib, dir, name) replaces an earlier one. Returns (results {(set, lib, dir, name): row},
    headers {lib: {key: [values]}}, notes {(name, dir): [text]}, order [(set, name)], warnings)."""
    results, headers, notes, order, seen, warns = {}, {}, {}, [], set(), []

    def add_headers(lib, pending):
        for k, v in pending:
            lst = headers.setdefault(lib, {}).setdefault(k, [])
            if v not in lst:
                lst.append(v)

    for path in paths:
        cur, pending, libs_here = "shapes", [], set()
        for lineno, line in enumerate(read_lines(path), 1):
            m = re.match(r"# set: (\S+)\s*$", line)
            if m:
                cur = m.group(1)
                continue
            m = re.match(r"# (\S+) (fwd|bwd-data|bwd-filter) (\S+): (.*)$", line)
            if m:
                notes.setdefault((m.group(1), m.group(2)), []).append(f"{m.group(3)}: {m.group(4)}")
                continue
            m = re.match(r"# ([a-z]+): (.*)$", line)
            if m:
                pending.append((m.group(1), m.group(2).strip()))
                continue
            if not line.startswith("RESULT "):
                continue
            t = line.split()
            sm = CONV_SHAPE_RE.match(" ".join(t[4:11])) if len(t) == 14 else None
            if not sm or t[2] not in CONV_DIRS:
                warns.append(f"{path}:{lineno}: not a RESULT line of 14 fields: {line[:120]}")
                continue
            d = [int(x) for x in sm.groups()]
            lib, dr, name = t[1], t[2], t[3]
            libs_here.add(lib)
            add_headers(lib, pending)
            pending = []
            key = (cur, lib, dr, name)
            if key in results:
                warns.append(f"{path}:{lineno}: {lib} {dr} {cur}/{name} measured again; the later line is used")
            results[key] = {"shape": " ".join(t[4:11]), "algo": t[11], "ms": num(t[12]), "tf": num(t[13]),
                            "n": d[0], "c": d[1], "h": d[2], "w": d[3], "k": d[4], "r": d[5], "s": d[6], "g": d[13]}
            if (cur, name) not in seen:
                seen.add((cur, name))
                order.append((cur, name))
        # header lines after the last RESULT line (or in a log without any) go to the log's libs
        for lib in libs_here or {"?"}:
            add_headers(lib, pending)
    return results, headers, notes, order, warns


def conv_data_label(headers, lib):
    """'FP32' or 'FP16' (cldnn-bench's -d in lib's `# command:` lines), and ' under TENSOR_OP_MATH'."""
    cmd = " ".join(headers.get(lib, {}).get("command", []))
    half = re.search(r"(^|\s)-d\s+half(\s|$)", cmd) is not None
    tensor = re.search(r"(^|\s)--math\s+tensor(\s|$)", cmd) is not None
    return ("FP16" if half else "FP32") + (" under TENSOR_OP_MATH" if tensor else "")


def cmd_conv(a):
    """ratio = base ms / lib ms per (set, layer, direction), above 1 when the library is faster. Output:
    title, header (date, devices, versions, commands), a summary per set and over all sets (geometric
    means per direction over all layers, 1x1, not 3x3, depthwise), the failures, one table per set."""
    meta = meta_dict(a.meta)
    results, headers, notes, order, warns = conv_parse_logs(a.logs)
    L, B = a.lib, a.base
    rows = []
    for st, name in order:
        for d in CONV_DIRS:
            x, y = results.get((st, L, d, name)), results.get((st, B, d, name))
            if not x and not y:
                continue
            s = x or y
            rows.append({"set": st, "name": name, "dir": d, "shape": s["shape"], "dims": s, "lib": x, "base": y,
                         "ratio": (y["ms"] / x["ms"]) if x and y and x["ms"] and y["ms"] else None})
            if x and y and x["shape"] != y["shape"]:
                warns.append(f"{st}/{name} {d}: {L} ran {x['shape']}, {B} ran {y['shape']}")
    sets = list(dict.fromkeys(e["set"] for e in rows))

    out = []
    w = out.append
    dev = (headers.get(L, {}).get("device") or headers.get(B, {}).get("device") or ["?"])[0]
    w(f"# cldnn convolution ({conv_data_label(headers, L)}) vs {conv_lib(B)}: {dev.split(';')[0]}")
    w("")
    w(f"- date: {utc_now()}")
    for lib in [L, B] + sorted(k for k in headers if k not in (L, B)):
        for k, vals in headers.get(lib, {}).items():
            if k in ("command", "seed"):
                continue
            for v in vals:
                w(f"- {conv_lib(lib)} {'version' if k == lib else k}: {v}")
    ran = {lib: any(k[1] == lib for k in results) for lib in (L, B)}
    for lib in (L, B):
        if not ran[lib]:
            w(f"- {conv_lib(lib)}: no RESULT lines (not run, or it failed at start; see the run's log)")
    labels = {"commit": "cldnn commit", "host": "host", "wall": "run wall time", "status": "run status",
              "ms": "timed work per measurement (--ms, ms over the 5 repetitions)"}
    for k, label in labels.items():
        if k in meta:
            w(f"- {label}: {meta[k]}")
    seeds = headers.get(L, {}).get("seed")
    if seeds:
        w(f"- {conv_lib(L)} seeds: {'; '.join(seeds)}")
    for n in a.note:
        w(f"- note: {n}")
    for n in warns:
        w(f"- warning: {n}")
    w("")
    cmds = a.cmd or sum((headers.get(lib, {}).get("command", []) for lib in (L, B)), [])
    if cmds:
        w("## Commands")
        w("")
        out += code_block(cmds)
        w("")
    w("## Summary")
    w("")
    w(f"ratio = {conv_lib(B)} ms / {conv_lib(L)} ms per layer and direction (above 1: {conv_lib(L)} is faster); "
      "each cell is the")
    w("geometric mean over the layers of the class that both measured, with their count. Depthwise: groups > 1")
    w("and c / groups = 1. TFLOP/s count 2 N K P Q (C / groups) R S for every direction.")
    w("")

    def ratio_cell(v):
        return "-" if v is None else f"{v:.3f}"

    def summary(es, title):
        w(f"### {title}")
        w("")
        w("| layers | " + " | ".join(CONV_DIRS) + " |")
        w("|---|" + "---:|" * len(CONV_DIRS))
        for cname, pred in CONV_CLASSES:
            cells = []
            for d in CONV_DIRS:
                rs = [e["ratio"] for e in es if e["dir"] == d and pred(e["dims"]) and e["ratio"]]
                cells.append(f"{ratio_cell(geomean(rs))} ({len(rs)})" if rs else "-")
            w(f"| {cname} | " + " | ".join(cells) + " |")
        bad = [e for e in es if not e["ratio"]]
        nl = sum(1 for e in bad if not (e["lib"] and e["lib"]["ms"]))
        nb = sum(1 for e in bad if not (e["base"] and e["base"]["ms"]))
        w("")
        w(f"{len(es)} measurements (layer x direction), {len(es) - len(bad)} in the means; excluded: {len(bad)} "
          f"({conv_lib(L)} FAIL or missing: {nl}, {conv_lib(B)} FAIL or missing: {nb}).")
        w("")

    if len(sets) > 1:
        summary(rows, "all sets")
    for st in sets:
        summary([e for e in rows if e["set"] == st], st)

    # a side without any result is reported once in the header, not as one missing row per measurement
    bad = [e for e in rows if not e["ratio"] and
           any((r and not r["ms"]) or (not r and ran[lib]) for lib, r in ((L, e["lib"]), (B, e["base"])))]
    if bad:
        w("## Failures (excluded from the means)")
        w("")
        for e in bad:
            parts = []
            for lib, r in ((L, e["lib"]), (B, e["base"])):
                if not r:
                    if ran[lib]:
                        parts.append(f"{conv_lib(lib)} missing")
                elif not r["ms"]:
                    parts.append(f"{conv_lib(lib)} FAIL ({r['algo']})")
            nt = notes.get((e["name"], e["dir"]))
            w(f"- {e['set']} {e['name']} {e['dir']} ({e['shape']}): " + ", ".join(parts) +
              (f"; {conv_lib(L)} note: {' | '.join(nt)}" if nt else ""))
        w("")

    for st in sets:
        w(f"## {st}")
        w("")
        w(f"| layer | shape | direction | {conv_lib(L)} algo | {conv_lib(L)} ms | {conv_lib(L)} TFLOP/s | "
          f"{conv_lib(B)} algo | {conv_lib(B)} ms | ratio |")
        w("|---|---|---|---|---:|---:|---|---:|---:|")
        for e in rows:
            if e["set"] != st:
                continue
            x, y = e["lib"], e["base"]
            cells = [e["name"], e["shape"], e["dir"],
                     x["algo"] if x else "-", (fmt_sig(x["ms"], 4) if x["ms"] else "FAIL") if x else "-",
                     fmt_sig(x["tf"]) if x and x["ms"] else "-",
                     y["algo"] if y else "-", (fmt_sig(y["ms"], 4) if y["ms"] else "FAIL") if y else "-",
                     ratio_cell(e["ratio"])]
            w(row(cells))
        w("")
    write(out, a.out)
    return 0


# ------------------------------------------------------------------------------------------------ ops
# The bandwidth-bound families of perf/shapes/ops-nets.csv (columns and params: perf/baselines/cudnn_ops.c).
# cldnn-bench runs each case with -V 0 (the suites verify; the timing run does not pay for a double reference
# on 256 MiB) and prints one result line; its log holds, per case, a line `CASE NAME:DIR` and the bench's
# output after it. The cudnn_ops log holds RESULT lines. Bytes per call, the same for both libraries (each
# input read once, each output written once; parameter vectors left out):
#   copy 2 x tensor; pool fwd x + y, bwd x + y + dy + dx (max) or dy + dx (average); bnorm train and infer
#   x + y, bwd x + dy + dx; lrn fwd x + y, bwd x + y + dy + dx; softmax fwd x + y, bwd y + dy + dx.
# GB/s = bytes / time; "of copy" divides by the copy bandwidth that cldnn-bench measured in the same process.


def ops_read_cases(path):
    cases = []
    for line in read_lines(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, op, d, n, c, h, w, layout, params = line.split(",", 8)
        cases.append(dict(name=name, op=op, dir=d, n=int(n), c=int(c), h=int(h), w=int(w), layout=layout,
                          params=params))
    return cases


def ops_pool_geom(k):
    m = re.match(r"([a-z]+):(\d+)x(\d+):s(\d+)x(\d+):p(\d+)x(\d+)$", k["params"])
    return (m.group(1), *map(int, m.groups()[1:]))


def ops_bench_args(k):
    dims = "%dx%dx%dx%d" % (k["n"], k["c"], k["h"], k["w"])
    common = "-D %s -L %s -V 0 -t 1 -i 20" % (dims, k["layout"])
    op, d = k["op"], k["dir"]
    fb = 1 if d == "fwd" else 2
    if op == "copy":
        return "tensor -o transform -D %s -V 0 -t 1 -i 20" % dims
    if op == "pool":
        # the case file's mode (max, maxdet, avg, avgx) is what cldnn-bench -m, cudnn_ops and the tables say
        mode, r, s, u, v, ph, pw = ops_pool_geom(k)
        return "pool -m %s -y %d -x %d -u %d -v %d -p %d -q %d -F %d %s" % (mode, r, s, u, v, ph, pw, fb, common)
    if op == "bnorm":
        return "bnorm -m %d -F %d %s" % (1 if k["params"] == "spatial" else 0,
                                         {"train": 1, "bwd": 2, "infer": 3}[d], common)
    if op == "lrn":
        m = re.match(r"([a-z]+):n(\d+):a([^:]+):b([^:]+):k(.+)$", k["params"])
        return "lrn -m %d -N %s -a %s -b %s -K %s -F %d %s" % (
            0 if m.group(1) == "cross" else 1, m.group(2), m.group(3), m.group(4), m.group(5), fb, common)
    if op == "softmax":
        algo, mode = k["params"].split(":")
        return "softmax -a %d -M %d -F %d %s" % ({"fast": 0, "accurate": 1, "log": 2}[algo],
                                                  0 if mode == "instance" else 1, fb, common)
    raise ValueError("unknown op " + op)


def ops_bytes(k):
    x = k["n"] * k["c"] * k["h"] * k["w"] * 4
    op, d = k["op"], k["dir"]
    if op == "copy":
        return 2 * x
    if op == "pool":
        mode, r, s, u, v, ph, pw = ops_pool_geom(k)
        y = k["n"] * k["c"] * ((k["h"] + 2 * ph - r) // u + 1) * ((k["w"] + 2 * pw - s) // v + 1) * 4
        if d == "fwd":
            return x + y
        return 2 * x + 2 * y if mode.startswith("max") else x + y
    if op == "bnorm":
        return 3 * x if d == "bwd" else 2 * x
    if op == "lrn":
        return 2 * x if d == "fwd" else 4 * x
    if op == "softmax":
        return 2 * x if d == "fwd" else 3 * x
    raise ValueError(op)


def ops_parse_cldnn(path):
    """NAME:DIR -> (us, copy GB/s) from the bench's plain result lines."""
    out, name = {}, None
    pat = re.compile(r"\s([0-9.]+|-) us\s+([0-9.]+|-) GB/s\s+copy ([0-9.]+|-) GB/s")
    for line in read_lines(path):
        if line.startswith("CASE "):
            name = line.split()[1]
            continue
        m = pat.search(line)
        if name and m and name not in out:
            out[name] = (float(m.group(1)) if m.group(1) != "-" else None,
                         float(m.group(3)) if m.group(3) != "-" else None)
    return out


def ops_parse_cudnn(path):
    out = {}
    for line in read_lines(path):
        p = line.split()
        if len(p) >= 6 and p[0] == "RESULT" and p[1] == "cudnn":
            out[(p[2], p[4])] = float(p[5]) if p[5] != "FAIL" else None
    return out


def cmd_ops_commands(a):
    for k in ops_read_cases(a.cases):
        print("%s:%s\t%s" % (k["name"], k["dir"], ops_bench_args(k)))
    return 0


def cmd_ops(a):
    cases = ops_read_cases(a.cases)
    cl = ops_parse_cldnn(a.cldnn_log)
    cu = ops_parse_cudnn(a.cudnn_log)
    out = ["# %s" % a.title, ""]
    if a.command:
        out += ["Command: `%s`" % a.command, ""]
    out.append("| case | op | dir | dims | layout | params | MB | cldnn us | cldnn GB/s | of copy | cuDNN us | "
               "cuDNN GB/s | cuDNN time / cldnn time |")
    out.append("|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    groups = {}
    for k in cases:
        b = ops_bytes(k)
        us, cp = cl.get(k["name"] + ":" + k["dir"], (None, None))
        cus = cu.get((k["name"], k["dir"]))
        gbs = b / (us * 1e3) if us else None
        cgbs = b / (cus * 1e3) if cus else None
        frac = gbs / cp if gbs and cp else None
        ratio = cus / us if us and cus else None
        g = groups.setdefault((k["op"], k["dir"]), dict(frac=[], ratio=[], big=None))
        g["frac"].append(frac)
        g["ratio"].append(ratio)
        if k["name"].startswith("big-") and k["op"] != "copy" and g["big"] is None:
            g["big"] = frac
        out.append(row([k["name"], k["op"], k["dir"], "%dx%dx%dx%d" % (k["n"], k["c"], k["h"], k["w"]), k["layout"],
                        k["params"], "%.1f" % (b / 1e6), fmt_pct(us, "%.1f"), fmt_pct(gbs, "%.0f"),
                        fmt_pct(frac, "%.2f"), fmt_pct(cus, "%.1f"), fmt_pct(cgbs, "%.0f"), fmt_pct(ratio, "%.2f")]))
    out += ["", "## Per op and direction (geometric means over the rows above)", ""]
    out.append("| op | dir | cldnn GB/s of copy | first 256 MiB row, of copy | cuDNN time / cldnn time |")
    out.append("|---|---|---:|---:|---:|")
    for (op, d), g in groups.items():
        out.append(row([op, d, fmt_pct(geomean(g["frac"]), "%.2f"), fmt_pct(g["big"], "%.2f"),
                        fmt_pct(geomean(g["ratio"]), "%.2f")]))
    if a.versions:
        out += ["", "Devices and versions (from the logs):", ""]
        vers = {line for p in (a.cldnn_log, a.cudnn_log) for line in read_lines(p)
                if line.startswith("# ") and not line.startswith("# command")}
        out += ["    " + v for v in sorted(vers)]
    write(out, None)
    return 0


# -------------------------------------------------------------------------------------------- ops-v11
# The v1.1 primitives of perf/shapes/ops-v11.csv (op tensor, reduce, dropout, layer / RMS / group norm;
# params: the file's header). Three logs: cldnn-bench's (per case a line `CASE NAME:DIR ARGS`, then the
# bench's --md row, or a line `FAILED (exit N): ...` after its output), cudnn_ops' and torch_ops.py's
# RESULT lines (`RESULT <lib> NAME OP DIR US`, or FAIL and a reason in place of US; torch_ops.py adds
# `RESULT torch-copy ...`, its device-to-device copy of the case's input). Bytes per call, the same for
# every library (each input read once, each output written once; statistics and scale / bias vectors
# left out): copy 2 x; optensor A + B + C; reduce A + C; dropout fwd x + y, bwd dy + dx (no mask: cldnn
# regenerates it, the baselines also read or write a stored mask); norm fwd x + y, bwd x + dy + dx.

V11_OPS = ("copy", "optensor", "reduce", "dropout", "norm")
V11_TARGET_OF_COPY = 0.80  # the target: at least 80 % of the copy bandwidth of the same call


def v11_dims(s):
    """'1x256x1x1' as a list of ints (ValueError for anything else)."""
    d = [int(x) for x in s.split("x")]
    if not d or min(d) < 1:
        raise ValueError("bad dims " + s)
    return d


def v11_params(k):
    """The parsed params of an ops-v11 case: op tensor {'op', 'b'}, reduce {'op', 'c'} (dims lists),
    dropout {'p'}, norm {'mode', 'param'}, copy {}. ValueError on a malformed field."""
    op, p = k["op"], k["params"]
    x = [k["n"], k["c"], k["h"], k["w"]]
    f = p.split(":")
    if op == "copy":
        return {}
    if op == "optensor":
        if len(f) > 1 and not f[1].startswith("b"):
            raise ValueError(f"{k['name']}: optensor params OP[:bNxCxHxW], not {p}")
        b = v11_dims(f[1][1:]) if len(f) > 1 else x
        if any(bd not in (1, xd) for bd, xd in zip(b, x)) or len(b) != 4:
            raise ValueError(f"{k['name']}: B {b} does not broadcast to {x}")
        return {"op": f[0], "b": b}
    if op == "reduce":
        if len(f) != 2 or not f[1].startswith("c"):
            raise ValueError(f"{k['name']}: reduce params OP:cNxCxHxW, not {p}")
        c = v11_dims(f[1][1:])
        if any(cd not in (1, xd) for cd, xd in zip(c, x)) or len(c) != 4:
            raise ValueError(f"{k['name']}: C {c} is not A {x} with dims set to 1")
        return {"op": f[0], "c": c}
    if op == "dropout":
        v = float(p)
        if not 0 <= v < 1:
            raise ValueError(f"{k['name']}: dropout {p} outside [0, 1)")
        return {"p": v}
    if op == "norm":
        if len(f) != 2 or f[0] not in ("layer", "rms", "group"):
            raise ValueError(f"{k['name']}: norm params layer:K | rms:K | group:G, not {p}")
        return {"mode": f[0], "param": int(f[1])}
    raise ValueError(f"{k['name']}: unknown op {op}")


def v11_read_cases(path):
    """The cases of an ops-v11 file, each with its parsed params in 'p'."""
    cases = ops_read_cases(path)
    for k in cases:
        k["p"] = v11_params(k)
        k["dims"] = [k["n"], k["c"], k["h"], k["w"]]
    return cases


def v11_bench_args(k, verify, iters):
    dstr = "x".join(map(str, k["dims"]))
    common = f"-D {dstr} -L {k['layout']} -V {verify} -t 1 -i {iters} --md"
    p, d = k["p"], k["dir"]
    if k["op"] == "copy":
        return f"tensor -o scale -A 1 {common}"
    if k["op"] == "optensor":
        return f"optensor --op {p['op']} --b-dims {'x'.join(map(str, p['b']))} {common}"
    if k["op"] == "reduce":
        return f"reduce --op {p['op']} --c-dims {'x'.join(map(str, p['c']))} --indices 0 {common}"
    if k["op"] == "dropout":
        return f"dropout -p {p['p']:g} --dir {d} --reserve 0 {common}"
    return (f"norm --mode {p['mode']} --param {p['param']} --dir {d} --affine 1" +
            (" --save 1" if d == "fwd" else "") + f" {common}")


def v11_bytes(k):
    x = math.prod(k["dims"]) * 4
    op, d, p = k["op"], k["dir"], k["p"]
    if op == "optensor":
        return 2 * x + math.prod(p["b"]) * 4
    if op == "reduce":
        return x + math.prod(p["c"]) * 4
    if op == "norm" and d == "bwd":
        return 3 * x
    return 2 * x


def v11_parse_cldnn(path):
    """NAME:DIR -> {'args' (with the run's --seed), 'us', 'copy', 'verify', 'why'} from the CASE blocks of
    cldnn-bench's log."""
    out, cur = {}, None
    for line in read_lines(path):
        if line.startswith("CASE "):
            f = line.split(None, 2)
            cur = out.setdefault(f[1], {"args": f[2] if len(f) > 2 else "", "us": None, "copy": None,
                                        "verify": "-", "why": "", "first": "", "last": "",
                                        "row": False})
            continue
        if cur is None:
            continue
        m = re.match(r"# seed: (\d+)", line)
        if m and "--seed" not in cur["args"]:
            cur["args"] += " --seed " + m.group(1)
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 13 and cells[0] != "mode" and not cells[0].startswith("-") and not cur["row"]:
                cur.update(us=num(cells[8]), copy=num(cells[10]), verify=cells[12], row=True)
            continue
        if line.startswith("FAILED"):
            cur["why"] = (cur["first"] or cur["last"] or line)[:100]
        elif line.strip() and not line.startswith("#"):
            cur["last"] = line.strip().replace("|", "/")
            if not cur["first"] and re.search(r"^cldnn-bench\b[^:]*:|CLDNN_STATUS|[Ee]rror|FAIL", line):
                cur["first"] = cur["last"]
    return out


def v11_parse_results(path, lib):
    """(NAME, DIR) -> microseconds, or the reason string of a FAIL line, from `RESULT <lib> ...` lines."""
    out = {}
    if not path or not os.path.exists(path):
        return out
    for line in read_lines(path):
        p = line.split()
        if len(p) >= 6 and p[0] == "RESULT" and p[1] == lib:
            out[(p[2], p[4])] = num(p[5]) if p[5] != "FAIL" else "FAIL " + " ".join(p[6:])
    return out


def cmd_ops_v11_commands(a):
    for k in v11_read_cases(a.cases):
        print("%s:%s\t%s" % (k["name"], k["dir"], v11_bench_args(k, a.verify, a.iters)))
    return 0


def v11_cell_us(v):
    """A baseline's time cell: us, 'n/a' for a case it cannot express, FAIL, or '-' (not run)."""
    if v is None:
        return "-"
    if isinstance(v, str):
        return "n/a" if v.endswith("unsupported") else "FAIL"
    return "%.1f" % v


def cmd_ops_v11(a):
    cases = v11_read_cases(a.cases)
    meta = meta_dict(a.meta)
    cl = v11_parse_cldnn(a.cldnn_log)
    cu = v11_parse_results(a.cudnn_log, "cudnn")
    to = v11_parse_results(a.torch_log, "torch")
    tc = v11_parse_results(a.torch_log, "torch-copy")
    rows, groups, misses = [], {}, []
    for k in cases:
        key = k["name"] + ":" + k["dir"]
        if key not in cl and not a.all_cases:
            continue  # not selected by ONLY
        b = v11_bytes(k)
        c = cl.get(key, {})
        us, cp = c.get("us"), c.get("copy")
        cus, tus = cu.get((k["name"], k["dir"])), to.get((k["name"], k["dir"]))
        tcus = tc.get((k["name"], k["dir"]))
        cus_v = cus if isinstance(cus, float) else None
        tus_v = tus if isinstance(tus, float) else None
        gbs = b / (us * 1e3) if us else None
        frac = gbs / cp if gbs and cp else None
        tgbs = b / (tus_v * 1e3) if tus_v else None
        tcopy = 2 * math.prod(k["dims"]) * 4 / (tcus * 1e3) if isinstance(tcus, float) else None
        r_cu = cus_v / us if us and cus_v else None
        r_to = tus_v / us if us and tus_v else None
        verify = c.get("verify", "-") if c.get("row") else ("FAIL: " + (c.get("why") or "no result row")
                                                            if c else "not run")
        rows.append(row([k["name"], k["op"], k["dir"], "x".join(map(str, k["dims"])), k["params"], "%.1f" % (b / 1e6),
                         fmt_pct(us, "%.1f") if c.get("row") else "FAIL", fmt_pct(gbs, "%.0f"), fmt_pct(cp, "%.0f"),
                         fmt_pct(frac, "%.2f"), v11_cell_us(cus), v11_cell_us(tus), fmt_pct(tgbs, "%.0f"),
                         fmt_pct(tcopy, "%.0f"), fmt_pct(tgbs / tcopy if tgbs and tcopy else None, "%.2f"),
                         fmt_pct(r_cu, "%.2f"), fmt_pct(r_to, "%.2f"), verify]))
        if k["op"] == "copy":
            continue
        g = groups.setdefault((k["op"] if k["op"] != "norm" else k["p"]["mode"] + " norm", k["dir"]),
                              dict(n=0, frac=[], cu=[], to=[], met=0, fail=0))
        g["n"] += 1
        g["frac"].append(frac)
        g["cu"].append(r_cu)
        g["to"].append(r_to)
        why = []
        if not us:
            why.append("cldnn FAIL")
            g["fail"] += 1
        else:
            if frac is not None and frac < V11_TARGET_OF_COPY:
                why.append("%.2f of copy" % frac)
            if r_cu is not None and r_cu < 1:
                why.append("cuDNN %.2fx faster" % (1 / r_cu))
            if r_to is not None and r_to < 1:
                why.append("PyTorch %.2fx faster" % (1 / r_to))
            if verify.startswith("FAIL"):
                why.append("verify FAIL")
        if why:
            misses.append(f"- {k['name']} {k['dir']}: " + ", ".join(why))
        else:
            g["met"] += 1
    out = [f"# {a.title}", ""]
    out.append(f"- date: {utc_now()}; cldnn commit {meta.get('commit', 'unknown')}; host {meta.get('host', '?')}")
    for k in ("status", "wall"):
        if k in meta:
            out.append(f"- {k}: {meta[k]}")
    if a.command:
        out.append(f"- command: `{a.command}`")
    for n in a.note:
        out.append(f"- note: {n}")
    out += ["", "Devices and versions (from the logs):", ""]
    vers = []
    for p in (a.cldnn_log, a.cudnn_log, a.torch_log):
        for x in read_lines(p) if p and os.path.exists(p) else []:
            if x.startswith("# ") and not x.startswith(("# command", "# set", "# seed")) and x not in vers:
                vers.append(x)
    dev = [x for x in read_lines(a.cldnn_log) if x.lower().startswith("device")][:2] if os.path.exists(
        a.cldnn_log) else []
    out += ["    " + v for v in dev + vers] or ["    (none)"]
    out += ["", "## Commands", ""]
    out += code_block(a.cmd + [f"cldnn-bench {c['args']}   # {n}" for n, c in cl.items()])
    out += ["", "## Method", "",
            "FP32, alpha 1, beta 0. MB: the bytes the call must move (each input read once, each output written",
            "once; statistics, scale / bias vectors and dropout masks left out), 1e6 bytes; GB/s = MB / time for",
            "every library. cldnn: cldnn-bench, median of 5 repetitions of -i calls between clFinish; copy GB/s:",
            "clEnqueueCopyBuffer in the same process (read + write), of copy = cldnn GB/s / copy GB/s (target",
            ">= 0.80). Copy rows: cldnn runs cldnnScaleTensor with alpha 1 (its own one-read one-write kernel),",
            "cuDNN cudaMemcpy device to device, PyTorch y.copy_(x); the copy GB/s column is the reference",
            f"of every row, target >= {V11_TARGET_OF_COPY:.2f}). cuDNN: cudnn_ops (legacy API; `n/a`: no cuDNN op, as for layer / RMS /",
            "group norm). PyTorch: perf/baselines/torch_ops.py, CUDA events, median of 5 repetitions; torch",
            "copy GB/s: its device-to-device copy of the case's input, 2 x input bytes / time. Ratios are",
            "baseline time / cldnn time (above 1: cldnn is faster; target >= 1). Dropout: cldnn regenerates",
            "the mask in backward (no reserve), cuDNN reads its reserve and PyTorch its stored mask, and both",
            "write them in forward: their extra bytes are not counted.", ""]
    out += ["## Summary (geometric means per op and direction; copy rows left out)", "",
            "| op | dir | cases | cldnn of copy | min of copy | cuDNN / cldnn | PyTorch / cldnn | all targets met | "
            "cldnn FAIL |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for (op, d), g in groups.items():
        fr = [x for x in g["frac"] if x]
        out.append(row([op, d, str(g["n"]), fmt_pct(geomean(fr), "%.2f"), fmt_pct(min(fr) if fr else None, "%.2f"),
                        fmt_pct(geomean(g["cu"]), "%.2f"), fmt_pct(geomean(g["to"]), "%.2f"), str(g["met"]),
                        str(g["fail"])]))
    out += ["", "## Cases", "",
            "| case | op | dir | dims | params | MB | cldnn us | cldnn GB/s | copy GB/s | of copy | cuDNN us | "
            "PyTorch us | PyTorch GB/s | torch copy GB/s | PyTorch of its copy | cuDNN / cldnn | PyTorch / cldnn | "
            "verify |",
            "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"] + rows
    out += ["", "## Targets missed", ""] + (misses or ["- none"])
    write(out, a.out)
    return 0


# ---------------------------------------------------------------------------------------- convbiasact
# The fused convolution (cldnnConvolutionBiasActivationForward) on a network's layers: four logs of the
# conv RESULT lines (conv_parse_logs): cldnn-bench convbiasact (fused, its algorithm per layer), cldnn-bench
# conv with each layer's fused algorithm (plain), cldnn-bench convbiasact --separate 1 with the same
# algorithm (conv + bias add + activation as three calls) and cudnn_conv --fused (lib cudnn: the plain
# convolution of Find's algorithm; lib cudnn-fused: cudnnConvolutionBiasActivationForward with it).

CBA_TARGET_PLAIN = 1.05  # fused time at most 1.05 x the plain convolution of the same algorithm


def cba_fwd_times(paths, libs=None):
    """name -> the forward RESULT row of the logs (the last one wins), of any lib or of those in libs."""
    results, headers, _notes, _order, _warns = conv_parse_logs([p for p in paths if p and os.path.exists(p)])
    out = {}
    for (_set, lib, d, name), r in results.items():
        if d == "fwd" and (libs is None or lib in libs):
            out[name] = r
    return out, headers


def cba_algo_id(name):
    """The forward algorithm enum value of an algorithm name as cldnn-bench and cudnn_conv print it, or None."""
    names = ["implicit_gemm", "implicit_precomp_gemm", "gemm", "direct", "fft", "fft_tiling", "winograd",
             "winograd_nonfused"]
    return names.index(name) if name in names else None


def cmd_convbiasact_plan(a):
    """Splits the shape file by the algorithm of each layer's fused measurement: OUTDIR/algo-N.csv per forward
    algorithm N, OUTDIR/find.csv for the layers without a timed fused row; prints `N FILE` / `find FILE`."""
    fused, _ = cba_fwd_times([a.fused_log])
    lines = read_lines(a.shapes)
    hdr = next(x for x in lines if x.strip() and not x.startswith("#"))
    col = hdr.split(",").index("name")
    groups = {}
    for x in lines[lines.index(hdr) + 1:]:
        if not x.strip() or x.startswith("#"):
            continue
        r = fused.get(x.split(",")[col])
        aid = cba_algo_id(r["algo"]) if r and r["ms"] else None
        groups.setdefault("find" if aid is None else str(aid), []).append(x)
    os.makedirs(a.outdir, exist_ok=True)
    for g, xs in sorted(groups.items()):
        path = os.path.join(a.outdir, ("algo-" + g if g != "find" else g) + ".csv")
        with open(path, "w") as f:
            f.write("\n".join([hdr] + xs) + "\n")
        print(g, path)
    return 0


def cmd_convbiasact(a):
    meta = meta_dict(a.meta)
    fused, fh = cba_fwd_times([a.fused])
    plain, ph = cba_fwd_times([a.plain])
    sep, _ = cba_fwd_times([a.separate])
    cuf, ch = cba_fwd_times([a.cudnn], {"cudnn-fused"})
    cup, _ = cba_fwd_times([a.cudnn], {"cudnn"})
    names = list(dict.fromkeys(list(fused) + list(plain) + list(sep) + list(cuf)))

    def ms(d, n):
        r = d.get(n)
        return r["ms"] if r else None

    def cell(d, n):
        r = d.get(n)
        return "-" if not r else fmt_sig(r["ms"], 4) if r["ms"] else "FAIL"

    rows, r_plain, r_sep, r_cu, misses, tot = [], [], [], [], [], {"f": 0, "p": 0, "s": 0, "c": 0, "n": 0}
    for n in names:
        f, p, s, c = ms(fused, n), ms(plain, n), ms(sep, n), ms(cuf, n)
        fp = f / p if f and p else None
        sf = s / f if f and s else None
        cf = c / f if f and c else None
        r_plain.append(fp)
        r_sep.append(sf)
        r_cu.append(cf)
        if f and p and s and c:
            tot["f"] += f
            tot["p"] += p
            tot["s"] += s
            tot["c"] += c
            tot["n"] += 1
        why = []
        if not f:
            why.append("fused " + ((fused[n]["algo"] + " FAIL") if n in fused else "missing"))
        else:
            if fp is not None and fp > CBA_TARGET_PLAIN:
                why.append("fused / plain %.3f" % fp)
            if sf is not None and sf < 1:
                why.append("separate calls faster (%.3f)" % sf)
            if cf is not None and cf < 1:
                why.append("cuDNN fused faster (%.3f)" % cf)
        if why:
            misses.append(f"- {n}: " + ", ".join(why))
        src = fused.get(n) or plain.get(n) or cuf.get(n) or sep.get(n)
        rows.append(row([n, src["shape"], fused[n]["algo"] if n in fused else "-", cell(fused, n),
                         plain[n]["algo"] if n in plain else "-", cell(plain, n), fmt_pct(fp, "%.3f"), cell(sep, n),
                         fmt_pct(sf, "%.3f"), cuf[n]["algo"] if n in cuf else "-", cell(cuf, n),
                         fmt_pct(cf, "%.3f"), cell(cup, n)]))

    def met(vals, ok):
        v = [x for x in vals if x is not None]
        return f"{sum(1 for x in v if ok(x))} of {len(v)}"

    dev = (fh.get("cldnn", {}).get("device") or ph.get("cldnn", {}).get("device") or
           ch.get("cudnn", {}).get("device") or
           ch.get("cudnn-fused", {}).get("device") or ["?"])[0]
    out = [f"# cldnn fused convolution + bias + {meta.get('act', 'relu').upper()} (FP32) vs the plain convolution, "
           f"separate calls and cuDNN: {dev.split(';')[0]}", "",
           f"- date: {utc_now()}; cldnn commit {meta.get('commit', 'unknown')}; host {meta.get('host', '?')}"]
    for k in ("status", "wall", "ms", "layers"):
        if k in meta:
            out.append(f"- {k}: {meta[k]}")
    for lib, hs in list(fh.items()) + list(ch.items()):
        for k, vals in hs.items():
            if k not in ("command", "seed", "set"):
                out += [f"- {lib} {k}: {v}" for v in vals]
    for n in a.note:
        out.append(f"- note: {n}")
    out += ["", "## Commands", ""] + code_block(a.cmd)
    out += ["", "## Method", "",
            "Forward only, batch and layers of the shape file, FP32 without TF32. fused: cldnn-bench convbiasact",
            "(y = act(conv(x, w) + bias)) with its algorithm choice; plain: cldnn-bench conv with the fused row's",
            "algorithm (-a N, layers grouped by algorithm); separate: cldnn-bench convbiasact --separate 1 with",
            "the same algorithm (convolution, bias add, activation as three calls); cuDNN fused:",
            "cudnnConvolutionBiasActivationForward with the algorithm cudnnFind chose for the plain convolution",
            "(cudnn_conv --fused; its plain time in the last column). ms: median per call.",
            f"Targets: fused / plain <= {CBA_TARGET_PLAIN}, separate / fused > 1, cuDNN fused / cldnn fused >= 1.", "",
            "## Summary", "",
            "| measure | geometric mean | layers meeting the target |", "|---|---:|---:|",
            row(["fused / plain (same algorithm)", fmt_pct(geomean(r_plain), "%.3f"),
                 met(r_plain, lambda x: x <= CBA_TARGET_PLAIN)]),
            row(["separate calls / fused", fmt_pct(geomean(r_sep), "%.3f"), met(r_sep, lambda x: x > 1)]),
            row(["cuDNN fused / cldnn fused", fmt_pct(geomean(r_cu), "%.3f"), met(r_cu, lambda x: x >= 1)]), ""]
    if tot["n"]:
        out.append(f"Network sum over the {tot['n']} layers every tool timed: fused {tot['f']:.3f} ms, plain "
                   f"{tot['p']:.3f} ms, separate {tot['s']:.3f} ms, cuDNN fused {tot['c']:.3f} ms.")
        out.append("")
    out += ["## Layers", "",
            "| layer | shape | fused algo | fused ms | plain algo | plain ms | fused / plain | separate ms | "
            "separate / fused | cuDNN algo | cuDNN fused ms | cuDNN fused / cldnn fused | cuDNN plain ms |",
            "|---|---|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|"] + rows
    out += ["", "## Targets missed", ""] + (misses or ["- none"])
    write(out, a.out)
    return 0


# ----------------------------------------------------------------------------------------- first-iter


def cmd_first_iter(a):
    """One row per --run LABEL=LOG from the log's FIRSTITER line (cldnn-first-iter)."""
    meta = meta_dict(a.meta)
    rows, dev = [], ""
    for spec in a.run:
        label, path = spec.split("=", 1)
        lines = read_lines(path) if os.path.exists(path) else []
        if not dev:
            dev = next((re.sub(r"^device *", "", x) for x in lines if x.startswith("device")), "")
        line = next((x for x in lines if x.startswith("FIRSTITER")), None)
        if line is None:
            rows.append(f"| {label} | FAILED | | | | | | | | | | |")
            continue
        f = dict(t.split("=", 1) for t in line.split()[1:] if "=" in t)
        g = f.get
        rows.append(row([label, g("threads", ""), g("layers", ""), g("batch", ""), g("handle_ms", ""),
                         g("setup_ms", ""), g("prepare_ms", ""), g("first_ms", ""), g("steady_ms", ""),
                         g("ratio", ""), f"{g('built', '')} / {g('loaded', '')}",
                         f"{g('first_built', '')} / {g('first_loaded', '')}"]))
    steady = meta.get("steady", "3")
    out = [f"# First iteration vs steady state: {meta.get('prefix', 'resnet50/')} convolutions, "
           "fwd + bwd-data + bwd-filter", "",
           f"- command: `{meta.get('command', '')}`",
           f"- date: {utc_now()}, commit {meta.get('commit', 'unknown')}, host {meta.get('host', '?')}",
           f"- device: {dev}",
           "- each row a new process; cold: empty CLDNN_CACHE_DIR (and driver caches: POCL_CACHE_DIR,",
           "  CUDA_CACHE_PATH), warm: what the cold run stored in them;",
           "  CLDNN_DB_PATH empty (Get: heuristic or system tables). Times in ms, host clock to clFinish;",
           f"  steady: median of {steady} iterations after the first. Programs: built from source / loaded",
           "  from the disk cache (library counters), in the whole run and in iteration 1.", "",
           "  cold+prepare rows: caches of their own, empty; build threads: CLDNN_BUILD_THREADS (each",
           "  Prepare call builds the programs it needs on that many threads).", "",
           "| run | build threads | layers | batch | handle | setup | prepare | iteration 1 | steady | "
           "iter 1 / steady | programs built / loaded | in iteration 1 |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"] + rows
    write(out, a.out)
    return 0


# ---------------------------------------------------------------------------------------------- train


def train_row(path, label, tag, dev=None):
    """A table row from the `RESULT path=TAG k=v...` line of a train_digits / PyTorch log (dev: default
    the log's own `[tag] device: ...` line); None when the log has no such line."""
    lines = read_lines(path) if path and os.path.exists(path) else []
    if dev is None:
        dev = next((re.sub(r"^\[[a-z]*\] device: ", "", x) for x in lines if re.match(r"\[[a-z]*\] device: ", x)), "")
    v = {}
    for x in lines:
        if x.startswith(f"RESULT path={tag} "):
            v.update(t.split("=", 1) for t in x.split()[1:] if "=" in t)
    if not v.get("test_acc"):
        return None
    return row([label, dev, v["test_acc"], v.get("train_loss", ""), "%.1f" % (float(v.get("epoch1_s", 0)) * 1000),
                "%.1f" % (float(v.get("epoch_s", 0)) * 1000)])


def cmd_train(a):
    meta = meta_dict(a.meta)
    cold = read_lines(a.cold) if os.path.exists(a.cold) else []
    torch = a.torch and os.path.exists(a.torch) and os.path.getsize(a.torch) > 0

    def first(prefix):
        return next((x[len(prefix):] for x in cold if x.startswith(prefix)), "")

    cpu = "?"
    if os.path.exists("/proc/cpuinfo"):
        cpu = next((re.sub(r".*: ", "", x) for x in read_lines("/proc/cpuinfo") if "model name" in x), "?")
    out = [f"# train_digits: cldnn, the CPU reference path{' and PyTorch' if torch else ''}, "
           f"{utc_now('%Y-%m-%d')}, commit {meta.get('commit', 'unknown')}", "",
           f"Command: `{meta.get('command', '')}` (build: Release).",
           f"Data: {first('data: ')}; {first('samples: ')}.",
           "Training time per epoch: host side from the epoch's data upload to its loss read back (test",
           "evaluation not included); epoch 1 includes program builds (cold cache) or loads (warm).", "",
           "| path | device | final test accuracy % | final train loss | epoch 1 ms | mean epoch 2..N ms |",
           "|---|---|---:|---:|---:|---:|"]
    rows = [train_row(a.cold, "cldnn, cold program cache", "cldnn"),
            train_row(a.warm, "cldnn, warm program cache", "cldnn"),
            train_row(a.cold, "CPU reference (double, 1 thread)", "cpu", f"host: {cpu}")]
    if torch:
        rows.append(train_row(a.torch, "PyTorch (cuDNN, FP32 strict)", "torch"))
    out += [r for r in rows if r]
    out.append("")
    out += [x for x in cold if x.startswith("first batch loss")]
    if torch:
        out += [x for x in read_lines(a.torch) if x.startswith("[torch] device")]
    write(out, a.out)
    return 0


# ---------------------------------------------------------------------------------------- get-vs-find
# Per shape file two fresh processes of `cldnn-bench conv --shapes FILE -F 7 -V 0 -t 0`:
#   1. -a find with an empty user find-db (CLDNN_DB_PATH a new temp folder) and no system tables
#      (CLDNN_SYSTEM_DB_PATH=): its `# get` lines are the heuristic's answer (Get runs before Find records
#      anything), its `# find` lines Find's timed answer;
#   2. -a heur with another empty user find-db, the system tables (--sysdb, default the library's own) and
#      CLDNN_LOG_LEVEL=2: each Get the find-db answered logs "answered from the find-db".
# A hit: the heuristic's choice is Find's fastest; otherwise the time lost is Find's time of Get's
# algorithm minus the fastest (an algorithm Find could not time is a miss with no time).

GVF_LINE = re.compile(r"^# (get|find) (\S+) (fwd|bwd-data|bwd-filter):(.*)$")


def gvf_parse(text):
    """{(shape, dir): {'get': [(algo, ms, ok)...], 'find': [...]}} and the count of find-db hits."""
    out = {}
    for line in text.splitlines():
        m = GVF_LINE.match(line)
        if not m:
            continue
        how, shape, d, rest = m.groups()
        entries = []
        for part in rest.split(";"):
            tok = part.split()
            if tok:
                ms = float(tok[1]) if len(tok) > 2 and tok[2] == "ms" else None
                entries.append((tok[0], ms, not (len(tok) > 1 and tok[1].startswith("CLDNN_STATUS"))))
        out.setdefault((shape, d), {})[how] = entries
    return out, text.count("answered from the find-db")


def gvf_run(cmd, env):
    """stdout + stderr of cmd under env (a failure is reported, not fatal)."""
    sys.stderr.write("+ " + " ".join(cmd) + "\n")
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write(f"  exit status {p.returncode}\n")
    return p.stdout + p.stderr


def gvf_measure(a):
    find_text, hit_text, cmds = "", "", []
    for f in a.shapes.split(","):
        base = [a.bench, "conv", "--shapes", f, "-F", "7", "-V", "0", "-t", "0"]
        with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
            env = dict(os.environ, CLDNN_DEVICE=a.device, CLDNN_DB_PATH=d1, CLDNN_SYSTEM_DB_PATH="")
            env.pop("CLDNN_FIND_MODE", None)
            find_text += gvf_run(base + ["-a", "find"], env)
            cmds.append(f"CLDNN_DB_PATH=<empty> CLDNN_SYSTEM_DB_PATH= {' '.join(base)} -a find")
            env = dict(os.environ, CLDNN_DEVICE=a.device, CLDNN_DB_PATH=d2, CLDNN_LOG_LEVEL="2")
            env.pop("CLDNN_FIND_MODE", None)
            if a.sysdb is not None:
                env["CLDNN_SYSTEM_DB_PATH"] = a.sysdb
            else:
                env.pop("CLDNN_SYSTEM_DB_PATH", None)
            hit_text += gvf_run(base + ["-a", "heur"], env)
            sysdb = f"CLDNN_SYSTEM_DB_PATH={a.sysdb} " if a.sysdb is not None else ""
            cmds.append(f"CLDNN_DB_PATH=<empty> {sysdb}CLDNN_LOG_LEVEL=2 {' '.join(base)} -a heur")
    return find_text, hit_text, cmds


def gvf_report(find_text, hit_text, cmds, meta):
    probs, _ = gvf_parse(find_text)
    rows, n, same, lost_ms, lost_rel = [], 0, 0, 0.0, []
    for (shape, d), v in sorted(probs.items()):
        if "find" not in v or not v.get("get"):
            continue
        timed = [(al, ms) for al, ms, ok in v["find"] if ok and ms is not None]
        if not timed:
            continue
        n += 1
        best, tbest = timed[0]
        g = v["get"][0][0]
        tg = next((ms for al, ms in timed if al == g), None)
        if g == best:
            same += 1
            rows.append((shape, d, g, best, tbest, tg, "yes", ""))
            continue
        if tg is not None:
            lost_ms += tg - tbest
            lost_rel.append(tg / tbest if tbest > 0 else 1.0)
        rows.append((shape, d, g, best, tbest, tg, "no", f"x{tg / tbest:.2f}" if tg and tbest > 0 else "untimed"))
    out = ["# Get's choice vs Find's choice, and the find-db hit rate", ""]
    out += [f"- {k}: {v}" for k, v in meta]
    out += [f"- command: `{c}`" for c in cmds]
    out.append("")
    if n:
        geo = geomean(lost_rel) if lost_rel else 1.0
        out.append(f"Heuristic (no database) picks Find's fastest in **{same} of {n}** problems "
                   f"({100.0 * same / n:.0f} %); when it does not ({n - same}), Get's algorithm takes "
                   f"x{geo:.2f} Find's best (geometric mean of {len(lost_rel)} timed), "
                   f"{lost_ms:.3f} ms lost in all per pass over the list.")
    if hit_text:
        hp, hits = gvf_parse(hit_text)
        gets = sum(1 for v in hp.values() if "get" in v)
        agree = sum(1 for k, v in hp.items() if v.get("get") and probs.get(k, {}).get("find")
                    and v["get"][0][0] == probs[k]["find"][0][0])
        if gets:
            out += ["", f"Find-db hit rate with the system tables and an empty user db: **{hits} of {gets}** Gets "
                        f"({100.0 * hits / gets:.0f} %) answered from the tables; Get then picks Find's fastest "
                        f"(of run 1) in {agree} of {gets}."]
    out += ["", "| shape | dir | Get (heuristic) | Find's fastest | ms | Get's algo in Find, ms | same | lost |",
            "|---|---|---|---|---|---|---|---|"]
    for shape, d, g, best, tbest, tg, s, lost in rows:
        out.append(row([shape, d, g, best, f"{tbest:.4g}", f"{tg:.4g}" if tg is not None else "-", s, lost]))
    return out


def cmd_get_vs_find(a):
    if a.logs:
        find_text = open(a.logs[0]).read()
        hit_text = open(a.logs[1]).read() if len(a.logs) > 1 else ""
        cmds = []
    elif a.bench:
        find_text, hit_text, cmds = gvf_measure(a)
    else:
        sys.stderr.write("merge.py get-vs-find: --bench or --logs\n")
        return 2
    out = gvf_report(find_text, hit_text, cmds, [tuple(m.split("=", 1)) for m in a.meta])
    if a.out:
        write(out, a.out)
    write(out, None)
    return 0


# ------------------------------------------------------------------------------------------ host-cost


def cmd_host_cost(a):
    """cldnn-host-cost's output: the device line, then one line per primitive."""
    meta = meta_dict(a.meta)
    lines = read_lines(a.log)
    dev = next((x[len("device: "):] for x in lines if x.startswith("device: ")), "?")
    out = [f"# Host cost per call on a warm program cache: {dev}", "",
           f"- date: {utc_now()}, commit {meta.get('commit', 'unknown')}, host {meta.get('host', '?')}",
           f"- command: `{a.cmd or ''}`",
           "- each primitive: warm-up calls, then R repetitions of N calls enqueued back to back, timed on the",
           "  host clock without waiting per call; the clFinish after the N calls is timed apart. us/call: the",
           "  median over the repetitions of (host time of the N enqueues) / N.", ""]
    out += code_block(x for x in lines if x.strip())
    write(out, a.out)
    return 0


# ----------------------------------------------------------------------------------------------- main


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = ap.add_subparsers(dest="what", required=True)

    def common(p, note=True):
        p.add_argument("--cmd", action="append", default=[])
        p.add_argument("--meta", action="append", default=[])
        if note:
            p.add_argument("--note", action="append", default=[])

    p = sub.add_parser("sweep")
    p.add_argument("--log", required=True)
    p.add_argument("--device", required=True)
    p.add_argument("--out", required=True)
    common(p, note=False)
    p.set_defaults(fn=cmd_sweep)

    p = sub.add_parser("gemm")
    p.add_argument("--cldnn", required=True)
    p.add_argument("--baseline", action="append", default=[])
    p.add_argument("--out", required=True)
    common(p)
    p.set_defaults(fn=cmd_gemm)

    p = sub.add_parser("conv")
    p.add_argument("logs", nargs="+")
    p.add_argument("--lib", default="cldnn")
    p.add_argument("--base", default="cudnn")
    p.add_argument("--out", required=True)
    common(p)
    p.set_defaults(fn=cmd_conv)

    p = sub.add_parser("ops-commands")
    p.add_argument("cases")
    p.set_defaults(fn=cmd_ops_commands)

    p = sub.add_parser("ops")
    p.add_argument("cases")
    p.add_argument("cldnn_log")
    p.add_argument("cudnn_log")
    p.add_argument("--title", default="Bandwidth-bound families")
    p.add_argument("--command", default="")
    p.add_argument("--versions", action="store_true", help="append the logs' `# ` lines")
    p.set_defaults(fn=cmd_ops)

    p = sub.add_parser("ops-v11-commands")
    p.add_argument("cases")
    p.add_argument("--verify", type=int, default=1, help="cldnn-bench -V")
    p.add_argument("--iters", type=int, default=50, help="cldnn-bench -i")
    p.set_defaults(fn=cmd_ops_v11_commands)

    p = sub.add_parser("ops-v11")
    for k in ("cases", "cldnn_log", "cudnn_log", "torch_log"):
        p.add_argument(k)
    p.add_argument("--title", default="v1.1 primitives: cldnn vs cuDNN and PyTorch")
    p.add_argument("--command", default="")
    p.add_argument("--all-cases", action="store_true", help="rows also for the cases cldnn-bench did not run")
    p.add_argument("--out")
    common(p)
    p.set_defaults(fn=cmd_ops_v11)

    p = sub.add_parser("convbiasact-plan")
    p.add_argument("fused_log")
    p.add_argument("shapes")
    p.add_argument("outdir")
    p.set_defaults(fn=cmd_convbiasact_plan)

    p = sub.add_parser("convbiasact")
    for k in ("--fused", "--plain", "--separate", "--cudnn"):
        p.add_argument(k)
    p.add_argument("--out", required=True)
    common(p)
    p.set_defaults(fn=cmd_convbiasact)

    p = sub.add_parser("first-iter")
    p.add_argument("--run", action="append", default=[], help="LABEL=LOG")
    p.add_argument("--meta", action="append", default=[])
    p.add_argument("--out")
    p.set_defaults(fn=cmd_first_iter)

    p = sub.add_parser("train")
    p.add_argument("--cold", required=True)
    p.add_argument("--warm", required=True)
    p.add_argument("--torch")
    p.add_argument("--meta", action="append", default=[])
    p.add_argument("--out", required=True)
    p.set_defaults(fn=cmd_train)

    p = sub.add_parser("get-vs-find")
    p.add_argument("--bench")
    p.add_argument("--device", default="cpu")
    p.add_argument("--shapes", default="perf/shapes/conv-nets.csv,perf/shapes/conv-depthwise.csv,"
                   "perf/shapes/conv-deepbench.csv")
    p.add_argument("--sysdb", default=None, help="CLDNN_SYSTEM_DB_PATH of run 2 (default: the library's own)")
    p.add_argument("--logs", nargs="+")
    p.add_argument("--meta", action="append", default=[], help="KEY=VALUE lines for the header")
    p.add_argument("--out")
    p.set_defaults(fn=cmd_get_vs_find)

    p = sub.add_parser("host-cost")
    p.add_argument("--log", required=True)
    p.add_argument("--cmd")
    p.add_argument("--meta", action="append", default=[])
    p.add_argument("--out", required=True)
    p.set_defaults(fn=cmd_host_cost)

    a = ap.parse_args(argv)
    return a.fn(a)


if __name__ == "__main__":
    sys.exit(main())
