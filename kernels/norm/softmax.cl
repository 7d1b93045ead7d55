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
 *   -DWG=<n>            work-group size of softmax_wg, _split_* and _tile (a power of two, default 256)
 *   -DTP=<p>            softmax_tile: rows per work-group (a power of two dividing WG, default 32:
 *                       32 floats are one 128-byte segment; the host takes more for short rows,
 *                       fewer for long ones); LANES = WG / TP work-items per row
 *   -DDATA_HALF, -DIDX_T: see common/helpers.h
 * Kernels
 *   softmax_wi   one work-item per row: short rows (adjacent rows are adjacent work-items, so
 *                CHANNEL mode on NCHW reads coalesced)
 *   softmax_wg   one work-group per row: long rows, reductions through local memory
 *   softmax_split_partial / softmax_split_apply: several work-groups per row (few, long rows)
 *   softmax_tile TP adjacent rows per work-group, staged once in local memory: rows of moderate
 *                length whose row index has unit stride (CHANNEL mode on NCHW)
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
#ifndef TP
#define TP 32
#endif
#define LANES (WG / TP)

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

/* The work of one row, shared by every kernel: elements e = FIRST, FIRST + STEP, ... < n, RMAX /
 * RSUM combine a partial over the row's work-items (the identity for softmax_wi), and GET(K, e, i)
 * is operand K's value at element e, whose global offset is i (SM_GLOBAL reads it there,
 * SM_TILED from softmax_tile's local copy). */
#if SM_DIR == 0
/* Forward reads x twice: one pass for the normalizer, one to write. ACCURATE and LOG find the
 * max and the sum of exp(x - max) in the same pass (the running sum is rescaled when the max
 * grows); partials of several work-items combine by rescaling to the largest max. */
#if SM_ALGO != 0
#define SM_NORMALIZER(FIRST, STEP, RMAX, RSUM, GET)                         \
    float m = -INFINITY, s = 0.0f;                                          \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        float x = GET(0, e, i0);                                            \
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
#define SM_NORMALIZER(FIRST, STEP, RMAX, RSUM, GET)                         \
    const float m = 0.0f;                                                   \
    float s = 0.0f;                                                         \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        s += exp(GET(0, e, i0));                                            \
    }                                                                       \
    s = RSUM(s);
#endif
#if SM_ALGO == 2
#define SM_FWD_VALUE(x) ((x) - (m + log(s)))
#else
#define SM_FWD_VALUE(x) (exp((x) - m) / s)
#endif
#define SM_REDUCE(FIRST, STEP, RMAX, RSUM, GET) SM_NORMALIZER(FIRST, STEP, RMAX, RSUM, GET)
#define SM_WRITE(FIRST, STEP, GET)                                          \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        float v = SM_FWD_VALUE(GET(0, e, i0));                              \
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
#define SM_REDUCE(FIRST, STEP, RMAX, RSUM, GET)                             \
    float s = 0.0f;                                                         \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        s += SM_BWD_TERM(GET(0, e, i0), GET(1, e, i1));                     \
    }                                                                       \
    s = RSUM(s);
#define SM_WRITE(FIRST, STEP, GET)                                          \
    for (IDX_T e = (FIRST); e < n; e += (STEP)) {                           \
        SM_ELEM(e, i0, i1, io);                                             \
        float v = SM_BWD_VALUE(GET(0, e, i0), GET(1, e, i1));               \
        STORE(out, io, sm_store(v, beta != 0.0f ? LOAD(out, io) : 0.0f, alpha, beta)); \
    }
#endif
#define SM_ROW(FIRST, STEP, RMAX, RSUM, GET) SM_REDUCE(FIRST, STEP, RMAX, RSUM, GET) SM_WRITE(FIRST, STEP, GET)

/* GET for the loops above: operand K's value at element e, read from global memory at offset i. */
#define SM_GLOBAL(K, e, i) LOAD(p##K, i)

#define SM_SELF(v) (v)

__kernel void softmax_wi(SM_ARGS) {
    const IDX_T r = (IDX_T)get_global_id(0);
    if (r >= rows)
        return;
    SM_ROW_BASES(r);
    const IDX_T n = (IDX_T)L;
    SM_ROW(0, 1, SM_SELF, SM_SELF, SM_GLOBAL)
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
    SM_ROW(lid, WG, SM_WG_MAX, SM_WG_SUM, SM_GLOBAL)
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
    SM_REDUCE(g * (IDX_T)chunk + lid, WG, SM_WG_MAX, SM_WG_SUM, SM_GLOBAL)
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
    SM_WRITE(g * (IDX_T)chunk + lid, WG, SM_GLOBAL)
}

/* softmax_tile: work-group g owns rows g*TP .. g*TP+TP-1 (the last group may run past `rows`)
 * and all L elements of each. Work-item lid serves row pr = lid % TP with lane = lid / TP, and
 * elements lane, lane + LANES, ...: the TP work-items of one lane read element e of TP adjacent
 * rows, adjacent in memory when the row index has unit stride. Each work-item copies its
 * elements of p0 (and p1) into the local tile `t` (operand K at t[K*L*TP + e*TP + pr]), reduces
 * them from there, combines the row's LANES partials through `red` in a fixed tree order (the
 * result does not depend on timing), then writes its elements from the tile: x (y, dy) is read
 * from global memory once. A work-item only rereads what it stored itself, so the tile needs no
 * barrier; the reductions have theirs. Host: t is a __local argument of L * TP * (SM_DIR + 1)
 * floats; grid ceil(rows / TP) work-groups of WG. */
inline float tile_reduce(float v, __local float* red, int is_max) {
    const int lid = (int)get_local_id(0);
    red[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = WG / 2; h >= TP; h >>= 1) { /* h = half the lanes still combining, times TP */
        if (lid < h)
            red[lid] = is_max ? fmax(red[lid], red[lid + h]) : red[lid] + red[lid + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float r = red[lid % TP];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

#define SM_TILE_MAX(v) tile_reduce((v), red, 1)
#define SM_TILE_SUM(v) tile_reduce((v), red, 0)
#define SM_TILED(K, e, i) t[(K) * kstride + (e) * TP + pr]

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void softmax_tile(SM_ARGS, __local float* t) {
    __local float red[WG];
    const IDX_T lid = (IDX_T)get_local_id(0), pr = lid % TP, lane = lid / TP;
    const IDX_T r = (IDX_T)get_group_id(0) * TP + pr;
    const IDX_T kstride = (IDX_T)L * TP;
    const IDX_T n = r < rows ? (IDX_T)L : 0; /* rows past the end only join the barriers */
    SM_ROW_BASES(r < rows ? r : 0);
#pragma unroll 4 /* several loads in flight per work-item */
    for (IDX_T e = lane; e < n; e += LANES) {
        SM_ELEM(e, i0, i1, io);
        t[e * TP + pr] = LOAD(p0, i0);
#if SM_DIR == 1
        t[kstride + e * TP + pr] = LOAD(p1, i1);
#endif
    }
    SM_ROW(lane, LANES, SM_TILE_MAX, SM_TILE_SUM, SM_TILED)
}
