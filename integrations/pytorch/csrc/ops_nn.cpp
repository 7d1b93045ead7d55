// Convolution, batch and layer normalization, pooling on cldnn.
#include "runtime.h"

#include <ATen/Context.h>
#include <ATen/Operators.h>
#include <torch/autograd.h>
#include <torch/library.h>

#include <map>
#include <sstream>

namespace cldnn_torch {
namespace {

// -------------------------------------------------------------------------------- convolution
// The algorithm of each (direction, shapes, parameters) is chosen once and kept, as
// torch.backends.cudnn.benchmark does: by cldnn's Find when torch.backends.cudnn.benchmark is set
// (it times every applicable algorithm), else by cldnn's heuristic (Get), which compiles nothing.
struct Algo {
    int algo;
    size_t workspace;
};
std::map<std::string, Algo> g_algos;

struct ConvProblem {
    TensorDesc x, y;
    FilterDesc w;
    ConvDesc conv;
    std::string key;
};

void conv_problem(ConvProblem& p, const at::Tensor& x, const at::Tensor& w, const at::Tensor& y, at::IntArrayRef stride,
                  at::IntArrayRef padding, at::IntArrayRef dilation, int64_t groups, const char* op) {
    set_4d(p.x, x, op);
    set_4d(p.y, y, op);
    cldnnDataType_t dt = dtype_of(x.scalar_type(), op);
    CLDNN_TORCH_CHECK(op, cldnnSetFilter4dDescriptor(p.w, dt, CLDNN_TENSOR_NCHW, (int)w.size(0), (int)w.size(1),
                                                     (int)w.size(2), (int)w.size(3)));
    CLDNN_TORCH_CHECK(op, cldnnSetConvolution2dDescriptor(p.conv, (int)padding[0], (int)padding[1], (int)stride[0],
                                                          (int)stride[1], (int)dilation[0], (int)dilation[1],
                                                          CLDNN_CROSS_CORRELATION, CLDNN_DATA_FLOAT));
    CLDNN_TORCH_CHECK(op, cldnnSetConvolutionGroupCount(p.conv, (int)groups));
    std::ostringstream k;
    k << x.sizes() << x.strides() << w.sizes() << y.strides() << stride << padding << dilation << groups << (int)dt;
    p.key = k.str();
}

at::Tensor workspace(size_t bytes, const at::Tensor& like) {
    return at::empty({(int64_t)bytes}, like.options().dtype(at::kByte));
}

BufferRef ws_buffer(const at::Tensor& ws) {
    return ws.numel() ? buffer(ws) : BufferRef{nullptr, 0};
}

// The algorithm of one direction for key: cldnn's heuristic answer (get: Get_v7 into perf), timed
// by find (Find*AlgorithmEx with a workspace of the largest size get reported) under
// torch.backends.cudnn.benchmark; chosen once per key.
template <typename Perf, int Count, typename Get, typename Find>
const Algo& choose_algo(const std::string& key, const char* op, const at::Tensor& like, Get get, Find find) {
    auto it = g_algos.find(key);
    if (it != g_algos.end())
        return it->second;
    Perf perf[Count];
    int n = 0;
    get(Count, &n, perf);
    if (at::globalContext().benchmarkCuDNN()) {
        size_t most = 0;
        for (int i = 0; i < n; ++i)
            if (perf[i].status == CLDNN_STATUS_SUCCESS)
                most = std::max(most, perf[i].memory);
        at::Tensor ws = workspace(most, like);
        find(ws_buffer(ws), most, Count, &n, perf);
    }
    TORCH_CHECK(n > 0 && perf[0].status == CLDNN_STATUS_SUCCESS, "ocl: ", op, ": no cldnn algorithm for ", key);
    return g_algos.emplace(key, Algo{(int)perf[0].algo, perf[0].memory}).first->second;
}

// The conv cases cldnn runs: 2-d, not transposed, float types, on the device.
bool conv_native(const at::Tensor& x, const at::Tensor& w, bool transposed, at::IntArrayRef output_padding) {
    bool zero_pad = true;
    for (int64_t p : output_padding)
        zero_pad &= p == 0;
    return x.dim() == 4 && w.dim() == 4 && !transposed && zero_pad && supported_dtype(x.scalar_type()) &&
           x.scalar_type() == w.scalar_type() && x.numel() > 0;
}

void check_conv_devices(const at::Tensor& x, const at::Tensor& w, const char* op) {
    TORCH_CHECK(x.device().type() == kOcl && w.device().type() == kOcl, "ocl: ", op,
                ": expected all tensors on the ocl device, got input on ", x.device(), " and weight on ", w.device());
}

at::Tensor convolution(const at::Tensor& input, const at::Tensor& weight, const std::optional<at::Tensor>& bias,
                       at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed,
                       at::IntArrayRef output_padding, int64_t groups) {
    check_conv_devices(input, weight, "convolution");
    if (!conv_native(input, weight, transposed, output_padding))
        return fallback<ATEN_OP(convolution_overrideable)>(input, weight, bias, stride, padding, dilation, transposed,
                                                           output_padding, groups);
    const char* op = "convolution";
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    // Packed NCHW: cldnn takes a KCRS filter with an NCHW input.
    at::Tensor x = input.contiguous(), w = weight.contiguous();
    int64_t oh = (x.size(2) + 2 * padding[0] - dilation[0] * (w.size(2) - 1) - 1) / stride[0] + 1;
    int64_t ow = (x.size(3) + 2 * padding[1] - dilation[1] * (w.size(3) - 1) - 1) / stride[1] + 1;
    at::Tensor y = at::empty({x.size(0), w.size(0), oh, ow}, x.options());
    ConvProblem p;
    conv_problem(p, x, w, y, stride, padding, dilation, groups, op);
    BufferRef xb = buffer(x), wb = buffer(w), yb = buffer(y);
    const Algo& algo = choose_algo<cldnnConvolutionFwdAlgoPerf_t, CLDNN_CONVOLUTION_FWD_ALGO_COUNT>(
        "fwd" + p.key, op, x,
        [&](int max, int* n, cldnnConvolutionFwdAlgoPerf_t* perf) {
            CLDNN_TORCH_CHECK(op, cldnnGetConvolutionForwardAlgorithm_v7(d.handle, p.x, p.w, p.conv, p.y, max, n, perf));
        },
        [&](BufferRef wsb, size_t most, int max, int* n, cldnnConvolutionFwdAlgoPerf_t* perf) {
            CLDNN_TORCH_CHECK(op, cldnnFindConvolutionForwardAlgorithmEx(d.handle, p.x, xb.mem, xb.offset, p.w, wb.mem,
                                                                         wb.offset, p.conv, p.y, yb.mem, yb.offset, max,
                                                                         n, perf, wsb.mem, wsb.offset, most));
        });
    at::Tensor ws = workspace(algo.workspace, x);
    BufferRef wsb = ws_buffer(ws);
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnConvolutionForward(d.handle, &one, p.x, xb.mem, xb.offset, p.w, wb.mem, wb.offset, p.conv,
                                                  (cldnnConvolutionFwdAlgo_t)algo.algo, wsb.mem, wsb.offset,
                                                  algo.workspace, &zero, p.y, yb.mem, yb.offset));
    if (bias && bias->defined()) {
        TensorDesc bd;
        at::Tensor b = bias->contiguous();
        set_dims(bd, b.scalar_type(), {1, b.size(0), 1, 1}, {b.size(0), 1, 1, 1}, op);
        BufferRef bb = buffer(b);
        CLDNN_TORCH_CHECK(op, cldnnAddTensor(d.handle, &one, bd, bb.mem, bb.offset, &one, p.y, yb.mem, yb.offset));
    }
    return y;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> convolution_backward(
    const at::Tensor& grad_output, const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
    at::IntArrayRef padding, at::IntArrayRef dilation, bool transposed, at::IntArrayRef output_padding, int64_t groups,
    std::array<bool, 3> mask) {
    check_conv_devices(input, weight, "convolution_backward");
    if (!conv_native(input, weight, transposed, output_padding) || grad_output.scalar_type() != input.scalar_type())
        return fallback<ATEN_OP(convolution_backward_overrideable)>(grad_output, input, weight, stride, padding,
                                                                    dilation, transposed, output_padding, groups, mask);
    const char* op = "convolution_backward";
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = input.contiguous(), w = weight.contiguous(), dy = grad_output.contiguous();
    ConvProblem p;
    conv_problem(p, x, w, dy, stride, padding, dilation, groups, op);
    BufferRef xb = buffer(x), wb = buffer(w), dyb = buffer(dy);
    float one = 1.f, zero = 0.f;
    at::Tensor dx, dw, db;
    if (mask[0]) {
        dx = at::empty(x.sizes(), x.options());
        TensorDesc dxd;
        set_4d(dxd, dx, op);
        BufferRef dxb = buffer(dx);
        const Algo& algo = choose_algo<cldnnConvolutionBwdDataAlgoPerf_t, CLDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT>(
            "bwd-data" + p.key, op, x,
            [&](int max, int* n, cldnnConvolutionBwdDataAlgoPerf_t* perf) {
                CLDNN_TORCH_CHECK(op, cldnnGetConvolutionBackwardDataAlgorithm_v7(d.handle, p.w, p.y, p.conv, dxd, max,
                                                                                  n, perf));
            },
            [&](BufferRef wsb, size_t most, int max, int* n, cldnnConvolutionBwdDataAlgoPerf_t* perf) {
                CLDNN_TORCH_CHECK(op, cldnnFindConvolutionBackwardDataAlgorithmEx(
                                          d.handle, p.w, wb.mem, wb.offset, p.y, dyb.mem, dyb.offset, p.conv, dxd,
                                          dxb.mem, dxb.offset, max, n, perf, wsb.mem, wsb.offset, most));
            });
        at::Tensor ws = workspace(algo.workspace, x);
        BufferRef wsb = ws_buffer(ws);
        CLDNN_TORCH_CHECK(op, cldnnConvolutionBackwardData(d.handle, &one, p.w, wb.mem, wb.offset, p.y, dyb.mem,
                                                           dyb.offset, p.conv, (cldnnConvolutionBwdDataAlgo_t)algo.algo,
                                                           wsb.mem, wsb.offset, algo.workspace, &zero, dxd, dxb.mem,
                                                           dxb.offset));
    }
    if (mask[1]) {
        dw = at::empty(w.sizes(), w.options());
        BufferRef dwb = buffer(dw);
        const Algo& algo = choose_algo<cldnnConvolutionBwdFilterAlgoPerf_t, CLDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT>(
            "bwd-filter" + p.key, op, x,
            [&](int max, int* n, cldnnConvolutionBwdFilterAlgoPerf_t* perf) {
                CLDNN_TORCH_CHECK(op, cldnnGetConvolutionBackwardFilterAlgorithm_v7(d.handle, p.x, p.y, p.conv, p.w,
                                                                                    max, n, perf));
            },
            [&](BufferRef wsb, size_t most, int max, int* n, cldnnConvolutionBwdFilterAlgoPerf_t* perf) {
                CLDNN_TORCH_CHECK(op, cldnnFindConvolutionBackwardFilterAlgorithmEx(
                                          d.handle, p.x, xb.mem, xb.offset, p.y, dyb.mem, dyb.offset, p.conv, p.w,
                                          dwb.mem, dwb.offset, max, n, perf, wsb.mem, wsb.offset, most));
            });
        at::Tensor ws = workspace(algo.workspace, x);
        BufferRef wsb = ws_buffer(ws);
        CLDNN_TORCH_CHECK(op, cldnnConvolutionBackwardFilter(d.handle, &one, p.x, xb.mem, xb.offset, p.y, dyb.mem,
                                                             dyb.offset, p.conv, (cldnnConvolutionBwdFilterAlgo_t)algo.algo,
                                                             wsb.mem, wsb.offset, algo.workspace, &zero, p.w, dwb.mem,
                                                             dwb.offset));
    }
    if (mask[2]) {
        db = at::empty({w.size(0)}, w.options());
        TensorDesc dbd;
        set_dims(dbd, db.scalar_type(), {1, w.size(0), 1, 1}, {w.size(0), 1, 1, 1}, op);
        BufferRef dbb = buffer(db);
        CLDNN_TORCH_CHECK(op, cldnnConvolutionBackwardBias(d.handle, &one, p.y, dyb.mem, dyb.offset, &zero, dbd, dbb.mem,
                                                           dbb.offset));
    }
    return {dx, dw, db};
}

// ----------------------------------------------------------------------------- batch norm
// cldnn's SPATIAL batch norm on x seen as 4-d (N, C, L) -> (N, C, L, 1), (N, C) -> (N, C, 1, 1);
// its parameters and statistics are FLOAT, 1 x C x 1 x 1.
at::Tensor as_4d(const at::Tensor& x) {
    at::Tensor t = x;
    while (t.dim() < 4)
        t = t.unsqueeze(-1);
    return t;
}

at::Tensor param_or(const std::optional<at::Tensor>& p, int64_t c, float value, const at::Tensor& like) {
    if (p && p->defined())
        return p->contiguous();
    at::Tensor t = at::empty({c}, like.options().dtype(at::kFloat));
    t.fill_(value);
    return t;
}

bool bn_param_ok(const std::optional<at::Tensor>& p) {
    return !p || !p->defined() || (p->scalar_type() == at::kFloat && p->device().type() == kOcl);
}

BufferRef opt_buffer(const std::optional<at::Tensor>& t) {
    return t && t->defined() ? buffer(*t) : BufferRef{nullptr, 0};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> batch_norm(const at::Tensor& input,
                                                          const std::optional<at::Tensor>& weight,
                                                          const std::optional<at::Tensor>& bias,
                                                          const std::optional<at::Tensor>& running_mean,
                                                          const std::optional<at::Tensor>& running_var, bool training,
                                                          double momentum, double eps) {
    bool has_running = running_mean && running_mean->defined();
    if (!supported_dtype(input.scalar_type()) || input.dim() < 2 || input.dim() > 4 || eps < CLDNN_BN_MIN_EPSILON ||
        !bn_param_ok(weight) || !bn_param_ok(bias) || !bn_param_ok(running_mean) || !bn_param_ok(running_var) ||
        (!training && !has_running) || input.numel() == 0 ||
        (has_running && !(running_mean->is_contiguous() && running_var->is_contiguous())))
        return fallback<ATEN_OP(native_batch_norm)>(input, weight, bias, running_mean, running_var, training, momentum,
                                                    eps);
    TORCH_CHECK(input.device().type() == kOcl, "ocl: native_batch_norm: expected the input on the ocl device, got ",
                input.device());
    const char* op = "native_batch_norm";
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = dense(input);
    int64_t c = x.size(1);
    at::Tensor y = at::empty(x.sizes(), x.options(), x.suggest_memory_format());
    at::Tensor scale = param_or(weight, c, 1.f, x), shift = param_or(bias, c, 0.f, x);
    TensorDesc xd, yd, pd;
    set_4d(xd, as_4d(x), op);
    set_4d(yd, as_4d(y), op);
    CLDNN_TORCH_CHECK(op, cldnnDeriveBNTensorDescriptor(pd, xd, CLDNN_BATCHNORM_SPATIAL));
    BufferRef xb = buffer(x), yb = buffer(y), sb = buffer(scale), bb = buffer(shift);
    float one = 1.f, zero = 0.f;
    if (!training) {
        BufferRef mb = buffer(*running_mean), vb = buffer(*running_var);
        CLDNN_TORCH_CHECK(op, cldnnBatchNormalizationForwardInference(
                                  d.handle, CLDNN_BATCHNORM_SPATIAL, &one, &zero, xd, xb.mem, xb.offset, yd, yb.mem,
                                  yb.offset, pd, sb.mem, sb.offset, bb.mem, bb.offset, mb.mem, mb.offset, vb.mem,
                                  vb.offset, eps));
        at::Tensor none = at::empty({0}, x.options().dtype(at::kFloat));
        return {y, none, none.clone()};
    }
    at::Tensor save_mean = at::empty({c}, x.options().dtype(at::kFloat));
    at::Tensor save_invstd = at::empty({c}, x.options().dtype(at::kFloat));
    BufferRef smb = buffer(save_mean), sib = buffer(save_invstd);
    BufferRef rmb = opt_buffer(running_mean), rvb = opt_buffer(running_var);
    CLDNN_TORCH_CHECK(op, cldnnBatchNormalizationForwardTraining(
                              d.handle, CLDNN_BATCHNORM_SPATIAL, &one, &zero, xd, xb.mem, xb.offset, yd, yb.mem,
                              yb.offset, pd, sb.mem, sb.offset, bb.mem, bb.offset, has_running ? momentum : 0.0,
                              rmb.mem, rmb.offset, rvb.mem, rvb.offset, eps, smb.mem, smb.offset, sib.mem, sib.offset));
    return {y, save_mean, save_invstd};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> batch_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, const std::optional<at::Tensor>& weight,
    const std::optional<at::Tensor>& running_mean, const std::optional<at::Tensor>& running_var,
    const std::optional<at::Tensor>& save_mean, const std::optional<at::Tensor>& save_invstd, bool train, double eps,
    std::array<bool, 3> mask) {
    if (!train || !supported_dtype(input.scalar_type()) || grad_out.scalar_type() != input.scalar_type() ||
        input.dim() < 2 || input.dim() > 4 || eps < CLDNN_BN_MIN_EPSILON || !bn_param_ok(weight) ||
        !(save_mean && save_mean->defined() && save_mean->numel() == input.size(1)))
        return fallback<ATEN_OP(native_batch_norm_backward)>(grad_out, input, weight, running_mean, running_var,
                                                             save_mean, save_invstd, train, eps, mask);
    const char* op = "native_batch_norm_backward";
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = dense(input), dy = dense(grad_out);
    int64_t c = x.size(1);
    at::Tensor scale = param_or(weight, c, 1.f, x);
    at::Tensor dx = at::empty(x.sizes(), x.options(), x.suggest_memory_format());
    at::Tensor dscale = at::empty({c}, x.options().dtype(at::kFloat)), dbias = at::empty({c}, x.options().dtype(at::kFloat));
    TensorDesc xd, dyd, dxd, pd;
    set_4d(xd, as_4d(x), op);
    set_4d(dyd, as_4d(dy), op);
    set_4d(dxd, as_4d(dx), op);
    CLDNN_TORCH_CHECK(op, cldnnDeriveBNTensorDescriptor(pd, xd, CLDNN_BATCHNORM_SPATIAL));
    BufferRef xb = buffer(x), dyb = buffer(dy), dxb = buffer(dx), sb = buffer(scale), dsb = buffer(dscale),
              dbb = buffer(dbias), mb = buffer(*save_mean), ib = buffer(*save_invstd);
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnBatchNormalizationBackward(d.handle, CLDNN_BATCHNORM_SPATIAL, &one, &zero, &one, &zero, xd,
                                                          xb.mem, xb.offset, dyd, dyb.mem, dyb.offset, dxd, dxb.mem,
                                                          dxb.offset, pd, sb.mem, sb.offset, dsb.mem, dsb.offset,
                                                          dbb.mem, dbb.offset, eps, mb.mem, mb.offset, ib.mem,
                                                          ib.offset));
    return {mask[0] ? dx : at::Tensor(), mask[1] ? dscale : at::Tensor(), mask[2] ? dbias : at::Tensor()};
}

// ---------------------------------------------------------------------------------- pooling
struct Pool {
    cldnnPoolingMode_t mode;
    int64_t kh, kw, sh, sw, ph, pw;
};

int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p) { return (in + 2 * p - k) / s + 1; }

void pool_desc(PoolDesc& pd, const Pool& p, const char* op) {
    CLDNN_TORCH_CHECK(op, cldnnSetPooling2dDescriptor(pd, p.mode, CLDNN_PROPAGATE_NAN, (int)p.kh, (int)p.kw, (int)p.ph,
                                                      (int)p.pw, (int)p.sh, (int)p.sw));
}

// 3-d (C, H, W) inputs are pooled as (1, C, H, W).
at::Tensor as_nchw(const at::Tensor& x) { return x.dim() == 3 ? x.unsqueeze(0) : x; }

at::Tensor pool_forward(const Pool& p, const at::Tensor& input, const char* op) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = as_nchw(dense(input));
    at::Tensor y = at::empty({x.size(0), x.size(1), pool_out(x.size(2), p.kh, p.sh, p.ph), pool_out(x.size(3), p.kw, p.sw, p.pw)},
                             x.options(), x.suggest_memory_format());
    PoolDesc pd;
    pool_desc(pd, p, op);
    TensorDesc xd, yd;
    set_4d(xd, x, op);
    set_4d(yd, y, op);
    BufferRef xb = buffer(x), yb = buffer(y);
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnPoolingForward(d.handle, pd, &one, xd, xb.mem, xb.offset, &zero, yd, yb.mem, yb.offset));
    return input.dim() == 3 ? y.squeeze(0) : y;
}

// dx from dy; max modes also read x and the forward output y (recomputed when not given).
at::Tensor pool_backward(const Pool& p, const at::Tensor& grad, const at::Tensor& input, at::Tensor y, const char* op) {
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = as_nchw(dense(input)), dy = as_nchw(dense(grad));
    if (!y.defined())
        y = p.mode == CLDNN_POOLING_MAX ? pool_forward(p, x, op) : dy;
    y = as_nchw(dense(y));
    at::Tensor dx = at::empty(x.sizes(), x.options(), x.suggest_memory_format());
    PoolDesc pd;
    pool_desc(pd, p, op);
    TensorDesc xd, yd, dyd, dxd;
    set_4d(xd, x, op);
    set_4d(yd, y, op);
    set_4d(dyd, dy, op);
    set_4d(dxd, dx, op);
    BufferRef xb = buffer(x), yb = buffer(y), dyb = buffer(dy), dxb = buffer(dx);
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnPoolingBackward(d.handle, pd, &one, yd, yb.mem, yb.offset, dyd, dyb.mem, dyb.offset, xd,
                                               xb.mem, xb.offset, &zero, dxd, dxb.mem, dxb.offset));
    return input.dim() == 3 ? dx.squeeze(0) : dx;
}

int64_t at_or_first(at::IntArrayRef a, size_t i, int64_t dflt) { return a.empty() ? dflt : a[a.size() > i ? i : 0]; }

// torch's pooling arguments as a cldnn pooling; false when cldnn cannot run them (dilation, a
// ceil_mode that changes the output size, padding not smaller than the window).
bool pool_params(Pool& p, cldnnPoolingMode_t mode, const at::Tensor& x, at::IntArrayRef k, at::IntArrayRef s,
                 at::IntArrayRef pad, at::IntArrayRef dil, bool ceil_mode) {
    if ((x.dim() != 3 && x.dim() != 4) || !supported_dtype(x.scalar_type()) || x.numel() == 0 ||
        x.device().type() != kOcl)
        return false;
    p.mode = mode;
    p.kh = at_or_first(k, 0, 1);
    p.kw = at_or_first(k, 1, 1);
    p.sh = at_or_first(s, 0, p.kh);
    p.sw = at_or_first(s, 1, p.kw);
    p.ph = at_or_first(pad, 0, 0);
    p.pw = at_or_first(pad, 1, 0);
    if (at_or_first(dil, 0, 1) != 1 || at_or_first(dil, 1, 1) != 1)
        return false;
    if (p.ph >= p.kh || p.pw >= p.kw)
        return false;
    if (ceil_mode) {
        // torch's ceil mode only adds a window that starts inside the input (or left padding).
        for (int i = 0; i < 2; ++i) {
            int64_t in = x.size(x.dim() - 2 + i), kk = i ? p.kw : p.kh, ss = i ? p.sw : p.sh, pp = i ? p.pw : p.ph;
            int64_t fl = (in + 2 * pp - kk) / ss + 1;
            int64_t ce = (in + 2 * pp - kk + ss - 1) / ss + 1;
            if ((ce - 1) * ss >= in + pp)
                --ce;
            if (ce != fl)
                return false;
        }
    }
    return true;
}

// max_pool2d through cldnn with its own autograd node: cldnn's max pooling backward finds each
// window's maximum again from x and y, so no index tensor is made (max_pool2d_with_indices, whose
// indices a caller may read, stays on the CPU fallback).
struct MaxPool2d : public torch::autograd::Function<MaxPool2d> {
    static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, at::IntArrayRef k,
                              at::IntArrayRef s, at::IntArrayRef pad) {
        Pool p;
        pool_params(p, CLDNN_POOLING_MAX, x, k, s, pad, {}, false);
        at::Tensor y = pool_forward(p, x, "max_pool2d");
        ctx->save_for_backward({x, y});
        ctx->saved_data["p"] = std::vector<int64_t>{p.kh, p.kw, p.sh, p.sw, p.ph, p.pw};
        return y;
    }
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads) {
        auto saved = ctx->get_saved_variables();
        auto v = ctx->saved_data["p"].toIntVector();
        Pool p{CLDNN_POOLING_MAX, v[0], v[1], v[2], v[3], v[4], v[5]};
        at::Tensor dx = pool_backward(p, grads[0], saved[0], saved[1], "max_pool2d_backward");
        return {dx, at::Tensor(), at::Tensor(), at::Tensor()};
    }
};

at::Tensor max_pool2d_autograd(const at::Tensor& x, at::IntArrayRef k, at::IntArrayRef s, at::IntArrayRef pad,
                               at::IntArrayRef dil, bool ceil_mode) {
    Pool p;
    if (!pool_params(p, CLDNN_POOLING_MAX, x, k, s, pad, dil, ceil_mode))
        return std::get<0>(at::max_pool2d_with_indices(x, k, s, pad, dil, ceil_mode));
    return MaxPool2d::apply(x, k, s, pad);
}

at::Tensor max_pool2d(const at::Tensor& x, at::IntArrayRef k, at::IntArrayRef s, at::IntArrayRef pad,
                      at::IntArrayRef dil, bool ceil_mode) {
    Pool p;
    if (!pool_params(p, CLDNN_POOLING_MAX, x, k, s, pad, dil, ceil_mode))
        return std::get<0>(at::max_pool2d_with_indices(x, k, s, pad, dil, ceil_mode));
    return pool_forward(p, x, "max_pool2d");
}

cldnnPoolingMode_t avg_mode(bool count_include_pad) {
    return count_include_pad ? CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING : CLDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
}

at::Tensor avg_pool2d(const at::Tensor& x, at::IntArrayRef k, at::IntArrayRef s, at::IntArrayRef pad, bool ceil_mode,
                      bool count_include_pad, std::optional<int64_t> divisor) {
    Pool p;
    if (divisor || !pool_params(p, avg_mode(count_include_pad), x, k, s, pad, {}, ceil_mode))
        return fallback<ATEN_OP(avg_pool2d)>(x, k, s, pad, ceil_mode, count_include_pad, divisor);
    return pool_forward(p, x, "avg_pool2d");
}

at::Tensor avg_pool2d_backward(const at::Tensor& grad, const at::Tensor& x, at::IntArrayRef k, at::IntArrayRef s,
                               at::IntArrayRef pad, bool ceil_mode, bool count_include_pad,
                               std::optional<int64_t> divisor) {
    Pool p;
    if (divisor || !pool_params(p, avg_mode(count_include_pad), x, k, s, pad, {}, ceil_mode) ||
        grad.scalar_type() != x.scalar_type())
        return fallback<ATEN_OP(avg_pool2d_backward)>(grad, x, k, s, pad, ceil_mode, count_include_pad, divisor);
    return pool_backward(p, grad, x, at::Tensor(), "avg_pool2d_backward");
}

// Adaptive average pooling where each output cell covers the same window: a plain average pool.
bool adaptive_params(Pool& p, const at::Tensor& x, at::IntArrayRef out) {
    if ((x.dim() != 3 && x.dim() != 4) || out.size() != 2 || out[0] <= 0 || out[1] <= 0)
        return false;
    int64_t h = x.size(-2), w = x.size(-1);
    if (h % out[0] || w % out[1])
        return false;
    return pool_params(p, CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, x, {h / out[0], w / out[1]},
                       {h / out[0], w / out[1]}, {0, 0}, {}, false);
}

at::Tensor adaptive_avg_pool2d(const at::Tensor& x, at::IntArrayRef out) {
    Pool p;
    if (!adaptive_params(p, x, out))
        return fallback<ATEN_OP(_adaptive_avg_pool2d)>(x, out);
    return pool_forward(p, x, "_adaptive_avg_pool2d");
}

at::Tensor adaptive_avg_pool2d_backward(const at::Tensor& grad, const at::Tensor& x) {
    Pool p;
    if (!adaptive_params(p, x, {grad.size(-2), grad.size(-1)}) || grad.scalar_type() != x.scalar_type())
        return fallback<ATEN_OP(_adaptive_avg_pool2d_backward)>(grad, x);
    return pool_backward(p, grad, x, at::Tensor(), "_adaptive_avg_pool2d_backward");
}

// --------------------------------------------------------------------------------- layer norm
bool ln_native(const at::Tensor& x, at::IntArrayRef shape, const std::optional<at::Tensor>& w,
               const std::optional<at::Tensor>& b) {
    bool wd = w && w->defined(), bd = b && b->defined();
    return supported_dtype(x.scalar_type()) && x.device().type() == kOcl && x.numel() > 0 && wd == bd &&
           (!wd || (w->scalar_type() == x.scalar_type() && b->scalar_type() == x.scalar_type())) &&
           (int64_t)shape.size() <= x.dim() && x.dim() <= CLDNN_DIM_MAX;
}

// The normalization's descriptors for x with the last `nd` dims normalized.
struct NormProblem {
    NormDesc norm;
    TensorDesc x, sb, stats;
};

void norm_problem(NormProblem& p, const at::Tensor& x, int64_t nd, double eps, const char* op) {
    CLDNN_TORCH_CHECK(op, cldnnSetNormDescriptor(p.norm, CLDNN_NORM_LAYER, (int)nd, eps));
    set_nd(p.x, x, op);
    CLDNN_TORCH_CHECK(op, cldnnDeriveNormTensorDescriptors(p.norm, p.x, p.sb, p.stats));
}

std::vector<int64_t> stats_shape(const at::Tensor& x, int64_t nd) {
    std::vector<int64_t> s(x.sizes().begin(), x.sizes().end());
    for (int64_t i = x.dim() - nd; i < x.dim(); ++i)
        s[i] = 1;
    return s;
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm(const at::Tensor& input, at::IntArrayRef shape,
                                                          const std::optional<at::Tensor>& weight,
                                                          const std::optional<at::Tensor>& bias, double eps) {
    if (!ln_native(input, shape, weight, bias) || eps <= 0)
        return fallback<ATEN_OP(native_layer_norm)>(input, shape, weight, bias, eps);
    const char* op = "native_layer_norm";
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = input.contiguous();
    int64_t nd = shape.size();
    NormProblem p;
    norm_problem(p, x, nd, eps, op);
    at::Tensor y = at::empty(x.sizes(), x.options());
    at::Tensor mean = at::empty(stats_shape(x, nd), x.options().dtype(at::kFloat));
    at::Tensor rstd = at::empty(stats_shape(x, nd), x.options().dtype(at::kFloat));
    at::Tensor w = weight && weight->defined() ? weight->contiguous() : at::Tensor();
    at::Tensor b = bias && bias->defined() ? bias->contiguous() : at::Tensor();
    BufferRef xb = buffer(x), yb = buffer(y), mb = buffer(mean), rb = buffer(rstd);
    BufferRef wb = w.defined() ? buffer(w) : BufferRef{nullptr, 0}, bb = b.defined() ? buffer(b) : BufferRef{nullptr, 0};
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnNormalizationForward(d.handle, p.norm, &one, &zero, p.x, xb.mem, xb.offset, p.sb, wb.mem,
                                                    wb.offset, bb.mem, bb.offset, p.stats, mb.mem, mb.offset, rb.mem,
                                                    rb.offset, p.x, yb.mem, yb.offset));
    return {y, mean, rstd};
}

std::tuple<at::Tensor, at::Tensor, at::Tensor> layer_norm_backward(
    const at::Tensor& grad_out, const at::Tensor& input, at::IntArrayRef shape, const at::Tensor& mean,
    const at::Tensor& rstd, const std::optional<at::Tensor>& weight, const std::optional<at::Tensor>& bias,
    std::array<bool, 3> mask) {
    if (!ln_native(input, shape, weight, bias) || grad_out.scalar_type() != input.scalar_type() ||
        mean.scalar_type() != at::kFloat)
        return fallback<ATEN_OP(native_layer_norm_backward)>(grad_out, input, shape, mean, rstd, weight, bias, mask);
    const char* op = "native_layer_norm_backward";
    Device& d = device();
    std::lock_guard<std::recursive_mutex> g(d.mu);
    at::Tensor x = input.contiguous(), dy = grad_out.contiguous(), m = mean.contiguous(), r = rstd.contiguous();
    int64_t nd = shape.size();
    NormProblem p;
    norm_problem(p, x, nd, 1e-5, op);
    at::Tensor dx = at::empty(x.sizes(), x.options());
    at::Tensor w = weight && weight->defined() ? weight->contiguous() : at::Tensor();
    at::Tensor dw, db;
    if (w.defined()) {
        dw = at::empty(w.sizes(), w.options());
        db = at::empty(w.sizes(), w.options());
    }
    BufferRef xb = buffer(x), dyb = buffer(dy), dxb = buffer(dx), mb = buffer(m), rb = buffer(r);
    BufferRef wb = w.defined() ? buffer(w) : BufferRef{nullptr, 0};
    BufferRef dwb = dw.defined() ? buffer(dw) : BufferRef{nullptr, 0}, dbb = db.defined() ? buffer(db) : BufferRef{nullptr, 0};
    float one = 1.f, zero = 0.f;
    CLDNN_TORCH_CHECK(op, cldnnNormalizationBackward(d.handle, p.norm, &one, &zero, &one, &zero, p.x, xb.mem, xb.offset,
                                                     p.x, dyb.mem, dyb.offset, p.sb, wb.mem, wb.offset, dwb.mem,
                                                     dwb.offset, dbb.mem, dbb.offset, p.stats, mb.mem, mb.offset,
                                                     rb.mem, rb.offset, p.x, dxb.mem, dxb.offset));
    return {mask[0] ? dx : at::Tensor(), mask[1] ? dw : at::Tensor(), mask[2] ? db : at::Tensor()};
}

}  // namespace

int64_t conv_algo_cache_size() {
    std::lock_guard<std::recursive_mutex> g(device().mu);
    return (int64_t)g_algos.size();
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
    m.impl("convolution_overrideable", convolution);
    m.impl("convolution_backward_overrideable", convolution_backward);
    m.impl("native_batch_norm", batch_norm);
    m.impl("native_batch_norm_backward", batch_norm_backward);
    m.impl("max_pool2d", max_pool2d);
    m.impl("avg_pool2d", avg_pool2d);
    m.impl("avg_pool2d_backward", avg_pool2d_backward);
    m.impl("_adaptive_avg_pool2d", adaptive_avg_pool2d);
    m.impl("_adaptive_avg_pool2d_backward", adaptive_avg_pool2d_backward);
    m.impl("native_layer_norm", layer_norm);
    m.impl("native_layer_norm_backward", layer_norm_backward);
}

TORCH_LIBRARY_IMPL(aten, AutogradPrivateUse1, m) { m.impl("max_pool2d", max_pool2d_autograd); }

}  // namespace cldnn_torch
