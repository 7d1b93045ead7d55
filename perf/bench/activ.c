/*
** activ.c: the `activ` mode of cldnn-bench: cldnnActivationForward and cldnnActivationBackward.
**
**   cldnn-bench activ -m relu|...|all -F 0|1|2 [-x coef] [-b swishbeta] [-N 0|1] [common flags]
**
** One set of buffers serves every activation mode of the run: x (uniform in [-5, 5)), dy (in
** [-1, 1)) and, when beta != 0, the prior y / dx (in [-1, 1)) are drawn once from the seed and
** uploaded once. Per mode and direction: one verified call (outputs poisoned with NaN when
** beta == 0, compared with ref_act_forward / ref_act_derivative in double), then the timed calls.
** Backward gets y = act(x) computed on the host (rounded to the data type), so a backward result
** does not depend on the forward kernel.
**
** Bytes counted per call (each tensor the operation needs, once): forward x + y, plus y again
** when beta != 0; backward dy + dx, plus y for SIGMOID and TANH or x for the modes whose
** derivative needs x (all but IDENTITY), plus dx again when beta != 0.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const bench_flag k_flags[] = {
    {"-m", BENCH_FLAG_STRING, "relu",
     "sigmoid|relu|tanh|clippedrelu|elu|identity|swish|leakyrelu|softplus|abs|gelu|all"},
    {"-x", BENCH_FLAG_DOUBLE, NULL, "coef (default 6 for clippedrelu, 1 for elu, 0.01 for leakyrelu, else 0)"},
    {"-b", BENCH_FLAG_DOUBLE, "1", "swish beta"},
    {"-F", BENCH_FLAG_INT, "0", "1 forward, 2 backward, 0 both"},
    {"-N", BENCH_FLAG_INT, "0", "0 NaNs dropped by relu / clippedrelu, 1 NaNs propagate (cldnnNanPropagation_t)"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

/* The activation modes by bench name, with the default coef. */
static const struct {
    const char* name;
    cldnnActivationMode_t mode;
    double coef;
} k_acts[] = {
    {"sigmoid", CLDNN_ACTIVATION_SIGMOID, 0},     {"relu", CLDNN_ACTIVATION_RELU, 0},
    {"tanh", CLDNN_ACTIVATION_TANH, 0},           {"clippedrelu", CLDNN_ACTIVATION_CLIPPED_RELU, 6},
    {"elu", CLDNN_ACTIVATION_ELU, 1},             {"identity", CLDNN_ACTIVATION_IDENTITY, 0},
    {"swish", CLDNN_ACTIVATION_SWISH, 0},         {"leakyrelu", CLDNN_ACTIVATION_LEAKY_RELU, 0.01},
    {"softplus", CLDNN_ACTIVATION_SOFTPLUS, 0},   {"abs", CLDNN_ACTIVATION_ABS, 0},
    {"gelu", CLDNN_ACTIVATION_GELU, 0}};
#define N_ACTS (sizeof k_acts / sizeof k_acts[0])

/* Everything one run shares: descriptors, device buffers and host arrays (span elements each,
** laid out like the device buffers; want is packed, count elements). */
typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    ref_view v;
    int64_t span, count;
    size_t bytes;                       /* one tensor's buffer */
    cldnnTensorDescriptor_t desc;
    cldnnActivationDescriptor_t ad;
    cldnnNanPropagation_t nan;          /* -N: the descriptor's option (the data hold no NaN) */
    cl_mem x, y, dy, dx;
    float *hx, *hdy, *hprior, *hy, *got;
    double* want;
    int fails;                          /* failed calls or verifications */
} act_run;

/* One call's arguments, for the timing loop. */
typedef struct {
    act_run* r;
    int backward;
    float alpha, beta;
} act_call;

/* Enqueues one forward or backward call of the run's descriptors and buffers. */
static cldnnStatus_t act_once(void* user) {
    act_call* c = user;
    act_run* r = c->r;
    if (!c->backward)
        return cldnnActivationForward(r->ctx->handle, r->ad, &c->alpha, r->desc, r->x, 0, &c->beta, r->desc, r->y, 0);
    return cldnnActivationBackward(r->ctx->handle, r->ad, &c->alpha, r->desc, r->y, 0, r->desc, r->dy, 0, r->desc,
                                   r->x, 0, &c->beta, r->desc, r->dx, 0);
}

/* Verifies one call of activation k in the given direction: uploads the poisoned or prior
** output (and y for backward), runs it, compares with the reference. Fills res; returns 0 when
** the call ran (whatever the comparison said), 1 when it could not run. */
static int act_verify(act_run* r, size_t k, double coef, double sb, int backward, bench_result* res) {
    const bench_opts* o = r->opts;
    size_t n = (size_t)r->span;
    act_call c = {r, backward, (float)o->alpha, (float)o->beta};
    int mode = (int)k_acts[k].mode;
    const ref_view* views[1] = {&r->v};
    bench_walk w;
    if (backward) {
        /* y = act(x) as the forward pass would have stored it */
        bench_walk_init(&w, r->v.nd, r->v.dims, 1, views);
        for (int64_t i = 0; i < r->count; i++, bench_walk_next(&w))
            r->hy[w.off[0]] = (float)ref_act_forward(mode, coef, sb, r->hx[w.off[0]]);
        bench_round(o->dtype, r->hy, n);
        if (bench_upload(r->ctx, r->y, o->dtype, r->hy, n)) return 1;
    }
    if (o->beta == 0) ref_fill_nan(r->got, n);
    else memcpy(r->got, r->hprior, n * sizeof *r->got);
    if (bench_upload(r->ctx, backward ? r->dx : r->y, o->dtype, r->got, n)) return 1;
    cldnnStatus_t st = act_once(&c);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(res, backward ? "cldnnActivationBackward" : "cldnnActivationForward", st);
        return 1;
    }
    if (bench_download(r->ctx, backward ? r->dx : r->y, o->dtype, r->got, n)) return 1;
    bench_walk_init(&w, r->v.nd, r->v.dims, 1, views);
    for (int64_t i = 0; i < r->count; i++, bench_walk_next(&w)) {
        int64_t off = w.off[0];
        double a = backward ? ref_act_derivative(mode, coef, sb, r->hx[off]) * r->hdy[off]
                            : ref_act_forward(mode, coef, sb, r->hx[off]);
        r->want[i] = o->alpha * a + (o->beta != 0 ? o->beta * r->hprior[off] : 0.0);
    }
    r->fails += bench_check_result(o, &r->v, r->got, r->want, res);
    return 0;
}

/* Runs (verifies, times, reports) activation k in one direction. */
static void act_one(act_run* r, size_t k, double coef, double sb, int backward) {
    const bench_opts* o = r->opts;
    bench_result res;
    bench_result_init(&res, "activ", o);
    cldnnActivationMode_t mode = k_acts[k].mode;
    int has_coef = mode == CLDNN_ACTIVATION_CLIPPED_RELU || mode == CLDNN_ACTIVATION_ELU ||
                   mode == CLDNN_ACTIVATION_LEAKY_RELU;
    if (has_coef) snprintf(res.op, sizeof res.op, "%s(%g) %s", k_acts[k].name, coef, backward ? "bwd" : "fwd");
    else if (mode == CLDNN_ACTIVATION_SWISH)
        snprintf(res.op, sizeof res.op, "swish(b=%g) %s", sb, backward ? "bwd" : "fwd");
    else snprintf(res.op, sizeof res.op, "%s %s", k_acts[k].name, backward ? "bwd" : "fwd");

    double t = (double)r->bytes;
    if (!backward) res.bytes = 2 * t + (o->beta != 0 ? t : 0);
    else res.bytes = 2 * t + (mode != CLDNN_ACTIVATION_IDENTITY ? t : 0) + (o->beta != 0 ? t : 0);

    cldnnStatus_t st = cldnnSetActivationDescriptor(r->ad, mode, r->nan, coef);
    if (st == CLDNN_STATUS_SUCCESS) st = cldnnSetActivationDescriptorSwishBeta(r->ad, sb);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(&res, "cldnnSetActivationDescriptor", st);
        bench_report(o, &res);
        return;
    }
    if (o->verify && act_verify(r, k, coef, sb, backward, &res)) {
        if (!res.note[0]) {
            snprintf(res.note, sizeof res.note, "verification could not run");
            r->fails++;
        }
        bench_report(o, &res);
        return;
    }
    if (o->time) {
        act_call c = {r, backward, (float)o->alpha, (float)o->beta};
        r->fails += bench_time_result(r->ctx, o, act_once, &c, r->bytes, &res);
    }
    bench_report(o, &res);
}

/* The mode's run function (see bench_mode). */
static int activ_run(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    const char* mname = bench_arg_str(args, "-m");
    int all = strcmp(mname, "all") == 0;
    size_t only = N_ACTS;
    for (size_t k = 0; k < N_ACTS; k++)
        if (strcmp(mname, k_acts[k].name) == 0) only = k;
    if (!all && only == N_ACTS) {
        fprintf(stderr, "cldnn-bench activ: -m %s: unknown activation\n", mname);
        return 2;
    }
    long long F = bench_arg_int(args, "-F", 0);
    if (F < 0 || F > 2) {
        fprintf(stderr, "cldnn-bench activ: -F %lld: expected 0, 1 or 2\n", F);
        return 2;
    }
    long long N = bench_arg_int(args, "-N", 0);
    if (N != 0 && N != 1) {
        fprintf(stderr, "cldnn-bench activ: -N %lld: expected 0 or 1\n", N);
        return 2;
    }
    int need_bwd = F != 1;
    double sb = bench_arg_double(args, "-b", 1);

    act_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.nan = N ? CLDNN_PROPAGATE_NAN : CLDNN_NOT_PROPAGATE_NAN;
    r.v = bench_view(opts->nd, opts->dims, opts->layout);
    r.span = ref_view_span(&r.v);
    r.count = ref_view_count(&r.v);
    r.bytes = (size_t)r.span * opts->elem_size;
    size_t n = (size_t)r.span;
    int rc = 1;
    if (!(r.desc = bench_desc(&r.v, opts->dtype))) goto out;
    cldnnStatus_t st = cldnnCreateActivationDescriptor(&r.ad);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnCreateActivationDescriptor", st);
        goto out;
    }
    ref_rng rng;
    ref_rng_seed(&rng, opts->seed);
    if (bench_io_setup(ctx, opts, &rng, r.bytes, n, need_bwd, -5.0, 5.0, &r.x, &r.y, &r.dy, &r.dx, &r.hx, &r.hdy))
        goto out;
    if (opts->verify) {
        if (!(r.got = bench_alloc(n, sizeof(float))) || !(r.want = bench_alloc((size_t)r.count, sizeof(double))))
            goto out;
        if (need_bwd && !(r.hy = bench_alloc(n, sizeof(float)))) goto out;
        if (opts->beta != 0) {
            if (!(r.hprior = bench_alloc(n, sizeof(float)))) goto out;
            ref_fill_uniform(&rng, r.hprior, n, -1.0, 1.0);
            bench_round(opts->dtype, r.hprior, n);
        }
    } else {
        /* timing only: give y (read by backward) defined values */
        if (need_bwd && bench_upload(ctx, r.y, opts->dtype, r.hx, n)) goto out;
        if (opts->beta != 0 && (bench_upload(ctx, r.y, opts->dtype, r.hx, n) ||
                                (need_bwd && bench_upload(ctx, r.dx, opts->dtype, r.hx, n))))
            goto out;
    }
    int user_coef = bench_arg_given(args, "-x");
    double ucoef = bench_arg_double(args, "-x", 0);
    for (size_t k = 0; k < N_ACTS; k++) {
        if (!all && k != only) continue;
        double coef = user_coef ? ucoef : k_acts[k].coef;
        if (F != 2) act_one(&r, k, coef, sb, 0);
        if (F != 1) act_one(&r, k, coef, sb, 1);
    }
    rc = r.fails ? 1 : 0;
out:
    bench_release(r.x);
    bench_release(r.y);
    bench_release(r.dy);
    bench_release(r.dx);
    cldnnDestroyActivationDescriptor(r.ad);
    cldnnDestroyTensorDescriptor(r.desc);
    free(r.hx);
    free(r.hdy);
    free(r.hprior);
    free(r.hy);
    free(r.got);
    free(r.want);
    return rc;
}

const bench_mode bench_mode_activ = {"activ", "activation forward and backward (cldnnActivationForward/Backward)",
                                     k_flags, activ_run, NULL};
