/*
** batchnorm.c: cldnnDeriveBNTensorDescriptor and the batch-normalization calls (cuDNN semantics):
** training forward, inference forward, backward.
**
** A call is K statistics of M values each: SPATIAL mode one per channel over (n, spatial),
** PER_ACTIVATION one per (c, spatial) over n. Stat dims and reduction dims are each sorted by x's
** strides and collapsed where every operand is contiguous, then handed to
** kernels/norm/batchnorm.cl as strided views, so NCHW, NHWC, padded and 5-d tensors take one
** path. The work split (kernel header) puts adjacent work-items on x's innermost dim: along the
** reduction (TK = 1) when that is a reduction dim (NCHW spatial), across stats (TK >= 32) when it
** is a stat dim (NHWC spatial, per-activation), and splits each stat's reduction over G
** work-groups when stats are few (ResNet-50's 32x64x112x112 NCHW: 64 channels, 17 groups each on
** a 132-unit GPU). Solvers, first applicable wins:
**   bn_fused  G == 1: one kernel per call (reduce, finalize, normalize or dx); x (and dy) read
**             twice, the second time by the same work-group
**   bn_split  G > 1: reduce into partials in the handle's scratch, finalize per stat, apply;
**             3 kernels, x (and dy) read twice
** Where the reduction's inner dim has unit stride in every data operand and it, the other
** strides and the offsets divide by 4 (NCHW spatial with H x W % 4 == 0), indices count 4-element
** vectors (-DVEC=4: one aligned access each). Inference is one kernel (bn_inf_apply). Passes over
** the data: training forward 2 reads of x and 1 write of y; backward 2 reads of x and dy and 1
** write of dx; inference 1 read, 1 write.
** Statistics use pivot-shifted sums merged by Chan's formula (no E[x^2] - E[x]^2 cancellation)
** in a fixed order, so results are deterministic for a device.
**
** Contract choices: tensors of 2 to 5 dims (N, C, spatial); K, M and every dim below 2^31.
** Training with M == 1 value per statistic is BAD_PARAM (the unbiased running variance divides
** by M - 1; PyTorch rejects it too); backward with M == 1 is defined (dx = 0 with beta 0).
** exponentialAverageFactor must lie in [0, 1]; with 1 the prior running values are not read.
** x, y, dy, dx FLOAT, HALF or BFLOAT16 (storage; float arithmetic), parameters FLOAT. An output may be
** its input exactly (y == x, dx == x or dy: same buffer, offset and strides); any other overlap
** with x is NOT_SUPPORTED. On CPUs each lane walks a contiguous block of its chunk instead of
** interleaving with its neighbours (bn_params.ls / st / le) and gets at least 64 values.
*/
#include "tensor/tensor.h"

#include <stdio.h>
#include <string.h>

enum { BN_TRAIN = 0, BN_INFER = 1, BN_BWD = 2 };
enum { BN_X = 0, BN_Y = 1, BN_DX = 2, BN_P = 3 }; /* operands; BN_Y is dy in the backward */
#define BN_DIMS 4

typedef struct {
    int kind;
    cldnnDataType_t dtype;
    int K, M;
    int nsd, nrd;
    int sdims[BN_DIMS], rdims[BN_DIMS];                     /* innermost (in x) first */
    int64_t ss[4][BN_DIMS], rs[3][BN_DIMS];                 /* strides per operand */
    uint64_t off[3];                                        /* x, y|dy, dx: elements */
    uint64_t span_max;
    int stat_inner;                                         /* x's smallest stride is a stat dim */
    int vec;                                                /* elements per index (bn_vectorize) */
    float alpha, beta, alpha2, beta2, eps, factor;
    int flags;                                              /* kernel header: 1, 2 */
} bn_problem;

/* Parameter slots, by kind: train scale, bias, running mean, running var, saved mean, saved
** invstd; inference scale, bias, est mean, est var; backward scale, -, saved mean, saved invstd,
** dScale, dBias. */
typedef struct {
    cl_mem t[3];
    cl_mem p[6];
    uint64_t poff[6];  /* elements */
} bn_buffers;

typedef struct {
    size_t wg;
    int tk, groups, chunk;
    int ls, st, le;  /* a lane's elements: start lm * ls, step st, at most le (kernel header) */
    int idx32;
} bn_params;

static uint32_t pow2_at_least(uint64_t v) {
    uint32_t p = 1;
    while (p < v && p < (1u << 30))
        p <<= 1;
    return p;
}

static size_t bn_wg(const cldnn_device_profile* dev) {
    size_t wg = 256;
    while (wg > dev->max_wg_size && wg > 1)
        wg /= 2;
    return wg;
}

/* TK, G and the chunk (see the file header): groups enough for 8 per compute unit on a GPU (2 on
** a CPU), at least 16 elements per work-item in a split group. */
static void bn_split_params(const bn_problem* p, const cldnn_device_profile* dev, bn_params* q) {
    q->wg = bn_wg(dev);
    q->idx32 = p->span_max < (1ull << 32) - 64;
    /* lanes per stat: at most one per `per` values (a CPU's work-items cost more than a GPU's) */
    uint32_t wg = (uint32_t)q->wg, tm, per = dev->is_cpu ? 64u : 4u;
    uint32_t pm = pow2_at_least(((uint64_t)p->M + per - 1) / per);
    if (p->stat_inner) {
        uint32_t tk = pow2_at_least((uint64_t)p->K);
        tk = tk < 64 ? tk : 64;
        tk = tk < wg ? tk : wg;
        tm = wg / tk;
        if (tm > pm)
            tm = pm;
    } else {
        tm = pm < wg ? pm : wg;
    }
    q->tk = (int)(wg / tm);
    uint64_t tiles = ((uint64_t)p->K + (uint64_t)q->tk - 1) / (uint64_t)q->tk;
    uint64_t target = (dev->is_cpu ? 2u : 8u) * (uint64_t)dev->compute_units, g = 1;
    if (tiles < target) {
        uint64_t want = (target + tiles - 1) / tiles, most = (uint64_t)p->M / ((uint64_t)tm * 16u);
        g = want < most ? want : most;
        if (g < 1)
            g = 1;
        if (g > 4096)
            g = 4096;
    }
    /* the split's scratch: partials, coefficients and pivots */
    if (g > 1 && ((uint64_t)p->K * g * 5u + (uint64_t)p->K * 5u) * sizeof(float) > CLDNN_SCRATCH_MAX)
        g = 1;
    uint64_t chunk = ((uint64_t)p->M + g - 1) / g;
    q->chunk = (int)chunk;
    q->groups = (int)(((uint64_t)p->M + chunk - 1) / chunk);
    if (dev->is_cpu) { /* a contiguous block per lane: sequential, cache-friendly reads */
        q->ls = q->le = (int)((chunk + tm - 1) / tm);
        q->st = 1;
    } else { /* lanes interleaved: adjacent lanes on adjacent elements (coalesced) */
        q->ls = 1;
        q->st = (int)tm;
        q->le = q->chunk;
    }
}

static void bn_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    bn_split_params((const bn_problem*)problem, dev, (bn_params*)params);
}

static int fused_applicable(const void* problem, const cldnn_device_profile* dev) {
    bn_params q;
    bn_split_params((const bn_problem*)problem, dev, &q);
    return q.groups == 1;
}

static int split_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)problem;
    (void)dev;
    return 1;
}

static void set_long4(cl_long4* v, const int64_t* s) {
    for (int i = 0; i < 4; ++i)
        v->s[i] = s[i];
}

/* Sets every argument of kernel `name` (kernels/norm/batchnorm.cl's BN_ARGS) and enqueues
** `items` work-items in groups of `local`. */
static cldnnStatus_t bn_launch(cldnnHandle_t h, const bn_problem* p, const bn_params* q, const bn_buffers* b,
                               const char* name, uint64_t items, size_t local, cl_mem part, uint64_t coefo) {
    char opts[96];
    snprintf(opts, sizeof opts, "-DWG=%zu -DVEC=%d -DIDX_T=%s%s", q->wg, p->vec, q->idx32 ? "uint" : "ulong",
             cldnn_dtype_build_option(p->dtype));
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "norm/batchnorm.cl", opts, name, &k));
    cl_int4 sd, rd;
    cl_uint4 div[3];
    for (int i = 0; i < 4; ++i) {
        sd.s[i] = p->sdims[i];
        rd.s[i] = p->rdims[i];
    }
    for (int i = 0; i < 3; ++i)
        div[i] = cldnn_fastdiv((uint32_t)p->rdims[i]);
    cl_int K = p->K, M = p->M, nrd = p->nrd, tk = q->tk, G = q->groups, chunk = q->chunk, flags = p->flags;
    cl_ulong off[3], poff[6], co = coefo;
    cl_long4 ss[3], rs[3], pss;
    for (int o = 0; o < 3; ++o) {
        off[o] = p->off[o];
        set_long4(&ss[o], p->ss[o]);
        set_long4(&rs[o], p->rs[o]);
    }
    set_long4(&pss, p->ss[BN_P]);
    for (int i = 0; i < 6; ++i)
        poff[i] = b->poff[i];
    cl_int ls = q->ls, st = q->st, le = q->le;
    /* BN_ARGS (kernels/norm/batchnorm.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(
        k, 0, CLDNN_ARG(K), CLDNN_ARG(M), CLDNN_ARG(sd), CLDNN_ARG(nrd), CLDNN_ARG(rd), CLDNN_ARG(div[0]),
        CLDNN_ARG(div[1]), CLDNN_ARG(div[2]), CLDNN_ARG(tk), CLDNN_ARG(G), CLDNN_ARG(chunk),
        CLDNN_ARG(b->t[BN_X]), CLDNN_ARG(off[BN_X]), CLDNN_ARG(ss[BN_X]), CLDNN_ARG(rs[BN_X]),
        CLDNN_ARG(b->t[BN_Y]), CLDNN_ARG(off[BN_Y]), CLDNN_ARG(ss[BN_Y]), CLDNN_ARG(rs[BN_Y]),
        CLDNN_ARG(b->t[BN_DX]), CLDNN_ARG(off[BN_DX]), CLDNN_ARG(ss[BN_DX]), CLDNN_ARG(rs[BN_DX]),
        CLDNN_ARG(pss),
        CLDNN_ARG(b->p[0]), CLDNN_ARG(poff[0]), CLDNN_ARG(b->p[1]), CLDNN_ARG(poff[1]),
        CLDNN_ARG(b->p[2]), CLDNN_ARG(poff[2]), CLDNN_ARG(b->p[3]), CLDNN_ARG(poff[3]),
        CLDNN_ARG(b->p[4]), CLDNN_ARG(poff[4]), CLDNN_ARG(b->p[5]), CLDNN_ARG(poff[5]),
        CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(p->alpha2), CLDNN_ARG(p->beta2), CLDNN_ARG(p->eps),
        CLDNN_ARG(p->factor), CLDNN_ARG(flags),
        CLDNN_ARG(part), CLDNN_ARG(co), CLDNN_ARG(ls), CLDNN_ARG(st), CLDNN_ARG(le)));
    return cldnn_enqueue_1d(h, k, items, local, name);
}

/* Work-items of the grouped kernels: (K / TK tiles) x G groups of WG. */
static uint64_t bn_items(const bn_problem* p, const bn_params* q) {
    uint64_t tiles = ((uint64_t)p->K + (uint64_t)q->tk - 1) / (uint64_t)q->tk;
    return tiles * (uint64_t)q->groups * q->wg;
}

static cldnnStatus_t fused_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const bn_problem* p = (const bn_problem*)problem;
    const bn_params* q = (const bn_params*)params;
    if (p->kind == BN_INFER)
        return bn_launch(h, p, q, (const bn_buffers*)buffers, "bn_inf_apply", bn_items(p, q), q->wg, NULL, 0);
    return bn_launch(h, p, q, (const bn_buffers*)buffers, p->kind == BN_TRAIN ? "bn_fwd_fused" : "bn_bwd_fused",
                     bn_items(p, q), q->wg, NULL, 0);
}

static cldnnStatus_t split_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const bn_problem* p = (const bn_problem*)problem;
    const bn_params* q = (const bn_params*)params;
    const bn_buffers* b = (const bn_buffers*)buffers;
    if (p->kind == BN_INFER)
        return bn_launch(h, p, q, b, "bn_inf_apply", bn_items(p, q), q->wg, NULL, 0);
    const int train = p->kind == BN_TRAIN;
    uint64_t coefo = (uint64_t)p->K * (uint64_t)q->groups * 5u;
    cl_mem part;
    CLDNN_TRY(cldnn_scratch_get(h, (size_t)((coefo + (uint64_t)p->K * 5u) * sizeof(float)), &part));
    CLDNN_TRY(bn_launch(h, p, q, b, train ? "bn_fwd_reduce" : "bn_bwd_reduce", bn_items(p, q), q->wg, part, coefo));
    size_t fl = q->wg < 64 ? q->wg : 64;
    CLDNN_TRY(bn_launch(h, p, q, b, train ? "bn_fwd_finalize" : "bn_bwd_finalize", (uint64_t)p->K, fl, part, coefo));
    return bn_launch(h, p, q, b, train ? "bn_fwd_apply" : "bn_bwd_apply", bn_items(p, q), q->wg, part, coefo);
}

static const cldnn_solver bn_solvers[] = {
    {.name = "bn_fused", .algo = -1, .applicable = fused_applicable, .default_params = bn_defaults,
     .params_size = sizeof(bn_params), .run = fused_run},
    {.name = "bn_split", .algo = -1, .applicable = split_applicable, .default_params = bn_defaults,
     .params_size = sizeof(bn_params), .run = split_run},
};

/* ---------------------------------------------------------------------------- problem */

/* Sorts the dims `which` (n of them) by x's stride, innermost first, and merges neighbours that
** are contiguous in every operand (nops strides tables), dropping size-1 dims. Writes at most
** BN_DIMS groups (the caller's rank limit guarantees it fits) and returns the count (>= 1). */
static int bn_group_dims(int n, const int* which, const int64_t* dims, int nops, const int64_t* const* strides,
                         int* gd, int64_t (*gs)[BN_DIMS]) {
    int order[CLDNN_DIM_MAX];
    for (int i = 0; i < n; ++i) { /* insertion sort by x's stride, ties keep logical inner first */
        int d = which[n - 1 - i], j = i;
        while (j > 0 && strides[0][order[j - 1]] > strides[0][d]) {
            order[j] = order[j - 1];
            --j;
        }
        order[j] = d;
    }
    int ng = 0;
    for (int i = 0; i < n; ++i) {
        int d = order[i];
        if (dims[d] == 1)
            continue;
        int merge = ng > 0;
        for (int o = 0; merge && o < nops; ++o)
            merge = strides[o][d] == gs[o][ng - 1] * gd[ng - 1];
        if (merge) {
            gd[ng - 1] *= (int)dims[d];
            continue;
        }
        gd[ng] = (int)dims[d];
        for (int o = 0; o < nops; ++o)
            gs[o][ng] = strides[o][d];
        ng++;
    }
    if (ng == 0) {
        gd[0] = 1;
        for (int o = 0; o < nops; ++o)
            gs[o][0] = 0;
        ng = 1;
    }
    for (int i = ng; i < BN_DIMS; ++i) {
        gd[i] = 1;
        for (int o = 0; o < nops; ++o)
            gs[o][i] = 0;
    }
    return ng;
}

/* Fills p's views from x's dims, the data operands' strides and byte offsets (t[i] NULL: unused,
** x's strides stand in) and the parameter descriptor's strides. */
static void bn_views(bn_problem* p, cldnnBatchNormMode_t mode, const struct cldnnTensorStruct* const* t,
                     const size_t* byte_offsets, const struct cldnnTensorStruct* bn) {
    const struct cldnnTensorStruct* x = t[0];
    int ssel[CLDNN_DIM_MAX], rsel[CLDNN_DIM_MAX], ns = 0, nr = 0;
    for (int d = 0; d < x->nd; ++d) {
        int stat = d == 1 || (mode == CLDNN_BATCHNORM_PER_ACTIVATION && d >= 1);
        if (stat)
            ssel[ns++] = d;
        else
            rsel[nr++] = d;
    }
    const int64_t* st[4];
    for (int o = 0; o < 3; ++o)
        st[o] = t[o] ? t[o]->strides : x->strides;
    st[3] = bn->strides;
    p->nsd = bn_group_dims(ns, ssel, x->dims, 4, st, p->sdims, p->ss);
    p->nrd = bn_group_dims(nr, rsel, x->dims, 3, st, p->rdims, p->rs);
    int64_t K = 1, M = 1;
    for (int i = 0; i < BN_DIMS; ++i) {
        K *= p->sdims[i];
        M *= p->rdims[i];
    }
    p->K = (int)K;
    p->M = (int)M;
    p->stat_inner = p->K > 1 && (p->M == 1 || p->ss[BN_X][0] < p->rs[BN_X][0]);
    size_t es = cldnn_dtype_size(x->dtype);
    p->span_max = 0;
    for (int o = 0; o < 3; ++o) {
        p->off[o] = t[o] ? byte_offsets[o] / es : 0;
        uint64_t span = 1 + p->off[o]; /* the kernels index from the buffer's start */
        for (int d = 0; d < x->nd; ++d)
            span += (uint64_t)(x->dims[d] - 1) * (uint64_t)st[o][d];
        if (span > p->span_max)
            p->span_max = span;
    }
}

/* Turns p into 4-element vectors when the reduction's innermost dim has unit stride in every
** data operand and its size, the other strides and the offsets divide by 4 (NCHW spatial with
** H x W % 4 == 0, aligned): indices then count vectors (kernel header, VEC). */
static void bn_vectorize(bn_problem* p) {
    p->vec = 1;
    if (p->stat_inner || p->nrd > 2 || p->rdims[0] % 4 != 0)
        return;
    for (int o = 0; o < 3; ++o) {
        int ok = p->rs[o][0] == 1 && p->rs[o][1] % 4 == 0 && p->off[o] % 4 == 0;
        for (int j = 0; ok && j < BN_DIMS; ++j)
            ok = p->ss[o][j] % 4 == 0;
        if (!ok)
            return;
    }
    p->vec = 4;
    p->rdims[0] /= 4;
    p->M /= 4;
    for (int o = 0; o < 3; ++o) {
        p->rs[o][1] /= 4;
        p->off[o] /= 4;
        for (int j = 0; j < BN_DIMS; ++j)
            p->ss[o][j] /= 4;
    }
}

/* The problem of a validated call: views, scalars (alpha, beta of y or dx) and epsilon. */
static void bn_problem_init(bn_problem* p, int kind, cldnnBatchNormMode_t mode, const struct cldnnTensorStruct* const* t,
                            const size_t* offs, const struct cldnnTensorStruct* bn, const void* alpha,
                            const void* beta, double eps) {
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->dtype = t[0]->dtype;
    bn_views(p, mode, t, offs, bn);
    bn_vectorize(p);
    p->alpha = cldnn_scalar_as_float(alpha, p->dtype);
    p->beta = cldnn_scalar_as_float(beta, p->dtype);
    p->eps = (float)eps;
}

/* ------------------------------------------------------------------------- validation */

static cldnnStatus_t check_mode(cldnnBatchNormMode_t mode) {
    if (mode != CLDNN_BATCHNORM_PER_ACTIVATION && mode != CLDNN_BATCHNORM_SPATIAL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mode %d is not a cldnnBatchNormMode_t value",
                          (int)mode);
    return CLDNN_STATUS_SUCCESS;
}

/* x's rank and sizes: 2 to 5 dims, each below 2^31, as K and M. */
static cldnnStatus_t check_x_shape(const struct cldnnTensorStruct* x, cldnnBatchNormMode_t mode) {
    if (x->nd < 2 || x->nd > 5)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "xDesc has %d dims: batch normalization takes 2 to 5 (N, C, spatial)", x->nd);
    int64_t spatial = 1;
    for (int d = 2; d < x->nd; ++d)
        spatial *= x->dims[d];
    int64_t K = mode == CLDNN_BATCHNORM_SPATIAL ? x->dims[1] : x->dims[1] * spatial;
    int64_t M = mode == CLDNN_BATCHNORM_SPATIAL ? x->dims[0] * spatial : x->dims[0];
    if (K >= INT32_MAX || M >= INT32_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "%lld statistics of %lld values: both must stay below 2^31", (long long)K, (long long)M);
    return CLDNN_STATUS_SUCCESS;
}

/* The parameter shape of x for mode: 1 x C x 1 x 1 or 1 x C x spatial. */
static void derived_dims(const struct cldnnTensorStruct* x, cldnnBatchNormMode_t mode, int64_t* dims) {
    for (int d = 0; d < x->nd; ++d)
        dims[d] = d == 0 ? 1 : d == 1 ? x->dims[1] : mode == CLDNN_BATCHNORM_SPATIAL ? 1 : x->dims[d];
}

static cldnnStatus_t check_bn_desc(const struct cldnnTensorStruct* bn, const char* what,
                                   const struct cldnnTensorStruct* x, cldnnBatchNormMode_t mode) {
    CLDNN_TRY(cldnn_check_tensor(bn, what));
    int64_t want[CLDNN_DIM_MAX];
    derived_dims(x, mode, want);
    int same = bn->nd == x->nd;
    for (int d = 0; same && d < x->nd; ++d)
        same = bn->dims[d] == want[d];
    if (!same) {
        char got[160], exp[160];
        cldnn_format_dims(got, sizeof got, bn->nd, bn->dims);
        cldnn_format_dims(exp, sizeof exp, x->nd, want);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                          "%s is %s; the %s parameters of this x are %s (cldnnDeriveBNTensorDescriptor)", what, got,
                          mode == CLDNN_BATCHNORM_SPATIAL ? "spatial" : "per-activation", exp);
    }
    if (bn->dtype != CLDNN_DATA_FLOAT)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s holds %s: batch-normalization parameters are float", what,
                          cldnn_dtype_name(bn->dtype));
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_eps(double eps) {
    if (!(eps >= CLDNN_BN_MIN_EPSILON))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "epsilon %g is below CLDNN_BN_MIN_EPSILON (%g)", eps,
                          CLDNN_BN_MIN_EPSILON);
    return CLDNN_STATUS_SUCCESS;
}

/* A pair of optional parameter buffers: both NULL (returns 0), or both valid (returns 1 in *set). */
static cldnnStatus_t check_pair(cldnnHandle_t h, const struct cldnnTensorStruct* bn, cl_mem a, size_t ao,
                                const char* an, cl_mem b, size_t bo, const char* bnm, int* set) {
    if ((a == NULL) != (b == NULL))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s and %s must be both NULL or both set (%s is NULL)", an, bnm,
                          a == NULL ? an : bnm);
    *set = a != NULL;
    if (*set) {
        CLDNN_TRY(cldnn_check_tensor_buffer(h, bn, a, ao, an));
        CLDNN_TRY(cldnn_check_tensor_buffer(h, bn, b, bo, bnm));
    }
    return CLDNN_STATUS_SUCCESS;
}

/* x and a same-shaped data tensor. */
static cldnnStatus_t check_data(cldnnHandle_t h, const struct cldnnTensorStruct* x, const struct cldnnTensorStruct* t,
                                const char* tn, cl_mem m, size_t off, const char* mn) {
    CLDNN_TRY(cldnn_check_tensor(t, tn));
    CLDNN_TRY(cldnn_check_same_dims(x, "xDesc", t, tn));
    return cldnn_check_tensor_buffer(h, t, m, off, mn);
}

/* An output that aliases x must be x exactly (same buffer, offset and strides). */
static cldnnStatus_t check_alias(const struct cldnnTensorStruct* x, cl_mem xm, size_t xo,
                                 const struct cldnnTensorStruct* t, cl_mem m, size_t off, const char* what) {
    if (m != xm)
        return CLDNN_STATUS_SUCCESS;
    int same = off == xo;
    for (int d = 0; same && d < x->nd; ++d)
        same = x->strides[d] == t->strides[d] || x->dims[d] == 1;
    if (!same)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED,
                          "%s shares x's buffer with another offset or strides: only exact in-place is computed", what);
    return CLDNN_STATUS_SUCCESS;
}

/* Head of every call: handle, mode, x (rank, dtype, buffer). */
static cldnnStatus_t check_head(cldnnHandle_t h, cldnnBatchNormMode_t mode, const struct cldnnTensorStruct* x,
                                cl_mem xm, size_t xo) {
    CLDNN_TRY(cldnn_check_handle(h));
    CLDNN_TRY(check_mode(mode));
    CLDNN_TRY(cldnn_check_tensor(x, "xDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(x->dtype, "xDesc"));
    CLDNN_TRY(check_x_shape(x, mode));
    return cldnn_check_tensor_buffer(h, x, xm, xo, "x");
}

static cldnnStatus_t check_scalars(const void* a, const char* an, const void* b, const char* bnm) {
    if (a == NULL || b == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", a == NULL ? an : bnm);
    return CLDNN_STATUS_SUCCESS;
}

/* What both forwards check: head, scalars, y, the parameter descriptor, scale and bias. */
static cldnnStatus_t check_forward(cldnnHandle_t handle, cldnnBatchNormMode_t mode, const void* alpha,
                                   const void* beta, const struct cldnnTensorStruct* xDesc, cl_mem x, size_t xOffset,
                                   const struct cldnnTensorStruct* yDesc, cl_mem y, size_t yOffset,
                                   const struct cldnnTensorStruct* bn, cl_mem bnScale, size_t bnScaleOffset,
                                   cl_mem bnBias, size_t bnBiasOffset) {
    CLDNN_TRY(check_head(handle, mode, xDesc, x, xOffset));
    CLDNN_TRY(check_scalars(alpha, "alpha", beta, "beta"));
    CLDNN_TRY(check_data(handle, xDesc, yDesc, "yDesc", y, yOffset, "y"));
    CLDNN_TRY(check_alias(xDesc, x, xOffset, yDesc, y, yOffset, "y"));
    CLDNN_TRY(check_bn_desc(bn, "bnScaleBiasMeanVarDesc", xDesc, mode));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, bn, bnScale, bnScaleOffset, "bnScale"));
    return cldnn_check_tensor_buffer(handle, bn, bnBias, bnBiasOffset, "bnBias");
}

static void bn_log_cmd(int F, cldnnBatchNormMode_t mode, const struct cldnnTensorStruct* x, const void* alpha,
                       const void* beta, const void* alpha2, const void* beta2, int saved, int running, double eps,
                       double factor) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400], extra[96] = "";
    cldnn_bench_shape_flags(shape, sizeof shape, x);
    if (F == 2)
        snprintf(extra, sizeof extra, " -a %g -b %g", (double)cldnn_scalar_as_float(alpha2, x->dtype),
                 (double)cldnn_scalar_as_float(beta2, x->dtype));
    if (F == 1)
        snprintf(extra, sizeof extra, " -f %g", factor);
    cldnn_log_cmd("bnorm -m %d -F %d -s %d -r %d -e %g -A %g -B %g%s %s", mode == CLDNN_BATCHNORM_SPATIAL ? 1 : 0, F,
                  saved, running, eps, (double)cldnn_scalar_as_float(alpha, x->dtype),
                  (double)cldnn_scalar_as_float(beta, x->dtype), extra, shape);
}

/* Fills the parameter offsets of b (bytes po -> elements) and runs p through the solver table. */
static cldnnStatus_t bn_run(cldnnHandle_t h, const bn_problem* p, bn_buffers* b, const size_t* po, const char* dir,
                            cldnnBatchNormMode_t mode, const struct cldnnTensorStruct* x) {
    for (int i = 0; i < 6; ++i)
        b->poff[i] = po[i] / sizeof(float);
    const size_t n = sizeof bn_solvers / sizeof bn_solvers[0];
    if (cldnn_log_level() == 0)
        return cldnn_solver_run_default(h, bn_solvers, n, p, b, "batch norm");
    char key[300], dims[200];
    cldnn_format_dims(dims, sizeof dims, x->nd, x->dims);
    snprintf(key, sizeof key, "bnorm-%s:m%d-d%s-%s", dir, (int)mode, dims, cldnn_dtype_name(x->dtype));
    return cldnn_solver_run_default(h, bn_solvers, n, p, b, key);
}

/* ----------------------------------------------------------------------------- public */

cldnnStatus_t cldnnDeriveBNTensorDescriptor(cldnnTensorDescriptor_t derivedBnDesc, const cldnnTensorDescriptor_t xDesc,
                                            cldnnBatchNormMode_t mode) {
    cldnn_error_clear();
    if (derivedBnDesc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "derivedBnDesc is NULL");
    CLDNN_TRY(check_mode(mode));
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(check_x_shape(xDesc, mode));
    int64_t dims[CLDNN_DIM_MAX], strides[CLDNN_DIM_MAX];
    derived_dims(xDesc, mode, dims);
    int64_t s = 1;
    for (int d = xDesc->nd - 1; d >= 0; --d) {
        strides[d] = s;
        s *= dims[d];
    }
    return cldnnSetTensorNdDescriptor(derivedBnDesc, CLDNN_DATA_FLOAT, xDesc->nd, dims, strides);
}

cldnnStatus_t cldnnBatchNormalizationForwardTraining(
    cldnnHandle_t handle, cldnnBatchNormMode_t mode, const void* alpha, const void* beta,
    const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const cldnnTensorDescriptor_t yDesc, cl_mem y,
    size_t yOffset, const cldnnTensorDescriptor_t bnScaleBiasMeanVarDesc, cl_mem bnScale, size_t bnScaleOffset,
    cl_mem bnBias, size_t bnBiasOffset, double exponentialAverageFactor, cl_mem resultRunningMean,
    size_t resultRunningMeanOffset, cl_mem resultRunningVariance, size_t resultRunningVarianceOffset, double epsilon,
    cl_mem resultSaveMean, size_t resultSaveMeanOffset, cl_mem resultSaveInvVariance,
    size_t resultSaveInvVarianceOffset) {
    cldnn_error_clear();
    const struct cldnnTensorStruct* bn = bnScaleBiasMeanVarDesc;
    CLDNN_TRY(check_forward(handle, mode, alpha, beta, xDesc, x, xOffset, yDesc, y, yOffset, bn, bnScale,
                            bnScaleOffset, bnBias, bnBiasOffset));
    int running = 0, saved = 0;
    CLDNN_TRY(check_pair(handle, bn, resultRunningMean, resultRunningMeanOffset, "resultRunningMean",
                         resultRunningVariance, resultRunningVarianceOffset, "resultRunningVariance", &running));
    CLDNN_TRY(check_pair(handle, bn, resultSaveMean, resultSaveMeanOffset, "resultSaveMean", resultSaveInvVariance,
                         resultSaveInvVarianceOffset, "resultSaveInvVariance", &saved));
    CLDNN_TRY(check_eps(epsilon));
    if (!(exponentialAverageFactor >= 0.0 && exponentialAverageFactor <= 1.0))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "exponentialAverageFactor %g is outside [0, 1]",
                          exponentialAverageFactor);
    bn_log_cmd(1, mode, xDesc, alpha, beta, NULL, NULL, saved, running, epsilon, exponentialAverageFactor);

    bn_problem p;
    const struct cldnnTensorStruct* t[3] = {xDesc, yDesc, NULL};
    const size_t offs[3] = {xOffset, yOffset, 0};
    bn_problem_init(&p, BN_TRAIN, mode, t, offs, bn, alpha, beta, epsilon);
    if (p.M * p.vec == 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM,
                          "training needs more than 1 value per statistic (the running variance is unbiased: m / (m - "
                          "1)); x gives %s 1",
                          mode == CLDNN_BATCHNORM_SPATIAL ? "N x spatial =" : "N =");
    p.factor = (float)exponentialAverageFactor;
    p.flags = (running ? 1 : 0) | (saved ? 2 : 0);
    bn_buffers b = {{x, y, NULL},
                    {bnScale, bnBias, resultRunningMean, resultRunningVariance, resultSaveMean, resultSaveInvVariance},
                    {0}};
    const size_t po[6] = {bnScaleOffset, bnBiasOffset, resultRunningMeanOffset, resultRunningVarianceOffset,
                          resultSaveMeanOffset, resultSaveInvVarianceOffset};
    return bn_run(handle, &p, &b, po, "fwd-train", mode, xDesc);
}

cldnnStatus_t cldnnBatchNormalizationForwardInference(
    cldnnHandle_t handle, cldnnBatchNormMode_t mode, const void* alpha, const void* beta,
    const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const cldnnTensorDescriptor_t yDesc, cl_mem y,
    size_t yOffset, const cldnnTensorDescriptor_t bnScaleBiasMeanVarDesc, cl_mem bnScale, size_t bnScaleOffset,
    cl_mem bnBias, size_t bnBiasOffset, cl_mem estimatedMean, size_t estimatedMeanOffset, cl_mem estimatedVariance,
    size_t estimatedVarianceOffset, double epsilon) {
    cldnn_error_clear();
    const struct cldnnTensorStruct* bn = bnScaleBiasMeanVarDesc;
    CLDNN_TRY(check_forward(handle, mode, alpha, beta, xDesc, x, xOffset, yDesc, y, yOffset, bn, bnScale,
                            bnScaleOffset, bnBias, bnBiasOffset));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, bn, estimatedMean, estimatedMeanOffset, "estimatedMean"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, bn, estimatedVariance, estimatedVarianceOffset, "estimatedVariance"));
    CLDNN_TRY(check_eps(epsilon));
    bn_log_cmd(3, mode, xDesc, alpha, beta, NULL, NULL, 0, 0, epsilon, 0.0);

    bn_problem p;
    const struct cldnnTensorStruct* t[3] = {xDesc, yDesc, NULL};
    const size_t offs[3] = {xOffset, yOffset, 0};
    bn_problem_init(&p, BN_INFER, mode, t, offs, bn, alpha, beta, epsilon);
    bn_buffers b = {{x, y, NULL}, {bnScale, bnBias, estimatedMean, estimatedVariance, NULL, NULL}, {0}};
    const size_t po[6] = {bnScaleOffset, bnBiasOffset, estimatedMeanOffset, estimatedVarianceOffset, 0, 0};
    return bn_run(handle, &p, &b, po, "fwd-infer", mode, xDesc);
}

cldnnStatus_t cldnnBatchNormalizationBackward(
    cldnnHandle_t handle, cldnnBatchNormMode_t mode, const void* alphaDataDiff, const void* betaDataDiff,
    const void* alphaParamDiff, const void* betaParamDiff, const cldnnTensorDescriptor_t xDesc, cl_mem x,
    size_t xOffset, const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
    const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset, const cldnnTensorDescriptor_t dBnScaleBiasDesc,
    cl_mem bnScale, size_t bnScaleOffset, cl_mem dBnScaleResult, size_t dBnScaleResultOffset, cl_mem dBnBiasResult,
    size_t dBnBiasResultOffset, double epsilon, cl_mem savedMean, size_t savedMeanOffset, cl_mem savedInvVariance,
    size_t savedInvVarianceOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_head(handle, mode, xDesc, x, xOffset));
    CLDNN_TRY(check_scalars(alphaDataDiff, "alphaDataDiff", betaDataDiff, "betaDataDiff"));
    CLDNN_TRY(check_scalars(alphaParamDiff, "alphaParamDiff", betaParamDiff, "betaParamDiff"));
    CLDNN_TRY(check_data(handle, xDesc, dyDesc, "dyDesc", dy, dyOffset, "dy"));
    CLDNN_TRY(check_data(handle, xDesc, dxDesc, "dxDesc", dx, dxOffset, "dx"));
    CLDNN_TRY(check_alias(xDesc, x, xOffset, dxDesc, dx, dxOffset, "dx"));
    CLDNN_TRY(check_alias(dyDesc, dy, dyOffset, dxDesc, dx, dxOffset, "dx"));
    const struct cldnnTensorStruct* bn = dBnScaleBiasDesc;
    CLDNN_TRY(check_bn_desc(bn, "dBnScaleBiasDesc", xDesc, mode));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, bn, bnScale, bnScaleOffset, "bnScale"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, bn, dBnScaleResult, dBnScaleResultOffset, "dBnScaleResult"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, bn, dBnBiasResult, dBnBiasResultOffset, "dBnBiasResult"));
    int saved = 0;
    CLDNN_TRY(check_pair(handle, bn, savedMean, savedMeanOffset, "savedMean", savedInvVariance, savedInvVarianceOffset,
                         "savedInvVariance", &saved));
    CLDNN_TRY(check_eps(epsilon));
    bn_log_cmd(2, mode, xDesc, alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff, saved, 0, epsilon, 0.0);

    bn_problem p;
    const struct cldnnTensorStruct* t[3] = {xDesc, dyDesc, dxDesc};
    const size_t offs[3] = {xOffset, dyOffset, dxOffset};
    bn_problem_init(&p, BN_BWD, mode, t, offs, bn, alphaDataDiff, betaDataDiff, epsilon);
    p.alpha2 = cldnn_scalar_as_float(alphaParamDiff, p.dtype);
    p.beta2 = cldnn_scalar_as_float(betaParamDiff, p.dtype);
    p.flags = saved ? 1 : 0;
    bn_buffers b = {{x, dy, dx}, {bnScale, NULL, savedMean, savedInvVariance, dBnScaleResult, dBnBiasResult}, {0}};
    const size_t po[6] = {bnScaleOffset, 0, savedMeanOffset, savedInvVarianceOffset, dBnScaleResultOffset,
                          dBnBiasResultOffset};
    return bn_run(handle, &p, &b, po, "bwd", mode, xDesc);
}
