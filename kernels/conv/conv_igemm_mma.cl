/*
 * conv_igemm_mma.cl: implicit-GEMM 2-d convolution on NVIDIA tensor cores (FP32 accumulation:
 * TF32 mma.sync for FLOAT data, FP16 / BF16 m16n8k16 with -DDATA_HALF=1 / -DDATA_BF16=1), forward, backward-data and
 * backward-filter: the tensor-core GEMM family's body (gemm/gemm_mma.cl: cp.async pipeline, warp
 * tiles, fragments) with the convolution's operand loaders and output maps
 * (conv/conv_igemm_mma.h, which documents the GEMMs, the k order and the options). The operands
 * are read through index maps straight into the local tiles; only backward-filter's split-k
 * partial sums (Part) need memory besides the tensors.
 *
 * Arguments are conv/conv_igemm.cl's, so one host routine sets both kernels'; the tensors are
 * MMA_ET (floats, or raw 16-bit patterns for HALF and BFLOAT16: no cl_khr_fp16 needed), the partial sums
 * float. NVIDIA compute capability >= 8.0 only, under TENSOR_OP_MATH
 * (src/conv/gemm/conv_igemm_mma.c). Forward takes the fused epilogue of common/epilogue.h
 * (-DEPI_ACT=...) in its store, as conv_igemm.cl.
 */
#include "common/helpers.h"
#include "common/gemm_tile.h"
#include "conv/conv_igemm_mma.h"

#define MMA_KERNEL_HEAD                                                                             \
    __kernel __attribute__((reqd_work_group_size(MMA_NT, 1, 1))) void conv_igemm_mma(               \
        int M, int N, int KR, float alpha, float beta, __global MMA_ET* X, ulong x_off, __global MMA_ET* Wt, \
        ulong w_off, __global MMA_ET* Y, ulong y_off, CONV_GEOMETRY_ARGS, CONV_DIVISOR_ARGS, int groups, \
        int ksplit, int nsplit, __global float* Part, ulong part_off EPI_PARAMS)

#include "gemm/gemm_mma.cl"
