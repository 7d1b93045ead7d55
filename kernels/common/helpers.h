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
 */
#ifndef CLDNN_HELPERS_H
#define CLDNN_HELPERS_H

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#ifndef IDX_T
#define IDX_T ulong
#endif

#if defined(DATA_HALF) && DATA_HALF
#define STORAGE_T half
#define LOAD(p, i) vload_half((i), (p))
#define STORE(p, i, v) vstore_half_rte((v), (i), (p))
#else
#define STORAGE_T float
#define LOAD(p, i) ((p)[(i)])
#define STORE(p, i, v) ((p)[(i)] = (v))
#endif

#endif
