/*
** dropout.c: dropout descriptors and cldnnDropoutForward/Backward, y = x * mask / (1 - p).
**
** Both directions are elementwise problems (tensor/eltwise.c, CLDNN_ELT_DROPOUT): out, in, and a
** third operand with the packed row-major strides of the logical shape, whose index is the
** element's logical index. The mask of that index comes from Philox4x32-10
** (kernels/common/philox.h) keyed by the seed with the offset in the counter, so it depends on
** (seed, offset, logical index) only: the same on every device, layout and call.
**
** The reserve, when given, holds the mask as one byte per element (1 kept, 0 dropped) at the
** element's logical index: the forward stores it, the backward reads it. Without a reserve the
** backward regenerates the mask from its descriptor.
*/
#include "tensor/eltwise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct cldnnDropoutStruct {
    float dropout;
    uint64_t seed;
    uint64_t offset;
};

cldnnStatus_t cldnnCreateDropoutDescriptor(cldnnDropoutDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "dropout");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyDropoutDescriptor(cldnnDropoutDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetDropoutDescriptor(cldnnDropoutDescriptor_t desc, float dropout, uint64_t seed,
                                        uint64_t offset) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (!(dropout >= 0.0f && dropout < 1.0f))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "dropout %g is outside [0, 1)", (double)dropout);
    desc->dropout = dropout;
    desc->seed = seed;
    desc->offset = offset;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetDropoutDescriptor(const cldnnDropoutDescriptor_t desc, float* dropout, uint64_t* seed,
                                        uint64_t* offset) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (dropout != NULL)
        *dropout = desc->dropout;
    if (seed != NULL)
        *seed = desc->seed;
    if (offset != NULL)
        *offset = desc->offset;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDropoutGetReserveSpaceSize(const cldnnTensorDescriptor_t xDesc, size_t* sizeInBytes) {
    cldnn_error_clear();
    if (sizeInBytes == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "sizeInBytes is NULL");
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    *sizeInBytes = (size_t)xDesc->count; /* one byte per element */
    return CLDNN_STATUS_SUCCESS;
}

/* Both directions: out = in * mask / (1 - p); fwd names (x, y), bwd (dy, dx). */
static cldnnStatus_t dropout_run(cldnnHandle_t h, const struct cldnnDropoutStruct* d, int fwd,
                                 const struct cldnnTensorStruct* inDesc, cl_mem in, size_t inOff,
                                 const struct cldnnTensorStruct* outDesc, cl_mem out, size_t outOff, cl_mem reserve,
                                 size_t reserveOff, size_t reserveSize) {
    const char* in_name = fwd ? "x" : "dy";
    const char* out_name = fwd ? "y" : "dx";
    const char* in_desc = fwd ? "xDesc" : "dyDesc";
    const char* out_desc = fwd ? "yDesc" : "dxDesc";
    CLDNN_TRY(cldnn_check_handle(h));
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "dropoutDesc is NULL");
    CLDNN_TRY(cldnn_check_tensor(inDesc, in_desc));
    CLDNN_TRY(cldnn_check_tensor(outDesc, out_desc));
    CLDNN_TRY(cldnn_check_same_dims(inDesc, in_desc, outDesc, out_desc));
    CLDNN_TRY(cldnn_check_compute_dtype(outDesc->dtype, out_desc));
    CLDNN_TRY(cldnn_check_tensor_buffer(h, inDesc, in, inOff, in_name));
    CLDNN_TRY(cldnn_check_tensor_buffer(h, outDesc, out, outOff, out_name));
    CLDNN_TRY(cldnn_elt_check_alias(outDesc, out, outOff, out_name, inDesc, in, inOff, in_name));
    const uint64_t count = (uint64_t)outDesc->count;
    if (reserve == NULL && reserveSize != 0)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "reserveSpace is NULL but reserveSpaceSizeInBytes is %zu (NULL goes "
                          "with 0)", reserveSize);
    if (reserve != NULL) {
        if (reserveSize < count)
            return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT,
                              "reserveSpaceSizeInBytes %zu < %llu (cldnnDropoutGetReserveSpaceSize)", reserveSize,
                              (unsigned long long)count);
        CLDNN_TRY(cldnn_check_buffer(h, reserve, reserveOff, 1, count, "reserveSpace"));
    }
    if (cldnn_log_cmd_enabled()) {
        char shape[400];
        cldnn_bench_shape_flags(shape, sizeof shape, outDesc);
        cldnn_log_cmd("dropout -p %.9g --dir %s --reserve %d --offset %llu --drop-seed %llu %s", (double)d->dropout,
                      fwd ? "fwd" : "bwd", reserve != NULL, (unsigned long long)d->offset,
                      (unsigned long long)d->seed, shape);
    }

    int64_t logical[CLDNN_DIM_MAX];
    int64_t s = 1;
    for (int i = outDesc->nd - 1; i >= 0; --i) {
        logical[i] = s;
        s *= outDesc->dims[i];
    }
    const int64_t* strides[3] = {outDesc->strides, inDesc->strides, logical};
    size_t offs[3] = {outOff, inOff, 0};
    cldnn_elt_problem p;
    cldnn_elt_problem_init(&p, CLDNN_ELT_DROPOUT, outDesc->dtype, outDesc->nd, outDesc->dims, 3, strides, offs);
    p.offset[2] = reserve != NULL ? (uint64_t)reserveOff : 0; /* bytes: the reserve holds one per element */
    p.mask_mode = reserve == NULL ? CLDNN_ELT_MASK_GENERATE : fwd ? CLDNN_ELT_MASK_STORE : CLDNN_ELT_MASK_READ;
    p.gen[0] = (uint32_t)d->seed;
    p.gen[1] = (uint32_t)(d->seed >> 32);
    p.gen[2] = (uint32_t)d->offset;
    p.gen[3] = (uint32_t)(d->offset >> 32);
    /* dropout < 1 in float is at most 1 - 2^-24: the product stays below 2^32 */
    p.threshold = (uint32_t)floor((double)d->dropout * 4294967296.0);
    p.coef = (float)(1.0 / (1.0 - (double)d->dropout));
    p.alpha = 1.0f;
    p.beta = 0.0f;
    cldnn_elt_buffers b = {{out, in, reserve}};
    if (cldnn_log_level() == 0)
        return cldnn_elt_run(h, &p, &b, "dropout");
    char key[300], dims[200];
    cldnn_format_dims(dims, sizeof dims, outDesc->nd, outDesc->dims);
    snprintf(key, sizeof key, "dropout-%s:m%d-d%s-%s", fwd ? "fwd" : "bwd", p.mask_mode, dims,
             cldnn_dtype_name(outDesc->dtype));
    return cldnn_elt_run(h, &p, &b, key);
}

cldnnStatus_t cldnnDropoutForward(cldnnHandle_t handle, const cldnnDropoutDescriptor_t dropoutDesc,
                                  const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                  const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset, cl_mem reserveSpace,
                                  size_t reserveSpaceOffset, size_t reserveSpaceSizeInBytes) {
    cldnn_error_clear();
    return dropout_run(handle, dropoutDesc, 1, xDesc, x, xOffset, yDesc, y, yOffset, reserveSpace,
                       reserveSpaceOffset, reserveSpaceSizeInBytes);
}

cldnnStatus_t cldnnDropoutBackward(cldnnHandle_t handle, const cldnnDropoutDescriptor_t dropoutDesc,
                                   const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                                   const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset,
                                   cl_mem reserveSpace, size_t reserveSpaceOffset, size_t reserveSpaceSizeInBytes) {
    cldnn_error_clear();
    return dropout_run(handle, dropoutDesc, 0, dyDesc, dy, dyOffset, dxDesc, dx, dxOffset, reserveSpace,
                       reserveSpaceOffset, reserveSpaceSizeInBytes);
}
