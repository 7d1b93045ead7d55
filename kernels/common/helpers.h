/*
 * helpers.h: storage types and loads/stores shared by every cldnn kernel.
 *
 * Build options
 *   -DDATA_HALF=1   tensors hold IEEE half values (storage only): loads widen to float with
 *                   vload_half, stores round to nearest even with vstore_half_rte. Works without
 *                   cl_khr_fp16. Default: float storage.
 *   -DDATA_BF16=1   tensors hold bfloat16 values (storage only, as ushort bits): a load is the
 *                   bits shifted into a float's high half, a store rounds to nearest even
 *                   (NaN stays NaN). Needs no extension.
 *   -DIDX_T=uint    index type for element arithmetic; the host chooses uint when every view
 *                   spans fewer than 2^32 elements, ulong otherwise. Default ulong.
 * Arithmetic is always float (accumulation included).
 *
 * Kernels whose operands differ in storage (half tensors beside a float workspace of partial
 * sums) name each operand's type with a flag H, 0 for float, 1 for half and 2 for bfloat16:
 * STORAGE_OF(H), LOAD_OF(H, p, i), STORE_OF(H, p, i, v). DATA_H is the tensors' flag (DATA_HALF
 * or DATA_BF16), and STORAGE_T, LOAD and STORE are the *_OF forms with H = DATA_H. Code that
 * needs half itself (vload_halfN, FP16 mma) tests DATA_H == 1.
 */
#ifndef CLDNN_HELPERS_H
#define CLDNN_HELPERS_H

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#ifndef IDX_T
#define IDX_T ulong
#endif

/* UNROLL_GPU: a full unroll that GPU compilers need where a loop indexes a private array (acc
** tiles): kept rolled, NVIDIA's compiler moves the array to local memory (stack). CPU compilers
** keep such arrays in registers or cache either way, and PoCL's compile time grows several-fold on
** the unrolled tile stores, so the host defines CLDNN_CPU_DEVICE on CPU devices (cache.c). */
#if defined(CLDNN_CPU_DEVICE) && CLDNN_CPU_DEVICE
#define UNROLL_GPU
#else
#define UNROLL_GPU _Pragma("unroll")
#endif

#define STORAGE_OF_0 float
#define STORAGE_OF_1 half
#define STORAGE_OF(H) CAT(STORAGE_OF_, H)
#define LOAD_OF_0(p, i) ((p)[(i)])
#define LOAD_OF_1(p, i) vload_half((i), (p))
#define LOAD_OF(H, p, i) CAT(LOAD_OF_, H)(p, i)
#define STORE_OF_0(p, i, v) ((p)[(i)] = (v))
#define STORE_OF_1(p, i, v) vstore_half_rte((v), (i), (p))
#define STORE_OF(H, p, i, v) CAT(STORE_OF_, H)(p, i, v)

/* bfloat16 is a float's high 16 bits: widening is exact; narrowing adds half an ulp of the kept
 * part, ties to even, except for NaN, which keeps a quiet payload rather than carrying into Inf. */
#define STORAGE_OF_2 ushort
#define LOAD_OF_2(p, i) as_float((uint)(p)[(i)] << 16)
#define STORE_OF_2(p, i, v) ((p)[(i)] = cldnn_float_to_bf16(v))
#ifdef __OPENCL_VERSION__ /* host C emulations of kernel code include this file too */
inline ushort cldnn_float_to_bf16(float f) {
    uint u = as_uint(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (ushort)((u >> 16) | 0x40u);
    return (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
#endif

/* N-wide forms (N = 2, 4, 8) for vector paths: VLOADN_OF(H, N, p, i) is elements N*i .. N*i+N-1
 * as a floatN (every element exact), VSTOREN_OF(H, N, p, i, v) stores v there, each element
 * rounded once as STORE_OF rounds it. A bfloat16 vector is a ushortN load widened by shifting. */
#define VLOADN_OF_0(N, p, i) CAT(vload, N)((i), (p))
#define VLOADN_OF_1(N, p, i) CAT(vload_half, N)((i), (p))
#define VLOADN_OF_2(N, p, i) CAT(as_float, N)(CAT(convert_uint, N)(CAT(vload, N)((i), (p))) << 16)
#define VLOADN_OF(H, N, p, i) CAT(VLOADN_OF_, H)(N, p, i)
#define VSTOREN_OF_0(N, p, i, v) CAT(vstore, N)((v), (i), (p))
#define VSTOREN_OF_1(N, p, i, v) CAT(CAT(vstore_half, N), _rte)((v), (i), (p))
#define VSTOREN_OF_2(N, p, i, v) CAT(vstore, N)(CAT(cldnn_float_to_bf16_, N)(v), (i), (p))
#define VSTOREN_OF(H, N, p, i, v) CAT(VSTOREN_OF_, H)(N, p, i, v)
/* The same in global memory where element N*i is N-element aligned (the caller's host guarantees
 * it): one vector access for float and bfloat16. vloadN promises only element alignment, and
 * NVIDIA's compiler issues N scalar accesses for it; a warp's float4 loads then use 8 bytes of
 * each 32-byte sector per instruction (ncu on norm_fwd, H200: L1 90 % busy, 0.69 of the copy
 * bandwidth). Halves keep vload_halfN: without cl_khr_fp16 there is no half vector to load. */
#define VLOADAN_OF_0(N, p, i) (((__global const CAT(float, N)*)(p))[(i)])
#define VLOADAN_OF_1(N, p, i) VLOADN_OF_1(N, p, i)
#define VLOADAN_OF_2(N, p, i) CAT(as_float, N)(CAT(convert_uint, N)(((__global const CAT(ushort, N)*)(p))[(i)]) << 16)
#define VLOADAN_OF(H, N, p, i) CAT(VLOADAN_OF_, H)(N, p, i)
#define VSTOREAN_OF_0(N, p, i, v) (((__global CAT(float, N)*)(p))[(i)] = (v))
#define VSTOREAN_OF_1(N, p, i, v) VSTOREN_OF_1(N, p, i, v)
#define VSTOREAN_OF_2(N, p, i, v) (((__global CAT(ushort, N)*)(p))[(i)] = CAT(cldnn_float_to_bf16_, N)(v))
#define VSTOREAN_OF(H, N, p, i, v) CAT(VSTOREAN_OF_, H)(N, p, i, v)
#ifdef __OPENCL_VERSION__
/* cldnn_float_to_bf16 per component, branch-free (select on the NaN lanes). */
#define CLDNN_BF16_VEC(N)                                                                              \
    inline CAT(ushort, N) CAT(cldnn_float_to_bf16_, N)(CAT(float, N) f) {                             \
        const CAT(uint, N) u = CAT(as_uint, N)(f);                                                    \
        const CAT(uint, N) r = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;                                \
        return CAT(convert_ushort, N)(select(r, (u >> 16) | 0x40u, (u & 0x7fffffffu) > 0x7f800000u)); \
    }
CLDNN_BF16_VEC(2)
CLDNN_BF16_VEC(4)
CLDNN_BF16_VEC(8)
#undef CLDNN_BF16_VEC
#endif

#if defined(DATA_BF16) && DATA_BF16
#define DATA_H 2
#elif defined(DATA_HALF) && DATA_HALF
#define DATA_H 1
#else
#define DATA_H 0
#endif
#define STORAGE_T STORAGE_OF(DATA_H)
#define LOAD(p, i) LOAD_OF(DATA_H, p, i)
#define STORE(p, i, v) STORE_OF(DATA_H, p, i, v)

#endif
