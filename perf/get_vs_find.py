#!/usr/bin/env python3
"""get_vs_find.py: how often Get_v7's choice is Find's fastest, the time lost when it is not, and
the find-db hit rate, over the held convolution shape lists.

    perf/get_vs_find.py --bench BUILD/perf/cldnn-bench [--device cpu] [--shapes F1,F2,...]
                        [--sysdb DIR] [--out FILE.md]
    perf/get_vs_find.py --logs FIND_LOG [HIT_LOG]   [--out FILE.md]

With --bench it runs, per shape file, two fresh processes of `cldnn-bench conv --shapes FILE -F 7
-V 0 -t 0` (every direction; nothing is timed but Find's own benchmark):
  1. `-a find` with an empty user find-db (CLDNN_DB_PATH a new temp folder) and no system tables
     (CLDNN_SYSTEM_DB_PATH=): its `# get` lines are the heuristic's answer (Get runs before Find
     records anything), its `# find` lines Find's timed answer;
  2. `-a heur` with another empty user find-db and the system tables (--sysdb, default: the
     library's own, CLDNN_SYSTEM_DB_PATH unset) and CLDNN_LOG_LEVEL=2: each Get that the find-db
     answered logs "answered from the find-db" (db.c, conv.c); its `# get` lines are Get's answer
     with the shipped tables.
With --logs it reads such outputs (stdout and stderr of each run in one file) instead.

Per (shape, direction), from Find's timings of run 1: the heuristic's choice is a hit when it is
Find's fastest; otherwise the time lost is t(Find's time of Get's algorithm) - t(fastest), in ms
and as a ratio (an algorithm Find could not time counts as a miss with no time). Run 2 gives the
find-db hit rate (Gets answered from the tables / Gets) and how often Get with the tables picks
Find's fastest. Prints a markdown report (to --out, else stdout).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

LINE = re.compile(r"^# (get|find) (\S+) (fwd|bwd-data|bwd-filter):(.*)$")


def parse(text):
    """{(shape, dir): {'get': [algo...], 'find': [(algo, ms or None)...]}} and the hit-log count."""
    out = {}
    for line in text.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        how, shape, d, rest = m.groups()
        entries = []
        for part in rest.split(";"):
            tok = part.split()
            if not tok:
                continue
            ms = float(tok[1]) if len(tok) > 2 and tok[2] == "ms" else None
            ok = not (len(tok) > 1 and tok[1].startswith("CLDNN_STATUS"))
            entries.append((tok[0], ms, ok))
        out.setdefault((shape, d), {})[how] = entries
    hits = text.count("answered from the find-db")
    return out, hits


def run(cmd, env):
    """stdout + stderr of cmd under env (the runs' failures are reported, not fatal)."""
    sys.stderr.write("+ " + " ".join(cmd) + "\n")
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write(f"  exit status {p.returncode}\n")
    return p.stdout + p.stderr


def measure(args):
    """Runs the two processes per shape file; returns (find text, hit text, commands)."""
    find_text, hit_text, cmds = "", "", []
    for f in args.shapes.split(","):
        base = [args.bench, "conv", "--shapes", f, "-F", "7", "-V", "0", "-t", "0"]
        with tempfile.TemporaryDirectory() as d1, tempfile.TemporaryDirectory() as d2:
            env = dict(os.environ, CLDNN_DEVICE=args.device, CLDNN_DB_PATH=d1, CLDNN_SYSTEM_DB_PATH="")
            env.pop("CLDNN_FIND_MODE", None)
            find_text += run(base + ["-a", "find"], env)
            cmds.append(f"CLDNN_DB_PATH=<empty> CLDNN_SYSTEM_DB_PATH= {' '.join(base)} -a find")
            env = dict(os.environ, CLDNN_DEVICE=args.device, CLDNN_DB_PATH=d2, CLDNN_LOG_LEVEL="2")
            env.pop("CLDNN_FIND_MODE", None)
            if args.sysdb is not None:
                env["CLDNN_SYSTEM_DB_PATH"] = args.sysdb
            else:
                env.pop("CLDNN_SYSTEM_DB_PATH", None)
            hit_text += run(base + ["-a", "heur"], env)
            sysdb = f"CLDNN_SYSTEM_DB_PATH={args.sysdb} " if args.sysdb is not None else ""
            cmds.append(f"CLDNN_DB_PATH=<empty> {sysdb}CLDNN_LOG_LEVEL=2 {' '.join(base)} -a heur")
    return find_text, hit_text, cmds


def report(find_text, hit_text, cmds, meta):
    probs, _ = parse(find_text)
    rows, n, same, lost_ms, lost_rel = [], 0, 0, 0.0, []
    for (shape, d), v in sorted(probs.items()):
        if "find" not in v or "get" not in v or not v["get"]:
            continue
        timed = [(a, ms) for a, ms, ok in v["find"] if ok and ms is not None]
        if not timed:
            continue
        n += 1
        best, tbest = timed[0]
        g = v["get"][0][0]
        tg = next((ms for a, ms in timed if a == g), None)
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
        geo = 1.0
        for r in lost_rel:
            geo *= r
        geo = geo ** (1.0 / len(lost_rel)) if lost_rel else 1.0
        out.append(f"Heuristic (no database) picks Find's fastest in **{same} of {n}** problems "
                   f"({100.0 * same / n:.0f} %); when it does not ({n - same}), Get's algorithm takes "
                   f"x{geo:.2f} Find's best (geometric mean of {len(lost_rel)} timed), "
                   f"{lost_ms:.3f} ms lost in all per pass over the list.")
    if hit_text:
        hp, hits = parse(hit_text)
        gets = sum(1 for v in hp.values() if "get" in v)
        agree = sum(1 for k, v in hp.items() if "get" in v and k in probs and "find" in probs[k] and v["get"]
                    and probs[k]["find"] and v["get"][0][0] == probs[k]["find"][0][0])
        if gets:
            out.append("")
            out.append(f"Find-db hit rate with the system tables and an empty user db: **{hits} of {gets}** Gets "
                       f"({100.0 * hits / gets:.0f} %) answered from the tables; Get then picks Find's fastest "
                       f"(of run 1) in {agree} of {gets}.")
    out += ["", "| shape | dir | Get (heuristic) | Find's fastest | ms | Get's algo in Find, ms | same | lost |",
            "|---|---|---|---|---|---|---|---|"]
    for shape, d, g, best, tbest, tg, s, lost in rows:
        tgs = f"{tg:.4g}" if tg is not None else "-"
        out.append(f"| {shape} | {d} | {g} | {best} | {tbest:.4g} | {tgs} | {s} | {lost} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--shapes", default="perf/shapes/conv-nets.csv,perf/shapes/conv-depthwise.csv,"
                    "perf/shapes/conv-deepbench.csv")
    ap.add_argument("--sysdb", default=None, help="CLDNN_SYSTEM_DB_PATH of run 2 (default: the library's own)")
    ap.add_argument("--logs", nargs="+")
    ap.add_argument("--meta", action="append", default=[], help="KEY=VALUE lines for the header")
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.logs:
        find_text = open(a.logs[0]).read()
        hit_text = open(a.logs[1]).read() if len(a.logs) > 1 else ""
        cmds = []
    elif a.bench:
        find_text, hit_text, cmds = measure(a)
    else:
        ap.error("--bench or --logs")
    meta = [tuple(m.split("=", 1)) for m in a.meta]
    text = report(find_text, hit_text, cmds, meta)
    if a.out:
        open(a.out, "w").write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
