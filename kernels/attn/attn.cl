/*
 * attn.cl: scaled dot-product attention, forward and backward, in FlashAttention-2's plan: the
 * Sq x Sk score matrix exists only as register tiles of one block at a time, never in global memory.
 *
 * Kernels (one work-group each; all take ATTN_ARGS)
 *   attn_fwd     (b, h, block of BR query rows): streams K and V in blocks of BC keys; per block
 *                S = Q K^T (register tile), the causal mask, the online softmax (running row max m
 *                shared by the lanes of a row through local memory, partial row sums l per lane,
 *                summed once at the end), O_acc = O_acc * 2^(m_old - m_new) + P V with P through
 *                local memory. O = O_acc / l, stats = ln(l) + m (natural log-sum-exp of the scaled
 *                scores). Rows whose every key is masked give O = 0 and stats = -inf.
 *   attn_bwd_dot (rows of 64): Di = rowsum(dO * O) into the workspace (B*H*Sq floats).
 *   attn_bwd_dkdv (b, kv head, block of BC keys): over every query head of its group and every
 *                query block, recomputes P = 2^(S' - lse') from Q, K and stats, dV += (P Z)^T dO,
 *                dP = dO V^T, dS = P (dP Z - Di), dK += scale dS^T Q. Z is the dropout's
 *                keep * 1/(1-p) (1 without dropout). Sums in a fixed order: deterministic.
 *   attn_bwd_dq  (b, h, block of BR queries): over key blocks, dQ += scale dS K.
 *
 * Work split: a work-group of WG_R x WG_C lanes (lid = tr * WG_C + tc). A lane owns the register
 * tile rows tr + WG_R * i and columns tc + WG_C * j of each block product (strided, so that lanes
 * next to each other read next-to-each-other local words: no bank conflicts with odd pitches).
 * Products over the head dims stream both operands through local memory in chunks of KC (stored
 * transposed, pitch rows + 1); products over the block (P V, dS K, dS^T Q, P^T dO) stream the
 * global rows in chunks of RC rows. Private arrays are indexed only by unrolled constants.
 *
 * Build options (the solver's parameters and the problem's specialisations)
 *   -DHEAD_D=n -DHEAD_DV=n  head sizes (1..256), loops unroll over them
 *   -DBR=n -DBC=n           query rows and keys per block (multiples of WG_R and WG_C, both ways)
 *   -DWG_R=n -DWG_C=n       lanes per work-group: WG_R x WG_C
 *   -DKC=n -DRC=n           chunk of the head dims / of the block rows streamed per step
 *   -DQL=1                  the forward keeps its whole Q block in local memory (else streams it)
 *   -DVEC=4                 4-vector loads: every input's head dim has stride 1, its other strides
 *                           and offset are multiples of 4, D and Dv too (the host checks); default 1
 *   -DUNROLL=0              loops stay rolled (PoCL compiles unrolled tiles for minutes and runs
 *                           them no faster); default 0 on CPU devices (CLDNN_CPU_DEVICE), else 1
 *   -DDROPOUT=1             dropout on the probabilities (common/philox.h at the logical index
 *                           ((b*H + h)*Sq + i)*Sk + j: the mask of cldnnDropout on B x H x Sq x Sk)
 *   -DDATA_HALF=1 / -DDATA_BF16=1 storage of Q, K, V, O, dO, dQ, dK, dV (helpers.h); stats and
 *                           the workspace are float
 * Sizes, strides (elements, any 4-d order: B,H,S,D and B,S,H,D alike), offsets, the causal flag
 * and the dropout's generator are arguments.
 */
#include "common/helpers.h"
#include "attn/attn_common.h" /* ATTN_ARGS, AT, VISIBLE, DROP_Z, keys_end */

#ifndef HEAD_D
#define HEAD_D 64
#endif
#ifndef HEAD_DV
#define HEAD_DV HEAD_D
#endif
#ifndef BR
#define BR 64 /* 16..128 */
#endif
#ifndef BC
#define BC 64 /* 16..128 */
#endif
#ifndef WG_R
#define WG_R 16
#endif
#ifndef WG_C
#define WG_C 16
#endif
#ifndef KC
#define KC 16 /* 4..64 */
#endif
#ifndef RC
#define RC 16 /* 4..64 */
#endif
#ifndef QL
#define QL 0
#endif
#ifndef DROPOUT
#define DROPOUT 0
#endif
#ifndef UNROLL /* CPU devices (the host's -DCLDNN_CPU_DEVICE, common/helpers.h): rolled */
#if defined(CLDNN_CPU_DEVICE) && CLDNN_CPU_DEVICE
#define UNROLL 0
#else
#define UNROLL 1
#endif
#endif
#ifndef VEC
#define VEC 1
#endif
#if UNROLL
#define UNROLL_LOOP _Pragma("unroll")
#else
#define UNROLL_LOOP _Pragma("unroll 1")
#endif

#define WG (WG_R * WG_C)
/* Head dims rounded up to whole lanes: the accumulator columns; the extra ones are zero. */
#define DW (((HEAD_D + WG_C - 1) / WG_C) * WG_C)
#define DVW (((HEAD_DV + WG_C - 1) / WG_C) * WG_C)
#define TD (DW / WG_C)
#define TDV (DVW / WG_C)
/* Head dims rounded up to whole chunks. */
#define DK (((HEAD_D + KC - 1) / KC) * KC)
#define DVK (((HEAD_DV + KC - 1) / KC) * KC)
#define PR (BR + 1) /* local pitches: odd, so strided lanes hit distinct banks */
#define PC (BC + 1)

#define MAX2(a, b) ((a) > (b) ? (a) : (b))

/* Loads rows [r0, r0 + NROWS) x head dims [k0, k0 + KC) of the (b, h) slice of g (rows past nrows
 * and dims past kd read 0) into L[kk * pitch + r], times mul. Lanes walk the dims fastest:
 * coalesced when the dims are contiguous. */
inline void load_chunk_t(__local float* L, int pitch, int NROWS, __global const STORAGE_T* g, long base, long rs,
                         long ks, int r0, int nrows, int k0, int kd, float mul, int lid) {
#if VEC == 4
    (void)ks;
    for (int idx = lid; idx < NROWS * (KC / 4); idx += WG) {
        int r = idx / (KC / 4), kk = idx % (KC / 4) * 4;
        int gr = r0 + r, gk = k0 + kk;
        float4 x = (float4)(0.0f);
        if (gr < nrows && gk < kd)
            x = VLOADAN_OF(DATA_H, 4, g, (base + (long)gr * rs + gk) / 4) * mul;
        L[kk * pitch + r] = x.s0;
        L[(kk + 1) * pitch + r] = x.s1;
        L[(kk + 2) * pitch + r] = x.s2;
        L[(kk + 3) * pitch + r] = x.s3;
    }
#else
    for (int idx = lid; idx < NROWS * KC; idx += WG) {
        int r = idx / KC, kk = idx % KC;
        int gr = r0 + r, gk = k0 + kk;
        float x = 0.0f;
        if (gr < nrows && gk < kd)
            x = LOAD(g, base + (long)gr * rs + (long)gk * ks) * mul;
        L[kk * pitch + r] = x;
    }
#endif
}

/* Loads rows [r0, r0 + RC) x dims [0, width) of the (b, h) slice of g (rows past nrows and dims
 * past kd read 0) into L[r * width + x]. */
inline void load_rows(__local float* L, int width, __global const STORAGE_T* g, long base, long rs, long ks, int r0,
                      int nrows, int kd, int lid) {
#if VEC == 4
    (void)ks;
    for (int idx = lid; idx < RC * (width / 4); idx += WG) {
        int r = idx / (width / 4), x = idx % (width / 4) * 4;
        int gr = r0 + r;
        float4 val = (float4)(0.0f);
        if (gr < nrows && x < kd)
            val = VLOADAN_OF(DATA_H, 4, g, (base + (long)gr * rs + x) / 4);
        vstore4(val, 0, L + r * width + x);
    }
#else
    for (int idx = lid; idx < RC * width; idx += WG) {
        int r = idx / width, x = idx % width;
        int gr = r0 + r;
        float val = 0.0f;
        if (gr < nrows && x < kd)
            val = LOAD(g, base + (long)gr * rs + (long)x * ks);
        L[idx] = val;
    }
#endif
}

/* acc[i][j] += sum over a KC chunk of La[kk][tr + WG_R i] * Lb[kk][tc + WG_C j]. */
#define TILE_NT(acc, TR_, TC_, La, pa, Lb, pb)                                 \
    UNROLL_LOOP for (int kk = 0; kk < KC; ++kk) {                        \
        float a_[TR_], b_[TC_];                                                \
        UNROLL_LOOP for (int i = 0; i < TR_; ++i) a_[i] = (La)[kk * (pa) + tr + WG_R * i]; \
        UNROLL_LOOP for (int j = 0; j < TC_; ++j) b_[j] = (Lb)[kk * (pb) + tc + WG_C * j]; \
        UNROLL_LOOP for (int i = 0; i < TR_; ++i)                        \
            UNROLL_LOOP for (int j = 0; j < TC_; ++j) acc[i][j] = fma(a_[i], b_[j], acc[i][j]); \
    }

/* acc[i][j] += sum over RC rows c of Lp[(c0 + c) * pp + tr + WG_R i] * Lx[c * W + tc + WG_C j]. */
#define TILE_PX(acc, TR_, TC_, Lp, pp, c0, Lx, W)                              \
    UNROLL_LOOP for (int c = 0; c < RC; ++c) {                           \
        float a_[TR_], b_[TC_];                                                \
        UNROLL_LOOP for (int i = 0; i < TR_; ++i) a_[i] = (Lp)[((c0) + c) * (pp) + tr + WG_R * i]; \
        UNROLL_LOOP for (int j = 0; j < TC_; ++j) b_[j] = (Lx)[c * (W) + tc + WG_C * j]; \
        UNROLL_LOOP for (int i = 0; i < TR_; ++i)                        \
            UNROLL_LOOP for (int j = 0; j < TC_; ++j) acc[i][j] = fma(a_[i], b_[j], acc[i][j]); \
    }

/* acc (NA rows of A from a0 x NB rows of B from b0) = sum over the head dims (kd of them, rounded
 * up to whole chunks KDR) of A[row][x] * B[col][x], both streamed through La / Lb. */
#define PRODUCT_NT(acc, TR_, TC_, NA, NB, KDR, kd, ga, abase, ars, aks, a0, an, gb, bbase, brs, bks, b0, bn) \
    UNROLL_LOOP for (int i = 0; i < TR_; ++i) UNROLL_LOOP for (int j = 0; j < TC_; ++j) acc[i][j] = 0.0f; \
    for (int k0 = 0; k0 < (KDR); k0 += KC) {                                                              \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                     \
        load_chunk_t(La, (NA) + 1, NA, ga, abase, ars, aks, a0, an, k0, kd, 1.0f, lid);                   \
        load_chunk_t(Lb, (NB) + 1, NB, gb, bbase, brs, bks, b0, bn, k0, kd, 1.0f, lid);                   \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                     \
        TILE_NT(acc, TR_, TC_, La, (NA) + 1, Lb, (NB) + 1)                                                \
    }

/* Local memory: the streamed chunks (or row chunks, or the whole Q block) and the P / dS blocks. */
#define FWD_CHUNK (QL ? DK * PR + KC * PC : KC * (PR + PC))
#define FWD_LOCAL MAX2(FWD_CHUNK, (QL ? DK * PR : 0) + RC * DVW)

#define TM (BR / WG_R)
#define TN (BC / WG_C)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void attn_fwd(ATTN_ARGS) {
    __local float Lbuf[FWD_LOCAL];
    __local float Ps[BC * PR];
    __local float red[BR * WG_C];
    const int lid = (int)get_local_id(0), tr = lid / WG_C, tc = lid % WG_C;
    const int nqb = (SQ + BR - 1) / BR;
    const int g = (int)get_group_id(0);
    const int qb = nqb - 1 - g % nqb, bh = g / nqb, h = bh % H, b = bh / H, hk = h / (H / HKV);
    const int i0 = qb * BR;
    const long qbase = AT(q_off, q_st, b, h, 0, 0), kbase = AT(k_off, k_st, b, hk, 0, 0);
    const long vbase = AT(v_off, v_st, b, hk, 0, 0);
    (void)dout, (void)do_off, (void)do_st, (void)dq, (void)dq_off, (void)dq_st, (void)dk, (void)dk_off;
    (void)dk_st, (void)dv, (void)dv_off, (void)dv_st, (void)ws, (void)ws_off, (void)B, (void)scale;
    (void)gen, (void)thresh, (void)rscale;

    __local float* Lq = Lbuf;
    __local float* Lk = Lbuf + (QL ? DK * PR : KC * PR);
    __local float* Lv = Lbuf + (QL ? DK * PR : 0);
#if QL
    for (int k0 = 0; k0 < DK; k0 += KC)
        load_chunk_t(Lq + k0 * PR, PR, BR, q, qbase, q_st.s2, q_st.s3, i0, SQ, k0, HEAD_D, sc2, lid);
#endif

    float m[TM], l[TM], acc[TM][TDV];
    UNROLL_LOOP for (int i = 0; i < TM; ++i) {
        m[i] = -INFINITY;
        l[i] = 0.0f;
        UNROLL_LOOP for (int j = 0; j < TDV; ++j) acc[i][j] = 0.0f;
    }
    const int kend = keys_end(causal, SQ, SK, i0, BR);
    for (int j0 = 0; j0 < kend; j0 += BC) {
        float s[TM][TN];
        UNROLL_LOOP for (int i = 0; i < TM; ++i) UNROLL_LOOP for (int j = 0; j < TN; ++j) s[i][j] = 0.0f;
        for (int k0 = 0; k0 < DK; k0 += KC) {
            barrier(CLK_LOCAL_MEM_FENCE);
#if !QL
            load_chunk_t(Lq, PR, BR, q, qbase, q_st.s2, q_st.s3, i0, SQ, k0, HEAD_D, sc2, lid);
#endif
            load_chunk_t(Lk, PC, BC, k, kbase, k_st.s2, k_st.s3, j0, SK, k0, HEAD_D, 1.0f, lid);
            barrier(CLK_LOCAL_MEM_FENCE);
#if QL
            __local float* Lqk = Lq + k0 * PR;
#else
            __local float* Lqk = Lq;
#endif
            TILE_NT(s, TM, TN, Lqk, PR, Lk, PC)
        }
        /* mask, then the block's row max across the WG_C lanes of each row */
        UNROLL_LOOP for (int i = 0; i < TM; ++i) {
            const int r = tr + WG_R * i;
            float mx = -INFINITY;
            UNROLL_LOOP for (int j = 0; j < TN; ++j) {
                const int c = tc + WG_C * j;
                if (!VISIBLE(i0 + r, j0 + c))
                    s[i][j] = -INFINITY;
                mx = fmax(mx, s[i][j]);
            }
            red[r * WG_C + tc] = mx;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        UNROLL_LOOP for (int i = 0; i < TM; ++i) {
            const int r = tr + WG_R * i;
            float mx = m[i];
            for (int t = 0; t < WG_C; ++t)
                mx = fmax(mx, red[r * WG_C + t]);
            /* a row with nothing visible yet keeps m = -inf; its terms are 0 (2^-inf), not NaN */
            const float ref = mx == -INFINITY ? 0.0f : mx;
            const float alpha = exp2(m[i] - ref);
            m[i] = mx;
            float ls = 0.0f;
            UNROLL_LOOP for (int j = 0; j < TN; ++j) {
                const int c = tc + WG_C * j;
                const float p = exp2(s[i][j] - ref);
                ls += p;
                Ps[c * PR + r] = p * DROP_Z((ulong)bh, i0 + r, j0 + c);
            }
            l[i] = l[i] * alpha + ls;
            UNROLL_LOOP for (int j = 0; j < TDV; ++j) acc[i][j] *= alpha;
        }
        /* O_acc += P V, V streamed in chunks of RC keys */
        for (int c0 = 0; c0 < BC; c0 += RC) {
            barrier(CLK_LOCAL_MEM_FENCE);
            load_rows(Lv, DVW, v, vbase, v_st.s2, v_st.s3, j0 + c0, SK, HEAD_DV, lid);
            barrier(CLK_LOCAL_MEM_FENCE);
            TILE_PX(acc, TM, TDV, Ps, PR, c0, Lv, DVW)
        }
    }
    /* l: the row's partial sums of its lanes */
    barrier(CLK_LOCAL_MEM_FENCE);
    UNROLL_LOOP for (int i = 0; i < TM; ++i) red[(tr + WG_R * i) * WG_C + tc] = l[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    UNROLL_LOOP for (int i = 0; i < TM; ++i) {
        const int r = tr + WG_R * i, row = i0 + r;
        float ls = 0.0f;
        for (int t = 0; t < WG_C; ++t)
            ls += red[r * WG_C + t];
        if (row >= SQ)
            continue;
        const float inv = ls > 0.0f ? 1.0f / ls : 0.0f;
        UNROLL_LOOP for (int j = 0; j < TDV; ++j) {
            const int x = tc + WG_C * j;
            if (x < HEAD_DV)
                STORE(o, AT(o_off, o_st, b, h, row, x), acc[i][j] * inv);
        }
        if (has_stats && tc == 0)
            st[AT(st_off, st_st, b, h, row, 0)] = ls > 0.0f ? (m[i] + log2(ls)) * M_LN2_F : -INFINITY;
    }
}

#define TA (BC / WG_R) /* dK / dV rows (keys) per lane */
#define TB (BR / WG_C) /* query columns per lane */
#define BWD_ROWS (RC * (DW + DVW))
#define DKDV_LOCAL MAX2(KC * (PR + PC), BWD_ROWS)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void attn_bwd_dkdv(ATTN_ARGS) {
    __local float Lbuf[DKDV_LOCAL];
    __local float Pz[BR * PC];  /* [r][c]: P Z */
    __local float Ds[BR * PC];  /* [r][c]: dS */
    __local float rowL[2 * BR]; /* lse * log2(e), Di */
    const int lid = (int)get_local_id(0), tr = lid / WG_C, tc = lid % WG_C;
    const int nkb = (SK + BC - 1) / BC;
    const int g = (int)get_group_id(0);
    const int kb = g % nkb, bhk = g / nkb, hk = bhk % HKV, b = bhk / HKV, G = H / HKV;
    const int j0 = kb * BC;
    const long kbase = AT(k_off, k_st, b, hk, 0, 0), vbase = AT(v_off, v_st, b, hk, 0, 0);
    __local float* La = Lbuf;
    __local float* Lb = Lbuf + KC * PC;
    __local float* Lq = Lbuf;
    __local float* Ldo = Lbuf + RC * DW;
    (void)o, (void)o_off, (void)o_st, (void)dq, (void)dq_off, (void)dq_st, (void)has_stats;
    (void)gen, (void)thresh, (void)rscale;

    float adk[TA][TD], adv[TA][TDV];
    UNROLL_LOOP for (int a = 0; a < TA; ++a) {
        UNROLL_LOOP for (int j = 0; j < TD; ++j) adk[a][j] = 0.0f;
        UNROLL_LOOP for (int j = 0; j < TDV; ++j) adv[a][j] = 0.0f;
    }
    /* the first query row that sees key j0: i >= j0 - (Sk - Sq) */
    int istart = causal ? j0 - (SK - SQ) : 0;
    istart = istart < 0 ? 0 : istart / BR * BR;
    for (int hh = 0; hh < G; ++hh) {
        const int h = hk * G + hh;
        const long qbase = AT(q_off, q_st, b, h, 0, 0), dobase = AT(do_off, do_st, b, h, 0, 0);
        const ulong bh = (ulong)b * (ulong)H + (ulong)h;
        for (int i0 = istart; i0 < SQ; i0 += BR) {
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int r = lid; r < BR; r += WG) {
                const int i = i0 + r;
                rowL[r] = i < SQ ? st[AT(st_off, st_st, b, h, i, 0)] * M_LOG2E_F : 0.0f;
                rowL[BR + r] = i < SQ ? ws[ws_off + bh * (ulong)SQ + (ulong)i] : 0.0f;
            }
            float s[TA][TB], dp[TA][TB];
            PRODUCT_NT(s, TA, TB, BC, BR, DK, HEAD_D, k, kbase, k_st.s2, k_st.s3, j0, SK, q, qbase, q_st.s2,
                       q_st.s3, i0, SQ)
            PRODUCT_NT(dp, TA, TB, BC, BR, DVK, HEAD_DV, v, vbase, v_st.s2, v_st.s3, j0, SK, dout, dobase,
                       do_st.s2, do_st.s3, i0, SQ)
            UNROLL_LOOP for (int a = 0; a < TA; ++a) {
                const int c = tr + WG_R * a;
                UNROLL_LOOP for (int j = 0; j < TB; ++j) {
                    const int r = tc + WG_C * j;
                    const int i = i0 + r;
                    const float p = VISIBLE(i, j0 + c) ? exp2(s[a][j] * sc2 - rowL[r]) : 0.0f;
                    const float z = DROP_Z(bh, i, j0 + c);
                    Pz[r * PC + c] = p * z;
                    Ds[r * PC + c] = p * (dp[a][j] * z - rowL[BR + r]);
                }
            }
            for (int r0 = 0; r0 < BR; r0 += RC) {
                barrier(CLK_LOCAL_MEM_FENCE);
                load_rows(Lq, DW, q, qbase, q_st.s2, q_st.s3, i0 + r0, SQ, HEAD_D, lid);
                load_rows(Ldo, DVW, dout, dobase, do_st.s2, do_st.s3, i0 + r0, SQ, HEAD_DV, lid);
                barrier(CLK_LOCAL_MEM_FENCE);
                TILE_PX(adv, TA, TDV, Pz, PC, r0, Ldo, DVW)
                TILE_PX(adk, TA, TD, Ds, PC, r0, Lq, DW)
            }
        }
    }
    UNROLL_LOOP for (int a = 0; a < TA; ++a) {
        const int j = j0 + tr + WG_R * a;
        if (j >= SK)
            continue;
        UNROLL_LOOP for (int x = 0; x < TD; ++x) {
            const int d = tc + WG_C * x;
            if (d < HEAD_D)
                STORE(dk, AT(dk_off, dk_st, b, hk, j, d), adk[a][x] * scale);
        }
        UNROLL_LOOP for (int x = 0; x < TDV; ++x) {
            const int d = tc + WG_C * x;
            if (d < HEAD_DV)
                STORE(dv, AT(dv_off, dv_st, b, hk, j, d), adv[a][x]);
        }
    }
}

#define DQ_LOCAL MAX2(KC * (PR + PC), RC * DW)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void attn_bwd_dq(ATTN_ARGS) {
    __local float Lbuf[DQ_LOCAL];
    __local float Ds[BC * PR]; /* [c][r] */
    __local float rowL[2 * BR];
    const int lid = (int)get_local_id(0), tr = lid / WG_C, tc = lid % WG_C;
    const int nqb = (SQ + BR - 1) / BR;
    const int g = (int)get_group_id(0);
    const int qb = nqb - 1 - g % nqb, bh = g / nqb, h = bh % H, b = bh / H, hk = h / (H / HKV);
    const int i0 = qb * BR;
    const long qbase = AT(q_off, q_st, b, h, 0, 0), dobase = AT(do_off, do_st, b, h, 0, 0);
    const long kbase = AT(k_off, k_st, b, hk, 0, 0), vbase = AT(v_off, v_st, b, hk, 0, 0);
    __local float* La = Lbuf;
    __local float* Lb = Lbuf + KC * PR;
    __local float* Lk = Lbuf;
    (void)o, (void)o_off, (void)o_st, (void)dk, (void)dk_off, (void)dk_st, (void)dv, (void)dv_off, (void)dv_st;
    (void)has_stats, (void)B, (void)gen, (void)thresh, (void)rscale;

    for (int r = lid; r < BR; r += WG) {
        const int i = i0 + r;
        rowL[r] = i < SQ ? st[AT(st_off, st_st, b, h, i, 0)] * M_LOG2E_F : 0.0f;
        rowL[BR + r] = i < SQ ? ws[ws_off + (ulong)bh * (ulong)SQ + (ulong)i] : 0.0f;
    }
    float adq[TM][TD];
    UNROLL_LOOP for (int i = 0; i < TM; ++i) UNROLL_LOOP for (int j = 0; j < TD; ++j) adq[i][j] = 0.0f;
    const int kend = keys_end(causal, SQ, SK, i0, BR);
    for (int j0 = 0; j0 < kend; j0 += BC) {
        float s[TM][TN], dp[TM][TN];
        PRODUCT_NT(s, TM, TN, BR, BC, DK, HEAD_D, q, qbase, q_st.s2, q_st.s3, i0, SQ, k, kbase, k_st.s2, k_st.s3,
                   j0, SK)
        PRODUCT_NT(dp, TM, TN, BR, BC, DVK, HEAD_DV, dout, dobase, do_st.s2, do_st.s3, i0, SQ, v, vbase,
                   v_st.s2, v_st.s3, j0, SK)
        UNROLL_LOOP for (int i = 0; i < TM; ++i) {
            const int r = tr + WG_R * i;
            UNROLL_LOOP for (int j = 0; j < TN; ++j) {
                const int c = tc + WG_C * j;
                const float p = VISIBLE(i0 + r, j0 + c) ? exp2(s[i][j] * sc2 - rowL[r]) : 0.0f;
                Ds[c * PR + r] = p * (dp[i][j] * DROP_Z((ulong)bh, i0 + r, j0 + c) - rowL[BR + r]);
            }
        }
        for (int c0 = 0; c0 < BC; c0 += RC) {
            barrier(CLK_LOCAL_MEM_FENCE);
            load_rows(Lk, DW, k, kbase, k_st.s2, k_st.s3, j0 + c0, SK, HEAD_D, lid);
            barrier(CLK_LOCAL_MEM_FENCE);
            TILE_PX(adq, TM, TD, Ds, PR, c0, Lk, DW)
        }
    }
    UNROLL_LOOP for (int i = 0; i < TM; ++i) {
        const int row = i0 + tr + WG_R * i;
        if (row >= SQ)
            continue;
        UNROLL_LOOP for (int x = 0; x < TD; ++x) {
            const int d = tc + WG_C * x;
            if (d < HEAD_D)
                STORE(dq, AT(dq_off, dq_st, b, h, row, d), adq[i][x] * scale);
        }
    }
}
