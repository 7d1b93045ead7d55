#!/usr/bin/env python3
"""cpu_compare.py: cldnn on CPU OpenCL runtimes against the CPU libraries on the same cores, one shape
at a time, each runtime's measurement right beside the baseline's, on a machine that others share.

  cpu_compare.py gemm  --build DIR --shapes F[,F...] --out FILE.md [--ms MS] [--runtime NAME=ENVFILE ...]
  cpu_compare.py conv  --build DIR --shapes F[,F...] --batch 1,8 --out FILE.md [-F 1,2,4] [--ms MS]
                       [--recheck-below R --rounds N] [...]
  cpu_compare.py local --build DIR --gemm F --conv F --batch N --out FILE.md --runtime NAME=ENVFILE

gemm: per row of the shape lists (m,n,k,a_t,b_t[,batch]): cldnn-bench gemm on each runtime, with
openblas_gemm (perf/baselines, every core) between them, so each ratio compares neighbours.
conv: per layer (conv_shapes.h's CSV, n replaced by each --batch) and direction: cldnn-bench conv
-a find (Find's fastest algorithm, then timed with its workspace) on each runtime, onednn_conv
(NCHW, --threads = the cores) between them. With --recheck-below R, a ratio under R is measured
again in N rounds of the runtime and oneDNN one after the other, and the median of the rounds'
ratios is the row's (the machine's speed moves over seconds: cpu-conv.md, "Timing noise").
local: the GPU-shaped solvers (gemm_tiled forced through CLDNN_SOLVER, convolution's implicit GEMM
through -a 0 / 1 / 1 and, for 3x3 stride-1 layers, fused Winograd through -a 6 / 4) on one runtime
at its own local memory size and with
CL_CONFIG_CPU_FORCE_LOCAL_MEM_SIZE=32KB (Intel's runtime: OpenCL 1.2's minimum), alternating.

Runtimes: "pocl" is the environment as it is (CLDNN_DEVICE=cpu: the first CPU device); each
--runtime NAME=ENVFILE adds one whose commands run after `. ENVFILE` (a file that leaves one
platform visible, as /work/cache/intel-env.sh does for Intel's runtime).

The machine is shared: before each command the script waits (up to --wait s) until the other
processes use under 10% of one core over 2 s; during the command it measures the CPU time that
other processes took (/proc/stat busy time minus the command's own user + sys time), and runs it
again (up to --tries times) when that exceeds --noise of one core on average, keeping the quietest
run. Each row shows the 1-minute load average before the shape and the other processes' CPU
during each kept run (in cores).
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HZ = os.sysconf("SC_CLK_TCK")


def busy_total():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
    return busy, busy + v[3] + v[4]


def others_now(seconds=2.0):
    """Cores the machine's processes keep busy over `seconds` (this script sleeps meanwhile)."""
    b0, _ = busy_total()
    time.sleep(seconds)
    b1, _ = busy_total()
    return (b1 - b0) / HZ / seconds


def wait_idle(limit):
    """Waits until under 0.1 cores are busy, at most `limit` seconds; returns the seconds waited."""
    t0 = time.time()
    while time.time() - t0 < limit:
        if others_now() < 0.1:
            break
    return time.time() - t0


def load1():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_once(cmd, env_file):
    """(stdout, seconds, cores other processes used on average during it)."""
    shell = (f". {env_file} && " if env_file else "") + cmd
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    b0, _ = busy_total()
    t0 = time.time()
    p = subprocess.run(["bash", "-c", shell], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    t1 = time.time()
    b1, _ = busy_total()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    other = max(0.0, ((b1 - b0) / HZ - own) / max(t1 - t0, 1e-3))
    return p.stdout, t1 - t0, other


def measure(cmd, env_file, parse, a, log):
    """The quietest of up to a.tries runs of cmd (parse(stdout) -> dict or None); adds 'other'."""
    best = None
    for t in range(a.tries):
        wait_idle(a.wait)
        out, sec, other = run_once(cmd, env_file)
        log.write(f"$ {cmd}\n# env: {env_file or '-'}; {sec:.1f} s; other processes {other:.2f} cores\n{out}\n")
        log.flush()
        r = parse(out)
        if r is None:
            r = {"fail": out.strip().splitlines()[-1][:160] if out.strip() else "no output"}
        r["other"] = other
        if best is None or ("fail" in best and "fail" not in r) or ("fail" not in r and other < best["other"]):
            best = r
        if other <= a.noise and "fail" not in r:
            break
    return best


def runtimes(a):
    rts = [("pocl", None)]
    for spec in a.runtime or []:
        name, _, path = spec.partition("=")
        rts.append((name, path))
    return rts


def geo(vals):
    vals = [v for v in vals if v and v > 0]
    if not vals:
        return None
    p = 1.0
    for v in vals:
        p *= v
    return p ** (1.0 / len(vals))


def fmt(v, nd=3):
    if v is None:
        return "-"
    return f"{v:.{nd}g}" if abs(v) < 1000 else f"{v:.0f}"


def summary_line(label, ratios):
    r = [x for x in ratios if x is not None]
    if not r:
        return f"- {label}: no ratio"
    return f"- {label}: geomean {geo(r):.3f}, min {min(r):.3f}, max {max(r):.3f} over {len(r)}"


def results_header(first, names, per_runtime):
    """The Results section's opening and its table header: the columns `first`, then per runtime
    name each of per_runtime ("x/" ends with the name, anything else follows it)."""
    hdr = list(first)
    for nm in names:
        hdr += [f"{c}{nm}" if c.endswith("/") else f"{nm}{'' if c.startswith('/') else ' '}{c}" for c in per_runtime]
    return ["", "## Results", "", "other: cores the machine's other processes used during the kept run; load: "
            "1-minute load average before the row.", "", "| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr)]


# ---------------------------------------------------------------------------------------------- gemm

GEMM_RE = re.compile(r"^gemm \S+ .*?\s([\d.]+) ms\s+([\d.e+-]+) TFLOP/s.*verify (\S+)(.*)$")


def parse_cldnn_gemm(out):
    for line in out.splitlines():
        m = GEMM_RE.match(line)
        if m:
            v = m.group(3) + (" " + m.group(4).strip().split(")")[0] + ")" if m.group(4).strip().startswith("(") else "")
            return {"ms": float(m.group(1)), "tf": float(m.group(2)), "verify": v}
    return None


def parse_openblas(out):
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 9 and p[0] == "openblas":
            return {"ms": float(p[7]), "tf": float(p[8])}
    return None


def read_gemm_shapes(paths):
    rows = []
    for path in paths.split(","):
        for line in open(path):
            line = line.strip()
            if not line or line.startswith("#") or line.startswith("m,"):
                continue
            f = line.split(",")
            rows.append((os.path.basename(path), int(f[0]), int(f[1]), int(f[2]), f[3], f[4],
                         int(f[5]) if len(f) > 5 and f[5] else 1))
    return rows


def cmd_gemm(a, log):
    bench, blas = f"{a.build}/perf/cldnn-bench", f"{a.build}/perf/openblas_gemm"
    rts = runtimes(a)
    out = []
    tmp = tempfile.mkdtemp(prefix="cpu_compare_")
    commands = set()
    for (sset, m, n, k, ta, tb, batch) in read_gemm_shapes(a.shapes):
        csv = f"{tmp}/one.csv"
        with open(csv, "w") as f:
            f.write(f"m,n,k,a_t,b_t,batch\n{m},{n},{k},{ta},{tb},{batch}\n")
        row = {"set": sset, "shape": (m, n, k, ta + tb, batch), "load": load1()}
        for i, (name, env) in enumerate(rts):
            cmd = (f"CLDNN_DEVICE=cpu {bench} gemm -m {m} -n {n} -k {k} --transA {int(ta == 'T')} "
                   f"--transB {int(tb == 'T')} --batch {batch} --ms {a.ms} -V 1")
            commands.add((name, re.sub(r"-m \d+ -n \d+ -k \d+ --transA \d --transB \d --batch \d+", "SHAPE", cmd)))
            row[name] = measure(cmd, env, parse_cldnn_gemm, a, log)
            if i == 0:
                bcmd = f"{blas} {csv} --ms {a.ms}"
                commands.add(("openblas", f"{blas} ONE_ROW.csv --ms {a.ms}"))
                row["openblas"] = measure(bcmd, None, parse_openblas, a, log)
        print(sset, m, n, k, ta + tb, {kk: (v.get("tf"), round(v["other"], 2)) for kk, v in row.items()
                                        if isinstance(v, dict)}, flush=True)
        out.append(row)
    names = [n for n, _ in rts]
    lines = [f"# cldnn SGEMM on CPU OpenCL runtimes vs OpenBLAS", ""]
    lines += [f"- {x}" for x in a.meta or []]
    lines += ["", "## Commands", "", "```"]
    lines += [f"{c}    # {n}" for n, c in sorted(commands)]
    lines += ["```", "", "SHAPE is `-m M -n N -k K --transA 0|1 --transB 0|1 --batch B` of each row; ONE_ROW.csv holds that row.",
              "Each runtime's command runs after its environment file (the Runtimes list).", "",
              "## Summary (cldnn / OpenBLAS, TFLOP/s ratio)", ""]
    for nm in names:
        for sset in sorted({r["set"] for r in out}):
            rs = [r[nm]["tf"] / r["openblas"]["tf"] for r in out if r["set"] == sset and "tf" in r.get(nm, {})
                  and "tf" in r["openblas"]]
            lines.append(summary_line(f"{nm}, {sset}", rs))
        rs = [r[nm]["tf"] / r["openblas"]["tf"] for r in out if "tf" in r.get(nm, {}) and "tf" in r["openblas"]]
        lines.append(summary_line(f"{nm}, all", rs))
    lines += results_header(["set", "m", "n", "k", "op", "batch", "load", "OpenBLAS TFLOP/s (other)"], names,
                            ["TFLOP/s (other)", "/OpenBLAS", "verify"])
    for r in out:
        m, n, k, op, b = r["shape"]
        ob = r["openblas"]
        cells = [r["set"], str(m), str(n), str(k), op, str(b), f"{r['load']:.2f}",
                 f"{fmt(ob.get('tf'))} ({ob['other']:.2f})" if "tf" in ob else f"FAIL {ob.get('fail', '')}"]
        for nm in names:
            x = r[nm]
            if "tf" in x:
                cells += [f"{fmt(x['tf'])} ({x['other']:.2f})",
                          f"{x['tf'] / ob['tf']:.3f}" if "tf" in ob else "-", x["verify"]]
            else:
                cells += ["FAIL", "-", x.get("fail", "")]
        lines.append("| " + " | ".join(cells) + " |")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------------- conv

RESULT_RE = re.compile(r"^RESULT (\S+) (\S+) (\S+) (\S+ \S+ \S+ \S+ \S+ \S+ \S+) (\S+) (\S+) (\S+)\s*$")
DIRS = {1: "fwd", 2: "bwd-data", 4: "bwd-filter"}


def parse_result(out):
    for line in out.splitlines():
        m = RESULT_RE.match(line.strip())
        if m:
            if m.group(6) == "FAIL":
                return {"fail": line.strip()[:160]}
            return {"algo": m.group(5), "ms": float(m.group(6)), "tf": float(m.group(7)), "shape": m.group(4)}
    return None


def read_conv_shapes(paths):
    rows = []
    for path in paths.split(","):
        head = None
        for line in open(path):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("name,"):
                head = line
                continue
            rows.append((os.path.basename(path), head, line))
    return rows


def ratio(row, name):
    """oneDNN ms / the runtime's ms: the median of the re-check rounds' ratios where there were any."""
    rounds = row.get("rounds", {}).get(name)
    if rounds:
        return sorted(rounds)[len(rounds) // 2]
    return row["onednn"]["ms"] / row[name]["ms"]


def recheck(row, rts, dcmd, cmd_of, a, log):
    """The machine's speed moves by 1.5-2x over seconds, from outside it (cpu-conv.md, "Timing
    noise"): a ratio under --recheck-below is measured again in --rounds rounds of the runtime and
    oneDNN one right after the other, and the median of the rounds' ratios (the first included)
    is the row's."""
    for name, env in rts:
        x, od = row.get(name, {}), row.get("onednn", {})
        if a.recheck_below <= 0 or "ms" not in x or "ms" not in od or od["ms"] / x["ms"] >= a.recheck_below:
            continue
        vals = [od["ms"] / x["ms"]]
        for _ in range(a.rounds):
            y = measure(cmd_of(name), env, parse_result, a, log)
            z = measure(dcmd, None, parse_result, a, log)
            if "ms" in y and "ms" in z:
                vals.append(z["ms"] / y["ms"])
        row.setdefault("rounds", {})[name] = vals


def cmd_conv(a, log):
    bench, dnn = f"{a.build}/perf/cldnn-bench", f"{a.build}/perf/onednn_conv"
    rts = runtimes(a)
    tmp = tempfile.mkdtemp(prefix="cpu_compare_")
    dirs = [int(d) for d in a.dirs.split(",")]
    out, commands = [], set()
    for batch in [int(b) for b in a.batch.split(",")]:
        for (sset, head, line) in read_conv_shapes(a.shapes):
            f = line.split(",")
            f[1] = str(batch)
            csv = f"{tmp}/one.csv"
            with open(csv, "w") as fh:
                fh.write(head + "\n" + ",".join(f) + "\n")
            for d in dirs:
                row = {"set": sset, "name": f[0], "batch": batch, "dir": DIRS[d], "load": load1()}
                dcmd = f"{dnn} --shapes {csv} --threads {a.threads} -F {d} --ms {a.ms}"
                for i, (name, env) in enumerate(rts):
                    cmd = f"CLDNN_DEVICE=cpu {bench} conv --shapes {csv} -F {d} -a find -V 0 --ms {a.ms}"
                    commands.add((name, cmd.replace(csv, "ONE_ROW.csv")))
                    row[name] = measure(cmd, env, parse_result, a, log)
                    if i == 0:
                        commands.add(("onednn", dcmd.replace(csv, "ONE_ROW.csv")))
                        row["onednn"] = measure(dcmd, None, parse_result, a, log)
                recheck(row, rts, dcmd, lambda nm: f"CLDNN_DEVICE=cpu {bench} conv --shapes {csv} -F {d} -a find "
                        f"-V 0 --ms {a.ms}", a, log)
                shape = next((row[k]["shape"] for k in row if isinstance(row[k], dict) and "shape" in row[k]), "?")
                row["shape"] = shape
                print(batch, f[0], DIRS[d], {kk: (v.get("ms"), v.get("algo"), round(v["other"], 2))
                                             for kk, v in row.items() if isinstance(v, dict) and "other" in v},
                      row.get("rounds", ""), flush=True)
                out.append(row)
    names = [n for n, _ in rts]
    lines = ["# cldnn convolution on CPU OpenCL runtimes vs oneDNN", ""]
    lines += [f"- {x}" for x in a.meta or []]
    lines += ["", "## Commands", "", "```"]
    lines += [f"{c}    # {n}" for n, c in sorted(commands)]
    lines += ["```", "", "ONE_ROW.csv holds one layer of the shape list with n set to the batch. Each runtime's "
              "command runs after its environment file.", "",
              "## Summary (oneDNN ms / cldnn ms: above 1 cldnn is faster)", ""]
    for nm in names:
        for batch in sorted({r["batch"] for r in out}):
            for dr in [DIRS[d] for d in dirs]:
                rs = [ratio(r, nm) for r in out if r["batch"] == batch and r["dir"] == dr
                      and "ms" in r.get(nm, {}) and "ms" in r["onednn"]]
                lines.append(summary_line(f"{nm}, batch {batch}, {dr}", rs))
    lines += results_header(["layer", "shape", "dir", "load", "oneDNN algo", "oneDNN ms (other)"], names,
                            ["algo", "ms (other)", "oneDNN/"])
    for r in out:
        od = r["onednn"]
        cells = [r["name"], r["shape"], r["dir"], f"{r['load']:.2f}", od.get("algo", "FAIL"),
                 f"{fmt(od['ms'], 4)} ({od['other']:.2f})" if "ms" in od else "-"]
        for nm in names:
            x = r[nm]
            if "ms" in x:
                rounds = r.get("rounds", {}).get(nm)
                cells += [x["algo"], f"{fmt(x['ms'], 4)} ({x['other']:.2f})",
                          (f"{ratio(r, nm):.3f}" + (f" (median of {len(rounds)}: "
                                                    + ", ".join(f"{v:.3f}" for v in rounds) + ")" if rounds else ""))
                          if "ms" in od else "-"]
            else:
                cells += ["FAIL", "-", "-"]
        lines.append("| " + " | ".join(cells) + " |")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------------------------- local

def cmd_local(a, log):
    bench = f"{a.build}/perf/cldnn-bench"
    name, _, env = (a.runtime or ["intel="])[0].partition("=")
    tmp = tempfile.mkdtemp(prefix="cpu_compare_")
    cases = []
    for (sset, m, n, k, ta, tb, batch) in read_gemm_shapes(a.gemm):
        base = (f"CLDNN_DEVICE=cpu CLDNN_SOLVER=gemm_tiled {bench} gemm -m {m} -n {n} -k {k} "
                f"--transA {int(ta == 'T')} --transB {int(tb == 'T')} --batch {batch} --ms {a.ms} -V 1")
        cases.append((f"gemm {m}x{n}x{k} {ta}{tb}", base, parse_cldnn_gemm))
    for (sset, head, line) in read_conv_shapes(a.conv):
        f = line.split(",")
        f[1] = a.batch
        csv = f"{tmp}/{f[0].replace('/', '_')}.csv"
        with open(csv, "w") as fh:
            fh.write(head + "\n" + ",".join(f) + "\n")
        wino = f[6] == "3" and f[7] == "3" and f[10] == "1" and f[11] == "1" and f[14] == "1"
        algos = [(1, 0, "implicit GEMM"), (2, 1, "implicit GEMM"), (4, 1, "implicit GEMM")]
        algos += [(1, 6, "fused Winograd"), (2, 4, "fused Winograd")] if wino else []
        for d, algo, what in algos:
            cases.append((f"conv {f[0]} n{a.batch} {DIRS[d]} {what}",
                          f"CLDNN_DEVICE=cpu {bench} conv --shapes {csv} -F {d} -a {algo} -V 1 --ms {a.ms}", parse_result))
    rows = []
    for (label, cmd, parse) in cases:
        r = {"label": label, "load": load1()}
        r["own"] = measure(cmd, env, parse, a, log)
        r["32k"] = measure("CL_CONFIG_CPU_FORCE_LOCAL_MEM_SIZE=32KB " + cmd, env, parse, a, log)
        print(label, r["own"].get("ms"), r["32k"].get("ms"), flush=True)
        rows.append(r)
    lines = [f"# GPU-shaped solvers on {name}: its own local memory size against 32 KiB", ""]
    lines += [f"- {x}" for x in a.meta or []]
    lines += ["", "## Commands", "", "```"]
    lines += [c for (_, c, _) in cases[:1]] + ["... (every row: the same with its shape)",
              "CL_CONFIG_CPU_FORCE_LOCAL_MEM_SIZE=32KB <the same command>", "```", ""]
    ratios = [r["own"]["ms"] / r["32k"]["ms"] for r in rows if "ms" in r["own"] and "ms" in r["32k"]]
    lines += ["## Summary", "", summary_line("own / 32 KiB time ratio (below 1: 32 KiB is slower)", ratios), "",
              "| case | load | own ms (other) | 32 KiB ms (other) | own / 32 KiB | verify (own, 32 KiB) |",
              "|---|---|---|---|---|---|"]
    for r in rows:
        o, s = r["own"], r["32k"]
        lines.append(f"| {r['label']} | {r['load']:.2f} | {fmt(o.get('ms'), 4)} ({o['other']:.2f}) | "
                     f"{fmt(s.get('ms'), 4)} ({s['other']:.2f}) | "
                     f"{o['ms'] / s['ms']:.3f} | {o.get('verify', '-')}, {s.get('verify', '-')} |"
                     if "ms" in o and "ms" in s else f"| {r['label']} | {r['load']:.2f} | FAIL | FAIL | - | - |")
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=["gemm", "conv", "local"])
    p.add_argument("--build", required=True)
    p.add_argument("--shapes")
    p.add_argument("--gemm")
    p.add_argument("--conv")
    p.add_argument("--batch", default="1")
    p.add_argument("-F", dest="dirs", default="1,2,4")
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--ms", type=int, default=200)
    p.add_argument("--runtime", action="append")
    p.add_argument("--tries", type=int, default=3)
    p.add_argument("--wait", type=float, default=60.0)
    p.add_argument("--noise", type=float, default=0.15)
    p.add_argument("--recheck-below", type=float, default=0.0,
                   help="conv: ratios under this get --rounds alternating rounds more, the median kept")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--meta", action="append")
    p.add_argument("--log", default="/dev/null")
    p.add_argument("--out", required=True)
    a = p.parse_args()
    with open(a.log, "a") as log:
        {"gemm": cmd_gemm, "conv": cmd_conv, "local": cmd_local}[a.mode](a, log)


if __name__ == "__main__":
    sys.exit(main())
