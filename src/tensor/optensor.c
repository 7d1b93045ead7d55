/*
** optensor.c: op tensor descriptors and cldnnOpTensor, C = op(alpha1 * A, alpha2 * B) + beta * C.
**
** One elementwise problem (tensor/eltwise.c, CLDNN_ELT_BINARY): C is operand 0, A operand 1, B
** operand 2, each input broadcast over its size-1 dims by a stride of 0 (on either side, wider
** than cuDNN's B-only broadcast); the operation is a build option of the one eltwise kernel source.
** SQRT and NOT read no B: bDesc, B and alpha2 are then ignored (and may be NULL).
*/
#include "tensor/eltwise.h"

#include <stdio.h>
#include <stdlib.h>

struct cldnnOpTensorStruct {
    int is_set;
    cldnnOpTensorOp_t op;
    cldnnDataType_t comp;
    cldnnNanPropagation_t nan;
};

static const struct {
    cldnnOpTensorOp_t op;
    const char* name; /* cldnn-bench --op */
} ops[] = {
    {CLDNN_OP_TENSOR_ADD, "add"}, {CLDNN_OP_TENSOR_MUL, "mul"},   {CLDNN_OP_TENSOR_MIN, "min"},
    {CLDNN_OP_TENSOR_MAX, "max"}, {CLDNN_OP_TENSOR_SQRT, "sqrt"}, {CLDNN_OP_TENSOR_NOT, "not"},
    {CLDNN_OP_TENSOR_DIV, "div"},
};

static const char* op_name(cldnnOpTensorOp_t op) {
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; ++i)
        if (ops[i].op == op)
            return ops[i].name;
    return NULL;
}

cldnnStatus_t cldnnCreateOpTensorDescriptor(cldnnOpTensorDescriptor_t* desc) {
    cldnn_error_clear();
    CLDNN_DESC_NEW(desc, "desc", "op tensor");
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnDestroyOpTensorDescriptor(cldnnOpTensorDescriptor_t desc) {
    cldnn_error_clear();
    free(desc);
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnSetOpTensorDescriptor(cldnnOpTensorDescriptor_t desc, cldnnOpTensorOp_t op,
                                         cldnnDataType_t compType, cldnnNanPropagation_t nanOpt) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (op_name(op) == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "op %d is not a cldnnOpTensorOp_t value", (int)op);
    if (nanOpt != CLDNN_NOT_PROPAGATE_NAN && nanOpt != CLDNN_PROPAGATE_NAN)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_OUT_OF_BOUND, "nanOpt %d is not a cldnnNanPropagation_t value",
                          (int)nanOpt);
    if (compType != CLDNN_DATA_FLOAT)
        return CLDNN_FAIL(CLDNN_STATUS_NOT_SUPPORTED_DATA_TYPE, "compType %d: op tensors compute in FLOAT",
                          (int)compType);
    desc->op = op;
    desc->comp = compType;
    desc->nan = nanOpt;
    desc->is_set = 1;
    return CLDNN_STATUS_SUCCESS;
}

cldnnStatus_t cldnnGetOpTensorDescriptor(const cldnnOpTensorDescriptor_t desc, cldnnOpTensorOp_t* op,
                                         cldnnDataType_t* compType, cldnnNanPropagation_t* nanOpt) {
    cldnn_error_clear();
    if (desc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "desc is NULL");
    if (!desc->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "desc was created but never set");
    if (op != NULL)
        *op = desc->op;
    if (compType != NULL)
        *compType = desc->comp;
    if (nanOpt != NULL)
        *nanOpt = desc->nan;
    return CLDNN_STATUS_SUCCESS;
}

/* The cldnn-bench line: C's shape from the common flags, A's and B's dims by flag. */
static void log_cmd(const struct cldnnOpTensorStruct* d, float a1, float a2, float beta,
                    const struct cldnnTensorStruct* a, const struct cldnnTensorStruct* b,
                    const struct cldnnTensorStruct* c) {
    if (!cldnn_log_cmd_enabled())
        return;
    char shape[400], ad[200], bdims[200], bd[220] = "";
    cldnn_bench_shape_flags(shape, sizeof shape, c);
    cldnn_format_dims(ad, sizeof ad, a->nd, a->dims);
    if (b != NULL) {
        cldnn_format_dims(bdims, sizeof bdims, b->nd, b->dims);
        snprintf(bd, sizeof bd, " --b-dims %s", bdims);
    }
    /* shape last: it may end in a shell comment */
    cldnn_log_cmd("optensor --op %s --a-dims %s%s -A %g --A2 %g -B %g --nan %d %s", op_name(d->op), ad, bd, (double)a1,
                  (double)a2, (double)beta, d->nan == CLDNN_PROPAGATE_NAN, shape);
}

cldnnStatus_t cldnnOpTensor(cldnnHandle_t handle, const cldnnOpTensorDescriptor_t opTensorDesc, const void* alpha1,
                            const cldnnTensorDescriptor_t aDesc, cl_mem A, size_t aOffset, const void* alpha2,
                            const cldnnTensorDescriptor_t bDesc, cl_mem B, size_t bOffset, const void* beta,
                            const cldnnTensorDescriptor_t cDesc, cl_mem C, size_t cOffset) {
    cldnn_error_clear();
    CLDNN_TRY(cldnn_check_handle(handle));
    if (opTensorDesc == NULL)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "opTensorDesc is NULL");
    if (!opTensorDesc->is_set)
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "opTensorDesc was created but never set");
    const int binary = opTensorDesc->op != CLDNN_OP_TENSOR_SQRT && opTensorDesc->op != CLDNN_OP_TENSOR_NOT;
    if (alpha1 == NULL || beta == NULL || (binary && alpha2 == NULL))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM_NULL_POINTER, "%s is NULL",
                          alpha1 == NULL ? "alpha1" : beta == NULL ? "beta" : "alpha2");
    CLDNN_TRY(cldnn_check_tensor(aDesc, "aDesc"));
    if (binary)
        CLDNN_TRY(cldnn_check_tensor(bDesc, "bDesc"));
    CLDNN_TRY(cldnn_check_tensor(cDesc, "cDesc"));
    int64_t astr[CLDNN_DIM_MAX], bstr[CLDNN_DIM_MAX];
    CLDNN_TRY(cldnn_elt_broadcast_strides(aDesc, "aDesc", cDesc, "cDesc", astr, NULL));
    if (binary)
        CLDNN_TRY(cldnn_elt_broadcast_strides(bDesc, "bDesc", cDesc, "cDesc", bstr, NULL));
    if (aDesc->dtype != cDesc->dtype || (binary && bDesc->dtype != cDesc->dtype))
        return CLDNN_FAIL(CLDNN_STATUS_BAD_PARAM, "aDesc holds %s, %s%s and cDesc %s: they must agree",
                          cldnn_dtype_name(aDesc->dtype), binary ? "bDesc " : "",
                          binary ? cldnn_dtype_name(bDesc->dtype) : "", cldnn_dtype_name(cDesc->dtype));
    CLDNN_TRY(cldnn_check_compute_dtype(cDesc->dtype, "cDesc"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, aDesc, A, aOffset, "A"));
    if (binary)
        CLDNN_TRY(cldnn_check_tensor_buffer(handle, bDesc, B, bOffset, "B"));
    CLDNN_TRY(cldnn_check_tensor_buffer(handle, cDesc, C, cOffset, "C"));
    CLDNN_TRY(cldnn_elt_check_alias(cDesc, C, cOffset, "C", aDesc, A, aOffset, "A"));
    if (binary)
        CLDNN_TRY(cldnn_elt_check_alias(cDesc, C, cOffset, "C", bDesc, B, bOffset, "B"));
    const float a1 = *(const float*)alpha1, a2 = binary ? *(const float*)alpha2 : 0.0f, bt = *(const float*)beta;
    log_cmd(opTensorDesc, a1, a2, bt, aDesc, binary ? bDesc : NULL, cDesc);

    const int64_t* strides[3] = {cDesc->strides, astr, bstr};
    size_t offs[3] = {cOffset, aOffset, bOffset};
    cldnn_elt_problem p;
    cldnn_elt_problem_init(&p, CLDNN_ELT_BINARY, cDesc->dtype, cDesc->nd, cDesc->dims, binary ? 3 : 2, strides, offs);
    p.binop = (int)opTensorDesc->op;
    p.nan_prop = opTensorDesc->nan == CLDNN_PROPAGATE_NAN;
    p.coef = a1;
    p.coef2 = a2;
    p.alpha = 1.0f;
    p.beta = bt;
    cldnn_elt_buffers b = {{C, A, binary ? B : NULL}};
    if (cldnn_log_level() == 0)
        return cldnn_elt_run(handle, &p, &b, "optensor");
    char key[700], cd[200], ad[200], bd[200] = "-";
    cldnn_format_dims(cd, sizeof cd, cDesc->nd, cDesc->dims);
    cldnn_format_dims(ad, sizeof ad, aDesc->nd, aDesc->dims);
    if (binary)
        cldnn_format_dims(bd, sizeof bd, bDesc->nd, bDesc->dims);
    snprintf(key, sizeof key, "optensor:%s-nan%d-c%s-a%s-b%s-%s", op_name(opTensorDesc->op), (int)opTensorDesc->nan,
             cd, ad, bd, cldnn_dtype_name(cDesc->dtype));
    return cldnn_elt_run(handle, &p, &b, key);
}
