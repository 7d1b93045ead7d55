# coverage.awk: the coverage check of tests/oclgrind/run.sh, over the cases' logs (the arguments).
#
# Variables: kernels ("file name" lines: every kernel entry point), solvers (one name a line: every
# solver table row), expect (tests/oclgrind/coverage.txt), report (the file to write).
# From the logs: "Instructions executed for kernel 'K'" (Oclgrind ran kernel K), "# oclgrind case:
# forced solver S" (run.sh: the case forced S, it ran and the case passed) and "program cache:
# built|disk hit FILE [OPTIONS]" (a program of FILE with OPTIONS was used).
# coverage.txt lines: "kernel NAME reason...", "solver NAME reason..." (never run, and why),
# "dtype KERNEL TYPE reason..." (never run with that data type, and why), "need FILE NAME=V ..."
# (each value must be among FILE's programs' options). Every kernel that runs must run with float,
# half and bfloat16 data (the case's -d) unless a dtype line says why not.
# Writes the report and prints every gap; exits 2 when there is one.

function casename(f) { sub(/.*\//, "", f); sub(/\.log$/, "", f); return f }
function add(list, tag, key, c) {
    if ((tag, key, c) in seen) return
    seen[tag, key, c] = 1; list[key] = list[key] (list[key] == "" ? "" : " ") c; n[tag, key]++
}

BEGIN {
    nk = split(kernels, kl, "\n")
    for (i = 1; i <= nk; i++) { split(kl[i], p, " "); kfile[p[2]] = p[1]; korder[i] = p[2] }
    ns = split(solvers, sl, "\n")
    split("float half bfloat16", dts, " ")
    while ((getline line < expect) > 0) {
        sub(/#.*/, "", line)
        nw = split(line, w, " ")
        if (nw < 2) continue
        why = line; sub(/^[ \t]*[a-z]+[ \t]+[^ \t]+[ \t]*/, "", why)
        if (w[1] == "kernel") skipk[w[2]] = why
        else if (w[1] == "dtype") skipd[w[2], w[3]] = why
        else if (w[1] == "solver") skips[w[2]] = why
        else if (w[1] == "need") { for (i = 3; i <= nw; i++) { need[w[2], w[i]] = 1; needf[w[2]] = 1 } }
        else { print "coverage.txt: unknown line: " line; bad = 1 }
    }
}

# cldnn-bench's first line names the data type (-d, float by default) of every tensor the case
# passes; a kernel that ran in the case ran with it (internal float workspaces aside).
/^# command: / {
    dt = "float"
    for (i = 3; i < NF; i++) if ($i == "-d") dt = $(i + 1)
    sub(/^fp32$/, "float", dt); sub(/^fp16$/, "half", dt); sub(/^bf16$/, "bfloat16", dt)
    cdt[casename(FILENAME)] = dt
}
/^Instructions executed for kernel '/ {
    k = $0; sub(/^Instructions executed for kernel '/, "", k); sub(/'.*/, "", k)
    add(kcases, "k", k, casename(FILENAME))
    kdt[k, cdt[casename(FILENAME)]] = 1
}
/^# oclgrind case: forced solver / { add(scases, "s", $NF, casename(FILENAME)) }
/program cache: (built|disk hit) / {
    f = $0; sub(/.*program cache: (built|disk hit) /, "", f)
    opts = f; sub(/ .*/, "", f); sub(/^[^[]*\[/, "", opts); sub(/\].*/, "", opts)
    m = split(opts, o, " ")
    for (i = 1; i <= m; i++) if (o[i] ~ /^-D/) { v = substr(o[i], 3); if (!((f, v) in have)) { have[f, v] = 1; vals[f] = vals[f] " " v } }
    files[f] = 1
}

END {
    print "cldnn under Oclgrind: coverage" > report
    print "\nkernel entry points (kernels/), the data types they ran with and the cases that launched them:" > report
    ran = 0
    for (i = 1; i <= nk; i++) {
        k = korder[i]
        if (k in kcases) {
            ran++
            c = kcases[k]; if (n["k", k] > 6) { split(c, cc, " "); c = cc[1] " " cc[2] " " cc[3] " " cc[4] " " cc[5] " ... (" n["k", k] " cases)" }
            t = ""
            for (j = 1; j <= 3; j++) {
                d = dts[j]
                if ((k, d) in kdt) t = t " " d
                else if ((k, d) in skipd) t = t " (" d ")"
                else { t = t " -"; print "gap: kernel " k " never ran with " d " data (a case with -d " d ", or a dtype line in coverage.txt)"; bad = 1 }
                if (((k, d) in kdt) && ((k, d) in skipd)) { print "stale exclusion: kernel " k " ran with " d; bad = 1 }
            }
            printf "  %-26s %-22s [%s ] %s\n", kfile[k], k, substr(t, 2), c > report
            if (k in skipk) { print "stale exclusion: kernel " k " ran (" c "); remove it from coverage.txt"; bad = 1 }
        } else if (k in skipk) {
            printf "  %-26s %-22s NOT RUN: %s\n", kfile[k], k, skipk[k] > report
        } else {
            printf "  %-26s %-22s NOT RUN\n", kfile[k], k > report
            print "gap: kernel " k " (" kfile[k] ") never ran: add a case to cases.txt, or a reason to coverage.txt"; bad = 1
        }
    }
    for (k in skipk) if (!(k in kfile)) { print "coverage.txt: kernel " k " does not exist"; bad = 1 }
    print "  " ran " of " nk " entry points ran" > report
    print "\nsolvers, with the cases that forced them (CLDNN_SOLVER):" > report
    sran = 0
    for (i = 1; i <= ns; i++) {
        s = sl[i]; known[s] = 1
        if (s in scases) {
            sran++
            printf "  %-36s %s\n", s, scases[s] > report
            if (s in skips) { print "stale exclusion: solver " s " ran; remove it from coverage.txt"; bad = 1 }
        } else if (s in skips) {
            printf "  %-36s NOT RUN: %s\n", s, skips[s] > report
        } else {
            printf "  %-36s NOT RUN\n", s > report
            print "gap: solver " s " never forced by a passing case"; bad = 1
        }
    }
    for (s in skips) if (!(s in known)) { print "coverage.txt: solver " s " does not exist"; bad = 1 }
    print "  " sran " of " ns " solvers ran" > report
    print "\nbuild options per kernel source (every -D value among the programs used):" > report
    for (f in files) {
        m = split(substr(vals[f], 2), o, " "); line = ""
        for (i = 1; i <= m; i++) { split(o[i], kv, "="); if (kv[1] in byname) byname[kv[1]] = byname[kv[1]] "," kv[2]; else { byname[kv[1]] = kv[2]; names[++nn] = kv[1] } }
        for (i = 1; i <= nn; i++) line = line " " names[i] "=" byname[names[i]]
        print "  " f ":" line > report
        delete byname; nn = 0
    }
    for (key in need) {
        split(key, fv, SUBSEP)
        if (!((fv[1], fv[2]) in have)) { print "gap: no program of " fv[1] " was built with -D" fv[2] " (coverage.txt need)"; bad = 1 }
    }
    exit bad ? 2 : 0
}
