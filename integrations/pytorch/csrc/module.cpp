// The Python side of the ocl runtime: torch.ocl's device and memory functions.
#include "runtime.h"

#include <torch/extension.h>

namespace cldnn_torch {

static void synchronize_if_any() {
    if (device_count() > 0)
        synchronize();
}

}  // namespace cldnn_torch

PYBIND11_MODULE(_C, m) {
    using namespace cldnn_torch;
    m.doc() = "cldnn_torch runtime: PyTorch's PrivateUse1 device on cldnn";
    m.def("device_count", &device_count);
    m.def("device_name", [] { return device().name; });
    m.def("synchronize", &synchronize_if_any);
    m.def("memory_allocated", [] { return memory_stats().allocated; });
    m.def("memory_reserved", [] { return memory_stats().reserved; });
    m.def("max_memory_allocated", [] { return memory_stats().peak_allocated; });
    m.def("memory_blocks", [] { return memory_stats().blocks; });
    m.def("reset_peak_memory_stats", &reset_peak);
    m.def("empty_cache", &empty_cache);
    m.def("conv_algo_cache_size", &conv_algo_cache_size);
    m.def("foreach_launches", &foreach_launches);
}
