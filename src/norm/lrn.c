/*
** lrn.c: local response normalization (cldnnLRN*): cuDNN's cross-channel LRN and MIOpen's
** within-channel LRN, forward and backward, on any strided tensor (NCHW, NHWC, padded).
**
** Semantics (kernels/norm/lrn.cl has the formulas): the window of position i along an axis is
** [i - lo, i + hi] with lo = (n - 1) / 2 and hi = n - 1 - lo, as cuDNN's lookBehind/lookAhead
** (so an even n looks one further ahead than behind), zero padded; alpha is divided by the tap
** count n (across) or n * n (within). The backward takes y, dy and x and recomputes s from x.
**
** A call is described as "outer" items times an inner extent: across channels an outer item is
** a pixel (n and every spatial dim) and the inner extent is C; within a channel an outer item is
** a plane (n, c) and the inner extent is H x W. Outer dims are collapsed where every operand is
** contiguous across them. Solvers, first applicable wins:
**   lrn_cross_walk    across channels where the channel is not the unit-stride axis (NCHW and
**                     most strided views), and every layout on CPUs: one work-item per pixel
**                     (and chunk of channels, when pixels alone do not fill the device)
**   lrn_cross_lines   across channels on GPUs when channels are adjacent in memory (NHWC) and a
**                     line of C fits the local arrays: one work-group per P pixels' lines
**   lrn_cross_direct  the rest across channels: one work-item per element, channel innermost
**   lrn_within        within a channel: forward one work-item per element; backward two passes
**                     through the handle's scratch, a batch of planes at a time
** CLDNN_SOLVER=lrn_cross_walk|lrn_cross_lines|lrn_cross_direct (read per call) forces an
** across-channel solver, and CLDNN_SOLVER_PARAMS=lrn_cross_walk:b<1..8> the walk's WALK_BLOCK
** (tests, measurements; nothing is tuned).
**
** Programs: one per (direction, n, WALK_BLOCK, data type, index width). Shapes, strides and
** offsets are arguments; n is a build option so that the ring and every window loop are
** constant (a network uses one n: AlexNet and GoogLeNet n 5).
** Invariants: no output shares bytes with an input (checked: LRN has no in-place form, as in
** cuDNN); the output is not read when beta == 0; s is recomputed from x in the backward.
** Target shapes: AlexNet / GoogLeNet LRN layers (32x96x55x55, 32x256x27x27, 32x64x56x56,
** 32x192x56x56, n 5) in NCHW and NHWC on the H100; PoCL for correctness.
*/
#include "tensor/tensor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cldnnLRNStruct {
    unsigned n;
    double alpha, beta, k;
};

enum { OP_X = 0, OP_Y = 1, OP_DY = 2, OP_OUT = 3, NOPS = 4 };

typedef struct {
    int dir;                        /* 0 forward, 1 backward */
    int mode;                       /* cldnnLRNMode_t */
    cldnnDataType_t dtype;
    int n;                          /* the window (LRN_N) */
    float k, aon, lbeta;            /* aon = alpha / n^d */
    float alpha, beta;              /* output scaling */
    int ng;                         /* outer groups, innermost first */
    int64_t gd[CLDNN_DIM_MAX];
    int64_t gs[NOPS][CLDNN_DIM_MAX];
    uint64_t outer;                 /* pixels (across) or planes (within) */
    int64_t C, H, W;                /* inner extents: C across; H, W within (the others 1) */
    int64_t cs[NOPS], hs[NOPS], ws[NOPS];
    uint64_t off[NOPS];             /* elements */
    uint64_t span_max;
} lrn_problem;

typedef struct {
    cl_mem mem[NOPS];
} lrn_buffers;

/* Ints, as the engine's parameter text requires: block leads, lrn_cross_walk's parameter set
** ("b%d"); the rest follow from the problem and the device (walk_finish). */
typedef struct {
    int block;     /* WALK_BLOCK: channels lrn_cross_walk loads at once (1..8); 4 elsewhere (unused) */
    int wg;
    int idx32;
    int chunks;    /* lrn_cross_walk: channel chunks per pixel */
} lrn_params;

/* ------------------------------------------------------------------------- descriptors */

cldnnStatus_t cldnnCreateLRNDescriptor(cldnnLRNDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "LRN");
    (*desc)->n = 5;
    (*desc)->alpha = 1e-4;
    (*desc)->beta = 0.75;
    (*desc)->k = 2.0;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyLRNDescriptor(cldnnLRNDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetLRNDescriptor(cldnnLRNDescriptor_t desc, unsigned lrnN, double lrnAlpha, double lrnBeta,
                                    double lrnK) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (lrnN < CLDNN_LRN_MIN_N || lrnN > CLDNN_LRN_MAX_N)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "lrnN %u is outside [%d, %d]", lrnN, CLDNN_LRN_MIN_N,
                          CLDNN_LRN_MAX_N);
    if (!isfinite(lrnAlpha))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "lrnAlpha must be finite, got %g", lrnAlpha);
    if (!(lrnBeta >= CLDNN_LRN_MIN_BETA) || !isfinite(lrnBeta))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "lrnBeta %g is below CLDNN_LRN_MIN_BETA (%g) or not finite", lrnBeta,
                          CLDNN_LRN_MIN_BETA);
    if (!(lrnK >= CLDNN_LRN_MIN_K) || !isfinite(lrnK))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "lrnK %g is below CLDNN_LRN_MIN_K (%g) or not finite", lrnK,
                          CLDNN_LRN_MIN_K);
    desc->n = lrnN;
    desc->alpha = lrnAlpha;
    desc->beta = lrnBeta;
    desc->k = lrnK;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetLRNDescriptor(const cldnnLRNDescriptor_t desc, unsigned* lrnN, double* lrnAlpha,
                                    double* lrnBeta, double* lrnK) {
    cldnn_error_clear();
    if (desc == NULL || lrnN == NULL || lrnAlpha == NULL || lrnBeta == NULL || lrnK == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", desc == NULL ? "desc" : "an output pointer");
    *lrnN = desc->n;
    *lrnAlpha = desc->alpha;
    *lrnBeta = desc->beta;
    *lrnK = desc->k;
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------------------ problem */

/* Collapses the dims `which` (outermost first) of the view into innermost-first groups of dims
** contiguous in every operand; size-1 dims are dropped. Returns the group count (>= 1). */
static int outer_groups(int nsel, const int* which, const int64_t* dims, const int64_t* const* strides,
                        lrn_problem* p) {
    int ng = 0;
    for (int i = nsel - 1; i >= 0; --i) {
        int d = which[i];
        if (dims[d] == 1)
            continue;
        int merge = ng > 0;
        for (int o = 0; o < NOPS && merge; ++o)
            merge = strides[o][d] == p->gs[o][ng - 1] * p->gd[ng - 1];
        if (merge) {
            p->gd[ng - 1] *= dims[d];
            continue;
        }
        p->gd[ng] = dims[d];
        for (int o = 0; o < NOPS; ++o)
            p->gs[o][ng] = strides[o][d];
        ng++;
    }
    if (ng == 0) {
        p->gd[0] = 1;
        for (int o = 0; o < NOPS; ++o)
            p->gs[o][0] = 0;
        ng = 1;
    }
    return ng;
}

/* Fills p's index spaces from the output descriptor t (dims) and the operands' strides. */
static void lrn_views(lrn_problem* p, const struct cldnnTensorStruct* t, const int64_t* const* strides,
                      const size_t* byte_offsets) {
    int sel[CLDNN_DIM_MAX], nsel = 0;
    p->C = p->H = p->W = 1;
    if (p->mode == CLDNN_LRN_CROSS_CHANNEL) {
        for (int d = 0; d < t->nd; ++d)
            if (d != 1)
                sel[nsel++] = d;
        p->C = t->dims[1];
        for (int o = 0; o < NOPS; ++o)
            p->cs[o] = strides[o][1];
    } else {
        for (int d = 0; d < t->nd - 2; ++d)
            sel[nsel++] = d;
        p->H = t->dims[t->nd - 2];
        p->W = t->dims[t->nd - 1];
        for (int o = 0; o < NOPS; ++o) {
            p->hs[o] = strides[o][t->nd - 2];
            p->ws[o] = strides[o][t->nd - 1];
        }
    }
    p->ng = outer_groups(nsel, sel, t->dims, strides, p);
    p->outer = 1;
    for (int i = 0; i < p->ng; ++i)
        p->outer *= (uint64_t)p->gd[i];
    size_t es = cldnn_dtype_size(t->dtype);
    p->span_max = 0;
    for (int o = 0; o < NOPS; ++o) {
        p->off[o] = byte_offsets[o] / es;
        uint64_t span = p->off[o] + 1;
        for (int d = 0; d < t->nd; ++d)
            span += (uint64_t)(t->dims[d] - 1) * (uint64_t)strides[o][d];
        if (span > p->span_max)
            p->span_max = span;
    }
}

/* ------------------------------------------------------------------------------ solvers */

static size_t group_size(const cldnn_device_profile* dev) {
    size_t wg = dev->is_cpu ? 64 : 256;
    while (wg > dev->max_wg_size)
        wg /= 2;
    return wg;
}

/* lrn_cross_lines: the work-group size and the local elements (kernels/norm/lrn.cl's LRN_WG and
** LINES_MAX defaults, which the host does not override). */
#define LINES_WG 256
#define LINES_MAX 2048

/* Channels adjacent in memory in the output: a walk along C would not coalesce on a GPU. */
static int channel_innermost(const lrn_problem* p) {
    int64_t cs = p->cs[OP_OUT] < 0 ? -p->cs[OP_OUT] : p->cs[OP_OUT];
    for (int i = 0; i < p->ng; ++i) {
        int64_t s = p->gs[OP_OUT][i] < 0 ? -p->gs[OP_OUT][i] : p->gs[OP_OUT][i];
        if (p->gd[i] > 1 && s < cs)
            return 0;
    }
    return p->C > 1;
}

static int walk_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    return ((const lrn_problem*)problem)->mode == CLDNN_LRN_CROSS_CHANNEL;
}

static int walk_preferred(const void* problem, const cldnn_device_profile* dev) {
    return dev->is_cpu || !channel_innermost((const lrn_problem*)problem);
}

static int lines_applicable(const void* problem, const cldnn_device_profile* dev) {
    const lrn_problem* p = (const lrn_problem*)problem;
    if (p->mode != CLDNN_LRN_CROSS_CHANNEL || p->C > LINES_MAX || dev->max_wg_size < LINES_WG ||
        dev->local_mem < 3 * LINES_MAX * sizeof(float) + 4 * LINES_WG * sizeof(uint64_t))
        return 0;
    return 1;
}

static int lines_preferred(const void* problem, const cldnn_device_profile* dev) {
    (void)problem;
    return !dev->is_cpu;
}

static int within_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    return ((const lrn_problem*)problem)->mode == CLDNN_LRN_WITHIN_CHANNEL;
}

/* Everything but the block. */
static void common_finish(const lrn_problem* p, const cldnn_device_profile* dev, lrn_params* q) {
    q->wg = (int)group_size(dev);
    q->idx32 = p->span_max < (1ull << 32) - 64;
    q->chunks = 1;
}

/* The other solvers' kernels ignore the block; 4 keeps their build options, and so their program,
** those of the walk's default. */
static void plain_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    lrn_params* q = (lrn_params*)params;
    q->block = 4;
    common_finish((const lrn_problem*)problem, dev, q);
}

/* Chunks of channels per pixel: enough work-items for 16 work-groups per compute unit on a GPU
** (4 on a CPU), each chunk at least 4 n channels long so the halo stays a small fraction. */
static void walk_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    const lrn_problem* p = (const lrn_problem*)problem;
    lrn_params* q = (lrn_params*)params;
    common_finish(p, dev, q);
    uint64_t want = (uint64_t)(dev->is_cpu ? 4u : 16u) * dev->compute_units * (uint64_t)q->wg;
    uint64_t chunks = p->outer >= want ? 1 : (want + p->outer - 1) / p->outer;
    uint64_t most = (uint64_t)p->C / (uint64_t)(4 * p->n);
    if (chunks > most)
        chunks = most;
    q->chunks = chunks < 1 ? 1 : (int)chunks;
    /* equal chunks of ceil(C / chunks) channels: drop empty trailing ones */
    int per = (int)((p->C + q->chunks - 1) / q->chunks);
    q->chunks = (int)((p->C + per - 1) / per);
}

/* 4 channels' loads in flight per work-item (GPUs need them; PoCL runs 1 and 4 alike). */
static void walk_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    ((lrn_params*)params)->block = 4;
    walk_finish(problem, dev, params);
}

/* "b%d": 1 to 8 channels per block (a backward work-item holds 3 b loads in registers). */
static int walk_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    const int b = ((const lrn_params*)params)->block;
    (void)problem;
    (void)dev;
    return b >= 1 && b <= 8;
}

/* For tests and measurements (CLDNN_SOLVER_PARAMS); nothing to tune: no enumerate, and the plain
** run reads no tuning db. */
static const cldnn_param_space walk_space = {
    .text = "b%d", .names = "block", .valid = walk_valid, .finish = walk_finish};

/* Sets LRN_ARGS, the arguments every kernel shares; the extra buffer (within-channel scratch) goes last.
** items / first: what the launch covers (kernels/norm/lrn.cl per kernel); aux: the walk's channel
** chunks, the lines' pixels per group, 1 for the within kernels' plane-innermost order. */
static cldnnStatus_t lrn_args(cl_kernel k, const lrn_problem* p, const lrn_buffers* b, uint64_t items_,
                              uint64_t first_, int aux_) {
    cl_long8 gd, gs[NOPS];
    for (int i = 0; i < 8; ++i) {
        gd.s[i] = i < p->ng ? p->gd[i] : 1;
        for (int o = 0; o < NOPS; ++o)
            gs[o].s[i] = i < p->ng ? p->gs[o][i] : 0;
    }
    cl_ulong items = items_, first = first_, off[NOPS];
    cl_int ng = p->ng, C = (cl_int)p->C, H = (cl_int)p->H, W = (cl_int)p->W, aux = aux_;
    cl_long cs[NOPS], hs[NOPS], ws[NOPS];
    for (int o = 0; o < NOPS; ++o) {
        off[o] = p->off[o];
        cs[o] = p->cs[o];
        hs[o] = p->hs[o];
        ws[o] = p->ws[o];
    }
    /* LRN_ARGS (kernels/norm/lrn.cl), in its order: LRN_HEAD, then LRN_OPERAND x, y, dy, out. */
    return CLDNN_KERNEL_ARGS(
        k, 0, CLDNN_ARG(items), CLDNN_ARG(first), CLDNN_ARG(ng), CLDNN_ARG(gd), CLDNN_ARG(C), CLDNN_ARG(H),
        CLDNN_ARG(W), CLDNN_ARG(aux), CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(p->k), CLDNN_ARG(p->aon),
        CLDNN_ARG(p->lbeta),
        CLDNN_ARG(b->mem[OP_X]), CLDNN_ARG(off[OP_X]), CLDNN_ARG(gs[OP_X]), CLDNN_ARG(cs[OP_X]),
        CLDNN_ARG(hs[OP_X]), CLDNN_ARG(ws[OP_X]),
        CLDNN_ARG(b->mem[OP_Y]), CLDNN_ARG(off[OP_Y]), CLDNN_ARG(gs[OP_Y]), CLDNN_ARG(cs[OP_Y]),
        CLDNN_ARG(hs[OP_Y]), CLDNN_ARG(ws[OP_Y]),
        CLDNN_ARG(b->mem[OP_DY]), CLDNN_ARG(off[OP_DY]), CLDNN_ARG(gs[OP_DY]), CLDNN_ARG(cs[OP_DY]),
        CLDNN_ARG(hs[OP_DY]), CLDNN_ARG(ws[OP_DY]),
        CLDNN_ARG(b->mem[OP_OUT]), CLDNN_ARG(off[OP_OUT]), CLDNN_ARG(gs[OP_OUT]), CLDNN_ARG(cs[OP_OUT]),
        CLDNN_ARG(hs[OP_OUT]), CLDNN_ARG(ws[OP_OUT]));
}

/* LRN_ARGS' count: where a within kernel's scratch argument goes. */
#define LRN_NARGS (13 + 6 * NOPS)

static cldnnStatus_t lrn_kernel(cldnnHandle_t h, const lrn_problem* p, const lrn_params* q, const char* name,
                                cl_kernel* k) {
    char opts[160];
    snprintf(opts, sizeof opts, "-DLRN_DIR=%d -DLRN_N=%d -DWALK_BLOCK=%d -DIDX_T=%s%s", p->dir, p->n,
             q->block, q->idx32 ? "uint" : "ulong", cldnn_dtype_build_option(p->dtype));
    return cldnn_kernel_get(h, "norm/lrn.cl", opts, name, k);
}

static cldnnStatus_t walk_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const lrn_problem* p = (const lrn_problem*)problem;
    const lrn_params* q = (const lrn_params*)params;
    cl_kernel k;
    CLDNN_TRY(lrn_kernel(h, p, q, "lrn_cross_walk", &k));
    uint64_t items = p->outer * (uint64_t)q->chunks;
    CLDNN_TRY(lrn_args(k, p, (const lrn_buffers*)buffers, items, 0, q->chunks));
    return cldnn_enqueue_1d(h, k, items, (size_t)q->wg, "lrn_cross_walk");
}

/* P pixels per work-group: as many whole lines as LINES_MAX holds (at most LINES_WG, one base
** per work-item). */
static cldnnStatus_t lines_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const lrn_problem* p = (const lrn_problem*)problem;
    const lrn_params* q = (const lrn_params*)params;
    cl_kernel k;
    CLDNN_TRY(lrn_kernel(h, p, q, "lrn_cross_lines", &k));
    int per = (int)(LINES_MAX / p->C);
    if (per > LINES_WG)
        per = LINES_WG;
    uint64_t groups = (p->outer + (uint64_t)per - 1) / (uint64_t)per;
    CLDNN_TRY(lrn_args(k, p, (const lrn_buffers*)buffers, p->outer, 0, per));
    return cldnn_enqueue_1d(h, k, groups * LINES_WG, LINES_WG, "lrn_cross_lines");
}

static cldnnStatus_t direct_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const lrn_problem* p = (const lrn_problem*)problem;
    const lrn_params* q = (const lrn_params*)params;
    cl_kernel k;
    CLDNN_TRY(lrn_kernel(h, p, q, "lrn_cross_direct", &k));
    uint64_t items = p->outer * (uint64_t)p->C;
    CLDNN_TRY(lrn_args(k, p, (const lrn_buffers*)buffers, items, 0, 1));
    return cldnn_enqueue_1d(h, k, items, (size_t)q->wg, "lrn_cross_direct");
}

/* Forward: one launch. Backward: per batch of planes whose ratios fit the scratch, the ratio
** pass then the dx pass. */
static cldnnStatus_t within_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const lrn_problem* p = (const lrn_problem*)problem;
    const lrn_params* q = (const lrn_params*)params;
    const lrn_buffers* b = (const lrn_buffers*)buffers;
    uint64_t plane = (uint64_t)p->H * (uint64_t)p->W;
    /* planes innermost when they are closer in memory than W neighbours (NHWC) */
    int64_t ws = p->ws[OP_OUT] < 0 ? -p->ws[OP_OUT] : p->ws[OP_OUT];
    int64_t ps = p->gs[OP_OUT][0] < 0 ? -p->gs[OP_OUT][0] : p->gs[OP_OUT][0];
    int order = p->gd[0] > 1 && p->W > 1 && ps < ws;
    size_t local[2] = {(size_t)q->wg, 1};
    cl_kernel k;
    if (p->dir == 0) {
        CLDNN_TRY(lrn_kernel(h, p, q, "lrn_within_fwd", &k));
        CLDNN_TRY(lrn_args(k, p, b, p->outer * plane, 0, order));
        uint64_t global[2] = {order ? p->outer : plane, order ? plane : p->outer};
        return cldnn_enqueue_nd(h, k, 2, global, local, "lrn_within_fwd");
    }
    uint64_t batch = (uint64_t)(CLDNN_SCRATCH_MAX / sizeof(float)) / plane;
    if (batch == 0)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "LRN within-channel backward: an H x W plane of %llu elements exceeds the %zu-byte scratch",
                          (unsigned long long)plane, CLDNN_SCRATCH_MAX);
    if (batch > p->outer)
        batch = p->outer;
    cl_mem r;
    CLDNN_TRY(cldnn_scratch_get(h, (size_t)(batch * plane * sizeof(float)), &r));
    cl_kernel kr, kb;
    CLDNN_TRY(lrn_kernel(h, p, q, "lrn_within_ratio", &kr));
    CLDNN_TRY(lrn_kernel(h, p, q, "lrn_within_bwd", &kb));
    for (uint64_t first = 0; first < p->outer; first += batch) {
        uint64_t count = p->outer - first < batch ? p->outer - first : batch;
        uint64_t global[2] = {order ? count : plane, order ? plane : count};
        CLDNN_TRY(lrn_args(kr, p, b, count * plane, first, order));
        /* lrn_within_ratio's list: LRN_ARGS, then r. */
        CLDNN_TRY(CLDNN_KERNEL_ARGS(kr, LRN_NARGS, CLDNN_ARG(r)));
        CLDNN_TRY(cldnn_enqueue_nd(h, kr, 2, global, local, "lrn_within_ratio"));
        CLDNN_TRY(lrn_args(kb, p, b, count * plane, first, order));
        /* lrn_within_bwd's list: LRN_ARGS, then r. */
        CLDNN_TRY(CLDNN_KERNEL_ARGS(kb, LRN_NARGS, CLDNN_ARG(r)));
        CLDNN_TRY(cldnn_enqueue_nd(h, kb, 2, global, local, "lrn_within_bwd"));
    }
    return CLDNN_STATUS_SUCCESS;
}

/* The heuristic: the walk where it is preferred (CPUs, outputs whose channels are not innermost),
** else the lines on GPUs where they fit, else the direct kernel; CLDNN_SOLVER=lrn_cross_walk (or
** _lines, _direct) forces one where it can run. */
static const cldnn_solver lrn_solvers[] = {
    {.name = "lrn_cross_walk", .algo = -1, .applicable = walk_applicable, .default_params = walk_defaults,
     .params_size = sizeof(lrn_params), .run = walk_run, .rank = 40, .promote = {{walk_preferred, 10, NULL}},
     .space = &walk_space},
    {.name = "lrn_cross_lines", .algo = -1, .applicable = lines_applicable, .default_params = plain_defaults,
     .params_size = sizeof(lrn_params), .run = lines_run, .rank = 50, .promote = {{lines_preferred, 20, NULL}}},
    {.name = "lrn_cross_direct", .algo = -1, .applicable = walk_applicable, .default_params = plain_defaults,
     .params_size = sizeof(lrn_params), .run = direct_run, .rank = 30},
    {.name = "lrn_within", .algo = -1, .applicable = within_applicable, .default_params = plain_defaults,
     .params_size = sizeof(lrn_params), .run = within_run, .rank = 30},
};

/* ------------------------------------------------------------------------- entry points */

/* The output must not share bytes with an input: every kernel reads inputs that neighbouring
** work-items' outputs would overwrite (LRN has no in-place form, as in cuDNN). */
static cldnnStatus_t check_no_overlap(const struct cldnnTensorStruct* in, cl_mem a, size_t aoff, const char* an,
                                      const struct cldnnTensorStruct* out, cl_mem b, size_t boff, const char* bn) {
    if (a != b)
        return CLDNN_STATUS_SUCCESS;
    uint64_t aend = aoff + (uint64_t)in->span * cldnn_dtype_size(in->dtype);
    uint64_t bend = boff + (uint64_t)out->span * cldnn_dtype_size(out->dtype);
    if (aoff < bend && boff < aend)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s and %s overlap in one buffer: LRN does not run in place", an, bn);
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_common(cldnnHandle_t h, const cldnnLRNDescriptor_t d, cldnnLRNMode_t mode,
                                  const void* alpha, const void* beta) {
    CLDNN_TRY(cldnn_check_handle(h));
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "normDesc (the LRN descriptor) is NULL");
    if (mode != CLDNN_LRN_CROSS_CHANNEL && mode != CLDNN_LRN_WITHIN_CHANNEL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mode %d is not a cldnnLRNMode_t value", (int)mode);
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    return CLDNN_STATUS_SUCCESS;
}

/* Shape rules: N, C and at least one spatial dim; within a channel exactly N, C, H, W; every
** extent the kernels index with (C, H, W) below 2^31. */
static cldnnStatus_t check_shape(const struct cldnnTensorStruct* t, cldnnLRNMode_t mode, const char* what) {
    if (t->nd < 3)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s has %d dim(s): LRN needs N, C and spatial dims", what, t->nd);
    if (mode == CLDNN_LRN_WITHIN_CHANNEL && t->nd != 4)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE,
                          "%s has %d dims: within-channel LRN takes 4-d N x C x H x W tensors", what, t->nd);
    for (int d = 1; d < t->nd; ++d)
        if (t->dims[d] >= ((int64_t)1 << 31))
            return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_SHAPE, "%s: dim %d is %lld (at most 2^31 - 1)", what, d,
                              (long long)t->dims[d]);
    return CLDNN_STATUS_SUCCESS;
}

/* Describes the validated call of direction dir (out: the output's descriptor; strides and
** byte offsets per operand x, y, dy, out) and runs it through the solver table. */
static cldnnStatus_t lrn_run(cldnnHandle_t h, int dir, const cldnnLRNDescriptor_t d, cldnnLRNMode_t mode,
                             const void* alpha, const void* beta, const struct cldnnTensorStruct* out,
                             const int64_t* const* strides, const size_t* offs, const lrn_buffers* b) {
    lrn_problem p;
    memset(&p, 0, sizeof p);
    p.dir = dir;
    p.mode = (int)mode;
    p.dtype = out->dtype;
    p.n = (int)d->n;
    p.k = (float)d->k;
    p.aon = (float)(d->alpha / (mode == CLDNN_LRN_CROSS_CHANNEL ? (double)d->n : (double)d->n * (double)d->n));
    p.lbeta = (float)d->beta;
    p.alpha = cldnn_scalar_as_float(alpha, p.dtype);
    p.beta = cldnn_scalar_as_float(beta, p.dtype);
    lrn_views(&p, out, strides, offs);
    char key[300], dims[200];
    cldnn_format_dims(dims, sizeof dims, out->nd, out->dims);
    snprintf(key, sizeof key, "lrn-%s:m%d-n%d-d%s-%s", dir ? "bwd" : "fwd", p.mode, p.n, dims,
             cldnn_dtype_name(out->dtype));
    return cldnn_solver_run_default(h, lrn_solvers, sizeof lrn_solvers / sizeof lrn_solvers[0], &p, b, key);
}

static void lrn_log_cmd(int dir, const cldnnLRNDescriptor_t d, cldnnLRNMode_t mode, const struct cldnnTensorStruct* t,
                        const void* alpha, const void* beta) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400];
    cldnn_bench_shape_flags(shape, sizeof shape, t);
    cldnn_log_cmd("lrn -F %d -m %d -N %u -a %.17g -b %.17g -K %.17g -A %g -B %g %s", dir, (int)mode, d->n, d->alpha,
                  d->beta, d->k, (double)cldnn_scalar_as_float(alpha, t->dtype),
                  (double)cldnn_scalar_as_float(beta, t->dtype), shape);
}

cldnnStatus_t cldnnLRNForward(cldnnHandle_t handle, const cldnnLRNDescriptor_t desc, cldnnLRNMode_t mode,
                              const void* alpha, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                              const void* beta, const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_common(handle, desc, mode, alpha, beta));
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_same_dims(xDesc, "xDesc", yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(xDesc->dtype, "xDesc"));
    CLDNN_TRY(check_shape(xDesc, mode, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, xDesc, x, xOffset, "x"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    CLDNN_TRY(check_no_overlap(xDesc, x, xOffset, "x", yDesc, y, yOffset, "y"));
    lrn_log_cmd(1, desc, mode, xDesc, alpha, beta);

    const int64_t* strides[NOPS] = {xDesc->strides, xDesc->strides, xDesc->strides, yDesc->strides};
    size_t offs[NOPS] = {xOffset, xOffset, xOffset, yOffset};
    lrn_buffers b = {{x, x, x, y}};
    return lrn_run(handle, 0, desc, mode, alpha, beta, yDesc, strides, offs, &b);
}

cldnnStatus_t cldnnLRNBackward(cldnnHandle_t handle, const cldnnLRNDescriptor_t desc, cldnnLRNMode_t mode,
                               const void* alpha, const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                               const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                               const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const void* beta,
                               const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_common(handle, desc, mode, alpha, beta));
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_tensor(dyDesc, "dyDesc"));
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor(dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(yDesc, "yDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(dyDesc, "dyDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(xDesc, "xDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(dxDesc->dtype, "dxDesc"));
    CLDNN_TRY(check_shape(dxDesc, mode, "dxDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dyDesc, dy, dyOffset, "dy"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, xDesc, x, xOffset, "x"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dxDesc, dx, dxOffset, "dx"));
    CLDNN_TRY(check_no_overlap(xDesc, x, xOffset, "x", dxDesc, dx, dxOffset, "dx"));
    CLDNN_TRY(check_no_overlap(yDesc, y, yOffset, "y", dxDesc, dx, dxOffset, "dx"));
    CLDNN_TRY(check_no_overlap(dyDesc, dy, dyOffset, "dy", dxDesc, dx, dxOffset, "dx"));
    lrn_log_cmd(2, desc, mode, dxDesc, alpha, beta);

    const int64_t* strides[NOPS] = {xDesc->strides, yDesc->strides, dyDesc->strides, dxDesc->strides};
    size_t offs[NOPS] = {xOffset, yOffset, dyOffset, dxOffset};
    lrn_buffers b = {{x, y, dy, dx}};
    return lrn_run(handle, 1, desc, mode, alpha, beta, dxDesc, strides, offs, &b);
}
