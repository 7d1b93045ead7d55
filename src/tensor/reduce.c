/*
** reduce.c: cldnnReduceTensor and its descriptor (cuDNN semantics): C = alpha * reduce(A) +
** beta * C, reducing every dim where C has size 1 and A does not, with optional flattened
** indices for MIN, MAX and AMAX.
**
** A call is described by two strided views of A (kernels/eltwise/reduce.cl): the kept dims,
** collapsed where A and C are both contiguous across them (innermost first), and the reduced
** dims, collapsed where A is contiguous across them but kept in logical order, so the flattened
** reduced index is the row-major position inside the reduced dims (the indices' meaning) whatever
** A's layout. Three solvers, first preferred wins:
**   reduce_split  few outputs with long reductions (full reductions, batch statistics): each
**                 output's range cut into G chunks so every compute unit gets work-groups; float
**                 partials (and index partials) in the caller's workspace, then a fixed-order
**                 second pass; the mapping of reduce_row or reduce_col by layout
**   reduce_col    the innermost kept dim contiguous in A and the reduced ones not (NHWC over
**                 N, H, W; NCHW over N only): adjacent work-items are adjacent outputs
**   reduce_row    everything else, best when the innermost reduced dim is contiguous (rows of
**                 NCHW, H x W planes): an output's lanes walk its elements together, 4-vector
**                 loads where every row start is 4-element aligned
** The workspace a call needs is the workspace of the solver and parameters that the run takes,
** computed by the same pick (cldnnGetReductionWorkspaceSize and the run share rd_choose), so the
** query is exact for the shape on the device. Deterministic: fixed folds and trees, no atomics.
** CLDNN_SOLVER=reduce_row|reduce_col|reduce_split forces one (the split then takes 2 chunks even
** where it would not pay, so tests reach it at small sizes); the workspace query follows it.
**
** Targets: the H100 at 80 % of copy bandwidth or more on NCHW batch statistics (32x256x56x56 over
** N, H, W: 256 outputs split 4 ways, one wave of 1024 work-groups), last-dim rows (8192x4096:
** 128 lanes per row, 4-vector loads) and full reductions (1056 chunks, then one work-group). The
** tunables, all here: work-group size 256 (rd_group_size), 32 elements per lane for rows
** (row_shape), 32 outputs per column work-group (col_shape), 8 work-groups per compute unit on a
** GPU / 2 on a CPU and 64 elements per lane at least for the split (split_groups).
*/
#include "handle/engine.h"
#include "tensor/tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cldnnReduceTensorStruct {
    int is_set;
    cldnnReduceTensorOp_t op;
    cldnnDataType_t comp;
    cldnnNanPropagation_t nan;
    cldnnReduceTensorIndices_t indices;
    cldnnIndicesType_t itype;
};

typedef struct {
    int op, nan;
    int idx;                 /* 0 (none), 32 or 64: the indices written */
    int cmp;                 /* MIN, MAX, AMAX */
    cldnnDataType_t dtype;
    uint64_t M, L;           /* outputs, elements per output */
    int nk, nr;
    int64_t kd[CLDNN_DIM_MAX], ka[CLDNN_DIM_MAX], kc[CLDNN_DIM_MAX]; /* kept, innermost first */
    int64_t rd[CLDNN_DIM_MAX], ra[CLDNN_DIM_MAX];                   /* reduced, innermost first */
    uint64_t offa, offc, offi;  /* elements */
    uint64_t span_max;
    int aligned4;            /* every reduced row of A starts 4-element aligned, rd[0] % 4 == 0 */
    float alpha, beta;
} rd_problem;

typedef struct {
    cl_mem a, c, i, w;
    size_t w_off;            /* bytes */
} rd_buffers;

typedef struct {
    size_t wg;
    int idx32;
    int tp;       /* outputs per work-group; lanes = wg / tp per output */
    int cols;     /* 1: adjacent work-items are adjacent outputs */
    int vec;      /* 1 or 4 */
    int G;        /* chunks per output: 1 single pass, else the split */
    uint64_t chunk;
    int tp2;      /* reduce_final: outputs per work-group */
} rd_params;

static size_t rd_group_size(const cldnn_device_profile* dev) {
    size_t wg = 256;
    while (wg > dev->max_wg_size)
        wg /= 2;
    return wg;
}

static int pow2_at_least(uint64_t n, int cap) {
    int p = 1;
    while ((uint64_t)p < n && p < cap)
        p *= 2;
    return p;
}

/* Adjacent outputs are adjacent in A and the innermost reduced dim is not. */
static int col_layout(const rd_problem* p) {
    return p->M > 1 && p->ka[0] == 1 && !(p->L > 1 && p->ra[0] == 1);
}

/* Row mapping: lanes per output enough for 32 of its elements each (8 vectors: loads in flight,
** and a short tree for rows of a few thousand), at most wg.
** Nothing here or in the split's decision depends on the vector width, which A's byte offset
** can veto at run time, so the workspace query needs no offset. */
static void row_shape(const rd_problem* p, size_t wg, rd_params* q) {
    q->cols = 0;
    q->vec = p->aligned4 ? 4 : 1;
    int lanes = pow2_at_least((p->L + 31u) / 32u, (int)wg);
    q->tp = (int)wg / lanes;
}

/* Column mapping: 32 adjacent outputs (a 128-byte segment of floats) per work-group, fewer when
** there are fewer; the rest of the work-group are lanes down the reduction. */
static void col_shape(const rd_problem* p, size_t wg, rd_params* q) {
    q->cols = 1;
    q->vec = 1;
    int tp = pow2_at_least(p->M, 32);
    q->tp = tp > (int)wg ? (int)wg : tp;
}

/* Chunks per output for the split: as many work-groups as the device runs at once, 8 per compute
** unit on a GPU (256 work-items each: the 2048 an H100 SM holds, the occupancy it needs to stream
** at full bandwidth) or 2 on a CPU, and no more: every work-group has the same work, so a second
** partial wave would cost as much as the first (1280 groups on 1056 slots take two rounds). Each
** lane keeps at least 64 elements. 1 when the single pass fills half the device or more. */
static int split_groups(const rd_problem* p, const cldnn_device_profile* dev, const rd_params* q) {
    uint64_t target = (dev->is_cpu ? 2u : 8u) * dev->compute_units;
    uint64_t groups = (p->M + (uint64_t)q->tp - 1) / (uint64_t)q->tp;
    uint64_t lanes = q->wg / (uint64_t)q->tp;
    uint64_t want = target / groups;
    uint64_t most = p->L / (lanes * 64u);
    uint64_t g = want < most ? want : most;
    return g > 4096 ? 4096 : (int)(g < 1 ? 1 : g);
}

static void base_defaults(const rd_problem* p, const cldnn_device_profile* dev, rd_params* q) {
    q->wg = rd_group_size(dev);
    q->idx32 = p->span_max < (1ull << 32) - 64;
    q->G = 1;
    q->chunk = p->L;
    q->tp2 = 1;
}

static void row_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    const rd_problem* p = (const rd_problem*)problem;
    rd_params* q = (rd_params*)params;
    base_defaults(p, dev, q);
    row_shape(p, q->wg, q);
}

static void col_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    const rd_problem* p = (const rd_problem*)problem;
    rd_params* q = (rd_params*)params;
    base_defaults(p, dev, q);
    col_shape(p, q->wg, q);
}

/* The split's chunks are multiples of 4 (a vector never straddles two chunks);
** forced by CLDNN_SOLVER where the heuristic would not split, it still takes 2 chunks when the
** reduction has room for them, so tests reach the two-pass path at small sizes. */
static void split_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    const rd_problem* p = (const rd_problem*)problem;
    rd_params* q = (rd_params*)params;
    base_defaults(p, dev, q);
    if (col_layout(p))
        col_shape(p, q->wg, q);
    else
        row_shape(p, q->wg, q);
    int g = split_groups(p, dev, q);
    if (g < 2)
        g = p->L >= 8u ? 2 : 1;
    q->chunk = ((p->L + (uint64_t)g - 1) / (uint64_t)g + 3u) / 4u * 4u;
    q->G = (int)((p->L + q->chunk - 1) / q->chunk);
    q->tp2 = (int)q->wg / pow2_at_least(((uint64_t)q->G + 3) / 4, (int)q->wg);
    q->idx32 &= p->M * (uint64_t)q->G * 2u < (1ull << 32) - 64;
}

static int always(const void* problem, const cldnn_device_profile* dev) {
    (void)problem;
    (void)dev;
    return 1;
}

static int col_preferred(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    return col_layout((const rd_problem*)problem);
}

static int split_preferred(const void* problem, const cldnn_device_profile* dev) {
    rd_params q;
    memset(&q, 0, sizeof q);
    const rd_problem* p = (const rd_problem*)problem;
    base_defaults(p, dev, &q);
    if (col_layout(p))
        col_shape(p, q.wg, &q);
    else
        row_shape(p, q.wg, &q);
    return split_groups(p, dev, &q) > 1;
}

/* Bytes of the split's partials: G floats per output, then (comparison ops with indices) G
** indices of the output's index type from an 8-byte boundary. */
static size_t split_workspace(const void* problem, const void* params) {
    const rd_problem* p = (const rd_problem*)problem;
    const rd_params* q = (const rd_params*)params;
    if (q == NULL || q->G < 2)
        return 0;
    uint64_t n = p->M * (uint64_t)q->G;
    uint64_t bytes = (n * sizeof(float) + 7u) / 8u * 8u;
    if (p->cmp && p->idx) /* index partials: without indices the kernels keep values only */
        bytes += n * (p->idx == 64 ? 8u : 4u);
    return (size_t)bytes;
}

static cldnnStatus_t rd_launch(cldnnHandle_t h, const rd_problem* p, const rd_params* q, const rd_buffers* b,
                               const char* kernel, uint64_t groups, int tp) {
    /* NVIDIA: row lanes meet by warp shuffles (H200, 8192 rows, 140fb05 / after: MAX of 768 12.9 /
    ** 8.0-9.9 us with the value-only fold, 768 with 32-bit indices 12.9 / 12.2-12.4), except with
    ** 64-bit indices, whose two extra shuffles a level ran slower (4096: 47.3 / 49.7-49.8) */
    const int shfl = cldnn_mma_shfl(&h->prof) && p->idx != 64;
    char opts[176];
    snprintf(opts, sizeof opts, "-DRED_OP=%d -DRED_NAN=%d -DRED_IDX=%d -DWG=%zu -DRED_SHFL=%d -DIDX_T=%s%s", p->op,
             p->nan, p->idx, q->wg, shfl, q->idx32 ? "uint" : "ulong", cldnn_dtype_build_option(p->dtype));
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "eltwise/reduce.cl", opts, kernel, &k));
    cl_long8 kd, ka, kc, rd, ra;
    for (int i = 0; i < 8; ++i) {
        kd.s[i] = i < p->nk ? p->kd[i] : 1;
        ka.s[i] = i < p->nk ? p->ka[i] : 0;
        kc.s[i] = i < p->nk ? p->kc[i] : 0;
        rd.s[i] = i < p->nr ? p->rd[i] : 1;
        ra.s[i] = i < p->nr ? p->ra[i] : 0;
    }
    cl_int nk = p->nk, nr = p->nr, tpa = tp, cols = q->cols, vec = q->vec, G = q->G;
    uint64_t ws_elems = b->w_off / 4u, n = p->M * (uint64_t)q->G;
    uint64_t wvo = ws_elems;
    uint64_t wio = ((b->w_off + (n * 4u + 7u) / 8u * 8u)) / (p->idx == 64 ? 8u : 4u);
    /* RED_ARGS (kernels/eltwise/reduce.cl), in its order; sizes in the kernel's IDX_T. */
    if (q->idx32) {
        cl_uint M = (cl_uint)p->M, L = (cl_uint)p->L, oa = (cl_uint)p->offa, oc = (cl_uint)p->offc,
                oi = (cl_uint)p->offi, chunk = (cl_uint)q->chunk, wv = (cl_uint)wvo, wi = (cl_uint)wio;
        CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(M), CLDNN_ARG(L), CLDNN_ARG(nk), CLDNN_ARG(kd), CLDNN_ARG(ka),
                                    CLDNN_ARG(kc), CLDNN_ARG(nr), CLDNN_ARG(rd), CLDNN_ARG(ra), CLDNN_ARG(b->a),
                                    CLDNN_ARG(oa), CLDNN_ARG(b->c), CLDNN_ARG(oc), CLDNN_ARG(b->i), CLDNN_ARG(oi),
                                    CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(tpa), CLDNN_ARG(cols),
                                    CLDNN_ARG(vec), CLDNN_ARG(G), CLDNN_ARG(chunk), CLDNN_ARG(b->w), CLDNN_ARG(wv),
                                    CLDNN_ARG(b->w), CLDNN_ARG(wi)));
    } else {
        cl_ulong M = p->M, L = p->L, oa = p->offa, oc = p->offc, oi = p->offi, chunk = q->chunk, wv = wvo, wi = wio;
        CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(M), CLDNN_ARG(L), CLDNN_ARG(nk), CLDNN_ARG(kd), CLDNN_ARG(ka),
                                    CLDNN_ARG(kc), CLDNN_ARG(nr), CLDNN_ARG(rd), CLDNN_ARG(ra), CLDNN_ARG(b->a),
                                    CLDNN_ARG(oa), CLDNN_ARG(b->c), CLDNN_ARG(oc), CLDNN_ARG(b->i), CLDNN_ARG(oi),
                                    CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(tpa), CLDNN_ARG(cols),
                                    CLDNN_ARG(vec), CLDNN_ARG(G), CLDNN_ARG(chunk), CLDNN_ARG(b->w), CLDNN_ARG(wv),
                                    CLDNN_ARG(b->w), CLDNN_ARG(wi)));
    }
    return cldnn_enqueue_1d(h, k, groups * q->wg, q->wg, kernel);
}

static cldnnStatus_t single_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const rd_problem* p = (const rd_problem*)problem;
    const rd_params* q = (const rd_params*)params;
    uint64_t groups = (p->M + (uint64_t)q->tp - 1) / (uint64_t)q->tp;
    return rd_launch(h, p, q, (const rd_buffers*)buffers, "reduce_part", groups, q->tp);
}

static cldnnStatus_t split_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const rd_problem* p = (const rd_problem*)problem;
    const rd_params* q = (const rd_params*)params;
    if (q->G < 2)
        return single_run(h, problem, params, buffers);
    uint64_t groups = (p->M + (uint64_t)q->tp - 1) / (uint64_t)q->tp * (uint64_t)q->G;
    CLDNN_TRY(rd_launch(h, p, q, (const rd_buffers*)buffers, "reduce_part", groups, q->tp));
    groups = (p->M + (uint64_t)q->tp2 - 1) / (uint64_t)q->tp2;
    return rd_launch(h, p, q, (const rd_buffers*)buffers, "reduce_final", groups, q->tp2);
}

/* The heuristic: the split where outputs are too few to fill the device, else columns where the
** layout calls for them, else rows. CLDNN_SOLVER=reduce_row|reduce_col|reduce_split forces one. */
static const cldnn_solver rd_solvers[] = {
    {.name = "reduce_split", .algo = -1, .applicable = always, .workspace = split_workspace,
     .default_params = split_defaults, .params_size = sizeof(rd_params), .run = split_run,
     .flags = CLDNN_SOLVER_DETERMINISTIC, .rank = 80, .promote = {{split_preferred, 10, NULL}}},
    {.name = "reduce_col", .algo = -1, .applicable = always, .default_params = col_defaults,
     .params_size = sizeof(rd_params), .run = single_run, .flags = CLDNN_SOLVER_DETERMINISTIC, .rank = 60,
     .promote = {{col_preferred, 20, NULL}}},
    {.name = "reduce_row", .algo = -1, .applicable = always, .default_params = row_defaults,
     .params_size = sizeof(rd_params), .run = single_run, .flags = CLDNN_SOLVER_DETERMINISTIC, .rank = 40},
};

static const cldnn_family rd_family = {
    .name = "reduce", .solvers = rd_solvers, .count = sizeof rd_solvers / sizeof rd_solvers[0], .tune_algo = -1};

/* ------------------------------------------------------------------ descriptor */

cldnnStatus_t cldnnCreateReduceTensorDescriptor(cldnnReduceTensorDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "reduce tensor");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyReduceTensorDescriptor(cldnnReduceTensorDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

static int is_cmp(cldnnReduceTensorOp_t op) {
    return op == CLDNN_REDUCE_TENSOR_MIN || op == CLDNN_REDUCE_TENSOR_MAX || op == CLDNN_REDUCE_TENSOR_AMAX;
}

cldnnStatus_t cldnnSetReduceTensorDescriptor(cldnnReduceTensorDescriptor_t desc, cldnnReduceTensorOp_t op,
                                             cldnnDataType_t compType, cldnnNanPropagation_t nanOpt,
                                             cldnnReduceTensorIndices_t indices, cldnnIndicesType_t indicesType) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if ((int)op < 0 || (int)op > (int)CLDNN_REDUCE_TENSOR_MUL_NO_ZEROS)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "op %d is not a cldnnReduceTensorOp_t value", (int)op);
    if (cldnn_dtype_size(compType) == 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "compType %d is not a cldnnDataType_t value",
                          (int)compType);
    if (nanOpt != CLDNN_NOT_PROPAGATE_NAN && nanOpt != CLDNN_PROPAGATE_NAN)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "nanOpt %d is not a cldnnNanPropagation_t value",
                          (int)nanOpt);
    if (indices != CLDNN_REDUCE_TENSOR_NO_INDICES && indices != CLDNN_REDUCE_TENSOR_FLATTENED_INDICES)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "indices %d is not a cldnnReduceTensorIndices_t value",
                          (int)indices);
    if (indicesType != CLDNN_32BIT_INDICES && indicesType != CLDNN_64BIT_INDICES)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "indicesType %d is not a cldnnIndicesType_t value",
                          (int)indicesType);
    if (compType != CLDNN_DATA_FLOAT)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, "compType %s: reductions compute in float",
                          cldnn_dtype_name(compType));
    if (indices == CLDNN_REDUCE_TENSOR_FLATTENED_INDICES && !is_cmp(op))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "indices asked of op %d; only MIN, MAX and AMAX have them", (int)op);
    desc->op = op;
    desc->comp = compType;
    desc->nan = nanOpt;
    desc->indices = indices;
    desc->itype = indicesType;
    desc->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetReduceTensorDescriptor(const cldnnReduceTensorDescriptor_t desc, cldnnReduceTensorOp_t* op,
                                             cldnnDataType_t* compType, cldnnNanPropagation_t* nanOpt,
                                             cldnnReduceTensorIndices_t* indices, cldnnIndicesType_t* indicesType) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (!desc->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "desc was created but never set");
    if (op)
        *op = desc->op;
    if (compType)
        *compType = desc->comp;
    if (nanOpt)
        *nanOpt = desc->nan;
    if (indices)
        *indices = desc->indices;
    if (indicesType)
        *indicesType = desc->itype;
    return CLDNN_STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ problem */

/* The descriptors' checks and the problem they describe (no buffers: offsets 0). */
static cldnnStatus_t rd_describe(cldnnHandle_t h, const struct cldnnReduceTensorStruct* r,
                                 const struct cldnnTensorStruct* a, const struct cldnnTensorStruct* c,
                                 rd_problem* p) {
    CLDNN_TRY(cldnn_check_handle(h));
    if (r == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "reduceTensorDesc is NULL");
    if (!r->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "reduceTensorDesc was created but never set");
    CLDNN_TRY(cldnn_check_tensor(a, "aDesc"));
    CLDNN_TRY(cldnn_check_tensor(c, "cDesc"));
    if (a->dtype != c->dtype)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "aDesc holds %s and cDesc %s: one data type per call",
                          cldnn_dtype_name(a->dtype), cldnn_dtype_name(c->dtype));
    CLDNN_TRY(cldnn_check_compute_dtype(a->dtype, "aDesc"));
    if (a->nd != c->nd)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, "aDesc has %d dims and cDesc %d", a->nd, c->nd);
    for (int d = 0; d < a->nd; ++d)
        if (c->dims[d] != a->dims[d] && c->dims[d] != 1)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH,
                              "cDesc dim %d is %lld where aDesc's is %lld: C must be A with some dims set to 1", d,
                              (long long)c->dims[d], (long long)a->dims[d]);
    memset(p, 0, sizeof *p);
    p->op = (int)r->op;
    p->nan = r->nan == CLDNN_PROPAGATE_NAN;
    p->cmp = is_cmp(r->op);
    p->idx = r->indices == CLDNN_REDUCE_TENSOR_FLATTENED_INDICES ? (r->itype == CLDNN_64BIT_INDICES ? 64 : 32) : 0;
    p->dtype = a->dtype;
    p->M = 1;
    p->L = 1;
    /* Kept dims merge where A and C are both contiguous across them, reduced dims where A is;
    ** both walk from the innermost logical dim out. */
    for (int d = a->nd - 1; d >= 0; --d) {
        if (a->dims[d] == 1)
            continue;
        if (c->dims[d] == 1) {
            p->L *= (uint64_t)a->dims[d];
            if (p->nr > 0 && a->strides[d] == p->ra[p->nr - 1] * p->rd[p->nr - 1]) {
                p->rd[p->nr - 1] *= a->dims[d];
            } else {
                p->rd[p->nr] = a->dims[d];
                p->ra[p->nr++] = a->strides[d];
            }
        } else {
            p->M *= (uint64_t)a->dims[d];
            int k = p->nk - 1;
            if (k >= 0 && a->strides[d] == p->ka[k] * p->kd[k] && c->strides[d] == p->kc[k] * p->kd[k]) {
                p->kd[k] *= a->dims[d];
            } else {
                p->kd[p->nk] = a->dims[d];
                p->ka[p->nk] = a->strides[d];
                p->kc[p->nk++] = c->strides[d];
            }
        }
    }
    if (p->nr == 0) {
        p->rd[0] = 1;
        p->ra[0] = 1;
        p->nr = 1;
    }
    if (p->nk == 0) {
        p->kd[0] = 1;
        p->nk = 1;
    }
    p->span_max = (uint64_t)(a->span > c->span ? a->span : c->span);
    p->aligned4 = p->ra[0] == 1 && p->rd[0] % 4 == 0 && p->L >= 16;
    for (int i = 1; i < p->nr; ++i)
        p->aligned4 &= p->ra[i] % 4 == 0;
    for (int i = 0; i < p->nk; ++i)
        p->aligned4 &= p->kd[i] == 1 || p->ka[i] % 4 == 0;
    return CLDNN_STATUS_SUCCESS;
}

static const char* const rd_op_names[] = {"add", "mul", "min", "max", "amax", "avg", "norm1", "norm2",
                                          "mul_no_zeros"};

/* The problem's key (logs): "reduce:max-a32x256x56x56-c1x256x1x1-f32-nan0-i32". */
static void rd_key(char* buf, size_t size, const rd_problem* p, const struct cldnnTensorStruct* a,
                   const struct cldnnTensorStruct* c) {
    char ad[200], cd[200];
    cldnn_format_dims(ad, sizeof ad, a->nd, a->dims);
    cldnn_format_dims(cd, sizeof cd, c->nd, c->dims);
    snprintf(buf, size, "reduce:%s-a%s-c%s-%s-nan%d-i%d", rd_op_names[p->op], ad, cd, cldnn_dtype_key(p->dtype),
             p->nan, p->idx);
}

/* The solver and parameters a run of p takes: the one decision the workspace query and the run
** share. */
static cldnnStatus_t rd_choose(cldnnHandle_t h, const rd_problem* p, const struct cldnnTensorStruct* a,
                               const struct cldnnTensorStruct* c, const cldnn_solver** s, void* params) {
    char key[480];
    rd_key(key, sizeof key, p, a, c);
    *s = cldnn_engine_pick(&rd_family, p, &h->prof, -1);
    if (*s == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "no reduction solver applies to %s on %s", key, h->prof.name);
    cldnn_engine_params(h, *s, p, key, params);
    cldnn_log(CLDNN_LOG_DEBUG, "%s: solver %s", key, (*s)->name);
    return CLDNN_STATUS_SUCCESS;
}

static size_t rd_index_bytes(const rd_problem* p) { return p->idx ? (size_t)p->M * (size_t)(p->idx / 8) : 0; }

cldnnStatus_t cldnnGetReductionIndicesSize(cldnnHandle_t handle, const cldnnReduceTensorDescriptor_t reduceTensorDesc,
                                           const cldnnTensorDescriptor_t aDesc, const cldnnTensorDescriptor_t cDesc,
                                           size_t* sizeInBytes) {
    cldnn_error_clear();
    rd_problem p;
    CLDNN_TRY(rd_describe(handle, reduceTensorDesc, aDesc, cDesc, &p));
    if (sizeInBytes == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "sizeInBytes is NULL");
    *sizeInBytes = rd_index_bytes(&p);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetReductionWorkspaceSize(cldnnHandle_t handle, const cldnnReduceTensorDescriptor_t reduceTensorDesc,
                                             const cldnnTensorDescriptor_t aDesc, const cldnnTensorDescriptor_t cDesc,
                                             size_t* sizeInBytes) {
    cldnn_error_clear();
    rd_problem p;
    CLDNN_TRY(rd_describe(handle, reduceTensorDesc, aDesc, cDesc, &p));
    if (sizeInBytes == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "sizeInBytes is NULL");
    const cldnn_solver* s;
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    CLDNN_TRY(rd_choose(handle, &p, aDesc, cDesc, &s, params));
    *sizeInBytes = cldnn_engine_workspace(s, &p, params);
    return CLDNN_STATUS_SUCCESS;
}

static void rd_log_cmd(const rd_problem* p, const struct cldnnTensorStruct* a, const struct cldnnTensorStruct* c) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400], cdims[200];
    cldnn_bench_shape_flags(shape, sizeof shape, a);
    cldnn_format_dims(cdims, sizeof cdims, c->nd, c->dims);
    cldnn_log_cmd("reduce --op %s --c-dims %s --indices %d --nan %d -A %g -B %g %s", rd_op_names[p->op], cdims,
                  p->idx, p->nan, (double)p->alpha, (double)p->beta, shape);
}

cldnnStatus_t cldnnReduceTensor(cldnnHandle_t handle, const cldnnReduceTensorDescriptor_t reduceTensorDesc,
                                cl_mem indices, size_t indicesOffset, size_t indicesSizeInBytes, cl_mem workspace,
                                size_t workspaceOffset, size_t workspaceSizeInBytes, const void* alpha,
                                const cldnnTensorDescriptor_t aDesc, cl_mem A, size_t aOffset, const void* beta,
                                const cldnnTensorDescriptor_t cDesc, cl_mem C, size_t cOffset) {
    cldnn_error_clear();
    rd_problem p;
    CLDNN_TRY(rd_describe(handle, reduceTensorDesc, aDesc, cDesc, &p));
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, aDesc, A, aOffset, "A"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, cDesc, C, cOffset, "C"));
    size_t ib = rd_index_bytes(&p);
    CLDNN_TRY(cldnn_check_scratch(handle, indices, indicesOffset, indicesSizeInBytes, ib, (size_t)(p.idx / 8),
                                  "indices", "indicesSizeInBytes", "cldnnGetReductionIndicesSize"));
    if (ib > 0)
        p.offi = indicesOffset / (size_t)(p.idx / 8);
    const cldnn_solver* s;
    _Alignas(16) unsigned char params[CLDNN_PARAMS_MAX];
    CLDNN_TRY(rd_choose(handle, &p, aDesc, cDesc, &s, params));
    size_t wb = cldnn_engine_workspace(s, &p, params);
    CLDNN_TRY(cldnn_check_scratch(handle, workspace, workspaceOffset, workspaceSizeInBytes, wb,
                                  p.cmp && p.idx == 64 ? 8 : 4, "workspace", "workspaceSizeInBytes",
                                  "cldnnGetReductionWorkspaceSize"));
    size_t es = cldnn_dtype_size(p.dtype);
    p.offa = aOffset / es;
    p.offc = cOffset / es;
    p.alpha = cldnn_scalar_as_float(alpha, p.dtype);
    p.beta = cldnn_scalar_as_float(beta, p.dtype);
    rd_log_cmd(&p, aDesc, cDesc);
    /* Vector loads need A's offset aligned too, and 32-bit arithmetic every offset; neither
    ** changes the workspace. */
    rd_params* q = (rd_params*)params;
    if (p.offa % 4 != 0)
        q->vec = 1;
    uint64_t reach = p.offi + p.M;
    if (p.offa + (uint64_t)aDesc->span > reach)
        reach = p.offa + (uint64_t)aDesc->span;
    if (p.offc + (uint64_t)cDesc->span > reach)
        reach = p.offc + (uint64_t)cDesc->span;
    if (workspaceOffset / 4u + 2u * p.M * (uint64_t)q->G > reach)
        reach = workspaceOffset / 4u + 2u * p.M * (uint64_t)q->G;
    if (reach >= (1ull << 32) - 64)
        q->idx32 = 0;
    rd_buffers b = {A, C, ib > 0 ? indices : NULL, wb > 0 ? workspace : NULL, workspaceOffset};
    return s->run(handle, &p, params, &b);
}
