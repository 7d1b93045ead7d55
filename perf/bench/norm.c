/*
** norm.c: the `norm` mode of cldnn-bench: layer, group and RMS normalization
** (cldnnNormalizationForward / Backward).
**
**   cldnn-bench norm --mode layer|group|rms --param K [--dir fwd|bwd] [--affine 0|1] [--save 0|1]
**                    [-e eps] [-a A2] [-b B2] [common flags]
**
** --param: trailing dims normalized (layer, rms) or groups (group; C for instance norm); --dir:
** fwd, bwd, or both when absent; --affine 1: scale and bias given (backward: scale, dScale and
** dBias); --save 1: the forward writes mean / invStd (the backward always reads them, written by
** one untimed forward); -A / -B alpha and beta of y or dx, -a / -b those of dScale and dBias. The
** lines the library prints with CLDNN_LOG_CMD=1 run as they are. Examples (the targets):
**   cldnn-bench norm --mode layer --param 1 -D 8192x4096 --md
**   cldnn-bench norm --mode group --param 32 -D 32x256x56x56 -L NHWC --md
**
** Data, drawn once from the seed: x uniform in [-2, 3), dy in [-1, 1), scale in [0.5, 1.5),
** bias in [-1, 1), the prior y / dx / dScale / dBias (beta != 0) in [-1, 1). With -V 1 one
** untimed call per direction (outputs NaN where beta is 0) is compared with tests/ref/ref_norm.c
** in double (the backward from the statistics the library saved); tolerance atol + 10 rtol *
** scale, scale the size of the terms the value is made of.
**
** Bytes counted per call: the least any implementation moves: forward x + y, backward x + dy +
** dx, plus the output again when beta != 0 (statistics and parameters not counted). The
** backward with --affine 1 reads x and dy a second time for dScale / dBias (src/norm/norm.c),
** which the count leaves out on purpose: the ratio to copy bandwidth is against the ideal.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ref_norm.h"

static const bench_flag k_flags[] = {
    {"--mode", BENCH_FLAG_STRING, "layer", "layer | group | rms"},
    {"--param", BENCH_FLAG_INT, "1", "trailing dims normalized (layer, rms) or groups (group)"},
    {"--dir", BENCH_FLAG_STRING, NULL, "fwd | bwd (absent: both)"},
    {"--affine", BENCH_FLAG_INT, "1", "0|1 scale and bias (backward: scale, dScale, dBias)"},
    {"--save", BENCH_FLAG_INT, "1", "0|1 the forward saves mean / invStd"},
    {"-e", BENCH_FLAG_DOUBLE, "1e-5", "epsilon"},
    {"-a", BENCH_FLAG_DOUBLE, "1", "alpha of dScale / dBias"},
    {"-b", BENCH_FLAG_DOUBLE, "0", "beta of dScale / dBias"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

enum { B_X, B_Y, B_DY, B_DX, B_S, B_B, B_DS, B_DB, B_MEAN, B_ISTD, B_COUNT };

typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    ref_norm rn;
    int affine, save;
    double a2, b2;
    ref_view v;
    int64_t span, count, R, P;
    cldnnNormDescriptor_t nd;
    cldnnTensorDescriptor_t desc, pdesc, sdesc;
    cl_mem m[B_COUNT];
    float *hx, *hdy, *hs, *hb, *hprior, *got, *pgot;
    double *px, *pdy, *ds, *db, *mean, *istd, *want, *gs, *gb;
    int fails;
} nm_run;

typedef struct {
    nm_run* r;
    int bwd;
    int affine, save;
} nm_call;

static cldnnStatus_t nm_once(void* user) {
    nm_call* c = user;
    nm_run* r = c->r;
    cldnnHandle_t h = r->ctx->handle;
    float al = (float)r->opts->alpha, be = (float)r->opts->beta, a2 = (float)r->a2, b2 = (float)r->b2;
    cl_mem* m = r->m;
    int rms = r->rn.mode == CLDNN_NORM_RMS;
    if (!c->bwd)
        return cldnnNormalizationForward(h, r->nd, &al, &be, r->desc, m[B_X], 0, r->pdesc,
                                         c->affine ? m[B_S] : NULL, 0, c->affine ? m[B_B] : NULL, 0, r->sdesc,
                                         c->save && !rms ? m[B_MEAN] : NULL, 0, c->save ? m[B_ISTD] : NULL, 0,
                                         r->desc, m[B_Y], 0);
    return cldnnNormalizationBackward(h, r->nd, &al, &be, &a2, &b2, r->desc, m[B_X], 0, r->desc, m[B_DY], 0, r->pdesc,
                                      c->affine ? m[B_S] : NULL, 0, c->affine ? m[B_DS] : NULL, 0,
                                      c->affine ? m[B_DB] : NULL, 0, r->sdesc, rms ? NULL : m[B_MEAN], 0, m[B_ISTD],
                                      0, r->desc, m[B_DX], 0);
}

/* bench_check_scaled with the relative part 10x wider: normalized outputs divide by a standard
** deviation computed from the whole row. */
static void nm_cmp(const nm_run* r, const char* what, const float* got, const ref_view* v, const double* want,
                   const double* scale, int64_t n, bench_result* res) {
    bench_check_scaled(r->opts, "norm", what, got, v, want, scale, n, 10.0, res);
}

/* The outputs before a verified call: NaN where beta is 0, else the prior. */
static int nm_prime(nm_run* r, cl_mem m, cldnnDataType_t dt, size_t n, double beta) {
    if (beta == 0) ref_fill_nan(r->got, n);
    else memcpy(r->got, r->hprior, n * sizeof *r->got);
    return bench_upload(r->ctx, m, dt, r->got, n);
}

static int nm_verify(nm_run* r, int bwd, bench_result* res) {
    const bench_opts* o = r->opts;
    size_t n = (size_t)r->span, P = (size_t)r->P, R = (size_t)r->R;
    double al = o->alpha, be = o->beta;
    int64_t cnt = r->count, row, par;
    for (int64_t i = 0; i < cnt; i++) {
        r->px[i] = r->hx[ref_view_offset(&r->v, i)];
        r->pdy[i] = r->hdy[ref_view_offset(&r->v, i)];
    }
    for (size_t p = 0; p < P; p++) {
        r->gs[p] = r->hs[p];
        r->gb[p] = r->hb[p];
    }
    if (nm_prime(r, r->m[bwd ? B_DX : B_Y], o->dtype, n, be)) return 1;
    if (bwd && (nm_prime(r, r->m[B_DS], o->dtype, P, r->b2) || nm_prime(r, r->m[B_DB], o->dtype, P, r->b2))) return 1;
    nm_call c = {r, bwd, r->affine, bwd ? 1 : r->save};
    cldnnStatus_t st = nm_once(&c);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(res, "normalization", st);
        return 1;
    }
    if (bench_download(r->ctx, r->m[bwd ? B_DX : B_Y], o->dtype, r->got, n)) return 1;
    double* sc = malloc((size_t)cnt * sizeof(double));
    if (!sc) return 1;
    if (!bwd) {
        ref_norm_forward(&r->rn, r->px, r->affine ? r->gs : NULL, r->gb, r->mean, r->istd, r->want);
        for (int64_t i = 0; i < cnt; i++) {
            ref_norm_index(&r->rn, i, &row, &par);
            double prior = be != 0 ? be * r->hprior[ref_view_offset(&r->v, i)] : 0;
            double v = fabs(r->px[i] - r->mean[row]) * r->istd[row] + 1.0;
            sc[i] = fabs(al) * (r->affine ? v * fabs(r->gs[par]) + fabs(r->gb[par]) : v) + fabs(prior);
            r->want[i] = al * r->want[i] + prior;
        }
    } else {
        /* the statistics the library saved (one forward before): the reference takes them too */
        float* st32 = malloc(R * sizeof(float));
        if (!st32) {
            free(sc);
            return 1;
        }
        int rms = r->rn.mode == CLDNN_NORM_RMS, e = bench_download(r->ctx, r->m[B_ISTD], CLDNN_DATA_FLOAT, st32, R);
        for (size_t k = 0; !e && k < R; k++) r->istd[k] = st32[k];
        if (!e && !rms) e = bench_download(r->ctx, r->m[B_MEAN], CLDNN_DATA_FLOAT, st32, R);
        for (size_t k = 0; !e && k < R; k++) r->mean[k] = rms ? 0.0 : st32[k];
        free(st32);
        if (e) {
            free(sc);
            return 1;
        }
        ref_norm_backward(&r->rn, r->px, r->pdy, r->affine ? r->gs : NULL, r->mean, r->istd, r->want, r->ds, r->db);
        for (int64_t i = 0; i < cnt; i++) {
            ref_norm_index(&r->rn, i, &row, &par);
            double prior = be != 0 ? be * r->hprior[ref_view_offset(&r->v, i)] : 0;
            sc[i] = fabs(al) * r->istd[row] * 3.0 * (fabs(r->pdy[i]) * (r->affine ? fabs(r->gs[par]) : 1.0) + 1.0) +
                    fabs(prior);
            r->want[i] = al * r->want[i] + prior;
        }
        if (r->affine) {
            double* ps = malloc(P * 2 * sizeof(double));
            if (!ps) {
                free(sc);
                return 1;
            }
            for (int k = 0; k < 2; k++) {
                double* g = k ? r->db : r->ds;
                for (size_t p = 0; p < P; p++) {
                    double prior = r->b2 != 0 ? r->b2 * r->hprior[p] : 0;
                    ps[p] = fabs(r->a2) * 3.0 * (double)cnt / (double)P + fabs(prior);
                    g[p] = r->a2 * g[p] + prior;
                }
                if (bench_download(r->ctx, r->m[k ? B_DB : B_DS], o->dtype, r->pgot, P) == 0)
                    nm_cmp(r, k ? "dBias" : "dScale", r->pgot, NULL, g, ps, (int64_t)P, res);
            }
            free(ps);
        }
    }
    nm_cmp(r, bwd ? "dx" : "y", r->got, &r->v, r->want, sc, cnt, res);
    free(sc);
    if (res->check == BENCH_CHECK_FAIL) r->fails++;
    return 0;
}

static void nm_one(nm_run* r, int bwd) {
    const bench_opts* o = r->opts;
    static const char* const modes[3] = {"layer", "group", "rms"};
    bench_result res;
    bench_result_init(&res, "norm", o);
    snprintf(res.op, sizeof res.op, "%s%d %s%s%s", modes[r->rn.mode], r->rn.param, bwd ? "bwd" : "fwd",
             r->affine ? " affine" : "", !bwd && r->save ? " save" : "");
    double t = (double)r->span * (double)o->elem_size;
    res.bytes = (bwd ? 3 * t : 2 * t) + (o->beta != 0 ? t : 0);
    if (bwd) { /* the statistics the backward reads */
        nm_call f = {r, 0, 0, 1};
        cldnnStatus_t st = nm_once(&f);
        if (st != CLDNN_STATUS_SUCCESS && bench_note_status(&res, "forward (statistics)", st)) {
            r->fails++;
            bench_report(o, &res);
            return;
        }
    }
    if (o->verify && nm_verify(r, bwd, &res)) {
        if (!res.note[0]) {
            snprintf(res.note, sizeof res.note, "verification could not run");
            r->fails++;
        }
        bench_report(o, &res);
        return;
    }
    if (o->time) {
        nm_call c = {r, bwd, r->affine, r->save};
        r->fails += bench_time_result(r->ctx, o, nm_once, &c, (size_t)t, &res);
    }
    bench_report(o, &res);
}

static int norm_run(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    const char* mode = bench_arg_str(args, "--mode");
    const char* dir = bench_arg_str(args, "--dir");
    int m = strcmp(mode, "layer") == 0 ? 0 : strcmp(mode, "group") == 0 ? 1 : strcmp(mode, "rms") == 0 ? 2 : -1;
    int d = dir == NULL ? 2 : strcmp(dir, "fwd") == 0 ? 0 : strcmp(dir, "bwd") == 0 ? 1 : -1;
    if (m < 0 || d < 0) {
        fprintf(stderr, "cldnn-bench norm: expected --mode layer|group|rms and --dir fwd|bwd\n");
        return 2;
    }
    nm_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.rn.mode = m;
    r.rn.param = (int)bench_arg_int(args, "--param", 1);
    r.rn.nd = opts->nd;
    memcpy(r.rn.dims, opts->dims, sizeof r.rn.dims);
    r.rn.eps = bench_arg_double(args, "-e", 1e-5);
    r.affine = bench_arg_int(args, "--affine", 1) != 0;
    r.save = bench_arg_int(args, "--save", 1) != 0;
    r.a2 = bench_arg_double(args, "-a", 1.0);
    r.b2 = bench_arg_double(args, "-b", 0.0);
    r.v = bench_view(opts->nd, opts->dims, opts->layout);
    r.span = ref_view_span(&r.v);
    r.count = ref_view_count(&r.v);
    int rc = 1;
    if (!(r.desc = bench_desc(&r.v, opts->dtype))) goto out;
    if (cldnnCreateNormDescriptor(&r.nd) || cldnnSetNormDescriptor(r.nd, (cldnnNormMode_t)m, r.rn.param, r.rn.eps) ||
        cldnnCreateTensorDescriptor(&r.pdesc) || cldnnCreateTensorDescriptor(&r.sdesc) ||
        cldnnDeriveNormTensorDescriptors(r.nd, r.desc, r.pdesc, r.sdesc)) {
        bench_print_status("norm descriptors", CLDNN_STATUS_BAD_PARAM);
        rc = 2;
        goto out;
    }
    r.R = ref_norm_rows(&r.rn);
    r.P = ref_norm_params(&r.rn);
    size_t n = (size_t)r.span, P = (size_t)r.P, R = (size_t)r.R, es = opts->elem_size;
    ref_rng rng;
    ref_rng_seed(&rng, opts->seed);
    size_t sizes[B_COUNT] = {n * es, n * es, n * es, n * es, P * es, P * es, P * es, P * es, R * 4, R * 4};
    for (int i = 0; i < B_COUNT; i++)
        if (!(r.m[i] = bench_buffer(ctx, sizes[i]))) goto out;
    float** fs[] = {&r.hx, &r.hdy, &r.hprior, &r.got, &r.hs, &r.hb, &r.pgot};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        if (!(*fs[i] = bench_alloc(i < 4 ? (n > P ? n : P) : P, sizeof(float)))) goto out;
    double** ds[] = {&r.px, &r.pdy, &r.want, &r.ds, &r.db, &r.gs, &r.gb, &r.mean, &r.istd};
    size_t dn[] = {(size_t)r.count, (size_t)r.count, (size_t)r.count, P, P, P, P, R, R};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
        if (!(*ds[i] = bench_alloc(dn[i], sizeof(double)))) goto out;
    ref_fill_uniform(&rng, r.hx, n, -2.0, 3.0);
    ref_fill_uniform(&rng, r.hdy, n, -1.0, 1.0);
    ref_fill_uniform(&rng, r.hprior, n > P ? n : P, -1.0, 1.0);
    ref_fill_uniform(&rng, r.hs, P, 0.5, 1.5);
    ref_fill_uniform(&rng, r.hb, P, -1.0, 1.0);
    bench_round(opts->dtype, r.hx, n);
    bench_round(opts->dtype, r.hdy, n);
    bench_round(opts->dtype, r.hprior, n > P ? n : P);
    bench_round(opts->dtype, r.hs, P);
    bench_round(opts->dtype, r.hb, P);
    if (bench_upload(ctx, r.m[B_X], opts->dtype, r.hx, n) || bench_upload(ctx, r.m[B_DY], opts->dtype, r.hdy, n) ||
        bench_upload(ctx, r.m[B_Y], opts->dtype, r.hprior, n) ||
        bench_upload(ctx, r.m[B_DX], opts->dtype, r.hprior, n) || bench_upload(ctx, r.m[B_S], opts->dtype, r.hs, P) ||
        bench_upload(ctx, r.m[B_B], opts->dtype, r.hb, P) || bench_upload(ctx, r.m[B_DS], opts->dtype, r.hprior, P) ||
        bench_upload(ctx, r.m[B_DB], opts->dtype, r.hprior, P))
        goto out;
    if (d != 1) nm_one(&r, 0);
    if (d != 0) nm_one(&r, 1);
    rc = r.fails ? 1 : 0;
out:
    for (int i = 0; i < B_COUNT; i++) bench_release(r.m[i]);
    cldnnDestroyTensorDescriptor(r.desc);
    cldnnDestroyTensorDescriptor(r.pdesc);
    cldnnDestroyTensorDescriptor(r.sdesc);
    cldnnDestroyNormDescriptor(r.nd);
    float* f[] = {r.hx, r.hdy, r.hs, r.hb, r.hprior, r.got, r.pgot};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) free(f[i]);
    double* g[] = {r.px, r.pdy, r.ds, r.db, r.mean, r.istd, r.want, r.gs, r.gb};
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) free(g[i]);
    return rc;
}

const bench_mode bench_mode_norm = {"norm", "layer, group and RMS normalization (cldnnNormalization*)", k_flags,
                                    norm_run, NULL};
