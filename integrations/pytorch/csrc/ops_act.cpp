// Activations, softmax / log-softmax and the NLL loss on cldnn.
#include "runtime.h"

#include <ATen/Operators.h>
#include <ATen/native/Resize.h>
#include <torch/library.h>

#include <vector>

namespace cldnn_torch {
namespace {

// ------------------------------------------------------------------------------ activations
struct Act {
    cldnnActivationMode_t mode;
    double coef;
};

void act_forward(Act a, const at::Tensor& x_in, const at::Tensor& y, const char* op) {
    if (y.numel() == 0)
        return;
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = dense(x_in);
    ActDesc ad;
    CLDNN_TORCH_CHECK(op, cldnnSetActivationDescriptor(ad, a.mode, CLDNN_PROPAGATE_NAN, a.coef));
    TensorDesc xd, yd;
    set_nd(xd, x, op);
    set_nd(yd, y, op);
    BufferRef xb = buffer(x), yb = buffer(y);
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnActivationForward(d.handle, ad, &one, xd, xb.mem, xb.offset, &zero, yd, yb.mem, yb.offset));
}

// dx = act'(.) * dy; `yx` is the forward's output for the modes whose derivative cldnn takes from
// y (SIGMOID, TANH) and its input for the others: cldnn reads only the one it needs.
at::Tensor act_backward(Act a, const at::Tensor& dy_in, const at::Tensor& yx_in, const char* op) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor dy = dense(dy_in), yx = dense(yx_in);
    at::Tensor dx = at::empty(yx.sizes(), yx.options());
    if (dx.numel() == 0)
        return dx;
    ActDesc ad;
    CLDNN_TORCH_CHECK(op, cldnnSetActivationDescriptor(ad, a.mode, CLDNN_PROPAGATE_NAN, a.coef));
    TensorDesc dyd, yxd, dxd;
    set_nd(dyd, dy, op);
    set_nd(yxd, yx, op);
    set_nd(dxd, dx, op);
    BufferRef dyb = buffer(dy), yxb = buffer(yx), dxb = buffer(dx);
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnActivationBackward(d.handle, ad, &one, yxd, yxb.mem, yxb.offset, dyd, dyb.mem,
                                                  dyb.offset, yxd, yxb.mem, yxb.offset, &zero, dxd, dxb.mem,
                                                  dxb.offset));
    return dx;
}

at::Tensor act_out_of_place(Act a, const at::Tensor& x, const char* op) {
    at::Tensor y = at::empty(x.sizes(), x.options());
    act_forward(a, x, y, op);
    return y;
}

bool native(const at::Tensor& t) { return supported_dtype(t.scalar_type()); }
bool native(const at::Tensor& a, const at::Tensor& b) {
    return native(a) && a.scalar_type() == b.scalar_type() && b.device().type() == kOcl &&
           a.device().type() == kOcl;
}

at::Tensor relu(const at::Tensor& x) {
    if (!native(x))
        return fallback<ATEN_OP(relu)>(x);
    return act_out_of_place({CLDNN_ACTIVATION_RELU, 0}, x, "relu");
}
at::Tensor& relu_(at::Tensor& x) {
    if (!native(x))
        return fallback<ATEN_OP(relu_)>(x);
    act_forward({CLDNN_ACTIVATION_RELU, 0}, x, x, "relu_");
    return x;
}
// relu's backward: threshold 0 on relu's output, which is positive exactly where the input is.
at::Tensor threshold_backward(const at::Tensor& grad, const at::Tensor& self, const at::Scalar& threshold) {
    if (!native(grad, self) || threshold.toDouble() != 0)
        return fallback<ATEN_OP(threshold_backward)>(grad, self, threshold);
    return act_backward({CLDNN_ACTIVATION_RELU, 0}, grad, self, "threshold_backward");
}
at::Tensor sigmoid(const at::Tensor& x) {
    if (!native(x))
        return fallback<ATEN_OP(sigmoid)>(x);
    return act_out_of_place({CLDNN_ACTIVATION_SIGMOID, 0}, x, "sigmoid");
}
at::Tensor sigmoid_backward(const at::Tensor& grad, const at::Tensor& output) {
    if (!native(grad, output))
        return fallback<ATEN_OP(sigmoid_backward)>(grad, output);
    return act_backward({CLDNN_ACTIVATION_SIGMOID, 0}, grad, output, "sigmoid_backward");
}
at::Tensor tanh(const at::Tensor& x) {
    if (!native(x))
        return fallback<ATEN_OP(tanh)>(x);
    return act_out_of_place({CLDNN_ACTIVATION_TANH, 0}, x, "tanh");
}
at::Tensor tanh_backward(const at::Tensor& grad, const at::Tensor& output) {
    if (!native(grad, output))
        return fallback<ATEN_OP(tanh_backward)>(grad, output);
    return act_backward({CLDNN_ACTIVATION_TANH, 0}, grad, output, "tanh_backward");
}
at::Tensor gelu(const at::Tensor& x, c10::string_view approximate) {
    if (!native(x) || approximate != "none")
        return fallback<ATEN_OP(gelu)>(x, approximate);
    return act_out_of_place({CLDNN_ACTIVATION_GELU, 0}, x, "gelu");
}
at::Tensor gelu_backward(const at::Tensor& grad, const at::Tensor& self, c10::string_view approximate) {
    if (!native(grad, self) || approximate != "none")
        return fallback<ATEN_OP(gelu_backward)>(grad, self, approximate);
    return act_backward({CLDNN_ACTIVATION_GELU, 0}, grad, self, "gelu_backward");
}
at::Tensor silu(const at::Tensor& x) {
    if (!native(x))
        return fallback<ATEN_OP(silu)>(x);
    return act_out_of_place({CLDNN_ACTIVATION_SWISH, 0}, x, "silu");
}
at::Tensor silu_backward(const at::Tensor& grad, const at::Tensor& self) {
    if (!native(grad, self))
        return fallback<ATEN_OP(silu_backward)>(grad, self);
    return act_backward({CLDNN_ACTIVATION_SWISH, 0}, grad, self, "silu_backward");
}
at::Tensor leaky_relu(const at::Tensor& x, const at::Scalar& slope) {
    if (!native(x))
        return fallback<ATEN_OP(leaky_relu)>(x, slope);
    return act_out_of_place({CLDNN_ACTIVATION_LEAKY_RELU, slope.toDouble()}, x, "leaky_relu");
}
at::Tensor leaky_relu_backward(const at::Tensor& grad, const at::Tensor& self, const at::Scalar& slope,
                               bool self_is_result) {
    if (!native(grad, self) || (self_is_result && slope.toDouble() < 0))
        return fallback<ATEN_OP(leaky_relu_backward)>(grad, self, slope, self_is_result);
    return act_backward({CLDNN_ACTIVATION_LEAKY_RELU, slope.toDouble()}, grad, self, "leaky_relu_backward");
}
// hardtanh(0, c) is cldnn's CLIPPED_RELU (relu6 among them).
at::Tensor hardtanh(const at::Tensor& x, const at::Scalar& lo, const at::Scalar& hi) {
    if (!native(x) || lo.toDouble() != 0 || hi.toDouble() <= 0)
        return fallback<ATEN_OP(hardtanh)>(x, lo, hi);
    return act_out_of_place({CLDNN_ACTIVATION_CLIPPED_RELU, hi.toDouble()}, x, "hardtanh");
}
at::Tensor& hardtanh_(at::Tensor& x, const at::Scalar& lo, const at::Scalar& hi) {
    if (!native(x) || lo.toDouble() != 0 || hi.toDouble() <= 0)
        return fallback<ATEN_OP(hardtanh_)>(x, lo, hi);
    act_forward({CLDNN_ACTIVATION_CLIPPED_RELU, hi.toDouble()}, x, x, "hardtanh_");
    return x;
}
at::Tensor hardtanh_backward(const at::Tensor& grad, const at::Tensor& self, const at::Scalar& lo,
                             const at::Scalar& hi) {
    if (!native(grad, self) || lo.toDouble() != 0 || hi.toDouble() <= 0)
        return fallback<ATEN_OP(hardtanh_backward)>(grad, self, lo, hi);
    return act_backward({CLDNN_ACTIVATION_CLIPPED_RELU, hi.toDouble()}, grad, self, "hardtanh_backward");
}
at::Tensor elu(const at::Tensor& x, const at::Scalar& alpha, const at::Scalar& scale, const at::Scalar& in_scale) {
    if (!native(x) || scale.toDouble() != 1 || in_scale.toDouble() != 1)
        return fallback<ATEN_OP(elu)>(x, alpha, scale, in_scale);
    return act_out_of_place({CLDNN_ACTIVATION_ELU, alpha.toDouble()}, x, "elu");
}
at::Tensor abs(const at::Tensor& x) {
    if (!native(x))
        return fallback<ATEN_OP(abs)>(x);
    return act_out_of_place({CLDNN_ACTIVATION_ABS, 0}, x, "abs");
}

// ------------------------------------------------------------------------------------ softmax
// softmax over `dim` is cldnn's CHANNEL mode on the tensor seen as [outer, size(dim), inner].
void softmax_desc(TensorDesc& desc, const at::Tensor& t, int64_t dim, const char* op) {
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < dim; ++i)
        outer *= t.size(i);
    for (int64_t i = dim + 1; i < t.dim(); ++i)
        inner *= t.size(i);
    int64_t c = t.dim() ? t.size(dim) : 1;
    set_dims(desc, t.scalar_type(), {outer, c, inner}, {c * inner, inner, 1}, op);
}

at::Tensor softmax_fwd(const at::Tensor& x_in, int64_t dim, cldnnSoftmaxAlgorithm_t algo, const char* op) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = x_in.contiguous();
    dim = at::maybe_wrap_dim(dim, x.dim());
    at::Tensor y = at::empty(x.sizes(), x.options());
    if (y.numel() == 0)
        return y;
    TensorDesc desc;
    softmax_desc(desc, x, dim, op);
    BufferRef xb = buffer(x), yb = buffer(y);
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnSoftmaxForward(d.handle, algo, CLDNN_SOFTMAX_MODE_CHANNEL, &one, desc, xb.mem, xb.offset,
                                              &zero, desc, yb.mem, yb.offset));
    return y;
}

at::Tensor softmax_bwd(const at::Tensor& dy_in, const at::Tensor& y_in, int64_t dim, cldnnSoftmaxAlgorithm_t algo,
                       const char* op) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor dy = dy_in.contiguous(), y = y_in.contiguous();
    dim = at::maybe_wrap_dim(dim, y.dim());
    at::Tensor dx = at::empty(y.sizes(), y.options());
    if (dx.numel() == 0)
        return dx;
    TensorDesc desc;
    softmax_desc(desc, y, dim, op);
    BufferRef yb = buffer(y), dyb = buffer(dy), dxb = buffer(dx);
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnSoftmaxBackward(d.handle, algo, CLDNN_SOFTMAX_MODE_CHANNEL, &one, desc, yb.mem,
                                               yb.offset, desc, dyb.mem, dyb.offset, &zero, desc, dxb.mem, dxb.offset));
    return dx;
}

at::Tensor softmax(const at::Tensor& x, int64_t dim, bool half_to_float) {
    if (!native(x) || half_to_float)
        return fallback<ATEN_OP(_softmax)>(x, dim, half_to_float);
    return softmax_fwd(x, dim, CLDNN_SOFTMAX_ACCURATE, "_softmax");
}
at::Tensor log_softmax(const at::Tensor& x, int64_t dim, bool half_to_float) {
    if (!native(x) || half_to_float)
        return fallback<ATEN_OP(_log_softmax)>(x, dim, half_to_float);
    return softmax_fwd(x, dim, CLDNN_SOFTMAX_LOG, "_log_softmax");
}
at::Tensor softmax_backward(const at::Tensor& grad, const at::Tensor& output, int64_t dim, at::ScalarType in_dt) {
    if (!native(grad, output) || in_dt != output.scalar_type())
        return fallback<ATEN_OP(_softmax_backward_data)>(grad, output, dim, in_dt);
    return softmax_bwd(grad, output, dim, CLDNN_SOFTMAX_ACCURATE, "_softmax_backward_data");
}
at::Tensor log_softmax_backward(const at::Tensor& grad, const at::Tensor& output, int64_t dim, at::ScalarType in_dt) {
    if (!native(grad, output) || in_dt != output.scalar_type())
        return fallback<ATEN_OP(_log_softmax_backward_data)>(grad, output, dim, in_dt);
    return softmax_bwd(grad, output, dim, CLDNN_SOFTMAX_LOG, "_log_softmax_backward_data");
}

// ----------------------------------------------------------------------------------- NLL loss
// The weighted one-hot mask -w[t] (0 for ignore_index) is built on the device (nll_class_mask, an
// extension kernel: cldnn has no gather); loss = reduce(self * mask) with cldnnOpTensor and
// cldnnReduceTensor, total weight = -sum(mask), grad = mask * grad_output (/ total weight for the
// mean). No value comes back to the host, so the loss does not drain the queue.
struct NllMask {
    at::Tensor mask;   // [N, C] on the device, self's type
    at::Tensor total;  // 0-dim on the device, self's type: the sum of the counted targets' weights
};

NllMask nll_mask(const at::Tensor& self, const at::Tensor& target, const std::optional<at::Tensor>& weight,
                 int64_t ignore_index) {
    int64_t n = self.dim() == 1 ? 1 : self.size(0), c = self.size(-1);
    at::Tensor m = nll_class_mask(target, weight, n, c, ignore_index);
    at::Tensor total = at::empty({1, 1}, m.options());
    reduce_sum(m, total, -1.f, "nll_loss");
    if (self.scalar_type() != at::kFloat) {
        m = m.to(self.scalar_type());
        total = total.to(self.scalar_type());
    }
    return {m, total.view(at::IntArrayRef{})};
}

bool nll_native(const at::Tensor& self, const at::Tensor& target) {
    return native(self) && self.device().type() == kOcl && self.dim() >= 1 && self.dim() <= 2 &&
           (target.scalar_type() == at::kLong || target.scalar_type() == at::kInt);
}

std::tuple<at::Tensor, at::Tensor> nll_loss_forward(const at::Tensor& self, const at::Tensor& target,
                                                    const std::optional<at::Tensor>& weight, int64_t reduction,
                                                    int64_t ignore_index) {
    if (!nll_native(self, target))
        return fallback<ATEN_OP(nll_loss_forward)>(self, target, weight, reduction, ignore_index);
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    NllMask nm = nll_mask(self, target, weight, ignore_index);
    at::Tensor x = self.dim() == 1 ? self.unsqueeze(0) : self;
    at::Tensor prod = at::empty(nm.mask.sizes(), self.options());
    at::mul_out(prod, x, nm.mask);
    if (reduction == at::Reduction::None) {
        at::Tensor out = at::empty({prod.size(0), 1}, self.options());
        reduce_sum(prod, out, 1.f, "nll_loss_forward");
        return {self.dim() == 1 ? out.view(at::IntArrayRef{}) : out.view({prod.size(0)}), nm.total};
    }
    at::Tensor out = at::empty({1, 1}, self.options());
    reduce_sum(prod, out, 1.f, "nll_loss_forward");
    out = out.view(at::IntArrayRef{});
    if (reduction == at::Reduction::Mean)
        out.div_(nm.total);  // over a zero total weight: 0 / 0 = NaN, as in torch
    return {out, nm.total};
}

at::Tensor nll_loss_backward(const at::Tensor& grad_output, const at::Tensor& self, const at::Tensor& target,
                             const std::optional<at::Tensor>& weight, int64_t reduction, int64_t ignore_index,
                             const at::Tensor& total_weight) {
    if (!nll_native(self, target) || !native(grad_output, self))
        return fallback<ATEN_OP(nll_loss_backward)>(grad_output, self, target, weight, reduction, ignore_index,
                                                    total_weight);
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    NllMask nm = nll_mask(self, target, weight, ignore_index);
    at::Tensor go = reduction == at::Reduction::None ? grad_output.reshape({-1, 1}) : grad_output.reshape({1, 1});
    at::Tensor gx = at::mul(nm.mask, go);
    if (reduction == at::Reduction::Mean)
        gx.div_(total_weight.device().type() == kOcl ? total_weight : total_weight.to(gx.device()));
    return self.dim() == 1 ? gx.view({self.size(0)}) : gx;
}

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("relu", relu);
    m.impl("relu_", relu_);
    m.impl("threshold_backward", threshold_backward);
    m.impl("sigmoid", sigmoid);
    m.impl("sigmoid_backward", sigmoid_backward);
    m.impl("tanh", tanh);
    m.impl("tanh_backward", tanh_backward);
    m.impl("gelu", gelu);
    m.impl("gelu_backward", gelu_backward);
    m.impl("silu", silu);
    m.impl("silu_backward", silu_backward);
    m.impl("leaky_relu", leaky_relu);
    m.impl("leaky_relu_backward", leaky_relu_backward);
    m.impl("hardtanh", hardtanh);
    m.impl("hardtanh_", hardtanh_);
    m.impl("hardtanh_backward", hardtanh_backward);
    m.impl("elu", elu);
    m.impl("abs", abs);
    m.impl("_softmax", softmax);
    m.impl("_log_softmax", log_softmax);
    m.impl("_softmax_backward_data", softmax_backward);
    m.impl("_log_softmax_backward_data", log_softmax_backward);
    m.impl("nll_loss_forward", nll_loss_forward);
    m.impl("nll_loss_backward", nll_loss_backward);
}

}  // namespace cldnn_torch
