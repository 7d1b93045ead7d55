/*
 * winograd.cl: the transforms of non-fused Winograd convolution F(m x m, 3 x 3) (Lavin and Gray,
 * 2016), m = WM = 2 or 4, tile WA = m + 2. A stride-1, dilation-1, 3x3 convolution of one group
 * becomes, per position xi of the WA x WA transformed tile, one GEMM over channels:
 *     U[xi](o, i) = (G g(o, i) G^T)[xi]          filter transform (wino_filter)
 *     V[xi](i, t) = (B^T d(i, t) B)[xi]          input transform of tile t (wino_input)
 *     M[xi](o, t) = sum_i U[xi](o, i) V[xi](i, t) the batched GEMM (src/gemm, batch = WA^2)
 *     y(o, t)     = A^T M(o, t) A                output transform (wino_output)
 * Forward: i = c, o = k. Backward-data is the forward of dy with the filter transposed (i = k,
 * o = c) and rotated by 180 degrees, and padding 2 - pad: the host sets `rot` and the strides.
 *
 * Layouts (floats, from each buffer's offset): U[xi * uxi + o * uo + i * ui], V[(xi * I + i) * T
 * + t] and M[(xi * O + o) * T + t] with T tiles, t = (n * TH + th) * TW + tw over the images of a
 * chunk. Tensors are read and written through their element strides (int4, n c h w), so NCHW,
 * NHWC and padded views share one path. Index arithmetic is 32-bit: the host keeps every buffer
 * below 2^31 elements.
 *
 * Build options: WM (2 or 4); DATA_HALF=1 or DATA_BF16=1 (common/helpers.h): x, w, y (dx, dw,
 * dy) are half or bfloat16, loaded as float and rounded once when stored; U, V, M and S stay
 * float. EPI_ACT, EPI_Z: forward's fused epilogue (common/epilogue.h: bias, z, activation) in
 * wino_output's store, the pass that writes y.
 */
#include "common/helpers.h"
#include "common/fastdiv.h"
#include "common/epilogue.h"

#ifndef WM
#define WM 2
#endif
#define WA (WM + 2)

/* The transform matrices, row-major. */
#if WM == 2
__constant float BT[WA * WA] = {1, 0, -1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1, 0, -1};
__constant float G[WA * 3] = {1, 0, 0, 0.5f, 0.5f, 0.5f, 0.5f, -0.5f, 0.5f, 0, 0, 1};
__constant float AT[WM * WA] = {1, 1, 1, 0, 0, 1, -1, -1};
#else
__constant float BT[WA * WA] = {4, 0, -5, 0,  1, 0, 0, -4, -4, 1, 1, 0, 0, 4, -4, -1, 1, 0,
                                0, -2, -1, 2, 1, 0, 0, 2, -1, -2, 1, 0, 0, 4, 0, -5, 0, 1};
__constant float G[WA * 3] = {0.25f,         0,              0,
                              -1.0f / 6,     -1.0f / 6,      -1.0f / 6,
                              -1.0f / 6,     1.0f / 6,       -1.0f / 6,
                              1.0f / 24,     1.0f / 12,      1.0f / 6,
                              1.0f / 24,     -1.0f / 12,     1.0f / 6,
                              0,             0,              1};
__constant float AT[WM * WA] = {1, 1, 1, 1, 1, 0, 0, 1, -1, 2, -2, 0, 0, 1, 1, 4, 4, 0, 0, 1, -1, 8, -8, 1};
#endif

/* U = G g G^T for every (o, i), g(r, s) = w[o * wo + i * wi + r * wr + s * ws'] read rotated by
 * 180 degrees when rot. One work-item per (o, i), i fastest. */
__kernel void wino_filter(int O, int I, __global const STORAGE_T* Wt, ulong w_off, int wo, int wi, int wr, int wsc,
                          int rot, __global float* U, ulong u_off, int uxi, int uo, int ui, uint4 dv_i) {
    const int gid = (int)get_global_id(0);
    if (gid >= O * I)
        return;
    const int o = fdiv(gid, dv_i), i = gid - o * I;
    float g[9];
    __global const STORAGE_T* wp = Wt + w_off + o * wo + i * wi;
    for (int r = 0; r < 3; ++r)
        for (int s = 0; s < 3; ++s)
            g[r * 3 + s] = LOAD(wp, (rot ? 2 - r : r) * wr + (rot ? 2 - s : s) * wsc);
    float t[WA * 3]; /* G g */
    for (int a = 0; a < WA; ++a)
        for (int s = 0; s < 3; ++s)
            t[a * 3 + s] = G[a * 3] * g[s] + G[a * 3 + 1] * g[3 + s] + G[a * 3 + 2] * g[6 + s];
    __global float* up = U + u_off + o * uo + i * ui;
    for (int a = 0; a < WA; ++a)
        for (int b = 0; b < WA; ++b)
            up[(a * WA + b) * uxi] = t[a * 3] * G[b * 3] + t[a * 3 + 1] * G[b * 3 + 1] + t[a * 3 + 2] * G[b * 3 + 2];
}

/* V[xi][i][t] = (B^T d B)[xi] of the WA x WA input patch at (th * WM - pad_h, tw * WM - pad_w) of
 * image img0 + n, channel i (zeros outside the image). One work-item per (i, t), t fastest;
 * dv_t divides by T, dv_tt by TH * TW, dv_tw by TW. */
__kernel void wino_input(int I, int T, int TW, int H, int Wd, int pad_h, int pad_w, int img0,
                         __global const STORAGE_T* X, ulong x_off, int4 xs, __global float* V, ulong v_off, uint4 dv_t,
                         uint4 dv_tt, uint4 dv_tw) {
    const int gid = (int)get_global_id(0);
    if (gid >= I * T)
        return;
    const int i = fdiv(gid, dv_t), t = gid - i * T;
    const int n = fdiv(t, dv_tt), rem = t - n * (int)dv_tt.x;
    const int th = fdiv(rem, dv_tw), tw = rem - th * TW;
    const int h0 = th * WM - pad_h, w0 = tw * WM - pad_w;
    __global const STORAGE_T* xp = X + x_off + (img0 + n) * xs.s0 + i * xs.s1;
    float d[WA * WA];
    for (int a = 0; a < WA; ++a) {
        const int h = h0 + a;
        for (int b = 0; b < WA; ++b) {
            const int w = w0 + b;
            d[a * WA + b] = ((uint)h < (uint)H && (uint)w < (uint)Wd) ? LOAD(xp, h * xs.s2 + w * xs.s3) : 0.0f;
        }
    }
    float u[WA * WA]; /* B^T d */
    for (int a = 0; a < WA; ++a)
        for (int b = 0; b < WA; ++b) {
            float acc = 0.0f;
            for (int k = 0; k < WA; ++k)
                acc = fma(BT[a * WA + k], d[k * WA + b], acc);
            u[a * WA + b] = acc;
        }
    __global float* vp = V + v_off + i * T + t;
    const int xstride = I * T;
    for (int a = 0; a < WA; ++a)
        for (int b = 0; b < WA; ++b) {
            float acc = 0.0f;
            for (int k = 0; k < WA; ++k)
                acc = fma(u[a * WA + k], BT[b * WA + k], acc);
            vp[(a * WA + b) * xstride] = acc;
        }
}

/* y(img0 + n, o, th * WM + a, tw * WM + b) = alpha * (A^T m A)(a, b) + beta * y for the outputs
 * inside P x Q, m = M[.][o][t]. One work-item per (o, t), t fastest. */
__kernel void wino_output(int O, int T, int TW, int P, int Q, int img0, float alpha, float beta,
                          __global const float* Mm, ulong m_off, __global STORAGE_T* Y, ulong y_off, int4 ys, uint4 dv_t,
                          uint4 dv_tt, uint4 dv_tw EPI_PARAMS) {
    const int gid = (int)get_global_id(0);
    if (gid >= O * T)
        return;
    const int o = fdiv(gid, dv_t), t = gid - o * T;
    const int n = fdiv(t, dv_tt), rem = t - n * (int)dv_tt.x;
    const int th = fdiv(rem, dv_tw), tw = rem - th * TW;
    __global const float* mp = Mm + m_off + o * T + t;
    const int xstride = O * T;
    float m[WA * WA];
    for (int k = 0; k < WA * WA; ++k)
        m[k] = mp[k * xstride];
    float u[WM * WA]; /* A^T m */
    for (int a = 0; a < WM; ++a)
        for (int b = 0; b < WA; ++b) {
            float acc = 0.0f;
            for (int k = 0; k < WA; ++k)
                acc = fma(AT[a * WA + k], m[k * WA + b], acc);
            u[a * WA + b] = acc;
        }
    const int yb = (img0 + n) * ys.s0 + o * ys.s1;
    __global STORAGE_T* yp = Y + y_off + yb;
    EPI_SETUP(yb);
    for (int a = 0; a < WM; ++a) {
        const int p = th * WM + a;
        if (p >= P)
            break;
        for (int b = 0; b < WM; ++b) {
            const int q = tw * WM + b;
            if (q >= Q)
                break;
            float acc = 0.0f;
            for (int k = 0; k < WA; ++k)
                acc = fma(u[a * WA + k], AT[b * WA + k], acc);
            const int di = p * ys.s2 + q * ys.s3;
            float out = alpha * acc;
            if (beta != 0.0f)
                out = fma(beta, LOAD(yp, di), out);
            EPI_APPLY(out, o, di);
            STORE(yp, di, out);
        }
    }
}

/* Backward-filter (the gradient of the forward's tile formula with respect to U):
 *     Y'[xi](o, t) = (A dy(o, t) A^T)[xi]        wino_dy: the WM x WM tile of dy, zeros past P x Q
 *     S[xi](o, i)  = sum_t Y'[xi](o, t) V[xi](i, t)   the batched GEMM, reduction over tiles
 *     dw(o, i)     = alpha * G^T S(o, i) G + beta * dw     wino_filter_grad
 * with V the forward's input transform of x. One work-item per (o, t), t fastest. */
__kernel void wino_dy(int O, int T, int TW, int P, int Q, int img0, __global const STORAGE_T* DY, ulong y_off, int4 ys,
                      __global float* Yt, ulong t_off, uint4 dv_t, uint4 dv_tt, uint4 dv_tw) {
    const int gid = (int)get_global_id(0);
    if (gid >= O * T)
        return;
    const int o = fdiv(gid, dv_t), t = gid - o * T;
    const int n = fdiv(t, dv_tt), rem = t - n * (int)dv_tt.x;
    const int th = fdiv(rem, dv_tw), tw = rem - th * TW;
    __global const STORAGE_T* yp = DY + y_off + (img0 + n) * ys.s0 + o * ys.s1;
    float d[WM * WM];
    for (int j = 0; j < WM; ++j) {
        const int p = th * WM + j;
        for (int l = 0; l < WM; ++l) {
            const int q = tw * WM + l;
            d[j * WM + l] = (p < P && q < Q) ? LOAD(yp, p * ys.s2 + q * ys.s3) : 0.0f;
        }
    }
    float u[WA * WM]; /* A d, A = AT^T */
    for (int a = 0; a < WA; ++a)
        for (int l = 0; l < WM; ++l) {
            float acc = 0.0f;
            for (int j = 0; j < WM; ++j)
                acc = fma(AT[j * WA + a], d[j * WM + l], acc);
            u[a * WM + l] = acc;
        }
    __global float* tp = Yt + t_off + o * T + t;
    const int xstride = O * T;
    for (int a = 0; a < WA; ++a)
        for (int b = 0; b < WA; ++b) {
            float acc = 0.0f;
            for (int l = 0; l < WM; ++l)
                acc = fma(u[a * WM + l], AT[l * WA + b], acc);
            tp[(a * WA + b) * xstride] = acc;
        }
}

/* dw(o, i, r, s) = alpha * (G^T S(o, i) G)(r', s') + beta * dw, S(o, i)[xi] = S[xi * sxi + o * I + i],
 * (r', s') rotated by 180 degrees when rot. One work-item per (o, i). */
__kernel void wino_filter_grad(int O, int I, __global const float* Sm, ulong s_off, int sxi, float alpha, float beta,
                               __global STORAGE_T* Wt, ulong w_off, int wo, int wi, int wr, int wsc, int rot,
                               uint4 dv_i) {
    const int gid = (int)get_global_id(0);
    if (gid >= O * I)
        return;
    const int o = fdiv(gid, dv_i), i = gid - o * I;
    __global const float* sp = Sm + s_off + o * I + i;
    float u[3 * WA]; /* G^T S */
    float srow[WA];
    for (int b = 0; b < WA; ++b) {
        for (int a = 0; a < WA; ++a)
            srow[a] = sp[(a * WA + b) * sxi];
        for (int r = 0; r < 3; ++r) {
            float acc = 0.0f;
            for (int a = 0; a < WA; ++a)
                acc = fma(G[a * 3 + r], srow[a], acc);
            u[r * WA + b] = acc;
        }
    }
    __global STORAGE_T* wp = Wt + w_off + o * wo + i * wi;
    for (int r = 0; r < 3; ++r)
        for (int s = 0; s < 3; ++s) {
            float acc = 0.0f;
            for (int b = 0; b < WA; ++b)
                acc = fma(u[r * WA + b], G[b * 3 + s], acc);
            const int di = (rot ? 2 - r : r) * wr + (rot ? 2 - s : s) * wsc;
            float out = alpha * acc;
            if (beta != 0.0f)
                out = fma(beta, LOAD(wp, di), out);
            STORE(wp, di, out);
        }
}
