/*
** conv_igemm.c: the implicit-GEMM solvers (kernels/conv/conv_igemm.cl) of the three convolution
** directions, and the solver tables of the convolution family.
**
** A direction is one GEMM per group (cldnn_conv_gemm_dims gives M, N, KR). Its tile parameters
** come from the convolution table (conv_params.c) when the device has a row for the direction,
** else from the GEMM family's device table (gemm_params.c) for the GEMM of the same sizes; the gathered operands load one element at a time
** (VWA = 1, and VWB = 1 except forward's plain filter operand, whose width the alignment of
** C/G*R*S and the filter's offset decide).
**
** HALF and BFLOAT16 data (x, w, y 16-bit, cldnn_dtype_build_option) take the same kernels; the
** partial sums stay float.
**
** Backward-filter reduces over N*P*Q, usually far more than its M*N outputs can spread over the
** device: it splits the reduction into nsplit ranges whose partial sums go to the caller's
** workspace, then gemm_splitk_reduce (kernels/gemm/gemm.cl) adds them in a fixed order, so the
** result is deterministic. nsplit is a function of the problem and the device only, so the
** workspace query and the run agree.
*/
#include "conv/conv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IGEMM_WS_MAX ((uint64_t)256 << 20) /* split-k partial sums, bytes */
#define IGEMM_SPLITS_MAX 64                 /* the tile parameters' limit (cldnn_gemm_params_valid) */

static void equivalent_gemm(const cldnn_conv_problem* p, cldnn_gemm_problem* g) {
    memset(g, 0, sizeof *g);
    cldnn_conv_gemm_dims(p, &g->m, &g->n, &g->k);
    g->batch = p->groups;
    g->lda = g->m;
    g->ldb = g->k;
    g->ldc = g->m;
}

/* Splits a loop-limited device (gemm.h's cldnn_gemm_k_max) needs for p's reduction at k-tiles of
** kwg: 1 elsewhere. */
static int64_t loop_splits(const cldnn_conv_problem* p, int kwg) {
    int64_t m, n, k;
    cldnn_conv_gemm_dims(p, &m, &n, &k);
    if (p->dir != CLDNN_CONV_BWD_FILTER) /* TAPLOOP pads each tap's channels up to a k-tile */
        k += (int64_t)p->r * p->s * kwg;
    const int64_t kmax = cldnn_gemm_k_max(kwg, p->dev);
    return k / kmax + (k % kmax != 0); /* kmax may be INT64_MAX */
}

/* Everywhere, except where a loop-limited device (llvmpipe) cannot run the reduction: forward and
** backward-data do not split it (im2col + GEMM, which splits, serves them), and backward-filter's
** splits must fit their caps. Judged at k-tiles of 32, the deepest of the tables and the space. */
int cldnn_conv_igemm_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    if (dev->loop_limit == 0)
        return 1;
    const int64_t need = loop_splits(p, 32);
    if (p->dir != CLDNN_CONV_BWD_FILTER)
        return need == 1;
    return need <= IGEMM_SPLITS_MAX && (uint64_t)need * (uint64_t)p->k * (uint64_t)p->cg * (uint64_t)p->r *
                                               (uint64_t)p->s * 4u <= IGEMM_WS_MAX;
}

/* Splits of backward-filter's reduction for parameters q: enough work-groups for two per compute
** unit, each split at least 8 k-tiles deep, at most IGEMM_SPLITS_MAX, the partial sums within
** IGEMM_WS_MAX. (ResNet-50's 7x7 stem on the H100 asked for 132 before the cap, which the
** parameter check refused.) On a loop-limited device no split goes deeper than cldnn_gemm_k_max. */
int cldnn_conv_igemm_splits(const cldnn_conv_problem* p, const cldnn_gemm_params* q) {
    if (p->dir != CLDNN_CONV_BWD_FILTER)
        return 1;
    int64_t m, n, k;
    cldnn_conv_gemm_dims(p, &m, &n, &k);
    uint64_t blocks = (uint64_t)((m + q->mwg - 1) / q->mwg) * (uint64_t)((n + q->nwg - 1) / q->nwg) *
                      (uint64_t)p->groups;
    uint64_t target = 2u * (uint64_t)(p->dev->compute_units ? p->dev->compute_units : 1);
    int64_t ns = blocks >= target ? 1 : (int64_t)((target + blocks - 1) / blocks);
    int64_t deepest = k / (8 * q->kwg);
    if (ns > deepest)
        ns = deepest;
    if (ns > IGEMM_SPLITS_MAX)
        ns = IGEMM_SPLITS_MAX;
    uint64_t per_split = (uint64_t)p->k * (uint64_t)p->cg * (uint64_t)p->r * (uint64_t)p->s * 4u;
    while (ns > 1 && (uint64_t)ns * per_split > IGEMM_WS_MAX)
        --ns;
    if (ns < loop_splits(p, q->kwg)) /* a loop-limited device's floor (applicability keeps it in the caps) */
        ns = loop_splits(p, q->kwg);
    if (ns < 1)
        ns = 1;
    /* The k range of a split is a whole number of k-tiles; recount the splits that covers. */
    int64_t ks = (k + ns - 1) / ns;
    ks = (ks + q->kwg - 1) / q->kwg * q->kwg;
    return (int)((k + ks - 1) / ks);
}

/* Fits a tile set to p: the gathered operands load one element at a time (forward's filter
** keeps its width), and p's split count. */
static void igemm_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    cldnn_gemm_params* q = (cldnn_gemm_params*)params;
    (void)dev;
    q->vwa = 1;
    if (p->dir == CLDNN_CONV_BWD_FILTER)
        q->vwb = 1;
    q->splitk = cldnn_conv_igemm_splits(p, q);
}

void cldnn_conv_igemm_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    cldnn_gemm_params* q = (cldnn_gemm_params*)params;
    cldnn_gemm_problem g;
    equivalent_gemm(p, &g);
    if (!cldnn_conv_params_lookup(p, dev, q))
        cldnn_gemm_params_select(&g, dev, q);
    igemm_finish(p, dev, q);
}

size_t cldnn_conv_igemm_workspace(const void* problem, const void* params) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    if (p->dir != CLDNN_CONV_BWD_FILTER)
        return 0;
    cldnn_gemm_params q;
    if (params != NULL)
        q = *(const cldnn_gemm_params*)params;
    else
        cldnn_conv_igemm_defaults(p, p->dev, &q);
    return cldnn_conv_partials_bytes(p, q.splitk);
}

int cldnn_conv_tile_fits(const cldnn_conv_problem* p, int bm, int bn) {
    int64_t gm, gn, gk, mcap = 16, ncap = 16;
    cldnn_conv_gemm_dims(p, &gm, &gn, &gk);
    while (mcap < gm)
        mcap *= 2;
    while (ncap < gn)
        ncap *= 2;
    return bm <= 2 * mcap && bn <= 2 * ncap;
}

static int igemm_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    (void)problem;
    return cldnn_gemm_params_valid((const cldnn_gemm_params*)params, dev);
}

/* The GEMM family's declared space (cldnn_gemm_param_space), finished for p, tiles that fit it. */
static size_t igemm_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const size_t n = cldnn_gemm_param_space(dev, NULL, 0);
    cldnn_gemm_params* all = (cldnn_gemm_params*)malloc((n ? n : 1) * sizeof *all);
    if (all == NULL)
        return 0;
    cldnn_gemm_param_space(dev, all, n);
    size_t kept = 0;
    for (size_t i = 0; i < n && kept < max; ++i) {
        igemm_finish(p, dev, &all[i]);
        if (cldnn_conv_tile_fits(p, all[i].mwg, all[i].nwg))
            ((cldnn_gemm_params*)out)[kept++] = all[i];
    }
    free(all);
    return kept;
}

const cldnn_param_space cldnn_conv_igemm_space = {
    .text = CLDNN_GEMM_PARAMS_TEXT,
    .names = CLDNN_GEMM_PARAMS_NAMES,
    .valid = igemm_valid,
    .finish = igemm_finish,
    .enumerate = igemm_enumerate,
};

cldnnStatus_t cldnn_conv_igemm_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const cldnn_conv_buffers* b = (const cldnn_conv_buffers*)buffers;
    cldnn_gemm_params q = *(const cldnn_gemm_params*)params;
    int64_t M, N, KR;
    cldnn_conv_gemm_dims(p, &M, &N, &KR);

    /* TAPLOOP (forward and backward-data): the reduction runs tap by tap over the channels
    ** rounded up to the k-tile, when the rounding wastes at most a quarter. */
    int64_t taps = (int64_t)p->cg * p->r * p->s;
    const int ch = p->dir == CLDNN_CONV_FWD ? p->cg : p->kg;
    const int cpad = (ch + q.kwg - 1) / q.kwg * q.kwg;
    const int taploop = p->dir != CLDNN_CONV_BWD_FILTER && (cpad - ch) * 4 <= cpad &&
                        (int64_t)p->r * p->s * cpad < 0x7fffffffLL - 1024;
    if (taploop)
        KR = (int64_t)p->r * p->s * cpad;
    /* The filter operand's vector loads: along taps (forward), along a KRSC filter's channels
    ** (TAPLOOP), when the sizes and the offset keep them aligned; never for gathered filters. */
    int64_t unit = p->dir == CLDNN_CONV_FWD ? (taploop ? (p->kord ? p->cg : 0) : taps)
                                            : (taploop && p->kord ? p->cg : 0);
    if (unit == 0)
        q.vwb = 1;
    while (q.vwb > 1 && (unit % q.vwb || p->off_w % (uint64_t)q.vwb))
        q.vwb /= 2;
    while (q.vwb > 1 && !cldnn_gemm_params_valid(&q, &h->prof))
        q.vwb /= 2;
    if (!cldnn_gemm_params_valid(&q, &h->prof)) {
        char ps[96];
        cldnn_gemm_params_format(&q, ps, sizeof ps);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "implicit-GEMM parameters %s are not valid on %s", ps, h->prof.name);
    }
    /* Which operand walks rows fastest: the unit-stride dimension of each gathered tensor. */
    int a_runit, b_runit = 0;
    if (p->dir == CLDNN_CONV_FWD)
        a_runit = p->xs[3] == 1 || p->xs[1] != 1; /* NCHW x: along the pixel */
    else if (p->dir == CLDNN_CONV_BWD_DATA) {
        a_runit = p->ys[3] == 1 || p->ys[1] != 1;
        b_runit = p->kord == 1;                   /* KRSC: along the input channel */
    } else {
        a_runit = p->ys[1] == 1;                  /* NHWC dy: along k */
        b_runit = p->kord == 1 && p->xs[1] == 1;  /* NHWC x, KRSC taps: along c */
    }
    char opts[360];
    snprintf(opts, sizeof opts,
             "-DMWG=%d -DNWG=%d -DKWG=%d -DMDIMC=%d -DNDIMC=%d -DVWM=%d -DVWN=%d -DVWA=1 -DVWB=%d -DPADA=%d "
             "-DPADB=%d -DDIR=%d -DKORD=%d -DA_RUNIT=%d -DB_RUNIT=%d -DTAPLOOP=%d%s",
             q.mwg, q.nwg, q.kwg, q.mdimc, q.ndimc, q.vwm, q.vwn, q.vwb, q.pada, q.padb, (int)p->dir, p->kord, a_runit,
             b_runit, taploop, cldnn_dtype_build_option(p->dtype));
    cldnn_epilogue_options(p->epi, opts, sizeof opts);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_igemm.cl", opts, "conv_igemm", &k));

    int nsplit = q.splitk > 1 ? q.splitk : 1;
    int64_t ks = (KR + nsplit - 1) / nsplit;
    ks = (ks + q.kwg - 1) / q.kwg * q.kwg;
    cl_mem part = b->y; /* unused unless nsplit > 1 */
    cl_ulong part_off = 0;
    if (nsplit > 1) {
        part = b->ws;
        part_off = b->ws_off / 4;
    }
    int tap_div = taploop ? cpad : p->kord == 0 ? p->r * p->s : (p->dir == CLDNN_CONV_BWD_DATA ? p->kg : p->cg);
    CLDNN_TRY(cldnn_conv_igemm_args(k, p, b, M, N, KR, tap_div, (int)ks, nsplit, part, part_off));
    uint64_t global[3] = {(uint64_t)((M + q.mwg - 1) / q.mwg) * (uint64_t)q.mdimc,
                          (uint64_t)((N + q.nwg - 1) / q.nwg) * (uint64_t)q.ndimc, (uint64_t)p->groups * (uint64_t)nsplit};
    size_t local[3] = {(size_t)q.mdimc, (size_t)q.ndimc, 1};
    CLDNN_TRY(cldnn_enqueue_nd(h, k, 3, global, local, "conv_igemm"));
    if (nsplit == 1)
        return CLDNN_STATUS_SUCCESS;

    return cldnn_gemm_reduce_partials(h, part, part_off, nsplit, (int64_t)p->k * taps, p->alpha, p->beta, b->w,
                                      p->off_w, p->dtype);
}

/* conv_igemm's list (kernels/conv/conv_igemm.cl; conv_igemm_mma.cl declares the same), in its
** order: the GEMM's sizes, scalars and tensors, CONV_GEOMETRY_ARGS, CONV_DIVISOR_ARGS, the split
** of the reduction, then the fused epilogue's where p has one. */
#define IGEMM_ARG_GEOMETRY 11u /* after M .. y_off */
#define IGEMM_ARG_DIVISORS (IGEMM_ARG_GEOMETRY + CLDNN_CONV_GEOMETRY_NARGS)
#define IGEMM_ARG_SPLIT (IGEMM_ARG_DIVISORS + CLDNN_CONV_DIVISOR_NARGS)

cldnnStatus_t cldnn_conv_igemm_args(cl_kernel k, const cldnn_conv_problem* p, const cldnn_conv_buffers* b, int64_t M,
                                    int64_t N, int64_t KR, int tap_div, int ksplit, int nsplit, cl_mem part,
                                    cl_ulong part_off) {
    const cldnn_conv_values v = cldnn_conv_values_of(p);
    cl_int iM = (cl_int)M, iN = (cl_int)N, iK = (cl_int)KR;
    cl_int G = p->groups, ks = ksplit, ns = nsplit;
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(iM), CLDNN_ARG(iN), CLDNN_ARG(iK), CLDNN_ARG(p->alpha),
                                CLDNN_ARG(p->beta), CLDNN_ARG(b->x), CLDNN_ARG(v.x_off), CLDNN_ARG(b->w),
                                CLDNN_ARG(v.w_off), CLDNN_ARG(b->y), CLDNN_ARG(v.y_off)));
    CLDNN_TRY(cldnn_conv_geometry_args(k, IGEMM_ARG_GEOMETRY, p));
    CLDNN_TRY(cldnn_conv_divisor_args(k, IGEMM_ARG_DIVISORS, p, tap_div));
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, IGEMM_ARG_SPLIT, CLDNN_ARG(G), CLDNN_ARG(ks), CLDNN_ARG(ns), CLDNN_ARG(part),
                                CLDNN_ARG(part_off)));
    return cldnn_epilogue_args(k, p->epi);
}
