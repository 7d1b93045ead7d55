// Tensor plumbing of the ocl device: allocation, views, copies between devices, fill.
#include "runtime.h"

#include <ATen/EmptyTensor.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TensorFactories.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/view_native.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/_unsafe_view_native.h>
#include <torch/library.h>

namespace cldnn_torch {
namespace {

at::Tensor empty_memory_format(at::IntArrayRef size, std::optional<at::ScalarType> dtype,
                               std::optional<at::Layout> layout, std::optional<at::Device> dev,
                               std::optional<bool> pin_memory, std::optional<at::MemoryFormat> memory_format) {
    constexpr c10::DispatchKeySet ks(c10::DispatchKey::PrivateUse1);
    return at::detail::empty_generic(size, allocator(), ks, c10::dtype_or_default(dtype), memory_format);
}

at::Tensor empty_strided(at::IntArrayRef size, at::IntArrayRef stride, std::optional<at::ScalarType> dtype,
                         std::optional<at::Layout> layout, std::optional<at::Device> dev,
                         std::optional<bool> pin_memory) {
    constexpr c10::DispatchKeySet ks(c10::DispatchKey::PrivateUse1);
    return at::detail::empty_strided_generic(size, stride, allocator(), ks, c10::dtype_or_default(dtype));
}

// Every copy that involves an ocl tensor: host <-> device (blocking; non_blocking is a hint torch
// allows ignoring), device <-> device through cldnnTransformTensor, types converted on the host.
void copy_any(const at::Tensor& src, const at::Tensor& dst) {
    if (dst.numel() == 0)
        return;
    TORCH_CHECK(src.device().type() == kOcl || dst.device().type() == kOcl || src.is_cpu() || dst.is_cpu(),
                "ocl: copy_: between ", src.device(), " and ", dst.device(), " is not supported");
    bool src_ocl = src.device().type() == kOcl, dst_ocl = dst.device().type() == kOcl;
    if (src_ocl && dst_ocl) {
        at::Tensor s = src.expand(dst.sizes());
        if (s.scalar_type() == dst.scalar_type())
            copy_device(s, dst, "copy_");
        else
            from_host(to_host(s), dst);
        return;
    }
    if (dst_ocl) {
        from_host(src, dst);
        return;
    }
    dst.copy_(to_host(src));
}

at::Tensor _copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
    copy_any(self, dst);
    return dst;
}

at::Tensor& copy_(at::Tensor& self, const at::Tensor& src, bool non_blocking) {
    copy_any(src, self);
    return self;
}

// at::native::resize_ copies storage with memcpy (CPU only); the storage grows here instead.
const at::Tensor& resize_(const at::Tensor& self, at::IntArrayRef size,
                          std::optional<at::MemoryFormat> memory_format) {
    auto* impl = self.unsafeGetTensorImpl();
    impl->set_sizes_contiguous(size);
    if (memory_format)
        impl->empty_tensor_restride(*memory_format);
    size_t needed = at::detail::computeStorageNbytes(size, impl->strides(), self.dtype().itemsize(),
                                                     impl->storage_offset());
    if (needed > self.storage().nbytes())
        resize_storage_bytes(self.storage(), needed);
    return self;
}

at::Tensor _copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
    resize_(dst, self.sizes(), std::nullopt);
    copy_any(self, dst);
    return dst;
}

at::Tensor& fill_scalar(at::Tensor& self, const at::Scalar& value) {
    if (self.numel() == 0)
        return self;
    if (!supported_dtype(self.scalar_type())) {
        from_host(at::full({}, value, self.options().device(at::kCPU)), self);
        return self;
    }
    at::Tensor t = self;
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    TensorDesc y;
    set_nd(y, t, "fill_");
    BufferRef b = buffer(t);
    float v = value.toFloat();
    CLDNN_TORCH_CHECK("fill_", cldnnSetTensor(d.handle, y, b.mem, b.offset, &v));
    return self;
}

at::Tensor& fill_tensor(at::Tensor& self, const at::Tensor& value) {
    TORCH_CHECK(value.dim() == 0, "ocl: fill_ takes a 0-dim value tensor, got ", value.dim(), " dims");
    return fill_scalar(self, value.item());
}

at::Tensor& zero_(at::Tensor& self) { return fill_scalar(self, 0); }

at::Scalar local_scalar_dense(const at::Tensor& self) {
    at::Tensor h = to_host(self);
    return h.item();
}

// cat (and stack, which is cat of unsqueezed tensors): each input copied into its slice of the
// output on the device.
at::Tensor cat(const at::ITensorListRef& list, int64_t dim) {
    std::vector<at::Tensor> ts;
    for (const at::Tensor& t : list)
        if (!(t.dim() == 1 && t.size(0) == 0))  // torch skips legacy empty 1-d inputs
            ts.push_back(t);
    if (ts.empty())
        return at::empty({0}, list.front().options());
    at::ScalarType dt = ts[0].scalar_type();
    for (const at::Tensor& t : ts) {
        TORCH_CHECK(t.device().type() == kOcl, "ocl: cat: expected all tensors on the ocl device, got ", t.device());
        dt = at::promote_types(dt, t.scalar_type());
    }
    dim = at::maybe_wrap_dim(dim, ts[0].dim());
    std::vector<int64_t> shape(ts[0].sizes().begin(), ts[0].sizes().end());
    shape[dim] = 0;
    for (const at::Tensor& t : ts) {
        TORCH_CHECK(t.dim() == (int64_t)shape.size(), "ocl: cat: tensors must have the same number of dims");
        for (int64_t i = 0; i < t.dim(); ++i)
            TORCH_CHECK(i == dim || t.size(i) == shape[i], "ocl: cat: sizes of tensors must match except in dim ",
                        dim);
        shape[dim] += t.size(dim);
    }
    at::Tensor out = at::empty(shape, ts[0].options().dtype(dt));
    int64_t at = 0;
    for (const at::Tensor& t : ts) {
        copy_any(t, out.narrow(dim, at, t.size(dim)));
        at += t.size(dim);
    }
    return out;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("empty.memory_format", empty_memory_format);
    m.impl("empty_strided", empty_strided);
    m.impl("_copy_from", _copy_from);
    m.impl("_copy_from_and_resize", _copy_from_and_resize);
    m.impl("copy_", copy_);
    m.impl("resize_", resize_);
    m.impl("as_strided", at::native::as_strided_tensorimpl);
    m.impl("view", at::native::view);
    m.impl("_reshape_alias", at::native::_reshape_alias);
    m.impl("fill_.Scalar", fill_scalar);
    m.impl("fill_.Tensor", fill_tensor);
    m.impl("zero_", zero_);
    m.impl("_local_scalar_dense", local_scalar_dense);
    m.impl("cat", cat);
}

}  // namespace cldnn_torch
