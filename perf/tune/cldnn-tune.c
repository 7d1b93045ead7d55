/*
** cldnn-tune: a command line over the library's Tune (handle/engine.h, cldnn_engine_tune). For
** each problem of a shape list it makes buffers of seeded random data, checks the solver's current
** parameters against a double reference (tests/ref), runs one engine search of the solver's
** declared space and prints the engine's report. Flags, output lines and examples:
** docs/find-and-tune.md and perf/README.md.
**
**   cldnn-tune gemm [--shapes FILE | -m M -n N -k K --transA 0|1 --transB 0|1]
**                   [-d float|half] [--math default|tensor] [--budget SECONDS] [--quiet] [--db]
**   cldnn-tune conv --shapes FILE [-F MASK] [-L NCHW|NHWC] [-S igemm|winograd|igemm_mma] [--tile 2|4]
**                   [-d float|half] [--budget SECONDS] [--quiet] [--db]
**   cldnn-tune db --shapes FILE [--prefix NAME] [--batch N] [-F MASK] [--budget SECONDS]
**                 [--per-problem SECONDS] [--ws-max MiB] [--md FILE]
** (--iters N is accepted and ignored: the engine times the candidates.)
**
** The search is a TUNE-mode Find's: the current parameters run first as the reference; each
** candidate runs on a NaN-filled output (the tool's buffers hold nothing else) and must match the
** reference within the family's tolerance (1e-5 * sqrt(reduction) of its range, plus 2^-10 of it
** for HALF outputs) or it is rejected; matching ones are timed until the budget (seconds per
** problem) ends. The winner goes
** into the tuning db under the problem's key and the space's name. Without --db the handle keeps
** its databases in memory, so nothing persists; with --db a problem that already has a user record
** prints `resumed` and is not searched. Rejected candidates go to stderr, timed ones unless --quiet.
**
** gemm: the solver cldnnGemm runs for -d and --math (gemm_tiled; gemm_mma_tf32 / gemm_mma_f16 under
** --math tensor on devices with tensor cores), on packed column-major problems (lda = m or k, ldb =
** k or n, ldc = m, one product: a shape file's batch column is ignored). The reference is checked
** on 256 elements of C against double dot products.
**     best <m>x<n>x<k> <ta><tb> <type> class <class> <solver> <params> <TFLOP/s> (default ...) [...]
** conv: per direction of MASK (1 fwd, 2 bwd-data, 4 bwd-filter; default 7) the solver -S names:
** igemm (conv_<dir>_igemm, FLOAT; a row of src/conv/gemm/conv_params.c follows), winograd
** (conv_<dir>_winograd_fused_f<t>x<t>, t = --tile, fwd and bwd-data; F(2x2) on FMA_MATH problems,
** where the library runs it) or igemm_mma (conv_<dir>_igemm_mma under TENSOR_OP_MATH, FLOAT or
** -d half). The reference is checked on 256 outputs against tests/ref's double convolution.
**     best conv-<dir> <name> <layout> class <class> | <record name> <params> <TFLOP/s> (default ...) [...]
** db: for each shape (and direction of MASK) of a conv-*.csv list whose name starts with --prefix,
** what a TUNE-mode Find does: the implicit-GEMM algorithm's solver tuned into the tuning db
** (CLDNN_DB_PATH), every algorithm benchmarked into the find-db; then the solver's default and
** tuned parameters and Get_v7's algorithm before (HEURISTIC) and after are timed:
**     [i/n] <key> <name> tuned|resumed best <params> <ms> (heuristic <params> <ms>, x<speedup>);
**           layer: heuristic <algo> <ms>, now <algo> <ms> (x<speedup>)
** Exit status 3 when the budget ends before the list (rerun to resume), 1 when a problem failed.
*/
#define _POSIX_C_SOURCE 200809L
#include "internal.h"
#include "conv/conv.h"
#include "conv_shapes.h"
#include "gemm_shapes.h"
#include "handle/engine.h"
#include "ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ shared */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

/* Uniform in [-1, 1) from a fixed-seed xorshift stream: every run tunes on the same data. */
static float frand(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (float)((double)(rng_state >> 11) / 9007199254740992.0) * 2.0f - 1.0f;
}

/* A read-write buffer of n random values of type dt (HALF values are drawn as halves), their
** host copy in *host (malloc'd, widened to float) when host is not NULL; NULL on failure. */
static cl_mem random_buffer(cldnnHandle_t h, cldnnDataType_t dt, size_t n, float** host) {
    float* v = malloc(n * 4);
    uint16_t* hv = dt == CLDNN_DATA_HALF ? malloc(n * 2) : NULL;
    cl_mem m = NULL;
    if (v != NULL && (dt != CLDNN_DATA_HALF || hv != NULL)) {
        for (size_t i = 0; i < n; ++i) {
            v[i] = frand();
            if (hv != NULL)
                v[i] = cldnn_half_to_float(hv[i] = gemm_float_to_half(v[i]));
        }
        cl_int err;
        m = clCreateBuffer(h->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * (hv ? 2 : 4),
                           hv ? (void*)hv : (void*)v, &err);
    }
    free(hv);
    if (host != NULL && m != NULL)
        *host = v;
    else
        free(v);
    return m;
}

/* n values of type dt from m into out, widened to float; 0 on success. */
static int read_floats(cldnnHandle_t h, cl_mem m, cldnnDataType_t dt, size_t n, float* out) {
    if (dt != CLDNN_DATA_HALF)
        return clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, n * 4, out, 0, NULL, NULL) != CL_SUCCESS;
    uint16_t* hv = malloc(n * 2);
    int bad = hv == NULL || clEnqueueReadBuffer(h->queue, m, CL_TRUE, 0, n * 2, hv, 0, NULL, NULL) != CL_SUCCESS;
    for (size_t i = 0; !bad && i < n; ++i)
        out[i] = cldnn_half_to_float(hv[i]);
    free(hv);
    return bad;
}

/* Prints a failed call with the library's last error; returns 1. */
static int fail(const char* what, cldnnStatus_t st) {
    char e[2048];
    cldnnGetLastErrorString(e, sizeof e);
    fprintf(stderr, "cldnn-tune: %s: %s: %s\n", what, cldnnGetErrorString(st), e);
    return 1;
}

/* The user tuning db's record of (problem key, record name), never the system tables': a problem
** the shipped tables cover is still tuned here (resume looks at this tool's own records). */
static int user_record(cldnnHandle_t h, const char* key, const char* name, char* value, size_t size) {
    char k[512];
    snprintf(k, sizeof k, "%s|%s", key, name);
    return cldnn_db_get(h->db_dir, h->prof.key, CLDNN_DB_TUNE, k, value, size);
}

/* Options of the gemm and conv modes. */
typedef struct {
    double budget;
    int quiet, db;
} tune_opts;

/* The engine's progress hook: a rejected candidate always, a timed one unless quiet. */
static void progress(const cldnn_tune_step* st, void* arg) {
    const tune_opts* o = (const tune_opts*)arg;
    if (st->outcome == CLDNN_TUNE_REJECTED)
        fprintf(stderr, "  [%zu/%zu] %-34s REJECTED (max diff %.3g > %.3g)\n", st->index + 1, st->count, st->text,
                st->diff, st->tol);
    else if (!o->quiet && st->outcome == CLDNN_TUNE_TIMED)
        fprintf(stderr, "  [%zu/%zu] %-34s %8.4f ms (best %.4f)\n", st->index + 1, st->count, st->text, st->ms,
                st->best_ms);
    else if (!o->quiet && st->outcome == CLDNN_TUNE_FAILED)
        fprintf(stderr, "  [%zu/%zu] %-34s failed\n", st->index + 1, st->count, st->text);
}

/* Runs s with the parameters the engine gives it (the search's reference) once on the buffers;
** 0 on success, else 1 with a message. */
static int run_reference(cldnnHandle_t h, const cldnn_solver* s, const void* problem, const char* key,
                         const void* buffers) {
    _Alignas(16) unsigned char q[CLDNN_PARAMS_MAX];
    cldnn_engine_params(h, s, problem, key, q);
    cldnnStatus_t st = s->run(h, problem, q, buffers);
    if (st == CLDNN_STATUS_SUCCESS && clFinish(h->queue) != CL_SUCCESS)
        st = CLDNN_STATUS_EXECUTION_FAILED;
    return st == CLDNN_STATUS_SUCCESS ? 0 : fail("the current parameters fail", st);
}

/* One search through the engine, its report in r; 0 on success. */
static int search(cldnnHandle_t h, const cldnn_family* fam, const cldnn_solver* s, const void* problem,
                  const char* key, const void* buffers, size_t ws, const tune_opts* o, cldnn_tune_report* r) {
    memset(r, 0, sizeof *r);
    r->progress = progress;
    r->progress_arg = (void*)o;
    r->poison = 1; /* the tool's buffers hold nothing else */
    cldnnStatus_t st = cldnn_engine_tune(h, fam, s, problem, key, buffers, ws, o->budget, r);
    if (st != CLDNN_STATUS_SUCCESS)
        return fail("Tune", st);
    if (r->solver == NULL) {
        fprintf(stderr, "cldnn-tune: %s: nothing was searched (CLDNN_LOG_LEVEL=2 says why)\n", key);
        return 1;
    }
    if (r->out_of_time)
        fprintf(stderr, "  budget of %.0f s reached after %zu of %zu candidates\n", o->budget,
                r->tried + r->skipped, r->candidates);
    return 0;
}

/* ------------------------------------------------------------------ gemm */

/* "same" when the CPU set's packing and orientation are the layout rule's for pr, else the rule's. */
static const char* cpu_rule_text(const cldnn_gemm_problem* pr, const cldnn_gemm_cpu_params* p) {
    static char buf[32];
    cldnn_gemm_cpu_params r = {0, 0, 0, 0, 0, -1, -1, -1, -1};
    cldnn_gemm_cpu_params_layout(pr, &r);
    if (r.yb == p->yb && r.packx == p->packx && r.packy == p->packy && r.swap == p->swap)
        return "same";
    snprintf(buf, sizeof buf, "y%d-p%dx%d-s%d", r.yb, r.packx, r.packy, r.swap);
    return buf;
}

/* Tunes the packed column-major problem m x n x k (ta, tb) of type dt under math. */
static int tune_gemm(cldnnHandle_t h, const gemm_shape* sh, cldnnDataType_t dt, cldnnMathType_t math,
                     const tune_opts* o) {
    cldnn_gemm_problem pr = {.m = sh->m, .n = sh->n, .k = sh->k, .trans_a = sh->ta, .trans_b = sh->tb, .batch = 1,
                             .alpha = 1.0f, .math = math, .dtype = dt, .dtype_c = dt};
    pr.lda = sh->ta ? sh->k : sh->m;
    pr.ldb = sh->tb ? sh->n : sh->k;
    pr.ldc = sh->m;
    const cldnn_family* fam = cldnn_gemm_family();
    const cldnn_solver* s = cldnn_engine_pick(fam, &pr, &h->prof, -1);
    char key[256], rec[128], shape[96];
    cldnn_gemm_problem_key(&pr, key, sizeof key);
    snprintf(shape, sizeof shape, "%lldx%lldx%lld %c%c", (long long)sh->m, (long long)sh->n, (long long)sh->k,
             sh->ta ? 'T' : 'N', sh->tb ? 'T' : 'N');
    if (o->db && user_record(h, key, s->name, rec, sizeof rec)) {
        printf("resumed %s %s %s (tuning db: %s)\n", shape, s->name, rec, key);
        return 0;
    }
    const size_t na = (size_t)(sh->m * sh->k), nb = (size_t)(sh->k * sh->n), nc = (size_t)(sh->m * sh->n);
    float *A = NULL, *B = NULL, *C = malloc(nc * 4);
    cldnn_gemm_buffers b = {random_buffer(h, dt, na, &A), random_buffer(h, dt, nb, &B), random_buffer(h, dt, nc, NULL)};
    int status = 1;
    if (!b.a || !b.b || !b.c || !C) {
        fprintf(stderr, "cldnn-tune: buffer allocation failed\n");
        goto done;
    }
    if (run_reference(h, s, &pr, key, &b) || read_floats(h, b.c, dt, nc, C))
        goto done;
    /* The reference against double dot products: a float sum's rounding (a whole ulp per addition
    ** on FP16 tensor cores, which truncate), TF32's input rounding, C's rounding for HALF. */
    const int mma = (s->flags & CLDNN_SOLVER_TENSOR_OPS) != 0, half = dt == CLDNN_DATA_HALF;
    const double sum_u = (mma && half ? 2.0 : 1.0) * 5.96e-8, in_rel = mma && !half ? 2.0 / 2048.0 : 0.0;
    for (int t = 0; t < 256; ++t) {
        const long long i = (long long)((frand() + 1.0f) * 0.5 * (double)sh->m) % sh->m;
        const long long j = (long long)((frand() + 1.0f) * 0.5 * (double)sh->n) % sh->n;
        double acc = 0.0, mag = 0.0;
        for (long long p = 0; p < sh->k; ++p) {
            const double x = sh->ta ? A[p + i * pr.lda] : A[i + p * pr.lda];
            const double y = sh->tb ? B[j + p * pr.ldb] : B[p + j * pr.ldb];
            acc += x * y;
            mag += fabs(x * y);
        }
        double tol = (4.0 * sum_u * sqrt((double)sh->k) + in_rel) * mag + 1e-30;
        if (half)
            tol += ldexp(fabs(acc) + tol, -11) + ldexp(1.0, -25);
        if (fabs(C[i + j * pr.ldc] - acc) > tol) {
            fprintf(stderr, "cldnn-tune: %s: the current parameters give C(%lld,%lld) = %.9g, want %.9g\n", shape, i,
                    j, C[i + j * pr.ldc], acc);
            goto done;
        }
    }
    cldnn_tune_report r;
    if (search(h, fam, s, &pr, key, &b, 0, o, &r))
        goto done;
    const double gf = 2.0 * (double)sh->m * (double)sh->n * (double)sh->k * 1e-9; /* TFLOP/s = gf / ms */
    printf("best %s %s class %s %s %s %.2f TFLOP/s (default %s %.2f TFLOP/s, x%.2f) [%zu tried, %zu rejected, "
           "%zu failed]\n",
           shape, cldnn_dtype_name(dt), cldnn_gemm_class_name(cldnn_gemm_classify(&pr)), s->name, r.best_text,
           gf / r.t_best, r.default_text, gf / r.t_default, r.t_default / r.t_best, r.tried, r.rejected, r.failed);
    cldnn_gemm_params q;
    cldnn_gemm_cpu_params qc;
    if (strcmp(s->name, CLDNN_GEMM_SOLVER_NAME) == 0 && cldnn_gemm_params_parse(r.best_text, &q))
        printf("    table row: {%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d}\n", q.mwg, q.nwg, q.kwg, q.mdimc, q.ndimc,
               q.vwm, q.vwn, q.vwa, q.vwb, q.pada, q.padb);
    else if (strcmp(s->name, CLDNN_GEMM_CPU_NAME) == 0 && cldnn_gemm_cpu_params_parse(r.best_text, &qc))
        printf("    table row: {%d, %d, %d, %d, %d, %d, %d, %d, %d} (layout rule: %s)\n", qc.mr, qc.nr, qc.vw, qc.ku,
               qc.mcb, qc.yb, qc.packx, qc.packy, qc.swap, cpu_rule_text(&pr, &qc));
    if (o->db)
        printf("    tuning db: %s|%s %s\n", key, r.db_name, r.best_text);
    status = 0;
done:
    fflush(stdout);
    cl_mem m[3] = {b.a, b.b, b.c};
    for (int i = 0; i < 3; ++i)
        if (m[i])
            clReleaseMemObject(m[i]);
    free(A);
    free(B);
    free(C);
    return status;
}

/* ------------------------------------------------------------------ conv */

static const char* const dir_names[3] = {"fwd", "bwd-data", "bwd-filter"};
static const char* const dir_solver_names[3] = {"fwd", "bwd_data", "bwd_filter"};

/* One shape and direction: descriptors, problem, buffers with their host copies, the reference. */
typedef struct {
    cldnnTensorDescriptor_t xd, yd;
    cldnnFilterDescriptor_t wd;
    cldnnConvolutionDescriptor_t cd;
    cldnn_conv_problem p;
    cldnn_conv_buffers b;
    ref_conv rc;
    float *hx, *hw, *hy, *out; /* out: the reference's output, as floats */
    size_t nout;
} conv_setup;

static void setup_close(conv_setup* t) {
    cl_mem m[4] = {t->b.x, t->b.w, t->b.y, t->b.ws};
    for (int i = 0; i < 4; ++i)
        if (m[i])
            clReleaseMemObject(m[i]);
    free(t->hx);
    free(t->hw);
    free(t->hy);
    free(t->out);
    cldnnDestroyTensorDescriptor(t->xd);
    cldnnDestroyTensorDescriptor(t->yd);
    cldnnDestroyFilterDescriptor(t->wd);
    cldnnDestroyConvolutionDescriptor(t->cd);
}

/* Direction dir of shape s in layout nhwc, type dt, math: descriptors, problem and random
** buffers; 0 on success (else 1 with a message). Workspace comes later (setup_workspace). */
static int setup_open(cldnnHandle_t h, const conv_shape* s, int dir, int nhwc, cldnnMathType_t math,
                      cldnnDataType_t dt, conv_setup* t) {
    memset(t, 0, sizeof *t);
    const cldnnTensorFormat_t fmt = nhwc ? CLDNN_TENSOR_NHWC : CLDNN_TENSOR_NCHW;
    int P, Q;
    conv_shape_out(s, &P, &Q);
    cldnnCreateTensorDescriptor(&t->xd);
    cldnnCreateTensorDescriptor(&t->yd);
    cldnnCreateFilterDescriptor(&t->wd);
    cldnnCreateConvolutionDescriptor(&t->cd);
    cldnnSetTensor4dDescriptor(t->xd, fmt, dt, s->n, s->c, s->h, s->w);
    cldnnSetTensor4dDescriptor(t->yd, fmt, dt, s->n, s->k, P, Q);
    cldnnSetFilter4dDescriptor(t->wd, dt, fmt, s->k, s->c / s->groups, s->r, s->s);
    cldnnSetConvolution2dDescriptor(t->cd, s->pad_h, s->pad_w, s->stride_h, s->stride_w, s->dil_h, s->dil_w,
                                    CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT);
    cldnnSetConvolutionGroupCount(t->cd, s->groups);
    cldnnSetConvolutionMathType(t->cd, math);
    cldnnStatus_t st = cldnn_conv_problem_init(h, (cldnn_conv_dir)dir, t->xd, t->wd, t->cd, t->yd, &t->p);
    if (st != CLDNN_STATUS_SUCCESS)
        return fail(s->name, st);
    ref_conv_init(&t->rc, s->n, s->c, s->h, s->w, s->k, s->r, s->s, s->pad_h, s->pad_w, s->stride_h, s->stride_w,
                  s->dil_h, s->dil_w, s->groups, 0, nhwc);
    const size_t nx = (size_t)ref_conv_x_span(&t->rc), nw = (size_t)ref_conv_w_span(&t->rc);
    const size_t ny = (size_t)ref_conv_y_span(&t->rc);
    t->nout = dir == 0 ? ny : dir == 1 ? nx : nw;
    t->b.x = random_buffer(h, dt, nx, &t->hx);
    t->b.w = random_buffer(h, dt, nw, &t->hw);
    t->b.y = random_buffer(h, dt, ny, &t->hy);
    t->out = malloc(t->nout * 4);
    if (!t->b.x || !t->b.w || !t->b.y || !t->out) {
        fprintf(stderr, "cldnn-tune: %s: buffer allocation failed\n", s->name);
        return 1;
    }
    return 0;
}

/* A workspace for s's candidates: what the reference needs, and for backward-filter the 256 MiB
** that split-k partial sums may take (cldnn_conv_igemm_splits); 0 on success. */
static int setup_workspace(cldnnHandle_t h, conv_setup* t, const cldnn_solver* s) {
    _Alignas(16) unsigned char q[CLDNN_PARAMS_MAX];
    cldnn_engine_params(h, s, &t->p, t->p.key, q);
    size_t ws = cldnn_engine_workspace(s, &t->p, q);
    if (t->p.dir == CLDNN_CONV_BWD_FILTER && ws < ((size_t)256 << 20))
        ws = (size_t)256 << 20;
    cl_int err = CL_SUCCESS;
    t->b.ws_size = ws;
    t->b.ws = ws ? clCreateBuffer(h->context, CL_MEM_READ_WRITE, ws, NULL, &err) : NULL;
    return ws && !t->b.ws;
}

/* The reference's output (t->out) against the double convolution on 256 sampled outputs, within
** rtol of each sum's terms (plus 2^-10 of the value for HALF: the output's rounding); 0 agrees. */
static int setup_verify(const conv_setup* t, const conv_shape* s, int dir, double rtol) {
    const ref_conv* rc = &t->rc;
    const int P = t->p.p, Q = t->p.q, Cg = s->c / s->groups;
    for (int i = 0; i < 256; ++i) {
        const long long i0 = (long long)(((double)frand() + 1.0) * 0.5 * 1e9);
        long long at;
        double want, mag;
        if (dir == 0) {
            long long n = i0 % s->n, k = (i0 / 7) % s->k, oh = (i0 / 131) % P, ow = (i0 / 977) % Q;
            want = ref_conv_fwd_at(rc, t->hx, t->hw, n, k, oh, ow, &mag);
            at = n * rc->ys[0] + k * rc->ys[1] + oh * rc->ys[2] + ow * rc->ys[3];
        } else if (dir == 1) {
            long long n = i0 % s->n, ch = (i0 / 7) % s->c, ih = (i0 / 131) % s->h, iw = (i0 / 977) % s->w;
            want = ref_conv_bwd_data_at(rc, t->hw, t->hy, n, ch, ih, iw, &mag);
            at = n * rc->xs[0] + ch * rc->xs[1] + ih * rc->xs[2] + iw * rc->xs[3];
        } else {
            long long k = i0 % s->k, ch = (i0 / 7) % Cg, r = (i0 / 131) % s->r, q = (i0 / 977) % s->s;
            want = ref_conv_bwd_filter_at(rc, t->hx, t->hy, k, ch, r, q, &mag);
            at = k * rc->ws[0] + ch * rc->ws[1] + r * rc->ws[2] + q * rc->ws[3];
        }
        const double round = t->p.dtype == CLDNN_DATA_HALF ? ldexp(fabs(want), -10) : 0.0;
        if (fabs((double)t->out[at] - want) > rtol * mag + round + 1e-6) {
            fprintf(stderr, "cldnn-tune: %s %s: the current parameters give %.9g at %lld, want %.9g\n", s->name,
                    dir_names[dir], t->out[at], at, want);
            return 1;
        }
    }
    return 0;
}

/* What -S selects: the solver's name stem, the math type of its problems, the reference's rtol. */
typedef struct {
    const char* label; /* the header's name */
    int which;         /* 0 igemm, 1 winograd, 2 igemm_mma */
    int tile;          /* winograd: 2 or 4 */
    cldnnDataType_t dt;
} conv_mode;

/* Tunes mode's solver on direction dir of shape s; 0 on success or a skip. */
static int tune_conv(cldnnHandle_t h, const conv_shape* s, int dir, int nhwc, const conv_mode* m, const tune_opts* o) {
    const int half = m->dt == CLDNN_DATA_HALF;
    const cldnnMathType_t math = m->which == 2   ? CLDNN_TENSOR_OP_MATH
                                 : m->which == 1 && m->tile == 2 ? CLDNN_FMA_MATH /* where F(2x2) runs */
                                                                 : CLDNN_DEFAULT_MATH;
    const double rtol = m->which == 0 ? 1e-5 : m->which == 1 ? 1e-4 : half ? 4e-5 : 1.0 / 2048.0 + 1e-5;
    char name[64];
    if (m->which == 1)
        snprintf(name, sizeof name, "conv_%s_winograd_fused_f%dx%d", dir_solver_names[dir], m->tile, m->tile);
    else
        snprintf(name, sizeof name, "conv_%s_%s", dir_solver_names[dir], m->which == 2 ? "igemm_mma" : "igemm");
    const cldnn_family* fam = cldnn_conv_family((cldnn_conv_dir)dir);
    const cldnn_solver* sv = cldnn_engine_solver(fam, name);
    conv_setup t;
    int status = 1;
    char rec[128];
    const char* layout = nhwc ? "NHWC" : "NCHW";
    if (setup_open(h, s, dir, nhwc, math, m->dt, &t))
        goto done;
    status = 0;
    if (sv == NULL || !sv->applicable(&t.p, &h->prof)) {
        fprintf(stderr, "  %s %s: %s does not apply, skipped\n", s->name, dir_names[dir], name);
        goto done;
    }
    const char* rname = sv->space->db_name ? sv->space->db_name : sv->name; /* the record's name */
    if (o->db && user_record(h, t.p.key, rname, rec, sizeof rec)) {
        printf("resumed conv-%s %s %s %s %s\n", dir_names[dir], s->name, layout, rname, rec);
        goto done;
    }
    status = 1;
    if (setup_workspace(h, &t, sv) || run_reference(h, sv, &t.p, t.p.key, &t.b) ||
        read_floats(h, dir == 0 ? t.b.y : dir == 1 ? t.b.x : t.b.w, m->dt, t.nout, t.out) ||
        setup_verify(&t, s, dir, rtol))
        goto done;
    cldnn_tune_report r;
    if (search(h, fam, sv, &t.p, t.p.key, &t.b, t.b.ws_size, o, &r))
        goto done;
    const double gf = conv_shape_flops(s) * 1e-9; /* TFLOP/s = gf / ms */
    int64_t gm, gn, gk;
    cldnn_conv_gemm_dims(&t.p, &gm, &gn, &gk);
    cldnn_gemm_problem g = {.m = gm, .n = gn, .k = gk};
    const char* cls = cldnn_gemm_class_name(cldnn_gemm_classify(&g));
    char what[64];
    snprintf(what, sizeof what, "%s%s", m->which == 0 ? "class " : "", m->which == 0 ? cls : r.db_name);
    printf("best conv-%s %s %s %s %s %.2f TFLOP/s (default %s %.2f TFLOP/s, x%.2f) [%zu tried, %zu rejected, "
           "%zu failed]\n",
           dir_names[dir], s->name, layout, what, r.best_text, gf / r.t_best, r.default_text, gf / r.t_default,
           r.t_default / r.t_best, r.tried, r.rejected, r.failed);
    cldnn_gemm_params q;
    if (m->which == 0 && cldnn_gemm_params_parse(r.best_text, &q)) {
        char ucls[16];
        size_t n = 0;
        for (; cls[n] && n + 1 < sizeof ucls; ++n)
            ucls[n] = (char)(cls[n] >= 'a' && cls[n] <= 'z' ? cls[n] - 32 : cls[n]);
        ucls[n] = 0;
        printf("    table row: {\"%s\", %d, CLDNN_GEMM_%s, {%d, %d, %d, %d, %d, %d, %d, 1, %d, %d, %d, 0}}\n",
               h->prof.name, dir, ucls, q.mwg, q.nwg, q.kwg, q.mdimc, q.ndimc, q.vwm, q.vwn, q.vwb, q.pada, q.padb);
    }
    if (o->db)
        printf("    recorded %s %s -> %s\n", t.p.key, r.db_name, r.best_text);
    status = 0;
done:
    fflush(stdout);
    setup_close(&t);
    return status;
}

/* ------------------------------------------------------------------ db: a shape list into the tuning db */

/* Options of `cldnn-tune db`. */
typedef struct {
    const char *path, *prefix, *md;
    int mask, batch;
    double budget, per_problem;
    size_t ws_max;
} db_opts;

/* Milliseconds of algorithm algo on p with the parameters the handle's find mode gives it; -1
** when no solver runs it, its workspace does not fit or a run fails. */
static double db_time_algo(cldnnHandle_t h, const cldnn_conv_problem* p, int algo, const cldnn_conv_buffers* b) {
    const cldnn_solver* s = cldnn_engine_pick(cldnn_conv_family(p->dir), p, &h->prof, algo);
    _Alignas(16) unsigned char q[CLDNN_PARAMS_MAX];
    if (s == NULL)
        return -1.0;
    cldnn_engine_params(h, s, p, p->key, q);
    const double t = cldnn_engine_workspace(s, p, q) <= b->ws_size ? cldnn_engine_time(h, s, p, q, b) : -1.0;
    cldnn_error_clear();
    return t;
}

/* Get_v7's first algorithm for p under the handle's find mode. */
static int db_get(cldnnHandle_t h, const cldnn_conv_problem* p) {
    cldnn_perf e[CLDNN_PERF_MAX];
    cldnn_engine_get(h, cldnn_conv_family(p->dir), p, p->key, e);
    return e[0].status == CLDNN_STATUS_SUCCESS ? e[0].algo : -1;
}

/* Layer s for `db` (NCHW, FLOAT; its buffers shared by the directions: each direction's output is
** another's input, all finite), with a workspace of the largest size any applicable algorithm of
** the directions in mask needs, at most ws_max bytes; 0 on success. */
static int db_layer_open(cldnnHandle_t h, const conv_shape* s, int mask, size_t ws_max, conv_setup* L) {
    if (setup_open(h, s, 0, 0, CLDNN_DEFAULT_MATH, CLDNN_DATA_FLOAT, L))
        return 1;
    for (int d = 0; d < 3; ++d) {
        cldnn_conv_problem p;
        cldnn_perf e[CLDNN_PERF_MAX];
        if (!(mask & (1 << d)) ||
            cldnn_conv_problem_init(h, (cldnn_conv_dir)d, L->xd, L->wd, L->cd, L->yd, &p) != CLDNN_STATUS_SUCCESS)
            continue;
        const int n = cldnn_engine_get(h, cldnn_conv_family((cldnn_conv_dir)d), &p, p.key, e);
        for (int i = 0; i < n; ++i)
            if (e[i].status == CLDNN_STATUS_SUCCESS && e[i].memory <= ws_max && e[i].memory > L->b.ws_size)
                L->b.ws_size = e[i].memory;
    }
    cldnn_error_clear();
    cl_int err = CL_SUCCESS;
    if (L->b.ws_size && (L->b.ws = clCreateBuffer(h->context, CL_MEM_READ_WRITE, L->b.ws_size, NULL, &err)) == NULL) {
        fprintf(stderr, "cldnn-tune: %s: workspace allocation failed\n", s->name);
        return 1;
    }
    return 0;
}

static const char* db_algo_name(const cldnn_family* fam, int a) {
    return a >= 0 && a < fam->algo_count ? fam->algo_names[a] : "?";
}

/* One markdown row of the per-layer table. */
static void db_md_row(FILE* md, const cldnn_family* fam, const conv_shape* s, int dir, const char* status,
                      const char* dp, double t_def, const char* bp, double t_tuned, int a_h, double t_h, int a_g,
                      double t_g) {
    if (md == NULL)
        return;
    fprintf(md, "| %s | %s | %s | %s | %.4g | %s | %.4g | %.2f | %s %.4g | %s %.4g | %.2f |\n", s->name, dir_names[dir],
            status, dp, t_def, bp, t_tuned, t_tuned > 0 ? t_def / t_tuned : 0.0, db_algo_name(fam, a_h), t_h,
            db_algo_name(fam, a_g), t_g, t_g > 0 ? t_h / t_g : 0.0);
}

/* Tunes, times and reports direction dir of shape s (the idx-th of total problems); returns 1 when
** the time budget stopped it before its search, else 0 (failures are reported and counted). */
static int db_problem(cldnnHandle_t h, const conv_shape* s, int dir, const conv_setup* L, const db_opts* o,
                      double t_end, int idx, int total, FILE* md, int* failures) {
    cldnn_conv_problem p;
    cldnnStatus_t st = cldnn_conv_problem_init(h, (cldnn_conv_dir)dir, L->xd, L->wd, L->cd, L->yd, &p);
    if (st != CLDNN_STATUS_SUCCESS) {
        ++*failures;
        fail(s->name, st);
        return 0;
    }
    const cldnn_family* fam = cldnn_conv_family((cldnn_conv_dir)dir);
    const cldnn_solver* sv = cldnn_engine_pick(fam, &p, &h->prof, fam->tune_algo);
    if (sv == NULL || sv->space == NULL) {
        printf("[%d/%d] %s %s: no tunable solver applies, skipped\n", idx, total, p.key, s->name);
        db_md_row(md, fam, s, dir, "no tunable solver", "-", 0, "-", 0, -1, 0, -1, 0);
        return 0;
    }
    const char* rname = sv->space->db_name ? sv->space->db_name : sv->name;
    _Alignas(16) unsigned char def[CLDNN_PARAMS_MAX], tuned[CLDNN_PARAMS_MAX];
    char dp[96], bp[96], rec[128];
    /* the heuristic: Get's algorithm and the solver's parameters with no database */
    cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC);
    const int a_h = db_get(h, &p);
    cldnn_engine_params(h, sv, &p, p.key, def);
    cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC);
    cldnn_params_format(sv->space->text, def, dp, sizeof dp);
    const char* status = "resumed";
    if (!user_record(h, p.key, rname, rec, sizeof rec)) {
        const double left = t_end - gemm_now_s();
        if (left < 1.0)
            return 1;
        /* what a TUNE-mode Find does: the search, then every algorithm timed into the find-db */
        cldnn_tune_report r = {0};
        const double budget = left < o->per_problem ? left : o->per_problem;
        st = cldnn_engine_tune(h, fam, sv, &p, p.key, &L->b, L->b.ws_size, budget, &r);
        cldnn_perf e[CLDNN_PERF_MAX];
        int n = 0;
        cldnnSetFindMode(h, CLDNN_FIND_MODE_BENCHMARK);
        if (st == CLDNN_STATUS_SUCCESS)
            st = cldnn_engine_find(h, fam, &p, p.key, &L->b, L->b.ws_size, e, &n);
        cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC);
        if (st != CLDNN_STATUS_SUCCESS || !user_record(h, p.key, rname, rec, sizeof rec)) {
            if (st != CLDNN_STATUS_SUCCESS)
                fail("Tune and Find", st);
            printf("[%d/%d] %s %s: tuning recorded nothing\n", idx, total, p.key, s->name);
            db_md_row(md, fam, s, dir, "FAILED", dp, 0, "-", 0, a_h, 0, -1, 0);
            ++*failures;
            return 0;
        }
        status = "tuned";
    }
    cldnn_engine_params(h, sv, &p, p.key, tuned); /* the record, where it is valid here */
    cldnn_params_format(sv->space->text, tuned, bp, sizeof bp);
    /* timed back to back after the search: default and tuned parameters (one time when they are
    ** the same), then Get's algorithm with the records and without a database */
    const double t_def = cldnn_engine_time(h, sv, &p, def, &L->b);
    const double t_tuned = strcmp(dp, bp) == 0 ? t_def : cldnn_engine_time(h, sv, &p, tuned, &L->b);
    const int a_g = db_get(h, &p);
    const double t_g = db_time_algo(h, &p, a_g, &L->b);
    cldnnSetFindMode(h, CLDNN_FIND_MODE_HEURISTIC);
    const double t_h = db_time_algo(h, &p, a_h, &L->b);
    cldnnSetFindMode(h, CLDNN_FIND_MODE_DB_OR_HEURISTIC);
    printf("[%d/%d] %s %s %s best %s %.4g ms (heuristic %s %.4g ms, x%.2f); layer: heuristic %s %.4g ms, "
           "now %s %.4g ms (x%.2f)\n",
           idx, total, p.key, s->name, status, bp, t_tuned, dp, t_def, t_tuned > 0 ? t_def / t_tuned : 0.0,
           db_algo_name(fam, a_h), t_h, db_algo_name(fam, a_g), t_g, t_g > 0 ? t_h / t_g : 0.0);
    fflush(stdout);
    db_md_row(md, fam, s, dir, status, dp, t_def, bp, t_tuned, a_h, t_h, a_g, t_g);
    return 0;
}

/* ------------------------------------------------------------------ command lines */

/* Reads the flags of argv[2..]: --quiet and --db alone, the rest with a value, passed to take;
** 2 on an error (printed), else 0. take returns 0 for a flag it does not know. */
static int parse_flags(int argc, char** argv, tune_opts* o, int (*take)(const char* a, const char* v, void* ctx),
                       void* ctx) {
    for (int i = 2; i < argc; ++i) {
        const char* a = argv[i];
        if (o != NULL && (strcmp(a, "--quiet") == 0 || strcmp(a, "--db") == 0)) {
            *(a[2] == 'q' ? &o->quiet : &o->db) = 1;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "cldnn-tune: %s needs a value\n", a);
            return 2;
        }
        const char* v = argv[++i];
        if (strcmp(a, "--iters") == 0) /* the engine times candidates: kept for old command lines */
            continue;
        if (o != NULL && strcmp(a, "--budget") == 0)
            o->budget = atof(v);
        else if (!take(a, v, ctx)) {
            fprintf(stderr, "cldnn-tune: unknown flag or value %s %s\n", a, v);
            return 2;
        }
    }
    return 0;
}

/* A handle on CLDNN_DEVICE's device; with db 0 its databases stay in memory (nothing persists). */
static cldnnHandle_t open_handle(int db) {
    cldnnHandle_t h = NULL;
    cldnnStatus_t st = cldnnCreateDefault(&h);
    if (st == CLDNN_STATUS_SUCCESS && !db)
        st = cldnnSetDatabasePath(h, "");
    if (st != CLDNN_STATUS_SUCCESS) {
        fail("cldnnCreateDefault", st);
        cldnnDestroy(h);
        return NULL;
    }
    return h;
}

typedef struct {
    const char* path;
    gemm_shape one;
    cldnnDataType_t dt;
    cldnnMathType_t math;
} gemm_args;

static int gemm_flag(const char* a, const char* v, void* ctx) {
    gemm_args* g = (gemm_args*)ctx;
    if (strcmp(a, "--shapes") == 0)
        g->path = v;
    else if (strcmp(a, "-m") == 0 || strcmp(a, "-n") == 0 || strcmp(a, "-k") == 0)
        *(a[1] == 'm' ? &g->one.m : a[1] == 'n' ? &g->one.n : &g->one.k) = atoll(v);
    else if (strcmp(a, "--transA") == 0 || strcmp(a, "--transB") == 0)
        *(a[7] == 'A' ? &g->one.ta : &g->one.tb) = atoi(v);
    else if (strcmp(a, "-d") == 0 && (strcmp(v, "float") == 0 || strcmp(v, "half") == 0))
        g->dt = v[0] == 'h' ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
    else if (strcmp(a, "--math") == 0 && (strcmp(v, "default") == 0 || strcmp(v, "tensor") == 0))
        g->math = v[0] == 't' ? CLDNN_TENSOR_OP_MATH : CLDNN_DEFAULT_MATH;
    else
        return 0;
    return 1;
}

static int main_gemm(int argc, char** argv) {
    tune_opts o = {120.0, 0, 0};
    gemm_args g = {NULL, {1024, 1024, 1024, 0, 0, 1, 0}, CLDNN_DATA_FLOAT, CLDNN_DEFAULT_MATH};
    if (parse_flags(argc, argv, &o, gemm_flag, &g))
        return 2;
    gemm_shape* shapes = &g.one;
    int n = 1;
    char err[256];
    if (g.path && gemm_shapes_read(g.path, &shapes, &n, err, sizeof err)) {
        fprintf(stderr, "cldnn-tune: %s\n", err);
        return 2;
    }
    cldnnHandle_t h = open_handle(o.db);
    if (h == NULL)
        return 1;
    cldnn_gemm_problem probe = {.m = 1, .n = 1, .k = 1, .math = g.math, .dtype = g.dt, .dtype_c = g.dt};
    printf("# cldnn-tune gemm on %s (driver %s, %u compute units), %s data, %s math: solver %s%s%s\n", h->prof.name,
           h->prof.driver, (unsigned)h->prof.compute_units, cldnn_dtype_name(g.dt),
           g.math == CLDNN_TENSOR_OP_MATH ? "tensor" : "default",
           cldnn_engine_pick(cldnn_gemm_family(), &probe, &h->prof, -1)->name,
           o.db ? "; winners recorded in the tuning db of " : "",
           o.db ? (h->db_dir[0] ? h->db_dir : "memory only") : "");
    int status = 0;
    for (int i = 0; i < n; ++i) {
        fprintf(stderr, "shape %d/%d: %lldx%lldx%lld %c%c\n", i + 1, n, (long long)shapes[i].m,
                (long long)shapes[i].n, (long long)shapes[i].k, shapes[i].ta ? 'T' : 'N', shapes[i].tb ? 'T' : 'N');
        status |= tune_gemm(h, &shapes[i], g.dt, g.math, &o);
    }
    cldnnDestroy(h);
    if (shapes != &g.one)
        free(shapes);
    return status;
}

typedef struct {
    const char* path;
    int mask, nhwc, bad;
    conv_mode m;
} conv_args;

static int conv_flag(const char* a, const char* v, void* ctx) {
    conv_args* c = (conv_args*)ctx;
    if (strcmp(a, "--shapes") == 0)
        c->path = v;
    else if (strcmp(a, "-F") == 0)
        c->mask = atoi(v);
    else if (strcmp(a, "-L") == 0)
        c->nhwc = strcmp(v, "NHWC") == 0;
    else if (strcmp(a, "--tile") == 0)
        c->m.tile = atoi(v);
    else if (strcmp(a, "-S") == 0 || strcmp(a, "--solver") == 0) {
        static const char* const names[3] = {"igemm", "winograd", "igemm_mma"};
        c->m.which = -1;
        for (int i = 0; i < 3; ++i)
            if (strcmp(v, names[i]) == 0)
                c->m.which = i;
        c->m.label = v;
    } else if (strcmp(a, "-d") == 0) {
        c->m.dt = strcmp(v, "half") == 0 ? CLDNN_DATA_HALF : CLDNN_DATA_FLOAT;
        c->bad |= strcmp(v, "half") != 0 && strcmp(v, "float") != 0;
    } else
        return 0;
    return 1;
}

static int main_conv(int argc, char** argv) {
    tune_opts o = {60.0, 0, 0};
    conv_args c = {NULL, 7, 0, 0, {"igemm", 0, 4, CLDNN_DATA_FLOAT}};
    if (parse_flags(argc, argv, &o, conv_flag, &c))
        return 2;
    if (c.path == NULL || c.mask < 1 || c.mask > 7 || c.m.which < 0 || (c.m.tile != 2 && c.m.tile != 4) || c.bad ||
        (c.m.dt == CLDNN_DATA_HALF && c.m.which != 2)) {
        fprintf(stderr, "usage: cldnn-tune conv --shapes FILE [-F 1..7] [-L NCHW|NHWC] [-S igemm|winograd|igemm_mma] "
                        "[--tile 2|4] [--db] [-d float|half] [--budget S] [--quiet]\n"
                        "       (--tile with -S winograd, -d half with -S igemm_mma)\n");
        return 2;
    }
    conv_shape* shapes = NULL;
    const int ns = conv_shapes_read(c.path, &shapes);
    if (ns < 0)
        return 2;
    cldnnHandle_t h = open_handle(o.db);
    if (h == NULL) {
        free(shapes);
        return 1;
    }
    printf("# cldnn-tune conv %s on %s (driver %s, %u compute units); %s data; %s%s\n",
           c.m.which == 1 ? cldnn_wino_fused_solver_name(c.m.tile) : c.m.label, h->prof.name, h->prof.driver,
           (unsigned)h->prof.compute_units, cldnn_dtype_name(c.m.dt), c.path,
           o.db ? "; winners recorded in the tuning db" : "");
    int status = 0;
    for (int i = 0; i < ns; ++i)
        for (int d = 0; d < 3; ++d)
            if (c.mask & (1 << d) && !(c.m.which == 1 && d == 2)) {
                fprintf(stderr, "shape %d/%d: %s %s\n", i + 1, ns, shapes[i].name, dir_names[d]);
                status |= tune_conv(h, &shapes[i], d, c.nhwc, &c.m, &o);
            }
    cldnnDestroy(h);
    free(shapes);
    return status;
}

static int db_flag(const char* a, const char* v, void* ctx) {
    db_opts* o = (db_opts*)ctx;
    if (strcmp(a, "--shapes") == 0 || strcmp(a, "--prefix") == 0 || strcmp(a, "--md") == 0)
        *(a[2] == 's' ? &o->path : a[2] == 'p' ? &o->prefix : &o->md) = v;
    else if (strcmp(a, "-F") == 0 || strcmp(a, "--batch") == 0)
        *(a[1] == 'F' ? &o->mask : &o->batch) = atoi(v);
    else if (strcmp(a, "--budget") == 0 || strcmp(a, "--per-problem") == 0)
        *(a[2] == 'b' ? &o->budget : &o->per_problem) = atof(v);
    else if (strcmp(a, "--ws-max") == 0)
        o->ws_max = (size_t)(atof(v) * 1048576.0);
    else
        return 0;
    return 1;
}

static int main_db(int argc, char** argv) {
    db_opts o = {NULL, "", NULL, 7, 0, 3600.0, 60.0, (size_t)1 << 30};
    if (parse_flags(argc, argv, NULL, db_flag, &o))
        return 2;
    if (o.path == NULL || o.mask < 1 || o.mask > 7 || o.batch < 0 || !(o.budget > 0) || !(o.per_problem >= 1)) {
        fprintf(stderr, "usage: cldnn-tune db --shapes FILE [--prefix NAME] [--batch N] [-F 1..7] [--budget S] "
                        "[--per-problem S] [--ws-max MiB] [--md FILE]\n");
        return 2;
    }
    const double t_end = gemm_now_s() + o.budget;
    conv_shape* shapes = NULL;
    const int ns = conv_shapes_read(o.path, &shapes);
    if (ns < 0)
        return 2;
    int n = 0;
    for (int i = 0; i < ns; ++i)
        if (strncmp(shapes[i].name, o.prefix, strlen(o.prefix)) == 0) {
            shapes[n] = shapes[i];
            shapes[n].n = o.batch > 0 ? o.batch : shapes[n].n;
            ++n;
        }
    const int dirs = (o.mask & 1) + ((o.mask >> 1) & 1) + ((o.mask >> 2) & 1), total = n * dirs;
    cldnnHandle_t h = open_handle(1);
    if (h == NULL) {
        free(shapes);
        return 1;
    }
    printf("# cldnn-tune db on %s (%u compute units), %d problems of %s, budget %.0f s (at most %.0f s each), "
           "tuning db in %s\n",
           h->prof.name, (unsigned)h->prof.compute_units, total, o.path, o.budget, o.per_problem,
           h->db_dir[0] ? h->db_dir : "memory only");
    FILE* md = NULL;
    if (o.md && (md = fopen(o.md, "w")) == NULL)
        fprintf(stderr, "cldnn-tune: cannot write %s\n", o.md);
    if (md)
        fprintf(md, "| layer | dir | status | default params | ms | tuned params | ms | tuned x | heuristic algo ms "
                    "| after tuning algo ms | layer x |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    int idx = 0, failures = 0, stopped = 0;
    for (int i = 0; i < n && !stopped; ++i) {
        conv_setup L;
        if (db_layer_open(h, &shapes[i], o.mask, o.ws_max, &L)) {
            failures++;
            idx += dirs;
        } else {
            for (int d = 0; d < 3 && !stopped; ++d)
                if (o.mask & (1 << d))
                    stopped = db_problem(h, &shapes[i], d, &L, &o, t_end, ++idx, total, md, &failures);
        }
        setup_close(&L);
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
    const char* mode = argc >= 2 ? argv[1] : "";
    if (strcmp(mode, "gemm") == 0)
        return main_gemm(argc, argv);
    if (strcmp(mode, "conv") == 0)
        return main_conv(argc, argv);
    if (strcmp(mode, "db") == 0)
        return main_db(argc, argv);
    fprintf(stderr, "usage: cldnn-tune gemm [--shapes FILE | -m M -n N -k K --transA 0|1 --transB 0|1] "
                    "[-d float|half] [--math default|tensor] [--budget S] [--quiet] [--db]\n"
                    "       cldnn-tune conv --shapes FILE [-F 1..7] [-L NCHW|NHWC] [-S igemm|winograd|igemm_mma] "
                    "[--tile 2|4] [-d float|half] [--budget S] [--quiet] [--db]\n"
                    "       cldnn-tune db --shapes FILE [--prefix NAME] [--batch N] [-F 1..7] [--budget S] "
                    "[--per-problem S] [--ws-max MiB] [--md FILE]\n"
                    "       (see the top of perf/tune/cldnn-tune.c)\n");
    return 2;
}
