/*
** conv_gemm.c: the convolution solvers that call the GEMM family (src/gemm/) on real matrices.
**
**   gemm_1x1   1x1 filters with unit stride and no padding, one group, x and y packed in the
**              same layout: the convolution IS a GEMM (per image for NCHW, one product over
**              every pixel for NHWC), no workspace and no index arithmetic.
**   im2col     any problem whose y (dy) is packed NCHW or NHWC: the column matrix of a chunk of
**              images goes to the workspace (kernels/conv/conv_direct.cl: conv_im2col), then one
**              GEMM per group and chunk (forward), or GEMM into the workspace and a gathering
**              col2im (backward-data), or im2col and a GEMM accumulating over images
**              (backward-filter). The chunk holds as many images as IM2COL_WS_MAX allows, at
**              least one; the workspace is exactly one chunk's column matrix.
** Column matrix of group g: element (tap t, output pixel) in the filter's tap order; laid out
** (t, pixel) for NCHW y and (pixel, t) for NHWC y, so each GEMM reads it with unit stride.
**
** HALF and BFLOAT16 data: every GEMM reads 16-bit tensors and sums in float. Column matrices that
** copy x (forward, backward-filter) are 16-bit; backward-data's (sums of products) is float. Where an
** output would be accumulated over several GEMMs (backward-filter over images and chunks), the
** sum goes to a float region at the workspace's start and is rounded into dw once. The NCHW
** 1x1 backward-filter takes 16-bit data only when one chunk holds every image.
*/
#include "conv/conv.h"

#include <stdio.h>
#include <string.h>

#define IM2COL_WS_MAX ((uint64_t)128 << 20)
/* Row capacity of the CPU fold (conv_col2im_rows' private row of sums). */
#define COL2IM_ROWS 256

static int is_layout(const char* l, const char* want) {
    return l != NULL && strcmp(l, want) == 0;
}

/* One GEMM through the GEMM family's parameter table: C = alpha op(A) op(B) + beta C,
** column-major, offsets in elements. */
typedef struct {
    int64_t m, n, k;
    int ta, tb;
    int64_t lda, ldb, ldc, sa, sb, sc, batch;
    uint64_t oa, ob, oc;
    cl_mem a, b, c;
} gemm_call;

/* The share of p's fused epilogue of a forward GEMM whose C starts at y's element oc: the bias
** from channel k0 on, along C's m (channels-last y) or n; z where C is. NULL for a plain
** convolution. */
static const cldnn_epilogue* gemm_epi(const cldnn_conv_problem* p, uint64_t oc, int64_t k0, int bias_m,
                                      cldnn_epilogue* e) {
    if (p->epi == NULL)
        return NULL;
    *e = *p->epi;
    e->bias_m = bias_m;
    e->bias_off += (uint64_t)k0;
    e->z_off += oc - p->off_y;
    return e;
}

/* epi: forward's fused epilogue, else NULL. math: the convolution's math type; under
** TENSOR_OP_MATH the GEMM family runs FLOAT products on TF32 tensor cores and HALF ones on FP16
** tensor cores where the device has them (cldnn_gemm_run_any). */
static cldnnStatus_t run_gemm(cldnnHandle_t h, const gemm_call* c, float alpha, float beta, cldnnDataType_t dt,
                              cldnnDataType_t dt_c, cldnnMathType_t math, const cldnn_epilogue* epi) {
    cldnn_gemm_problem g;
    memset(&g, 0, sizeof g);
    g.math = math;
    g.dtype = dt;
    g.dtype_c = dt_c;
    g.m = c->m;
    g.n = c->n;
    g.k = c->k;
    g.trans_a = c->ta;
    g.trans_b = c->tb;
    g.lda = c->lda;
    g.ldb = c->ldb;
    g.ldc = c->ldc;
    g.stride_a = c->sa;
    g.stride_b = c->sb;
    g.stride_c = c->sc;
    g.batch = c->batch > 0 ? c->batch : 1;
    g.off_a = c->oa;
    g.off_b = c->ob;
    g.off_c = c->oc;
    g.alpha = alpha;
    g.beta = beta;
    g.epi = epi;
    cldnn_gemm_buffers bb = {c->a, c->b, c->c};
    return cldnn_gemm_run_any(h, &g, &bb);
}

/* ------------------------------------------------------------------ 1x1 */

#define GEMM1X1_WS_MAX ((uint64_t)128 << 20)

/* NCHW backward-filter: images per chunk of per-image partial products in the workspace. */
static int64_t images_per_chunk_1x1(const cldnn_conv_problem* p) {
    int64_t per = (int64_t)p->k * p->c * 4;
    int64_t nb = (int64_t)(GEMM1X1_WS_MAX / (uint64_t)per);
    if (nb < 1)
        nb = 1;
    return nb < p->n ? nb : p->n;
}

size_t cldnn_conv_gemm1x1_workspace(const void* problem, const void* params) {
    (void)params;
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    if (p->dir != CLDNN_CONV_BWD_FILTER || is_layout(p->xlayout, "NHWC") || p->n == 1)
        return 0;
    return (size_t)(images_per_chunk_1x1(p) * p->k * p->c * 4);
}

int cldnn_conv_gemm1x1_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    (void)dev;
    if (p->dtype != CLDNN_DATA_FLOAT && p->dir == CLDNN_CONV_BWD_FILTER && !is_layout(p->xlayout, "NHWC") &&
        images_per_chunk_1x1(p) < p->n)
        return 0; /* chunks would round dw once each */
    return p->r == 1 && p->s == 1 && p->u == 1 && p->v == 1 && p->pad_h == 0 && p->pad_w == 0 && p->groups == 1 &&
           p->xlayout != NULL && p->ylayout != NULL && strcmp(p->xlayout, p->ylayout) == 0;
}

cldnnStatus_t cldnn_conv_gemm1x1_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const cldnn_conv_buffers* b = (const cldnn_conv_buffers*)buffers;
    (void)params;
    const int64_t HW = (int64_t)p->h * p->w, C = p->c, K = p->k, N = p->n;
    const int nhwc = is_layout(p->xlayout, "NHWC");
    gemm_call g;
    memset(&g, 0, sizeof g);
    g.batch = 1;
    cldnn_epilogue e;
    switch (p->dir) {
    case CLDNN_CONV_FWD: /* y = W x */
        if (nhwc)
            g = (gemm_call){K, N * HW, C, 1, 0, C, C, K, 0, 0, 0, 1, p->off_w, p->off_x, p->off_y, b->w, b->x, b->y};
        else
            g = (gemm_call){HW, K, C, 0, 0, HW, C, HW, C * HW, 0, K * HW, N, p->off_x, p->off_w, p->off_y,
                            b->x, b->w, b->y};
        return run_gemm(h, &g, p->alpha, p->beta, p->dtype, p->dtype, p->math, gemm_epi(p, p->off_y, 0, nhwc, &e));
    case CLDNN_CONV_BWD_DATA: /* dx = W^T dy */
        if (nhwc)
            g = (gemm_call){C, N * HW, K, 0, 0, C, K, C, 0, 0, 0, 1, p->off_w, p->off_y, p->off_x, b->w, b->y, b->x};
        else
            g = (gemm_call){HW, C, K, 0, 1, HW, C, HW, K * HW, 0, C * HW, N, p->off_y, p->off_w, p->off_x,
                            b->y, b->w, b->x};
        return run_gemm(h, &g, p->alpha, p->beta, p->dtype, p->dtype, p->math, NULL);
    default: /* dw = dy x^T, summed over images */
        if (nhwc) {
            g = (gemm_call){C, K, N * HW, 0, 1, C, K, C, 0, 0, 0, 1, p->off_x, p->off_y, p->off_w, b->x, b->y, b->w};
            return run_gemm(h, &g, p->alpha, p->beta, p->dtype, p->dtype, p->math, NULL);
        }
        /* NCHW: per-image products dw_i = x_i dy_i^T (a strided-batched GEMM into the
        ** workspace), then a fixed-order sum over the images of each chunk; one image writes dw
        ** directly (no workspace, no pass over K x C). */
        if (N == 1) {
            g = (gemm_call){C, K, HW, 1, 0, HW, HW, C, 0, 0, 0, 1, p->off_x, p->off_y, p->off_w, b->x, b->y, b->w};
            return run_gemm(h, &g, p->alpha, p->beta, p->dtype, p->dtype, p->math, NULL);
        }
        {
            const int64_t nb = images_per_chunk_1x1(p);
            for (int64_t img0 = 0; img0 < N; img0 += nb) {
                const int64_t cnt = N - img0 < nb ? N - img0 : nb;
                g = (gemm_call){C, K, HW, 1, 0, HW, HW, C, C * HW, K * HW, K * C, cnt,
                                p->off_x + (uint64_t)(img0 * C * HW), p->off_y + (uint64_t)(img0 * K * HW),
                                b->ws_off / 4, b->x, b->y, b->ws};
                CLDNN_TRY(run_gemm(h, &g, 1.0f, 0.0f, p->dtype, CLDNN_DATA_FLOAT, p->math, NULL));
                CLDNN_TRY(cldnn_gemm_reduce_partials(h, b->ws, b->ws_off / 4, (int)cnt, K * C, p->alpha,
                                                     img0 == 0 ? p->beta : 1.0f, b->w, p->off_w, p->dtype));
            }
        }
        return CLDNN_STATUS_SUCCESS;
    }
}

/* ------------------------------------------------------------------ im2col + GEMM */

/* Elements of one image's column matrix: taps (below 2^31) times P x Q (below 2^31), so below
** 2^62; callers compare it against limits in elements, never multiply it by the element size
** before it is known to fit (a product by 4 could pass 2^63). */
static int64_t col_per_image(const cldnn_conv_problem* p) {
    return (int64_t)p->cg * p->r * p->s * ((int64_t)p->p * p->q);
}

/* Bytes of a column-matrix element: a copy of x in x's type, or backward-data's float sums. */
static int64_t col_elem(const cldnn_conv_problem* p) {
    return p->dir == CLDNN_CONV_BWD_DATA ? 4 : (int64_t)cldnn_dtype_size(p->dtype);
}

/* 16-bit backward-filter: bytes of the float sum of dw (K * C/G * R * S) before the column matrix. */
static int64_t acc_bytes(const cldnn_conv_problem* p) {
    return p->dir == CLDNN_CONV_BWD_FILTER && p->dtype != CLDNN_DATA_FLOAT
               ? (int64_t)p->k * p->cg * p->r * p->s * 4
               : 0;
}

static int64_t images_per_chunk(const cldnn_conv_problem* p) {
    int64_t per = col_per_image(p) * col_elem(p);
    int64_t nb = (int64_t)(IM2COL_WS_MAX / (uint64_t)per);
    if (nb < 1)
        nb = 1;
    return nb < p->n ? nb : p->n;
}

int cldnn_conv_im2col_applicable(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    (void)dev;
    if (!is_layout(p->ylayout, "NCHW") && !is_layout(p->ylayout, "NHWC"))
        return 0;
    return col_per_image(p) <= ((int64_t)1 << 28); /* 2^30 bytes of columns per image */
}

int cldnn_conv_col2im_narrow(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    (void)dev;
    return p->cg < 16;
}

/* NCHW backward-data at a stride above 1 on GPUs: the GEMM and col2im's gather ahead of both
** implicit GEMMs, most of whose taps miss (ResNet-50's stride-2 3x3 layers on the H100: 0.26-0.39 ms
** against 1.15-2.4 for the implicit GEMMs, FLOAT under TF32 and HALF). Channels-last layers, not
** measured, keep the table's order. */
int cldnn_conv_col2im_strided(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    return !dev->is_cpu && p->dir == CLDNN_CONV_BWD_DATA && (p->u > 1 || p->v > 1) && is_layout(p->ylayout, "NCHW");
}

size_t cldnn_conv_im2col_workspace(const void* problem, const void* params) {
    (void)params;
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    return (size_t)(acc_bytes(p) + images_per_chunk(p) * col_per_image(p) * col_elem(p));
}

/* Builds the program of conv_direct.cl for a walking order and tap order. */
static cldnnStatus_t direct_kernel(cldnnHandle_t h, const cldnn_conv_problem* p, int chlast, const char* name,
                                   cl_kernel* k) {
    char opts[96];
    size_t at = cldnn_appendf(opts, sizeof opts, 0, "-DCHLAST=%d -DKORD=%d -DWG=256%s", chlast, p->kord,
                              cldnn_dtype_build_option(p->dtype));
    if (h->prof.is_cpu)
        cldnn_appendf(opts, sizeof opts, at, " -DCOL2IM_ROWS=%d", COL2IM_ROWS);
    return cldnn_kernel_get(h, "conv/conv_direct.cl", opts, name, k);
}

/* Column matrix of images [img0, img0 + nb) of group g into the workspace. */
static cldnnStatus_t im2col(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b, int chlast,
                            int img0, int nb, int g) {
    /* CPU devices: a run of the column matrix's fastest dimension per work-item (one pixel's taps,
    ** or one tap's output row), whose loops the compiler keeps; elsewhere one element each. */
    const int rows = h->prof.is_cpu;
    cl_kernel k;
    CLDNN_TRY(direct_kernel(h, p, chlast, rows ? "conv_im2col_rows" : "conv_im2col", &k));
    const int taps = p->cg * p->r * p->s, pq = p->p * p->q;
    cl_int total = nb * (rows ? (chlast ? pq : taps * p->p) : taps * pq);
    cl_int cs_img = taps * pq, cs_t = chlast ? 1 : pq, cs_p = chlast ? taps : 1;
    cl_ulong col_off = (uint64_t)((int64_t)b->ws_off + acc_bytes(p)) / (uint64_t)col_elem(p);
    cl_uint4 dv_fast = cldnn_fastdiv((uint32_t)(rows ? (chlast ? pq : p->p) : chlast ? taps : pq));
    cl_uint4 dv_mid = cldnn_fastdiv((uint32_t)(chlast ? pq : taps));
    cl_uint4 dv_q = cldnn_fastdiv((uint32_t)p->q);
    cl_uint4 dv_tap = cldnn_fastdiv((uint32_t)(p->kord == 0 ? p->r * p->s : p->cg));
    cl_uint4 dv_s = cldnn_fastdiv((uint32_t)p->s);
    const cldnn_conv_values v = cldnn_conv_values_of(p);
    cl_int i0 = img0, G = g;
    /* conv_im2col (kernels/conv/conv_direct.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(total), CLDNN_ARG(b->x), CLDNN_ARG(v.x_off), CLDNN_ARG(v.xs),
                                CLDNN_ARG(b->ws), CLDNN_ARG(col_off), CLDNN_ARG(cs_img), CLDNN_ARG(cs_t),
                                CLDNN_ARG(cs_p), CLDNN_ARG(i0), CLDNN_ARG(G), CLDNN_ARG(v.Cg), CLDNN_ARG(v.H),
                                CLDNN_ARG(v.Wd), CLDNN_ARG(v.Q), CLDNN_ARG(v.S), CLDNN_ARG(v.pad_h), CLDNN_ARG(v.pad_w),
                                CLDNN_ARG(v.su), CLDNN_ARG(v.sv), CLDNN_ARG(v.dil_h), CLDNN_ARG(v.dil_w),
                                CLDNN_ARG(v.R), CLDNN_ARG(v.flip), CLDNN_ARG(dv_fast), CLDNN_ARG(dv_mid),
                                CLDNN_ARG(dv_q), CLDNN_ARG(dv_tap), CLDNN_ARG(dv_s)));
    return cldnn_enqueue_1d(h, k, (uint64_t)total, rows ? cldnn_pow2_group(&h->prof, 8) : cldnn_free_group(&h->prof),
                            rows ? "conv_im2col_rows" : "conv_im2col");
}

/* dx of images [img0, img0 + nb) of group g = alpha * fold(column matrix) + beta * dx: one element
** per work-item, or on CPU devices, for rows of up to COL2IM_ROWS columns, one row of dx per
** work-item (conv_col2im_rows). */
static cldnnStatus_t col2im(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b, int col_chlast,
                            int img0, int nb, int g) {
    const int dx_chlast = p->xs[1] == 1 && p->c > 1, rows = h->prof.is_cpu && p->w <= COL2IM_ROWS;
    cl_kernel k;
    CLDNN_TRY(direct_kernel(h, p, dx_chlast, rows ? "conv_col2im_rows" : "conv_col2im", &k));
    const int taps = p->cg * p->r * p->s, pq = p->p * p->q;
    cl_int total = nb * p->cg * p->h * (rows ? 1 : p->w);
    cl_int cs_img = taps * pq, cs_t = col_chlast ? 1 : pq, cs_p = col_chlast ? taps : 1;
    cl_ulong col_off = b->ws_off / 4;
    cl_uint4 dv0 = cldnn_fastdiv((uint32_t)(rows ? p->h : dx_chlast ? p->cg : p->w));
    cl_uint4 dv1 = cldnn_fastdiv((uint32_t)(rows ? p->cg : dx_chlast ? p->w : p->h));
    cl_uint4 dv2 = cldnn_fastdiv((uint32_t)(dx_chlast ? p->h : p->cg));
    cl_uint4 dv_u = cldnn_fastdiv((uint32_t)p->u), dv_v = cldnn_fastdiv((uint32_t)p->v);
    const cldnn_conv_values v = cldnn_conv_values_of(p);
    cl_int i0 = img0, G = g;
    /* conv_col2im and conv_col2im_rows (kernels/conv/conv_direct.cl), in their order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(total), CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(b->x),
                                CLDNN_ARG(v.x_off), CLDNN_ARG(v.xs), CLDNN_ARG(b->ws), CLDNN_ARG(col_off),
                                CLDNN_ARG(cs_img), CLDNN_ARG(cs_t), CLDNN_ARG(cs_p), CLDNN_ARG(i0), CLDNN_ARG(G),
                                CLDNN_ARG(v.Cg), CLDNN_ARG(v.P), CLDNN_ARG(v.Q), CLDNN_ARG(v.R), CLDNN_ARG(v.S),
                                CLDNN_ARG(v.pad_h), CLDNN_ARG(v.pad_w), CLDNN_ARG(v.su), CLDNN_ARG(v.sv),
                                CLDNN_ARG(v.dil_h), CLDNN_ARG(v.dil_w), CLDNN_ARG(v.flip), CLDNN_ARG(v.Wd),
                                CLDNN_ARG(dv0), CLDNN_ARG(dv1), CLDNN_ARG(dv2), CLDNN_ARG(dv_u), CLDNN_ARG(dv_v)));
    return cldnn_enqueue_1d(h, k, (uint64_t)total, rows ? 1 : cldnn_free_group(&h->prof),
                            rows ? "conv_col2im_rows" : "conv_col2im");
}

cldnnStatus_t cldnn_conv_im2col_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    const cldnn_conv_buffers* b = (const cldnn_conv_buffers*)buffers;
    (void)params;
    const int chlast = is_layout(p->ylayout, "NHWC");
    const int64_t taps = (int64_t)p->cg * p->r * p->s, pq = (int64_t)p->p * p->q, K = p->k, Kg = p->kg;
    const int64_t ys0 = p->ys[0], chunk = images_per_chunk(p);
    const uint64_t ws = (uint64_t)((int64_t)b->ws_off + acc_bytes(p)) / (uint64_t)col_elem(p); /* column matrix */
    const cldnnDataType_t dt = p->dtype;
    /* 16-bit backward-filter: GEMMs sum into the float region acc (dw's layout), rounded into dw at
    ** the end; otherwise they accumulate in dw itself. */
    const int in_acc = acc_bytes(p) > 0;
    const uint64_t acc = b->ws_off / 4;
    for (int64_t img0 = 0; img0 < p->n; img0 += chunk) {
        const int64_t nb = p->n - img0 < chunk ? p->n - img0 : chunk;
        for (int g = 0; g < p->groups; ++g) {
            const uint64_t wg = p->off_w + (uint64_t)(g * Kg * taps);
            gemm_call c;
            if (p->dir == CLDNN_CONV_FWD) {
                CLDNN_TRY(im2col(h, p, b, chlast, (int)img0, (int)nb, g));
                if (chlast) /* y(k, pixel) = W(k, t) col(t, pixel), pixels of every image at once */
                    c = (gemm_call){Kg, nb * pq, taps, 1, 0, taps, taps, K, 0, 0, 0, 1, wg, ws,
                                    p->off_y + (uint64_t)(img0 * ys0 + g * Kg), b->w, b->ws, b->y};
                else /* per image: y(pixel, k) = col(pixel, t) W(t, k) */
                    c = (gemm_call){pq, Kg, taps, 0, 0, pq, taps, pq, taps * pq, 0, ys0, nb, ws, wg,
                                    p->off_y + (uint64_t)(img0 * ys0 + g * Kg * pq), b->ws, b->w, b->y};
                cldnn_epilogue e;
                const cldnn_epilogue* epi = gemm_epi(p, c.oc, (int64_t)g * Kg, chlast, &e);
                CLDNN_TRY(run_gemm(h, &c, p->alpha, p->beta, dt, dt, p->math, epi));
            } else if (p->dir == CLDNN_CONV_BWD_DATA) {
                if (chlast) /* col(t, pixel) = W(t, k) dy(k, pixel) */
                    c = (gemm_call){taps, nb * pq, Kg, 0, 0, taps, K, taps, 0, 0, 0, 1, wg,
                                    p->off_y + (uint64_t)(img0 * ys0 + g * Kg), ws, b->w, b->y, b->ws};
                else /* per image: col(pixel, t) = dy(pixel, k) W(k, t) */
                    c = (gemm_call){pq, taps, Kg, 0, 1, pq, taps, pq, ys0, 0, taps * pq, nb,
                                    p->off_y + (uint64_t)(img0 * ys0 + g * Kg * pq), wg, ws, b->y, b->w, b->ws};
                CLDNN_TRY(run_gemm(h, &c, 1.0f, 0.0f, dt, CLDNN_DATA_FLOAT, p->math, NULL));
                CLDNN_TRY(col2im(h, p, b, chlast, (int)img0, (int)nb, g));
            } else {
                CLDNN_TRY(im2col(h, p, b, chlast, (int)img0, (int)nb, g));
                const float alpha = in_acc ? 1.0f : p->alpha;
                const float beta = img0 == 0 ? (in_acc ? 0.0f : p->beta) : 1.0f;
                const uint64_t dst = in_acc ? acc + (wg - p->off_w) : wg;
                cl_mem dm = in_acc ? b->ws : b->w;
                const cldnnDataType_t dt_c = in_acc ? CLDNN_DATA_FLOAT : dt;
                if (chlast) { /* dw(t, k) += col(t, pixel) dy(pixel, k) over the chunk's pixels */
                    c = (gemm_call){taps, Kg, nb * pq, 0, 1, taps, K, taps, 0, 0, 0, 1, ws,
                                    p->off_y + (uint64_t)(img0 * ys0 + g * Kg), dst, b->ws, b->y, dm};
                    CLDNN_TRY(run_gemm(h, &c, alpha, beta, dt, dt_c, p->math, NULL));
                } else {
                    for (int64_t l = 0; l < nb; ++l) {
                        c = (gemm_call){taps, Kg, pq, 1, 0, pq, pq, taps, 0, 0, 0, 1, ws + (uint64_t)(l * taps * pq),
                                        p->off_y + (uint64_t)((img0 + l) * ys0 + g * Kg * pq), dst, b->ws, b->y, dm};
                        CLDNN_TRY(run_gemm(h, &c, alpha, l == 0 ? beta : 1.0f, dt, dt_c, p->math, NULL));
                    }
                }
            }
        }
    }
    if (in_acc)
        return cldnn_gemm_reduce_partials(h, b->ws, acc, 1, (int64_t)K * taps, p->alpha, p->beta, b->w, p->off_w, dt);
    return CLDNN_STATUS_SUCCESS;
}
