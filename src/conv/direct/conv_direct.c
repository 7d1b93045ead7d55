/*
** conv_direct.c: direct convolution kernels (kernels/conv/conv_direct.cl) for the problems a
** GEMM tile serves badly, and the bias gradient.
**
**   direct     one input channel per group (depthwise, any channel multiplier, and C = 1 first
**              layers): one work-item per output element (forward) or per input element
**              (backward-data, gathering, so deterministic). These layers are bandwidth-bound;
**              a GEMM of width C/G = 1 would waste most of each tile.
**   bias       db(k) = alpha * sum over n, p, q of dy + beta * db: one work-group per channel,
**              a fixed-order tree (deterministic).
*/
#include "internal.h"

#include <stdio.h>

int cldnn_conv_is_depthwise(const cldnn_conv_problem* p) {
    return p->cg == 1;
}

int cldnn_conv_direct_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    (void)dev;
    return cldnn_conv_is_depthwise(p) && p->dir != CLDNN_CONV_BWD_FILTER;
}

cldnnStatus_t cldnn_conv_direct_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const cldnn_conv_buffers* b = (const cldnn_conv_buffers*)buffers;
    (void)params;
    const int fwd = p->dir == CLDNN_CONV_FWD;
    /* Walk the written tensor in its memory order: channel fastest when its channel stride is 1. */
    const int64_t* os = fwd ? p->ys : p->xs;
    const int chlast = os[1] == 1 && (fwd ? p->k : p->c) > 1;
    char opts[64];
    snprintf(opts, sizeof opts, "-DCHLAST=%d -DKORD=0 -DWG=256", chlast);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_direct.cl", opts, fwd ? "conv_dw_fwd" : "conv_dw_bwd_data", &k));
    const int ch = fwd ? p->k : p->c, rows = fwd ? p->p : p->h, cols = fwd ? p->q : p->w;
    cl_int total = (cl_int)((int64_t)p->n * ch * rows * cols);
    cl_uint4 dv0 = cldnn_fastdiv((uint32_t)(chlast ? ch : cols));
    cl_uint4 dv1 = cldnn_fastdiv((uint32_t)(chlast ? cols : rows));
    cl_uint4 dv2 = cldnn_fastdiv((uint32_t)(chlast ? rows : ch));
    cl_long4 xs = {{p->xs[0], p->xs[1], p->xs[2], p->xs[3]}};
    cl_long4 ys = {{p->ys[0], p->ys[1], p->ys[2], p->ys[3]}};
    cl_ulong ox = p->off_x, ow = p->off_w, oy = p->off_y;
    int a = 0;
    CLDNN_SETARG(k, a++, total);
    CLDNN_SETARG(k, a++, p->alpha);
    CLDNN_SETARG(k, a++, p->beta);
    CLDNN_SETARG(k, a++, b->x);
    CLDNN_SETARG(k, a++, ox);
    CLDNN_SETARG(k, a++, xs);
    CLDNN_SETARG(k, a++, b->w);
    CLDNN_SETARG(k, a++, ow);
    CLDNN_SETARG(k, a++, b->y);
    CLDNN_SETARG(k, a++, oy);
    CLDNN_SETARG(k, a++, ys);
    cl_int sizes[] = {fwd ? p->h : p->p, fwd ? p->w : p->q, p->r, p->s, p->kg, p->pad_h, p->pad_w, p->u, p->v,
                      p->dil_h, p->dil_w, p->flip};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        CLDNN_SETARG(k, a++, sizes[i]);
    CLDNN_SETARG(k, a++, dv0);
    CLDNN_SETARG(k, a++, dv1);
    CLDNN_SETARG(k, a++, dv2);
    if (!fwd) {
        cl_uint4 dv_u = cldnn_fastdiv((uint32_t)p->u), dv_v = cldnn_fastdiv((uint32_t)p->v);
        CLDNN_SETARG(k, a++, dv_u);
        CLDNN_SETARG(k, a++, dv_v);
    }
    return cldnn_enqueue_1d(h, k, (uint64_t)total, h->prof.is_cpu ? 64 : 256, fwd ? "conv_dw_fwd" : "conv_dw_bwd_data");
}

cldnnStatus_t cldnn_conv_bias_run(cldnnHandle_t h, const struct cldnnTensorStruct* dy, cl_mem dym, uint64_t dy_off,
                                  const struct cldnnTensorStruct* db, cl_mem dbm, uint64_t db_off, float alpha,
                                  float beta) {
    const int wg = h->prof.max_wg_size >= 256 ? 256 : 64;
    char opts[64];
    snprintf(opts, sizeof opts, "-DCHLAST=0 -DKORD=0 -DWG=%d", wg);
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/conv_direct.cl", opts, "conv_bwd_bias", &k));
    cl_int N = (cl_int)dy->dims[0], P = (cl_int)dy->dims[2], Q = (cl_int)dy->dims[3];
    cl_long4 ys = {{dy->strides[0], dy->strides[1], dy->strides[2], dy->strides[3]}};
    cl_ulong oy = dy_off, ob = db_off;
    cl_long dbs = db->strides[1];
    cl_uint4 dv_pq = cldnn_fastdiv((uint32_t)(P * Q)), dv_q = cldnn_fastdiv((uint32_t)Q);
    CLDNN_SETARG(k, 0, N);
    CLDNN_SETARG(k, 1, P);
    CLDNN_SETARG(k, 2, Q);
    CLDNN_SETARG(k, 3, alpha);
    CLDNN_SETARG(k, 4, beta);
    CLDNN_SETARG(k, 5, dym);
    CLDNN_SETARG(k, 6, oy);
    CLDNN_SETARG(k, 7, ys);
    CLDNN_SETARG(k, 8, dbm);
    CLDNN_SETARG(k, 9, ob);
    CLDNN_SETARG(k, 10, dbs);
    CLDNN_SETARG(k, 11, dv_pq);
    CLDNN_SETARG(k, 12, dv_q);
    return cldnn_enqueue_1d(h, k, (uint64_t)dy->dims[1] * (uint64_t)wg, (size_t)wg, "conv_bwd_bias");
}
