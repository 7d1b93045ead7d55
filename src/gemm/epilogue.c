/*
** epilogue.c: the host side of the fused epilogue (kernels/common/epilogue.h) that every kernel
** writing a convolution's y takes: its build options and its arguments, which each kernel
** declares last so that one routine sets them whatever the kernel's own list.
*/
#include "gemm/gemm.h"

#include <stdio.h>
#include <string.h>

void cldnn_epilogue_options(const cldnn_epilogue* e, char* opts, size_t size) {
    if (e == NULL)
        return;
    const size_t len = strlen(opts);
    snprintf(opts + len, size > len ? size - len : 0, " -DEPI_ACT=%d -DEPI_Z=%d%s", e->act, e->use_z,
             e->bias_m ? " -DEPI_BIAS_M=1" : "");
}

cldnnStatus_t cldnn_epilogue_args(cl_kernel k, const cldnn_epilogue* e) {
    if (e == NULL || k == NULL) /* NULL k: a Prepare collecting programs (cldnn_kernel_args) */
        return CLDNN_STATUS_SUCCESS;
    cl_uint nargs = 0;
    cl_int err = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (err != CL_SUCCESS || nargs < 8)
        return CLDNN_FAIL(CLDNN_STATUS_INTERNAL_ERROR, "a fused kernel lists %u arguments (OpenCL error %d)",
                          (unsigned)nargs, (int)err);
    cl_ulong bo = e->bias_off, zo = e->z_off;
    cl_int nan = e->nanprop;
    /* EPI_PARAMS (kernels/common/epilogue.h), in its order. */
    return CLDNN_KERNEL_ARGS(k, nargs - 8, CLDNN_ARG(e->bias), CLDNN_ARG(bo), CLDNN_ARG(e->z), CLDNN_ARG(zo),
                             CLDNN_ARG(e->alpha2), CLDNN_ARG(e->coef), CLDNN_ARG(e->swish), CLDNN_ARG(nan));
}
