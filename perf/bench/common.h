/*
** common.h: what every cldnn-bench mode shares.
**
** cldnn-bench is one binary with a mode per primitive family (activ, tensor, gemm, later conv,
** pool, softmax, bnorm, lrn). main.c parses `cldnn-bench <mode> [flags]` into a bench_args
** (validated against the common flag table and the mode's own table), resolves the common flags
** into a bench_opts, opens the device through the library (bench_ctx) and calls the mode's run
** function. A mode builds its descriptors and buffers, verifies each operation once against the
** double references of tests/ref (un-timed), times it, and reports one bench_result per
** operation through bench_report, which prints either a text line or a markdown table row.
**
** Timing method (bench_time_us): `warmup` calls and a clFinish, then BENCH_REPS repetitions of
** (host clock, `iters` enqueued calls, clFinish, host clock); the per-call time is the median
** over the repetitions of elapsed / iters. The copy-bandwidth baseline (bench_copy_gbs) times
** clEnqueueCopyBuffer of the same size the same way, in the same run, on the same queue.
**
** Invariants: a bench_ctx owns the handle (and through it the context and queue); buffers are
** created in that context. Host-side tensors are float arrays laid out like the device buffer
** (same strides); half data is converted at upload/download only.
*/
#ifndef CLDNN_BENCH_COMMON_H_
#define CLDNN_BENCH_COMMON_H_

#include <stddef.h>
#include <stdint.h>

#include "cldnn.h"
#include "ref.h"

#define BENCH_REPS 5         /* timed repetitions; the median is reported */
#define BENCH_ARGS_MAX 64    /* flags on one command line */

/* ------------------------------------------------------------------ flags */
/* Kind of value a flag takes, checked when the command line is parsed. */
typedef enum {
    BENCH_FLAG_SWITCH = 0,   /* no value (--md) */
    BENCH_FLAG_INT = 1,      /* an integer (strtoll, whole token) */
    BENCH_FLAG_DOUBLE = 2,   /* a number (strtod, whole token) */
    BENCH_FLAG_STRING = 3    /* any token */
} bench_flag_kind;

/* One flag a mode (or every mode) accepts. Tables end with a row whose name is NULL. */
typedef struct {
    const char* name;        /* as typed: "-m", "--md" */
    bench_flag_kind kind;
    const char* defval;      /* the value when absent (NULL: no default, the mode decides) */
    const char* help;        /* one line for the usage text */
} bench_flag;

/* The flags of one command line, in order; a later occurrence of a flag wins. */
typedef struct {
    int count;
    const char* name[BENCH_ARGS_MAX];
    const char* value[BENCH_ARGS_MAX];   /* "1" for switches */
    const bench_flag* mode_flags;        /* the mode's table, for defaults */
} bench_args;

/* The value of flag `name`: the last one given, else its default in the mode's table or the
** common table, else NULL. */
const char* bench_arg_str(const bench_args* args, const char* name);
/* Whether flag `name` was given on the command line. */
int bench_arg_given(const bench_args* args, const char* name);
/* The value as a number; the caller knows the flag is numeric and has a default or was given
** (parsing already validated it). Absent and without default: `fallback`. */
double bench_arg_double(const bench_args* args, const char* name, double fallback);
long long bench_arg_int(const bench_args* args, const char* name, long long fallback);

/* The flags common to every mode (defined in main.c, used for defaults and usage). */
extern const bench_flag bench_common_flags[];

/* ---------------------------------------------------------------- options */
/* The common flags, resolved. */
typedef struct {
    int nd;                          /* 1..CLDNN_DIM_MAX */
    int64_t dims[CLDNN_DIM_MAX];     /* logical order (N, C, spatial...) */
    cldnnTensorFormat_t layout;      /* packed NCHW (row-major) or channel-last */
    cldnnDataType_t dtype;           /* FLOAT, HALF or BFLOAT16 */
    size_t elem_size;                /* 4 or 2 */
    int verify;                      /* -V */
    int time;                        /* -t */
    int iters;                       /* -i, >= 1 */
    int warmup;                      /* -w, >= 0 */
    double alpha, beta;              /* -A, -B */
    int md;                          /* --md: markdown rows */
    uint64_t seed;                   /* for every random fill of this run */
    double rtol, atol;               /* verification tolerance for dtype */
} bench_opts;

/* ---------------------------------------------------------------- device */
typedef struct {
    cldnnHandle_t handle;
    cl_command_queue queue;          /* the handle's, not retained */
    cl_context context;
    cl_device_id device;
    char device_name[256];
    char driver[128];
    char platform[256];
    /* copy-bandwidth cache: the last size measured and its result */
    size_t copy_bytes;
    double copy_gbs;
} bench_ctx;

/* Creates the library's default handle (CLDNN_DEVICE chooses the device), finds its queue,
** context and device, and prints the device line once. Returns 0, or 1 after printing why. */
int bench_ctx_open(bench_ctx* ctx);
/* Finishes the queue and destroys the handle; a zeroed ctx is fine. */
void bench_ctx_close(bench_ctx* ctx);

/* Prints the library's failure for call `what` (status name and last error detail) to stderr. */
void bench_print_status(const char* what, cldnnStatus_t st);
/* Prints an OpenCL failure for call `what` to stderr. */
void bench_print_cl(const char* what, cl_int err);

/* A buffer of `bytes` (> 0) in the ctx's context, or NULL after printing why. */
cl_mem bench_buffer(bench_ctx* ctx, size_t bytes);
/* Releases a buffer; NULL is fine. */
void bench_release(cl_mem mem);
/* Blocking upload of n elements from the float host array into mem, converting to dtype.
** Returns 0 or 1 after printing why. */
int bench_upload(bench_ctx* ctx, cl_mem mem, cldnnDataType_t dtype, const float* host, size_t n);
/* Blocking download of n elements of dtype from mem into the float host array. Returns 0 or 1. */
int bench_download(bench_ctx* ctx, cl_mem mem, cldnnDataType_t dtype, float* host, size_t n);
/* The float value of an IEEE binary16. */
float bench_half_to_float(uint16_t h);
/* The float value of 16 bits of dtype (HALF or BFLOAT16). */
float bench_bits16_to_float(cldnnDataType_t dtype, uint16_t b);
/* What one rounding of a result near want to dtype may add to a tolerance: an ulp of it (HALF
** 2^-10 relative plus its subnormal spacing, BFLOAT16 2^-7); 0 for FLOAT. */
double bench_round_tol(cldnnDataType_t dtype, double want);
/* Rounds n floats in place to the values dtype can hold (no-op for FLOAT). */
void bench_round(cldnnDataType_t dtype, float* p, size_t n);
/* Host memory or NULL after printing why (n elements of size sz). */
void* bench_alloc(size_t n, size_t sz);
/* The operands of an op with one input and its backward (activations, softmax, ...): device
** buffers *x and *y (and *dy, *dx when bwd) of `bytes` each; host *hx uniform in [lo, hi) and *hdy
** uniform in [-1, 1), n floats each drawn from rng in that order, rounded to the data type and
** uploaded to x and dy. rng goes on for the caller. 0 on success, 1 on failure (the caller frees
** what was set; every pointer must start NULL). */
int bench_io_setup(bench_ctx* ctx, const bench_opts* opts, ref_rng* rng, size_t bytes, size_t n, int bwd, double lo,
                   double hi, cl_mem* x, cl_mem* y, cl_mem* dy, cl_mem* dx, float** hx, float** hdy);

/* ------------------------------------------------------------- tensors */
/* The ref_view of opts' dims in the given layout (packed; CLDNN_TENSOR_NHWC = channel, dim 1,
** fastest, then the rest in order). */
ref_view bench_view(int nd, const int64_t* dims, cldnnTensorFormat_t layout);
/* A descriptor for view v of dtype, or NULL after printing why. */
cldnnTensorDescriptor_t bench_desc(const ref_view* v, cldnnDataType_t dtype);
/* Writes dims as "AxBxC" into buf (size bytes). */
void bench_dims_str(int nd, const int64_t* dims, char* buf, size_t size);
/* "NCHW" or "NHWC". */
const char* bench_layout_name(cldnnTensorFormat_t layout);
/* Parses "AxBxC..." into dims; returns the count (1..CLDNN_DIM_MAX) or 0 if malformed. */
int bench_parse_dims(const char* s, int64_t* dims);
/* "float", "half" or "bfloat16". */
const char* bench_dtype_name(cldnnDataType_t dtype);
/* The --math flag of the gemm and conv modes: "default", "tensor" (TENSOR_OP_MATH) or "fma". Returns
** 0, or 2 after printing "cldnn-bench MODE: --math NAME: expected ..." for another name. */
int bench_parse_math(const char* mode, const char* name, cldnnMathType_t* out);

/* Walks a dims array in row-major (logical) order and keeps each of up to 4 views' element
** offset. A view whose dim is 1 where the walk's dim is larger is broadcast (stride 0). */
#define BENCH_WALK_VIEWS 4
typedef struct {
    int nd;
    int64_t dims[REF_DIM_MAX];
    int64_t idx[REF_DIM_MAX];
    int nv;
    int64_t strides[BENCH_WALK_VIEWS][REF_DIM_MAX];
    int64_t off[BENCH_WALK_VIEWS];       /* current offsets, read after init and each next */
} bench_walk;
/* Starts at element 0 of dims; views[k] must have nd dims each equal to dims[d] or 1. */
void bench_walk_init(bench_walk* w, int nd, const int64_t* dims, int nv, const ref_view* const* views);
/* Steps to the next element (after the last one the offsets wrap to 0). */
void bench_walk_next(bench_walk* w);

/* --------------------------------------------------------------- timing */
/* One call of the operation being timed: enqueues it and returns the library's status. */
typedef cldnnStatus_t (*bench_call_fn)(void* user);

/* Times fn by the method above; writes the per-call median in microseconds. Returns 0, or 1
** after printing why (a failed call or clFinish). */
int bench_time_us(bench_ctx* ctx, const bench_opts* opts, bench_call_fn fn, void* user, double* us);
/* Copy bandwidth in GB/s (1e9, read + write counted: 2 * bytes / time) of clEnqueueCopyBuffer of
** `bytes`, timed as bench_time_us does; cached in ctx for the last size. Returns 0 or 1. */
int bench_copy_gbs(bench_ctx* ctx, const bench_opts* opts, size_t bytes, double* gbs);

/* -------------------------------------------------------------- results */
typedef enum {
    BENCH_CHECK_NONE = 0,    /* -V 0 */
    BENCH_CHECK_PASS = 1,
    BENCH_CHECK_FAIL = 2
} bench_check;

/* One measured operation. */
typedef struct {
    const char* mode;        /* "activ" */
    char op[96];             /* "relu fwd" */
    char dims[96];           /* "32x64x56x56" */
    const char* layout;
    const char* dtype;
    double alpha, beta;
    double bytes;            /* the bytes the operation must move */
    double us;               /* per-call time, < 0 when not timed or failed */
    double copy_gbs;         /* baseline, < 0 when not measured */
    bench_check check;
    double max_rel;          /* largest relative error seen (check != NONE), as ref_compare measures it */
    double tol_use;          /* largest |got - want| / (atol + rtol |want|) over finite elements: <= 1 passes */
    int64_t bad;             /* failing elements (check == FAIL) */
    char note[160];          /* a failure's status, or empty */
} bench_result;

/* Times fn into res->us and measures the copy baseline of copy_bytes into res->copy_gbs (each -1
** when it could not be measured; a failed timed call also sets res->note). Returns 1 when the timed
** call failed, else 0 (a failed copy baseline is not a failure of the mode). */
/* Records a failed library call in res->note ("what: STATUS") and prints it with its detail;
** returns 1 when it counts as a failure of the mode (every category but NOT_SUPPORTED), else 0. */
int bench_note_status(bench_result* res, const char* what, cldnnStatus_t st);
int bench_time_result(bench_ctx* ctx, const bench_opts* opts, bench_call_fn fn, void* user, size_t copy_bytes,
                      bench_result* res);

/* Fills the fields every mode sets the same way from opts (mode, dims, layout, dtype, alpha,
** beta, us = copy_gbs = -1); op, bytes and the rest are the mode's. */
void bench_result_init(bench_result* r, const char* mode, const bench_opts* opts);
/* Prints the markdown table header (two lines). */
void bench_report_header(void);
/* Prints r as a text line, or a markdown row when opts->md. */
void bench_report(const bench_opts* opts, const bench_result* r);

/* Verifies `got` (n_span floats laid out by v) against `want` (packed over v's dims) with opts'
** tolerance; fills r->check, r->max_rel, r->tol_use, r->bad and prints the first failure to stderr. Returns
** 0 on pass, 1 on failure. */
int bench_check_result(const bench_opts* opts, const ref_view* v, const float* got, const double* want,
                       bench_result* r);
/* Compares n values of got (element i at got[i], or at v's offset of i when v is not NULL) with
** want, each within atol + rfac * rtol * scale[i] (scale: the reference's magnitude where the
** result is a sum of many terms); folds the outcome into r (check, max_rel, tol_use, bad) and
** names `what` and the mode in the first failure on stderr. Returns the failures. */
int64_t bench_check_scaled(const bench_opts* opts, const char* mode, const char* what, const float* got,
                           const ref_view* v, const double* want, const double* scale, int64_t n, double rfac,
                           bench_result* r);

/* ---------------------------------------------------------------- modes */
/* A mode: its name, a one-line summary, its own flags and the function that runs it. run
** returns the process exit status (0 all passed, 1 a failure, 2 a usage error). md_header prints
** the markdown header of a mode whose rows are not bench_result rows (NULL: bench_report_header). */
typedef struct {
    const char* name;
    const char* summary;
    const bench_flag* flags;
    int (*run)(bench_ctx* ctx, const bench_opts* opts, const bench_args* args);
    void (*md_header)(void);
} bench_mode;

#endif /* CLDNN_BENCH_COMMON_H_ */
