/*
** tensor.h: tensor and filter descriptors (tensor/tensor.c), the data description every
** family reads, and the checks and key fields built from them.
*/
#ifndef CLDNN_TENSOR_H_
#define CLDNN_TENSOR_H_

#include "internal.h"

/* ------------------------------------------------------------- descriptors (tensor/tensor.c) */

struct cldnnTensorStruct {
    int is_set;
    cldnnDataType_t dtype;
    int nd;
    int64_t dims[CLDNN_DIM_MAX];
    int64_t strides[CLDNN_DIM_MAX];
    int64_t span;     /* elements: 1 + sum (dims-1)*strides */
    int64_t count;    /* elements: product of dims */
};

struct cldnnFilterStruct {
    int is_set;
    cldnnDataType_t dtype;
    cldnnTensorFormat_t format;
    int nd;
    int64_t dims[CLDNN_DIM_MAX];
    int64_t count;
};

/* Size in bytes of one element; 0 for a value outside the enum. */
size_t cldnn_dtype_size(cldnnDataType_t t);
const char* cldnn_dtype_name(cldnnDataType_t t); /* "float", "half", ... */
/* The type's field in problem keys (find-db, tuning db, logs): "f32", "f16", else the name. */
const char* cldnn_dtype_key(cldnnDataType_t t); /* "bf16" for BFLOAT16 */
/* The kernels' storage build option (kernels/common/helpers.h): " -DDATA_HALF=1" for HALF,
** " -DDATA_BF16=1" for BFLOAT16, else "". */
const char* cldnn_dtype_build_option(cldnnDataType_t t);
/* NULL / never-Set descriptor checks, recording which argument. */
cldnnStatus_t cldnn_check_tensor(const struct cldnnTensorStruct* d, const char* what);
/* Same dims (count and extents) -> SUCCESS, else BAD_PARAM_SHAPE_MISMATCH naming both. */
cldnnStatus_t cldnn_check_same_dims(const struct cldnnTensorStruct* a, const char* an,
                                    const struct cldnnTensorStruct* b, const char* bn);
/* The relative spacing of a storage type's values beside float arithmetic's (2^-10 HALF, 2^-7
** BFLOAT16, 0 FLOAT and others): a result whose float sums differ in their last bits may round to
** a neighbour that far apart, which tolerances between candidates allow for. */
double cldnn_dtype_storage_ulp(cldnnDataType_t t);
/* Data types a compute call handles: FLOAT everywhere, HALF and BFLOAT16 as storage. */
cldnnStatus_t cldnn_check_compute_dtype(cldnnDataType_t t, const char* what);
/* Checks a tensor's buffer (alignment, context, CL_MEM_SIZE against the descriptor's span). */
cldnnStatus_t cldnn_check_tensor_buffer(cldnnHandle_t h, const struct cldnnTensorStruct* d, cl_mem m, size_t off,
                                        const char* what);
/* "NCHW" or "NHWC" when d is a packed tensor of that layout (any number of dims for NCHW, 4
** for NHWC), NULL for any other strides. */
const char* cldnn_tensor_layout(const struct cldnnTensorStruct* d);
/* The cldnn-bench flags that describe d's shape: "-D 32x64x56x56 -d float -L NHWC", with a
** shell comment naming the strides when they are not a packed layout the bench can express. */
void cldnn_bench_shape_flags(char* buf, size_t size, const struct cldnnTensorStruct* d);
/* "32x64x56x56" into buf. */
void cldnn_format_dims(char* buf, size_t size, int nd, const int64_t* dims);
/* Reads a host scalar (alpha, beta, value) of the data type's scalar kind as float. */
float cldnn_scalar_as_float(const void* p, cldnnDataType_t t);

#endif /* CLDNN_TENSOR_H_ */
