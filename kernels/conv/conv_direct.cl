/*
 * conv_direct.cl: the convolution kernels that are not a GEMM tile:
 *   conv_dw_fwd, conv_dw_bwd_data   direct depthwise-style convolution (one input channel per
 *                                   group, any channel multiplier): one work-item per output
 *                                   element, bandwidth-bound, where a GEMM of width 1 wastes work
 *   conv_dw_bwd_filter              its filter gradient: per-image partial sums of every tap
 *   conv_im2col, conv_col2im        the explicit GEMM algorithm's unfold and (gathering, hence
 *                                   deterministic) fold of the column matrix
 *   conv_bwd_bias                   db = alpha * sum of dy over N, P, Q + beta * db
 *
 * Shapes, tensor strides (elements, logical n, c, h, w order) and offsets are arguments; index
 * arithmetic is 32-bit (the host guarantees spans below 2^31) except conv_bwd_bias's;
 * divisions by runtime sizes go through common/fastdiv.h. CONVOLUTION mode flips the filter
 * (r' = R-1-r) on the activation side, as conv_igemm.cl does.
 *
 * Build options
 *   DATA_HALF  1 (DATA_BF16 1): x, w, y (dx, dw, dy, db) and im2col's column matrix are half
 *              (bfloat16; common/helpers.h); sums stay float, as do col2im's column matrix
 *              and the per-image partial sums
 *   CHLAST   1: work-items walk the channel fastest (NHWC tensors), 0: the column (NCHW)
 *   KORD     tap order of the column matrix (0: c, r, s as KCRS; 1: r, s, c as KRSC)
 *   WG       work-group size of conv_bwd_bias and conv_dw_bwd_filter (a power of two; default 256)
 *   FR, FS   the filter's R and S for the kernels that unroll over taps, each compiled only when
 *            its own option is defined: DW_TILED (conv_dw_fwd_tiled: TX, TY, OPY, DW_LOCAL),
 *            QMAX (conv_dw_fwd_rows: SV, DW) and DW_BWD_FILTER (conv_dw_bwd_filter)
 *            and DWV (conv_dw_fwd_vec, CPU devices: its vector width; SV, DW)
 *   COL2IM_ROWS  CPU devices: compiles conv_col2im_rows for rows of up to this many columns
 *   EPI_ACT, EPI_Z  the fused epilogue (common/epilogue.h) of the four depthwise forward
 *            kernels: bias, z and the activation in the store
 */
#include "common/helpers.h"
#include "common/conv_index.h" /* KORD, TAP_DECODE (and fastdiv.h) */
#include "common/epilogue.h"

#ifndef CHLAST
#define CHLAST 0
#endif
#ifndef WG
#define WG 256
#endif

/* Splits linear index i into (a, b, c, d), d fastest, with divisors dv_d, dv_c, dv_b. */
#define SPLIT4(i, a, b, c, d, dvd, dvc, dvb)                                                        \
    do {                                                                                            \
        int t_ = fdiv((i), dvd);                                                                    \
        d = (i) - t_ * (int)(dvd).x;                                                                \
        int u_ = fdiv(t_, dvc);                                                                     \
        c = t_ - u_ * (int)(dvc).x;                                                                 \
        a = fdiv(u_, dvb);                                                                          \
        b = u_ - a * (int)(dvb).x;                                                                  \
    } while (0)

/* y(n, k, oh, ow) = alpha * sum_{r,s} w[k, 0, r, s] x(n, k / Kg, ih, iw) + beta * y. Filter
 * K x 1 x R x S (the same bytes in KCRS and KRSC). Work-items walk y in its memory order:
 * (n, oh, ow, k) with CHLAST, else (n, k, oh, ow); dv0..dv2 divide by the three fastest extents. */
__kernel void conv_dw_fwd(int total, float alpha, float beta, __global const STORAGE_T* X, ulong x_off, int4 xs,
                          __global const STORAGE_T* Wt, ulong w_off, __global STORAGE_T* Y, ulong y_off, int4 ys, int H,
                          int Wd, int R, int S, int Kg, int pad_h, int pad_w, int su, int sv, int dil_h, int dil_w,
                          int flip, uint4 dv0, uint4 dv1, uint4 dv2, uint4 dv_kg EPI_PARAMS) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    int n, k, oh, ow;
#if CHLAST
    SPLIT4(i, n, oh, ow, k, dv0, dv1, dv2);
#else
    SPLIT4(i, n, k, oh, ow, dv0, dv1, dv2);
#endif
    const int c = fdiv(k, dv_kg);
    __global const STORAGE_T* xp = X + x_off + n * xs.s0 + c * xs.s1;
    __global const STORAGE_T* wp = Wt + w_off + k * R * S;
    const int ih0 = oh * su - pad_h, iw0 = ow * sv - pad_w;
    float acc = 0.0f;
    for (int r = 0; r < R; ++r) {
        const int ih = ih0 + (flip ? R - 1 - r : r) * dil_h;
        if ((uint)ih >= (uint)H)
            continue;
        __global const STORAGE_T* row = xp + ih * xs.s2;
        for (int s = 0; s < S; ++s) {
            const int iw = iw0 + (flip ? S - 1 - s : s) * dil_w;
            if ((uint)iw < (uint)Wd)
                acc = fma(LOAD(wp, r * S + s), LOAD(row, iw * xs.s3), acc);
        }
    }
    const int yi = n * ys.s0 + k * ys.s1 + oh * ys.s2 + ow * ys.s3;
    __global STORAGE_T* yp = Y + y_off + yi;
    float out = alpha * acc;
    if (beta != 0.0f)
        out = fma(beta, LOAD(yp, 0), out);
    EPI_SETUP(0);
    EPI_APPLY(out, k, yi);
    STORE(yp, 0, out);
}

/* Tiled depthwise forward for NCHW-strided planes (FR x FS filters, build options): a work-group
 * of TX x TY work-items computes a TX x (TY * OPY) tile of one output plane (n, k). The input
 * region the tile reads (with its halo, zeros outside the image) is staged once in local memory,
 * coalesced along rows, so every input element is read from global memory about once; each
 * work-item then computes OPY outputs of one column from local memory. The host checks that the
 * region fits DW_LOCAL floats. Grid: (ceil(Q / TX) * TX, ceil(P / (TY * OPY)) * TY, N * K). */
#ifndef TX
#define TX 32
#endif
#ifndef TY
#define TY 8
#endif
#ifndef OPY
#define OPY 2
#endif
#ifndef DW_LOCAL
#define DW_LOCAL 4096 /* floats of the staged region; the host passes the exact size */
#endif
#ifdef DW_TILED
__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void conv_dw_fwd_tiled(int K, int P, int Q, float alpha, float beta, __global const STORAGE_T* X, ulong x_off, int4 xs,
                       __global const STORAGE_T* Wt, ulong w_off, __global STORAGE_T* Y, ulong y_off, int4 ys, int H, int Wd,
                       int Kg, int pad_h, int pad_w, int su, int sv, int dil_h, int dil_w, int flip,
                       uint4 dv_kg EPI_PARAMS) {
    __local float tile[DW_LOCAL];
    EPI_SETUP(0);
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int nk = (int)get_group_id(2);
    const int n = nk / K, k = nk - n * K;
    const int c = fdiv(k, dv_kg);
    const int ow0 = (int)get_group_id(0) * TX, oh0 = (int)get_group_id(1) * (TY * OPY);
    const int tw = (TX - 1) * sv + (FS - 1) * dil_w + 1;     /* staged region: th rows x tw columns */
    const int th = (TY * OPY - 1) * su + (FR - 1) * dil_h + 1;
    const int ih0 = oh0 * su - pad_h, iw0 = ow0 * sv - pad_w;
    __global const STORAGE_T* xp = X + x_off + n * xs.s0 + c * xs.s1;
    for (int rr = ty; rr < th; rr += TY) {
        const int ih = ih0 + rr;
        const int okh = (uint)ih < (uint)H;
        for (int cc = tx; cc < tw; cc += TX) {
            const int iw = iw0 + cc;
            tile[rr * tw + cc] = (okh && (uint)iw < (uint)Wd) ? LOAD(xp, ih * xs.s2 + iw * xs.s3) : 0.0f;
        }
    }
    float wr[FR * FS];
    __global const STORAGE_T* wp = Wt + w_off + k * (FR * FS);
#pragma unroll
    for (int t = 0; t < FR * FS; ++t)
        wr[t] = LOAD(wp, t);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int ow = ow0 + tx;
#pragma unroll
    for (int j = 0; j < OPY; ++j) {
        const int oh = oh0 + ty * OPY + j;
        const int lr = (ty * OPY + j) * su, lc = tx * sv;
        float acc = 0.0f;
#pragma unroll
        for (int r = 0; r < FR; ++r)
#pragma unroll
            for (int s = 0; s < FS; ++s)
                acc = fma(wr[(flip ? FR - 1 - r : r) * FS + (flip ? FS - 1 - s : s)],
                          tile[(lr + r * dil_h) * tw + lc + s * dil_w], acc);
        if (oh < P && ow < Q) {
            const int yi = n * ys.s0 + k * ys.s1 + oh * ys.s2 + ow * ys.s3;
            __global STORAGE_T* yp = Y + y_off + yi;
            float out = alpha * acc;
            if (beta != 0.0f)
                out = fma(beta, LOAD(yp, 0), out);
            EPI_APPLY(out, k, yi);
            STORE(yp, 0, out);
        }
    }
}
#endif

/* Depthwise forward on narrow planes (Q <= QMAX): one work-item per output row (n, k, oh). Each
 * input row the filter touches is read once into registers and serves the whole output row, so
 * an input element is loaded about FR times instead of FR * FS. FR, FS, SV (column stride) and DW
 * (column dilation) are build options so that every register index is a constant after
 * unrolling. Work-items: N * K * P, oh fastest. */
/* The output row (n, k, oh) of work-item i of the row kernels (oh fastest) and its input plane
 * and filter. */
#define DW_ROW_SETUP()                                                                                \
    const int i = (int)get_global_id(0);                                                              \
    if (i >= total)                                                                                   \
        return;                                                                                       \
    const int nk = fdiv(i, dv_p), oh = i - nk * P;                                                    \
    const int n = fdiv(nk, dv_k), k = nk - n * K;                                                     \
    const int c = fdiv(k, dv_kg);                                                                     \
    __global const STORAGE_T* xp = X + x_off + n * xs.s0 + c * xs.s1;                                 \
    __global const STORAGE_T* wp = Wt + w_off + k * (FR * FS)

#ifdef QMAX
#define XMAX ((QMAX - 1) * SV + (FS - 1) * DW + 1)
__kernel void conv_dw_fwd_rows(int total, int K, int P, int Q, float alpha, float beta, __global const STORAGE_T* X,
                               ulong x_off, int4 xs, __global const STORAGE_T* Wt, ulong w_off, __global STORAGE_T* Y,
                               ulong y_off, int4 ys, int H, int Wd, int pad_h, int pad_w, int su, int dil_h, int flip,
                               uint4 dv_p, uint4 dv_k, uint4 dv_kg EPI_PARAMS) {
    DW_ROW_SETUP();
    const int iw0 = -pad_w;
    float acc[QMAX];
#pragma unroll
    for (int q = 0; q < QMAX; ++q)
        acc[q] = 0.0f;
#pragma unroll
    for (int r = 0; r < FR; ++r) {
        const int ih = oh * su - pad_h + r * dil_h; /* r, s: positions in the window */
        if ((uint)ih >= (uint)H)
            continue;
        __global const STORAGE_T* row = xp + ih * xs.s2;
        float xr[XMAX];
#pragma unroll
        for (int j = 0; j < XMAX; ++j) {
            const int iw = iw0 + j;
            xr[j] = (uint)iw < (uint)Wd ? LOAD(row, iw * xs.s3) : 0.0f;
        }
        float wr[FS];
#pragma unroll
        for (int s = 0; s < FS; ++s)
            wr[s] = LOAD(wp, (flip ? FR - 1 - r : r) * FS + (flip ? FS - 1 - s : s));
#pragma unroll
        for (int q = 0; q < QMAX; ++q)
#pragma unroll
            for (int s = 0; s < FS; ++s)
                acc[q] = fma(wr[s], xr[q * SV + s * DW], acc[q]);
    }
    const int yi = n * ys.s0 + k * ys.s1 + oh * ys.s2;
    __global STORAGE_T* yp = Y + y_off + yi;
    EPI_SETUP(0);
#pragma unroll
    for (int q = 0; q < QMAX; ++q) {
        if (q < Q) {
            float out = alpha * acc[q];
            if (beta != 0.0f)
                out = fma(beta, LOAD(yp, q * ys.s3), out);
            EPI_APPLY(out, k, yi + q * ys.s3);
            STORE(yp, q * ys.s3, out);
        }
    }
}
#endif

/* conv_dw_fwd's outputs for CPU devices, one output row per work-item in vectors of DWV
 * consecutive outputs: per tap, a vector load of the input row where the taps' columns lie inside
 * it at unit stride (SV 1, a column stride of 1), else a lane-by-lane gather with zeros outside.
 * conv_dw_fwd_rows' arguments and options FR, FS, SV, DW; any row length. */
#ifdef DWV
#define DWV_T CAT(float, DWV)
__kernel void conv_dw_fwd_vec(int total, int K, int P, int Q, float alpha, float beta, __global const STORAGE_T* X,
                              ulong x_off, int4 xs, __global const STORAGE_T* Wt, ulong w_off, __global STORAGE_T* Y,
                              ulong y_off, int4 ys, int H, int Wd, int pad_h, int pad_w, int su, int dil_h, int flip,
                              uint4 dv_p, uint4 dv_k, uint4 dv_kg EPI_PARAMS) {
    DW_ROW_SETUP();
    const int yi0 = n * ys.s0 + k * ys.s1 + oh * ys.s2, ih0 = oh * su - pad_h;
    __global STORAGE_T* yp = Y + y_off + yi0;
    EPI_SETUP(0);
    for (int ow0 = 0; ow0 < Q; ow0 += DWV) {
        DWV_T acc = (DWV_T)0.0f;
#pragma unroll
        for (int r = 0; r < FR; ++r) { /* r, s: positions in the window */
            if ((uint)(ih0 + r * dil_h) >= (uint)H)
                continue;
            __global const STORAGE_T* row = xp + (ih0 + r * dil_h) * xs.s2;
#pragma unroll
            for (int s = 0; s < FS; ++s) {
                const float w = LOAD(wp, (flip ? FR - 1 - r : r) * FS + (flip ? FS - 1 - s : s));
                const int iw0 = ow0 * SV - pad_w + s * DW;
                DWV_T v;
                if (SV == 1 && xs.s3 == 1 && iw0 >= 0 && iw0 + DWV <= Wd) {
                    v = VLOADN_OF(DATA_H, DWV, row + iw0, 0);
                } else {
                    float t[DWV];
                    for (int l = 0; l < DWV; ++l) {
                        const int iw = iw0 + l * SV;
                        t[l] = (uint)iw < (uint)Wd ? LOAD(row, iw * xs.s3) : 0.0f;
                    }
                    v = CAT(vload, DWV)(0, t);
                }
                acc = fma((DWV_T)w, v, acc);
            }
        }
        float o[DWV];
        CAT(vstore, DWV)(acc, 0, o);
        for (int l = 0; l < DWV && ow0 + l < Q; ++l) {
            const int yi = (ow0 + l) * ys.s3;
            float out = alpha * o[l];
            if (beta != 0.0f)
                out = fma(beta, LOAD(yp, yi), out);
            EPI_APPLY(out, k, yi0 + yi);
            STORE(yp, yi, out);
        }
    }
}
#endif

/* dx(n, c, ih, iw) = alpha * sum_{m < Kg, r, s} w[c * Kg + m, 0, r, s] dy(n, c * Kg + m, oh, ow)
 * over the (oh, ow) with oh * u = ih + pad_h - r' dil_h (likewise ow) inside dy, + beta * dx. */
__kernel void conv_dw_bwd_data(int total, float alpha, float beta, __global STORAGE_T* DX, ulong x_off, int4 xs,
                               __global const STORAGE_T* Wt, ulong w_off, __global const STORAGE_T* DY, ulong y_off, int4 ys,
                               int P, int Q, int R, int S, int Kg, int pad_h, int pad_w, int su, int sv, int dil_h,
                               int dil_w, int flip, uint4 dv0, uint4 dv1, uint4 dv2, uint4 dv_u, uint4 dv_v) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    int n, c, ih, iw;
#if CHLAST
    SPLIT4(i, n, ih, iw, c, dv0, dv1, dv2);
#else
    SPLIT4(i, n, c, ih, iw, dv0, dv1, dv2);
#endif
    float acc = 0.0f;
    for (int m = 0; m < Kg; ++m) {
        const int k = c * Kg + m;
        __global const STORAGE_T* dyp = DY + y_off + n * ys.s0 + k * ys.s1;
        __global const STORAGE_T* wp = Wt + w_off + k * R * S;
        for (int r = 0; r < R; ++r) {
            const int th = ih + pad_h - (flip ? R - 1 - r : r) * dil_h;
            if (th < 0)
                continue;
            const int oh = fdiv(th, dv_u);
            if (oh * su != th || oh >= P)
                continue;
            __global const STORAGE_T* row = dyp + oh * ys.s2;
            for (int s = 0; s < S; ++s) {
                const int tw = iw + pad_w - (flip ? S - 1 - s : s) * dil_w;
                if (tw < 0)
                    continue;
                const int ow = fdiv(tw, dv_v);
                if (ow * sv == tw && ow < Q)
                    acc = fma(LOAD(wp, r * S + s), LOAD(row, ow * ys.s3), acc);
            }
        }
    }
    __global STORAGE_T* dxp = DX + x_off + n * xs.s0 + c * xs.s1 + ih * xs.s2 + iw * xs.s3;
    float out = alpha * acc;
    if (beta != 0.0f)
        out = fma(beta, LOAD(dxp, 0), out);
    STORE(dxp, 0, out);
}

/* Depthwise backward-filter, per image: part[(n * K + k) * FR * FS + t] = sum over the output
 * pixels of image n of dy(n, k, oh, ow) x(n, k / Kg, ih, iw) for tap t = (r, s); one work-group
 * of WG per (n, k), every tap in registers (FR x FS are build options: the tap loop must unroll to
 * keep the accumulators in registers), a fixed-order reduction (WG >= FR * FS, and the host
 * keeps FR * FS * WG floats of local memory within 32 KiB). The host then sums the images'
 * partials (gemm_splitk_reduce). Grid: WG * N * K. */
#ifdef DW_BWD_FILTER
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void conv_dw_bwd_filter(int K, int P, int Q, __global const STORAGE_T* X, ulong x_off, int4 xs, __global const STORAGE_T* DY,
                        ulong y_off, int4 ys, __global float* Part, ulong part_off, int H, int Wd, int Kg, int pad_h,
                        int pad_w, int su, int sv, int dil_h, int dil_w, int flip, uint4 dv_q, uint4 dv_kg) {
    __local float red[FR * FS * WG];
    const int gid = (int)get_group_id(0), lid = (int)get_local_id(0);
    const int n = gid / K, k = gid - n * K;
    const int c = fdiv(k, dv_kg);
    __global const STORAGE_T* xp = X + x_off + n * xs.s0 + c * xs.s1;
    __global const STORAGE_T* dyp = DY + y_off + n * ys.s0 + k * ys.s1;
    float acc[FR * FS];
    for (int t = 0; t < FR * FS; ++t)
        acc[t] = 0.0f;
    for (int pix = lid; pix < P * Q; pix += WG) {
        const int oh = fdiv(pix, dv_q), ow = pix - oh * Q;
        const float g = LOAD(dyp, oh * ys.s2 + ow * ys.s3);
        const int ih0 = oh * su - pad_h, iw0 = ow * sv - pad_w;
#pragma unroll
        for (int r = 0; r < FR; ++r) {
            const int ih = ih0 + (flip ? FR - 1 - r : r) * dil_h;
            const int okh = (uint)ih < (uint)H;
#pragma unroll
            for (int s = 0; s < FS; ++s) {
                const int iw = iw0 + (flip ? FS - 1 - s : s) * dil_w;
                if (okh && (uint)iw < (uint)Wd)
                    acc[r * FS + s] = fma(g, LOAD(xp, ih * xs.s2 + iw * xs.s3), acc[r * FS + s]);
            }
        }
    }
    /* Every tap's tree at once: one barrier per level. */
#pragma unroll
    for (int t = 0; t < FR * FS; ++t)
        red[t * WG + lid] = acc[t];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = WG / 2; w > 0; w >>= 1) {
        if (lid < w)
            for (int t = 0; t < FR * FS; ++t)
                red[t * WG + lid] += red[t * WG + lid + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid < FR * FS)
        Part[part_off + (long)gid * (FR * FS) + lid] = red[lid * WG];
}
#endif

/* col[l * cs_img + t * cs_t + pix * cs_p] = x(img0 + l, g * Cg + c, ih, iw) (0 outside) for the nb
 * images from img0, the taps t of group g and the output pixels pix = oh * Q + ow. Work-items walk
 * (l, pix, t) with CHLAST (cs_t == 1), else (l, t, pix). */
__kernel void conv_im2col(int total, __global const STORAGE_T* X, ulong x_off, int4 xs, __global STORAGE_T* Col,
                          ulong col_off, int cs_img, int cs_t, int cs_p, int img0, int g, int Cg, int H, int Wd,
                          int Q, int S, int pad_h, int pad_w, int su, int sv, int dil_h, int dil_w, int R, int flip,
                          uint4 dv_fast, uint4 dv_mid, uint4 dv_q, uint4 dv_tap, uint4 dv_s) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    int t_ = fdiv(i, dv_fast);
    const int fast = i - t_ * (int)dv_fast.x;
    const int l = fdiv(t_, dv_mid);
    const int mid = t_ - l * (int)dv_mid.x;
#if CHLAST
    const int t = fast, pix = mid;
#else
    const int t = mid, pix = fast;
#endif
    int c, r, s;
    TAP_DECODE(t, c, r, s);
    const int oh = fdiv(pix, dv_q), ow = pix - oh * Q;
    const int ih = oh * su - pad_h + (flip ? R - 1 - r : r) * dil_h;
    const int iw = ow * sv - pad_w + (flip ? S - 1 - s : s) * dil_w;
    float v = 0.0f;
    if ((uint)ih < (uint)H && (uint)iw < (uint)Wd)
        v = LOAD(X, x_off + (img0 + l) * xs.s0 + (g * Cg + c) * xs.s1 + ih * xs.s2 + iw * xs.s3);
    STORE(Col, col_off + l * cs_img + t * cs_t + pix * cs_p, v);
}

/* conv_im2col's column matrix for CPU devices, a run of its fastest dimension per work-item, so
 * that each writes consecutive elements and reads x along its rows: with CHLAST (cs_t == 1) every
 * tap of one output pixel (work-items walk (l, pix)), else one output row of one tap (Q pixels;
 * work-items walk (l, t, oh); dv_fast divides by P, dv_mid by the taps). Same arguments. */
__kernel void conv_im2col_rows(int total, __global const STORAGE_T* X, ulong x_off, int4 xs, __global STORAGE_T* Col,
                               ulong col_off, int cs_img, int cs_t, int cs_p, int img0, int g, int Cg, int H, int Wd,
                               int Q, int S, int pad_h, int pad_w, int su, int sv, int dil_h, int dil_w, int R,
                               int flip, uint4 dv_fast, uint4 dv_mid, uint4 dv_q, uint4 dv_tap, uint4 dv_s) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
#if CHLAST
    const int l = fdiv(i, dv_fast), pix = i - l * (int)dv_fast.x;
    const int oh = fdiv(pix, dv_q), ow = pix - oh * Q;
    __global const STORAGE_T* xp = X + x_off + (img0 + l) * xs.s0 + g * Cg * xs.s1;
    __global STORAGE_T* cp = Col + col_off + l * cs_img + pix * cs_p;
    /* Taps in the filter's order: (r, s, c) for KORD 1, (c, r, s) for KORD 0. */
    const int n0 = KORD ? R : Cg, n1 = KORD ? S : R, n2 = KORD ? Cg : S;
    int t = 0;
    for (int a = 0; a < n0; ++a)
        for (int b = 0; b < n1; ++b)
            for (int e = 0; e < n2; ++e, ++t) {
                const int c = KORD ? e : a, r = KORD ? a : b, s = KORD ? b : e;
                const int ih = oh * su - pad_h + (flip ? R - 1 - r : r) * dil_h;
                const int iw = ow * sv - pad_w + (flip ? S - 1 - s : s) * dil_w;
                float v = 0.0f;
                if ((uint)ih < (uint)H && (uint)iw < (uint)Wd)
                    v = LOAD(xp, c * xs.s1 + ih * xs.s2 + iw * xs.s3);
                STORE(cp, t, v);
            }
#else
    int t_ = fdiv(i, dv_fast);
    const int oh = i - t_ * (int)dv_fast.x;
    const int l = fdiv(t_, dv_mid), t = t_ - l * (int)dv_mid.x;
    int c, r, s;
    TAP_DECODE(t, c, r, s);
    const int ih = oh * su - pad_h + (flip ? R - 1 - r : r) * dil_h;
    const int iw0 = -pad_w + (flip ? S - 1 - s : s) * dil_w;
    __global STORAGE_T* cp = Col + col_off + l * cs_img + t * cs_t + oh * Q;
    if ((uint)ih >= (uint)H) {
        for (int ow = 0; ow < Q; ++ow)
            STORE(cp, ow, 0.0f);
        return;
    }
    __global const STORAGE_T* xp = X + x_off + (img0 + l) * xs.s0 + (g * Cg + c) * xs.s1 + ih * xs.s2;
    for (int ow = 0; ow < Q; ++ow) {
        const int iw = iw0 + ow * sv;
        STORE(cp, ow, (uint)iw < (uint)Wd ? LOAD(xp, iw * xs.s3) : 0.0f);
    }
#endif
}

/* In the fold's loop over filter rows r: the output row oh whose taps of row r read input row
 * ih, else the next r. */
#define COL2IM_OUT_ROW(r, oh)                                                                         \
    const int th_ = ih + pad_h - (flip ? R - 1 - (r) : (r)) * dil_h;                                  \
    if (th_ < 0)                                                                                      \
        continue;                                                                                     \
    const int oh = fdiv(th_, dv_u);                                                                   \
    if (oh * su != th_ || oh >= P)                                                                    \
    continue

/* dx(img0 + l, g * Cg + c, ih, iw) = alpha * sum over taps (r, s) whose output pixel (oh, ow)
 * exists of col[l * cs_img + t(c, r, s) * cs_t + (oh * Q + ow) * cs_p] + beta * dx. Work-items walk
 * (l, ih, iw, c) with CHLAST, else (l, c, ih, iw): dv0..dv2 divide by the three fastest extents
 * (Wd, dx's width, is conv_col2im_rows'). */
__kernel void conv_col2im(int total, float alpha, float beta, __global STORAGE_T* DX, ulong x_off, int4 xs,
                          __global const float* Col, ulong col_off, int cs_img, int cs_t, int cs_p, int img0,
                          int g, int Cg, int P, int Q, int R, int S, int pad_h, int pad_w, int su, int sv, int dil_h,
                          int dil_w, int flip, int Wd, uint4 dv0, uint4 dv1, uint4 dv2, uint4 dv_u, uint4 dv_v) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    int l, c, ih, iw;
#if CHLAST
    SPLIT4(i, l, ih, iw, c, dv0, dv1, dv2);
#else
    SPLIT4(i, l, c, ih, iw, dv0, dv1, dv2);
#endif
    __global const float* cp = Col + col_off + l * cs_img;
    float acc = 0.0f;
    for (int r = 0; r < R; ++r) {
        COL2IM_OUT_ROW(r, oh);
        for (int s = 0; s < S; ++s) {
            const int tw = iw + pad_w - (flip ? S - 1 - s : s) * dil_w;
            if (tw < 0)
                continue;
            const int ow = fdiv(tw, dv_v);
            if (ow * sv != tw || ow >= Q)
                continue;
            const int t = KORD == 0 ? (c * R + r) * S + s : (r * S + s) * Cg + c;
            acc += cp[t * cs_t + (oh * Q + ow) * cs_p];
        }
    }
    __global STORAGE_T* dxp = DX + x_off + (img0 + l) * xs.s0 + (g * Cg + c) * xs.s1 + ih * xs.s2 +
                          iw * xs.s3;
    float out = alpha * acc;
    if (beta != 0.0f)
        out = fma(beta, LOAD(dxp, 0), out);
    STORE(dxp, 0, out);
}

/* conv_col2im for CPU devices (compiled with -DCOL2IM_ROWS=<max row length>): one input row
 * (l, c, ih) of dx per work-item, rows of at most COL2IM_ROWS columns. Each tap whose output row
 * exists adds the column matrix's run for it to the row's sums in a private array (the same
 * order per element as conv_col2im's, so the same sums), read along the output columns.
 * Work-items walk (l, c, ih), ih fastest: dv0 divides by H, dv1 by Cg; conv_col2im's arguments. */
#ifdef COL2IM_ROWS
__kernel void conv_col2im_rows(int total, float alpha, float beta, __global STORAGE_T* DX, ulong x_off, int4 xs,
                               __global const float* Col, ulong col_off, int cs_img, int cs_t, int cs_p, int img0,
                               int g, int Cg, int P, int Q, int R, int S, int pad_h, int pad_w, int su, int sv,
                               int dil_h, int dil_w, int flip, int Wd, uint4 dv0, uint4 dv1, uint4 dv2, uint4 dv_u,
                               uint4 dv_v) {
    const int i = (int)get_global_id(0);
    if (i >= total)
        return;
    const int lc = fdiv(i, dv0), l = fdiv(lc, dv1);
    const int ih = i - lc * (int)dv0.x, c = lc - l * (int)dv1.x;
    __global const float* cp = Col + col_off + l * cs_img;
    float acc[COL2IM_ROWS];
    for (int iw = 0; iw < Wd; ++iw)
        acc[iw] = 0.0f;
    for (int r = 0; r < R; ++r) {
        COL2IM_OUT_ROW(r, oh);
        for (int s = 0; s < S; ++s) {
            const int t = KORD == 0 ? (c * R + r) * S + s : (r * S + s) * Cg + c;
            __global const float* run = cp + t * cs_t + oh * Q * cs_p;
            const int iw0 = (flip ? S - 1 - s : s) * dil_w - pad_w; /* iw of output column 0 */
            /* Output columns whose iw = iw0 + ow * sv lies inside the row. */
            const int lo = iw0 >= 0 ? 0 : (-iw0 + sv - 1) / sv;
            const int hi = min(Q, iw0 < Wd ? (Wd - 1 - iw0) / sv + 1 : 0);
            for (int ow = lo; ow < hi; ++ow)
                acc[iw0 + ow * sv] += run[ow * cs_p];
        }
    }
    __global STORAGE_T* dxp = DX + x_off + (img0 + l) * xs.s0 + (g * Cg + c) * xs.s1 + ih * xs.s2;
    for (int iw = 0; iw < Wd; ++iw) {
        float out = alpha * acc[iw];
        if (beta != 0.0f)
            out = fma(beta, LOAD(dxp, iw * xs.s3), out);
        STORE(dxp, iw * xs.s3, out);
    }
}
#endif

/* One work-group of WG per output channel k: db[k * db_stride] = alpha * sum_{n, oh, ow} dy + beta
 * * db, summed in a fixed order (deterministic). dv_pq divides by P*Q, dv_q by Q. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void conv_bwd_bias(int N, int P, int Q, float alpha, float beta, __global const STORAGE_T* DY, ulong y_off, long4 ys,
                   __global STORAGE_T* DB, ulong db_off, long db_stride, uint4 dv_pq, uint4 dv_q) {
    __local float part[WG];
    const int k = (int)get_group_id(0), lid = (int)get_local_id(0);
    const int total = N * P * Q;
    __global const STORAGE_T* dyp = DY + y_off + (long)k * ys.s1;
    float acc = 0.0f;
    for (int i = lid; i < total; i += WG) {
        const int n = fdiv(i, dv_pq), pix = i - n * P * Q;
        const int oh = fdiv(pix, dv_q), ow = pix - oh * Q;
        acc += LOAD(dyp, (long)n * ys.s0 + (long)oh * ys.s2 + (long)ow * ys.s3);
    }
    part[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = WG / 2; w > 0; w >>= 1) {
        if (lid < w)
            part[lid] += part[lid + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) {
        __global STORAGE_T* o = DB + db_off + (long)k * db_stride;
        float out = alpha * part[0];
        if (beta != 0.0f)
            out = fma(beta, LOAD(o, 0), out);
        STORE(o, 0, out);
    }
}
