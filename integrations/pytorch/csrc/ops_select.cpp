// Comparisons, where, index_select (embedding's forward), embedding's backward and the NLL loss's
// class mask: selecting and
// comparing elements, for which cldnn's API has no primitive (its arithmetic is float math on
// float, half and bfloat16 data: no integer or boolean results, no gather). These are kernels of
// this extension's own, each variant (expression, operand types, dims) built once per process.
//
// The element-wise ones share one kernel shape: the output packed or strided, every operand
// broadcast to its shape (stride 0), dims merged where every operand allows, the element's offset
// in each operand decoded from its index. `where` and `index_select` move an element's bits
// unchanged (any dtype of 1, 2, 4 or 8 bytes); comparisons load their operands as float (any
// floating operand, as torch promotes) or long.
//
// An index out of range cannot raise where the kernel runs: the kernel sets a flag on the device
// and the next synchronization point (synchronize, a copy to the host) raises, as CUDA's
// device-side assertions do.
#include "runtime.h"

#include <ATen/ExpandUtils.h>
#include <ATen/Operators.h>
#include <ATen/native/Resize.h>
#include <torch/library.h>

#include <array>
#include <map>
#include <string>
#include <vector>

namespace cldnn_torch {
namespace {

constexpr int kMaxDims = 8;

// An element's bits as an OpenCL type, by size.
const char* raw_type(int64_t size) {
    switch (size) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    case 8: return "ulong";
    default: return nullptr;
    }
}

// How an element of type t loads as `compute` (float or long); false for a type not handled.
bool load_expr(at::ScalarType t, const std::string& p, const std::string& i, const std::string& compute,
               std::string& e, std::string& ptr_type) {
    switch (t) {
    case at::kFloat: ptr_type = "float"; break;
    case at::kHalf: ptr_type = "half"; e = "vload_half(" + i + ", " + p + ")"; return true;
    case at::kBFloat16: ptr_type = "ushort"; e = "as_float((uint)" + p + "[" + i + "] << 16)"; return true;
    case at::kLong: ptr_type = "long"; break;
    case at::kInt: ptr_type = "int"; break;
    case at::kShort: ptr_type = "short"; break;
    case at::kChar: ptr_type = "char"; break;
    case at::kByte: case at::kBool: ptr_type = "uchar"; break;
    default: return false;
    }
    e = "(" + compute + ")" + p + "[" + i + "]";
    return true;
}

struct Operand {
    at::Tensor t;  // on the device, of the output's shape (broadcast by stride 0)
    bool raw;      // loaded as its bits, else as the compute type
};

// Merges the dims of out's shape where every operand is contiguous across them and drops size-1
// dims; innermost first. Returns the dim count (at least 1).
int collapse(const at::Tensor& out, const std::vector<Operand>& ins, int64_t* sizes,
             std::vector<std::array<int64_t, kMaxDims>>& strides) {
    const size_t nops = ins.size() + 1;
    auto stride_of = [&](size_t o, int64_t d) { return o == 0 ? out.stride(d) : ins[o - 1].t.stride(d); };
    int nd = 0;
    for (int64_t d = out.dim() - 1; d >= 0; --d) {
        if (out.size(d) == 1)
            continue;
        if (nd > 0) {
            bool merge = true;
            for (size_t o = 0; o < nops && merge; ++o)
                merge = stride_of(o, d) == strides[o][nd - 1] * sizes[nd - 1];
            if (merge) {
                sizes[nd - 1] *= out.size(d);
                continue;
            }
        }
        if (nd == kMaxDims)
            return -1;
        sizes[nd] = out.size(d);
        for (size_t o = 0; o < nops; ++o)
            strides[o][nd] = stride_of(o, d);
        ++nd;
    }
    if (nd == 0) {
        sizes[0] = 1;
        for (size_t o = 0; o < nops; ++o)
            strides[o][0] = 0;
        nd = 1;
    }
    return nd;
}

// out = expr over the operands (A, B, C in the expression), stored as out's bits; compute is the
// type non-raw operands load as. False when a type or the rank is not handled.
bool elementwise(const char* op, const char* expr, const char* compute, const at::Tensor& out,
                 std::vector<Operand> ins) {
    const char* out_t = raw_type(out.element_size());
    if (out_t == nullptr || out.device().type() != kOcl)
        return false;
    for (Operand& o : ins) {
        if (o.t.device().type() != kOcl)
            return false;
        if (o.t.sizes() != out.sizes())
            o.t = o.t.expand(out.sizes());
    }
    if (out.numel() == 0)
        return true;
    int64_t sizes[kMaxDims];
    std::vector<std::array<int64_t, kMaxDims>> strides(ins.size() + 1);
    const int nd = collapse(out, ins, sizes, strides);
    if (nd < 0)
        return false;
    // The source and the key: expression, compute type, dims, each operand's load.
    std::string key = std::string(expr) + "|" + compute + "|" + std::to_string(nd) + "|" + out_t;
    std::string params = "__global " + std::string(out_t) + "* y, ulong yo", loads, index;
    for (size_t o = 0; o < ins.size(); ++o) {
        const std::string p = "p" + std::to_string(o), i = "i" + std::to_string(o);
        std::string e, ptr;
        if (ins[o].raw) {
            ptr = raw_type(ins[o].t.element_size()) ? raw_type(ins[o].t.element_size()) : "";
            if (ptr.empty())
                return false;
            e = p + "[" + i + "]";
        } else if (!load_expr(ins[o].t.scalar_type(), p, i, compute, e, ptr)) {
            return false;
        }
        key += "|" + ptr + (ins[o].raw ? "r" : "c");
        params += ", __global const " + ptr + "* " + p + ", ulong o" + std::to_string(o);
        loads += "    const " + (ins[o].raw ? ptr : std::string(compute)) + " " + std::string(1, char('A' + o)) + " = " + e +
                 ";\n";
    }
    params += ", ulong n, long8 sz, long8 sy";
    for (size_t o = 0; o < ins.size(); ++o)
        params += ", long8 s" + std::to_string(o);
    index = "    ulong r = e; long iy = yo";
    for (size_t o = 0; o < ins.size(); ++o)
        index += ", i" + std::to_string(o) + " = o" + std::to_string(o);
    index += ";\n";
    const char* comp = "01234567";
    for (int d = 0; d < nd; ++d) {
        const std::string c = std::string(".s") + comp[d];
        index += "    { const long c = " + std::string(d + 1 < nd ? "r % sz" + c : "r") + ";" +
                 (d + 1 < nd ? " r /= sz" + c + ";" : "") + " iy += c * sy" + c + ";";
        for (size_t o = 0; o < ins.size(); ++o)
            index += " i" + std::to_string(o) + " += c * s" + std::to_string(o) + c + ";";
        index += " }\n";
    }
    static std::map<std::string, cl_kernel> built;  // under the device's mutex
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    cl_kernel k;
    auto it = built.find(key);
    if (it != built.end()) {
        k = it->second;
    } else {
        std::string src = "__kernel void ew(" + params + ") {\n    const ulong e = get_global_id(0);\n    if (e >= n) return;\n" +
                          index + loads + "    y[iy] = (" + out_t + ")(" + expr + ");\n}\n";
        build_kernels(src.c_str(), "", {"ew"}, &k, op);
        built.emplace(key, k);
    }
    auto long8 = [&](const int64_t* v) {
        cl_long8 r;
        for (int j = 0; j < 8; ++j)
            r.s[j] = j < nd ? v[j] : 1;
        return r;
    };
    cl_uint arg = 0;
    cl_int err = CL_SUCCESS;
    BufferRef yb = buffer(out);
    cl_ulong yo = yb.offset / out.element_size();
    err |= clSetKernelArg(k, arg++, sizeof(cl_mem), &yb.mem);
    err |= clSetKernelArg(k, arg++, sizeof yo, &yo);
    for (const Operand& o : ins) {
        BufferRef b = buffer(o.t);
        cl_ulong off = b.offset / o.t.element_size();
        err |= clSetKernelArg(k, arg++, sizeof(cl_mem), &b.mem);
        err |= clSetKernelArg(k, arg++, sizeof off, &off);
    }
    cl_ulong n = (cl_ulong)out.numel();
    err |= clSetKernelArg(k, arg++, sizeof n, &n);
    cl_long8 v = long8(sizes);
    err |= clSetKernelArg(k, arg++, sizeof v, &v);
    for (size_t o = 0; o <= ins.size(); ++o) {
        v = long8(strides[o].data());
        err |= clSetKernelArg(k, arg++, sizeof v, &v);
    }
    check_cl(err, op, "clSetKernelArg");
    enqueue_1d(k, (size_t)n, 256, op);
    return true;
}

// A CPU 0-dim tensor (a wrapped Python number) as a one-element device tensor of type dt.
at::Tensor on_device(const at::Tensor& t, at::ScalarType dt) {
    if (t.device().type() == kOcl)
        return t.scalar_type() == dt ? t : t.to(dt);
    return scalar_tensor_on_device(t.item(), dt).view(t.sizes());
}


// ---------------------------------------------------------------------------------- comparisons
// torch promotes both operands to their common type; comparing in float when it is floating and
// in long otherwise gives its results for every type but double (which falls back).
template <class Fallback>
at::Tensor& compare_out(const char* op, const char* cmp, const at::Tensor& self, const at::Tensor& other,
                        at::Tensor& out, Fallback fallback) {
    const at::ScalarType common = at::result_type(self, other);
    const bool ok = self.device().type() == kOcl && (other.device().type() == kOcl || is_cpu_scalar(other)) &&
                    out.device().type() == kOcl && out.scalar_type() == at::kBool && common != at::kDouble &&
                    !at::isComplexType(common) && (at::isFloatingType(common) || at::isIntegralType(common, true));
    if (ok) {
        at::native::resize_output(out, at::infer_size(self.sizes(), other.sizes()));
        const char* compute = at::isFloatingType(common) ? "float" : "long";
        at::Tensor b = is_cpu_scalar(other) ? on_device(other, common) : other;
        const std::string expr = std::string("A ") + cmp + " B";
        if (elementwise(op, expr.c_str(), compute, out, {{self, false}, {b, false}}))
            return out;
    }
    return fallback();
}

#define COMPARISON(NAME, CMP)                                                                                  \
    at::Tensor& NAME##_tensor_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {          \
        return compare_out(#NAME, CMP, self, other, out, [&]() -> at::Tensor& {                                \
            return fallback<ATEN_OP2(NAME, Tensor_out)>(self, other, out);                                     \
        });                                                                                                    \
    }                                                                                                          \
    at::Tensor NAME##_tensor(const at::Tensor& self, const at::Tensor& other) {                                \
        at::Tensor out = at::empty({0}, self.options().dtype(at::kBool));                                      \
        return NAME##_tensor_out(self, other, out);                                                            \
    }                                                                                                          \
    at::Tensor& NAME##_scalar_out(const at::Tensor& self, const at::Scalar& other, at::Tensor& out) {          \
        at::Tensor o = c10::scalar_to_tensor(other);                                                           \
        o.unsafeGetTensorImpl()->set_wrapped_number(true);                                                     \
        return compare_out(#NAME, CMP, self, o, out, [&]() -> at::Tensor& {                                    \
            return fallback<ATEN_OP2(NAME, Scalar_out)>(self, other, out);                                     \
        });                                                                                                    \
    }                                                                                                          \
    at::Tensor NAME##_scalar(const at::Tensor& self, const at::Scalar& other) {                                \
        at::Tensor out = at::empty({0}, self.options().dtype(at::kBool));                                      \
        return NAME##_scalar_out(self, other, out);                                                            \
    }

COMPARISON(eq, "==")
COMPARISON(ne, "!=")
COMPARISON(lt, "<")
COMPARISON(le, "<=")
COMPARISON(gt, ">")
COMPARISON(ge, ">=")

// ---------------------------------------------------------------------------------------- where
at::Tensor& where_out(const at::Tensor& cond, const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
    const at::ScalarType dt = at::result_type(self, other);
    const bool ok = cond.scalar_type() == at::kBool && out.device().type() == kOcl && out.scalar_type() == dt &&
                    (cond.device().type() == kOcl || is_cpu_scalar(cond)) &&
                    (self.device().type() == kOcl || is_cpu_scalar(self)) &&
                    (other.device().type() == kOcl || is_cpu_scalar(other)) && raw_type(out.element_size());
    if (ok) {
        at::native::resize_output(out, at::infer_size(cond.sizes(), at::infer_size(self.sizes(), other.sizes())));
        at::Tensor c = on_device(cond, at::kBool), a = on_device(self, dt), b = on_device(other, dt);
        if (elementwise("where", "C ? A : B", "long", out, {{a, true}, {b, true}, {c, true}}))
            return out;
    }
    return fallback<ATEN_OP2(where, self_out)>(cond, self, other, out);
}

at::Tensor where(const at::Tensor& cond, const at::Tensor& self, const at::Tensor& other) {
    at::Tensor out = at::empty({0}, self.options().dtype(at::result_type(self, other)));
    return where_out(cond, self, other, out);
}

// --------------------------------------------------------------------------------- index kernels
const char* kIndexSource = R"CL(
// out[o, i, r] = x[o, idx[i], r] (x and out packed; [outer, n, inner] and [outer, size, inner])
__kernel void gather(__global T* y, ulong yo, __global const T* x, ulong xo, __global const I* idx, ulong io,
                     ulong n, ulong size, ulong inner, ulong total, __global int* error) {
    const ulong e = get_global_id(0);
    if (e >= total) return;
    const ulong r = e % inner, i = (e / inner) % n, o = e / (inner * n);
    long k = (long)idx[io + i];
    if (k < 0) k += (long)size;  // torch's index_select takes negative indices from the end
    if (k < 0 || k >= (long)size) {
        *error = 1;
        y[yo + e] = 0;
        return;
    }
    y[yo + e] = x[xo + (o * size + (ulong)k) * inner + r];
}
)CL";

const char* kEmbeddingBackwardSource = R"CL(
// A float add that other work-items may race on: compare-and-swap on the bits.
void add_float(volatile __global float* p, float v) {
    union { uint u; float f; } old, sum;
    do {
        old.f = *p;
        sum.f = old.f + v;
    } while (atomic_cmpxchg((volatile __global uint*)p, old.u, sum.u) != old.u);
}
// gw[idx[i], d] += g[i, d] for every i whose index is not padding_idx
__kernel void embedding_backward(__global float* gw, ulong go_, __global const float* g, ulong gofs,
                                 __global const I* idx, ulong io, ulong dim, ulong rows, long num_weights,
                                 long padding_idx, __global int* error) {
    const ulong e = get_global_id(0);
    if (e >= rows * dim) return;
    const ulong i = e / dim, d = e % dim;
    const long k = (long)idx[io + i];
    if (k == padding_idx) return;
    if (k < 0 || k >= num_weights) {
        *error = 1;
        return;
    }
    add_float(gw + go_ + (ulong)k * dim + d, g[gofs + e]);
}
)CL";

const char* kClassMaskSource = R"CL(
// mask[i, t[i]] = -w[t[i]] (w = 1 without weights) for every row whose target is not ignore_index;
// mask is zero elsewhere already.
__kernel void class_mask(__global float* mask, ulong mo, __global const I* t, ulong to,
                         __global const float* w, ulong wo, int has_w, ulong rows, long classes,
                         long ignore_index, __global int* error) {
    const ulong i = get_global_id(0);
    if (i >= rows) return;
    const long k = (long)t[to + i];
    if (k == ignore_index) return;
    if (k < 0 || k >= classes) {
        *error = 1;
        return;
    }
    mask[mo + i * (ulong)classes + (ulong)k] = has_w ? -w[wo + (ulong)k] : -1.0f;
}
)CL";

// The kernel for (source, element type, index type), built once.
cl_kernel index_kernel(const char* source, const char* name, const char* t, const char* idx, const char* op) {
    static std::map<std::string, cl_kernel> built;  // under the device's mutex
    std::string key = std::string(name) + "|" + t + "|" + idx;
    auto it = built.find(key);
    if (it != built.end())
        return it->second;
    std::string options = std::string("-DT=") + t + " -DI=" + idx;
    cl_kernel k;
    build_kernels(source, options.c_str(), {name}, &k, op);
    built.emplace(key, k);
    return k;
}


at::Tensor index_select(const at::Tensor& self, int64_t dim, const at::Tensor& index) {
    const char* op = "index_select";
    const bool ok = self.device().type() == kOcl && raw_type(self.element_size()) && index.dim() <= 1 &&
                    (index.scalar_type() == at::kLong || index.scalar_type() == at::kInt);
    if (!ok)
        return fallback<ATEN_OP(index_select)>(self, dim, index);
    dim = c10::maybe_wrap_dim(dim, self.dim());
    at::Tensor x = self.dim() == 0 ? self.view({1}) : self.contiguous();
    at::Tensor idx = (index.device().type() == kOcl ? index : index.to(x.device())).contiguous();
    std::vector<int64_t> shape = x.sizes().vec();
    const int64_t size = shape.empty() ? 1 : shape[dim];
    shape[dim] = idx.numel();
    at::Tensor out = at::empty(shape, x.options());
    if (self.dim() == 0)
        out = out.view(at::IntArrayRef{});
    if (out.numel() == 0)
        return out;
    TORCH_CHECK_INDEX(size > 0, "ocl: index_select: index out of range in self (dim ", dim, " is empty)");
    int64_t inner = 1;
    for (int64_t d = dim + 1; d < x.dim(); ++d)
        inner *= x.size(d);
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    cl_kernel k = index_kernel(kIndexSource, "gather", raw_type(x.element_size()),
                               idx.scalar_type() == at::kLong ? "long" : "int", op);
    BufferRef yb = buffer(out), xb = buffer(x), ib = buffer(idx);
    cl_ulong yo = yb.offset / out.element_size(), xo = xb.offset / x.element_size(), io = ib.offset / idx.element_size();
    cl_ulong n = idx.numel(), sz = size, in = inner, total = out.numel();
    cl_mem flag = index_error_flag();
    set_kernel_args(k, op, yb.mem, yo, xb.mem, xo, ib.mem, io, n, sz, in, total, flag);
    enqueue_1d(k, total, 256, op);
    return out;
}

at::Tensor embedding_dense_backward(const at::Tensor& grad, const at::Tensor& indices, int64_t num_weights,
                                    int64_t padding_idx, bool scale_grad_by_freq) {
    const char* op = "embedding_dense_backward";
    const bool ok = grad.device().type() == kOcl && grad.scalar_type() == at::kFloat && !scale_grad_by_freq &&
                    (indices.scalar_type() == at::kLong || indices.scalar_type() == at::kInt);
    if (!ok)
        return fallback<ATEN_OP(embedding_dense_backward)>(grad, indices, num_weights, padding_idx, scale_grad_by_freq);
    const int64_t dim = grad.size(-1), rows = indices.numel();
    at::Tensor gw = at::zeros({num_weights, dim}, grad.options());
    if (rows == 0 || dim == 0)
        return gw;
    at::Tensor g2 = grad.reshape({rows, dim}).contiguous();
    at::Tensor idx = (indices.device().type() == kOcl ? indices : indices.to(grad.device())).reshape({rows}).contiguous();
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    cl_kernel k = index_kernel(kEmbeddingBackwardSource, "embedding_backward", "float",
                               idx.scalar_type() == at::kLong ? "long" : "int", op);
    BufferRef wb = buffer(gw), gb = buffer(g2), ib = buffer(idx);
    cl_ulong wo = wb.offset / 4, go = gb.offset / 4, io = ib.offset / idx.element_size(), dm = dim, rw = rows;
    cl_long nw = num_weights, pad = padding_idx;
    cl_mem flag = index_error_flag();
    set_kernel_args(k, op, wb.mem, wo, gb.mem, go, ib.mem, io, dm, rw, nw, pad, flag);
    enqueue_1d(k, (size_t)(rows * dim), 256, op);
    return gw;
}

}  // namespace

at::Tensor nll_class_mask(const at::Tensor& target, const std::optional<at::Tensor>& weight, int64_t rows,
                          int64_t classes, int64_t ignore_index) {
    const char* op = "nll_loss";
    at::TensorOptions f32 = at::TensorOptions().dtype(at::kFloat).device(kOcl, 0);
    at::Tensor mask = at::zeros({rows, classes}, f32);
    if (rows == 0 || classes == 0)
        return mask;
    at::Tensor t = target.to(mask.device()).reshape({rows});
    if (t.scalar_type() != at::kLong && t.scalar_type() != at::kInt)
        t = t.to(at::kLong);
    t = t.contiguous();
    const bool has_w = weight && weight->defined();
    at::Tensor w = has_w ? weight->to(f32).contiguous() : mask;  // any valid buffer when unweighted
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    cl_kernel k = index_kernel(kClassMaskSource, "class_mask", "float", t.scalar_type() == at::kLong ? "long" : "int", op);
    BufferRef mb = buffer(mask), tb = buffer(t), wb = buffer(w);
    cl_ulong mo = mb.offset / 4, to = tb.offset / t.element_size(), wo = wb.offset / 4, rw = rows;
    cl_int hw = has_w;
    cl_long cl = classes, ig = ignore_index;
    cl_mem flag = index_error_flag();
    set_kernel_args(k, op, mb.mem, mo, tb.mem, to, wb.mem, wo, hw, rw, cl, ig, flag);
    enqueue_1d(k, (size_t)rows, 256, op);
    return mask;
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
#define REGISTER_COMPARISON(NAME)                              \
    m.impl(#NAME ".Tensor", NAME##_tensor);                    \
    m.impl(#NAME ".Tensor_out", NAME##_tensor_out);            \
    m.impl(#NAME ".Scalar", NAME##_scalar);                    \
    m.impl(#NAME ".Scalar_out", NAME##_scalar_out);
    REGISTER_COMPARISON(eq)
    REGISTER_COMPARISON(ne)
    REGISTER_COMPARISON(lt)
    REGISTER_COMPARISON(le)
    REGISTER_COMPARISON(gt)
    REGISTER_COMPARISON(ge)
#undef REGISTER_COMPARISON
    m.impl("where.self", where);
    m.impl("where.self_out", where_out);
    m.impl("index_select", index_select);
    m.impl("embedding_dense_backward", embedding_dense_backward);
}

}  // namespace cldnn_torch
