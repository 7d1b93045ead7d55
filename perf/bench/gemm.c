/*
** gemm.c: the `gemm` mode of cldnn-bench: cldnnGemm, and cldnnGemmStridedBatched for --batch > 1.
**
**   cldnn-bench gemm [-m M -n N -k K --transA 0|1 --transB 0|1 --layout row|col --lda L --ldb L
**                     --ldc L --batch B | --shapes FILE] [--ms T] [--vsample S] [common flags]
**
** C = alpha * op(A) op(B) + beta * C with BLAS semantics (C m x n, op(A) m x k, op(B) k x n), every
** matrix stored in --layout with its leading dimension (default: the minimum); batched products
** use packed strides (ld times the stored outer dimension). --shapes runs every row of a shape
** file (perf/baselines/gemm_shapes.h: m,n,k,a_t,b_t[,batch], cuBLAS column-major semantics, so
** run it with the default --layout col); the baselines of perf/baselines/ read the same files.
** The lines the library prints with CLDNN_LOG_CMD=1 are valid command lines.
**
** Data: A, B and (beta != 0) the prior C repeat a random block of GEMM_BLOCK (a prime) floats in
** [-1, 1): the block is uploaded once per buffer and doubled on the device by
** clEnqueueCopyBuffer, so element offset o of a buffer holds block[o % GEMM_BLOCK]. Large
** shapes thus cost no host fill or upload, and the host knows every element for the reference.
** With beta == 0, C starts as NaN (the library must not read it). -d half stores A, B and C as
** halves (the blocks rounded to half first, so the reference sees what the device holds).
**
** Verification (-V 1, one un-timed call before timing): each checked element of C against a
** double dot product, |got - want| <= 2 eps_float (sqrt(k) + 1) S, with S = |alpha| sum_p
** |op(A)(i,p) op(B)(p,j)| + |beta C_prior| (the scale of a float dot product's rounding error);
** half data add 2^-10 |want| + 2^-24 (C's rounding to half). With --math tensor on a device with
** tensor cores, FLOAT products also carry the rounding of both inputs to TF32 (relative 2^-11
** each): 2 * 2^-11 S is added to the tolerance; HALF and BFLOAT16 inputs are exact (FP16, BF16 mma.sync) but the
** tensor core truncates its FP32 additions, so the float term counts a whole ulp per addition
** (4 eps_float instead of 2).
** Up to 2^27 multiply-adds (and C within 2^24 elements) every element is checked, and the ld gaps
** of C must be left as they were; above, --vsample random elements (plus the corners), read back
** one by one.
**
** Timing (-t 1): as bench_time_us (warm-up, 5 repetitions of -i calls between clFinish, median).
** With --ms T and no -i, the iterations are chosen per shape from a first estimate (batches of
** calls growing 4x until one takes 20 ms) so that the 5 repetitions take about T ms.
** TFLOP/s = 2 m n k batch / time.
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gemm_shapes.h"

static const bench_flag k_flags[] = {
    {"-m", BENCH_FLAG_INT, "1024", "rows of C and op(A)"},
    {"-n", BENCH_FLAG_INT, "1024", "columns of C and op(B) (replaces the common -n)"},
    {"-k", BENCH_FLAG_INT, "1024", "columns of op(A), rows of op(B)"},
    {"--transA", BENCH_FLAG_INT, "0", "0|1: op(A) = A or A^T"},
    {"--transB", BENCH_FLAG_INT, "0", "0|1: op(B) = B or B^T"},
    {"--layout", BENCH_FLAG_STRING, "col", "row|col storage of A, B and C"},
    {"--lda", BENCH_FLAG_INT, NULL, "leading dimension of A (default: the minimum)"},
    {"--ldb", BENCH_FLAG_INT, NULL, "leading dimension of B (default: the minimum)"},
    {"--ldc", BENCH_FLAG_INT, NULL, "leading dimension of C (default: the minimum)"},
    {"--batch", BENCH_FLAG_INT, "1", "products; > 1 runs cldnnGemmStridedBatched with packed strides"},
    {"--shapes", BENCH_FLAG_STRING, NULL,
     "FILE: every row of a CSV m,n,k,a_t,b_t[,batch] (N/T, column-major semantics); excludes the shape flags"},
    {"--ms", BENCH_FLAG_DOUBLE, NULL, "without -i: iterations per shape so that the 5 repetitions take ~T ms"},
    {"--vsample", BENCH_FLAG_INT, "2000", "elements checked above 2^27 multiply-adds (0: check all)"},
    {"--math", BENCH_FLAG_STRING, "default",
     "default|tensor|fma: cldnnSetGemmMathType (tensor: TF32 / FP16 / BF16 tensor cores for float / half / bfloat16 data where the "
     "device has them)"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

/* Above this many multiply-adds (or 2^24 elements of C) verification samples C. */
#define FULL_CHECK_MACS (1LL << 27)
#define FULL_CHECK_C (1LL << 24)

/* One problem: the shape and its stored layout, all in elements. */
typedef struct {
    int64_t m, n, k, batch;
    int ta, tb, row;                    /* transposes; row-major storage */
    int64_t lda, ldb, ldc;
    int64_t sa, sb, sc;                 /* packed batch strides */
    int64_t span_a, span_b, span_c;     /* elements each buffer holds */
} gemm_prob;

/* What one bench run shares: the random blocks and the failure count. */
typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    double target_ms;                   /* > 0: iterations from --ms */
    int64_t vsample;
    double input_eps;                   /* relative rounding of the inputs: 0, or 2^-11 under TF32 */
    double sum_eps;                     /* rounding of one addition: 2 eps_float, 4 for FP16 mma */
    float *blk_a, *blk_b, *blk_c;       /* GEMM_BLOCK floats each */
    int fails;
} gemm_run;

/* One call's arguments, for the timing loop. */
typedef struct {
    bench_ctx* ctx;
    const gemm_prob* p;
    float alpha, beta;
    cl_mem a, b, c;
    cldnnDataType_t dtype;
} gemm_call;

/* One measured problem. */
typedef struct {
    long long iters;                    /* timed iterations per repetition, 0 when not timed */
    double us;                          /* per call, < 0 when not timed or failed */
    bench_check check;
    double tol_use;                     /* max |got - want| / tol over the checked elements */
    int64_t checked, bad;
    int sampled;
    char note[160];
} gemm_result;

/* Rows and columns of a stored rows x cols matrix: element offset of (r, c). */
static int64_t mat_off(int row, int64_t r, int64_t c, int64_t ld) { return row ? r * ld + c : r + c * ld; }

/* Elements one stored rows x cols matrix spans with leading dimension ld. */
static int64_t mat_span(int row, int64_t rows, int64_t cols, int64_t ld) {
    return row ? (rows - 1) * ld + cols : (cols - 1) * ld + rows;
}

/* Fills p from the shape and the leading dimensions (0: the minimum). Returns 0, or 2 after
** printing why (a leading dimension below the minimum, or sizes beyond 2^31 elements per
** dimension or 2^60 bytes per buffer). */
static int prob_init(gemm_prob* p, int64_t m, int64_t n, int64_t k, int ta, int tb, int row, int64_t batch,
                     int64_t lda, int64_t ldb, int64_t ldc) {
    memset(p, 0, sizeof *p);
    const int64_t lim = 0x7fffffffLL;
    if (m < 1 || n < 1 || k < 1 || batch < 1 || m > lim || n > lim || k > lim || batch > lim) {
        fprintf(stderr, "cldnn-bench gemm: m, n, k and --batch must be 1 .. 2^31 - 1\n");
        return 2;
    }
    p->m = m;
    p->n = n;
    p->k = k;
    p->batch = batch;
    p->ta = ta;
    p->tb = tb;
    p->row = row;
    /* stored shapes: A is (ta ? k x m : m x k), B (tb ? n x k : k x n), C m x n */
    int64_t ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k, cb = tb ? k : n;
    int64_t mina = row ? ca : ra, minb = row ? cb : rb, minc = row ? n : m;
    p->lda = lda ? lda : mina;
    p->ldb = ldb ? ldb : minb;
    p->ldc = ldc ? ldc : minc;
    if (p->lda < mina || p->ldb < minb || p->ldc < minc || p->lda > lim || p->ldb > lim || p->ldc > lim) {
        fprintf(stderr,
                "cldnn-bench gemm: leading dimensions must be at least %lld, %lld, %lld (lda, ldb, ldc) and below "
                "2^31; got %lld, %lld, %lld\n",
                (long long)mina, (long long)minb, (long long)minc, (long long)p->lda, (long long)p->ldb,
                (long long)p->ldc);
        return 2;
    }
    p->sa = p->lda * (row ? ra : ca);
    p->sb = p->ldb * (row ? rb : cb);
    p->sc = p->ldc * (row ? m : n);
    double total = ((double)p->sa + (double)p->sb + (double)p->sc) * (double)batch * 4.0;
    if (total > (double)(1ull << 60)) {
        fprintf(stderr, "cldnn-bench gemm: the buffers would need %.3g bytes\n", total);
        return 2;
    }
    p->span_a = (batch - 1) * p->sa + mat_span(row, ra, ca, p->lda);
    p->span_b = (batch - 1) * p->sb + mat_span(row, rb, cb, p->ldb);
    p->span_c = (batch - 1) * p->sc + mat_span(row, m, n, p->ldc);
    return 0;
}

/* Enqueues one cldnnGemm (batch 1) or cldnnGemmStridedBatched call of c. */
static cldnnStatus_t gemm_once(void* user) {
    const gemm_call* c = user;
    const gemm_prob* p = c->p;
    cldnnLayout_t lay = p->row ? CLDNN_ROW_MAJOR : CLDNN_COL_MAJOR;
    cldnnOperation_t ta = p->ta ? CLDNN_OP_T : CLDNN_OP_N, tb = p->tb ? CLDNN_OP_T : CLDNN_OP_N;
    if (p->batch == 1)
        return cldnnGemm(c->ctx->handle, lay, ta, tb, p->m, p->n, p->k, &c->alpha, c->a, 0, p->lda, c->b, 0, p->ldb,
                         &c->beta, c->c, 0, p->ldc, c->dtype);
    return cldnnGemmStridedBatched(c->ctx->handle, lay, ta, tb, p->m, p->n, p->k, &c->alpha, c->a, 0, p->lda, p->sa,
                                   c->b, 0, p->ldb, p->sb, &c->beta, c->c, 0, p->ldc, p->sc, p->batch,
                                   c->dtype);
}

/* Fills the first span elements (of dtype) of mem with the repeated block blk (see the file
** comment). Returns 0, or 1 after printing why. */
static int fill_block(bench_ctx* ctx, cl_mem mem, cldnnDataType_t dtype, const float* blk, int64_t span) {
    const size_t es = dtype == CLDNN_DATA_FLOAT ? 4 : 2;
    size_t total = (size_t)span, done = total < GEMM_BLOCK ? total : GEMM_BLOCK;
    if (bench_upload(ctx, mem, dtype, blk, done)) return 1;
    while (done < total) {
        size_t n = total - done < done ? total - done : done;
        cl_int e = clEnqueueCopyBuffer(ctx->queue, mem, mem, 0, done * es, n * es, 0, NULL, NULL);
        if (e != CL_SUCCESS) {
            bench_print_cl("clEnqueueCopyBuffer", e);
            return 1;
        }
        done += n;
    }
    return 0;
}

/* The value at element offset off of a buffer filled from blk. */
static double blk_at(const float* blk, int64_t off) {
    return (double)blk[off < GEMM_BLOCK ? off : off % GEMM_BLOCK];
}

/* The reference of C(i, j) of product b: *want (alpha op(A) op(B) + beta C_prior, in double) and
** *tol (the tolerance of the file comment). Walks row i of op(A) and column j of op(B) with
** their offsets kept modulo GEMM_BLOCK (no division per term). */
static void ref_elem(const gemm_run* r, const gemm_prob* p, int64_t b, int64_t i, int64_t j, double* want,
                     double* tol) {
    const bench_opts* o = r->opts;
    /* offsets of op(A)(i, q) and op(B)(q, j) at q = 0 and their steps per q */
    int64_t a0 = b * p->sa + (p->ta ? mat_off(p->row, 0, i, p->lda) : mat_off(p->row, i, 0, p->lda));
    int64_t a1 = b * p->sa + (p->ta ? mat_off(p->row, 1, i, p->lda) : mat_off(p->row, i, 1, p->lda));
    int64_t b0 = b * p->sb + (p->tb ? mat_off(p->row, j, 0, p->ldb) : mat_off(p->row, 0, j, p->ldb));
    int64_t b1 = b * p->sb + (p->tb ? mat_off(p->row, j, 1, p->ldb) : mat_off(p->row, 1, j, p->ldb));
    int64_t oa = a0 % GEMM_BLOCK, ob = b0 % GEMM_BLOCK, da = (a1 - a0) % GEMM_BLOCK, db = (b1 - b0) % GEMM_BLOCK;
    double s = 0, sa = 0;
    for (int64_t q = 0; q < p->k; q++) {
        double v = (double)r->blk_a[oa] * (double)r->blk_b[ob];
        s += v;
        sa += fabs(v);
        if ((oa += da) >= GEMM_BLOCK) oa -= GEMM_BLOCK;
        if ((ob += db) >= GEMM_BLOCK) ob -= GEMM_BLOCK;
    }
    double w = o->alpha * s, scale = fabs(o->alpha) * sa;
    if (o->beta != 0) {
        double c0 = blk_at(r->blk_c, b * p->sc + mat_off(p->row, i, j, p->ldc));
        w += o->beta * c0;
        scale += fabs(o->beta * c0);
    }
    *want = w;
    *tol = (2.0 * r->input_eps + r->sum_eps * (sqrt((double)p->k) + 1.0)) * scale + FLT_MIN;
    *tol += bench_round_tol(o->dtype, w);
}

/* Scores one checked element into res; prints the first failure. */
static void score(const gemm_prob* p, gemm_result* res, int64_t b, int64_t i, int64_t j, float got, double want,
                  double tol) {
    double err = fabs((double)got - want);
    res->checked++;
    if (err <= tol) {
        if (err / tol > res->tol_use) res->tol_use = err / tol;
        return;
    }
    if (res->bad++ == 0)
        fprintf(stderr, "cldnn-bench gemm %lldx%lldx%lld: C(%lld, %lld) of product %lld: got %.9g want %.9g (tol %.3g)\n",
                (long long)p->m, (long long)p->n, (long long)p->k, (long long)i, (long long)j, (long long)b,
                (double)got, want, tol);
    if (isfinite(err) && err / tol > res->tol_use) res->tol_use = err / tol;
    if (!isfinite(err)) res->tol_use = INFINITY;
}

/* Checks every element of C (downloaded whole) and that the ld gaps kept their prior values.
** Returns 0, or 1 when the check could not run. */
static int check_full(gemm_run* r, const gemm_prob* p, cl_mem c, gemm_result* res) {
    size_t n = (size_t)p->span_c;
    float* got = bench_alloc(n, sizeof *got);
    unsigned char* seen = calloc(n, 1);
    int rc = 1;
    if (!got || !seen || bench_download(r->ctx, c, r->opts->dtype, got, n)) goto out;
    for (int64_t b = 0; b < p->batch; b++)
        for (int64_t j = 0; j < p->n; j++)
            for (int64_t i = 0; i < p->m; i++) {
                int64_t off = b * p->sc + mat_off(p->row, i, j, p->ldc);
                double want, tol;
                ref_elem(r, p, b, i, j, &want, &tol);
                score(p, res, b, i, j, got[off], want, tol);
                seen[off] = 1;
            }
    for (size_t off = 0; off < n; off++) {
        if (seen[off]) continue;
        float prior = r->opts->beta != 0 ? (float)blk_at(r->blk_c, (int64_t)off) : NAN;
        if ((isnan(prior) && isnan(got[off])) || prior == got[off]) continue;
        if (res->bad++ == 0)
            fprintf(stderr, "cldnn-bench gemm: element %zu of C, in an ld gap, changed from %g to %g\n", off,
                    (double)prior, (double)got[off]);
    }
    rc = 0;
out:
    free(got);
    free(seen);
    return rc;
}

/* Checks r->vsample random elements of C and the corners of the first and last products, read
** back one by one. Returns 0, or 1 when the check could not run. */
static int check_sampled(gemm_run* r, const gemm_prob* p, cl_mem c, gemm_result* res) {
    int64_t ns = r->vsample + 8;
    int64_t* pos = bench_alloc((size_t)ns * 3, sizeof *pos);
    float* got = bench_alloc((size_t)ns, sizeof *got);
    uint16_t* got16 = bench_alloc((size_t)ns, sizeof *got16);
    const int half = r->opts->elem_size == 2; /* HALF or BFLOAT16 */
    int rc = 1;
    if (!pos || !got || !got16) goto out;
    ref_rng rng;
    ref_rng_seed(&rng, r->opts->seed ^ (uint64_t)(p->m * 7919 + p->n * 104729 + p->k));
    for (int64_t s = 0; s < ns; s++) {
        int64_t* q = pos + 3 * s;
        if (s < 8) {
            q[0] = s < 4 ? 0 : p->batch - 1;
            q[1] = (s & 1) ? p->m - 1 : 0;
            q[2] = (s & 2) ? p->n - 1 : 0;
        } else {
            q[0] = (int64_t)(ref_rng_next(&rng) % (uint64_t)p->batch);
            q[1] = (int64_t)(ref_rng_next(&rng) % (uint64_t)p->m);
            q[2] = (int64_t)(ref_rng_next(&rng) % (uint64_t)p->n);
        }
        size_t off = (size_t)(q[0] * p->sc + mat_off(p->row, q[1], q[2], p->ldc));
        cl_int e = half ? clEnqueueReadBuffer(r->ctx->queue, c, CL_FALSE, off * 2, 2, got16 + s, 0, NULL, NULL)
                        : clEnqueueReadBuffer(r->ctx->queue, c, CL_FALSE, off * sizeof(float), sizeof(float), got + s,
                                              0, NULL, NULL);
        if (e != CL_SUCCESS) {
            bench_print_cl("clEnqueueReadBuffer", e);
            clFinish(r->ctx->queue);
            goto out;
        }
    }
    cl_int e = clFinish(r->ctx->queue);
    if (e != CL_SUCCESS) {
        bench_print_cl("clFinish", e);
        goto out;
    }
    for (int64_t s = 0; half && s < ns; s++) got[s] = bench_bits16_to_float(r->opts->dtype, got16[s]);
    for (int64_t s = 0; s < ns; s++) {
        const int64_t* q = pos + 3 * s;
        double want, tol;
        ref_elem(r, p, q[0], q[1], q[2], &want, &tol);
        score(p, res, q[0], q[1], q[2], got[s], want, tol);
    }
    res->sampled = 1;
    rc = 0;
out:
    free(pos);
    free(got);
    free(got16);
    return rc;
}

/* Times the call: fixed -i, or with --ms (and no -i) a first estimate (calls in batches growing
** 4x until one takes 20 ms, which amortizes the launch and clFinish latency) that sets the
** iterations. Fills res->us and res->iters; returns 0 or 1. */
static int time_call(gemm_run* r, gemm_call* c, gemm_result* res) {
    bench_opts o = *r->opts;
    if (r->target_ms > 0) {
        cldnnStatus_t st;
        for (int i = 0; i < o.warmup; i++)
            if ((st = gemm_once(c)) != CLDNN_STATUS_SUCCESS) {
                bench_print_status("warm-up call", st);
                return 1;
            }
        clFinish(r->ctx->queue);
        double per = 0;
        for (long long n = 1;; n *= 4) {
            double t0 = gemm_now_s();
            for (long long i = 0; i < n; i++)
                if ((st = gemm_once(c)) != CLDNN_STATUS_SUCCESS) {
                    bench_print_status("timed call", st);
                    return 1;
                }
            cl_int e = clFinish(r->ctx->queue);
            if (e != CL_SUCCESS) {
                bench_print_cl("clFinish", e);
                return 1;
            }
            per = (gemm_now_s() - t0) / (double)n;
            if (per * (double)n >= 20e-3 || n >= 16384) break;
        }
        o.iters = (int)gemm_iters_for(per, r->target_ms, BENCH_REPS);
        o.warmup = 0;
    }
    res->iters = o.iters;
    return bench_time_us(r->ctx, &o, gemm_once, c, &res->us);
}

/* Records a failed library call in res->note; NOT_SUPPORTED statuses are a skip, others a failure. */
static void note_status(gemm_run* r, gemm_result* res, const char* what, cldnnStatus_t st) {
    bench_print_status(what, st);
    snprintf(res->note, sizeof res->note, "%s: %s", what, cldnnGetErrorString(st));
    if (CLDNN_STATUS_CATEGORY(st) != CLDNN_STATUS_NOT_SUPPORTED) r->fails++;
}

/* Prints the markdown header of the gemm rows (two lines). */
static void gemm_md_header(void) {
    printf("| m | n | k | batch | op | layout | lda | ldb | ldc | alpha | beta | iters | time (ms) | TFLOP/s | "
           "verify (max err/tol; checked) |\n");
    printf("|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

/* Prints one problem's result as a text line or a markdown row (opts->md). */
static void report(const bench_opts* o, const gemm_prob* p, const gemm_result* res) {
    char t[32] = "-", tf[32] = "-", it[32] = "-", v[256] = "-";
    if (res->us > 0) {
        snprintf(t, sizeof t, "%.4f", res->us * 1e-3);
        snprintf(tf, sizeof tf, "%.4g",
                 2.0 * (double)p->m * (double)p->n * (double)p->k * (double)p->batch / (res->us * 1e-6) / 1e12);
        snprintf(it, sizeof it, "%lld", res->iters);
    }
    v[0] = '\0';
    if (res->check != BENCH_CHECK_NONE)
        snprintf(v, sizeof v, "%s (%.3g; %lld %s)", res->check == BENCH_CHECK_PASS ? "PASS" : "FAIL", res->tol_use,
                 (long long)res->checked, res->sampled ? "sampled" : "all");
    if (res->check == BENCH_CHECK_FAIL)
        snprintf(v + strlen(v), sizeof v - strlen(v), " %lld bad", (long long)res->bad);
    if (res->note[0]) snprintf(v + strlen(v), sizeof v - strlen(v), "%s%s", v[0] ? " " : "", res->note);
    if (!v[0]) snprintf(v, sizeof v, "-");
    char op[3] = {p->ta ? 'T' : 'N', p->tb ? 'T' : 'N', 0};
    if (o->md)
        printf("| %lld | %lld | %lld | %lld | %s | %s | %lld | %lld | %lld | %g | %g | %s | %s | %s | %s |\n",
               (long long)p->m, (long long)p->n, (long long)p->k, (long long)p->batch, op, p->row ? "row" : "col",
               (long long)p->lda, (long long)p->ldb, (long long)p->ldc, o->alpha, o->beta, it, t, tf, v);
    else
        printf("gemm %lldx%lldx%lld %s %s lda=%lld ldb=%lld ldc=%lld batch=%lld A=%g B=%g %s  %s ms  %s TFLOP/s  "
               "(i=%s)  verify %s\n",
               (long long)p->m, (long long)p->n, (long long)p->k, op, p->row ? "row" : "col", (long long)p->lda,
               (long long)p->ldb, (long long)p->ldc, (long long)p->batch, o->alpha, o->beta,
               bench_dtype_name(o->dtype), t, tf, it, v);
    fflush(stdout);
}

/* Runs (fills, verifies, times, reports) one problem with its own buffers. */
static void gemm_one(gemm_run* r, const gemm_prob* p) {
    const bench_opts* o = r->opts;
    gemm_result res;
    memset(&res, 0, sizeof res);
    res.us = -1;
    gemm_call c = {r->ctx, p, (float)o->alpha, (float)o->beta, NULL, NULL, NULL, o->dtype};
    const size_t es = o->elem_size;
    if (!(c.a = bench_buffer(r->ctx, (size_t)p->span_a * es)) ||
        !(c.b = bench_buffer(r->ctx, (size_t)p->span_b * es)) ||
        !(c.c = bench_buffer(r->ctx, (size_t)p->span_c * es)) || fill_block(r->ctx, c.a, o->dtype, r->blk_a, p->span_a) ||
        fill_block(r->ctx, c.b, o->dtype, r->blk_b, p->span_b)) {
        snprintf(res.note, sizeof res.note, "could not create or fill the buffers");
        r->fails++;
        goto out;
    }
    if (o->beta != 0) {
        if (fill_block(r->ctx, c.c, o->dtype, r->blk_c, p->span_c)) goto fill_failed;
    } else {
        const float nan = NAN;
        const uint16_t nan16 = o->dtype == CLDNN_DATA_HALF ? 0x7e00 : 0x7fc0; /* a quiet NaN of 16 bits */
        cl_int e = clEnqueueFillBuffer(r->ctx->queue, c.c, es == 2 ? (const void*)&nan16 : (const void*)&nan, es, 0,
                                       (size_t)p->span_c * es, 0, NULL, NULL);
        if (e != CL_SUCCESS) {
            bench_print_cl("clEnqueueFillBuffer", e);
            goto fill_failed;
        }
    }
    if (o->verify) {
        cldnnStatus_t st = gemm_once(&c);
        if (st != CLDNN_STATUS_SUCCESS) {
            note_status(r, &res, p->batch > 1 ? "cldnnGemmStridedBatched" : "cldnnGemm", st);
            goto out;
        }
        int full = r->vsample == 0 ||
                   ((double)p->m * (double)p->n * (double)p->k * (double)p->batch <= (double)FULL_CHECK_MACS &&
                    p->span_c <= FULL_CHECK_C);
        if (full ? check_full(r, p, c.c, &res) : check_sampled(r, p, c.c, &res)) {
            snprintf(res.note, sizeof res.note, "verification could not run");
            r->fails++;
            goto out;
        }
        res.check = res.bad ? BENCH_CHECK_FAIL : BENCH_CHECK_PASS;
        if (res.bad) r->fails++;
    }
    if (o->time && time_call(r, &c, &res)) {
        res.us = -1;
        snprintf(res.note, sizeof res.note, "timed call failed");
        r->fails++;
    }
    goto out;
fill_failed:
    snprintf(res.note, sizeof res.note, "could not fill the buffers");
    r->fails++;
out:
    report(o, p, &res);
    bench_release(c.a);
    bench_release(c.b);
    bench_release(c.c);
}

/* The mode's run function (see bench_mode). */
static int gemm_run_mode(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    const char* lay = bench_arg_str(args, "--layout");
    int row;
    if (!strcmp(lay, "row")) row = 1;
    else if (!strcmp(lay, "col")) row = 0;
    else {
        fprintf(stderr, "cldnn-bench gemm: --layout %s: expected row or col\n", lay);
        return 2;
    }
    long long ta = bench_arg_int(args, "--transA", 0), tb = bench_arg_int(args, "--transB", 0);
    if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1)) {
        fprintf(stderr, "cldnn-bench gemm: --transA and --transB take 0 or 1\n");
        return 2;
    }
    gemm_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.vsample = bench_arg_int(args, "--vsample", 2000);
    if (r.vsample < 0 || r.vsample > 100000000) {
        fprintf(stderr, "cldnn-bench gemm: --vsample must be 0 .. 1e8\n");
        return 2;
    }
    cldnnMathType_t mt;
    if (bench_parse_math("gemm", bench_arg_str(args, "--math"), &mt)) return 2;
    cldnnStatus_t mst = cldnnSetGemmMathType(ctx->handle, mt);
    if (mst != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnSetGemmMathType", mst);
        return 1;
    }
    r.sum_eps = 2.0 * FLT_EPSILON;
    if (mt == CLDNN_TENSOR_OP_MATH && opts->elem_size == 2) /* HALF or BFLOAT16: exact products */
        r.sum_eps = 4.0 * FLT_EPSILON;
    else if (mt == CLDNN_TENSOR_OP_MATH)
        r.input_eps = 1.0 / 2048.0;
    if (bench_arg_given(args, "--ms") && !bench_arg_given(args, "-i")) {
        r.target_ms = bench_arg_double(args, "--ms", 0);
        if (!(r.target_ms > 0)) {
            fprintf(stderr, "cldnn-bench gemm: --ms must be > 0\n");
            return 2;
        }
    }

    gemm_shape one, *shapes = &one;
    int count = 1, rc = 2;
    const char* file = bench_arg_str(args, "--shapes");
    if (file) {
        static const char* const excl[] = {"-m", "-n", "-k", "--transA", "--transB", "--batch", "--lda", "--ldb",
                                           "--ldc"};
        for (size_t i = 0; i < sizeof excl / sizeof excl[0]; i++)
            if (bench_arg_given(args, excl[i])) {
                fprintf(stderr, "cldnn-bench gemm: %s and --shapes exclude each other\n", excl[i]);
                return 2;
            }
        char err[512];
        if (gemm_shapes_read(file, &shapes, &count, err, sizeof err)) {
            fprintf(stderr, "cldnn-bench gemm: %s\n", err);
            return 2;
        }
    } else {
        memset(&one, 0, sizeof one);
        one.m = bench_arg_int(args, "-m", 1024);
        one.n = bench_arg_int(args, "-n", 1024);
        one.k = bench_arg_int(args, "-k", 1024);
        one.batch = bench_arg_int(args, "--batch", 1);
        one.ta = (int)ta;
        one.tb = (int)tb;
    }
    /* check every problem before running any */
    gemm_prob* probs = bench_alloc((size_t)count, sizeof *probs);
    if (!probs) goto out;
    for (int s = 0; s < count; s++)
        if (prob_init(&probs[s], shapes[s].m, shapes[s].n, shapes[s].k, shapes[s].ta, shapes[s].tb, row,
                      shapes[s].batch, bench_arg_int(args, "--lda", 0), bench_arg_int(args, "--ldb", 0),
                      bench_arg_int(args, "--ldc", 0))) {
            if (file) fprintf(stderr, "cldnn-bench gemm: in %s, line %d\n", file, shapes[s].line);
            goto out;
        }
    rc = 1;
    if (!(r.blk_a = bench_alloc(GEMM_BLOCK, sizeof(float))) || !(r.blk_b = bench_alloc(GEMM_BLOCK, sizeof(float))) ||
        !(r.blk_c = bench_alloc(GEMM_BLOCK, sizeof(float))))
        goto out;
    gemm_fill_block(r.blk_a, GEMM_BLOCK, opts->seed * 3 + 1);
    gemm_fill_block(r.blk_b, GEMM_BLOCK, opts->seed * 3 + 2);
    gemm_fill_block(r.blk_c, GEMM_BLOCK, opts->seed * 3 + 3);
    bench_round(opts->dtype, r.blk_a, GEMM_BLOCK);
    bench_round(opts->dtype, r.blk_b, GEMM_BLOCK);
    bench_round(opts->dtype, r.blk_c, GEMM_BLOCK);
    for (int s = 0; s < count; s++) gemm_one(&r, &probs[s]);
    rc = r.fails ? 1 : 0;
out:
    free(probs);
    if (shapes != &one) free(shapes);
    free(r.blk_a);
    free(r.blk_b);
    free(r.blk_c);
    return rc;
}

const bench_mode bench_mode_gemm = {"gemm", "matrix product (cldnnGemm, cldnnGemmStridedBatched)", k_flags,
                                    gemm_run_mode, gemm_md_header};
