/*
 * attn_mma.cl: scaled dot-product attention forward on NVIDIA tensor cores (mma.sync m16n8k16,
 * FP16 or BF16 inputs, FP32 accumulation), FlashAttention-2's plan as in attn.cl: the scores of
 * one block at a time live in registers only.
 *
 * attn_fwd_mma: one work-group of BR / 16 warps per (b, h, block of BR query rows); warp w owns
 * rows 16 w .. 16 w + 15 of the block. Its Q fragments stay in registers for the whole kernel.
 * Per block of BC keys:
 *   S = Q K^T            m16n8k16 with K's rows (keys, head dims contiguous) as B fragments;
 *   the scale (log2 e folded in), the causal and length mask only in blocks that need it, the
 *   online softmax on the accumulators (a row's four lanes combine through shuffles);
 *   O_acc = O_acc * 2^(m_old - m_new) + P V   with P's accumulators repacked to 16 bits as the A
 *   fragments (common/mma.h says why they line up) and V's rows as B fragments.
 * K and V reach local memory by cp.async, one buffer each, so that K of the next block streams in
 * during the softmax and P V, and V of the next block during the next S; the copies of rows past
 * Sk and of head dims past D read nothing and zero-fill.
 * O = O_acc / l rounded once to the storage type; stats = ln(l) + m in natural log (as attn.cl,
 * whose backward reads them); rows with every key masked give O = 0 and stats = -inf.
 *
 * Build options
 *   -DHEAD_D=n -DHEAD_DV=n  head sizes, multiples of 8 up to 128 (the host checks)
 *   -DBR=n                  query rows per work-group: 16 x warps (32..128)
 *   -DBC=n                  keys per block: a multiple of 16 (16..128)
 *   -DLDM=1                 fragments of K and V by ldmatrix (four 8 x 8 tiles per instruction)
 *                           instead of 32- and 16-bit local loads                       [1]
 *   -DDROPOUT=1             dropout on the probabilities, attn_common.h's DROP_Z
 *   -DDATA_HALF=1 / -DDATA_BF16=1 the storage type (required)
 * NVIDIA only, compute capability 8.0 or higher: the host offers the solver only there. Q, K, V
 * and O have unit-stride head dims and strides and offsets that are multiples of 8 elements.
 */
#include "common/helpers.h"
#include "common/mma.h"
#include "attn/attn_common.h"

#if DATA_H == 2
#define MMA_OP MMA_M16N8K16_BF16
#define PACK_CVT "cvt.rn.bf16x2.f32"
#elif DATA_H == 1
#define MMA_OP MMA_M16N8K16
#define PACK_CVT "cvt.rn.f16x2.f32"
#else
#error "attn_mma.cl takes 16-bit data (-DDATA_HALF=1 or -DDATA_BF16=1)"
#endif

#ifndef LDM
#define LDM 1
#endif
#ifndef BR
#define BR 64
#endif
#ifndef BC
#define BC 64
#endif
#define NT (2 * BR) /* 32 lanes per 16 rows */
#define DP (((HEAD_D + 15) / 16) * 16)   /* k of Q K^T in whole k16 steps; the extra dims are 0 */
#define DVP (((HEAD_DV + 15) / 16) * 16) /* n of P V in pairs of n8 tiles */
#define KP (DP + 8)  /* local pitches in elements: 16 bytes past a multiple of 128, so the 8 rows */
#define VP (DVP + 8) /* one ldmatrix (or one fragment load) touches fall in distinct banks */

/* Two floats as one register of 16-bit values, lo in the low half, rounded to nearest. */
inline uint pack2(float lo, float hi) {
    uint r;
    asm(PACK_CVT " %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}

/* Starts the copies of rows [r0, r0 + NR) x head dims [0, width) of a (b, h) slice (row stride rs,
 * unit-stride dims) into L (pitch P): 16 bytes per copy, rows past nrows and dims past d zero. */
inline void cp_rows(__local ushort* L, int P, int NR, int width, __global const ushort* g, long base, long rs,
                    int r0, int nrows, int d, int lid) {
    const int per = width / 8;
    for (int idx = lid; idx < NR * per; idx += NT) {
        const int r = idx / per, c = idx % per * 8, gr = r0 + r;
        const int ok = gr < nrows && c < d;
        __global const ushort* src = g + base + (ok ? (long)gr * rs + c : 0);
        MMA_CP16(L + r * P + c, src, ok ? 16 : 0);
    }
}

/* Two 16-bit values of local memory as one register, a in the low half. */
#define LDS_PAIR(a, b) ((uint)(a) | ((uint)(b) << 16))

__kernel __attribute__((reqd_work_group_size(NT, 1, 1))) void attn_fwd_mma(ATTN_ARGS) {
    __local ushort Qs[BR * KP] __attribute__((aligned(16))); /* cp.async and ldmatrix: 16-byte rows */
    __local ushort Ks[BC * KP] __attribute__((aligned(16)));
    __local ushort Vs[BC * VP] __attribute__((aligned(16)));
    (void)dout, (void)do_off, (void)do_st, (void)dq, (void)dq_off, (void)dq_st, (void)dk, (void)dk_off;
    (void)dk_st, (void)dv, (void)dv_off, (void)dv_st, (void)ws, (void)ws_off, (void)B, (void)scale;
    (void)gen, (void)thresh, (void)rscale;
    const int lid = (int)get_local_id(0), warp = lid / 32, lane = lid % 32, g = lane >> 2, t = lane & 3;
    const int nqb = (SQ + BR - 1) / BR, grp = (int)get_group_id(0);
    const int qb = nqb - 1 - grp % nqb, bh = grp / nqb, h = bh % H, b = bh / H, hk = h / (H / HKV);
    const int i0 = qb * BR, r0 = warp * 16;
    __global const ushort* qg = (__global const ushort*)q;
    __global const ushort* kg = (__global const ushort*)k;
    __global const ushort* vg = (__global const ushort*)v;
    const long qbase = AT(q_off, q_st, b, h, 0, 0), kbase = AT(k_off, k_st, b, hk, 0, 0);
    const long vbase = AT(v_off, v_st, b, hk, 0, 0);
    const int kend = keys_end(causal, SQ, SK, i0, BR), nblk = (kend + BC - 1) / BC;

    /* groups in flight, in order: Q, K0, V0, then K(j+1) and V(j+1) per block (empty when none) */
    cp_rows(Qs, KP, BR, DP, qg, qbase, q_st.s2, i0, SQ, HEAD_D, lid);
    MMA_COMMIT();
    if (nblk > 0)
        cp_rows(Ks, KP, BC, DP, kg, kbase, k_st.s2, 0, SK, HEAD_D, lid);
    MMA_COMMIT();
    if (nblk > 0)
        cp_rows(Vs, VP, BC, DVP, vg, vbase, v_st.s2, 0, SK, HEAD_DV, lid);
    MMA_COMMIT();
    MMA_WAIT_GROUP(2);
    barrier(CLK_LOCAL_MEM_FENCE);

    uint qf[DP / 16][4];
#pragma unroll
    for (int kk = 0; kk < DP / 16; ++kk) {
#if LDM
        const int mi = lane >> 3;
        MMA_LDMATRIX_X4(qf[kk], Qs + (r0 + (mi & 1) * 8 + (lane & 7)) * KP + kk * 16 + (mi >> 1) * 8);
#else
        __local const ushort* p = Qs + (r0 + g) * KP + kk * 16 + 2 * t;
        qf[kk][0] = *(__local const uint*)p;
        qf[kk][1] = *(__local const uint*)(p + 8 * KP);
        qf[kk][2] = *(__local const uint*)(p + 8);
        qf[kk][3] = *(__local const uint*)(p + 8 * KP + 8);
#endif
    }

    float acc[DVP / 8][4];
#pragma unroll
    for (int dn = 0; dn < DVP / 8; ++dn) acc[dn][0] = acc[dn][1] = acc[dn][2] = acc[dn][3] = 0.0f;
    float m0 = -INFINITY, m1 = -INFINITY, l0 = 0.0f, l1 = 0.0f;
    const int ra = i0 + r0 + g, rb = ra + 8;

    for (int jb = 0; jb < nblk; ++jb) {
        const int j0 = jb * BC;
        MMA_WAIT_GROUP(1); /* K(jb) has landed */
        barrier(CLK_LOCAL_MEM_FENCE);
        float s[BC / 8][4];
#pragma unroll
        for (int jn = 0; jn < BC / 8; ++jn) s[jn][0] = s[jn][1] = s[jn][2] = s[jn][3] = 0.0f;
#pragma unroll
        for (int kk = 0; kk < DP / 16; ++kk) {
#if LDM
#pragma unroll
            for (int jp = 0; jp < BC / 16; ++jp) {
                const int mi = lane >> 3;
                uint f[4];
                MMA_LDMATRIX_X4(f, Ks + (jp * 16 + (mi >> 1) * 8 + (lane & 7)) * KP + kk * 16 + (mi & 1) * 8);
                MMA_OP(s[2 * jp], qf[kk], f);
                MMA_OP(s[2 * jp + 1], qf[kk], f + 2);
            }
#else
#pragma unroll
            for (int jn = 0; jn < BC / 8; ++jn) {
                __local const ushort* p = Ks + (jn * 8 + g) * KP + kk * 16 + 2 * t;
                uint f[2] = {*(__local const uint*)p, *(__local const uint*)(p + 8)};
                MMA_OP(s[jn], qf[kk], f);
            }
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* every warp is done with K(jb) */
        if (jb + 1 < nblk)
            cp_rows(Ks, KP, BC, DP, kg, kbase, k_st.s2, j0 + BC, SK, HEAD_D, lid);
        MMA_COMMIT();

        /* scale, mask where the block reaches past Sk or the causal diagonal */
        const int masked = j0 + BC > SK || (causal && j0 + BC - 1 > i0 + (SK - SQ));
        float mx0 = m0, mx1 = m1;
#pragma unroll
        for (int jn = 0; jn < BC / 8; ++jn) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                float x = s[jn][e] * sc2;
                if (masked && !VISIBLE(e < 2 ? ra : rb, j0 + jn * 8 + 2 * t + (e & 1)))
                    x = -INFINITY;
                s[jn][e] = x;
            }
            mx0 = fmax(mx0, fmax(s[jn][0], s[jn][1]));
            mx1 = fmax(mx1, fmax(s[jn][2], s[jn][3]));
        }
        mx0 = fmax(mx0, mma_shfl_xor(mx0, 1));
        mx0 = fmax(mx0, mma_shfl_xor(mx0, 2));
        mx1 = fmax(mx1, mma_shfl_xor(mx1, 1));
        mx1 = fmax(mx1, mma_shfl_xor(mx1, 2));
        /* a row with nothing visible yet keeps m = -inf; its terms are 0 (2^-inf), not NaN */
        const float ref0 = mx0 == -INFINITY ? 0.0f : mx0, ref1 = mx1 == -INFINITY ? 0.0f : mx1;
        const float al0 = exp2(m0 - ref0), al1 = exp2(m1 - ref1);
        m0 = mx0;
        m1 = mx1;
        float ls0 = 0.0f, ls1 = 0.0f;
        uint pf[BC / 16][4];
#pragma unroll
        for (int jn = 0; jn < BC / 8; ++jn) {
            float p[4];
#pragma unroll
            for (int e = 0; e < 4; ++e) p[e] = exp2(s[jn][e] - (e < 2 ? ref0 : ref1));
            ls0 += p[0] + p[1];
            ls1 += p[2] + p[3];
#if DROPOUT
#pragma unroll
            for (int e = 0; e < 4; ++e) p[e] *= DROP_Z((ulong)bh, e < 2 ? ra : rb, j0 + jn * 8 + 2 * t + (e & 1));
#endif
            pf[jn / 2][(jn & 1) * 2] = pack2(p[0], p[1]);
            pf[jn / 2][(jn & 1) * 2 + 1] = pack2(p[2], p[3]);
        }
        l0 = l0 * al0 + ls0;
        l1 = l1 * al1 + ls1;
#pragma unroll
        for (int dn = 0; dn < DVP / 8; ++dn) {
            acc[dn][0] *= al0;
            acc[dn][1] *= al0;
            acc[dn][2] *= al1;
            acc[dn][3] *= al1;
        }

        MMA_WAIT_GROUP(1); /* V(jb) has landed */
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int kc = 0; kc < BC / 16; ++kc) {
#if LDM
#pragma unroll
            for (int dp = 0; dp < DVP / 16; ++dp) {
                const int mi = lane >> 3;
                uint f[4];
                MMA_LDMATRIX_X4_TRANS(f, Vs + (kc * 16 + (mi & 1) * 8 + (lane & 7)) * VP + dp * 16 + (mi >> 1) * 8);
                MMA_OP(acc[2 * dp], pf[kc], f);
                MMA_OP(acc[2 * dp + 1], pf[kc], f + 2);
            }
#else
#pragma unroll
            for (int dn = 0; dn < DVP / 8; ++dn) {
                __local const ushort* p = Vs + (kc * 16 + 2 * t) * VP + dn * 8 + g;
                uint f[2] = {LDS_PAIR(p[0], p[VP]), LDS_PAIR(p[8 * VP], p[9 * VP])};
                MMA_OP(acc[dn], pf[kc], f);
            }
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* every warp is done with V(jb) */
        if (jb + 1 < nblk)
            cp_rows(Vs, VP, BC, DVP, vg, vbase, v_st.s2, j0 + BC, SK, HEAD_DV, lid);
        MMA_COMMIT();
    }
    MMA_WAIT_GROUP(0);

    l0 += mma_shfl_xor(l0, 1);
    l0 += mma_shfl_xor(l0, 2);
    l1 += mma_shfl_xor(l1, 1);
    l1 += mma_shfl_xor(l1, 2);
    const float inv0 = l0 > 0.0f ? 1.0f / l0 : 0.0f, inv1 = l1 > 0.0f ? 1.0f / l1 : 0.0f;
#pragma unroll
    for (int dn = 0; dn < DVP / 8; ++dn) {
        const int x = dn * 8 + 2 * t; /* HEAD_DV % 8 == 0: x and x + 1 are both inside or both out */
        if (x >= HEAD_DV)
            continue;
        /* both rounded to nearest even, as STORE does, and written as one 32-bit word */
        if (ra < SQ)
            *(__global uint*)((__global ushort*)o + AT(o_off, o_st, b, h, ra, x)) = pack2(acc[dn][0] * inv0, acc[dn][1] * inv0);
        if (rb < SQ)
            *(__global uint*)((__global ushort*)o + AT(o_off, o_st, b, h, rb, x)) = pack2(acc[dn][2] * inv1, acc[dn][3] * inv1);
    }
    if (has_stats && t == 0) {
        if (ra < SQ)
            st[AT(st_off, st_st, b, h, ra, 0)] = l0 > 0.0f ? (m0 + log2(l0)) * M_LN2_F : -INFINITY;
        if (rb < SQ)
            st[AT(st_off, st_st, b, h, rb, 0)] = l1 > 0.0f ? (m1 + log2(l1)) * M_LN2_F : -INFINITY;
    }
}
