/*
** conv_winograd.c: non-fused Winograd convolution F(2x2, 3x3) and F(4x4, 3x3)
** (kernels/conv/winograd.cl) for forward and backward-data: three transforms around the GEMM
** family's strided-batched GEMM (one product per position of the transformed tile).
**
** Applies to 3x3 filters at stride 1, dilation 1, one group, any padding, any tensor strides.
** Backward-data is the forward of dy with the filter transposed and rotated (padding 2 - pad).
** F(4x4) does 4x fewer multiplications than direct convolution against 2.25x for F(2x2), with a
** larger rounding error; it is not offered under FMA_MATH (strict FP32), where F(2x2) is.
** The filter is transformed on every call (no cache keyed by buffer contents).
** Under TENSOR_OP_MATH the batched products run on TF32 tensor cores where the device has them
** (cldnn_gemm_run_any); the transforms stay FP32.
**
** HALF data: the transforms load halves as float and round each output once (-DDATA_HALF=1);
** the transformed operands and the GEMM between them stay float.
**
** Workspace: U (36 or 16 x O x I floats), then V and M for a chunk of images (as many as
** WINO_WS_MAX allows, at least one); exactly what cldnn_conv_winograd_workspace reports.
*/
#include "internal.h"

#include <stdio.h>
#include <string.h>

#define WINO_WS_MAX ((uint64_t)512 << 20)

/* The transformed problem: in (channels I, rows ih x iw), out (O, oh x ow), padding. */
typedef struct {
    int wm, wa;
    int I, O, ih, iw, oh, ow, pad_h, pad_w, rot;
    int th, tw;                       /* tiles per image */
    const int64_t *in_s, *out_s;      /* tensor strides (n, c, h, w) */
    uint64_t in_off, out_off;
    int wo, wi, wr, wsc;              /* filter strides of out channel, in channel, r, s */
} wino_geom;

static void geom_of(const cldnn_conv_problem* p, int wm, wino_geom* g) {
    memset(g, 0, sizeof *g);
    g->wm = wm;
    g->wa = wm + 2;
    /* Backward-filter reads x and dy on the forward's geometry. */
    const int fwd = p->dir != CLDNN_CONV_BWD_DATA;
    const int ck = p->kord ? 1 : 9, ckk = p->c * 9; /* filter strides of c and k */
    const int cr = p->kord ? 3 * p->c : 3, cs = p->kord ? p->c : 1;
    g->I = fwd ? p->c : p->k;
    g->O = fwd ? p->k : p->c;
    g->ih = fwd ? p->h : p->p;
    g->iw = fwd ? p->w : p->q;
    g->oh = fwd ? p->p : p->h;
    g->ow = fwd ? p->q : p->w;
    g->pad_h = fwd ? p->pad_h : 2 - p->pad_h;
    g->pad_w = fwd ? p->pad_w : 2 - p->pad_w;
    g->rot = fwd ? p->flip : !p->flip;
    g->in_s = fwd ? p->xs : p->ys;
    /* (backward-filter writes dw: its "out" tensor is dy, read by wino_dy) */
    g->out_s = fwd ? p->ys : p->xs;
    g->in_off = fwd ? p->off_x : p->off_y;
    g->out_off = fwd ? p->off_y : p->off_x;
    g->wo = fwd ? ckk : ck;
    g->wi = fwd ? ck : ckk;
    g->wr = cr;
    g->wsc = cs;
    g->th = (g->oh + wm - 1) / wm;
    g->tw = (g->ow + wm - 1) / wm;
}

static uint64_t filter_floats(const wino_geom* g) {
    return (uint64_t)g->wa * g->wa * (uint64_t)g->O * (uint64_t)g->I;
}

/* Floats of V and M per image. */
static uint64_t per_image_floats(const wino_geom* g) {
    return (uint64_t)g->wa * g->wa * (uint64_t)(g->I + g->O) * (uint64_t)g->th * (uint64_t)g->tw;
}

static int64_t images_per_chunk(const cldnn_conv_problem* p, const wino_geom* g) {
    uint64_t u = filter_floats(g) * 4, per = per_image_floats(g) * 4;
    int64_t nb = u + per <= WINO_WS_MAX ? (int64_t)((WINO_WS_MAX - u) / per) : 1;
    if (nb < 1)
        nb = 1;
    return nb < p->n ? nb : p->n;
}

static int applicable(const cldnn_conv_problem* p, int wm) {
    if (p->r != 3 || p->s != 3 || p->u != 1 || p->v != 1 || p->dil_h != 1 || p->dil_w != 1 || p->groups != 1)
        return 0;
    if (wm == 4 && p->math == CLDNN_FMA_MATH)
        return 0;
    wino_geom g;
    geom_of(p, wm, &g);
    /* Every buffer the kernels index stays below 2^31 elements (32-bit index arithmetic). */
    const uint64_t lim = (uint64_t)1 << 31;
    const uint64_t t1 = (uint64_t)g.th * g.tw;
    return filter_floats(&g) < lim && (uint64_t)g.wa * g.wa * (uint64_t)(g.I > g.O ? g.I : g.O) * t1 < lim;
}

int cldnn_conv_wino2_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    return applicable((const cldnn_conv_problem*)problem, 2);
}

int cldnn_conv_wino4_applicable(const void* problem, const cldnn_device_profile* dev) {
    (void)dev;
    return applicable((const cldnn_conv_problem*)problem, 4);
}

int cldnn_conv_wino4_preferred(const void* problem, const cldnn_device_profile* dev) {
    const cldnn_conv_problem* p = (const cldnn_conv_problem*)problem;
    return !dev->is_cpu && p->c >= 16 && p->k >= 16 && applicable(p, 4);
}

static size_t workspace(const cldnn_conv_problem* p, int wm) {
    wino_geom g;
    geom_of(p, wm, &g);
    return (size_t)((filter_floats(&g) + (uint64_t)images_per_chunk(p, &g) * per_image_floats(&g)) * 4);
}

size_t cldnn_conv_wino2_workspace(const void* problem) {
    return workspace((const cldnn_conv_problem*)problem, 2);
}

size_t cldnn_conv_wino4_workspace(const void* problem) {
    return workspace((const cldnn_conv_problem*)problem, 4);
}

static cldnnStatus_t run_bwd_filter(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b,
                                    int wm);
static cldnnStatus_t input_transform(cldnnHandle_t h, const wino_geom* g, cl_mem in, cl_mem ws, uint64_t vof,
                                     int img0, int T, size_t group, const char* opts);

static cldnnStatus_t run(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b, int wm) {
    if (p->dir == CLDNN_CONV_BWD_FILTER)
        return run_bwd_filter(h, p, b, wm);
    wino_geom g;
    geom_of(p, wm, &g);
    char opts[32];
    snprintf(opts, sizeof opts, "-DWM=%d%s", wm, cldnn_dtype_build_option(p->dtype));
    const size_t group = h->prof.is_cpu ? 64 : 256;
    const int T2 = g.wa * g.wa;
    const uint64_t base = b->ws_off / 4, ufl = filter_floats(&g);
    const int64_t chunk = images_per_chunk(p, &g);

    /* U[xi][o][i] */
    cl_kernel kf;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/winograd.cl", opts, "wino_filter", &kf));
    {
        cl_int O = g.O, I = g.I, wo = g.wo, wi = g.wi, wr = g.wr, wsc = g.wsc, rot = g.rot;
        cl_int uxi = g.O * g.I, uo = g.I, ui = 1;
        cl_ulong wof = p->off_w, uof = base;
        cl_uint4 dv_i = cldnn_fastdiv((uint32_t)g.I);
        int a = 0;
        CLDNN_SETARG(kf, a++, O);
        CLDNN_SETARG(kf, a++, I);
        CLDNN_SETARG(kf, a++, b->w);
        CLDNN_SETARG(kf, a++, wof);
        CLDNN_SETARG(kf, a++, wo);
        CLDNN_SETARG(kf, a++, wi);
        CLDNN_SETARG(kf, a++, wr);
        CLDNN_SETARG(kf, a++, wsc);
        CLDNN_SETARG(kf, a++, rot);
        CLDNN_SETARG(kf, a++, b->ws);
        CLDNN_SETARG(kf, a++, uof);
        CLDNN_SETARG(kf, a++, uxi);
        CLDNN_SETARG(kf, a++, uo);
        CLDNN_SETARG(kf, a++, ui);
        CLDNN_SETARG(kf, a++, dv_i);
        CLDNN_TRY(cldnn_enqueue_1d(h, kf, (uint64_t)g.O * (uint64_t)g.I, group, "wino_filter"));
    }
    cl_kernel ko;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/winograd.cl", opts, "wino_output", &ko));
    cl_int4 os = {{(cl_int)g.out_s[0], (cl_int)g.out_s[1], (cl_int)g.out_s[2], (cl_int)g.out_s[3]}};
    cl_mem inm = p->dir == CLDNN_CONV_FWD ? b->x : b->y, outm = p->dir == CLDNN_CONV_FWD ? b->y : b->x;
    for (int64_t img0 = 0; img0 < p->n; img0 += chunk) {
        const int64_t nb = p->n - img0 < chunk ? p->n - img0 : chunk;
        cl_int T = (cl_int)(nb * g.th * g.tw), TW = g.tw, O = g.O, i0 = (cl_int)img0;
        const uint64_t vof = base + ufl, mof = vof + (uint64_t)T2 * (uint64_t)g.I * (uint64_t)T;
        cl_uint4 dv_t = cldnn_fastdiv((uint32_t)T), dv_tt = cldnn_fastdiv((uint32_t)(g.th * g.tw));
        cl_uint4 dv_tw = cldnn_fastdiv((uint32_t)g.tw);
        CLDNN_TRY(input_transform(h, &g, inm, b->ws, vof, (int)img0, T, group, opts));
        /* M[xi](t, o) = V[xi](t, i) U[xi](i, o): column-major, one product per xi. */
        cldnn_gemm_problem gp;
        memset(&gp, 0, sizeof gp);
        gp.m = T;
        gp.n = g.O;
        gp.k = g.I;
        gp.lda = T;
        gp.ldb = g.I;
        gp.ldc = T;
        gp.stride_a = (int64_t)g.I * T;
        gp.stride_b = (int64_t)g.O * g.I;
        gp.stride_c = (int64_t)g.O * T;
        gp.batch = T2;
        gp.off_a = vof;
        gp.off_b = base;
        gp.off_c = mof;
        gp.math = p->math; /* TENSOR_OP_MATH: TF32 products where the device has them */
        gp.alpha = 1.0f;
        gp.beta = 0.0f;
        cldnn_gemm_buffers gb = {b->ws, b->ws, b->ws};
        CLDNN_TRY(cldnn_gemm_run_any(h, &gp, &gb));
        {
            cl_int P = g.oh, Q = g.ow;
            cl_ulong mo = mof, yo = g.out_off;
            int a = 0;
            CLDNN_SETARG(ko, a++, O);
            CLDNN_SETARG(ko, a++, T);
            CLDNN_SETARG(ko, a++, TW);
            CLDNN_SETARG(ko, a++, P);
            CLDNN_SETARG(ko, a++, Q);
            CLDNN_SETARG(ko, a++, i0);
            CLDNN_SETARG(ko, a++, p->alpha);
            CLDNN_SETARG(ko, a++, p->beta);
            CLDNN_SETARG(ko, a++, b->ws);
            CLDNN_SETARG(ko, a++, mo);
            CLDNN_SETARG(ko, a++, outm);
            CLDNN_SETARG(ko, a++, yo);
            CLDNN_SETARG(ko, a++, os);
            CLDNN_SETARG(ko, a++, dv_t);
            CLDNN_SETARG(ko, a++, dv_tt);
            CLDNN_SETARG(ko, a++, dv_tw);
            CLDNN_TRY(cldnn_enqueue_1d(h, ko, (uint64_t)O * (uint64_t)T, group, "wino_output"));
        }
    }
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_conv_wino2_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    (void)params;
    return run(h, (const cldnn_conv_problem*)problem, (const cldnn_conv_buffers*)buffers, 2);
}

cldnnStatus_t cldnn_conv_wino4_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    (void)params;
    return run(h, (const cldnn_conv_problem*)problem, (const cldnn_conv_buffers*)buffers, 4);
}

/* Input transform of images [img0, img0 + nb) into V at vof (floats from the workspace start). */
static cldnnStatus_t input_transform(cldnnHandle_t h, const wino_geom* g, cl_mem in, cl_mem ws, uint64_t vof,
                                     int img0, int T, size_t group, const char* opts) {
    cl_kernel ki;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/winograd.cl", opts, "wino_input", &ki));
    cl_int4 is = {{(cl_int)g->in_s[0], (cl_int)g->in_s[1], (cl_int)g->in_s[2], (cl_int)g->in_s[3]}};
    cl_int I = g->I, TT = T, TW = g->tw, H = g->ih, W = g->iw, ph = g->pad_h, pw = g->pad_w, i0 = img0;
    cl_ulong xo = g->in_off, vo = vof;
    cl_uint4 dv_t = cldnn_fastdiv((uint32_t)T), dv_tt = cldnn_fastdiv((uint32_t)(g->th * g->tw));
    cl_uint4 dv_tw = cldnn_fastdiv((uint32_t)g->tw);
    int a = 0;
    CLDNN_SETARG(ki, a++, I);
    CLDNN_SETARG(ki, a++, TT);
    CLDNN_SETARG(ki, a++, TW);
    CLDNN_SETARG(ki, a++, H);
    CLDNN_SETARG(ki, a++, W);
    CLDNN_SETARG(ki, a++, ph);
    CLDNN_SETARG(ki, a++, pw);
    CLDNN_SETARG(ki, a++, i0);
    CLDNN_SETARG(ki, a++, in);
    CLDNN_SETARG(ki, a++, xo);
    CLDNN_SETARG(ki, a++, is);
    CLDNN_SETARG(ki, a++, ws);
    CLDNN_SETARG(ki, a++, vo);
    CLDNN_SETARG(ki, a++, dv_t);
    CLDNN_SETARG(ki, a++, dv_tt);
    CLDNN_SETARG(ki, a++, dv_tw);
    return cldnn_enqueue_1d(h, ki, (uint64_t)I * (uint64_t)T, group, "wino_input");
}

/* Backward-filter: per chunk of images V (x) and Y' (dy) transforms, then S += V^T-products per
** xi (beta 0 on the first chunk, then 1), and one filter-gradient transform into dw. */
static cldnnStatus_t run_bwd_filter(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b,
                                    int wm) {
    wino_geom g;
    geom_of(p, wm, &g);
    char opts[32];
    snprintf(opts, sizeof opts, "-DWM=%d%s", wm, cldnn_dtype_build_option(p->dtype));
    const size_t group = h->prof.is_cpu ? 64 : 256;
    const int T2 = g.wa * g.wa;
    const uint64_t base = b->ws_off / 4, sfl = filter_floats(&g);
    const int64_t chunk = images_per_chunk(p, &g);
    cl_kernel kd;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/winograd.cl", opts, "wino_dy", &kd));
    cl_int4 ys = {{(cl_int)p->ys[0], (cl_int)p->ys[1], (cl_int)p->ys[2], (cl_int)p->ys[3]}};
    for (int64_t img0 = 0; img0 < p->n; img0 += chunk) {
        const int64_t nb = p->n - img0 < chunk ? p->n - img0 : chunk;
        const int T = (int)(nb * g.th * g.tw);
        const uint64_t vof = base + sfl, tof = vof + (uint64_t)T2 * (uint64_t)g.I * (uint64_t)T;
        CLDNN_TRY(input_transform(h, &g, b->x, b->ws, vof, (int)img0, T, group, opts));
        {
            cl_int O = g.O, TT = T, TW = g.tw, P = p->p, Q = p->q, i0 = (cl_int)img0;
            cl_ulong yo = p->off_y, to = tof;
            cl_uint4 dv_t = cldnn_fastdiv((uint32_t)T), dv_tt = cldnn_fastdiv((uint32_t)(g.th * g.tw));
            cl_uint4 dv_tw = cldnn_fastdiv((uint32_t)g.tw);
            int a = 0;
            CLDNN_SETARG(kd, a++, O);
            CLDNN_SETARG(kd, a++, TT);
            CLDNN_SETARG(kd, a++, TW);
            CLDNN_SETARG(kd, a++, P);
            CLDNN_SETARG(kd, a++, Q);
            CLDNN_SETARG(kd, a++, i0);
            CLDNN_SETARG(kd, a++, b->y);
            CLDNN_SETARG(kd, a++, yo);
            CLDNN_SETARG(kd, a++, ys);
            CLDNN_SETARG(kd, a++, b->ws);
            CLDNN_SETARG(kd, a++, to);
            CLDNN_SETARG(kd, a++, dv_t);
            CLDNN_SETARG(kd, a++, dv_tt);
            CLDNN_SETARG(kd, a++, dv_tw);
            CLDNN_TRY(cldnn_enqueue_1d(h, kd, (uint64_t)O * (uint64_t)T, group, "wino_dy"));
        }
        /* S[xi](i, o) (column-major, ld I) += sum_t V[xi](t, i)^T Y'[xi](t, o). */
        cldnn_gemm_problem gp;
        memset(&gp, 0, sizeof gp);
        gp.m = g.I;
        gp.n = g.O;
        gp.k = T;
        gp.trans_a = 1;
        gp.lda = T;
        gp.ldb = T;
        gp.ldc = g.I;
        gp.stride_a = (int64_t)g.I * T;
        gp.stride_b = (int64_t)g.O * T;
        gp.stride_c = (int64_t)g.O * g.I;
        gp.batch = T2;
        gp.off_a = vof;
        gp.off_b = tof;
        gp.off_c = base;
        gp.math = p->math; /* TENSOR_OP_MATH: TF32 products where the device has them */
        gp.alpha = 1.0f;
        gp.beta = img0 == 0 ? 0.0f : 1.0f;
        cldnn_gemm_buffers gb = {b->ws, b->ws, b->ws};
        CLDNN_TRY(cldnn_gemm_run_any(h, &gp, &gb));
    }
    cl_kernel kg;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/winograd.cl", opts, "wino_filter_grad", &kg));
    cl_int O = g.O, I = g.I, sxi = g.O * g.I, wo = g.wo, wi = g.wi, wr = g.wr, wsc = g.wsc, rot = g.rot;
    cl_ulong so = base, wof = p->off_w;
    cl_uint4 dv_i = cldnn_fastdiv((uint32_t)g.I);
    int a = 0;
    CLDNN_SETARG(kg, a++, O);
    CLDNN_SETARG(kg, a++, I);
    CLDNN_SETARG(kg, a++, b->ws);
    CLDNN_SETARG(kg, a++, so);
    CLDNN_SETARG(kg, a++, sxi);
    CLDNN_SETARG(kg, a++, p->alpha);
    CLDNN_SETARG(kg, a++, p->beta);
    CLDNN_SETARG(kg, a++, b->w);
    CLDNN_SETARG(kg, a++, wof);
    CLDNN_SETARG(kg, a++, wo);
    CLDNN_SETARG(kg, a++, wi);
    CLDNN_SETARG(kg, a++, wr);
    CLDNN_SETARG(kg, a++, wsc);
    CLDNN_SETARG(kg, a++, rot);
    CLDNN_SETARG(kg, a++, dv_i);
    return cldnn_enqueue_1d(h, kg, (uint64_t)O * (uint64_t)I, group, "wino_filter_grad");
}
