/*
 * norm.cl: layer, group and RMS normalization, forward and backward (src/norm/norm.c).
 *
 * A call is O "outers" of I "inner" elements each. The row kernels (norm_fwd*, norm_bwd*) take
 * one outer per normalized set (a row: LAYER/RMS the leading dims, GROUP (n, group)) and its
 * elements as inner; the parameter-gradient kernels (norm_par*) take one outer per scale/bias
 * element and the elements it touches as inner. The outer index decomposes over odims (up to 4,
 * innermost first), the inner index over idims (up to 4, through the host's fastdiv magic numbers
 * idiv0..2); every operand has its own strides over both: data x, y|dy, dx (STORAGE_T), the
 * statistics mean / invStd (float, strides sos / sis) and the parameters scale, bias, dScale,
 * dBias (STORAGE_T, strides pos / pis). Strides are zero where an operand does not vary.
 *
 * Work split: a work-group of wg work-items (a runtime size, at most WGMAX) owns TK adjacent
 * outers (lane lk = lid % TK) and chunk g of their inner range (G chunks per outer), shared by
 * TM = wg / TK lanes lm = lid / TK, interleaved (lane lm takes m0 + lm, m0 + lm + TM, ...) so
 * adjacent work-items touch adjacent memory: TK = 1 when x's innermost dim is an inner one (rows
 * contiguous), TK > 1 when it is an outer one (instance norm on NHWC, parameter gradients of
 * LAYER). Groups: (O / TK tiles) x G, id = tile * G + g. Reductions are fixed trees in local
 * memory and, across chunks, in order g = 0..G-1: the same bits on every call, no atomics.
 *
 * Forward statistics: each lane sums x - p and (x - p)^2 around the row's first value p (a pivot
 * near the mean: no E[x^2] - E[x]^2 cancellation), partials (count, mean - p, M2) merge by Chan's
 * formula; RMS sums x^2 (pivot 0, mean 0). Variance is biased (PyTorch's); invStd =
 * 1 / sqrt(var + eps). A lane keeps its elements in registers (NK values of VF) when its share of
 * the row fits, so x is read once; longer rows stream and read x twice.
 *
 * Kernels
 *   norm_fwd          G == 1: statistics, saved mean / invStd, y
 *   norm_fwd_reduce   G > 1: a partial (count, mean - p, M2, p) per (row, chunk) into part[]
 *   norm_fwd_apply    G > 1: merges the row's partials, saves the statistics (chunk 0), y
 *   norm_bwd          G == 1: A = sum g, B = sum g xhat (g = dy scale), then
 *                     dx = invStd (g - A / L - xhat B / L)  (RMS: no A term)
 *   norm_bwd_reduce   G > 1: (A, B) partials per (row, chunk)
 *   norm_bwd_apply    G > 1: merges them, dx
 *   norm_par          parameter gradients, G == 1: dScale = sum dy xhat, dBias = sum dy
 *   norm_par_reduce   G > 1: their partials per (parameter, chunk)
 *   norm_par_final    one work-item per parameter: sums its G partials in order
 *
 * Build options
 *   -DVEC=1|4   data elements per index (default 1): 4 when the innermost inner dim has unit
 *               stride in x, y, dy, dx and its size, the other data strides and offsets divide
 *               by 4 (the host divides them); pvec says whether the parameters vary along that
 *               dim (then their indices count vectors too) or not (one value per vector).
 *               norm_par* ignore it (the host passes element strides).
 *   -DNK=<n>    VF values a lane keeps in registers (default 32 / VEC; a tunable: more keeps
 *               longer rows in one read, costs registers)
 *   -DUNROLL=0|1  unroll the register-cache loops (default 1, so the cache stays in registers on
 *               GPUs); CPUs take 0: PoCL compiles the unrolled bodies of every kernel for minutes
 *   -DDATA_HALF, -DDATA_BF16, -DIDX_T: see common/helpers.h
 * Runtime flags: 1 affine (scale and bias given), 2 save or read statistics, 4 RMS, 8 dScale
 * wanted, 16 dBias wanted. out = alpha * value + beta * out; out is not read when beta == 0
 * (dScale / dBias likewise with alpha2 / beta2).
 */
#include "common/helpers.h"
#include "common/fastdiv.h"
#include "common/coord4.h"

#ifndef VEC
#define VEC 1
#endif
#ifndef NK
#define NK (32 / VEC)
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
#define WGMAX 256
#if UNROLL
#define NM_UNROLL _Pragma("unroll")
#else
#define NM_UNROLL
#endif

#if VEC == 4
#define VF float4
#if DATA_H == 1
#define LOADV(p, i) vload_half4((i), (p))
#define STOREV(p, i, v) vstore_half4_rte((v), (i), (p))
#elif DATA_H == 2
#define LOADV(p, i) as_float4(convert_uint4(vload4((i), (p))) << 16)
#define STOREV(p, i, v)                                                                             \
    vstore4((ushort4)(cldnn_float_to_bf16((v).x), cldnn_float_to_bf16((v).y), cldnn_float_to_bf16((v).z), \
                      cldnn_float_to_bf16((v).w)),                                                  \
            (i), (p))
#else
#define LOADV(p, i) vload4((i), (p))
#define STOREV(p, i, v) vstore4((v), (i), (p))
#endif
#define VSUM(v) (((v).x + (v).y) + ((v).z + (v).w))
#define LOAD1(p, i) (LOADV(p, i).x)
#elif VEC == 1
#define VF float
#define LOADV(p, i) LOAD(p, i)
#define STOREV(p, i, v) STORE(p, i, v)
#define VSUM(v) (v)
#define LOAD1(p, i) LOAD(p, i)
#else
#error "VEC must be 1 or 4"
#endif

#define NORM_ARGS                                                                                          \
    int O, int I, int4 odims, int ni, int4 idims, uint4 idiv0, uint4 idiv1, uint4 idiv2, int TK, int G,     \
        int chunk, __global const STORAGE_T* x, ulong xo, long4 xos, long4 xis, __global STORAGE_T* y,     \
        ulong yo, long4 yos, long4 yis, __global STORAGE_T* dx, ulong dxo, long4 dxos, long4 dxis,          \
        long4 sos, long4 sis, __global float* mean, ulong meano, __global float* istd, ulong istdo,         \
        long4 pos, long4 pis, int pvec, __global const STORAGE_T* scale, ulong scaleo,                       \
        __global const STORAGE_T* bias, ulong biaso, __global STORAGE_T* dscale, ulong dscaleo,             \
        __global STORAGE_T* dbias, ulong dbiaso, float alpha, float beta, float alpha2, float beta2,        \
        float eps, int flags, __global float* part

#define NM_OUT(v, OLD, a, b) ((b) != 0.0f ? (a) * (v) + (b) * (OLD) : (a) * (v))

/* The calling work-item's outer o (active when < O), its bases in every operand, and its chunk
 * [m0, m1) of the inner range; lanes step by TM from m0 + lm. */
#define NM_SETUP                                                                               \
    const int lid = (int)get_local_id(0), TM = (int)get_local_size(0) / TK;                    \
    const int lk = lid % TK, lm = lid / TK, grp = (int)get_group_id(0), g = grp % G;           \
    const int o = (grp / G) * TK + lk, active = o < O;                                         \
    const int4 oc = coord4_div(active ? o : 0, odims);                                           \
    const IDX_T xb = (IDX_T)xo + coord4_off(oc, xos), yb = (IDX_T)yo + coord4_off(oc, yos);            \
    const IDX_T dxb = (IDX_T)dxo + coord4_off(oc, dxos), sb = coord4_off(oc, sos), pb = coord4_off(oc, pos); \
    const int m0 = g * chunk, m1 = active ? min(I, m0 + chunk) : m0;                           \
    const int rms = (flags & 4) != 0, affine = (flags & 1) != 0;                               \
    (void)dxb;                                                                                 \
    (void)sb;                                                                                  \
    (void)pb;                                                                                  \
    (void)rms;                                                                                 \
    (void)affine

/* For every element m of the lane's share: ic its inner coordinates. */
#define NM_FOR(BODY)                                                    \
    for (int m = m0 + lm; m < m1; m += TM) {                            \
        const int4 ic = coord4_fdiv(m, ni, idims, idiv0, idiv1, idiv2);    \
        BODY                                                            \
    }
/* The same over the first NK of the share, j its slot. */
#define NM_FOR_CACHED(BODY)                                             \
    NM_UNROLL for (int j = 0; j < NK; ++j) {                            \
        const int m = m0 + lm + j * TM;                                 \
        if (m < m1) {                                                   \
            const int4 ic = coord4_fdiv(m, ni, idims, idiv0, idiv1, idiv2); \
            BODY                                                        \
        }                                                               \
    }

/* A parameter as VF: a vector of 4 parameters where they vary along the vector (pvec), else one
 * value for the vector. */
inline VF nm_param(__global const STORAGE_T* p, IDX_T i, int pv) {
#if VEC == 4
    if (pv)
        return LOADV(p, i);
#endif
    (void)pv;
    return (VF)(LOAD(p, i));
}

/* Chan's combination of forward partials (count, mean - pivot, M2, pivot). */
inline float4 nm_merge(float4 a, float4 b) {
    if (b.x == 0.0f)
        return a;
    if (a.x == 0.0f)
        return b;
    const float n = a.x + b.x, d = b.y - a.y, wb = b.x / n;
    return (float4)(n, a.y + d * wb, a.z + b.z + d * d * a.x * wb, a.w);
}

/* Merges the TM partials of each outer of the group in a fixed tree (FWD: Chan's formula, else
 * sums); every lane gets its outer's result. */
inline float4 nm_tree(float4 v, __local float4* t, int lid, int lm, int TK, int TM, int fwd) {
    t[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = TM / 2; s > 0; s >>= 1) {
        if (lm < s) {
            const float4 b = t[lid + s * TK];
            v = fwd ? nm_merge(v, b) : v + b;
            t[lid] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float4 r = t[lid - lm * TK];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

/* A forward partial from the lane's sums s1 = sum (x - p), s2 = sum (x - p)^2 over cnt values. */
inline float4 nm_fwd_part(float s1, float s2, int cnt, float piv, int rms) {
    if (cnt == 0)
        return (float4)(0.0f, 0.0f, 0.0f, piv);
    if (rms)
        return (float4)((float)cnt, 0.0f, s2, 0.0f);
    const float q = s1 / (float)cnt;
    return (float4)((float)cnt, q, fmax(s2 - s1 * q, 0.0f), piv);
}

/* The lane's forward partial; with the row's share in registers (cached) the values land in c. */
#define NM_FWD_PARTIAL(out, cached, c)                                                     \
    float4 out;                                                                            \
    {                                                                                      \
        VF s1v = 0.0f, s2v = 0.0f;                                                         \
        int cnt = 0;                                                                       \
        if (cached) {                                                                      \
            NM_FOR_CACHED(c[j] = LOADV(x, xb + coord4_off(ic, xis)); const VF d = c[j] - piv;  \
                          s1v += d; s2v = mad(d, d, s2v); ++cnt;)                          \
        } else {                                                                           \
            NM_FOR(const VF d = LOADV(x, xb + coord4_off(ic, xis)) - piv; s1v += d;            \
                   s2v = mad(d, d, s2v); ++cnt;)                                           \
        }                                                                                  \
        out = nm_fwd_part(VSUM(s1v), VSUM(s2v), cnt * VEC, piv, rms);                      \
    }

/* Row statistics (mean, invStd) from a merged partial. */
inline float2 nm_stats(float4 r, float eps, int rms) {
    const float var = r.x > 0.0f ? r.z / r.x : 0.0f;
    return (float2)(rms ? 0.0f : r.w + r.y, 1.0f / sqrt(var + eps));
}

/* y for one element of value v (VF) at inner coordinates ic. */
#define NM_FWD_ELEM(v)                                                                     \
    {                                                                                      \
        VF w = ((v) - mu) * rs;                                                            \
        if (affine) {                                                                      \
            const IDX_T pi = pb + coord4_off(ic, pis);                                         \
            w = mad(w, nm_param(scale, scaleo + pi, pvec), nm_param(bias, biaso + pi, pvec)); \
        }                                                                                  \
        const IDX_T yi = yb + coord4_off(ic, yis);                                             \
        STOREV(y, yi, NM_OUT(w, LOADV(y, yi), alpha, beta));                               \
    }

#define NM_SAVE_STATS(st)                                  \
    if (active && lm == 0 && g == 0 && (flags & 2)) {      \
        if (!rms)                                          \
            mean[meano + sb] = (st).x;                     \
        istd[istdo + sb] = (st).y;                         \
    }

__kernel void norm_fwd(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_SETUP;
    const float piv = (active && !rms) ? LOAD1(x, xb) : 0.0f;
    const int cached = m1 - m0 <= NK * TM;
    VF c[NK];
    NM_FWD_PARTIAL(v, cached, c)
    const float2 st = nm_stats(nm_tree(v, t, lid, lm, TK, TM, 1), eps, rms);
    NM_SAVE_STATS(st)
    const float mu = st.x, rs = st.y;
    if (cached) {
        NM_FOR_CACHED(NM_FWD_ELEM(c[j]))
    } else {
        NM_FOR(NM_FWD_ELEM(LOADV(x, xb + coord4_off(ic, xis))))
    }
}

__kernel void norm_fwd_reduce(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_SETUP;
    const float piv = (active && !rms) ? LOAD1(x, xb) : 0.0f;
    VF c[NK];
    NM_FWD_PARTIAL(v, 0, c)
    v = nm_tree(v, t, lid, lm, TK, TM, 1);
    if (active && lm == 0)
        vstore4(v, (size_t)o * (size_t)G + (size_t)g, part);
}

/* The row's G partials merged in order by lane 0 of the outer, shared through local memory. */
inline float4 nm_gather(__global const float* part, int o, int G, int active, int lm, int lk, __local float4* t,
                        int fwd) {
    if (active && lm == 0) {
        float4 r = vload4((size_t)o * (size_t)G, part);
        for (int i = 1; i < G; ++i) {
            const float4 b = vload4((size_t)o * (size_t)G + (size_t)i, part);
            r = fwd ? nm_merge(r, b) : r + b;
        }
        t[lk] = r;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return t[lk];
}

__kernel void norm_fwd_apply(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_SETUP;
    const float2 st = nm_stats(nm_gather(part, o, G, active, lm, lk, t, 1), eps, rms);
    NM_SAVE_STATS(st)
    const float mu = st.x, rs = st.y;
    NM_FOR(NM_FWD_ELEM(LOADV(x, xb + coord4_off(ic, xis))))
}

/* Backward: the row's saved statistics, g = dy * scale and xhat for one element. */
#define NM_BWD_LOAD_STATS                                                  \
    const float mu = (active && !rms) ? mean[meano + sb] : 0.0f;           \
    const float rs = active ? istd[istdo + sb] : 0.0f
#define NM_G(gv, e)                                                        \
    VF gv = (e);                                                           \
    if (affine)                                                            \
        gv *= nm_param(scale, scaleo + pb + coord4_off(ic, pis), pvec)

#define NM_BWD_PARTIAL(out, cached, cx, cy)                                                 \
    float4 out;                                                                             \
    {                                                                                       \
        VF av = 0.0f, bv = 0.0f;                                                            \
        if (cached) {                                                                       \
            NM_FOR_CACHED(cx[j] = LOADV(x, xb + coord4_off(ic, xis)); cy[j] = LOADV(y, yb + coord4_off(ic, yis)); \
                          NM_G(gv, cy[j]); av += gv; bv = mad(gv, (cx[j] - mu) * rs, bv);)  \
        } else {                                                                            \
            NM_FOR(NM_G(gv, LOADV(y, yb + coord4_off(ic, yis))); av += gv;                      \
                   bv = mad(gv, (LOADV(x, xb + coord4_off(ic, xis)) - mu) * rs, bv);)           \
        }                                                                                   \
        out = (float4)(rms ? 0.0f : VSUM(av), VSUM(bv), 0.0f, 0.0f);                        \
    }

/* dx for one element of values xv, dyv from the row sums r (A, B). */
#define NM_BWD_ELEM(xv, dyv)                                                               \
    {                                                                                      \
        NM_G(gv, dyv);                                                                     \
        const VF v = rs * (gv - ca - ((xv) - mu) * rs * cb);                               \
        const IDX_T di = dxb + coord4_off(ic, dxis);                                           \
        STOREV(dx, di, NM_OUT(v, LOADV(dx, di), alpha, beta));                             \
    }

__kernel void norm_bwd(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_SETUP;
    NM_BWD_LOAD_STATS;
    const int cached = m1 - m0 <= NK * TM;
    VF cx[NK], cy[NK];
    NM_BWD_PARTIAL(v, cached, cx, cy)
    const float4 r = nm_tree(v, t, lid, lm, TK, TM, 0);
    const float invl = 1.0f / ((float)I * (float)VEC), ca = r.x * invl, cb = r.y * invl;
    if (cached) {
        NM_FOR_CACHED(NM_BWD_ELEM(cx[j], cy[j]))
    } else {
        NM_FOR(NM_BWD_ELEM(LOADV(x, xb + coord4_off(ic, xis)), LOADV(y, yb + coord4_off(ic, yis))))
    }
}

__kernel void norm_bwd_reduce(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_SETUP;
    NM_BWD_LOAD_STATS;
    VF cx[NK], cy[NK];
    NM_BWD_PARTIAL(v, 0, cx, cy)
    v = nm_tree(v, t, lid, lm, TK, TM, 0);
    if (active && lm == 0)
        vstore4(v, (size_t)o * (size_t)G + (size_t)g, part);
}

__kernel void norm_bwd_apply(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_SETUP;
    NM_BWD_LOAD_STATS;
    const float4 r = nm_gather(part, o, G, active, lm, lk, t, 0);
    const float invl = 1.0f / ((float)I * (float)VEC), ca = r.x * invl, cb = r.y * invl;
    NM_FOR(NM_BWD_ELEM(LOADV(x, xb + coord4_off(ic, xis)), LOADV(y, yb + coord4_off(ic, yis))))
}

/* Parameter gradients: outer = one parameter, inner = the elements it scales; element strides
 * (VEC ignored). The partial is (sum dy xhat, sum dy). */
#define NM_PAR_PARTIAL(out)                                                               \
    float4 out;                                                                           \
    {                                                                                     \
        float ss = 0.0f, sd = 0.0f;                                                       \
        NM_FOR(const IDX_T si = sb + coord4_off(ic, sis); const float e = LOAD(y, yb + coord4_off(ic, yis)); \
               const float mu = rms ? 0.0f : mean[meano + si];                            \
               ss = mad(e, (LOAD(x, xb + coord4_off(ic, xis)) - mu) * istd[istdo + si], ss); sd += e;) \
        out = (float4)(ss, sd, 0.0f, 0.0f);                                               \
    }

inline void nm_par_store(float4 r, IDX_T pb, __global STORAGE_T* dscale, ulong dscaleo, __global STORAGE_T* dbias,
                         ulong dbiaso, float alpha2, float beta2, int flags) {
    if (flags & 8)
        STORE(dscale, dscaleo + pb, NM_OUT(r.x, LOAD(dscale, dscaleo + pb), alpha2, beta2));
    if (flags & 16)
        STORE(dbias, dbiaso + pb, NM_OUT(r.y, LOAD(dbias, dbiaso + pb), alpha2, beta2));
}

__kernel void norm_par(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_SETUP;
    NM_PAR_PARTIAL(v)
    v = nm_tree(v, t, lid, lm, TK, TM, 0);
    if (active && lm == 0)
        nm_par_store(v, pb, dscale, dscaleo, dbias, dbiaso, alpha2, beta2, flags);
}

__kernel void norm_par_reduce(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_SETUP;
    NM_PAR_PARTIAL(v)
    v = nm_tree(v, t, lid, lm, TK, TM, 0);
    if (active && lm == 0)
        vstore4(v, (size_t)o * (size_t)G + (size_t)g, part);
}

__kernel void norm_par_final(NORM_ARGS) {
    const int o = (int)get_global_id(0);
    if (o >= O)
        return;
    float4 r = (float4)(0.0f);
    for (int i = 0; i < G; ++i)
        r += vload4((size_t)o * (size_t)G + (size_t)i, part);
    nm_par_store(r, coord4_off(coord4_div(o, odims), pos), dscale, dscaleo, dbias, dbiaso, alpha2, beta2, flags);
}
