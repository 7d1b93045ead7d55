/*
** pool.c: the `pool` mode of cldnn-bench: cldnnPoolingForward and cldnnPoolingBackward.
**
**   cldnn-bench pool -F 0|1|2 -m max|max_det|avg|avg_exclude|all -N 0|1 -y wh -x ww -p ph -q pw
**                    -u sh -v sw [common flags]
**
** Flags follow MIOpenDriver's pool mode: -y / -x window, -p / -q padding, -u / -v stride (height /
** width), -m the mode (the cldnnPoolingMode_t numbers 0..3 work too, and the case files' avgx and
** maxdet), -N the cldnnNanPropagation_t.
** The tensor (-D, -n -c -H -W, -L) is x, 4-d; y has the dims cldnnGetPooling2dForwardOutputDim
** gives, in the same layout. The lines the library prints with CLDNN_LOG_CMD=1 (`cldnn-bench pool
** -F 1 -m max -N 0 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -A 1 -B 0 -D 32x64x112x112 -d float`) run as they
** are. Shapes of the targets: ResNet-50 `-D 32x64x112x112 -y 3 -x 3 -p 1 -q 1 -u 2 -v 2 -m max`
** and `-D 32x2048x7x7 -y 7 -x 7 -m avg`; VGG-16 `-D 32x64x224x224 -y 2 -x 2 -u 2 -v 2 -m max`.
**
** Data, drawn once from the seed and uploaded once: x uniform in [-4, 4), dy in [-1, 1) and, when
** beta != 0, the prior y / dx in [-1, 1). Per mode and direction: one verified call (output
** poisoned with NaN when beta == 0) compared with ref_pool_forward / _backward in double, then
** the timed calls. Backward reads y = the reference forward of x rounded to the data type with
** -V 1 (so a backward result does not depend on the forward kernel), the library's forward with
** -V 0. Tolerance per element: atol + rtol * scale, scale = |alpha| (the sum of the |terms|) +
** |beta prior|.
**
** Bytes counted per call (each tensor the operation needs, once): forward x + y, plus y again
** when beta != 0; backward max modes x + y + dy + dx, average modes dy + dx (they read neither x
** nor y), plus dx again when beta != 0. The copy baseline copies a buffer of x's size.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ref_pool.h"

static const bench_flag k_flags[] = {
    {"-F", BENCH_FLAG_INT, "0", "1 forward, 2 backward, 0 both"},
    {"-m", BENCH_FLAG_STRING, "max", "max|avg|avg_exclude|max_det (or avgx, maxdet; 0..3, cldnnPoolingMode_t) or all"},
    {"-N", BENCH_FLAG_INT, "0", "0 NaNs skipped, 1 NaNs propagate (cldnnNanPropagation_t)"},
    {"-y", BENCH_FLAG_INT, "3", "window height"},
    {"-x", BENCH_FLAG_INT, "3", "window width"},
    {"-p", BENCH_FLAG_INT, "0", "padding height"},
    {"-q", BENCH_FLAG_INT, "0", "padding width"},
    {"-u", BENCH_FLAG_INT, "2", "stride height"},
    {"-v", BENCH_FLAG_INT, "2", "stride width"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

/* The modes by cldnnPoolingMode_t value, named as the library's CLDNN_LOG_CMD lines name them. */
static const char* const k_mode_names[4] = {"max", "avg", "avg_exclude", "max_det"};

/* One run's shared state: descriptors, device buffers, host arrays laid out like the device
** buffers (x-side: xspan elements, y-side: yspan), packed want / scale of the larger count. */
typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    int nan;
    int win[6];                         /* wh, ww, ph, pw, sh, sw */
    ref_view xv, yv;
    int64_t xspan, yspan, xcount, ycount;
    cldnnTensorDescriptor_t xd, yd;
    cldnnPoolingDescriptor_t pd;
    cl_mem x, y, dy, dx;
    float *hx, *hdy, *hy, *hprior, *got;
    double *want, *scale;
    int fails;
} pool_run;

typedef struct {
    pool_run* r;
    int backward;
    float alpha, beta;
} pool_call;

static cldnnStatus_t pool_once(void* user) {
    pool_call* c = user;
    pool_run* r = c->r;
    if (!c->backward)
        return cldnnPoolingForward(r->ctx->handle, r->pd, &c->alpha, r->xd, r->x, 0, &c->beta, r->yd, r->y, 0);
    return cldnnPoolingBackward(r->ctx->handle, r->pd, &c->alpha, r->yd, r->y, 0, r->yd, r->dy, 0, r->xd, r->x, 0,
                                &c->beta, r->xd, r->dx, 0);
}

/* Compares got (laid out by v) with want / scale (packed over v's dims); fills res. 0 on pass. */
static int pool_check(const pool_run* r, const ref_view* v, bench_result* res) {
    const bench_opts* o = r->opts;
    int64_t n = ref_view_count(v), bad = 0, first = -1;
    double max_rel = 0, use = 0;
    for (int64_t i = 0; i < n; i++) {
        double g = r->got[ref_view_offset(v, i)], err, tol = o->atol + o->rtol * r->scale[i];
        int ok = ref_close(g, r->want[i], tol, &err);
        double rel = r->want[i] != 0.0 ? err / fabs(r->want[i]) : err;
        max_rel = rel > max_rel ? rel : max_rel;
        use = err / tol > use ? err / tol : use;
        if (!ok && !bad++) first = i;
    }
    res->max_rel = max_rel;
    res->tol_use = use;
    res->bad = bad;
    res->check = bad ? BENCH_CHECK_FAIL : BENCH_CHECK_PASS;
    if (bad)
        fprintf(stderr, "cldnn-bench: pool %s: %lld of %lld elements outside tolerance; first at %lld: got %.9g want "
                        "%.9g\n", res->op, (long long)bad, (long long)n, (long long)first,
                (double)r->got[ref_view_offset(v, first)], r->want[first]);
    return bad != 0;
}

/* Verifies one call: fills res; returns 0 when the call ran, 1 when it could not. */
static int pool_verify(pool_run* r, const ref_pool* rp, int backward, bench_result* res) {
    const bench_opts* o = r->opts;
    const ref_view* ov = backward ? &r->xv : &r->yv;
    size_t n = (size_t)(backward ? r->xspan : r->yspan);
    int64_t count = backward ? r->xcount : r->ycount;
    if (backward) {
        /* y = the reference forward, rounded to the data type */
        ref_pool_forward(rp, &r->xv, r->hx, r->want, NULL);
        for (int64_t i = 0; i < r->ycount; i++) r->hy[ref_view_offset(&r->yv, i)] = (float)r->want[i];
        bench_round(o->dtype, r->hy, (size_t)r->yspan);
        if (bench_upload(r->ctx, r->y, o->dtype, r->hy, (size_t)r->yspan)) return 1;
    }
    if (o->beta == 0) ref_fill_nan(r->got, n);
    else memcpy(r->got, r->hprior, n * sizeof *r->got);
    cl_mem out = backward ? r->dx : r->y;
    if (bench_upload(r->ctx, out, o->dtype, r->got, n)) return 1;
    pool_call c = {r, backward, (float)o->alpha, (float)o->beta};
    cldnnStatus_t st = pool_once(&c);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(res, backward ? "cldnnPoolingBackward" : "cldnnPoolingForward", st);
        return 1;
    }
    if (bench_download(r->ctx, out, o->dtype, r->got, n)) return 1;
    if (backward)
        ref_pool_backward(rp, &r->xv, r->hx, &r->yv, r->hy, &r->yv, r->hdy, r->want, r->scale);
    else
        ref_pool_forward(rp, &r->xv, r->hx, r->want, r->scale);
    for (int64_t i = 0; i < count; i++) {
        double prior = o->beta != 0 ? (double)r->hprior[ref_view_offset(ov, i)] : 0.0;
        r->want[i] = o->alpha * r->want[i] + o->beta * prior;
        r->scale[i] = fabs(o->alpha) * r->scale[i] + fabs(o->beta * prior);
    }
    r->fails += pool_check(r, ov, res);
    return 0;
}

/* Verifies, times and reports one mode in one direction. */
static void pool_one(pool_run* r, int mode, int backward) {
    const bench_opts* o = r->opts;
    bench_result res;
    bench_result_init(&res, "pool", o);
    snprintf(res.op, sizeof res.op, "%s %dx%d p%dx%d s%dx%d%s %s", k_mode_names[mode], r->win[0], r->win[1],
             r->win[2], r->win[3], r->win[4], r->win[5], r->nan ? " nanprop" : "", backward ? "bwd" : "fwd");
    cldnnStatus_t st = cldnnSetPooling2dDescriptor(r->pd, (cldnnPoolingMode_t)mode, (cldnnNanPropagation_t)r->nan,
                                                   r->win[0], r->win[1], r->win[2], r->win[3], r->win[4], r->win[5]);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(&res, "cldnnSetPooling2dDescriptor", st);
        bench_report(o, &res);
        return;
    }
    double xb = (double)r->xspan * (double)o->elem_size, yb = (double)r->yspan * (double)o->elem_size;
    int is_max = mode == CLDNN_POOLING_MAX || mode == CLDNN_POOLING_MAX_DETERMINISTIC;
    if (!backward) res.bytes = xb + yb + (o->beta != 0 ? yb : 0);
    else res.bytes = (is_max ? xb + yb : 0) + yb + xb + (o->beta != 0 ? xb : 0);
    ref_pool rp;
    ref_pool_init(&rp, mode, r->nan, r->xv.dims[0], r->xv.dims[1], r->xv.dims[2], r->xv.dims[3], r->win[0],
                  r->win[1], r->win[2], r->win[3], r->win[4], r->win[5]);
    if (o->verify && pool_verify(r, &rp, backward, &res)) {
        if (!res.note[0]) {
            snprintf(res.note, sizeof res.note, "verification could not run");
            r->fails++;
        }
        bench_report(o, &res);
        return;
    }
    if (o->time) {
        if (backward && !o->verify) {
            pool_call f = {r, 0, 1.0f, 0.0f};
            if ((st = pool_once(&f)) != CLDNN_STATUS_SUCCESS) {
                r->fails += bench_note_status(&res, "cldnnPoolingForward (backward's y)", st);
                bench_report(o, &res);
                return;
            }
        }
        pool_call c = {r, backward, (float)o->alpha, (float)o->beta};
        r->fails += bench_time_result(r->ctx, o, pool_once, &c, (size_t)xb, &res);
    }
    bench_report(o, &res);
}

/* The case files' spellings (perf/shapes/ops-nets.csv, perf/baselines/cudnn_ops.c and the result
** tables use them), accepted as they are so that perf/merge.py ops-commands passes a case's mode through. */
static const char* const k_mode_aliases[4] = {NULL, NULL, "avgx", "maxdet"};

/* Parses -m: a name or alias, a number 0..3, or "all" (-1). Returns -2 when unknown. */
static int parse_mode(const char* s) {
    if (strcmp(s, "all") == 0) return -1;
    for (int k = 0; k < 4; k++) {
        char num[4];
        snprintf(num, sizeof num, "%d", k);
        if (strcmp(s, num) == 0 || strcmp(s, k_mode_names[k]) == 0 ||
            (k_mode_aliases[k] && strcmp(s, k_mode_aliases[k]) == 0))
            return k;
    }
    return -2;
}

static int pool_bench(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    int only = parse_mode(bench_arg_str(args, "-m"));
    long long F = bench_arg_int(args, "-F", 0), N = bench_arg_int(args, "-N", 0);
    if (only == -2) {
        fprintf(stderr, "cldnn-bench pool: -m %s: expected max, avg, avg_exclude (avgx), max_det (maxdet), 0..3 or all\n",
                bench_arg_str(args, "-m"));
        return 2;
    }
    if (F < 0 || F > 2 || (N != 0 && N != 1)) {
        fprintf(stderr, "cldnn-bench pool: -F %lld -N %lld: expected -F 0|1|2 and -N 0|1\n", F, N);
        return 2;
    }
    if (opts->nd != 4) {
        fprintf(stderr, "cldnn-bench pool: 2-d pooling needs a 4-d tensor (N, C, H, W); got %d dims\n", opts->nd);
        return 2;
    }
    pool_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.nan = (int)N;
    const char* wf[6] = {"-y", "-x", "-p", "-q", "-u", "-v"};
    for (int i = 0; i < 6; i++) r.win[i] = (int)bench_arg_int(args, wf[i], 0);
    int rc = 1, yd[4];
    cldnnStatus_t st;
    r.xv = bench_view(4, opts->dims, opts->layout);
    if (!(r.xd = bench_desc(&r.xv, opts->dtype))) goto out;
    if ((st = cldnnCreatePoolingDescriptor(&r.pd)) != CLDNN_STATUS_SUCCESS ||
        (st = cldnnSetPooling2dDescriptor(r.pd, CLDNN_POOLING_MAX, CLDNN_NOT_PROPAGATE_NAN, r.win[0], r.win[1],
                                          r.win[2], r.win[3], r.win[4], r.win[5])) != CLDNN_STATUS_SUCCESS ||
        (st = cldnnGetPooling2dForwardOutputDim(r.pd, r.xd, &yd[0], &yd[1], &yd[2], &yd[3])) !=
            CLDNN_STATUS_SUCCESS) {
        bench_print_status("pooling descriptor", st);
        rc = 2;
        goto out;
    }
    int64_t ydims[4] = {yd[0], yd[1], yd[2], yd[3]};
    r.yv = bench_view(4, ydims, opts->layout);
    if (!(r.yd = bench_desc(&r.yv, opts->dtype))) goto out;
    r.xspan = ref_view_span(&r.xv);
    r.yspan = ref_view_span(&r.yv);
    r.xcount = ref_view_count(&r.xv);
    r.ycount = ref_view_count(&r.yv);
    size_t xn = (size_t)r.xspan, yn = (size_t)r.yspan, big = xn > yn ? xn : yn;
    int need_bwd = F != 1;
    if (!(r.x = bench_buffer(ctx, xn * opts->elem_size)) || !(r.y = bench_buffer(ctx, yn * opts->elem_size)))
        goto out;
    if (need_bwd && (!(r.dy = bench_buffer(ctx, yn * opts->elem_size)) ||
                     !(r.dx = bench_buffer(ctx, xn * opts->elem_size))))
        goto out;
    ref_rng rng;
    ref_rng_seed(&rng, opts->seed);
    if (!(r.hx = bench_alloc(xn, sizeof(float))) || !(r.hdy = bench_alloc(yn, sizeof(float)))) goto out;
    ref_fill_uniform(&rng, r.hx, xn, -4.0, 4.0);
    ref_fill_uniform(&rng, r.hdy, yn, -1.0, 1.0);
    bench_round(opts->dtype, r.hx, xn);
    bench_round(opts->dtype, r.hdy, yn);
    if (bench_upload(ctx, r.x, opts->dtype, r.hx, xn) || (need_bwd && bench_upload(ctx, r.dy, opts->dtype, r.hdy, yn)))
        goto out;
    if (opts->verify) {
        int64_t cmax = r.xcount > r.ycount ? r.xcount : r.ycount;
        if (!(r.got = bench_alloc(big, sizeof(float))) || !(r.hy = bench_alloc(yn, sizeof(float))) ||
            !(r.want = bench_alloc((size_t)cmax, sizeof(double))) ||
            !(r.scale = bench_alloc((size_t)cmax, sizeof(double))))
            goto out;
        if (opts->beta != 0) {
            if (!(r.hprior = bench_alloc(big, sizeof(float)))) goto out;
            ref_fill_uniform(&rng, r.hprior, big, -1.0, 1.0);
            bench_round(opts->dtype, r.hprior, big);
        }
    } else if (opts->beta != 0) {
        /* timing only: give the prior outputs defined values */
        if (bench_upload(ctx, r.y, opts->dtype, r.hdy, yn) ||
            (need_bwd && bench_upload(ctx, r.dx, opts->dtype, r.hx, xn)))
            goto out;
    }
    for (int k = 0; k < 4; k++) {
        if (only >= 0 && k != only) continue;
        if (F != 2) pool_one(&r, k, 0);
        if (F != 1) pool_one(&r, k, 1);
    }
    rc = r.fails ? 1 : 0;
out:
    bench_release(r.x);
    bench_release(r.y);
    bench_release(r.dy);
    bench_release(r.dx);
    cldnnDestroyTensorDescriptor(r.xd);
    cldnnDestroyTensorDescriptor(r.yd);
    cldnnDestroyPoolingDescriptor(r.pd);
    free(r.hx);
    free(r.hdy);
    free(r.hy);
    free(r.hprior);
    free(r.got);
    free(r.want);
    free(r.scale);
    return rc;
}

const bench_mode bench_mode_pool = {"pool", "2-d pooling forward and backward (cldnnPoolingForward/Backward)", k_flags,
                                    pool_bench, NULL};
