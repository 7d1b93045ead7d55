/*
 * batchnorm.cl: batch normalization, training forward, inference forward and backward.
 *
 * A call is K statistics ("stats": channels in SPATIAL mode, (c, spatial) positions in
 * PER_ACTIVATION mode) of M values each (n and spatial, or n). The stat index k decomposes over
 * sdims (innermost first, nsd <= 4 dims) and the reduction index m over rdims (nrd <= 4 dims,
 * through the host's fastdiv magic numbers rdiv0..2), each operand with its own strides in both
 * (xss / xrs ...). Parameters (scale, bias, means, variances, gradients) share the strides pss over
 * the stat dims; they are float whatever the data type.
 *
 * Work split (every kernel but the finalizers): a work-group of WG = TK x TM work-items owns TK
 * adjacent stats (lane lk = lid % TK) and chunk `g` of their reduction, shared by the TM lanes
 * lm = lid / TK (interleaved on GPUs, lane lm from m0 + lm by TM; a block each on CPUs: the
 * runtime arguments LS, ST, LE). The host picks TK = 1 when x's innermost dim is a reduction dim
 * (NCHW spatial: lanes walk along W) and TK >= 32 when it is a stat dim (NHWC spatial,
 * per-activation: lanes walk along C), so reads are coalesced either way; G chunks per stat tile
 * give enough work-groups when stats are few. Groups: (K / TK tiles) x G, id = tile * G + g.
 * Indices: K, M < 2^31 (int); element offsets in IDX_T.
 *
 * Statistics without cancellation: each work-item sums x - p and (x - p)^2 around the stat's
 * first value p (a pivot within a few standard deviations of the mean, the same for every
 * work-item of the stat), turns them into (count, mean - p, M2) and partials are combined by
 * Chan's pairwise formula, in local memory as a fixed tree and across groups in order
 * g = 0..G-1 (deterministic). The backward carries two more sums: sum dy
 * and c = sum dy * (x - mean) around the partial's own mean, re-centred on merging.
 *
 * Kernels (x is read twice by training forward, dx written once; x and dy twice by backward):
 *   bn_fwd_fused / bn_bwd_fused        G == 1: reduce, finalize and normalize in one kernel
 *   bn_fwd_reduce / bn_bwd_reduce      G > 1: one partial per (stat, g) into part[]
 *   bn_fwd_finalize / bn_bwd_finalize  one work-item per stat: merges its G partials, writes the
 *                                      running / saved statistics or dScale / dBias and the
 *                                      stat's coefficients at part[coefo + 4 k], its pivot
 *                                      at part[coefo + 4 K + k]
 *   bn_fwd_apply / bn_bwd_apply        normalize (y) or the data gradient (dx) from those
 *   bn_inf_apply                       inference: coefficients from the estimated statistics
 *
 * Build options
 *   -DWG=<n>                  work-group size, a power of two (default 256)
 *   -DVEC=1|4                 elements per load (default 1); 4 when the reduction's innermost dim
 *                             has unit stride in x, y, dy, dx and every offset, stride and that
 *                             dim's size divide by 4 (NCHW spatial with H x W % 4 == 0)
 *   -DDATA_HALF, -DIDX_T      see common/helpers.h (x, y, dy, dx storage; element index type)
 * Runtime flags (argument `flags`): 1 running statistics (training) or saved statistics
 * (backward) given; 2 saved statistics given (training).
 * out = alpha * value + beta * out; out is not read when beta == 0 (dScale / dBias likewise
 * with alpha2 / beta2; the running statistics' prior is not read when factor == 1).
 */
#include "common/helpers.h"
#include "common/fastdiv.h"
#include "common/coord4.h"

#ifndef WG
#define WG 256
#endif
#ifndef VEC
#define VEC 1
#endif

/* VEC == 4: every data index counts 4-element vectors (the host divides the unit-stride
 * reduction dim, its neighbours' strides and the offsets by 4, so every vector is aligned and
 * moves in one access), partial sums are per component and summed at the end. M is then in
 * vectors too. */
#if VEC == 4
#define VF float4
#define LOADV(p, i) VLOADAN_OF(DATA_H, 4, p, i)
#define STOREV(p, i, v) VSTOREAN_OF(DATA_H, 4, p, i, v)
#define LOAD1(p, i) (LOADV(p, i).x)
#define VSUM(v) (((v).x + (v).y) + ((v).z + (v).w))
#elif VEC == 1
#define VF float
#define LOADV(p, i) LOAD(p, i)
#define STOREV(p, i, v) STORE(p, i, v)
#define LOAD1(p, i) LOAD(p, i)
#define VSUM(v) (v)
#else
#error "VEC must be 1 or 4"
#endif

#define BN_ARGS                                                                                              \
    int K, int M, int4 sdims, int nrd, int4 rdims, uint4 rdiv0, uint4 rdiv1, uint4 rdiv2, int TK, int G,       \
        int chunk, __global const STORAGE_T* x, ulong xo, long4 xss, long4 xrs, __global STORAGE_T* y,        \
        ulong yo, long4 yss, long4 yrs, __global STORAGE_T* dx, ulong dxo, long4 dxss, long4 dxrs, long4 pss, \
        __global const float* scale, ulong scaleo, __global const float* bias, ulong biaso, __global float* pa, \
        ulong pao, __global float* pb, ulong pbo, __global float* pc, ulong pco, __global float* pd, ulong pdo, \
        float alpha, float beta, float alpha2, float beta2, float eps, float factor, int flags,                \
        __global float* part, ulong coefo, int LS, int ST, int LE

/* A partial of one stat: count, mean, sum of squared deviations from it, sum dy, and
 * sum dy * (x - mean) (the last two backward only). */
typedef struct {
    float n, mu, m2, sdy, c;
} bn_part;

/* Chan's pairwise combination of a and b. */
inline bn_part bn_merge(bn_part a, bn_part b) {
    if (b.n == 0.0f)
        return a;
    if (a.n == 0.0f)
        return b;
    const float n = a.n + b.n, d = b.mu - a.mu, wa = a.n / n, wb = b.n / n;
    bn_part r;
    r.n = n;
    r.mu = a.mu + d * wb;
    r.m2 = a.m2 + b.m2 + d * d * a.n * wb;
    r.sdy = a.sdy + b.sdy;
    r.c = a.c + b.c - d * wb * a.sdy + d * wa * b.sdy;
    return r;
}

#define BN_AT(b, rs, rc) ((b) + coord4_off((rc), (rs)))

/* Runs BODY for the work-item's elements m = ms, ms + ST, ... < me with xi, yi, di the element's
 * offsets in x, y and dx. With at most 2 reduction dims (every packed NCHW / NHWC tensor) the
 * offsets advance incrementally: the step ST is qs whole rows of d0 plus ri, so one
 * compare and at most one wrap per element replace the division. Unsigned wrap-around keeps
 * the negative wrap deltas exact. More dims decode m through fastdiv. */
#define BN_STEP_OPND(b, rs, o, st, wr)                                                 \
    IDX_T o = (b) + (IDX_T)i * (IDX_T)(rs).x + (IDX_T)q * (IDX_T)(rs).y;              \
    const IDX_T st = (IDX_T)ri * (IDX_T)(rs).x + (IDX_T)qs * (IDX_T)(rs).y;           \
    const IDX_T wr = (IDX_T)(rs).y - (IDX_T)d0 * (IDX_T)(rs).x
#define BN_FOR(BODY)                                                                   \
    if (nrd <= 2) {                                                                    \
        const int d0 = rdims.x, qs = ST / d0, ri = ST - qs * d0;                       \
        int m = ms;                                                                    \
        const int q = fdiv(m, rdiv0);                                                  \
        int i = m - q * d0;                                                            \
        BN_STEP_OPND(xb, xrs, xi, sx, wx);                                             \
        BN_STEP_OPND(yb, yrs, yi, sy, wy);                                             \
        BN_STEP_OPND(dxb, dxrs, di, sd, wd);                                           \
        for (; m < me; m += ST) {                                                      \
            BODY                                                                       \
            i += ri;                                                                   \
            xi += sx;                                                                  \
            yi += sy;                                                                  \
            di += sd;                                                                  \
            if (i >= d0) {                                                             \
                i -= d0;                                                               \
                xi += wx;                                                              \
                yi += wy;                                                              \
                di += wd;                                                              \
            }                                                                          \
        }                                                                              \
    } else {                                                                           \
        for (int m = ms; m < me; m += ST) {                                            \
            const int4 rc = coord4_fdiv(m, nrd, rdims, rdiv0, rdiv1, rdiv2);          \
            const IDX_T xi = BN_AT(xb, xrs, rc), yi = BN_AT(yb, yrs, rc);              \
            const IDX_T di = BN_AT(dxb, dxrs, rc);                                     \
            BODY                                                                       \
        }                                                                              \
    }

inline float bn_out(float v, float old, float alpha, float beta) {
    return beta != 0.0f ? alpha * v + beta * old : alpha * v;
}
/* The same on VF values; OLD (a load) is evaluated only when beta != 0. */
#define BN_OUT(v, OLD, alpha, beta) ((beta) != 0.0f ? (alpha) * (v) + (beta) * (OLD) : (alpha) * (v))

/* Geometry of the calling work-item: its stat k (active when < K), the stat's bases in x, y, dx
 * and the parameters, and its elements of chunk [m0, m1) of the reduction: from ms = m0 + lm LS
 * by ST while below me = min(m1, ms + LE). GPUs interleave the lanes (LS 1, ST TM, LE the chunk:
 * adjacent lanes on adjacent elements), CPUs give each lane a block (LS = LE = the block, ST 1). */
#define BN_SETUP                                                                       \
    const int lid = (int)get_local_id(0), lk = lid % TK, lm = lid / TK, TM = WG / TK;  \
    const int grp = (int)get_group_id(0), g = grp % G;                                 \
    const int k = (grp / G) * TK + lk;                                                 \
    const int active = k < K;                                                          \
    const int4 sc = coord4_div(active ? k : 0, sdims);                              \
    const IDX_T xb = (IDX_T)xo + coord4_off(sc, xss), yb = (IDX_T)yo + coord4_off(sc, yss);    \
    const IDX_T dxb = (IDX_T)dxo + coord4_off(sc, dxss), pk = coord4_off(sc, pss);             \
    const int m0 = g * chunk, m1 = (int)min((long)M, (long)m0 + (long)chunk);          \
    const int ms = (int)min((long)m1, (long)m0 + (long)lm * (long)LS);                 \
    const int me = (int)min((long)m1, (long)ms + (long)LE);                            \
    (void)dxb

/* The stat's pivot: its first value (reduction index 0), the same for every work-item of the
 * stat, so partial means are small numbers relative to it and merge without large-magnitude
 * rounding. Inference has none (0). */
#define BN_PIVOT const float piv = active ? LOAD1(x, xb) : 0.0f

/* This work-item's partial over its elements (BWD: with dy), its mean relative to the pivot. */
#define BN_PARTIAL(BWD, out)                                                           \
    bn_part out = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};                                      \
    if (active && ms < me) {                                                           \
        VF s1v = 0.0f, s2v = 0.0f, sdyv = 0.0f, sdxv = 0.0f;                           \
        const int cnt = VEC * ((me - ms + ST - 1) / ST);                               \
        BN_FOR(const VF d = LOADV(x, xi) - piv; s1v += d; s2v = mad(d, d, s2v);        \
               if (BWD) {                                                              \
                   const VF e = LOADV(y, yi);                                          \
                   sdyv += e;                                                          \
                   sdxv = mad(e, d, sdxv);                                             \
               })                                                                      \
        const float s1 = VSUM(s1v), s2 = VSUM(s2v), sdy = VSUM(sdyv), sdx = VSUM(sdxv); \
        const float q = s1 / (float)cnt;                                               \
        out.n = (float)cnt;                                                            \
        out.mu = q;                                                                    \
        out.m2 = fmax(s2 - s1 * q, 0.0f);                                              \
        out.sdy = sdy;                                                                 \
        out.c = sdx - q * sdy;                                                         \
    }

/* Merges the TM partials of each stat of the group (a fixed tree); lane lm == 0 gets the result. */
inline bn_part bn_group_merge(bn_part v, __local bn_part* t, int lid, int lm, int TK, int TM) {
    t[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = TM / 2; s > 0; s >>= 1) {
        if (lm < s) {
            v = bn_merge(v, t[lid + s * TK]);
            t[lid] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return v;
}

/* Training forward's per-stat work once the stat is reduced: the running and saved statistics,
 * and the coefficients (mean - pivot, scale * invstd, bias) of y = ((x - pivot) - cf.x) * a + b. */
inline float4 bn_fwd_final(bn_part r, float piv, int M, IDX_T pk, __global const float* scale, ulong scaleo,
                           __global const float* bias, ulong biaso, __global float* pa, ulong pao,
                           __global float* pb, ulong pbo, __global float* pc, ulong pco, __global float* pd,
                           ulong pdo, float eps, float factor, int flags) {
    const float var = r.m2 / (float)M, mean = piv + r.mu;
    const float inv = 1.0f / sqrt(var + eps);
    if (flags & 1) {
        const float uvar = r.m2 / (float)(M - 1);
        if (factor == 1.0f) {
            pa[pao + pk] = mean;
            pb[pbo + pk] = uvar;
        } else {
            pa[pao + pk] = mad(1.0f - factor, pa[pao + pk], factor * mean);
            pb[pbo + pk] = mad(1.0f - factor, pb[pbo + pk], factor * uvar);
        }
    }
    if (flags & 2) {
        pc[pco + pk] = mean;
        pd[pdo + pk] = inv;
    }
    return (float4)(r.mu, scale[scaleo + pk] * inv, bias[biaso + pk], 0.0f);
}

/* Backward's per-stat work: dScale and dBias, and the coefficients (mean - pivot, A, B, C) of
 * dx = A * (dy - B - ((x - pivot) - cf.x) * C). With saved statistics the saved mean and inverse std are
 * used (c re-centred on the saved mean), else the batch's. */
inline float4 bn_bwd_final(bn_part r, float piv, int M, IDX_T pk, __global const float* scale, ulong scaleo,
                           __global float* pa, ulong pao, __global float* pb, ulong pbo, __global float* pc,
                           ulong pco, __global float* pd, ulong pdo, float alpha2, float beta2, float eps,
                           int flags) {
    float mu = r.mu, inv, c = r.c;
    if (flags & 1) {
        mu = pa[pao + pk] - piv;
        inv = pb[pbo + pk];
        c = mad(r.mu - mu, r.sdy, c);
    } else {
        inv = 1.0f / sqrt(r.m2 / (float)M + eps);
    }
    const float ds = inv * c;
    pc[pco + pk] = bn_out(ds, beta2 != 0.0f ? pc[pco + pk] : 0.0f, alpha2, beta2);
    pd[pdo + pk] = bn_out(r.sdy, beta2 != 0.0f ? pd[pdo + pk] : 0.0f, alpha2, beta2);
    const float invm = 1.0f / (float)M;
    return (float4)(mu, scale[scaleo + pk] * inv, r.sdy * invm, c * inv * inv * invm);
}

/* y = alpha * ((x - piv - cf.x) * cf.y + cf.z) + beta * y over the work-item's elements. */
#define BN_FWD_APPLY(cf)                                                               \
    if (active && ms < me) {                                                           \
        BN_FOR(const VF v = (LOADV(x, xi) - piv - (cf).x) * (cf).y + (cf).z;           \
               STOREV(y, yi, BN_OUT(v, LOADV(y, yi), alpha, beta));)                  \
    }

/* dx = alpha * cf.y * (dy - cf.z - (x - piv - cf.x) * cf.w) + beta * dx. */
#define BN_BWD_APPLY(cf)                                                                     \
    if (active && ms < me) {                                                                 \
        BN_FOR(const VF xc = LOADV(x, xi) - piv - (cf).x;                                    \
               const VF v = (cf).y * (LOADV(y, yi) - (cf).z - xc * (cf).w);                  \
               STOREV(dx, di, BN_OUT(v, LOADV(dx, di), alpha, beta));)                      \
    }

#define BN_FWD_FINAL(r) \
    bn_fwd_final((r), piv, M * VEC, pk, scale, scaleo, bias, biaso, pa, pao, pb, pbo, pc, pco, pd, pdo, eps, factor, flags)
#define BN_BWD_FINAL(r) \
    bn_bwd_final((r), piv, M * VEC, pk, scale, scaleo, pa, pao, pb, pbo, pc, pco, pd, pdo, alpha2, beta2, eps, flags)

/* One kernel per direction when a group owns whole stats (G == 1): the coefficients of its TK
 * stats pass through local memory. */
#define BN_FUSED(BWD, FINAL, APPLY)                                                    \
    __local bn_part t[WG];                                                             \
    __local float4 cf[WG];                                                             \
    BN_SETUP;                                                                          \
    BN_PIVOT;                                                                          \
    BN_PARTIAL(BWD, v)                                                                 \
    v = bn_group_merge(v, t, lid, lm, TK, TM);                                         \
    if (lm == 0 && active)                                                             \
        cf[lk] = FINAL(v);                                                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                      \
    const float4 co = cf[lk];                                                          \
    APPLY(co)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void bn_fwd_fused(BN_ARGS) {
    BN_FUSED(0, BN_FWD_FINAL, BN_FWD_APPLY)
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void bn_bwd_fused(BN_ARGS) {
    BN_FUSED(1, BN_BWD_FINAL, BN_BWD_APPLY)
}

/* G > 1: partial (stat k, chunk g) at part[5 (k G + g)]. */
#define BN_REDUCE(BWD)                                                                 \
    __local bn_part t[WG];                                                             \
    BN_SETUP;                                                                          \
    BN_PIVOT;                                                                          \
    BN_PARTIAL(BWD, v)                                                                 \
    v = bn_group_merge(v, t, lid, lm, TK, TM);                                         \
    if (lm == 0 && active) {                                                           \
        __global float* o = part + 5 * ((size_t)k * (size_t)G + (size_t)g);            \
        o[0] = v.n;                                                                    \
        o[1] = v.mu;                                                                   \
        o[2] = v.m2;                                                                   \
        o[3] = v.sdy;                                                                  \
        o[4] = v.c;                                                                    \
    }

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void bn_fwd_reduce(BN_ARGS) { BN_REDUCE(0) }

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void bn_bwd_reduce(BN_ARGS) { BN_REDUCE(1) }

/* One work-item per stat: the G partials of stat k in order, then FINAL; coefficients to
 * part[coefo + 4 k] and the pivot to part[coefo + 4 K + k] (the apply kernels must not read it
 * from x: in place, another group may already have overwritten it). */
#define BN_FINALIZE(FINAL)                                                             \
    const int k = (int)get_global_id(0);                                               \
    if (k >= K)                                                                        \
        return;                                                                        \
    const int4 sc = coord4_div(k, sdims);                                           \
    const IDX_T pk = coord4_off(sc, pss);                                                  \
    const float piv = LOAD1(x, (IDX_T)xo + coord4_off(sc, xss));                           \
    __global const float* pp = part + 5 * (size_t)k * (size_t)G;                       \
    bn_part r = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};                                        \
    for (int i = 0; i < G; ++i) {                                                      \
        bn_part b = {pp[5 * i], pp[5 * i + 1], pp[5 * i + 2], pp[5 * i + 3], pp[5 * i + 4]}; \
        r = bn_merge(r, b);                                                            \
    }                                                                                  \
    vstore4(FINAL(r), 0, part + coefo + 4 * (size_t)k);                                \
    part[coefo + 4 * (size_t)K + (size_t)k] = piv

__kernel void bn_fwd_finalize(BN_ARGS) { BN_FINALIZE(BN_FWD_FINAL); }

__kernel void bn_bwd_finalize(BN_ARGS) { BN_FINALIZE(BN_BWD_FINAL); }

/* The pivot saved by the finalizer. */
#define BN_SAVED_PIVOT const float piv = active ? part[coefo + 4 * (size_t)K + (size_t)k] : 0.0f

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void bn_fwd_apply(BN_ARGS) {
    BN_SETUP;
    BN_SAVED_PIVOT;
    const float4 co = active ? vload4(0, part + coefo + 4 * (size_t)k) : (float4)(0.0f);
    BN_FWD_APPLY(co)
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void bn_bwd_apply(BN_ARGS) {
    BN_SETUP;
    BN_SAVED_PIVOT;
    const float4 co = active ? vload4(0, part + coefo + 4 * (size_t)k) : (float4)(0.0f);
    BN_BWD_APPLY(co)
}

/* Inference: pa, pb hold the estimated mean and variance. */
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void bn_inf_apply(BN_ARGS) {
    BN_SETUP;
    const float piv = 0.0f;
    float4 co = (float4)(0.0f);
    if (active)
        co = (float4)(pa[pao + pk], scale[scaleo + pk] / sqrt(pb[pbo + pk] + eps), bias[biaso + pk], 0.0f);
    BN_FWD_APPLY(co)
}
