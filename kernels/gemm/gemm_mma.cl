/*
 * gemm_mma.cl: GEMM on NVIDIA tensor cores through inline PTX (mma.sync, cp.async), FP32
 * accumulation, in three element types:
 *   FLOAT data: TF32 inputs, mma.sync m16n8k8 .tf32;
 *   -DDATA_HALF=1: FP16 storage of A and B, mma.sync m16n8k16 .f16 (products exact, sums in
 *   FP32); C half (rounded once when stored) or, with -DC_HALF=0, float (internal callers whose
 *   C is a workspace of partial sums), as in gemm.cl;
 *   -DDATA_BF16=1: the same with BFLOAT16 storage and mma.sync m16n8k16 .bf16 (C bfloat16, or
 *   float with -DC_HALF=0). Both 16-bit types share every tile, copy and fragment path.
 * Same problem, arguments and split-k contract as gemm_tiled in gemm.cl (C = alpha * A' B' +
 * beta * C, C column-major; A'(m, k) and B'(k, n) as in common/gemm_tile.h), so the host runs
 * either through one launcher.
 *
 * NVIDIA only, compute capability >= 8.0: the host's solvers (src/gemm/gemm_mma.c) offer it only
 * there and only under TENSOR_OP_MATH; no other device ever builds this file.
 *
 * gemm_mma: work-group MMA_NT = 32 * (MMA_BM / MMA_WM) * (MMA_BN / MMA_WN) work-items in
 * dimension 0; grid (ceil(M / MMA_BM) * MMA_NT, ceil(N / MMA_BN), batch * nsplit). A work-group
 * computes an MMA_BM x MMA_BN block of C; each warp a MMA_WM x MMA_WN sub-block as
 * (MMA_WM / 16) x (MMA_WN / 8) tiles of m16n8 accumulators. k-tiles of depth MMA_BK go straight
 * from global to local memory by cp.async through MMA_STAGES buffers (MMA_STAGES - 1 tiles in
 * flight while one is multiplied; one barrier per k-tile). Each local tile keeps its global
 * unit-stride dimension contiguous (so a copy is one 16-byte cp.async), rows padded by 16 bytes
 * (m, n) or 8 elements (k):
 *   unit stride along m (or n): tile [k][m], row length MMA_BM + 16 / element size;
 *   unit stride along k:        tile [m][k], row length MMA_BK + 8;
 * and fragments are read without bank conflicts (TF32: 8 or 16 bytes at a time, permutations
 * below; 16-bit types: ldmatrix).
 * Edges: a copy reads only the bytes inside the operand and zero-fills the rest (cp.async's
 * source size), so an edge tile needs no second code path. With beta == 0, C is not read.
 *
 * Build options (defaults in brackets; the host validates combinations):
 *   DATA_HALF          1: A, B (and C unless C_HALF=0) hold halves: FP16 mma      [0]
 *   DATA_BF16          1: they hold bfloat16: BF16 mma                             [0]
 *   C_HALF             storage flag of C (common/helpers.h: 0 float)               [DATA_H]
 *   MMA_BM, MMA_BN     work-group tile of C in m and n                          [128, 128]
 *   MMA_BK             k depth of a local tile: 16 or 32 (FLOAT), 16, 32 or 64
 *                      (HALF)                                                    [32]
 *   MMA_WM, MMA_WN     warp tile; multiples of 32                                [64, 64]
 *   MMA_STAGES         local buffers of the cp.async pipeline, 2..8              [3]
 *   MMA_VW             elements per copy: FLOAT 4 (16 bytes) or 1; HALF 8 (16 bytes),
 *                      4, 2 or 1 (a 2-byte load and st.shared: cp.async copies
 *                      at least 4 bytes). The host passes the widest one the
 *                      leading dimensions, offsets and batch strides keep aligned  [4, 8]
 *   MMA_ROUND          FLOAT: 1 rounds inputs to TF32 to nearest (cvt.rna, as
 *                      cuBLAS); 0 lets the tensor core truncate                   [1]
 *   A_TRANS, B_TRANS   as in gemm.cl                                              [0, 0]
 *   EPI_ACT, EPI_Z, EPI_BIAS_M  the convolutions' fused epilogue in the store, as in gemm.cl
 *                      (common/epilogue.h); conv_igemm_mma.cl's store applies it itself
 *
 * Operand loaders (the plug of the implicit-GEMM convolution, conv/conv_igemm_mma.cl): a file
 * that defines these macros before including this one gets the same pipeline, fragments and
 * accumulators around its own operands; without them the kernel is gemm_mma on plain matrices.
 *   MMA_KERNEL_HEAD         the kernel's declaration (name and arguments, up to the body)
 *   MMA_BLOCK_SETUP()       statements declaring m0, n0 (the block's corner), kb, ke (the
 *                           k range) and whatever the other hooks keep per work-item
 *   MMA_COPY_STAGE(as, bs, k0)  starts the copies of the k-tile at k0 into the local tiles as
 *                           and bs (element (m, k) at AS(m, k), (n, k) at BS(n, k)) with
 *                           mma_copy_vw, zero-filling what lies outside the operands. It
 *                           expands inside the main loop's first k step, after that step's
 *                           fragment loads, so it must use only its own parameters for the
 *                           tiles (the names as / bs are bound there to the tile being read)
 *   MMA_COPY_PART(as, bs, k0, part)  optional: the A tile's copies (part 0) and the B tile's
 *                           (part 1) apart, issued after the first and second k steps' loads;
 *                           without it all of MMA_COPY_STAGE goes out with part 0
 *   MMA_STORE(sum, m, n)    stores the finished sum of C(m, n), m < M, n < N
 */
#include "common/helpers.h"
#include "common/gemm_tile.h" /* GEMM_STORE_SUM, A_TRANS / B_TRANS defaults */
#include "common/mma.h"     /* the mma.sync / cp.async instructions */

#ifndef MMA_BM
#define MMA_BM 128
#endif
#ifndef MMA_BN
#define MMA_BN 128
#endif
#ifndef MMA_BK
#define MMA_BK 32
#endif
#ifndef MMA_WM
#define MMA_WM 64
#endif
#ifndef MMA_WN
#define MMA_WN 64
#endif
#ifndef MMA_STAGES
#define MMA_STAGES 3
#endif
#if DATA_H != 0
#define MMA_ET ushort /* A, B and the local tiles hold raw 16-bit patterns: no cl_khr_fp16 needed */
#define MMA_ES 2      /* bytes per element */
#define MMA_KSTEP 16  /* k of one mma.sync */
#else
#define MMA_ET float
#define MMA_ES 4
#define MMA_KSTEP 8
#endif
#ifndef C_HALF
#define C_HALF DATA_H
#endif
#ifndef EPI_H
#define EPI_H C_HALF
#endif
#include "common/epilogue.h"
#ifndef MMA_VW
#define MMA_VW (16 / MMA_ES)
#endif
#ifndef MMA_ROUND
#define MMA_ROUND 1
#endif
#define MMA_WARPS_M (MMA_BM / MMA_WM)
#define MMA_NT (32 * MMA_WARPS_M * (MMA_BN / MMA_WN))
#define MMA_TM (MMA_WM / 16) /* m16 tiles per warp */
#define MMA_TN (MMA_WN / 8)  /* n8 tiles per warp */

#if A_TRANS /* A' unit-stride along k */
#define A_SM lda
#define A_SK 1
#define A_LD (MMA_BK + 8)
#define A_TILE (MMA_BM * A_LD)
#define AS(m, k) ((m) * A_LD + (k))
#else
#define A_SM 1
#define A_SK lda
#define A_LD (MMA_BM + 16 / MMA_ES)
#define A_TILE (MMA_BK * A_LD)
#define AS(m, k) ((k) * A_LD + (m))
#endif
#if B_TRANS /* B' unit-stride along n */
#define B_SK ldb
#define B_SN 1
#define B_LD (MMA_BN + 16 / MMA_ES)
#define B_TILE (MMA_BK * B_LD)
#define BS(n, k) ((k) * B_LD + (n))
#else
#define B_SK 1
#define B_SN ldb
#define B_LD (MMA_BK + 8)
#define B_TILE (MMA_BN * B_LD)
#define BS(n, k) ((n) * B_LD + (k))
#endif
#define STAGE_ELEMS (A_TILE + B_TILE)

/*
 * Fragment permutations. The sum over k does not care in which order k is visited, as long as A
 * and B agree, and the rows of a warp's A tiles (columns of its B tiles) may sit anywhere in the
 * local tile as long as the store puts each result where it belongs. So each lane reads wide.
 *
 * TF32 (m16n8k8; lane (g, t4) holds A rows g, g + 8 at k = t4, t4 + 4, B column g at k = t4,
 * t4 + 4):
 *   k:  logical k = t4 of step kk is physical kk + 2 t4, logical t4 + 4 is kk + 2 t4 + 1
 *       (a k-contiguous tile gives both in one 8-byte read per row);
 *   m (A stored m-contiguous): in each 32-row group, physical row 4 g + 2 h + r is logical row
 *       g + 8 r of m-tile 2 p + h (one 16-byte read gives two tiles' rows g and g + 8);
 *   n (B stored n-contiguous): in each 32-column group, physical column 4 g + jj is logical
 *       column g of n-tile 4 q + jj (one 16-byte read gives four tiles' column g).
 * Padded row lengths keep every read conflict-free: 8 mod 32 for the 8-byte reads (the 16 lanes
 * of a half-warp read rows g = 0..3 at 2 t4), 4 mod 32 for the 16-byte reads (the 8 lanes of a
 * quarter-warp read k rows 2 t4 at 4 g).
 *
 * FP16 / BF16 (m16n8k16): no permutation. The fragments come from ldmatrix (common/mma.h): one
 * x4 load gives a 16 x 16 A fragment or two n8 tiles' B fragments, with .trans where the tile
 * keeps m (n) contiguous, so neither the order of k nor the rows are rearranged. Row lengths of
 * MMA_BK + 8 and MMA_BM (MMA_BN) + 8 halves are odd multiples of 16 bytes modulo 128, so the 8
 * row addresses of each 8 x 8 matrix fall on 8 different 16-byte bank groups: conflict-free.
 */
/* MMA_AG: m-tiles per slice of the staged epilogue (MMA_EPI_ROWS below), also TF32's m-tiles per
 * A read (2); MMA_BG: TF32's n-tiles per B read. The 16-bit types keep the 4-tile slices they had
 * under their former permutation (measured with it; not re-tuned). */
#if DATA_H != 0 && MMA_WM % 64 == 0
#define MMA_AG 4
#else
#define MMA_AG 2
#endif
#define MMA_BG 4
#if DATA_H != 0 || A_TRANS
#define PHYS_M(i, r) ((i) * 16 + (r))
#else
#define PHYS_M(i, r) ((i) / 2 * 32 + ((r) & 7) * 4 + (i) % 2 * 2 + ((r) >> 3))
#endif
#if DATA_H == 0 && B_TRANS
#define PHYS_N(j, c) ((j) / MMA_BG * (8 * MMA_BG) + (c) * MMA_BG + (j) % MMA_BG)
#else
#define PHYS_N(j, c) ((j) * 8 + (c))
#endif

/* The epilogue (end of the kernel). MMA_EPI_MFAST: C's unit stride runs along m (1: column-major
 * C, NCHW pixels) or n (0). A lane's accumulators are 8 rows (columns) apart from its neighbours'
 * at best, and TF32's permutation scatters m with an m-contiguous A tile and n with an
 * n-contiguous B tile; there, MMA_EPI_STAGED: the accumulators go through
 * local memory, MMA_EPI_ROWS physical rows of a warp's tile at a time, MMA_WN columns of
 * MMA_EPI_LD floats (odd: the n-fast reads are conflict-free), every warp its own part of the
 * pipeline's local memory; elsewhere they are stored straight (staged everywhere, the 1x1 and
 * Winograd backward-filter products, long reductions into small outputs with k-contiguous A
 * tiles, ran 0.8x as fast on the H100). */
#ifndef MMA_EPI_MFAST
#define MMA_EPI_MFAST 1
#endif
#ifndef MMA_EPI_STAGED
#define MMA_EPI_STAGED (MMA_EPI_MFAST ? !A_TRANS : B_TRANS)
#endif
#ifdef MMA_STORE
#define MMA_EPI_STORE(sum, m, n) MMA_STORE(sum, m, n)
#else
#define MMA_EPI_STORE(sum, m, n) GEMM_STORE_SUM(sum, m, n, M, ldc, alpha, beta, nsplit, C, W, C_HALF)
#endif
/* C(m, n) = sum where (m, n) lies inside C. */
#define MMA_EPI_PUT(sum, m, n)                                                                         \
    do {                                                                                               \
        const int pm_ = (m), pn_ = (n);                                                                \
        if (pm_ < M && pn_ < N)                                                                        \
            MMA_EPI_STORE(sum, pm_, pn_);                                                              \
    } while (0)
#define MMA_EPI_ROWS (16 * MMA_AG)
#define MMA_EPI_LD (MMA_EPI_ROWS + 1)
#define MMA_EPI_ELEMS ((MMA_NT / 32) * MMA_WN * MMA_EPI_LD * 4 / MMA_ES)
#define MMA_SMEM_ELEMS                                                                                 \
    (MMA_EPI_STAGED && MMA_EPI_ELEMS > MMA_STAGES * STAGE_ELEMS ? MMA_EPI_ELEMS : MMA_STAGES * STAGE_ELEMS)

/* One copy of vw elements (a compile-time constant at every call) from src into local memory at
 * dst, of which the first `bytes` are read and the rest zero-filled: a cp.async of 16, 8 or 4
 * bytes, or for a single half (below cp.async's 4 bytes) a plain load and st.shared, which the
 * barrier before the tile's use makes visible like a landed cp.async. mma_copy_sh takes dst as
 * its 32-bit offset in the shared window (what a __local pointer holds as an integer), so the
 * constant parts of a tile's addresses become the instruction's immediate offset. src must be a
 * readable element even when bytes is 0 (callers then pass the operand's first element): the
 * single half is loaded unconditionally and then selected, so a work-item's copies are
 * straight-line code whose loads can all be in flight at once. The sources of 16- and 8-byte
 * copies are aligned to their size. gemm_mma's copies are MMA_VW wide (mma_copy); the
 * convolution's operand loaders (conv/conv_igemm_mma.h) give each operand its own width. */
inline void mma_copy_sh(uint dst, __global const MMA_ET* src, int bytes, int vw) {
    if (vw * MMA_ES == 16)
        MMA_CP_SH(16, "cg", dst, src, bytes);
    else if (vw * MMA_ES == 8)
        MMA_CP_SH(8, "ca", dst, src, bytes);
    else if (vw * MMA_ES == 4)
        MMA_CP_SH(4, "ca", dst, src, bytes);
    else { /* one 16-bit element (FLOAT copies are 4 bytes or more) */
        const ushort v = *(__global const ushort*)src, w = bytes > 0 ? v : (ushort)0;
        asm volatile("st.shared.u16 [%0], %1;\n" ::"r"(dst), "h"(w) : "memory");
    }
}
/* The same with a local pointer for dst. */
inline void mma_copy_vw(__local MMA_ET* dst, __global const MMA_ET* src, int bytes, int vw) {
    mma_copy_sh((uint)(ulong)dst, src, bytes, vw);
}
#define MMA_CP_BYTES (MMA_VW * MMA_ES)
#if MMA_CP_BYTES != 16 && MMA_CP_BYTES != 8 && MMA_CP_BYTES != 4 && MMA_CP_BYTES != 2
#error "MMA_VW * element size must be 16, 8, 4 or 2 bytes"
#endif
#define mma_copy(dst, src, bytes) mma_copy_vw((dst), (src), (bytes), MMA_VW)

#define MMA_WAIT_PENDING() asm volatile("cp.async.wait_group " MMA_STR(MMA_STAGES) " - 2;\n" ::: "memory")

inline uint mma_tf32(float x) {
#if MMA_ROUND
    return mma_cvt_tf32(x);
#else
    return as_uint(x);
#endif
}

#if DATA_H == 2
#define MMA_OP MMA_M16N8K16_BF16
#elif DATA_H == 1
#define MMA_OP MMA_M16N8K16
#else
#define MMA_OP MMA_M16N8K8
#endif

/*
 * Copies the R x MMA_BK tile at (r0, k0) of operand X (element (r, k) at X[r * SR + k * SK];
 * R_UNIT: unit stride along r, else along k) into the local tile Xs (element (r, k) at
 * XIDX(r, k)), in MMA_VW-element chunks, MMA_NT work-items, inside (RTOT, KTOT) only.
 */
#define MMA_TILE_COPY(Xs, XIDX, X, SR, SK, R_UNIT, R, r0, k0, RTOT, KTOT, tid)                          \
    do {                                                                                               \
        for (int i_ = 0; i_ < (R) * MMA_BK / (MMA_VW * MMA_NT); ++i_) {                                \
            const int c_ = (tid) + i_ * MMA_NT;                                                        \
            const int r_ = (R_UNIT) ? (c_ % ((R) / MMA_VW)) * MMA_VW : c_ / (MMA_BK / MMA_VW);          \
            const int k_ = (R_UNIT) ? c_ / ((R) / MMA_VW) : (c_ % (MMA_BK / MMA_VW)) * MMA_VW;          \
            const int gr_ = (r0) + r_, gk_ = (k0) + k_;                                                \
            const int n_ = (R_UNIT) ? (gk_ < (KTOT) ? clamp((RTOT) - gr_, 0, MMA_VW) : 0)               \
                                    : (gr_ < (RTOT) ? clamp((KTOT) - gk_, 0, MMA_VW) : 0);              \
            __global const MMA_ET* src_ = n_ > 0 ? (X) + (long)gr_ * (SR) + (long)gk_ * (SK) : (X);    \
            mma_copy((Xs) + XIDX(r_, k_), src_, n_ * MMA_ES);                                          \
        }                                                                                              \
    } while (0)

/*
 * The same copy for a tile wholly inside the operand (the common case, decided per tile for the
 * whole work-group): every chunk is a full cp.async, and since MMA_NT is a multiple of the chunks
 * per row, a work-item's chunks share their unit-stride coordinate and step MMA_NT / rowch along
 * the other, so their sources are one pointer plus constant multiples of a stride.
 */
#ifndef MMA_COPY_STAGE /* plain matrices (gemm_mma) */
#define MMA_ROWCH(R_UNIT, R) ((R_UNIT) ? (R) / MMA_VW : MMA_BK / MMA_VW)
#define MMA_TILE_COPY_INNER(Xs, XIDX, X, SR, SK, R_UNIT, R, r0, k0, tid)                               \
    do {                                                                                               \
        const int c0r_ = (R_UNIT) ? ((tid) % MMA_ROWCH(R_UNIT, R)) * MMA_VW : (tid) / MMA_ROWCH(R_UNIT, R); \
        const int c0k_ = (R_UNIT) ? (tid) / MMA_ROWCH(R_UNIT, R) : ((tid) % MMA_ROWCH(R_UNIT, R)) * MMA_VW; \
        __global const MMA_ET* p_ = (X) + (long)((r0) + c0r_) * (SR) + (long)((k0) + c0k_) * (SK);        \
        const long step_ = (long)(MMA_NT / MMA_ROWCH(R_UNIT, R)) * ((R_UNIT) ? (SK) : (SR));            \
        const uint d_ = (uint)(ulong)(Xs) + MMA_ES * XIDX(c0r_, c0k_);                                 \
        for (int i_ = 0; i_ < (R) * MMA_BK / (MMA_VW * MMA_NT); ++i_) {                                \
            const int s_ = i_ * (MMA_NT / MMA_ROWCH(R_UNIT, R));                                       \
            mma_copy_sh(d_ + MMA_ES * XIDX((R_UNIT) ? 0 : s_, (R_UNIT) ? s_ : 0), p_ + i_ * step_,      \
                        MMA_VW * MMA_ES, MMA_VW);                                                      \
        }                                                                                              \
    } while (0)
/* MMA_COPY_PART(as, bs, k0, 0) copies the A tile, (..., 1) the B tile: the main loop issues them
 * between its first k steps' products instead of all at once. */
/* A tile wholly inside the operands takes the inner copy where every work-item's chunks share
 * their unit-stride coordinate (MMA_NT a multiple of the chunks per row). */
#if MMA_NT % MMA_ROWCH(!A_TRANS, MMA_BM) == 0 && MMA_NT % MMA_ROWCH(B_TRANS, MMA_BN) == 0
#define MMA_TILE_INSIDE(k0) (m0 + MMA_BM <= M && n0 + MMA_BN <= N && (k0) + MMA_BK <= ke)
#else
#define MMA_TILE_INSIDE(k0) 0
#endif
#define MMA_COPY_PART(as, bs, k0, part)                                                                \
    do {                                                                                               \
        const int in_ = MMA_TILE_INSIDE(k0);                                                           \
        if ((part) == 0 && in_)                                                                        \
            MMA_TILE_COPY_INNER(as, AS, A, A_SM, A_SK, !A_TRANS, MMA_BM, m0, k0, tid);                 \
        else if ((part) == 0)                                                                          \
            MMA_TILE_COPY(as, AS, A, A_SM, A_SK, !A_TRANS, MMA_BM, m0, k0, M, ke, tid);                \
        else if (in_)                                                                                  \
            MMA_TILE_COPY_INNER(bs, BS, B, B_SN, B_SK, B_TRANS, MMA_BN, n0, k0, tid);                  \
        else                                                                                           \
            MMA_TILE_COPY(bs, BS, B, B_SN, B_SK, B_TRANS, MMA_BN, n0, k0, N, ke, tid);                 \
    } while (0)
#define MMA_COPY_STAGE(as, bs, k0)                                                                     \
    do {                                                                                               \
        MMA_COPY_PART(as, bs, k0, 0);                                                                  \
        MMA_COPY_PART(as, bs, k0, 1);                                                                  \
    } while (0)
#endif /* MMA_COPY_STAGE */
#ifndef MMA_COPY_PART /* a loader with one stage copy (the convolution's): all of it with part 0 */
#define MMA_COPY_PART(as, bs, k0, part)                                                                \
    do {                                                                                               \
        if ((part) == 0)                                                                               \
            MMA_COPY_STAGE(as, bs, k0);                                                                \
    } while (0)
#endif

/* The fragments of k step kk (MMA_KSTEP deep) of the local tiles as, bs for this lane's warp (tile
 * corner wm0, wn0): af[i] of m-tile i, bf[j] of n-tile j. Inlined, and every index is a constant
 * after unrolling, so the arrays stay in registers. */
inline __attribute__((always_inline)) void mma_frags(uint af[MMA_TM][4], uint bf[MMA_TN][2], __local const MMA_ET* as,
                                                     __local const MMA_ET* bs, int kk, int wm0, int wn0, int lane) {
#if DATA_H != 0
    /* ldmatrix x4: lane 8 q + r gives row r of 8 x 8 matrix q. A: matrices (m 0-7, k 0-7),
     * (m 8-15, k 0-7), (m 0-7, k 8-15), (m 8-15, k 8-15) are registers 0-3; B: (n 0-7,
     * k 0-7), (n 0-7, k 8-15) are tile j's registers, (n 8-15, ...) tile j + 1's. */
    /* Byte addresses in the shared window, 32 bits: this lane's part once, each load's constant
     * part added last (AS and BS are linear), so it becomes the load's immediate offset. */
    const int lr = lane & 7, lq = lane >> 3;
#if A_TRANS
    const uint la = (uint)(ulong)as + MMA_ES * AS(wm0 + (lq & 1) * 8 + lr, (lq >> 1) * 8);
#else
    const uint la = (uint)(ulong)as + MMA_ES * AS(wm0 + (lq & 1) * 8, (lq >> 1) * 8 + lr);
#endif
#if B_TRANS
    const uint lb = (uint)(ulong)bs + MMA_ES * BS(wn0 + (lq >> 1) * 8, (lq & 1) * 8 + lr);
#else
    const uint lb = (uint)(ulong)bs + MMA_ES * BS(wn0 + (lq >> 1) * 8 + lr, (lq & 1) * 8);
#endif
#pragma unroll
    for (int i = 0; i < MMA_TM; ++i) {
#if A_TRANS
        MMA_LDMATRIX_X4(af[i], la + MMA_ES * AS(i * 16, kk));
#else
        MMA_LDMATRIX_X4_TRANS(af[i], la + MMA_ES * AS(i * 16, kk));
#endif
    }
#pragma unroll
    for (int j = 0; j < MMA_TN; j += 2) {
        uint r4[4];
#if B_TRANS
        MMA_LDMATRIX_X4_TRANS(r4, lb + MMA_ES * BS(j * 8, kk));
#else
        MMA_LDMATRIX_X4(r4, lb + MMA_ES * BS(j * 8, kk));
#endif
        bf[j][0] = r4[0];
        bf[j][1] = r4[1];
        bf[j + 1][0] = r4[2];
        bf[j + 1][1] = r4[3];
    }
#else /* TF32 */
    const int g = lane >> 2, t4 = lane & 3;
    const int kp = kk + 2 * t4; /* physical k of logical k = t4; kp + 1 holds t4 + 4 */
#if A_TRANS
#pragma unroll
    for (int i = 0; i < MMA_TM; ++i) {
        const float2 lo = *(__local const float2*)(as + AS(wm0 + i * 16 + g, kp));
        const float2 hi = *(__local const float2*)(as + AS(wm0 + i * 16 + g + 8, kp));
        af[i][0] = mma_tf32(lo.x);
        af[i][1] = mma_tf32(hi.x);
        af[i][2] = mma_tf32(lo.y);
        af[i][3] = mma_tf32(hi.y);
    }
#else
#pragma unroll
    for (int i = 0; i < MMA_TM; i += 2) {
        const float4 v0 = *(__local const float4*)(as + AS(wm0 + i * 16 + 4 * g, kp));
        const float4 v1 = *(__local const float4*)(as + AS(wm0 + i * 16 + 4 * g, kp + 1));
        af[i][0] = mma_tf32(v0.x);
        af[i][1] = mma_tf32(v0.y);
        af[i][2] = mma_tf32(v1.x);
        af[i][3] = mma_tf32(v1.y);
        af[i + 1][0] = mma_tf32(v0.z);
        af[i + 1][1] = mma_tf32(v0.w);
        af[i + 1][2] = mma_tf32(v1.z);
        af[i + 1][3] = mma_tf32(v1.w);
    }
#endif
#if B_TRANS
#pragma unroll
    for (int j = 0; j < MMA_TN; j += 4) {
        const float4 v0 = *(__local const float4*)(bs + BS(wn0 + j * 8 + 4 * g, kp));
        const float4 v1 = *(__local const float4*)(bs + BS(wn0 + j * 8 + 4 * g, kp + 1));
        bf[j][0] = mma_tf32(v0.x);
        bf[j][1] = mma_tf32(v1.x);
        bf[j + 1][0] = mma_tf32(v0.y);
        bf[j + 1][1] = mma_tf32(v1.y);
        bf[j + 2][0] = mma_tf32(v0.z);
        bf[j + 2][1] = mma_tf32(v1.z);
        bf[j + 3][0] = mma_tf32(v0.w);
        bf[j + 3][1] = mma_tf32(v1.w);
    }
#else
#pragma unroll
    for (int j = 0; j < MMA_TN; ++j) {
        const float2 v = *(__local const float2*)(bs + BS(wn0 + j * 8 + g, kp));
        bf[j][0] = mma_tf32(v.x);
        bf[j][1] = mma_tf32(v.y);
    }
#endif
#endif /* DATA_H != 0 */
}

#ifdef MMA_KERNEL_HEAD
MMA_KERNEL_HEAD {
#else
__kernel __attribute__((reqd_work_group_size(MMA_NT, 1, 1)))
void gemm_mma(int M, int N, int K, float alpha, float beta,
              __global const MMA_ET* A, ulong a_off, int lda, long a_stride,
              __global const MMA_ET* B, ulong b_off, int ldb, long b_stride,
              __global STORAGE_OF(C_HALF)* C, ulong c_off, int ldc, long c_stride, int ksplit, int nsplit,
              __global float* W EPI_PARAMS) {
#endif
    __local MMA_ET smem[MMA_SMEM_ELEMS] __attribute__((aligned(16)));
    const int tid = (int)get_local_id(0);
    const int lane = tid & 31, warp = tid >> 5;
    const int wm0 = (warp % MMA_WARPS_M) * MMA_WM, wn0 = (warp / MMA_WARPS_M) * MMA_WN;
    const int g = lane >> 2, t4 = lane & 3;
#ifdef MMA_BLOCK_SETUP
    MMA_BLOCK_SETUP();
#else
    GEMM_BLOCK_SETUP();
    const int m0 = (int)get_group_id(0) * MMA_BM, n0 = (int)get_group_id(1) * MMA_BN;
#endif
    const int ntiles = (ke - kb + MMA_BK - 1) / MMA_BK;

    /* Every loop over acc is unrolled: one index not known at compile time would put the whole
     * array in local (stack) memory. */
    float acc[MMA_TM][MMA_TN][4];
#pragma unroll
    for (int i = 0; i < MMA_TM; ++i)
#pragma unroll
        for (int j = 0; j < MMA_TN; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                acc[i][j][e] = 0.0f;

    /* Prologue: tiles 0 .. STAGES - 2 in flight (a group per tile, empty past the end). */
    for (int s = 0; s < MMA_STAGES - 1; ++s) {
        if (s < ntiles) {
            __local MMA_ET* as = smem + s * STAGE_ELEMS;
            __local MMA_ET* bs = as + A_TILE;
            const int k0 = kb + s * MMA_BK;
            MMA_COPY_STAGE(as, bs, k0);
        }
        MMA_COMMIT();
    }
    for (int t = 0; t < ntiles; ++t) {
        /* Tile t has landed (for every work-item after the barrier), and every warp is done
         * with tile t - 1, whose buffer the copies of tile tn take. */
        MMA_WAIT_PENDING();
        barrier(CLK_LOCAL_MEM_FENCE);
        const int tn = t + MMA_STAGES - 1;
        __local MMA_ET* const cas = smem + (tn % MMA_STAGES) * STAGE_ELEMS;
        __local const MMA_ET* const as = smem + (t % MMA_STAGES) * STAGE_ELEMS;
        /* The copies of tile tn go out after the first k steps' fragment loads (A's after the
         * first, B's after the second; both after the first where the tile is one k step deep),
         * so their address arithmetic and issue overlap products rather than delay the first. */
#pragma unroll
        for (int kk = 0; kk < MMA_BK; kk += MMA_KSTEP) {
            uint af[MMA_TM][4], bf[MMA_TN][2];
            mma_frags(af, bf, as, as + A_TILE, kk, wm0, wn0, lane);
            if (tn < ntiles && kk == 0)
                MMA_COPY_PART(cas, cas + A_TILE, kb + tn * MMA_BK, 0);
            if (tn < ntiles && kk == (MMA_BK > MMA_KSTEP ? MMA_KSTEP : 0))
                MMA_COPY_PART(cas, cas + A_TILE, kb + tn * MMA_BK, 1);
#pragma unroll
            for (int i = 0; i < MMA_TM; ++i)
#pragma unroll
                for (int j = 0; j < MMA_TN; ++j)
                    MMA_OP(acc[i][j], af[i], bf[j]);
        }
        MMA_COMMIT();
    }

    /* Accumulator (i, j, e) of this lane holds logical row g (+ 8 for e >= 2) of m-tile i and
     * logical column 2 t4 (+ 1 for odd e) of n-tile j; PHYS_M / PHYS_N give their places in the
     * block (the fragment permutations above). */
#ifndef MMA_STORE
    GEMM_SPLIT_W();
#endif
#if MMA_EPI_STAGED
    /* Stored straight from the fragments, a warp's store would put one element in each of up to
     * 32 lines (rows 2 AG or columns BG apart). Instead each warp stages MMA_AG m-tiles at a time
     * (MMA_EPI_ROWS consecutive physical rows by its MMA_WN columns) in its own part of local
     * memory and stores the slice with consecutive lanes on consecutive elements along C's unit
     * stride (MMA_EPI_MFAST): whole 128-byte lines a store. */
    __local float* const ep = (__local float*)smem + warp * (MMA_WN * MMA_EPI_LD);
    barrier(CLK_LOCAL_MEM_FENCE); /* every warp is done with the pipeline's tiles */
#pragma unroll
    for (int ig = 0; ig < MMA_TM / MMA_AG; ++ig) {
#pragma unroll
        for (int ii = 0; ii < MMA_AG; ++ii)
#pragma unroll
            for (int j = 0; j < MMA_TN; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    const int i = ig * MMA_AG + ii;
                    const int pr = PHYS_M(i, g + (e >> 1) * 8) - ig * MMA_EPI_ROWS;
                    ep[PHYS_N(j, 2 * t4 + (e & 1)) * MMA_EPI_LD + pr] = acc[i][j][e];
                }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int idx = lane; idx < MMA_EPI_ROWS * MMA_WN; idx += 32) {
            const int pr = MMA_EPI_MFAST ? idx % MMA_EPI_ROWS : idx / MMA_WN;
            const int pc = MMA_EPI_MFAST ? idx / MMA_EPI_ROWS : idx % MMA_WN;
            MMA_EPI_PUT(ep[pc * MMA_EPI_LD + pr], m0 + wm0 + ig * MMA_EPI_ROWS + pr, n0 + wn0 + pc);
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* the slice is stored before the next overwrites it */
    }
#else
    /* The fragments' own rows (columns) are consecutive along C's unit stride: 8 lanes fill a
     * 32-byte sector, stored straight. */
#pragma unroll
    for (int i = 0; i < MMA_TM; ++i)
#pragma unroll
        for (int j = 0; j < MMA_TN; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                MMA_EPI_PUT(acc[i][j][e], m0 + wm0 + PHYS_M(i, g + (e >> 1) * 8), n0 + wn0 + PHYS_N(j, 2 * t4 + (e & 1)));
            }
#endif
}
