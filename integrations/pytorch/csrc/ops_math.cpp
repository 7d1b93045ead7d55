// Element-wise arithmetic, activations, GEMM, reductions, softmax and the NLL loss on cldnn.
#include "runtime.h"

#include <ATen/Operators.h>

#include <ATen/ExpandUtils.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <torch/library.h>

#include <cmath>

namespace cldnn_torch {
namespace {

// ----------------------------------------------------------------------------- element-wise
// A CPU 0-dim tensor (a wrapped Python number) or a scalar: torch's scalar operand.
bool is_cpu_scalar(const at::Tensor& t) { return t.device().is_cpu() && t.dim() == 0; }

// C = op(a1 * A, a2 * B) with broadcasting, into out (already of the broadcast shape).
void op_tensor(cldnnOpTensorOp_t opcode, const at::Tensor& a, float a1, const at::Tensor& b, float a2,
               const at::Tensor& out, const char* op) {
    if (out.numel() == 0)
        return;
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor A = a.expand(out.sizes()), B = b.expand(out.sizes());
    TensorDesc ad, bd, cd;
    set_nd(ad, A, op, true);
    set_nd(bd, B, op, true);
    set_nd(cd, out, op);
    OpTensorDesc od;
    CLDNN_TORCH_CHECK(op, cldnnSetOpTensorDescriptor(od, opcode, CLDNN_DATA_FLOAT, CLDNN_PROPAGATE_NAN));
    BufferRef ab = buffer(A), bb = buffer(B), cb = buffer(out);
    float zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnOpTensor(d.handle, od, &a1, ad, ab.mem, ab.offset, &a2, bd, bb.mem, bb.offset, &zero,
                                        cd, cb.mem, cb.offset));
}

enum class Bin { Add, Sub, Mul, Div };

const char* bin_name(Bin k) {
    switch (k) {
    case Bin::Add: return "add";
    case Bin::Sub: return "sub";
    case Bin::Mul: return "mul";
    default: return "div";
    }
}

// Whether this backend computes it: float types on the device (a CPU scalar operand allowed).
bool binary_native(const at::Tensor& a, const at::Tensor& b, const at::Tensor* out) {
    auto rt = at::result_type(a, b);
    if (!supported_dtype(rt))
        return false;
    if (out && out->scalar_type() != rt)
        return false;
    return true;
}

void check_devices(const at::Tensor& a, const at::Tensor& b, const char* op) {
    bool ok_a = a.device().type() == kOcl || is_cpu_scalar(a);
    bool ok_b = b.device().type() == kOcl || is_cpu_scalar(b);
    TORCH_CHECK(ok_a && ok_b, "ocl: ", op, ": expected all tensors on the ocl device (or CPU scalars), got ",
                a.device(), " and ", b.device());
}

// Brings an operand to the device in the result type (CPU scalars become one-element tensors).
at::Tensor operand(const at::Tensor& t, c10::ScalarType rt) {
    if (is_cpu_scalar(t))
        return scalar_tensor_on_device(t.item(), rt);
    return t.scalar_type() == rt ? t : t.to(rt);
}

void binary_into(Bin k, const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha, const at::Tensor& out) {
    const char* op = bin_name(k);
    auto rt = out.scalar_type();
    // Multiplication and division by a scalar are a scaled copy: no second operand on the device.
    if ((k == Bin::Mul || k == Bin::Div) && is_cpu_scalar(b) && !is_cpu_scalar(a)) {
        double s = b.item().toDouble();
        int e;
        // x / s equals x * (1 / s) only where 1 / s is exact: s a power of two.
        bool exact = k == Bin::Mul || std::fabs(std::frexp(s, &e)) == 0.5;
        if (exact) {
            at::Tensor A = operand(a, rt);
            float f = (float)(k == Bin::Mul ? s : 1.0 / s);
            Device& d = device();
            std::lock_guard<std::recursive_mutex> g(d.mu);
            at::Tensor X = A.expand(out.sizes());
            TensorDesc xd, yd;
            set_nd(xd, X, op, true);
            set_nd(yd, out, op);
            BufferRef xb = buffer(X), yb = buffer(out);
            float zero = 0.f;
            bool expanded = false;
            for (int64_t i = 0; i < X.dim(); ++i)
                expanded |= X.stride(i) == 0 && X.size(i) > 1;
            if (expanded)
                CLDNN_TORCH_CHECK(op, cldnnAddTensor(d.handle, &f, xd, xb.mem, xb.offset, &zero, yd, yb.mem, yb.offset));
            else
                CLDNN_TORCH_CHECK(op, cldnnTransformTensor(d.handle, &f, xd, xb.mem, xb.offset, &zero, yd, yb.mem,
                                                           yb.offset));
            return;
        }
    }
    at::Tensor A = operand(a, rt), B = operand(b, rt);
    float a2 = 1.f;
    if (k == Bin::Add || k == Bin::Sub)
        a2 = alpha.toFloat() * (k == Bin::Sub ? -1.f : 1.f);
    cldnnOpTensorOp_t code = k == Bin::Mul ? CLDNN_OP_TENSOR_MUL : k == Bin::Div ? CLDNN_OP_TENSOR_DIV : CLDNN_OP_TENSOR_ADD;
    // cldnnOpTensor lets C alias an input only with equal descriptors; a partial overlap goes
    // through a temporary.
    bool alias = (A.is_alias_of(out) && !(A.sizes() == out.sizes() && A.strides() == out.strides() &&
                                           A.storage_offset() == out.storage_offset())) ||
                 (B.is_alias_of(out) && !(B.sizes() == out.sizes() && B.strides() == out.strides() &&
                                           B.storage_offset() == out.storage_offset()));
    if (alias) {
        at::Tensor tmp = at::empty(out.sizes(), out.options());
        op_tensor(code, A, 1.f, B, a2, tmp, op);
        copy_device(tmp, out, op);
        return;
    }
    op_tensor(code, A, 1.f, B, a2, out, op);
}

at::Tensor binary(Bin k, const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
    check_devices(a, b, bin_name(k));
    auto rt = at::result_type(a, b);
    at::Tensor out = at::empty(at::infer_size(a.sizes(), b.sizes()), a.options().dtype(rt).device(kOcl, 0));
    binary_into(k, a, b, alpha, out);
    return out;
}

// Each of add, sub, mul, div: functional, in place and out, falling back for other data types.
bool inplace_ok(const at::Tensor& self, const at::Tensor& other, const at::Tensor& out) {
    return binary_native(self, other, &out) && out.device().type() == kOcl;
}

at::Tensor& binary_out(Bin k, const at::Tensor& self, const at::Tensor& other, const c10::Scalar& alpha,
                       at::Tensor& out) {
    check_devices(self, other, bin_name(k));
    auto shape = at::infer_size(self.sizes(), other.sizes());
    if (out.is_same(self)) {
        TORCH_CHECK(out.sizes() == at::IntArrayRef(shape), "ocl: ", bin_name(k), "_: output of shape ", out.sizes(),
                    " does not match the broadcast shape ", at::IntArrayRef(shape));
    } else {
        at::native::resize_output(out, shape);
    }
    binary_into(k, self, other, alpha, out);
    return out;
}

at::Tensor add_t(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
    if (!binary_native(a, b, nullptr))
        return fallback<ATEN_OP2(add, Tensor)>(a, b, alpha);
    return binary(Bin::Add, a, b, alpha);
}
at::Tensor& add_i(at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
    if (!inplace_ok(a, b, a))
        return fallback<ATEN_OP2(add_, Tensor)>(a, b, alpha);
    return binary_out(Bin::Add, a, b, alpha, a);
}
at::Tensor& add_o(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha, at::Tensor& out) {
    if (!inplace_ok(a, b, out))
        return fallback<ATEN_OP2(add, out)>(a, b, alpha, out);
    return binary_out(Bin::Add, a, b, alpha, out);
}
at::Tensor sub_t(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
    if (!binary_native(a, b, nullptr))
        return fallback<ATEN_OP2(sub, Tensor)>(a, b, alpha);
    return binary(Bin::Sub, a, b, alpha);
}
at::Tensor& sub_i(at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha) {
    if (!inplace_ok(a, b, a))
        return fallback<ATEN_OP2(sub_, Tensor)>(a, b, alpha);
    return binary_out(Bin::Sub, a, b, alpha, a);
}
at::Tensor& sub_o(const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha, at::Tensor& out) {
    if (!inplace_ok(a, b, out))
        return fallback<ATEN_OP2(sub, out)>(a, b, alpha, out);
    return binary_out(Bin::Sub, a, b, alpha, out);
}
at::Tensor mul_t(const at::Tensor& a, const at::Tensor& b) {
    if (!binary_native(a, b, nullptr))
        return fallback<ATEN_OP2(mul, Tensor)>(a, b);
    return binary(Bin::Mul, a, b, 1);
}
at::Tensor& mul_i(at::Tensor& a, const at::Tensor& b) {
    if (!inplace_ok(a, b, a))
        return fallback<ATEN_OP2(mul_, Tensor)>(a, b);
    return binary_out(Bin::Mul, a, b, 1, a);
}
at::Tensor& mul_o(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
    if (!inplace_ok(a, b, out))
        return fallback<ATEN_OP2(mul, out)>(a, b, out);
    return binary_out(Bin::Mul, a, b, 1, out);
}
at::Tensor div_t(const at::Tensor& a, const at::Tensor& b) {
    if (!binary_native(a, b, nullptr))
        return fallback<ATEN_OP2(div, Tensor)>(a, b);
    return binary(Bin::Div, a, b, 1);
}
at::Tensor& div_i(at::Tensor& a, const at::Tensor& b) {
    if (!inplace_ok(a, b, a))
        return fallback<ATEN_OP2(div_, Tensor)>(a, b);
    return binary_out(Bin::Div, a, b, 1, a);
}
at::Tensor& div_o(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
    if (!inplace_ok(a, b, out))
        return fallback<ATEN_OP2(div, out)>(a, b, out);
    return binary_out(Bin::Div, a, b, 1, out);
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("add.Tensor", add_t);
    m.impl("add_.Tensor", add_i);
    m.impl("add.out", add_o);
    m.impl("sub.Tensor", sub_t);
    m.impl("sub_.Tensor", sub_i);
    m.impl("sub.out", sub_o);
    m.impl("mul.Tensor", mul_t);
    m.impl("mul_.Tensor", mul_i);
    m.impl("mul.out", mul_o);
    m.impl("div.Tensor", div_t);
    m.impl("div_.Tensor", div_i);
    m.impl("div.out", div_o);
}

}  // namespace cldnn_torch
