// F.scaled_dot_product_attention on cldnnAttentionForward / Backward: PyTorch's "overrideable"
// SDPA back-end, which a PrivateUse1 device selects through _fused_sdp_choice_stub. Cases cldnn
// does not take (an attention mask, a causal mask with Sq != Sk: PyTorch aligns it top-left,
// cldnn bottom-right; head sizes over 256; mixed dtypes) go to PyTorch's math back-end.
//
// torch 2.4 has neither that back-end nor enable_gqa: there this file compiles to nothing and
// attention takes the math back-end, whose bmm and softmax run on cldnn.
#include "runtime.h"

#include <torch/version.h>
#if TORCH_VERSION_MAJOR > 2 || TORCH_VERSION_MINOR >= 5

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/SDPBackend.h>
#include <ATen/native/DispatchStub.h>
#include <ATen/native/transformers/attention.h>
#include <torch/library.h>

#include <cmath>
#include <mutex>

namespace cldnn_torch {
namespace {

using AttnDesc = Desc<cldnnAttentionDescriptor_t, cldnnCreateAttentionDescriptor, cldnnDestroyAttentionDescriptor>;

bool attn_native(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                 const std::optional<at::Tensor>& mask, bool is_causal, bool enable_gqa) {
    if (mask.has_value() && mask->defined())
        return false;
    if (q.dim() != 4 || k.dim() != 4 || v.dim() != 4 || !supported_dtype(q.scalar_type()) ||
        k.scalar_type() != q.scalar_type() || v.scalar_type() != q.scalar_type())
        return false;
    if (q.size(0) != k.size(0) || k.size(0) != v.size(0) || k.size(1) != v.size(1) || k.size(2) != v.size(2) ||
        q.size(3) != k.size(3) || q.size(3) > 256 || v.size(3) > 256 || q.numel() == 0 || k.numel() == 0)
        return false;
    if (q.size(1) != k.size(1) && (!enable_gqa || q.size(1) % k.size(1) != 0))
        return false;
    return !(is_causal && q.size(2) != k.size(2));
}

int64_t fused_sdp_choice(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                         const std::optional<at::Tensor>& mask, double /*dropout_p*/, bool is_causal,
                         std::optional<double> /*scale*/, bool enable_gqa) {
    return (int64_t)(attn_native(q, k, v, mask, is_causal, enable_gqa) ? at::SDPBackend::overrideable
                                                                      : at::SDPBackend::math);
}

// 16-bit data on tensor cores (as PyTorch's flash kernels); FLOAT in FP32 (TF32 off). The backward
// sums in a fixed order under torch.use_deterministic_algorithms, else may add dQ atomically (as
// PyTorch's CUDA kernels do).
void set_attn(AttnDesc& d, const at::Tensor& q, double dropout_p, bool is_causal, std::optional<double> scale,
              uint64_t seed, uint64_t offset, const char* op) {
    const double s = scale.has_value() ? *scale : 1.0 / std::sqrt((double)q.size(3));
    cldnnMathType_t math = q.scalar_type() == at::kFloat ? CLDNN_DEFAULT_MATH : CLDNN_TENSOR_OP_MATH;
    CLDNN_TORCH_CHECK(op, cldnnSetAttentionDescriptor(d, (float)s, is_causal ? 1 : 0, (float)dropout_p, seed, offset,
                                                      math));
    const bool det = at::globalContext().deterministicAlgorithms();
    CLDNN_TORCH_CHECK(op, cldnnSetAttentionDescriptorDeterminism(d, det ? CLDNN_DETERMINISTIC : CLDNN_NON_DETERMINISTIC));
}

// The statistics (B x H x Sq float) as cldnn's B x H x Sq x 1.
void set_stats(TensorDesc& d, const at::Tensor& lse, const char* op) {
    set_dims(d, at::kFloat, {lse.size(0), lse.size(1), lse.size(2), 1},
             {lse.stride(0), lse.stride(1), lse.stride(2), 1}, op);
}

void set_attn_4d(TensorDesc& d, const at::Tensor& t, const char* op) {
    set_dims(d, t.scalar_type(), t.sizes(), t.strides(), op);
}

// An output laid out as PyTorch's (B, S, H, D) tensors seen through transpose(1, 2).
at::Tensor bshd_like(const at::Tensor& t, int64_t d) {
    return at::empty({t.size(0), t.size(2), t.size(1), d}, t.options()).transpose(1, 2);
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor, c10::SymInt, c10::SymInt, at::Tensor, at::Tensor,
           at::Tensor>
sdpa_forward(const at::Tensor& query, const at::Tensor& key, const at::Tensor& value,
             const std::optional<at::Tensor>& attn_bias, double dropout_p, bool is_causal, bool return_debug_mask,
             std::optional<double> scale) {
    const char* op = "scaled_dot_product_attention";
    TORCH_CHECK(!(attn_bias.has_value() && attn_bias->defined()), "ocl: ", op, ": attention masks are not supported");
    TORCH_CHECK(!return_debug_mask, "ocl: ", op, ": return_debug_mask is not supported");
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor q = dense(query), k = dense(key), v = dense(value);
    at::Tensor o = bshd_like(q, v.size(3));
    at::Tensor lse = at::empty({q.size(0), q.size(1), q.size(2)}, q.options().dtype(at::kFloat));
    // The dropout's generator: a seed drawn from the CPU generator (as every random number of this
    // device), kept for the backward, which regenerates the same mask.
    uint64_t seed = 0;
    if (dropout_p > 0) {
        auto gen = at::detail::getDefaultCPUGenerator();
        std::lock_guard<std::mutex> lock(gen.mutex());
        seed = at::check_generator<at::CPUGeneratorImpl>(gen)->random64();
    }
    AttnDesc ad;
    set_attn(ad, q, dropout_p, is_causal, scale, seed, 0, op);
    TensorDesc qd, kd, vd, od, sd;
    set_attn_4d(qd, q, op);
    set_attn_4d(kd, k, op);
    set_attn_4d(vd, v, op);
    set_attn_4d(od, o, op);
    set_stats(sd, lse, op);
    BufferRef qb = buffer(q), kb = buffer(k), vb = buffer(v), ob = buffer(o), sb = buffer(lse);
    CLDNN_TORCH_CHECK(op, cldnnAttentionForward(d.handle, ad, qd, qb.mem, qb.offset, kd, kb.mem, kb.offset, vd, vb.mem,
                                                vb.offset, od, ob.mem, ob.offset, sd, sb.mem, sb.offset, nullptr, 0, 0));
    at::Tensor seed_t = at::scalar_tensor((int64_t)seed, at::TensorOptions().dtype(at::kLong));
    at::Tensor off_t = at::scalar_tensor((int64_t)0, at::TensorOptions().dtype(at::kLong));
    return {o, lse, at::Tensor(), at::Tensor(), c10::SymInt(q.size(2)), c10::SymInt(k.size(2)), seed_t, off_t,
            at::Tensor()};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor, at::Tensor> sdpa_backward(
    const at::Tensor& grad_out, const at::Tensor& query, const at::Tensor& key, const at::Tensor& value,
    const at::Tensor& /*attn_bias*/, std::array<bool, 4> grad_input_mask, const at::Tensor& out,
    const at::Tensor& logsumexp, const at::Tensor& /*cum_seq_q*/, const at::Tensor& /*cum_seq_k*/,
    c10::SymInt /*max_q*/, c10::SymInt /*max_k*/, double dropout_p, bool is_causal, const at::Tensor& philox_seed,
    const at::Tensor& philox_offset, std::optional<double> scale) {
    const char* op = "scaled_dot_product_attention_backward";
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor q = dense(query), k = dense(key), v = dense(value), o = dense(out), dout = dense(grad_out);
    at::Tensor lse = dense(logsumexp);
    const uint64_t seed = philox_seed.defined() ? (uint64_t)philox_seed.item<int64_t>() : 0;
    const uint64_t offset = philox_offset.defined() ? (uint64_t)philox_offset.item<int64_t>() : 0;
    AttnDesc ad;
    set_attn(ad, q, dropout_p, is_causal, scale, seed, offset, op);
    // cldnn writes all three gradients; the ones autograd does not want are dropped.
    at::Tensor dq = bshd_like(q, q.size(3)), dk = bshd_like(k, k.size(3)), dv = bshd_like(v, v.size(3));
    TensorDesc qd, kd, vd, od, dod, sd, dqd, dkd, dvd;
    set_attn_4d(qd, q, op);
    set_attn_4d(kd, k, op);
    set_attn_4d(vd, v, op);
    set_attn_4d(od, o, op);
    set_attn_4d(dod, dout, op);
    set_stats(sd, lse, op);
    set_attn_4d(dqd, dq, op);
    set_attn_4d(dkd, dk, op);
    set_attn_4d(dvd, dv, op);
    size_t fwd_ws = 0, bwd_ws = 0;
    CLDNN_TORCH_CHECK(op, cldnnGetAttentionWorkspaceSize(d.handle, ad, qd, kd, vd, od, &fwd_ws, &bwd_ws));
    at::Tensor ws = at::empty({(int64_t)std::max<size_t>(bwd_ws, 1)}, q.options().dtype(at::kByte));
    BufferRef qb = buffer(q), kb = buffer(k), vb = buffer(v), ob = buffer(o), dob = buffer(dout), sb = buffer(lse);
    BufferRef dqb = buffer(dq), dkb = buffer(dk), dvb = buffer(dv), wsb = buffer(ws);
    CLDNN_TORCH_CHECK(op, cldnnAttentionBackward(d.handle, ad, qd, qb.mem, qb.offset, kd, kb.mem, kb.offset, vd, vb.mem,
                                                 vb.offset, od, ob.mem, ob.offset, dod, dob.mem, dob.offset, sd, sb.mem,
                                                 sb.offset, dqd, dqb.mem, dqb.offset, dkd, dkb.mem, dkb.offset, dvd,
                                                 dvb.mem, dvb.offset, wsb.mem, wsb.offset, bwd_ws));
    return {grad_input_mask[0] ? dq : at::Tensor(), grad_input_mask[1] ? dk : at::Tensor(),
            grad_input_mask[2] ? dv : at::Tensor(), at::Tensor()};
}

}  // namespace

}  // namespace cldnn_torch

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(_fused_sdp_choice_stub, &cldnn_torch::fused_sdp_choice);
}

namespace cldnn_torch {
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    // torch versions differ in which of the two asks the device: the stub or the operator
    m.impl("_fused_sdp_choice", fused_sdp_choice);
    m.impl("_scaled_dot_product_fused_attention_overrideable", sdpa_forward);
    m.impl("_scaled_dot_product_fused_attention_overrideable_backward", sdpa_backward);
}
}  // namespace cldnn_torch

#endif  // torch >= 2.5
