/*
** reduce.c: the `reduce` mode of cldnn-bench: cldnnReduceTensor.
**
**   cldnn-bench reduce --op add|mul|min|max|amax|avg|norm1|norm2|mul_no_zeros|all
**                      --c-dims AxBx.. [--indices 0|32|64] [--nan 0|1] [common flags]
**
** -D is A's dims, --c-dims C's (A's with some dims set to 1: those are reduced; default A's with
** every dim but dim 1 set to 1, the batch statistics of NCHW), both packed in the -L layout.
** --indices asks FLATTENED_INDICES of that width (MIN, MAX and AMAX; the other ops run without),
** --nan 1 PROPAGATE_NAN. The lines the library prints with CLDNN_LOG_CMD=1 run as they are.
**
** Data, drawn once from the seed: A uniform in [-4, 4) ([0.9, 1.1) for the products, so they
** neither overflow nor vanish), the prior C in [-1, 1) when beta != 0. Per op: one verified call
** (C poisoned with NaN when beta == 0) against a double reduction done here, indices compared
** exactly; then the timed calls, on a workspace of cldnnGetReductionWorkspaceSize's bytes.
**
** Tolerance per output: atol + rtol * scale (the data type's), scale = |alpha| S + |beta prior|
** with S the sum of the magnitudes the result is made of (sums: sum |mapped|, so cancellation
** does not demand impossible accuracy; others |result|).
**
** Bytes counted per call: A read + C written (+ C read when beta != 0) + the indices written; the
** copy baseline copies A's bytes.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const bench_flag k_flags[] = {
    {"--op", BENCH_FLAG_STRING, "add", "add|mul|min|max|amax|avg|norm1|norm2|mul_no_zeros|all"},
    {"--c-dims", BENCH_FLAG_STRING, NULL, "C's dims AxBx.. (default: A's with all but dim 1 set to 1)"},
    {"--indices", BENCH_FLAG_INT, "0", "0 none, 32 or 64: flattened indices (min, max, amax)"},
    {"--nan", BENCH_FLAG_INT, "0", "1 PROPAGATE_NAN, 0 NOT_PROPAGATE_NAN"},
    {NULL, BENCH_FLAG_SWITCH, NULL, NULL}};

#define N_OPS 9
static const char* const k_op_names[N_OPS] = {"add", "mul", "min", "max", "amax", "avg", "norm1", "norm2",
                                              "mul_no_zeros"};

typedef struct {
    bench_ctx* ctx;
    const bench_opts* opts;
    ref_view va, vc;
    int64_t aspan, acount, cspan, ccount;
    cldnnTensorDescriptor_t ad, cd;
    cldnnReduceTensorDescriptor_t rd;
    cl_mem a, c, ind, ws;
    size_t ind_bytes, ws_bytes;
    float alpha, beta;
    int fails;
} rd_run;

static cldnnStatus_t rd_once(void* user) {
    rd_run* r = user;
    return cldnnReduceTensor(r->ctx->handle, r->rd, r->ind, 0, r->ind_bytes, r->ws, 0, r->ws_bytes, &r->alpha, r->ad,
                             r->a, 0, &r->beta, r->cd, r->c, 0);
}

static int cmp_op(int op) { return op == 2 || op == 3 || op == 4; }

/* The double reduction of A (host, laid out like the device buffer) into want (packed over C's
** dims), scale and index. */
static void rd_reference(const rd_run* r, int op, int propagate, const float* ha, double* want, double* scale,
                         int64_t* index) {
    const ref_view* va = &r->va;
    int nd = va->nd;
    for (int64_t o = 0; o < r->ccount; o++) {
        want[o] = op == 1 || op == 8 ? 1.0 : cmp_op(op) ? NAN : 0.0;
        scale[o] = 0;
        index[o] = -1;
    }
    int64_t L = r->acount / r->ccount, idx[REF_DIM_MAX];
    for (int64_t i = 0; i < r->acount; i++) {
        int64_t rem = i, o = 0, rr = 0, wo = 1, wr = 1;
        for (int d = nd - 1; d >= 0; d--) {
            idx[d] = rem % va->dims[d];
            rem /= va->dims[d];
        }
        for (int d = nd - 1; d >= 0; d--) {
            if (r->vc.dims[d] == 1 && va->dims[d] != 1) {
                rr += idx[d] * wr;
                wr *= va->dims[d];
            } else {
                o += idx[d] * wo;
                wo *= va->dims[d];
            }
        }
        double x = ha[ref_view_offset(va, i)];
        if (op == 4 || op == 6) x = fabs(x);
        else if (op == 7) x = x * x;
        else if (op == 8 && x == 0.0) x = 1.0;
        if (cmp_op(op)) {
            double b = want[o];
            int nx = isnan(x), nb = isnan(b), better;
            if (index[o] < 0) better = 1;
            else if (nx || nb) better = nx && nb ? 0 : propagate ? nx : nb;
            else better = op == 2 ? x < b : x > b;
            if (better) {
                want[o] = x;
                index[o] = rr;
            }
        } else if (op == 1 || op == 8) {
            want[o] *= x;
        } else {
            want[o] += x;
            scale[o] += fabs(x);
        }
    }
    for (int64_t o = 0; o < r->ccount; o++) {
        if (op == 5) {
            want[o] /= (double)L;
            scale[o] /= (double)L;
        } else if (op == 7) {
            want[o] = sqrt(want[o]);
            scale[o] = want[o];
        }
        if (scale[o] == 0.0 || isnan(scale[o])) scale[o] = fabs(want[o]);
    }
}

/* Verifies one call of op: fills res, returns 0 when the call ran, 1 when it could not. */
static int rd_verify(rd_run* r, int op, int propagate, int iw, const float* ha, const float* hprior,
                     bench_result* res) {
    const bench_opts* o = r->opts;
    size_t cn = (size_t)r->cspan;
    float* got = bench_alloc(cn, sizeof(float));
    double* want = bench_alloc((size_t)r->ccount, sizeof(double));
    double* scale = bench_alloc((size_t)r->ccount, sizeof(double));
    int64_t* index = bench_alloc((size_t)r->ccount, sizeof(int64_t));
    unsigned char* gi = r->ind_bytes ? bench_alloc(r->ind_bytes, 1) : NULL;
    int rc = 1;
    if (!got || !want || !scale || !index || (r->ind_bytes && !gi)) goto out;
    if (o->beta == 0) ref_fill_nan(got, cn);
    else memcpy(got, hprior, cn * sizeof *got);
    if (bench_upload(r->ctx, r->c, o->dtype, got, cn)) goto out;
    cldnnStatus_t st = rd_once(r);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(res, "cldnnReduceTensor", st);
        goto out;
    }
    if (bench_download(r->ctx, r->c, o->dtype, got, cn)) goto out;
    if (r->ind_bytes &&
        clEnqueueReadBuffer(r->ctx->queue, r->ind, CL_TRUE, 0, r->ind_bytes, gi, 0, NULL, NULL) != CL_SUCCESS)
        goto out;
    rd_reference(r, op, propagate, ha, want, scale, index);
    int64_t bad = 0, first = -1;
    double max_rel = 0, use = 0;
    for (int64_t i = 0; i < r->ccount; i++) {
        int64_t at = ref_view_offset(&r->vc, i);
        double prior = o->beta != 0 ? (double)hprior[at] : 0.0;
        double w = o->alpha * want[i] + o->beta * prior, err;
        double tol = o->atol + o->rtol * (fabs(o->alpha) * scale[i] + fabs(o->beta * prior));
        int ok = ref_close(got[at], w, tol, &err);
        if (r->ind_bytes) {
            int64_t g = 0;
            if (iw == 32) {
                uint32_t u;
                memcpy(&u, gi + (size_t)i * 4, 4);
                g = u;
            } else {
                memcpy(&g, gi + (size_t)i * 8, 8);
            }
            ok &= g == index[i];
        }
        double rel = w != 0.0 ? err / fabs(w) : err;
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
        fprintf(stderr, "cldnn-bench: reduce %s: %lld of %lld outputs wrong (value or index); first at %lld: got %.9g\n",
                res->op, (long long)bad, (long long)r->ccount, (long long)first,
                (double)got[ref_view_offset(&r->vc, first)]);
    r->fails += bad != 0;
    rc = 0;
out:
    free(got);
    free(want);
    free(scale);
    free(index);
    free(gi);
    return rc;
}

/* Runs (verifies, times, reports) one op. */
static void rd_one(rd_run* r, int op, int propagate, int iw, const float* ha, const float* hprior) {
    const bench_opts* o = r->opts;
    bench_result res;
    bench_result_init(&res, "reduce", o);
    char cdims[64];
    bench_dims_str(r->vc.nd, r->vc.dims, cdims, sizeof cdims);
    int w = cmp_op(op) ? iw : 0;
    snprintf(res.op, sizeof res.op, "%s -> %s%s", k_op_names[op], cdims, w == 64 ? " idx64" : w == 32 ? " idx32" : "");
    cldnnStatus_t st = cldnnSetReduceTensorDescriptor(
        r->rd, (cldnnReduceTensorOp_t)op, CLDNN_DATA_FLOAT, propagate ? CLDNN_PROPAGATE_NAN : CLDNN_NOT_PROPAGATE_NAN,
        w ? CLDNN_REDUCE_TENSOR_FLATTENED_INDICES : CLDNN_REDUCE_TENSOR_NO_INDICES,
        w == 64 ? CLDNN_64BIT_INDICES : CLDNN_32BIT_INDICES);
    size_t ib = 0, wb = 0;
    if (st == CLDNN_STATUS_SUCCESS) st = cldnnGetReductionIndicesSize(r->ctx->handle, r->rd, r->ad, r->cd, &ib);
    if (st == CLDNN_STATUS_SUCCESS) st = cldnnGetReductionWorkspaceSize(r->ctx->handle, r->rd, r->ad, r->cd, &wb);
    if (st != CLDNN_STATUS_SUCCESS) {
        r->fails += bench_note_status(&res, "the reduction's setup", st);
        bench_report(o, &res);
        return;
    }
    r->ind_bytes = ib;
    r->ws_bytes = wb;
    r->ind = ib ? bench_buffer(r->ctx, ib) : NULL;
    r->ws = wb ? bench_buffer(r->ctx, wb) : NULL;
    if ((ib && !r->ind) || (wb && !r->ws)) {
        r->fails++;
        goto out;
    }
    double es = (double)o->elem_size;
    res.bytes = (double)r->aspan * es + (double)r->cspan * es * (o->beta != 0 ? 2 : 1) + (double)ib;
    if (o->verify && rd_verify(r, op, propagate, w, ha, hprior, &res)) {
        if (!res.note[0]) {
            snprintf(res.note, sizeof res.note, "verification could not run");
            r->fails++;
        }
        bench_report(o, &res);
        goto out;
    }
    if (wb) snprintf(res.note, sizeof res.note, "ws %zu B", wb);
    if (o->time) r->fails += bench_time_result(r->ctx, o, rd_once, r, (size_t)((double)r->aspan * es), &res);
    bench_report(o, &res);
out:
    bench_release(r->ind);
    bench_release(r->ws);
    r->ind = r->ws = NULL;
}

/* "AxBx.." into dims; returns the count, or 0 when malformed. */
static int parse_cdims(const char* s, int64_t* dims) {
    int n = 0;
    while (*s && n < CLDNN_DIM_MAX) {
        char* end;
        long long v = strtoll(s, &end, 10);
        if (end == s || v < 1) return 0;
        dims[n++] = v;
        if (*end == 'x') s = end + 1;
        else if (*end == '\0') s = end;
        else return 0;
    }
    return *s ? 0 : n;
}

static int reduce_run(bench_ctx* ctx, const bench_opts* opts, const bench_args* args) {
    const char* oname = bench_arg_str(args, "--op");
    int only = -1, all = strcmp(oname, "all") == 0;
    for (int k = 0; k < N_OPS; k++)
        if (strcmp(oname, k_op_names[k]) == 0) only = k;
    if (!all && only < 0) {
        fprintf(stderr, "cldnn-bench reduce: --op %s: expected add|mul|min|max|amax|avg|norm1|norm2|mul_no_zeros|all\n",
                oname);
        return 2;
    }
    long long iw = bench_arg_int(args, "--indices", 0), nan = bench_arg_int(args, "--nan", 0);
    if (iw != 0 && iw != 32 && iw != 64) {
        fprintf(stderr, "cldnn-bench reduce: --indices %lld: expected 0, 32 or 64\n", iw);
        return 2;
    }
    int64_t cdims[CLDNN_DIM_MAX];
    const char* cs = bench_arg_str(args, "--c-dims");
    if (cs) {
        if (parse_cdims(cs, cdims) != opts->nd) {
            fprintf(stderr, "cldnn-bench reduce: --c-dims %s: expected %d dims AxBx..\n", cs, opts->nd);
            return 2;
        }
    } else {
        for (int d = 0; d < opts->nd; d++) cdims[d] = d == 1 ? opts->dims[1] : 1;
    }
    for (int d = 0; d < opts->nd; d++)
        if (cdims[d] != 1 && cdims[d] != opts->dims[d]) {
            fprintf(stderr, "cldnn-bench reduce: --c-dims: dim %d is %lld; expected 1 or A's %lld\n", d,
                    (long long)cdims[d], (long long)opts->dims[d]);
            return 2;
        }
    rd_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.opts = opts;
    r.alpha = (float)opts->alpha;
    r.beta = (float)opts->beta;
    r.va = bench_view(opts->nd, opts->dims, opts->layout);
    r.vc = bench_view(opts->nd, cdims, opts->layout);
    r.aspan = ref_view_span(&r.va);
    r.acount = ref_view_count(&r.va);
    r.cspan = ref_view_span(&r.vc);
    r.ccount = ref_view_count(&r.vc);
    float *ha = NULL, *hp = NULL, *hprior = NULL;
    int rc = 1;
    if (!(r.ad = bench_desc(&r.va, opts->dtype)) || !(r.cd = bench_desc(&r.vc, opts->dtype))) goto out;
    cldnnStatus_t st = cldnnCreateReduceTensorDescriptor(&r.rd);
    if (st != CLDNN_STATUS_SUCCESS) {
        bench_print_status("cldnnCreateReduceTensorDescriptor", st);
        goto out;
    }
    size_t an = (size_t)r.aspan, cn = (size_t)r.cspan;
    if (!(r.a = bench_buffer(ctx, an * opts->elem_size)) || !(r.c = bench_buffer(ctx, cn * opts->elem_size))) goto out;
    if (!(ha = bench_alloc(an, sizeof(float))) || !(hp = bench_alloc(an, sizeof(float))) ||
        !(hprior = bench_alloc(cn, sizeof(float))))
        goto out;
    ref_rng rng;
    ref_rng_seed(&rng, opts->seed);
    ref_fill_uniform(&rng, ha, an, -4.0, 4.0);
    ref_fill_uniform(&rng, hp, an, 0.9, 1.1);
    ref_fill_uniform(&rng, hprior, cn, -1.0, 1.0);
    bench_round(opts->dtype, ha, an);
    bench_round(opts->dtype, hp, an);
    bench_round(opts->dtype, hprior, cn);
    if (!opts->verify && opts->beta != 0 && bench_upload(ctx, r.c, opts->dtype, hprior, cn)) goto out;
    int uploaded = -1; /* which host array A holds: 0 ha, 1 hp */
    for (int k = 0; k < N_OPS; k++) {
        if (!all && k != only) continue;
        int prod = k == 1 || k == 8;
        if (uploaded != prod) {
            if (bench_upload(ctx, r.a, opts->dtype, prod ? hp : ha, an)) goto out;
            uploaded = prod;
        }
        rd_one(&r, k, nan != 0, (int)iw, prod ? hp : ha, hprior);
    }
    rc = r.fails ? 1 : 0;
out:
    bench_release(r.a);
    bench_release(r.c);
    cldnnDestroyTensorDescriptor(r.ad);
    cldnnDestroyTensorDescriptor(r.cd);
    cldnnDestroyReduceTensorDescriptor(r.rd);
    free(ha);
    free(hp);
    free(hprior);
    return rc;
}

const bench_mode bench_mode_reduce = {"reduce", "tensor reductions (cldnnReduceTensor)", k_flags, reduce_run, NULL};
