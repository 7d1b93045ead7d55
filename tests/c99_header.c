/*
** c99_header.c: proves include/cldnn.h compiles as strict C99 (-std=c99 -pedantic -Wall -Wextra
** -Werror) and links, using a few declarations of each kind. Runs no OpenCL work; exits 0 when
** the linked library's version matches the header's.
*/
#include <cldnn.h>

#include <stdio.h>
#include <string.h>

/* main: returns 0 when the header's constants and the library agree, 1 otherwise. */
int main(void) {
    cldnnTensorDescriptor_t t = NULL;
    cldnnFilterDescriptor_t f = NULL;
    cldnnStatus_t s;
    size_t bytes = 0;
    int64_t dims[3] = {4, 3, 5};
    cldnnStatus_t (*fwd)(cldnnHandle_t, const cldnnActivationDescriptor_t, const void*,
                         const cldnnTensorDescriptor_t, cl_mem, size_t, const void*,
                         const cldnnTensorDescriptor_t, cl_mem, size_t) = cldnnActivationForward;

    if (fwd(NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, 0) != CLDNN_STATUS_BAD_PARAM_NULL_POINTER)
        return 1;
    if (cldnnGetVersion() != (size_t)CLDNN_VERSION) {
        fprintf(stderr, "library version %lu, header %d\n", (unsigned long)cldnnGetVersion(), CLDNN_VERSION);
        return 1;
    }
    if (strcmp(cldnnGetErrorString(CLDNN_STATUS_NOT_SUPPORTED_DEVICE), "CLDNN_STATUS_NOT_SUPPORTED_DEVICE") != 0)
        return 1;
    if (cldnnCreateTensorDescriptor(&t) != CLDNN_STATUS_SUCCESS)
        return 1;
    s = cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NCHW, CLDNN_DATA_HALF, 2, 3, 4, 5);
    if (s == CLDNN_STATUS_SUCCESS)
        s = cldnnGetTensorSizeInBytes(t, &bytes);
    cldnnDestroyTensorDescriptor(t);
    if (s != CLDNN_STATUS_SUCCESS || bytes != 2 * 3 * 4 * 5 * 2)
        return 1;
    if (cldnnCreateFilterDescriptor(&f) != CLDNN_STATUS_SUCCESS)
        return 1;
    s = cldnnSetFilterNdDescriptor(f, CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, 3, dims);
    cldnnDestroyFilterDescriptor(f);
    if (s != CLDNN_STATUS_SUCCESS)
        return 1;
    printf("cldnn %lu from C99: ok\n", (unsigned long)cldnnGetVersion());
    return 0;
}
