/*
** gemm.h: the GEMM family (gemm/): its problem, parameter sets and tables, the tiled and
** tensor-core kernels, and the entries the families built on it (convolution) call.
*/
#ifndef CLDNN_GEMM_H_
#define CLDNN_GEMM_H_

#include "tensor/tensor.h"

/* ----------------------------------------------------------------------- GEMM (gemm/gemm.c) */

/* The fused epilogue of the kernels that write a convolution's y (kernels/common/epilogue.h):
** out = act(alpha * sum + alpha2 * z + bias[channel]), one rounding. Offsets in elements; z has
** the output's strides (a GEMM's: C's ldc and batch stride, from z_off where C is at off_c);
** bias and z hold the output's data type. */
typedef struct {
    int act;              /* cldnnActivationMode_t */
    int use_z;            /* 0 (alpha2 == 0): z is never read */
    int bias_m;           /* GEMM: the bias runs along C's m (1) or n (0) */
    float alpha2, coef, swish;
    int nanprop;
    cl_mem bias, z;
    uint64_t bias_off, z_off;
} cldnn_epilogue;
/* Appends the epilogue's build options (-DEPI_ACT=.. -DEPI_Z=.. [-DEPI_BIAS_M=1]) to the string
** opts of capacity size; nothing when e is NULL (the plain kernel). */
void cldnn_epilogue_options(const cldnn_epilogue* e, char* opts, size_t size);
/* Sets the epilogue's arguments (EPI_PARAMS), the last ones of k's list; nothing when e is NULL. */
cldnnStatus_t cldnn_epilogue_args(cl_kernel k, const cldnn_epilogue* e);

/* The canonical problem: C (m x n, column-major, ldc) = alpha * op(A) op(B) + beta * C over
** batch products; row-major calls are turned into this form (C^T = op(B)^T op(A)^T). */
typedef struct {
    int64_t m, n, k;
    int trans_a, trans_b;       /* 1: the stored column-major matrix is used transposed */
    int64_t lda, ldb, ldc;
    int64_t stride_a, stride_b, stride_c; /* elements between batch products */
    int64_t batch;
    uint64_t off_a, off_b, off_c;         /* elements */
    float alpha, beta;
    cldnnMathType_t math;       /* TENSOR_OP_MATH lets solvers use TF32 tensor cores */
    cldnnDataType_t dtype;      /* storage of A and B (and of C for public calls): FLOAT or HALF */
    cldnnDataType_t dtype_c;    /* storage of C; FLOAT with HALF A and B for internal callers
                                ** whose C is a float workspace of partial sums */
    const cldnn_epilogue* epi;  /* internal callers (convolution): the fused epilogue, or NULL */
} cldnn_gemm_problem;

typedef struct {
    cl_mem a, b, c;
} cldnn_gemm_buffers;

/* Tuning parameters of kernels/gemm/gemm.cl (meaning in kernels/common/gemm_tile.h). vwa and
** vwb are upper bounds: the run lowers them to what the problem's alignment allows. */
typedef struct {
    int mwg, nwg, kwg;
    int mdimc, ndimc;
    int vwm, vwn;
    int vwa, vwb;
    int pada, padb;
    int splitk;  /* k splits: 0 chooses from the problem and the device, 1 none, > 1 that many */
} cldnn_gemm_params;

/* 1 when p satisfies the kernel's constraints on device dev (with load widths vwa, vwb). */
int cldnn_gemm_params_valid(const cldnn_gemm_params* p, const cldnn_device_profile* dev);
/* Loop iterations per k a gemm_tiled work-item may take on a loop-limited device (internal.h's
** loop_limit): about 6 measured for 4x4 register blocks on llvmpipe 22.3 (32x32x16-8x8 right through
** k = 10240 in one work-group, wrong from 12288), with room for the larger loads of other sets. */
#define CLDNN_GEMM_LOOPS_PER_K 16
/* The deepest k range (whole k-tiles of kwg) one work-group may take on dev: INT64_MAX without a
** loop limit. Kernels on gemm_tiled's k loop split k (or do not apply) beyond it. */
int64_t cldnn_gemm_k_max(int kwg, const cldnn_device_profile* dev);
/* The parameter set for problem pr on dev: the device's table entry for the problem's shape
** class, else the heuristic default of its device type. */
void cldnn_gemm_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev, cldnn_gemm_params* out);
/* The key of pr in the find and tuning databases ("gemm:m..-n..-k..-NN-lda..-ldb..-ldc..-b..-f32",
** "-tf32ok" for TENSOR_OP_MATH with FLOAT data, "-tcok" with HALF data:
** the canonical column-major problem, so a row-major call has the key of its transpose), and
** the solver name its tuning records go under. */
void cldnn_gemm_problem_key(const cldnn_gemm_problem* pr, char* buf, size_t size);
#define CLDNN_GEMM_SOLVER_NAME "gemm_tiled"
/* Runs pr with explicit parameters (the tuner's and the tests' entry). */
cldnnStatus_t cldnn_gemm_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_params* params,
                                    const cldnn_gemm_buffers* b);
/* "64x64x16-16x16-4x4-4x4-0x0-s0": MWG x NWG x KWG - MDIMC x NDIMC - VWM x VWN - VWA x VWB - pads
** - splits (optional on reading) */
#define CLDNN_GEMM_PARAMS_TEXT "%dx%dx%d-%dx%d-%dx%d-%dx%d-%dx%d[-s%d]"
#define CLDNN_GEMM_PARAMS_NAMES "mwg nwg kwg mdimc ndimc vwm vwn vwa vwb pada padb splitk"
void cldnn_gemm_params_format(const cldnn_gemm_params* p, char* buf, size_t size);
int cldnn_gemm_params_parse(const char* s, cldnn_gemm_params* p);
/* A GEMM-shaped kernel with gemm_tiled's argument list, ready to launch: block tile bm x bn of C,
** k step bk (split ranges are multiples of it), splitk as in cldnn_gemm_params, work-group size
** local (the grid is the block count times local in dimensions 0 and 1), the gemm.cl build
** options whose program holds gemm_splitk_reduce, and the deepest k range one work-group may take
** on a loop-limited device (0: cldnn_gemm_k_max's, gemm_tiled's loops). */
typedef struct {
    cl_kernel kernel;
    const char* name;
    int bm, bn, bk;
    int splitk;
    size_t local[3];
    const char* reduce_opts;
    int64_t kmax;
} cldnn_gemm_launch;
cldnnStatus_t cldnn_gemm_launch_run(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_buffers* b,
                                    const cldnn_gemm_launch* L);

/* out[out_off + i] = alpha * sum_s part[part_off + s * total + i] + beta * out[...] for i < total
** (a fixed order: deterministic): the split partial sums of GEMM-shaped solvers, convolution's included. Offsets in elements; part is float, out of data type out_dt. */
cldnnStatus_t cldnn_gemm_reduce_partials(cldnnHandle_t h, cl_mem part, uint64_t part_off, int nparts, int64_t total,
                                         float alpha, float beta, cl_mem out, uint64_t out_off,
                                         cldnnDataType_t out_dt);
/* The GEMM family's record (handle/engine.h): its solver table (gemm_mma_tf32, gemm_mma_f16,
** gemm_tiled) and Tune's hooks. For the tools (cldnn-tune) and the tests. */
const struct cldnn_family* cldnn_gemm_family(void);
/* Runs an internal product through the GEMM family's solver table with default parameters (gemm.c):
** the tensor-core kernel when g->math and the device allow it, else gemm_tiled. */
cldnnStatus_t cldnn_gemm_run_any(cldnnHandle_t h, const cldnn_gemm_problem* g, const cldnn_gemm_buffers* b);

/* Tensor-core GEMM (gemm/gemm_mma.c, kernels/gemm/gemm_mma.cl) on NVIDIA devices of compute
** capability >= 8.0 under TENSOR_OP_MATH: TF32 mma.sync for FLOAT data, FP16 and BF16 mma.sync
** for HALF and BFLOAT16 data (FP32 accumulation all). Meaning of the fields: the kernel's MMA_*
** build options. */
typedef struct {
    int bm, bn, bk;
    int wm, wn;
    int stages;
    int vw;      /* elements per copy (FLOAT 4 or 1, 16-bit 8, 4, 2 or 1): an upper bound, lowered to
                 ** what the problem's alignment allows */
    int splitk;  /* as in cldnn_gemm_params */
} cldnn_gemm_mma_params;
/* 1 when dev has tensor cores reachable from OpenCL (NVIDIA, cl_nv_device_attribute_query
** compute capability >= 8.0: TF32 and FP16 mma.sync) and CLDNN_TENSOR_CORES is not 0. */
int cldnn_mma_available(const cldnn_device_profile* dev);
/* Static local memory one work-group of a tensor-core kernel may use: the per-block shared memory
** of the compute capability (the driver accepts static arrays up to it although
** CL_DEVICE_LOCAL_MEM_SIZE says 48 KiB), less 1 KiB the driver reserves. */
size_t cldnn_mma_local_limit(const cldnn_device_profile* dev);
/* 1 for the 16-bit storage types (HALF, BFLOAT16), which share the tensor-core kernels' tiles,
** copies and fragments and differ only in the mma instruction. */
static inline int cldnn_mma_16bit(cldnnDataType_t dt) {
    return dt == CLDNN_DATA_HALF || dt == CLDNN_DATA_BFLOAT16;
}
/* For data type dt (FLOAT, HALF or BFLOAT16): valid: for every transpose; fit: for the given ones (the
** local tiles' sizes depend on them and on the element size). */
int cldnn_gemm_mma_params_valid(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev,
                                cldnnDataType_t dt);
int cldnn_gemm_mma_params_fit(const cldnn_gemm_mma_params* p, const cldnn_device_profile* dev, cldnnDataType_t dt,
                              int trans_a, int trans_b);
/* The default set for pr (its shape, transposes and pr->dtype) on dev. */
void cldnn_gemm_mma_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                                  cldnn_gemm_mma_params* out);
/* "128x128x32-64x64-s3-v4-k0": bm x bn x bk - wm x wn - stages - vw - splitk */
#define CLDNN_GEMM_MMA_PARAMS_TEXT "%dx%dx%d-%dx%d-s%d-v%d-k%d"
#define CLDNN_GEMM_MMA_PARAMS_NAMES "bm bn bk wm wn stages vw splitk"
void cldnn_gemm_mma_params_format(const cldnn_gemm_mma_params* p, char* buf, size_t size);
int cldnn_gemm_mma_params_parse(const char* s, cldnn_gemm_mma_params* p);
/* The tuner's declared space for dt and the given transposes on dev (value lists pruned by the
** validity check): writes at most max sets, returns the number the space holds. */
size_t cldnn_gemm_mma_param_space(const cldnn_device_profile* dev, cldnnDataType_t dt, int trans_a, int trans_b,
                                  cldnn_gemm_mma_params* out, size_t max);
/* Runs pr with explicit parameters (the tuner's and the tests' entry), whatever pr->math says;
** BAD_PARAM where the device has no tensor cores, the data types are not the kernel's or the set
** does not fit. */
cldnnStatus_t cldnn_gemm_mma_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr, const cldnn_gemm_mma_params* params,
                                        const cldnn_gemm_buffers* b);
/* The solvers' table entry points (gemm.c's table): applicability of gemm_mma_tf32 (FLOAT) and
** gemm_mma_f16 (HALF A and B, C half or float), and of either (what convolution's Get/Find
** answers ask); defaults and run serve both. */
#define CLDNN_GEMM_MMA_TF32_NAME "gemm_mma_tf32"
#define CLDNN_GEMM_MMA_F16_NAME "gemm_mma_f16"
int cldnn_gemm_mma_tf32_applicable(const void* problem, const cldnn_device_profile* dev);
int cldnn_gemm_mma_f16_applicable(const void* problem, const cldnn_device_profile* dev);
int cldnn_gemm_mma_applicable(const void* problem, const cldnn_device_profile* dev);
void cldnn_gemm_mma_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
cldnnStatus_t cldnn_gemm_mma_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);

/* CPU GEMM (gemm/gemm_cpu.c, kernels/gemm/gemm_cpu.cl): a register block of mr x nr in vectors of
** vw floats (mr a multiple of vw), k unrolled ku times, yb blocks along the broadcast dimension per
** work-item (k then runs in chunks, each chunk of the vector operand copied once for them), the
** work-items walked in bands of mcb blocks along the vector dimension (0: one band), the vector
** operand (packx) and the other (packy) packed into panels (1) or read in place where their layout
** allows (0), the vector dimension along C's rows (swap 0) or columns (1). Meaning in the kernel's
** build options. */
typedef struct {
    int mr, nr, vw, ku, mcb, yb, packx, packy, swap;
} cldnn_gemm_cpu_params;
#define CLDNN_GEMM_CPU_NAME "gemm_cpu"
/* "16x6-v8-k4-b8-y1-p1x1-s0": mr x nr - vw - ku - mcb - yb - packx x packy - swap */
#define CLDNN_GEMM_CPU_PARAMS_TEXT "%dx%d-v%d-k%d-b%d-y%d-p%dx%d-s%d"
#define CLDNN_GEMM_CPU_PARAMS_NAMES "mr nr vw ku mcb yb packx packy swap"
int cldnn_gemm_cpu_params_valid(const cldnn_gemm_cpu_params* p);
void cldnn_gemm_cpu_params_format(const cldnn_gemm_cpu_params* p, char* buf, size_t size);
int cldnn_gemm_cpu_params_parse(const char* s, cldnn_gemm_cpu_params* p);
/* The set for pr on dev: the device table's set for its shape class, else the ISA's default,
** the fields either leaves -1 (packing, orientation) from the layout rule. */
void cldnn_gemm_cpu_params_select(const cldnn_gemm_problem* pr, const cldnn_device_profile* dev,
                                  cldnn_gemm_cpu_params* out);
/* Fills the fields of p that are -1 (yb, packx, packy, swap) by the layout rule for pr. */
void cldnn_gemm_cpu_params_layout(const cldnn_gemm_problem* pr, cldnn_gemm_cpu_params* p);
/* Every set the device table holds (for the tests; fields left to the layout rule -1): n sets
** written to out. */
size_t cldnn_gemm_cpu_table_params(cldnn_gemm_cpu_params* out, size_t max);
/* Runs pr with explicit parameters (the tuner's and the tests' entry), on any device. */
cldnnStatus_t cldnn_gemm_cpu_run_params(cldnnHandle_t h, const cldnn_gemm_problem* pr,
                                        const cldnn_gemm_cpu_params* params, const cldnn_gemm_buffers* b);
/* Test hook: the bytes of panels one piece may take (0: CLDNN_SCRATCH_MAX), so that the tests
** reach the pieces of large problems on small ones. Not thread-safe. */
void cldnn_gemm_cpu_test_scratch_cap(size_t bytes);
/* Test hook: the deepest k one work-item runs before k is split (0: the device's loop limit
** decides, as on llvmpipe), so that the split path runs on every device. Not thread-safe. */
void cldnn_gemm_cpu_test_k_max(int64_t k);
/* The solver record's hooks (gemm.c's table): CPU devices whose scratch holds the panels that the
** problem's layout needs; the declared space's check and candidates. */
int cldnn_gemm_cpu_applicable(const void* problem, const cldnn_device_profile* dev);
void cldnn_gemm_cpu_defaults(const void* problem, const cldnn_device_profile* dev, void* params);
cldnnStatus_t cldnn_gemm_cpu_run(cldnnHandle_t h, const void* problem, const void* params, const void* buffers);
int cldnn_gemm_cpu_valid(const void* problem, const cldnn_device_profile* dev, const void* params);
size_t cldnn_gemm_cpu_enumerate(const void* problem, const cldnn_device_profile* dev, void* out, size_t max);

/* Shape classes of the parameter tables. */
typedef enum {
    CLDNN_GEMM_LARGE = 0,
    CLDNN_GEMM_MEDIUM = 1,
    CLDNN_GEMM_SMALL_N = 2,
    CLDNN_GEMM_SMALL_M = 3,
    CLDNN_GEMM_THIN_N = 4,
    CLDNN_GEMM_THIN_M = 5,
    CLDNN_GEMM_CLASSES = 6
} cldnn_gemm_class;
cldnn_gemm_class cldnn_gemm_classify(const cldnn_gemm_problem* pr);
const char* cldnn_gemm_class_name(cldnn_gemm_class c);
/* The declared tuning space of gemm_tiled on dev (value lists filtered by the kernel's
** constraints and the pruning rules in gemm_params.c): writes at most max sets, returns the
** number the space holds. */
size_t cldnn_gemm_param_space(const cldnn_device_profile* dev, cldnn_gemm_params* out, size_t max);
/* Every parameter set the shipped tables hold (for the tests): n sets written to out. */
size_t cldnn_gemm_table_params(cldnn_gemm_params* out, size_t max);

#endif /* CLDNN_GEMM_H_ */
