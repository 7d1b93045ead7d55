/*
** solvers.c: the convolution family's solver tables, one per direction.
**
** The heuristic order is each solver's rank (tens, in table order), moved up where a promotion
** holds; Get_v7 lists a direction's algorithms where their first solver stands, and running an
** algorithm runs that solver. A 1x1 layer is a plain GEMM first; one-channel-per-group layers go
** direct; 3x3 stride-1 layers of 16+ channels on GPUs take Winograd F(4x4) non-fused (under
** TENSOR_OP_MATH its products run on TF32 tensor cores: on the H100 Find chose it for 48 of the 50
** such ResNet-50 / VGG-16 forward and backward-data problems, the tensor-core implicit GEMM for 2
** by 4 %, and for all 26 backward-filter ones, perf/results/conv-tf32-h100.md); then, under
** TENSOR_OP_MATH on devices with TF32 tensor cores, the tensor-core implicit GEMM (8+ channels);
** then the fused Winograd F(4x4) on GPUs (forward and backward-data; slower than the non-fused one
** on the H100, perf/results/conv-h100.md); everything else is implicit GEMM (no workspace) before
** explicit im2col + GEMM, then Winograd non-fused and fused (F(4x4), else F(2x2) under FMA_MATH).
** Backward-data's GEMM + col2im ranks before the implicit GEMMs on narrow (C/G < 16) layers and,
** on GPUs, on NCHW layers at a stride above 1 (cldnn_conv_col2im_narrow, _strided).
**
** A promoted solver's find-db records keep the name of the table row it had in earlier tables
** ("conv_fwd_winograd_f4x4_gpu"), so shipped and users' find-dbs stay valid.
*/
#include "conv/conv.h"

#define DET CLDNN_SOLVER_DETERMINISTIC
#define GEMM_MATH (CLDNN_SOLVER_DETERMINISTIC | CLDNN_SOLVER_GEMM_MATH)
#define TENSOR_OPS (CLDNN_SOLVER_DETERMINISTIC | CLDNN_SOLVER_TENSOR_OPS)

/* Rows common to every direction: d is the direction in the name, a its algorithm enum value. */
#define GEMM_1X1(d, a, ws)                                                                        \
    {.name = "conv_" d "_gemm_1x1", .algo = a, .applicable = cldnn_conv_gemm1x1_applicable,     \
     .workspace = ws, .run = cldnn_conv_gemm1x1_run, .flags = GEMM_MATH, .rank = 10}
#define DIRECT(d, a)                                                                              \
    {.name = "conv_" d "_direct", .algo = a, .applicable = cldnn_conv_direct_applicable,        \
     .workspace = cldnn_conv_direct_workspace, .run = cldnn_conv_direct_run, .flags = DET, .rank = 20}
#define IGEMM_MMA(d, a)                                                                           \
    {.name = "conv_" d "_igemm_mma", .algo = a, .applicable = cldnn_conv_igemm_mma_applicable,  \
     .workspace = cldnn_conv_igemm_mma_workspace, .default_params = cldnn_conv_igemm_mma_defaults, \
     .params_size = sizeof(cldnn_gemm_mma_params), .run = cldnn_conv_igemm_mma_run, .flags = TENSOR_OPS, \
     .rank = 40, .space = &cldnn_conv_igemm_mma_space}
#define IGEMM(d, a)                                                                               \
    {.name = "conv_" d "_igemm", .algo = a, .applicable = cldnn_conv_igemm_applicable,          \
     .workspace = cldnn_conv_igemm_workspace, .default_params = cldnn_conv_igemm_defaults,         \
     .params_size = sizeof(cldnn_gemm_params), .run = cldnn_conv_igemm_run, .flags = DET, .rank = 60, \
     .space = &cldnn_conv_igemm_space}
#define WINO4(d, a)                                                                               \
    {.name = "conv_" d "_winograd_f4x4", .algo = a, .applicable = cldnn_conv_wino4_applicable,  \
     .workspace = cldnn_conv_wino4_workspace, .run = cldnn_conv_wino4_run, .flags = GEMM_MATH,     \
     .rank = 80, .promote = {{cldnn_conv_wino4_preferred, 30, "conv_" d "_winograd_f4x4_gpu"}}}
#define WINO2(d, a)                                                                               \
    {.name = "conv_" d "_winograd_f2x2", .algo = a, .applicable = cldnn_conv_wino2_applicable,  \
     .workspace = cldnn_conv_wino2_workspace, .run = cldnn_conv_wino2_run, .flags = GEMM_MATH,     \
     .rank = 90}
#define WINOF4(d, a)                                                                              \
    {.name = "conv_" d "_winograd_fused_f4x4", .algo = a, .applicable = cldnn_conv_winof4_applicable, \
     .workspace = cldnn_conv_winof4_workspace, .default_params = cldnn_conv_winof4_defaults,       \
     .params_size = sizeof(cldnn_wino_params), .run = cldnn_conv_winof4_run, .flags = DET, .rank = 100, \
     .promote = {{cldnn_conv_wino4_preferred, 50, "conv_" d "_winograd_fused_f4x4_gpu"}},          \
     .space = &cldnn_conv_winof4_space}
#define WINOF2(d, a)                                                                              \
    {.name = "conv_" d "_winograd_fused_f2x2", .algo = a, .applicable = cldnn_conv_winof2_applicable, \
     .workspace = cldnn_conv_winof2_workspace, .default_params = cldnn_conv_winof2_defaults,       \
     .params_size = sizeof(cldnn_wino_params), .run = cldnn_conv_winof2_run, .flags = DET, .rank = 110, \
     .space = &cldnn_conv_winof2_space}

const cldnn_solver cldnn_conv_fwd_solvers[] = {
    GEMM_1X1("fwd", CLDNN_CONVOLUTION_FWD_ALGO_GEMM, NULL),
    DIRECT("fwd", CLDNN_CONVOLUTION_FWD_ALGO_DIRECT),
    IGEMM_MMA("fwd", CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM),
    IGEMM("fwd", CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM),
    {.name = "conv_fwd_im2col_gemm", .algo = CLDNN_CONVOLUTION_FWD_ALGO_GEMM,
     .applicable = cldnn_conv_im2col_applicable, .workspace = cldnn_conv_im2col_workspace,
     .run = cldnn_conv_im2col_run, .flags = GEMM_MATH, .rank = 70},
    WINO4("fwd", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED),
    WINO2("fwd", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED),
    WINOF4("fwd", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD),
    WINOF2("fwd", CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD),
};
const size_t cldnn_conv_fwd_solver_count = sizeof cldnn_conv_fwd_solvers / sizeof cldnn_conv_fwd_solvers[0];

const cldnn_solver cldnn_conv_bwd_data_solvers[] = {
    GEMM_1X1("bwd_data", CLDNN_CONVOLUTION_BWD_DATA_ALGO_0, NULL),
    DIRECT("bwd_data", CLDNN_CONVOLUTION_BWD_DATA_ALGO_1),
    IGEMM_MMA("bwd_data", CLDNN_CONVOLUTION_BWD_DATA_ALGO_1),
    IGEMM("bwd_data", CLDNN_CONVOLUTION_BWD_DATA_ALGO_1),
    /* C/G < 16 (a 3-channel stem): the implicit GEMM's N = C/G leaves most of each tile idle
    ** (ResNet-50 conv1 on the H100: 0.6 TFLOP/s against 9.3 for GEMM + col2im). */
    {.name = "conv_bwd_data_gemm_col2im", .algo = CLDNN_CONVOLUTION_BWD_DATA_ALGO_0,
     .applicable = cldnn_conv_im2col_applicable, .workspace = cldnn_conv_im2col_workspace,
     .run = cldnn_conv_im2col_run, .flags = GEMM_MATH, .rank = 70,
     .promote = {{cldnn_conv_col2im_narrow, 22, "conv_bwd_data_gemm_col2im_narrow"},
                 {cldnn_conv_col2im_strided, 24, "conv_bwd_data_gemm_col2im_strided"}}},
    WINO4("bwd_data", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED),
    WINO2("bwd_data", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED),
    WINOF4("bwd_data", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD),
    WINOF2("bwd_data", CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD),
};
const size_t cldnn_conv_bwd_data_solver_count =
    sizeof cldnn_conv_bwd_data_solvers / sizeof cldnn_conv_bwd_data_solvers[0];

const cldnn_solver cldnn_conv_bwd_filter_solvers[] = {
    GEMM_1X1("bwd_filter", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_0, cldnn_conv_gemm1x1_workspace),
    DIRECT("bwd_filter", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1),
    IGEMM_MMA("bwd_filter", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1),
    IGEMM("bwd_filter", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1),
    {.name = "conv_bwd_filter_im2col_gemm", .algo = CLDNN_CONVOLUTION_BWD_FILTER_ALGO_0,
     .applicable = cldnn_conv_im2col_applicable, .workspace = cldnn_conv_im2col_workspace,
     .run = cldnn_conv_im2col_run, .flags = GEMM_MATH, .rank = 70},
    WINO4("bwd_filter", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED),
    WINO2("bwd_filter", CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED),
};
const size_t cldnn_conv_bwd_filter_solver_count =
    sizeof cldnn_conv_bwd_filter_solvers / sizeof cldnn_conv_bwd_filter_solvers[0];
