// Device, allocator, device guard and hooks of the ocl backend.
#include "runtime.h"

#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <ATen/native/CPUFallback.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace cldnn_torch {

// ------------------------------------------------------------------------------------- device
static std::once_flag g_device_once;
static Device* g_device = nullptr;
static std::string g_device_error;

static void create_device() {
    cldnnHandle_t h = nullptr;
    cldnnStatus_t s = cldnnCreateDefault(&h);
    if (s != CLDNN_STATUS_SUCCESS) {
        char msg[512];
        cldnnGetLastErrorString(msg, sizeof msg);
        g_device_error = std::string(cldnnGetErrorString(s)) + ": " + msg;
        return;
    }
    auto* d = new Device();  // lives for the process: tensors may die after module teardown
    d->handle = h;
    cldnnGetQueue(h, &d->queue);
    clGetCommandQueueInfo(d->queue, CL_QUEUE_CONTEXT, sizeof d->context, &d->context, nullptr);
    cl_device_id dev;
    clGetCommandQueueInfo(d->queue, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
    char name[256] = {0};
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    d->name = name;
    g_device = d;
}

Device& device() {
    std::call_once(g_device_once, create_device);
    TORCH_CHECK(g_device != nullptr, "ocl: no OpenCL device (", g_device_error, ")");
    return *g_device;
}

int device_count() {
    std::call_once(g_device_once, create_device);
    return g_device ? 1 : 0;
}

std::recursive_mutex& op_mutex() { return device().mu; }

void check(cldnnStatus_t s, const char* op, const char* call) {
    if (s == CLDNN_STATUS_SUCCESS)
        return;
    char msg[1024];
    cldnnGetLastErrorString(msg, sizeof msg);
    std::string fn(call);
    fn = fn.substr(0, fn.find('('));
    TORCH_CHECK(false, "ocl: ", op, ": ", fn, " failed with ", cldnnGetErrorString(s), ": ", msg);
}

void check_cl(cl_int err, const char* op, const char* call) {
    TORCH_CHECK(err == CL_SUCCESS, "ocl: ", op, ": ", call, " failed with OpenCL error ", err);
}

// ---------------------------------------------------------------------------------- allocator
// torch does pointer arithmetic on a storage's data pointer (views, storage offsets), and a
// cl_mem is an opaque handle. So each block gets a range of a fake address space, never
// dereferenced, that maps back to (cl_mem, byte offset). Freed blocks stay cached with their range
// and are reused for requests of the same rounded size: kernels still queued on the in-order queue
// finish before any later use of the block, as in CUDA's caching allocator on one stream.
namespace {

struct Block {
    uintptr_t base;
    size_t size;
    cl_mem mem;
    bool live;
};

constexpr uintptr_t kAddressBase = uintptr_t(1) << 44;
constexpr size_t kAlign = 512;

size_t round_size(size_t n) {
    if (n <= (size_t(1) << 20))
        return (n + kAlign - 1) / kAlign * kAlign;
    const size_t mb = size_t(1) << 20;  // large blocks: whole MiB, so reuse finds them
    return (n + mb - 1) / mb * mb;
}

struct OclAllocator final : c10::Allocator {
    std::mutex mu;
    std::map<uintptr_t, Block*> blocks;           // every block by base address
    std::multimap<size_t, Block*> free_blocks;    // cached blocks by size
    uintptr_t next = kAddressBase;
    int64_t allocated = 0, reserved = 0, peak = 0, live_blocks = 0;

    static void deleter(void* ctx) { static_cast<OclAllocator*>(allocator())->release(static_cast<Block*>(ctx)); }

    void release(Block* b) {
        std::lock_guard<std::mutex> g(mu);
        b->live = false;
        allocated -= b->size;
        --live_blocks;
        free_blocks.emplace(b->size, b);
    }

    c10::DataPtr allocate(size_t nbytes) override {
        c10::Device dev(kOcl, 0);
        if (nbytes == 0)
            return {nullptr, nullptr, &c10::detail::deleteNothing, dev};
        size_t size = round_size(nbytes);
        Device& d = device();
        std::lock_guard<std::mutex> g(mu);
        Block* b = nullptr;
        auto it = free_blocks.find(size);
        if (it != free_blocks.end()) {
            b = it->second;
            free_blocks.erase(it);
        } else {
            cl_int err;
            cl_mem m = clCreateBuffer(d.context, CL_MEM_READ_WRITE, size, nullptr, &err);
            if (err != CL_SUCCESS) {
                release_cached_locked();  // try once more after giving back what is cached
                m = clCreateBuffer(d.context, CL_MEM_READ_WRITE, size, nullptr, &err);
            }
            TORCH_CHECK_WITH(OutOfMemoryError, err == CL_SUCCESS, "ocl: out of memory allocating ", nbytes,
                             " bytes (OpenCL error ", err, "; ", allocated, " bytes allocated, ", reserved,
                             " reserved)");
            // Guard pages between ranges: a past-the-end pointer of one block never resolves to
            // the next one.
            b = new Block{next, size, m, false};
            next += size + kAlign;
            blocks.emplace(b->base, b);
            reserved += size;
        }
        b->live = true;
        allocated += size;
        ++live_blocks;
        if (allocated > peak)
            peak = allocated;
        return {reinterpret_cast<void*>(b->base), b, &OclAllocator::deleter, dev};
    }

    c10::DeleterFnPtr raw_deleter() const override { return nullptr; }

    void copy_data(void* dest, const void* src, std::size_t count) const override {
        if (count == 0)
            return;
        BufferRef s = cldnn_torch::resolve(src), t = cldnn_torch::resolve(dest);
        Device& d = device();
        check_cl(clEnqueueCopyBuffer(d.queue, s.mem, t.mem, s.offset, t.offset, count, 0, nullptr, nullptr),
                 "copy_data", "clEnqueueCopyBuffer");
    }

    void release_cached_locked() {
        for (auto& kv : free_blocks) {
            Block* b = kv.second;
            clReleaseMemObject(b->mem);
            reserved -= b->size;
            blocks.erase(b->base);
            delete b;
        }
        free_blocks.clear();
    }

    BufferRef resolve(const void* ptr) {
        uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
        std::lock_guard<std::mutex> g(mu);
        auto it = blocks.upper_bound(p);
        TORCH_CHECK(it != blocks.begin(), "ocl: pointer ", ptr, " is not ocl device memory");
        --it;
        Block* b = it->second;
        TORCH_CHECK(p >= b->base && p <= b->base + b->size, "ocl: pointer ", ptr, " is not ocl device memory");
        return {b->mem, size_t(p - b->base)};
    }
};

OclAllocator g_allocator;

}  // namespace

c10::Allocator* allocator() { return &g_allocator; }

BufferRef resolve(const void* ptr) { return g_allocator.resolve(ptr); }

BufferRef buffer(const at::Tensor& t) {
    TORCH_CHECK(t.device().type() == kOcl, "ocl: expected a tensor on the ocl device, got one on ", t.device());
    return resolve(t.data_ptr());
}

MemoryStats memory_stats() {
    std::lock_guard<std::mutex> g(g_allocator.mu);
    return {g_allocator.allocated, g_allocator.reserved, g_allocator.peak, g_allocator.live_blocks};
}

void reap_writes(bool wait);

static void check_index_errors(Device& d);

void synchronize() {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    clFinish(d.queue);
    reap_writes(true);
    check_index_errors(d);
}

void empty_cache() {
    if (device_count() == 0)
        return;
    synchronize();  // cached blocks may still be read by queued kernels
    std::lock_guard<std::mutex> g(g_allocator.mu);
    g_allocator.release_cached_locked();
}

void reset_peak() {
    std::lock_guard<std::mutex> g(g_allocator.mu);
    g_allocator.peak = g_allocator.allocated;
}

REGISTER_ALLOCATOR(c10::DeviceType::PrivateUse1, &g_allocator);

// -------------------------------------------------------------------------------- descriptors

bool supported_dtype(c10::ScalarType t) {
    return t == at::kFloat || t == at::kHalf || t == at::kBFloat16;
}

cldnnDataType_t dtype_of(c10::ScalarType t, const char* op) {
    switch (t) {
    case at::kFloat: return CLDNN_DATA_FLOAT;
    case at::kHalf: return CLDNN_DATA_HALF;
    case at::kBFloat16: return CLDNN_DATA_BFLOAT16;
    default: TORCH_CHECK(false, "ocl: ", op, ": data type ", t, " is not supported (float, half, bfloat16)");
    }
}

void set_dims(TensorDesc& desc, c10::ScalarType dt, at::IntArrayRef sizes, at::IntArrayRef strides, const char* op) {
    int64_t dims[CLDNN_DIM_MAX], st[CLDNN_DIM_MAX];
    int nd = (int)sizes.size();
    TORCH_CHECK(nd <= CLDNN_DIM_MAX, "ocl: ", op, ": ", nd, " dims (cldnn takes at most ", CLDNN_DIM_MAX, ")");
    for (int i = 0; i < nd; ++i) {
        dims[i] = sizes[i];
        st[i] = strides[i] < 1 ? 1 : strides[i];
    }
    if (nd == 0) {
        dims[0] = st[0] = 1;
        nd = 1;
    }
    check(cldnnSetTensorNdDescriptor(desc, dtype_of(dt, op), nd, dims, st), op, "cldnnSetTensorNdDescriptor");
}

void set_nd(TensorDesc& desc, const at::Tensor& t, const char* op, bool broadcast_as_one) {
    const int64_t nd = t.dim();
    TORCH_CHECK(nd <= CLDNN_DIM_MAX, "ocl: ", op, ": ", nd, " dims (cldnn takes at most ", CLDNN_DIM_MAX, ")");
    int64_t sizes[CLDNN_DIM_MAX], strides[CLDNN_DIM_MAX];
    for (int64_t i = 0; i < nd; ++i) {
        sizes[i] = t.size(i);
        strides[i] = t.stride(i);
        if (strides[i] == 0 && sizes[i] > 1) {
            TORCH_CHECK(broadcast_as_one, "ocl: ", op, ": internal error: an expanded tensor reached cldnn");
            sizes[i] = 1;
        }
    }
    set_dims(desc, t.scalar_type(), at::IntArrayRef(sizes, nd), at::IntArrayRef(strides, nd), op);
}

void set_4d(TensorDesc& desc, const at::Tensor& t, const char* op) {
    TORCH_CHECK(t.dim() >= 1 && t.dim() <= 4, "ocl: ", op, ": expected 1 to 4 dims, got ", t.dim());
    int64_t sizes[4] = {1, 1, 1, 1}, strides[4] = {1, 1, 1, 1};
    for (int64_t i = 0; i < t.dim(); ++i) {
        sizes[i] = t.size(i);
        strides[i] = t.stride(i);
    }
    set_dims(desc, t.scalar_type(), sizes, strides, op);
}

at::Tensor dense(const at::Tensor& t) {
    for (int64_t i = 0; i < t.dim(); ++i)
        if (t.stride(i) == 0 && t.size(i) > 1)
            return t.contiguous();
    return t;
}

void copy_device(const at::Tensor& src, const at::Tensor& dst, const char* op) {
    if (dst.numel() == 0)
        return;
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    TORCH_CHECK(src.scalar_type() == dst.scalar_type(), "ocl: ", op, ": internal error: device copy between types");
    if (src.is_contiguous() && dst.is_contiguous()) {
        BufferRef s = buffer(src), t = buffer(dst);
        if (s.mem == t.mem && s.offset == t.offset)
            return;
        check_cl(clEnqueueCopyBuffer(d.queue, s.mem, t.mem, s.offset, t.offset, src.nbytes(), 0, nullptr, nullptr),
                 op, "clEnqueueCopyBuffer");
        return;
    }
    if (supported_dtype(dst.scalar_type())) {
        // Expanded (stride 0) source dims are broadcast: cldnnAddTensor with beta 0 never reads y.
        TensorDesc x, y;
        set_nd(x, src, op, true);
        set_nd(y, dst, op);
        BufferRef s = buffer(src), t = buffer(dst);
        float one = 1.f, zero = 0.f;
        bool expanded = false;
        for (int64_t i = 0; i < src.dim(); ++i)
            expanded |= src.stride(i) == 0 && src.size(i) > 1;
        if (expanded)
            check(cldnnAddTensor(d.handle, &one, x, s.mem, s.offset, &zero, y, t.mem, t.offset), op, "cldnnAddTensor");
        else
            check(cldnnTransformTensor(d.handle, &one, x, s.mem, s.offset, &zero, y, t.mem, t.offset), op,
                  "cldnnTransformTensor");
        return;
    }
    // Integer and bool tensors: cldnn computes in float, which would not keep their bits. Through
    // the host (index tensors are small in what this backend runs).
    from_host(to_host(src), dst);
}

// Indexing kernels report an index out of range through one int on the device; the blocking calls
// below (synchronize, a copy to the host) read it when such a kernel ran since the last look and
// raise, the way CUDA reports its device-side assertions at the next synchronization.
namespace {
cl_mem g_index_error = nullptr;  // under the device's mutex
bool g_index_error_unread = false;
}  // namespace

cl_mem index_error_flag() {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    if (g_index_error == nullptr) {
        cl_int err, zero = 0;
        g_index_error = clCreateBuffer(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &err);
        check_cl(err, "index check", "clCreateBuffer");
    }
    g_index_error_unread = true;
    return g_index_error;
}

static void check_index_errors(Device& d) {
    if (!g_index_error_unread)
        return;
    g_index_error_unread = false;
    cl_int v = 0, zero = 0;
    check_cl(clEnqueueReadBuffer(d.queue, g_index_error, CL_TRUE, 0, sizeof v, &v, 0, nullptr, nullptr), "index check",
             "clEnqueueReadBuffer");
    if (v == 0)
        return;
    check_cl(clEnqueueWriteBuffer(d.queue, g_index_error, CL_TRUE, 0, sizeof zero, &zero, 0, nullptr, nullptr),
             "index check", "clEnqueueWriteBuffer");
    TORCH_CHECK_INDEX(false, "ocl: index out of range in an index_select, embedding backward or NLL loss target that ran before this "
                             "synchronization (checked on the device; its output holds zeros there)");
}

// The elements of the storage span a strided tensor covers, from its first element.
static int64_t span_elements(const at::Tensor& t) {
    int64_t span = 1;
    for (int64_t i = 0; i < t.dim(); ++i)
        span += (t.size(i) - 1) * t.stride(i);
    return span;
}

at::Tensor to_host(const at::Tensor& src) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::TensorOptions cpu = src.options().device(at::kCPU);
    if (src.numel() == 0)
        return at::empty(src.sizes(), cpu);
    int64_t span = src.is_contiguous() ? src.numel() : span_elements(src);
    at::Tensor host = at::empty({span}, cpu);
    BufferRef s = buffer(src);
    check_cl(clEnqueueReadBuffer(d.queue, s.mem, CL_TRUE, s.offset, span * src.element_size(), host.data_ptr(), 0,
                                 nullptr, nullptr),
             "copy to cpu", "clEnqueueReadBuffer");
    check_index_errors(d);
    if (src.is_contiguous())
        return host.view(src.sizes());
    return host.as_strided(src.sizes(), src.strides(), 0);
}

// Small host-to-device writes (CPU scalars as operands, integer results) are enqueued without
// blocking from a copy kept until the write completes: a blocking write waits for everything
// queued before it, which stalled the GPU pipeline once per such write. Kept in queue order, so
// the oldest completes first; reaped on the next write and by synchronize.
namespace {
struct PendingWrite {
    cl_event done;
    std::unique_ptr<char[]> data;
};
std::deque<PendingWrite> g_pending;  // under the device's mutex
constexpr size_t kAsyncWriteMax = 64 << 10;
constexpr size_t kPendingMax = 4096;
}  // namespace

void reap_writes(bool wait) {
    while (!g_pending.empty()) {
        cl_event e = g_pending.front().done;
        cl_int st = CL_COMPLETE;
        if (wait)
            clWaitForEvents(1, &e);
        else if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr) != CL_SUCCESS)
            st = CL_COMPLETE;  // an event that cannot be read is not waited for forever
        if (st > CL_COMPLETE)
            return;
        clReleaseEvent(e);
        g_pending.pop_front();
    }
}

void from_host(const at::Tensor& host, const at::Tensor& dst) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    if (dst.numel() == 0)
        return;
    if (dst.is_contiguous()) {
        at::Tensor h = host.to(dst.scalar_type()).expand(dst.sizes()).contiguous();
        BufferRef t = buffer(dst);
        if (h.nbytes() <= kAsyncWriteMax) {
            reap_writes(g_pending.size() >= kPendingMax);
            PendingWrite w{nullptr, std::unique_ptr<char[]>(new char[h.nbytes()])};
            std::memcpy(w.data.get(), h.data_ptr(), h.nbytes());
            check_cl(clEnqueueWriteBuffer(d.queue, t.mem, CL_FALSE, t.offset, h.nbytes(), w.data.get(), 0, nullptr,
                                          &w.done),
                     "copy from cpu", "clEnqueueWriteBuffer");
            g_pending.push_back(std::move(w));
            return;
        }
        check_cl(clEnqueueWriteBuffer(d.queue, t.mem, CL_TRUE, t.offset, h.nbytes(), h.data_ptr(), 0, nullptr, nullptr),
                 "copy from cpu", "clEnqueueWriteBuffer");
        return;
    }
    if (supported_dtype(dst.scalar_type())) {
        at::Tensor tmp = at::empty(dst.sizes(), dst.options());
        from_host(host, tmp);
        copy_device(tmp, dst, "copy_");
        return;
    }
    // Read the span dst covers, place the values on the host, write the span back.
    at::Tensor span = to_host(dst);
    span.copy_(host);
    at::Tensor base = span.as_strided({span_elements(dst)}, {1}, span.storage_offset());
    BufferRef t = buffer(dst);
    check_cl(clEnqueueWriteBuffer(d.queue, t.mem, CL_TRUE, t.offset, base.nbytes(), base.data_ptr(), 0, nullptr, nullptr),
             "copy from cpu", "clEnqueueWriteBuffer");
}

// Integer tensor plus a scalar: cldnn's arithmetic is float, and the host path (read, add, write)
// made BatchNorm's counter (num_batches_tracked += 1, every layer, every training step) a
// blocking read that drained the in-order queue. One small program of this extension's own,
// built on first use.
namespace {
const char* kIntAddSource = R"CL(
__kernel void add_long(__global long* y, ulong yo, __global const long* x, ulong xo, long v, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) y[yo + i] = x[xo + i] + v;
}
__kernel void add_int(__global int* y, ulong yo, __global const int* x, ulong xo, int v, ulong n) {
    size_t i = get_global_id(0);
    if (i < n) y[yo + i] = x[xo + i] + v;
}
)CL";
cl_kernel g_int_add[2];  // long, int; under the device's mutex
}  // namespace

void build_kernels(const char* source, const char* options, std::initializer_list<const char*> names, cl_kernel* out,
                   const char* op) {
    Device& d = device();
    cl_int err;
    cl_program p = clCreateProgramWithSource(d.context, 1, &source, nullptr, &err);
    check_cl(err, op, "clCreateProgramWithSource");
    cl_device_id dev;
    clGetCommandQueueInfo(d.queue, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
    err = clBuildProgram(p, 1, &dev, options, nullptr, nullptr);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, '\0');
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, &log[0], nullptr);
        clReleaseProgram(p);
        TORCH_CHECK(false, "ocl: ", op, ": building its OpenCL program failed with error ", err, ":\n", log);
    }
    size_t i = 0;
    for (const char* name : names) {
        out[i++] = clCreateKernel(p, name, &err);
        if (err != CL_SUCCESS)
            break;
    }
    clReleaseProgram(p);  // the kernels keep it
    check_cl(err, op, "clCreateKernel");
}

void int_add_scalar(const at::Tensor& a, int64_t v, const at::Tensor& out) {
    const char* op = "add (integer)";
    TORCH_CHECK((out.scalar_type() == at::kLong || out.scalar_type() == at::kInt) && a.scalar_type() == out.scalar_type() &&
                    a.is_contiguous() && out.is_contiguous() && a.sizes() == out.sizes(),
                "ocl: ", op, ": internal error: unsupported operands");
    if (out.numel() == 0)
        return;
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    if (g_int_add[0] == nullptr) {
        cl_kernel k[2];
        build_kernels(kIntAddSource, "", {"add_long", "add_int"}, k, op);
        g_int_add[0] = k[0];
        g_int_add[1] = k[1];
    }
    const bool is_long = out.scalar_type() == at::kLong;
    cl_kernel k = g_int_add[is_long ? 0 : 1];
    BufferRef xb = buffer(a), yb = buffer(out);
    const size_t es = out.element_size();
    cl_ulong yo = yb.offset / es, xo = xb.offset / es, n = (cl_ulong)out.numel();
    cl_long vl = v;
    cl_int vi = (cl_int)v;
    if (is_long)
        set_kernel_args(k, op, yb.mem, yo, xb.mem, xo, vl, n);
    else
        set_kernel_args(k, op, yb.mem, yo, xb.mem, xo, vi, n);
    enqueue_1d(k, (size_t)n, 64, op);
}

void enqueue_1d(cl_kernel k, size_t n, size_t local, const char* op) {
    size_t global = (n + local - 1) / local * local;
    check_cl(clEnqueueNDRangeKernel(device().queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr), op,
             "clEnqueueNDRangeKernel");
}

void resize_storage_bytes(const c10::Storage& storage, size_t newsize) {
    size_t n = std::min(storage.nbytes(), newsize);
    c10::DataPtr fresh = allocator()->allocate(newsize);
    if (n > 0) {
        std::lock_guard<std::recursive_mutex> g(device().mu);
        allocator()->copy_data(fresh.get(), storage.data(), n);
    }
    storage.unsafeGetStorageImpl()->set_data_ptr_noswap(std::move(fresh));
    storage.unsafeGetStorageImpl()->set_nbytes(newsize);
}

// ------------------------------------------------------------------------------- device guard
namespace {

struct OclGuardImpl final : c10::impl::DeviceGuardImplInterface {
    c10::DeviceType type() const override { return kOcl; }
    c10::Device exchangeDevice(c10::Device d) const override { return c10::Device(kOcl, 0); }
    c10::Device getDevice() const override { return c10::Device(kOcl, 0); }
    void setDevice(c10::Device d) const override {
        TORCH_CHECK(d.index() <= 0, "ocl: device ", d, " does not exist (one device: CLDNN_DEVICE picks it)");
    }
    void uncheckedSetDevice(c10::Device d) const noexcept override {}
    c10::Stream getStream(c10::Device d) const noexcept override {
        return c10::Stream(c10::Stream::DEFAULT, c10::Device(kOcl, 0));
    }
    c10::Stream getDefaultStream(c10::Device d) const override {
        return c10::Stream(c10::Stream::DEFAULT, c10::Device(kOcl, 0));
    }
    c10::Stream exchangeStream(c10::Stream s) const noexcept override {
        return c10::Stream(c10::Stream::DEFAULT, c10::Device(kOcl, 0));
    }
    c10::DeviceIndex deviceCount() const noexcept override { return (c10::DeviceIndex)device_count(); }
    // One in-order queue per device: every event is already ordered, so events are no-ops.
    void record(void** event, const c10::Stream& stream, const c10::DeviceIndex device_index,
                const c10::EventFlag flag) const override {}
    void block(void* event, const c10::Stream& stream) const override {}
    bool queryEvent(void* event) const override { return true; }
    void destroyEvent(void* event, const c10::DeviceIndex device_index) const noexcept override {}
    bool queryStream(const c10::Stream& stream) const override { return false; }
    void synchronizeStream(const c10::Stream& stream) const override { synchronize(); }
    // Not marked override: the interface has it from torch 2.5 on.
    void synchronizeDevice(const c10::DeviceIndex device_index) const { synchronize(); }
    void recordDataPtrOnStream(const c10::DataPtr&, const c10::Stream&) const override {}
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, OclGuardImpl);

struct OclHooks final : at::PrivateUse1HooksInterface {
    bool hasPrimaryContext(c10::DeviceIndex device_index) const override { return true; }
    bool isBuilt() const { return true; }
    bool isAvailable() const { return device_count() > 0; }
    at::Device getDeviceFromPtr(void* data) const { return at::Device(kOcl, 0); }
    const at::Generator& getDefaultGenerator(c10::DeviceIndex device_index) const {
        // Random numbers are drawn on the CPU generator (init and dropout seeds).
        return at::detail::getDefaultCPUGenerator();
    }
    void resizePrivateUse1Bytes(const c10::Storage& storage, size_t newsize) const {
        resize_storage_bytes(storage, newsize);
    }
};

struct RegisterHooks {
    RegisterHooks() { at::RegisterPrivateUse1HooksInterface(new OclHooks()); }
} g_register_hooks;

}  // namespace

// ------------------------------------------------------------------------------ CPU fallback
static int fallback_mode() {
    static int mode = [] {
        const char* e = std::getenv("CLDNN_TORCH_FALLBACK");
        if (!e)
            return 0;
        std::string s(e);
        return s == "error" ? 2 : s == "warn" ? 1 : 0;
    }();
    return mode;
}

void ocl_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
    const std::string name = c10::toString(op.schema().operator_name());
    int mode = fallback_mode();
    TORCH_CHECK(mode != 2, "ocl: ", name, " has no ocl kernel and CLDNN_TORCH_FALLBACK=error forbids the CPU fallback");
    if (mode == 1) {
        static std::mutex mu;
        static std::set<std::string> seen;
        std::lock_guard<std::mutex> g(mu);
        if (seen.insert(name).second)
            std::fprintf(stderr, "cldnn_torch: %s falls back to the CPU\n", name.c_str());
    }
    at::native::cpu_fallback(op, stack);
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) { m.fallback(torch::CppFunction::makeFromBoxedFunction<&ocl_fallback>()); }

at::Tensor scalar_tensor_on_device(const c10::Scalar& s, c10::ScalarType dt) {
    at::Tensor t = at::empty({1}, at::TensorOptions().dtype(dt).device(kOcl, 0));
    t.fill_(s);
    return t;
}

}  // namespace cldnn_torch
