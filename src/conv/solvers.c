/*
** solvers.c: the convolution family's solver tables, one per direction, in preference order.
**
** Get_v7 lists a direction's algorithms in the order their first applicable solver appears
** here; running an algorithm runs its first applicable solver. So the order is the heuristic:
** a 1x1 layer is a plain GEMM first; one-channel-per-group layers go direct; 3x3 stride-1 layers
** of 16+ channels on GPUs take Winograd F(4x4) non-fused (under TENSOR_OP_MATH its products run on
** TF32 tensor cores: on the H100 Find chose it for 48 of the 50 such ResNet-50 / VGG-16 forward and
** backward-data problems, the tensor-core implicit GEMM for 2 by 4 %, and for all 26 backward-filter
** ones, perf/results/conv-tf32-h100.md); then, under TENSOR_OP_MATH on devices with TF32 tensor
** cores, the tensor-core implicit GEMM (8+ channels); then the fused Winograd F(4x4) on GPUs
** (forward and backward-data; slower than the non-fused one on the H100, perf/results/conv-h100.md);
** everything else is implicit GEMM (no workspace) before explicit im2col + GEMM, then Winograd
** non-fused and fused (F(4x4), else F(2x2) under FMA_MATH).
*/
#include "conv/conv.h"

#define GEMM_PARAMS sizeof(cldnn_gemm_params)
#define MMA_PARAMS sizeof(cldnn_gemm_mma_params)
#define WINO_PARAMS sizeof(cldnn_wino_params)

const cldnn_solver cldnn_conv_fwd_solvers[] = {
    {"conv_fwd_gemm_1x1", CLDNN_CONVOLUTION_FWD_ALGO_GEMM, cldnn_conv_gemm1x1_applicable, NULL, NULL, 0,
     cldnn_conv_gemm1x1_run},
    {"conv_fwd_direct", CLDNN_CONVOLUTION_FWD_ALGO_DIRECT, cldnn_conv_direct_applicable, cldnn_conv_direct_workspace,
     NULL, 0,
     cldnn_conv_direct_run},
    {"conv_fwd_winograd_f4x4_gpu", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, cldnn_conv_wino4_preferred,
     cldnn_conv_wino4_workspace, NULL, 0, cldnn_conv_wino4_run},
    {"conv_fwd_igemm_mma", CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, cldnn_conv_igemm_mma_applicable,
     cldnn_conv_igemm_mma_workspace, cldnn_conv_igemm_mma_defaults, MMA_PARAMS, cldnn_conv_igemm_mma_run},
    {"conv_fwd_winograd_fused_f4x4_gpu", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, cldnn_conv_winof4_preferred,
     cldnn_conv_winof4_workspace, cldnn_conv_winof4_defaults, WINO_PARAMS, cldnn_conv_winof4_run},
    {"conv_fwd_igemm", CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, cldnn_conv_igemm_applicable,
     cldnn_conv_igemm_workspace, cldnn_conv_igemm_defaults, GEMM_PARAMS, cldnn_conv_igemm_run},
    {"conv_fwd_im2col_gemm", CLDNN_CONVOLUTION_FWD_ALGO_GEMM, cldnn_conv_im2col_applicable,
     cldnn_conv_im2col_workspace, NULL, 0, cldnn_conv_im2col_run},
    {"conv_fwd_winograd_f4x4", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, cldnn_conv_wino4_applicable,
     cldnn_conv_wino4_workspace, NULL, 0, cldnn_conv_wino4_run},
    {"conv_fwd_winograd_f2x2", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, cldnn_conv_wino2_applicable,
     cldnn_conv_wino2_workspace, NULL, 0, cldnn_conv_wino2_run},
    {"conv_fwd_winograd_fused_f4x4", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, cldnn_conv_winof4_applicable,
     cldnn_conv_winof4_workspace, cldnn_conv_winof4_defaults, WINO_PARAMS, cldnn_conv_winof4_run},
    {"conv_fwd_winograd_fused_f2x2", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, cldnn_conv_winof2_applicable,
     cldnn_conv_winof2_workspace, cldnn_conv_winof2_defaults, WINO_PARAMS, cldnn_conv_winof2_run},
};
const size_t cldnn_conv_fwd_solver_count = sizeof cldnn_conv_fwd_solvers / sizeof cldnn_conv_fwd_solvers[0];

const cldnn_solver cldnn_conv_bwd_data_solvers[] = {
    {"conv_bwd_data_gemm_1x1", CLDNN_CONVOLUTION_BWD_DATA_ALGO_0, cldnn_conv_gemm1x1_applicable, NULL, NULL, 0,
     cldnn_conv_gemm1x1_run},
    {"conv_bwd_data_direct", CLDNN_CONVOLUTION_BWD_DATA_ALGO_1, cldnn_conv_direct_applicable,
     cldnn_conv_direct_workspace, NULL, 0,
     cldnn_conv_direct_run},
    /* C/G < 16 (a 3-channel stem): the implicit GEMM's N = C/G leaves most of each tile idle
    ** (ResNet-50 conv1 on the H100: 0.6 TFLOP/s against 9.3 for GEMM + col2im). */
    {"conv_bwd_data_gemm_col2im_narrow", CLDNN_CONVOLUTION_BWD_DATA_ALGO_0, cldnn_conv_im2col_narrow_applicable,
     cldnn_conv_im2col_workspace, NULL, 0, cldnn_conv_im2col_run},
    /* Stride above 1 on GPUs: the implicit GEMMs' taps mostly miss (cldnn_conv_im2col_strided_applicable). */
    {"conv_bwd_data_gemm_col2im_strided", CLDNN_CONVOLUTION_BWD_DATA_ALGO_0, cldnn_conv_im2col_strided_applicable,
     cldnn_conv_im2col_workspace, NULL, 0, cldnn_conv_im2col_run},
    {"conv_bwd_data_winograd_f4x4_gpu", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED,
     cldnn_conv_wino4_preferred, cldnn_conv_wino4_workspace, NULL, 0, cldnn_conv_wino4_run},
    {"conv_bwd_data_igemm_mma", CLDNN_CONVOLUTION_BWD_DATA_ALGO_1, cldnn_conv_igemm_mma_applicable,
     cldnn_conv_igemm_mma_workspace, cldnn_conv_igemm_mma_defaults, MMA_PARAMS, cldnn_conv_igemm_mma_run},
    {"conv_bwd_data_winograd_fused_f4x4_gpu", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, cldnn_conv_winof4_preferred,
     cldnn_conv_winof4_workspace, cldnn_conv_winof4_defaults, WINO_PARAMS, cldnn_conv_winof4_run},
    {"conv_bwd_data_igemm", CLDNN_CONVOLUTION_BWD_DATA_ALGO_1, cldnn_conv_igemm_applicable,
     cldnn_conv_igemm_workspace, cldnn_conv_igemm_defaults, GEMM_PARAMS, cldnn_conv_igemm_run},
    {"conv_bwd_data_gemm_col2im", CLDNN_CONVOLUTION_BWD_DATA_ALGO_0, cldnn_conv_im2col_applicable,
     cldnn_conv_im2col_workspace, NULL, 0, cldnn_conv_im2col_run},
    {"conv_bwd_data_winograd_f4x4", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED, cldnn_conv_wino4_applicable,
     cldnn_conv_wino4_workspace, NULL, 0, cldnn_conv_wino4_run},
    {"conv_bwd_data_winograd_f2x2", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED, cldnn_conv_wino2_applicable,
     cldnn_conv_wino2_workspace, NULL, 0, cldnn_conv_wino2_run},
    {"conv_bwd_data_winograd_fused_f4x4", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, cldnn_conv_winof4_applicable,
     cldnn_conv_winof4_workspace, cldnn_conv_winof4_defaults, WINO_PARAMS, cldnn_conv_winof4_run},
    {"conv_bwd_data_winograd_fused_f2x2", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, cldnn_conv_winof2_applicable,
     cldnn_conv_winof2_workspace, cldnn_conv_winof2_defaults, WINO_PARAMS, cldnn_conv_winof2_run},
};
const size_t cldnn_conv_bwd_data_solver_count =
    sizeof cldnn_conv_bwd_data_solvers / sizeof cldnn_conv_bwd_data_solvers[0];

const cldnn_solver cldnn_conv_bwd_filter_solvers[] = {
    {"conv_bwd_filter_gemm_1x1", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_0, cldnn_conv_gemm1x1_applicable,
     cldnn_conv_gemm1x1_workspace, NULL, 0,
     cldnn_conv_gemm1x1_run},
    {"conv_bwd_filter_direct", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, cldnn_conv_direct_applicable,
     cldnn_conv_direct_workspace, NULL, 0, cldnn_conv_direct_run},
    {"conv_bwd_filter_winograd_f4x4_gpu", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED,
     cldnn_conv_wino4_preferred, cldnn_conv_wino4_workspace, NULL, 0, cldnn_conv_wino4_run},
    {"conv_bwd_filter_igemm_mma", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, cldnn_conv_igemm_mma_applicable,
     cldnn_conv_igemm_mma_workspace, cldnn_conv_igemm_mma_defaults, MMA_PARAMS, cldnn_conv_igemm_mma_run},
    {"conv_bwd_filter_igemm", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1, cldnn_conv_igemm_applicable,
     cldnn_conv_igemm_workspace, cldnn_conv_igemm_defaults, GEMM_PARAMS, cldnn_conv_igemm_run},
    {"conv_bwd_filter_im2col_gemm", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_0, cldnn_conv_im2col_applicable,
     cldnn_conv_im2col_workspace, NULL, 0, cldnn_conv_im2col_run},
    {"conv_bwd_filter_winograd_f4x4", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED,
     cldnn_conv_wino4_applicable, cldnn_conv_wino4_workspace, NULL, 0, cldnn_conv_wino4_run},
    {"conv_bwd_filter_winograd_f2x2", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED,
     cldnn_conv_wino2_applicable, cldnn_conv_wino2_workspace, NULL, 0, cldnn_conv_wino2_run},
};
const size_t cldnn_conv_bwd_filter_solver_count =
    sizeof cldnn_conv_bwd_filter_solvers / sizeof cldnn_conv_bwd_filter_solvers[0];
