// cxx_header.cpp: proves include/cldnn.h compiles as strict C++11 (-Wall -Wextra -pedantic -Werror)
// and links from C++ (the extern "C" block), using a few declarations of each kind. Runs no
// OpenCL work; exits 0 when the linked library's version matches the header's.
#include <cldnn.h>

#include <cstdio>
#include <cstring>

// A function pointer of each family, so a signature drift between header and library that C++
// overload rules would catch shows up here.
static cldnnStatus_t (*const k_create)(cldnnHandle_t*, cl_command_queue) = cldnnCreate;
static cldnnStatus_t (*const k_act_fwd)(cldnnHandle_t, const cldnnActivationDescriptor_t, const void*,
                                        const cldnnTensorDescriptor_t, cl_mem, size_t, const void*,
                                        const cldnnTensorDescriptor_t, cl_mem, size_t) = cldnnActivationForward;

// main: 0 when the header and the linked library agree, 1 otherwise.
int main() {
    // Calls through the pointers with NULL arguments: rejected before any OpenCL work.
    if (k_create(nullptr, nullptr) != CLDNN_STATUS_BAD_PARAM_NULL_POINTER) return 1;
    if (k_act_fwd(nullptr, nullptr, nullptr, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0) !=
        CLDNN_STATUS_BAD_PARAM_NULL_POINTER)
        return 1;
    if (cldnnGetVersion() != static_cast<size_t>(CLDNN_VERSION)) {
        std::fprintf(stderr, "library version %zu, header %d\n", cldnnGetVersion(), CLDNN_VERSION);
        return 1;
    }
    if (std::strcmp(cldnnGetErrorString(CLDNN_STATUS_SUCCESS), "CLDNN_STATUS_SUCCESS") != 0) return 1;
    if (CLDNN_STATUS_CATEGORY(CLDNN_STATUS_BAD_PARAM_SHAPE_MISMATCH) != CLDNN_STATUS_BAD_PARAM) return 1;

    // Host-only descriptor calls work from C++ too.
    cldnnTensorDescriptor_t t = nullptr;
    if (cldnnCreateTensorDescriptor(&t) != CLDNN_STATUS_SUCCESS) return 1;
    cldnnStatus_t s = cldnnSetTensor4dDescriptor(t, CLDNN_TENSOR_NHWC, CLDNN_DATA_FLOAT, 1, 2, 3, 4);
    size_t bytes = 0;
    if (s == CLDNN_STATUS_SUCCESS) s = cldnnGetTensorSizeInBytes(t, &bytes);
    cldnnDestroyTensorDescriptor(t);
    if (s != CLDNN_STATUS_SUCCESS || bytes != 1 * 2 * 3 * 4 * sizeof(float)) return 1;

    cldnnActivationDescriptor_t a = nullptr;
    if (cldnnCreateActivationDescriptor(&a) != CLDNN_STATUS_SUCCESS) return 1;
    s = cldnnSetActivationDescriptor(a, CLDNN_ACTIVATION_GELU, CLDNN_PROPAGATE_NAN, 0.0);
    cldnnDestroyActivationDescriptor(a);
    if (s != CLDNN_STATUS_SUCCESS) return 1;

    char buf[64];
    cldnnGetLastErrorString(buf, sizeof buf);
    std::printf("cldnn %zu from C++11: ok\n", cldnnGetVersion());
    return 0;
}
