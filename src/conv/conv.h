/*
** conv.h: the convolution family (conv/): its descriptor, problem, solver tables and the
** pieces its solver files share. Built on the GEMM family.
*/
#ifndef CLDNN_CONV_H_
#define CLDNN_CONV_H_

#include "gemm/gemm.h"

/* --------------------------------------------------------------- convolution (conv/conv.c) */

/* Tuning parameters of the fused Winograd kernel (kernels/conv/winograd_fused.cl, whose build
** options of the same names say what they mean): tiles x output channels per work-group, input
** channels per chunk, the work-item's micro-tile (tiles x channels), position groups. */
typedef struct {
    int wg_t, wg_k, wg_c;
    int wi_t, wi_k;
    int pos_groups;
} cldnn_wino_params;

struct cldnnConvolutionStruct {
    int is_set;
    int nd;                    /* spatial dims set (2 is what the calls compute) */
    int pad[CLDNN_DIM_MAX], stride[CLDNN_DIM_MAX], dilation[CLDNN_DIM_MAX];
    cldnnConvolutionMode_t mode;
    cldnnDataType_t compute;
    int groups;
    cldnnMathType_t math;
};

typedef enum { CLDNN_CONV_FWD = 0, CLDNN_CONV_BWD_DATA = 1, CLDNN_CONV_BWD_FILTER = 2 } cldnn_conv_dir;

/* One convolution call, in the forward's names whatever the direction: x (dx for backward-data)
** is n x c x h x w, the filter k x c/groups x r x s, y (dy for the backwards) n x k x p x q. Every
** size and every product the kernels index with (n*h*w, n*p*q, k*c/g*r*s, ...) is below 2^31. */
typedef struct {
    cldnn_conv_dir dir;
    int n, c, h, w, k, r, s, p, q;
    int pad_h, pad_w, u, v, dil_h, dil_w, groups, flip;
    int cg, kg;                  /* channels per group */
    int kord;                    /* filter format: 0 KCRS, 1 KRSC */
    cldnnMathType_t math;
    cldnnDataType_t dtype;       /* x, w and y (dx, dw, dy) alike: FLOAT, or HALF as storage */
    int64_t xs[4], ys[4];        /* element strides of x and y in n, c, h, w order */
    const char* xlayout;         /* "NCHW", "NHWC" or NULL (not packed): cldnn_tensor_layout */
    const char* ylayout;
    uint64_t off_x, off_w, off_y; /* elements */
    float alpha, beta;
    const cldnn_device_profile* dev;
    /* cldnnConvolutionBiasActivationForward's fused epilogue (forward only; NULL: a plain
    ** convolution): bias offset in elements, z's offset where y's is off_y. Not in key: the fused
    ** call takes the plain forward's solver and parameters; its kernels' build options differ. */
    const cldnn_epilogue* epi;
    char key[256];               /* conv-fwd:n32-c64-h56-w56-k64-r3-s3-p1x1-u1x1-d1x1-g1-NCHW-NCHW-KCRS-xcorr-f32-math0 */
} cldnn_conv_problem;

typedef struct {
    cl_mem x, w, y;              /* dx, dy, dw in the backward directions */
    cl_mem ws;
    size_t ws_off, ws_size;      /* bytes */
} cldnn_conv_buffers;

/* The solver tables (conv/gemm/, conv/direct/): entries in preference order; `algo` is the
** direction's public enum value. */
extern const cldnn_solver cldnn_conv_fwd_solvers[];
extern const size_t cldnn_conv_fwd_solver_count;
extern const cldnn_solver cldnn_conv_bwd_data_solvers[];
extern const size_t cldnn_conv_bwd_data_solver_count;
extern const cldnn_solver cldnn_conv_bwd_filter_solvers[];
extern const size_t cldnn_conv_bwd_filter_solver_count;

/* Builds and validates the problem of direction dir from its descriptors (x is dx for
** backward-data, y is dy for the backwards; f is dw for backward-filter); no buffers, alpha 1,
** beta 0, offsets 0. For the tuner and the tests. */
cldnnStatus_t cldnn_conv_problem_init(cldnnHandle_t h, cldnn_conv_dir dir, const struct cldnnTensorStruct* x,
                                      const struct cldnnFilterStruct* f, const struct cldnnConvolutionStruct* cd,
                                      const struct cldnnTensorStruct* y, cldnn_conv_problem* p);
/* Direction dir's family record (handle/engine.h): the solver table and hooks that Get, Find and
** Tune run over. For the tools (cldnn-tune) and the tests. */
const struct cldnn_family* cldnn_conv_family(cldnn_conv_dir dir);
/* The implicit-GEMM parameters of the device's conv table row for p (conv/gemm/conv_params.c):
** 1 and *out filled when a row matches the device, p's direction and p's GEMM class, else 0. */
int cldnn_conv_params_lookup(const cldnn_conv_problem* p, const cldnn_device_profile* dev, cldnn_gemm_params* out);

/* Solver pieces shared across files. */
int cldnn_conv_igemm_applicable(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_igemm_workspace(const void* problem, const void* params);
void cldnn_conv_igemm_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
cldnnStatus_t cldnn_conv_igemm_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* Sets the arguments of the implicit-GEMM kernels (conv/conv_igemm.cl and conv/conv_igemm_mma.cl
** share their list) for GEMM sizes M, N, KR, tap divisor tap_div (R*S, C/G or K/G for KRSC, or the
** padded channel run of TAPLOOP), split range ksplit of nsplit splits, partial sums at part. */
cldnnStatus_t cldnn_conv_igemm_args(cl_kernel k, const cldnn_conv_problem* p, const cldnn_conv_buffers* b, int64_t M,
                                    int64_t N, int64_t KR, int tap_div, int ksplit, int nsplit, cl_mem part,
                                    cl_ulong part_off);
/* The tensor-core implicit GEMM (conv/gemm/conv_igemm_mma.c, kernels/conv/conv_igemm_mma.cl):
** every direction under TENSOR_OP_MATH on devices with tensor cores, FLOAT (TF32) and HALF (FP16)
** data; parameters cldnn_gemm_mma_params. */
typedef struct {
    int64_t m, n, kr; /* GEMM sizes; kr = R*S*cpad */
    int ch, cpad;     /* forward, backward-data: the reduction's channels (C/G, K/G) and their run
                      ** rounded up to bk; backward-filter: K/G twice */
    int a_trans, b_trans, avw, bvw; /* the kernel's A_TRANS, B_TRANS, CONV_AVW, CONV_BVW (elements:
                                    ** 16 bytes' worth, or 1) */
} cldnn_conv_mma_plan;
/* How p runs with a k-tile of bk (the build options and GEMM sizes of its kernel). */
void cldnn_conv_igemm_mma_plan(const cldnn_conv_problem* p, int bk, cldnn_conv_mma_plan* pl);
int cldnn_conv_igemm_mma_applicable(const void* problem, const cldnn_device_profile* dev);
void cldnn_conv_igemm_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
/* Backward-filter's split count for parameters q (1 for the other directions), and the exact
** workspace of the default parameters (splits x K x C/G x R x S floats when split, else 0). */
int cldnn_conv_igemm_mma_splits(const cldnn_conv_problem* p, const cldnn_gemm_mma_params* q);
size_t cldnn_conv_igemm_mma_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_igemm_mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* 1 when the run takes parameter set q for p on dev: the set fits the device (local memory for the
** plan's transposes, copies of the plan's width), the padded reduction fits the kernel's 32-bit
** indices and backward-filter splits at most 64 ways. What the run, the tuning db's reader and the
** tuners check. */
int cldnn_conv_igemm_mma_params_fit(const cldnn_conv_problem* p, const cldnn_gemm_mma_params* q,
                                    const cldnn_device_profile* dev);
/* The tuners' candidates for p on dev: cldnn_gemm_mma_param_space's sets of p's data type for the
** plan's transposes, each with 16-byte copies (4 floats, 8 halves: the run lowers them) and p's
** split count, those that cldnn_conv_igemm_mma_params_fit keeps. At most max sets into out;
** returns the count kept. */
size_t cldnn_conv_igemm_mma_param_space(const cldnn_conv_problem* p, const cldnn_device_profile* dev,
                                        cldnn_gemm_mma_params* out, size_t max);
/* The tensor-core implicit GEMM's solver name in direction dir's table (conv_fwd_igemm_mma, ...):
** the name its tuning records go under. */
const char* cldnn_conv_igemm_mma_solver_name(cldnn_conv_dir dir);
/* Backward-filter's split-k count for tile parameters q (1 for the other directions): its
** partial sums take splits * K * C/G * R * S floats of workspace, at most 256 MiB. */
int cldnn_conv_igemm_splits(const cldnn_conv_problem* p, const cldnn_gemm_params* q);
/* Bytes of the split-k partial sums of backward-filter: splits x K x C/G x R x S floats, 0 for one
** split. */
size_t cldnn_conv_partials_bytes(const cldnn_conv_problem* p, int splits);
int cldnn_conv_is_depthwise(const cldnn_conv_problem* p);
int cldnn_conv_direct_applicable(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_direct_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_direct_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
int cldnn_conv_gemm1x1_applicable(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_gemm1x1_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_gemm1x1_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
int cldnn_conv_im2col_applicable(const void* problem, const cldnn_device_profile* dev);
/* Where backward-data's GEMM + col2im ranks before the implicit GEMMs: C/G < 16, whose N = C/G
** fills a small fraction of their tiles; NCHW at a stride above 1 on GPUs, where most of their
** taps miss. */
int cldnn_conv_col2im_narrow(const void* problem, const cldnn_device_profile* dev);
int cldnn_conv_col2im_strided(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_im2col_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_im2col_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* Non-fused Winograd F(2x2, 3x3) and F(4x4, 3x3), forward and backward-data (conv/winograd). */
int cldnn_conv_wino2_applicable(const void* problem, const cldnn_device_profile* dev);
int cldnn_conv_wino4_applicable(const void* problem, const cldnn_device_profile* dev);
/* F(4x4), non-fused and fused, where the heuristic ranks it before implicit GEMM: GPUs, 16
** channels and more on both sides (on the H100 it beat implicit GEMM on every 3x3 stride-1 layer
** of ResNet-50 and VGG-16 but the 3-channel stem, perf/results/conv-h100.md). */
int cldnn_conv_wino4_preferred(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_wino2_workspace(const void* problem, const void* params);
size_t cldnn_conv_wino4_workspace(const void* problem, const void* params);
cldnnStatus_t cldnn_conv_wino2_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
cldnnStatus_t cldnn_conv_wino4_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* Fused Winograd F(2x2, 3x3) and F(4x4, 3x3), forward and backward-data (conv/winograd): the
** filter transform into the workspace, then one kernel for the rest. */
int cldnn_conv_winof2_applicable(const void* problem, const cldnn_device_profile* dev);
int cldnn_conv_winof4_applicable(const void* problem, const cldnn_device_profile* dev);
size_t cldnn_conv_winof2_workspace(const void* problem, const void* params);
size_t cldnn_conv_winof4_workspace(const void* problem, const void* params);
void cldnn_conv_winof2_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
void cldnn_conv_winof4_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
cldnnStatus_t cldnn_conv_winof2_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
cldnnStatus_t cldnn_conv_winof4_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
/* The tunable spaces of the convolution solvers: the implicit GEMM's, the tensor-core implicit
** GEMM's and the fused Winograd kernels' (whose records go under one name in every direction). */
extern const cldnn_param_space cldnn_conv_igemm_space, cldnn_conv_igemm_mma_space;
extern const cldnn_param_space cldnn_conv_winof2_space, cldnn_conv_winof4_space;
/* 1 when a block tile of bm x bn is at most twice p's GEMM sizes rounded up to powers of two (the
** tuners skip larger ones). */
int cldnn_conv_tile_fits(const cldnn_conv_problem* p, int bm, int bn);
/* The tuning db's solver name of the fused kernel of tile size wm (2 or 4), in every direction. */
const char* cldnn_wino_fused_solver_name(int wm);
/* 1 when q satisfies the fused kernel's constraints for tile size wm on dev (divisibility, the
** work-group size, local memory, at most 256 accumulators per work-item). */
int cldnn_wino_params_valid(const cldnn_wino_params* q, int wm, const cldnn_device_profile* dev);
/* "32x32x8-4x4-p4": WG_T x WG_K x WG_C - WI_T x WI_K - POS_GROUPS */
#define CLDNN_WINO_PARAMS_TEXT "%dx%dx%d-%dx%d-p%d"
#define CLDNN_WINO_PARAMS_NAMES "wg_t wg_k wg_c wi_t wi_k pos_groups"
void cldnn_wino_params_format(const cldnn_wino_params* q, char* buf, size_t size);
int cldnn_wino_params_parse(const char* s, cldnn_wino_params* q);
/* The declared tuning space of the fused kernel for tile size wm on dev (value lists filtered by
** cldnn_wino_params_valid and the pruning rules of conv_winograd.c): writes at most max sets,
** returns the number the space holds. */
size_t cldnn_wino_param_space(int wm, const cldnn_device_profile* dev, cldnn_wino_params* out, size_t max);
/* Runs the fused solver of tile size wm with explicit parameters (the tuner's entry). */
cldnnStatus_t cldnn_conv_wino_fused_run_params(cldnnHandle_t h, const cldnn_conv_problem* p, int wm,
                                               const cldnn_wino_params* q, const cldnn_conv_buffers* b);
/* db = alpha * sum of dy over n, p, q + beta * db (conv/direct). */
cldnnStatus_t cldnn_conv_bias_run(cldnnHandle_t h, const struct cldnnTensorStruct* dy, cl_mem dym, uint64_t dy_off,
                                  const struct cldnnTensorStruct* db, cl_mem dbm, uint64_t db_off, float alpha,
                                  float beta);

/* The GEMM-equivalent sizes of p's direction (kernels/conv/conv_igemm.cl's table). */
void cldnn_conv_gemm_dims(const cldnn_conv_problem* p, int64_t* m, int64_t* n, int64_t* k);

/* p's values in the types and names of the convolution kernels' arguments (int sizes, ulong
** offsets in elements, int4 strides of x and y), taken once so that each kernel's argument call
** lists them in that kernel's order. */
typedef struct {
    cl_int K, H, Wd, P, Q, R, S, Cg, Kg, pad_h, pad_w, su, sv, dil_h, dil_w, flip;
    cl_ulong x_off, w_off, y_off;
    cl_int4 xs, ys;
} cldnn_conv_values;
cldnn_conv_values cldnn_conv_values_of(const cldnn_conv_problem* p);
/* The argument lists of kernels/common/conv_index.h, shared by the implicit-GEMM kernels
** (conv/conv_igemm.cl, conv/conv_igemm_mma.cl): each sets its macro's arguments of k from index
** first, in the macro's order, and the NARGS constant is the macro's length (where the kernel's
** next argument starts). CONV_GEOMETRY_ARGS: p's sizes, paddings, strides, dilations, flip and the
** strides of x and y. */
#define CLDNN_CONV_GEOMETRY_NARGS 17u
cldnnStatus_t cldnn_conv_geometry_args(cl_kernel k, cl_uint first, const cldnn_conv_problem* p);
/* CONV_DIVISOR_ARGS: the magic numbers of the GEMM's pixel plane and row (dx's in backward-data,
** y's otherwise), of tap_div (R*S, C/G or K/G for KRSC, or TAPLOOP's padded channel run), S and
** the strides. */
#define CLDNN_CONV_DIVISOR_NARGS 6u
cldnnStatus_t cldnn_conv_divisor_args(cl_kernel k, cl_uint first, const cldnn_conv_problem* p, int tap_div);

#endif /* CLDNN_CONV_H_ */
