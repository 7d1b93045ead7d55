/*
 * gemm_cpu.cl: GEMM for CPU devices in BLIS's shape, C = alpha * A' B' + beta * C (C column-major).
 *
 * A CPU OpenCL implementation runs a work-group as a loop over its work-items, so local-memory
 * tiles and barriers (gemm.cl) become copies and loop splits. Here one work-item is one work-group
 * and owns an MR x NR register block of C: per k it loads MR / VW vectors of the "X" operand along
 * the vector dimension and NR scalars of the "Y" operand, and does MR / VW * NR vector FMAs. No
 * local memory, no barrier. Operands are read from global memory in an order that keeps them in
 * cache, either where they are or from panels that gemm_cpu_pack wrote into the host's scratch.
 *
 * Roles (SWAP): the vector dimension x runs along C's rows (m, SWAP 0: X = A', Y = B') or along
 * its columns (n, SWAP 1: X = B'^T, Y = A'^T, the product C^T = B'^T A'^T), so that X is read as
 * vectors where it is unit-stride. XTOT and YTOT are the extents along x and y.
 *
 * Build options (every one of common/gemm_tile.h's A_TRANS, B_TRANS, storage flags and the fused
 * epilogue of common/epilogue.h, plus)
 *   VW      vector width of the accumulators (4, 8, 16; the ISA's register width: 8 AVX2, 16 AVX-512)
 *   MR      register block along x, a multiple of VW (VW .. 4 VW)
 *   NR      register block along y (1 .. 16); MR / VW * NR accumulators must fit the registers
 *   KU      k unroll (1, 2, 4, 8)
 *   MCB     cache block: work-groups walk MCB register blocks along x for every y block before the
 *           next MCB (0: all of x), so those MCB X panels stay in the core's L2 while Y streams
 *   PACK_X  1: X is read from MR-row panels in P (gemm_cpu_pack); 0: from the operand itself, which
 *           must then be unit-stride along x with XTOT >= MR
 *   PACK_Y  1: Y from NR-column panels in P; 0: from the operand, YTOT >= NR
 * Unpacked operands need no alignment (vloadN). The last register block of an unpacked operand is
 * moved back to end at XTOT (YTOT) and stores only what the block before it did not: every load
 * stays inside the operand without a test in the k loop. Packed panels are zero-padded.
 *
 * gemm_cpu: gemm_tiled's argument list (gemm.cl: sizes, operands with offsets, leading dimensions
 * and batch strides, ksplit / nsplit / W) with P and the panels' offsets (floats) after it, the
 * epilogue's last. Work-group (1, 1, 1); grid: ceil(M / bm) x ceil(N / bn) x batch work-groups,
 * (bm, bn) = (MR, NR), or (NR, MR) with SWAP; the linear group index is the block's place in the
 * MCB order. No split-k (nsplit 1): a CPU has few cores and small blocks fill them.
 *
 * gemm_cpu_pack: P[p_off + ((b * panels + p) * K + k) * RB + r] = X[x_off + b * x_stride +
 * (p * RB + r) * sr + k * sk] for rows p * RB + r < R (else 0), converted to float; one work-item
 * per (panel, 64 k's, product). The same program as gemm_cpu (one build for both).
 */
#include "common/helpers.h"
#include "common/gemm_tile.h"
#include "gemm/gemm_operands.h"

#ifndef VW
#define VW 8
#endif
#ifndef MR
#define MR 16
#endif
#ifndef NR
#define NR 6
#endif
#ifndef KU
#define KU 4
#endif
#ifndef MCB
#define MCB 0
#endif
#ifndef PACK_X
#define PACK_X 1
#endif
#ifndef PACK_Y
#define PACK_Y 1
#endif
#ifndef SWAP
#define SWAP 0
#endif

#define MV (MR / VW)
#define VT CAT(float, VW)

/* Strides of A'(m, k) and B'(k, n) in their buffers (common/gemm_tile.h's form). */
#define A_SM_ (A_TRANS ? (long)lda : 1L)
#define A_SK_ (A_TRANS ? 1L : (long)lda)
#define B_SK_ (B_TRANS ? (long)ldb : 1L)
#define B_SN_ (B_TRANS ? 1L : (long)ldb)

/* X(x, k) = X[x * X_SX + k * X_SK], Y(k, y) = Y[k * Y_SK + y * Y_SY]. */
#if SWAP
#define X_H B_HALF
#define Y_H A_HALF
#define X_SK B_SK_
#define Y_SK A_SK_
#define Y_SY A_SM_
#define XTOT N
#define YTOT M
#else
#define X_H A_HALF
#define Y_H B_HALF
#define X_SK A_SK_
#define Y_SK B_SK_
#define Y_SY B_SN_
#define XTOT M
#define YTOT N
#endif

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void gemm_cpu(int M, int N, int K, float alpha, float beta,
              __global const STORAGE_OF(A_HALF)* A, ulong a_off, int lda, long a_stride,
              __global const STORAGE_OF(B_HALF)* B, ulong b_off, int ldb, long b_stride,
              __global STORAGE_OF(C_HALF)* C, ulong c_off, int ldc, long c_stride, int ksplit, int nsplit,
              __global float* W, __global const float* P, ulong px_off, ulong py_off EPI_PARAMS) {
    GEMM_BLOCK_SETUP();
    const int tiles_x = (XTOT + MR - 1) / MR, tiles_y = (YTOT + NR - 1) / NR;
    /* The block's place in the walk: MCB blocks along x for every y, then the next MCB. */
    const int g = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0)); /* the run order */
    const int band = MCB > 0 ? MCB : tiles_x;
    const int b0 = g / (band * tiles_y) * band;
    const int rows = min(band, tiles_x - b0);
    const int r = g - b0 * tiles_y;
    const int tx = b0 + r % rows, ty = r / rows;
    /* Nominal block origin (what this work-item stores from) and the origin it computes. */
    const int x0 = tx * MR, y0 = ty * NR;

#if PACK_X
    __global const float* xp = P + px_off + ((long)batch * tiles_x + tx) * MR * (long)K;
#define XSTEP MR
#define XLOAD(v, u) CAT(vload, VW)(0, xp + (u) * MR + (v) * VW)
    const int xc = x0;
#else
    const int xc = min(x0, XTOT - MR);
#if SWAP
    __global const STORAGE_OF(X_H)* xp = B + (long)xc;
#else
    __global const STORAGE_OF(X_H)* xp = A + (long)xc;
#endif
#define XSTEP X_SK
#define XLOAD(v, u) VLOADN_OF(X_H, VW, xp + (u) * X_SK + (v) * VW, 0)
#endif

#if PACK_Y
    __global const float* yp = P + py_off + ((long)batch * tiles_y + ty) * NR * (long)K;
#define YSTEP NR
#define YLOAD(j, u) yp[(u) * NR + (j)]
    const int yc = y0;
#else
    const int yc = min(y0, YTOT - NR);
#if SWAP
    __global const STORAGE_OF(Y_H)* yp = A + (long)yc * Y_SY;
#else
    __global const STORAGE_OF(Y_H)* yp = B + (long)yc * Y_SY;
#endif
#define YSTEP Y_SK
#define YLOAD(j, u) LOAD_OF(Y_H, yp, (u) * Y_SK + (j) * Y_SY)
#endif

    VT acc[MV][NR];
#pragma unroll
    for (int v = 0; v < MV; ++v)
#pragma unroll
        for (int j = 0; j < NR; ++j)
            acc[v][j] = (VT)0.0f;

#define MICRO_STEP(u)                                                                                 \
    do {                                                                                              \
        VT a_[MV];                                                                                    \
        _Pragma("unroll") for (int v_ = 0; v_ < MV; ++v_) a_[v_] = XLOAD(v_, u);                      \
        _Pragma("unroll") for (int j_ = 0; j_ < NR; ++j_) {                                           \
            const VT b_ = (VT)(YLOAD(j_, u));                                                         \
            _Pragma("unroll") for (int v_ = 0; v_ < MV; ++v_) acc[v_][j_] = fma(a_[v_], b_, acc[v_][j_]); \
        }                                                                                             \
    } while (0)

    int k = kb;
    for (; k + KU <= ke; k += KU) {
#pragma unroll
        for (int u = 0; u < KU; ++u)
            MICRO_STEP(u);
        xp += KU * XSTEP;
        yp += KU * YSTEP;
    }
    for (; k < ke; ++k) {
        MICRO_STEP(0);
        xp += XSTEP;
        yp += YSTEP;
    }

    /* Stores: the rows and columns of the computed block (xc, yc) at or past the nominal origin
     * (x0, y0) and inside C. */
#if !SWAP && C_HALF == 0 && !defined(EPI_ACT)
    if (xc == x0 && x0 + MR <= XTOT && nsplit == 1) {
#pragma unroll
        for (int j = 0; j < NR; ++j) {
            const int n = yc + j;
            if (n < y0 || n >= N)
                continue;
            __global float* cp = C + (long)n * ldc + x0;
#pragma unroll
            for (int v = 0; v < MV; ++v) {
                VT o = alpha * acc[v][j];
                if (beta != 0.0f)
                    o = fma((VT)beta, CAT(vload, VW)(0, cp + v * VW), o);
                CAT(vstore, VW)(o, 0, cp + v * VW);
            }
        }
        return;
    }
#endif
#pragma unroll
    for (int j = 0; j < NR; ++j) {
        const int y = yc + j;
        if (y < y0 || y >= YTOT)
            continue;
#pragma unroll
        for (int v = 0; v < MV; ++v) {
            float s[VW];
            CAT(vstore, VW)(acc[v][j], 0, s);
            for (int l = 0; l < VW; ++l) {
                const int x = xc + v * VW + l;
                if (x < x0 || x >= XTOT)
                    continue;
#if SWAP
                GEMM_STORE_SUM(s[l], y, x, M, ldc, alpha, beta, nsplit, C, W, C_HALF);
#else
                GEMM_STORE_SUM(s[l], x, y, M, ldc, alpha, beta, nsplit, C, W, C_HALF);
#endif
            }
        }
    }
}

__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void gemm_cpu_pack(int R, int K, int RB, __global const STORAGE_T* X, ulong x_off, int sr, int sk, long x_stride,
                   __global float* P, ulong p_off) {
    const int p = (int)get_group_id(0), kb = (int)get_group_id(1) * 64;
    const long b = (long)get_group_id(2);
    const int panels = (R + RB - 1) / RB;
    X += x_off + b * x_stride;
    P += p_off + (b * panels + p) * (long)K * RB;
    const int ke = min(K, kb + 64), rows = min(RB, R - p * RB);
    X += (long)p * RB * sr;
    /* Reads along the operand's unit-stride dimension. */
    if (sr == 1) {
        for (int k = kb; k < ke; ++k)
            for (int r = 0; r < RB; ++r)
                P[(long)k * RB + r] = r < rows ? LOAD(X, r + (long)k * sk) : 0.0f;
    } else {
        for (int r = 0; r < RB; ++r)
            for (int k = kb; k < ke; ++k)
                P[(long)k * RB + r] = r < rows ? LOAD(X, (long)r * sr + (long)k * sk) : 0.0f;
    }
}
