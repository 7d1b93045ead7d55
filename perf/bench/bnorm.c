/*
** bnorm.c: the `bnorm` mode of cldnn-bench: batch normalization (MIOpenDriver bnorm-like flags).
**
**   cldnn-bench bnorm -m 0|1 -F 0|1|2|3 [-s 0|1] [-r 0|1] [-e eps] [-f factor] [-a A] [-b B]
**                     [common flags]
**
** -m the cldnnBatchNormMode_t (0 per-activation, 1 spatial); -F 1 training forward, 2 backward,
** 3 inference, 0 all three; -s 1 the saved mean / inverse std are written (training) and used
** (backward; 0 passes NULL, so the backward recomputes them); -r 1 the running statistics are
** updated (training, factor -f); -e epsilon; -A / -B alpha and beta of y or dx, -a / -b those of
** dScale and dBias. The lines the library prints with CLDNN_LOG_CMD=1 (`cldnn-bench bnorm -m 1
** -F 1 -s 1 -r 1 -e 1e-05 -A 1 -B 0 -f 0.1 -D 32x64x56x56 -d float -L NHWC`) run as they are.
**
** Data, drawn once from the seed: x uniform in [-2, 4), dy in [-1, 1), scale in [0.5, 1.5), bias
** in [-1, 1), prior running / estimated mean in [-1, 1) and variance in [0.5, 2), the prior y / dx
** (beta != 0) in [-1, 1). With -V 1, one un-timed call per operation (outputs NaN-poisoned when
** their beta is 0) is compared with tests/ref/ref_batchnorm.c in double: y; the saved mean and
** inverse std and the running statistics; dx, dScale, dBias. Tolerance atol + rtol * scale per
** element with the data type's atol / rtol and scale the size of the terms the value is made of.
**
** Bytes counted per call (the passes the library makes over the data): inference x + y;
** training forward 2 x + y (x is read twice: statistics, then normalization); backward
** 2 x + 2 dy + dx; plus the output again when beta != 0. Parameters (K floats each) are not
** counted.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ref_batchnorm.h"

static const bench_flag k_flags[] = {
    {"-m", BENCH_FLAG_INT, "1", "mode 0 per-activation | 1 spatial"},
    {"-F", BENCH_FLAG_INT, "0", "1 training forward, 2 backward, 3 inference, 0 all"},
    {"-s", BENCH_FLAG_INT, "1", "0|1 saved mean / inverse std written (training) and used (backward)"},
    {"-r", BENCH_FLAG_INT, "1", "0|1 running statistics updated (training)"},
    {"-e", BENCH_FLAG_DOUBLE, "1e-5", "epsilon"},
    {"-f", BENCH_FLAG_DOUBLE, "0.1", "exponential average factor"},
    {"-a", BENCH_FLAG_DOUBLE, "1", "alpha of dScale / dBias"},
    {"-b", BENCH_FLAG_DOUBLE, "0", "beta of dScale / dBias"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

enum { P_SCALE, P_BIAS, P_RMEAN, P_RVAR, P_SMEAN, P_SINV, P_DSCALE, P_DBIAS, P_COUNT };

typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    int mode, saved, running;
    double eps, factor, a2, b2;
    ref_view v;
    int64_t span, count, K, M;
    size_t bytes;
    cldnnTensorDescriptor_t desc, pdesc;
    cl_mem x, y, dy, dx, p[P_COUNT];
    float *hx, *hdy, *hprior, *got, *hp[P_COUNT], *pgot;
    double *want, *scale, *mean, *var, *inv, *sd, *kw, *ks;
    int fails;
} bn_run;

typedef struct {
    bn_run* r;
    int F;
} bn_call;

static cldnnStatus_t bn_once(void* user) {
    bn_call* c = user;
    bn_run* r = c->r;
    cldnnHandle_t h = r->ctx->handle;
    cldnnBatchNormMode_t m = (cldnnBatchNormMode_t)r->mode;
    float al = (float)r->opts->alpha, be = (float)r->opts->beta, a2 = (float)r->a2, b2 = (float)r->b2;
    cl_mem* p = r->p;
    if (c->F == 1)
        return cldnnBatchNormalizationForwardTraining(
            h, m, &al, &be, r->desc, r->x, 0, r->desc, r->y, 0, r->pdesc, p[P_SCALE], 0, p[P_BIAS], 0, r->factor,
            r->running ? p[P_RMEAN] : NULL, 0, r->running ? p[P_RVAR] : NULL, 0, r->eps, r->saved ? p[P_SMEAN] : NULL,
            0, r->saved ? p[P_SINV] : NULL, 0);
    if (c->F == 3)
        return cldnnBatchNormalizationForwardInference(h, m, &al, &be, r->desc, r->x, 0, r->desc, r->y, 0, r->pdesc,
                                                       p[P_SCALE], 0, p[P_BIAS], 0, p[P_RMEAN], 0, p[P_RVAR], 0,
                                                       r->eps);
    return cldnnBatchNormalizationBackward(h, m, &al, &be, &a2, &b2, r->desc, r->x, 0, r->desc, r->dy, 0, r->desc,
                                           r->dx, 0, r->pdesc, p[P_SCALE], 0, p[P_DSCALE], 0, p[P_DBIAS], 0, r->eps,
                                           r->saved ? p[P_SMEAN] : NULL, 0, r->saved ? p[P_SINV] : NULL, 0);
}

/* bench_check_scaled with this mode's tolerance. */
static int64_t bn_cmp(const bn_run* r, const char* what, const float* got, const ref_view* v, const double* want,
                      const double* scale, int64_t n, bench_result* res) {
    return bench_check_scaled(r->opts, "bnorm", what, got, v, want, scale, n, 1.0, res);
}

/* Downloads parameter buffer i into pgot and compares it with kw / ks. */
static int bn_cmp_param(bn_run* r, int i, const char* what, bench_result* res) {
    if (bench_download(r->ctx, r->p[i], CLDNN_DATA_FLOAT, r->pgot, (size_t)r->K)) return 1;
    bn_cmp(r, what, r->pgot, NULL, r->kw, r->ks, r->K, res);
    return 0;
}

static int upload_params(bn_run* r) {
    for (int i = 0; i < P_COUNT; i++)
        if (bench_upload(r->ctx, r->p[i], CLDNN_DATA_FLOAT, r->hp[i], (size_t)r->K)) return 1;
    return 0;
}

/* One verified call of F; 0 when it ran (whatever the comparison), 1 when it could not. */
static int bn_verify(bn_run* r, int F, bench_result* res) {
    const bench_opts* o = r->opts;
    size_t n = (size_t)r->span;
    int64_t cnt = r->count, K = r->K, M = r->M;
    double al = o->alpha, be = o->beta;
    /* the saved statistics a backward reads: the reference's, rounded to float */
    ref_bn_stats(r->mode, &r->v, r->hx, r->mean, r->var);
    for (int64_t k = 0; k < K; k++) {
        r->inv[k] = 1.0 / sqrt(r->var[k] + r->eps);
        r->hp[P_SMEAN][k] = (float)r->mean[k];
        r->hp[P_SINV][k] = (float)r->inv[k];
        if (F == 2 && r->saved) {
            r->mean[k] = r->hp[P_SMEAN][k];
            r->inv[k] = r->hp[P_SINV][k];
        }
    }
    if (upload_params(r)) return 1;
    cl_mem out = F == 2 ? r->dx : r->y;
    if (be == 0) ref_fill_nan(r->got, n);
    else memcpy(r->got, r->hprior, n * sizeof *r->got);
    if (bench_upload(r->ctx, out, o->dtype, r->got, n)) return 1;
    if (F == 1 && r->saved) {
        ref_fill_nan(r->pgot, (size_t)K);
        if (bench_upload(r->ctx, r->p[P_SMEAN], CLDNN_DATA_FLOAT, r->pgot, (size_t)K) ||
            bench_upload(r->ctx, r->p[P_SINV], CLDNN_DATA_FLOAT, r->pgot, (size_t)K))
            return 1;
    }
    bn_call c = {r, F};
    cldnnStatus_t st = bn_once(&c);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("batch normalization", st);
        snprintf(res->note, sizeof res->note, "%s", cldnnGetErrorString(st));
        if (CLDNN_STATUS_CATEGORY(st) != CLDNN_STATUS_NOT_SUPPORTED) r->fails++;
        return 1;
    }
    if (bench_download(r->ctx, out, o->dtype, r->got, n)) return 1;
    double* s = malloc((size_t)K * 2 * sizeof(double));
    if (!s) return 1;
    for (int64_t k = 0; k < K; k++) {
        s[k] = r->hp[P_SCALE][k];
        s[K + k] = r->hp[P_BIAS][k];
    }
    const double* mu = F == 3 ? NULL : r->mean;
    double *em = r->kw, *ev = r->ks;
    if (F == 3)
        for (int64_t k = 0; k < K; k++) {
            em[k] = r->hp[P_RMEAN][k];
            ev[k] = r->hp[P_RVAR][k];
        }
    if (F != 2) {
        ref_bn_forward(r->mode, &r->v, r->hx, s, s + K, F == 3 ? em : r->mean, F == 3 ? ev : r->var, r->eps, r->want);
        for (int64_t i = 0; i < cnt; i++) {
            int64_t k = ref_bn_stat_of(r->mode, &r->v, i);
            double m = F == 3 ? em[k] : mu[k], iv = 1.0 / sqrt((F == 3 ? ev[k] : r->var[k]) + r->eps);
            double xv = r->hx[ref_view_offset(&r->v, i)], prior = be != 0 ? be * r->hprior[ref_view_offset(&r->v, i)] : 0;
            r->scale[i] = fabs(al) * (fabs(s[k]) * iv * (fabs(xv - m) + fabs(xv) + fabs(m)) + fabs(s[K + k])) + fabs(prior);
            r->want[i] = al * r->want[i] + prior;
        }
    } else {
        ref_bn_backward(r->mode, &r->v, r->hx, &r->v, r->hdy, s, r->mean, r->inv, r->want, r->kw, r->ks);
        memcpy(r->sd, r->kw, (size_t)K * sizeof(double));
        double *asum = r->var, *xsum = s + K; /* reused: var and bias are not needed here */
        for (int64_t k = 0; k < K; k++) asum[k] = xsum[k] = 0;
        for (int64_t i = 0; i < cnt; i++) {
            int64_t k = ref_bn_stat_of(r->mode, &r->v, i), at = ref_view_offset(&r->v, i);
            asum[k] += fabs(r->hdy[at]);
            xsum[k] += fabs(r->hdy[at] * (r->hx[at] - r->mean[k]) * r->inv[k]);
        }
        for (int64_t i = 0; i < cnt; i++) {
            int64_t k = ref_bn_stat_of(r->mode, &r->v, i), at = ref_view_offset(&r->v, i);
            double xh = (fabs(r->hx[at] - r->mean[k]) + 1e-2 * fabs(r->hx[at])) * r->inv[k];
            double prior = be != 0 ? be * r->hprior[at] : 0;
            r->scale[i] = fabs(al * s[k]) * r->inv[k] * (fabs(r->hdy[at]) + (asum[k] + xh * xsum[k]) / (double)M) +
                          fabs(prior);
            r->want[i] = al * r->want[i] + prior;
        }
        /* dScale, dBias: the reference's (kw = dscale, ks = dbias) with alpha2 / beta2 on the priors */
        double* db = malloc((size_t)K * sizeof(double));
        if (!db) {
            free(s);
            return 1;
        }
        memcpy(db, r->ks, (size_t)K * sizeof(double));
        for (int64_t k = 0; k < K; k++) {
            r->kw[k] = r->a2 * r->sd[k] + r->b2 * r->hp[P_DSCALE][k];
            r->ks[k] = fabs(r->a2) * (xsum[k] + 1e-2 * asum[k] * fabs(r->mean[k]) * r->inv[k]) +
                       fabs(r->b2 * r->hp[P_DSCALE][k]);
        }
        if (bench_download(r->ctx, r->p[P_DSCALE], CLDNN_DATA_FLOAT, r->pgot, (size_t)K) == 0)
            bn_cmp(r, "dScale", r->pgot, NULL, r->kw, r->ks, K, res);
        for (int64_t k = 0; k < K; k++) {
            r->kw[k] = r->a2 * db[k] + r->b2 * r->hp[P_DBIAS][k];
            r->ks[k] = fabs(r->a2) * asum[k] + fabs(r->b2 * r->hp[P_DBIAS][k]);
        }
        bn_cmp_param(r, P_DBIAS, "dBias", res);
        free(db);
    }
    bn_cmp(r, F == 2 ? "dx" : "y", r->got, &r->v, r->want, r->scale, cnt, res);
    if (F == 1) {
        ref_bn_stats(r->mode, &r->v, r->hx, r->mean, r->var);
        if (r->saved) {
            for (int64_t k = 0; k < K; k++) {
                r->kw[k] = r->mean[k];
                r->ks[k] = fabs(r->mean[k]) + sqrt(r->var[k]);
            }
            bn_cmp_param(r, P_SMEAN, "saved mean", res);
            for (int64_t k = 0; k < K; k++) r->ks[k] = r->kw[k] = 1.0 / sqrt(r->var[k] + r->eps);
            bn_cmp_param(r, P_SINV, "saved inverse std", res);
        }
        if (r->running) {
            double f = r->factor;
            for (int64_t k = 0; k < K; k++) {
                double prior = f == 1.0 ? 0.0 : (1.0 - f) * r->hp[P_RMEAN][k];
                r->kw[k] = prior + f * r->mean[k];
                r->ks[k] = fabs(prior) + f * (fabs(r->mean[k]) + sqrt(r->var[k]));
            }
            bn_cmp_param(r, P_RMEAN, "running mean", res);
            for (int64_t k = 0; k < K; k++) {
                double prior = f == 1.0 ? 0.0 : (1.0 - f) * r->hp[P_RVAR][k];
                r->kw[k] = prior + f * r->var[k] * (double)M / (double)(M - 1);
                r->ks[k] = fabs(prior) + fabs(r->kw[k] - prior);
            }
            bn_cmp_param(r, P_RVAR, "running variance", res);
        }
    }
    free(s);
    if (res->check == BENCH_CHECK_FAIL) r->fails++;
    return 0;
}

static void bn_one(bn_run* r, int F) {
    const bench_opts* o = r->opts;
    static const char* const names[4] = {"", "fwd-train", "bwd", "fwd-infer"};
    bench_result res;
    bench_result_init(&res, "bnorm", o);
    snprintf(res.op, sizeof res.op, "%s %s%s%s", r->mode ? "spatial" : "per-act", names[F],
             F != 3 && r->saved ? " saved" : "", F == 1 && r->running ? " running" : "");
    double t = (double)r->bytes;
    res.bytes = (F == 3 ? 2 * t : F == 1 ? 3 * t : 5 * t) + (o->beta != 0 ? t : 0);
    if (o->verify && bn_verify(r, F, &res)) {
        if (!res.note[0]) {
            snprintf(res.note, sizeof res.note, "verification could not run");
            r->fails++;
        }
        bench_report(o, &res);
        return;
    }
    if (o->time) {
        bn_call c = {r, F};
        r->fails += bench_time_result(r->ctx, o, bn_once, &c, r->bytes, &res);
    }
    bench_report(o, &res);
}

static int bnorm_run(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    long long F = bench_arg_int(args, "-F", 0), m = bench_arg_int(args, "-m", 1);
    if (F < 0 || F > 3 || (m != 0 && m != 1) || opts->nd < 2 || opts->nd > 5) {
        fprintf(stderr, "cldnn-bench bnorm: expected -F 0..3, -m 0|1 and 2 to 5 dims (got -F %lld -m %lld, %d dims)\n",
                F, m, opts->nd);
        return 2;
    }
    bn_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.mode = (int)m;
    r.saved = bench_arg_int(args, "-s", 1) != 0;
    r.running = bench_arg_int(args, "-r", 1) != 0;
    r.eps = bench_arg_double(args, "-e", 1e-5);
    r.factor = bench_arg_double(args, "-f", 0.1);
    r.a2 = bench_arg_double(args, "-a", 1.0);
    r.b2 = bench_arg_double(args, "-b", 0.0);
    r.v = bench_view(opts->nd, opts->dims, opts->layout);
    r.span = ref_view_span(&r.v);
    r.count = ref_view_count(&r.v);
    r.K = ref_bn_stats_count(r.mode, &r.v);
    r.M = ref_bn_stat_size(r.mode, &r.v);
    r.bytes = (size_t)r.span * opts->elem_size;
    size_t n = (size_t)r.span, K = (size_t)r.K;
    int rc = 1;
    ref_rng rng;
    ref_rng_seed(&rng, opts->seed);
    if (!(r.desc = bench_desc(&r.v, opts->dtype))) goto out;
    if (cldnnCreateTensorDescriptor(&r.pdesc) != CLDNN_STATUS_SUCCESS ||
        cldnnDeriveBNTensorDescriptor(r.pdesc, r.desc, (cldnnBatchNormMode_t)r.mode) != CLDNN_STATUS_SUCCESS) {
        fprintf(stderr, "cldnn-bench bnorm: cldnnDeriveBNTensorDescriptor failed\n");
        goto out;
    }
    if (bench_io_setup(ctx, opts, &rng, r.bytes, n, 1, -2.0, 4.0, &r.x, &r.y, &r.dy, &r.dx, &r.hx, &r.hdy)) goto out;
    for (int i = 0; i < P_COUNT; i++) {
        static const double lo[P_COUNT] = {0.5, -1, -1, 0.5, -1, 0.5, -1, -1}, hi[P_COUNT] = {1.5, 1, 1, 2, 1, 2, 1, 1};
        if (!(r.p[i] = bench_buffer(ctx, K * sizeof(float))) || !(r.hp[i] = bench_alloc(K, sizeof(float)))) goto out;
        ref_fill_uniform(&rng, r.hp[i], K, lo[i], hi[i]);
    }
    if (!(r.hprior = bench_alloc(n, sizeof(float))) || !(r.got = bench_alloc(n, sizeof(float))) ||
        !(r.pgot = bench_alloc(K, sizeof(float))))
        goto out;
    ref_fill_uniform(&rng, r.hprior, n, -1.0, 1.0);
    bench_round(opts->dtype, r.hprior, n);
    double** ds[] = {&r.want, &r.scale, &r.mean, &r.var, &r.inv, &r.sd, &r.kw, &r.ks};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
        if (!(*ds[i] = bench_alloc(i < 2 ? (size_t)r.count : K, sizeof(double)))) goto out;
    if (upload_params(&r) || bench_upload(ctx, r.y, opts->dtype, r.hprior, n) ||
        bench_upload(ctx, r.dx, opts->dtype, r.hprior, n))
        goto out;
    for (int f = 1; f <= 3; f++)
        if (F == 0 || F == f) bn_one(&r, f);
    rc = r.fails ? 1 : 0;
out:
    bench_release(r.x);
    bench_release(r.y);
    bench_release(r.dy);
    bench_release(r.dx);
    for (int i = 0; i < P_COUNT; i++) {
        bench_release(r.p[i]);
        free(r.hp[i]);
    }
    cldnnDestroyTensorDescriptor(r.desc);
    cldnnDestroyTensorDescriptor(r.pdesc);
    free(r.hx);
    free(r.hdy);
    free(r.hprior);
    free(r.got);
    free(r.pgot);
    free(r.want);
    free(r.scale);
    free(r.mean);
    free(r.var);
    free(r.inv);
    free(r.sd);
    free(r.kw);
    free(r.ks);
    return rc;
}

const bench_mode bench_mode_bnorm = {"bnorm", "batch normalization (cldnnBatchNormalization*)", k_flags, bnorm_run,
                                     NULL};
