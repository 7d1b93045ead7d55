/*
 * gemm_operands.h: the storage of a GEMM kernel's operands (gemm_tiled's argument list: gemm.cl,
 * gemm_cpu.cl) and the fused epilogue that C's storage implies. A_HALF, B_HALF, C_HALF are
 * storage flags (common/helpers.h: 0 float, 1 half, 2 bfloat16), each defaulting to the tensors'
 * DATA_H; internal callers whose C is a float workspace of partial sums pass -DC_HALF=0. The
 * epilogue's bias and z (common/epilogue.h) have C's storage.
 */
#ifndef CLDNN_GEMM_OPERANDS_H
#define CLDNN_GEMM_OPERANDS_H

#include "common/helpers.h"

#ifndef A_HALF
#define A_HALF DATA_H
#endif
#ifndef B_HALF
#define B_HALF DATA_H
#endif
#ifndef C_HALF
#define C_HALF DATA_H
#endif
#define EPI_H C_HALF
#include "common/epilogue.h"

#endif
