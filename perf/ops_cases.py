#!/usr/bin/env python3
"""ops_cases.py: the case list of the bandwidth-bound families (perf/shapes/ops-nets.csv) on the cldnn
side, for perf/run-ops-h100.sh.

  ops_cases.py commands CASES            one line per case: NAME<TAB>cldnn-bench arguments
  ops_cases.py merge CASES CLDNN_LOG CUDNN_LOG [--title T] [--command C]
                                         the markdown results table on stdout

The case file's columns and params are documented in perf/baselines/cudnn_ops.c. cldnn-bench runs
each case with -V 0 (the suites verify; the timing run does not pay for a double reference on 256
MiB) and prints one result line; CLDNN_LOG holds, per case, a line `CASE NAME` and the bench's
output after it. CUDNN_LOG holds cudnn_ops's RESULT lines.

Bytes per call (what the op must move at least: each input read once, each output written once),
the same for both libraries:
  copy            2 x tensor
  pool  fwd       x + y                 bwd  x + y + dy + dx (max); dy + dx (average)
  bnorm train     x + y                 infer x + y          bwd  x + dy + dx
  lrn   fwd       x + y                 bwd  x + y + dy + dx
  softmax fwd     x + y                 bwd  y + dy + dx
(parameter vectors are left out). GB/s = bytes / time; "of copy" divides by the copy bandwidth
that cldnn-bench measured (clEnqueueCopyBuffer of the case's own bytes) in the same process.
"""
import math
import re
import sys


def read_cases(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            name, op, d, n, c, h, w, layout, params = line.split(",", 8)
            cases.append(dict(name=name, op=op, dir=d, n=int(n), c=int(c), h=int(h), w=int(w), layout=layout,
                              params=params))
    return cases


def pool_geom(k):
    m = re.match(r"([a-z]+):(\d+)x(\d+):s(\d+)x(\d+):p(\d+)x(\d+)$", k["params"])
    mode, r, s, u, v, ph, pw = m.group(1), *map(int, m.groups()[1:])
    return mode, r, s, u, v, ph, pw


def bench_args(k):
    dims = "%dx%dx%dx%d" % (k["n"], k["c"], k["h"], k["w"])
    common = "-D %s -L %s -V 0 -t 1 -i 20" % (dims, k["layout"])
    op, d = k["op"], k["dir"]
    if op == "copy":
        return "tensor -o transform -D %s -V 0 -t 1 -i 20" % dims
    if op == "pool":
        mode, r, s, u, v, ph, pw = pool_geom(k)
        # The case file's mode (max, maxdet, avg, avgx) is what cldnn-bench -m, cudnn_ops and the
        # tables all say: passed through as it is.
        return "pool -m %s -y %d -x %d -u %d -v %d -p %d -q %d -F %d %s" % (
            mode, r, s, u, v, ph, pw, 1 if d == "fwd" else 2, common)
    if op == "bnorm":
        return "bnorm -m %d -F %d %s" % (1 if k["params"] == "spatial" else 0,
                                         {"train": 1, "bwd": 2, "infer": 3}[d], common)
    if op == "lrn":
        m = re.match(r"([a-z]+):n(\d+):a([^:]+):b([^:]+):k(.+)$", k["params"])
        return "lrn -m %d -N %s -a %s -b %s -K %s -F %d %s" % (
            0 if m.group(1) == "cross" else 1, m.group(2), m.group(3), m.group(4), m.group(5),
            1 if d == "fwd" else 2, common)
    if op == "softmax":
        algo, mode = k["params"].split(":")
        return "softmax -a %d -M %d -F %d %s" % ({"fast": 0, "accurate": 1, "log": 2}[algo],
                                                  0 if mode == "instance" else 1, 1 if d == "fwd" else 2, common)
    raise ValueError("unknown op " + op)


def case_bytes(k):
    x = k["n"] * k["c"] * k["h"] * k["w"] * 4
    y = x
    op, d = k["op"], k["dir"]
    if op == "copy":
        return 2 * x
    if op == "pool":
        mode, r, s, u, v, ph, pw = pool_geom(k)
        p = (k["h"] + 2 * ph - r) // u + 1
        q = (k["w"] + 2 * pw - s) // v + 1
        y = k["n"] * k["c"] * p * q * 4
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


def parse_cldnn(path):
    """NAME -> (us, copy GB/s, verify text) from the bench's plain result lines."""
    out, name = {}, None
    pat = re.compile(r"\s([0-9.]+|-) us\s+([0-9.]+|-) GB/s\s+copy ([0-9.]+|-) GB/s")
    with open(path) as f:
        for line in f:
            if line.startswith("CASE "):
                name = line.split()[1]
                continue
            m = pat.search(line)
            if name and m and name not in out:
                us = float(m.group(1)) if m.group(1) != "-" else None
                cp = float(m.group(3)) if m.group(3) != "-" else None
                out[name] = (us, cp)
    return out


def parse_cudnn(path):
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 6 and p[0] == "RESULT" and p[1] == "cudnn":
                key = (p[2], p[4])
                out[key] = float(p[5]) if p[5] != "FAIL" else None
    return out


def geomean(v):
    v = [x for x in v if x and x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else None


def fmt(x, spec):
    return spec % x if x is not None else "-"


def merge(cases_path, cldnn_log, cudnn_log, title, command):
    cases = read_cases(cases_path)
    cl = parse_cldnn(cldnn_log)
    cu = parse_cudnn(cudnn_log)
    print("# %s\n" % title)
    if command:
        print("Command: `%s`\n" % command)
    print("| case | op | dir | dims | layout | params | MB | cldnn us | cldnn GB/s | of copy | cuDNN us | "
          "cuDNN GB/s | cuDNN time / cldnn time |")
    print("|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    groups = {}
    for k in cases:
        key = k["name"] + ":" + k["dir"]
        b = case_bytes(k)
        us, cp = cl.get(key, (None, None))
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
        print("| %s | %s | %s | %dx%dx%dx%d | %s | %s | %.1f | %s | %s | %s | %s | %s | %s |" % (
            k["name"], k["op"], k["dir"], k["n"], k["c"], k["h"], k["w"], k["layout"], k["params"], b / 1e6,
            fmt(us, "%.1f"), fmt(gbs, "%.0f"), fmt(frac, "%.2f"), fmt(cus, "%.1f"), fmt(cgbs, "%.0f"),
            fmt(ratio, "%.2f")))
    print("\n## Per op and direction (geometric means over the rows above)\n")
    print("| op | dir | cldnn GB/s of copy | first 256 MiB row, of copy | cuDNN time / cldnn time |")
    print("|---|---|---:|---:|---:|")
    for (op, d), g in groups.items():
        print("| %s | %s | %s | %s | %s |" % (op, d, fmt(geomean(g["frac"]), "%.2f"), fmt(g["big"], "%.2f"),
                                                fmt(geomean(g["ratio"]), "%.2f")))


def main(argv):
    if len(argv) >= 3 and argv[1] == "commands":
        for k in read_cases(argv[2]):
            print("%s:%s\t%s" % (k["name"], k["dir"], bench_args(k)))
        return 0
    if len(argv) >= 5 and argv[1] == "merge":
        title, command = "Bandwidth-bound families", ""
        rest = argv[5:]
        while rest:
            if rest[0] == "--title" and len(rest) > 1:
                title, rest = rest[1], rest[2:]
            elif rest[0] == "--command" and len(rest) > 1:
                command, rest = rest[1], rest[2:]
            else:
                return 2
        merge(argv[2], argv[3], argv[4], title, command)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
