/*
** tensor.c: tensor and filter descriptors, and the checks every primitive applies to them.
**
** A tensor descriptor holds up to CLDNN_DIM_MAX dims in logical order (N, C, spatial...) with
** element strides; 4-d setters take NCHW-ordered dims whatever the memory format. Set validates
** everything once (dims and strides >= 1, the span in bytes below 2^63 without any intermediate
** overflow) so compute calls only compare descriptors and check buffers.
*/
#include "tensor/tensor.h"

#include <stdlib.h>
#include <string.h>

size_t cldnn_dtype_size(cldnnDataType_t t) {
    switch (t) {
    case CLDNN_DATA_FLOAT: return 4;
    case CLDNN_DATA_DOUBLE: return 8;
    case CLDNN_DATA_HALF: return 2;
    case CLDNN_DATA_INT8: return 1;
    case CLDNN_DATA_INT32: return 4;
    case CLDNN_DATA_UINT8: return 1;
    case CLDNN_DATA_BFLOAT16: return 2;
    case CLDNN_DATA_INT64: return 8;
    }
    return 0;
}

const char* cldnn_dtype_key(cldnnDataType_t t) {
    switch (t) {
    case CLDNN_DATA_FLOAT: return "f32";
    case CLDNN_DATA_HALF: return "f16";
    case CLDNN_DATA_BFLOAT16: return "bf16";
    default: return cldnn_dtype_name(t);
    }
}

const char* cldnn_dtype_build_option(cldnnDataType_t t) {
    return t == CLDNN_DATA_HALF ? " -DDATA_HALF=1" : t == CLDNN_DATA_BFLOAT16 ? " -DDATA_BF16=1" : "";
}

const char* cldnn_dtype_name(cldnnDataType_t t) {
    switch (t) {
    case CLDNN_DATA_FLOAT: return "float";
    case CLDNN_DATA_DOUBLE: return "double";
    case CLDNN_DATA_HALF: return "half";
    case CLDNN_DATA_INT8: return "int8";
    case CLDNN_DATA_INT32: return "int32";
    case CLDNN_DATA_UINT8: return "uint8";
    case CLDNN_DATA_BFLOAT16: return "bfloat16";
    case CLDNN_DATA_INT64: return "int64";
    }
    return "unknown";
}

float cldnn_scalar_as_float(const void* p, cldnnDataType_t t) {
    return t == CLDNN_DATA_DOUBLE ? (float)*(const double*)p : *(const float*)p;
}

void cldnn_format_dims(char* buf, size_t size, int nd, const int64_t* dims) {
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < nd; ++i)
        at = cldnn_appendf(buf, size, at, "%s%lld", i ? "x" : "", (long long)dims[i]);
}

const char* cldnn_tensor_layout(const struct cldnnTensorStruct* d) {
    int64_t s = 1;
    int packed = 1;
    for (int i = d->nd - 1; i >= 0 && packed; --i) {
        packed = d->strides[i] == s || d->dims[i] == 1;
        s *= d->dims[i];
    }
    if (packed)
        return "NCHW";
    if (d->nd == 4) {
        const int64_t* n = d->dims;
        const int64_t* st = d->strides;
        if ((st[1] == 1 || n[1] == 1) && (st[3] == n[1] || n[3] == 1) && (st[2] == n[3] * n[1] || n[2] == 1) &&
            (st[0] == n[2] * n[3] * n[1] || n[0] == 1))
            return "NHWC";
    }
    return NULL;
}

void cldnn_bench_shape_flags(char* buf, size_t size, const struct cldnnTensorStruct* d) {
    char dims[200];
    cldnn_format_dims(dims, sizeof dims, d->nd, d->dims);
    const char* layout = cldnn_tensor_layout(d);
    size_t at = cldnn_appendf(buf, size, 0, "-D %s -d %s", dims, cldnn_dtype_name(d->dtype));
    if (layout == NULL) {
        char st[200];
        cldnn_format_dims(st, sizeof st, d->nd, d->strides);
        cldnn_appendf(buf, size, at, " # strides %s (the bench runs it packed)", st);
    } else if (strcmp(layout, "NHWC") == 0) {
        cldnn_appendf(buf, size, at, " -L NHWC");
    }
}

/* Span and count of a view in elements, checked against 2^63 bytes. 0 on overflow. */
static int view_extent(int nd, const int64_t* dims, const int64_t* strides, size_t elem, int64_t* span,
                       int64_t* count) {
    int64_t sp = 1, ct = 1;
    for (int i = 0; i < nd; ++i) {
        int64_t t;
        if (__builtin_mul_overflow(dims[i] - 1, strides[i], &t) || __builtin_add_overflow(sp, t, &sp) ||
            __builtin_mul_overflow(ct, dims[i], &ct))
            return 0;
    }
    int64_t bytes;
    if (__builtin_mul_overflow(sp, (int64_t)elem, &bytes))
        return 0;
    *span = sp;
    *count = ct;
    return 1;
}

cldnnStatus_t cldnnCreateTensorDescriptor(cldnnTensorDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "tensor");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyTensorDescriptor(cldnnTensorDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_dtype_enum(cldnnDataType_t t) {
    if (cldnn_dtype_size(t) == 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "dataType %d is not a cldnnDataType_t value", (int)t);
    return CLDNN_STATUS_SUCCESS;
}

/* Validates and stores an Nd view; the descriptor is unchanged on failure. */
static cldnnStatus_t tensor_set(cldnnTensorDescriptor_t d, cldnnDataType_t t, int nd, const int64_t* dims,
                                const int64_t* strides) {
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    CLDNN_TRY(check_dtype_enum(t));
    if (nd < 1 || nd > CLDNN_DIM_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "nbDims %d is outside [1, %d]", nd, CLDNN_DIM_MAX);
    for (int i = 0; i < nd; ++i) {
        if (dims[i] < 1)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "dims[%d] = %lld must be >= 1", i, (long long)dims[i]);
        if (strides[i] < 1)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "strides[%d] = %lld must be >= 1", i,
                              (long long)strides[i]);
    }
    int64_t span, count;
    if (!view_extent(nd, dims, strides, cldnn_dtype_size(t), &span, &count))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                          "the tensor's size (dims times strides times %zu bytes) overflows 63 bits",
                          cldnn_dtype_size(t));
    d->dtype = t;
    d->nd = nd;
    memset(d->dims, 0, sizeof d->dims);
    memset(d->strides, 0, sizeof d->strides);
    memcpy(d->dims, dims, (size_t)nd * sizeof *dims);
    memcpy(d->strides, strides, (size_t)nd * sizeof *strides);
    d->span = span;
    d->count = count;
    d->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetTensor4dDescriptor(cldnnTensorDescriptor_t desc, cldnnTensorFormat_t format,
                                         cldnnDataType_t dataType, int n, int c, int h, int w) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (format != CLDNN_TENSOR_NCHW && format != CLDNN_TENSOR_NHWC)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "format %d is not a cldnnTensorFormat_t value",
                          (int)format);
    if (n < 1 || c < 1 || h < 1 || w < 1)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "dims n=%d c=%d h=%d w=%d must all be >= 1", n, c, h, w);
    int64_t dims[4] = {n, c, h, w};
    int64_t st[4];
    if (format == CLDNN_TENSOR_NCHW) {
        st[3] = 1;
        st[2] = w;
        st[1] = (int64_t)h * w;
        st[0] = (int64_t)c * h * w;
    } else {
        st[1] = 1;
        st[3] = c;
        st[2] = (int64_t)w * c;
        st[0] = (int64_t)h * w * c;
    }
    return tensor_set(desc, dataType, 4, dims, st);
}

cldnnStatus_t cldnnSetTensor4dDescriptorEx(cldnnTensorDescriptor_t desc, cldnnDataType_t dataType, int n, int c,
                                           int h, int w, int nStride, int cStride, int hStride, int wStride) {
    cldnn_error_clear();
    int64_t dims[4] = {n, c, h, w};
    int64_t st[4] = {nStride, cStride, hStride, wStride};
    return tensor_set(desc, dataType, 4, dims, st);
}

cldnnStatus_t cldnnSetTensorNdDescriptor(cldnnTensorDescriptor_t desc, cldnnDataType_t dataType, int nbDims,
                                         const int64_t dims[], const int64_t strides[]) {
    cldnn_error_clear();
    if (dims == NULL || strides == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", dims == NULL ? "dims" : "strides");
    return tensor_set(desc, dataType, nbDims, dims, strides);
}

cldnnStatus_t cldnn_check_tensor(const struct cldnnTensorStruct* d, const char* what) {
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", what);
    if (!d->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s was created but never set", what);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetTensor4dDescriptor(const cldnnTensorDescriptor_t desc, cldnnDataType_t* dataType, int* n,
                                         int* c, int* h, int* w, int* nStride, int* cStride, int* hStride,
                                         int* wStride) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_tensor(desc, "desc"));
    if (!dataType || !n || !c || !h || !w || !nStride || !cStride || !hStride || !wStride)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "an output pointer is NULL");
    if (desc->nd != 4)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "desc has %d dims, not 4", desc->nd);
    for (int i = 0; i < 4; ++i)
        if (desc->dims[i] > INT32_MAX || desc->strides[i] > INT32_MAX)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND,
                              "dim or stride %d does not fit an int: use cldnnGetTensorNdDescriptor", i);
    *dataType = desc->dtype;
    *n = (int)desc->dims[0];
    *c = (int)desc->dims[1];
    *h = (int)desc->dims[2];
    *w = (int)desc->dims[3];
    *nStride = (int)desc->strides[0];
    *cStride = (int)desc->strides[1];
    *hStride = (int)desc->strides[2];
    *wStride = (int)desc->strides[3];
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetTensorNdDescriptor(const cldnnTensorDescriptor_t desc, int nbDimsRequested,
                                         cldnnDataType_t* dataType, int* nbDims, int64_t dims[], int64_t strides[]) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_tensor(desc, "desc"));
    if (nbDimsRequested < 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "nbDimsRequested %d < 0", nbDimsRequested);
    if (dataType == NULL || nbDims == NULL || (nbDimsRequested > 0 && (dims == NULL || strides == NULL)))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "an output pointer is NULL");
    *dataType = desc->dtype;
    *nbDims = desc->nd;
    for (int i = 0; i < nbDimsRequested && i < desc->nd; ++i) {
        dims[i] = desc->dims[i];
        strides[i] = desc->strides[i];
    }
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetTensorSizeInBytes(const cldnnTensorDescriptor_t desc, size_t* size) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_tensor(desc, "desc"));
    if (size == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "size (output pointer) is NULL");
    uint64_t bytes = (uint64_t)desc->span * cldnn_dtype_size(desc->dtype);
    if (bytes > (uint64_t)SIZE_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "size does not fit size_t");
    *size = (size_t)bytes;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnn_check_same_dims(const struct cldnnTensorStruct* a, const char* an,
                                    const struct cldnnTensorStruct* b, const char* bn) {
    int same = a->nd == b->nd;
    for (int i = 0; same && i < a->nd; ++i)
        same = a->dims[i] == b->dims[i];
    if (!same) {
        char da[160], db[160];
        cldnn_format_dims(da, sizeof da, a->nd, a->dims);
        cldnn_format_dims(db, sizeof db, b->nd, b->dims);
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH, "%s is %s but %s is %s", an, da, bn, db);
    }
    if (a->dtype != b->dtype)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "%s holds %s but %s holds %s", an, cldnn_dtype_name(a->dtype), bn,
                          cldnn_dtype_name(b->dtype));
    return CLDNN_STATUS_SUCCESS;
}

double cldnn_dtype_storage_ulp(cldnnDataType_t t) {
    return t == CLDNN_DATA_HALF ? 0x1p-10 : t == CLDNN_DATA_BFLOAT16 ? 0x1p-7 : 0.0;
}

cldnnStatus_t cldnn_check_compute_dtype(cldnnDataType_t t, const char* what) {
    if (t == CLDNN_DATA_FLOAT || t == CLDNN_DATA_HALF || t == CLDNN_DATA_BFLOAT16)
        return CLDNN_STATUS_SUCCESS;
    return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE,
                      "%s holds %s; this call computes float from float, half and bfloat16 storage", what,
                      cldnn_dtype_name(t));
}

cldnnStatus_t cldnn_check_tensor_buffer(cldnnHandle_t h, const struct cldnnTensorStruct* d, cl_mem m, size_t off,
                                        const char* what) {
    size_t es = cldnn_dtype_size(d->dtype);
    return cldnn_check_buffer(h, m, off, es, (uint64_t)d->span * es, what);
}

/* ------------------------------------------------------------------ filters */

cldnnStatus_t cldnnCreateFilterDescriptor(cldnnFilterDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "filter");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyFilterDescriptor(cldnnFilterDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t filter_set(cldnnFilterDescriptor_t d, cldnnDataType_t t, cldnnTensorFormat_t format, int nd,
                                const int64_t* dims) {
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    CLDNN_TRY(check_dtype_enum(t));
    if (format != CLDNN_TENSOR_NCHW && format != CLDNN_TENSOR_NHWC)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "format %d is not a cldnnTensorFormat_t value",
                          (int)format);
    if (nd < 3 || nd > CLDNN_DIM_MAX)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "nbDims %d is outside [3, %d]", nd, CLDNN_DIM_MAX);
    int64_t count = 1;
    for (int i = 0; i < nd; ++i) {
        if (dims[i] < 1)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "dims[%d] = %lld must be >= 1", i, (long long)dims[i]);
        if (__builtin_mul_overflow(count, dims[i], &count))
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "the filter's element count overflows 63 bits");
    }
    int64_t bytes;
    if (__builtin_mul_overflow(count, (int64_t)cldnn_dtype_size(t), &bytes))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "the filter's size in bytes overflows 63 bits");
    d->dtype = t;
    d->format = format;
    d->nd = nd;
    memset(d->dims, 0, sizeof d->dims);
    memcpy(d->dims, dims, (size_t)nd * sizeof *dims);
    d->count = count;
    d->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetFilter4dDescriptor(cldnnFilterDescriptor_t desc, cldnnDataType_t dataType,
                                         cldnnTensorFormat_t format, int k, int c, int h, int w) {
    cldnn_error_clear();
    int64_t dims[4] = {k, c, h, w};
    return filter_set(desc, dataType, format, 4, dims);
}

cldnnStatus_t cldnnSetFilterNdDescriptor(cldnnFilterDescriptor_t desc, cldnnDataType_t dataType,
                                         cldnnTensorFormat_t format, int nbDims, const int64_t dims[]) {
    cldnn_error_clear();
    if (dims == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "dims is NULL");
    return filter_set(desc, dataType, format, nbDims, dims);
}

cldnnStatus_t cldnnGetFilterNdDescriptor(const cldnnFilterDescriptor_t desc, int nbDimsRequested,
                                         cldnnDataType_t* dataType, cldnnTensorFormat_t* format, int* nbDims,
                                         int64_t dims[]) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (!desc->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "desc was created but never set");
    if (nbDimsRequested < 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "nbDimsRequested %d < 0", nbDimsRequested);
    if (dataType == NULL || format == NULL || nbDims == NULL || (nbDimsRequested > 0 && dims == NULL))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "an output pointer is NULL");
    *dataType = desc->dtype;
    *format = desc->format;
    *nbDims = desc->nd;
    for (int i = 0; i < nbDimsRequested && i < desc->nd; ++i)
        dims[i] = desc->dims[i];
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetFilterSizeInBytes(const cldnnFilterDescriptor_t desc, size_t* size) {
    cldnn_error_clear();
    if (desc == NULL || size == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", desc == NULL ? "desc" : "size");
    if (!desc->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "desc was created but never set");
    *size = (size_t)desc->count * cldnn_dtype_size(desc->dtype);
    return CLDNN_STATUS_SUCCESS;
}
