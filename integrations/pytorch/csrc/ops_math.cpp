// Element-wise arithmetic, activations, GEMM, reductions, softmax and the NLL loss on cldnn.
#include "runtime.h"

#include <ATen/Operators.h>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ExpandUtils.h>
#include <ATen/native/CPUFallback.h>
#include <ATen/native/Resize.h>
#include <torch/library.h>

#include <cmath>
#include <mutex>

namespace cldnn_torch {
namespace {

// ----------------------------------------------------------------------------- element-wise

// C = op(a1 * A, a2 * B) with broadcasting, into out (already of the broadcast shape).
void op_tensor(cldnnOpTensorOp_t opcode, const at::Tensor& a, float a1, const at::Tensor& b, float a2,
               const at::Tensor& out, const char* op) {
    if (out.numel() == 0)
        return;
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    // expand is a dispatcher call and a new view: skipped for operands already of out's shape.
    const at::Tensor& A = a.sizes() == out.sizes() ? a : a.expand(out.sizes());
    const at::Tensor& B = b.sizes() == out.sizes() ? b : b.expand(out.sizes());
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
    if (!supported_dtype(rt) && !at::isIntegralType(rt, /*includeBool=*/false))
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

at::Tensor on_host(const at::Tensor& t) { return t.device().type() == kOcl ? to_host(t) : t; }

void binary_into(Bin k, const at::Tensor& a, const at::Tensor& b, const c10::Scalar& alpha, const at::Tensor& out) {
    const char* op = bin_name(k);
    auto rt = out.scalar_type();
    if ((rt == at::kLong || rt == at::kInt) && (k == Bin::Add || k == Bin::Sub) && is_cpu_scalar(b) &&
        !is_cpu_scalar(a) && a.scalar_type() == rt && a.is_contiguous() && out.is_contiguous() &&
        a.sizes() == out.sizes() && !b.is_floating_point() && !b.is_complex() && !alpha.isFloatingPoint()) {
        // A counter plus an integer (BatchNorm's num_batches_tracked += 1): on the device.
        int64_t v = b.item().toLong() * alpha.toLong();
        int_add_scalar(a, k == Bin::Sub ? -v : v, out);
        return;
    }
    if (!supported_dtype(rt)) {
        // Integer arithmetic: cldnn computes in float only. These are counters and index
        // offsets (BatchNorm's num_batches_tracked += 1), computed on the host in place of a
        // device kernel; documented in docs/pytorch.md.
        at::Tensor A = on_host(a), B = on_host(b);
        at::Tensor r = k == Bin::Add ? at::add(A, B, alpha)
                       : k == Bin::Sub ? at::sub(A, B, alpha)
                       : k == Bin::Mul ? at::mul(A, B)
                                       : at::div(A, B);
        from_host(r, out);
        return;
    }
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

// -x: a copy scaled by -1 (autograd's gradient of sub).
at::Tensor& neg_out(const at::Tensor& x, at::Tensor& out) {
    if (!supported_dtype(x.scalar_type()) || out.scalar_type() != x.scalar_type() || out.device().type() != kOcl ||
        x.device().type() != kOcl)
        return fallback<ATEN_OP2(neg, out)>(x, out);
    at::native::resize_output(out, x.sizes());
    binary_into(Bin::Mul, x, at::scalar_tensor(-1.0, at::kDouble), 1, out);
    return out;
}
at::Tensor neg(const at::Tensor& x) {
    if (!supported_dtype(x.scalar_type()))
        return fallback<ATEN_OP(neg)>(x);
    at::Tensor out = at::empty(x.sizes(), x.options());
    return neg_out(x, out);
}

// --------------------------------------------------------------------- optimizer arithmetic
// What Adam / AdamW's update calls per parameter, composed from cldnnOpTensor.
bool same_float(std::initializer_list<const at::Tensor*> ts) {
    c10::ScalarType t = (*ts.begin())->scalar_type();
    for (const at::Tensor* x : ts)
        if (x->device().type() != kOcl || x->scalar_type() != t || !supported_dtype(t))
            return false;
    return true;
}

at::Tensor sqrt(const at::Tensor& x) {
    if (!same_float({&x}))
        return fallback<ATEN_OP(sqrt)>(x);
    at::Tensor y = at::empty(x.sizes(), x.options());
    op_tensor(CLDNN_OP_TENSOR_SQRT, x, 1.f, x, 1.f, y, "sqrt");
    return y;
}

// self += value * t1 (op) t2, op MUL (addcmul) or DIV (addcdiv).
at::Tensor& addc_inplace(cldnnOpTensorOp_t code, at::Tensor& self, const at::Tensor& t1, const at::Tensor& t2,
                         const c10::Scalar& value, const char* op) {
    at::Tensor tmp = at::empty(at::infer_size(t1.sizes(), t2.sizes()), self.options());
    op_tensor(code, t1, 1.f, t2, 1.f, tmp, op);
    binary_into(Bin::Add, self, tmp, value, self);
    return self;
}

at::Tensor& addcmul_(at::Tensor& self, const at::Tensor& t1, const at::Tensor& t2, const c10::Scalar& value) {
    if (!same_float({&self, &t1, &t2}) || at::infer_size(self.sizes(), t1.sizes()) != self.sizes())
        return fallback<ATEN_OP(addcmul_)>(self, t1, t2, value);
    return addc_inplace(CLDNN_OP_TENSOR_MUL, self, t1, t2, value, "addcmul_");
}
at::Tensor& addcdiv_(at::Tensor& self, const at::Tensor& t1, const at::Tensor& t2, const c10::Scalar& value) {
    if (!same_float({&self, &t1, &t2}) || at::infer_size(self.sizes(), t1.sizes()) != self.sizes())
        return fallback<ATEN_OP(addcdiv_)>(self, t1, t2, value);
    return addc_inplace(CLDNN_OP_TENSOR_DIV, self, t1, t2, value, "addcdiv_");
}
at::Tensor addcmul(const at::Tensor& self, const at::Tensor& t1, const at::Tensor& t2, const c10::Scalar& value) {
    if (!same_float({&self, &t1, &t2}))
        return fallback<ATEN_OP(addcmul)>(self, t1, t2, value);
    at::Tensor out = at::empty(at::infer_size(self.sizes(), at::infer_size(t1.sizes(), t2.sizes())), self.options());
    copy_device(self.expand(out.sizes()), out, "addcmul");
    return addc_inplace(CLDNN_OP_TENSOR_MUL, out, t1, t2, value, "addcmul");
}
at::Tensor addcdiv(const at::Tensor& self, const at::Tensor& t1, const at::Tensor& t2, const c10::Scalar& value) {
    if (!same_float({&self, &t1, &t2}))
        return fallback<ATEN_OP(addcdiv)>(self, t1, t2, value);
    at::Tensor out = at::empty(at::infer_size(self.sizes(), at::infer_size(t1.sizes(), t2.sizes())), self.options());
    copy_device(self.expand(out.sizes()), out, "addcdiv");
    return addc_inplace(CLDNN_OP_TENSOR_DIV, out, t1, t2, value, "addcdiv");
}
// self += w * (end - self): self = (1 - w) self + w end in one cldnnOpTensor (C may alias A).
at::Tensor& lerp_scalar_(at::Tensor& self, const at::Tensor& end, const c10::Scalar& weight) {
    if (!same_float({&self, &end}) || at::infer_size(self.sizes(), end.sizes()) != self.sizes())
        return fallback<ATEN_OP2(lerp_, Scalar)>(self, end, weight);
    float w = weight.toFloat();
    op_tensor(CLDNN_OP_TENSOR_ADD, self, 1.f - w, end, w, self, "lerp_");
    return self;
}

// ----------------------------------------------------------------------------------------- GEMM
// A row-major operand for cldnnGemm: a matrix with unit column stride is OP_N with ld = its row
// stride; one with unit row stride (a transposed view) is OP_T of what is stored; others are packed.
struct Mat {
    at::Tensor t;
    cldnnOperation_t op;
    int64_t ld;
};

Mat gemm_operand(const at::Tensor& x) {
    int64_t r = x.size(-2), c = x.size(-1);
    if (x.stride(-1) == 1 && x.stride(-2) >= std::max<int64_t>(c, 1))
        return {x, CLDNN_OP_N, x.stride(-2)};
    if (x.stride(-2) == 1 && x.stride(-1) >= std::max<int64_t>(r, 1))
        return {x, CLDNN_OP_T, x.stride(-1)};
    at::Tensor p = x.contiguous();
    return {p, CLDNN_OP_N, std::max<int64_t>(c, 1)};
}

bool gemm_native(const at::Tensor& a, const at::Tensor& b) {
    return supported_dtype(a.scalar_type()) && a.scalar_type() == b.scalar_type() && a.device().type() == kOcl &&
           b.device().type() == kOcl && a.size(-1) > 0;
}

void check_gemm_devices(const at::Tensor& a, const at::Tensor& b, const char* op) {
    TORCH_CHECK(a.device().type() == kOcl && b.device().type() == kOcl, "ocl: ", op,
                ": expected all tensors on the ocl device, got ", a.device(), " and ", b.device());
}

// out[batch, m, n] (packed) = alpha * a @ b + beta * out; a [batch, m, k], b [batch, k, n]; a batch
// stride of 0 reuses one matrix.
void gemm(const at::Tensor& a, const at::Tensor& b, float alpha, float beta, const at::Tensor& out, const char* op) {
    if (out.numel() == 0)
        return;
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    Mat A = gemm_operand(a), B = gemm_operand(b);
    int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
    BufferRef ab = buffer(A.t), bb = buffer(B.t), cb = buffer(out);
    cldnnDataType_t dt = dtype_of(out.scalar_type(), op);
    if (a.dim() == 2) {
        CLDNN_TORCH_CHECK(op, cldnnGemm(d.handle, CLDNN_ROW_MAJOR, A.op, B.op, m, n, k, &alpha, ab.mem, ab.offset, A.ld,
                                        bb.mem, bb.offset, B.ld, &beta, cb.mem, cb.offset, n, dt));
        return;
    }
    CLDNN_TORCH_CHECK(op, cldnnGemmStridedBatched(d.handle, CLDNN_ROW_MAJOR, A.op, B.op, m, n, k, &alpha, ab.mem,
                                                  ab.offset, A.ld, A.t.stride(0), bb.mem, bb.offset, B.ld,
                                                  B.t.stride(0), &beta, cb.mem, cb.offset, n, m * n, a.size(0), dt));
}

// Results go to a packed temporary when out is not packed.
template <class F>
at::Tensor& into_packed(at::Tensor& out, F&& f) {
    if (out.is_contiguous()) {
        f(out);
        return out;
    }
    at::Tensor tmp = at::empty(out.sizes(), out.options());
    f(tmp);
    copy_device(tmp, out, "gemm");
    return out;
}

at::Tensor& addmm_into(const at::Tensor& self, const at::Tensor& m1, const at::Tensor& m2, const c10::Scalar& beta,
                       const c10::Scalar& alpha, at::Tensor& out) {
    float b = beta.toFloat();
    return into_packed(out, [&](const at::Tensor& o) {
        if (b != 0 && !self.is_same(o))
            copy_device(self.expand(o.sizes()), o, "addmm");
        gemm(m1, m2, alpha.toFloat(), b, o, "addmm");
    });
}

at::Tensor addmm(const at::Tensor& self, const at::Tensor& m1, const at::Tensor& m2, const c10::Scalar& beta,
                 const c10::Scalar& alpha) {
    if (!gemm_native(m1, m2) || self.scalar_type() != m1.scalar_type() || self.device().type() != kOcl)
        return fallback<ATEN_OP(addmm)>(self, m1, m2, beta, alpha);
    at::Tensor out = at::empty({m1.size(0), m2.size(1)}, m1.options());
    return addmm_into(self, m1, m2, beta, alpha, out);
}
at::Tensor& addmm_out(const at::Tensor& self, const at::Tensor& m1, const at::Tensor& m2, const c10::Scalar& beta,
                      const c10::Scalar& alpha, at::Tensor& out) {
    if (!gemm_native(m1, m2) || self.scalar_type() != m1.scalar_type() || out.scalar_type() != m1.scalar_type() ||
        self.device().type() != kOcl || out.device().type() != kOcl || out.is_same(self))
        return fallback<ATEN_OP2(addmm, out)>(self, m1, m2, beta, alpha, out);
    at::native::resize_output(out, {m1.size(0), m2.size(1)});
    return addmm_into(self, m1, m2, beta, alpha, out);
}
at::Tensor mm(const at::Tensor& a, const at::Tensor& b) {
    check_gemm_devices(a, b, "mm");
    if (!gemm_native(a, b))
        return fallback<ATEN_OP(mm)>(a, b);
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0), "ocl: mm: shapes ", a.sizes(), " and ",
                b.sizes(), " cannot be multiplied");
    at::Tensor out = at::empty({a.size(0), b.size(1)}, a.options());
    gemm(a, b, 1.f, 0.f, out, "mm");
    return out;
}
at::Tensor& mm_out(const at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
    if (!gemm_native(a, b) || out.scalar_type() != a.scalar_type() || out.device().type() != kOcl)
        return fallback<ATEN_OP2(mm, out)>(a, b, out);
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2 && a.size(1) == b.size(0), "ocl: mm: shapes ", a.sizes(), " and ",
                b.sizes(), " cannot be multiplied");
    at::native::resize_output(out, {a.size(0), b.size(1)});
    return into_packed(out, [&](const at::Tensor& o) { gemm(a, b, 1.f, 0.f, o, "mm"); });
}
at::Tensor bmm(const at::Tensor& a, const at::Tensor& b) {
    check_gemm_devices(a, b, "bmm");
    if (!gemm_native(a, b) || a.size(0) == 0)
        return fallback<ATEN_OP(bmm)>(a, b);
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3 && a.size(0) == b.size(0) && a.size(2) == b.size(1), "ocl: bmm: shapes ",
                a.sizes(), " and ", b.sizes(), " cannot be multiplied");
    at::Tensor out = at::empty({a.size(0), a.size(1), b.size(2)}, a.options());
    gemm(a, b, 1.f, 0.f, out, "bmm");
    return out;
}

// ----------------------------------------------------------------------------------- reductions
std::vector<int64_t> reduce_dims(const at::Tensor& x, at::OptionalIntArrayRef dim) {
    std::vector<int64_t> dims;
    if (!dim || dim->empty()) {
        for (int64_t i = 0; i < x.dim(); ++i)
            dims.push_back(i);
    } else {
        for (int64_t d : *dim)
            dims.push_back(at::maybe_wrap_dim(d, x.dim()));
    }
    return dims;
}

std::vector<int64_t> keepdim_shape(const at::Tensor& x, const std::vector<int64_t>& dims) {
    std::vector<int64_t> s(x.sizes().begin(), x.sizes().end());
    for (int64_t d : dims)
        s[d] = 1;
    return s;
}

at::Tensor squeeze_dims(const at::Tensor& y, const at::Tensor& x, const std::vector<int64_t>& dims, bool keepdim) {
    if (keepdim)
        return y;
    std::vector<int64_t> s;
    for (int64_t i = 0; i < x.dim(); ++i)
        if (std::find(dims.begin(), dims.end(), i) == dims.end())
            s.push_back(x.size(i));
    return y.view(s);
}

// y (keepdim shape) = alpha * reduce(x); indices (int64, y's shape) when given.
void reduce(cldnnReduceTensorOp_t rop, const at::Tensor& x_in, const at::Tensor& y, const at::Tensor* indices,
            float alpha, const char* op) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = dense(x_in);
    ReduceDesc rd;
    CLDNN_TORCH_CHECK(op, cldnnSetReduceTensorDescriptor(
                              rd, rop, CLDNN_DATA_FLOAT, CLDNN_PROPAGATE_NAN,
                              indices ? CLDNN_REDUCE_TENSOR_FLATTENED_INDICES : CLDNN_REDUCE_TENSOR_NO_INDICES,
                              CLDNN_64BIT_INDICES));
    TensorDesc ad, cd;
    set_nd(ad, x, op);
    set_nd(cd, y, op);
    size_t ws_size = 0, idx_size = 0;
    CLDNN_TORCH_CHECK(op, cldnnGetReductionWorkspaceSize(d.handle, rd, ad, cd, &ws_size));
    CLDNN_TORCH_CHECK(op, cldnnGetReductionIndicesSize(d.handle, rd, ad, cd, &idx_size));
    at::Tensor ws = at::empty({(int64_t)ws_size}, x.options().dtype(at::kByte));
    BufferRef wb = ws_size ? buffer(ws) : BufferRef{nullptr, 0};
    BufferRef ib = indices ? buffer(*indices) : BufferRef{nullptr, 0};
    BufferRef xb = buffer(x), yb = buffer(y);
    float zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnReduceTensor(d.handle, rd, ib.mem, ib.offset, indices ? idx_size : 0, wb.mem, wb.offset,
                                            ws_size, &alpha, ad, xb.mem, xb.offset, &zero, cd, yb.mem, yb.offset));
}

bool reduce_native(const at::Tensor& x, std::optional<at::ScalarType> dtype) {
    return supported_dtype(x.scalar_type()) && (!dtype || *dtype == x.scalar_type()) && x.numel() > 0 && x.dim() > 0;
}

at::Tensor reduce_op(cldnnReduceTensorOp_t rop, const at::Tensor& x, at::OptionalIntArrayRef dim, bool keepdim,
                     const char* op) {
    auto dims = reduce_dims(x, dim);
    at::Tensor y = at::empty(keepdim_shape(x, dims), x.options());
    reduce(rop, x, y, nullptr, 1.f, op);
    return squeeze_dims(y, x, dims, keepdim);
}

at::Tensor sum_dim(const at::Tensor& x, at::OptionalIntArrayRef dim, bool keepdim, std::optional<at::ScalarType> dt) {
    if (!reduce_native(x, dt))
        return fallback<ATEN_OP2(sum, dim_IntList)>(x, dim, keepdim, dt);
    return reduce_op(CLDNN_REDUCE_TENSOR_ADD, x, dim, keepdim, "sum");
}
at::Tensor mean_dim(const at::Tensor& x, at::OptionalIntArrayRef dim, bool keepdim, std::optional<at::ScalarType> dt) {
    if (!reduce_native(x, dt))
        return fallback<ATEN_OP2(mean, dim)>(x, dim, keepdim, dt);
    return reduce_op(CLDNN_REDUCE_TENSOR_AVG, x, dim, keepdim, "mean");
}
// var = sum((x - mean)^2) / max(0, n - correction): two cldnn reductions and the element-wise
// ops in between. FLOAT only: half storage would round the deviations and their squares.
at::Tensor var_correction(const at::Tensor& x, at::OptionalIntArrayRef dim, const std::optional<at::Scalar>& correction,
                          bool keepdim) {
    if (!reduce_native(x, std::nullopt) || x.scalar_type() != at::kFloat)
        return fallback<ATEN_OP2(var, correction)>(x, dim, correction, keepdim);
    auto dims = reduce_dims(x, dim);
    int64_t n = 1;
    for (int64_t d : dims)
        n *= x.size(d);
    at::Tensor mean = at::empty(keepdim_shape(x, dims), x.options());
    reduce(CLDNN_REDUCE_TENSOR_AVG, x, mean, nullptr, 1.f, "var");
    at::Tensor dev = at::sub(x, mean);
    at::Tensor sq = at::mul(dev, dev);
    at::Tensor y = at::empty(keepdim_shape(x, dims), x.options());
    // n <= correction divides by 0, as torch does: inf, or NaN where the sum is 0.
    const double denom = std::max(0.0, (double)n - (correction ? correction->toDouble() : 1.0));
    reduce(CLDNN_REDUCE_TENSOR_ADD, sq, y, nullptr, (float)(1.0 / denom), "var");
    return squeeze_dims(y, x, dims, keepdim);
}
at::Tensor std_correction(const at::Tensor& x, at::OptionalIntArrayRef dim, const std::optional<at::Scalar>& correction,
                          bool keepdim) {
    if (!reduce_native(x, std::nullopt) || x.scalar_type() != at::kFloat)
        return fallback<ATEN_OP2(std, correction)>(x, dim, correction, keepdim);
    return at::sqrt(var_correction(x, dim, correction, keepdim));
}
at::Tensor amax(const at::Tensor& x, at::IntArrayRef dim, bool keepdim) {
    if (!reduce_native(x, std::nullopt))
        return fallback<ATEN_OP(amax)>(x, dim, keepdim);
    return reduce_op(CLDNN_REDUCE_TENSOR_MAX, x, dim, keepdim, "amax");
}
at::Tensor amin(const at::Tensor& x, at::IntArrayRef dim, bool keepdim) {
    if (!reduce_native(x, std::nullopt))
        return fallback<ATEN_OP(amin)>(x, dim, keepdim);
    return reduce_op(CLDNN_REDUCE_TENSOR_MIN, x, dim, keepdim, "amin");
}
at::Tensor max_all(const at::Tensor& x) {
    if (!reduce_native(x, std::nullopt))
        return fallback<ATEN_OP(max)>(x);
    return reduce_op(CLDNN_REDUCE_TENSOR_MAX, x, std::nullopt, false, "max");
}
std::tuple<at::Tensor, at::Tensor> max_dim(const at::Tensor& x, int64_t dim, bool keepdim) {
    if (!reduce_native(x, std::nullopt))
        return fallback<ATEN_OP2(max, dim)>(x, dim, keepdim);
    std::vector<int64_t> dims{at::maybe_wrap_dim(dim, x.dim())};
    auto shape = keepdim_shape(x, dims);
    at::Tensor y = at::empty(shape, x.options()), idx = at::empty(shape, x.options().dtype(at::kLong));
    reduce(CLDNN_REDUCE_TENSOR_MAX, x, y, &idx, 1.f, "max.dim");
    return {squeeze_dims(y, x, dims, keepdim), squeeze_dims(idx, x, dims, keepdim)};
}
at::Tensor argmax(const at::Tensor& x, std::optional<int64_t> dim, bool keepdim) {
    if (!reduce_native(x, std::nullopt))
        return fallback<ATEN_OP(argmax)>(x, dim, keepdim);
    std::vector<int64_t> dims = dim ? std::vector<int64_t>{at::maybe_wrap_dim(*dim, x.dim())} : reduce_dims(x, {});
    auto shape = keepdim_shape(x, dims);
    at::Tensor y = at::empty(shape, x.options()), idx = at::empty(shape, x.options().dtype(at::kLong));
    reduce(CLDNN_REDUCE_TENSOR_MAX, x, y, &idx, 1.f, "argmax");
    if (!dim)  // over every dim: a 0-d result, or all ones with keepdim
        return keepdim ? idx : idx.view(at::IntArrayRef{});
    return squeeze_dims(idx, x, dims, keepdim);
}

// ------------------------------------------------------------------------------------ dropout
// cldnnDropoutForward on a tensor of ones is the mask: 0 where dropped, 1 / (1 - p) where kept
// (cldnnDropout's counter-based generator; its seed drawn from the CPU generator, as every random
// number of this device). So the mask this device returns carries the scale, unlike CUDA's bool
// mask, and native_dropout_backward multiplies by it alone (its `scale` is that same factor).
std::tuple<at::Tensor, at::Tensor> native_dropout(const at::Tensor& input, double p, std::optional<bool> train) {
    const char* op = "native_dropout";
    if (!supported_dtype(input.scalar_type()))
        return fallback<ATEN_OP(native_dropout)>(input, p, train);
    if (!train.value_or(true) || p == 0)
        return {input.clone(), at::ones_like(input)};
    TORCH_CHECK(p > 0 && p < 1, "ocl: ", op, ": p must be in [0, 1), got ", p);
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    uint64_t seed;
    {
        auto gen = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(gen.mutex());
        seed = at::check_generator<at::CPUGeneratorImpl>(gen)->random64();
    }
    at::Tensor ones = at::ones(input.sizes(), input.options()), mask = at::empty(input.sizes(), input.options());
    DropoutDesc dd;
    CLDNN_TORCH_CHECK(op, cldnnSetDropoutDescriptor(dd, (float)p, seed, 0));
    TensorDesc od, md;
    set_nd(od, ones, op);
    set_nd(md, mask, op);
    BufferRef ob = buffer(ones), mb = buffer(mask);
    CLDNN_TORCH_CHECK(op, cldnnDropoutForward(d.handle, dd, od, ob.mem, ob.offset, md, mb.mem, mb.offset, nullptr, 0, 0));
    return {at::mul(input, mask), mask};
}

at::Tensor native_dropout_backward(const at::Tensor& grad, const at::Tensor& mask, double scale) {
    if (!supported_dtype(grad.scalar_type()) || mask.scalar_type() != grad.scalar_type())  // a CPU-made bool mask
        return fallback<ATEN_OP(native_dropout_backward)>(grad, mask, scale);
    return at::mul(grad, mask);
}

}  // namespace

void reduce_sum(const at::Tensor& x, const at::Tensor& y, float alpha, const char* op) {
    reduce(CLDNN_REDUCE_TENSOR_ADD, x, y, nullptr, alpha, op);
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("native_dropout", native_dropout);
    m.impl("native_dropout_backward", native_dropout_backward);
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
    m.impl("neg", neg);
    m.impl("neg.out", neg_out);
    m.impl("sqrt", sqrt);
    m.impl("addcmul", addcmul);
    m.impl("addcmul_", addcmul_);
    m.impl("addcdiv", addcdiv);
    m.impl("addcdiv_", addcdiv_);
    m.impl("lerp_.Scalar", lerp_scalar_);
    m.impl("addmm", addmm);
    m.impl("addmm.out", addmm_out);
    m.impl("mm", mm);
    m.impl("mm.out", mm_out);
    m.impl("bmm", bmm);
    m.impl("sum.dim_IntList", sum_dim);
    m.impl("mean.dim", mean_dim);
    m.impl("amax", amax);
    m.impl("var.correction", var_correction);
    m.impl("std.correction", std_correction);
    m.impl("amin", amin);
    m.impl("max", max_all);
    m.impl("max.dim", max_dim);
    m.impl("argmax", argmax);
}

}  // namespace cldnn_torch
