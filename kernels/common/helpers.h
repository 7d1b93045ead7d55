/*
 * helpers.h: storage types and loads/stores shared by every cldnn kernel.
 *
 * Build options
 *   -DDATA_HALF=1   tensors hold IEEE half values (storage only): loads widen to float with
 *                   vload_half, stores round to nearest even with vstore_half_rte. Works without
 *                   cl_khr_fp16. Default: float storage.
 *   -DIDX_T=uint    index type for element arithmetic; the host chooses uint when every view
 *                   spans fewer than 2^32 elements, ulong otherwise. Default ulong.
 * Arithmetic is always float (accumulation included).
 *
 * Kernels whose operands differ in storage (half tensors beside a float workspace of partial
 * sums) name each operand's type with a flag H, 1 for half and 0 for float: STORAGE_OF(H),
 * LOAD_OF(H, p, i), STORE_OF(H, p, i, v). DATA_H is DATA_HALF as such a flag, and STORAGE_T,
 * LOAD and STORE are the *_OF forms with H = DATA_H.
 */
#ifndef CLDNN_HELPERS_H
#define CLDNN_HELPERS_H

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#ifndef IDX_T
#define IDX_T ulong
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

#if defined(DATA_HALF) && DATA_HALF
#define DATA_H 1
#else
#define DATA_H 0
#endif
#define STORAGE_T STORAGE_OF(DATA_H)
#define LOAD(p, i) LOAD_OF(DATA_H, p, i)
#define STORE(p, i, v) STORE_OF(DATA_H, p, i, v)

#endif
