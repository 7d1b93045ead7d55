#!/usr/bin/env python3
"""conv_merge.py: merges the convolution benchmark logs of one device into one markdown results file.

Used by perf/run-conv-h100.sh; standard library only (python3 is on both machines).

  conv_merge.py [--lib cldnn] [--base cudnn] [--cmd CMD ...] [--note TEXT ...] [--meta KEY=VALUE ...]
                --out FILE LOG [LOG ...]

Inputs: any number of logs, each the stdout of `cldnn-bench conv --shapes ...` or of
perf/baselines/cudnn_conv (or both, concatenated). Lines used:
  RESULT <lib> <dir> <name> <n>x<c>x<h>x<w> k<k> <r>x<s> p<ph>x<pw> u<sh>x<sw> d<dh>x<dw> g<g> <algo> <ms> <tflops>
      (perf/baselines/conv_shapes.h); ms and tflops are FAIL for a failed measurement
  # set: NAME          the shape set of the RESULT lines after it in that log (default: "shapes")
  # <key>: <value>     a header line (device, driver, platform, cldnn, cudnn, timing, command, seed...),
                       listed per lib in the output's header
  # <name> <dir> <algo>: <text>   cldnn-bench's note on one measurement, shown with its failure
Rows are joined by (set, dir, name) between lib (the library measured, default cldnn) and base
(the baseline, default cudnn); a later line for the same (set, lib, dir, name) replaces an
earlier one. ratio = base ms / lib ms, above 1 when the library is faster.

Output: the title (the data type, FP32 or FP16 as cldnn-bench's `-d` in the lib's `# command:` line says,
and the math type when it is `--math tensor`), the header (date, devices, versions, the commands;
the baseline's `# setup:` line says its data and math type), a summary per shape set and over all
sets (the geometric mean of the ratio per direction over (a) all layers, (b) 1x1 filters, (c)
every filter that is not 3x3, 1x1 included, (d) depthwise layers: groups > 1 and c / groups == 1;
each with its count of layers), the failures (FAIL or missing on either side, excluded from the
means), then one table per shape set: layer, shape, direction, lib algo, lib ms, lib TFLOP/s, base
algo, base ms, ratio.
"""
import argparse
import datetime
import math
import re
import sys

DIRS = ["fwd", "bwd-data", "bwd-filter"]
DISPLAY = {"cldnn": "cldnn", "cudnn": "cuDNN"}
CLASSES = [
    ("all layers", lambda s: True),
    ("1x1", lambda s: s["r"] == 1 and s["s"] == 1),
    ("not 3x3 (1x1 included)", lambda s: not (s["r"] == 3 and s["s"] == 3)),
    ("depthwise", lambda s: s["g"] > 1 and s["c"] // s["g"] == 1),
]
SHAPE_RE = re.compile(r"(\d+)x(\d+)x(\d+)x(\d+) k(\d+) (\d+)x(\d+) p(\d+)x(\d+) u(\d+)x(\d+) d(\d+)x(\d+) g(\d+)$")


def disp(lib):
    """Display name of a library."""
    return DISPLAY.get(lib, lib)


def num(s):
    """The positive finite float of s, or None (FAIL, '-', garbage)."""
    try:
        v = float(s)
        return v if v > 0 and math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def parse_logs(paths):
    """Returns (results {(set, lib, dir, name): row}, headers {lib: {key: [values]}}, notes {(name, dir): [text]},
    order [(set, name)] of first appearance, warnings [text])."""
    results, headers, notes, order, seen, warns = {}, {}, {}, [], set(), []
    for path in paths:
        cur = "shapes"
        pending = []  # header lines seen before the first RESULT line: their lib is not known yet
        libs_here = set()
        with open(path, errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                line = line.rstrip("\n")
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
                sm = SHAPE_RE.match(" ".join(t[4:11])) if len(t) == 14 else None
                if not sm or t[2] not in DIRS:
                    warns.append(f"{path}:{lineno}: not a RESULT line of 14 fields: {line[:120]}")
                    continue
                d = [int(x) for x in sm.groups()]
                lib, dr, name = t[1], t[2], t[3]
                libs_here.add(lib)
                if pending:
                    for k, v in pending:
                        lst = headers.setdefault(lib, {}).setdefault(k, [])
                        if v not in lst:
                            lst.append(v)
                    pending = []
                key = (cur, lib, dr, name)
                if key in results:
                    warns.append(f"{path}:{lineno}: {lib} {dr} {cur}/{name} measured again; the later line is used")
                results[key] = {
                    "shape": " ".join(t[4:11]), "algo": t[11], "ms": num(t[12]), "tf": num(t[13]),
                    "n": d[0], "c": d[1], "h": d[2], "w": d[3], "k": d[4], "r": d[5], "s": d[6], "g": d[13],
                }
                if (cur, name) not in seen:
                    seen.add((cur, name))
                    order.append((cur, name))
        # header lines after the last RESULT line (or in a log without any) go to the log's libs
        for lib in libs_here or {"?"}:
            for k, v in pending:
                lst = headers.setdefault(lib, {}).setdefault(k, [])
                if v not in lst:
                    lst.append(v)
    return results, headers, notes, order, warns


def data_label(headers, lib):
    """The title's data and math type, from lib's `# command:` lines (cldnn-bench's -d and --math):
    'FP32', 'FP16', and ' under TENSOR_OP_MATH' when --math tensor."""
    cmd = " ".join(headers.get(lib, {}).get("command", []))
    half = re.search(r"(^|\s)-d\s+half(\s|$)", cmd) is not None
    tensor = re.search(r"(^|\s)--math\s+tensor(\s|$)", cmd) is not None
    return ("FP16" if half else "FP32") + (" under TENSOR_OP_MATH" if tensor else "")


def geomean(vals):
    """Geometric mean of positive values, or None."""
    vals = [v for v in vals if v]
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else None


def fmt(v, nd=3):
    """A number for the tables: nd significant digits (at least the integer part), '-' for None."""
    if v is None:
        return "-"
    if v >= 10 ** nd:
        return f"{v:.0f}"
    return f"{v:.{nd}g}" if v < 1 else f"{v:.{max(nd - 1 - int(math.floor(math.log10(v))), 0)}f}"


def fmt_ratio(v):
    """A ratio with 3 decimals, '-' for None."""
    return "-" if v is None else f"{v:.3f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--lib", default="cldnn")
    ap.add_argument("--base", default="cudnn")
    ap.add_argument("--cmd", action="append", default=[])
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    meta = dict(x.split("=", 1) for x in a.meta)
    results, headers, notes, order, warns = parse_logs(a.logs)
    L, B = a.lib, a.base

    # one entry per (set, name, dir) that either side measured
    rows = []
    for st, name in order:
        for d in DIRS:
            x, y = results.get((st, L, d, name)), results.get((st, B, d, name))
            if not x and not y:
                continue
            s = x or y
            e = {"set": st, "name": name, "dir": d, "shape": s["shape"], "dims": s, "lib": x, "base": y,
                 "ratio": (y["ms"] / x["ms"]) if x and y and x["ms"] and y["ms"] else None}
            if x and y and x["shape"] != y["shape"]:
                warns.append(f"{st}/{name} {d}: {L} ran {x['shape']}, {B} ran {y['shape']}")
            rows.append(e)
    sets = []
    for e in rows:
        if e["set"] not in sets:
            sets.append(e["set"])

    out = []
    w = out.append
    dev = (headers.get(L, {}).get("device") or headers.get(B, {}).get("device") or ["?"])[0]
    w(f"# cldnn convolution ({data_label(headers, L)}) vs {disp(B)}: {dev.split(';')[0]}")
    w("")
    w(f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}")
    for lib in [L, B] + sorted(k for k in headers if k not in (L, B)):
        for k, vals in headers.get(lib, {}).items():
            if k in ("command", "seed"):
                continue
            for v in vals:
                w(f"- {disp(lib)} {'version' if k == lib else k}: {v}")
    for lib in (L, B):
        if not any(k[1] == lib for k in results):
            w(f"- {disp(lib)}: no RESULT lines (not run, or it failed at start; see the run's log)")
    labels = {"commit": "cldnn commit", "host": "host", "wall": "run wall time", "status": "run status",
              "ms": "timed work per measurement (--ms, ms over the 5 repetitions)"}
    for k, label in labels.items():
        if k in meta:
            w(f"- {label}: {meta[k]}")
    seeds = headers.get(L, {}).get("seed")
    if seeds:
        w(f"- {disp(L)} seeds: {'; '.join(seeds)}")
    for n in a.note:
        w(f"- note: {n}")
    for n in warns:
        w(f"- warning: {n}")
    w("")
    cmds = a.cmd or sum((headers.get(lib, {}).get("command", []) for lib in (L, B)), [])
    if cmds:
        w("## Commands")
        w("")
        w("```")
        for c in cmds:
            w(c)
        w("```")
        w("")
    w("## Summary")
    w("")
    w(f"ratio = {disp(B)} ms / {disp(L)} ms per layer and direction (above 1: {disp(L)} is faster); each cell is the")
    w("geometric mean over the layers of the class that both measured, with their count. Depthwise: groups > 1")
    w("and c / groups = 1. TFLOP/s count 2 N K P Q (C / groups) R S for every direction.")
    w("")

    def summary(es, title):
        w(f"### {title}")
        w("")
        w("| layers | " + " | ".join(DIRS) + " |")
        w("|---|" + "---:|" * len(DIRS))
        for cname, pred in CLASSES:
            cells = []
            for d in DIRS:
                rs = [e["ratio"] for e in es if e["dir"] == d and pred(e["dims"]) and e["ratio"]]
                cells.append(f"{fmt_ratio(geomean(rs))} ({len(rs)})" if rs else "-")
            w(f"| {cname} | " + " | ".join(cells) + " |")
        bad = [e for e in es if not e["ratio"]]
        nl = sum(1 for e in bad if not (e["lib"] and e["lib"]["ms"]))
        nb = sum(1 for e in bad if not (e["base"] and e["base"]["ms"]))
        w("")
        w(f"{len(es)} measurements (layer x direction), {len(es) - len(bad)} in the means; excluded: {len(bad)} "
          f"({disp(L)} FAIL or missing: {nl}, {disp(B)} FAIL or missing: {nb}).")
        w("")

    if len(sets) > 1:
        summary(rows, "all sets")
    for st in sets:
        summary([e for e in rows if e["set"] == st], st)

    # a side without any result is reported once in the header, not as one missing row per measurement
    ran = {lib: any(k[1] == lib for k in results) for lib in (L, B)}
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
                        parts.append(f"{disp(lib)} missing")
                elif not r["ms"]:
                    parts.append(f"{disp(lib)} FAIL ({r['algo']})")
            nt = notes.get((e["name"], e["dir"]))
            w(f"- {e['set']} {e['name']} {e['dir']} ({e['shape']}): " + ", ".join(parts) +
              (f"; {disp(L)} note: {' | '.join(nt)}" if nt else ""))
        w("")

    for st in sets:
        w(f"## {st}")
        w("")
        w(f"| layer | shape | direction | {disp(L)} algo | {disp(L)} ms | {disp(L)} TFLOP/s | {disp(B)} algo | "
          f"{disp(B)} ms | ratio |")
        w("|---|---|---|---|---:|---:|---|---:|---:|")
        for e in rows:
            if e["set"] != st:
                continue
            x, y = e["lib"], e["base"]
            xa = x["algo"] if x else "-"
            xm = (fmt(x["ms"], 4) if x["ms"] else "FAIL") if x else "-"
            xt = fmt(x["tf"]) if x and x["ms"] else "-"
            ya = y["algo"] if y else "-"
            ym = (fmt(y["ms"], 4) if y["ms"] else "FAIL") if y else "-"
            cells = [e["name"], e["shape"], e["dir"], xa, xm, xt, ya, ym, fmt_ratio(e["ratio"])]
            w("| " + " | ".join(cells) + " |")
        w("")
    with open(a.out, "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
