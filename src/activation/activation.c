/*
** activation.c: activation descriptors and cldnnActivationForward/Backward.
**
** Both directions are elementwise problems (tensor/eltwise.c): forward reads x, backward reads
** dy and, depending on the mode, y (SIGMOID, TANH: the derivative is a function of the output,
** as cuDNN computes it) or x (every other mode). The math of each mode is defined once, in
** kernels/common/activation.h.
*/
#include "tensor/eltwise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cldnnActivationStruct {
    int is_set;
    cldnnActivationMode_t mode;
    cldnnNanPropagation_t nan;
    double coef;
    double swish_beta;
};

static const struct {
    cldnnActivationMode_t mode;
    const char* name; /* cldnn-bench -m */
} modes[] = {
    {CLDNN_ACTIVATION_SIGMOID, "sigmoid"},   {CLDNN_ACTIVATION_RELU, "relu"},
    {CLDNN_ACTIVATION_TANH, "tanh"},         {CLDNN_ACTIVATION_CLIPPED_RELU, "clippedrelu"},
    {CLDNN_ACTIVATION_ELU, "elu"},           {CLDNN_ACTIVATION_IDENTITY, "identity"},
    {CLDNN_ACTIVATION_SWISH, "swish"},       {CLDNN_ACTIVATION_LEAKY_RELU, "leakyrelu"},
    {CLDNN_ACTIVATION_SOFTPLUS, "softplus"}, {CLDNN_ACTIVATION_ABS, "abs"},
    {CLDNN_ACTIVATION_GELU, "gelu"},
};

static const char* mode_name(cldnnActivationMode_t m) {
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; ++i)
        if (modes[i].mode == m)
            return modes[i].name;
    return NULL;
}

cldnnStatus_t cldnnCreateActivationDescriptor(cldnnActivationDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "activation");
    (*desc)->swish_beta = 1.0;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyActivationDescriptor(cldnnActivationDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetActivationDescriptor(cldnnActivationDescriptor_t desc, cldnnActivationMode_t mode,
                                           cldnnNanPropagation_t nanOpt, double coef) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (mode_name(mode) == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "mode %d is not a cldnnActivationMode_t value", (int)mode);
    if (nanOpt != CLDNN_NOT_PROPAGATE_NAN && nanOpt != CLDNN_PROPAGATE_NAN)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "nanOpt %d is not a cldnnNanPropagation_t value",
                          (int)nanOpt);
    if (!isfinite(coef))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "coef must be finite");
    if (mode == CLDNN_ACTIVATION_CLIPPED_RELU && !(coef > 0.0))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "CLIPPED_RELU needs a ceiling coef > 0, got %g", coef);
    desc->mode = mode;
    desc->nan = nanOpt;
    desc->coef = coef;
    desc->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetActivationDescriptor(const cldnnActivationDescriptor_t desc, cldnnActivationMode_t* mode,
                                           cldnnNanPropagation_t* nanOpt, double* coef) {
    cldnn_error_clear();
    if (desc == NULL || mode == NULL || nanOpt == NULL || coef == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", desc == NULL ? "desc" : "an output pointer");
    if (!desc->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "desc was created but never set");
    *mode = desc->mode;
    *nanOpt = desc->nan;
    *coef = desc->coef;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetActivationDescriptorSwishBeta(cldnnActivationDescriptor_t desc, double swishBeta) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (!isfinite(swishBeta))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "swishBeta must be finite");
    desc->swish_beta = swishBeta;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetActivationDescriptorSwishBeta(const cldnnActivationDescriptor_t desc, double* swishBeta) {
    cldnn_error_clear();
    if (desc == NULL || swishBeta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", desc == NULL ? "desc" : "swishBeta");
    *swishBeta = desc->swish_beta;
    return CLDNN_STATUS_SUCCESS;
}

static cldnnStatus_t check_desc(const struct cldnnActivationStruct* d) {
    if (d == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "activationDesc is NULL");
    if (!d->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "activationDesc was created but never set");
    return CLDNN_STATUS_SUCCESS;
}

static void log_cmd(const struct cldnnActivationStruct* d, int dir, const struct cldnnTensorStruct* t,
                    const void* alpha, const void* beta) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400];
    cldnn_bench_shape_flags(shape, sizeof shape, t);
    /* shape last: it may end in a shell comment */
    cldnn_log_cmd("activ -m %s -F %d -x %g -b %g -N %d -A %g -B %g %s", mode_name(d->mode), dir, d->coef,
                  d->swish_beta, d->nan == CLDNN_PROPAGATE_NAN, (double)cldnn_scalar_as_float(alpha, t->dtype),
                  (double)cldnn_scalar_as_float(beta, t->dtype), shape);
}

static void set_act(cldnn_elt_problem* p, const struct cldnnActivationStruct* d, const void* alpha, const void* beta,
                    cldnnDataType_t t) {
    p->act_mode = (int)d->mode;
    p->nan_prop = d->nan == CLDNN_PROPAGATE_NAN;
    p->coef = (float)d->coef;
    p->coef2 = (float)d->swish_beta;
    p->alpha = cldnn_scalar_as_float(alpha, t);
    p->beta = cldnn_scalar_as_float(beta, t);
}

static const char* problem_key(char* buf, size_t size, const char* dir, const struct cldnnActivationStruct* d,
                               const struct cldnnTensorStruct* t) {
    if (cldnn_log_level() == 0)
        return "activation";
    char dims[200];
    cldnn_format_dims(dims, sizeof dims, t->nd, t->dims);
    snprintf(buf, size, "activ-%s:%s-nan%d-d%s-%s", dir, mode_name(d->mode), (int)d->nan, dims,
             cldnn_dtype_name(t->dtype));
    return buf;
}

cldnnStatus_t cldnnActivationForward(cldnnHandle_t handle, const cldnnActivationDescriptor_t activationDesc,
                                     const void* alpha, const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset,
                                     const void* beta, const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    CLDNN_TRY(check_desc(activationDesc));
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_same_dims(xDesc, "xDesc", yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(xDesc->dtype, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, xDesc, x, xOffset, "x"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    log_cmd(activationDesc, 1, xDesc, alpha, beta);

    const int64_t* strides[2] = {yDesc->strides, xDesc->strides};
    size_t offs[2] = {yOffset, xOffset};
    cldnn_elt_problem p;
    cldnn_elt_problem_init(&p, CLDNN_ELT_ACT_FWD, xDesc->dtype, yDesc->nd, yDesc->dims, 2, strides, offs);
    set_act(&p, activationDesc, alpha, beta, xDesc->dtype);
    cldnn_elt_buffers b = {{y, x, NULL}};
    char key[320];
    return cldnn_elt_run(handle, &p, &b, problem_key(key, sizeof key, "fwd", activationDesc, xDesc));
}

cldnnStatus_t cldnnActivationBackward(cldnnHandle_t handle, const cldnnActivationDescriptor_t activationDesc,
                                      const void* alpha, const cldnnTensorDescriptor_t yDesc, cl_mem y, size_t yOffset,
                                      const cldnnTensorDescriptor_t dyDesc, cl_mem dy, size_t dyOffset,
                                      const cldnnTensorDescriptor_t xDesc, cl_mem x, size_t xOffset, const void* beta,
                                      const cldnnTensorDescriptor_t dxDesc, cl_mem dx, size_t dxOffset) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    CLDNN_TRY(check_desc(activationDesc));
    if (alpha == NULL || beta == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL", alpha == NULL ? "alpha" : "beta");
    CLDNN_TRY(cldnn_check_tensor(yDesc, "yDesc"));
    CLDNN_TRY(cldnn_check_tensor(dyDesc, "dyDesc"));
    CLDNN_TRY(cldnn_check_tensor(xDesc, "xDesc"));
    CLDNN_TRY(cldnn_check_tensor(dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(yDesc, "yDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(dyDesc, "dyDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_same_dims(xDesc, "xDesc", dxDesc, "dxDesc"));
    CLDNN_TRY(cldnn_check_compute_dtype(dxDesc->dtype, "dxDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, yDesc, y, yOffset, "y"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dyDesc, dy, dyOffset, "dy"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, xDesc, x, xOffset, "x"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, dxDesc, dx, dxOffset, "dx"));
    log_cmd(activationDesc, 2, xDesc, alpha, beta);

    int from_y = activationDesc->mode == CLDNN_ACTIVATION_SIGMOID || activationDesc->mode == CLDNN_ACTIVATION_TANH;
    const struct cldnnTensorStruct* u = from_y ? yDesc : xDesc;
    const int64_t* strides[3] = {dxDesc->strides, u->strides, dyDesc->strides};
    size_t offs[3] = {dxOffset, from_y ? yOffset : xOffset, dyOffset};
    cldnn_elt_problem p;
    cldnn_elt_problem_init(&p, CLDNN_ELT_ACT_BWD, dxDesc->dtype, dxDesc->nd, dxDesc->dims, 3, strides, offs);
    set_act(&p, activationDesc, alpha, beta, dxDesc->dtype);
    cldnn_elt_buffers b = {{dx, from_y ? y : x, dy}};
    char key[320];
    return cldnn_elt_run(handle, &p, &b, problem_key(key, sizeof key, "bwd", activationDesc, xDesc));
}
