// cxx_wrapper.cpp: the C++ layer (include/cldnn.hpp) as strict C++11. A ReLU through RAII owners on
// the default device, checked on the host; a bad call must throw cldnn::error with the status and
// the last-error text; moved-from owners must not double-destroy (run under ASan/valgrind to see).
// Exits 0 on success, 1 with a message otherwise.
#include <cldnn.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

int main() {
    try {
        cldnn::handle h;
        cldnn::tensor_descriptor t(CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 2, 3, 5, 7);
        cldnn::tensor_descriptor moved(std::move(t));  // t is empty now; only `moved` destroys
        cldnn::activation_descriptor relu(CLDNN_ACTIVATION_RELU);
        const size_t n = moved.size_in_bytes() / sizeof(float);
        std::vector<float> host(n), out(n);
        for (size_t i = 0; i < n; ++i) host[i] = static_cast<float>(static_cast<int>(i % 17) - 8) * 0.25f;
        cl_context ctx;
        cl_command_queue q = h.queue();
        if (clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, nullptr) != CL_SUCCESS) return 1;
        cl_int err;
        cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), host.data(), &err);
        if (err != CL_SUCCESS) return 1;
        const float one = 1.0f, zero = 0.0f;
        cldnn::check(cldnnActivationForward(h, relu, &one, moved, buf, 0, &zero, moved, buf, 0));
        err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * sizeof(float), out.data(), 0, nullptr, nullptr);
        clReleaseMemObject(buf);
        if (err != CL_SUCCESS) return 1;
        for (size_t i = 0; i < n; ++i)
            if (out[i] != (host[i] > 0 ? host[i] : 0.0f)) {
                std::fprintf(stderr, "cxx_wrapper: ReLU wrong at %zu\n", i);
                return 1;
            }
        try {
            cldnn::tensor_descriptor bad(CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, -1, 3, 5, 7);
            std::fprintf(stderr, "cxx_wrapper: a negative dim did not throw\n");
            return 1;
        } catch (const cldnn::error& e) {
            if (e.status() == CLDNN_STATUS_SUCCESS || std::strlen(e.what()) < 20) {
                std::fprintf(stderr, "cxx_wrapper: weak error: %d %s\n", static_cast<int>(e.status()), e.what());
                return 1;
            }
            std::printf("cxx_wrapper: ReLU of %zu values correct; bad dims threw: %s\n", n, e.what());
        }
    } catch (const cldnn::error& e) {
        std::fprintf(stderr, "cxx_wrapper: %s\n", e.what());
        return 1;
    }
    return 0;
}
