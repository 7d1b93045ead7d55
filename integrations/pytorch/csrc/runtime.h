// The ocl device's runtime: one cldnn handle and in-order queue per device, the caching allocator
// with its fake device address space, and the helpers every op uses to turn a tensor into what
// cldnn takes (a tensor descriptor, a cl_mem and a byte offset).
#pragma once

#include <ATen/ATen.h>
#include <ATen/core/stack.h>
#include <ATen/native/CPUFallback.h>
#include <c10/core/Allocator.h>
#include <cldnn.h>

#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

namespace cldnn_torch {

constexpr c10::DeviceType kOcl = c10::DeviceType::PrivateUse1;

// One device: what CLDNN_DEVICE selects (cldnnCreateDefault). The handle's queue is the device's
// only stream; every op serializes on `mu` because a cldnn handle is one thread at a time and the
// autograd engine runs backward on its own device thread.
struct Device {
    cldnnHandle_t handle = nullptr;
    cl_command_queue queue = nullptr;
    cl_context context = nullptr;
    std::recursive_mutex mu;
    std::string name;
};

Device& device();  // created on first use; throws when there is no OpenCL device
int device_count();  // 0 or 1, without raising
std::recursive_mutex& op_mutex();

// Turns a cldnn status into a c10::Error that names the op and carries cldnn's message.
void check(cldnnStatus_t s, const char* op, const char* call);
void check_cl(cl_int err, const char* op, const char* call);
#define CLDNN_TORCH_CHECK(op, call) ::cldnn_torch::check((call), (op), #call)

// A device pointer of the fake address space resolved to the real buffer it lies in.
struct BufferRef {
    cl_mem mem;
    size_t offset;
};
BufferRef resolve(const void* ptr);
// The tensor's first element (data_ptr) resolved; a tensor must be on the ocl device.
BufferRef buffer(const at::Tensor& t);

c10::Allocator* allocator();
struct MemoryStats {
    int64_t allocated, reserved, peak_allocated, blocks;
};
MemoryStats memory_stats();
void empty_cache();
// Grows or shrinks a storage, keeping its first bytes (tensor.resize_, storage.resize_).
void resize_storage_bytes(const c10::Storage& storage, size_t newsize);
void reset_peak();

// RAII tensor descriptors. `nd` gives the tensor's own dims and strides (rank >= 1, a 0-d tensor
// is [1]); stride-0 dims are left as dim 1 when `broadcast_as_one` (valid for inputs that cldnn
// broadcasts), else rejected (callers materialize such a tensor first with `dense`).
// Tensor and op-tensor descriptors come from a per-thread pool: an element-wise op takes four, and
// creating and destroying them (a calloc and a free each) was a measurable part of its host time.
// Their Set calls set every field, so a reused one carries nothing over; the other kinds keep
// fields that some ops set and others do not (group count, math type) and are made fresh.
template <class T, cldnnStatus_t (*Destroy)(T)>
struct DescPool {
    std::vector<T> free;
    ~DescPool() {
        for (T d : free)
            Destroy(d);
    }
};
template <class T, cldnnStatus_t (*Create)(T*), cldnnStatus_t (*Destroy)(T), bool Pooled = false>
struct Desc {
    T d = nullptr;
    static DescPool<T, Destroy>& pool() {
        thread_local DescPool<T, Destroy> p;
        return p;
    }
    Desc() {
        if (Pooled && !pool().free.empty()) {
            d = pool().free.back();
            pool().free.pop_back();
            return;
        }
        check(Create(&d), "descriptor", "cldnnCreate...Descriptor");
    }
    ~Desc() {
        if (Pooled && pool().free.size() < 64)
            pool().free.push_back(d);
        else
            Destroy(d);
    }
    Desc(const Desc&) = delete;
    Desc& operator=(const Desc&) = delete;
    operator T() const { return d; }
};
using TensorDesc = Desc<cldnnTensorDescriptor_t, cldnnCreateTensorDescriptor, cldnnDestroyTensorDescriptor, true>;
using FilterDesc = Desc<cldnnFilterDescriptor_t, cldnnCreateFilterDescriptor, cldnnDestroyFilterDescriptor>;
using ConvDesc = Desc<cldnnConvolutionDescriptor_t, cldnnCreateConvolutionDescriptor, cldnnDestroyConvolutionDescriptor>;
using PoolDesc = Desc<cldnnPoolingDescriptor_t, cldnnCreatePoolingDescriptor, cldnnDestroyPoolingDescriptor>;
using ActDesc = Desc<cldnnActivationDescriptor_t, cldnnCreateActivationDescriptor, cldnnDestroyActivationDescriptor>;
using OpTensorDesc =
    Desc<cldnnOpTensorDescriptor_t, cldnnCreateOpTensorDescriptor, cldnnDestroyOpTensorDescriptor, true>;
using ReduceDesc =
    Desc<cldnnReduceTensorDescriptor_t, cldnnCreateReduceTensorDescriptor, cldnnDestroyReduceTensorDescriptor>;
using NormDesc = Desc<cldnnNormDescriptor_t, cldnnCreateNormDescriptor, cldnnDestroyNormDescriptor>;
using DropoutDesc = Desc<cldnnDropoutDescriptor_t, cldnnCreateDropoutDescriptor, cldnnDestroyDropoutDescriptor>;

cldnnDataType_t dtype_of(c10::ScalarType t, const char* op);
bool supported_dtype(c10::ScalarType t);  // float, half, bfloat16: what cldnn computes
void set_nd(TensorDesc& desc, const at::Tensor& t, const char* op, bool broadcast_as_one = false);
// Sets the given dims (padded to `rank` with trailing 1s) with the tensor's strides for them.
void set_dims(TensorDesc& desc, c10::ScalarType dt, at::IntArrayRef sizes, at::IntArrayRef strides, const char* op);
// 4-d NCHW view of a tensor of 2 to 4 dims (missing trailing dims as 1).
void set_4d(TensorDesc& desc, const at::Tensor& t, const char* op);

// A tensor cldnn can read: itself when no dim has stride 0 (expanded) and the storage is on the
// device, else a packed copy.
at::Tensor dense(const at::Tensor& t);
// Strided device-to-device copy src -> dst (same shape; dst on the device); dtype conversion
// between float, half and bfloat16 happens on the device.
void copy_device(const at::Tensor& src, const at::Tensor& dst, const char* op);

// Blocking transfers: the values of an ocl tensor as a CPU tensor (any strides), and a CPU tensor's
// values (broadcast and converted to dst's type) into an ocl tensor of any strides.
at::Tensor to_host(const at::Tensor& src);
// Waits for the queue (and releases the staging copies of finished writes).
void synchronize();
// out = a + v for integer tensors (int32, int64) of one contiguous shape, on the device.
void int_add_scalar(const at::Tensor& a, int64_t v, const at::Tensor& out);
void from_host(const at::Tensor& host, const at::Tensor& dst);
// A 1-d launch of an extension kernel over n work-items in groups of `local` (n rounded up).
void enqueue_1d(cl_kernel k, size_t n, size_t local, const char* op);
// A CPU 0-dim tensor: a wrapped Python number or a scalar operand torch passes as a tensor.
inline bool is_cpu_scalar(const at::Tensor& t) { return t.device().is_cpu() && t.dim() == 0; }
// Sets a kernel's arguments 0, 1, ... to the values given (cl_mem, integers, floats, vectors).
template <class... A>
void set_kernel_args(cl_kernel k, const char* op, const A&... a) {
    cl_uint i = 0;
    cl_int err = CL_SUCCESS;
    ((err |= clSetKernelArg(k, i++, sizeof(A), &a)), ...);
    check_cl(err, op, "clSetKernelArg");
}
// The device int an indexing kernel sets to 1 for an index out of range; the next synchronize or
// copy to the host raises an IndexError for it.
cl_mem index_error_flag();
// Kernels of this extension's own OpenCL C (for what cldnn's API has no primitive), built for the
// device into out[i] for names[i]; a build failure raises with the compiler's log. Callers keep
// the kernels for the process.
void build_kernels(const char* source, const char* options, std::initializer_list<const char*> names, cl_kernel* out,
                   const char* op);

// The CPU fallback: CLDNN_TORCH_FALLBACK=warn names each op once on stderr, =error raises.
void ocl_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack);

// Calls the CPU fallback (with the CLDNN_TORCH_FALLBACK policy) for one op from an unboxed
// kernel, for the cases an ocl kernel does not cover (a data type, an option).
template <class Op, class... Args>
decltype(auto) fallback(Args&&... args) {
    return at::native::call_fallback_fn<&ocl_fallback, Op>::call(std::forward<Args>(args)...);
}

// Ops in other files register themselves through TORCH_LIBRARY_IMPL; these are shared helpers.
at::Tensor scalar_tensor_on_device(const c10::Scalar& s, c10::ScalarType dt);
int64_t conv_algo_cache_size();
int64_t foreach_launches();  // multi-tensor kernel launches so far
// The NLL loss's [rows, classes] FLOAT mask on the device: -weight[target[i]] (-1 unweighted) at
// (i, target[i]) unless target[i] == ignore_index, 0 elsewhere; a target out of range is reported
// at the next synchronization (index_error_flag).
at::Tensor nll_class_mask(const at::Tensor& target, const std::optional<at::Tensor>& weight, int64_t rows,
                          int64_t classes, int64_t ignore_index);
// y (keepdim shape: x's dims with the reduced ones 1, on the device) = alpha * sum of x over them.
void reduce_sum(const at::Tensor& x, const at::Tensor& y, float alpha, const char* op);

}  // namespace cldnn_torch
