/*
 * attn_mma.cl: scaled dot-product attention, forward and backward, on NVIDIA tensor cores
 * (mma.sync m16n8k16 on FP16 or BF16 inputs, m16n8k8 on TF32 for FLOAT data, FP32 accumulation),
 * in FlashAttention-2's plan as in attn.cl: the scores of one block at a time live in registers
 * only, never in memory.
 *
 * Every kernel is a work-group of warps that each own 16 rows of a block product; all operands
 * reach local memory by cp.async (16-byte copies; rows past the sequence and head dims past D read
 * nothing and zero-fill) and the tensor cores by ldmatrix. Two product shapes make all of them
 * (common/mma.h gives the fragment layouts):
 *   PROD_NT  acc(16 x N) += A(16 x K) B^T with B stored [n][k] (Q K^T, dO V^T, K Q^T, V dO^T);
 *   PROD_NN  acc(16 x N) += P(16 x K) X   with X stored [k][n] (P V, dS K, P^T dO, dS^T Q), P being
 *            the accumulators of the first product as A fragments (PACK_FRAGS: packed to 16 bits,
 *            or for TF32 taken as they are, in a key order X's fragments follow): no local memory
 *            between the two.
 *
 * attn_fwd_mma (b, h, block of BR query rows; BR / 16 warps): Q in registers (QREG); per block of BC
 *   keys S = Q K^T, the scale (log2 e folded in), the mask only in blocks that need it, the
 *   online softmax on the accumulators (a row's four lanes combine by shuffles),
 *   O_acc = O_acc 2^(m_old - m_new) + P V. The next block's K and V stream in during this block
 *   (STAGES 2; 1: K during the softmax and P V, V during the next S). O = O_acc / l rounded once; stats = ln(l) + m
 *   (attn.cl's form); rows with every key masked give O = 0 and stats = -inf.
 * attn_bwd_dot_mma (four lanes a row, 16-byte loads) or, where O's rows do not allow those,
 *   attn_bwd_dot (attn_common.h): Di = rowsum(dO O) into the workspace.
 * attn_bwd_dkdv_mma (b, kv head, block of BC keys; BC / 16 warps, each 16 keys): over the query
 *   heads of the group and their query blocks of BR rows (Q and dO in STAGES buffers):
 *   S^T = K Q^T, P^T = 2^(S^T' - lse'), dV += (P^T Z) dO, dP^T = V dO^T,
 *   dS^T = P^T (dP^T Z - Di), dK += dS^T Q; dK scaled once at the end. No atomics, but under
 *   DQ_ATOMIC, which adds each block's dS K to dQ's FP32 sums in the workspace during the next
 *   block (dS^T in two local buffers at STAGES 2; at 1 in one, written after the block's end
 *   barrier), the key blocks of a head starting their query blocks spread round the cycle.
 * attn_bwd_dq_mma (b, h, block of BR query rows): Q and dO in registers (TF32: in local memory,
 *   their fragments read per block); over key blocks of BC
 *   (K and V in STAGES buffers): S = Q K^T, P, dP = dO V^T, dS = P (dP Z - Di), dQ += dS K.
 * attn_bwd_dq_store (DQ_ATOMIC, instead of attn_bwd_dq_mma; one lane per pair of head dims):
 *   dQ = scale * the sums.
 * Z is the dropout's keep * 1/(1-p) (attn_common.h's DROP_Z at cldnnDropout's index), 1 without.
 *
 * Build options
 *   -DHEAD_D=n -DHEAD_DV=n  head sizes, multiples of 8 up to 128 (the host checks)
 *   -DBR=n -DBC=n           query rows and keys per block, multiples of 16 up to 128; the forward
 *                           and dq run BR / 16 warps, dkdv BC / 16
 *   -DSTAGES=n              local buffers per streamed block (K and V in the forward and dQ, Q and
 *                           dO in dK / dV): 2 loads the next block during this one's products with
 *                           one barrier a block, 1 waits for it (two barriers a block, four in the
 *                           forward) and takes less local memory
 *   -DORDER=1               work-groups heaviest first across heads: query blocks from the last
 *                           (forward, dQ), key blocks from the first (dK / dV), every head's block i
 *                           before any head's block i + 1; 0: each head's blocks in turn (the same
 *                           order within a head, K and V of one head shared in L2)
 *   -DDQ_ATOMIC=1|2 -DDQN=n dQ inside the dK / dV kernel (FlashAttention-2's five block products
 *                           per key/query pair instead of seven): dS^T goes to local memory, each
 *                           warp takes 16 query rows x DQN head dims of dS K per block and adds them
 *                           to FP32 sums in the workspace by red.global.add, one float at a time
 *                           (1) or two (2: PTX ISA 8.1, compute capability 9.0, an 8-byte aligned
 *                           workspace); the Di kernel zeroes them, attn_bwd_dq_store scales and
 *                           stores dQ. Not deterministic
 *   -DDROPOUT=1             dropout on the probabilities
 *   -DDATA_HALF=1 / -DDATA_BF16=1 the storage type; neither: FLOAT on TF32 tensor cores
 *   -DTF32X3=1              FLOAT: each product as three TF32 ones (near FP32's accuracy, mma_op below);
 *                           0: inputs rounded to TF32 once (TENSOR_OP_MATH)
 * NVIDIA only, compute capability 8.0 or higher: the host offers the solver only there. Q, K, V, dO,
 * the gradients and the forward's O have unit-stride head dims and strides and offsets in multiples
 * of 16 bytes (the backward's O only for attn_bwd_dot_mma).
 * Measured on the H100 (B 8, H 16, S 4096, half forward): ldmatrix fragments ran 1.2 x faster than
 * 32- and 16-bit local loads (D 64: 208 against 171 TFLOP/s; D 128: 229 against 185).
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
#endif

#ifndef BR
#define BR 64
#endif
#ifndef BC
#define BC 64
#endif
#ifndef TF32X3
#define TF32X3 0
#endif
#ifndef ORDER
#define ORDER 0
#endif
#ifndef STAGES
#define STAGES 2 /* buffers of the streamed blocks (K, V in the forward and dQ; Q, dO in dK / dV) */
#endif
#ifndef DQ_ATOMIC
#define DQ_ATOMIC 0
#endif
#define DP (((HEAD_D + 15) / 16) * 16)   /* head dims in whole k16 steps / n16 pairs; the extra are 0 */
#define DVP (((HEAD_DV + 15) / 16) * 16)
#ifndef DQN
#define DQN DP
#endif
#if DATA_H
#define LT ushort /* local element */
#define CPE 8     /* elements per 16-byte copy (and ldmatrix row) */
#define KSTEP 16  /* k per mma */
#define PAD 8     /* pitches 16 bytes past a multiple of 32: the 8 rows an ldmatrix phase reads fall in \
                     distinct banks */
#else
#define LT uint
#define CPE 4
#define KSTEP 8
#define PAD 4 /* pitches of 4 (mod 8) words: ldmatrix phases and LDSM_B_NN's words conflict-free */
#endif
#define KP (DP + PAD) /* local pitches in elements */
#define VP (DVP + PAD)
#define LOCALT __local LT __attribute__((aligned(16))) /* cp.async and ldmatrix: 16-byte rows */
/* The forward keeps Q's fragments in registers where they fit beside the accumulators (TF32 ones
 * take twice the registers: up to D 64), else reads them from local memory per block. */
#define QREG (DATA_H || DP <= 64)

#if DATA_H
/* Two floats as one register of 16-bit values, lo in the low half, rounded to nearest even. */
inline uint pack2(float lo, float hi) {
    uint r;
    asm(PACK_CVT " %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
}
#define STORE2(dst, idx, lo, hi) (*(__global uint*)((__global ushort*)(dst) + (idx)) = pack2((lo), (hi)))
#else
#define STORE2(dst, idx, lo, hi) (*(__global float2*)((__global float*)(dst) + (idx)) = (float2)((lo), (hi)))

#if TF32X3
/* FP32 products from TF32 tensor cores (CUTLASS's 3xTF32): x = big + small with big = TF32(x) and
 * small = x - big (exact in FP32; the tensor core keeps its top 10 mantissa bits), and
 * a b = a_big b_big + a_big b_small + a_small b_big, the dropped a_small b_small and the cut
 * bits of small being about 2^-21 of a b: FP32's accuracy for the products (their sums accumulate
 * in the tensor core's FP32), at three mma per product. */
inline void mma_op(float* acc, const uint* a, const uint* b) {
    uint ab[4], as[4], bb[2], bs[2];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        ab[i] = mma_cvt_tf32(as_float(a[i]));
        as[i] = as_uint(as_float(a[i]) - as_float(ab[i]));
    }
#pragma unroll
    for (int i = 0; i < 2; ++i) {
        bb[i] = mma_cvt_tf32(as_float(b[i]));
        bs[i] = as_uint(as_float(b[i]) - as_float(bb[i]));
    }
    MMA_M16N8K8(acc, as, bb);
    MMA_M16N8K8(acc, ab, bs);
    MMA_M16N8K8(acc, ab, bb);
}
#else
/* TENSOR_OP_MATH: inputs rounded to TF32 (as cuBLAS's TF32 GEMM), one mma. */
inline void mma_op(float* acc, const uint* a, const uint* b) {
    uint ar[4], br[2];
#pragma unroll
    for (int i = 0; i < 4; ++i) ar[i] = mma_cvt_tf32(as_float(a[i]));
    br[0] = mma_cvt_tf32(as_float(b[0]));
    br[1] = mma_cvt_tf32(as_float(b[1]));
    MMA_M16N8K8(acc, ar, br);
}
#endif
#define MMA_OP(acc, a, b) mma_op((acc), (a), (b))
#endif

/* Starts the copies of rows [r0, r0 + NR) x head dims [0, width) of a (b, h) slice (row stride rs,
 * unit-stride dims) into L (pitch P) by the nt lanes of the group. */
inline void cp_rows(__local LT* L, int P, int NR, int width, __global const STORAGE_T* g, long base, long rs,
                    int r0, int nrows, int d, int lid, int nt) {
    const int per = width / CPE;
    __global const LT* gu = (__global const LT*)g;
    for (int idx = lid; idx < NR * per; idx += nt) {
        const int r = idx / per, c = idx % per * CPE, gr = r0 + r;
        const int ok = gr < nrows && c < d;
        MMA_CP16(L + r * P + c, gu + base + (ok ? (long)gr * rs + c : 0), ok ? 16 : 0);
    }
}

/* Fragments by ldmatrix (lane in scope): A of rows [r0, r0 + 16) x k [k0, k0 + KSTEP) of L ([row][k]);
 * B of two n8 tiles n0, n0 + 8 at k step k0, from L stored [n][k] (NT) or [k][n] (NN): f[0..1] the
 * first tile's, f[2..3] the second's. A 32-bit element is a pair of 16-bit ones to ldmatrix, and
 * lane (g, t)'s pair of row g is element t: TF32's A and NT B fragments exactly. */
#define LDSM_A(f, L, P, r0, k0) \
    MMA_LDMATRIX_X4(f, (L) + ((r0) + (lane >> 3 & 1) * 8 + (lane & 7)) * (P) + (k0) + (lane >> 4) * CPE)
#define LDSM_B_NT(f, L, P, n0, k0) \
    MMA_LDMATRIX_X4(f, (L) + ((n0) + (lane >> 4) * 8 + (lane & 7)) * (P) + (k0) + (lane >> 3 & 1) * CPE)
#if DATA_H
#define LDSM_B_NN(f, L, P, k0, n0) \
    MMA_LDMATRIX_X4_TRANS(f, (L) + ((k0) + (lane >> 3 & 1) * 8 + (lane & 7)) * (P) + (n0) + (lane >> 4) * 8)
#else
/* .trans moves 16-bit elements, so TF32's NN fragments are word loads, with the k8 step permuted:
 * the A fragment's k = t, t + 4 of lane (g, t) are keys 2t, 2t + 1 of the accumulator tile it came
 * from (PACK_FRAGS), so B's k = t, t + 4 are rows 2t, 2t + 1 of X. */
#define LDSM_B_NN(f, L, P, k0, n0)                                                                      \
    do {                                                                                                \
        __local const LT* x_ = (L) + ((k0) + 2 * t) * (P) + (n0) + g;                                   \
        (f)[0] = x_[0];                                                                                 \
        (f)[1] = x_[P];                                                                                 \
        (f)[2] = x_[8];                                                                                 \
        (f)[3] = x_[(P) + 8];                                                                           \
    } while (0)
#endif

/* The start of block it of a streamed loop of n blocks at two buffers per block: its copies have
 * landed (the only group in flight), and the barrier also tells that every warp is done with block
 * it - 1, whose buffers LOAD(it + 1) then fills while this block computes: one barrier a block. */
#define STREAM_NEXT(it, n, LOAD)                                                                          \
    do {                                                                                                \
        MMA_WAIT_GROUP(0);                                                                              \
        barrier(CLK_LOCAL_MEM_FENCE);                                                                   \
        if ((it) + 1 < (n))                                                                             \
            LOAD((it) + 1);                                                                             \
        MMA_COMMIT();                                                                                   \
    } while (0)

#define ZERO_ACC(acc, N)                                                                                 \
    _Pragma("unroll") for (int z_ = 0; z_ < (N) / 8; ++z_) acc[z_][0] = acc[z_][1] = acc[z_][2] = acc[z_][3] = 0.0f

/* acc (16 x N) += A (16 x K) B^T; AF(kk) names the A fragment of k16 step kk (an array row, or a
 * local one loaded by LOAD_A(kk) first). */
#define PROD_NT(acc, N, K, LOAD_A, AF, L, P)                                                             \
    _Pragma("unroll") for (int kk = 0; kk < (K) / KSTEP; ++kk) {                                        \
        LOAD_A(kk);                                                                                     \
        _Pragma("unroll") for (int np = 0; np < (N) / 16; ++np) {                                       \
            uint f_[4];                                                                                 \
            LDSM_B_NT(f_, L, P, np * 16, kk * KSTEP);                                                    \
            MMA_OP(acc[2 * np], AF(kk), f_);                                                            \
            MMA_OP(acc[2 * np + 1], AF(kk), f_ + 2);                                                    \
        }                                                                                               \
    }
/* acc (16 x N) += P (16 x K) X, pf[K / KSTEP][4] the packed P, X stored [k][n]. */
#define PROD_NN(acc, N, K, pf, L, P)                                                                     \
    _Pragma("unroll") for (int kc = 0; kc < (K) / KSTEP; ++kc)                                          \
        _Pragma("unroll") for (int np_ = 0; np_ < (N) / 16; ++np_) {                                    \
        uint f_[4];                                                                                     \
        LDSM_B_NN(f_, L, P, kc * KSTEP, np_ * 16);                                                      \
        MMA_OP(acc[2 * np_], pf[kc], f_);                                                               \
        MMA_OP(acc[2 * np_ + 1], pf[kc], f_ + 2);                                                       \
    }
/* The accumulators s (16 x N) as A fragments pf[N / KSTEP][4] of the next product: 16-bit, two
 * adjacent tiles packed; TF32, one tile in LDSM_B_NN's key order (registers renamed, no work). */
#if DATA_H
#define PACK_FRAGS(pf, s, N)                                                                            \
    _Pragma("unroll") for (int jn = 0; jn < (N) / 8; ++jn) {                                            \
        pf[jn / 2][(jn & 1) * 2] = pack2(s[jn][0], s[jn][1]);                                           \
        pf[jn / 2][(jn & 1) * 2 + 1] = pack2(s[jn][2], s[jn][3]);                                       \
    }
#else
#define PACK_FRAGS(pf, s, N)                                                                            \
    _Pragma("unroll") for (int jn = 0; jn < (N) / 8; ++jn) {                                            \
        pf[jn][0] = as_uint(s[jn][0]);                                                                  \
        pf[jn][1] = as_uint(s[jn][2]);                                                                  \
        pf[jn][2] = as_uint(s[jn][1]);                                                                  \
        pf[jn][3] = as_uint(s[jn][3]);                                                                  \
    }
#endif
#define NO_LOAD(kk) (void)0
/* A fragments held in an array: AF(kk) is arr[kk]. */
#define FRAG_Q(kk) qf[kk]
#define FRAG_DO(kk) df[kk]
#define FRAG_T(kk) af_

/* Rows ra (lanes' g) and ra + 8 of a 16-row accumulator tile (16 x N, first N_OUT columns real) as
 * pairs of the data type, times mul, into the (b, h) slice of dst; rows past nrows are not written. */
#define STORE_ROWS(acc, N, N_OUT, dst, off, st, b, h, ra, nrows, mul)                                  \
    _Pragma("unroll") for (int dn = 0; dn < (N) / 8; ++dn) {                                            \
        const int x_ = dn * 8 + 2 * t; /* N_OUT % 8 == 0: x_ and x_ + 1 both in or both out */          \
        if (x_ < (N_OUT)) {                                                                             \
            if ((ra) < (nrows))                                                                         \
                STORE2(dst, AT(off, st, b, h, ra, x_), acc[dn][0] * (mul), acc[dn][1] * (mul));          \
            if ((ra) + 8 < (nrows))                                                                     \
                STORE2(dst, AT(off, st, b, h, (ra) + 8, x_), acc[dn][2] * (mul), acc[dn][3] * (mul));    \
        }                                                                                               \
    }

/* ---------------------------------------------------------------------------------- forward */

__kernel __attribute__((reqd_work_group_size(2 * BR, 1, 1))) void attn_fwd_mma(ATTN_ARGS) {
    LOCALT Qs[BR * KP];
    LOCALT Ks[STAGES][BC * KP];
    LOCALT Vs[STAGES][BC * VP];
    (void)dout, (void)do_off, (void)do_st, (void)dq, (void)dq_off, (void)dq_st, (void)dk, (void)dk_off;
    (void)dk_st, (void)dv, (void)dv_off, (void)dv_st, (void)ws, (void)ws_off, (void)B, (void)scale;
    (void)gen, (void)thresh, (void)rscale;
    const int nt = 2 * BR, lid = (int)get_local_id(0), lane = lid % 32, g = lane >> 2, t = lane & 3;
    const int nqb = (SQ + BR - 1) / BR, grp = (int)get_group_id(0);
#if ORDER
    const int qb = nqb - 1 - grp / (B * H), bh = grp % (B * H), h = bh % H, b = bh / H, hk = h / (H / HKV);
#else
    const int qb = nqb - 1 - grp % nqb, bh = grp / nqb, h = bh % H, b = bh / H, hk = h / (H / HKV);
#endif
    const int i0 = qb * BR, r0 = lid / 32 * 16;
    const long qbase = AT(q_off, q_st, b, h, 0, 0), kbase = AT(k_off, k_st, b, hk, 0, 0);
    const long vbase = AT(v_off, v_st, b, hk, 0, 0);
    const int kend = keys_end(causal, SQ, SK, i0, BR), nblk = (kend + BC - 1) / BC;

    /* groups in flight, in order: Q, K0, V0, then (one buffer) K(j+1) and V(j+1) per block or (two)
     * K(j+1) with V(j+1) per block; empty when none */
#define K_LOAD(jb) cp_rows(Ks[(jb) % STAGES], KP, BC, DP, k, kbase, k_st.s2, (jb) * BC, SK, HEAD_D, lid, nt)
#define V_LOAD(jb) cp_rows(Vs[(jb) % STAGES], VP, BC, DVP, v, vbase, v_st.s2, (jb) * BC, SK, HEAD_DV, lid, nt)
#define KV_LOAD(jb) (K_LOAD(jb), V_LOAD(jb))
    cp_rows(Qs, KP, BR, DP, q, qbase, q_st.s2, i0, SQ, HEAD_D, lid, nt);
    MMA_COMMIT();
    if (nblk > 0)
        K_LOAD(0);
    MMA_COMMIT();
    if (nblk > 0)
        V_LOAD(0);
    MMA_COMMIT();
    MMA_WAIT_GROUP(2);
    barrier(CLK_LOCAL_MEM_FENCE);
#if QREG
    uint qf[DP / KSTEP][4];
#pragma unroll
    for (int kk = 0; kk < DP / KSTEP; ++kk) LDSM_A(qf[kk], Qs, KP, r0, kk * KSTEP);
#define LOAD_QF NO_LOAD
#define QF FRAG_Q
#else
    uint af_[4];
#define LOAD_QF(kk) LDSM_A(af_, Qs, KP, r0, (kk) * KSTEP)
#define QF FRAG_T
#endif

    float acc[DVP / 8][4];
    ZERO_ACC(acc, DVP);
    float m0 = -INFINITY, m1 = -INFINITY, l0 = 0.0f, l1 = 0.0f;
    const int ra = i0 + r0 + g, rb = ra + 8;

    for (int jb = 0; jb < nblk; ++jb) {
        const int j0 = jb * BC;
        __local LT* Kb = Ks[jb % STAGES];
        __local LT* Vb = Vs[jb % STAGES];
#if STAGES > 1
        STREAM_NEXT(jb, nblk, KV_LOAD);
#else
        MMA_WAIT_GROUP(1); /* K(jb) has landed */
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        float s[BC / 8][4];
        ZERO_ACC(s, BC);
        PROD_NT(s, BC, DP, LOAD_QF, QF, Kb, KP)
#if STAGES == 1
        barrier(CLK_LOCAL_MEM_FENCE); /* every warp is done with K(jb) */
        if (jb + 1 < nblk)
            K_LOAD(jb + 1);
        MMA_COMMIT();
#endif

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
#pragma unroll
        for (int jn = 0; jn < BC / 8; ++jn) {
#pragma unroll
            for (int e = 0; e < 4; ++e) s[jn][e] = exp2(s[jn][e] - (e < 2 ? ref0 : ref1));
            ls0 += s[jn][0] + s[jn][1];
            ls1 += s[jn][2] + s[jn][3];
#if DROPOUT
#pragma unroll
            for (int e = 0; e < 4; ++e) s[jn][e] *= DROP_Z((ulong)bh, e < 2 ? ra : rb, j0 + jn * 8 + 2 * t + (e & 1));
#endif
        }
        uint pf[BC / KSTEP][4];
        PACK_FRAGS(pf, s, BC)
        l0 = l0 * al0 + ls0;
        l1 = l1 * al1 + ls1;
#pragma unroll
        for (int dn = 0; dn < DVP / 8; ++dn) {
            acc[dn][0] *= al0;
            acc[dn][1] *= al0;
            acc[dn][2] *= al1;
            acc[dn][3] *= al1;
        }

#if STAGES == 1
        MMA_WAIT_GROUP(1); /* V(jb) has landed */
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        PROD_NN(acc, DVP, BC, pf, Vb, VP)
#if STAGES == 1
        barrier(CLK_LOCAL_MEM_FENCE); /* every warp is done with V(jb) */
        if (jb + 1 < nblk)
            V_LOAD(jb + 1);
        MMA_COMMIT();
#endif
    }
#undef K_LOAD
#undef V_LOAD
#undef KV_LOAD
    MMA_WAIT_GROUP(0);

    l0 += mma_shfl_xor(l0, 1);
    l0 += mma_shfl_xor(l0, 2);
    l1 += mma_shfl_xor(l1, 1);
    l1 += mma_shfl_xor(l1, 2);
    const float inv0 = l0 > 0.0f ? 1.0f / l0 : 0.0f, inv1 = l1 > 0.0f ? 1.0f / l1 : 0.0f;
#pragma unroll
    for (int dn = 0; dn < DVP / 8; ++dn) {
        acc[dn][0] *= inv0;
        acc[dn][1] *= inv0;
        acc[dn][2] *= inv1;
        acc[dn][3] *= inv1;
    }
    STORE_ROWS(acc, DVP, HEAD_DV, o, o_off, o_st, b, h, ra, SQ, 1.0f)
    if (has_stats && t == 0) {
        if (ra < SQ)
            st[AT(st_off, st_st, b, h, ra, 0)] = l0 > 0.0f ? (m0 + log2(l0)) * M_LN2_F : -INFINITY;
        if (rb < SQ)
            st[AT(st_off, st_st, b, h, rb, 0)] = l1 > 0.0f ? (m1 + log2(l1)) * M_LN2_F : -INFINITY;
    }
#undef LOAD_QF
#undef QF
}

/* --------------------------------------------------------------------------------- backward */

#if DQ_ATOMIC
#define SP (BR + PAD) /* dS^T's pitch: its stores, ldmatrix phases and TF32 word loads conflict-free */
/* This lane's dS^T values (keys r0 + g and r0 + g + 8, queries 8 jn + 2t and + 1) into Ss; A (m16 x
 * k KSTEP) fragments of dS (queries m0.., keys k0..) from it. TF32's key order is LDSM_B_NN's. */
#if DATA_H
#define STORE_DST(S, pf, acc)                                                                            \
    _Pragma("unroll") for (int jn = 0; jn < BR / 8; ++jn) {                                             \
        *(__local uint*)((S) + (r0 + g) * SP + jn * 8 + 2 * t) = pf[jn / 2][(jn & 1) * 2];               \
        *(__local uint*)((S) + (r0 + g + 8) * SP + jn * 8 + 2 * t) = pf[jn / 2][(jn & 1) * 2 + 1];       \
    }
#define LDSM_AT(f, L, P, m0, k0) \
    MMA_LDMATRIX_X4_TRANS(f, (L) + ((k0) + (lane >> 4) * 8 + (lane & 7)) * (P) + (m0) + (lane >> 3 & 1) * 8)
#else
#define STORE_DST(S, pf, acc)                                                                            \
    _Pragma("unroll") for (int jn = 0; jn < BR / 8; ++jn) {                                             \
        __local uint* s_ = (S) + (r0 + g) * SP + jn * 8 + 2 * t;                                         \
        *(__local uint2*)s_ = (uint2)(as_uint(acc[jn][0]), as_uint(acc[jn][1]));                        \
        *(__local uint2*)(s_ + 8 * SP) = (uint2)(as_uint(acc[jn][2]), as_uint(acc[jn][3]));             \
    }
#define LDSM_AT(f, L, P, m0, k0)                                                                        \
    do {                                                                                                \
        __local const LT* x_ = (L) + ((k0) + 2 * t) * (P) + (m0) + g;                                   \
        (f)[0] = x_[0];                                                                                 \
        (f)[1] = x_[8];                                                                                 \
        (f)[2] = x_[P];                                                                                 \
        (f)[3] = x_[(P) + 8];                                                                           \
    } while (0)
#endif

inline void red_add(__global float* p, float x) {
    asm volatile("red.global.add.f32 [%0], %1;\n" ::"l"(p), "f"(x) : "memory");
}
/* Two adjacent floats (8-byte aligned) in one reduction (PTX 8.1, sm_90). */
inline void red_add2(__global float* p, float x, float y) {
    asm volatile("red.global.add.v2.f32 [%0], {%1, %2};\n" ::"l"(p), "f"(x), "f"(y) : "memory");
}

/* sums (the FP32 dQ of every row, pitch DP) += dS K for query rows [i0, i0 + BR) of slice bh, dS
 * from dS^T in S, K ([key][dim]) in Kl: the BR / 16 x DP / DQN tiles of 16 x DQN go round the warps. */
inline __attribute__((always_inline)) void dq_partial(__local const LT* S, __local const LT* Kl,
                                                      __global float* sums, ulong bh, int i0, int SQ, int lid) {
    const int lane = lid % 32, g = lane >> 2, t = lane & 3;
    for (int tile = lid / 32; tile < BR / 16 * (DP / DQN); tile += BC / 16) {
        const int m0 = tile % (BR / 16) * 16, n0 = tile / (BR / 16) * DQN, ia = i0 + m0 + g;
        float aq[DQN / 8][4];
        ZERO_ACC(aq, DQN);
#pragma unroll
        for (int kc = 0; kc < BC / KSTEP; ++kc) {
            uint fa[4];
            LDSM_AT(fa, S, SP, m0, kc * KSTEP);
#pragma unroll
            for (int np = 0; np < DQN / 16; ++np) {
                uint f_[4];
                LDSM_B_NN(f_, Kl, KP, kc * KSTEP, n0 + np * 16);
                MMA_OP(aq[2 * np], fa, f_);
                MMA_OP(aq[2 * np + 1], fa, f_ + 2);
            }
        }
        __global float* r = sums + (bh * (ulong)SQ + (ulong)ia) * DP + n0 + 2 * t;
#pragma unroll
        for (int dn = 0; dn < DQN / 8; ++dn) {
#if DQ_ATOMIC == 2
            if (ia < SQ)
                red_add2(r + dn * 8, aq[dn][0], aq[dn][1]);
            if (ia + 8 < SQ)
                red_add2(r + 8 * DP + dn * 8, aq[dn][2], aq[dn][3]);
#else
            if (ia < SQ) {
                red_add(r + dn * 8, aq[dn][0]);
                red_add(r + dn * 8 + 1, aq[dn][1]);
            }
            if (ia + 8 < SQ) {
                red_add(r + 8 * DP + dn * 8, aq[dn][2]);
                red_add(r + 8 * DP + dn * 8 + 1, aq[dn][3]);
            }
#endif
        }
    }
}

/* dQ = scale * the sums, one lane per pair of head dims. */
__kernel void attn_bwd_dq_store(ATTN_ARGS) {
    (void)q, (void)q_off, (void)q_st, (void)k, (void)k_off, (void)k_st, (void)v, (void)v_off, (void)v_st;
    (void)o, (void)o_off, (void)o_st, (void)dout, (void)do_off, (void)do_st, (void)st, (void)st_off, (void)st_st;
    (void)dk, (void)dk_off, (void)dk_st, (void)dv, (void)dv_off, (void)dv_st, (void)HKV, (void)SK, (void)causal;
    (void)sc2, (void)has_stats, (void)gen, (void)thresh, (void)rscale;
    const ulong id = get_global_id(0), row = id / (HEAD_D / 2);
    if (row >= (ulong)B * (ulong)H * (ulong)SQ)
        return;
    const int x = (int)(id % (HEAD_D / 2)) * 2, i = (int)(row % (ulong)SQ), bh = (int)(row / (ulong)SQ);
    __global const float* a = ws + ws_off + DQ_BASE(B, H, SQ) + row * DP + x;
    STORE2(dq, AT(dq_off, dq_st, bh / H, bh % H, i, x), a[0] * scale, a[1] * scale);
}
#endif

#if DATA_H == 2
#define UNPACK2(x) ((float2)(as_float((x) << 16), as_float((x) & 0xffff0000u)))
#elif DATA_H == 1
inline float2 unpack_half2(uint x) {
    float lo, hi;
    asm("{\n.reg .f16 l, h;\nmov.b32 {l, h}, %2;\ncvt.f32.f16 %0, l;\ncvt.f32.f16 %1, h;\n}\n"
        : "=f"(lo), "=f"(hi)
        : "r"(x));
    return (float2)(lo, hi);
}
#define UNPACK2(x) unpack_half2(x)
#endif
/* The dot product of two 16-byte pieces of rows. */
inline float dot16(uint4 x, uint4 y) {
#if DATA_H
    float2 a = UNPACK2(x.s0) * UNPACK2(y.s0);
    a += UNPACK2(x.s1) * UNPACK2(y.s1);
    a += UNPACK2(x.s2) * UNPACK2(y.s2);
    a += UNPACK2(x.s3) * UNPACK2(y.s3);
    return a.s0 + a.s1;
#else
    const float4 a = as_float4(x) * as_float4(y);
    return (a.s0 + a.s1) + (a.s2 + a.s3);
#endif
}

/* attn_common.h's attn_bwd_dot where O, like dO, has unit-stride head dims and 16-byte aligned
 * rows: four lanes a row, each taking every fourth 16-byte piece, their sums met by shuffles, so
 * that a warp's loads use whole sectors (a lane a row fetched each sector again per element: 0.55
 * ms for B 8, H 16, S 4096, D 128 HALF on the H200). Under DQ_ATOMIC it zeroes the dQ sums, the
 * lanes' stores consecutive as there. Work-groups of whole warps; every lane reaches the shuffles. */
__kernel void attn_bwd_dot_mma(ATTN_ARGS) {
    (void)q, (void)q_off, (void)q_st, (void)k, (void)k_off, (void)k_st, (void)v, (void)v_off, (void)v_st;
    (void)st, (void)st_off, (void)st_st, (void)dq, (void)dq_off, (void)dq_st, (void)dk, (void)dk_off;
    (void)dk_st, (void)dv, (void)dv_off, (void)dv_st, (void)HKV, (void)SK, (void)causal, (void)scale, (void)sc2;
    (void)has_stats, (void)gen, (void)thresh, (void)rscale;
    const ulong id = get_global_id(0), row = id / 4, rows = (ulong)B * (ulong)H * (ulong)SQ;
    const int part = (int)(id % 4);
    float sum = 0.0f;
    if (row < rows) {
        const int i = (int)(row % (ulong)SQ), bh = (int)(row / (ulong)SQ), h = bh % H, b = bh / H;
        __global const uint4* od = (__global const uint4*)((__global const LT*)o + AT(o_off, o_st, b, h, i, 0));
        __global const uint4* dd = (__global const uint4*)((__global const LT*)dout + AT(do_off, do_st, b, h, i, 0));
        for (int c = part; c < HEAD_DV / CPE; c += 4)
            sum += dot16(od[c], dd[c]);
    }
    sum += mma_shfl_xor(sum, 1);
    sum += mma_shfl_xor(sum, 2);
    if (row < rows && part == 0)
        ws[ws_off + row] = sum;
#if DQ_ATOMIC
    if (id < 4 * rows) {
        __global float* z = ws + ws_off + DQ_BASE(B, H, SQ) + id;
        for (int x = 0; x < DQ_PITCH / 4; ++x)
            z[x * 4 * rows] = 0.0f;
    }
#endif
}

/* lse' (log2 e times the natural statistics) and Di of query row i of slice (b, h), 0 past SQ. */
#define ROW_LSE(i) ((i) < SQ ? st[AT(st_off, st_st, b, h, i, 0)] * M_LOG2E_F : 0.0f)
#define ROW_DI(i) ((i) < SQ ? ws[ws_off + bh * (ulong)SQ + (ulong)(i)] : 0.0f)

__kernel __attribute__((reqd_work_group_size(2 * BC, 1, 1))) void attn_bwd_dkdv_mma(ATTN_ARGS) {
    LOCALT Ks[BC * KP];
    LOCALT Vs[BC * VP];
    LOCALT Qs[STAGES][BR * KP];
    LOCALT Ds[STAGES][BR * VP]; /* dO */
#if DQ_ATOMIC
    /* dS^T of the block, [key][query]; two buffers where the streamed blocks have two (this block's
     * and the last's: one barrier a block), else one, written after the block's end barrier (a
     * second cost FLOAT D 128's 32 x 64 groups their second group per SM: 62 -> 84 ms, H200) */
    LOCALT Ss[STAGES > 1 ? 2 : 1][BC * SP];
#endif
    (void)o, (void)o_off, (void)o_st, (void)dq, (void)dq_off, (void)dq_st, (void)has_stats;
    (void)gen, (void)thresh, (void)rscale;
    const int nt = 2 * BC, lid = (int)get_local_id(0), lane = lid % 32, g = lane >> 2, t = lane & 3;
    const int nkb = (SK + BC - 1) / BC, grp = (int)get_group_id(0);
#if ORDER
    const int kb = grp / (B * HKV), bhk = grp % (B * HKV), hk = bhk % HKV, b = bhk / HKV, G = H / HKV;
#else
    const int kb = grp % nkb, bhk = grp / nkb, hk = bhk % HKV, b = bhk / HKV, G = H / HKV;
#endif
    const int j0 = kb * BC, r0 = lid / 32 * 16, ja = j0 + r0 + g;
    const long kbase = AT(k_off, k_st, b, hk, 0, 0), vbase = AT(v_off, v_st, b, hk, 0, 0);
    /* the first query row that sees key j0: i >= j0 - (Sk - Sq) */
    int istart = causal ? j0 - (SK - SQ) : 0;
    istart = istart < 0 ? 0 : istart / BR * BR;
    const int nib = istart < SQ ? (SQ - istart + BR - 1) / BR : 0, nblk = G * nib;
#if DQ_ATOMIC
    /* the key blocks of a head start their query blocks spread round the cycle, so that their dQ
     * reductions meet on different rows rather than all on the same ones at once (H200, HALF, B 8,
     * H 16, S 4096, 32 x 128 blocks: D 128 18.5 -> 17.8 ms, D 64 at 64 x 64 11.2 -> 10.5) */
    const int rot = nblk > 0 ? (int)((long)kb * nblk / nkb % nblk) : 0;
#else
    const int rot = 0;
#endif

    cp_rows(Ks, KP, BC, DP, k, kbase, k_st.s2, j0, SK, HEAD_D, lid, nt);
    cp_rows(Vs, VP, BC, DVP, v, vbase, v_st.s2, j0, SK, HEAD_DV, lid, nt);
    MMA_COMMIT();
    /* block it: query head hk * G + c / nib, rows istart + (c % nib) * BR, c = (it + rot) % nblk;
     * buffer it % STAGES */
#define BLOCK_LOAD(it)                                                                                  \
    do {                                                                                                \
        const int c_ = ((it) + rot) % nblk, h_ = hk * G + c_ / nib, i_ = istart + c_ % nib * BR;        \
        const int s_ = (it) % STAGES;                                                                   \
        cp_rows(Qs[s_], KP, BR, DP, q, AT(q_off, q_st, b, h_, 0, 0), q_st.s2, i_, SQ, HEAD_D, lid, nt);   \
        cp_rows(Ds[s_], VP, BR, DVP, dout, AT(do_off, do_st, b, h_, 0, 0), do_st.s2, i_, SQ, HEAD_DV, lid, nt); \
    } while (0)
#if STAGES > 1
    if (nblk > 0)
        BLOCK_LOAD(0);
    MMA_COMMIT();
#endif

    float adk[DP / 8][4], adv[DVP / 8][4];
    ZERO_ACC(adk, DP);
    ZERO_ACC(adv, DVP);
#if DQ_ATOMIC
    __global float* sums = ws + ws_off + DQ_BASE(B, H, SQ);
    ulong bh_last = 0;
    int i0_last = 0;
#endif
    for (int it = 0; it < nblk; ++it) {
        const int c = (it + rot) % nblk, h = hk * G + c / nib, i0 = istart + c % nib * BR;
        const ulong bh = (ulong)b * (ulong)H + (ulong)h;
        __local LT* Qb = Qs[it % STAGES];
        __local LT* Db = Ds[it % STAGES];
#if STAGES > 1
        STREAM_NEXT(it, nblk, BLOCK_LOAD); /* the first also waits for K and V */
#else
        BLOCK_LOAD(it);
        MMA_COMMIT();
        MMA_WAIT_GROUP(0);
        barrier(CLK_LOCAL_MEM_FENCE);
#if DQ_ATOMIC
        if (it > 0) /* the last block's dS^T, stored after its end barrier */
            dq_partial(Ss[0], Ks, sums, bh_last, i0_last, SQ, lid);
#endif
#endif

        float s[BR / 8][4], dp[BR / 8][4];
        ZERO_ACC(s, BR);
        ZERO_ACC(dp, BR);
        uint af_[4];
#define LOAD_K(kk) LDSM_A(af_, Ks, KP, r0, (kk) * KSTEP)
#define LOAD_V(kk) LDSM_A(af_, Vs, VP, r0, (kk) * KSTEP)
        PROD_NT(s, BR, DP, LOAD_K, FRAG_T, Qb, KP)
        PROD_NT(dp, BR, DVP, LOAD_V, FRAG_T, Db, VP)
        /* P^T and dS^T: this lane's keys ja, ja + 8 (rows) and queries i0 + 8 jn + 2t (+1) (columns) */
        const int masked = i0 + BR > SQ || j0 + BC > SK || (causal && j0 + BC - 1 > i0 + (SK - SQ));
#pragma unroll
        for (int jn = 0; jn < BR / 8; ++jn) {
            const int ic = i0 + jn * 8 + 2 * t;
            const float lse[2] = {ROW_LSE(ic), ROW_LSE(ic + 1)}, di[2] = {ROW_DI(ic), ROW_DI(ic + 1)};
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int i = ic + (e & 1), j = e < 2 ? ja : ja + 8;
                float p = exp2(s[jn][e] * sc2 - lse[e & 1]);
                if (masked && !VISIBLE(i, j))
                    p = 0.0f;
                const float z = DROP_Z(bh, i, j);
                s[jn][e] = p * z;
                dp[jn][e] = p * (dp[jn][e] * z - di[e & 1]);
            }
        }
        uint pf[BR / KSTEP][4];
        PACK_FRAGS(pf, s, BR)
        PROD_NN(adv, DVP, BR, pf, Db, VP)
        PACK_FRAGS(pf, dp, BR)
#if DQ_ATOMIC && STAGES > 1
        STORE_DST(Ss[it & 1], pf, dp);
#endif
        PROD_NN(adk, DP, BR, pf, Qb, KP)
#if DQ_ATOMIC && STAGES > 1
        /* dQ of the last block, whose dS^T every warp wrote before this block's barrier; this
         * block's waits for the next one's (or the end's), so no barrier of its own */
        if (it > 0)
            dq_partial(Ss[(it - 1) & 1], Ks, sums, bh_last, i0_last, SQ, lid);
#endif
#if STAGES == 1
        barrier(CLK_LOCAL_MEM_FENCE); /* every warp is done with this block's buffers (and Ss) */
#if DQ_ATOMIC
        STORE_DST(Ss[0], pf, dp);
#endif
#endif
#if DQ_ATOMIC
        bh_last = bh;
        i0_last = i0;
#endif
    }
#if DQ_ATOMIC
    barrier(CLK_LOCAL_MEM_FENCE);
    if (nblk > 0)
        dq_partial(Ss[STAGES > 1 ? (nblk - 1) & 1 : 0], Ks, sums, bh_last, i0_last, SQ, lid);
#endif
    MMA_WAIT_GROUP(0);
    STORE_ROWS(adk, DP, HEAD_D, dk, dk_off, dk_st, b, hk, ja, SK, scale)
    STORE_ROWS(adv, DVP, HEAD_DV, dv, dv_off, dv_st, b, hk, ja, SK, 1.0f)
#undef BLOCK_LOAD
#undef LOAD_K
#undef LOAD_V
}

__kernel __attribute__((reqd_work_group_size(2 * BR, 1, 1))) void attn_bwd_dq_mma(ATTN_ARGS) {
    LOCALT Qs[BR * KP];
    LOCALT Ds[BR * VP]; /* dO */
    LOCALT Ks[STAGES][BC * KP];
    LOCALT Vs[STAGES][BC * VP];
    (void)o, (void)o_off, (void)o_st, (void)dk, (void)dk_off, (void)dk_st, (void)dv, (void)dv_off, (void)dv_st;
    (void)has_stats, (void)B, (void)gen, (void)thresh, (void)rscale;
    const int nt = 2 * BR, lid = (int)get_local_id(0), lane = lid % 32, g = lane >> 2, t = lane & 3;
    const int nqb = (SQ + BR - 1) / BR, grp = (int)get_group_id(0);
#if ORDER
    const int qb = nqb - 1 - grp / (B * H), bhi = grp % (B * H), h = bhi % H, b = bhi / H, hk = h / (H / HKV);
#else
    const int qb = nqb - 1 - grp % nqb, bhi = grp / nqb, h = bhi % H, b = bhi / H, hk = h / (H / HKV);
#endif
    const ulong bh = (ulong)bhi;
    const int i0 = qb * BR, r0 = lid / 32 * 16, ra = i0 + r0 + g, rb = ra + 8;
    const long kbase = AT(k_off, k_st, b, hk, 0, 0), vbase = AT(v_off, v_st, b, hk, 0, 0);
    const int kend = keys_end(causal, SQ, SK, i0, BR), nblk = (kend + BC - 1) / BC;

    cp_rows(Qs, KP, BR, DP, q, AT(q_off, q_st, b, h, 0, 0), q_st.s2, i0, SQ, HEAD_D, lid, nt);
    cp_rows(Ds, VP, BR, DVP, dout, AT(do_off, do_st, b, h, 0, 0), do_st.s2, i0, SQ, HEAD_DV, lid, nt);
    MMA_COMMIT();
#define BLOCK_LOAD(jb)                                                                                   \
    do {                                                                                                \
        cp_rows(Ks[(jb) % STAGES], KP, BC, DP, k, kbase, k_st.s2, (jb) * BC, SK, HEAD_D, lid, nt);      \
        cp_rows(Vs[(jb) % STAGES], VP, BC, DVP, v, vbase, v_st.s2, (jb) * BC, SK, HEAD_DV, lid, nt);    \
    } while (0)
#if STAGES > 1
    if (nblk > 0)
        BLOCK_LOAD(0);
    MMA_COMMIT();
    MMA_WAIT_GROUP(1); /* Q and dO */
#else
    MMA_WAIT_GROUP(0);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
#if DATA_H
    uint qf[DP / 16][4], df[DVP / 16][4];
#pragma unroll
    for (int kk = 0; kk < DP / 16; ++kk) LDSM_A(qf[kk], Qs, KP, r0, kk * 16);
#pragma unroll
    for (int kk = 0; kk < DVP / 16; ++kk) LDSM_A(df[kk], Ds, VP, r0, kk * 16);
#define LOAD_QF NO_LOAD
#define QF FRAG_Q
#define LOAD_DF NO_LOAD
#define DF FRAG_DO
#else /* TF32: twice the registers per fragment; Q and dO stay in local memory */
    uint af_[4];
#define LOAD_QF(kk) LDSM_A(af_, Qs, KP, r0, (kk) * KSTEP)
#define QF FRAG_T
#define LOAD_DF(kk) LDSM_A(af_, Ds, VP, r0, (kk) * KSTEP)
#define DF FRAG_T
#endif
    const float lse0 = ROW_LSE(ra), lse1 = ROW_LSE(rb), di0 = ROW_DI(ra), di1 = ROW_DI(rb);

    float adq[DP / 8][4];
    ZERO_ACC(adq, DP);
    for (int jb = 0; jb < nblk; ++jb) {
        const int j0 = jb * BC;
        __local LT* Kb = Ks[jb % STAGES];
        __local LT* Vb = Vs[jb % STAGES];
#if STAGES > 1
        STREAM_NEXT(jb, nblk, BLOCK_LOAD);
#else
        BLOCK_LOAD(jb);
        MMA_COMMIT();
        MMA_WAIT_GROUP(0);
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        float s[BC / 8][4], dp[BC / 8][4];
        ZERO_ACC(s, BC);
        ZERO_ACC(dp, BC);
        PROD_NT(s, BC, DP, LOAD_QF, QF, Kb, KP)
        PROD_NT(dp, BC, DVP, LOAD_DF, DF, Vb, VP)
        const int masked = j0 + BC > SK || (causal && j0 + BC - 1 > i0 + (SK - SQ));
#pragma unroll
        for (int jn = 0; jn < BC / 8; ++jn) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                const int i = e < 2 ? ra : rb, j = j0 + jn * 8 + 2 * t + (e & 1);
                float p = exp2(s[jn][e] * sc2 - (e < 2 ? lse0 : lse1));
                if (masked && !VISIBLE(i, j))
                    p = 0.0f;
                s[jn][e] = p * (dp[jn][e] * DROP_Z(bh, i, j) - (e < 2 ? di0 : di1));
            }
        }
        uint pf[BC / KSTEP][4];
        PACK_FRAGS(pf, s, BC)
        PROD_NN(adq, DP, BC, pf, Kb, KP)
#if STAGES == 1
        barrier(CLK_LOCAL_MEM_FENCE); /* every warp is done with this block's buffers */
#endif
    }
    MMA_WAIT_GROUP(0);
    STORE_ROWS(adq, DP, HEAD_D, dq, dq_off, dq_st, b, h, ra, SQ, scale)
#undef BLOCK_LOAD
#undef LOAD_QF
#undef QF
#undef LOAD_DF
#undef DF
}
