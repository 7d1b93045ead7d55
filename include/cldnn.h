/**
** \file cldnn.h
** cldnn.h: the public C API of cldnn, an OpenCL deep-learning primitives library.
**
** The API follows cuDNN's v7 shape (handle, descriptors, alpha/beta scaling) so that code
** written for cuDNN ports by renaming, with two OpenCL changes: every buffer is a cl_mem plus a
** size_t BYTE offset into it, and a handle is bound to a cl_command_queue instead of a stream.
** The contract is ../shared/spec/api.md; this header declares only what the library implements.
**
** ABI rules
**   - Opaque handle and descriptor types; every enum value is written out, values never change,
**     new values are appended. Every function returns cldnnStatus_t except cldnnGetVersion,
**     cldnnGetErrorString and cldnnGetLastErrorString.
**   - Scalars alpha/beta are host pointers to float (to double for DOUBLE data); the result is
**     y = alpha * op(x) + beta * y, and when *beta == 0 the prior content of y is not read.
**   - A handle is used by one thread at a time; different handles may be used from different
**     threads at once (the program cache shared between handles is thread-safe).
**   - Work is enqueued on the handle's in-order queue; calls return without waiting.
**   - Descriptors are host data: Create/Set/Get/Destroy, Destroy(NULL) is SUCCESS.
**
** Statuses: each function's comment lists what it returns. Three groups recur, named there:
**   - the argument checks: BAD_PARAM_NULL_POINTER (the handle, a descriptor, a buffer, alpha, beta
**     or another required pointer is NULL), BAD_PARAM (a descriptor created but never set, or of
**     the wrong rank), BAD_PARAM_OUT_OF_BOUND (an enum, size or count outside its range);
**   - the buffer checks, per (cl_mem, byte offset) pair: BAD_PARAM_MISALIGNED (offset not a
**     multiple of the element size), BAD_PARAM_SIZE_INSUFFICIENT (the cl_mem smaller than the
**     offset plus the descriptor's span, or a workspace smaller than needed),
**     BAD_PARAM_QUEUE_MISMATCH (a cl_mem of another context than the handle's queue);
**   - the run failures: NOT_SUPPORTED_DATA_TYPE (data other than FLOAT, or HALF and BFLOAT16
**     where they are storage), INTERNAL_ERROR_COMPILATION_FAILED (a kernel did not build; the build log is in
**     the last-error string), INTERNAL_ERROR_HOST_ALLOCATION_FAILED,
**     INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED (an internal scratch buffer), EXECUTION_FAILED_OPENCL
**     (an OpenCL call failed; its error name is in the last-error string).
** Checks run before anything is enqueued: a call that fails a check changes no buffer. Every
** failure records its detail for cldnnGetLastErrorString; every success clears it.
**
** Thread safety: each comment says it in one line. A handle is used by one thread at a time;
** descriptors are host data without locks (read from many threads at once, never Set or
** Destroyed while in use); the program cache under all handles is locked internally.
*/
#ifndef CLDNN_API_H_
#define CLDNN_API_H_

#include <stddef.h>
#include <stdint.h>

#ifndef CL_TARGET_OPENCL_VERSION
/** OpenCL 1.2 API level, unless the includer chose one before including this header. */
#define CL_TARGET_OPENCL_VERSION 120
#endif
#if defined(__APPLE__)
#include <OpenCL/opencl.h>
#else
#include <CL/cl.h>
#endif

#if defined(_WIN32)
#if defined(CLDNN_BUILDING_LIBRARY)
#define CLDNN_EXPORT __declspec(dllexport)
#else
#define CLDNN_EXPORT __declspec(dllimport)
#endif
#else
/** Marks the exported functions (default visibility; dllexport/dllimport on Windows). */
#define CLDNN_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- version */
/** Major version: an ABI break changes it (and the SONAME, libcldnn.so.MAJOR). */
#define CLDNN_MAJOR 0
/** Minor version: additions only. */
#define CLDNN_MINOR 1
/** Patch version: fixes only. */
#define CLDNN_PATCH 0
/** Encoding fixed forever: MAJOR*10000 + MINOR*100 + PATCH. */
#define CLDNN_VERSION (CLDNN_MAJOR * 10000 + CLDNN_MINOR * 100 + CLDNN_PATCH)

/* ----------------------------------------------------------------- status */
/** Grouped by thousands as cuDNN does: the category of s is CLDNN_STATUS_CATEGORY(s). */
typedef enum {
    CLDNN_STATUS_SUCCESS = 0,
    CLDNN_STATUS_NOT_INITIALIZED = 1001,
    CLDNN_STATUS_VERSION_MISMATCH = 1002,
    CLDNN_STATUS_BAD_PARAM = 2000,
    CLDNN_STATUS_BAD_PARAM_NULL_POINTER = 2002,
    CLDNN_STATUS_BAD_PARAM_MISALIGNED = 2003,          /* byte offset not a multiple of the element size */
    CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND = 2005,        /* a size, index or enum outside its range */
    CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT = 2006,   /* buffer or workspace too small */
    CLDNN_STATUS_BAD_PARAM_QUEUE_MISMATCH = 2007,      /* queue or buffer of another context */
    CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH = 2008,      /* descriptors that do not agree */
    CLDNN_STATUS_NOT_SUPPORTED = 3000,
    CLDNN_STATUS_NOT_SUPPORTED_SHAPE = 3002,
    CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE = 3003,
    CLDNN_STATUS_NOT_SUPPORTED_LAYOUT = 3004,
    CLDNN_STATUS_NOT_SUPPORTED_DEVICE = 3007,
    CLDNN_STATUS_INTERNAL_ERROR = 4000,
    CLDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED = 4001,
    CLDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED = 4003,
    CLDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED = 4004,
    CLDNN_STATUS_EXECUTION_FAILED = 5000,
    CLDNN_STATUS_EXECUTION_FAILED_OPENCL = 5001
} cldnnStatus_t;

/** The category of a status: 0, 1000, 2000 (bad parameter), 3000 (not supported), 4000 (internal error) or 5000 (execution failed). */
#define CLDNN_STATUS_CATEGORY(s) (((int)(s) / 1000) * 1000)

/** The static name of a status ("CLDNN_STATUS_BAD_PARAM", ...); "CLDNN_STATUS_UNKNOWN" otherwise.
** Statuses: none (returns a string, never NULL).
** Thread safety: any thread, at any time. */
CLDNN_EXPORT const char* cldnnGetErrorString(cldnnStatus_t status);
/** Copies the detail of the last failure on the calling thread (which argument, which check, the
** OpenCL error name, the build log) into buf, truncated and NUL-terminated to size bytes. An
** empty string when the last call on this thread succeeded. buf == NULL or size == 0: no-op.
** Statuses: none (returns nothing).
** Thread safety: any thread; the detail is per thread (thread-local). */
CLDNN_EXPORT void cldnnGetLastErrorString(char* buf, size_t size);
/** CLDNN_VERSION of the library that is linked (compare with the header's CLDNN_VERSION).
** Statuses: none (returns the number).
** Thread safety: any thread, at any time. */
CLDNN_EXPORT size_t cldnnGetVersion(void);

/* ----------------------------------------------------------------- handle */
/** A library context bound to one in-order cl_command_queue (cldnnCreate, cldnnCreateDefault). */
typedef struct cldnnContext* cldnnHandle_t;

/** Binds a new handle to the caller's in-order queue (retained until cldnnDestroy).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or queue NULL); BAD_PARAM (not a valid queue,
** or an out-of-order one); INTERNAL_ERROR_HOST_ALLOCATION_FAILED; EXECUTION_FAILED_OPENCL.
** Thread safety: any thread; the queue may be shared with other handles and with the caller's own
** work. */
CLDNN_EXPORT cldnnStatus_t cldnnCreate(cldnnHandle_t* handle, cl_command_queue queue);
/** The embedded default device: CLDNN_DEVICE = "gpu", "cpu", "P:D" (platform and device index),
** "WORD:gpu" / "WORD:cpu" (that type on a platform whose name or vendor contains WORD, such as
** "intel:cpu"), or a case-insensitive substring of a device's name, else of a platform's name or
** vendor; unset: the first GPU, else the first device of any type. The handle owns its context and in-order queue.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle NULL); NOT_SUPPORTED_DEVICE (no OpenCL device,
** or none matches CLDNN_DEVICE); INTERNAL_ERROR_HOST_ALLOCATION_FAILED; EXECUTION_FAILED_OPENCL
** (context or queue creation failed).
** Thread safety: any thread; every call makes a new handle, context and queue. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateDefault(cldnnHandle_t* handle);
/** Releases the handle's queue reference and per-handle state; NULL is SUCCESS. Does not wait
** for enqueued work: the caller's queue keeps it alive.
** Statuses: SUCCESS (also for NULL).
** Thread safety: no other call may use the handle meanwhile or afterwards. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroy(cldnnHandle_t handle);
/** Rebinds to another in-order queue of the same context and device; a queue of another context
** or device is BAD_PARAM_QUEUE_MISMATCH.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or queue NULL); BAD_PARAM (not a valid queue,
** or out-of-order); BAD_PARAM_QUEUE_MISMATCH; EXECUTION_FAILED_OPENCL.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnSetQueue(cldnnHandle_t handle, cl_command_queue queue);
/** The bound queue (not retained for the caller).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or queue NULL).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetQueue(cldnnHandle_t handle, cl_command_queue* queue);

/** How Get and Find choose algorithms (per handle; the default DB_OR_HEURISTIC, or the
** environment variable CLDNN_FIND_MODE read at handle creation: a name below without the prefix,
** or its number). Find records what it measures in the find-db in every mode that benchmarks;
** Get reads it in every mode but HEURISTIC; the tuning db's parameters are used in every mode
** but HEURISTIC, by the convolutions and by cldnnGemm / cldnnGemmStridedBatched. */
typedef enum {
    CLDNN_FIND_MODE_HEURISTIC = 0,       /**< the heuristic only: no database; Find times nothing */
    CLDNN_FIND_MODE_DB_OR_HEURISTIC = 1, /**< Get: find-db, else heuristic; Find benchmarks */
    CLDNN_FIND_MODE_DB_OR_BENCHMARK = 2, /**< Find answers from the find-db when it covers the
                                         ** problem, else benchmarks */
    CLDNN_FIND_MODE_BENCHMARK = 3,       /**< Find always benchmarks */
    CLDNN_FIND_MODE_TUNE = 4             /**< Find searches tunable solvers' parameters first and
                                         ** records them in the tuning db, then benchmarks */
} cldnnFindMode_t;

/** Sets the handle's find mode (cldnnFindMode_t above).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle NULL); BAD_PARAM_OUT_OF_BOUND (not a
** cldnnFindMode_t value).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnSetFindMode(cldnnHandle_t handle, cldnnFindMode_t mode);
/** The handle's find mode.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or mode NULL).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetFindMode(cldnnHandle_t handle, cldnnFindMode_t* mode);
/** The folder of this handle's find-db and tuning db (files per device; created on first record).
** Default: CLDNN_DB_PATH, else $XDG_CONFIG_HOME/cldnn, else $HOME/.config/cldnn. "" keeps
** records in memory only. A folder that cannot be written also keeps them in memory (logged),
** never failing a call.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or path NULL); BAD_PARAM_OUT_OF_BOUND (a path too
** long).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnSetDatabasePath(cldnnHandle_t handle, const char* path);

/* ------------------------------------------------------- tensors, filters */
/** Element types; cldnn computes FLOAT (HALF and BFLOAT16 as storage), the rest give
** NOT_SUPPORTED_DATA_TYPE. */
typedef enum {
    CLDNN_DATA_FLOAT = 0,
    CLDNN_DATA_DOUBLE = 1,
    CLDNN_DATA_HALF = 2,
    CLDNN_DATA_INT8 = 3,
    CLDNN_DATA_INT32 = 4,
    CLDNN_DATA_UINT8 = 6,
    CLDNN_DATA_BFLOAT16 = 9,
    CLDNN_DATA_INT64 = 10
} cldnnDataType_t;

/** Packed layouts: dimensions are always given in logical NCHW order, the format chooses the strides. */
typedef enum {
    CLDNN_TENSOR_NCHW = 0,
    CLDNN_TENSOR_NHWC = 1
} cldnnTensorFormat_t;

/** Whether NaN inputs propagate through max-like operations. */
typedef enum {
    CLDNN_NOT_PROPAGATE_NAN = 0,
    CLDNN_PROPAGATE_NAN = 1
} cldnnNanPropagation_t;

/** The most dimensions a tensor or filter descriptor holds. */
#define CLDNN_DIM_MAX 8

/** Dimensions, strides (in elements) and data type of a tensor: host data. */
typedef struct cldnnTensorStruct* cldnnTensorDescriptor_t;
/** Dimensions, layout and data type of a convolution filter: host data. */
typedef struct cldnnFilterStruct* cldnnFilterDescriptor_t;

/** Allocates an empty descriptor into *desc (to be Set before use).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateTensorDescriptor(cldnnTensorDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyTensorDescriptor(cldnnTensorDescriptor_t desc);
/** Dimensions are always given in logical NCHW order; format chooses the packed strides.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (a dimension < 1, a
** format or data type not of its enum, or a span past 63 bits).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetTensor4dDescriptor(cldnnTensorDescriptor_t desc, cldnnTensorFormat_t format,
                                                      cldnnDataType_t dataType, int n, int c, int h, int w);
/** Strides in elements; each dimension >= 1, each stride >= 1.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (a dimension or
** stride < 1, a data type not of its enum, or a span past 63 bits).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetTensor4dDescriptorEx(cldnnTensorDescriptor_t desc, cldnnDataType_t dataType,
                                                        int n, int c, int h, int w,
                                                        int nStride, int cStride, int hStride, int wStride);
/** Reads back a 4-d descriptor: data type, dimensions and strides in elements; each output pointer
** may be NULL to skip it.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM (never set, or not 4-d).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetTensor4dDescriptor(const cldnnTensorDescriptor_t desc, cldnnDataType_t* dataType,
                                                      int* n, int* c, int* h, int* w,
                                                      int* nStride, int* cStride, int* hStride, int* wStride);
/** 1 <= nbDims <= CLDNN_DIM_MAX; the span (1 + sum (dims[i]-1)*strides[i]) times the element size
** must fit in 63 bits, else BAD_PARAM_OUT_OF_BOUND.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc, dims or strides NULL); BAD_PARAM_OUT_OF_BOUND
** (nbDims, a dimension, a stride or the span out of range).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetTensorNdDescriptor(cldnnTensorDescriptor_t desc, cldnnDataType_t dataType,
                                                      int nbDims, const int64_t dims[], const int64_t strides[]);
/** Writes at most nbDimsRequested entries of dims and strides; *nbDims gets the real count.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or a needed output NULL); BAD_PARAM (never set);
** BAD_PARAM_OUT_OF_BOUND (nbDimsRequested < 0).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetTensorNdDescriptor(const cldnnTensorDescriptor_t desc, int nbDimsRequested,
                                                      cldnnDataType_t* dataType, int* nbDims,
                                                      int64_t dims[], int64_t strides[]);
/** Bytes a buffer must hold past its offset for this descriptor (the strided span).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or size NULL); BAD_PARAM (never set).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetTensorSizeInBytes(const cldnnTensorDescriptor_t desc, size_t* size);

/** Allocates an empty descriptor into *desc (to be Set before use).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateFilterDescriptor(cldnnFilterDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyFilterDescriptor(cldnnFilterDescriptor_t desc);
/** k output channels, c input channels (per group), h x w window; KCRS for NCHW, KRSC for NHWC.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (a dimension < 1, a
** format or data type not of its enum).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetFilter4dDescriptor(cldnnFilterDescriptor_t desc, cldnnDataType_t dataType,
                                                      cldnnTensorFormat_t format, int k, int c, int h, int w);
/** 3 <= nbDims <= CLDNN_DIM_MAX; dims in K, C, spatial... order.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or dims NULL); BAD_PARAM_OUT_OF_BOUND (nbDims, a
** dimension, the format or the data type out of range).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetFilterNdDescriptor(cldnnFilterDescriptor_t desc, cldnnDataType_t dataType,
                                                      cldnnTensorFormat_t format, int nbDims, const int64_t dims[]);
/** Reads back a filter descriptor: data type, format, and at most nbDimsRequested dimensions (K, C,
** spatial...); *nbDims gets the real count.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or an output NULL); BAD_PARAM (never set);
** BAD_PARAM_OUT_OF_BOUND (nbDimsRequested < 0).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetFilterNdDescriptor(const cldnnFilterDescriptor_t desc, int nbDimsRequested,
                                                      cldnnDataType_t* dataType, cldnnTensorFormat_t* format,
                                                      int* nbDims, int64_t dims[]);
/** Bytes a filter buffer must hold past its offset (the packed product of the dimensions times the
** element size).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or size NULL); BAD_PARAM (never set).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetFilterSizeInBytes(const cldnnFilterDescriptor_t desc, size_t* size);

/* ------------------------------------------------------------- activation */
/** Activation functions (cldnnActivationForward); coef is the descriptor's. */
typedef enum {
    CLDNN_ACTIVATION_SIGMOID = 0,
    CLDNN_ACTIVATION_RELU = 1,
    CLDNN_ACTIVATION_TANH = 2,
    CLDNN_ACTIVATION_CLIPPED_RELU = 3,  /* coef = ceiling */
    CLDNN_ACTIVATION_ELU = 4,           /* coef = alpha */
    CLDNN_ACTIVATION_IDENTITY = 5,
    CLDNN_ACTIVATION_SWISH = 6,         /* x * sigmoid(beta x), beta from SetActivationDescriptorSwishBeta */
    CLDNN_ACTIVATION_LEAKY_RELU = 100,  /* coef = negative slope */
    CLDNN_ACTIVATION_SOFTPLUS = 101,
    CLDNN_ACTIVATION_ABS = 102,
    CLDNN_ACTIVATION_GELU = 103         /* erf form */
} cldnnActivationMode_t;

/** Mode, NaN option, coef and SWISH beta of an activation: host data. */
typedef struct cldnnActivationStruct* cldnnActivationDescriptor_t;

/** Allocates an empty descriptor into *desc (to be Set before use).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateActivationDescriptor(cldnnActivationDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyActivationDescriptor(cldnnActivationDescriptor_t desc);
/** nanOpt: with PROPAGATE_NAN, RELU and CLIPPED_RELU give NaN for NaN input; otherwise their
** max/min drop it. Other modes always propagate NaN. coef must be finite (and > 0 for CLIPPED_RELU).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (mode or nanOpt not
** of its enum, coef not finite, or not > 0 for CLIPPED_RELU).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetActivationDescriptor(cldnnActivationDescriptor_t desc, cldnnActivationMode_t mode,
                                                        cldnnNanPropagation_t nanOpt, double coef);
/** Reads back mode, NaN option and coef.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or an output NULL); BAD_PARAM (never set).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetActivationDescriptor(const cldnnActivationDescriptor_t desc,
                                                        cldnnActivationMode_t* mode, cldnnNanPropagation_t* nanOpt,
                                                        double* coef);
/** Default 1.0.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (swishBeta not
** finite).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetActivationDescriptorSwishBeta(cldnnActivationDescriptor_t desc, double swishBeta);
/** Reads back the SWISH beta.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or swishBeta NULL).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetActivationDescriptorSwishBeta(const cldnnActivationDescriptor_t desc,
                                                                 double* swishBeta);

/** y = alpha * act(x) + beta * y. x and y have the same dimensions, any strides; in place when
** x and y are the same buffer, offset and strides.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (x and y dimensions differ).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnActivationForward(cldnnHandle_t handle, const cldnnActivationDescriptor_t activationDesc,
                                                  const void* alpha,
                                                  const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                                  const void* beta,
                                                  const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset);
/** dx = alpha * act'(x) * dy + beta * dx, all four tensors of the same dimensions. Modes whose
** derivative is a function of y (SIGMOID, TANH) read y and dy; the others read x and dy.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (the four tensors' dimensions differ).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnActivationBackward(cldnnHandle_t handle, const cldnnActivationDescriptor_t activationDesc,
                                                   const void* alpha,
                                                   const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                                                   const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                                                   const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                                   const void* beta,
                                                   const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset);

/* ------------------------------------------------------------- tensor ops */
/** C = alpha * A + beta * C; A has C's number of dimensions, each of A's dimensions equal to C's
** or 1 (broadcast).
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (a dimension of A neither C's nor 1, or another rank); BAD_PARAM (A and
** C of different data types).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnAddTensor(cldnnHandle_t handle, const void* alpha,
                                          const cldnnTensorDescriptor_t aDesc, cl_mem A, size_t aOffset,
                                          const void* beta,
                                          const cldnnTensorDescriptor_t cDesc, cl_mem C, size_t cOffset);
/** Every element of y = *value (a float for FLOAT data).
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_NULL_POINTER also for value.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnSetTensor(cldnnHandle_t handle, const cldnnTensorDescriptor_t yDesc, cl_mem y,
                                          size_t yOffset, const void* value);
/** y = *alpha * y.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_NULL_POINTER also for alpha.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnScaleTensor(cldnnHandle_t handle, const cldnnTensorDescriptor_t yDesc, cl_mem y,
                                            size_t yOffset, const void* alpha);
/** y = alpha * x + beta * y between any strides of the same dimensions (NCHW <-> NHWC, padded
** or sliced views). x and y must not overlap unless identical.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (x and y dimensions differ).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnTransformTensor(cldnnHandle_t handle, const void* alpha,
                                                const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                                const void* beta,
                                                const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset);

/* ---------------------------------------------------------------- softmax */
/** How softmax is computed. */
typedef enum {
    CLDNN_SOFTMAX_FAST = 0,     /* exp(x) / sum exp(x), no max subtraction */
    CLDNN_SOFTMAX_ACCURATE = 1, /* the max of each softmax subtracted first */
    CLDNN_SOFTMAX_LOG = 2       /* log-softmax: x - max - log sum exp(x - max) */
} cldnnSoftmaxAlgorithm_t;

/** Over which dimensions softmax normalizes. */
typedef enum {
    CLDNN_SOFTMAX_MODE_INSTANCE = 0, /* over C, H, W (every dim but N) per image */
    CLDNN_SOFTMAX_MODE_CHANNEL = 1   /* over C per (n, h, w) */
} cldnnSoftmaxMode_t;

/** y = alpha * softmax(x) + beta * y. x and y: the same dims (2 to 8 of them, N first, C second),
** any strides; in place when they are the same buffer, offset and strides.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_OUT_OF_BOUND (algo or mode not of its enum, or fewer than 2 dims);
** BAD_PARAM_SHAPE_MISMATCH (x and y dimensions differ).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnSoftmaxForward(cldnnHandle_t handle, cldnnSoftmaxAlgorithm_t algo,
                                               cldnnSoftmaxMode_t mode, const void* alpha,
                                               const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                               const void* beta, const cldnnTensorDescriptor_t yDesc, cl_mem y,
                                               size_t yOffset);
/** dx = alpha * d softmax / dx (dy) + beta * dx from the forward output y:
**   FAST, ACCURATE: y * (dy - sum(dy * y));   LOG: dy - exp(y) * sum(dy).
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_OUT_OF_BOUND (algo or mode not of its enum, or fewer than 2 dims);
** BAD_PARAM_SHAPE_MISMATCH (y, dy and dx dimensions differ).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnSoftmaxBackward(cldnnHandle_t handle, cldnnSoftmaxAlgorithm_t algo,
                                                cldnnSoftmaxMode_t mode, const void* alpha,
                                                const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                                                const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                                                const void* beta, const cldnnTensorDescriptor_t dxDesc, cl_mem dx,
                                                size_t dxOffset);

/* ------------------------------------------------------------------- GEMM */
/** Storage order of GEMM matrices. */
typedef enum {
    CLDNN_ROW_MAJOR = 0,
    CLDNN_COL_MAJOR = 1
} cldnnLayout_t;

/** Transposition of a GEMM operand. */
typedef enum {
    CLDNN_OP_N = 0,
    CLDNN_OP_T = 1
} cldnnOperation_t;

/** C = alpha * op(A) op(B) + beta * C with BLAS semantics: C is m x n, op(A) m x k, op(B) k x n,
** every matrix stored in `layout` with its leading dimension (lda >= rows of A as stored for
** COL_MAJOR, >= columns for ROW_MAJOR; likewise ldb, ldc). m, n, k >= 1. dataType FLOAT, or
** HALF or BFLOAT16 as storage (A, B and C hold IEEE halves or bfloat16 values; products are
** summed in float and C is rounded once, to nearest even). alpha and beta point to float for both. With *beta == 0, C is not
** read. Offsets are in bytes (multiples of the element size). The FP32 kernel's tile parameters
** come from the handle's tuning db when it holds a record for this problem (cldnn-tune gemm --db
** writes them; not in CLDNN_FIND_MODE_HEURISTIC), else from the library's per-device table;
** cldnnSetGemmMathType(TENSOR_OP_MATH) lets FLOAT products run on TF32 tensor cores (HALF on
** FP16 ones; BFLOAT16 stays on the FP32 kernels).
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_OUT_OF_BOUND (m, n or k < 1, a leading dimension too small, layout or an operation not
** of its enum); NOT_SUPPORTED_SHAPE (a size or leading dimension of 2^31 or more);
** NOT_SUPPORTED_DATA_TYPE (neither FLOAT, HALF nor BFLOAT16).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGemm(cldnnHandle_t handle, cldnnLayout_t layout, cldnnOperation_t transA,
                                     cldnnOperation_t transB, int64_t m, int64_t n, int64_t k, const void* alpha,
                                     cl_mem A, size_t aOffset, int64_t lda, cl_mem B, size_t bOffset, int64_t ldb,
                                     const void* beta, cl_mem C, size_t cOffset, int64_t ldc,
                                     cldnnDataType_t dataType);
/** batchCount products; matrix i of X starts strideX elements after matrix i-1 (strides >= 0;
** a stride of 0 reuses one A or B for every product; C's stride must keep the outputs apart).
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment) and
** those of cldnnGemm; BAD_PARAM_OUT_OF_BOUND also for batchCount < 1 or a negative stride;
** BAD_PARAM_SHAPE_MISMATCH (C's stride makes the outputs overlap).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGemmStridedBatched(cldnnHandle_t handle, cldnnLayout_t layout, cldnnOperation_t transA,
                                                   cldnnOperation_t transB, int64_t m, int64_t n, int64_t k,
                                                   const void* alpha, cl_mem A, size_t aOffset, int64_t lda,
                                                   int64_t strideA, cl_mem B, size_t bOffset, int64_t ldb,
                                                   int64_t strideB, const void* beta, cl_mem C, size_t cOffset,
                                                   int64_t ldc, int64_t strideC, int64_t batchCount,
                                                   cldnnDataType_t dataType);

/* ------------------------------------------------------------ convolution */
/** Whether the filter is flipped (true convolution) or not (cross-correlation). */
typedef enum {
    CLDNN_CONVOLUTION = 0,       /* true convolution: the filter is flipped in every spatial dim */
    CLDNN_CROSS_CORRELATION = 1  /* what deep-learning frameworks call convolution */
} cldnnConvolutionMode_t;

/** Which arithmetic a convolution may use. */
typedef enum {
    CLDNN_DEFAULT_MATH = 0,    /* any algorithm, FP32 accumulation */
    CLDNN_TENSOR_OP_MATH = 1,  /* reduced-precision hardware paths (TF32 tensor cores) allowed */
    CLDNN_FMA_MATH = 3         /* strict FP32 */
} cldnnMathType_t;

/** Whether an algorithm gives bitwise equal results run to run (every cldnn algorithm does; the
** attention backward, which has no algorithm enum, takes it from its descriptor). */
typedef enum {
    CLDNN_NON_DETERMINISTIC = 0,
    CLDNN_DETERMINISTIC = 1
} cldnnDeterminism_t;

/** Forward convolution algorithms (cuDNN's numbering); NOT_SUPPORTED for those cldnn lacks. */
typedef enum {
    CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM = 0,
    CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM = 1,
    CLDNN_CONVOLUTION_FWD_ALGO_GEMM = 2,
    CLDNN_CONVOLUTION_FWD_ALGO_DIRECT = 3,
    CLDNN_CONVOLUTION_FWD_ALGO_FFT = 4,
    CLDNN_CONVOLUTION_FWD_ALGO_FFT_TILING = 5,
    CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD = 6,
    CLDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED = 7
} cldnnConvolutionFwdAlgo_t;
/** Number of cldnnConvolutionFwdAlgo_t values. */
#define CLDNN_CONVOLUTION_FWD_ALGO_COUNT 8

/** Backward-data convolution algorithms (cuDNN's numbering). */
typedef enum {
    CLDNN_CONVOLUTION_BWD_DATA_ALGO_0 = 0,
    CLDNN_CONVOLUTION_BWD_DATA_ALGO_1 = 1,
    CLDNN_CONVOLUTION_BWD_DATA_ALGO_FFT = 2,
    CLDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING = 3,
    CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD = 4,
    CLDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED = 5
} cldnnConvolutionBwdDataAlgo_t;
/** Number of cldnnConvolutionBwdDataAlgo_t values. */
#define CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT 6

/** Backward-filter convolution algorithms (cuDNN's numbering). */
typedef enum {
    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_0 = 0,
    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_1 = 1,
    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT = 2,
    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_3 = 3,
    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD = 4,
    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED = 5,
    CLDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING = 6
} cldnnConvolutionBwdFilterAlgo_t;
/** Number of cldnnConvolutionBwdFilterAlgo_t values. */
#define CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT 7

/** One entry of a Get or Find answer. status is SUCCESS for an algorithm that runs the problem;
** time is in milliseconds (Find: measured; Get: -1, nothing runs); memory is the exact workspace
** in bytes the algorithm needs. */
typedef struct {
    cldnnConvolutionFwdAlgo_t algo; /**< the algorithm */
    cldnnStatus_t status; /**< SUCCESS when it runs the problem, else why not */
    float time; /**< milliseconds (Find: measured; Get: -1) */
    size_t memory; /**< exact workspace in bytes */
    cldnnDeterminism_t determinism; /**< whether results are bitwise reproducible */
    cldnnMathType_t mathType; /**< the math type it runs with */
    int reserved[3]; /**< zero; room to grow */
} cldnnConvolutionFwdAlgoPerf_t;

/** One entry of a backward-data Get or Find answer (as cldnnConvolutionFwdAlgoPerf_t). */
typedef struct {
    cldnnConvolutionBwdDataAlgo_t algo; /**< the algorithm */
    cldnnStatus_t status; /**< SUCCESS when it runs the problem, else why not */
    float time; /**< milliseconds (Find: measured; Get: -1) */
    size_t memory; /**< exact workspace in bytes */
    cldnnDeterminism_t determinism; /**< whether results are bitwise reproducible */
    cldnnMathType_t mathType; /**< the math type it runs with */
    int reserved[3]; /**< zero; room to grow */
} cldnnConvolutionBwdDataAlgoPerf_t;

/** One entry of a backward-filter Get or Find answer (as cldnnConvolutionFwdAlgoPerf_t). */
typedef struct {
    cldnnConvolutionBwdFilterAlgo_t algo; /**< the algorithm */
    cldnnStatus_t status; /**< SUCCESS when it runs the problem, else why not */
    float time; /**< milliseconds (Find: measured; Get: -1) */
    size_t memory; /**< exact workspace in bytes */
    cldnnDeterminism_t determinism; /**< whether results are bitwise reproducible */
    cldnnMathType_t mathType; /**< the math type it runs with */
    int reserved[3]; /**< zero; room to grow */
} cldnnConvolutionBwdFilterAlgoPerf_t;

/** Padding, strides, dilation, mode, groups and math type of a convolution: host data. */
typedef struct cldnnConvolutionStruct* cldnnConvolutionDescriptor_t;

/** Allocates an empty descriptor into *desc (to be Set before use).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateConvolutionDescriptor(cldnnConvolutionDescriptor_t* convDesc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyConvolutionDescriptor(cldnnConvolutionDescriptor_t convDesc);
/** pad >= 0, stride (u, v) >= 1, dilation >= 1; computeType FLOAT. Groups default to 1, math to
** DEFAULT_MATH.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (convDesc NULL); BAD_PARAM_OUT_OF_BOUND (a value out of
** its range, mode not of its enum); NOT_SUPPORTED_DATA_TYPE (computeType not FLOAT).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetConvolution2dDescriptor(cldnnConvolutionDescriptor_t convDesc, int pad_h,
                                                           int pad_w, int u, int v, int dilation_h, int dilation_w,
                                                           cldnnConvolutionMode_t mode,
                                                           cldnnDataType_t computeType);
/** Reads back what cldnnSetConvolution2dDescriptor set (a 2-d descriptor only).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (convDesc or an output NULL); BAD_PARAM (never set, or
** not 2-d).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolution2dDescriptor(const cldnnConvolutionDescriptor_t convDesc, int* pad_h,
                                                           int* pad_w, int* u, int* v, int* dilation_h,
                                                           int* dilation_w, cldnnConvolutionMode_t* mode,
                                                           cldnnDataType_t* computeType);
/** arrayLength spatial dimensions (2 is what the convolution calls compute today).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (convDesc or an array NULL); BAD_PARAM_OUT_OF_BOUND
** (arrayLength or a value out of range, mode not of its enum); NOT_SUPPORTED_DATA_TYPE (computeType
** not FLOAT).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetConvolutionNdDescriptor(cldnnConvolutionDescriptor_t convDesc, int arrayLength,
                                                           const int pad[], const int stride[],
                                                           const int dilation[], cldnnConvolutionMode_t mode,
                                                           cldnnDataType_t computeType);
/** groups >= 1: input and output channels are split into groups convolved independently; the
** filter's C is the input channels per group (depthwise: groups = C, filter C = 1).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (convDesc NULL); BAD_PARAM_OUT_OF_BOUND (groupCount <
** 1).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetConvolutionGroupCount(cldnnConvolutionDescriptor_t convDesc, int groupCount);
/** Reads back the group count (1 unless set).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (convDesc or groupCount NULL).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionGroupCount(const cldnnConvolutionDescriptor_t convDesc,
                                                         int* groupCount);
/** Sets the math type (cldnnMathType_t): which algorithms Get and Find may offer.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (convDesc NULL); BAD_PARAM_OUT_OF_BOUND (mathType not
** of its enum).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetConvolutionMathType(cldnnConvolutionDescriptor_t convDesc,
                                                       cldnnMathType_t mathType);
/** Reads back the math type (DEFAULT_MATH unless set).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (convDesc or mathType NULL).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionMathType(const cldnnConvolutionDescriptor_t convDesc,
                                                       cldnnMathType_t* mathType);
/** Sets the math type of the handle's GEMM calls (cldnnGemm, cldnnGemmStridedBatched), as
** cublasSetMathMode does for cuBLAS: TENSOR_OP_MATH lets FLOAT products run on TF32 tensor cores
** where the device has them (NVIDIA, compute capability 8.0 or higher; inputs rounded to TF32, 10
** mantissa bits, FP32 accumulation); DEFAULT_MATH (the default) and FMA_MATH never use them.
** Devices without tensor cores run the FP32 kernels in every math type.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle NULL); BAD_PARAM_OUT_OF_BOUND (mathType not
** of its enum).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnSetGemmMathType(cldnnHandle_t handle, cldnnMathType_t mathType);
/** The math type of the handle's GEMM calls (DEFAULT_MATH unless set).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or mathType NULL).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetGemmMathType(cldnnHandle_t handle, cldnnMathType_t* mathType);
/** Output dims of the forward convolution: n, k, and 1 + (in + 2 pad - ((r - 1) dilation + 1)) / stride
** per spatial dim; BAD_PARAM_SHAPE_MISMATCH when the channels do not match the groups, or the
** dilated window is larger than the padded input.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (a descriptor or an output NULL); BAD_PARAM (a
** descriptor never set, or not 4-d); BAD_PARAM_SHAPE_MISMATCH; NOT_SUPPORTED_SHAPE (not 2 spatial
** dims).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolution2dForwardOutputDim(const cldnnConvolutionDescriptor_t convDesc,
                                                                 const cldnnTensorDescriptor_t inputTensorDesc,
                                                                 const cldnnFilterDescriptor_t filterDesc, int* n,
                                                                 int* c, int* h, int* w);

/** Algorithms there are to ask about (the length of a perf array that holds every answer).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or count NULL).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionForwardAlgorithmMaxCount(cldnnHandle_t handle, int* count);
/** As cldnnGetConvolutionForwardAlgorithmMaxCount, for backward-data.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or count NULL).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionBackwardDataAlgorithmMaxCount(cldnnHandle_t handle, int* count);
/** As cldnnGetConvolutionForwardAlgorithmMaxCount, for backward-filter.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle or count NULL).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionBackwardFilterAlgorithmMaxCount(cldnnHandle_t handle, int* count);

/** The heuristic: every algorithm of the enum, best first for this problem on this device,
** without running anything. Those that apply come first with status SUCCESS and time -1;
** the rest follow with NOT_SUPPORTED. At most requestedAlgoCount entries are written.
** Statuses: SUCCESS; the argument checks (file comment); BAD_PARAM_SHAPE_MISMATCH (descriptors that
** do not agree); BAD_PARAM_OUT_OF_BOUND (requestedAlgoCount < 1). Enqueues nothing.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionForwardAlgorithm_v7(
    cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc, const cldnnFilterDescriptor_t wDesc,
    const cldnnConvolutionDescriptor_t convDesc, const cldnnTensorDescriptor_t yDesc, int requestedAlgoCount,
    int* returnedAlgoCount, cldnnConvolutionFwdAlgoPerf_t* perfResults);
/** The heuristic for backward-data, as cldnnGetConvolutionForwardAlgorithm_v7.
** Statuses: as cldnnGetConvolutionForwardAlgorithm_v7.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionBackwardDataAlgorithm_v7(
    cldnnHandle_t handle, const cldnnFilterDescriptor_t wDesc, const cldnnTensorDescriptor_t dyDesc,
    const cldnnConvolutionDescriptor_t convDesc, const cldnnTensorDescriptor_t dxDesc, int requestedAlgoCount,
    int* returnedAlgoCount, cldnnConvolutionBwdDataAlgoPerf_t* perfResults);
/** The heuristic for backward-filter, as cldnnGetConvolutionForwardAlgorithm_v7.
** Statuses: as cldnnGetConvolutionForwardAlgorithm_v7.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionBackwardFilterAlgorithm_v7(
    cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc, const cldnnTensorDescriptor_t dyDesc,
    const cldnnConvolutionDescriptor_t convDesc, const cldnnFilterDescriptor_t dwDesc, int requestedAlgoCount,
    int* returnedAlgoCount, cldnnConvolutionBwdFilterAlgoPerf_t* perfResults);

/** Find: runs every applicable algorithm on the caller's buffers (the output is overwritten)
** within the caller's workspace and returns them fastest first with measured times; algorithms
** that need more workspace than given report BAD_PARAM_SIZE_INSUFFICIENT, those that do not
** apply NOT_SUPPORTED (both after the ones that ran). Blocks until done.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (descriptors that do not agree); BAD_PARAM_OUT_OF_BOUND
** (requestedAlgoCount < 1). Blocks on the handle's queue.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnFindConvolutionForwardAlgorithmEx(
    cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
    const cldnnFilterDescriptor_t wDesc, cl_mem w, size_t wOffset, const cldnnConvolutionDescriptor_t convDesc,
    const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset, int requestedAlgoCount, int* returnedAlgoCount,
    cldnnConvolutionFwdAlgoPerf_t* perfResults, cl_mem workSpace, size_t workSpaceOffset,
    size_t workSpaceSizeInBytes);
/** Find for backward-data (dx is overwritten), as cldnnFindConvolutionForwardAlgorithmEx.
** Statuses: as cldnnFindConvolutionForwardAlgorithmEx.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnFindConvolutionBackwardDataAlgorithmEx(
    cldnnHandle_t handle, const cldnnFilterDescriptor_t wDesc, cl_mem w, size_t wOffset,
    const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset, const cldnnConvolutionDescriptor_t convDesc,
    const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset, int requestedAlgoCount,
    int* returnedAlgoCount, cldnnConvolutionBwdDataAlgoPerf_t* perfResults, cl_mem workSpace,
    size_t workSpaceOffset, size_t workSpaceSizeInBytes);
/** Find for backward-filter (dw is overwritten), as cldnnFindConvolutionForwardAlgorithmEx.
** Statuses: as cldnnFindConvolutionForwardAlgorithmEx.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnFindConvolutionBackwardFilterAlgorithmEx(
    cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
    const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset, const cldnnConvolutionDescriptor_t convDesc,
    const cldnnFilterDescriptor_t dwDesc, cl_mem dw, size_t dwOffset, int requestedAlgoCount,
    int* returnedAlgoCount, cldnnConvolutionBwdFilterAlgoPerf_t* perfResults, cl_mem workSpace,
    size_t workSpaceOffset, size_t workSpaceSizeInBytes);

/** The exact workspace in bytes `algo` needs for this problem (0 for none); NOT_SUPPORTED when
** the algorithm does not apply.
** Statuses: SUCCESS; the argument checks (file comment); BAD_PARAM_SHAPE_MISMATCH; NOT_SUPPORTED
** (algo does not apply to the problem).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionForwardWorkspaceSize(
    cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc, const cldnnFilterDescriptor_t wDesc,
    const cldnnConvolutionDescriptor_t convDesc, const cldnnTensorDescriptor_t yDesc,
    cldnnConvolutionFwdAlgo_t algo, size_t* sizeInBytes);
/** The exact workspace of a backward-data algorithm, as cldnnGetConvolutionForwardWorkspaceSize.
** Statuses: as cldnnGetConvolutionForwardWorkspaceSize.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionBackwardDataWorkspaceSize(
    cldnnHandle_t handle, const cldnnFilterDescriptor_t wDesc, const cldnnTensorDescriptor_t dyDesc,
    const cldnnConvolutionDescriptor_t convDesc, const cldnnTensorDescriptor_t dxDesc,
    cldnnConvolutionBwdDataAlgo_t algo, size_t* sizeInBytes);
/** The exact workspace of a backward-filter algorithm, as cldnnGetConvolutionForwardWorkspaceSize.
** Statuses: as cldnnGetConvolutionForwardWorkspaceSize.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetConvolutionBackwardFilterWorkspaceSize(
    cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc, const cldnnTensorDescriptor_t dyDesc,
    const cldnnConvolutionDescriptor_t convDesc, const cldnnFilterDescriptor_t dwDesc,
    cldnnConvolutionBwdFilterAlgo_t algo, size_t* sizeInBytes);

/** y = alpha * conv(x, w) + beta * y. x: N x C x H x W, w: K x C/groups x R x S (KCRS with an
** NCHW x, KRSC with an NHWC x), y: N x K x P x Q as cldnnGetConvolution2dForwardOutputDim says.
** x and y may have any strides; ws may be NULL when the algorithm needs no workspace. x, w and y
** share one data type: FLOAT, or HALF or BFLOAT16 as storage (sums in float, each output rounded
** once; the convolution descriptor's computeType stays FLOAT). alpha and beta point to float.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (descriptors that do not agree); BAD_PARAM (x, w and y of different
** data types); NOT_SUPPORTED (algo does not apply); NOT_SUPPORTED_DATA_TYPE (neither FLOAT, HALF
** nor BFLOAT16, or algo does not take such 16-bit data); BAD_PARAM_SIZE_INSUFFICIENT also for a workspace
** smaller than the algorithm needs.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnConvolutionForward(cldnnHandle_t handle, const void* alpha,
                                                   const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                                   const cldnnFilterDescriptor_t wDesc, cl_mem w, size_t wOffset,
                                                   const cldnnConvolutionDescriptor_t convDesc,
                                                   cldnnConvolutionFwdAlgo_t algo, cl_mem workSpace,
                                                   size_t workSpaceOffset, size_t workSpaceSizeInBytes,
                                                   const void* beta, const cldnnTensorDescriptor_t yDesc, cl_mem y,
                                                   size_t yOffset);
/** dx = alpha * conv^T(dy, w) + beta * dx (the gradient of the forward output with respect to x).
** Statuses: as cldnnConvolutionForward.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnConvolutionBackwardData(cldnnHandle_t handle, const void* alpha,
                                                        const cldnnFilterDescriptor_t wDesc, cl_mem w, size_t wOffset,
                                                        const cldnnTensorDescriptor_t dyDesc, cl_mem dy,
                                                        size_t dyOffset, const cldnnConvolutionDescriptor_t convDesc,
                                                        cldnnConvolutionBwdDataAlgo_t algo, cl_mem workSpace,
                                                        size_t workSpaceOffset, size_t workSpaceSizeInBytes,
                                                        const void* beta, const cldnnTensorDescriptor_t dxDesc,
                                                        cl_mem dx, size_t dxOffset);
/** dw = alpha * (gradient of the forward output with respect to w) + beta * dw.
** Statuses: as cldnnConvolutionForward.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnConvolutionBackwardFilter(cldnnHandle_t handle, const void* alpha,
                                                          const cldnnTensorDescriptor_t xDesc, cl_mem x,
                                                          size_t xOffset, const cldnnTensorDescriptor_t dyDesc,
                                                          cl_mem dy, size_t dyOffset,
                                                          const cldnnConvolutionDescriptor_t convDesc,
                                                          cldnnConvolutionBwdFilterAlgo_t algo, cl_mem workSpace,
                                                          size_t workSpaceOffset, size_t workSpaceSizeInBytes,
                                                          const void* beta, const cldnnFilterDescriptor_t dwDesc,
                                                          cl_mem dw, size_t dwOffset);
/** db = alpha * (sum of dy over every dim but C) + beta * db; db is 1 x K x 1 x 1. dy and db are
** both FLOAT, both HALF or both BFLOAT16 (summed in float); alpha and beta point to float.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (db not 1 x K x 1 x 1 for dy's K); BAD_PARAM (dy and db of different
** data types); NOT_SUPPORTED_SHAPE (a tensor too large).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnConvolutionBackwardBias(cldnnHandle_t handle, const void* alpha,
                                                        const cldnnTensorDescriptor_t dyDesc, cl_mem dy,
                                                        size_t dyOffset, const void* beta,
                                                        const cldnnTensorDescriptor_t dbDesc, cl_mem db,
                                                        size_t dbOffset);

/** Warm-up for cldnnConvolutionForward: builds (or loads from the program cache) every program the
** run call with these descriptors and algo would use, and binds its kernels to the handle, without
** enqueuing work or touching memory, so that the first run costs what later runs cost. The tuning
** db applies as it does to the run. The programs it lacks are built together on
** CLDNN_BUILD_THREADS host threads (default min(CPUs, 8); 1 builds them one by one); a failed
** build returns its status and message whichever thread built it.
** Statuses: those of the run call for the descriptors and algo (no buffer checks).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnConvolutionForwardPrepare(cldnnHandle_t handle, const cldnnTensorDescriptor_t xDesc,
                                                          const cldnnFilterDescriptor_t wDesc,
                                                          const cldnnConvolutionDescriptor_t convDesc,
                                                          cldnnConvolutionFwdAlgo_t algo,
                                                          const cldnnTensorDescriptor_t yDesc);
/** Warm-up for cldnnConvolutionBackwardData, as cldnnConvolutionForwardPrepare.
** Statuses: those of the run call for the descriptors and algo (no buffer checks).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnConvolutionBackwardDataPrepare(cldnnHandle_t handle, const cldnnFilterDescriptor_t wDesc,
                                                               const cldnnTensorDescriptor_t dyDesc,
                                                               const cldnnConvolutionDescriptor_t convDesc,
                                                               cldnnConvolutionBwdDataAlgo_t algo,
                                                               const cldnnTensorDescriptor_t dxDesc);
/** Warm-up for cldnnConvolutionBackwardFilter, as cldnnConvolutionForwardPrepare.
** Statuses: those of the run call for the descriptors and algo (no buffer checks).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnConvolutionBackwardFilterPrepare(cldnnHandle_t handle,
                                                                 const cldnnTensorDescriptor_t xDesc,
                                                                 const cldnnTensorDescriptor_t dyDesc,
                                                                 const cldnnConvolutionDescriptor_t convDesc,
                                                                 cldnnConvolutionBwdFilterAlgo_t algo,
                                                                 const cldnnFilterDescriptor_t dwDesc);

/* ---------------------------------------------------------------- pooling */
/** Pooling functions. */
typedef enum {
    CLDNN_POOLING_MAX = 0,                           /* gradient to the first maximum (row-major window order) */
    CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING = 1, /* divides by windowH * windowW */
    CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING = 2, /* divides by the taps inside the input */
    CLDNN_POOLING_MAX_DETERMINISTIC = 3              /* as MAX; cldnn's MAX is deterministic too */
} cldnnPoolingMode_t;

/** Mode, NaN option, window, padding and strides of a 2-d pooling: host data. */
typedef struct cldnnPoolingStruct* cldnnPoolingDescriptor_t;

/** Allocates an empty descriptor into *desc (to be Set before use).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreatePoolingDescriptor(cldnnPoolingDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyPoolingDescriptor(cldnnPoolingDescriptor_t desc);
/** Window >= 1, padding >= 0 and smaller than the window, stride >= 1. Max modes ignore padding.
** nanOpt: with NOT_PROPAGATE_NAN a max window skips NaN inputs (a window of NaNs only gives
** -infinity); with PROPAGATE_NAN a NaN in a window makes its output NaN.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (mode or nanOpt not
** of its enum, a window, padding or stride out of range); BAD_PARAM (padding not smaller than the
** window).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetPooling2dDescriptor(cldnnPoolingDescriptor_t desc, cldnnPoolingMode_t mode,
                                                       cldnnNanPropagation_t nanOpt, int windowH, int windowW,
                                                       int padH, int padW, int strideH, int strideW);
/** Reads back what cldnnSetPooling2dDescriptor set.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or an output NULL); BAD_PARAM (never set).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetPooling2dDescriptor(const cldnnPoolingDescriptor_t desc, cldnnPoolingMode_t* mode,
                                                       cldnnNanPropagation_t* nanOpt, int* windowH, int* windowW,
                                                       int* padH, int* padW, int* strideH, int* strideW);
/** Output dims: n, c, 1 + (h + 2 padH - windowH) / strideH, likewise w; BAD_PARAM when the
** window is larger than the padded input.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (a descriptor or an output NULL); BAD_PARAM (never set,
** not 4-d, or a window larger than the padded input).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetPooling2dForwardOutputDim(const cldnnPoolingDescriptor_t desc,
                                                             const cldnnTensorDescriptor_t xDesc, int* n, int* c,
                                                             int* h, int* w);
/** y = alpha * pool(x) + beta * y. x and y: 4-d, any strides.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (y not the output shape of x); NOT_SUPPORTED_SHAPE (a dimension or
** window too large).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnPoolingForward(cldnnHandle_t handle, const cldnnPoolingDescriptor_t desc,
                                               const void* alpha, const cldnnTensorDescriptor_t xDesc, cl_mem x,
                                               size_t xOffset, const void* beta, const cldnnTensorDescriptor_t yDesc,
                                               cl_mem y, size_t yOffset);
/** dx = alpha * d pool / dx (dy) + beta * dx. Max modes find each window's argmax again from x and
** y (the first tap, in window order, whose x equals y; a NaN tap matches a NaN y, so with
** PROPAGATE_NAN the gradient goes to the window's first NaN, and with NOT_PROPAGATE_NAN a window
** of NaNs, y = -infinity, passes none). y must be the forward's output (alpha 1, beta 0); the
** average modes read neither x nor y.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (y, dy, x, dx shapes that do not agree); NOT_SUPPORTED_SHAPE (a
** dimension or window too large).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnPoolingBackward(cldnnHandle_t handle, const cldnnPoolingDescriptor_t desc,
                                                const void* alpha, const cldnnTensorDescriptor_t yDesc, cl_mem y,
                                                size_t yOffset, const cldnnTensorDescriptor_t dyDesc, cl_mem dy,
                                                size_t dyOffset, const cldnnTensorDescriptor_t xDesc, cl_mem x,
                                                size_t xOffset, const void* beta, const cldnnTensorDescriptor_t dxDesc,
                                                cl_mem dx, size_t dxOffset);

/* ---------------------------------------------------- batch normalization */
/** Which values share batch-normalization statistics. */
typedef enum {
    CLDNN_BATCHNORM_PER_ACTIVATION = 0, /* statistics per (c, h, w) over n; parameters 1xCxHxW */
    CLDNN_BATCHNORM_SPATIAL = 1         /* statistics per c over (n, h, w); parameters 1xCx1x1 */
} cldnnBatchNormMode_t;

/** The smallest epsilon batch normalization accepts. */
#define CLDNN_BN_MIN_EPSILON 1e-5

/** Fills `derived` with the parameter descriptor for xDesc and mode (FLOAT, packed NCHW).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (a descriptor NULL); BAD_PARAM (xDesc never set, or not
** 4-d or 5-d); BAD_PARAM_OUT_OF_BOUND (mode not of its enum).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDeriveBNTensorDescriptor(cldnnTensorDescriptor_t derivedBnDesc,
                                                         const cldnnTensorDescriptor_t xDesc,
                                                         cldnnBatchNormMode_t mode);
/** y = alpha * (scale * (x - mean) * invstd + bias) + beta * y with the batch's mean and biased
** variance. runMean = (1 - f) runMean + f mean and runVar = (1 - f) runVar + f var * m / (m - 1)
** (m values per statistic), f = expAvgFactor; saveMean and saveInvVar get mean and
** 1 / sqrt(var + eps). runMean and runVar are both NULL or both set; likewise saveMean and
** saveInvVar. eps >= CLDNN_BN_MIN_EPSILON.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM (only one of a pair of optional buffers given); BAD_PARAM_OUT_OF_BOUND (mode not of its
** enum, eps below CLDNN_BN_MIN_EPSILON, f outside [0, 1]); BAD_PARAM_SHAPE_MISMATCH (x, y and the
** parameter descriptor do not agree).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnBatchNormalizationForwardTraining(
    cldnnHandle_t handle, cldnnBatchNormMode_t mode, const void* alpha, const void* beta,
    const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const cldnnTensorDescriptor_t yDesc, cl_mem y,
    size_t yOffset, const cldnnTensorDescriptor_t bnScaleBiasMeanVarDesc, cl_mem bnScale, size_t bnScaleOffset,
    cl_mem bnBias, size_t bnBiasOffset, double exponentialAverageFactor, cl_mem resultRunningMean,
    size_t resultRunningMeanOffset, cl_mem resultRunningVariance, size_t resultRunningVarianceOffset,
    double epsilon, cl_mem resultSaveMean, size_t resultSaveMeanOffset, cl_mem resultSaveInvVariance,
    size_t resultSaveInvVarianceOffset);
/** y = alpha * (scale * (x - estMean) / sqrt(estVar + eps) + bias) + beta * y.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_OUT_OF_BOUND (mode not of its enum, eps below CLDNN_BN_MIN_EPSILON);
** BAD_PARAM_SHAPE_MISMATCH (x, y and the parameter descriptor do not agree).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnBatchNormalizationForwardInference(
    cldnnHandle_t handle, cldnnBatchNormMode_t mode, const void* alpha, const void* beta,
    const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const cldnnTensorDescriptor_t yDesc, cl_mem y,
    size_t yOffset, const cldnnTensorDescriptor_t bnScaleBiasMeanVarDesc, cl_mem bnScale, size_t bnScaleOffset,
    cl_mem bnBias, size_t bnBiasOffset, cl_mem estimatedMean, size_t estimatedMeanOffset,
    cl_mem estimatedVariance, size_t estimatedVarianceOffset, double epsilon);
/** dx = alphaDataDiff * dL/dx + betaDataDiff * dx; dScale and dBias = alphaParamDiff * gradient +
** betaParamDiff * old. savedMean and savedInvVariance from the training forward (both NULL:
** they are recomputed from x).
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM (only one of savedMean and savedInvVariance given, or outputs that alias inputs);
** BAD_PARAM_OUT_OF_BOUND (mode, eps); BAD_PARAM_SHAPE_MISMATCH (x, dy, dx and the parameter
** descriptor do not agree).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnBatchNormalizationBackward(
    cldnnHandle_t handle, cldnnBatchNormMode_t mode, const void* alphaDataDiff, const void* betaDataDiff,
    const void* alphaParamDiff, const void* betaParamDiff, const cldnnTensorDescriptor_t xDesc, cl_mem x,
    size_t xOffset, const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
    const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset,
    const cldnnTensorDescriptor_t dBnScaleBiasDesc, cl_mem bnScale, size_t bnScaleOffset, cl_mem dBnScaleResult,
    size_t dBnScaleResultOffset, cl_mem dBnBiasResult, size_t dBnBiasResultOffset, double epsilon,
    cl_mem savedMean, size_t savedMeanOffset, cl_mem savedInvVariance, size_t savedInvVarianceOffset);

/* -------------------------------------------------------------------- LRN */
/** LRN windows. */
typedef enum {
    CLDNN_LRN_CROSS_CHANNEL = 0, /* window of n channels centred on c (cuDNN's LRN_CROSS_CHANNEL_DIM1) */
    CLDNN_LRN_WITHIN_CHANNEL = 1 /* n x n spatial window centred on (h, w), zero padded */
} cldnnLRNMode_t;

/** Smallest LRN window n. */
#define CLDNN_LRN_MIN_N 1
/** Largest LRN window n. */
#define CLDNN_LRN_MAX_N 16
/** Smallest LRN k. */
#define CLDNN_LRN_MIN_K 1e-5
/** Smallest LRN beta. */
#define CLDNN_LRN_MIN_BETA 0.01

/** Window n, alpha, beta and k of an LRN: host data. */
typedef struct cldnnLRNStruct* cldnnLRNDescriptor_t;

/** A new descriptor holds cuDNN's defaults: n 5, alpha 1e-4, beta 0.75, k 2.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateLRNDescriptor(cldnnLRNDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyLRNDescriptor(cldnnLRNDescriptor_t desc);
/** y = x / (k + alpha / n^d * sum over the window of x^2)^beta, d = 1 across channels and 2
** within a channel (alpha over the window's full tap count, also where the window is cut at an
** edge). The window of index i spans [i - (n - 1) / 2, i + n - 1 - (n - 1) / 2] (integer
** division: cuDNN's lookBehind / lookAhead, so an even n reaches one further ahead), along C
** across channels, along both H and W within a channel, zero padded outside the tensor.
** n in [1, 16], k >= 1e-5, beta >= 0.01.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM (a value outside the limits
** above, or not finite).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetLRNDescriptor(cldnnLRNDescriptor_t desc, unsigned lrnN, double lrnAlpha,
                                                 double lrnBeta, double lrnK);
/** Reads back n, alpha, beta and k.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or an output NULL).
** Thread safety: only reads the descriptor (and the handle where given); safe alongside other
** reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetLRNDescriptor(const cldnnLRNDescriptor_t desc, unsigned* lrnN, double* lrnAlpha,
                                                 double* lrnBeta, double* lrnK);
/** y = alpha * LRN(x) + beta * y with the descriptor's window (cldnnSetLRNDescriptor gives the
** formula); x and y of the same dimensions, 4-d or more, any strides, not overlapping.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_OUT_OF_BOUND (mode not of its enum); BAD_PARAM_SHAPE_MISMATCH (x and y dimensions
** differ); BAD_PARAM (x and y overlap).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnLRNForward(cldnnHandle_t handle, const cldnnLRNDescriptor_t desc, cldnnLRNMode_t mode,
                                           const void* alpha, const cldnnTensorDescriptor_t xDesc, cl_mem x,
                                           size_t xOffset, const void* beta, const cldnnTensorDescriptor_t yDesc,
                                           cl_mem y, size_t yOffset);
/** dx = alpha * dL/dx + beta * dx from y (the forward's output), dy and x: dL/dx_i = dy_i s_i^-beta
** - 2 lrnAlpha lrnBeta / n^d * x_i * sum over the windows j holding i of dy_j y_j / s_j, with
** s = k + lrnAlpha / n^d * sum x^2 recomputed from x.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_OUT_OF_BOUND (mode not of its enum); BAD_PARAM_SHAPE_MISMATCH (the four tensors'
** dimensions differ); BAD_PARAM (dx overlaps an input).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnLRNBackward(cldnnHandle_t handle, const cldnnLRNDescriptor_t desc, cldnnLRNMode_t mode,
                                            const void* alpha, const cldnnTensorDescriptor_t yDesc, cl_mem y,
                                            size_t yOffset, const cldnnTensorDescriptor_t dyDesc, cl_mem dy,
                                            size_t dyOffset, const cldnnTensorDescriptor_t xDesc, cl_mem x,
                                            size_t xOffset, const void* beta, const cldnnTensorDescriptor_t dxDesc,
                                            cl_mem dx, size_t dxOffset);

/* ================================================================ v1.1 additions
** What frameworks need beyond cuDNN v7. Same rules as above: cuDNN semantics where a comment is
** silent, cl_mem + byte offset for every buffer, alpha/beta host floats, beta == 0 never reads
** the output. FLOAT, HALF and BFLOAT16 data (HALF and BFLOAT16 are storage: float math, each
** output rounded once to nearest even). */

/* -------------------------------------------------------------- op tensor */
/** Element-wise operations of cldnnOpTensor; B is unused by SQRT and NOT. */
typedef enum {
    CLDNN_OP_TENSOR_ADD = 0,
    CLDNN_OP_TENSOR_MUL = 1,
    CLDNN_OP_TENSOR_MIN = 2,
    CLDNN_OP_TENSOR_MAX = 3,
    CLDNN_OP_TENSOR_SQRT = 4,
    CLDNN_OP_TENSOR_NOT = 5,  /* 1 - a */
    CLDNN_OP_TENSOR_DIV = 100
} cldnnOpTensorOp_t;

/** Operation, compute type and NaN option of an op tensor: host data. */
typedef struct cldnnOpTensorStruct* cldnnOpTensorDescriptor_t;

/** Allocates an empty descriptor into *desc (to be Set before use).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateOpTensorDescriptor(cldnnOpTensorDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyOpTensorDescriptor(cldnnOpTensorDescriptor_t desc);
/** compType FLOAT (the math of every data type).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (op or nanOpt not
** of its enum); NOT_SUPPORTED_DATA_TYPE (compType not FLOAT).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetOpTensorDescriptor(cldnnOpTensorDescriptor_t desc, cldnnOpTensorOp_t op,
                                                      cldnnDataType_t compType, cldnnNanPropagation_t nanOpt);
/** Reads back a descriptor; each output pointer may be NULL to skip it.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM (never set).
** Thread safety: only reads the descriptor; safe alongside other reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetOpTensorDescriptor(const cldnnOpTensorDescriptor_t desc, cldnnOpTensorOp_t* op,
                                                      cldnnDataType_t* compType, cldnnNanPropagation_t* nanOpt);
/** C = op(alpha1 * A, alpha2 * B) + beta * C. A and B each broadcast over their size-1 dims to
** C's shape (both sides, wider than cuDNN); any strides; C may alias A or B when their
** descriptors are equal. alpha1, alpha2 and beta point to float.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (A or B neither C's size nor 1 in some dim); BAD_PARAM (data types
** differ, or C overlaps an input it does not equal).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnOpTensor(cldnnHandle_t handle, const cldnnOpTensorDescriptor_t opTensorDesc,
                                         const void* alpha1, const cldnnTensorDescriptor_t aDesc, cl_mem A,
                                         size_t aOffset, const void* alpha2, const cldnnTensorDescriptor_t bDesc,
                                         cl_mem B, size_t bOffset, const void* beta,
                                         const cldnnTensorDescriptor_t cDesc, cl_mem C, size_t cOffset);

/* ---------------------------------------------------------- reduce tensor */
/** Reductions of cldnnReduceTensor. */
typedef enum {
    CLDNN_REDUCE_TENSOR_ADD = 0,
    CLDNN_REDUCE_TENSOR_MUL = 1,
    CLDNN_REDUCE_TENSOR_MIN = 2,
    CLDNN_REDUCE_TENSOR_MAX = 3,
    CLDNN_REDUCE_TENSOR_AMAX = 4,        /* max |a| */
    CLDNN_REDUCE_TENSOR_AVG = 5,
    CLDNN_REDUCE_TENSOR_NORM1 = 6,       /* sum |a| */
    CLDNN_REDUCE_TENSOR_NORM2 = 7,       /* sqrt(sum a^2) */
    CLDNN_REDUCE_TENSOR_MUL_NO_ZEROS = 8 /* product of the nonzero values */
} cldnnReduceTensorOp_t;

/** Whether cldnnReduceTensor writes indices (MIN, MAX and AMAX only). */
typedef enum {
    CLDNN_REDUCE_TENSOR_NO_INDICES = 0,
    CLDNN_REDUCE_TENSOR_FLATTENED_INDICES = 1
} cldnnReduceTensorIndices_t;

/** Element type of reduction indices. */
typedef enum {
    CLDNN_32BIT_INDICES = 0,
    CLDNN_64BIT_INDICES = 1
} cldnnIndicesType_t;

/** Operation, compute type, NaN option and index output of a reduction: host data. */
typedef struct cldnnReduceTensorStruct* cldnnReduceTensorDescriptor_t;

/** Allocates an empty descriptor into *desc (to be Set before use).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateReduceTensorDescriptor(cldnnReduceTensorDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyReduceTensorDescriptor(cldnnReduceTensorDescriptor_t desc);
/** compType FLOAT (the math of every data type).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (a value not of its
** enum); NOT_SUPPORTED_DATA_TYPE (compType not FLOAT); BAD_PARAM (indices asked of an op other
** than MIN, MAX and AMAX).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetReduceTensorDescriptor(cldnnReduceTensorDescriptor_t desc,
                                                          cldnnReduceTensorOp_t op, cldnnDataType_t compType,
                                                          cldnnNanPropagation_t nanOpt,
                                                          cldnnReduceTensorIndices_t indices,
                                                          cldnnIndicesType_t indicesType);
/** Reads back a descriptor; each output pointer may be NULL to skip it.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM (never set).
** Thread safety: only reads the descriptor; safe alongside other reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetReduceTensorDescriptor(const cldnnReduceTensorDescriptor_t desc,
                                                          cldnnReduceTensorOp_t* op, cldnnDataType_t* compType,
                                                          cldnnNanPropagation_t* nanOpt,
                                                          cldnnReduceTensorIndices_t* indices,
                                                          cldnnIndicesType_t* indicesType);
/** The exact bytes of the indices output for this reduction (0 when none is asked).
** Statuses: SUCCESS; the argument checks (file comment); BAD_PARAM_SHAPE_MISMATCH (C not A with
** some dims set to 1).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetReductionIndicesSize(cldnnHandle_t handle,
                                                        const cldnnReduceTensorDescriptor_t reduceTensorDesc,
                                                        const cldnnTensorDescriptor_t aDesc,
                                                        const cldnnTensorDescriptor_t cDesc, size_t* sizeInBytes);
/** The exact workspace in bytes this reduction needs (0 for none).
** Statuses: as cldnnGetReductionIndicesSize.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnGetReductionWorkspaceSize(cldnnHandle_t handle,
                                                          const cldnnReduceTensorDescriptor_t reduceTensorDesc,
                                                          const cldnnTensorDescriptor_t aDesc,
                                                          const cldnnTensorDescriptor_t cDesc, size_t* sizeInBytes);
/** C = alpha * reduce(A) + beta * C: every dim where C has size 1 and A does not is reduced (any
** subset). Indices (MIN, MAX, AMAX with FLATTENED_INDICES) are the flattened position inside the
** reduced dims (row-major over them), the first occurrence on ties. Deterministic: the same inputs
** give the same bits on every call. indices may be NULL with size 0 when none are asked.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (C not A with some dims set to 1); BAD_PARAM_SIZE_INSUFFICIENT
** (workspace or indices smaller than the Get functions say).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnReduceTensor(cldnnHandle_t handle,
                                             const cldnnReduceTensorDescriptor_t reduceTensorDesc, cl_mem indices,
                                             size_t indicesOffset, size_t indicesSizeInBytes, cl_mem workspace,
                                             size_t workspaceOffset, size_t workspaceSizeInBytes,
                                             const void* alpha, const cldnnTensorDescriptor_t aDesc, cl_mem A,
                                             size_t aOffset, const void* beta, const cldnnTensorDescriptor_t cDesc,
                                             cl_mem C, size_t cOffset);

/* ------------------------------------ fused convolution, bias, activation */
/** y = act(alpha1 * conv(x, w) + alpha2 * z + bias). bias is 1 x K x 1 x 1; z has y's shape and
** may be the same buffer as y (a residual add); every activation mode is accepted (cuDNN takes
** RELU and IDENTITY only). The workspace is cldnnGetConvolutionForwardWorkspaceSize's for the
** same algorithm. alpha1 and alpha2 point to float.
** bias and z hold y's data type; z has y's strides, the bias a unit channel stride.
** Statuses: as cldnnConvolutionForward, and BAD_PARAM_SHAPE_MISMATCH (bias or z shapes),
** BAD_PARAM_NULL_POINTER (activationDesc, bias or z NULL), BAD_PARAM (bias or z of another data
** type, an activation descriptor never set), NOT_SUPPORTED_LAYOUT (z's strides not y's, a bias
** with a channel stride other than 1).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnConvolutionBiasActivationForward(
    cldnnHandle_t handle, const void* alpha1, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
    const cldnnFilterDescriptor_t wDesc, cl_mem w, size_t wOffset, const cldnnConvolutionDescriptor_t convDesc,
    cldnnConvolutionFwdAlgo_t algo, cl_mem workSpace, size_t workSpaceOffset, size_t workSpaceSizeInBytes,
    const void* alpha2, const cldnnTensorDescriptor_t zDesc, cl_mem z, size_t zOffset,
    const cldnnTensorDescriptor_t biasDesc, cl_mem bias, size_t biasOffset,
    const cldnnActivationDescriptor_t activationDesc, const cldnnTensorDescriptor_t yDesc, cl_mem y,
    size_t yOffset);

/* ---------------------------------------------------------------- dropout */
/** Probability, seed and counter offset of a dropout: host data. */
typedef struct cldnnDropoutStruct* cldnnDropoutDescriptor_t;

/** Allocates a descriptor into *desc holding dropout 0, seed 0, offset 0.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateDropoutDescriptor(cldnnDropoutDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyDropoutDescriptor(cldnnDropoutDescriptor_t desc);
/** dropout in [0, 1): the probability an element is zeroed. The mask is a pure function of
** (seed, offset, element index) from a counter-based generator (Philox4x32-10); the caller moves
** offset on between calls, as frameworks move a Philox offset.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (dropout outside
** [0, 1) or not finite).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetDropoutDescriptor(cldnnDropoutDescriptor_t desc, float dropout, uint64_t seed,
                                                     uint64_t offset);
/** Reads back a descriptor; each output pointer may be NULL to skip it.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL).
** Thread safety: only reads the descriptor; safe alongside other reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetDropoutDescriptor(const cldnnDropoutDescriptor_t desc, float* dropout,
                                                     uint64_t* seed, uint64_t* offset);
/** The bytes of the reserve space that stores the mask of a tensor like xDesc (the reserve is
** optional: NULL with size 0 regenerates the mask).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (an argument NULL); BAD_PARAM (xDesc never set).
** Thread safety: only reads the descriptor; safe alongside other reads. */
CLDNN_EXPORT cldnnStatus_t cldnnDropoutGetReserveSpaceSize(const cldnnTensorDescriptor_t xDesc,
                                                           size_t* sizeInBytes);
/** y = x * mask / (1 - dropout). reserve may be NULL with size 0; else the mask is stored there.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (x and y dims differ); BAD_PARAM_SIZE_INSUFFICIENT (a reserve smaller
** than cldnnDropoutGetReserveSpaceSize).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnDropoutForward(cldnnHandle_t handle, const cldnnDropoutDescriptor_t dropoutDesc,
                                               const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                               const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                                               cl_mem reserveSpace, size_t reserveSpaceOffset,
                                               size_t reserveSpaceSizeInBytes);
/** dx = dy * mask / (1 - dropout), the mask read from reserve when given, else regenerated from
** the descriptor (which must then equal the forward's).
** Statuses: as cldnnDropoutForward.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnDropoutBackward(cldnnHandle_t handle, const cldnnDropoutDescriptor_t dropoutDesc,
                                                const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                                                const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset,
                                                cl_mem reserveSpace, size_t reserveSpaceOffset,
                                                size_t reserveSpaceSizeInBytes);

/* ------------------------------------------- layer, group, RMS normalization */
/** What cldnnNormalizationForward normalizes together. */
typedef enum {
    CLDNN_NORM_LAYER = 0, /* the last `param` dims of each sample: mean and variance */
    CLDNN_NORM_GROUP = 1, /* `param` groups of channels (dim 1) with their spatial dims; instance
                             normalization is one group per channel */
    CLDNN_NORM_RMS = 2    /* the last `param` dims: root mean square, no mean */
} cldnnNormMode_t;

/** Mode, parameter and epsilon of a normalization: host data. */
typedef struct cldnnNormStruct* cldnnNormDescriptor_t;

/** Allocates an empty descriptor into *desc (to be Set before use).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread; the new descriptor is the caller's. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateNormDescriptor(cldnnNormDescriptor_t* desc);
/** Frees a descriptor; NULL is a no-op.
** Statuses: SUCCESS (also for NULL).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyNormDescriptor(cldnnNormDescriptor_t desc);
/** param: the number of trailing dims normalized together (LAYER, RMS; PyTorch's
** normalized_shape length), or the number of channel groups (GROUP). epsilon > 0.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (mode not of its
** enum, param < 1 or above CLDNN_DIM_MAX for LAYER and RMS, epsilon not positive and finite).
** Thread safety: host data without locks: calls on different descriptors may run at once; a Set or
** Destroy must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetNormDescriptor(cldnnNormDescriptor_t desc, cldnnNormMode_t mode, int param,
                                                  double epsilon);
/** Reads back a descriptor; each output pointer may be NULL to skip it.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM (never set).
** Thread safety: only reads the descriptor; safe alongside other reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetNormDescriptor(const cldnnNormDescriptor_t desc, cldnnNormMode_t* mode,
                                                  int* param, double* epsilon);
/** Sets scaleBiasDesc to the normalized trailing dims (LAYER, RMS) or 1 x C x 1 x 1 (GROUP), packed,
** of x's data type, and statsDesc to x's dims with the normalized ones set to 1 (LAYER, RMS) or
** N x groups (GROUP, as N x groups x 1 x 1), packed FLOAT. Either output may be NULL.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or xDesc NULL); BAD_PARAM (a descriptor never
** set, param more than x's dims, or C not a multiple of the groups).
** Thread safety: only reads desc and xDesc; writes the outputs, which must not be in use. */
CLDNN_EXPORT cldnnStatus_t cldnnDeriveNormTensorDescriptors(const cldnnNormDescriptor_t desc,
                                                            const cldnnTensorDescriptor_t xDesc,
                                                            cldnnTensorDescriptor_t scaleBiasDesc,
                                                            cldnnTensorDescriptor_t statsDesc);
/** y = alpha * (scale * (x - mean) * invStd + bias) + beta * y (RMS: x * invStd, invStd =
** 1 / sqrt(mean(x^2) + epsilon)). scale and bias may be NULL (no affine; both or neither); mean
** and invStd may be NULL (nothing saved); RMS has no mean (mean must be NULL). x and y any
** strides, NCHW or NHWC.
** Statuses: SUCCESS; the argument checks, the buffer checks and the run failures (file comment);
** BAD_PARAM_SHAPE_MISMATCH (descriptors that do not agree with cldnnDeriveNormTensorDescriptors);
** BAD_PARAM (mean given for RMS, only one of scale and bias).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnNormalizationForward(
    cldnnHandle_t handle, const cldnnNormDescriptor_t normDesc, const void* alpha, const void* beta,
    const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const cldnnTensorDescriptor_t scaleBiasDesc,
    cl_mem scale, size_t scaleOffset, cl_mem bias, size_t biasOffset, const cldnnTensorDescriptor_t statsDesc,
    cl_mem mean, size_t meanOffset, cl_mem invStd, size_t invStdOffset, const cldnnTensorDescriptor_t yDesc,
    cl_mem y, size_t yOffset);
/** dx = alphaDataDiff * dL/dx + betaDataDiff * dx; dScale and dBias = alphaParamDiff * gradient +
** betaParamDiff * old. The forward's saved statistics are required (mean NULL for RMS); scale may
** be NULL (no affine); dScale and dBias may be NULL.
** Statuses: as cldnnNormalizationForward, and BAD_PARAM_NULL_POINTER (invStd, or mean for LAYER
** and GROUP, NULL).
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnNormalizationBackward(
    cldnnHandle_t handle, const cldnnNormDescriptor_t normDesc, const void* alphaDataDiff,
    const void* betaDataDiff, const void* alphaParamDiff, const void* betaParamDiff,
    const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const cldnnTensorDescriptor_t dyDesc, cl_mem dy,
    size_t dyOffset, const cldnnTensorDescriptor_t scaleBiasDesc, cl_mem scale, size_t scaleOffset, cl_mem dScale,
    size_t dScaleOffset, cl_mem dBias, size_t dBiasOffset, const cldnnTensorDescriptor_t statsDesc, cl_mem mean,
    size_t meanOffset, cl_mem invStd, size_t invStdOffset, const cldnnTensorDescriptor_t dxDesc, cl_mem dx,
    size_t dxOffset);

/* ---------------------------------------------------------------- scaled dot-product attention */

/** Scale, causal flag, dropout and math type of an attention: host data.
** O = dropout(softmax(scale * Q K^T + mask)) V per (batch, head), without the Sq x Sk matrix in
** global memory (FlashAttention-2's plan). Tensors are 4-d with any strides (B,H,S,D and B,S,H,D
** memory orders alike): Q B x H x Sq x D, K B x Hkv x Sk x D, V B x Hkv x Sk x Dv, O B x H x Sq x Dv,
** with H a multiple of Hkv (grouped-query attention: query head h reads kv head h / (H / Hkv)), D
** and Dv at most 256. Q, K, V, O (and dO, dQ, dK, dV) share one data type: FLOAT, HALF or BFLOAT16
** (float math, one rounding per output). The statistics are B x H x Sq x 1 FLOAT: each query row's
** natural log-sum-exp of its scaled, masked scores (PyTorch's logsumexp).
** causal masks key j when j > i + (Sk - Sq) (bottom-right aligned, as PyTorch's). A row whose every
** key is masked (causal with Sq > Sk: rows i < Sq - Sk) gives O = 0 and statistics -inf (its
** gradients are 0).
** dropout p drops probabilities after the softmax: O = (softmax(S) * Z) V with Z = mask / (1 - p),
** the mask of element (b, h, i, j) being cldnnDropout's mask of flat index
** ((b*H + h)*Sq + i)*Sk + j for the same (seed, offset) (a B x H x Sq x Sk tensor); the statistics
** are those of the undropped softmax. The backward regenerates the mask.
** No alpha / beta: the outputs are overwritten (cuDNN's attention semantics). Outputs must not
** overlap inputs or each other. */
typedef struct cldnnAttentionStruct* cldnnAttentionDescriptor_t;

/** Allocates a descriptor (unset until cldnnSetAttentionDescriptor).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); INTERNAL_ERROR_HOST_ALLOCATION_FAILED.
** Thread safety: any thread. */
CLDNN_EXPORT cldnnStatus_t cldnnCreateAttentionDescriptor(cldnnAttentionDescriptor_t* desc);
/** Frees a descriptor; NULL is SUCCESS.
** Thread safety: must not overlap any other use of desc. */
CLDNN_EXPORT cldnnStatus_t cldnnDestroyAttentionDescriptor(cldnnAttentionDescriptor_t desc);
/** scale: finite (1 / sqrt(D) is PyTorch's default); causal: 0 or 1; dropout in [0, 1); seed and
** offset: the dropout generator's (cldnnSetDropoutDescriptor's); mathType: DEFAULT_MATH,
** TENSOR_OP_MATH (reduced-precision hardware paths allowed where a solver has them) or FMA_MATH.
** On NVIDIA tensor cores FLOAT runs as TF32 under TENSOR_OP_MATH and as 3xTF32 (three TF32
** products per FP32 one: close to FP32's accuracy, as PyTorch's FP32 attention there) under DEFAULT_MATH;
** FMA_MATH keeps FP32 FMAs. HALF and BFLOAT16 take the tensor cores under TENSOR_OP_MATH.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (scale not finite,
** causal not 0 or 1, dropout outside [0, 1), mathType not of its enum).
** Thread safety: a Set must not overlap any other use of the same descriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetAttentionDescriptor(cldnnAttentionDescriptor_t desc, float scale, int causal,
                                                       float dropout, uint64_t seed, uint64_t offset,
                                                       cldnnMathType_t mathType);
/** Reads back a descriptor; each output pointer may be NULL to skip it.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM (never set).
** Thread safety: only reads the descriptor; safe alongside other reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetAttentionDescriptor(const cldnnAttentionDescriptor_t desc, float* scale,
                                                       int* causal, float* dropout, uint64_t* seed,
                                                       uint64_t* offset, cldnnMathType_t* mathType);
/** Whether cldnnAttentionBackward must give the same bits on every call (cuDNN's deterministic
** algorithm option for attention; PyTorch's use_deterministic_algorithms). NON_DETERMINISTIC, a new
** descriptor's value, lets the backward add dQ's partial sums with atomic adds where that is
** measured faster: by default the FLOAT backward under DEFAULT_MATH (3xTF32) with D or Dv above 64
** on NVIDIA tensor cores (CLDNN_SOLVER_PARAMS or the tuning db may select it for other problems
** on those devices); DETERMINISTIC keeps fixed-order sums everywhere. Forward results do not depend
** on it. cldnnSetAttentionDescriptor leaves it as it is.
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc NULL); BAD_PARAM_OUT_OF_BOUND (a value not of
** cldnnDeterminism_t).
** Thread safety: as cldnnSetAttentionDescriptor. */
CLDNN_EXPORT cldnnStatus_t cldnnSetAttentionDescriptorDeterminism(cldnnAttentionDescriptor_t desc,
                                                                  cldnnDeterminism_t determinism);
/** Reads back the descriptor's determinism (NON_DETERMINISTIC unless set).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (desc or determinism NULL).
** Thread safety: only reads the descriptor; safe alongside other reads. */
CLDNN_EXPORT cldnnStatus_t cldnnGetAttentionDescriptorDeterminism(const cldnnAttentionDescriptor_t desc,
                                                                  cldnnDeterminism_t* determinism);
/** Workspace bytes of cldnnAttentionForward (*fwd) and cldnnAttentionBackward (*bwd) for these
** shapes: linear in the sequence lengths, never Sq x Sk: the backward's B * H * Sq floats, and where
** it sums dQ by atomic adds (the descriptor's determinism) those rounded up to a multiple of 4 plus
** B * H * Sq rows of D (rounded up to 16) floats. The size is the backward's with its gradients
** laid out as Q, K, V and O; the backward checks what its own views need. Either output may be
** NULL.
** Statuses: SUCCESS; the descriptor checks of cldnnAttentionForward.
** Thread safety: only reads the descriptors. */
CLDNN_EXPORT cldnnStatus_t cldnnGetAttentionWorkspaceSize(cldnnHandle_t handle,
                                                          const cldnnAttentionDescriptor_t attnDesc,
                                                          const cldnnTensorDescriptor_t qDesc,
                                                          const cldnnTensorDescriptor_t kDesc,
                                                          const cldnnTensorDescriptor_t vDesc,
                                                          const cldnnTensorDescriptor_t oDesc, size_t* fwdSize,
                                                          size_t* bwdSize);
/** O and, when stats is not NULL, the statistics (statsDesc may then be NULL too). Offsets are in
** bytes, aligned to the element size (the workspace's to 4).
** Statuses: SUCCESS; BAD_PARAM_NULL_POINTER (handle, attnDesc, a descriptor or a buffer NULL);
** BAD_PARAM (a descriptor never set, not 4-d, data types that differ, H not a multiple of Hkv,
** statistics not FLOAT); BAD_PARAM_SHAPE_MISMATCH (B, heads, lengths or head sizes that do not
** agree); BAD_PARAM_SIZE_INSUFFICIENT (a buffer smaller than its view, workspaceSize below
** cldnnGetAttentionWorkspaceSize's); BAD_PARAM_MISALIGNED; NOT_SUPPORTED_SHAPE (D or Dv above 256,
** more than 2^31 rows); NOT_SUPPORTED_DATA_TYPE; the run failures of every primitive.
** Thread safety: one thread at a time per handle (with the descriptors it reads not being Set
** meanwhile); different handles may be used from different threads at once. */
CLDNN_EXPORT cldnnStatus_t cldnnAttentionForward(
    cldnnHandle_t handle, const cldnnAttentionDescriptor_t attnDesc, const cldnnTensorDescriptor_t qDesc, cl_mem q,
    size_t qOffset, const cldnnTensorDescriptor_t kDesc, cl_mem k, size_t kOffset, const cldnnTensorDescriptor_t vDesc,
    cl_mem v, size_t vOffset, const cldnnTensorDescriptor_t oDesc, cl_mem o, size_t oOffset,
    const cldnnTensorDescriptor_t statsDesc, cl_mem stats, size_t statsOffset, cl_mem workspace,
    size_t workspaceOffset, size_t workspaceSizeInBytes);
/** dQ, dK and dV (overwritten; each descriptor has the dims of q, k, v) from Q, K, V, O, dO and
** the forward's statistics (required), with the forward's descriptor (same scale, mask, dropout
** seed and offset). DETERMINISTIC descriptors: fixed-order sums, no atomics; otherwise dQ may be
** summed by atomic adds (cldnnSetAttentionDescriptorDeterminism). With grouped-query attention dK
** and dV sum over the H / Hkv query heads of each kv head.
** Statuses: as cldnnAttentionForward, and BAD_PARAM_NULL_POINTER (stats NULL).
** Thread safety: as cldnnAttentionForward. */
CLDNN_EXPORT cldnnStatus_t cldnnAttentionBackward(
    cldnnHandle_t handle, const cldnnAttentionDescriptor_t attnDesc, const cldnnTensorDescriptor_t qDesc, cl_mem q,
    size_t qOffset, const cldnnTensorDescriptor_t kDesc, cl_mem k, size_t kOffset, const cldnnTensorDescriptor_t vDesc,
    cl_mem v, size_t vOffset, const cldnnTensorDescriptor_t oDesc, cl_mem o, size_t oOffset,
    const cldnnTensorDescriptor_t doDesc, cl_mem dO, size_t dOOffset, const cldnnTensorDescriptor_t statsDesc,
    cl_mem stats, size_t statsOffset, const cldnnTensorDescriptor_t dqDesc, cl_mem dq, size_t dqOffset,
    const cldnnTensorDescriptor_t dkDesc, cl_mem dk, size_t dkOffset, const cldnnTensorDescriptor_t dvDesc, cl_mem dv,
    size_t dvOffset, cl_mem workspace, size_t workspaceOffset, size_t workspaceSizeInBytes);

#ifdef __cplusplus
}
#endif

#endif /* CLDNN_API_H_ */
