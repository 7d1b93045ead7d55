/*
** eltwise.c: the elementwise family, out = alpha * f(a, b) + beta * out over one logical shape.
**
** Activations and tensor ops describe their call as a cldnn_elt_problem; this file collapses
** it to the fewest dimensions (dims contiguous in every operand merge, size-1 dims drop out) and
** runs it through two solvers:
**   eltwise_contig   every operand is one packed range with unit stride: VEC elements per
**                    work-item, vector loads when every offset is a multiple of VEC. This is
**                    the bandwidth path (activations on packed tensors, same-layout adds).
**   eltwise_rows     out unit-stride along the innermost dim and each input unit-stride or
**                    broadcast along it (a bias, a per-sample scale, NCHW op NC11): VEC
**                    elements per work-item along rows with any outer strides, the row's offsets
**                    decoded once. The broadcasting path of cldnnOpTensor and cldnnAddTensor.
**   eltwise_tiled    a transpose: out unit-stride along a dim I, a unit-stride along another
**                    dim J (NCHW <-> NHWC): 32 x 32 tiles through local memory so reads
**                    and writes are both coalesced.
**   eltwise_strided  anything else: one work-item per output element, per-operand strides
**                    (stride 0 broadcasts), up to 8 dims.
** Parameters (VEC, work-group size) come from the device profile; 32-bit index arithmetic is
** used whenever every view spans fewer than 2^32 elements. Each solver's parameter set is the
** activation-mode fold, "f1" (default) or "f0" (the mode passed as an argument):
** The op tensor's operation and the dropout's mask mode are build options too (-DBINOP,
** -DMASK_MODE), so each is one kernel source with the loads it needs and no others.
** CLDNN_SOLVER_PARAMS=eltwise_contig:f0 turns it off for comparisons; nothing is tuned.
*/
#include "tensor/eltwise.h"

#include <stdio.h>
#include <string.h>

/* Ints, as the engine's parameter text requires: fold_mode leads, the parameter set ("f%d"); the
** rest follow from the problem and the device (the finish functions). */
typedef struct {
    int fold_mode;  /* 1: build the activation mode into the program (-DACT_MODE); 0: an argument */
    int vec;
    int local;
    int idx32;
} elt_params;

void cldnn_elt_problem_init(cldnn_elt_problem* p, cldnn_elt_op op, cldnnDataType_t dtype, int nd,
                            const int64_t* dims, int nops, const int64_t* const* strides, const size_t* byte_offsets) {
    memset(p, 0, sizeof *p);
    p->op = op;
    p->dtype = dtype;
    p->nops = nops;
    p->alpha = 1.0f;
    size_t es = cldnn_dtype_size(dtype);
    p->count = 1;
    for (int i = 0; i < nd; ++i)
        p->count *= dims[i];
    for (int o = 0; o < nops; ++o) {
        p->offset[o] = byte_offsets[o] / es;
        uint64_t span = 1;
        for (int i = 0; i < nd; ++i)
            span += (uint64_t)(dims[i] - 1) * (uint64_t)strides[o][i];
        p->span[o] = span;
    }
    /* Walk from the innermost dim outwards, merging a dim into the current group when it
    ** continues every operand's layout. */
    int64_t gd[CLDNN_DIM_MAX], gs[3][CLDNN_DIM_MAX];
    int ng = 0;
    for (int i = nd - 1; i >= 0; --i) {
        if (dims[i] == 1)
            continue;
        int merge = ng > 0;
        for (int o = 0; merge && o < nops; ++o)
            merge = strides[o][i] == gs[o][ng - 1] * gd[ng - 1];
        if (merge) {
            gd[ng - 1] *= dims[i];
        } else {
            gd[ng] = dims[i];
            for (int o = 0; o < nops; ++o)
                gs[o][ng] = strides[o][i];
            ng++;
        }
    }
    if (ng == 0) { /* a single element */
        gd[0] = 1;
        for (int o = 0; o < nops; ++o)
            gs[o][0] = 1;
        ng = 1;
    }
    p->nd = ng;
    for (int g = 0; g < ng; ++g) { /* back to outermost-first order */
        p->dims[g] = gd[ng - 1 - g];
        for (int o = 0; o < nops; ++o)
            p->strides[o][g] = gs[o][ng - 1 - g];
    }
}

cldnnStatus_t cldnn_elt_check_alias(const struct cldnnTensorStruct* out, cl_mem om, size_t ooff, const char* oname,
                                    const struct cldnnTensorStruct* in, cl_mem im, size_t ioff, const char* iname) {
    if (om != im)
        return CLDNN_STATUS_SUCCESS;
    uint64_t oend = ooff + (uint64_t)out->span * cldnn_dtype_size(out->dtype);
    uint64_t iend = ioff + (uint64_t)in->span * cldnn_dtype_size(in->dtype);
    if (oend <= ioff || iend <= ooff)
        return CLDNN_STATUS_SUCCESS;
    int same = ooff == ioff && out->nd == in->nd && out->dtype == in->dtype;
    for (int i = 0; same && i < out->nd; ++i)
        same = out->dims[i] == in->dims[i] && out->strides[i] == in->strides[i];
    if (same)
        return CLDNN_STATUS_SUCCESS;
    return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM,
                      "%s overlaps %s in the same buffer without being the same view (in place needs equal "
                      "descriptors and offsets)", oname, iname);
}

cldnnStatus_t cldnn_elt_broadcast_strides(const struct cldnnTensorStruct* in, const char* iname,
                                          const struct cldnnTensorStruct* out, const char* oname, int64_t* strides,
                                          int* broadcast) {
    if (in->nd != out->nd)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, "%s has %d dims but %s has %d", iname, in->nd, oname,
                          out->nd);
    int any = 0;
    for (int i = 0; i < out->nd; ++i) {
        if (in->dims[i] == out->dims[i]) {
            strides[i] = in->strides[i];
        } else if (in->dims[i] == 1) {
            strides[i] = 0;
            any = 1;
        } else {
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, "%s dim %d is %lld: it must be 1 or %s's %lld",
                              iname, i, (long long)in->dims[i], oname, (long long)out->dims[i]);
        }
    }
    if (broadcast != NULL)
        *broadcast = any;
    return CLDNN_STATUS_SUCCESS;
}

/* Whether operand o is the dropout's mask operand (bytes, accessed one at a time). */
static int is_mask_operand(const cldnn_elt_problem* p, int o) { return p->op == CLDNN_ELT_DROPOUT && o == 2; }

static int contig_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    const cldnn_elt_problem* p = (const cldnn_elt_problem*)problem;
    if (p->nd != 1)
        return 0;
    for (int o = 0; o < p->nops; ++o)
        if (p->strides[o][0] != 1)
            return 0;
    return 1;
}

static int strided_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    (void)problem;
    return 1;
}

static int spans_fit_32(const cldnn_elt_problem* p) {
    if ((uint64_t)p->count >= (1ull << 32) - 64)
        return 0;
    for (int o = 0; o < p->nops; ++o)
        if (p->span[o] >= (1ull << 32) - 64)
            return 0;
    return 1;
}

/* 1-d work-group size: 64 on CPUs, 256 on GPUs, never above the device's maximum. */
static size_t group_size(const cldnn_device_profile* dev) {
    size_t l = dev->is_cpu ? 64 : 256;
    return l < dev->max_wg_size ? l : dev->max_wg_size;
}

/* Per-device defaults (measured: see perf/results/). GPUs: 4 floats per work-item in groups of
** 256; CPUs: PoCL vectorizes across work-items, groups of 64 keep scheduling granular. */
static void contig_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    const cldnn_elt_problem* p = (const cldnn_elt_problem*)problem;
    elt_params* q = (elt_params*)params;
    q->vec = 4;
    q->local = (int)group_size(dev);
    for (int o = 0; o < p->nops; ++o)
        while (!is_mask_operand(p, o) && q->vec > 1 && p->offset[o] % (uint64_t)q->vec != 0)
            q->vec /= 2;
    q->idx32 = spans_fit_32(p);
}

/* eltwise_rows: the innermost dim is out's unit stride, and each input's unit stride or a
** broadcast; the mask operand of a dropout (a logical index) must be unit-stride along it. */
static int rows_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    const cldnn_elt_problem* p = (const cldnn_elt_problem*)problem;
    const int in = p->nd - 1;
    if (p->strides[0][in] != 1)
        return 0;
    for (int o = 1; o < p->nops; ++o) {
        int64_t s = p->strides[o][in];
        if (s != 1 && (s != 0 || is_mask_operand(p, o)))
            return 0;
    }
    return 1;
}

/* As contig_finish, with every unit-stride operand's row starts (offset and outer strides) kept
** VEC-aligned. */
static void rows_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    const cldnn_elt_problem* p = (const cldnn_elt_problem*)problem;
    elt_params* q = (elt_params*)params;
    q->vec = 4;
    q->local = (int)group_size(dev);
    for (int o = 0; o < p->nops; ++o) {
        if (is_mask_operand(p, o) || p->strides[o][p->nd - 1] == 0)
            continue;
        uint64_t g = p->offset[o];
        for (int d = 0; d + 1 < p->nd; ++d)
            g |= (uint64_t)p->strides[o][d];
        while (q->vec > 1 && g % (uint64_t)q->vec != 0)
            q->vec /= 2;
    }
    q->idx32 = spans_fit_32(p);
}

static void strided_finish(const void* problem, const cldnn_device_profile* dev, void* params) {
    elt_params* q = (elt_params*)params;
    q->vec = 1;
    q->local = (int)group_size(dev);
    q->idx32 = spans_fit_32((const cldnn_elt_problem*)problem);
}

/* Folding the activation mode into the program: 5x on PoCL (relu 2.1 -> 11.6 GB/s), and on the
** H100 equal or better (identity backward 0.68 -> 1.0 of copy bandwidth: the unused operand's load
** disappears). "f0" turns it off for comparisons. */
static void contig_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    ((elt_params*)params)->fold_mode = 1;
    contig_finish(problem, dev, params);
}

static void rows_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    ((elt_params*)params)->fold_mode = 1;
    rows_finish(problem, dev, params);
}

static void strided_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    ((elt_params*)params)->fold_mode = 1;
    strided_finish(problem, dev, params);
}

/* "f%d": 1 or 0. */
static int fold_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    const int f = ((const elt_params*)params)->fold_mode;
    (void)problem;
    (void)dev;
    return f == 0 || f == 1;
}

/* For comparisons (CLDNN_SOLVER_PARAMS); nothing to tune: no enumerate, and the plain run reads no
** tuning db. */
static const cldnn_param_space contig_space = {
    .text = "f%d", .names = "fold", .valid = fold_valid, .finish = contig_finish};
static const cldnn_param_space rows_space = {
    .text = "f%d", .names = "fold", .valid = fold_valid, .finish = rows_finish};
static const cldnn_param_space strided_space = {
    .text = "f%d", .names = "fold", .valid = fold_valid, .finish = strided_finish};

/* For a problem eltwise_tiled serves: the dim *I along which out has unit stride and the dim *J
** along which a has, different and both at least 8 long. 0 when it does not apply. */
static int tiled_dims(const cldnn_elt_problem* p, int* I, int* J) {
    if (p->nops != 2 || (p->op != CLDNN_ELT_AXPBY && p->op != CLDNN_ELT_ACT_FWD) || p->nd < 2 || p->nd > 8)
        return 0;
    *I = *J = -1;
    for (int d = 0; d < p->nd; ++d) {
        if (p->strides[0][d] == 1 && *I < 0)
            *I = d;
        if (p->strides[1][d] == 1 && *J < 0)
            *J = d;
    }
    return *I >= 0 && *J >= 0 && *I != *J && p->dims[*I] >= 8 && p->dims[*J] >= 8;
}

static int tiled_applicable(const void* problem, const cldnn_device_profile* dev) {
    int I, J;
    /* 32 x 8 work-items and a 32 x 33 float tile */
    return dev->max_wg_size >= 256 && dev->local_mem >= 32 * 33 * 4 &&
           tiled_dims((const cldnn_elt_problem*)problem, &I, &J);
}

static void build_options(const cldnn_elt_problem* p, const elt_params* q, char* buf, size_t size) {
    size_t at = cldnn_appendf(buf, size, 0, "-DOP=%d -DVEC=%d -DIDX_T=%s%s", (int)p->op, q->vec,
                              q->idx32 ? "uint" : "ulong", cldnn_dtype_build_option(p->dtype));
    if (q->fold_mode && (p->op == CLDNN_ELT_ACT_FWD || p->op == CLDNN_ELT_ACT_BWD))
        cldnn_appendf(buf, size, at, " -DACT_MODE=%d -DACT_NANPROP=%d", p->act_mode, p->nan_prop);
    else if (p->op == CLDNN_ELT_BINARY)
        cldnn_appendf(buf, size, at, " -DBINOP=%d", p->binop);
    else if (p->op == CLDNN_ELT_DROPOUT)
        cldnn_appendf(buf, size, at, " -DMASK_MODE=%d", p->mask_mode);
}

/* The dropout generator's arguments (zeros for other ops), last in every kernel but the tiled. */
static void gen_args(const cldnn_elt_problem* p, cl_uint4* gen, cl_uint* thresh) {
    for (int i = 0; i < 4; ++i)
        gen->s[i] = p->gen[i];
    *thresh = p->threshold;
}


/* The buffers and offsets of operands 0..2, with unused operands (and a dropout's absent
** reserve, whose strides only index the mask) aliased to the output. */
static void operands(const cldnn_elt_problem* p, const cldnn_elt_buffers* b, cl_mem mem[3], cl_ulong off[3]) {
    for (int o = 0; o < 3; ++o) {
        int used = o < p->nops && b->mem[o] != NULL;
        mem[o] = used ? b->mem[o] : b->mem[0];
        off[o] = used ? (cl_ulong)p->offset[o] : (cl_ulong)p->offset[0];
    }
}

/* What every run function starts with: the kernel `name` built for (p, q), and the operands. */
static cldnnStatus_t elt_prepare(cldnnHandle_t h, const cldnn_elt_problem* p, const elt_params* q, const char* name,
                                 const void* buffers, cl_kernel* k, cl_mem mem[3], cl_ulong off[3]) {
    /* What build_options reads, and the kernel's name (a static string). */
    const int64_t id[] = {(int64_t)(intptr_t)name, p->op, q->vec, q->idx32, p->dtype, q->fold_mode,
                          p->act_mode, p->nan_prop, p->binop, p->mask_mode};
    if (!cldnn_kernel_memo_get(h, id, sizeof id, k)) {
        char opts[256];
        build_options(p, q, opts, sizeof opts);
        CLDNN_TRY(cldnn_kernel_get(h, "eltwise/eltwise.cl", opts, name, k));
        cldnn_kernel_memo_put(h, id, sizeof id, *k);
    }
    operands(p, (const cldnn_elt_buffers*)buffers, mem, off);
    return CLDNN_STATUS_SUCCESS;
}

/* Dims 0..nd-1 of p and every operand's strides along them as the kernels' long8 vectors,
** innermost first, padded with size 1 and stride 0 (unused operands take out's strides). */
static void pack_dims(const cldnn_elt_problem* p, int nd, cl_long8* dims, cl_long8 str[3]) {
    for (int i = 0; i < 8; ++i) {
        int d = nd - 1 - i;
        dims->s[i] = d >= 0 ? p->dims[d] : 1;
        for (int o = 0; o < 3; ++o)
            str[o].s[i] = d >= 0 ? (o < p->nops ? p->strides[o][d] : p->strides[0][d]) : 0;
    }
}

static cldnnStatus_t contig_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_elt_problem* p = (const cldnn_elt_problem*)problem;
    const elt_params* q = (const elt_params*)params;
    cl_kernel k;
    cl_mem mem[3];
    cl_ulong off[3];
    CLDNN_TRY(elt_prepare(h, p, q, "eltwise_contig", buffers, &k, mem, off));
    cl_ulong n = (cl_ulong)p->count;
    cl_int mode = p->act_mode, nanprop = p->nan_prop;
    cl_uint4 gen;
    cl_uint thresh;
    gen_args(p, &gen, &thresh);
    /* eltwise_contig's list (kernels/eltwise/eltwise.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(n), CLDNN_ARG(mem[0]), CLDNN_ARG(off[0]), CLDNN_ARG(mem[1]),
                                CLDNN_ARG(off[1]), CLDNN_ARG(mem[2]), CLDNN_ARG(off[2]), CLDNN_ARG(p->alpha),
                                CLDNN_ARG(p->beta), CLDNN_ARG(mode), CLDNN_ARG(p->coef), CLDNN_ARG(p->coef2),
                                CLDNN_ARG(nanprop), CLDNN_ARG(gen), CLDNN_ARG(thresh)));
    uint64_t items = ((uint64_t)p->count + (uint64_t)q->vec - 1) / (uint64_t)q->vec;
    return cldnn_enqueue_1d(h, k, items, (size_t)q->local, "eltwise_contig");
}

static cldnnStatus_t strided_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_elt_problem* p = (const cldnn_elt_problem*)problem;
    const elt_params* q = (const elt_params*)params;
    cl_kernel k;
    cl_mem mem[3];
    cl_ulong off[3];
    CLDNN_TRY(elt_prepare(h, p, q, "eltwise_strided", buffers, &k, mem, off));
    cl_long8 dims, str[3];
    pack_dims(p, p->nd, &dims, str);
    cl_ulong n = (cl_ulong)p->count;
    cl_int nd = p->nd, mode = p->act_mode, nanprop = p->nan_prop;
    cl_uint4 gen;
    cl_uint thresh;
    gen_args(p, &gen, &thresh);
    /* eltwise_strided's list (kernels/eltwise/eltwise.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(n), CLDNN_ARG(nd), CLDNN_ARG(dims), CLDNN_ARG(mem[0]),
                                CLDNN_ARG(off[0]), CLDNN_ARG(str[0]), CLDNN_ARG(mem[1]), CLDNN_ARG(off[1]),
                                CLDNN_ARG(str[1]), CLDNN_ARG(mem[2]), CLDNN_ARG(off[2]), CLDNN_ARG(str[2]),
                                CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(mode), CLDNN_ARG(p->coef),
                                CLDNN_ARG(p->coef2), CLDNN_ARG(nanprop), CLDNN_ARG(gen), CLDNN_ARG(thresh)));
    return cldnn_enqueue_1d(h, k, (uint64_t)p->count, (size_t)q->local, "eltwise_strided");
}

static cldnnStatus_t rows_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_elt_problem* p = (const cldnn_elt_problem*)problem;
    const elt_params* q = (const elt_params*)params;
    cl_kernel k;
    cl_mem mem[3];
    cl_ulong off[3];
    CLDNN_TRY(elt_prepare(h, p, q, "eltwise_rows", buffers, &k, mem, off));
    const int in = p->nd - 1;
    cl_long8 dims, str[3];
    pack_dims(p, in, &dims, str); /* the outer dims */
    cl_ulong inner = (cl_ulong)p->dims[in], chunks = (inner + (cl_ulong)q->vec - 1) / (cl_ulong)q->vec;
    cl_ulong n = (cl_ulong)(p->count / p->dims[in]) * chunks;
    cl_int nd = in, mode = p->act_mode, nanprop = p->nan_prop;
    cl_int a_unit = p->nops > 1 && p->strides[1][in] == 1, b_unit = p->nops > 2 && p->strides[2][in] == 1;
    cl_uint4 gen;
    cl_uint thresh;
    gen_args(p, &gen, &thresh);
    /* eltwise_rows's list (kernels/eltwise/eltwise.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(n), CLDNN_ARG(inner), CLDNN_ARG(chunks), CLDNN_ARG(nd),
                                CLDNN_ARG(dims), CLDNN_ARG(mem[0]), CLDNN_ARG(off[0]), CLDNN_ARG(str[0]),
                                CLDNN_ARG(mem[1]), CLDNN_ARG(off[1]), CLDNN_ARG(str[1]), CLDNN_ARG(a_unit),
                                CLDNN_ARG(mem[2]), CLDNN_ARG(off[2]), CLDNN_ARG(str[2]), CLDNN_ARG(b_unit),
                                CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(mode), CLDNN_ARG(p->coef),
                                CLDNN_ARG(p->coef2), CLDNN_ARG(nanprop), CLDNN_ARG(gen), CLDNN_ARG(thresh)));
    return cldnn_enqueue_1d(h, k, (uint64_t)n, (size_t)q->local, "eltwise_rows");
}

static cldnnStatus_t tiled_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_elt_problem* p = (const cldnn_elt_problem*)problem;
    const elt_params* q = (const elt_params*)params;
    cl_kernel k;
    cl_mem mem[3];
    cl_ulong off[3];
    CLDNN_TRY(elt_prepare(h, p, q, "eltwise_tiled", buffers, &k, mem, off));
    int I, J;
    if (!tiled_dims(p, &I, &J))
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR, "eltwise_tiled run on a problem it does not serve");
    cl_ulong ni = (cl_ulong)p->dims[I], nj = (cl_ulong)p->dims[J];
    cl_long so_j = p->strides[0][J], sa_i = p->strides[1][I];
    cl_long8 rdims, ro, ra;
    cl_int nrest = 0;
    uint64_t rest = 1;
    for (int i = 0; i < 8; ++i) {
        rdims.s[i] = 1;
        ro.s[i] = ra.s[i] = 0;
    }
    for (int d = p->nd - 1; d >= 0; --d) { /* innermost first, skipping I and J */
        if (d == I || d == J)
            continue;
        rdims.s[nrest] = p->dims[d];
        ro.s[nrest] = p->strides[0][d];
        ra.s[nrest] = p->strides[1][d];
        rest *= (uint64_t)p->dims[d];
        nrest++;
    }
    cl_int mode = p->act_mode, nanprop = p->nan_prop;
    /* eltwise_tiled's list (kernels/eltwise/eltwise.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(ni), CLDNN_ARG(nj), CLDNN_ARG(mem[0]), CLDNN_ARG(off[0]),
                                CLDNN_ARG(so_j), CLDNN_ARG(mem[1]), CLDNN_ARG(off[1]), CLDNN_ARG(sa_i),
                                CLDNN_ARG(nrest), CLDNN_ARG(rdims), CLDNN_ARG(ro), CLDNN_ARG(ra), CLDNN_ARG(p->alpha),
                                CLDNN_ARG(p->beta), CLDNN_ARG(mode), CLDNN_ARG(p->coef), CLDNN_ARG(p->coef2),
                                CLDNN_ARG(nanprop)));
    /* TILE 32 x TILE_ROWS 8: the kernel's defaults. */
    uint64_t global[3] = {((ni + 31) / 32) * 32, ((nj + 31) / 32) * 8, rest};
    size_t local[3] = {32, 8, 1};
    return cldnn_enqueue_nd(h, k, 3, global, local, "eltwise_tiled");
}

/* Preference order: the first applicable solver runs. */
static const cldnn_solver elt_solvers[] = {
    {.name = "eltwise_contig", .algo = -1, .applicable = contig_applicable, .default_params = contig_defaults,
     .params_size = sizeof(elt_params), .run = contig_run, .space = &contig_space},
    {.name = "eltwise_rows", .algo = -1, .applicable = rows_applicable, .default_params = rows_defaults,
     .params_size = sizeof(elt_params), .run = rows_run, .space = &rows_space},
    {.name = "eltwise_tiled", .algo = -1, .applicable = tiled_applicable, .default_params = strided_defaults,
     .params_size = sizeof(elt_params), .run = tiled_run, .space = &strided_space},
    {.name = "eltwise_strided", .algo = -1, .applicable = strided_applicable, .default_params = strided_defaults,
     .params_size = sizeof(elt_params), .run = strided_run, .space = &strided_space},
};

cldnnStatus_t cldnn_elt_run(cldnnHandle_t h, const cldnn_elt_problem* p, const cldnn_elt_buffers* b, const char* key) {
    return cldnn_solver_run_default(h, elt_solvers, sizeof elt_solvers / sizeof elt_solvers[0], p, b, key);
}
