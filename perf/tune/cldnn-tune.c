/*
** cldnn-tune: searches a solver's declared parameter space on the current device and prints
** the winners as rows of the library's parameter tables.
**
**   cldnn-tune gemm [--shapes FILE | -m M -n N -k K --transA 0|1 --transB 0|1]
**                   [-d float|half] [--math default|tensor] [--budget SECONDS] [--iters N] [--quiet] [--db]
**   cldnn-tune conv --shapes FILE [-F MASK] [-L NCHW|NHWC] [-S igemm|winograd|igemm_mma] [--tile 2|4] [--db]
**                   [-d float|half] [--budget SECONDS] [--iters N] [--quiet]
**   cldnn-tune db --shapes FILE [--prefix NAME] [--batch N] [-F MASK] [--budget SECONDS]
**                 [--per-problem SECONDS] [--iters N] [--ws-max MiB] [--md FILE]
**
** db: fills the handle's tuning db (CLDNN_DB_PATH, else the user folder; db.c) for every shape of a
** conv-*.csv list whose name starts with --prefix (n replaced by --batch when given) and every
** direction of MASK (default 7), through the library: Find in the TUNE find mode, which searches
** the implicit GEMM's parameters (CLDNN_TUNE_BUDGET: --per-problem, default 60 s, or what is
** left of --budget, default 3600 s), records them in the tuning db and the timings of every
** algorithm in the find-db. A problem whose tuning record exists is not searched again (resume:
** rerun the same command after a stop); one whose layer no tunable solver fits is skipped. When
** the budget is spent the run stops before the next search (exit status 3; 1 when a problem
** failed). Each problem prints, to stdout, as soon as it is done:
**     [i/n] <problem key> <name> tuned|resumed best <params> <ms> (heuristic <params> <ms>, x<speedup>);
**           layer: heuristic <algo> <ms>, now <algo> <ms> (x<speedup>)
** where the first pair times the implicit GEMM with the default and the tuned parameters, and
** the second Get_v7's algorithm run in the HEURISTIC mode (no database: default parameters) and
** in DB_OR_HEURISTIC after the search (the find-db's fastest, run with the tuning db's
** parameters), all timed back to back after the search. --md FILE writes the same as a markdown table, one row per problem.
**
** conv: the implicit-GEMM solver of each direction in MASK (1 fwd, 2 bwd-data, 4 bwd-filter;
** default 7) over the same declared space as GEMM (cldnn_gemm_param_space), for every shape of a
** perf/shapes/conv-*.csv file. The default parameters (the conv table, else the GEMM table) run
** first and are checked against the double references of tests/ref on 256 sampled outputs;
** candidates must match the default's output within 1e-5 * sqrt(reduction) of its range. The
** result lines name the direction, the shape and the GEMM class of its equivalent GEMM, and give
** the row for src/conv/gemm/conv_params.c:
**     best conv-<dir> <name> class <class> <params> <TFLOP/s> (default ..., x<speedup>)
** conv -S winograd: the fused Winograd kernel F(t x t, 3x3), t = --tile (default 4), of the
** forward and backward-data directions of MASK over its space (cldnn_wino_param_space: block
** sizes, channel chunk, micro-tile, position groups), on the shapes it takes (3x3, stride 1; the
** rest are skipped). The defaults run first, checked against the double references with
** rtol 1e-4; candidates must match their output within 1e-5 * sqrt(9 * channels) of its range.
**     best conv-<dir> <name> <layout> winograd_fused_f<t>x<t> <params> <TFLOP/s> (default ...)
** F(2x2) is tuned on FMA_MATH problems (the math type where the library runs it), F(4x4) on
** DEFAULT_MATH ones: the math type is part of the record's key, so a TENSOR_OP_MATH problem, where
** the fused F(4x4) also runs (FP32), finds no record and takes the defaults.
** With --db the winner is recorded in the user tuning db under the problem's key (batch, layout
** and all) and the solver winograd_fused_f<t>x<t>, where the library's fused solver takes it
** (find modes other than HEURISTIC); problems with a record are skipped (resume). The
** non-fused Winograd has no parameters of its own: its batched product runs the GEMM family's
** parameters (cldnn-tune gemm).
** conv -S igemm_mma: the tensor-core implicit GEMM (TF32 mma.sync for float data, FP16 for -d half;
** the solver the implicit-GEMM algorithms run under TENSOR_OP_MATH on NVIDIA devices of compute
** capability 8.0 and up) of every direction of MASK, its problems under TENSOR_OP_MATH, over
** cldnn_conv_igemm_mma_param_space (the tensor-core GEMM's declared space of the data type,
** cldnn_gemm_mma_param_space: block and warp tiles, k step, stages, kept where they fit the
** problem's operand layouts). The defaults run first, checked against the double references
** within the FP32 tolerance plus TF32's input rounding (rtol 2^-10 + 1e-5), or for half data (x,
** w, y half, the inputs drawn as halves) with truncating FP32 sums (rtol 4e-5) plus the output's
** rounding (2^-10 |want|); candidates must match their output within 1e-5 * sqrt(reduction) of
** its range (plus 2^-10 of it for half: one rounding of the output). -d half applies to -S
** igemm_mma only.
**     best conv-<dir> <name> <layout> conv_<dir>_igemm_mma <params> <TFLOP/s> (default ...)
** With --db the winner goes to the user tuning db under the problem's key and that solver name,
** where the library's solver takes it in every find mode but HEURISTIC (resume as for winograd);
** layers the solver does not take (no tensor cores, fewer than 8 channels) are skipped. A
** TUNE-mode Find searches the same space for the problems it runs there.
**
** gemm: the solver cldnnGemm picks for the data type (-d, default float) and math type (--math,
** default default): under --math tensor on a device with tensor cores, the tensor-core kernel
** (gemm_mma_tf32 for float, gemm_mma_f16 for half) over its declared space
** (cldnn_gemm_mma_param_space: block and warp tiles, k step, stages), else gemm_tiled over
** cldnn_gemm_param_space. For each shape (column-major, cuBLAS semantics; FILE is a CSV with a
** header and columns m,n,k,a_t,b_t), the solver's current choice runs first as the reference: it
** is verified against a double-precision dot product on a sample of C's elements (float rounding
** per addition, a whole ulp on FP16 tensor cores, which truncate; TF32's input rounding; C's
** rounding for half), and every candidate of the space must then match the reference's C within
** 1e-5 * sqrt(k) of C's range (plus 2^-10 of it for half: one rounding of C) or it is rejected. Candidates are timed with the host clock around clFinish (warm-up, then
** repetitions of enough calls to pass 20 ms; the median). The search for one shape stops at the
** budget (default 120 s) and reports the best so far. Tiles more than twice the problem's
** size (rounded up to a power of two) are skipped. Progress goes to stderr; the result lines
** go to stdout:
**     best <shape> <type> class <class> <solver> <params> <TFLOP/s> (default <params> <TFLOP/s>, x<speedup>)
** With --db each shape's winner (the default when nothing beat it) is also recorded in the user
** tuning db (CLDNN_DB_PATH, else the user folder) under the key of the packed column-major
** problem (lda = m or k, ldb = k or n, ldc = m, batch 1, the data and math type:
** cldnn_gemm_problem_key) and the solver's name (gemm_tiled, gemm_mma_tf32, gemm_mma_f16), where
** later cldnnGemm calls of that problem, in any process, take it (find modes other than
** HEURISTIC); a shape that already has a user record is not searched again (resume) and prints
** `resumed <shape> <solver> <params>`.
** The device is CLDNN_DEVICE's (see the README). Links the static library for the internal
** parameter API.
*/
#define _POSIX_C_SOURCE 200809L
#include "internal.h"
#include "conv/conv.h"
#include "conv_descs.h"
#include "conv_shapes.h"
#include "gemm_shapes.h"
#include "ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    long long m, n, k;
    int ta, tb;
} shape;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static float frand(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)((double)(rng_state >> 11) / 9007199254740992.0) * 2.0f - 1.0f;
}

static int load_shapes(const char* path, shape* out, int max) {
    FILE* f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "cldnn-tune: cannot open %s\n", path);
        return -1;
    }
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        long long m, nn, k;
        char a, b;
        if (sscanf(line, "%lld,%lld,%lld,%c,%c", &m, &nn, &k, &a, &b) == 5) {
            out[n].m = m;
            out[n].n = nn;
            out[n].k = k;
            out[n].ta = a == 'T';
            out[n].tb = b == 'T';
            n++;
        }
    }
    fclose(f);
    return n;
}

/* Times params on the problem: median seconds per call, or a negative value on failure. */
/* One call of what is being timed. */
typedef cldnnStatus_t (*run_fn)(cldnnHandle_t h, const void* ctx);

/* Median per-call seconds of fn: a warm-up, then 5 repetitions of enough calls to pass 20 ms
** (at most iters); -1 when a call fails. */
static double time_calls(cldnnHandle_t h, run_fn fn, const void* ctx, int iters) {
    if (fn(h, ctx) != CLDNN_STATUS_SUCCESS || clFinish(h->queue) != CL_SUCCESS)
        return -1.0;
    double t0 = now_s();
    if (fn(h, ctx) != CLDNN_STATUS_SUCCESS || clFinish(h->queue) != CL_SUCCESS)
        return -1.0;
    double one = now_s() - t0;
    int reps = (int)(0.02 / (one > 1e-6 ? one : 1e-6)) + 1;
    if (reps > iters)
        reps = iters;
    double t[5];
    for (int r = 0; r < 5; ++r) {
        double s = now_s();
        for (int i = 0; i < reps; ++i)
            fn(h, ctx);
        clFinish(h->queue);
        t[r] = (now_s() - s) / reps;
    }
    qsort(t, 5, sizeof t[0], cmp_double);
    return t[2];
}

/* A parameter set of the solver being tuned: gemm_tiled's, or the tensor-core kernel's. */
typedef union {
    cldnn_gemm_params tiled;
    cldnn_gemm_mma_params mma;
} gemm_any_params;

/* The GEMM solver cldnn-tune gemm searches for a problem: the one cldnnGemm picks for it (the
** tensor-core kernel under TENSOR_OP_MATH where the device has it, else gemm_tiled), by the name
** its tuning records go under. */
typedef struct {
    int mma;
    const char* solver;
} gemm_family;

static gemm_family gemm_family_of(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev) {
    gemm_family f = {0, CLDNN_GEMM_SOLVER_NAME};
    if (cldnn_gemm_mma_tf32_applicable(pr, dev))
        f = (gemm_family){1, CLDNN_GEMM_MMA_TF32_NAME};
    else if (cldnn_gemm_mma_f16_applicable(pr, dev))
        f = (gemm_family){1, CLDNN_GEMM_MMA_F16_NAME};
    return f;
}

static cldnnStatus_t family_run(cldnnHandle_t h, const gemm_family* f, const cldnn_gemm_problem* pr,
                                const gemm_any_params* p, const cldnn_gemm_buffers* b) {
    return f->mma ? cldnn_gemm_mma_run_params(h, pr, &p->mma, b) : cldnn_gemm_run_params(h, pr, &p->tiled, b);
}

static void family_format(const gemm_family* f, const gemm_any_params* p, char* buf, size_t size) {
    if (f->mma)
        cldnn_gemm_mma_params_format(&p->mma, buf, size);
    else
        cldnn_gemm_params_format(&p->tiled, buf, size);
}

static void family_default(const gemm_family* f, const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                           gemm_any_params* out) {
    memset(out, 0, sizeof *out);
    if (f->mma)
        cldnn_gemm_mma_params_select(pr, dev, &out->mma);
    else
        cldnn_gemm_params_select(pr, dev, &out->tiled);
}

/* The family's declared space for pr on dev (cldnn_gemm_param_space, cldnn_gemm_mma_param_space):
** at most max sets into out, returns the count the space holds. */
static size_t family_space(const gemm_family* f, const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                           gemm_any_params* out, size_t max) {
    static cldnn_gemm_params tiled[4096];
    static cldnn_gemm_mma_params mma[4096];
    size_t n = f->mma ? cldnn_gemm_mma_param_space(dev, pr->dtype, pr->trans_a, pr->trans_b, mma, 4096)
                      : cldnn_gemm_param_space(dev, tiled, 4096);
    for (size_t i = 0; i < n && i < max && i < 4096; ++i) {
        memset(&out[i], 0, sizeof out[i]);
        if (f->mma)
            out[i].mma = mma[i];
        else
            out[i].tiled = tiled[i];
    }
    return n;
}

typedef struct {
    const cldnn_gemm_problem* pr;
    const gemm_family* f;
    const gemm_any_params* p;
    const cldnn_gemm_buffers* b;
} gemm_run_ctx;

static cldnnStatus_t run_gemm_ctx(cldnnHandle_t h, const void* ctx) {
    const gemm_run_ctx* c = (const gemm_run_ctx*)ctx;
    return family_run(h, c->f, c->pr, c->p, c->b);
}

static double time_params(cldnnHandle_t h, const gemm_family* f, const cldnn_gemm_problem* pr,
                          const gemm_any_params* p, const cldnn_gemm_buffers* b, int iters) {
    gemm_run_ctx c = {pr, f, p, b};
    return time_calls(h, run_gemm_ctx, &c, iters);
}

static int db_user_record(cldnnHandle_t h, const char* key, const char* solver, char* value, size_t size);

/* A read-write device buffer of the n host values in data type dt (HALF: converted; the host values
** are halves already): GEMM operands, and the convolution tuner's tensors (each direction writes
** one of them). */
static cl_mem gemm_upload(cldnnHandle_t h, cldnnDataType_t dt, const float* host, size_t n) {
    cl_int err;
    if (dt != CLDNN_DATA_HALF)
        return clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, (void*)host, &err);
    uint16_t* hh = malloc(n * 2);
    if (hh == NULL)
        return NULL;
    for (size_t i = 0; i < n; ++i)
        hh[i] = gemm_float_to_half(host[i]);
    cl_mem m = clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 2, hh, &err);
    free(hh);
    return m;
}

/* C (n values in data type dt) into host floats; scratch holds n halves for HALF. */
static void gemm_download(cldnnHandle_t h, cldnnDataType_t dt, cl_mem c, float* host, uint16_t* scratch, size_t n) {
    if (dt != CLDNN_DATA_HALF) {
        clEnqueueReadBuffer(h->queue, c, CL_TRUE, 0, n * 4, host, 0, NULL, NULL);
        return;
    }
    clEnqueueReadBuffer(h->queue, c, CL_TRUE, 0, n * 2, scratch, 0, NULL, NULL);
    for (size_t i = 0; i < n; ++i)
        host[i] = gemm_half_to_float(scratch[i]);
}

static int tune_gemm(cldnnHandle_t h, const shape* s, cldnnDataType_t dt, cldnnMathType_t math, double budget,
                     int iters, int quiet, int db) {
    cldnn_gemm_problem pr;
    memset(&pr, 0, sizeof pr);
    pr.m = s->m;
    pr.n = s->n;
    pr.k = s->k;
    pr.trans_a = s->ta;
    pr.trans_b = s->tb;
    pr.lda = s->ta ? s->k : s->m;
    pr.ldb = s->tb ? s->n : s->k;
    pr.ldc = s->m;
    pr.batch = 1;
    pr.alpha = 1.0f;
    pr.beta = 0.0f;
    pr.math = math;
    pr.dtype = pr.dtype_c = dt;
    const gemm_family fam = gemm_family_of(&pr, &h->prof);
    char key[256], rec[128];
    cldnn_gemm_problem_key(&pr, key, sizeof key);
    if (db && db_user_record(h, key, fam.solver, rec, sizeof rec)) {
        printf("resumed %lldx%lldx%lld %c%c %s %s (tuning db: %s)\n", s->m, s->n, s->k, s->ta ? 'T' : 'N',
               s->tb ? 'T' : 'N', fam.solver, rec, key);
        fflush(stdout);
        return 0;
    }
    const int half = dt == CLDNN_DATA_HALF;
    size_t na = (size_t)(s->m * s->k), nb = (size_t)(s->k * s->n), nc = (size_t)(s->m * s->n);
    float* A = malloc(na * 4);
    float* B = malloc(nb * 4);
    float* Cref = malloc(nc * 4);
    float* C = malloc(nc * 4);
    uint16_t* C16 = malloc(nc * 2);
    int status = 1;
    cldnn_gemm_buffers bufs = {NULL, NULL, NULL};
    if (!A || !B || !Cref || !C || !C16)
        goto done;
    for (size_t i = 0; i < na; ++i)
        A[i] = half ? gemm_half_to_float(gemm_float_to_half(frand())) : frand();
    for (size_t i = 0; i < nb; ++i)
        B[i] = half ? gemm_half_to_float(gemm_float_to_half(frand())) : frand();
    cl_int err;
    bufs.a = gemm_upload(h, dt, A, na);
    bufs.b = gemm_upload(h, dt, B, nb);
    bufs.c = clCreateBuffer(h->context, CL_MEM_READ_WRITE, nc * (half ? 2 : 4), NULL, &err);
    if (!bufs.a || !bufs.b || !bufs.c) {
        fprintf(stderr, "cldnn-tune: buffer allocation failed\n");
        goto done;
    }
    gemm_any_params def;
    family_default(&fam, &pr, &h->prof, &def);
    char ds[96];
    family_format(&fam, &def, ds, sizeof ds);
    if (family_run(h, &fam, &pr, &def, &bufs) != CLDNN_STATUS_SUCCESS) {
        char e[2048];
        cldnnGetLastErrorString(e, sizeof e);
        fprintf(stderr, "cldnn-tune: the default %s fails: %s\n", ds, e);
        goto done;
    }
    gemm_download(h, dt, bufs.c, Cref, C16, nc);
    /* Verify the reference on a sample against double dot products: a float dot product's
    ** rounding (a whole ulp per addition on FP16 tensor cores, which truncate), TF32's input
    ** rounding for FLOAT on tensor cores, C's rounding for HALF. */
    const int tf32 = fam.mma && !half;
    const double sum_u = (fam.mma && half ? 2.0 : 1.0) * 5.96e-8, in_rel = tf32 ? 2.0 / 2048.0 : 0.0;
    double cmax = 0.0;
    for (size_t i = 0; i < nc; ++i)
        cmax = fmax(cmax, fabs(Cref[i]));
    for (int t = 0; t < 256; ++t) {
        long long i = (long long)(((uint64_t)(frand() + 1.0f) * 0.5 * (double)s->m)) % s->m;
        long long j = (long long)(((double)(frand() + 1.0f) * 0.5 * (double)s->n)) % s->n;
        double acc = 0.0, mag = 0.0;
        for (long long p = 0; p < s->k; ++p) {
            double a = s->ta ? A[p + i * pr.lda] : A[i + p * pr.lda];
            double b = s->tb ? B[j + p * pr.ldb] : B[p + j * pr.ldb];
            acc += a * b;
            mag += fabs(a * b);
        }
        double got = Cref[i + j * pr.ldc];
        double tol = (4.0 * sum_u * sqrt((double)s->k) + in_rel) * mag + 1e-30;
        if (half)
            tol += ldexp(fabs(acc) + tol, -11) + ldexp(1.0, -25);
        if (fabs(got - acc) > tol) {
            fprintf(stderr, "cldnn-tune: the default parameters give C(%lld,%lld) = %.9g, want %.9g\n", i, j, got, acc);
            goto done;
        }
    }
    double t_def = time_params(h, &fam, &pr, &def, &bufs, iters);
    double flops = 2.0 * (double)s->m * (double)s->n * (double)s->k;

    static gemm_any_params space[4096];
    size_t nspace = family_space(&fam, &pr, &h->prof, space, 4096);
    if (nspace > 4096)
        nspace = 4096;
    gemm_any_params best = def;
    double t_best = t_def;
    double start = now_s();
    size_t tried = 0, rejected = 0, failed = 0;
    /* Tiles more than twice the problem (rounded up to a power of two) only compute padding. */
    long long mcap = 16, ncap = 16;
    while (mcap < s->m)
        mcap *= 2;
    while (ncap < s->n)
        ncap *= 2;
    /* Candidates differ from the reference in summation order, and for HALF by one rounding of C. */
    const double tol = (1e-5 * sqrt((double)s->k) + (half ? 1.0 / 1024.0 : 0.0)) * (cmax > 0 ? cmax : 1.0);
    for (size_t c = 0; c < nspace; ++c) {
        const long long bm = fam.mma ? space[c].mma.bm : space[c].tiled.mwg;
        const long long bn = fam.mma ? space[c].mma.bn : space[c].tiled.nwg;
        if (bm > 2 * mcap || bn > 2 * ncap)
            continue;
        if (now_s() - start > budget) {
            fprintf(stderr, "  budget of %.0f s reached after %zu of %zu candidates\n", budget, c, nspace);
            break;
        }
        char ps[96];
        family_format(&fam, &space[c], ps, sizeof ps);
        const cl_float nan32 = NAN;
        const cl_ushort nan16 = 0x7e00u; /* a quiet NaN half */
        if (half)
            clEnqueueFillBuffer(h->queue, bufs.c, &nan16, sizeof nan16, 0, nc * 2, 0, NULL, NULL);
        else
            clEnqueueFillBuffer(h->queue, bufs.c, &nan32, sizeof nan32, 0, nc * 4, 0, NULL, NULL);
        if (family_run(h, &fam, &pr, &space[c], &bufs) != CLDNN_STATUS_SUCCESS) {
            failed++;
            if (!quiet)
                fprintf(stderr, "  [%zu/%zu] %-34s failed\n", c + 1, nspace, ps);
            continue;
        }
        gemm_download(h, dt, bufs.c, C, C16, nc);
        double worst = 0.0;
        for (size_t i = 0; i < nc; ++i) {
            double d = fabs((double)C[i] - (double)Cref[i]);
            if (!(d <= worst))
                worst = isnan(d) ? INFINITY : d;
        }
        tried++;
        if (!(worst <= tol)) {
            rejected++;
            fprintf(stderr, "  [%zu/%zu] %-34s REJECTED (max diff %.3g > %.3g)\n", c + 1, nspace, ps, worst, tol);
            continue;
        }
        double t = time_params(h, &fam, &pr, &space[c], &bufs, iters);
        if (t <= 0) {
            failed++;
            continue;
        }
        if (t < t_best) {
            t_best = t;
            best = space[c];
        }
        if (!quiet)
            fprintf(stderr, "  [%zu/%zu] %-34s %8.3f ms %7.2f TFLOP/s (best %.2f)\n", c + 1, nspace, ps, t * 1e3,
                    flops / t * 1e-12, flops / t_best * 1e-12);
    }
    char bs[96];
    family_format(&fam, &best, bs, sizeof bs);
    printf("best %lldx%lldx%lld %c%c %s class %s %s %s %.2f TFLOP/s (default %s %.2f TFLOP/s, x%.2f) [%zu tried, %zu "
           "rejected, %zu failed]\n",
           s->m, s->n, s->k, s->ta ? 'T' : 'N', s->tb ? 'T' : 'N', cldnn_dtype_name(dt),
           cldnn_gemm_class_name(cldnn_gemm_classify(&pr)), fam.solver, bs, flops / t_best * 1e-12, ds,
           flops / t_def * 1e-12, t_def / t_best, tried, rejected, failed);
    if (!fam.mma)
        printf("    table row: {%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d}\n", best.tiled.mwg, best.tiled.nwg,
               best.tiled.kwg, best.tiled.mdimc, best.tiled.ndimc, best.tiled.vwm, best.tiled.vwn, best.tiled.vwa,
               best.tiled.vwb, best.tiled.pada, best.tiled.padb);
    if (db) {
        cldnn_tunedb_put(h, key, fam.solver, bs);
        printf("    tuning db: %s|%s %s\n", key, fam.solver, bs);
    }
    fflush(stdout);
    status = 0;
done:
    if (bufs.a)
        clReleaseMemObject(bufs.a);
    if (bufs.b)
        clReleaseMemObject(bufs.b);
    if (bufs.c)
        clReleaseMemObject(bufs.c);
    free(A);
    free(B);
    free(C);
    free(C16);
    free(Cref);
    return status;
}

/* ------------------------------------------------------------------ conv */

typedef struct {
    cldnn_conv_problem p;
    cldnn_conv_buffers b;
} conv_run_ctx;

typedef struct {
    const conv_run_ctx* c;
    const cldnn_gemm_params* q;
} conv_time_ctx;

static cldnnStatus_t run_conv_ctx(cldnnHandle_t h, const void* ctx) {
    const conv_time_ctx* t = (const conv_time_ctx*)ctx;
    return cldnn_conv_igemm_run(h, &t->c->p, t->q, &t->c->b);
}

static double time_conv(cldnnHandle_t h, const conv_run_ctx* c, const cldnn_gemm_params* q, int iters) {
    conv_time_ctx t = {c, q};
    return time_calls(h, run_conv_ctx, &t, iters);
}

static const char* const conv_dir_names[3] = {"fwd", "bwd-data", "bwd-filter"};

/* One shape and direction being tuned: descriptors, the problem, device buffers of random data,
** their host copies and the double reference's view of them; ref and got hold the output. */
typedef struct {
    cldnnTensorDescriptor_t xd, yd;
    cldnnFilterDescriptor_t wd;
    cldnnConvolutionDescriptor_t cd;
    conv_run_ctx c;
    ref_conv rc;
    float *hx, *hw, *hy, *ref, *got;
    uint16_t* scratch; /* nout halves: a HALF output's bits before widening */
    size_t nout;
    cl_mem out;
    int P, Q;
    cldnnDataType_t dt; /* x, w, y alike: FLOAT, or HALF (host values are halves, widened) */
} conv_tune_setup;

static void setup_close(conv_tune_setup* t) {
    if (t->c.b.x)
        clReleaseMemObject(t->c.b.x);
    if (t->c.b.w)
        clReleaseMemObject(t->c.b.w);
    if (t->c.b.y)
        clReleaseMemObject(t->c.b.y);
    if (t->c.b.ws)
        clReleaseMemObject(t->c.b.ws);
    free(t->hx);
    free(t->hw);
    free(t->hy);
    free(t->ref);
    free(t->got);
    free(t->scratch);
    cldnnDestroyTensorDescriptor(t->xd);
    cldnnDestroyTensorDescriptor(t->yd);
    cldnnDestroyFilterDescriptor(t->wd);
    cldnnDestroyConvolutionDescriptor(t->cd);
    memset(t, 0, sizeof *t);
}

/* The output (t->nout elements of t's data type) into dst as floats. */
static void setup_read(cldnnHandle_t h, conv_tune_setup* t, float* dst) {
    if (t->dt != CLDNN_DATA_HALF) {
        clEnqueueReadBuffer(h->queue, t->out, CL_TRUE, 0, t->nout * 4, dst, 0, NULL, NULL);
        return;
    }
    clEnqueueReadBuffer(h->queue, t->out, CL_TRUE, 0, t->nout * 2, t->scratch, 0, NULL, NULL);
    for (size_t i = 0; i < t->nout; ++i)
        dst[i] = gemm_half_to_float(t->scratch[i]);
}

/* Poisons the output with NaN (float or half). */
static void setup_poison(cldnnHandle_t h, const conv_tune_setup* t) {
    if (t->dt == CLDNN_DATA_HALF)
        clEnqueueFillBuffer(h->queue, t->out, &(cl_ushort){0x7e00}, sizeof(cl_ushort), 0, t->nout * 2, 0, NULL, NULL);
    else
        clEnqueueFillBuffer(h->queue, t->out, &(cl_float){NAN}, sizeof(cl_float), 0, t->nout * 4, 0, NULL, NULL);
}

/* Sets up direction dir of shape s in data type dt under math with a workspace of ws_size bytes;
** 0 on success (else 1, with a message, and t closed). */
static int setup_open(cldnnHandle_t h, const conv_shape* s, int dir, int nhwc, cldnnMathType_t math,
                      cldnnDataType_t dt, size_t ws_size, conv_tune_setup* t) {
    memset(t, 0, sizeof *t);
    t->dt = dt;
    cldnnTensorFormat_t fmt = nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
    conv_shape_out(s, &t->P, &t->Q);
    cldnnCreateTensorDescriptor(&t->xd);
    cldnnCreateTensorDescriptor(&t->yd);
    cldnnCreateFilterDescriptor(&t->wd);
    cldnnCreateConvolutionDescriptor(&t->cd);
    cldnnSetTensor4dDescriptor(t->xd, fmt, dt, s->n, s->c, s->h, s->w);
    cldnnSetTensor4dDescriptor(t->yd, fmt, dt, s->n, s->k, t->P, t->Q);
    cldnnSetFilter4dDescriptor(t->wd, dt, fmt, s->k, s->c / s->groups, s->r, s->s);
    cldnnSetConvolution2dDescriptor(t->cd, s->pad_h, s->pad_w, s->stride_h, s->stride_w, s->dil_h, s->dil_w,
                                    CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT);
    cldnnSetConvolutionGroupCount(t->cd, s->groups);
    cldnnSetConvolutionMathType(t->cd, math);
    if (cldnn_conv_problem_init(h, (cldnn_conv_dir)dir, t->xd, t->wd, t->cd, t->yd, &t->c.p) != CLDNN_STATUS_SUCCESS) {
        char e[1024];
        cldnnGetLastErrorString(e, sizeof e);
        fprintf(stderr, "cldnn-tune: %s: %s\n", s->name, e);
        setup_close(t);
        return 1;
    }
    ref_conv_init(&t->rc, s->n, s->c, s->h, s->w, s->k, s->r, s->s, s->pad_h, s->pad_w, s->stride_h, s->stride_w,
                  s->dil_h, s->dil_w, s->groups, 0, nhwc);
    size_t nx = (size_t)ref_conv_x_span(&t->rc), nw = (size_t)ref_conv_w_span(&t->rc);
    size_t ny = (size_t)ref_conv_y_span(&t->rc);
    t->hx = malloc(nx * 4);
    t->hw = malloc(nw * 4);
    t->hy = malloc(ny * 4);
    t->nout = dir == 0 ? ny : dir == 1 ? nx : nw;
    t->ref = malloc(t->nout * 4);
    t->got = malloc(t->nout * 4);
    t->scratch = malloc(t->nout * 2);
    if (!t->hx || !t->hw || !t->hy || !t->ref || !t->got || !t->scratch) {
        fprintf(stderr, "cldnn-tune: out of memory\n");
        setup_close(t);
        return 1;
    }
    float* hs[3] = {t->hx, t->hw, t->hy};
    const size_t ns[3] = {nx, nw, ny};
    for (int b = 0; b < 3; ++b)
        for (size_t i = 0; i < ns[b]; ++i)
            hs[b][i] = dt == CLDNN_DATA_HALF ? gemm_half_to_float(gemm_float_to_half(frand())) : frand();
    cl_int err;
    t->c.b.x = gemm_upload(h, dt, t->hx, nx);
    t->c.b.w = gemm_upload(h, dt, t->hw, nw);
    t->c.b.y = gemm_upload(h, dt, t->hy, ny);
    t->c.b.ws_size = ws_size;
    t->c.b.ws = ws_size ? clCreateBuffer(h->context, CL_MEM_READ_WRITE, ws_size, NULL, &err) : NULL;
    t->out = dir == 0 ? t->c.b.y : dir == 1 ? t->c.b.x : t->c.b.w;
    if (!t->c.b.x || !t->c.b.w || !t->c.b.y || (ws_size && !t->c.b.ws)) {
        fprintf(stderr, "cldnn-tune: buffer allocation failed\n");
        setup_close(t);
        return 1;
    }
    return 0;
}

/* t->ref (the default parameters' output) against the double reference on 256 sampled outputs
** (in the tensor's memory), within rtol of each sum's terms (plus the output's rounding, 2^-10 of
** it, for half data); 0 when it agrees. */
static int setup_verify(const conv_tune_setup* t, const conv_shape* s, int dir, double rtol) {
    const ref_conv* rc = &t->rc;
    int Cg = s->c / s->groups;
    for (int i = 0; i < 256; ++i) {
        long long i0 = (long long)(((double)frand() + 1.0) * 0.5 * 1e9), want_idx;
        double want, mag;
        if (dir == 0) {
            long long n = i0 % s->n, k = (i0 / 7) % s->k, oh = (i0 / 131) % t->P, ow = (i0 / 977) % t->Q;
            want = ref_conv_fwd_at(rc, t->hx, t->hw, n, k, oh, ow, &mag);
            want_idx = n * rc->ys[0] + k * rc->ys[1] + oh * rc->ys[2] + ow * rc->ys[3];
        } else if (dir == 1) {
            long long n = i0 % s->n, ch = (i0 / 7) % s->c, ih = (i0 / 131) % s->h, iw = (i0 / 977) % s->w;
            want = ref_conv_bwd_data_at(rc, t->hw, t->hy, n, ch, ih, iw, &mag);
            want_idx = n * rc->xs[0] + ch * rc->xs[1] + ih * rc->xs[2] + iw * rc->xs[3];
        } else {
            long long k = i0 % s->k, ch = (i0 / 7) % Cg, r = (i0 / 131) % s->r, q = (i0 / 977) % s->s;
            want = ref_conv_bwd_filter_at(rc, t->hx, t->hy, k, ch, r, q, &mag);
            want_idx = k * rc->ws[0] + ch * rc->ws[1] + r * rc->ws[2] + q * rc->ws[3];
        }
        const double round = t->dt == CLDNN_DATA_HALF ? ldexp(fabs(want), -10) : 0.0;
        if (fabs((double)t->ref[want_idx] - want) > rtol * mag + round + 1e-6) {
            fprintf(stderr, "cldnn-tune: %s %s: the default parameters give %.9g at %lld, want %.9g\n", s->name,
                    conv_dir_names[dir], t->ref[want_idx], want_idx, want);
            return 1;
        }
    }
    return 0;
}

/* After the default parameters (named ds) ran with status st: their output into t->ref, checked by
** setup_verify with rtol. 0 when both went right; else 1 with a message, and t closed. */
static int setup_reference(cldnnHandle_t h, conv_tune_setup* t, const conv_shape* s, int dir, cldnnStatus_t st,
                           const char* ds, double rtol) {
    if (st != CLDNN_STATUS_SUCCESS) {
        char e[2048];
        cldnnGetLastErrorString(e, sizeof e);
        fprintf(stderr, "cldnn-tune: the default %s fails on %s: %s\n", ds, s->name, e);
        setup_close(t);
        return 1;
    }
    setup_read(h, t, t->ref);
    if (setup_verify(t, s, dir, rtol)) {
        setup_close(t);
        return 1;
    }
    return 0;
}

/* A candidate's output (in t->got) against the default's (t->ref): the largest difference, or
** INFINITY for a NaN. */
static double setup_diff(const conv_tune_setup* t) {
    double worst = 0.0;
    for (size_t i = 0; i < t->nout; ++i) {
        double d = fabs((double)t->got[i] - (double)t->ref[i]);
        if (!(d <= worst))
            worst = isnan(d) ? INFINITY : d;
    }
    return worst;
}

/* The largest |output| of the default's run (the candidates' tolerance scale). */
static double setup_range(const conv_tune_setup* t) {
    double cmax = 0.0;
    for (size_t i = 0; i < t->nout; ++i)
        cmax = fmax(cmax, fabs(t->ref[i]));
    return cmax > 0 ? cmax : 1.0;
}

/* One parameter search's account: its candidates, how many were tried, rejected (output off the
** reference's) and failed (a run or its timing), and the best time so far (seconds). */
typedef struct {
    size_t n, tried, rejected, failed;
    double t_best, flops;
    int quiet;
} search_state;

/* Candidate ci (named ps), whose output differs from the reference's by worst: 1 when that is
** within tol (the candidate is then timed), else 0, counted as rejected and printed. */
static int search_accept(search_state* st, size_t ci, const char* ps, double worst, double tol) {
    st->tried++;
    if (worst <= tol)
        return 1;
    st->rejected++;
    fprintf(stderr, "  [%zu/%zu] %-34s REJECTED (max diff %.3g > %.3g)\n", ci + 1, st->n, ps, worst, tol);
    return 0;
}

/* Candidate ci's time t (seconds; <= 0 a failure): 1 when it is the best so far. */
static int search_timed(search_state* st, size_t ci, const char* ps, double t) {
    if (t <= 0) {
        st->failed++;
        cldnn_error_clear();
        return 0;
    }
    const int better = t < st->t_best;
    if (better)
        st->t_best = t;
    if (!st->quiet)
        fprintf(stderr, "  [%zu/%zu] %-34s %8.3f ms %7.2f TFLOP/s (best %.2f)\n", ci + 1, st->n, ps, t * 1e3,
                st->flops / t * 1e-12, st->flops / st->t_best * 1e-12);
    return better;
}

/* Candidate ci (named ps), run by fn(h, ctx) on a NaN-poisoned output: compared with the
** reference (search_accept with tol) and, when it matches, timed (search_timed). 1 when it is the
** best so far; a failed run counts as failed. */
static int search_candidate(cldnnHandle_t h, conv_tune_setup* t, search_state* st, size_t ci, const char* ps,
                            run_fn fn, const void* ctx, double tol, int iters) {
    setup_poison(h, t);
    if (fn(h, ctx) != CLDNN_STATUS_SUCCESS) {
        st->failed++;
        cldnn_error_clear();
        return 0;
    }
    setup_read(h, t, t->got);
    return search_accept(st, ci, ps, setup_diff(t), tol) && search_timed(st, ci, ps, time_calls(h, fn, ctx, iters));
}

/* The search over st->n candidates of elem bytes each at space, each named by fmt and run by
** fn(h, ctx) once *slot points at it (search_candidate with tol), until budget seconds have passed.
** Returns the index of the best when one beat the defaults (st->t_best), else -1. */
static long search_run(cldnnHandle_t h, conv_tune_setup* t, search_state* st, const void* space, size_t elem,
                       void (*fmt)(const void* q, char* buf, size_t size), run_fn fn, const void* ctx,
                       const void** slot, double tol, int iters, double budget) {
    long best = -1;
    const double start = now_s();
    for (size_t ci = 0; ci < st->n && now_s() - start <= budget; ++ci) {
        const void* q = (const char*)space + ci * elem;
        char ps[96];
        fmt(q, ps, sizeof ps);
        *slot = q;
        if (search_candidate(h, t, st, ci, ps, fn, ctx, tol, iters))
            best = (long)ci;
    }
    if (now_s() - start > budget)
        fprintf(stderr, "  budget of %.0f s reached before the %zu candidates were tried\n", budget, st->n);
    return best;
}

/* Before a search of solver (tuning-db name) on direction dir of shape s, set up in t: 1 when the
** solver does not apply (applies 0) or, with db, the user tuning db has a record for the problem
** (resume); either is printed and t closed. */
static int search_skip(cldnnHandle_t h, conv_tune_setup* t, const conv_shape* s, int dir, int nhwc,
                       const char* solver, int applies, int db) {
    char rec[128];
    if (!applies) {
        fprintf(stderr, "  %s %s: %s does not apply, skipped\n", s->name, conv_dir_names[dir], solver);
    } else if (db && db_user_record(h, t->c.p.key, solver, rec, sizeof rec)) {
        printf("resumed conv-%s %s %s %s %s\n", conv_dir_names[dir], s->name, nhwc ? "NHWC" : "NCHW", solver, rec);
    } else {
        return 0;
    }
    setup_close(t);
    return 1;
}

/* After a search of solver on direction dir of shape s: its result line (best bs, defaults ds at
** t_def seconds) and, with db, the winner recorded in the user tuning db under the problem's key
** and the solver; closes t. */
static void search_report(cldnnHandle_t h, conv_tune_setup* t, const conv_shape* s, int dir, int nhwc,
                          const char* solver, const search_state* st, const char* bs, const char* ds, double t_def,
                          int db) {
    printf("best conv-%s %s %s %s %s %.2f TFLOP/s (default %s %.2f TFLOP/s, x%.2f) [%zu tried, %zu rejected, "
           "%zu failed]\n",
           conv_dir_names[dir], s->name, nhwc ? "NHWC" : "NCHW", solver, bs, st->flops / st->t_best * 1e-12, ds,
           st->flops / t_def * 1e-12, t_def / st->t_best, st->tried, st->rejected, st->failed);
    if (db) {
        cldnn_tunedb_put(h, t->c.p.key, solver, bs);
        printf("    recorded %s %s -> %s\n", t->c.p.key, solver, bs);
    }
    fflush(stdout);
    setup_close(t);
}

/* Tunes the implicit GEMM of direction dir of shape s; 0 on success. */
static int tune_conv(cldnnHandle_t h, const conv_shape* s, int dir, int nhwc, double budget, int iters, int quiet) {
    conv_tune_setup t;
    if (setup_open(h, s, dir, nhwc, CLDNN_DEFAULT_MATH, CLDNN_DATA_FLOAT, dir == 2 ? (size_t)256 << 20 : 0, &t))
        return 1;
    conv_run_ctx* c = &t.c;
    cldnn_gemm_params def;
    cldnn_conv_igemm_defaults(&c->p, &h->prof, &def);
    char ds[96];
    cldnn_gemm_params_format(&def, ds, sizeof ds);
    if (setup_reference(h, &t, s, dir, cldnn_conv_igemm_run(h, &c->p, &def, &c->b), ds, 1e-5))
        return 1;
    double t_def = time_conv(h, c, &def, iters);
    double flops = conv_shape_flops(s);
    int64_t gm, gn, gk;
    cldnn_conv_gemm_dims(&c->p, &gm, &gn, &gk);
    const double cmax = setup_range(&t);

    static cldnn_gemm_params space[4096];
    size_t nspace = cldnn_gemm_param_space(&h->prof, space, 4096);
    if (nspace > 4096)
        nspace = 4096;
    cldnn_gemm_params best = def;
    double start = now_s();
    search_state st = {nspace, 0, 0, 0, t_def, flops, quiet};
    long long mcap = 16, ncap = 16;
    while (mcap < gm)
        mcap *= 2;
    while (ncap < gn)
        ncap *= 2;
    for (size_t ci = 0; ci < nspace; ++ci) {
        cldnn_gemm_params q = space[ci];
        if (q.mwg > 2 * mcap || q.nwg > 2 * ncap)
            continue;
        if (now_s() - start > budget) {
            fprintf(stderr, "  budget of %.0f s reached after %zu of %zu candidates\n", budget, ci, nspace);
            break;
        }
        q.vwa = 1; /* gathered operands load one element at a time */
        if (dir == 2)
            q.vwb = 1;
        q.splitk = cldnn_conv_igemm_splits(&c->p, &q);
        char ps[96];
        cldnn_gemm_params_format(&q, ps, sizeof ps);
        setup_poison(h, &t);
        if (cldnn_conv_igemm_run(h, &c->p, &q, &c->b) != CLDNN_STATUS_SUCCESS) {
            st.failed++;
            cldnn_error_clear();
            continue;
        }
        setup_read(h, &t, t.got);
        if (search_accept(&st, ci, ps, setup_diff(&t), 1e-5 * sqrt((double)gk) * cmax) &&
            search_timed(&st, ci, ps, time_conv(h, c, &q, iters)))
            best = q;
    }
    char bs[96];
    cldnn_gemm_params_format(&best, bs, sizeof bs);
    cldnn_gemm_problem g;
    memset(&g, 0, sizeof g);
    g.m = gm;
    g.n = gn;
    g.k = gk;
    const char* cls = cldnn_gemm_class_name(cldnn_gemm_classify(&g));
    char ucls[16];
    size_t ul = 0;
    for (; cls[ul] && ul + 1 < sizeof ucls; ++ul)
        ucls[ul] = (char)(cls[ul] >= 'a' && cls[ul] <= 'z' ? cls[ul] - 32 : cls[ul]);
    ucls[ul] = 0;
    printf("best conv-%s %s %s class %s %s %.2f TFLOP/s (default %s %.2f TFLOP/s, x%.2f) [%zu tried, %zu rejected, "
           "%zu failed]\n",
           conv_dir_names[dir], s->name, nhwc ? "NHWC" : "NCHW", cls, bs, flops / st.t_best * 1e-12, ds,
           flops / t_def * 1e-12, t_def / st.t_best, st.tried, st.rejected, st.failed);
    printf("    table row: {\"%s\", %d, CLDNN_GEMM_%s, {%d, %d, %d, %d, %d, %d, %d, 1, %d, %d, %d, 0}}\n", h->prof.name,
           dir, ucls, best.mwg, best.nwg, best.kwg, best.mdimc, best.ndimc, best.vwm, best.vwn, best.vwb, best.pada,
           best.padb);
    fflush(stdout);
    setup_close(&t);
    return 0;
}

/* What a searched solver's run reads: the problem and buffers, the parameter set (a
** cldnn_wino_params or a cldnn_gemm_mma_params) and the Winograd tile size. */
typedef struct {
    const conv_run_ctx* c;
    int wm;
    const void* q;
} search_ctx;

static void format_wino(const void* q, char* buf, size_t size) {
    cldnn_wino_params_format((const cldnn_wino_params*)q, buf, size);
}

static cldnnStatus_t run_wino_ctx(cldnnHandle_t h, const void* ctx) {
    const search_ctx* w = (const search_ctx*)ctx;
    return cldnn_conv_wino_fused_run_params(h, &w->c->p, w->wm, w->q, &w->c->b);
}

/* Tunes the fused Winograd kernel F(wm x wm, 3x3) of direction dir (forward or backward-data) of
** shape s over cldnn_wino_param_space: the defaults first, checked against the double reference
** (rtol 1e-4: Winograd's transforms), then every candidate against the defaults' output within
** 1e-5 * sqrt(9 * channels) of its range, timed as the implicit GEMM's. With db the winner (the
** defaults when nothing beat them) is recorded in the user tuning db under the problem's key and
** cldnn_wino_fused_solver_name(wm), where the library's fused solver finds it; a problem with a
** user record is not searched again. A shape the fused kernel does not take is skipped. */
static int tune_conv_wino(cldnnHandle_t h, const conv_shape* s, int dir, int nhwc, int wm, double budget, int iters,
                          int quiet, int db) {
    conv_tune_setup t;
    const size_t ws = (size_t)(wm + 2) * (size_t)(wm + 2) * (size_t)s->c * (size_t)s->k * 4u;
    /* F(2x2) runs where F(4x4) does not apply: under FMA_MATH, whose problems' keys say math3 */
    if (setup_open(h, s, dir, nhwc, wm == 2 ? CLDNN_FMA_MATH : CLDNN_DEFAULT_MATH, CLDNN_DATA_FLOAT, ws, &t))
        return 1;
    conv_run_ctx* c = &t.c;
    const char* solver = cldnn_wino_fused_solver_name(wm);
    if (search_skip(h, &t, s, dir, nhwc, solver,
                    (wm == 4 ? cldnn_conv_winof4_applicable : cldnn_conv_winof2_applicable)(&c->p, &h->prof), db))
        return 0;
    cldnn_wino_params def;
    (wm == 4 ? cldnn_conv_winof4_defaults : cldnn_conv_winof2_defaults)(&c->p, &h->prof, &def);
    char ds[64];
    cldnn_wino_params_format(&def, ds, sizeof ds);
    if (setup_reference(h, &t, s, dir, cldnn_conv_wino_fused_run_params(h, &c->p, wm, &def, &c->b), ds, 1e-4))
        return 1;
    search_ctx w = {c, wm, &def};
    const double t_def = time_calls(h, run_wino_ctx, &w, iters), flops = conv_shape_flops(s);
    const double tol = 1e-5 * sqrt(9.0 * (dir == 0 ? s->c : s->k)) * setup_range(&t);
    static cldnn_wino_params space[4096];
    size_t nspace = cldnn_wino_param_space(wm, &h->prof, space, 4096);
    if (nspace > 4096)
        nspace = 4096;
    search_state st = {nspace, 0, 0, 0, t_def, flops, quiet};
    const long b = search_run(h, &t, &st, space, sizeof space[0], format_wino, run_wino_ctx, &w, &w.q, tol, iters,
                              budget);
    char bs[64];
    cldnn_wino_params_format(b < 0 ? &def : &space[b], bs, sizeof bs);
    search_report(h, &t, s, dir, nhwc, solver, &st, bs, ds, t_def, db);
    return 0;
}

static void format_mma(const void* q, char* buf, size_t size) {
    cldnn_gemm_mma_params_format((const cldnn_gemm_mma_params*)q, buf, size);
}

static cldnnStatus_t run_mma_ctx(cldnnHandle_t h, const void* ctx) {
    const search_ctx* m = (const search_ctx*)ctx;
    return cldnn_conv_igemm_mma_run(h, &m->c->p, m->q, &m->c->b);
}

/* Tunes the tensor-core implicit GEMM (TENSOR_OP_MATH: TF32 for FLOAT dt, FP16 for HALF) of
** direction dir of shape s over cldnn_conv_igemm_mma_param_space: the defaults first, checked
** against the double reference within the FP32 tolerance plus the TF32 rounding of both inputs
** (rtol 2^-10 + 1e-5; HALF: truncating sums, rtol 4e-5, plus the output's rounding), then every
** candidate against the defaults' output within 1e-5 * sqrt(reduction) of its range (the inputs
** round to TF32 alike; only the order of the sums differs; HALF adds 2^-10 of the range, the
** output's rounding), blocks more than twice the product skipped. With db the winner (the defaults when nothing beat them) is recorded in the user tuning
** db under the problem's key and the direction's solver name (conv_<dir>_igemm_mma), where the
** library's solver takes it; a problem with a user record is not searched again. A problem the
** solver does not take (no TF32 tensor cores, a layer narrower than 8) is skipped. */
static int tune_conv_mma(cldnnHandle_t h, const conv_shape* s, int dir, int nhwc, cldnnDataType_t dt, double budget,
                         int iters, int quiet, int db) {
    conv_tune_setup t;
    if (setup_open(h, s, dir, nhwc, CLDNN_TENSOR_OP_MATH, dt, dir == 2 ? (size_t)256 << 20 : 0, &t))
        return 1;
    const int half = dt == CLDNN_DATA_HALF;
    conv_run_ctx* c = &t.c;
    const char* solver = cldnn_conv_igemm_mma_solver_name((cldnn_conv_dir)dir);
    if (search_skip(h, &t, s, dir, nhwc, solver, cldnn_conv_igemm_mma_applicable(&c->p, &h->prof), db))
        return 0;
    cldnn_gemm_mma_params def;
    cldnn_conv_igemm_mma_defaults(&c->p, &h->prof, &def);
    char ds[96];
    cldnn_gemm_mma_params_format(&def, ds, sizeof ds);
    if (setup_reference(h, &t, s, dir, cldnn_conv_igemm_mma_run(h, &c->p, &def, &c->b), ds,
                        half ? 4e-5 : 2.0 / 2048.0 + 1e-5))
        return 1;
    search_ctx m = {c, 0, &def};
    const double t_def = time_calls(h, run_mma_ctx, &m, iters);
    int64_t gm, gn, gk;
    cldnn_conv_gemm_dims(&c->p, &gm, &gn, &gk);
    const double tol = (1e-5 * sqrt((double)gk) + (half ? 1.0 / 1024.0 : 0.0)) * setup_range(&t);
    static cldnn_gemm_mma_params space[4096];
    size_t nspace = cldnn_conv_igemm_mma_param_space(&c->p, &h->prof, space, 4096);
    if (nspace > 4096)
        nspace = 4096;
    /* blocks more than twice the product (rounded up to a power of two) only compute padding */
    long long mcap = 16, ncap = 16;
    while (mcap < gm)
        mcap *= 2;
    while (ncap < gn)
        ncap *= 2;
    size_t kept = 0;
    for (size_t i = 0; i < nspace; ++i)
        if (space[i].bm <= 2 * mcap && space[i].bn <= 2 * ncap)
            space[kept++] = space[i];
    search_state st = {kept, 0, 0, 0, t_def, conv_shape_flops(s), quiet};
    const long b = search_run(h, &t, &st, space, sizeof space[0], format_mma, run_mma_ctx, &m, &m.q, tol, iters,
                              budget);
    char bs[96];
    cldnn_gemm_mma_params_format(b < 0 ? &def : &space[b], bs, sizeof bs);
    search_report(h, &t, s, dir, nhwc, solver, &st, bs, ds, t_def, db);
    return 0;
}

static int main_conv(int argc, char** argv) {
    const char* path = NULL;
    int mask = 7, nhwc = 0, iters = 50, quiet = 0, wm = 4, db = 0;
    int which = 0; /* -S: 0 igemm, 1 winograd, 2 igemm_mma */
    cldnnDataType_t dt = CLDNN_DATA_FLOAT;
    int bad_dt = 0; /* -d neither float nor half */
    double budget = 60.0;
    for (int i = 2; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0) {
            quiet = 1;
            continue;
        }
        if (strcmp(a, "--db") == 0) {
            db = 1;
            continue;
        }
        if (v == NULL) {
            fprintf(stderr, "cldnn-tune: %s needs a value\n", a);
            return 2;
        }
        ++i;
        if (strcmp(a, "--shapes") == 0)
            path = v;
        else if (strcmp(a, "-F") == 0)
            mask = atoi(v);
        else if (strcmp(a, "-L") == 0)
            nhwc = strcmp(v, "NHWC") == 0;
        else if (strcmp(a, "--budget") == 0)
            budget = atof(v);
        else if (strcmp(a, "--iters") == 0)
            iters = atoi(v);
        else if (strcmp(a, "-S") == 0 || strcmp(a, "--solver") == 0)
            which = strcmp(v, "winograd") == 0 ? 1 : strcmp(v, "igemm_mma") == 0 ? 2 : strcmp(v, "igemm") == 0 ? 0 : -1;
        else if (strcmp(a, "--tile") == 0)
            wm = atoi(v);
        else if (strcmp(a, "-d") == 0) {
            dt = strcmp(v, "half") == 0 ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
            bad_dt = dt == CLDNN_DATA_FLOAT && strcmp(v, "float") != 0;
        } else {
            fprintf(stderr, "cldnn-tune: unknown flag %s\n", a);
            return 2;
        }
    }
    if (path == NULL || mask < 1 || mask > 7 || which < 0 || (wm != 2 && wm != 4) || (db && which == 0) ||
        bad_dt || (dt == CLDNN_DATA_HALF && which != 2)) {
        fprintf(stderr, "usage: cldnn-tune conv --shapes FILE [-F 1..7] [-L NCHW|NHWC] [-S igemm|winograd|igemm_mma] "
                        "[--tile 2|4] [--db] [-d float|half] [--budget S] [--iters N] [--quiet]\n"
                        "       (--tile with -S winograd, --db with -S winograd or igemm_mma, -d half with -S "
                        "igemm_mma)\n");
        return 2;
    }
    const int wino = which == 1;
    conv_shape* shapes = NULL;
    int ns = conv_shapes_read(path, &shapes);
    if (ns < 0)
        return 2;
    cldnnHandle_t h;
    if (cldnnCreateDefault(&h) != CLDNN_STATUS_SUCCESS) {
        char e[1024];
        cldnnGetLastErrorString(e, sizeof e);
        fprintf(stderr, "cldnn-tune: %s\n", e);
        return 1;
    }
    cldnn_gemm_params tmp[1];
    cldnn_wino_params wtmp[1];
    cldnn_gemm_mma_params mtmp[1];
    /* the tensor-core space depends on the problem's transposes: the sets valid for both, before the
    ** per-problem check */
    printf("# cldnn-tune conv %s on %s (driver %s, %u compute units); %s data; space of %zu candidates; %s\n",
           wino ? cldnn_wino_fused_solver_name(wm) : which == 2 ? "igemm_mma" : "igemm", h->prof.name, h->prof.driver,
           (unsigned)h->prof.compute_units, cldnn_dtype_name(dt),
           wino        ? cldnn_wino_param_space(wm, &h->prof, wtmp, 0)
           : which == 2 ? cldnn_gemm_mma_param_space(&h->prof, dt, -1, -1, mtmp, 0)
                        : cldnn_gemm_param_space(&h->prof, tmp, 0),
           path);
    int status = 0;
    for (int i = 0; i < ns; ++i)
        for (int d = 0; d < 3; ++d)
            if (mask & (1 << d) && !(wino && d == 2)) {
                fprintf(stderr, "shape %d/%d: %s %s\n", i + 1, ns, shapes[i].name, conv_dir_names[d]);
                status |= wino         ? tune_conv_wino(h, &shapes[i], d, nhwc, wm, budget, iters, quiet, db)
                          : which == 2 ? tune_conv_mma(h, &shapes[i], d, nhwc, dt, budget, iters, quiet, db)
                                       : tune_conv(h, &shapes[i], d, nhwc, budget, iters, quiet);
            }
    cldnnDestroy(h);
    free(shapes);
    return status;
}

/* ------------------------------------------------------------------ db: a shape list into the tuning db */

/* One layer of `cldnn-tune db`: its descriptors and buffers (x, w, y shared by the three
** directions: each direction's output is another's input, all finite) and a workspace. */
typedef struct {
    cldnnTensorDescriptor_t xd, yd;
    cldnnFilterDescriptor_t wd;
    cldnnConvolutionDescriptor_t cd;
    cl_mem x, w, y, ws;
    size_t ws_size;
} db_layer;

/* The tunable solver of each direction (src/conv/solvers.c) and the algorithm that runs it. */
static const char* const db_solver_names[3] = {"conv_fwd_igemm", "conv_bwd_data_igemm", "conv_bwd_filter_igemm"};

/* Algorithm names by enum value, per direction (cldnn.h's order). */
static const char* const db_algo_names[3][8] = {
    {"implicit_gemm", "implicit_precomp_gemm", "gemm", "direct", "fft", "fft_tiling", "winograd", "winograd_nonfused"},
    {"algo_0", "algo_1", "fft", "fft_tiling", "winograd", "winograd_nonfused", NULL, NULL},
    {"algo_0", "algo_1", "fft", "algo_3", "winograd", "winograd_nonfused", "fft_tiling", NULL}};

static const char* db_algo_name(int dir, int a) {
    return a >= 0 && a < 8 && db_algo_names[dir][a] ? db_algo_names[dir][a] : "?";
}

/* Prints a failed call with the library's last error; returns 1. */
static int db_fail(const char* what, cldnnStatus_t st) {
    char e[1024];
    cldnnGetLastErrorString(e, sizeof e);
    fprintf(stderr, "cldnn-tune: %s: %s: %s\n", what, cldnnGetErrorString(st), e);
    return 1;
}

/* A device buffer of n floats from frand(); NULL on failure. */
static cl_mem db_random_buffer(cldnnHandle_t h, size_t n) {
    float* v = malloc(n * 4);
    if (v == NULL)
        return NULL;
    for (size_t i = 0; i < n; ++i)
        v[i] = frand();
    cl_int err;
    cl_mem m = clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, v, &err);
    free(v);
    return m;
}

/* Workspace bytes of algorithm a of direction dir; 0 with *ok = 0 when it does not apply. */
static size_t db_ws(cldnnHandle_t h, const db_layer* L, int dir, int a, int* ok) {
    size_t b = 0;
    cldnnStatus_t st =
        dir == 0 ? cldnnGetConvolutionForwardWorkspaceSize(h, L->xd, L->wd, L->cd, L->yd, (cldnnConvolutionFwdAlgo_t)a, &b)
        : dir == 1 ? cldnnGetConvolutionBackwardDataWorkspaceSize(h, L->wd, L->yd, L->cd, L->xd,
                                                                  (cldnnConvolutionBwdDataAlgo_t)a, &b)
                   : cldnnGetConvolutionBackwardFilterWorkspaceSize(h, L->xd, L->yd, L->cd, L->wd,
                                                                    (cldnnConvolutionBwdFilterAlgo_t)a, &b);
    cldnn_error_clear();
    *ok = st == CLDNN_STATUS_SUCCESS;
    return *ok ? b : 0;
}

/* Get_v7's first algorithm for direction dir under the handle's find mode; -1 on failure. */
static int db_get(cldnnHandle_t h, const db_layer* L, int dir) {
    int n = 0;
    cldnnStatus_t st;
    if (dir == 0) {
        cldnnConvolutionFwdAlgoPerf_t p;
        st = cldnnGetConvolutionForwardAlgorithm_v7(h, L->xd, L->wd, L->cd, L->yd, 1, &n, &p);
        return st || n < 1 ? -1 : (int)p.algo;
    }
    if (dir == 1) {
        cldnnConvolutionBwdDataAlgoPerf_t p;
        st = cldnnGetConvolutionBackwardDataAlgorithm_v7(h, L->wd, L->yd, L->cd, L->xd, 1, &n, &p);
        return st || n < 1 ? -1 : (int)p.algo;
    }
    cldnnConvolutionBwdFilterAlgoPerf_t p;
    st = cldnnGetConvolutionBackwardFilterAlgorithm_v7(h, L->xd, L->yd, L->cd, L->wd, 1, &n, &p);
    return st || n < 1 ? -1 : (int)p.algo;
}

/* Find (the handle's mode) for direction dir within L's workspace. */
static cldnnStatus_t db_find(cldnnHandle_t h, const db_layer* L, int dir) {
    int n = 0;
    if (dir == 0) {
        cldnnConvolutionFwdAlgoPerf_t p[16];
        return cldnnFindConvolutionForwardAlgorithmEx(h, L->xd, L->x, 0, L->wd, L->w, 0, L->cd, L->yd, L->y, 0, 16, &n,
                                                      p, L->ws, 0, L->ws_size);
    }
    if (dir == 1) {
        cldnnConvolutionBwdDataAlgoPerf_t p[16];
        return cldnnFindConvolutionBackwardDataAlgorithmEx(h, L->wd, L->w, 0, L->yd, L->y, 0, L->cd, L->xd, L->x, 0, 16,
                                                           &n, p, L->ws, 0, L->ws_size);
    }
    cldnnConvolutionBwdFilterAlgoPerf_t p[16];
    return cldnnFindConvolutionBackwardFilterAlgorithmEx(h, L->xd, L->x, 0, L->yd, L->y, 0, L->cd, L->wd, L->w, 0, 16,
                                                         &n, p, L->ws, 0, L->ws_size);
}

/* What a timed public call needs. */
typedef struct {
    const db_layer* L;
    int dir, algo;
    size_t ws;
} db_call;

static cldnnStatus_t run_db_call(cldnnHandle_t h, const void* ctx) {
    const db_call* c = (const db_call*)ctx;
    const db_layer* L = c->L;
    const float one = 1.0f, zero = 0.0f;
    if (c->dir == 0)
        return cldnnConvolutionForward(h, &one, L->xd, L->x, 0, L->wd, L->w, 0, L->cd,
                                       (cldnnConvolutionFwdAlgo_t)c->algo, L->ws, 0, c->ws, &zero, L->yd, L->y, 0);
    if (c->dir == 1)
        return cldnnConvolutionBackwardData(h, &one, L->wd, L->w, 0, L->yd, L->y, 0, L->cd,
                                            (cldnnConvolutionBwdDataAlgo_t)c->algo, L->ws, 0, c->ws, &zero, L->xd,
                                            L->x, 0);
    return cldnnConvolutionBackwardFilter(h, &one, L->xd, L->x, 0, L->yd, L->y, 0, L->cd,
                                          (cldnnConvolutionBwdFilterAlgo_t)c->algo, L->ws, 0, c->ws, &zero, L->wd,
                                          L->w, 0);
}

/* Median seconds per call of algorithm a of direction dir through the public API; -1 on failure. */
static double db_time_algo(cldnnHandle_t h, const db_layer* L, int dir, int a, int iters) {
    int ok = 0;
    db_call c = {L, dir, a, db_ws(h, L, dir, a, &ok)};
    if (!ok || c.ws > L->ws_size)
        return -1.0;
    double t = time_calls(h, run_db_call, &c, iters);
    cldnn_error_clear();
    return t;
}

/* Creates L for shape s: descriptors, buffers, and a workspace of the largest size any applicable
** algorithm of the directions in mask needs, at most ws_max bytes. */
static int db_layer_init(cldnnHandle_t h, const conv_shape* s, int mask, size_t ws_max, db_layer* L) {
    memset(L, 0, sizeof *L);
    int P = 0, Q = 0;
    conv_shape_out(s, &P, &Q);
    cldnnStatus_t st = conv_descs_create(s, &L->xd, &L->yd, &L->wd, &L->cd);
    if (st != CLDNN_STATUS_SUCCESS)
        return db_fail("descriptors", st);
    L->x = db_random_buffer(h, (size_t)s->n * s->c * s->h * s->w);
    L->w = db_random_buffer(h, (size_t)s->k * (s->c / s->groups) * s->r * s->s);
    L->y = db_random_buffer(h, (size_t)s->n * s->k * P * Q);
    for (int d = 0; d < 3; ++d)
        for (int a = 0; a < 8 && (mask & (1 << d)); ++a) {
            int ok = 0;
            size_t b = db_ws(h, L, d, a, &ok);
            if (ok && b <= ws_max && b > L->ws_size)
                L->ws_size = b;
        }
    cl_int err = CL_SUCCESS;
    if (L->ws_size)
        L->ws = clCreateBuffer(h->context, CL_MEM_READ_WRITE, L->ws_size, NULL, &err);
    if (!L->x || !L->w || !L->y || (L->ws_size && !L->ws)) {
        fprintf(stderr, "cldnn-tune: %s: buffer allocation failed\n", s->name);
        return 1;
    }
    return 0;
}

static void db_layer_free(db_layer* L) {
    cl_mem m[] = {L->x, L->w, L->y, L->ws};
    for (int i = 0; i < 4; ++i)
        if (m[i])
            clReleaseMemObject(m[i]);
    cldnnDestroyTensorDescriptor(L->xd);
    cldnnDestroyTensorDescriptor(L->yd);
    cldnnDestroyFilterDescriptor(L->wd);
    cldnnDestroyConvolutionDescriptor(L->cd);
}

/* Median seconds per call of the implicit GEMM with parameters q on p (white-box, as `conv`). */
static double db_time_igemm(cldnnHandle_t h, const cldnn_conv_problem* p, const db_layer* L,
                            const cldnn_gemm_params* q, int iters) {
    conv_run_ctx c;
    memset(&c, 0, sizeof c);
    c.p = *p;
    c.b.x = L->x;
    c.b.w = L->w;
    c.b.y = L->y;
    c.b.ws = L->ws;
    c.b.ws_size = L->ws_size;
    double t = time_conv(h, &c, q, iters);
    cldnn_error_clear();
    return t;
}

/* The user tuning db's record of (problem key, solver), never the system tables': a problem the
** shipped tables cover is still tuned here (resume looks at this run's own records). */
static int db_user_record(cldnnHandle_t h, const char* key, const char* solver, char* value, size_t size) {
    char k[512];
    snprintf(k, sizeof k, "%s|%s", key, solver);
    return cldnn_db_get(h->db_dir, h->prof.key, CLDNN_DB_TUNE, k, value, size);
}

/* Options of `cldnn-tune db`. */
typedef struct {
    const char *path, *prefix, *md;
    int mask, batch, iters;
    double budget, per_problem;
    size_t ws_max;
} db_opts;

/* One markdown row of the per-layer table. */
static void db_md_row(FILE* md, const conv_shape* s, int dir, const char* status, const char* dp, double t_def,
                      const char* bp, double t_tuned, int a_h, double t_h, int a_g, double t_g) {
    if (md == NULL)
        return;
    fprintf(md, "| %s | %s | %s | %s | %.4g | %s | %.4g | %.2f | %s %.4g | %s %.4g | %.2f |\n", s->name,
            conv_dir_names[dir], status, dp, t_def * 1e3, bp, t_tuned * 1e3, t_tuned > 0 ? t_def / t_tuned : 0.0,
            db_algo_name(dir, a_h), t_h * 1e3, db_algo_name(dir, a_g), t_g * 1e3, t_g > 0 ? t_h / t_g : 0.0);
}

/* Tunes, times and reports direction dir of shape s (the idx-th of total problems); returns 1 when
** the time budget stopped it before its search, else 0 (failures are reported and skipped). */
static int db_problem(cldnnHandle_t h, const conv_shape* s, int dir, db_layer* L, const db_opts* o, double t_end,
                      int idx, int total, FILE* md, int* failures) {
    cldnn_conv_problem p;
    if (cldnn_conv_problem_init(h, (cldnn_conv_dir)dir, L->xd, L->wd, L->cd, L->yd, &p) != CLDNN_STATUS_SUCCESS) {
        ++*failures;
        return db_fail(s->name, CLDNN_STATUS_BAD_PARAM);
    }
    const char* solver = db_solver_names[dir];
    if (!cldnn_conv_igemm_applicable(&p, &h->prof)) {
        printf("[%d/%d] %s %s: no tunable solver applies, skipped\n", idx, total, p.key, s->name);
        db_md_row(md, s, dir, "no tunable solver", "-", 0, "-", 0, -1, 0, -1, 0);
        return 0;
    }
    /* the heuristic: the default parameters, and Get's algorithm with no database */
    cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC);
    cldnn_gemm_params def, tuned;
    cldnn_conv_igemm_defaults(&p, &h->prof, &def);
    char dp[96], bp[96], rec[128];
    cldnn_gemm_params_format(&def, dp, sizeof dp);
    int a_h = db_get(h, L, dir);
    cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC);
    const char* status = "resumed";
    if (!db_user_record(h, p.key, solver, rec, sizeof rec)) {
        double left = t_end - now_s();
        if (left < 1.0)
            return 1;
        char b[32];
        snprintf(b, sizeof b, "%d", (int)(left < o->per_problem ? left : o->per_problem));
        setenv("CLDNN_TUNE_BUDGET", b, 1);
        cldnnSetFindMode(h, CLDNN_FIND_MODE_TUNE);
        cldnnStatus_t st = db_find(h, L, dir);
        cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC);
        if (st != CLDNN_STATUS_SUCCESS || !db_user_record(h, p.key, solver, rec, sizeof rec)) {
            if (st != CLDNN_STATUS_SUCCESS)
                db_fail("Find in TUNE mode", st);
            printf("[%d/%d] %s %s: tuning recorded nothing\n", idx, total, p.key, s->name);
            db_md_row(md, s, dir, "FAILED", dp, 0, "-", 0, a_h, 0, -1, 0);
            ++*failures;
            return 0;
        }
        status = "tuned";
    }
    if (!cldnn_gemm_params_parse(rec, &tuned)) {
        printf("[%d/%d] %s %s: the tuning record \"%s\" does not parse\n", idx, total, p.key, s->name, rec);
        ++*failures;
        return 0;
    }
    cldnn_gemm_params_format(&tuned, bp, sizeof bp);
    /* timed back to back, after the search: default and tuned parameters (one time when they are
    ** the same), then Get's algorithm without a database and with the records Find just made */
    double t_def = db_time_igemm(h, &p, L, &def, o->iters);
    double t_tuned = strcmp(dp, bp) == 0 ? t_def : db_time_igemm(h, &p, L, &tuned, o->iters);
    int a_g = db_get(h, L, dir);
    double t_g = db_time_algo(h, L, dir, a_g, o->iters);
    cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC); /* the heuristic's run ignores the tuning db */
    double t_h = db_time_algo(h, L, dir, a_h, o->iters);
    cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC);
    printf("[%d/%d] %s %s %s best %s %.4g ms (heuristic %s %.4g ms, x%.2f); layer: heuristic %s %.4g ms, "
           "now %s %.4g ms (x%.2f)\n",
           idx, total, p.key, s->name, status, bp, t_tuned * 1e3, dp, t_def * 1e3, t_tuned > 0 ? t_def / t_tuned : 0.0,
           db_algo_name(dir, a_h), t_h * 1e3, db_algo_name(dir, a_g), t_g * 1e3, t_g > 0 ? t_h / t_g : 0.0);
    fflush(stdout);
    db_md_row(md, s, dir, status, dp, t_def, bp, t_tuned, a_h, t_h, a_g, t_g);
    return 0;
}

static int main_db(int argc, char** argv) {
    db_opts o = {NULL, "", NULL, 7, 0, 50, 3600.0, 60.0, (size_t)1 << 30};
    for (int i = 2; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v == NULL) {
            fprintf(stderr, "cldnn-tune: %s needs a value\n", a);
            return 2;
        }
        ++i;
        if (strcmp(a, "--shapes") == 0)
            o.path = v;
        else if (strcmp(a, "--prefix") == 0)
            o.prefix = v;
        else if (strcmp(a, "--md") == 0)
            o.md = v;
        else if (strcmp(a, "-F") == 0)
            o.mask = atoi(v);
        else if (strcmp(a, "--batch") == 0)
            o.batch = atoi(v);
        else if (strcmp(a, "--iters") == 0)
            o.iters = atoi(v);
        else if (strcmp(a, "--budget") == 0)
            o.budget = atof(v);
        else if (strcmp(a, "--per-problem") == 0)
            o.per_problem = atof(v);
        else if (strcmp(a, "--ws-max") == 0)
            o.ws_max = (size_t)(atof(v) * 1048576.0);
        else {
            fprintf(stderr, "cldnn-tune: unknown flag %s\n", a);
            return 2;
        }
    }
    if (o.path == NULL || o.mask < 1 || o.mask > 7 || o.batch < 0 || o.iters < 1 || !(o.budget > 0) ||
        !(o.per_problem >= 1)) {
        fprintf(stderr, "usage: cldnn-tune db --shapes FILE [--prefix NAME] [--batch N] [-F 1..7] [--budget S] "
                        "[--per-problem S] [--iters N] [--ws-max MiB] [--md FILE]\n");
        return 2;
    }
    double t_end = now_s() + o.budget;
    conv_shape* shapes = NULL;
    int ns = conv_shapes_read(o.path, &shapes);
    if (ns < 0)
        return 2;
    int n = 0;
    for (int i = 0; i < ns; ++i)
        if (strncmp(shapes[i].name, o.prefix, strlen(o.prefix)) == 0) {
            shapes[n] = shapes[i];
            if (o.batch > 0)
                shapes[n].n = o.batch;
            ++n;
        }
    int dirs = (o.mask & 1) + ((o.mask >> 1) & 1) + ((o.mask >> 2) & 1), total = n * dirs;
    cldnnHandle_t h;
    cldnnStatus_t st = cldnnCreateDefault(&h);
    if (st != CLDNN_STATUS_SUCCESS) {
        free(shapes);
        return db_fail("cldnnCreateDefault", st);
    }
    printf("# cldnn-tune db on %s (%u compute units), %d problems of %s, budget %.0f s (at most %.0f s each), "
           "tuning db in %s\n",
           h->prof.name, (unsigned)h->prof.compute_units, total, o.path, o.budget, o.per_problem,
           h->db_dir[0] ? h->db_dir : "memory only");
    FILE* md = NULL;
    if (o.md && (md = fopen(o.md, "w")) == NULL)
        fprintf(stderr, "cldnn-tune: cannot write %s\n", o.md);
    if (md) {
        fprintf(md, "| layer | dir | status | default params | ms | tuned params | ms | tuned x | heuristic algo ms "
                    "| after tuning algo ms | layer x |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    }
    int idx = 0, failures = 0, stopped = 0;
    for (int i = 0; i < n && !stopped; ++i) {
        db_layer L;
        if (db_layer_init(h, &shapes[i], o.mask, o.ws_max, &L)) {
            failures++;
            idx += dirs;
            db_layer_free(&L);
            continue;
        }
        for (int d = 0; d < 3 && !stopped; ++d)
            if (o.mask & (1 << d))
                stopped = db_problem(h, &shapes[i], d, &L, &o, t_end, ++idx, total, md, &failures);
        db_layer_free(&L);
    }
    if (stopped)
        printf("# budget of %.0f s spent at problem %d of %d; run the same command again to resume\n", o.budget, idx,
               total);
    else
        printf("# done: %d problems, %d failed\n", total, failures);
    if (md)
        fclose(md);
    cldnnDestroy(h);
    free(shapes);
    return failures ? 1 : stopped ? 3 : 0;
}

int main(int argc, char** argv) {
    if (argc >= 2 && strcmp(argv[1], "conv") == 0)
        return main_conv(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "db") == 0)
        return main_db(argc, argv);
    if (argc < 2 || strcmp(argv[1], "gemm") != 0) {
        fprintf(stderr, "usage: cldnn-tune gemm [--shapes FILE | -m M -n N -k K --transA 0|1 --transB 0|1] "
                        "[-d float|half] [--math default|tensor] [--budget SECONDS] [--iters N] [--quiet] [--db]\n"
                        "       cldnn-tune conv --shapes FILE [-F 1..7] [-L NCHW|NHWC] [--budget SECONDS] [--iters N] "
                        "[--quiet]\n");
        return 2;
    }
    static shape shapes[1024];
    int nshapes = 0;
    shape one = {1024, 1024, 1024, 0, 0};
    double budget = 120.0;
    int iters = 50, quiet = 0, db = 0;
    cldnnDataType_t dt = CLDNN_DATA_FLOAT;
    cldnnMathType_t math = CLDNN_DEFAULT_MATH;
    for (int i = 2; i < argc; ++i) {
        const char* a = argv[i];
        const char* v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--quiet") == 0 || strcmp(a, "--db") == 0) {
            quiet |= strcmp(a, "--quiet") == 0;
            db |= strcmp(a, "--db") == 0;
            continue;
        }
        if (v == NULL) {
            fprintf(stderr, "cldnn-tune: %s needs a value\n", a);
            return 2;
        }
        ++i;
        if (strcmp(a, "--shapes") == 0) {
            nshapes = load_shapes(v, shapes, 1024);
            if (nshapes < 0)
                return 2;
        } else if (strcmp(a, "-m") == 0) {
            one.m = atoll(v);
        } else if (strcmp(a, "-n") == 0) {
            one.n = atoll(v);
        } else if (strcmp(a, "-k") == 0) {
            one.k = atoll(v);
        } else if (strcmp(a, "--transA") == 0) {
            one.ta = atoi(v);
        } else if (strcmp(a, "--transB") == 0) {
            one.tb = atoi(v);
        } else if (strcmp(a, "--budget") == 0) {
            budget = atof(v);
        } else if (strcmp(a, "--iters") == 0) {
            iters = atoi(v);
        } else if (strcmp(a, "-d") == 0 && (strcmp(v, "float") == 0 || strcmp(v, "half") == 0)) {
            dt = strcmp(v, "half") == 0 ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
        } else if (strcmp(a, "--math") == 0 && (strcmp(v, "default") == 0 || strcmp(v, "tensor") == 0)) {
            math = strcmp(v, "tensor") == 0 ? CLDNN_TENSOR_OP_MATH : CLDNN_DEFAULT_MATH;
        } else {
            fprintf(stderr, "cldnn-tune: unknown flag or value %s %s\n", a, v);
            return 2;
        }
    }
    if (nshapes == 0)
        shapes[nshapes++] = one;
    cldnnHandle_t h;
    if (cldnnCreateDefault(&h) != CLDNN_STATUS_SUCCESS) {
        char e[1024];
        cldnnGetLastErrorString(e, sizeof e);
        fprintf(stderr, "cldnn-tune: %s\n", e);
        return 1;
    }
    cldnn_gemm_problem probe; /* which solver the shapes get: data and math type decide */
    memset(&probe, 0, sizeof probe);
    probe.dtype = probe.dtype_c = dt;
    probe.math = math;
    const gemm_family fam = gemm_family_of(&probe, &h->prof);
    gemm_any_params tmp[1];
    printf("# cldnn-tune gemm on %s (driver %s, %u compute units), %s data, %s math: solver %s, space of %zu "
           "candidates (NN)%s%s\n",
           h->prof.name, h->prof.driver, (unsigned)h->prof.compute_units, cldnn_dtype_name(dt),
           math == CLDNN_TENSOR_OP_MATH ? "tensor" : "default", fam.solver, family_space(&fam, &probe, &h->prof, tmp, 0),
           db ? "; winners recorded in the tuning db of " : "", db ? (h->db_dir[0] ? h->db_dir : "memory only") : "");
    int status = 0;
    for (int i = 0; i < nshapes; ++i) {
        fprintf(stderr, "shape %d/%d: %lldx%lldx%lld %c%c\n", i + 1, nshapes, shapes[i].m, shapes[i].n, shapes[i].k,
                shapes[i].ta ? 'T' : 'N', shapes[i].tb ? 'T' : 'N');
        status |= tune_gemm(h, &shapes[i], dt, math, budget, iters, quiet, db);
    }
    cldnnDestroy(h);
    return status;
}
