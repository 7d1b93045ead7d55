/*
** conv_direct.c: direct convolution kernels (kernels/conv/conv_direct.cl) for the problems a
** GEMM tile serves badly, and the bias gradient.
**
**   direct     one input channel per group (depthwise, any channel multiplier, and C = 1 first
**              layers): one work-item per output element (forward) or per input element
**              (backward-data, gathering, so deterministic), or per output row on narrow planes,
**              or a tile through local memory on wide ones; backward-filter sums each image's
**              taps in one work-group (R*S <= 49 accumulators in registers) into the workspace
**              (N*K*R*S floats) and adds the images in a fixed order. These layers are
**              bandwidth-bound; a GEMM of width C/G = 1 would waste most of each tile.
**   bias       db(k) = alpha * sum over n, p, q of dy + beta * db: one work-group per channel,
**              a fixed-order tree (deterministic).
** HALF and BFLOAT16 data: the same kernels with cldnn_dtype_build_option (16-bit values loaded as
** float, outputs rounded once);
** the per-image partial sums stay float.
*/
#include "conv/conv.h"

#include <stdio.h>

int cldnn_conv_is_depthwise(const cldnn_conv_problem* p) {
    return p->cg == 1;
}

/* Backward-filter keeps every tap's sum in registers: filters up to this many taps. */
#define DW_FILTER_TAPS_MAX 64

/* Backward-filter's work-group: a power of two with about 4 output pixels per work-item, at
** least one work-item per tap (the last tree level hands a tap to each), the trees (WG x taps
** floats) within 32 KiB and the device's local memory; 0 when no size fits the device. */
static int bwd_filter_wg(const cldnn_conv_problem* p, const cldnn_device_profile* dev) {
    const int taps = p->r * p->s;
    int wg = 32;
    while (wg < 256 && wg * 4 < p->p * p->q)
        wg *= 2;
    while (wg < taps)
        wg *= 2;
    while (wg > 32 && wg > taps && (wg * taps * 4 > 32768 || (uint64_t)wg * taps * 4 > dev->local_mem))
        wg /= 2;
    while (wg > 1 && (size_t)wg > dev->max_wg_size)
        wg /= 2;
    if (wg < taps || (uint64_t)wg * taps * 4 > dev->local_mem || wg * taps * 4 > 65536)
        return 0;
    return wg;
}

int cldnn_conv_direct_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    if (!cldnn_conv_is_depthwise(p))
        return 0;
    return p->dir != CLDNN_CONV_BWD_FILTER || (p->r * p->s <= DW_FILTER_TAPS_MAX && bwd_filter_wg(p, dev) > 0);
}

size_t cldnn_conv_direct_workspace(const void* problem, const void* params) {
    (void)params;
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    if (p->dir != CLDNN_CONV_BWD_FILTER)
        return 0;
    return (size_t)p->n * (size_t)p->k * (size_t)p->r * (size_t)p->s * 4u;
}

/* Per-image partial tap sums into the workspace, then their fixed-order sum into dw. */
static cldnnStatus_t direct_bwd_filter(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b) {
    const int wg = bwd_filter_wg(p, &h->prof);
    char opts[96];
    snprintf(opts, sizeof opts, "-DCHLAST=0 -DKORD=0 -DWG=%d -DDW_BWD_FILTER=1 -DFR=%d -DFS=%d%s", wg, p->r, p->s,
             cldnn_dtype_build_option(p->dtype));
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_direct.cl", opts, "conv_dw_bwd_filter", &k));
    const cldnn_conv_values v = cldnn_conv_values_of(p);
    cl_ulong op = b->ws_off / 4;
    cl_uint4 dv_q = cldnn_fastdiv((uint32_t)p->q), dv_kg = cldnn_fastdiv((uint32_t)p->kg);
    /* conv_dw_bwd_filter (kernels/conv/conv_direct.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(v.K), CLDNN_ARG(v.P), CLDNN_ARG(v.Q), CLDNN_ARG(b->x),
                                CLDNN_ARG(v.x_off), CLDNN_ARG(v.xs), CLDNN_ARG(b->y), CLDNN_ARG(v.y_off),
                                CLDNN_ARG(v.ys), CLDNN_ARG(b->ws), CLDNN_ARG(op), CLDNN_ARG(v.H), CLDNN_ARG(v.Wd),
                                CLDNN_ARG(v.Kg), CLDNN_ARG(v.pad_h), CLDNN_ARG(v.pad_w), CLDNN_ARG(v.su),
                                CLDNN_ARG(v.sv), CLDNN_ARG(v.dil_h), CLDNN_ARG(v.dil_w), CLDNN_ARG(v.flip),
                                CLDNN_ARG(dv_q), CLDNN_ARG(dv_kg)));
    CLDNN_TRY(cldnn_enqueue_1d(h, k, (uint64_t)p->n * (uint64_t)p->k * (uint64_t)wg, (size_t)wg, "conv_dw_bwd_filter"));
    return cldnn_gemm_reduce_partials(h, b->ws, b->ws_off / 4, p->n, (int64_t)p->k * p->r * p->s, p->alpha, p->beta,
                                      b->w, p->off_w, p->dtype);
}

/* conv_dw_fwd_tiled: a tx x ty work-group computing tx x (ty * opy) outputs per plane tile
** (tile_of), the staged input region sized exactly (its local memory decides how many groups
** share a compute unit). */
/* The row kernel's output row capacity for p (0: the row kernel does not serve p): planes of at
** most 14 columns at column stride 1, dilation <= 2, filters up to 7 wide. On the H100
** (MobileNet-v1, batch 32; rows against the next kernel in line): forward 7x7 0.024 -> 0.016 ms,
** backward-data 7x7 0.034 -> 0.016 and 14x14 0.054 -> 0.045; but 28-column rows (28 accumulators
** and 30 inputs per work-item) ran 1.5x slower, and stride 2 at 14 columns 1.5x slower. */
static int rows_qmax(const cldnn_conv_problem* p) {
    if (p->q > 14 || p->v != 1 || p->dil_w > 2 || p->s > 7 || p->r > 7)
        return 0;
    return p->q <= 7 ? 7 : 14;
}

/* One work-item per output row: conv_dw_fwd_rows (QMAX outputs in registers, planes of up to 14
** columns), or on CPU devices conv_dw_fwd_vec (any row, in vectors of DW_VEC outputs, work-groups
** of 1 that PoCL runs without a work-item loop). */
#define DW_VEC 8
static cldnnStatus_t direct_fwd_rows(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b,
                                     int vec) {
    char opts[224];
    snprintf(opts, sizeof opts, "-DCHLAST=0 -DKORD=0 -DWG=256 -DFR=%d -DFS=%d -D%s=%d -DSV=%d -DDW=%d%s", p->r, p->s,
             vec ? "DWV" : "QMAX", vec ? DW_VEC : rows_qmax(p), p->v, p->dil_w, cldnn_dtype_build_option(p->dtype));
    cldnn_epilogue_options(p->epi, opts, sizeof opts);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_direct.cl", opts, vec ? "conv_dw_fwd_vec" : "conv_dw_fwd_rows", &k));
    cl_int total = (cl_int)((int64_t)p->n * p->k * p->p);
    const cldnn_conv_values v = cldnn_conv_values_of(p);
    cl_uint4 dv_p = cldnn_fastdiv((uint32_t)p->p), dv_k = cldnn_fastdiv((uint32_t)p->k);
    cl_uint4 dv_kg = cldnn_fastdiv((uint32_t)p->kg);
    /* conv_dw_fwd_rows and conv_dw_fwd_vec (kernels/conv/conv_direct.cl), in their order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(total), CLDNN_ARG(v.K), CLDNN_ARG(v.P), CLDNN_ARG(v.Q),
                                CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(b->x), CLDNN_ARG(v.x_off),
                                CLDNN_ARG(v.xs), CLDNN_ARG(b->w), CLDNN_ARG(v.w_off), CLDNN_ARG(b->y),
                                CLDNN_ARG(v.y_off), CLDNN_ARG(v.ys), CLDNN_ARG(v.H), CLDNN_ARG(v.Wd),
                                CLDNN_ARG(v.pad_h), CLDNN_ARG(v.pad_w), CLDNN_ARG(v.su), CLDNN_ARG(v.dil_h),
                                CLDNN_ARG(v.flip), CLDNN_ARG(dv_p), CLDNN_ARG(dv_k), CLDNN_ARG(dv_kg)));
    CLDNN_TRY(cldnn_epilogue_args(k, p->epi));
    return cldnn_enqueue_1d(h, k, (uint64_t)total, vec ? 1 : cldnn_pow2_group(&h->prof, h->prof.is_cpu ? 64 : 128),
                            vec ? "conv_dw_fwd_vec" : "conv_dw_fwd_rows");
}

/* Tile shape by plane width: 32 x 8 work-items on wide planes (4 output rows each from 64 rows
** up, else 2), 16 x 16 on planes of 12 to 31 columns, 8 x 8 below (one output each). */
typedef struct {
    int tx, ty, opy;
} tile_shape;

static tile_shape tile_of(const cldnn_conv_problem* p) {
    tile_shape t;
    if (p->q >= 32) {
        t.tx = 32, t.ty = 8, t.opy = p->p >= 64 ? 4 : 2;
    } else if (p->q >= 12) {
        t.tx = 16, t.ty = 16, t.opy = 1;
    } else {
        t.tx = 8, t.ty = 8, t.opy = 1;
    }
    return t;
}

/* Floats of the staged input region of one tile of p. */
static int64_t tile_region(const cldnn_conv_problem* p) {
    const tile_shape t = tile_of(p);
    const int64_t tw = (int64_t)(t.tx - 1) * p->v + (int64_t)(p->s - 1) * p->dil_w + 1;
    const int64_t th = (int64_t)(t.ty * t.opy - 1) * p->u + (int64_t)(p->r - 1) * p->dil_h + 1;
    return tw * th;
}

/* Whether the tiled kernel serves p on dev: its region within 32 KiB and the device's local memory. */
static int tile_fits(const cldnn_conv_problem* p, const cldnn_device_profile* dev) {
    const tile_shape t = tile_of(p);
    const int64_t bytes = tile_region(p) * 4;
    return bytes <= 32768 && (uint64_t)bytes <= (uint64_t)dev->local_mem && dev->max_wg_size >= (size_t)(t.tx * t.ty);
}

static cldnnStatus_t direct_fwd_tiled(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b) {
    const tile_shape ts = tile_of(p);
    const int tx = ts.tx, ty = ts.ty, opy = ts.opy;
    const int tw = (tx - 1) * p->v + (p->s - 1) * p->dil_w + 1;
    const int th = (ty * opy - 1) * p->u + (p->r - 1) * p->dil_h + 1;
    char opts[224];
    snprintf(opts, sizeof opts,
             "-DCHLAST=0 -DKORD=0 -DWG=256 -DDW_TILED=1 -DFR=%d -DFS=%d -DTX=%d -DTY=%d -DOPY=%d -DDW_LOCAL=%d%s",
             p->r, p->s, tx, ty, opy, tw * th, cldnn_dtype_build_option(p->dtype));
    cldnn_epilogue_options(p->epi, opts, sizeof opts);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_direct.cl", opts, "conv_dw_fwd_tiled", &k));
    const cldnn_conv_values v = cldnn_conv_values_of(p);
    cl_uint4 dv_kg = cldnn_fastdiv((uint32_t)p->kg);
    /* conv_dw_fwd_tiled (kernels/conv/conv_direct.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(v.K), CLDNN_ARG(v.P), CLDNN_ARG(v.Q), CLDNN_ARG(p->alpha),
                                CLDNN_ARG(p->beta), CLDNN_ARG(b->x), CLDNN_ARG(v.x_off), CLDNN_ARG(v.xs),
                                CLDNN_ARG(b->w), CLDNN_ARG(v.w_off), CLDNN_ARG(b->y), CLDNN_ARG(v.y_off),
                                CLDNN_ARG(v.ys), CLDNN_ARG(v.H), CLDNN_ARG(v.Wd), CLDNN_ARG(v.Kg), CLDNN_ARG(v.pad_h),
                                CLDNN_ARG(v.pad_w), CLDNN_ARG(v.su), CLDNN_ARG(v.sv), CLDNN_ARG(v.dil_h),
                                CLDNN_ARG(v.dil_w), CLDNN_ARG(v.flip), CLDNN_ARG(dv_kg)));
    CLDNN_TRY(cldnn_epilogue_args(k, p->epi));
    uint64_t global[3] = {(uint64_t)((p->q + tx - 1) / tx) * (uint64_t)tx,
                          (uint64_t)((p->p + ty * opy - 1) / (ty * opy)) * (uint64_t)ty,
                          (uint64_t)p->n * (uint64_t)p->k};
    size_t local[3] = {(size_t)tx, (size_t)ty, 1};
    return cldnn_enqueue_nd(h, k, 3, global, local, "conv_dw_fwd_tiled");
}

cldnnStatus_t cldnn_conv_direct_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const cldnn_conv_buffers* b = (const cldnn_conv_buffers*)buffers;
    (void)params;
    if (p->dir == CLDNN_CONV_BWD_FILTER)
        return direct_bwd_filter(h, p, b);
    /* NCHW-strided planes go through the tiled kernel: forward from 32 columns up, and
    ** backward-data at unit stride with one output channel per input channel (the forward of dy
    ** with the flipped filter and padding (R-1)*dil - pad), whose one-work-item-per-element
    ** gather is slower on every plane size. On the H100 (MobileNet-v1, batch 32): forward
    ** 112x112 0.128 -> 0.111 ms tiled, but 14x14 0.045 -> 0.055 (kept direct); backward-data
    ** 14x14 0.068 -> 0.055. Channel-last tensors keep one work-item per output. */
    /* CPU devices: rows of NCHW planes as vectors, for the forward and for backward-data as the
    ** forward of dy below (local-memory tiles and per-element work-items are loops there). */
    const int cpu = h->prof.is_cpu;
    if (p->r * p->s <= DW_FILTER_TAPS_MAX) {
        if (cpu && p->dir == CLDNN_CONV_FWD && p->xs[1] != 1 && p->ys[1] != 1)
            return direct_fwd_rows(h, p, b, 1);
        if (p->dir == CLDNN_CONV_FWD && p->ys[1] != 1 && p->q >= 32 && tile_fits(p, &h->prof))
            return direct_fwd_tiled(h, p, b);
        if (p->dir == CLDNN_CONV_FWD && p->xs[1] != 1 && rows_qmax(p))
            return direct_fwd_rows(h, p, b, 0);
        if (p->dir == CLDNN_CONV_BWD_DATA && p->xs[1] != 1 && p->u == 1 && p->v == 1 && p->kg == 1) {
            cldnn_conv_problem t = *p;
            t.h = p->p, t.w = p->q, t.p = p->h, t.q = p->w;
            t.pad_h = (p->r - 1) * p->dil_h - p->pad_h;
            t.pad_w = (p->s - 1) * p->dil_w - p->pad_w;
            t.flip = !p->flip;
            for (int i = 0; i < 4; ++i)
                t.xs[i] = p->ys[i], t.ys[i] = p->xs[i];
            t.off_x = p->off_y, t.off_y = p->off_x;
            cldnn_conv_buffers tb = *b;
            tb.x = b->y, tb.y = b->x;
            if (cpu)
                return direct_fwd_rows(h, &t, &tb, 1);
            if (rows_qmax(&t) && t.xs[1] != 1)
                return direct_fwd_rows(h, &t, &tb, 0);
            if (tile_fits(&t, &h->prof))
                return direct_fwd_tiled(h, &t, &tb);
        }
    }
    const int fwd = p->dir == CLDNN_CONV_FWD;
    /* Walk the written tensor in its memory order: channel fastest when its channel stride is 1. */
    const int64_t* os = fwd ? p->ys : p->xs;
    const int chlast = os[1] == 1 && (fwd ? p->k : p->c) > 1;
    char opts[160];
    snprintf(opts, sizeof opts, "-DCHLAST=%d -DKORD=0 -DWG=256%s", chlast, cldnn_dtype_build_option(p->dtype));
    cldnn_epilogue_options(p->epi, opts, sizeof opts);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_direct.cl", opts, fwd ? "conv_dw_fwd" : "conv_dw_bwd_data", &k));
    const int ch = fwd ? p->k : p->c, rows = fwd ? p->p : p->h, cols = fwd ? p->q : p->w;
    cl_int total = (cl_int)((int64_t)p->n * ch * rows * cols);
    cl_uint4 dv0 = cldnn_fastdiv((uint32_t)(chlast ? ch : cols));
    cl_uint4 dv1 = cldnn_fastdiv((uint32_t)(chlast ? cols : rows));
    cl_uint4 dv2 = cldnn_fastdiv((uint32_t)(chlast ? rows : ch));
    const cldnn_conv_values v = cldnn_conv_values_of(p);
    if (fwd) {
        cl_uint4 dv_kg = cldnn_fastdiv((uint32_t)p->kg);
        /* conv_dw_fwd (kernels/conv/conv_direct.cl), in its order. */
        CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(total), CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(b->x),
                                    CLDNN_ARG(v.x_off), CLDNN_ARG(v.xs), CLDNN_ARG(b->w), CLDNN_ARG(v.w_off),
                                    CLDNN_ARG(b->y), CLDNN_ARG(v.y_off), CLDNN_ARG(v.ys), CLDNN_ARG(v.H),
                                    CLDNN_ARG(v.Wd), CLDNN_ARG(v.R), CLDNN_ARG(v.S), CLDNN_ARG(v.Kg),
                                    CLDNN_ARG(v.pad_h), CLDNN_ARG(v.pad_w), CLDNN_ARG(v.su), CLDNN_ARG(v.sv),
                                    CLDNN_ARG(v.dil_h), CLDNN_ARG(v.dil_w), CLDNN_ARG(v.flip), CLDNN_ARG(dv0),
                                    CLDNN_ARG(dv1), CLDNN_ARG(dv2), CLDNN_ARG(dv_kg)));
        CLDNN_TRY(cldnn_epilogue_args(k, p->epi));
    } else {
        cl_uint4 dv_u = cldnn_fastdiv((uint32_t)p->u), dv_v = cldnn_fastdiv((uint32_t)p->v);
        /* conv_dw_bwd_data (kernels/conv/conv_direct.cl), in its order: dx, w, dy, then dy's
        ** plane where the forward kernel takes x's. */
        CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(total), CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(b->x),
                                    CLDNN_ARG(v.x_off), CLDNN_ARG(v.xs), CLDNN_ARG(b->w), CLDNN_ARG(v.w_off),
                                    CLDNN_ARG(b->y), CLDNN_ARG(v.y_off), CLDNN_ARG(v.ys), CLDNN_ARG(v.P),
                                    CLDNN_ARG(v.Q), CLDNN_ARG(v.R), CLDNN_ARG(v.S), CLDNN_ARG(v.Kg),
                                    CLDNN_ARG(v.pad_h), CLDNN_ARG(v.pad_w), CLDNN_ARG(v.su), CLDNN_ARG(v.sv),
                                    CLDNN_ARG(v.dil_h), CLDNN_ARG(v.dil_w), CLDNN_ARG(v.flip), CLDNN_ARG(dv0),
                                    CLDNN_ARG(dv1), CLDNN_ARG(dv2), CLDNN_ARG(dv_u), CLDNN_ARG(dv_v)));
    }
    return cldnn_enqueue_1d(h, k, (uint64_t)total, cldnn_free_group(&h->prof), fwd ? "conv_dw_fwd" : "conv_dw_bwd_data");
}

cldnnStatus_t cldnn_conv_bias_run(cldnnHandle_t h, const struct cldnnTensorStruct* dy, cl_mem dym, uint64_t dy_off,
                                  const struct cldnnTensorStruct* db, cl_mem dbm, uint64_t db_off, float alpha,
                                  float beta) {
    const int wg = (int)cldnn_pow2_group(&h->prof, 256); /* the tree takes any power of two */
    char opts[80];
    snprintf(opts, sizeof opts, "-DCHLAST=0 -DKORD=0 -DWG=%d%s", wg, cldnn_dtype_build_option(dy->dtype));
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_direct.cl", opts, "conv_bwd_bias", &k));
    cl_int N = (cl_int)dy->dims[0], P = (cl_int)dy->dims[2], Q = (cl_int)dy->dims[3];
    cl_long4 ys = {{dy->strides[0], dy->strides[1], dy->strides[2], dy->strides[3]}};
    cl_ulong oy = dy_off, ob = db_off;
    cl_long dbs = db->strides[1];
    cl_uint4 dv_pq = cldnn_fastdiv((uint32_t)(P * Q)), dv_q = cldnn_fastdiv((uint32_t)Q);
    /* conv_bwd_bias (kernels/conv/conv_direct.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(N), CLDNN_ARG(P), CLDNN_ARG(Q), CLDNN_ARG(alpha), CLDNN_ARG(beta),
                                CLDNN_ARG(dym), CLDNN_ARG(oy), CLDNN_ARG(ys), CLDNN_ARG(dbm), CLDNN_ARG(ob),
                                CLDNN_ARG(dbs), CLDNN_ARG(dv_pq), CLDNN_ARG(dv_q)));
    return cldnn_enqueue_1d(h, k, (uint64_t)dy->dims[1] * (uint64_t)wg, (size_t)wg, "conv_bwd_bias");
}
