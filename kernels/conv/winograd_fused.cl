/*
 * winograd_fused.cl: fused Winograd convolution F(m x m, 3 x 3), m = WM = 2 or 4 (Lavin and Gray):
 * input transform, the per-position products and the output transform in one kernel, so the
 * transformed input V and the products M never leave the work-group. The filter transform is
 * not here: the host runs winograd.cl's wino_filter once per call into the workspace as
 * U[xi][i][o] (position, input channel, output channel; o fastest), which this kernel reads.
 *
 * Geometry (host: src/conv/winograd/conv_winograd.c): "in" is x (forward) or dy (backward-data),
 * "out" is y or dx; I input and O output channels, tiles of WM x WM outputs, T = N * TH * TW
 * tiles. Backward-data is the forward of dy on the rotated, transposed filter (the host's U).
 *
 * One work-group owns WG_T consecutive tiles x WG_K consecutive output channels and loops over
 * the input channels in chunks of WG_C:
 *   1. the WG_C x WG_T input patches (WA x WA, zeros outside the image and past I or T) are
 *      loaded a column at a time, transformed (B^T d B) and stored to local memory as
 *      Vl[xi][c][t];
 *   2. the matching block of U is copied to local memory as Ul[xi][c][k] (zeros past I or O);
 *   3. every work-item accumulates, for the NP / POS_GROUPS positions it owns, a WI_T x WI_K
 *      register micro-tile of M[xi](t, k) += V[xi](c, t) U[xi](c, k): WI_T + WI_K local loads
 *      per WI_T * WI_K fused multiply-adds. Its tiles are tx * WI_T + i, its channels
 *      ty * WI_K + j (contiguous: with WI_T or WI_K a multiple of 4 their loads are float4, a
 *      quarter-warp's 128 bytes, or broadcasts), its positions pg + q * POS_GROUPS.
 * After the channel loop the accumulators go through local memory (the V/U space, reused) in
 * WI_K rounds, one column j of every micro-tile per round: Xl[xi][ty][t] (t = tx * WI_T + i),
 * then each (tile, channel) pair of the round is transformed (A^T m A), scaled (alpha, beta;
 * beta == 0 never reads out) and stored, outputs past P x Q skipped.
 *
 * Which index runs fastest across work-items where they touch global memory follows the layout
 * (build options the host sets from the strides): the patches of one chunk go tile-fastest (a
 * row of an NCHW plane) or channel-fastest (IN_CFAST: an NHWC pixel), the output pairs of a
 * round tile-fastest or channel-fastest (OUT_KFAST, NHWC); the local rows they write or read
 * across are then padded by 4 floats (VROW, XROW) so that neighbours fall in different banks.
 *
 * Build options (tuning parameters; shapes are kernel arguments):
 *   WM          2 or 4: the output tile (default 2)
 *   WG_T        tiles per work-group (default 32)
 *   WG_K        output channels per work-group (default 32)
 *   WG_C        input channels per chunk of the channel loop (default 8)
 *   WI_T, WI_K  the work-item's micro-tile: tiles x output channels (default 4 x 4);
 *               WG_T % WI_T == 0 and WG_K % WI_K == 0
 *   POS_GROUPS  work-items sharing one (tile, channel) micro-tile, each owning NP / POS_GROUPS
 *               of the NP = (WM + 2)^2 positions; divides NP (default 4)
 *   IN_CFAST    1: patches channel-fastest (input channel stride 1), else tile-fastest (default 0)
 *   OUT_KFAST   1: output pairs channel-fastest (output channel stride 1), else tile-fastest
 *               (default 0)
 *   DATA_HALF   1 (DATA_BF16 1): in, out (and the filter the host transformed) are half
 *               (bfloat16), loaded as float and rounded once when stored (common/helpers.h);
 *               U and all arithmetic stay float
 *   EPI_ACT, EPI_Z  forward's fused epilogue (common/epilogue.h): bias, z and the activation
 *               applied in the store
 * The work-group is 1-d of WG_SIZE = (WG_T / WI_T) * (WG_K / WI_K) * POS_GROUPS work-items; the
 * grid is (tile blocks x channel blocks) work-groups, channel blocks fastest (work-groups that
 * read the same input patches run together). Local memory: max(NP * WG_C * (VROW + WG_K),
 * NP * WG_K / WI_K * XROW) floats plus 3 * WG_T ints, VROW and XROW WG_T or WG_T + 4; the host
 * checks it against the device (for the padded sizes, whatever the layout).
 * Index arithmetic is 32-bit: the host keeps every tensor and U below 2^31 elements.
 */
#include "common/helpers.h"
#include "common/fastdiv.h"
#include "common/epilogue.h"

#ifndef WM
#define WM 2
#endif
#ifndef WG_T
#define WG_T 32
#endif
#ifndef WG_K
#define WG_K 32
#endif
#ifndef WG_C
#define WG_C 8
#endif
#ifndef WI_T
#define WI_T 4
#endif
#ifndef WI_K
#define WI_K 4
#endif
#ifndef POS_GROUPS
#define POS_GROUPS 4
#endif
#ifndef IN_CFAST
#define IN_CFAST 0
#endif
#ifndef OUT_KFAST
#define OUT_KFAST 0
#endif

#define WA (WM + 2)
#define NP (WA * WA)
#define NTX (WG_T / WI_T)
#define NTY (WG_K / WI_K)
#define NPW (NP / POS_GROUPS)
#define WG_SIZE (NTX * NTY * POS_GROUPS)
#define VROW (WG_T + 4 * IN_CFAST)
#define XROW (WG_T + 4 * OUT_KFAST)
#define LDS_IN (NP * WG_C * (VROW + WG_K))
#define LDS_OUT (NP * NTY * XROW)
#define LDS_FLOATS (LDS_IN > LDS_OUT ? LDS_IN : LDS_OUT)

#if WG_T % WI_T || WG_K % WI_K || NP % POS_GROUPS
#error "winograd_fused.cl: WI_T must divide WG_T, WI_K WG_K, and POS_GROUPS (WM + 2)^2"
#endif

/* dst[0..n) = the n floats at local row p, as float4 loads when n is a multiple of 4 (p is then
 * 16-byte aligned: rows start at multiples of 4 floats, micro-tiles at multiples of n). Every
 * loop over a private array is unrolled: one index unknown at compile time would put the array
 * in (slow) private memory. */
inline void local_row_load(float* dst, __local const float* p, const int n) {
    if (n % 4 == 0) {
#pragma unroll
        for (int v = 0; v < n / 4; ++v) {
            const float4 f = ((__local const float4*)p)[v];
            dst[4 * v] = f.x;
            dst[4 * v + 1] = f.y;
            dst[4 * v + 2] = f.z;
            dst[4 * v + 3] = f.w;
        }
    } else {
#pragma unroll
        for (int v = 0; v < n; ++v)
            dst[v] = p[v];
    }
}

/* The local row p[0..n) = src[0..n), as local_row_load. */
inline void local_row_store(__local float* p, const float* src, const int n) {
    if (n % 4 == 0) {
#pragma unroll
        for (int v = 0; v < n / 4; ++v)
            ((__local float4*)p)[v] = (float4)(src[4 * v], src[4 * v + 1], src[4 * v + 2], src[4 * v + 3]);
    } else {
#pragma unroll
        for (int v = 0; v < n; ++v)
            p[v] = src[v];
    }
}

/* o[i * so] = (B^T v)[i], v[j * sv] for j < WA: the input transform along one axis. */
inline void wino_in_1d(const float* v, int sv, float* o, int so) {
#if WM == 2
    o[0] = v[0] - v[2 * sv];
    o[so] = v[sv] + v[2 * sv];
    o[2 * so] = v[2 * sv] - v[sv];
    o[3 * so] = v[sv] - v[3 * sv];
#else
    const float v0 = v[0], v1 = v[sv], v2 = v[2 * sv], v3 = v[3 * sv], v4 = v[4 * sv], v5 = v[5 * sv];
    o[0] = fma(4.0f, v0, fma(-5.0f, v2, v4));
    o[so] = fma(-4.0f, v1 + v2, v3 + v4);
    o[2 * so] = fma(4.0f, v1 - v2, v4 - v3);
    o[3 * so] = fma(2.0f, v3 - v1, v4 - v2);
    o[4 * so] = fma(2.0f, v1 - v3, v4 - v2);
    o[5 * so] = fma(4.0f, v1, fma(-5.0f, v3, v5));
#endif
}

/* o[i * so] = (A^T m)[i], m[j * sm] for j < WA: the output transform along one axis. */
inline void wino_out_1d(const float* m, int sm, float* o, int so) {
#if WM == 2
    o[0] = m[0] + m[sm] + m[2 * sm];
    o[so] = m[sm] - m[2 * sm] - m[3 * sm];
#else
    const float m0 = m[0], m1 = m[sm], m2 = m[2 * sm], m3 = m[3 * sm], m4 = m[4 * sm], m5 = m[5 * sm];
    const float dp = m1 + m2, dm = m1 - m2, ep = m3 + m4, em = m3 - m4;
    o[0] = m0 + dp + ep;
    o[so] = fma(2.0f, em, dm);
    o[2 * so] = fma(4.0f, ep, dp);
    o[3 * so] = fma(8.0f, em, dm) + m5;
#endif
}

/* Arguments: I, O channels; T tiles, TW tiles per row; H x Wd the input plane, P x Q the output
 * plane; the padding; alpha, beta; the input (x_off elements, strides xs n c h w), U (u_off
 * floats, [xi][i][o]), the output (y_off, ys); dv_tt divides by TH * TW, dv_tw by TW, dv_kb by
 * the number of channel blocks. */
__kernel __attribute__((reqd_work_group_size(WG_SIZE, 1, 1))) void
wino_fused(int I, int O, int T, int TW, int H, int Wd, int P, int Q, int pad_h, int pad_w, float alpha, float beta,
           __global const STORAGE_T* X, ulong x_off, int4 xs, __global const float* U, ulong u_off,
           __global STORAGE_T* Y, ulong y_off, int4 ys, uint4 dv_tt, uint4 dv_tw, uint4 dv_kb EPI_PARAMS) {
    __local float4 lds4[(LDS_FLOATS + 3) / 4]; /* float4: 16-byte aligned rows for the vector loads */
    __local int tile_n[WG_T], tile_h[WG_T], tile_w[WG_T];
    __local float* lds = (__local float*)lds4;
    __local float* Vl = lds;                    /* [NP][WG_C][VROW] */
    __local float* Ul = lds + NP * WG_C * VROW; /* [NP][WG_C][WG_K] */

    X += x_off;
    U += u_off;
    Y += y_off;
    EPI_SETUP(0);
    const int lid = (int)get_local_id(0);
    const int grp = (int)get_group_id(0);
    const int tb = fdiv(grp, dv_kb), kb = grp - tb * (int)dv_kb.x;
    const int t0 = tb * WG_T, k0 = kb * WG_K;
    const int tx = lid % NTX, ty = (lid / NTX) % NTY, pg = lid / (NTX * NTY);

    /* The block's tiles: image and the input position of the patch's corner; tile_n < 0 past T. */
    for (int e = lid; e < WG_T; e += WG_SIZE) {
        const int t = t0 + e;
        int n = -1, h0 = 0, w0 = 0;
        if (t < T) {
            n = fdiv(t, dv_tt);
            const int rem = t - n * (int)dv_tt.x;
            const int th = fdiv(rem, dv_tw);
            h0 = th * WM - pad_h;
            w0 = (rem - th * TW) * WM - pad_w;
        }
        tile_n[e] = n;
        tile_h[e] = h0;
        tile_w[e] = w0;
    }

    float acc[NPW][WI_T][WI_K];
#pragma unroll
    for (int q = 0; q < NPW; ++q)
#pragma unroll
        for (int i = 0; i < WI_T; ++i)
#pragma unroll
            for (int j = 0; j < WI_K; ++j)
                acc[q][i][j] = 0.0f;

    for (int c0 = 0; c0 < I; c0 += WG_C) {
        barrier(CLK_LOCAL_MEM_FENCE); /* the tiles are set; the previous chunk's reads are done */
        for (int e = lid; e < WG_C * WG_T; e += WG_SIZE) {
#if IN_CFAST
            const int tl = e / WG_C, cl = e - tl * WG_C;
#else
            const int cl = e / WG_T, tl = e - cl * WG_T;
#endif
            const int c = c0 + cl, n = tile_n[tl];
            const int h0 = tile_h[tl], w0 = tile_w[tl];
            /* Column by column (B^T d: WA loads, WA outputs), then row by row (u B, straight to
             * local memory): WA * WA + WA live values, not two whole patches. */
            const int ok = c < I && n >= 0;
            __global const STORAGE_T* xp = X + (ok ? n * xs.s0 + c * xs.s1 : 0);
            float u[NP];
#pragma unroll
            for (int b = 0; b < WA; ++b) {
                const int w = w0 + b;
                float col[WA];
#pragma unroll
                for (int a = 0; a < WA; ++a) {
                    const int h = h0 + a;
                    col[a] = ok && (uint)h < (uint)H && (uint)w < (uint)Wd ? LOAD(xp, h * xs.s2 + w * xs.s3) : 0.0f;
                }
                wino_in_1d(col, 1, u + b, WA); /* u[.][b] = (B^T d)[.][b] */
            }
#pragma unroll
            for (int a = 0; a < WA; ++a) {
                float row[WA];
                wino_in_1d(u + a * WA, 1, row, 1); /* (u B)[a][.] */
#pragma unroll
                for (int b = 0; b < WA; ++b)
                    Vl[((a * WA + b) * WG_C + cl) * VROW + tl] = row[b];
            }
        }
        for (int e = lid; e < NP * WG_C * WG_K; e += WG_SIZE) {
            const int kl = e % WG_K, r = e / WG_K, cl = r % WG_C, xi = r / WG_C;
            const int c = c0 + cl, k = k0 + kl;
            Ul[e] = (c < I && k < O) ? U[(xi * I + c) * O + k] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int cl = 0; cl < WG_C; ++cl)
#pragma unroll
            for (int q = 0; q < NPW; ++q) {
                const int xi = pg + q * POS_GROUPS;
                __local const float* vr = Vl + (xi * WG_C + cl) * VROW + tx * WI_T;
                __local const float* ur = Ul + (xi * WG_C + cl) * WG_K + ty * WI_K;
                float a[WI_T], b[WI_K];
                local_row_load(a, vr, WI_T);
                local_row_load(b, ur, WI_K);
#pragma unroll
                for (int i = 0; i < WI_T; ++i)
#pragma unroll
                    for (int j = 0; j < WI_K; ++j)
                        acc[q][i][j] = fma(a[i], b[j], acc[q][i][j]);
            }
    }

    /* Output: round j exchanges channel column j of every micro-tile, Xl[xi][ty][t]. */
    __local float* Xl = lds;
#pragma unroll
    for (int j = 0; j < WI_K; ++j) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int q = 0; q < NPW; ++q) {
            float col[WI_T];
#pragma unroll
            for (int i = 0; i < WI_T; ++i)
                col[i] = acc[q][i][j];
            local_row_store(Xl + ((pg + q * POS_GROUPS) * NTY + ty) * XROW + tx * WI_T, col, WI_T);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int e = lid; e < NTY * WG_T; e += WG_SIZE) {
#if OUT_KFAST
            const int tl = e / NTY, kx = e - tl * NTY;
#else
            const int kx = e / WG_T, tl = e - kx * WG_T;
#endif
            const int k = k0 + kx * WI_K + j, n = tile_n[tl];
            if (n < 0 || k >= O)
                continue;
            /* Column by column (A^T m: WA loads, WM outputs), then row by row (v A). */
            float v[WM * WA], o[WM * WM];
#pragma unroll
            for (int b = 0; b < WA; ++b) {
                float col[WA];
#pragma unroll
                for (int a = 0; a < WA; ++a)
                    col[a] = Xl[((a * WA + b) * NTY + kx) * XROW + tl];
                wino_out_1d(col, 1, v + b, WA); /* v[.][b] = (A^T m)[.][b] */
            }
#pragma unroll
            for (int a = 0; a < WM; ++a) /* rows: o[a][.] = (v A)[a][.] */
                wino_out_1d(v + a * WA, 1, o + a * WM, 1);
            const int p0 = tile_h[tl] + pad_h, q0 = tile_w[tl] + pad_w;
            __global STORAGE_T* yp = Y + n * ys.s0 + k * ys.s1;
#pragma unroll
            for (int a = 0; a < WM; ++a) {
                const int pp = p0 + a;
                if (pp >= P)
                    break;
#pragma unroll
                for (int b = 0; b < WM; ++b) {
                    const int qq = q0 + b;
                    if (qq >= Q)
                        break;
                    const int di = pp * ys.s2 + qq * ys.s3;
                    float r = alpha * o[a * WM + b];
                    if (beta != 0.0f)
                        r = fma(beta, LOAD(yp, di), r);
                    EPI_APPLY(r, k, n * ys.s0 + k * ys.s1 + di);
                    STORE(yp, di, r);
                }
            }
        }
    }
}
