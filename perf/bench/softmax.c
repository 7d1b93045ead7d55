/*
** softmax.c: the `softmax` mode of cldnn-bench: cldnnSoftmaxForward and cldnnSoftmaxBackward.
**
**   cldnn-bench softmax -F 0|1|2 -a 0|1|2|all -M 0|1 [common flags]
**
** -a is the cldnnSoftmaxAlgorithm_t (0 fast, 1 accurate, 2 log; the names work too), -M the
** cldnnSoftmaxMode_t (0 instance: one softmax per n over C and every spatial dim; 1 channel: one
** per (n, spatial position) over C). The tensor needs at least 2 dims (N, C). The lines the
** library prints with CLDNN_LOG_CMD=1 (`cldnn-bench softmax -F 1 -a 1 -M 1 -A 1 -B 0 -D
** 32x1000x1x1 -d float [-L NHWC]`) run as they are.
**
** Data, drawn once from the seed and uploaded once: x uniform in [-4, 4), dy in [-1, 1) and,
** when beta != 0, the prior y / dx in [-1, 1). Per algorithm and direction: one verified call
** (output poisoned with NaN when beta == 0) compared with ref_softmax_forward / _backward in
** double, then the timed calls. Backward reads y = softmax(x) of its own algorithm: with -V 1
** the reference's, rounded to the data type (so a backward result does not depend on the
** forward kernel); with -V 0 the library's forward (alpha 1, beta 0) writes it.
**
** Tolerance per element: atol + rtol * scale, atol / rtol those of the data type (float 1e-6 +
** 1e-5, half 2e-3 + 2e-3), scale = |alpha| s + |beta prior| where s is the natural size of the
** rounding error: forward FAST / ACCURATE |y|; forward LOG |y| + 1 (y = x - max - log sum is a
** difference of terms as large as |y|); backward the same formula on absolute values
** (ref_softmax_backward_abs), since dy - sum(dy y) cancels.
**
** Bytes counted per call: forward x + y, plus y again when beta != 0; backward y + dy + dx, plus
** dx again when beta != 0.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const bench_flag k_flags[] = {
    {"-F", BENCH_FLAG_INT, "0", "1 forward, 2 backward, 0 both"},
    {"-a", BENCH_FLAG_STRING, "1", "algorithm 0|1|2 (fast|accurate|log) or all"},
    {"-M", BENCH_FLAG_INT, "1", "mode 0 instance (C x spatial per n) | 1 channel (C per n, spatial)"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

/* The algorithms by cldnnSoftmaxAlgorithm_t value. */
static const char* const k_algo_names[3] = {"fast", "accurate", "log"};
static const char* const k_mode_names[2] = {"instance", "channel"};

/* Everything one run shares: descriptor, device buffers and host arrays (span elements each,
** laid out like the device buffers; want and scale are packed, count elements). */
typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    int mode;                           /* cldnnSoftmaxMode_t */
    ref_view v;
    int64_t span, count;
    size_t bytes;                       /* one tensor's buffer */
    cldnnTensorDescriptor_t desc;
    cl_mem x, y, dy, dx;
    float *hx, *hdy, *hprior, *hy, *got;
    double *want, *scale;
    int fails;                          /* failed calls or verifications */
} sm_run;

/* One call's arguments, for the timing loop. */
typedef struct {
    sm_run* r;
    int algo;
    int backward;
    float alpha, beta;
} sm_call;

/* Enqueues one forward or backward call of the run's descriptor and buffers. */
static cldnnStatus_t sm_once(void* user) {
    sm_call* c = user;
    sm_run* r = c->r;
    cldnnSoftmaxAlgorithm_t algo = (cldnnSoftmaxAlgorithm_t)c->algo;
    cldnnSoftmaxMode_t mode = (cldnnSoftmaxMode_t)r->mode;
    if (!c->backward)
        return cldnnSoftmaxForward(r->ctx->handle, algo, mode, &c->alpha, r->desc, r->x, 0, &c->beta, r->desc, r->y,
                                   0);
    return cldnnSoftmaxBackward(r->ctx->handle, algo, mode, &c->alpha, r->desc, r->y, 0, r->desc, r->dy, 0, &c->beta,
                                r->desc, r->dx, 0);
}

/* Compares got (strided by v) with want (packed) element by element with the tolerance atol +
** rtol * scale[i]; fills res like bench_check_result (max_rel as ref_compare measures it,
** tol_use = the largest err / tol) and prints the first failure. Returns 0 on pass, 1 on failure. */
static int sm_check(const sm_run* r, const float* got, const double* want, const double* scale, bench_result* res) {
    const bench_opts* o = r->opts;
    const ref_view* views[1] = {&r->v};
    bench_walk w;
    bench_walk_init(&w, r->v.nd, r->v.dims, 1, views);
    int64_t bad = 0, first = -1;
    double max_rel = 0, use = 0;
    for (int64_t i = 0; i < r->count; i++, bench_walk_next(&w)) {
        double g = got[w.off[0]], err, tol = o->atol + o->rtol * scale[i];
        int ok = ref_close(g, want[i], tol, &err);
        double rel = want[i] != 0.0 ? err / fabs(want[i]) : err;
        if (rel > max_rel) max_rel = rel;
        if (err / tol > use) use = err / tol;
        if (!ok) {
            if (!bad) first = i;
            bad++;
        }
    }
    res->max_rel = max_rel;
    res->tol_use = use;
    res->bad = bad;
    res->check = bad ? BENCH_CHECK_FAIL : BENCH_CHECK_PASS;
    if (bad)
        fprintf(stderr, "cldnn-bench: softmax %s: %lld of %lld elements outside %.0e abs + %.0e rel (of the scale); "
                        "first at %lld: got %.9g want %.9g scale %.3g\n",
                res->op, (long long)bad, (long long)r->count, o->atol, o->rtol, (long long)first,
                (double)got[ref_view_offset(&r->v, first)], want[first], scale[first]);
    return bad != 0;
}

/* Makes y (host hy and device y) the reference forward output of algo, rounded to the data type.
** Uses want as scratch. Returns 0 or 1. */
static int sm_host_y(sm_run* r, int algo) {
    const ref_view* views[1] = {&r->v};
    bench_walk w;
    ref_softmax_forward(algo, r->mode, &r->v, r->hx, r->want);
    bench_walk_init(&w, r->v.nd, r->v.dims, 1, views);
    for (int64_t i = 0; i < r->count; i++, bench_walk_next(&w)) r->hy[w.off[0]] = (float)r->want[i];
    bench_round(r->opts->dtype, r->hy, (size_t)r->span);
    return bench_upload(r->ctx, r->y, r->opts->dtype, r->hy, (size_t)r->span);
}

/* Verifies one call of algo in the given direction: uploads y for backward and the poisoned or
** prior output, runs it, compares with the reference. Fills res; returns 0 when the call ran
** (whatever the comparison said), 1 when it could not run. */
static int sm_verify(sm_run* r, int algo, int backward, bench_result* res) {
    const bench_opts* o = r->opts;
    size_t n = (size_t)r->span;
    sm_call c = {r, algo, backward, (float)o->alpha, (float)o->beta};
    if (backward && sm_host_y(r, algo)) return 1;
    if (o->beta == 0) ref_fill_nan(r->got, n);
    else memcpy(r->got, r->hprior, n * sizeof *r->got);
    if (bench_upload(r->ctx, backward ? r->dx : r->y, o->dtype, r->got, n)) return 1;
    cldnnStatus_t st = sm_once(&c);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(res, backward ? "cldnnSoftmaxBackward" : "cldnnSoftmaxForward", st);
        return 1;
    }
    if (bench_download(r->ctx, backward ? r->dx : r->y, o->dtype, r->got, n)) return 1;
    if (!backward) {
        ref_softmax_forward(algo, r->mode, &r->v, r->hx, r->want);
    } else {
        ref_softmax_backward(algo, r->mode, &r->v, r->hy, r->hdy, r->want);
        ref_softmax_backward_abs(algo, r->mode, &r->v, r->hy, r->hdy, r->scale);
    }
    /* alpha / beta on the reference and on its scale */
    const ref_view* views[1] = {&r->v};
    bench_walk w;
    bench_walk_init(&w, r->v.nd, r->v.dims, 1, views);
    for (int64_t i = 0; i < r->count; i++, bench_walk_next(&w)) {
        double a = r->want[i], prior = o->beta != 0 ? (double)r->hprior[w.off[0]] : 0.0;
        double s = backward ? r->scale[i] : fabs(a) + (algo == CLDNN_SOFTMAX_LOG ? 1.0 : 0.0);
        r->want[i] = o->alpha * a + o->beta * prior;
        r->scale[i] = fabs(o->alpha) * s + fabs(o->beta * prior);
    }
    r->fails += sm_check(r, r->got, r->want, r->scale, res);
    return 0;
}

/* Runs (verifies, times, reports) algo in one direction. */
static void sm_one(sm_run* r, int algo, int backward) {
    const bench_opts* o = r->opts;
    bench_result res;
    bench_result_init(&res, "softmax", o);
    snprintf(res.op, sizeof res.op, "%s %s %s", k_algo_names[algo], k_mode_names[r->mode], backward ? "bwd" : "fwd");
    double t = (double)r->bytes;
    res.bytes = (backward ? 3 * t : 2 * t) + (o->beta != 0 ? t : 0);

    if (o->verify && sm_verify(r, algo, backward, &res)) {
        if (!res.note[0]) {
            snprintf(res.note, sizeof res.note, "verification could not run");
            r->fails++;
        }
        bench_report(o, &res);
        return;
    }
    if (o->time) {
        sm_call c = {r, algo, backward, (float)o->alpha, (float)o->beta};
        if (backward && !o->verify) {
            /* y = the library's forward of this algorithm (x -> y, alpha 1, beta 0) */
            sm_call f = {r, algo, 0, 1.0f, 0.0f};
            cldnnStatus_t st = sm_once(&f);
            if (st != CLDNN_STATUS_SUCCESS) {
                r->fails += bench_note_status(&res, "cldnnSoftmaxForward (backward's y)", st);
                bench_report(o, &res);
                return;
            }
        }
        r->fails += bench_time_result(r->ctx, o, sm_once, &c, r->bytes, &res);
    }
    bench_report(o, &res);
}

/* The mode's run function (see bench_mode). */
static int softmax_run(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    const char* aname = bench_arg_str(args, "-a");
    int only = -1, all = strcmp(aname, "all") == 0;
    for (int k = 0; k < 3; k++) {
        char num[4];
        snprintf(num, sizeof num, "%d", k);
        if (strcmp(aname, num) == 0 || strcmp(aname, k_algo_names[k]) == 0) only = k;
    }
    if (!all && only < 0) {
        fprintf(stderr, "cldnn-bench softmax: -a %s: expected 0 (fast), 1 (accurate), 2 (log) or all\n", aname);
        return 2;
    }
    long long F = bench_arg_int(args, "-F", 0), M = bench_arg_int(args, "-M", 1);
    if (F < 0 || F > 2) {
        fprintf(stderr, "cldnn-bench softmax: -F %lld: expected 0, 1 or 2\n", F);
        return 2;
    }
    if (M != 0 && M != 1) {
        fprintf(stderr, "cldnn-bench softmax: -M %lld: expected 0 (instance) or 1 (channel)\n", M);
        return 2;
    }
    if (opts->nd < 2) {
        fprintf(stderr, "cldnn-bench softmax: a softmax needs at least 2 dims (N, C); got %d\n", opts->nd);
        return 2;
    }
    int need_fwd = F != 2, need_bwd = F != 1;

    sm_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.mode = (int)M;
    r.v = bench_view(opts->nd, opts->dims, opts->layout);
    r.span = ref_view_span(&r.v);
    r.count = ref_view_count(&r.v);
    r.bytes = (size_t)r.span * opts->elem_size;
    size_t n = (size_t)r.span;
    int rc = 1;
    if (!(r.desc = bench_desc(&r.v, opts->dtype))) goto out;
    /* x is read by the forward and, with -V 0, by the forward that makes backward's y */
    ref_rng rng;
    ref_rng_seed(&rng, opts->seed);
    if (bench_io_setup(ctx, opts, &rng, r.bytes, n, need_bwd, -4.0, 4.0, &r.x, &r.y, &r.dy, &r.dx, &r.hx, &r.hdy))
        goto out;
    if (opts->verify) {
        if (!(r.got = bench_alloc(n, sizeof(float))) || !(r.want = bench_alloc((size_t)r.count, sizeof(double))) ||
            !(r.scale = bench_alloc((size_t)r.count, sizeof(double))))
            goto out;
        if (need_bwd && !(r.hy = bench_alloc(n, sizeof(float)))) goto out;
        if (opts->beta != 0) {
            if (!(r.hprior = bench_alloc(n, sizeof(float)))) goto out;
            ref_fill_uniform(&rng, r.hprior, n, -1.0, 1.0);
            bench_round(opts->dtype, r.hprior, n);
        }
    } else if (opts->beta != 0) {
        /* timing only: give the prior outputs defined values */
        if ((need_fwd && bench_upload(ctx, r.y, opts->dtype, r.hx, n)) ||
            (need_bwd && bench_upload(ctx, r.dx, opts->dtype, r.hdy, n)))
            goto out;
    }
    for (int k = 0; k < 3; k++) {
        if (!all && k != only) continue;
        if (need_fwd) sm_one(&r, k, 0);
        if (need_bwd) sm_one(&r, k, 1);
    }
    rc = r.fails ? 1 : 0;
out:
    bench_release(r.x);
    bench_release(r.y);
    bench_release(r.dy);
    bench_release(r.dx);
    cldnnDestroyTensorDescriptor(r.desc);
    free(r.hx);
    free(r.hdy);
    free(r.hprior);
    free(r.hy);
    free(r.got);
    free(r.want);
    free(r.scale);
    return rc;
}

const bench_mode bench_mode_softmax = {"softmax", "softmax forward and backward (cldnnSoftmaxForward/Backward)",
                                       k_flags, softmax_run, NULL};
