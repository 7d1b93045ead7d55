/*
 * conv_igemm.cl: implicit-GEMM 2-d convolution, forward, backward-data and backward-filter, on
 * the tile routine of common/gemm_tile.h (the same blocking, local-memory layout and register
 * micro-tile as gemm/gemm.cl). The convolution's operands are read through index maps, never
 * materialized: no workspace, except the split-k partial sums of backward-filter.
 *
 * Each direction is one GEMM, C (M x N) = A (M x KR) B (KR x N), per group g (grid dim 2):
 *   DIR 0 forward      M = N*P*Q output pixels, N = K/G output channels, KR = C/G*R*S taps
 *                      A = x gathered (im2col view), B = w (plain matrix), C -> y
 *   DIR 1 bwd-data     M = N*H*W input pixels,  N = C/G input channels,  KR = K/G*R*S
 *                      A = dy gathered (transposed-conv view), B = w gathered, C -> dx
 *   DIR 2 bwd-filter   M = K/G output channels,  N = C/G*R*S taps,       KR = N*P*Q
 *                      A = dy gathered, B = x gathered (im2col view), C -> dw (or partials)
 * Taps are ordered as the filter stores them: KORD 0 (KCRS) c, r, s; KORD 1 (KRSC) r, s, c (for
 * DIR 1 the k of the tap takes c's place). The CONVOLUTION mode's flip is applied on the
 * activation side (r' = R-1-r when flip), so the filter is always read in storage order.
 *
 * Build options (besides gemm_tile.h's tile parameters)
 *   DIR       0, 1, 2 as above
 *   KORD      0: KCRS filter, 1: KRSC filter
 *   A_RUNIT   1 when the gathered A is unit-stride along its rows (NCHW activations along the
 *             pixel for DIR 0/1, NHWC dy along k for DIR 2): work-items then walk rows first
 *   B_RUNIT   likewise for the gathered B of DIR 1/2 (DIR 0's B is a plain matrix: B_TRANS 0)
 *   TAPLOOP   DIR 0/1 only. 1: the reduction runs tap by tap, channels inside: k = rs * CP + ch
 *             with CP = C/G (K/G for DIR 1) rounded up to KWG, so a k-tile is one filter tap and a
 *             run of channels. The tap is decoded once per tile instead of once per element, the
 *             gathered element is one multiply-add of address, and the filter tile is a strided
 *             matrix (TILE_LOAD, vector loads along a KRSC filter's channels). The host passes
 *             KR = R*S*CP and dv_tap = CP; it chooses TAPLOOP when the rounding wastes <= 1/4.
 * Everything about the shape is an argument: sizes, paddings, strides, dilations, tensor strides
 * (elements), offsets. Index arithmetic is 32-bit (64-bit multiplies cost several instructions):
 * the host guarantees every tensor spans fewer than 2^31 elements past its offset. Divisions by runtime sizes use host-computed magic numbers (fdiv below):
 * common/fastdiv.h, instead of an integer division per gathered element.
 *
 * Storage: -DDATA_HALF=1 / -DDATA_BF16=1 (common/helpers.h) makes x, w and y (dx, dw, dy) half /
 * bfloat16: every gathered and tiled load widens to float, each output is rounded once when
 * stored; the backward-filter partial sums (Part) stay float.
 *
 * Edges: rows, columns and taps outside the problem, and activation positions outside the
 * (padded) input, load as zeros; stores are guarded. beta == 0 never reads the output.
 *
 * Forward takes the fused epilogue of common/epilogue.h (-DEPI_ACT=..., bias + z + activation)
 * in its store: y's element index is z's.
 */
#include "common/helpers.h"
#include "common/gemm_tile.h"
#include "common/conv_index.h"
#include "common/epilogue.h"

#ifndef DIR
#define DIR 0
#endif
#ifndef A_RUNIT
#define A_RUNIT 1
#endif
#ifndef B_RUNIT
#define B_RUNIT 0
#endif
#ifndef TAPLOOP
#define TAPLOOP 0
#endif

/* An im2col element: pixel part (base, ih0, iw0) and tap part (base, dh, dw). */
#define XGATHER(Xp, pb, ih0, iw0, tb, rd, sd)                                                       \
    ((uint)((ih0) + (rd)) < (uint)H && (uint)((iw0) + (sd)) < (uint)Wd                              \
         ? LOAD(Xp, (pb) + (tb) + (int)((ih0) + (rd)) * xs.s2 + (int)((iw0) + (sd)) * xs.s3)      \
         : 0.0f)

#define GCHUNKS_A TILE_CHUNKS(MWG, 1)
#define GCHUNKS_B TILE_CHUNKS(NWG, 1)
/* With A walked rows-first and the work-group a multiple of the tile's rows, every A chunk of a
 * work-item lies on the same row: its row part is computed and kept once (AI). */
#define A_SAME_ROW (A_RUNIT && (NTHREADS % MWG) == 0)
#define AI(ci) (A_SAME_ROW ? 0 : (ci))
#define A_ROWS (A_SAME_ROW ? 1 : GCHUNKS_A)

__kernel __attribute__((reqd_work_group_size(MDIMC, NDIMC, 1)))
void conv_igemm(int M, int N, int KR, float alpha, float beta, __global STORAGE_T* X, ulong x_off,
                __global STORAGE_T* Wt, ulong w_off, __global STORAGE_T* Y, ulong y_off, CONV_GEOMETRY_ARGS,
                CONV_DIVISOR_ARGS, int groups, int ksplit, int nsplit, __global float* Part,
                ulong part_off EPI_PARAMS) {
    __local float As[2][KWG * LDA_LOCAL] __attribute__((aligned(16)));
    __local float Bs[2][KWG * LDB_LOCAL] __attribute__((aligned(16)));
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int tid = ty * MDIMC + tx;
    const int g = (int)(get_group_id(2) % (size_t)groups);
    const int split = (int)(get_group_id(2) / (size_t)groups);
    const int m0 = (int)get_group_id(0) * MWG, n0 = (int)get_group_id(1) * NWG;
    const int kb = split * ksplit;
    const int ke = kb + min(KR - kb, ksplit); /* min(KR, kb + ksplit) without int overflow near 2^31 */
    X += x_off;
    Wt += w_off;
    Y += y_off;
    EPI_SETUP(0);
    Part += part_off;
    const int CgRS = (int)Cg * R * S;

    /* Row parts of this work-item's A and B chunks (fixed for the whole k loop). */
#if DIR == 0
    int a_pb[A_ROWS];
    int a_h0[A_ROWS], a_w0[A_ROWS];
    for (int ci = 0; ci < A_ROWS; ++ci) {
        const int m = m0 + CHUNK_R(A_RUNIT, MWG, 1, tid + ci * NTHREADS);
        int img, oh, ow;
        PIXEL_DECODE(m, img, oh, ow);
        a_pb[AI(ci)] = (int)img * xs.s0 + (int)g * Cg * xs.s1;
        a_h0[AI(ci)] = m < M ? oh * su - pad_h : OUTSIDE;
        a_w0[AI(ci)] = ow * sv - pad_w;
    }
    __global const STORAGE_T* Bp = Wt + (int)g * Kg * CgRS; /* B(t, n) = Bp[n * CgRS + t] */
    float rb[TILE_CHUNKS(NWG, VWB) * VWB];
#elif DIR == 1
    int a_pb[A_ROWS];
    int a_h0[A_ROWS], a_w0[A_ROWS];
    for (int ci = 0; ci < A_ROWS; ++ci) {
        const int m = m0 + CHUNK_R(A_RUNIT, MWG, 1, tid + ci * NTHREADS);
        int img, ih, iw;
        PIXEL_DECODE(m, img, ih, iw);
        a_pb[AI(ci)] = (int)img * ys.s0 + (int)g * Kg * ys.s1;
        a_h0[AI(ci)] = m < M ? ih + pad_h : OUTSIDE;
        a_w0[AI(ci)] = iw + pad_w;
    }
    const int wc = KORD == 0 ? (int)R * S : 1; /* filter stride of the input channel */
    int b_rb[GCHUNKS_B];
    for (int ci = 0; ci < GCHUNKS_B; ++ci) {
        const int n = n0 + CHUNK_R(B_RUNIT, NWG, 1, tid + ci * NTHREADS);
        b_rb[ci] = n < N ? (int)n * wc : -1;
    }
    __global const STORAGE_T* Bp = Wt + (int)g * Kg * CgRS;
    float rb[TILE_CHUNKS(NWG, VWB) * VWB];
#else
    int a_rb[A_ROWS];
    for (int ci = 0; ci < A_ROWS; ++ci) {
        const int m = m0 + CHUNK_R(A_RUNIT, MWG, 1, tid + ci * NTHREADS);
        a_rb[AI(ci)] = m < M ? (int)(g * Kg + m) * ys.s1 : -1;
    }
    int b_tb[GCHUNKS_B];
    int b_rd[GCHUNKS_B], b_sd[GCHUNKS_B];
    for (int ci = 0; ci < GCHUNKS_B; ++ci) {
        const int n = n0 + CHUNK_R(B_RUNIT, NWG, 1, tid + ci * NTHREADS);
        int c, r, s;
        TAP_DECODE(n, c, r, s);
        b_tb[ci] = (int)(g * Cg + c) * xs.s1;
        b_rd[ci] = n < N ? (flip ? R - 1 - r : r) * dil_h : OUTSIDE;
        b_sd[ci] = (flip ? S - 1 - s : s) * dil_w;
    }
    float rb[GCHUNKS_B];
#endif
    float ra[GCHUNKS_A];

    /* Loads the k-tile at k0 into ra / rb. */
#if DIR == 0 && TAPLOOP
#define LOAD_TILES(k0)                                                                              \
    do {                                                                                            \
        const int rs_ = fdiv((k0), dv_tap), c0_ = (k0) - rs_ * (int)dv_tap.x;                       \
        const int r_ = fdiv(rs_, dv_s), s_ = rs_ - r_ * S;                                          \
        const int rd = (flip ? R - 1 - r_ : r_) * dil_h, sd = (flip ? S - 1 - s_ : s_) * dil_w;     \
        for (int ci = 0; ci < GCHUNKS_A; ++ci) {                                                    \
            const int c = c0_ + CHUNK_K(A_RUNIT, MWG, 1, tid + ci * NTHREADS);                      \
            const int ih = a_h0[AI(ci)] + rd, iw = a_w0[AI(ci)] + sd;                                       \
            ra[ci] = (c < Cg && (uint)ih < (uint)H && (uint)iw < (uint)Wd)                          \
                         ? LOAD(X, a_pb[AI(ci)] + (int)c * xs.s1 + (int)ih * xs.s2 + (int)iw * xs.s3) \
                         : 0.0f;                                                                    \
        }                                                                                           \
        if (KORD == 0)                                                                              \
            TILE_LOAD(DATA_H, Bp + rs_, CgRS, R * S, 0, NWG, VWB, n0, c0_, N, Cg, tid, rb);                 \
        else                                                                                        \
            TILE_LOAD(DATA_H, Bp + (int)rs_ * Cg, CgRS, 1, 0, NWG, VWB, n0, c0_, N, Cg, tid, rb);          \
    } while (0)
#define STORE_TILES(buf)                                                                            \
    do {                                                                                            \
        TILE_STORE(As[buf], LDA_LOCAL, A_RUNIT, MWG, 1, tid, ra);                                   \
        TILE_STORE(Bs[buf], LDB_LOCAL, 0, NWG, VWB, tid, rb);                                       \
    } while (0)
#elif DIR == 1 && TAPLOOP
#define LOAD_TILES(k0)                                                                              \
    do {                                                                                            \
        const int rs_ = fdiv((k0), dv_tap), q0_ = (k0) - rs_ * (int)dv_tap.x;                       \
        const int r_ = fdiv(rs_, dv_s), s_ = rs_ - r_ * S;                                          \
        const int rd = (flip ? R - 1 - r_ : r_) * dil_h, sd = (flip ? S - 1 - s_ : s_) * dil_w;     \
        for (int ci = 0; ci < GCHUNKS_A; ++ci) {                                                    \
            const int kq = q0_ + CHUNK_K(A_RUNIT, MWG, 1, tid + ci * NTHREADS);                     \
            const int th = a_h0[AI(ci)] - rd, tw = a_w0[AI(ci)] - sd;                                       \
            float val = 0.0f;                                                                       \
            if (kq < Kg && th >= 0 && tw >= 0) {                                                    \
                const int oh = fdiv(th, dv_u), ow = fdiv(tw, dv_v);                                 \
                if (oh * su == th && ow * sv == tw && oh < P && ow < Q)                             \
                    val = LOAD(Y, a_pb[AI(ci)] + (int)kq * ys.s1 + (int)oh * ys.s2 + (int)ow * ys.s3); \
            }                                                                                       \
            ra[ci] = val;                                                                           \
        }                                                                                           \
        if (KORD == 0)                                                                              \
            TILE_LOAD(DATA_H, Bp + rs_, R * S, CgRS, 0, NWG, VWB, n0, q0_, N, Kg, tid, rb);                 \
        else                                                                                        \
            TILE_LOAD(DATA_H, Bp + (int)rs_ * Cg, 1, CgRS, 1, NWG, VWB, n0, q0_, N, Kg, tid, rb);          \
    } while (0)
#define STORE_TILES(buf)                                                                            \
    do {                                                                                            \
        TILE_STORE(As[buf], LDA_LOCAL, A_RUNIT, MWG, 1, tid, ra);                                   \
        TILE_STORE(Bs[buf], LDB_LOCAL, KORD, NWG, VWB, tid, rb);                                    \
    } while (0)
#elif DIR == 0
#define LOAD_TILES(k0)                                                                              \
    do {                                                                                            \
        for (int ci = 0; ci < GCHUNKS_A; ++ci) {                                                    \
            const int t = (k0) + CHUNK_K(A_RUNIT, MWG, 1, tid + ci * NTHREADS);                     \
            int c, r, s;                                                                            \
            TAP_DECODE(t, c, r, s);                                                                 \
            const int rd = t < ke ? (flip ? R - 1 - r : r) * dil_h : OUTSIDE;                       \
            const int sd = (flip ? S - 1 - s : s) * dil_w;                                          \
            ra[ci] = XGATHER(X, a_pb[AI(ci)], a_h0[AI(ci)], a_w0[AI(ci)], (int)c * xs.s1, rd, sd);             \
        }                                                                                           \
        TILE_LOAD(DATA_H, Bp, CgRS, 1, 0, NWG, VWB, n0, (k0), N, ke, tid, rb);                              \
    } while (0)
#define STORE_TILES(buf)                                                                            \
    do {                                                                                            \
        TILE_STORE(As[buf], LDA_LOCAL, A_RUNIT, MWG, 1, tid, ra);                                   \
        TILE_STORE(Bs[buf], LDB_LOCAL, 0, NWG, VWB, tid, rb);                                       \
    } while (0)
#elif DIR == 1
#define LOAD_TILES(k0)                                                                              \
    do {                                                                                            \
        for (int ci = 0; ci < GCHUNKS_A; ++ci) {                                                    \
            const int t = (k0) + CHUNK_K(A_RUNIT, MWG, 1, tid + ci * NTHREADS);                     \
            int kq, r, s;                                                                           \
            TAP_DECODE(t, kq, r, s);                                                                \
            const int th = a_h0[AI(ci)] - (flip ? R - 1 - r : r) * dil_h;                               \
            const int tw = a_w0[AI(ci)] - (flip ? S - 1 - s : s) * dil_w;                               \
            float val = 0.0f;                                                                       \
            if (t < ke && th >= 0 && tw >= 0) {                                                     \
                const int oh = fdiv(th, dv_u), ow = fdiv(tw, dv_v);                                 \
                if (oh * su == th && ow * sv == tw && oh < P && ow < Q)                             \
                    val = LOAD(Y, a_pb[AI(ci)] + (int)kq * ys.s1 + (int)oh * ys.s2 + (int)ow * ys.s3); \
            }                                                                                       \
            ra[ci] = val;                                                                           \
        }                                                                                           \
        for (int ci = 0; ci < GCHUNKS_B; ++ci) {                                                    \
            const int t = (k0) + CHUNK_K(B_RUNIT, NWG, 1, tid + ci * NTHREADS);                     \
            int kq, r, s;                                                                           \
            TAP_DECODE(t, kq, r, s);                                                                \
            rb[ci] = (t < ke && b_rb[ci] >= 0)                                                      \
                         ? LOAD(Bp, (int)kq * CgRS + (KORD == 0 ? (int)(r * S + s)                \
                                                             : (int)(r * S + s) * Cg) + b_rb[ci]) \
                         : 0.0f;                                                                    \
        }                                                                                           \
    } while (0)
#define STORE_TILES(buf)                                                                            \
    do {                                                                                            \
        TILE_STORE(As[buf], LDA_LOCAL, A_RUNIT, MWG, 1, tid, ra);                                   \
        TILE_STORE(Bs[buf], LDB_LOCAL, B_RUNIT, NWG, 1, tid, rb);                                   \
    } while (0)
#else
#define LOAD_TILES(k0)                                                                              \
    do {                                                                                            \
        for (int ci = 0; ci < GCHUNKS_A; ++ci) {                                                    \
            const int t = (k0) + CHUNK_K(A_RUNIT, MWG, 1, tid + ci * NTHREADS);                     \
            int img, oh, ow;                                                                        \
            PIXEL_DECODE(t, img, oh, ow);                                                           \
            ra[ci] = (t < ke && a_rb[AI(ci)] >= 0)                                                      \
                         ? LOAD(Y, a_rb[AI(ci)] + (int)img * ys.s0 + (int)oh * ys.s2 + (int)ow * ys.s3) \
                         : 0.0f;                                                                    \
        }                                                                                           \
        for (int ci = 0; ci < GCHUNKS_B; ++ci) {                                                    \
            const int t = (k0) + CHUNK_K(B_RUNIT, NWG, 1, tid + ci * NTHREADS);                     \
            int img, oh, ow;                                                                        \
            PIXEL_DECODE(t, img, oh, ow);                                                           \
            const int h0 = t < ke ? oh * su - pad_h : OUTSIDE;                                      \
            rb[ci] = XGATHER(X, (int)img * xs.s0, h0, ow * sv - pad_w, b_tb[ci], b_rd[ci], b_sd[ci]); \
        }                                                                                           \
    } while (0)
#define STORE_TILES(buf)                                                                            \
    do {                                                                                            \
        TILE_STORE(As[buf], LDA_LOCAL, A_RUNIT, MWG, 1, tid, ra);                                   \
        TILE_STORE(Bs[buf], LDB_LOCAL, B_RUNIT, NWG, 1, tid, rb);                                   \
    } while (0)
#endif

    float acc[MWI][NWI];
    for (int i = 0; i < MWI; ++i)
        for (int j = 0; j < NWI; ++j)
            acc[i][j] = 0.0f;

    const int ntiles = (ke - kb + KWG - 1) / KWG;
    LOAD_TILES(kb);
    STORE_TILES(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int tt = 0; tt < ntiles; ++tt) {
        const int cur = tt & 1;
        const int more = tt + 1 < ntiles;
        if (more)
            LOAD_TILES(kb + (tt + 1) * KWG);
        __local const float* as = As[cur];
        __local const float* bs = Bs[cur];
#pragma unroll
        for (int kk = 0; kk < KWG; ++kk)
            MICRO_TILE_UPDATE(as + kk * LDA_LOCAL, bs + kk * LDB_LOCAL, tx, ty, acc);
        if (more)
            STORE_TILES(cur ^ 1);
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    /* Stores: C(m, n) to the output tensor (or to this split's partial sums), unrolled by force
     * as gemm.cl's (a fused epilogue must not push acc into local memory). */
UNROLL_GPU
    for (int i = 0; i < MWI / VWM; ++i)
UNROLL_GPU
        for (int v = 0; v < VWM; ++v) {
            const int m = m0 + (i * MDIMC + tx) * VWM + v;
            if (m >= M)
                continue;
#if DIR == 0
            int img, oh, ow;
            PIXEL_DECODE(m, img, oh, ow);
            __global STORAGE_T* out = Y;
            const int ob = (int)img * ys.s0 + (int)(g * Kg) * ys.s1 + (int)oh * ys.s2 + (int)ow * ys.s3;
            const int on = ys.s1;
#elif DIR == 1
            int img, ih, iw;
            PIXEL_DECODE(m, img, ih, iw);
            __global STORAGE_T* out = X;
            const int ob = (int)img * xs.s0 + (int)(g * Cg) * xs.s1 + (int)ih * xs.s2 + (int)iw * xs.s3;
            const int on = xs.s1;
#else
            __global STORAGE_T* out = Wt;
            const int ob = (int)(g * Kg + m) * CgRS;
            const int pb = ((int)split * groups + g) * (int)Kg * CgRS + (int)m * CgRS; /* partial sums */
            const int on = 1;
#endif
UNROLL_GPU
            for (int j = 0; j < NWI / VWN; ++j)
UNROLL_GPU
                for (int w = 0; w < VWN; ++w) {
                    const int n = n0 + (j * NDIMC + ty) * VWN + w;
                    if (n >= N)
                        continue;
                    const float sum = acc[i * VWM + v][j * VWN + w];
                    const int oi = ob + (int)n * on;
#if DIR == 2
                    if (nsplit > 1) {
                        Part[pb + n] = sum;
                        continue;
                    }
#endif
                    float r = alpha * sum;
                    if (beta != 0.0f)
                        r = fma(beta, LOAD(out, oi), r);
#if DIR == 0
                    EPI_APPLY(r, (int)(g * Kg) + n, oi);
#endif
                    STORE(out, oi, r);
                }
        }
}
