/*
 * softmax.cl: softmax forward and backward over "rows": a softmax normalizes the L elements of
 * one row (INSTANCE mode: all of C x spatial for one n; CHANNEL mode: C for one (n, spatial)).
 *
 * Rows and their elements are both strided multi-dimensional views: the row index decomposes
 * over rdims (nr dims) and the element index over edims (ne dims), innermost first, each with
 * per-operand strides. The host collapses contiguous dims, so the usual case is one dim each.
 *
 * Operands: forward  p0 = x, out = y          (p1 unused)
 *           backward p0 = y, p1 = dy, out = dx
 * out = alpha * result + beta * out (out not read when beta == 0).
 *
 * Build options
 *   -DSM_DIR=0|1        forward | backward
 *   -DSM_ALGO=0|1|2     FAST | ACCURATE | LOG (cldnnSoftmaxAlgorithm_t)
 *   -DWG=<n>            work-group size of softmax_wg (a power of two, default 256)
 *   -DDATA_HALF, -DIDX_T: see common/helpers.h
 * Kernels
 *   softmax_wi   one work-item per row: short rows (adjacent rows are adjacent work-items, so
 *                CHANNEL mode on NCHW reads coalesced)
 *   softmax_wg   one work-group per row: long rows, reductions through local memory
 *   softmax_split_partial / softmax_split_apply: several work-groups per row (few, long rows)
 */
#include "common/helpers.h"

#ifndef SM_DIR
#define SM_DIR 0
#endif
#ifndef SM_ALGO
#define SM_ALGO 1
#endif
#ifndef WG
#define WG 256
#endif

#define SM_ARGS                                                                                        \
    ulong rows, ulong L, int nr, long8 rdims, int ne, long8 edims, __global const STORAGE_T* p0,       \
        ulong off0, long8 rs0, long8 es0, __global const STORAGE_T* p1, ulong off1, long8 rs1, long8 es1, \
        __global STORAGE_T* out, ulong offo, long8 rso, long8 eso, float alpha, float beta

/* One step of decomposing `rem` over dim K of `dims`, adding to three offsets. */
#define SM_STEP(K, n, dims, rem, s0, s1, s2, o0, o1, o2)   \
    if ((K) < (n)) {                                       \
        IDX_T d_ = (IDX_T)(dims).s##K;                     \
        IDX_T q_ = (rem) / d_;                             \
        IDX_T r_ = (rem) - q_ * d_;                        \
        (rem) = q_;                                        \
        (o0) += r_ * (IDX_T)(s0).s##K;                     \
        (o1) += r_ * (IDX_T)(s1).s##K;                     \
        (o2) += r_ * (IDX_T)(s2).s##K;                     \
    }
#define SM_DECOMP(n, dims, idx, s0, s1, s2, o0, o1, o2)                                  \
    do {                                                                                 \
        IDX_T rem_ = (idx);                                                              \
        SM_STEP(0, n, dims, rem_, s0, s1, s2, o0, o1, o2)                                \
        SM_STEP(1, n, dims, rem_, s0, s1, s2, o0, o1, o2)                                \
        SM_STEP(2, n, dims, rem_, s0, s1, s2, o0, o1, o2)                                \
        SM_STEP(3, n, dims, rem_, s0, s1, s2, o0, o1, o2)                                \
        SM_STEP(4, n, dims, rem_, s0, s1, s2, o0, o1, o2)                                \
        SM_STEP(5, n, dims, rem_, s0, s1, s2, o0, o1, o2)                                \
        SM_STEP(6, n, dims, rem_, s0, s1, s2, o0, o1, o2)                                \
        SM_STEP(7, n, dims, rem_, s0, s1, s2, o0, o1, o2)                                \
    } while (0)

/* Offsets of element e of the row whose bases are b0, b1, bo. */
#define SM_ELEM(e, i0, i1, io)                                                           \
    IDX_T i0 = b0, i1 = b1, io = bo;                                                     \
    if (ne == 1) {                                                                       \
        i0 += (e) * (IDX_T)es0.s0;                                                       \
        i1 += (e) * (IDX_T)es1.s0;                                                       \
        io += (e) * (IDX_T)eso.s0;                                                       \
    } else {                                                                             \
        SM_DECOMP(ne, edims, (e), es0, es1, eso, i0, i1, io);                            \
    }

inline float sm_store(float v, float old, float alpha, float beta) {
    return beta != 0.0f ? alpha * v + beta * old : alpha * v;
}

/* Row bases of row r. */
#define SM_ROW_BASES(r)                                                                  \
    IDX_T b0 = 0, b1 = 0, bo = 0;                                                        \
    SM_DECOMP(nr, rdims, (r), rs0, rs1, rso, b0, b1, bo);                                \
    p0 += off0;                                                                          \
    p1 += off1;                                                                          \
    out += offo

/* The work of one row, shared by both kernels: elements e = FIRST, FIRST + STEP, ... < L, and
 * RMAX / RSUM combine a partial over the row's work-items (the identity for softmax_wi). */
#if SM_DIR == 0
/* Forward reads x twice: one pass for the normalizer, one to write. ACCURATE and LOG find the
 * max and the sum of exp(x - max) in the same pass (the running sum is rescaled when the max
 * grows); partials of several work-items combine by rescaling to the largest max. */
#if SM_ALGO != 0
#define SM_NORMALIZER(FIRST, STEP, RMAX, RSUM)                              \
    float m = -INFINITY, s = 0.0f;                                          \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        float x = LOAD(p0, i0);                                             \
        if (x > m) {                                                        \
            s = s * exp(m - x) + 1.0f;                                      \
            m = x;                                                          \
        } else if (x != -INFINITY) { /* -inf adds 0; skip exp(-inf + inf) */ \
            s += exp(x - m);                                                \
        }                                                                   \
    }                                                                       \
    {                                                                       \
        float mg = RMAX(m);                                                 \
        s = RSUM(s == 0.0f ? 0.0f : s * exp(m - mg));                       \
        m = mg;                                                             \
    }
#else
#define SM_NORMALIZER(FIRST, STEP, RMAX, RSUM)                              \
    const float m = 0.0f;                                                   \
    float s = 0.0f;                                                         \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        s += exp(LOAD(p0, i0));                                             \
    }                                                                       \
    s = RSUM(s);
#endif
#if SM_ALGO == 2
#define SM_FWD_VALUE(x) ((x) - (m + log(s)))
#else
#define SM_FWD_VALUE(x) (exp((x) - m) / s)
#endif
#define SM_REDUCE(FIRST, STEP, RMAX, RSUM) SM_NORMALIZER(FIRST, STEP, RMAX, RSUM)
#define SM_WRITE(FIRST, STEP)                                               \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        float v = SM_FWD_VALUE(LOAD(p0, i0));                               \
        STORE(out, io, sm_store(v, beta != 0.0f ? LOAD(out, io) : 0.0f, alpha, beta)); \
    }
#else
#if SM_ALGO == 2
#define SM_BWD_TERM(y, dy) (dy)
#define SM_BWD_VALUE(y, dy) ((dy) - exp(y) * s)
#else
#define SM_BWD_TERM(y, dy) ((dy) * (y))
#define SM_BWD_VALUE(y, dy) ((y) * ((dy) - s))
#endif
#define SM_REDUCE(FIRST, STEP, RMAX, RSUM)                                  \
    float s = 0.0f;                                                         \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        s += SM_BWD_TERM(LOAD(p0, i0), LOAD(p1, i1));                       \
    }                                                                       \
    s = RSUM(s);
#define SM_WRITE(FIRST, STEP)                                               \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        float v = SM_BWD_VALUE(LOAD(p0, i0), LOAD(p1, i1));                 \
        STORE(out, io, sm_store(v, beta != 0.0f ? LOAD(out, io) : 0.0f, alpha, beta)); \
    }
#endif
#define SM_ROW(FIRST, STEP, RMAX, RSUM) SM_REDUCE(FIRST, STEP, RMAX, RSUM) SM_WRITE(FIRST, STEP)

#define SM_SELF(v) (v)

__kernel void softmax_wi(SM_ARGS) {
    const IDX_T r = (IDX_T)get_global_id(0);
    if (r >= rows)
        return;
    SM_ROW_BASES(r);
    const IDX_T n = (IDX_T)L;
    SM_ROW(0, 1, SM_SELF, SM_SELF)
}

/* Tree reductions over the work-group; every work-item gets the result. */
inline float wg_sum(float v, __local float* t) {
    const int lid = (int)get_local_id(0);
    t[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            t[lid] += t[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float r = t[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

inline float wg_max(float v, __local float* t) {
    const int lid = (int)get_local_id(0);
    t[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = WG / 2; s > 0; s >>= 1) {
        if (lid < s)
            t[lid] = fmax(t[lid], t[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float r = t[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

/* Work-group reductions over the local array t of the calling kernel. */
#define SM_WG_MAX(v) wg_max((v), t)
#define SM_WG_SUM(v) wg_sum((v), t)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void softmax_wg(SM_ARGS) {
    __local float t[WG];
    const IDX_T r = (IDX_T)get_group_id(0);
    const IDX_T lid = (IDX_T)get_local_id(0);
    SM_ROW_BASES(r);
    const IDX_T n = (IDX_T)L;
    SM_ROW(lid, WG, SM_WG_MAX, SM_WG_SUM)
}

/* Long rows and few of them: G work-groups per row, each owning a chunk of `chunk` elements.
 * softmax_split_partial writes each group's normalizer to part[2 * (row * G + g) + {0, 1}]
 * (forward: max and sum of exp(x - max), FAST: 0 and the sum; backward: 0 and the sum of its
 * terms); softmax_split_apply combines a row's G partials and writes the group's chunk. Grid:
 * rows * G work-groups of WG. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void softmax_split_partial(SM_ARGS, ulong chunk, int G,
                                                                                    __global float* part) {
    __local float t[WG];
    const IDX_T r = (IDX_T)get_group_id(0) / (IDX_T)G, g = (IDX_T)get_group_id(0) % (IDX_T)G;
    const IDX_T lid = (IDX_T)get_local_id(0);
    SM_ROW_BASES(r);
    const IDX_T n = min((IDX_T)L, (g + 1) * (IDX_T)chunk);
    SM_REDUCE(g * (IDX_T)chunk + lid, WG, SM_WG_MAX, SM_WG_SUM)
    if (lid == 0) {
#if SM_DIR == 0
        part[2 * (r * (IDX_T)G + g)] = m;
#else
        part[2 * (r * (IDX_T)G + g)] = 0.0f;
#endif
        part[2 * (r * (IDX_T)G + g) + 1] = s;
    }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void softmax_split_apply(SM_ARGS, ulong chunk, int G,
                                                                                  __global const float* part) {
    const IDX_T r = (IDX_T)get_group_id(0) / (IDX_T)G, g = (IDX_T)get_group_id(0) % (IDX_T)G;
    const IDX_T lid = (IDX_T)get_local_id(0);
    SM_ROW_BASES(r);
    const IDX_T n = min((IDX_T)L, (g + 1) * (IDX_T)chunk);
    __global const float* pr = part + 2 * r * (IDX_T)G;
#if SM_DIR == 0
    float m = pr[0];
    for (int i = 1; i < G; ++i)
        m = fmax(m, pr[2 * i]);
    float s = 0.0f;
    for (int i = 0; i < G; ++i)
        s += pr[2 * i + 1] == 0.0f ? 0.0f : pr[2 * i + 1] * exp(pr[2 * i] - m);
#else
    float s = 0.0f;
    for (int i = 0; i < G; ++i)
        s += pr[2 * i + 1];
#endif
    SM_WRITE(g * (IDX_T)chunk + lid, WG)
}
