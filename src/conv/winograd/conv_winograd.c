/*
** conv_winograd.c: Winograd convolution F(2x2, 3x3) and F(4x4, 3x3), two ways.
**
** Non-fused (WINOGRAD_NONFUSED; kernels/conv/winograd.cl), forward, backward-data and
** backward-filter: three transforms around the GEMM family's strided-batched GEMM (one product
** per position of the transformed tile), through a workspace.
**
** Fused (WINOGRAD; kernels/conv/winograd_fused.cl), forward and backward-data: the filter
** transform runs first, once per call, as a separate small kernel (winograd.cl's wino_filter)
** into the workspace, U[xi][i][o]; then one kernel per call does the input transform, the
** per-position products and the output transform with alpha/beta, V and M staying in local
** memory and registers. There is no cache of transformed filters keyed by buffer contents: the
** workspace is U alone, (m + 2)^2 x I x O floats. Its block sizes are build options
** (cldnn_wino_params): the tuning db's record for the problem (solver name
** cldnn_wino_fused_solver_name, written by cldnn-tune conv -S winograd), else the device type's
** defaults below.
**
** Both apply to 3x3 filters at stride 1, dilation 1, one group, any padding, any tensor strides
** (NCHW, NHWC, padded views), any batch and image size (partial tiles) and byte offsets.
** Backward-data is the forward of dy with the filter transposed and rotated (padding 2 - pad).
** F(4x4) does 4x fewer multiplications than direct convolution against 2.25x for F(2x2), with a
** larger rounding error; it is not offered under FMA_MATH (strict FP32), where F(2x2) is.
** Under TENSOR_OP_MATH the non-fused batched products run on TF32 tensor cores where the device
** has them (cldnn_gemm_run_any); the transforms and the fused kernel stay FP32.
**
** HALF and BFLOAT16 data: the transforms load them as float and round each output once
** (cldnn_dtype_build_option);
** the transformed operands and the products stay float.
**
** Non-fused workspace: U (36 or 16 x O x I floats), then V and M for a chunk of images (as many
** as WINO_WS_MAX allows, at least one); exactly what cldnn_conv_winograd_workspace reports.
*/
#include "conv/conv.h"
#include "handle/engine.h"

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

size_t cldnn_conv_wino2_workspace(const void* problem, const void* params) {
    (void)params;
    return workspace((const cldnn_conv_problem*)problem, 2);
}

size_t cldnn_conv_wino4_workspace(const void* problem, const void* params) {
    (void)params;
    return workspace((const cldnn_conv_problem*)problem, 4);
}

/* U = the transformed filter of g at uof (floats from the workspace start), U[xi * uxi + o * uo +
** i * ui]: wino_filter of winograd.cl (build options opts), one work-item per (o, i). */
static cldnnStatus_t filter_transform(cldnnHandle_t h, const cldnn_conv_problem* p, const cldnn_conv_buffers* b,
                                      const wino_geom* g, uint64_t uof, int uxi, int uo, int ui, size_t group,
                                      const char* opts) {
    cl_kernel kf;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/winograd.cl", opts, "wino_filter", &kf));
    cl_int O = g->O, I = g->I, wo = g->wo, wi = g->wi, wr = g->wr, wsc = g->wsc, rot = g->rot;
    cl_int sxi = uxi, so = uo, si = ui;
    cl_ulong wof = p->off_w, uo64 = uof;
    cl_uint4 dv_i = cldnn_fastdiv((uint32_t)g->I);
    /* wino_filter (kernels/conv/winograd.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(kf, 0, CLDNN_ARG(O), CLDNN_ARG(I), CLDNN_ARG(b->w), CLDNN_ARG(wof), CLDNN_ARG(wo),
                                CLDNN_ARG(wi), CLDNN_ARG(wr), CLDNN_ARG(wsc), CLDNN_ARG(rot), CLDNN_ARG(b->ws),
                                CLDNN_ARG(uo64), CLDNN_ARG(sxi), CLDNN_ARG(so), CLDNN_ARG(si), CLDNN_ARG(dv_i)));
    return cldnn_enqueue_1d(h, kf, (uint64_t)g->O * (uint64_t)g->I, group, "wino_filter");
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
    const size_t group = cldnn_free_group(&h->prof);
    const int T2 = g.wa * g.wa;
    const uint64_t base = b->ws_off / 4, ufl = filter_floats(&g);
    const int64_t chunk = images_per_chunk(p, &g);

    /* U[xi][o][i] */
    CLDNN_TRY(filter_transform(h, p, b, &g, base, g.O * g.I, g.I, 1, group, opts));
    /* The fused epilogue goes to wino_output, the pass that writes y; its program is the
    ** transforms' with the epilogue's options. */
    char oopts[112];
    snprintf(oopts, sizeof oopts, "%s", opts);
    cldnn_epilogue_options(p->epi, oopts, sizeof oopts);
    cl_kernel ko;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/winograd.cl", oopts, "wino_output", &ko));
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
            /* wino_output (kernels/conv/winograd.cl), in its order. */
            CLDNN_TRY(CLDNN_KERNEL_ARGS(ko, 0, CLDNN_ARG(O), CLDNN_ARG(T), CLDNN_ARG(TW), CLDNN_ARG(P), CLDNN_ARG(Q),
                                        CLDNN_ARG(i0), CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(b->ws),
                                        CLDNN_ARG(mo), CLDNN_ARG(outm), CLDNN_ARG(yo), CLDNN_ARG(os), CLDNN_ARG(dv_t),
                                        CLDNN_ARG(dv_tt), CLDNN_ARG(dv_tw)));
            CLDNN_TRY(cldnn_epilogue_args(ko, p->epi));
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
    /* wino_input (kernels/conv/winograd.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(ki, 0, CLDNN_ARG(I), CLDNN_ARG(TT), CLDNN_ARG(TW), CLDNN_ARG(H), CLDNN_ARG(W),
                                CLDNN_ARG(ph), CLDNN_ARG(pw), CLDNN_ARG(i0), CLDNN_ARG(in), CLDNN_ARG(xo),
                                CLDNN_ARG(is), CLDNN_ARG(ws), CLDNN_ARG(vo), CLDNN_ARG(dv_t), CLDNN_ARG(dv_tt),
                                CLDNN_ARG(dv_tw)));
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
    const size_t group = cldnn_free_group(&h->prof);
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
            /* wino_dy (kernels/conv/winograd.cl), in its order. */
            CLDNN_TRY(CLDNN_KERNEL_ARGS(kd, 0, CLDNN_ARG(O), CLDNN_ARG(TT), CLDNN_ARG(TW), CLDNN_ARG(P), CLDNN_ARG(Q),
                                        CLDNN_ARG(i0), CLDNN_ARG(b->y), CLDNN_ARG(yo), CLDNN_ARG(ys), CLDNN_ARG(b->ws),
                                        CLDNN_ARG(to), CLDNN_ARG(dv_t), CLDNN_ARG(dv_tt), CLDNN_ARG(dv_tw)));
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
    /* wino_filter_grad (kernels/conv/winograd.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(kg, 0, CLDNN_ARG(O), CLDNN_ARG(I), CLDNN_ARG(b->ws), CLDNN_ARG(so), CLDNN_ARG(sxi),
                                CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(b->w), CLDNN_ARG(wof), CLDNN_ARG(wo),
                                CLDNN_ARG(wi), CLDNN_ARG(wr), CLDNN_ARG(wsc), CLDNN_ARG(rot), CLDNN_ARG(dv_i)));
    return cldnn_enqueue_1d(h, kg, (uint64_t)O * (uint64_t)I, group, "wino_filter_grad");
}

/* ---------------------------------------------------------------- fused (winograd_fused.cl) */

const char* cldnn_wino_fused_solver_name(int wm) {
    return wm == 4 ? cldnn_conv_winof4_space.db_name : cldnn_conv_winof2_space.db_name;
}

/* Local-memory bytes of the fused kernel with q (its LDS_FLOATS with the rows padded, as for
** channel-fastest layouts, plus the three tile arrays), whatever the layout: one answer per q. */
static uint64_t fused_local_bytes(const cldnn_wino_params* q, int wm) {
    const uint64_t np = (uint64_t)(wm + 2) * (uint64_t)(wm + 2), row = (uint64_t)q->wg_t + 4;
    const uint64_t in = np * (uint64_t)q->wg_c * (row + (uint64_t)q->wg_k);
    const uint64_t out = np * row * (uint64_t)(q->wg_k / q->wi_k);
    return 4 * (in > out ? in : out) + 12 * (uint64_t)q->wg_t;
}

static int fused_wg_size(const cldnn_wino_params* q) {
    return (q->wg_t / q->wi_t) * (q->wg_k / q->wi_k) * q->pos_groups;
}

int cldnn_wino_params_valid(const cldnn_wino_params* q, int wm, const cldnn_device_profile* dev) {
    const int np = (wm + 2) * (wm + 2);
    if ((wm != 2 && wm != 4) || q->wg_t < 1 || q->wg_k < 1 || q->wg_c < 1 || q->wi_t < 1 || q->wi_k < 1 ||
        q->pos_groups < 1 || q->wg_t > 256 || q->wg_k > 256 || q->wg_c > 64 || q->wi_t > 16 || q->wi_k > 16)
        return 0;
    if (q->wg_t % q->wi_t || q->wg_k % q->wi_k || np % q->pos_groups)
        return 0;
    if (np / q->pos_groups * q->wi_t * q->wi_k > 256)
        return 0;
    const int wg = fused_wg_size(q);
    return wg <= 1024 && (size_t)wg <= dev->max_wg_size && fused_local_bytes(q, wm) <= dev->local_mem;
}

void cldnn_wino_params_format(const cldnn_wino_params* q, char* buf, size_t size) {
    cldnn_params_format(CLDNN_WINO_PARAMS_TEXT, q, buf, size);
}

int cldnn_wino_params_parse(const char* s, cldnn_wino_params* q) {
    cldnn_wino_params r;
    if (!cldnn_params_parse(CLDNN_WINO_PARAMS_TEXT, s, &r, sizeof r))
        return 0;
    *q = r;
    return 1;
}

/* The defaults of tile size wm on dev for p (no tuning record): GPUs 32 tiles x 32 channels (16
** when O <= 16) with 4 x 4 micro-tiles, F(2x2) in chunks of 8 channels over 4 position groups
** (256 work-items, 64 accumulators each), F(4x4) in chunks of 4 over 6 groups (384 work-items of
** 96 accumulators: 65536 / 384 = 170 registers each on NVIDIA's SMs, where 9 groups of 64 leave
** 113, too few beside a patch's transform); CPUs 16 x 16 blocks. A device whose local memory or
** work-group size refuses them gets 16x16x4-2x2-p1. Untuned: on the H100 these defaults run the
** ResNet-50 / VGG-16 3x3 layers at 0.35-0.36 of cuDNN (README); the tuning db's records
** (cldnn-tune conv -S winograd --db) take precedence. */
static void fused_device_defaults(const cldnn_conv_problem* p, const cldnn_device_profile* dev, int wm,
                                  cldnn_wino_params* q) {
    wino_geom g;
    geom_of(p, wm, &g);
    if (dev->is_cpu) {
        const cldnn_wino_params c2 = {16, 16, 8, 4, 4, 4}, c4 = {16, 16, 8, 4, 4, 6};
        *q = wm == 4 ? c4 : c2;
    } else {
        const cldnn_wino_params g2 = {32, 32, 8, 4, 4, 4}, g4 = {32, 32, 4, 4, 4, 6};
        *q = wm == 4 ? g4 : g2;
        if (g.O <= 16)
            q->wg_k = 16;
    }
    if (!cldnn_wino_params_valid(q, wm, dev)) {
        const cldnn_wino_params small = {16, 16, 4, 2, 2, 1};
        *q = small;
    }
}

/* The fused solvers: the non-fused one's problems but backward-filter, where the defaults fit. */
static int fused_applicable(const cldnn_conv_problem* p, const cldnn_device_profile* dev, int wm) {
    if (p->dir == CLDNN_CONV_BWD_FILTER || !applicable(p, wm))
        return 0;
    cldnn_wino_params q;
    fused_device_defaults(p, dev, wm, &q);
    return cldnn_wino_params_valid(&q, wm, dev);
}

int cldnn_conv_winof2_applicable(const void* problem, const cldnn_device_profile* dev) {
    return fused_applicable((const cldnn_conv_problem*)problem, dev, 2);
}

int cldnn_conv_winof4_applicable(const void* problem, const cldnn_device_profile* dev) {
    return fused_applicable((const cldnn_conv_problem*)problem, dev, 4);
}

/* The workspace is U alone: (wm + 2)^2 x I x O floats, transformed on every call. */
size_t cldnn_conv_winof2_workspace(const void* problem, const void* params) {
    (void)params;
    wino_geom g;
    geom_of((const cldnn_conv_problem*)problem, 2, &g);
    return (size_t)(filter_floats(&g) * 4);
}

size_t cldnn_conv_winof4_workspace(const void* problem, const void* params) {
    (void)params;
    wino_geom g;
    geom_of((const cldnn_conv_problem*)problem, 4, &g);
    return (size_t)(filter_floats(&g) * 4);
}

void cldnn_conv_winof2_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    fused_device_defaults((const cldnn_conv_problem*)problem, dev, 2, (cldnn_wino_params*)params);
}

void cldnn_conv_winof4_defaults(const void* problem, const cldnn_device_profile* dev, void* params) {
    fused_device_defaults((const cldnn_conv_problem*)problem, dev, 4, (cldnn_wino_params*)params);
}

cldnnStatus_t cldnn_conv_wino_fused_run_params(cldnnHandle_t h, const cldnn_conv_problem* p, int wm,
                                               const cldnn_wino_params* q, const cldnn_conv_buffers* b) {
    if (p->dir == CLDNN_CONV_BWD_FILTER || !applicable(p, wm))
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED,
                          "fused Winograd F(%dx%d) runs forward and backward-data of 3x3 stride-1 undilated "
                          "one-group convolutions (F(4x4) not under FMA_MATH)",
                          wm, wm);
    if (!cldnn_wino_params_valid(q, wm, &h->prof)) {
        char s[64];
        cldnn_wino_params_format(q, s, sizeof s);
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED, "fused Winograd F(%dx%d) parameters %s do not fit %s", wm, wm,
                          s, h->prof.name);
    }
    wino_geom g;
    geom_of(p, wm, &g);
    char opts[32], fopts[256];
    snprintf(opts, sizeof opts, "-DWM=%d%s", wm, cldnn_dtype_build_option(p->dtype));
    /* channel-fastest patches and output pairs where the channels are unit-stride (NHWC) */
    snprintf(fopts, sizeof fopts,
             "-DWM=%d -DWG_T=%d -DWG_K=%d -DWG_C=%d -DWI_T=%d -DWI_K=%d -DPOS_GROUPS=%d -DIN_CFAST=%d -DOUT_KFAST=%d%s",
             wm, q->wg_t, q->wg_k, q->wg_c, q->wi_t, q->wi_k, q->pos_groups, g.in_s[1] == 1, g.out_s[1] == 1,
             cldnn_dtype_build_option(p->dtype));
    cldnn_epilogue_options(p->epi, fopts, sizeof fopts);
    const uint64_t base = b->ws_off / 4;
    /* U[xi][i][o] (o fastest: the kernel copies rows of output channels) */
    CLDNN_TRY(filter_transform(h, p, b, &g, base, g.I * g.O, 1, g.O, cldnn_free_group(&h->prof), opts));
    cl_kernel k;
    CLDNN_TRY(cldnn_kernel_get(h, "conv/winograd_fused.cl", fopts, "wino_fused", &k));
    const int64_t T = (int64_t)p->n * g.th * g.tw;
    const int64_t tblocks = (T + q->wg_t - 1) / q->wg_t, kblocks = ((int64_t)g.O + q->wg_k - 1) / q->wg_k;
    cl_int I = g.I, O = g.O, TT = (cl_int)T, TW = g.tw, H = g.ih, Wd = g.iw, P = g.oh, Q = g.ow;
    cl_int ph = g.pad_h, pw = g.pad_w;
    cl_ulong xo = g.in_off, uo = base, yo = g.out_off;
    cl_int4 xs = {{(cl_int)g.in_s[0], (cl_int)g.in_s[1], (cl_int)g.in_s[2], (cl_int)g.in_s[3]}};
    cl_int4 ys = {{(cl_int)g.out_s[0], (cl_int)g.out_s[1], (cl_int)g.out_s[2], (cl_int)g.out_s[3]}};
    cl_uint4 dv_tt = cldnn_fastdiv((uint32_t)(g.th * g.tw)), dv_tw = cldnn_fastdiv((uint32_t)g.tw);
    cl_uint4 dv_kb = cldnn_fastdiv((uint32_t)kblocks);
    cl_mem inm = p->dir == CLDNN_CONV_FWD ? b->x : b->y, outm = p->dir == CLDNN_CONV_FWD ? b->y : b->x;
    /* wino_fused (kernels/conv/winograd_fused.cl), in its order. */
    CLDNN_TRY(CLDNN_KERNEL_ARGS(k, 0, CLDNN_ARG(I), CLDNN_ARG(O), CLDNN_ARG(TT), CLDNN_ARG(TW), CLDNN_ARG(H),
                                CLDNN_ARG(Wd), CLDNN_ARG(P), CLDNN_ARG(Q), CLDNN_ARG(ph), CLDNN_ARG(pw),
                                CLDNN_ARG(p->alpha), CLDNN_ARG(p->beta), CLDNN_ARG(inm), CLDNN_ARG(xo), CLDNN_ARG(xs),
                                CLDNN_ARG(b->ws), CLDNN_ARG(uo), CLDNN_ARG(outm), CLDNN_ARG(yo), CLDNN_ARG(ys),
                                CLDNN_ARG(dv_tt), CLDNN_ARG(dv_tw), CLDNN_ARG(dv_kb)));
    CLDNN_TRY(cldnn_epilogue_args(k, p->epi));
    const size_t wg = (size_t)fused_wg_size(q);
    return cldnn_enqueue_1d(h, k, (uint64_t)tblocks * (uint64_t)kblocks * wg, wg, "wino_fused");
}

cldnnStatus_t cldnn_conv_winof2_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    return cldnn_conv_wino_fused_run_params(h, (const cldnn_conv_problem*)problem, 2,
                                            (const cldnn_wino_params*)params, (const cldnn_conv_buffers*)buffers);
}

cldnnStatus_t cldnn_conv_winof4_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers) {
    return cldnn_conv_wino_fused_run_params(h, (const cldnn_conv_problem*)problem, 4,
                                            (const cldnn_wino_params*)params, (const cldnn_conv_buffers*)buffers);
}

/* The space cldnn-tune searches: blocks of 16-64 tiles and channels, chunks of 2-16 channels,
** micro-tiles of 2-8 on each side, every position grouping; pruned to work-groups of 64+ items
** and at most 128 accumulators per work-item, then cldnn_wino_params_valid. */
size_t cldnn_wino_param_space(int wm, const cldnn_device_profile* dev, cldnn_wino_params* out, size_t max) {
    /* the likelier winners first (a budget-limited search covers them): 32-64 blocks, 4 x 4 */
    static const int wgs[3] = {64, 32, 16}, wgc[4] = {8, 4, 16, 2}, wis[3] = {4, 8, 2};
    static const int pgs[11] = {4, 9, 6, 3, 2, 12, 1, 8, 18, 16, 36};
    const int np = (wm + 2) * (wm + 2);
    size_t n = 0;
    /* one index over the product of the value lists, position groups fastest */
    for (int idx = 0; idx < 3 * 3 * 4 * 3 * 3 * 11; ++idx) {
        int r = idx;
        cldnn_wino_params q;
        q.pos_groups = pgs[r % 11], r /= 11;
        q.wi_k = wis[r % 3], r /= 3;
        q.wi_t = wis[r % 3], r /= 3;
        q.wg_c = wgc[r % 4], r /= 4;
        q.wg_k = wgs[r % 3], r /= 3;
        q.wg_t = wgs[r];
        if (np % q.pos_groups || !cldnn_wino_params_valid(&q, wm, dev) || fused_wg_size(&q) < 64 ||
            np / q.pos_groups * q.wi_t * q.wi_k > 128)
            continue;
        if (n < max)
            out[n] = q;
        n++;
    }
    return n;
}

static int winof2_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    (void)problem;
    return cldnn_wino_params_valid((const cldnn_wino_params*)params, 2, dev);
}

static int winof4_valid(const void* problem, const cldnn_device_profile* dev, const void* params) {
    (void)problem;
    return cldnn_wino_params_valid((const cldnn_wino_params*)params, 4, dev);
}

static size_t winof2_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    (void)problem;
    const size_t n = cldnn_wino_param_space(2, dev, (cldnn_wino_params*)out, max);
    return n < max ? n : max;
}

static size_t winof4_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max) {
    (void)problem;
    const size_t n = cldnn_wino_param_space(4, dev, (cldnn_wino_params*)out, max);
    return n < max ? n : max;
}

/* The fused kernels' spaces: one record name per tile size for every direction. */
const cldnn_param_space cldnn_conv_winof2_space = {
    .text = CLDNN_WINO_PARAMS_TEXT,
    .names = CLDNN_WINO_PARAMS_NAMES,
    .db_name = "winograd_fused_f2x2",
    .valid = winof2_valid,
    .enumerate = winof2_enumerate,
};

const cldnn_param_space cldnn_conv_winof4_space = {
    .text = CLDNN_WINO_PARAMS_TEXT,
    .names = CLDNN_WINO_PARAMS_NAMES,
    .db_name = "winograd_fused_f4x4",
    .valid = winof4_valid,
    .enumerate = winof4_enumerate,
};
