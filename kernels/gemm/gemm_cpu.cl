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
 *   MCB     cache block: work-items walk MCB register blocks along x for every y group before the
 *           next MCB (0: all of x), so those MCB X panels stay in the core's L2 while Y streams
 *   YB      register blocks along y per work-item (1 .. 16): with more than one, k runs in chunks of
 *           KC (default 256), each chunk of X copied once into a private buffer in the micro-
 *           kernel's order and multiplied by every block of the group, the accumulators kept in
 *           private memory between chunks: X is read from memory once for YB blocks, without a
 *           packing pass through global memory (thin products: n of 16 to 48)
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
 * (bm, bn) = (MR, YB * NR), or (YB * NR, MR) with SWAP; the linear group index is the block's place in the
 * MCB order. Split-k (k ranges of ksplit, partial sums in W) only where a device limits the loop
 * iterations of a work-item (gemm_cpu.c): a CPU has few cores and small blocks fill them.
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
#ifndef YB
#define YB 1
#endif
#ifndef KC
#define KC 256
#endif
#if PACK_X
#define X_T float
#else
#define X_T STORAGE_OF(X_H)
#endif
#if PACK_Y
#define Y_T float
#else
#define Y_T STORAGE_OF(Y_H)
#endif
/* One block per work-item: straight code; several: a loop over them. */
#if YB == 1
#define TILE_LOOP _Pragma("unroll")
#else
#define TILE_LOOP _Pragma("nounroll")
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
    const int tiles_x = (XTOT + MR - 1) / MR, tiles_y = (YTOT + NR - 1) / NR, groups_y = (tiles_y + YB - 1) / YB;
    /* The work-item's place in the walk: MCB blocks along x for every group of YB blocks along y,
     * then the next MCB. */
    const int g = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0)); /* the run order */
    const int band = MCB > 0 ? MCB : tiles_x;
    const int b0 = g / (band * groups_y) * band;
    const int rows = min(band, tiles_x - b0);
    const int r = g - b0 * groups_y;
    const int tx = b0 + r % rows, ty0 = r / rows * YB, ny = min(YB, tiles_y - ty0);
    /* Nominal block origin along x (what this work-item stores from) and the origin it computes. */
    const int x0 = tx * MR;

    /* X(x, k) at xb + k * XSTEP: packed panels, or the operand (the block moved back to end at
     * XTOT); XG(v, u, p) is vector v of the block at k = u from p. */
#if PACK_X
#define XSTEP MR
#define XG(v, u, p) CAT(vload, VW)(0, (p) + (u) * MR + (v) * VW)
    __global const float* xb = P + px_off + ((long)batch * tiles_x + tx) * MR * (long)K;
    const int xc = x0;
#else
#define XSTEP X_SK
#define XG(v, u, p) VLOADN_OF(X_H, VW, (p) + (u) * X_SK + (v) * VW, 0)
    const int xc = min(x0, XTOT - MR);
#if SWAP
    __global const STORAGE_OF(X_H)* xb = B + (long)xc;
#else
    __global const STORAGE_OF(X_H)* xb = A + (long)xc;
#endif
#endif
    /* Y(k, y) of block ty (origin yc) at Y_BASE + k * YSTEP. */
#if PACK_Y
#define YSTEP NR
#define YLOAD(j, u) yp[(u) * NR + (j)]
#define Y_ORIGIN(y0) (y0)
#define Y_BASE(ty, yc) (P + py_off + ((long)batch * tiles_y + (ty)) * NR * (long)K)
#else
#define YSTEP Y_SK
#define YLOAD(j, u) LOAD_OF(Y_H, yp, (u) * Y_SK + (j) * Y_SY)
#define Y_ORIGIN(y0) min((y0), YTOT - NR)
#if SWAP
#define Y_BASE(ty, yc) (A + (long)(yc) * Y_SY)
#else
#define Y_BASE(ty, yc) (B + (long)(yc) * Y_SY)
#endif
#endif

#define MICRO_STEP(u)                                                                                 \
    do {                                                                                              \
        VT a_[MV];                                                                                    \
        _Pragma("unroll") for (int v_ = 0; v_ < MV; ++v_) a_[v_] = XLOAD(v_, u);                      \
        _Pragma("unroll") for (int j_ = 0; j_ < NR; ++j_) {                                           \
            const VT b_ = (VT)(YLOAD(j_, u));                                                         \
            _Pragma("unroll") for (int v_ = 0; v_ < MV; ++v_) acc[v_][j_] = fma(a_[v_], b_, acc[v_][j_]); \
        }                                                                                             \
    } while (0)
/* acc += X Y over k in [kbeg, kend), xp and yp at kbeg, X's rows XS apart. */
#define K_LOOP(kbeg, kend, XS)                                                                        \
    do {                                                                                              \
        int k_ = (kbeg);                                                                              \
        for (; k_ + KU <= (kend); k_ += KU) {                                                         \
            _Pragma("unroll") for (int u_ = 0; u_ < KU; ++u_) MICRO_STEP(u_);                         \
            xp += KU * (XS);                                                                          \
            yp += KU * YSTEP;                                                                         \
        }                                                                                             \
        for (; k_ < (kend); ++k_) {                                                                   \
            MICRO_STEP(0);                                                                            \
            xp += (XS);                                                                               \
            yp += YSTEP;                                                                              \
        }                                                                                             \
    } while (0)

    VT accs[YB][MV][NR];
#if YB == 1
    {
        VT acc[MV][NR];
#pragma unroll
        for (int v = 0; v < MV; ++v)
#pragma unroll
            for (int j = 0; j < NR; ++j)
                acc[v][j] = (VT)0.0f;
#define XLOAD(v, u) XG(v, u, xp)
        __global const X_T* xp = xb + (long)kb * XSTEP;
        __global const Y_T* yp = Y_BASE(ty0, Y_ORIGIN(ty0 * NR)) + (long)kb * YSTEP;
        K_LOOP(kb, ke, XSTEP);
#pragma unroll
        for (int v = 0; v < MV; ++v)
#pragma unroll
            for (int j = 0; j < NR; ++j)
                accs[0][v][j] = acc[v][j];
    }
#else
    /* k in chunks of KC: the chunk of X copied once into a private buffer in the micro-kernel's
     * order (from the operand or its panels), then every block of the group over it from cache. */
    for (int t = 0; t < YB; ++t)
#pragma unroll
        for (int v = 0; v < MV; ++v)
#pragma unroll
            for (int j = 0; j < NR; ++j)
                accs[t][v][j] = (VT)0.0f;
    float xbuf[KC * MR];
#define XLOAD(v, u) CAT(vload, VW)(0, xp + (u) * MR + (v) * VW)
    for (int k0 = kb; k0 < ke; k0 += KC) {
        const int k1 = min(ke, k0 + KC);
        __global const X_T* xs = xb + (long)k0 * XSTEP;
        for (int kk = 0; kk < k1 - k0; ++kk)
#pragma unroll
            for (int v = 0; v < MV; ++v)
                CAT(vstore, VW)(XG(v, kk, xs), 0, xbuf + kk * MR + v * VW);
#pragma nounroll
        for (int t = 0; t < ny; ++t) {
            const int ty = ty0 + t;
            const float* xp = xbuf;
            __global const Y_T* yp = Y_BASE(ty, Y_ORIGIN(ty * NR)) + (long)k0 * YSTEP;
            VT acc[MV][NR];
#pragma unroll
            for (int v = 0; v < MV; ++v)
#pragma unroll
                for (int j = 0; j < NR; ++j)
                    acc[v][j] = accs[t][v][j];
            K_LOOP(k0, k1, MR);
#pragma unroll
            for (int v = 0; v < MV; ++v)
#pragma unroll
                for (int j = 0; j < NR; ++j)
                    accs[t][v][j] = acc[v][j];
        }
    }
#endif

    /* Stores: the rows and columns of each computed block (xc, yc) at or past its nominal origin
     * (x0, y0) and inside C; with split-k (k deeper than a loop-limited device lets one work-item
     * run: gemm_cpu.c) this split's partial sums into W. */
    GEMM_SPLIT_W();
TILE_LOOP
    for (int t = 0; t < YB; ++t) {
        if (t >= ny)
            break;
        const int y0 = (ty0 + t) * NR, yc = Y_ORIGIN(y0);
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
                    VT o = alpha * accs[t][v][j];
                    if (beta != 0.0f)
                        o = fma((VT)beta, CAT(vload, VW)(0, cp + v * VW), o);
                    CAT(vstore, VW)(o, 0, cp + v * VW);
                }
            }
            continue;
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
                CAT(vstore, VW)(accs[t][v][j], 0, s);
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
