/*
** softmax.c: cldnnSoftmaxForward and cldnnSoftmaxBackward (cuDNN semantics).
**
** A softmax call is a set of rows, each normalized over its elements: INSTANCE mode takes one
** row per n (elements: C and every spatial dim), CHANNEL mode one row per (n, spatial position)
** (elements: C). Both groups of dims are collapsed where every operand is contiguous across
** them and handed to kernels/norm/softmax.cl as strided views, so NCHW, NHWC and padded tensors
** take the same path. Four solvers, first applicable wins:
**   softmax_tile   rows adjacent in memory (unit stride of the innermost row dim in every
**                  operand: CHANNEL mode on NCHW) whose TP x L tile fits in local memory: TP rows
**                  per work-group, each element read from global memory once (on CPUs only rows
**                  of more than 64)
**   softmax_wi     rows of at most 64 elements: one work-item per row; on GPUs also adjacent rows
**                  too long for the tile (up to 4096), when there are many of them
**   softmax_split  few rows of at least 16384 elements: several work-groups per row, partial
**                  normalizers through the handle's scratch, then a pass that applies them
**   softmax_wg     other longer rows: one work-group per row, local-memory reductions
** CLDNN_SOLVER=softmax_wi|_tile|_split|_wg (the engine's override, read per call) forces that
** solver where it can run at all (the tile needs its tile to fit; split and wg need work-groups of
** 64); no other applies then. Tests use it to put each solver through every layout.
*/
#include "tensor/tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int dir;    /* 0 forward, 1 backward */
    int algo;   /* cldnnSoftmaxAlgorithm_t */
    cldnnDataType_t dtype;
    uint64_t rows, len;
    int nr, ne;
    int64_t rdims[CLDNN_DIM_MAX], edims[CLDNN_DIM_MAX];    /* innermost first */
    int64_t rs[3][CLDNN_DIM_MAX], es[3][CLDNN_DIM_MAX];    /* operands: p0, p1, out */
    uint64_t off[3];
    uint64_t span_max;
    float alpha, beta;
} sm_problem;

typedef struct {
    cl_mem mem[3];
} sm_buffers;

typedef struct {
    size_t wg;
    int idx32;
    int groups;      /* softmax_split: work-groups per row */
    uint64_t chunk;  /* softmax_split: elements per work-group */
    int tp;          /* softmax_tile: rows per work-group; 0 for the other kernels */
} sm_params;

/* softmax_tile: local memory for the tile, at most; 48 KiB is what NVIDIA and most GPUs grant
** one work-group, and a larger tile would leave a GPU core too few groups to hide latency. */
#define TILE_BYTES_MAX 49152u

/* Work-groups per row for softmax_split: enough to give every compute unit 8 groups on a GPU (2
** groups left it idle on the H100: 0.27 of copy bandwidth at 128 rows of 131072) or 2 on a CPU,
** each with at least 8 elements per work-item; 1 means the split does not pay. */
static int split_groups(const sm_problem* p, const cldnn_device_profile* dev, size_t wg) {
    uint64_t target = (dev->is_cpu ? 2u : 8u) * dev->compute_units;
    if (p->len < 16384 || p->rows >= target)
        return 1;
    uint64_t want = (target + p->rows - 1) / p->rows;
    uint64_t most = p->len / (wg * 8);
    uint64_t g = want < most ? want : most;
    return g > 1024 ? 1024 : (int)(g < 1 ? 1 : g);
}

/* Collapses the dims listed in `which` (outermost first) of a view into innermost-first groups
** of dims contiguous in every operand. Returns the group count (>= 1). */
static int collapse(int nsel, const int* which, const int64_t* dims, const int64_t* const* strides, int64_t* gd,
                    int64_t gs[3][CLDNN_DIM_MAX]) {
    int ng = 0;
    for (int i = nsel - 1; i >= 0; --i) {
        int d = which[i];
        if (dims[d] == 1)
            continue;
        int merge = ng > 0;
        for (int o = 0; merge && o < 3; ++o)
            merge = strides[o][d] == gs[o][ng - 1] * gd[ng - 1];
        if (merge) {
            gd[ng - 1] *= dims[d];
        } else {
            gd[ng] = dims[d];
            for (int o = 0; o < 3; ++o)
                gs[o][ng] = strides[o][d];
            ng++;
        }
    }
    if (ng == 0) {
        gd[0] = 1;
        for (int o = 0; o < 3; ++o)
            gs[o][0] = 0;
        ng = 1;
    }
    return ng;
}

static size_t group_size(const cldnn_device_profile* dev) {
    size_t wg = 256;
    while (wg > dev->max_wg_size)
        wg /= 2;
    return wg;
}

/* softmax_tile's rows per work-group (TP, a power of two from 8 to the work-group size; the
** work-group's wg / TP lanes share a row): at least 32 (a load of 32 adjacent rows' floats is one
** 128-byte segment), more while each work-item would hold fewer than 8 elements (short rows:
** enough loads in flight, fewer reduction steps), then fewer until the tile and the reduction
** array fit in local memory; 0 when even 8 rows do not fit. */
static int tile_rows(const sm_problem* p, const cldnn_device_profile* dev) {
    uint64_t wg = group_size(dev);
    uint64_t budget = dev->local_mem < TILE_BYTES_MAX ? dev->local_mem : TILE_BYTES_MAX;
    uint64_t tp = 8;
    while (tp * 2 <= wg && (tp < 32 || tp * p->len < 8 * wg))
        tp *= 2;
    for (; tp >= 8; tp /= 2)
        if ((tp * p->len * (uint64_t)(p->dir + 1) + wg) * sizeof(float) <= budget)
            return (int)tp;
    return 0;
}

/* Rows adjacent in memory: the innermost row dim has unit stride in every operand. */
static int rows_adjacent(const sm_problem* p) {
    return p->rdims[0] > 1 && p->rs[0][0] == 1 && p->rs[1][0] == 1 && p->rs[2][0] == 1;
}

static int tile_applicable(const void* problem, const cldnn_device_profile* dev) {
    return dev->max_wg_size >= 64 && tile_rows((const sm_problem*)problem, dev) != 0;
}

/* PoCL on a CPU, 8x128x64x64 CHANNEL: 3-8x faster than softmax_wg; about even with softmax_wi on
** rows of 21, so short rows stay with softmax_wi there. */
static int tile_preferred(const void* problem, const cldnn_device_profile* dev) {
    const sm_problem* p = (const sm_problem*)problem;
    return rows_adjacent(p) && (!dev->is_cpu || p->len > 64);
}

/* Adjacent rows too long for the tile: one work-item per row reads each row twice but
** coalesced, where a work-group per row would read TP rows' segments once per row. Enough rows
** to give every compute unit 256 work-items, rows of at most 4096 elements. */
static int wi_long_rows(const sm_problem* p, const cldnn_device_profile* dev) {
    return !dev->is_cpu && rows_adjacent(p) && p->len <= 4096 && p->rows >= 256u * dev->compute_units;
}

static int wi_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)problem;
    (void)dev;
    return 1;
}

static int wi_preferred(const void* problem, const cldnn_device_profile* dev) {
    const sm_problem* p = (const sm_problem*)problem;
    return p->len <= 64 || wi_long_rows(p, dev);
}

static int split_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)problem;
    return dev->max_wg_size >= 64;
}

static int split_preferred(const void* problem, const cldnn_device_profile* dev) {
    return split_groups((const sm_problem*)problem, dev, group_size(dev)) > 1;
}

static void split_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    const sm_problem* p = (const sm_problem*)problem;
    sm_params* q = (sm_params*)params;
    q->wg = group_size(dev);
    q->idx32 = p->span_max < (1ull << 32) - 64;
    q->groups = split_groups(p, dev, q->wg);
    q->chunk = (p->len + (uint64_t)q->groups - 1) / (uint64_t)q->groups;
    q->groups = (int)((p->len + q->chunk - 1) / q->chunk);
}

static int wg_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)problem;
    return dev->max_wg_size >= 64;
}

static void tile_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    const sm_problem* p = (const sm_problem*)problem;
    sm_params* q = (sm_params*)params;
    q->wg = group_size(dev);
    q->idx32 = p->span_max < (1ull << 32) - 64;
    q->tp = tile_rows(p, dev);
}

static void wi_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    sm_params* q = (sm_params*)params;
    q->wg = dev->is_cpu ? 64 : 256;
    if (q->wg > dev->max_wg_size)
        q->wg = dev->max_wg_size;
    q->idx32 = ((const sm_problem*)problem)->span_max < (1ull << 32) - 64;
}

static void wg_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    sm_params* q = (sm_params*)params;
    q->wg = group_size(dev);
    q->idx32 = ((const sm_problem*)problem)->span_max < (1ull << 32) - 64;
}


/* Launches `kernel` over `items` work-items in groups of q->wg. The split kernels get chunk, G
** and the partials buffer `part` as extra arguments; softmax_tile (q->tp > 0) gets -DTP and its
** local tile. */
static cldnnStatus_t sm_launch(cldnnHandle_t h, const sm_problem* p, const sm_params* q, const sm_buffers* b,
                               const char* kernel, uint64_t items, cl_mem part) {
    char opts[160], tp[24] = "";
    if (q->tp > 0)
        snprintf(tp, sizeof tp, " -DTP=%d", q->tp);
    snprintf(opts, sizeof opts, "-DSM_DIR=%d -DSM_ALGO=%d -DWG=%zu -DIDX_T=%s%s%s", p->dir, p->algo, q->wg,
             q->idx32 ? "uint" : "ulong", cldnn_dtype_build_option(p->dtype), tp);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "norm/softmax.cl", opts, kernel, &k));
    cl_long8 rd, ed, rs[3], es[3];
    for (int i = 0; i < 8; ++i) {
        rd.s[i] = i < p->nr ? p->rdims[i] : 1;
        ed.s[i] = i < p->ne ? p->edims[i] : 1;
        for (int o = 0; o < 3; ++o) {
            rs[o].s[i] = i < p->nr ? p->rs[o][i] : 0;
            es[o].s[i] = i < p->ne ? p->es[o][i] : 0;
        }
    }
    cl_ulong rows = p->rows, len = p->len, off[3] = {p->off[0], p->off[1], p->off[2]};
    cl_int nr = p->nr, ne = p->ne;
    /* SM_ARGS (kernels/norm/softmax.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(rows), CLDNN_ARG(len), CLDNN_ARG(nr), CLDNN_ARG(rd), CLDNN_ARG(ne),
                                CLDNN_ARG(ed),
                                CLDNN_ARG(b->mem[0]), CLDNN_ARG(off[0]), CLDNN_ARG(rs[0]), CLDNN_ARG(es[0]),
                                CLDNN_ARG(b->mem[1]), CLDNN_ARG(off[1]), CLDNN_ARG(rs[1]), CLDNN_ARG(es[1]),
                                CLDNN_ARG(b->mem[2]), CLDNN_ARG(off[2]), CLDNN_ARG(rs[2]), CLDNN_ARG(es[2]),
                                CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta)));
    if (part != NULL) {
        cl_ulong chunk = q->chunk;
        cl_int G = q->groups;
        /* softmax_split_partial's and softmax_split_apply's list after SM_ARGS, in its order. */
        CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 20, CLDNN_ARG(chunk), CLDNN_ARG(G), CLDNN_ARG(part)));
    }
    if (q->tp > 0) {
        size_t tile = (size_t)q->tp * (size_t)p->len * (size_t)(p->dir + 1) * sizeof(float);
        cl_int err = clSetKernelArg(k, 20, tile, NULL);
        if (err != CL_SUCCESS)
            return CLDNN_CL_FAIL(err, "clSetKernelArg (softmax_tile's local tile)");
    }
    return cldnn_enqueue_1d(h, k, items, q->wg, kernel);
}

static cldnnStatus_t wi_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const sm_problem* p = (const sm_problem*)problem;
    return sm_launch(h, p, (const sm_params*)params, (const sm_buffers*)buffers, "softmax_wi", p->rows, NULL);
}

static cldnnStatus_t wg_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const sm_problem* p = (const sm_problem*)problem;
    const sm_params* q = (const sm_params*)params;
    return sm_launch(h, p, q, (const sm_buffers*)buffers, "softmax_wg", p->rows * q->wg, NULL);
}

static cldnnStatus_t tile_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const sm_problem* p = (const sm_problem*)problem;
    const sm_params* q = (const sm_params*)params;
    uint64_t groups = (p->rows + (uint64_t)q->tp - 1) / (uint64_t)q->tp;
    return sm_launch(h, p, q, (const sm_buffers*)buffers, "softmax_tile", groups * q->wg, NULL);
}

static cldnnStatus_t split_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const sm_problem* p = (const sm_problem*)problem;
    const sm_params* q = (const sm_params*)params;
    cl_mem part;
    CLDNN_TRY(cldnn_scratch_get(h, (size_t)(p->rows * (uint64_t)q->groups * 2u * sizeof(float)), &part));
    uint64_t items = p->rows * (uint64_t)q->groups * q->wg;
    CLDNN_TRY(sm_launch(h, p, q, (const sm_buffers*)buffers, "softmax_split_partial", items, part));
    return sm_launch(h, p, q, (const sm_buffers*)buffers, "softmax_split_apply", items, part);
}

/* The heuristic: the first of tile, wi, split where it is preferred, else the work-group per row;
** a solver that can run but is not preferred ranks after it (CLDNN_SOLVER=softmax_tile forces one
** where it can run). */
static const cldnn_solver sm_solvers[] = {
    {.name = "softmax_tile", .algo = -1, .applicable = tile_applicable, .default_params = tile_defaults,
     .params_size = sizeof(sm_params), .run = tile_run, .rank = 60, .promote = {{tile_preferred, 10, NULL}}},
    {.name = "softmax_wi", .algo = -1, .applicable = wi_applicable, .default_params = wi_defaults,
     .params_size = sizeof(sm_params), .run = wi_run, .rank = 70, .promote = {{wi_preferred, 20, NULL}}},
    {.name = "softmax_split", .algo = -1, .applicable = split_applicable, .default_params = split_defaults,
     .params_size = sizeof(sm_params), .run = split_run, .rank = 80, .promote = {{split_preferred, 30, NULL}}},
    {.name = "softmax_wg", .algo = -1, .applicable = wg_applicable, .default_params = wg_defaults,
     .params_size = sizeof(sm_params), .run = wg_run, .rank = 40},
};

static cldnnStatus_t check_enums(cldnnSoftmaxAlgorithm_t algo, cldnnSoftmaxMode_t mode) {
    if (algo != CLDNN_SOFTMAX_FAST && algo != CLDNN_SOFTMAX_ACCURATE && algo != CLDNN_SOFTMAX_LOG)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "algo %d is not a cldnnSoftmaxAlgorithm_t value",
                          (int)algo);
    if (mode != CLDNN_SOFTMAX_MODE_INSTANCE && mode != CLDNN_SOFTMAX_MODE_CHANNEL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mode %d is not a cldnnSoftmaxMode_t value", (int)mode);
    return CLDNN_STATUS_SUCCESS;
}

/* Fills the row/element views of p from the output's dims and three operands' strides. */
static void sm_views(sm_problem* p, cldnnSoftmaxMode_t mode, const struct cldnnTensorStruct* t,
                     const int64_t* const* strides, const size_t* byte_offsets) {
    int rsel[CLDNN_DIM_MAX], esel[CLDNN_DIM_MAX], nrs = 0, nes = 0;
    for (int d = 0; d < t->nd; ++d) {
        int element = mode == CLDNN_SOFTMAX_MODE_INSTANCE ? d >= 1 : d == 1;
        if (element)
            esel[nes++] = d;
        else
            rsel[nrs++] = d;
    }
    p->nr = collapse(nrs, rsel, t->dims, strides, p->rdims, p->rs);
    p->ne = collapse(nes, esel, t->dims, strides, p->edims, p->es);
    p->rows = 1;
    p->len = 1;
    for (int i = 0; i < p->nr; ++i)
        p->rows *= (uint64_t)p->rdims[i];
    for (int i = 0; i < p->ne; ++i)
        p->len *= (uint64_t)p->edims[i];
    size_t es = cldnn_dtype_size(t->dtype);
    p->span_max = 0;
    for (int o = 0; o < 3; ++o) {
        p->off[o] = byte_offsets[o] / es;
        uint64_t span = 1;
        for (int d = 0; d < t->nd; ++d)
            span += (uint64_t)(t->dims[d] - 1) * (uint64_t)strides[o][d];
        if (span > p->span_max)
            p->span_max = span;
    }
}

static cldnnStatus_t check_common(cldnnHandle_t h, cldnnSoftmaxAlgorithm_t algo, cldnnSoftmaxMode_t mode,
                                  const void* alpha, const void* beta) {
    CLDNN_TRY(cldnn_check_handle(h));
    CLDNN_TRY(check_enums(algo, mode));
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_rank(const struct cldnnTensorStruct* t, const char* what) {
    if (t->nd < 2)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s has %d dim(s): softmax needs N and C", what, t->nd);
    return CLDNN_STATUS_SUCCESS;
}

static const char* sm_key(char* buf, size_t size, const char* dir, int algo, int mode,
                          const struct cldnnTensorStruct* t) {
    if (cldnn_log_level() == 0)
        return "softmax";
    char dims[200];
    cldnn_format_dims(dims, sizeof dims, t->nd, t->dims);
    snprintf(buf, size, "softmax-%s:a%d-m%d-d%s-%s", dir, algo, mode, dims, cldnn_dtype_name(t->dtype));
    return buf;
}

static void sm_log_cmd(int dir, int algo, int mode, const struct cldnnTensorStruct* t, const void* alpha,
                       const void* beta) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400];
    cldnn_bench_shape_flags(shape, sizeof shape, t);
    cldnn_log_cmd("softmax -F %d -a %d -M %d -A %g -B %g %s", dir, algo, mode,
                  (double)cldnn_scalar_as_float(alpha, t->dtype), (double)cldnn_scalar_as_float(beta, t->dtype),
                  shape);
}

cldnnStatus_t cldnnSoftmaxForward(cldnnHandle_t handle, cldnnSoftmaxAlgorithm_t algo, cldnnSoftmaxMode_t mode,
                                  const void* alpha, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                  const void* beta, const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_common(handle, algo, mode, alpha, beta));
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_same_dims(xDesc, "xDesc", yDesc, "yDesc"));
    CLDNN_TRY(check_rank(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(xDesc->dtype, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, xDesc, x, xOffset, "x"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    sm_log_cmd(1, (int)algo, (int)mode, xDesc, alpha, beta);

    sm_problem p;
    memset(&p, 0, sizeof p);
    p.dir = 0;
    p.algo = (int)algo;
    p.dtype = xDesc->dtype;
    p.alpha = cldnn_scalar_as_float(alpha, p.dtype);
    p.beta = cldnn_scalar_as_float(beta, p.dtype);
    const int64_t* strides[3] = {xDesc->strides, xDesc->strides, yDesc->strides};
    size_t offs[3] = {xOffset, xOffset, yOffset};
    sm_views(&p, mode, yDesc, strides, offs);
    sm_buffers b = {{x, x, y}};
    char key[300];
    return cldnn_solver_run_default(handle, sm_solvers, sizeof sm_solvers / sizeof sm_solvers[0], &p, &b,
                                    sm_key(key, sizeof key, "fwd", (int)algo, (int)mode, xDesc));
}

cldnnStatus_t cldnnSoftmaxBackward(cldnnHandle_t handle, cldnnSoftmaxAlgorithm_t algo, cldnnSoftmaxMode_t mode,
                                   const void* alpha, const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                                   const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                                   const void* beta, const cldnnTensorDescriptor_t dxDesc, cl_mem dx,
                                   size_t dxOffset) {
    cldnn_error_clear();
    CLDNN_TRY(check_common(handle, algo, mode, alpha, beta));
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_tensor(dyDesc, "dyDesc"));
    CLDNN_TRY(cldnn_check_tensor(dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(yDesc, "yDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(dyDesc, "dyDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(check_rank(dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(dxDesc->dtype, "dxDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dyDesc, dy, dyOffset, "dy"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dxDesc, dx, dxOffset, "dx"));
    sm_log_cmd(2, (int)algo, (int)mode, dxDesc, alpha, beta);

    sm_problem p;
    memset(&p, 0, sizeof p);
    p.dir = 1;
    p.algo = (int)algo;
    p.dtype = dxDesc->dtype;
    p.alpha = cldnn_scalar_as_float(alpha, p.dtype);
    p.beta = cldnn_scalar_as_float(beta, p.dtype);
    const int64_t* strides[3] = {yDesc->strides, dyDesc->strides, dxDesc->strides};
    size_t offs[3] = {yOffset, dyOffset, dxOffset};
    sm_views(&p, mode, dxDesc, strides, offs);
    sm_buffers b = {{y, dy, dx}};
    char key[300];
    return cldnn_solver_run_default(handle, sm_solvers, sizeof sm_solvers / sizeof sm_solvers[0], &p, &b,
                                    sm_key(key, sizeof key, "bwd", (int)algo, (int)mode, dxDesc));
}
