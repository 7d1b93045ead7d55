/*
 * gemm_tile.h: the pieces of cldnn's tiled GEMM that every GEMM-shaped kernel shares (GEMM,
 * batched GEMM and the implicit-GEMM convolution): the tuning parameters with their
 * defaults, the operand tile loaders (global -> registers -> local memory), and the register
 * micro-tile update. Kernels include it, define their own operand loaders when the operand is
 * not a plain matrix, and write the blocking loop.
 *
 * Canonical problem: C (M x N, column-major, ldc) = alpha * A' B' + beta * C where
 *   A'(m, k) = A[m * A_SM + k * A_SK]  and  B'(k, n) = B[k * B_SK + n * B_SN]
 * (the host turns row-major and transposed calls into this form).
 *
 * Tuning parameters (build options; CLBlast's names where they mean the same)
 *   MWG, NWG   work-group tile of C in m and n                     typical 32..128
 *   KWG        k-step: the depth of one local-memory tile          8, 16, 32
 *   MDIMC      work-items along m, NDIMC along n (work-group size MDIMC x NDIMC)
 *   VWM, VWN   widths of the local-memory reads of the register block (1, 2, 4)
 *              Work-item (tx, ty) owns rows (i * MDIMC + tx) * VWM + v and columns
 *              (j * NDIMC + ty) * VWN + w: VWM-wide chunks MDIMC * VWM apart.
 *   VWA, VWB   width of the global loads of A and B along their unit-stride dimension (1, 2,
 *              4); the host passes 1 unless that dimension's stride, the leading dimension and
 *              the offset allow aligned vectors
 *   PADA, PADB local-memory padding of the A and B tiles (floats per k-row)
 *   A_TRANS    0: A' is unit-stride along m (column-major A, OP_N); 1: along k
 *   B_TRANS    0: B' is unit-stride along k (column-major B, OP_N); 1: along n
 * Derived: MWI = MWG / MDIMC, NWI = NWG / NDIMC (the register block), NTHREADS.
 * Constraints (checked by the host's parameter validation): MWI % VWM == 0, NWI % VWN == 0,
 * (MWG * KWG) % (NTHREADS * VWA) == 0, (NWG * KWG) % (NTHREADS * VWB) == 0, and the unit-stride
 * extent of each tile divisible by its load width.
 */
#ifndef CLDNN_GEMM_TILE_H
#define CLDNN_GEMM_TILE_H

#ifndef MWG
#define MWG 64
#endif
#ifndef NWG
#define NWG 64
#endif
#ifndef KWG
#define KWG 16
#endif
#ifndef MDIMC
#define MDIMC 16
#endif
#ifndef NDIMC
#define NDIMC 16
#endif
#ifndef VWM
#define VWM 4
#endif
#ifndef VWN
#define VWN 4
#endif
#ifndef VWA
#define VWA 1
#endif
#ifndef VWB
#define VWB 1
#endif
#ifndef PADA
#define PADA 0
#endif
#ifndef PADB
#define PADB 0
#endif
#ifndef A_TRANS
#define A_TRANS 0
#endif
#ifndef B_TRANS
#define B_TRANS 0
#endif

#define MWI (MWG / MDIMC)
#define NWI (NWG / NDIMC)
#define NTHREADS (MDIMC * NDIMC)
#define LDA_LOCAL (MWG + PADA)
#define LDB_LOCAL (NWG + PADB)

/* Vector types of width W: floatW, with float for W == 1. */
#define VEC_T_1 float
#define VEC_T_2 float2
#define VEC_T_4 float4
#define VEC_T(W) CAT(VEC_T_, W)
/* Aligned vector loads (the host guarantees the alignment of global vectors: see VWA/VWB; local
 * tiles are 16-byte aligned with row lengths that keep VWM/VWN chunks aligned). */
#define VLOADG_H0(W, p) (*(__global const VEC_T(W)*)(p))
#define VLOADG_H1(W, p) CAT(VLOADG_W, W)(1, p)
#define VLOADG_H2(W, p) CAT(VLOADG_W, W)(2, p)
#define VLOADG_W1(H, p) LOAD_OF(H, p, 0)
#define VLOADG_W2(H, p) VLOADN_OF(H, 2, p, 0)
#define VLOADG_W4(H, p) VLOADN_OF(H, 4, p, 0)
/* A W-wide global load of an operand of storage flag H (common/helpers.h): half and bfloat16
 * vectors widen to float and need only 2-byte alignment. */
#define VLOADG(H, W, p) CAT(VLOADG_H, H)(W, p)
#define VLOADL(W, p) (*(__local const VEC_T(W)*)(p))
#define VSTORE_PRIV(W, v, p) CAT(vstore_w_private_, W)((v), (p))

/*
 * Tile loader: moves an R x KWG tile of an operand X of storage flag XH (common/helpers.h;
 * element (r, kk) at X[r * SR + kk * SK], R_UNIT: unit stride along r, else along k) into registers (TILE_LOAD) and then into local
 * memory laid out [kk][r] with row length LDL (TILE_STORE). The tile origin (r0, k0) and the
 * operand's extents (RTOT, KTOT) decide, per chunk, the vector or the guarded path.
 * Each work-item moves R * KWG / NTHREADS elements in chunks of W along the unit-stride dim.
 */
#define TILE_CHUNKS(R, W) ((R) * KWG / (NTHREADS * (W)))

/* Coordinates of chunk c (0 .. NTHREADS * TILE_CHUNKS - 1) of a tile. */
#define CHUNK_R(R_UNIT, R, W, c) ((R_UNIT) ? ((c) % ((R) / (W))) * (W) : (c) / (KWG / (W)))
#define CHUNK_K(R_UNIT, R, W, c) ((R_UNIT) ? (c) / ((R) / (W)) : ((c) % (KWG / (W))) * (W))

/* Loads this work-item's chunks of the tile at (r0, k0) into regs[TILE_CHUNKS(R, W) * W]. An
 * interior tile (uniform test) is all aligned vector loads. In an edge tile, a chunk that lies
 * wholly inside the operand is still one vector load, and a chunk across the edge is loaded
 * element by element with zeros outside. (One test per chunk on every tile cost 2048^3 about 20%
 * on the H100; per-tile-only tests made thin products scalar: perf/results/gemm-h100.md.) */
#define TILE_VLOAD_CHUNK(XH, X, SR, SK, W, rr, kk, regs, ci)                                           \
    do {                                                                                              \
        __global const STORAGE_OF(XH)* p_ = (X) + (long)(rr) * (SR) + (long)(kk) * (SK);              \
        VEC_T(W) v_ = VLOADG(XH, W, p_);                                                              \
        VSTORE_PRIV(W, v_, (regs) + (ci) * (W));                                                      \
    } while (0)

#define TILE_LOAD(XH, X, SR, SK, R_UNIT, R, W, r0, k0, RTOT, KTOT, tid, regs)                              \
    do {                                                                                              \
        if ((r0) + (R) <= (RTOT) && (k0) + KWG <= (KTOT)) {                                           \
            for (int ci_ = 0; ci_ < TILE_CHUNKS(R, W); ++ci_) {                                       \
                const int c_ = (tid) + ci_ * NTHREADS;                                                \
                TILE_VLOAD_CHUNK(XH, X, SR, SK, W, (r0) + CHUNK_R(R_UNIT, R, W, c_),                      \
                                 (k0) + CHUNK_K(R_UNIT, R, W, c_), regs, ci_);                        \
            }                                                                                         \
        } else {                                                                                      \
            for (int ci_ = 0; ci_ < TILE_CHUNKS(R, W); ++ci_) {                                       \
                const int c_ = (tid) + ci_ * NTHREADS;                                                \
                const int r_ = CHUNK_R(R_UNIT, R, W, c_), k_ = CHUNK_K(R_UNIT, R, W, c_);             \
                if ((R_UNIT) ? ((r0) + r_ + (W) <= (RTOT) && (k0) + k_ < (KTOT))                      \
                             : ((r0) + r_ < (RTOT) && (k0) + k_ + (W) <= (KTOT))) {                   \
                    TILE_VLOAD_CHUNK(XH, X, SR, SK, W, (r0) + r_, (k0) + k_, regs, ci_);                  \
                } else {                                                                              \
                    for (int w_ = 0; w_ < (W); ++w_) {                                                \
                        const int rr_ = (r0) + r_ + ((R_UNIT) ? w_ : 0);                              \
                        const int kk_ = (k0) + k_ + ((R_UNIT) ? 0 : w_);                              \
                        (regs)[ci_ * (W) + w_] = (rr_ < (RTOT) && kk_ < (KTOT))                       \
                                                     ? LOAD_OF(XH, X, (long)rr_ * (SR) + (long)kk_ * (SK)) \
                                                     : 0.0f;                                          \
                    }                                                                                 \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
    } while (0)

/* Stores this work-item's chunks from regs into the local tile Xs[kk * LDL + r]. */
#define TILE_STORE(Xs, LDL, R_UNIT, R, W, tid, regs)                                                  \
    do {                                                                                              \
        for (int ci_ = 0; ci_ < TILE_CHUNKS(R, W); ++ci_) {                                           \
            const int c_ = (tid) + ci_ * NTHREADS;                                                    \
            const int r_ = CHUNK_R(R_UNIT, R, W, c_), k_ = CHUNK_K(R_UNIT, R, W, c_);                 \
            for (int w_ = 0; w_ < (W); ++w_)                                                          \
                (Xs)[(k_ + ((R_UNIT) ? 0 : w_)) * (LDL) + r_ + ((R_UNIT) ? w_ : 0)] =                 \
                    (regs)[ci_ * (W) + w_];                                                           \
        }                                                                                             \
    } while (0)

/* The fused epilogue (common/epilogue.h, included by the kernel once its C storage is known):
 * EPI_BIAS_M 1 indexes the bias by C's row m (a channels-last convolution's y), 0 by its column
 * n (NCHW). */
#ifndef EPI_BIAS_M
#define EPI_BIAS_M 0
#endif

/* A block's place in gemm_tiled's grid contract, for every kernel with its argument list: split
 * and batch product from grid dimension 2, A, B and C moved to the batch's matrices, and the
 * split's k range [kb, ke) (min(K, kb + ksplit) without int overflow near 2^31); the epilogue's z
 * moved to the batch's matrix as C is. */
#define GEMM_BLOCK_SETUP()                                                                             \
    const int split = (int)(get_group_id(2) % (size_t)nsplit);                                        \
    const long batch = (long)(get_group_id(2) / (size_t)nsplit);                                      \
    A += a_off + batch * a_stride;                                                                    \
    B += b_off + batch * b_stride;                                                                    \
    C += c_off + batch * c_stride;                                                                    \
    EPI_SETUP(batch * c_stride);                                                                      \
    const int kb = split * ksplit;                                                                    \
    const int ke = kb + min(K - kb, ksplit)

/* With split-k, W moved to this split's partial sums of this product (gemm_splitk_reduce's order:
 * split, then product, then C's M x N column-major), where GEMM_STORE_SUM writes them. */
#define GEMM_SPLIT_W()                                                                                 \
    do {                                                                                              \
        if (nsplit > 1)                                                                               \
            W += ((long)split * (long)(get_num_groups(2) / (size_t)nsplit) + batch) * (long)M * (long)N; \
    } while (0)

/* Stores the finished sum of C(m, n) (column-major, inside C): with split-k (nsplit > 1) the raw
 * sum into the float workspace W (m fastest, M per column); else alpha * sum + beta * C(m, n),
 * not reading C when beta == 0, then the fused epilogue where it is built in, C stored as half
 * when CH is 1 (helpers.h LOAD_OF / STORE_OF). Every GEMM-shaped kernel with gemm_tiled's
 * contract stores so. */
#define GEMM_STORE_SUM(sum, m, n, M, ldc, alpha, beta, nsplit, C, W, CH)                               \
    do {                                                                                              \
        if ((nsplit) > 1) {                                                                           \
            (W)[(long)(n) * (M) + (m)] = (sum);                                                       \
        } else {                                                                                      \
            const long gidx_ = (long)(n) * (ldc) + (m);                                               \
            float gr_ = (alpha) * (sum);                                                              \
            if ((beta) != 0.0f)                                                                       \
                gr_ = fma((beta), LOAD_OF(CH, C, gidx_), gr_);                                        \
            EPI_APPLY(gr_, EPI_BIAS_M ? (m) : (n), gidx_);                                            \
            STORE_OF(CH, C, gidx_, gr_);                                                              \
        }                                                                                             \
    } while (0)

inline void vstore_w_private_1(float v, float* p) { p[0] = v; }
inline void vstore_w_private_2(float2 v, float* p) { vstore2(v, 0, p); }
inline void vstore_w_private_4(float4 v, float* p) { vstore4(v, 0, p); }

/*
 * The micro-tile update (BLIS's micro-kernel): acc[MWI][NWI] += A-column x B-row for one k of
 * the local tiles, the register block read in VWM / VWN-wide chunks.
 */
#define MICRO_TILE_UPDATE(As_k, Bs_k, tx, ty, acc)                                                    \
    do {                                                                                              \
        float a_[MWI], b_[NWI];                                                                       \
        for (int i_ = 0; i_ < MWI / VWM; ++i_) {                                                      \
            VEC_T(VWM) va_ = VLOADL(VWM, (As_k) + (i_ * MDIMC + (tx)) * VWM);                         \
            VSTORE_PRIV(VWM, va_, a_ + i_ * VWM);                                                     \
        }                                                                                             \
        for (int j_ = 0; j_ < NWI / VWN; ++j_) {                                                      \
            VEC_T(VWN) vb_ = VLOADL(VWN, (Bs_k) + (j_ * NDIMC + (ty)) * VWN);                         \
            VSTORE_PRIV(VWN, vb_, b_ + j_ * VWN);                                                     \
        }                                                                                             \
        for (int i_ = 0; i_ < MWI; ++i_)                                                              \
            for (int j_ = 0; j_ < NWI; ++j_)                                                          \
                (acc)[i_][j_] = fma(a_[i_], b_[j_], (acc)[i_][j_]);                                   \
    } while (0)

#endif
