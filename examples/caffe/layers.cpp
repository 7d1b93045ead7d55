// layers.cpp: the cldnn calls behind the Caffe-style layers and the SGD solver of layers.hpp.
// Every tensor is a packed NCHW FLOAT Blob at byte offset 0, so every offset below is 0.
#include "layers.hpp"

#include <stdexcept>
#include <utility>

namespace caffe_cl {

namespace {

const float kOne = 1.0f;
const float kZero = 0.0f;

// The first entry of a cldnnGet*Algorithm_v7 answer that applies (status SUCCESS): its algorithm,
// with its workspace added to *workspace as the largest seen so far.
template <typename Perf>
decltype(Perf::algo) first_applicable(const std::vector<Perf>& perf, int returned, size_t* workspace) {
    for (int i = 0; i < returned; ++i)
        if (perf[i].status == CLDNN_STATUS_SUCCESS) {
            if (perf[i].memory > *workspace) *workspace = perf[i].memory;
            return perf[i].algo;
        }
    throw std::runtime_error("cldnn offers no convolution algorithm for this shape");
}

}  // namespace

// ------------------------------------------------------------------ Convolution
ConvolutionLayer::ConvolutionLayer(const Context& ctx, int num_output, int kernel, int pad, int stride,
                                   bool bias_term)
    : Layer(ctx), num_output_(num_output), kernel_(kernel), pad_(pad), stride_(stride), bias_term_(bias_term) {}

void ConvolutionLayer::Reshape(const Blob& bottom, Blob& top) {
    if (params_.empty()) {
        params_.emplace_back(ctx_, num_output_, bottom.channels(), kernel_, kernel_);
        if (bias_term_) params_.emplace_back(ctx_, 1, num_output_, 1, 1);
    }
    filter_.set_4d(CLDNN_DATA_FLOAT, CLDNN_TENSOR_NCHW, num_output_, bottom.channels(), kernel_, kernel_);
    conv_.set_2d(pad_, pad_, stride_, stride_, 1, 1);
    int n = 0, k = 0, h = 0, w = 0;
    cldnn::check(cldnnGetConvolution2dForwardOutputDim(conv_, bottom.desc(), filter_, &n, &k, &h, &w));
    top.Reshape(ctx_, n, k, h, w);

    size_t ws = 0;
    int count = 0, returned = 0;
    cldnn::check(cldnnGetConvolutionForwardAlgorithmMaxCount(ctx_.handle, &count));
    std::vector<cldnnConvolutionFwdAlgoPerf_t> fwd(count);
    cldnn::check(cldnnGetConvolutionForwardAlgorithm_v7(ctx_.handle, bottom.desc(), filter_, conv_, top.desc(), count,
                                                        &returned, fwd.data()));
    fwd_algo_ = first_applicable(fwd, returned, &ws);
    cldnn::check(cldnnGetConvolutionBackwardDataAlgorithmMaxCount(ctx_.handle, &count));
    std::vector<cldnnConvolutionBwdDataAlgoPerf_t> bwd_data(count);
    cldnn::check(cldnnGetConvolutionBackwardDataAlgorithm_v7(ctx_.handle, filter_, top.desc(), conv_, bottom.desc(),
                                                             count, &returned, bwd_data.data()));
    bwd_data_algo_ = first_applicable(bwd_data, returned, &ws);
    cldnn::check(cldnnGetConvolutionBackwardFilterAlgorithmMaxCount(ctx_.handle, &count));
    std::vector<cldnnConvolutionBwdFilterAlgoPerf_t> bwd_filter(count);
    cldnn::check(cldnnGetConvolutionBackwardFilterAlgorithm_v7(ctx_.handle, bottom.desc(), top.desc(), conv_, filter_,
                                                               count, &returned, bwd_filter.data()));
    bwd_filter_algo_ = first_applicable(bwd_filter, returned, &ws);
    if (ws > workspace_.bytes()) workspace_ = Buffer(ctx_, ws);
}

void ConvolutionLayer::Forward(const Blob& bottom, Blob& top) {
    const Blob& weight = params_[0];
    cldnn::check(cldnnConvolutionForward(ctx_.handle, &kOne, bottom.desc(), bottom.data(), 0, filter_, weight.data(), 0,
                                         conv_, fwd_algo_, workspace_.get(), 0, workspace_.bytes(), &kZero,
                                         top.desc(), top.data(), 0));
    if (bias_term_) {
        const Blob& bias = params_[1];
        cldnn::check(cldnnAddTensor(ctx_.handle, &kOne, bias.desc(), bias.data(), 0, &kOne, top.desc(), top.data(), 0));
    }
}

void ConvolutionLayer::Backward(const Blob& top, const Blob& bottom, bool propagate_down) {
    const Blob& weight = params_[0];
    if (bias_term_) {
        const Blob& bias = params_[1];
        cldnn::check(cldnnConvolutionBackwardBias(ctx_.handle, &kOne, top.desc(), top.diff(), 0, &kZero, bias.desc(),
                                                  bias.diff(), 0));
    }
    cldnn::check(cldnnConvolutionBackwardFilter(ctx_.handle, &kOne, bottom.desc(), bottom.data(), 0, top.desc(),
                                                top.diff(), 0, conv_, bwd_filter_algo_, workspace_.get(), 0,
                                                workspace_.bytes(), &kZero, filter_, weight.diff(), 0));
    if (propagate_down)
        cldnn::check(cldnnConvolutionBackwardData(ctx_.handle, &kOne, filter_, weight.data(), 0, top.desc(),
                                                  top.diff(), 0, conv_, bwd_data_algo_, workspace_.get(), 0,
                                                  workspace_.bytes(), &kZero, bottom.desc(), bottom.diff(), 0));
}

// ------------------------------------------------------------------------ ReLU
ReLULayer::ReLULayer(const Context& ctx) : Layer(ctx), relu_(CLDNN_ACTIVATION_RELU) {}

void ReLULayer::Reshape(const Blob& bottom, Blob& top) {
    top.Reshape(ctx_, bottom.num(), bottom.channels(), bottom.height(), bottom.width());
}

void ReLULayer::Forward(const Blob& bottom, Blob& top) {
    cldnn::check(cldnnActivationForward(ctx_.handle, relu_, &kOne, bottom.desc(), bottom.data(), 0, &kZero, top.desc(),
                                        top.data(), 0));
}

void ReLULayer::Backward(const Blob& top, const Blob& bottom, bool propagate_down) {
    if (!propagate_down) return;
    cldnn::check(cldnnActivationBackward(ctx_.handle, relu_, &kOne, top.desc(), top.data(), 0, top.desc(), top.diff(),
                                         0, bottom.desc(), bottom.data(), 0, &kZero, bottom.desc(), bottom.diff(), 0));
}

// --------------------------------------------------------------------- Pooling
PoolingLayer::PoolingLayer(const Context& ctx, Method method, int kernel, int stride, int pad, bool global)
    : Layer(ctx), method_(method), kernel_(kernel), stride_(stride), pad_(pad), global_(global) {}

void PoolingLayer::Reshape(const Blob& bottom, Blob& top) {
    const cldnnPoolingMode_t mode =
        method_ == Method::MAX ? CLDNN_POOLING_MAX : CLDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
    if (global_)
        pool_.set_2d(mode, bottom.height(), bottom.width(), 0, 0, bottom.height(), bottom.width());
    else
        pool_.set_2d(mode, kernel_, kernel_, pad_, pad_, stride_, stride_);
    int n = 0, c = 0, h = 0, w = 0;
    cldnn::check(cldnnGetPooling2dForwardOutputDim(pool_, bottom.desc(), &n, &c, &h, &w));
    top.Reshape(ctx_, n, c, h, w);
}

void PoolingLayer::Forward(const Blob& bottom, Blob& top) {
    cldnn::check(cldnnPoolingForward(ctx_.handle, pool_, &kOne, bottom.desc(), bottom.data(), 0, &kZero, top.desc(),
                                     top.data(), 0));
}

void PoolingLayer::Backward(const Blob& top, const Blob& bottom, bool propagate_down) {
    if (!propagate_down) return;
    cldnn::check(cldnnPoolingBackward(ctx_.handle, pool_, &kOne, top.desc(), top.data(), 0, top.desc(), top.diff(), 0,
                                      bottom.desc(), bottom.data(), 0, &kZero, bottom.desc(), bottom.diff(), 0));
}

// ------------------------------------------------------------------- BatchNorm
BatchNormLayer::BatchNormLayer(const Context& ctx, double moving_average_fraction, double eps)
    : Layer(ctx), fraction_(moving_average_fraction), eps_(eps) {}

void BatchNormLayer::Reshape(const Blob& bottom, Blob& top) {
    const int c = bottom.channels();
    if (params_.empty()) {
        params_.emplace_back(ctx_, 1, c, 1, 1);  // scale
        params_.emplace_back(ctx_, 1, c, 1, 1);  // bias
        running_mean_.Reshape(ctx_, 1, c, 1, 1);
        running_var_.Reshape(ctx_, 1, c, 1, 1);
        save_mean_.Reshape(ctx_, 1, c, 1, 1);
        save_inv_var_.Reshape(ctx_, 1, c, 1, 1);
        running_mean_.Fill(ctx_, 0.0f);
        running_var_.Fill(ctx_, 1.0f);
    }
    top.Reshape(ctx_, bottom.num(), c, bottom.height(), bottom.width());
}

void BatchNormLayer::Forward(const Blob& bottom, Blob& top) {
    const Blob& scale = params_[0];
    const Blob& bias = params_[1];
    if (phase_ == Phase::TRAIN)
        cldnn::check(cldnnBatchNormalizationForwardTraining(
            ctx_.handle, CLDNN_BATCHNORM_SPATIAL, &kOne, &kZero, bottom.desc(), bottom.data(), 0, top.desc(),
            top.data(), 0, scale.desc(), scale.data(), 0, bias.data(), 0, fraction_, running_mean_.data(), 0,
            running_var_.data(), 0, eps_, save_mean_.data(), 0, save_inv_var_.data(), 0));
    else
        cldnn::check(cldnnBatchNormalizationForwardInference(
            ctx_.handle, CLDNN_BATCHNORM_SPATIAL, &kOne, &kZero, bottom.desc(), bottom.data(), 0, top.desc(),
            top.data(), 0, scale.desc(), scale.data(), 0, bias.data(), 0, running_mean_.data(), 0,
            running_var_.data(), 0, eps_));
}

void BatchNormLayer::Backward(const Blob& top, const Blob& bottom, bool /*propagate_down: dx always computed*/) {
    const Blob& scale = params_[0];
    const Blob& bias = params_[1];
    cldnn::check(cldnnBatchNormalizationBackward(
        ctx_.handle, CLDNN_BATCHNORM_SPATIAL, &kOne, &kZero, &kOne, &kZero, bottom.desc(), bottom.data(), 0,
        top.desc(), top.diff(), 0, bottom.desc(), bottom.diff(), 0, scale.desc(), scale.data(), 0, scale.diff(), 0,
        bias.diff(), 0, eps_, save_mean_.data(), 0, save_inv_var_.data(), 0));
}

// ---------------------------------------------------------------- InnerProduct
InnerProductLayer::InnerProductLayer(const Context& ctx, int num_output, bool bias_term)
    : Layer(ctx), num_output_(num_output), bias_term_(bias_term) {}

void InnerProductLayer::Reshape(const Blob& bottom, Blob& top) {
    const int k = bottom.channels() * bottom.height() * bottom.width();
    if (params_.empty()) {
        params_.emplace_back(ctx_, num_output_, k, 1, 1);
        if (bias_term_) params_.emplace_back(ctx_, 1, num_output_, 1, 1);
    }
    top.Reshape(ctx_, bottom.num(), num_output_, 1, 1);
}

void InnerProductLayer::Forward(const Blob& bottom, Blob& top) {
    const Blob& weight = params_[0];
    const int64_t n = bottom.num(), o = num_output_, k = static_cast<int64_t>(bottom.count()) / n;
    // top (n x o) = bottom (n x k) * weight^T, weight stored o x k
    cldnn::check(cldnnGemm(ctx_.handle, CLDNN_ROW_MAJOR, CLDNN_OP_N, CLDNN_OP_T, n, o, k, &kOne, bottom.data(), 0, k,
                           weight.data(), 0, k, &kZero, top.data(), 0, o, CLDNN_DATA_FLOAT));
    if (bias_term_) {
        const Blob& bias = params_[1];
        cldnn::check(cldnnAddTensor(ctx_.handle, &kOne, bias.desc(), bias.data(), 0, &kOne, top.desc(), top.data(), 0));
    }
}

void InnerProductLayer::Backward(const Blob& top, const Blob& bottom, bool propagate_down) {
    const Blob& weight = params_[0];
    const int64_t n = bottom.num(), o = num_output_, k = static_cast<int64_t>(bottom.count()) / n;
    // weight.diff (o x k) = top.diff^T (o x n) * bottom (n x k)
    cldnn::check(cldnnGemm(ctx_.handle, CLDNN_ROW_MAJOR, CLDNN_OP_T, CLDNN_OP_N, o, k, n, &kOne, top.diff(), 0, o,
                           bottom.data(), 0, k, &kZero, weight.diff(), 0, k, CLDNN_DATA_FLOAT));
    if (bias_term_) {
        const Blob& bias = params_[1];
        cldnn::check(cldnnConvolutionBackwardBias(ctx_.handle, &kOne, top.desc(), top.diff(), 0, &kZero, bias.desc(),
                                                  bias.diff(), 0));
    }
    // bottom.diff (n x k) = top.diff (n x o) * weight (o x k)
    if (propagate_down)
        cldnn::check(cldnnGemm(ctx_.handle, CLDNN_ROW_MAJOR, CLDNN_OP_N, CLDNN_OP_N, n, k, o, &kOne, top.diff(), 0, o,
                               weight.data(), 0, k, &kZero, bottom.diff(), 0, k, CLDNN_DATA_FLOAT));
}

// ------------------------------------------------------------- SoftmaxWithLoss
SoftmaxWithLossLayer::SoftmaxWithLossLayer(const Context& ctx) : Layer(ctx) {}

void SoftmaxWithLossLayer::Reshape(const Blob& bottom, Blob& top) {
    if (bottom.height() != 1 || bottom.width() != 1)
        throw std::invalid_argument("SoftmaxWithLossLayer: the bottom must be N x C x 1 x 1");
    log_prob_.Reshape(ctx_, bottom.num(), bottom.channels(), 1, 1);
    top.Reshape(ctx_, 1, 1, 1, 1);
}

void SoftmaxWithLossLayer::Forward(const Blob& bottom, Blob& top) {
    if (!labels_ || labels_->count() != bottom.count())
        throw std::invalid_argument("SoftmaxWithLossLayer: set_labels with an N x C x 1 x 1 one-hot blob first");
    cldnn::check(cldnnSoftmaxForward(ctx_.handle, CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_INSTANCE, &kOne, bottom.desc(),
                                     bottom.data(), 0, &kZero, log_prob_.desc(), log_prob_.data(), 0));
    const int64_t len = static_cast<int64_t>(bottom.count());
    const float scale = -1.0f / static_cast<float>(bottom.num());
    // top = scale * labels (1 x len) . log_prob (len x 1)
    cldnn::check(cldnnGemm(ctx_.handle, CLDNN_ROW_MAJOR, CLDNN_OP_N, CLDNN_OP_N, 1, 1, len, &scale, labels_->data(), 0,
                           len, log_prob_.data(), 0, 1, &kZero, top.data(), 0, 1, CLDNN_DATA_FLOAT));
}

void SoftmaxWithLossLayer::Backward(const Blob& /*top: loss weight 1*/, const Blob& bottom, bool propagate_down) {
    if (!propagate_down) return;
    const float scale = -1.0f / static_cast<float>(bottom.num());
    cldnn::check(cldnnSoftmaxBackward(ctx_.handle, CLDNN_SOFTMAX_LOG, CLDNN_SOFTMAX_MODE_INSTANCE, &scale,
                                      log_prob_.desc(), log_prob_.data(), 0, labels_->desc(), labels_->data(), 0,
                                      &kZero, bottom.desc(), bottom.diff(), 0));
}

// ------------------------------------------------------------------------ SGD
SGDSolver::SGDSolver(const Context& ctx, std::vector<Blob*> params, float lr, float momentum, float weight_decay)
    : ctx_(ctx), params_(std::move(params)), lr_(lr), momentum_(momentum), weight_decay_(weight_decay) {
    for (const Blob* p : params_) {
        history_.emplace_back(ctx_, p->num(), p->channels(), p->height(), p->width());
        history_.back().Fill(ctx_, 0.0f);
    }
}

void SGDSolver::Step() {
    const float neg_lr = -lr_;
    for (size_t i = 0; i < params_.size(); ++i) {
        const Blob& p = *params_[i];
        const Blob& v = history_[i];
        if (weight_decay_ != 0.0f)
            cldnn::check(cldnnAddTensor(ctx_.handle, &weight_decay_, p.desc(), p.data(), 0, &kOne, p.desc(), p.diff(), 0));
        cldnn::check(cldnnAddTensor(ctx_.handle, &kOne, p.desc(), p.diff(), 0, &momentum_, v.desc(), v.data(), 0));
        cldnn::check(cldnnAddTensor(ctx_.handle, &neg_lr, v.desc(), v.data(), 0, &kOne, p.desc(), p.data(), 0));
    }
}

}  // namespace caffe_cl
