/*
** ops.c: tensor ops: cldnnAddTensor (with broadcasting), cldnnSetTensor, cldnnScaleTensor and
** cldnnTransformTensor (any strides to any strides). All four are elementwise problems
** (eltwise.c): a broadcast dimension is a stride of 0 on A, scale reads and writes y itself.
*/
#include "tensor/eltwise.h"

#include <stdio.h>

/* Logs the cldnn-bench line of a tensor op on shape t (the input's layout for transform, whose
** bench mode converts -L's layout into the other one). */
static void log_tensor_cmd(const char* op, const struct cldnnTensorStruct* t, const char* extra, const void* alpha,
                           const void* beta) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400];
    cldnn_bench_shape_flags(shape, sizeof shape, t);
    cldnn_log_cmd("tensor -o %s%s -A %g -B %g %s", op, extra, alpha ? (double)cldnn_scalar_as_float(alpha, t->dtype) : 1.0,
                  beta ? (double)cldnn_scalar_as_float(beta, t->dtype) : 0.0, shape);
}

static const char* tensor_key(char* buf, size_t size, const char* op, const struct cldnnTensorStruct* t) {
    if (cldnn_log_level() == 0)
        return op;
    char dims[200];
    cldnn_format_dims(dims, sizeof dims, t->nd, t->dims);
    snprintf(buf, size, "tensor-%s:d%s-%s", op, dims, cldnn_dtype_name(t->dtype));
    return buf;
}

cldnnStatus_t cldnnAddTensor(cldnnHandle_t handle, const void* alpha, const cldnnTensorDescriptor_t aDesc, cl_mem A,
                             size_t aOffset, const void* beta, const cldnnTensorDescriptor_t cDesc, cl_mem C,
                             size_t cOffset) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    CLDNN_TRY(cldnn_check_tensor(aDesc, "aDesc"));
    CLDNN_TRY(cldnn_check_tensor(cDesc, "cDesc"));
    int64_t astr[CLDNN_DIM_MAX];
    int broadcast = 0;
    CLDNN_TRY(cldnn_elt_broadcast_strides(aDesc, "aDesc", cDesc, "cDesc", astr, &broadcast));
    if (aDesc->dtype != cDesc->dtype)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "aDesc holds %s but cDesc holds %s", cldnn_dtype_name(aDesc->dtype),
                          cldnn_dtype_name(cDesc->dtype));
    CLDNN_TRY(cldnn_check_compute_dtype(cDesc->dtype, "cDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, aDesc, A, aOffset, "A"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, cDesc, C, cOffset, "C"));
    /* cldnn-bench add: -b 1 is A = 1 x C x 1 x 1 (a bias), -b 0 A of C's shape. */
    int bias = aDesc->nd == 4 && aDesc->dims[0] == 1 && aDesc->dims[2] == 1 && aDesc->dims[3] == 1 &&
               aDesc->dims[1] == cDesc->dims[1];
    log_tensor_cmd("add", cDesc, !broadcast ? " -b 0" : bias ? " -b 1" : " -b 1 # A broadcast differs from a bias",
                   alpha, beta);

    const int64_t* strides[2] = {cDesc->strides, astr};
    size_t offs[2] = {cOffset, aOffset};
    cldnn_elt_problem p;
    cldnn_elt_problem_init(&p, CLDNN_ELT_AXPBY, cDesc->dtype, cDesc->nd, cDesc->dims, 2, strides, offs);
    p.alpha = cldnn_scalar_as_float(alpha, cDesc->dtype);
    p.beta = cldnn_scalar_as_float(beta, cDesc->dtype);
    cldnn_elt_buffers b = {{C, A, NULL}};
    char key[300];
    return cldnn_elt_run(handle, &p, &b, tensor_key(key, sizeof key, "add", cDesc));
}

cldnnStatus_t cldnnSetTensor(cldnnHandle_t handle, const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                             const void* value) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (value == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "value is NULL");
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(yDesc->dtype, "yDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    log_tensor_cmd("set", yDesc, "", value, NULL);

    const int64_t* strides[1] = {yDesc->strides};
    size_t offs[1] = {yOffset};
    cldnn_elt_problem p;
    cldnn_elt_problem_init(&p, CLDNN_ELT_SET, yDesc->dtype, yDesc->nd, yDesc->dims, 1, strides, offs);
    p.coef = cldnn_scalar_as_float(value, yDesc->dtype);
    p.alpha = 1.0f;
    p.beta = 0.0f;
    cldnn_elt_buffers b = {{y, NULL, NULL}};
    char key[300];
    return cldnn_elt_run(handle, &p, &b, tensor_key(key, sizeof key, "set", yDesc));
}

cldnnStatus_t cldnnScaleTensor(cldnnHandle_t handle, const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                               const void* alpha) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (alpha == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "alpha is NULL");
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(yDesc->dtype, "yDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    log_tensor_cmd("scale", yDesc, "", alpha, NULL);

    const int64_t* strides[2] = {yDesc->strides, yDesc->strides};
    size_t offs[2] = {yOffset, yOffset};
    cldnn_elt_problem p;
    cldnn_elt_problem_init(&p, CLDNN_ELT_AXPBY, yDesc->dtype, yDesc->nd, yDesc->dims, 2, strides, offs);
    p.alpha = cldnn_scalar_as_float(alpha, yDesc->dtype);
    p.beta = 0.0f;
    cldnn_elt_buffers b = {{y, y, NULL}};
    char key[300];
    return cldnn_elt_run(handle, &p, &b, tensor_key(key, sizeof key, "scale", yDesc));
}

cldnnStatus_t cldnnTransformTensor(cldnnHandle_t handle, const void* alpha, const cldnnTensorDescriptor_t xDesc,
                                   cl_mem x, size_t xOffset, const void* beta, const cldnnTensorDescriptor_t yDesc,
                                   cl_mem y, size_t yOffset) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_same_dims(xDesc, "xDesc", yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(yDesc->dtype, "yDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, xDesc, x, xOffset, "x"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    log_tensor_cmd("transform", xDesc, "", alpha, beta);

    const int64_t* strides[2] = {yDesc->strides, xDesc->strides};
    size_t offs[2] = {yOffset, xOffset};
    cldnn_elt_problem p;
    cldnn_elt_problem_init(&p, CLDNN_ELT_AXPBY, yDesc->dtype, yDesc->nd, yDesc->dims, 2, strides, offs);
    p.alpha = cldnn_scalar_as_float(alpha, yDesc->dtype);
    p.beta = cldnn_scalar_as_float(beta, yDesc->dtype);
    cldnn_elt_buffers b = {{y, x, NULL}};
    char key[300];
    return cldnn_elt_run(handle, &p, &b, tensor_key(key, sizeof key, "transform", yDesc));
}
