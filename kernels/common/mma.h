/*
 * mma.h: the NVIDIA tensor-core instructions that cldnn's tensor-core kernels share, as inline
 * PTX (NVIDIA's OpenCL compiler passes asm through to ptxas). Compute capability 8.0 or higher;
 * the host builds a file that includes this only for such devices.
 *
 * Fragments of mma.sync m16n8k*, lane = 4 g + t (g = lane / 4, t = lane % 4):
 *   accumulator (m16 x n8, 4 floats): [0], [1] row g, columns 2t and 2t + 1; [2], [3] row g + 8;
 *   A of m16n8k16 (4 registers of two 16-bit values, the lower k in the low half): [0] row g,
 *   k 2t..2t+1; [1] row g + 8, same k; [2] row g, k 2t+8..2t+9; [3] row g + 8, k 2t+8..2t+9;
 *   B of m16n8k16 (2 registers): [0] column g, k 2t..2t+1; [1] column g, k 2t+8..2t+9.
 * So two adjacent accumulator tiles of a product are, packed to 16 bits, the A fragment of the
 * next product (FlashAttention's P V without a trip through memory).
 */
#ifndef CLDNN_MMA_H
#define CLDNN_MMA_H

#define MMA_STR2(x) #x
#define MMA_STR(x) MMA_STR2(x)

/* x rounded to TF32 (nearest, ties away from zero, as cuBLAS rounds), as the bits of a float: what
 * the tensor core would otherwise truncate. */
inline uint mma_cvt_tf32(float x) {
    uint r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

/* acc (m16 x n8, 4 floats per lane) += a (m16 x k8, row) * b (k8 x n8, col), TF32. */
#define MMA_M16N8K8(acc, a, b)                                                                          \
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "     \
        "{%8, %9}, {%0, %1, %2, %3};\n"                                                                \
        : "+f"((acc)[0]), "+f"((acc)[1]), "+f"((acc)[2]), "+f"((acc)[3])                              \
        : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]))

/* acc (m16 x n8, 4 floats per lane) += a (m16 x k16, row) * b (k16 x n8, col): FP16 inputs, four
 * and two registers of packed halves, FP32 accumulators. */
#define MMA_M16N8K16(acc, a, b)                                                                         \
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "      \
        "{%8, %9}, {%0, %1, %2, %3};\n"                                                                \
        : "+f"((acc)[0]), "+f"((acc)[1]), "+f"((acc)[2]), "+f"((acc)[3])                              \
        : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]))
/* The same with BF16 inputs: m16n8k16's fragment layout does not depend on the 16-bit type. */
#define MMA_M16N8K16_BF16(acc, a, b)                                                                    \
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "    \
        "{%8, %9}, {%0, %1, %2, %3};\n"                                                                \
        : "+f"((acc)[0]), "+f"((acc)[1]), "+f"((acc)[2]), "+f"((acc)[3])                              \
        : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]))

/* Ends the group of cp.async copies issued so far (wait_group N waits until at most N groups
 * are still in flight). */
#define MMA_COMMIT() asm volatile("cp.async.commit_group;\n" ::: "memory")
#define MMA_WAIT_GROUP(n) asm volatile("cp.async.wait_group " MMA_STR(n) ";\n" ::: "memory")

/* A cp.async of n (16, 8 or 4) bytes to shared address dst (a 32-bit offset in the shared window,
 * which is what a __local pointer holds as an integer) of which the first `bytes` are read from
 * src (aligned to n) and the rest zero-filled; cache "cg" (L2 only, 16 bytes) or "ca". */
#define MMA_CP_SH(n, cache, dst, src, bytes)                                                            \
    asm volatile("cp.async." cache ".shared.global [%0], [%1], " #n ", %2;\n" ::"r"(dst), "l"(src),      \
                 "r"(bytes)                                                                            \
                 : "memory")
/* The 16-byte form with a __local pointer for dst. */
#define MMA_CP16(dst, src, bytes) MMA_CP_SH(16, "cg", (uint)(ulong)(dst), src, bytes)

/* The value of x in the lane whose index is this lane's xor m (all 32 lanes take part). */
inline float mma_shfl_xor(float x, int m) {
    uint y;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;\n" : "=r"(y) : "r"(as_uint(x)), "r"(m));
    return as_float(y);
}

/* ldmatrix: four 8 x 8 matrices of 16-bit values from local memory, lanes 8i..8i+7 giving the
 * addresses of matrix i's rows (16-byte aligned); out[i] is this lane's fragment of matrix i:
 * row g, elements 2t and 2t + 1 (x4), or with .trans those of the transpose (elements [2t][g] and
 * [2t + 1][g] of the stored matrix). */
#define MMA_LDMATRIX_X4(out, addr)                                                                      \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"                  \
                 : "=r"((out)[0]), "=r"((out)[1]), "=r"((out)[2]), "=r"((out)[3])                      \
                 : "r"((uint)(ulong)(addr)))
#define MMA_LDMATRIX_X4_TRANS(out, addr)                                                                \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"            \
                 : "=r"((out)[0]), "=r"((out)[1]), "=r"((out)[2]), "=r"((out)[3])                      \
                 : "r"((uint)(ulong)(addr)))

#endif
