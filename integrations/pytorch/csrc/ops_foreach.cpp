// torch's foreach ops (the optimizers' multi-tensor updates) as multi-tensor kernels.
//
// Without them torch runs a foreach op as a loop over the list, one element-wise op per tensor:
// an SGD step on ResNet-50 was about 480 cldnn calls, 8-11 ms of a 40-80 ms training step on the
// H200 against CUDA's 1 ms of multi-tensor kernels. cldnn's API has no multi-tensor primitive (an
// element-wise op takes one descriptor and one buffer per operand), and every tensor here is a
// buffer of its own, so this is the extension's own OpenCL: one launch takes up to K tensors of
// each list as separate buffer arguments (K from the device's kernel-argument space) and every
// work-group finds its tensor from the first-group table passed beside them, as CUDA's
// multi_tensor_apply does with its chunk table.
//
// One kernel source, specialized by the element expression (and the number of lists it reads, an
// output list or in place, a scalar per tensor): each variant is built once per process. The fast
// route takes float32 contiguous tensors on the device with matching shapes across the lists;
// anything else (other dtypes, strides, a CPU tensor, mismatched lists, which must raise torch's
// own error) takes torch's per-tensor loop, whose ops are this extension's element-wise kernels.
#include "runtime.h"

#include <ATen/ops/_foreach_add_native.h>
#include <ATen/ops/_foreach_addcdiv_native.h>
#include <ATen/ops/_foreach_addcmul_native.h>
#include <ATen/ops/_foreach_div_native.h>
#include <ATen/ops/_foreach_lerp_native.h>
#include <ATen/ops/_foreach_mul_native.h>
#include <ATen/ops/_foreach_neg_native.h>
#include <ATen/ops/_foreach_sqrt_native.h>
#include <ATen/ops/_foreach_sub_native.h>
#include <ATen/ops/_foreach_zero_native.h>
#include <torch/library.h>

#include <algorithm>
#include <climits>
#include <map>
#include <string>
#include <vector>

namespace cldnn_torch {
namespace {

using Lists = std::initializer_list<at::TensorList>;

constexpr size_t kLocal = 256;  // work-group size, and elements per group

struct Variant {
    cl_kernel kernel = nullptr;
    int k = 0;          // tensors per launch
    size_t local = 0;   // work-group size
};

// What one launch of a variant takes. Argument order: for each tensor slot i, for each list l,
// (buffer, element offset); then for each slot, (element count, first group[, its scalar]); then
// the launch's scalar s.
struct Shape {
    int reads;        // lists read: a, b, c
    bool inplace;     // result into list 0, else into a separate output list
    bool per_tensor;  // a scalar per tensor (sl)
    int lists() const { return reads + (inplace ? 0 : 1); }
};

std::string source(const Shape& sh, const char* expr, int k, size_t local, bool selects) {
    const char* names = "abc";
    std::string s = "#define LOCAL " + std::to_string(local) +
                    "U\n__kernel __attribute__((reqd_work_group_size(LOCAL, 1, 1))) void foreach_apply(";
    for (int i = 0; i < k; ++i)
        for (int l = 0; l < sh.lists(); ++l)
            s += "__global float* P" + std::to_string(l) + "_" + std::to_string(i) + ", ulong O" + std::to_string(l) +
                 "_" + std::to_string(i) + ", ";
    for (int i = 0; i < k; ++i) {
        s += "ulong N" + std::to_string(i) + ", uint G" + std::to_string(i) + ", ";
        if (sh.per_tensor)
            s += "float S" + std::to_string(i) + ", ";
    }
    s += "float s) {\n    const uint g = get_group_id(0);\n    uint t = 0;\n";
    // Unused slots have first group UINT_MAX, so t stops at the last tensor of the launch.
    for (int i = 1; i < k; ++i)
        s += "    t += g >= G" + std::to_string(i) + ";\n";
    // The slot's operands: t is uniform over the group, so a GPU takes a switch as one uniform
    // branch; PoCL vectorizes a group's work-items only without control flow ahead of the
    // element's work (its kernel with the switch ran 5x slower than cldnn's element-wise one), so
    // a CPU gets a chain of selects instead.
    for (int l = 0; l < sh.lists(); ++l)
        s += "    __global float* p" + std::to_string(l) + " = P" + std::to_string(l) + "_0 + O" + std::to_string(l) + "_0;\n";
    s += std::string("    ulong n = N0; uint g0 = G0; float sl = ") + (sh.per_tensor ? "S0" : "0.0f") + ";\n";
    if (!selects)
        s += "    switch (t) {\n";
    for (int i = 1; i < k; ++i) {
        std::string is = std::to_string(i), c = selects ? "t == " + is + " ? " : "";
        s += selects ? "   " : "    case " + is + ":";
        for (int l = 0; l < sh.lists(); ++l) {
            std::string ls = std::to_string(l);
            s += " p" + ls + " = " + c + "P" + ls + "_" + is + " + O" + ls + "_" + is + (selects ? " : p" + ls : "") + ";";
        }
        s += " n = " + c + "N" + is + (selects ? " : n" : "") + "; g0 = " + c + "G" + is + (selects ? " : g0;" : ";");
        if (sh.per_tensor)
            s += " sl = " + c + "S" + is + (selects ? " : sl;" : ";");
        s += selects ? "\n" : " break;\n";
    }
    if (!selects)
        s += "    }\n";
    // One element per work-item, a group per LOCAL elements: a loop over more elements per
    // work-item made PoCL's kernel 5-10x slower (its work-item loops stopped vectorizing).
    s += "    const ulong e = (ulong)(g - g0) * LOCAL + get_local_id(0);\n";
    s += "    if (e < n) {\n";
    for (int l = 0; l < sh.reads; ++l)
        s += "        const float " + std::string(1, names[l]) + " = p" + std::to_string(l) + "[e];\n";
    s += "        p" + std::to_string(sh.inplace ? 0 : sh.reads) + "[e] = " + expr + ";\n    }\n}\n";
    return s;
}

const Variant& variant(const Shape& sh, const char* expr, const char* op) {
    static std::map<std::string, Variant> built;  // under the device's mutex
    std::string key = std::string(expr) + "|" + std::to_string(sh.reads) + (sh.inplace ? "i" : "o") +
                      (sh.per_tensor ? "s" : "");
    auto it = built.find(key);
    if (it != built.end())
        return it->second;
    Device& d = device();
    cl_device_id dev;
    clGetCommandQueueInfo(d.queue, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr);
    size_t param_bytes = 1024;  // the OpenCL minimum
    clGetDeviceInfo(dev, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof param_bytes, &param_bytes, nullptr);
    const size_t per_tensor = (size_t)sh.lists() * 16 + 12 + (sh.per_tensor ? 4 : 0);
    Variant v;
    v.k = (int)std::min<size_t>(32, (param_bytes - 64) / per_tensor);
    TORCH_CHECK(v.k >= 1, "ocl: ", op, ": the device's kernel-argument space (", param_bytes, " bytes) is too small");
    // Correctly rounded sqrt and division where the device offers them (CPU and CUDA round them).
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, nullptr);
    const char* options = (fp & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) ? "-cl-fp32-correctly-rounded-divide-sqrt" : "";
    size_t device_max = kLocal;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof device_max, &device_max, nullptr);
    v.local = std::min(kLocal, device_max);
    cl_device_type type = 0;
    clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
    std::string src = source(sh, expr, v.k, v.local, (type & CL_DEVICE_TYPE_CPU) != 0);
    build_kernels(src.c_str(), options, {"foreach_apply"}, &v.kernel, op);
    return built.emplace(key, v).first->second;
}

bool scalar_ok(const c10::Scalar& s) { return !s.isComplex(); }

int64_t g_launches = 0;  // under the device's mutex; read by the tests through foreach_launches()

// The fast route: every list of one length, every tensor float32, contiguous, on the device, of
// list 0's shape at its index; a scalar per tensor when given.
bool fast_route(Lists reads, at::ArrayRef<c10::Scalar> sl = {}, bool per_tensor = false) {
    const at::TensorList first = *reads.begin();
    if (first.empty() || (per_tensor && sl.size() != first.size()))
        return false;
    for (const c10::Scalar& s : sl)
        if (!scalar_ok(s))
            return false;
    for (at::TensorList list : reads) {
        if (list.size() != first.size())
            return false;
        for (size_t i = 0; i < list.size(); ++i) {
            const at::Tensor& t = list[i];
            if (!t.defined() || t.device().type() != kOcl || t.scalar_type() != at::kFloat || !t.is_contiguous() ||
                t.sizes() != first[i].sizes())
                return false;
        }
    }
    return true;
}

// Runs expr over the lists: out[i] = expr(a = reads[0][i], b = reads[1][i], c = reads[2][i], s, sl = sl[i]).
void apply(const char* op, const char* expr, Lists reads, at::TensorList out, bool inplace, double s,
           at::ArrayRef<c10::Scalar> sl = {}, bool per_tensor = false) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    const Shape sh{(int)reads.size(), inplace, per_tensor};
    const Variant& v = variant(sh, expr, op);
    std::vector<at::TensorList> lists(reads.begin(), reads.end());
    if (!inplace)
        lists.push_back(out);
    const size_t count = lists[0].size();
    const int per_slot = sh.lists() * 2 + 2 + (per_tensor ? 1 : 0);
    const float sf = (float)s;
    size_t i = 0;
    while (i < count) {
        // Gather up to K non-empty tensors.
        cl_uint groups = 0;
        int slot = 0;
        cl_mem first_mem = nullptr;
        cl_int err = CL_SUCCESS;
        for (; i < count && slot < v.k; ++i) {
            const uint64_t n = (uint64_t)lists[0][i].numel();
            if (n == 0)
                continue;
            const cl_uint chunks = (cl_uint)((n + v.local - 1) / v.local);
            if (slot > 0 && (uint64_t)groups + chunks > (uint64_t)UINT_MAX / 2)
                break;  // the rest in the next launch
            cl_uint arg = (cl_uint)(slot * sh.lists() * 2);
            for (int l = 0; l < sh.lists(); ++l) {
                const at::Tensor& t = lists[l][i];
                BufferRef b = buffer(t);
                cl_ulong off = b.offset / sizeof(float);
                err |= clSetKernelArg(v.kernel, arg++, sizeof(cl_mem), &b.mem);
                err |= clSetKernelArg(v.kernel, arg++, sizeof off, &off);
                if (first_mem == nullptr)
                    first_mem = b.mem;
            }
            arg = (cl_uint)(v.k * sh.lists() * 2 + slot * (2 + (per_tensor ? 1 : 0)));
            cl_ulong nn = n;
            err |= clSetKernelArg(v.kernel, arg++, sizeof nn, &nn);
            err |= clSetKernelArg(v.kernel, arg++, sizeof groups, &groups);
            if (per_tensor) {
                float st = (float)sl[i].toDouble();
                err |= clSetKernelArg(v.kernel, arg++, sizeof st, &st);
            }
            groups += chunks;
            ++slot;
        }
        if (slot == 0)
            break;
        // Unused slots: a valid buffer that is never touched, and a first group past every group.
        for (int u = slot; u < v.k; ++u) {
            cl_uint arg = (cl_uint)(u * sh.lists() * 2);
            cl_ulong zero = 0;
            for (int l = 0; l < sh.lists(); ++l) {
                err |= clSetKernelArg(v.kernel, arg++, sizeof(cl_mem), &first_mem);
                err |= clSetKernelArg(v.kernel, arg++, sizeof zero, &zero);
            }
            arg = (cl_uint)(v.k * sh.lists() * 2 + u * (2 + (per_tensor ? 1 : 0)));
            cl_uint never = UINT_MAX;
            float st = 0.f;
            err |= clSetKernelArg(v.kernel, arg++, sizeof zero, &zero);
            err |= clSetKernelArg(v.kernel, arg++, sizeof never, &never);
            if (per_tensor)
                err |= clSetKernelArg(v.kernel, arg++, sizeof st, &st);
        }
        err |= clSetKernelArg(v.kernel, (cl_uint)(v.k * per_slot), sizeof sf, &sf);
        check_cl(err, op, "clSetKernelArg");
        size_t global = (size_t)groups * v.local;
        check_cl(clEnqueueNDRangeKernel(d.queue, v.kernel, 1, nullptr, &global, &v.local, 0, nullptr, nullptr), op,
                 "clEnqueueNDRangeKernel");
        ++g_launches;
    }
}

std::vector<at::Tensor> outputs_like(at::TensorList self) {
    std::vector<at::Tensor> out;
    out.reserve(self.size());
    for (const at::Tensor& t : self)
        out.push_back(at::empty(t.sizes(), t.options()));
    return out;
}

// An in-place op and its out-of-place form from one expression; Slow is torch's per-tensor loop.
#define FOREACH_PAIR(NAME, EXPR, PARAMS, READS, S, SL, PER_TENSOR, SLOW, ARGS)                                \
    void NAME##_(PARAMS) {                                                                                   \
        if (!fast_route(READS, SL, PER_TENSOR) || !scalar_ok(S))                                             \
            return at::native::SLOW##_(ARGS);                                                                \
        apply(#NAME, EXPR, READS, self, true, (S).toDouble(), SL, PER_TENSOR);                               \
    }                                                                                                        \
    std::vector<at::Tensor> NAME(PARAMS) {                                                                   \
        if (!fast_route(READS, SL, PER_TENSOR) || !scalar_ok(S))                                             \
            return at::native::SLOW(ARGS);                                                                   \
        std::vector<at::Tensor> out = outputs_like(self);                                                    \
        apply(#NAME, EXPR, READS, out, false, (S).toDouble(), SL, PER_TENSOR);                               \
        return out;                                                                                          \
    }

#define COMMA ,
const c10::Scalar kOne(1.0);
const std::vector<c10::Scalar> kNoScalars;

// torch's lerp: from the nearer end, so weight 1 gives exactly the end value.
#define LERP(W) "(fabs(" W ") < 0.5f ? a + " W " * (b - a) : b - (b - a) * (1.0f - " W "))"

FOREACH_PAIR(add_scalar, "a + s", at::TensorList self COMMA const at::Scalar& scalar, Lists{self}, scalar, kNoScalars,
             false, foreach_tensor_add_scalar_kernel_slow, self COMMA scalar)
FOREACH_PAIR(add_list, "a + s * b", at::TensorList self COMMA at::TensorList other COMMA const at::Scalar& alpha,
             (Lists{self COMMA other}), alpha, kNoScalars, false, foreach_tensor_add_list_kernel_slow,
             self COMMA other COMMA alpha)
FOREACH_PAIR(add_scalarlist, "a + sl", at::TensorList self COMMA at::ArrayRef<at::Scalar> scalars, Lists{self}, kOne,
             scalars, true, foreach_tensor_add_scalarlist_kernel_slow, self COMMA scalars)
FOREACH_PAIR(sub_scalar, "a - s", at::TensorList self COMMA const at::Scalar& scalar, Lists{self}, scalar, kNoScalars,
             false, foreach_tensor_sub_scalar_kernel_slow, self COMMA scalar)
FOREACH_PAIR(sub_list, "a - s * b", at::TensorList self COMMA at::TensorList other COMMA const at::Scalar& alpha,
             (Lists{self COMMA other}), alpha, kNoScalars, false, foreach_tensor_sub_list_kernel_slow,
             self COMMA other COMMA alpha)
FOREACH_PAIR(sub_scalarlist, "a - sl", at::TensorList self COMMA at::ArrayRef<at::Scalar> scalars, Lists{self}, kOne,
             scalars, true, foreach_tensor_sub_scalarlist_kernel_slow, self COMMA scalars)
FOREACH_PAIR(mul_scalar, "a * s", at::TensorList self COMMA const at::Scalar& scalar, Lists{self}, scalar, kNoScalars,
             false, foreach_tensor_mul_scalar_kernel_slow, self COMMA scalar)
FOREACH_PAIR(mul_list, "a * b", at::TensorList self COMMA at::TensorList other, (Lists{self COMMA other}), kOne,
             kNoScalars, false, foreach_tensor_mul_list_kernel_slow, self COMMA other)
FOREACH_PAIR(mul_scalarlist, "a * sl", at::TensorList self COMMA at::ArrayRef<at::Scalar> scalars, Lists{self}, kOne,
             scalars, true, foreach_tensor_mul_scalarlist_kernel_slow, self COMMA scalars)
FOREACH_PAIR(div_scalar, "a / s", at::TensorList self COMMA const at::Scalar& scalar, Lists{self}, scalar, kNoScalars,
             false, foreach_tensor_div_scalar_kernel_slow, self COMMA scalar)
FOREACH_PAIR(div_list, "a / b", at::TensorList self COMMA at::TensorList other, (Lists{self COMMA other}), kOne,
             kNoScalars, false, foreach_tensor_div_list_kernel_slow, self COMMA other)
FOREACH_PAIR(div_scalarlist, "a / sl", at::TensorList self COMMA at::ArrayRef<at::Scalar> scalars, Lists{self}, kOne,
             scalars, true, foreach_tensor_div_scalarlist_kernel_slow, self COMMA scalars)
FOREACH_PAIR(lerp_scalar, LERP("s"), at::TensorList self COMMA at::TensorList end COMMA const at::Scalar& weight,
             (Lists{self COMMA end}), weight, kNoScalars, false, foreach_tensor_lerp_list_kernel_slow,
             self COMMA end COMMA weight)
FOREACH_PAIR(lerp_list, LERP("c"), at::TensorList self COMMA at::TensorList end COMMA at::TensorList weight,
             (Lists{self COMMA end COMMA weight}), kOne, kNoScalars, false, foreach_tensor_ternary_lerp_slow,
             self COMMA end COMMA weight)
FOREACH_PAIR(addcmul_scalar, "a + s * b * c",
             at::TensorList self COMMA at::TensorList t1 COMMA at::TensorList t2 COMMA const at::Scalar& value,
             (Lists{self COMMA t1 COMMA t2}), value, kNoScalars, false, foreach_tensor_addcmul_scalar_slow,
             self COMMA t1 COMMA t2 COMMA value)
FOREACH_PAIR(addcmul_scalarlist, "a + sl * b * c",
             at::TensorList self COMMA at::TensorList t1 COMMA at::TensorList t2 COMMA at::ArrayRef<at::Scalar> scalars,
             (Lists{self COMMA t1 COMMA t2}), kOne, scalars, true, foreach_tensor_addcmul_scalarlist_slow,
             self COMMA t1 COMMA t2 COMMA scalars)
FOREACH_PAIR(addcdiv_scalar, "a + s * (b / c)",
             at::TensorList self COMMA at::TensorList t1 COMMA at::TensorList t2 COMMA const at::Scalar& value,
             (Lists{self COMMA t1 COMMA t2}), value, kNoScalars, false, foreach_tensor_addcdiv_scalar_slow,
             self COMMA t1 COMMA t2 COMMA value)
FOREACH_PAIR(addcdiv_scalarlist, "a + sl * (b / c)",
             at::TensorList self COMMA at::TensorList t1 COMMA at::TensorList t2 COMMA at::ArrayRef<at::Scalar> scalars,
             (Lists{self COMMA t1 COMMA t2}), kOne, scalars, true, foreach_tensor_addcdiv_scalarlist_slow,
             self COMMA t1 COMMA t2 COMMA scalars)
FOREACH_PAIR(sqrt, "sqrt(a)", at::TensorList self, Lists{self}, kOne, kNoScalars, false, foreach_tensor_sqrt_slow,
             self)
FOREACH_PAIR(neg, "-a", at::TensorList self, Lists{self}, kOne, kNoScalars, false, foreach_tensor_neg_slow, self)

void zero_(at::TensorList self) {
    if (!fast_route({self}))
        return at::native::foreach_tensor_zero_slow_(self);
    apply("_foreach_zero_", "0.0f", {self}, self, true, 0.0);
}

}  // namespace

int64_t foreach_launches() {
    std::lock_guard<std::recursive_mutex> g(op_mutex());
    return g_launches;
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
// Both forms of an op: out of place (_foreach_OP.OVERLOAD, FN) and in place (_foreach_OP_.OVERLOAD, FN_).
#define BOTH(OP, OVERLOAD, FN)                             \
    m.impl("_foreach_" OP "." OVERLOAD, FN);               \
    m.impl("_foreach_" OP "_." OVERLOAD, FN##_);
    BOTH("add", "Scalar", add_scalar)
    BOTH("add", "List", add_list)
    BOTH("add", "ScalarList", add_scalarlist)
    BOTH("sub", "Scalar", sub_scalar)
    BOTH("sub", "List", sub_list)
    BOTH("sub", "ScalarList", sub_scalarlist)
    BOTH("mul", "Scalar", mul_scalar)
    BOTH("mul", "List", mul_list)
    BOTH("mul", "ScalarList", mul_scalarlist)
    BOTH("div", "Scalar", div_scalar)
    BOTH("div", "List", div_list)
    BOTH("div", "ScalarList", div_scalarlist)
    BOTH("lerp", "Scalar", lerp_scalar)
    BOTH("lerp", "List", lerp_list)
    BOTH("addcmul", "Scalar", addcmul_scalar)
    BOTH("addcmul", "ScalarList", addcmul_scalarlist)
    BOTH("addcdiv", "Scalar", addcdiv_scalar)
    BOTH("addcdiv", "ScalarList", addcdiv_scalarlist)
#undef BOTH
    m.impl("_foreach_sqrt", sqrt);
    m.impl("_foreach_sqrt_", sqrt_);
    m.impl("_foreach_neg", neg);
    m.impl("_foreach_neg_", neg_);
    m.impl("_foreach_zero_", zero_);
}

}  // namespace cldnn_torch
