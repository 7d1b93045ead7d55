/*
** fixture.h: the shared fixture of cldnn's Criterion suites.
**
** Criterion runs every test in its own process, so all state here is per process and lazy:
** the first call inside a test creates what it needs (a handle from cldnnCreateDefault, which
** picks the device from CLDNN_DEVICE; the PoCL CPU device on the development machine). Nothing
** touches OpenCL at file scope or before a test body runs.
**
** What it offers
**   - fx_handle / fx_context / fx_queue / fx_device: the per-process handle and its OpenCL
**     objects (the queue is the handle's in-order queue, so a blocking read on it waits for
**     every enqueued primitive).
**   - raw buffer helpers (create, write, read, release at byte offsets).
**   - fx_rng / fx_seed: one seeded generator per test; the seed comes from CLDNN_TEST_SEED or
**     the clock, is logged with cr_log_info, and FX_ASSERT prefixes it to every failure message,
**     so a failure reruns with CLDNN_TEST_SEED=<seed> <suite binary> --filter 'suite/test'.
**   - fx_tensor: a device tensor with a host mirror of its whole buffer (gaps of strided views,
**     the bytes before the offset and a tail included), so tests can poison everything, run a
**     primitive and check both the view's elements and that nothing else changed.
**   - IEEE binary16 and bfloat16 conversions (round to nearest even) for HALF and BFLOAT16
**     storage tests.
**   - FX_EXPECT_STATUS / FX_OK: status checks that print the status name and last-error detail,
**     and for failures also require a non-empty cldnnGetLastErrorString.
**   - canary mode (CLDNN_TEST_CANARY=1; .ci/run sets it for the ASan stage): every buffer from
**     fx_buffer (so every fx_tensor too) is a sub-buffer between two guard regions of a larger
**     buffer, each filled with a known byte pattern. The library sees a cl_mem of exactly the size
**     asked for; a kernel that writes outside it lands in a guard. All live guards are checked
**     after every read-back through the fixture (fx_read, fx_tensor_download, fx_expect_untouched),
**     at fx_finish, when a buffer is released and at fx_fini; a changed guard fails the test,
**     naming the buffer (allocation site or tensor shape), the side and the first changed byte.
*/
#ifndef CLDNN_TEST_FIXTURE_H_
#define CLDNN_TEST_FIXTURE_H_

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "cldnn.h"
#include "ref.h"

/* ------------------------------------------------------------------------------ assertions */

/* cr_assert with the test's seed prefixed: FX_ASSERT(cond, "fmt", args...). The format is
** required (it is the first variadic argument). */
#define FX_ASSERT(cond, ...)                                                                \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            char fx_msg_[4096];                                                             \
            int fx_len_ = snprintf(fx_msg_, sizeof fx_msg_, __VA_ARGS__); /* may truncate */ \
            (void)fx_len_;                                                                  \
            cr_assert_fail("[seed=%llu] %s", (unsigned long long)fx_seed(), fx_msg_);       \
        }                                                                                   \
    } while (0)

/* Runs `call` (a cldnnStatus_t expression) and requires it to return `expected`. A failure
** status must come with a non-empty last-error string. */
#define FX_EXPECT_STATUS(expected, call)                                                          \
    do {                                                                                          \
        cldnnStatus_t fx_want_ = (expected);                                                      \
        cldnnStatus_t fx_got_ = (call);                                                           \
        char fx_err_[2048];                                                                       \
        fx_last_error(fx_err_, sizeof fx_err_);                                                   \
        FX_ASSERT(fx_got_ == fx_want_, "%s:%d: %s\n  returned %s (%d), expected %s; last error: \"%s\"", \
                  __FILE__, __LINE__, #call, cldnnGetErrorString(fx_got_), (int)fx_got_,          \
                  cldnnGetErrorString(fx_want_), fx_err_);                                        \
        if (fx_want_ != CLDNN_STATUS_SUCCESS)                                                     \
            FX_ASSERT(fx_err_[0] != '\0', "%s:%d: %s\n  failed with %s but left an empty last-error string", \
                      __FILE__, __LINE__, #call, cldnnGetErrorString(fx_got_));                   \
    } while (0)

#define FX_OK(call) FX_EXPECT_STATUS(CLDNN_STATUS_SUCCESS, call)

/* ------------------------------------------------------------------- handle and OpenCL */

/* The process's handle (created on first use with cldnnCreateDefault; a failure fails the test). */
cldnnHandle_t fx_handle(void);
/* The handle's queue, context and device (as they were when the handle was created). */
cl_command_queue fx_queue(void);
cl_context fx_context(void);
cl_device_id fx_device(void);
/* Waits for the fixture queue (clFinish). */
void fx_finish(void);
/* Criterion .fini hook: destroys the handle if one was created. Safe to call more than once. */
void fx_fini(void);

/* A read-write buffer of `bytes` bytes in the fixture context (contents undefined); in canary mode
** a guarded sub-buffer named by `name` in failure messages. fx_buffer names it by its call site. */
cl_mem fx_buffer_named(size_t bytes, const char* name);
#define FX_STR2_(x) #x
#define FX_STR_(x) FX_STR2_(x)
#define fx_buffer(bytes) fx_buffer_named((bytes), "fx_buffer at " __FILE__ ":" FX_STR_(__LINE__))
/* Canary mode: fails the test if any live buffer's guard changed; `when` says at which point.
** Without canary mode it does nothing. */
void fx_canary_check(const char* when);
/* Whether canary mode is on (CLDNN_TEST_CANARY set and not "0"). */
int fx_canary_enabled(void);
/* Blocking write/read of `bytes` bytes at byte offset `off` through the fixture queue. */
void fx_write(cl_mem m, size_t off, const void* src, size_t bytes);
void fx_read(cl_mem m, size_t off, void* dst, size_t bytes);
/* Floats at a byte offset. */
void fx_write_floats(cl_mem m, size_t off, const float* src, size_t n);
void fx_read_floats(cl_mem m, size_t off, float* dst, size_t n);
/* clReleaseMemObject (in canary mode after checking the buffer's guards); NULL is a no-op. */
void fx_release(cl_mem m);

/* cldnnGetLastErrorString into buf (always NUL-terminated). */
void fx_last_error(char* buf, size_t size);

/* ------------------------------------------------------------------------------ random */

/* The test's seed (chosen and logged on first use). */
uint64_t fx_seed(void);
/* The test's generator, seeded from fx_seed() on first use. */
ref_rng* fx_rng(void);
/* A uniform float in [lo, hi) that is not 0. */
float fx_uniform(double lo, double hi);

/* ------------------------------------------------------------------------------ half */

/* IEEE binary16 from float, round to nearest even (overflow to inf, NaN stays NaN). */
uint16_t fx_float_to_half(float f);
/* Exact float value of a binary16. */
float fx_half_to_float(uint16_t h);
/* f rounded through half. */
float fx_round_half(float f);
/* bfloat16 bits from float (round to nearest even, NaN stays NaN) and back (exact); fx_tensor
** set/get/poison handle BFLOAT16 tensors through them. */
uint16_t fx_float_to_bf16(float f);
float fx_bf16_to_float(uint16_t b);
/* f rounded through bfloat16. */
float fx_round_bf16(float f);
/* f rounded to what data type t stores (FLOAT: f itself). */
float fx_round_dtype(cldnnDataType_t t, float f);

/* ---------------------------------------------------------------------------- tensors */

/* Element size of a data type in bytes; 0 outside the enum. */
size_t fx_dtype_size(cldnnDataType_t t);
/* "float", "half", "bfloat16" (the cldnn-bench -d words), else "other". */
const char* fx_dtype_name(cldnnDataType_t t);

/* A device tensor: descriptor, view, buffer and a host mirror of the whole buffer.
** Buffer layout (elements): [0, off) before the view, [off, off + span) the view and its gaps,
** then FX_TAIL elements after it. `host` is what was last uploaded (the "before" state);
** `got` is what was last downloaded. mask[i] != 0 where buffer element i belongs to the view. */
#define FX_TAIL 5
typedef struct {
    cldnnTensorDescriptor_t desc;
    cldnnDataType_t dtype;
    ref_view view;
    size_t elem;      /* bytes per element */
    size_t offset;    /* bytes, a multiple of elem */
    size_t nbuf;      /* elements in the buffer */
    int64_t count;    /* elements in the view */
    cl_mem mem;
    unsigned char* host;
    unsigned char* got;
    unsigned char* mask;
} fx_tensor;

/* Tensor through cldnnSetTensorNdDescriptor; strides NULL means packed. Fails the test on error. */
void fx_tensor_nd(fx_tensor* t, cldnnDataType_t dt, int nd, const int64_t* dims, const int64_t* strides,
                  size_t offset_bytes);
/* Tensor through cldnnSetTensor4dDescriptor (format chooses the packed strides). */
void fx_tensor_4d(fx_tensor* t, cldnnTensorFormat_t fmt, cldnnDataType_t dt, int n, int c, int h, int w,
                  size_t offset_bytes);
/* Tensor through cldnnSetTensor4dDescriptorEx. */
void fx_tensor_4d_ex(fx_tensor* t, cldnnDataType_t dt, int n, int c, int h, int w, int ns, int cs, int hs, int ws,
                     size_t offset_bytes);
/* Releases buffer, descriptor and mirrors; zeroes t. */
void fx_tensor_free(fx_tensor* t);

/* Fills the whole host mirror: NaN everywhere, or random values in [-4, 4] (non-zero). */
void fx_tensor_poison_nan(fx_tensor* t);
void fx_tensor_poison_random(fx_tensor* t);
/* Sets view element i (row-major linear index) in the host mirror (rounded to the storage type). */
void fx_tensor_set(fx_tensor* t, int64_t i, double v);
/* Fills every view element with uniform non-zero values in [lo, hi). */
void fx_tensor_fill_uniform(fx_tensor* t, double lo, double hi);
/* View element i of the host mirror (the value the device was given), as double. */
double fx_tensor_host(const fx_tensor* t, int64_t i);
/* View element i of the downloaded content. */
double fx_tensor_got(const fx_tensor* t, int64_t i);
/* Copies the host mirror to the device (whole buffer). */
void fx_tensor_upload(fx_tensor* t);
/* Reads the whole buffer into `got` (blocking, on the fixture queue). */
void fx_tensor_download(fx_tensor* t);
/* Number of buffer elements outside the view whose bytes differ between host and got. */
int64_t fx_tensor_gaps_changed(const fx_tensor* t);
/* The view's elements of the host mirror as floats, in logical order (malloc'd; the caller frees). */
float* fx_tensor_host_floats(const fx_tensor* t);
/* Downloads t and requires its whole buffer to still hold what was uploaded (an input a call must
** not write); the failure names `what` and the caller's context string. */
void fx_expect_untouched(fx_tensor* t, const char* what, const char* ctx);
/* Multi-index of linear index i over t's dims. */
void fx_unravel(const ref_view* v, int64_t i, int64_t* idx);

/* Compares got over t's view with want[i] (packed over the view): element i passes when
** |got - want| <= atol + rtol * scale[i] (scale NULL: |want[i]|); a NaN want accepts only NaN.
** Returns the number of failures, describes the first one into msg, and stores the largest
** err / (atol + rtol * scale) ratio seen in *worst when non-NULL. */
int64_t fx_compare(const fx_tensor* t, const double* want, const double* scale, double atol, double rtol,
                   char* msg, size_t msg_size, double* worst);

/* ---------------------------------------------------------- layouts shared by the suites */

/* The form of one tensor in a suite's layout table. */
typedef enum { FX_NCHW, FX_NHWC, FX_EX, FX_ND } fx_form;

typedef struct {
    fx_form kind;
    int64_t strides[8]; /* FX_EX and FX_ND; all zero for packed Nd */
    size_t offset;      /* in elements (times the element size gives bytes) */
} fx_tdesc;

/* Creates t with the nd dims given, in the form d describes, of data type dt. */
void fx_tensor_from_desc(fx_tensor* t, int nd, const int64_t* dims, const fx_tdesc* d, cldnnDataType_t dt);
/* Poisons an output per beta: NaN everywhere when beta == 0 (must not leak), random otherwise. */
void fx_poison_out(fx_tensor* t, float beta);
/* The (alpha, beta) pairs every suite runs: (1, 0), (0.5, 0.25), (2, -1). */
#define FX_NAB 3
extern const float fx_alpha_beta[FX_NAB][2];

#endif /* CLDNN_TEST_FIXTURE_H_ */
