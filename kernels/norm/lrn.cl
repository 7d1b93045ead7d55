/*
 * lrn.cl: local response normalization, forward and backward, across channels and within a
 * channel (cuDNN's cudnnLRNCrossChannel* semantics; MIOpen's within-channel LRN).
 *
 * With lo = (n - 1) / 2 and hi = n - 1 - lo (cuDNN's lookBehind / lookAhead), the window of
 * position i is [i - lo, i + hi], zero padded (cut at the tensor's edges):
 *   s_i  = k + aon * sum over the window of x_j^2,  aon = alpha / n (across) or alpha / n^2
 *          (within: the n x n window over (h, w), both axes as above)
 *   y_i  = x_i * s_i^-beta
 *   dx_i = dy_i * s_i^-beta - 2 * aon * beta * x_i * sum over {j : i in window(j)} of
 *          dy_j * y_j / s_j             (j in [i - hi, i + lo] on each axis)
 * s is always recomputed from x (never derived from x / y, which is 0 / 0 at x = 0).
 * out = ab_alpha * result + ab_beta * out; out is not read when ab_beta == 0.
 *
 * Index spaces (every size, stride and offset is an argument; offsets in elements):
 *   "outer" items: ng collapsed dims gd (innermost first) with per-operand strides gs*;
 *   across channels an outer item is a pixel (n and the spatial dims) and the walk goes along
 *   C (stride cs* per operand); within a channel an outer item is a plane (n, c) and the kernel
 *   works on its H x W (strides hs*, ws*).
 * Operands: p0 = x, p1 = y, p2 = dy (backward only), out = y (forward) or dx (backward).
 *
 * Build options
 *   -DLRN_DIR=0|1   forward | backward (default 0)
 *   -DLRN_N=<n>     the window n, 1..16 (default 5): every window loop has constant bounds and
 *                   the across-channel ring is exactly n registers (no masks, no select chains)
 *   -DWALK_BLOCK=<b> channels lrn_cross_walk loads at once before using them (default 4), so
 *                   a work-item keeps b (forward) or 3 b (backward) loads in flight
 *   -DLRN_WG=<w>    work-group size of lrn_cross_lines (default 256)
 *   -DLINES_MAX=<m> elements of channel lines lrn_cross_lines keeps in local memory (default
 *                   2048: 8 KiB per array, two arrays in the backward)
 *   -DDATA_HALF, -DIDX_T: see common/helpers.h
 * Kernels
 *   lrn_cross_walk   one work-item per (pixel, chunk of channels): walks its channels with the
 *                    last n values of x in registers (shifted, summed in a fixed order:
 *                    no running add/subtract, so no cancellation), so each x is read once plus
 *                    n - 1 (forward) or 2 (n - 1) (backward) halo values per chunk. Adjacent
 *                    work-items are adjacent pixels (along W in NCHW: coalesced).
 *   lrn_cross_lines  one work-group per P whole channel lines (P pixels, P * C <= LINES_MAX):
 *                    x (and the backward's ratios) go through local memory once, read with
 *                    adjacent work-items on adjacent channels (NHWC on GPUs: coalesced).
 *   lrn_cross_direct one work-item per element, c innermost: any C, the window's re-reads from
 *                    the cache.
 *   lrn_within_fwd   one work-item per element (w innermost, or the plane innermost when the
 *                    host passes aux = 1 for NHWC), the n x n window from the cache.
 *   lrn_within_ratio / lrn_within_bwd: backward within a channel in two passes over a batch of
 *                    planes: r = dy * y / s into a float scratch, then dx from r.
 */
#include "common/helpers.h"

#ifndef LRN_DIR
#define LRN_DIR 0
#endif
#ifndef LRN_N
#define LRN_N 5
#endif
/* cuDNN's lookBehind and lookAhead */
#define LRN_LO ((LRN_N - 1) / 2)
#define LRN_HI (LRN_N - 1 - LRN_LO)
#define LRN_RING LRN_N
#ifndef LRN_WG
#define LRN_WG 256
#endif
#ifndef LINES_MAX
#define LINES_MAX 2048
#endif
/* channels whose loads lrn_cross_walk issues together (loads in flight per work-item) */
#ifndef WALK_BLOCK
#define WALK_BLOCK 4
#endif

/* Common arguments: the outer index space, the inner extents, aux (per kernel, below), the
 * output scaling (ab_*) and the window's k, alpha / n^d and beta. */
#define LRN_HEAD                                                                                    \
    ulong items, ulong first, int ng, long8 gd, int C, int H, int W,                                \
        int aux, float ab_alpha, float ab_beta, float k, float aon, float lbeta
/* One operand: pointer, offset, outer strides, and its strides along C (cross) or H and W. */
#define LRN_OPERAND(q, P) P STORAGE_T* p##q, ulong off##q, long8 gs##q, long cs##q, long hs##q, long ws##q
#define LRN_ARGS                                                                                    \
    LRN_HEAD, LRN_OPERAND(0, __global const), LRN_OPERAND(1, __global const),                       \
        LRN_OPERAND(2, __global const), LRN_OPERAND(o, __global)

#define LRN_STEP(K, rem, b0, b1, b2, bo)                   \
    if ((K) < ng) {                                        \
        IDX_T d_ = (IDX_T)gd.s##K;                         \
        IDX_T q_ = (rem) / d_;                             \
        IDX_T r_ = (rem)-q_ * d_;                          \
        (rem) = q_;                                        \
        (b0) += r_ * (IDX_T)gs0.s##K;                      \
        (b1) += r_ * (IDX_T)gs1.s##K;                      \
        (b2) += r_ * (IDX_T)gs2.s##K;                      \
        (bo) += r_ * (IDX_T)gso.s##K;                      \
    }

/* The window as constants, under the names the kernels use. */
#define LRN_WINDOW                  \
    const int n = LRN_N;            \
    const int lo = LRN_LO;          \
    const int hi = LRN_HI;          \
    (void)n;                        \
    (void)lo;                       \
    (void)hi

/* Element bases b0, b1, b2, bo of outer item `o` (offsets included). */
#define LRN_BASES(o)                                               \
    IDX_T b0 = (IDX_T)off0, b1 = (IDX_T)off1, b2 = (IDX_T)off2, bo = (IDX_T)offo; \
    do {                                                           \
        IDX_T rem_ = (o);                                          \
        LRN_STEP(0, rem_, b0, b1, b2, bo)                          \
        LRN_STEP(1, rem_, b0, b1, b2, bo)                          \
        LRN_STEP(2, rem_, b0, b1, b2, bo)                          \
        LRN_STEP(3, rem_, b0, b1, b2, bo)                          \
        LRN_STEP(4, rem_, b0, b1, b2, bo)                          \
        LRN_STEP(5, rem_, b0, b1, b2, bo)                          \
        LRN_STEP(6, rem_, b0, b1, b2, bo)                          \
        LRN_STEP(7, rem_, b0, b1, b2, bo)                          \
    } while (0)

/* s^-beta for s > 0 (s >= k >= 1e-5 when alpha >= 0). */
inline float lrn_pow(float s, float lbeta) {
    if (lbeta == 0.75f) /* the usual beta (AlexNet, GoogLeNet): two roots, no log / exp */
        return rsqrt(s * sqrt(s));
    if (lbeta == 0.5f)
        return rsqrt(s);
    if (lbeta == 1.0f)
        return 1.0f / s;
    return exp2(-lbeta * log2(s));
}

inline void lrn_store(__global STORAGE_T* out, IDX_T i, float v, float ab_alpha, float ab_beta) {
    STORE(out, i, ab_beta != 0.0f ? ab_alpha * v + ab_beta * LOAD(out, i) : ab_alpha * v);
}

/* Shifts v into ring r (r[LRN_RING - 1] is the newest). */
#define RING_PUSH(r, v)                               \
    do {                                              \
        _Pragma("unroll") for (int i_ = 0; i_ < LRN_RING - 1; ++i_) r[i_] = r[i_ + 1]; \
        r[LRN_RING - 1] = (v);                        \
    } while (0)

/* r[LRN_RING - 1 - back] (back is a constant: this folds to one register). */
inline float ring_at(const float* r, int back) {
    float v = 0.0f;
#pragma unroll
    for (int i = 0; i < LRN_RING; ++i)
        v = i == LRN_RING - 1 - back ? r[i] : v;
    return v;
}

/* Sum of the squares of the ring (the window), oldest first (a fixed order). */
inline float ring_sumsq(const float* r) {
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < LRN_RING; ++i)
        s += r[i] * r[i];
    return s;
}

/* Sum of the ring, oldest first. */
inline float ring_sum(const float* r) {
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < LRN_RING; ++i)
        s += r[i];
    return s;
}

/* items = pixels * chunks (chunks = aux); work-item g takes pixel g % pixels and channels
 * [c0, c1) of chunk g / pixels (`first` unused). */
__kernel void lrn_cross_walk(LRN_ARGS) {
    LRN_WINDOW;
    const IDX_T g = (IDX_T)get_global_id(0);
    if (g >= items)
        return;
    const int chunks = aux;
    const IDX_T pixels = (IDX_T)items / (IDX_T)chunks;
    const IDX_T pix = g % pixels;
    const int per = (C + chunks - 1) / chunks;
    const int c0 = (int)(g / pixels) * per;
    const int c1 = min(C, c0 + per);
    LRN_BASES(pix);
    float X[LRN_RING];
#pragma unroll
    for (int i = 0; i < LRN_RING; ++i)
        X[i] = 0.0f;
#if LRN_DIR == 0
    /* head t loads x_t; channel c = t - hi has its whole window [c - lo, c + hi] in X */
#define WALK_LOAD(t) ((t) >= 0 && (t) < C ? LOAD(p0, b0 + (IDX_T)(t) * (IDX_T)cs0) : 0.0f)
#define WALK_STEP(xt, t)                                                                              \
    do {                                                                                              \
        RING_PUSH(X, xt);                                                                             \
        const int c_ = (t)-hi;                                                                        \
        if (c_ >= c0) {                                                                               \
            float s_ = k + aon * ring_sumsq(X);                                                    \
            lrn_store(po, bo + (IDX_T)c_ * (IDX_T)cso, ring_at(X, hi) * lrn_pow(s_, lbeta), ab_alpha, \
                      ab_beta);                                                                       \
        }                                                                                             \
    } while (0)
    const int tend = c1 + hi;
    int t = c0 - lo;
    /* blocks of WALK_BLOCK channels: their loads are issued together (memory-level parallelism) */
    for (; t + WALK_BLOCK <= tend; t += WALK_BLOCK) {
        float v[WALK_BLOCK];
#pragma unroll
        for (int i = 0; i < WALK_BLOCK; ++i)
            v[i] = WALK_LOAD(t + i);
#pragma unroll
        for (int i = 0; i < WALK_BLOCK; ++i)
            WALK_STEP(v[i], t + i);
    }
    for (; t < tend; ++t)
        WALK_STEP(WALK_LOAD(t), t);
#else
    /* head t loads x_t; j = t - hi gets s_j, the ratio R_j = dy_j y_j / s_j and A_j = dy_j s_j^-beta;
     * c = j - lo = t - (n - 1) has every R_j' of j' in [c - hi, c + lo] */
    float R[LRN_RING], A[LRN_RING];
#pragma unroll
    for (int i = 0; i < LRN_RING; ++i) {
        R[i] = 0.0f;
        A[i] = 0.0f;
    }
    const float coef = 2.0f * aon * lbeta;
    /* j needs its ratio when j >= c0 - hi */
#define WALK_J_OK(j) ((j) >= 0 && (j) < C && (j) >= c0 - hi)
#define WALK_LOADS(t, xt, dyj, yj)                                                           \
    do {                                                                                     \
        const int j_ = (t)-hi;                                                               \
        xt = (t) < C ? LOAD(p0, b0 + (IDX_T)(t) * (IDX_T)cs0) : 0.0f;                        \
        dyj = WALK_J_OK(j_) ? LOAD(p2, b2 + (IDX_T)j_ * (IDX_T)cs2) : 0.0f;                  \
        yj = WALK_J_OK(j_) ? LOAD(p1, b1 + (IDX_T)j_ * (IDX_T)cs1) : 0.0f;                   \
    } while (0)
#define WALK_STEP(xt, dyj, yj, t)                                                            \
    do {                                                                                     \
        RING_PUSH(X, xt);                                                                    \
        float rj_ = 0.0f, aj_ = 0.0f;                                                        \
        if (WALK_J_OK((t)-hi)) {                                                             \
            float s_ = k + aon * ring_sumsq(X);                                           \
            rj_ = (dyj) * (yj) / s_;                                                         \
            aj_ = (dyj)*lrn_pow(s_, lbeta);                                                  \
        }                                                                                    \
        RING_PUSH(R, rj_);                                                                   \
        RING_PUSH(A, aj_);                                                                   \
        const int c_ = (t) - (n - 1);                                                        \
        if (c_ >= c0) {                                                                      \
            float v_ = ring_at(A, lo) - coef * ring_at(X, n - 1) * ring_sum(R);           \
            lrn_store(po, bo + (IDX_T)c_ * (IDX_T)cso, v_, ab_alpha, ab_beta);               \
        }                                                                                    \
    } while (0)
    const int tend = c1 + (n - 1);
    int t = max(0, c0 - (n - 1));
    for (; t + WALK_BLOCK <= tend; t += WALK_BLOCK) {
        float xv[WALK_BLOCK], dv[WALK_BLOCK], yv[WALK_BLOCK];
#pragma unroll
        for (int i = 0; i < WALK_BLOCK; ++i)
            WALK_LOADS(t + i, xv[i], dv[i], yv[i]);
#pragma unroll
        for (int i = 0; i < WALK_BLOCK; ++i)
            WALK_STEP(xv[i], dv[i], yv[i], t + i);
    }
    for (; t < tend; ++t) {
        float xt, dyj, yj;
        WALK_LOADS(t, xt, dyj, yj);
        WALK_STEP(xt, dyj, yj, t);
    }
#endif
}

/* items = pixels; work-group g takes pixels [g P, g P + P) (P = aux), whose lines of C
 * elements lie at e = p C + c of its local arrays. The pixel bases are computed once per pixel. */
__kernel __attribute__((reqd_work_group_size(LRN_WG, 1, 1))) void lrn_cross_lines(LRN_ARGS) {
    LRN_WINDOW;
    __local float lx[LINES_MAX];
#if LRN_DIR == 1
    __local float lr[LINES_MAX];
#endif
    __local IDX_T lb[4][LRN_WG];
    const int P = aux;
    const IDX_T first_pix = (IDX_T)get_group_id(0) * (IDX_T)P;
    const int np = (int)min((IDX_T)P, (IDX_T)items - first_pix);
    const int lid = (int)get_local_id(0);
    if (lid < np) {
        LRN_BASES(first_pix + (IDX_T)lid);
        lb[0][lid] = b0;
        lb[1][lid] = b1;
        lb[2][lid] = b2;
        lb[3][lid] = bo;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int L = np * C;
    for (int e = lid; e < L; e += LRN_WG) {
        const int p = e / C, c = e - p * C;
        lx[e] = LOAD(p0, lb[0][p] + (IDX_T)c * (IDX_T)cs0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#if LRN_DIR == 0
    for (int e = lid; e < L; e += LRN_WG) {
        const int p = e / C, c = e - p * C, line = e - c;
        float sq = 0.0f;
#pragma unroll
        for (int dj = -LRN_LO; dj <= LRN_HI; ++dj) {
            const float v = c + dj >= 0 && c + dj < C ? lx[line + c + dj] : 0.0f;
            sq += v * v;
        }
        lrn_store(po, lb[3][p] + (IDX_T)c * (IDX_T)cso, lx[e] * lrn_pow(k + aon * sq, lbeta), ab_alpha, ab_beta);
    }
#else
    /* A = dy s^-beta stays in registers for the work-item's elements (at most LINES_MAX / LRN_WG) */
    float A[(LINES_MAX + LRN_WG - 1) / LRN_WG];
#pragma unroll
    for (int i = 0; i < (LINES_MAX + LRN_WG - 1) / LRN_WG; ++i) {
        const int e = lid + i * LRN_WG;
        A[i] = 0.0f;
        if (e < L) {
            const int p = e / C, c = e - p * C, line = e - c;
            float sq = 0.0f;
#pragma unroll
            for (int dj = -LRN_LO; dj <= LRN_HI; ++dj) {
                const float v = c + dj >= 0 && c + dj < C ? lx[line + c + dj] : 0.0f;
                sq += v * v;
            }
            const float s = k + aon * sq;
            const float dyc = LOAD(p2, lb[2][p] + (IDX_T)c * (IDX_T)cs2);
            lr[e] = dyc * LOAD(p1, lb[1][p] + (IDX_T)c * (IDX_T)cs1) / s;
            A[i] = dyc * lrn_pow(s, lbeta);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const float coef = 2.0f * aon * lbeta;
#pragma unroll
    for (int i = 0; i < (LINES_MAX + LRN_WG - 1) / LRN_WG; ++i) {
        const int e = lid + i * LRN_WG;
        if (e < L) {
            const int p = e / C, c = e - p * C, line = e - c;
            float acc = 0.0f;
#pragma unroll
            for (int dj = -LRN_HI; dj <= LRN_LO; ++dj)
                acc += c + dj >= 0 && c + dj < C ? lr[line + c + dj] : 0.0f;
            lrn_store(po, lb[3][p] + (IDX_T)c * (IDX_T)cso, A[i] - coef * lx[e] * acc, ab_alpha, ab_beta);
        }
    }
#endif
}

/* One work-item per element: g = c + C * pixel (items = pixels * C). */
__kernel void lrn_cross_direct(LRN_ARGS) {
    LRN_WINDOW;
    const IDX_T g = (IDX_T)get_global_id(0);
    if (g >= items)
        return;
    const int c = (int)(g % (IDX_T)C);
    LRN_BASES(g / (IDX_T)C);
    float sq = 0.0f;
#pragma unroll
    for (int dj = -LRN_LO; dj <= LRN_HI; ++dj) {
        const int j = c + dj;
        const float v = j >= 0 && j < C ? LOAD(p0, b0 + (IDX_T)j * (IDX_T)cs0) : 0.0f;
        sq += v * v;
    }
    const float s = k + aon * sq;
    const float xc = LOAD(p0, b0 + (IDX_T)c * (IDX_T)cs0);
#if LRN_DIR == 0
    lrn_store(po, bo + (IDX_T)c * (IDX_T)cso, xc * lrn_pow(s, lbeta), ab_alpha, ab_beta);
#else
    float acc = 0.0f;
    for (int j = max(0, c - hi); j <= min(C - 1, c + lo); ++j) {
        float sj = 0.0f;
#pragma unroll
        for (int di = -LRN_LO; di <= LRN_HI; ++di) {
            const int i = j + di;
            const float v = i >= 0 && i < C ? LOAD(p0, b0 + (IDX_T)i * (IDX_T)cs0) : 0.0f;
            sj += v * v;
        }
        sj = k + aon * sj;
        acc += LOAD(p2, b2 + (IDX_T)j * (IDX_T)cs2) * LOAD(p1, b1 + (IDX_T)j * (IDX_T)cs1) / sj;
    }
    const float dyc = LOAD(p2, b2 + (IDX_T)c * (IDX_T)cs2);
    lrn_store(po, bo + (IDX_T)c * (IDX_T)cso, dyc * lrn_pow(s, lbeta) - 2.0f * aon * lbeta * xc * acc, ab_alpha,
              ab_beta);
#endif
}

/* Sum of x^2 over the window of (h, w) in the plane at base b (operand 0): constant trip
 * counts (the window is LRN_N x LRN_N), taps outside the plane skipped. */
inline float lrn_within_sumsq(__global const STORAGE_T* p0, IDX_T b, long hs0, long ws0, int H, int W, int h, int w) {
    float sq = 0.0f;
    for (int di = -LRN_LO; di <= LRN_HI; ++di) {
        const int i = h + di;
        if (i < 0 || i >= H)
            continue;
        const IDX_T row = b + (IDX_T)i * (IDX_T)hs0;
#pragma unroll
        for (int dj = -LRN_LO; dj <= LRN_HI; ++dj) {
            const int j = w + dj;
            const float v = j >= 0 && j < W ? LOAD(p0, row + (IDX_T)j * (IDX_T)ws0) : 0.0f;
            sq += v * v;
        }
    }
    return sq;
}

/* items = planes * H * W elements of planes [first, first + planes); pl is the plane within
 * them and e = h W + w, on a 2-d range: aux == 0: (e, pl) (w innermost: NCHW coalesces);
 * aux == 1: (pl, e) (the plane innermost: NHWC, whose channels are adjacent, coalesces). The
 * backward's scratch holds element (pl, e) at r[g], g = pl * rs_pl + e * rs_e (the launch order). */
#define LRN_WITHIN_INDEX                                                   \
    LRN_WINDOW;                                                            \
    const IDX_T hw = (IDX_T)H * (IDX_T)W, planes = (IDX_T)items / hw;      \
    const IDX_T pl = (IDX_T)get_global_id(aux ? 0 : 1);                    \
    const IDX_T e = (IDX_T)get_global_id(aux ? 1 : 0);                     \
    if (pl >= planes || e >= hw)                                           \
        return;                                                            \
    const IDX_T rs_pl = aux ? 1 : hw, rs_e = aux ? planes : 1;             \
    const IDX_T g = pl * rs_pl + e * rs_e;                                 \
    const int h = (int)(e / (IDX_T)W), w = (int)(e - (IDX_T)h * (IDX_T)W); \
    (void)g;                                                               \
    LRN_BASES((IDX_T)first + pl)

__kernel void lrn_within_fwd(LRN_ARGS) {
    LRN_WITHIN_INDEX;
    const float s = k + aon * lrn_within_sumsq(p0, b0, hs0, ws0, H, W, h, w);
    const float xc = LOAD(p0, b0 + (IDX_T)h * (IDX_T)hs0 + (IDX_T)w * (IDX_T)ws0);
    lrn_store(po, bo + (IDX_T)h * (IDX_T)hso + (IDX_T)w * (IDX_T)wso, xc * lrn_pow(s, lbeta), ab_alpha, ab_beta);
}

/* r[g] = dy y / s for the elements of the batch (packed: g as above). */
__kernel void lrn_within_ratio(LRN_ARGS, __global float* r) {
    LRN_WITHIN_INDEX;
    const float s = k + aon * lrn_within_sumsq(p0, b0, hs0, ws0, H, W, h, w);
    r[g] = LOAD(p2, b2 + (IDX_T)h * (IDX_T)hs2 + (IDX_T)w * (IDX_T)ws2) *
           LOAD(p1, b1 + (IDX_T)h * (IDX_T)hs1 + (IDX_T)w * (IDX_T)ws1) / s;
}

__kernel void lrn_within_bwd(LRN_ARGS, __global const float* r) {
    LRN_WITHIN_INDEX;
    const float s = k + aon * lrn_within_sumsq(p0, b0, hs0, ws0, H, W, h, w);
    __global const float* rp = r + pl * rs_pl;
    float acc = 0.0f;
    for (int di = -hi; di <= lo; ++di) {
        const int i = h + di;
        if (i < 0 || i >= H)
            continue;
#pragma unroll
        for (int dj = -LRN_HI; dj <= LRN_LO; ++dj) {
            const int j = w + dj;
            acc += j >= 0 && j < W ? rp[((IDX_T)i * (IDX_T)W + (IDX_T)j) * rs_e] : 0.0f;
        }
    }
    const float xc = LOAD(p0, b0 + (IDX_T)h * (IDX_T)hs0 + (IDX_T)w * (IDX_T)ws0);
    const float dyc = LOAD(p2, b2 + (IDX_T)h * (IDX_T)hs2 + (IDX_T)w * (IDX_T)ws2);
    lrn_store(po, bo + (IDX_T)h * (IDX_T)hso + (IDX_T)w * (IDX_T)wso,
              dyc * lrn_pow(s, lbeta) - 2.0f * aon * lbeta * xc * acc, ab_alpha, ab_beta);
}
