/*
** lrn.c: the `lrn` mode of cldnn-bench: cldnnLRNForward and cldnnLRNBackward.
**
**   cldnn-bench lrn -F 0|1|2 -m 0|1 -N n -a lrnAlpha -b lrnBeta -K lrnK [common flags]
**
** Flags as MIOpenDriver's lrn, with the window's alpha and beta on -a / -b (the common -A / -B
** are the output scaling alpha and beta): -m is the cldnnLRNMode_t (0 across channels, 1
** within a channel), -N the window n (1..16), -K the k term. Defaults: cuDNN's descriptor
** defaults (n 5, alpha 1e-4, beta 0.75, k 2). The lines the library prints with
** CLDNN_LOG_CMD=1 (`cldnn-bench lrn -F 1 -m 0 -N 5 -a 0.0001 -b 0.75 -K 2 -A 1 -B 0 -D
** 32x96x55x55 -d float [-L NHWC]`) run as they are. AlexNet / GoogLeNet shapes:
**   -D 32x96x55x55, 32x256x27x27, 32x64x56x56, 32x192x56x56 with -N 5.
**
** Data, drawn once from the seed: x uniform in [-4, 4), dy in [-1, 1) and, when beta != 0, the
** prior y / dx in [-1, 1). Backward reads y = LRN(x): with -V 1 the reference's rounded to the
** data type; with -V 0 the library's forward. Verification: ref_lrn_forward / _backward in
** double; tolerance atol + rtol * scale with scale |alpha f| + |beta prior| (backward: the
** formula on absolute values, ref_lrn_backward_abs), atol / rtol those of the data type.
**
** Bytes counted per call: forward x + y; backward x + y + dy + dx; plus the output again when
** beta != 0 (read before it is written).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ref_lrn.h"

static const bench_flag k_flags[] = {
    {"-F", BENCH_FLAG_INT, "0", "1 forward, 2 backward, 0 both"},
    {"-m", BENCH_FLAG_INT, "0", "mode 0 across channels | 1 within a channel (cldnnLRNMode_t)"},
    {"-N", BENCH_FLAG_INT, "5", "window n (1..16)"},
    {"-a", BENCH_FLAG_DOUBLE, "0.0001", "the window's alpha (lrnAlpha)"},
    {"-b", BENCH_FLAG_DOUBLE, "0.75", "the window's beta (lrnBeta)"},
    {"-K", BENCH_FLAG_DOUBLE, "2", "the k term (lrnK)"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

/* Everything one run shares: host arrays are laid out like the device buffers (span elements). */
typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    cldnnLRNMode_t mode;
    cldnnLRNDescriptor_t lrn;
    ref_lrn_params rp;
    ref_view v;
    int64_t span, count;
    size_t bytes;
    cldnnTensorDescriptor_t desc;
    cl_mem x, y, dy, dx;
    float *hx, *hdy, *hprior, *hy, *got;
    double *want, *scale;
    int fails;
} lrn_run;

typedef struct {
    lrn_run* r;
    int backward;
    float alpha, beta;
} lrn_call;

static cldnnStatus_t lrn_once(void* user) {
    lrn_call* c = user;
    lrn_run* r = c->r;
    if (!c->backward)
        return cldnnLRNForward(r->ctx->handle, r->lrn, r->mode, &c->alpha, r->desc, r->x, 0, &c->beta, r->desc, r->y,
                               0);
    return cldnnLRNBackward(r->ctx->handle, r->lrn, r->mode, &c->alpha, r->desc, r->y, 0, r->desc, r->dy, 0, r->desc,
                            r->x, 0, &c->beta, r->desc, r->dx, 0);
}

/* Verifies one call: y for backward from the reference, the output poisoned (beta 0) or the
** prior, the call, and the comparison (want and scale are laid out like the buffers). Returns 0
** when the call ran, 1 when it could not. */
static int lrn_verify(lrn_run* r, int backward, bench_result* res) {
    const bench_opts* o = r->opts;
    size_t n = (size_t)r->span;
    if (backward) {
        ref_lrn_forward(&r->rp, &r->v, r->hx, r->want);
        for (size_t i = 0; i < n; i++) r->hy[i] = (float)r->want[i];
        bench_round(o->dtype, r->hy, n);
        if (bench_upload(r->ctx, r->y, o->dtype, r->hy, n)) return 1;
    }
    if (o->beta == 0) ref_fill_nan(r->got, n);
    else memcpy(r->got, r->hprior, n * sizeof *r->got);
    if (bench_upload(r->ctx, backward ? r->dx : r->y, o->dtype, r->got, n)) return 1;
    lrn_call c = {r, backward, (float)o->alpha, (float)o->beta};
    cldnnStatus_t st = lrn_once(&c);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(res, backward ? "cldnnLRNBackward" : "cldnnLRNForward", st);
        return 1;
    }
    if (bench_download(r->ctx, backward ? r->dx : r->y, o->dtype, r->got, n)) return 1;
    if (!backward) {
        ref_lrn_forward(&r->rp, &r->v, r->hx, r->want);
    } else {
        ref_lrn_backward(&r->rp, &r->v, r->hx, r->hy, r->hdy, r->want);
        ref_lrn_backward_abs(&r->rp, &r->v, r->hx, r->hy, r->hdy, r->scale);
    }
    const ref_view* views[1] = {&r->v};
    bench_walk w;
    bench_walk_init(&w, r->v.nd, r->v.dims, 1, views);
    int64_t bad = 0, first = -1;
    double max_rel = 0, use = 0;
    for (int64_t i = 0; i < r->count; i++, bench_walk_next(&w)) {
        int64_t e = w.off[0];
        double f = r->want[e], prior = o->beta != 0 ? (double)r->hprior[e] : 0.0;
        double s = backward ? r->scale[e] : fabs(f);
        double want = o->alpha * f + o->beta * prior, scale = fabs(o->alpha) * s + fabs(o->beta * prior);
        double err, tol = o->atol + o->rtol * scale;
        int ok = ref_close(r->got[e], want, tol, &err);
        double rel = want != 0.0 ? err / fabs(want) : err;
        if (rel > max_rel) max_rel = rel;
        if (err / tol > use) use = err / tol;
        if (!ok && !bad++) first = i;
        if (!ok && bad == 1)
            fprintf(stderr, "cldnn-bench: lrn %s: first failure at %lld: got %.9g want %.9g scale %.3g\n", res->op,
                    (long long)first, (double)r->got[e], want, scale);
    }
    res->max_rel = max_rel;
    res->tol_use = use;
    res->bad = bad;
    res->check = bad ? BENCH_CHECK_FAIL : BENCH_CHECK_PASS;
    if (bad) r->fails++;
    return 0;
}

static void lrn_one(lrn_run* r, int backward) {
    const bench_opts* o = r->opts;
    bench_result res;
    bench_result_init(&res, "lrn", o);
    snprintf(res.op, sizeof res.op, "%s n%d %s", r->mode == CLDNN_LRN_CROSS_CHANNEL ? "cross" : "within", r->rp.n,
             backward ? "bwd" : "fwd");
    double t = (double)r->bytes;
    res.bytes = (backward ? 4 * t : 2 * t) + (o->beta != 0 ? t : 0);
    if (o->verify && lrn_verify(r, backward, &res)) {
        if (!res.note[0]) {
            snprintf(res.note, sizeof res.note, "verification could not run");
            r->fails++;
        }
        bench_report(o, &res);
        return;
    }
    if (o->time) {
        if (backward && !o->verify) {
            lrn_call f = {r, 0, 1.0f, 0.0f};
            cldnnStatus_t st = lrn_once(&f);
            if (st != CLDNN_STATUS_SUCCESS) {
                r->fails += bench_note_status(&res, "cldnnLRNForward (backward's y)", st);
                bench_report(o, &res);
                return;
            }
        }
        lrn_call c = {r, backward, (float)o->alpha, (float)o->beta};
        r->fails += bench_time_result(r->ctx, o, lrn_once, &c, r->bytes, &res);
    }
    bench_report(o, &res);
}

static int lrn_bench_run(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    long long F = bench_arg_int(args, "-F", 0), M = bench_arg_int(args, "-m", 0), N = bench_arg_int(args, "-N", 5);
    if (F < 0 || F > 2 || (M != 0 && M != 1)) {
        fprintf(stderr, "cldnn-bench lrn: -F %lld -m %lld: expected -F 0|1|2 and -m 0|1\n", F, M);
        return 2;
    }
    if (opts->nd < 3) {
        fprintf(stderr, "cldnn-bench lrn: LRN needs at least 3 dims (N, C, spatial); got %d\n", opts->nd);
        return 2;
    }
    int need_fwd = F != 2, need_bwd = F != 1;
    lrn_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.mode = (cldnnLRNMode_t)M;
    r.rp.mode = (int)M;
    r.rp.n = (int)N;
    r.rp.alpha = bench_arg_double(args, "-a", 1e-4);
    r.rp.beta = bench_arg_double(args, "-b", 0.75);
    r.rp.k = bench_arg_double(args, "-K", 2.0);
    r.v = bench_view(opts->nd, opts->dims, opts->layout);
    r.span = ref_view_span(&r.v);
    r.count = ref_view_count(&r.v);
    r.bytes = (size_t)r.span * opts->elem_size;
    size_t n = (size_t)r.span;
    int rc = 1;
    cldnnStatus_t st = cldnnCreateLRNDescriptor(&r.lrn);
    if (st == CLDNN_STATUS_SUCCESS)
        st = cldnnSetLRNDescriptor(r.lrn, (unsigned)(N < 0 ? 0 : N), r.rp.alpha, r.rp.beta, r.rp.k);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnSetLRNDescriptor", st);
        rc = 2;
        goto out;
    }
    if (!(r.desc = bench_desc(&r.v, opts->dtype))) goto out;
    ref_rng rng;
    ref_rng_seed(&rng, opts->seed);
    if (bench_io_setup(ctx, opts, &rng, r.bytes, n, need_bwd, -4.0, 4.0, &r.x, &r.y, &r.dy, &r.dx, &r.hx, &r.hdy))
        goto out;
    if (opts->verify) {
        if (!(r.got = bench_alloc(n, sizeof(float))) || !(r.want = bench_alloc(n, sizeof(double))) ||
            !(r.scale = bench_alloc(n, sizeof(double))))
            goto out;
        if (need_bwd && !(r.hy = bench_alloc(n, sizeof(float)))) goto out;
        if (opts->beta != 0) {
            if (!(r.hprior = bench_alloc(n, sizeof(float)))) goto out;
            ref_fill_uniform(&rng, r.hprior, n, -1.0, 1.0);
            bench_round(opts->dtype, r.hprior, n);
        }
    } else if (opts->beta != 0) {
        if ((need_fwd && bench_upload(ctx, r.y, opts->dtype, r.hx, n)) ||
            (need_bwd && bench_upload(ctx, r.dx, opts->dtype, r.hdy, n)))
            goto out;
    }
    if (need_fwd) lrn_one(&r, 0);
    if (need_bwd) lrn_one(&r, 1);
    rc = r.fails ? 1 : 0;
out:
    bench_release(r.x);
    bench_release(r.y);
    bench_release(r.dy);
    bench_release(r.dx);
    cldnnDestroyTensorDescriptor(r.desc);
    cldnnDestroyLRNDescriptor(r.lrn);
    free(r.hx);
    free(r.hdy);
    free(r.hprior);
    free(r.hy);
    free(r.got);
    free(r.want);
    free(r.scale);
    return rc;
}

const bench_mode bench_mode_lrn = {"lrn", "local response normalization forward and backward (cldnnLRNForward/Backward)",
                                   k_flags, lrn_bench_run, NULL};
