/*
** onednn_conv.c: the CPU baseline of the convolution benchmark: oneDNN (libdnnl, 2.x C API) on the
** rows of one or more shape files (perf/baselines/conv_shapes.h), forward, backward-data and
** backward-weights, FP32, timed on the host's steady clock.
**
**   onednn_conv --shapes FILE[,FILE...] [--shapes FILE ...] [-F MASK] [--batch N] [--threads T]
**               [--layout nchw|nhwc|any] [--alg auto|direct] [--ms T] [--warmup W] [-v]
**
** Build: target onednn_conv of perf/CMakeLists.txt, defined when dnnl.h and libdnnl are found
** (Debian 12: apt-get install libdnnl-dev, oneDNN 2.6.3 with the OpenMP CPU runtime):
**   cmake -S . -B /tmp/build-onednn -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/build-onednn --target onednn_conv
** --threads needs the OpenMP runtime oneDNN was built with (OpenMP found by CMake); without it the
** thread count is whatever OMP_NUM_THREADS gives oneDNN.
**
** Problem: -F is a mask of directions, 1 fwd (y from x, w), 2 bwd-data (dx from w, dy), 4
** bwd-filter (dw from x, dy; oneDNN's backward weights, no bias); default 7. Cross-correlation
** (oneDNN's only convolution), alpha 1, beta 0, groups as 5-d weights. --batch N replaces every
** shape's n (the RESULT lines show N) and appends "-b<N>" to each set name, so that
** `cldnn-bench conv` run on a copy of the file with n = N (named <set>-b<N>.csv) joins it in
** perf/merge.py conv. Layout (--layout): nchw (default; x, y, dx, dy NCHW, the filter KCRS, what
** cldnn's NCHW tensors hold), nhwc (NHWC with a KRSC filter), or any (oneDNN picks its blocked
** layouts; the inputs are reordered into them once, outside the timing). --alg is the oneDNN
** algorithm kind: auto (default; oneDNN may take Winograd) or direct. Forward runs as
** forward_training, the hint of the backward primitives.
**
** Data: x, w and dy repeat a random block of GEMM_BLOCK floats in [-1, 1) (gemm_shapes.h), as the
** other baselines do.
**
** Timing: W warm-up calls (3), a first estimate (batches growing 4x until one takes T / 10 ms)
** that sets the iterations so that 5 repetitions take about T ms in all (--ms, 50), then 5
** repetitions of (clock, iterations x (execute, stream wait), clock) on CLOCK_MONOTONIC; the
** result is the median of elapsed / iterations.
**
** Output (stdout): '#' header lines (device: the CPU model and threads; onednn: the version;
** setup; timing); `# set: NAME` before each file's rows; one RESULT line per shape and direction
** (conv_result_print) with lib `onednn` and algo `<alg>:<implementation>` (the --alg value and
** oneDNN's implementation name, e.g. auto:gemm:jit, direct:jit:avx512_core). A failed measurement
** prints FAIL with a reason token as the algorithm (desc, unimplemented, alloc, reorder, exec),
** the detail on stderr, and the next one runs. -v prints the iteration counts on stderr.
** Exit status: 0, 1 if any measurement failed, 2 on a usage or shape-file error.
*/
#include <dnnl.h>
#include <dnnl_debug.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "conv_shapes.h"
#include "gemm_shapes.h"

#define REPS 5
#define MAX_FILES 64

enum { DIR_FWD, DIR_BWD_DATA, DIR_BWD_FILTER, N_DIRS };
static const char* const k_dir_names[N_DIRS] = {"fwd", "bwd-data", "bwd-filter"};

enum { LAYOUT_NCHW, LAYOUT_NHWC, LAYOUT_ANY };
static const char* const k_layout_names[] = {"NCHW (filter KCRS)", "NHWC (filter KRSC)",
                                             "any (oneDNN's choice, inputs reordered outside the timing)"};

/* What every measurement shares. */
typedef struct {
    dnnl_engine_t eng;
    dnnl_stream_t st;
    dnnl_alg_kind_t alg;
    const char* alg_name;
    int layout;
    double target_ms;
    int warmup, verbose;
    const float* blk; /* GEMM_BLOCK random floats */
} bench;

/* One measurement's oneDNN objects (NULL when not made); released by call_free. */
typedef struct {
    dnnl_primitive_desc_t fpd, pd;
    dnnl_primitive_t prim;
    dnnl_memory_t mem[3];  /* the primitive's two inputs and its output, in its layouts */
    dnnl_memory_t user[2]; /* the inputs in the plain layout, when a reorder was needed */
} conv_call;

static void call_free(conv_call* c) {
    if (c->prim) dnnl_primitive_destroy(c->prim);
    for (int i = 0; i < 3; i++)
        if (c->mem[i]) dnnl_memory_destroy(c->mem[i]);
    for (int i = 0; i < 2; i++)
        if (c->user[i]) dnnl_memory_destroy(c->user[i]);
    if (c->pd) dnnl_primitive_desc_destroy(c->pd);
    if (c->fpd) dnnl_primitive_desc_destroy(c->fpd);
    memset(c, 0, sizeof *c);
}

/* Prints a usage line and returns 2. */
static int usage(void) {
    fprintf(stderr, "usage: onednn_conv --shapes FILE[,FILE...] [--shapes FILE ...] [-F 1..7] [--batch N] [--threads T]\n"
                    "                   [--layout nchw|nhwc|any] [--alg auto|direct] [--ms T] [--warmup W] [-v]\n");
    return 2;
}

/* Prints "onednn_conv: <name> <dir>: <what>: <status>" on stderr. */
static void report(const char* name, int dir, const char* what, dnnl_status_t st) {
    fprintf(stderr, "onednn_conv: %s %s: %s: %s\n", name, k_dir_names[dir], what, dnnl_status2str(st));
}

/* The memory descriptors of shape s (x, w, y): in plain, the layout the data is written in (nhwc
** for LAYOUT_NHWC, else nchw), in prim those the primitive is created with (the same, or format
** any for LAYOUT_ANY). */
static dnnl_status_t shape_descs(const conv_shape* s, int p, int q, int layout, dnnl_memory_desc_t plain[3],
                                 dnnl_memory_desc_t prim[3]) {
    dnnl_dims_t xdims = {s->n, s->c, s->h, s->w}, ydims = {s->n, s->k, p, q};
    dnnl_dims_t wdims = {s->groups, s->k / s->groups, s->c / s->groups, s->r, s->s};
    int g = s->groups > 1, wnd = g ? 5 : 4;
    const int64_t* wd = g ? wdims : wdims + 1;
    int nhwc = layout == LAYOUT_NHWC;
    dnnl_format_tag_t act = nhwc ? dnnl_nhwc : dnnl_nchw;
    dnnl_format_tag_t flt = g ? (nhwc ? dnnl_gohwi : dnnl_goihw) : (nhwc ? dnnl_ohwi : dnnl_oihw);
    dnnl_status_t st = dnnl_memory_desc_init_by_tag(&plain[0], 4, xdims, dnnl_f32, act);
    if (st == dnnl_success) st = dnnl_memory_desc_init_by_tag(&plain[1], wnd, wd, dnnl_f32, flt);
    if (st == dnnl_success) st = dnnl_memory_desc_init_by_tag(&plain[2], 4, ydims, dnnl_f32, act);
    if (st != dnnl_success || layout != LAYOUT_ANY) {
        memcpy(prim, plain, 3 * sizeof *prim);
        return st;
    }
    st = dnnl_memory_desc_init_by_tag(&prim[0], 4, xdims, dnnl_f32, dnnl_format_tag_any);
    if (st == dnnl_success) st = dnnl_memory_desc_init_by_tag(&prim[1], wnd, wd, dnnl_f32, dnnl_format_tag_any);
    if (st == dnnl_success) st = dnnl_memory_desc_init_by_tag(&prim[2], 4, ydims, dnnl_f32, dnnl_format_tag_any);
    return st;
}

/* Fills the n floats of a plain memory object by repeating the random block. */
static dnnl_status_t fill(dnnl_memory_t m, size_t n, const float* blk) {
    void* h = NULL;
    dnnl_status_t st = dnnl_memory_get_data_handle(m, &h);
    if (st != dnnl_success) return st;
    float* f = (float*)h;
    for (size_t done = 0; done < n;) {
        size_t c = n - done < GEMM_BLOCK ? n - done : GEMM_BLOCK;
        memcpy(f + done, blk, c * sizeof *f);
        done += c;
    }
    return dnnl_success;
}

/* Copies src into dst (different layouts of the same tensor) with a oneDNN reorder. */
static dnnl_status_t reorder(const bench* b, dnnl_memory_t src, const dnnl_memory_desc_t* smd, dnnl_memory_t dst,
                             const dnnl_memory_desc_t* dmd) {
    dnnl_primitive_desc_t rpd = NULL;
    dnnl_primitive_t r = NULL;
    dnnl_status_t st = dnnl_reorder_primitive_desc_create(&rpd, smd, b->eng, dmd, b->eng, NULL);
    if (st == dnnl_success) st = dnnl_primitive_create(&r, rpd);
    if (st == dnnl_success) {
        dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}};
        st = dnnl_primitive_execute(r, b->st, 2, args);
    }
    if (st == dnnl_success) st = dnnl_stream_wait(b->st);
    if (r) dnnl_primitive_destroy(r);
    if (rpd) dnnl_primitive_desc_destroy(rpd);
    return st;
}

/* Runs the primitive n times; returns the elapsed milliseconds, or -1 after printing why. */
static double timed_calls(const bench* b, const conv_call* c, const dnnl_exec_arg_t* args, long long n,
                          const char* name, int dir) {
    double t0 = gemm_now_s();
    for (long long i = 0; i < n; i++) {
        dnnl_status_t st = dnnl_primitive_execute(c->prim, b->st, 3, args);
        if (st == dnnl_success) st = dnnl_stream_wait(b->st);
        if (st != dnnl_success) {
            report(name, dir, "dnnl_primitive_execute", st);
            return -1;
        }
    }
    return (gemm_now_s() - t0) * 1e3;
}

/* Sets up and times direction dir of shape s and prints its RESULT line. Returns 0, or 1 when it
** failed. */
static int measure(const bench* b, const conv_shape* s, int dir) {
    conv_call c;
    memset(&c, 0, sizeof c);
    const char* why = "desc";
    char algo[160];
    int p = 0, q = 0;
    conv_shape_out(s, &p, &q);
    dnnl_memory_desc_t plain[3], prim[3]; /* x, w, y */
    dnnl_dims_t strides = {s->stride_h, s->stride_w}, dil = {s->dil_h - 1, s->dil_w - 1};
    dnnl_dims_t pad = {s->pad_h, s->pad_w};
    dnnl_convolution_desc_t fd, bd;
    dnnl_status_t st = shape_descs(s, p, q, b->layout, plain, prim);
    if (st == dnnl_success)
        st = dnnl_dilated_convolution_forward_desc_init(&fd, dnnl_forward_training, b->alg, &prim[0], &prim[1], NULL,
                                                        &prim[2], strides, dil, pad, pad);
    if (st == dnnl_success && dir == DIR_BWD_DATA)
        st = dnnl_dilated_convolution_backward_data_desc_init(&bd, b->alg, &prim[0], &prim[1], &prim[2], strides, dil,
                                                              pad, pad);
    if (st == dnnl_success && dir == DIR_BWD_FILTER)
        st = dnnl_dilated_convolution_backward_weights_desc_init(&bd, b->alg, &prim[0], &prim[1], NULL, &prim[2],
                                                                 strides, dil, pad, pad);
    if (st != dnnl_success) {
        report(s->name, dir, "descriptor", st);
        goto fail;
    }
    why = "unimplemented";
    st = dnnl_primitive_desc_create(&c.fpd, &fd, NULL, b->eng, NULL);
    if (st == dnnl_success) {
        if (dir == DIR_FWD) {
            c.pd = c.fpd;
            c.fpd = NULL;
        } else {
            st = dnnl_primitive_desc_create(&c.pd, &bd, NULL, b->eng, c.fpd);
        }
    }
    if (st == dnnl_success) st = dnnl_primitive_create(&c.prim, c.pd);
    if (st != dnnl_success) {
        report(s->name, dir, "primitive descriptor", st);
        goto fail;
    }
    const char* impl = "?";
    dnnl_primitive_desc_query(c.pd, dnnl_query_impl_info_str, 0, (void*)&impl);
    snprintf(algo, sizeof algo, "%s:%s", b->alg_name, impl);

    /* the primitive's arguments: (x, w, y) indices of its two inputs and its output, and its queries */
    static const int k_io[N_DIRS][3] = {{0, 1, 2}, {1, 2, 0}, {0, 2, 1}};
    static const int k_arg[N_DIRS][3] = {{DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST},
                                         {DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC},
                                         {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_WEIGHTS}};
    static const dnnl_query_t k_query[N_DIRS][3] = {
        {dnnl_query_src_md, dnnl_query_weights_md, dnnl_query_dst_md},
        {dnnl_query_weights_md, dnnl_query_diff_dst_md, dnnl_query_diff_src_md},
        {dnnl_query_src_md, dnnl_query_diff_dst_md, dnnl_query_diff_weights_md}};
    dnnl_exec_arg_t args[3];
    for (int i = 0; i < 3; i++) {
        const dnnl_memory_desc_t* md = dnnl_primitive_desc_query_md(c.pd, k_query[dir][i], 0);
        const dnnl_memory_desc_t* pl = &plain[k_io[dir][i]];
        why = "alloc";
        st = md ? dnnl_memory_create(&c.mem[i], md, b->eng, DNNL_MEMORY_ALLOCATE) : dnnl_invalid_arguments;
        if (st != dnnl_success) {
            report(s->name, dir, "memory", st);
            goto fail;
        }
        args[i].arg = k_arg[dir][i];
        args[i].memory = c.mem[i];
        if (i == 2) break;
        /* an input: random data in the plain layout, reordered when the primitive wants another */
        size_t n = dnnl_memory_desc_get_size(pl) / sizeof(float);
        int same = dnnl_memory_desc_equal(md, pl);
        if (!same) st = dnnl_memory_create(&c.user[i], pl, b->eng, DNNL_MEMORY_ALLOCATE);
        if (st == dnnl_success) st = fill(same ? c.mem[i] : c.user[i], n, b->blk);
        if (st != dnnl_success) {
            report(s->name, dir, "input", st);
            goto fail;
        }
        if (!same && (st = reorder(b, c.user[i], pl, c.mem[i], md)) != dnnl_success) {
            why = "reorder";
            report(s->name, dir, "reorder", st);
            goto fail;
        }
    }

    why = "exec";
    if (b->warmup > 0 && timed_calls(b, &c, args, b->warmup, s->name, dir) < 0) goto fail;
    double per = -1;
    for (long long n = 1;; n *= 4) {
        double ms = timed_calls(b, &c, args, n, s->name, dir);
        if (ms < 0) goto fail;
        per = ms * 1e-3 / (double)n;
        if (ms >= b->target_ms / 10 || n >= 4096) break;
    }
    long long iters = gemm_iters_for(per, b->target_ms, REPS);
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        double ms = timed_calls(b, &c, args, iters, s->name, dir);
        if (ms < 0) goto fail;
        t[r] = ms / (double)iters;
    }
    if (b->verbose)
        fprintf(stderr, "onednn_conv: %s %s: %s, %lld iterations x %d\n", s->name, k_dir_names[dir], algo, iters, REPS);
    conv_result_print(stdout, "onednn", k_dir_names[dir], s, algo, gemm_median(t, REPS));
    call_free(&c);
    return 0;
fail:
    call_free(&c);
    conv_result_print(stdout, "onednn", k_dir_names[dir], s, why, -1);
    return 1;
}

/* The file name of path without its folder and a trailing .csv, then "-b<batch>" when batch > 0,
** into out (size n). */
static void set_name(const char* path, int batch, char* out, size_t n) {
    const char* b = strrchr(path, '/');
    b = b ? b + 1 : path;
    snprintf(out, n, "%s", b);
    size_t l = strlen(out);
    if (l > 4 && !strcmp(out + l - 4, ".csv")) out[l - 4] = '\0';
    l = strlen(out);
    if (batch > 0) snprintf(out + l, n - l, "-b%d", batch);
}

/* The CPU's model name from /proc/cpuinfo into out ("unknown CPU" when there is none). */
static void cpu_model(char* out, size_t n) {
    snprintf(out, n, "unknown CPU");
    FILE* f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char* colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        colon += 1 + (colon[1] == ' ');
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(out, n, "%s", colon);
        break;
    }
    fclose(f);
}

/* Parses the command line, reads the shape files, creates the engine, runs every shape. */
int main(int argc, char** argv) {
    char* files[MAX_FILES];
    int nfiles = 0, mask = 7, batch = 0, threads = 0;
    bench b;
    memset(&b, 0, sizeof b);
    b.alg = dnnl_convolution_auto;
    b.alg_name = "auto";
    b.target_ms = 50;
    b.warmup = 3;
    for (int i = 1; i < argc; i++) {
        const char* a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--shapes") && more) {
            for (char* t = strtok(argv[++i], ","); t; t = strtok(NULL, ",")) {
                if (nfiles == MAX_FILES) {
                    fprintf(stderr, "onednn_conv: more than %d shape files\n", MAX_FILES);
                    return 2;
                }
                files[nfiles++] = t;
            }
        } else if (!strcmp(a, "-F") && more) mask = atoi(argv[++i]);
        else if (!strcmp(a, "--batch") && more) {
            batch = atoi(argv[++i]);
            if (batch < 1 || batch > (1 << 24)) return usage();
        } else if (!strcmp(a, "--threads") && more) {
            threads = atoi(argv[++i]);
            if (threads < 1) return usage();
        } else if (!strcmp(a, "--layout") && more) {
            const char* l = argv[++i];
            if (!strcmp(l, "nchw") || !strcmp(l, "NCHW")) b.layout = LAYOUT_NCHW;
            else if (!strcmp(l, "nhwc") || !strcmp(l, "NHWC")) b.layout = LAYOUT_NHWC;
            else if (!strcmp(l, "any")) b.layout = LAYOUT_ANY;
            else return usage();
        } else if (!strcmp(a, "--alg") && more) {
            const char* l = argv[++i];
            if (!strcmp(l, "auto")) b.alg = dnnl_convolution_auto, b.alg_name = "auto";
            else if (!strcmp(l, "direct")) b.alg = dnnl_convolution_direct, b.alg_name = "direct";
            else return usage();
        } else if (!strcmp(a, "--ms") && more) b.target_ms = atof(argv[++i]);
        else if (!strcmp(a, "--warmup") && more) b.warmup = atoi(argv[++i]);
        else if (!strcmp(a, "-v")) b.verbose = 1;
        else return usage();
    }
    if (!nfiles || mask < 1 || mask > 7 || !(b.target_ms > 0) || b.warmup < 0) return usage();
    if (threads) {
#ifdef _OPENMP
        omp_set_num_threads(threads);
#else
        fprintf(stderr, "onednn_conv: built without OpenMP, --threads is not available (set OMP_NUM_THREADS)\n");
        return 2;
#endif
    }
    conv_shape* shapes[MAX_FILES];
    int counts[MAX_FILES];
    for (int i = 0; i < nfiles; i++) {
        counts[i] = conv_shapes_read(files[i], &shapes[i]);
        if (counts[i] < 0) {
            while (i--) free(shapes[i]);
            return 2;
        }
        for (int j = 0; batch && j < counts[i]; j++) shapes[i][j].n = batch;
    }

    int rc = 1;
    float* blk = malloc(GEMM_BLOCK * sizeof *blk);
    dnnl_status_t st = blk ? dnnl_engine_create(&b.eng, dnnl_cpu, 0) : dnnl_out_of_memory;
    if (st == dnnl_success) st = dnnl_stream_create(&b.st, b.eng, dnnl_stream_default_flags);
    if (st != dnnl_success) {
        fprintf(stderr, "onednn_conv: CPU engine and stream: %s\n", dnnl_status2str(st));
        goto out;
    }
    gemm_fill_block(blk, GEMM_BLOCK, 2000);
    b.blk = blk;

    char model[256];
    cpu_model(model, sizeof model);
    const dnnl_version_t* v = dnnl_version();
#ifdef _OPENMP
    int nthreads = omp_get_max_threads();
#else
    int nthreads = 0; /* unknown: oneDNN's runtime decides */
#endif
    printf("# device: %s; oneDNN CPU engine, %d threads (%d CPUs online)\n", model, nthreads,
           (int)sysconf(_SC_NPROCESSORS_ONLN));
    printf("# onednn: %d.%d.%d (hash %s, CPU runtime %u, built with %d.%d.%d)\n", v->major, v->minor, v->patch,
           v->hash, v->cpu_runtime, DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR, DNNL_VERSION_PATCH);
    printf("# setup: FP32, %s, cross-correlation, alpha 1, beta 0, algorithm %s, forward_training%s\n",
           k_layout_names[b.layout], b.alg_name, batch ? ", batch overridden" : "");
    printf("# timing: CLOCK_MONOTONIC around execute + stream wait, %d warm-up, 5 repetitions of ~%g ms in all, "
           "median per call\n", b.warmup, b.target_ms);
    fflush(stdout);

    int fails = 0;
    for (int f = 0; f < nfiles; f++) {
        char set[256];
        set_name(files[f], batch, set, sizeof set);
        printf("# set: %s\n", set);
        fflush(stdout);
        for (int i = 0; i < counts[f]; i++)
            for (int d = 0; d < N_DIRS; d++)
                if (mask & (1 << d)) fails += measure(&b, &shapes[f][i], d);
    }
    rc = fails ? 1 : 0;
out:
    if (b.st) dnnl_stream_destroy(b.st);
    if (b.eng) dnnl_engine_destroy(b.eng);
    free(blk);
    for (int i = 0; i < nfiles; i++) free(shapes[i]);
    return rc;
}
