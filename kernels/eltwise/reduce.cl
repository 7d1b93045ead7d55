/*
 * reduce.cl: cldnnReduceTensor: C = alpha * reduce(A) + beta * C over any subset of A's dims.
 *
 * The host collapses A into two strided views: the kept dims (nk groups, innermost first; the
 * output index o decomposes over kd with A strides ka and C strides kc) and the reduced dims (nr
 * groups in logical order, innermost first, A strides ra; the flattened reduced index e over rd
 * is the row-major position inside the reduced dims, which is what FLATTENED_INDICES report).
 *
 * A work-group holds tp outputs and lanes = WG / tp work-items per output. The mapping is a
 * runtime choice: rows (cols = 0: an output's lanes are adjacent work-items, walking e
 * together, so loads are coalesced along a contiguous reduced dim) or columns (cols = 1:
 * adjacent work-items are adjacent outputs, coalesced along a contiguous kept dim, such as C of
 * NHWC reduced over N, H, W). Each lane folds its elements in a fixed order, then the lanes of an
 * output meet in a fixed local-memory tree: the same bits on every run, no atomics.
 *
 * Few outputs with long reductions split each output's e range into G chunks of `chunk`
 * elements (reduce_part with G > 1 writes one float partial, and with indices an index partial,
 * per (output, chunk) to the workspace), and reduce_final folds the G partials of each output in a
 * fixed order. With G == 1, reduce_part writes C itself.
 *
 * Build options
 *   -DRED_OP=0..8     cldnnReduceTensorOp_t (ADD MUL MIN MAX AMAX AVG NORM1 NORM2 MUL_NO_ZEROS)
 *   -DRED_NAN=0|1     MIN/MAX/AMAX: 1 a NaN wins (PROPAGATE), 0 a NaN loses to any number (fmax)
 *   -DRED_IDX=0|32|64 the indices output's element type (0: none written)
 *   -DWG=<n>          work-group size (a power of two, default 256)
 *   -DRED_SHFL=1      NVIDIA (compute capability 8.0+): the lanes of a row output meet by warp
 *                     butterflies (common/mma.h), warps then in order through local memory
 *   -DDATA_HALF, -DDATA_BF16, -DIDX_T: see common/helpers.h
 * Runtime tunables (arguments): tp, cols, vec (4: A's reduced rows are read as 4-vectors; the
 * host guarantees 4-element alignment of every row start and rd0 % 4 == 0), G, chunk.
 */
#include "common/helpers.h"

#ifndef RED_OP
#define RED_OP 0
#endif
#ifndef RED_NAN
#define RED_NAN 0
#endif
#ifndef RED_IDX
#define RED_IDX 0
#endif
#ifndef WG
#define WG 256
#endif
#ifndef RED_SHFL
#define RED_SHFL 0
#endif
#if RED_SHFL
#include "common/mma.h"
#endif

#define RED_MIN 2
#define RED_MAX 3
#define RED_AMAX 4
#define RED_AVG 5
#define RED_NORM1 6
#define RED_NORM2 7
#define RED_MULNZ 8

/* Comparison ops carry the position of their winner. */
#define RED_CMP (RED_OP == RED_MIN || RED_OP == RED_MAX || RED_OP == RED_AMAX)
#define RED_PRODUCT (RED_OP == 1 || RED_OP == RED_MULNZ)

#if RED_IDX == 64
#define INDEX_T ulong
#else
#define INDEX_T uint
#endif

/* The value an element contributes. */
inline float red_map(float a) {
#if RED_OP == RED_AMAX || RED_OP == RED_NORM1
    return fabs(a);
#elif RED_OP == RED_NORM2
    return a * a;
#elif RED_OP == RED_MULNZ
    return a == 0.0f ? 1.0f : a;
#else
    return a;
#endif
}

/* The fold's starting value. Comparison ops start from the worst value: below every number
 * under PROPAGATE (a NaN beats it), NaN otherwise (any number beats it, and an all-NaN reduction
 * gives NaN as fmax does); its position ~0 loses every tie. */
#if RED_CMP
#if RED_NAN
#define RED_INIT (RED_OP == RED_MIN ? INFINITY : -INFINITY)
#else
#define RED_INIT NAN
#endif
#elif RED_PRODUCT
#define RED_INIT 1.0f
#else
#define RED_INIT 0.0f
#endif

/* 1 when (a, ia) replaces (b, ib) as the winner; ties go to the first position. */
inline int red_better(float a, IDX_T ia, float b, IDX_T ib) {
    int na = isnan(a), nb = isnan(b);
    if (na || nb) {
        if (na && nb)
            return ia < ib;
        return RED_NAN ? na : nb;
    }
#if RED_OP == RED_MIN
    return a < b || (a == b && ia < ib);
#else
    return a > b || (a == b && ia < ib);
#endif
}

/* Folds the mapped value x at position e into (*v, *iv). Without indices a comparison keeps
 * only the value (the winner's; on ties the value held, which differs from the first position's
 * only in the sign of a zero or a NaN's payload), which spares the positions' compares on every
 * element. */
#if RED_CMP && RED_IDX == 0
#if RED_NAN
#define RED_TAKES(x, v) (isnan(x) || (RED_OP == RED_MIN ? (x) < (v) : (x) > (v)))
#else
#define RED_TAKES(x, v) (isnan(v) || (RED_OP == RED_MIN ? (x) < (v) : (x) > (v)))
#endif
#define RED_FOLD(v, iv, x, e)                \
    do {                                     \
        float x_ = (x);                      \
        (v) = RED_TAKES(x_, (v)) ? x_ : (v); \
        (void)(e);                           \
    } while (0)
#elif RED_CMP
#define RED_FOLD(v, iv, x, e)                \
    do {                                     \
        float x_ = (x);                      \
        if (red_better(x_, (e), (v), (iv))) { \
            (v) = x_;                        \
            (iv) = (e);                      \
        }                                    \
    } while (0)
#elif RED_PRODUCT
#define RED_FOLD(v, iv, x, e) ((v) *= (x), (void)(e))
#else
#define RED_FOLD(v, iv, x, e) ((v) += (x), (void)(e))
#endif

/* The output's value from the fold over all L elements. */
inline float red_post(float v, ulong L) {
#if RED_OP == RED_AVG
    return v / (float)L;
#elif RED_OP == RED_NORM2
    return sqrt(v);
#else
    (void)L;
    return v;
#endif
}

#define RED_ARGS                                                                                   \
    IDX_T M, IDX_T L, int nk, long8 kd, long8 ka, long8 kc, int nr, long8 rd, long8 ra,            \
        __global const STORAGE_T *A, IDX_T offa, __global STORAGE_T *C, IDX_T offc,                \
        __global INDEX_T *I, IDX_T offi, float alpha, float beta, int tp, int cols, int vec, int G, \
        IDX_T chunk, __global float *wsv, IDX_T wvo, __global INDEX_T *wsi, IDX_T wio

/* One decomposition step of `rem` over dim K of `dims` (K < n), adding to two offsets. */
#define RED_STEP(K, n, dims, rem, sa, sb, oa, ob) \
    if ((K) < (n)) {                              \
        IDX_T d_ = (IDX_T)(dims).s##K;            \
        IDX_T q_ = (rem) / d_;                    \
        IDX_T r_ = (rem) - q_ * d_;               \
        (rem) = q_;                               \
        (oa) += r_ * (IDX_T)(sa).s##K;            \
        (ob) += r_ * (IDX_T)(sb).s##K;            \
    }
/* Adds the offsets of index idx over n dims to (oa, ob). */
#define RED_DECOMP(n, dims, idx, sa, sb, oa, ob)      \
    do {                                              \
        IDX_T rem_ = (idx);                           \
        RED_STEP(0, n, dims, rem_, sa, sb, oa, ob)    \
        RED_STEP(1, n, dims, rem_, sa, sb, oa, ob)    \
        RED_STEP(2, n, dims, rem_, sa, sb, oa, ob)    \
        RED_STEP(3, n, dims, rem_, sa, sb, oa, ob)    \
        RED_STEP(4, n, dims, rem_, sa, sb, oa, ob)    \
        RED_STEP(5, n, dims, rem_, sa, sb, oa, ob)    \
        RED_STEP(6, n, dims, rem_, sa, sb, oa, ob)    \
        RED_STEP(7, n, dims, rem_, sa, sb, oa, ob)    \
    } while (0)

/* Sets oa to A's offset (from the output's base) of the reduced row at q = e / rd0: q
 * decomposed over groups 1 .. nr-1. A macro: vectors of 8 longs stay out of function calls. */
#define RED_OUTER(q, oa)                                   \
    do {                                                   \
        IDX_T rem_ = (q), ob_ = 0;                         \
        (oa) = 0;                                          \
        RED_STEP(1, nr, rd, rem_, ra, ra, oa, ob_)         \
        RED_STEP(2, nr, rd, rem_, ra, ra, oa, ob_)         \
        RED_STEP(3, nr, rd, rem_, ra, ra, oa, ob_)         \
        RED_STEP(4, nr, rd, rem_, ra, ra, oa, ob_)         \
        RED_STEP(5, nr, rd, rem_, ra, ra, oa, ob_)         \
        RED_STEP(6, nr, rd, rem_, ra, ra, oa, ob_)         \
        RED_STEP(7, nr, rd, rem_, ra, ra, oa, ob_)         \
        (void)ob_;                                         \
    } while (0)

/* 4 elements from element offset i, which the host keeps 4-element aligned (vec 4) */
#define RED_LOAD4(p, i) VLOADAN_OF(DATA_H, 4, (p) + (i), 0)

/* Folds A's element at offset i (position e), or the 4 from i (positions e..e+3). */
#define RED_FOLD1(i, e) RED_FOLD(v, iv, red_map(LOAD(A, (i))), (e))
#define RED_FOLDV(x4, e)                             \
    do {                                             \
        float4 x4_ = (x4);                           \
        RED_FOLD(v, iv, red_map(x4_.s0), (e));       \
        RED_FOLD(v, iv, red_map(x4_.s1), (e) + 1);   \
        RED_FOLD(v, iv, red_map(x4_.s2), (e) + 2);   \
        RED_FOLD(v, iv, red_map(x4_.s3), (e) + 3);   \
    } while (0)
#define RED_FOLD4(i, e) RED_FOLDV(RED_LOAD4(A, (i)), (e))

#if RED_SHFL
/* The value of index x in the lane whose index is this lane's xor m. */
inline IDX_T red_shfl_idx(IDX_T x, int m) {
#if RED_CMP && RED_IDX != 0
    ulong u = (ulong)x;
    const uint lo = as_uint(mma_shfl_xor(as_float((uint)u), m));
    const uint hi = sizeof(IDX_T) > 4 ? as_uint(mma_shfl_xor(as_float((uint)(u >> 32)), m)) : 0u;
    return (IDX_T)(((ulong)hi << 32) | lo);
#else
    (void)m;
    return x;
#endif
}
#endif

/* The lanes of each of the work-group's outputs meet: a tree over local memory whose partner
 * is `step` slots away per level (1 for rows, tp for columns). Every work-item calls it. With
 * RED_SHFL, rows (step 1: an output's lanes adjacent, whole warps or within one) meet by warp
 * butterflies, then lane 0 of the output folds its warps' values in order: fixed orders either
 * way. The result is lane 0's. */
inline void red_tree(__local float* lv, __local IDX_T* li, int l, int lane, int lanes, int step, float* v,
                     IDX_T* iv) {
#if RED_SHFL
    if (step == 1) {
        for (int s = (lanes < 32 ? lanes : 32) / 2; s > 0; s >>= 1) {
            const float b = mma_shfl_xor(*v, s);
            const IDX_T ib = red_shfl_idx(*iv, s);
            RED_FOLD(*v, *iv, b, ib);
        }
        if (lanes > 32) {
            if ((l & 31) == 0) {
                lv[l >> 5] = *v;
                li[l >> 5] = *iv;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lane == 0)
                for (int k = 1; k < lanes / 32; ++k)
                    RED_FOLD(*v, *iv, lv[(l >> 5) + k], li[(l >> 5) + k]);
        }
        return;
    }
#endif
    lv[l] = *v;
    li[l] = *iv;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = lanes / 2; s > 0; s /= 2) {
        if (lane < s) {
            float b = lv[l + s * step];
            IDX_T ib = li[l + s * step];
            float a = lv[l];
            IDX_T ia = li[l];
            RED_FOLD(a, ia, b, ib);
            lv[l] = a;
            li[l] = ia;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *v = lv[l];
    *iv = li[l];
}

/* Writes output o's value v (and its position iv) at C offset ci. */
inline void red_store(__global STORAGE_T* C, IDX_T ci, __global INDEX_T* I, IDX_T ii, float v, IDX_T iv, IDX_T L,
                      float alpha, float beta) {
    float r = alpha * red_post(v, L);
    if (beta != 0.0f)
        r += beta * LOAD(C, ci);
    STORE(C, ci, r);
#if RED_IDX != 0
    I[ii] = (INDEX_T)iv;
#else
    (void)I;
    (void)ii;
    (void)iv;
#endif
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void reduce_part(RED_ARGS) {
    __local float lv[WG];
    __local IDX_T li[WG];
    const int l = (int)get_local_id(0);
    const int lanes = WG / tp;
    const int ol = cols ? l % tp : l / lanes;
    const int lane = cols ? l / tp : l % lanes;
    const IDX_T grp = (IDX_T)get_group_id(0);
    const IDX_T o = (grp / (IDX_T)G) * (IDX_T)tp + (IDX_T)ol;
    const IDX_T c = grp % (IDX_T)G;
    const int live = o < M;
    IDX_T abase = offa, cbase = offc;
    if (live)
        RED_DECOMP(nk, kd, o, ka, kc, abase, cbase);
    float v = RED_INIT;
    IDX_T iv = ~(IDX_T)0;
    const IDX_T e0 = c * chunk;
    const IDX_T e1 = min(L, e0 + chunk);
    const IDX_T rd0 = (IDX_T)rd.s0, ra0 = (IDX_T)ra.s0;
    const IDX_T width = (IDX_T)(lanes * vec);
    IDX_T e = e0 + (IDX_T)(lane * vec);
    /* Row by row of the innermost reduced group: one decomposition per row (none after the
     * first for a single group: NCHW rows, NHWC over N, H, W, full reductions), then a plain
     * strided walk, unrolled by hand (loads first, folds in order after) so several loads are in
     * flight per work-item whatever the compiler unrolls. rb + e * ra0 is element e's offset
     * inside the row (unsigned arithmetic: rb may wrap below 0). */
    while (live && e < e1) {
        const IDX_T q = e / rd0, rs = q * rd0, re = min(rs + rd0, e1);
        IDX_T up;
        RED_OUTER(q, up);
        const IDX_T rb = abase + up - rs * ra0;
        if (vec == 4) {
            for (; e + width < re; e += 2 * width) {
                float4 x0 = RED_LOAD4(A, rb + e), x1 = RED_LOAD4(A, rb + e + width);
                RED_FOLDV(x0, e);
                RED_FOLDV(x1, e + width);
            }
            if (e < re) {
                RED_FOLD4(rb + e, e);
                e += width;
            }
        } else {
            for (; e + 3 * width < re; e += 4 * width) {
                float x0 = LOAD(A, rb + e * ra0), x1 = LOAD(A, rb + (e + width) * ra0);
                float x2 = LOAD(A, rb + (e + 2 * width) * ra0), x3 = LOAD(A, rb + (e + 3 * width) * ra0);
                RED_FOLD(v, iv, red_map(x0), e);
                RED_FOLD(v, iv, red_map(x1), e + width);
                RED_FOLD(v, iv, red_map(x2), e + 2 * width);
                RED_FOLD(v, iv, red_map(x3), e + 3 * width);
            }
            for (; e < re; e += width)
                RED_FOLD1(rb + e * ra0, e);
        }
    }
    red_tree(lv, li, l, lane, lanes, cols ? tp : 1, &v, &iv);
    if (!live || lane != 0)
        return;
    if (G == 1) {
        red_store(C, cbase, I, offi + o, v, iv, L, alpha, beta);
    } else {
        wsv[wvo + o * (IDX_T)G + c] = v;
#if RED_CMP && RED_IDX != 0
        wsi[wio + o * (IDX_T)G + c] = (INDEX_T)iv;
#else
        (void)wsi;
        (void)wio;
#endif
    }
}

/* Second pass of the split: tp outputs per work-group, lanes = WG / tp work-items per output
 * fold its G partials (lane j takes chunks j, j + lanes, ...), then the tree. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void reduce_final(RED_ARGS) {
    __local float lv[WG];
    __local IDX_T li[WG];
    (void)A;
    (void)offa;
    (void)ka;
    (void)nr;
    (void)rd;
    (void)ra;
    (void)cols;
    (void)vec;
    (void)chunk;
    const int l = (int)get_local_id(0);
    const int lanes = WG / tp;
    const int lane = l % lanes;
    const IDX_T o = (IDX_T)get_group_id(0) * (IDX_T)tp + (IDX_T)(l / lanes);
    const int live = o < M;
    float v = RED_INIT;
    IDX_T iv = ~(IDX_T)0;
    if (live)
        for (int g = lane; g < G; g += lanes) {
#if RED_CMP && RED_IDX != 0
            RED_FOLD(v, iv, wsv[wvo + o * (IDX_T)G + (IDX_T)g], (IDX_T)wsi[wio + o * (IDX_T)G + (IDX_T)g]);
#else
            RED_FOLD(v, iv, wsv[wvo + o * (IDX_T)G + (IDX_T)g], 0);
#endif
        }
    red_tree(lv, li, l, lane, lanes, 1, &v, &iv);
    if (!live || lane != 0)
        return;
    IDX_T unused = 0, cbase = offc;
    RED_DECOMP(nk, kd, o, kc, kc, cbase, unused);
    (void)unused;
    red_store(C, cbase, I, offi + o, v, iv, L, alpha, beta);
}
