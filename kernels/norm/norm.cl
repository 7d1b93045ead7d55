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
 * Work split: a work-group holds TR teams (TR > 1 only with TK == 1: short rows) of TK x TM
 * lanes. A team owns TK adjacent outers (lane lk = tl % TK) and chunk g of their inner range (G
 * chunks per outer), shared by its TM lanes lm = tl / TK, interleaved (lane lm takes m0 + lm,
 * m0 + lm + TM, ...) so adjacent work-items touch adjacent memory: TK = 1 when x's innermost dim
 * is an inner one (rows contiguous), TK > 1 when it is an outer one (instance norm on NHWC,
 * parameter gradients of LAYER). Groups: NG x G, id = n * G + g. Team t of group n takes row
 * tile n TR + t; only norm_bwd under NM_PFUSE loops (tiles n TR + t + k NG TR, k < KT), so that
 * its groups, fewer than the tiles, keep column sums across rows; every other kernel needs
 * ceil(O / (TK TR)) x G groups.
 * Reductions are fixed trees in local memory (on NVIDIA, NM_SHFL: warp butterflies and one
 * exchange) and, across chunks, in order g = 0..G-1: the same bits on every call, no atomics.
 *
 * Forward statistics: a row whose share fits the lanes' registers (NK values of VF each) is read
 * once; with NM_SHFL its mean is summed first and then the squares around it (two passes over
 * registers, two cheap reductions). Elsewhere, and for longer rows and the split (which stream x
 * twice), one reduction: each lane sums x - p and (x - p)^2 around the row's
 * first value p (a pivot near the mean: no E[x^2] - E[x]^2 cancellation), partials (count,
 * mean - p, M2, p) merge by Chan's formula. RMS sums x^2 (mean 0). Variance is biased
 * (PyTorch's); invStd = 1 / sqrt(var + eps).
 *
 * Kernels
 *   norm_fwd          G == 1: statistics, saved mean / invStd, y
 *   norm_fwd_reduce   G > 1: a partial (count, mean - p, M2, p) per (row, chunk) into part[]
 *   norm_fwd_apply    G > 1: merges the row's partials, saves the statistics (chunk 0), y
 *   norm_bwd          G == 1: A = sum g, B = sum g xhat (g = dy scale), then
 *                     dx = invStd (g - A / L - xhat B / L)  (RMS: no A term); with NM_PFUSE also
 *                     the group's column partials of dScale and dBias, with NM_GPAR the row's
 *                     per-channel ones (GROUP, flag 64's layout)
 *   norm_bwd_reduce   G > 1: (A, B) partials per (row, chunk); with flag 64 (GROUP, a chunk per
 *                     channel) also the channel's dScale / dBias partials
 *   norm_bwd_apply    G > 1: merges them, dx
 *   norm_par          parameter gradients, G == 1: dScale = sum dy xhat, dBias = sum dy
 *   norm_par_reduce   G > 1: their partials per (parameter, chunk)
 *   norm_par_final    one work-item per parameter: sums its G partials in order
 *   norm_par_sum      dScale / dBias from norm_bwd's column partials (NM_PFUSE) or the channel
 *                     partials (flag 64) of norm_bwd (NM_GPAR) or norm_bwd_reduce
 *
 * Build options
 *   -DVEC=1|4   data elements per index (default 1): 4 when the innermost inner dim has unit
 *               stride in x, y, dy, dx and its size, the other data strides and offsets divide
 *               by 4 (the host divides them); pvec says whether the parameters vary along that
 *               dim (then their indices count vectors too) or not (one value per vector).
 *               norm_par* ignore it (the host passes element strides).
 *   -DNK=<n>    VF values a lane keeps in registers (default 32 / VEC; the host passes what
 *               the row needs, at most that: registers for slots no row uses cost occupancy)
 *   -DNM_SHFL=1 NVIDIA (compute capability 8.0+): row sums by warp shuffles (common/mma.h)
 *   -DWGMAX=<n> the largest work-group the program runs (default 256; NVIDIA's forward takes
 *               up to 1024 lanes where that keeps a long row in registers)
 *   -DNM_WG=<n> the row kernel's work-group size, for the local arrays of NM_ASYNC and NM_GPAR
 *   -DNM_ASYNC=2|3|4  norm_bwd's row loop (NM_PFUSE 1) stages x and dy of the next NM_ASYNC - 1
 *               row passes by cp.async (NM_SHFL, VEC 4, NM_WG)
 *   -DNM_PFUSE=1|2 norm_bwd loops over rows and leaves dScale / dBias column partials (1 from
 *               rows in registers, 2 from streamed rows)
 *   -DNM_GPAR=1 GROUP (NM_WG lanes a group, TR 1, G 1): norm_bwd leaves the row's dScale / dBias
 *               partials per channel (flag 64's layout, float4 o cpg + c, components z and w)
 *               from the row in registers; the group's cpg channels of a plane each are idims.y
 *               and idims.x indices, or under NM_PFLAT the row over pdiv.x elements.
 *               -DNM_GPARE=1: through local memory per element, not per index (NM_PFLAT, VEC 4,
 *               planes not a multiple of 4: a vector spans two channels)
 *   -DNM_SUNROLL=<n>  the streamed loops' unroll (default 1; the host passes 4 for the forward:
 *               H200, 1024 x 32768 LAYER rows 175 -> 157 us; 2 or 4 slowed GROUP's backward,
 *               32x256x56x56 163 -> 219 us)
 *   -DNM_CONTIG=1  the row view has one outer dim and one inner dim of unit stride in x, y|dy,
 *               dx and (when used) the parameters: element offsets are the index itself, row
 *               offsets one product (what a row loop keeps live is a few registers, not 4-d strides)
 *   -DNM_PFLAT=1  GROUP on rows contiguous over their channels and spatial elements (NCHW; the
 *               backward on rows of up to 8192 elements): one inner dim of unit stride for the
 *               data, so rows load as vectors whatever
 *               the plane's size (7 x 7 included), and element e of a row (in elements, not
 *               vectors) takes the parameters of the group's channel e / PD (pdiv: PD's fastdiv
 *               numbers; parameter offsets in elements, pvec 0, pos the outer strides)
 *   -DUNROLL=0|1  unroll the register-cache loops (default 1, so the cache stays in registers on
 *               GPUs); CPUs take 0: PoCL compiles the unrolled bodies of every kernel for minutes
 *   -DDATA_HALF, -DDATA_BF16, -DIDX_T: see common/helpers.h
 * Runtime flags: 1 affine (scale and bias given), 2 save or read statistics, 4 RMS, 8 dScale
 * wanted, 16 dBias wanted, 64 GROUP backward split a chunk per channel (norm_bwd_reduce leaves
 * channel partials). out = alpha * value + beta * out; out is not read when beta == 0 (dScale /
 * dBias likewise with alpha2 / beta2).
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
#ifndef NM_SHFL
#define NM_SHFL 0
#endif
#ifndef NM_CONTIG
#define NM_CONTIG 0
#endif
#ifndef NM_PFLAT
#define NM_PFLAT 0
#endif
#ifndef NM_PFUSE
#define NM_PFUSE 0
#endif
#ifndef NM_ASYNC
#define NM_ASYNC 0
#endif
#ifndef NM_GPAR
#define NM_GPAR 0
#endif
#ifndef NM_GPARE
#define NM_GPARE 0
#endif
#if NM_GPARE && !(NM_GPAR && NM_PFLAT && VEC == 4)
#error "NM_GPARE takes NM_GPAR, NM_PFLAT and VEC 4"
#endif
#if (NM_GPAR || NM_ASYNC) && !defined(NM_WG)
#error "NM_GPAR and NM_ASYNC take NM_WG"
#endif
#if NM_GPAR && NM_PFUSE
#error "NM_GPAR and NM_PFUSE exclude each other"
#endif
#if NM_SHFL
#include "common/mma.h"
#endif
#ifndef WGMAX
#define WGMAX 256 /* the largest work-group (the host passes more for NVIDIA's long forward rows) */
#endif
#ifndef NM_SUNROLL
#define NM_SUNROLL 1
#endif
#define NM_PRAGMA(x) _Pragma(#x)
#define NM_UNROLL_BY(n) NM_PRAGMA(unroll n)
#if UNROLL
#define NM_UNROLL _Pragma("unroll")
/* streamed loops: NM_SUNROLL iterations' loads issued together */
#define NM_UNROLL4 NM_UNROLL_BY(NM_SUNROLL)
#else
#define NM_UNROLL
#define NM_UNROLL4
#endif

#if VEC == 4
#define VF float4
/* the host makes every vector index 4-element aligned (nm_vectorize): one access per vector */
#define LOADV(p, i) VLOADAN_OF(DATA_H, 4, p, i)
#define STOREV(p, i, v) VSTOREAN_OF(DATA_H, 4, p, i, v)
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
    int O, int I, int4 odims, int ni, int4 idims, uint4 idiv0, uint4 idiv1, uint4 idiv2, int TK, int TR, int G, \
        int chunk, __global const STORAGE_T* x, ulong xo, long4 xos, long4 xis, __global STORAGE_T* y,     \
        ulong yo, long4 yos, long4 yis, __global STORAGE_T* dx, ulong dxo, long4 dxos, long4 dxis,          \
        long4 sos, long4 sis, __global float* mean, ulong meano, __global float* istd, ulong istdo,         \
        long4 pos, long4 pis, int pvec, uint4 pdiv, __global const STORAGE_T* scale, ulong scaleo,          \
        __global const STORAGE_T* bias, ulong biaso, __global STORAGE_T* dscale, ulong dscaleo,             \
        __global STORAGE_T* dbias, ulong dbiaso, float alpha, float beta, float alpha2, float beta2,        \
        float eps, int flags, __global float* part

#define NM_OUT(v, OLD, a, b) ((b) != 0.0f ? (a) * (v) + (b) * (OLD) : (a) * (v))

/* The calling work-item's place: team `team` of the group's TR, lane lk (its outer among TK) and
 * lm (its share of the inner range, among TM) in it, chunk g of G; NT row tiles of TK outers per
 * team and pass, KT passes (the same for every work-item: the row loops hold barriers). */
#define NM_LANES                                                                                   \
    const int lid = (int)get_local_id(0), TM = (int)get_local_size(0) / (TK * TR);                \
    const int team = lid / (TK * TM), tl = lid % (TK * TM), lk = tl % TK, lm = tl / TK;            \
    const int grp = (int)get_group_id(0), g = grp % G, NG = (int)get_num_groups(0) / G;           \
    const int NT = NG * TR, KT = (int)((((long)O + TK - 1) / TK + NT - 1) / NT);                   \
    const int rms = (flags & 4) != 0, affine = (flags & 1) != 0;                                   \
    (void)rms;                                                                                     \
    (void)affine;                                                                                  \
    (void)KT

/* Row pass kt: the work-item's outer o (active when < O), its bases in every operand, and its
 * chunk [m0, m1) of the inner range; lanes step by TM from m0 + lm. */
/* NM_ROW_AT(kt, contig): contig (a constant) takes a row's offsets as one product, for the row
 * view under NM_CONTIG; the parameter kernels' view has its own dims and always passes 0. */
#define NM_OUTER(s, contig) ((contig) ? (IDX_T)oa * (IDX_T)(s).x : coord4_off(oc, s))
#define NM_ROW_AT(kt, contig)                                                                          \
    const int o = ((grp / G) * TR + team + (kt) * NT) * TK + lk, active = o < O, oa = active ? o : 0;  \
    const int4 oc = coord4_div((contig) ? 0 : oa, odims);                                                \
    const IDX_T xb = (IDX_T)xo + NM_OUTER(xos, contig), yb = (IDX_T)yo + NM_OUTER(yos, contig);        \
    const IDX_T dxb = (IDX_T)dxo + NM_OUTER(dxos, contig), sb = NM_OUTER(sos, contig);                  \
    const IDX_T pb = NM_OUTER(pos, contig);                                                            \
    const int m0 = g * chunk, m1 = active ? min(I, m0 + chunk) : m0;                                   \
    (void)oc;                                                                                          \
    (void)dxb;                                                                                         \
    (void)sb;                                                                                          \
    (void)pb
#define NM_ROW(kt) NM_ROW_AT(kt, NM_CONTIG)

/* For every element m of the lane's share: ic its inner coordinates. */
#define NM_FOR(BODY)                                                    \
    NM_UNROLL4 for (int m = m0 + lm; m < m1; m += TM) {                 \
        const int4 ic = coord4_fdiv(m, ni, idims, idiv0, idiv1, idiv2);    \
        BODY                                                            \
    }
/* The row kernels' loops: NM_AT(s) is element m's offset under inner strides s; with NM_CONTIG
 * (one inner dim, unit stride in every data operand and the parameters) or NM_PFLAT (the same for
 * the data) that is m itself, and no coordinates are taken (fewer registers live across the row).
 * NM_RFOR_CACHED takes the first NK of the share, j its slot. */
#if NM_CONTIG || NM_PFLAT
#define NM_AT(s) ((IDX_T)m)
#define NM_IC
#else
#define NM_AT(s) coord4_off(ic, s)
#define NM_IC const int4 ic = coord4_fdiv(m, ni, idims, idiv0, idiv1, idiv2);
#endif
#define NM_RFOR(BODY)                                                   \
    NM_UNROLL4 for (int m = m0 + lm; m < m1; m += TM) {                 \
        NM_IC                                                           \
        BODY                                                            \
    }
#define NM_RFOR_CACHED(BODY)                                            \
    NM_UNROLL for (int j = 0; j < NK; ++j) {                            \
        const int m = m0 + lm + j * TM;                                 \
        if (m < m1) {                                                   \
            NM_IC                                                       \
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

/* Parameter p of element m's channel (offset o: the operand's, then the row's pb), as VF. */
#if NM_PFLAT
/* element e of the row is channel e / PD of its group: with VEC 4 a vector spans two channels
 * unless PD divides by 4 */
inline VF nm_param_flat(__global const STORAGE_T* p, IDX_T base, int m, uint4 pdiv) {
#if VEC == 4
    const int e = 4 * m;
    if (pdiv.x & 3u)
        return (float4)(LOAD(p, base + (IDX_T)fdiv(e, pdiv)), LOAD(p, base + (IDX_T)fdiv(e + 1, pdiv)),
                        LOAD(p, base + (IDX_T)fdiv(e + 2, pdiv)), LOAD(p, base + (IDX_T)fdiv(e + 3, pdiv)));
    return (float4)(LOAD(p, base + (IDX_T)fdiv(e, pdiv)));
#else
    return LOAD(p, base + (IDX_T)fdiv(m, pdiv));
#endif
}
#define NM_PARAM(p, o) nm_param_flat(p, (o) + pb, m, pdiv)
#else
#define NM_PARAM(p, o) nm_param(p, (o) + pb + NM_AT(pis), pvec)
#endif

/* Chan's combination of forward partials (count, mean - pivot, M2, pivot). */
inline float4 nm_merge(float4 a, float4 b) {
    if (b.x == 0.0f)
        return a;
    if (a.x == 0.0f)
        return b;
    const float n = a.x + b.x, d = b.y - a.y, wb = b.x / n;
    return (float4)(n, a.y + d * wb, a.z + b.z + d * d * a.x * wb, a.w);
}

/* Merges the TM partials of each outer of the team (t: the team's slice) in a fixed tree (FWD:
 * Chan's formula, else sums); every lane gets its outer's result. */
inline float4 nm_tree(float4 v, __local float4* t, int tl, int lm, int TK, int TM, int fwd) {
    t[tl] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = TM / 2; s > 0; s >>= 1) {
        if (lm < s) {
            const float4 b = t[tl + s * TK];
            v = fwd ? nm_merge(v, b) : v + b;
            t[tl] = v;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float4 r = t[tl - lm * TK];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

/* The sums of v over the TM lanes of each outer of the team, in every lane: with NM_SHFL
 * (NVIDIA) and TK == 1, butterflies within each 32-lane warp and the team's warp sums through
 * local memory in order (two barriers, against the tree's 2 + log2 TM); else the tree. Fixed
 * order either way: the same bits on every call. */
inline float2 nm_sum2(float2 v, __local float4* t, int team, int tl, int lm, int TK, int TM) {
#if NM_SHFL
    if (TK == 1 && (TM & 31) == 0) {
        for (int s = 16; s > 0; s >>= 1) {
            v.x += mma_shfl_xor(v.x, s);
            v.y += mma_shfl_xor(v.y, s);
        }
        __local float4* w = t + team * (TM / 32);
        if ((tl & 31) == 0)
            w[tl / 32] = (float4)(v, 0.0f, 0.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
        float2 r = w[0].xy;
        for (int i = 1; i < TM / 32; ++i)
            r += w[i].xy;
        barrier(CLK_LOCAL_MEM_FENCE);
        return r;
    }
#endif
    return nm_tree((float4)(v, 0.0f, 0.0f), t + team * TK * TM, tl, lm, TK, TM, 0).xy;
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

/* The lane's forward partial around pivot piv over its share: LOOP NM_RFOR (streamed) or
 * NM_RFOR_CACHED, KEEP what it does with each value xv (keeps it in c[j], or nothing). */
#define NM_FWD_PARTIAL(out, LOOP, KEEP)                                                    \
    float4 out;                                                                            \
    {                                                                                      \
        VF s1v = 0.0f, s2v = 0.0f;                                                         \
        int cnt = 0;                                                                       \
        LOOP(const VF xv = LOADV(x, xb + NM_AT(xis)); KEEP; const VF d = xv - piv; s1v += d;   \
             s2v = mad(d, d, s2v); ++cnt;)                                                 \
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
            w = mad(w, NM_PARAM(scale, scaleo), NM_PARAM(bias, biaso));                   \
        }                                                                                  \
        const IDX_T yi = yb + NM_AT(yis);                                             \
        STOREV(y, yi, NM_OUT(w, LOADV(y, yi), alpha, beta));                               \
    }

#define NM_SAVE_STATS(st)                                  \
    if (active && lm == 0 && g == 0 && (flags & 2)) {      \
        if (!rms)                                          \
            mean[meano + sb] = (st).x;                     \
        istd[istdo + sb] = (st).y;                         \
    }

/* G == 1, one pass (a group per TR row tiles: no row loop, whose invariants would take registers
 * from the row's values; nor cp.async stages: looping groups that staged the next rows ran
 * slower on most shapes, H200, perf/results/ops-v11-h200.md). A row that fits the lanes'
 * registers (the same for every row: chunk == I) is read once; a longer one is streamed twice. */
__kernel void norm_fwd(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_LANES;
    const int cached = I <= NK * TM;
    const float invl = 1.0f / ((float)I * (float)VEC);
    {
        NM_ROW(0);
        float mu, rs;
        if (cached) {
            VF c[NK];
#if NM_SHFL
            VF s1v = 0.0f, s2v = 0.0f;
            NM_RFOR_CACHED(c[j] = LOADV(x, xb + NM_AT(xis)); s1v += c[j];)
            mu = rms ? 0.0f : nm_sum2((float2)(VSUM(s1v), 0.0f), t, team, tl, lm, TK, TM).x * invl;
            NM_RFOR_CACHED(const VF d = c[j] - mu; s2v = mad(d, d, s2v);)
            rs = 1.0f / sqrt(nm_sum2((float2)(VSUM(s2v), 0.0f), t, team, tl, lm, TK, TM).x * invl + eps);
            const float2 st = (float2)(mu, rs);
#else
            /* one tree (its barriers are what a CPU pays for): pivot sums merged by Chan's formula */
            const float piv = (active && !rms) ? LOAD1(x, xb) : 0.0f;
            NM_FWD_PARTIAL(v, NM_RFOR_CACHED, c[j] = xv)
            const float2 st = nm_stats(nm_tree(v, t + team * TK * TM, tl, lm, TK, TM, 1), eps, rms);
            mu = st.x;
            rs = st.y;
#endif
            NM_SAVE_STATS(st)
            NM_RFOR_CACHED(NM_FWD_ELEM(c[j]))
        } else {
            const float piv = (active && !rms) ? LOAD1(x, xb) : 0.0f;
            NM_FWD_PARTIAL(v, NM_RFOR, (void)xv)
            const float2 st = nm_stats(nm_tree(v, t + team * TK * TM, tl, lm, TK, TM, 1), eps, rms);
            NM_SAVE_STATS(st)
            mu = st.x;
            rs = st.y;
            NM_RFOR(NM_FWD_ELEM(LOADV(x, xb + NM_AT(xis))))
        }
    }
}

/* The split kernels run one pass (TR == 1, a group per tile and chunk). */
__kernel void norm_fwd_reduce(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_LANES;
    NM_ROW(0);
    const float piv = (active && !rms) ? LOAD1(x, xb) : 0.0f;
    NM_FWD_PARTIAL(v, NM_RFOR, (void)xv)
    v = nm_tree(v, t, tl, lm, TK, TM, 1);
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
    NM_LANES;
    NM_ROW(0);
    const float2 st = nm_stats(nm_gather(part, o, G, active, lm, lk, t, 1), eps, rms);
    NM_SAVE_STATS(st)
    const float mu = st.x, rs = st.y;
    NM_RFOR(NM_FWD_ELEM(LOADV(x, xb + NM_AT(xis))))
}

/* Backward: the row's saved statistics, g = dy * scale and xhat for one element. */
#define NM_BWD_LOAD_STATS                                                  \
    const float mu = (active && !rms) ? mean[meano + sb] : 0.0f;           \
    const float rs = active ? istd[istdo + sb] : 0.0f
#define NM_G(gv, e)                                                        \
    VF gv = (e);                                                           \
    if (affine)                                                            \
        gv *= NM_PARAM(scale, scaleo)

/* The lane's (A, B) partial, streaming its share. */
#define NM_BWD_PARTIAL(out)                                                                     \
    float2 out;                                                                                 \
    {                                                                                           \
        VF av = 0.0f, bv = 0.0f;                                                                \
        NM_RFOR(NM_G(gv, LOADV(y, yb + NM_AT(yis))); av += gv;                              \
               bv = mad(gv, (LOADV(x, xb + NM_AT(xis)) - mu) * rs, bv);)                   \
        out = (float2)(rms ? 0.0f : VSUM(av), VSUM(bv));                                        \
    }

/* dx for one element of normalized value xh and gradient dyv from the row sums (A, B) as
 * ca = A / L, cb = B / L. */
#define NM_BWD_ELEM(xh, dyv)                                                               \
    {                                                                                      \
        NM_G(gv, dyv);                                                                     \
        const VF v = rs * (gv - ca - (xh) * cb);                                           \
        const IDX_T di = dxb + NM_AT(dxis);                                           \
        STOREV(dx, di, NM_OUT(v, LOADV(dx, di), alpha, beta));                             \
    }

#if VEC == 4
#define NM_PART_STORE(v, i) (((__global float4*)part)[(i)] = (v))
#define NM_PART_LOAD(i) (((__global const float4*)part)[(i)])
#else
#define NM_PART_STORE(v, i) (part[(i)] = (v))
#define NM_PART_LOAD(i) part[(i)]
#endif
/* The group's column partial c (0 dScale, 1 dBias) of column m. */
#define NM_PART_AT(c, m) (((size_t)grp * 2u + (size_t)(c)) * (size_t)I + (size_t)(m))

#if NM_ASYNC
#if !NM_SHFL || VEC != 4 || NM_PFUSE != 1
#error "NM_ASYNC takes NM_SHFL, VEC 4 and NM_PFUSE 1"
#endif
/* Stage buffers (NM_ASYNC row passes in flight per lane, NVIDIA): lane lid's slot j of stage s is
 * vector (s NK + j) NM_WG + lid. A lane copies and reads back only its own vectors, so the
 * stages take cp.async.wait_group and no barrier; 16-byte vectors bypass L1 (.cg), 8-byte ones
 * (HALF, BFLOAT16) cannot (.ca). */
#if DATA_H
#define NM_CPV(dst, src, n) MMA_CP_SH(8, "ca", (uint)(ulong)(dst), src, n)
#else
#define NM_CPV(dst, src, n) MMA_CP16(dst, src, n)
#endif
/* the stages' element type: half is a pointer type only without cl_khr_fp16 */
#if DATA_H
#define NM_STG_T ushort
#else
#define NM_STG_T float
#endif
#define NM_STAGE(s, j) ((((s) % NM_ASYNC) * NK + (j)) * NM_WG + lid)
/* a staged vector read back (local memory, 16- or 8-byte aligned) */
#if DATA_H == 2
#define NM_LOADS(p, i) as_float4(convert_uint4(((__local const ushort4*)(p))[(i)]) << 16)
#elif DATA_H == 1
#define NM_LOADS(p, i) vload_half4((i), (p))
#else
#define NM_LOADS(p, i) (((__local const float4*)(p))[(i)])
#endif
/* Copies the lane's share of row pass kt of operand src (base b, inner strides is: the names
 * NM_ROW defines) into its stage in buffer stg. The caller closes the group (MMA_COMMIT), also
 * past the last row, where it is empty: the waits count groups. */
#define NM_COPY_ROW(kt, stg, src, b, is)                                                          \
    {                                                                                             \
        NM_ROW(kt);                                                                               \
        NM_UNROLL for (int j = 0; j < NK; ++j) {                                                  \
            const int m = m0 + lm + j * TM;                                                       \
            if (m < m1) {                                                                         \
                NM_IC                                                                             \
                NM_CPV((stg) + 4 * NM_STAGE(kt, j), (src) + 4 * ((b) + NM_AT(is)),                 \
                       (uint)(4 * sizeof(STORAGE_T)));                                             \
            }                                                                                     \
        }                                                                                         \
    }
#if NM_ASYNC == 2
#define NM_WAIT() MMA_WAIT_GROUP(1)
#elif NM_ASYNC == 3
#define NM_WAIT() MMA_WAIT_GROUP(2)
#elif NM_ASYNC == 4
#define NM_WAIT() MMA_WAIT_GROUP(3)
#else
#error "NM_ASYNC must be 0, 2, 3 or 4"
#endif
#endif

/* G == 1. NM_PFUSE (LAYER / RMS with dScale or dBias, TK == 1; 1: rows in registers, 2: rows
 * streamed with TR == 1 as CPUs run them, whose lanes then add into their own columns of the
 * group's partials row by row): the groups
 * loop over rows, each lane also sums dy xhat and dy over its rows for its NK columns (the same
 * columns on every row), and the group leaves its column partials (dScale's, then dBias's: 2 I
 * VEC floats at part + grp 2 I VEC, teams summed in order) for norm_par_sum, so x and dy are read
 * once for all three gradients. Without it, one pass (no loop: its invariants take registers);
 * NM_GPAR (GROUP, a row in registers) leaves the row's per-channel partials instead, read from
 * the same registers. */
__kernel void norm_bwd(NORM_ARGS) {
    __local float4 t[WGMAX];
#if NM_GPAR
#if NM_GPARE
#define NM_GPN (NK * VEC * NM_WG)
#else
#define NM_GPN (NK * NM_WG)
#endif
    __local float gp[2 * NM_GPN] __attribute__((aligned(16))); /* the row's dy xhat and dy */
#endif
    NM_LANES;
    const int cached = I <= NK * TM;
    const float invl = 1.0f / ((float)I * (float)VEC);
#if NM_PFUSE
    VF ps[NK], pd[NK];
    NM_UNROLL for (int j = 0; j < NK; ++j) {
        ps[j] = 0.0f;
        pd[j] = 0.0f;
    }
#if NM_PFUSE == 2 /* streamed rows (CPUs, TR == 1): the sums stay in the group's partials */
    for (int m = lm; m < I; m += TM) {
        NM_PART_STORE((VF)(0.0f), NM_PART_AT(0, m));
        NM_PART_STORE((VF)(0.0f), NM_PART_AT(1, m));
    }
#endif
#if NM_ASYNC /* (with NM_PFUSE 1) x and dy of the next NM_ASYNC - 1 row passes in flight */
    __local NM_STG_T stg_[2 * NM_ASYNC * NK * NM_WG * 4] __attribute__((aligned(16))); /* cp.async */
    __local STORAGE_T* stg = (__local STORAGE_T*)stg_;
    __local STORAGE_T* stgy = stg + NM_ASYNC * NK * NM_WG * 4;
    for (int k = 0; k < NM_ASYNC - 1; ++k) {
        NM_COPY_ROW(k, stg, x, xb, xis)
        NM_COPY_ROW(k, stgy, y, yb, yis)
        MMA_COMMIT();
    }
#define NM_XV(j) NM_LOADS(stg, NM_STAGE(kt, j))
#define NM_YV(j) NM_LOADS(stgy, NM_STAGE(kt, j))
#else
#define NM_XV(j) LOADV(x, xb + NM_AT(xis))
#define NM_YV(j) LOADV(y, yb + NM_AT(yis))
#endif
    for (int kt = 0; kt < KT; ++kt) {
#if NM_ASYNC
        NM_COPY_ROW(kt + NM_ASYNC - 1, stg, x, xb, xis)
        NM_COPY_ROW(kt + NM_ASYNC - 1, stgy, y, yb, yis)
        MMA_COMMIT();
        NM_WAIT();
#endif
        NM_ROW(kt);
#else
    {
        NM_ROW(0);
#define NM_XV(j) LOADV(x, xb + NM_AT(xis))
#define NM_YV(j) LOADV(y, yb + NM_AT(yis))
#endif
        NM_BWD_LOAD_STATS;
        if (cached) {
            VF cx[NK], cy[NK], av = 0.0f, bv = 0.0f;
            NM_RFOR_CACHED(cx[j] = NM_XV(j); cy[j] = NM_YV(j);
                           cx[j] = (cx[j] - mu) * rs; NM_G(gv, cy[j]); av += gv; bv = mad(gv, cx[j], bv);)
#if NM_PFUSE
            NM_UNROLL for (int j = 0; j < NK; ++j) {
                if (m0 + lm + j * TM < m1) {
                    ps[j] = mad(cy[j], cx[j], ps[j]);
                    pd[j] += cy[j];
                }
            }
#endif
            const float2 r = nm_sum2((float2)(rms ? 0.0f : VSUM(av), VSUM(bv)), t, team, tl, lm, TK, TM);
            const float ca = r.x * invl, cb = r.y * invl;
            NM_RFOR_CACHED(NM_BWD_ELEM(cx[j], cy[j]))
#if NM_GPAR
            /* the row's products by index (or element), then a lane per channel sums its plane
             * (pe values) in order */
#if NM_GPARE
            NM_RFOR_CACHED(((__local float4*)gp)[m] = cy[j] * cx[j]; ((__local float4*)(gp + NM_GPN))[m] = cy[j];)
#else
            NM_RFOR_CACHED(gp[m] = VSUM(cy[j] * cx[j]); gp[NM_GPN + m] = VSUM(cy[j]);)
#endif
            /* the channels and each one's values in gp: by plane size (flat) or the two inner dims */
            const int cpg = NM_PFLAT ? I * VEC / (int)pdiv.x : idims.y;
            const int pe = NM_PFLAT ? (int)pdiv.x / (NM_GPARE ? 1 : VEC) : idims.x;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int c = lm; c < cpg; c += TM) {
                float s1 = 0.0f, s2 = 0.0f;
                for (int i = c * pe; i < (c + 1) * pe; ++i) {
                    s1 += gp[i];
                    s2 += gp[NM_GPN + i];
                }
                if (active)
                    ((__global float4*)part)[(size_t)o * (size_t)cpg + (size_t)c] = (float4)(0.0f, 0.0f, s1, s2);
            }
#endif
        } else {
            NM_BWD_PARTIAL(v)
            const float2 r = nm_sum2(v, t, team, tl, lm, TK, TM);
            const float ca = r.x * invl, cb = r.y * invl;
#if NM_PFUSE == 2
            NM_RFOR(const VF xh = (LOADV(x, xb + NM_AT(xis)) - mu) * rs; const VF e = LOADV(y, yb + NM_AT(yis));
                    NM_BWD_ELEM(xh, e); NM_PART_STORE(mad(e, xh, NM_PART_LOAD(NM_PART_AT(0, m))), NM_PART_AT(0, m));
                    NM_PART_STORE(NM_PART_LOAD(NM_PART_AT(1, m)) + e, NM_PART_AT(1, m));)
#else
            NM_RFOR(NM_BWD_ELEM((LOADV(x, xb + NM_AT(xis)) - mu) * rs, LOADV(y, yb + NM_AT(yis))))
#endif
        }
    }
#undef NM_XV
#undef NM_YV
#if NM_PFUSE == 1
    __local VF* tp = (__local VF*)t;
    NM_UNROLL for (int j = 0; j < NK; ++j) {
        for (int c = 0; c < 2; ++c) {
            tp[lid] = c ? pd[j] : ps[j];
            barrier(CLK_LOCAL_MEM_FENCE);
            const int m = lm + j * TM;
            if (team == 0 && m < I) {
                VF s = tp[lm];
                for (int r = 1; r < TR; ++r)
                    s += tp[r * TM + lm];
                NM_PART_STORE(s, NM_PART_AT(c, m));
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
#endif
}

/* With flag 64 chunk g of a GROUP row is channel g of the group: the partial is (A, B, sum dy
 * xhat, sum dy), the last two the channel's share of dScale / dBias (norm_par_sum), A and B
 * them times the channel's scale. */
__kernel void norm_bwd_reduce(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_LANES;
    NM_ROW(0);
    NM_BWD_LOAD_STATS;
    float4 r;
    if (flags & 64) {
        VF sd = 0.0f, sx = 0.0f;
        NM_RFOR(const VF e = LOADV(y, yb + NM_AT(yis)); sd += e;
                sx = mad(e, (LOADV(x, xb + NM_AT(xis)) - mu) * rs, sx);)
        const float4 raw = nm_tree((float4)(VSUM(sx), VSUM(sd), 0.0f, 0.0f), t, tl, lm, TK, TM, 0);
        float sc = 1.0f;
        if (affine) {
            const int4 ic0 = coord4_fdiv(m0, ni, idims, idiv0, idiv1, idiv2);
            sc = LOAD(scale, scaleo + pb + coord4_off(ic0, pis));
        }
        r = (float4)(sc * raw.y, sc * raw.x, raw.x, raw.y);
    } else {
        NM_BWD_PARTIAL(v)
        r = nm_tree((float4)(v, 0.0f, 0.0f), t, tl, lm, TK, TM, 0);
    }
    if (active && lm == 0)
        vstore4(r, (size_t)o * (size_t)G + (size_t)g, part);
}

__kernel void norm_bwd_apply(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_LANES;
    NM_ROW(0);
    NM_BWD_LOAD_STATS;
    const float4 r = nm_gather(part, o, G, active, lm, lk, t, 0);
    const float invl = 1.0f / ((float)I * (float)VEC), ca = r.x * invl, cb = r.y * invl;
    NM_RFOR(NM_BWD_ELEM((LOADV(x, xb + NM_AT(xis)) - mu) * rs, LOADV(y, yb + NM_AT(yis))))
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
/* The same for parameter o of the parameter view (the kernels with one work-item per parameter). */
#define NM_PAR_STORE_O(r) \
    nm_par_store((r), coord4_off(coord4_div(o, odims), pos), dscale, dscaleo, dbias, dbiaso, alpha2, beta2, flags)

__kernel void norm_par(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_LANES;
    NM_ROW_AT(0, 0);
    NM_PAR_PARTIAL(v)
    v = nm_tree(v, t, tl, lm, TK, TM, 0);
    if (active && lm == 0)
        nm_par_store(v, pb, dscale, dscaleo, dbias, dbiaso, alpha2, beta2, flags);
}

__kernel void norm_par_reduce(NORM_ARGS) {
    __local float4 t[WGMAX];
    NM_LANES;
    NM_ROW_AT(0, 0);
    NM_PAR_PARTIAL(v)
    v = nm_tree(v, t, tl, lm, TK, TM, 0);
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
    NM_PAR_STORE_O(r);
}

/* dScale / dBias on the parameter view from G partial sets: norm_bwd's column partials (NM_PFUSE:
 * set w holds dScale's at 2 w O + o, dBias's O further) or norm_bwd_reduce's channel partials
 * (flag 64: set w is sample n, float4 n O + o, components z and w). TK adjacent parameters per
 * group, TM lanes over the sets, each lane's in order with four running sums, then the tree. */
__kernel void norm_par_sum(NORM_ARGS) {
    __local float4 t[WGMAX];
    const int lid = (int)get_local_id(0), TM = (int)get_local_size(0) / TK, lk = lid % TK, lm = lid / TK;
    const int o = (int)get_group_id(0) * TK + lk, active = o < O;
    const size_t P = (size_t)O, ws = (flags & 64) ? 4u * P : 2u * P, os = (flags & 64) ? 4u : 1u;
    const size_t c0 = (flags & 64) ? 2u : 0u, c1 = (flags & 64) ? 3u : P;
    float2 s[4] = {(float2)(0.0f), (float2)(0.0f), (float2)(0.0f), (float2)(0.0f)};
    if (active) {
        int w = lm;
        for (; w + 3 * TM < G; w += 4 * TM)
            for (int q = 0; q < 4; ++q) {
                const size_t b = (size_t)(w + q * TM) * ws + (size_t)o * os;
                s[q] += (float2)(part[b + c0], part[b + c1]);
            }
        for (int q = 0; w < G; w += TM, ++q) {
            const size_t b = (size_t)w * ws + (size_t)o * os;
            s[q] += (float2)(part[b + c0], part[b + c1]);
        }
    }
    const float2 v = (s[0] + s[1]) + (s[2] + s[3]);
    const float4 r = nm_tree((float4)(v, 0.0f, 0.0f), t, lid, lm, TK, TM, 0);
    if (active && lm == 0)
        NM_PAR_STORE_O(r);
}
