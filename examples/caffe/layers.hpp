// layers.hpp: Caffe-style layers on cldnn: Convolution, ReLU, Pooling, BatchNorm, InnerProduct (a
// cldnnGemm), SoftmaxWithLoss, each with Forward and Backward over Blobs, and the SGD-with-momentum
// update (SGDSolver) built from cldnn tensor ops only. blob.hpp says why headers and sources are
// split; layers.cpp holds the cldnn calls.
//
// Protocol, as Caffe's: a layer has one bottom and one top Blob. Reshape(bottom, top) fixes the
// shapes (and, on the first call, creates the learnable parameters, which the caller initializes);
// Forward reads bottom.data and writes top.data; Backward reads top.diff (and whatever Forward
// kept) and writes the parameters' diffs and, when propagate_down, bottom.diff. Every diff is
// overwritten, not accumulated (beta = 0): one Backward per Forward. All work is enqueued on the
// Context's queue; nothing waits except SoftmaxWithLoss's loss readback the caller asks for.
#ifndef CLDNN_EXAMPLES_CAFFE_LAYERS_HPP_
#define CLDNN_EXAMPLES_CAFFE_LAYERS_HPP_

#include "blob.hpp"

#include <vector>

namespace caffe_cl {

enum class Phase { TRAIN, TEST };

class Layer {
public:
    explicit Layer(const Context& ctx) : ctx_(ctx) {}
    virtual ~Layer() = default;
    Layer(const Layer&) = delete;
    Layer& operator=(const Layer&) = delete;

    virtual void Reshape(const Blob& bottom, Blob& top) = 0;
    virtual void Forward(const Blob& bottom, Blob& top) = 0;
    virtual void Backward(const Blob& top, const Blob& bottom, bool propagate_down) = 0;
    // The learnable parameters (data and diff), in a fixed order; empty for parameter-free layers.
    std::vector<Blob*> params() {
        std::vector<Blob*> p;
        for (Blob& b : params_) p.push_back(&b);
        return p;
    }
    void set_phase(Phase phase) { phase_ = phase; }

protected:
    Context ctx_;
    Phase phase_ = Phase::TRAIN;
    std::vector<Blob> params_;
};

// Convolution with num_output filters of kernel x kernel, one padding and stride for both axes,
// cross-correlation (as frameworks mean it), an optional bias. params: weight (K x C x R x S, KCRS),
// then bias (1 x K x 1 x 1) when bias_term. The algorithms are cldnn's heuristic first choice
// (cldnnGet*Algorithm_v7) per direction, with one workspace sized for the largest.
class ConvolutionLayer : public Layer {
public:
    ConvolutionLayer(const Context& ctx, int num_output, int kernel, int pad, int stride, bool bias_term);
    void Reshape(const Blob& bottom, Blob& top) override;
    void Forward(const Blob& bottom, Blob& top) override;
    void Backward(const Blob& top, const Blob& bottom, bool propagate_down) override;

private:
    int num_output_, kernel_, pad_, stride_;
    bool bias_term_;
    cldnn::filter_descriptor filter_;
    cldnn::convolution_descriptor conv_;
    cldnnConvolutionFwdAlgo_t fwd_algo_ = CLDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    cldnnConvolutionBwdDataAlgo_t bwd_data_algo_ = CLDNN_CONVOLUTION_BWD_DATA_ALGO_0;
    cldnnConvolutionBwdFilterAlgo_t bwd_filter_algo_ = CLDNN_CONVOLUTION_BWD_FILTER_ALGO_0;
    Buffer workspace_;
};

// ReLU, top = max(bottom, 0); Backward reads bottom.data.
class ReLULayer : public Layer {
public:
    explicit ReLULayer(const Context& ctx);
    void Reshape(const Blob& bottom, Blob& top) override;
    void Forward(const Blob& bottom, Blob& top) override;
    void Backward(const Blob& top, const Blob& bottom, bool propagate_down) override;

private:
    cldnn::activation_descriptor relu_;
};

// Max or average pooling (AVERAGE counts padding in) over a square window; global = true makes the
// window the whole input plane (kernel, stride and pad are then ignored).
class PoolingLayer : public Layer {
public:
    enum class Method { MAX, AVE };
    PoolingLayer(const Context& ctx, Method method, int kernel, int stride, int pad = 0, bool global = false);
    void Reshape(const Blob& bottom, Blob& top) override;
    void Forward(const Blob& bottom, Blob& top) override;
    void Backward(const Blob& top, const Blob& bottom, bool propagate_down) override;

private:
    Method method_;
    int kernel_, stride_, pad_;
    bool global_;
    cldnn::pooling_descriptor pool_;
};

// Spatial batch normalization with its affine part (Caffe's BatchNorm + Scale in one):
// TRAIN normalizes with the batch's statistics and updates the running ones
// (run = (1 - f) run + f batch, the variance unbiased), TEST uses the running ones.
// params: scale (gamma), bias (beta), each 1 x C x 1 x 1. running_mean()/running_var() are state.
class BatchNormLayer : public Layer {
public:
    BatchNormLayer(const Context& ctx, double moving_average_fraction = 0.1, double eps = 1e-5);
    void Reshape(const Blob& bottom, Blob& top) override;
    void Forward(const Blob& bottom, Blob& top) override;
    void Backward(const Blob& top, const Blob& bottom, bool propagate_down) override;
    const Blob& running_mean() const { return running_mean_; }
    const Blob& running_var() const { return running_var_; }

private:
    double fraction_, eps_;
    Blob running_mean_, running_var_, save_mean_, save_inv_var_;
};

// Fully connected: top (N x O) = bottom (N x K, K = C*H*W) * W^T + b, a row-major cldnnGemm; W is
// O x K as in Caffe. params: weight (O x K x 1 x 1), then bias (1 x O x 1 x 1) when bias_term.
class InnerProductLayer : public Layer {
public:
    InnerProductLayer(const Context& ctx, int num_output, bool bias_term);
    void Reshape(const Blob& bottom, Blob& top) override;
    void Forward(const Blob& bottom, Blob& top) override;
    void Backward(const Blob& top, const Blob& bottom, bool propagate_down) override;

private:
    int num_output_;
    bool bias_term_;
};

// Softmax over the channels of an N x C x 1 x 1 bottom with the cross-entropy loss against one-hot
// labels (N x C x 1 x 1, set by set_labels before Forward), with no kernel of its own:
//   Forward: log_prob = log-softmax(bottom) (cldnnSoftmaxForward LOG), then
//            top (1 x 1 x 1 x 1) = -(1/N) * sum(labels * log_prob), a 1 x 1 x N*C cldnnGemm;
//   Backward: bottom.diff = (softmax - labels) / N, which is cldnnSoftmaxBackward LOG with
//             dy = labels and alpha = -1/N (dx = alpha * (dy - exp(y) * sum(dy))).
// The loss stays on the device; read it (or a sum of it) when needed. top.diff is not read (loss
// weight 1).
class SoftmaxWithLossLayer : public Layer {
public:
    explicit SoftmaxWithLossLayer(const Context& ctx);
    void set_labels(const Blob& one_hot) { labels_ = &one_hot; }
    void Reshape(const Blob& bottom, Blob& top) override;
    void Forward(const Blob& bottom, Blob& top) override;
    void Backward(const Blob& top, const Blob& bottom, bool propagate_down) override;
    // log-softmax of the last Forward (N x C x 1 x 1), e.g. for the accuracy.
    const Blob& log_prob() const { return log_prob_; }

private:
    const Blob* labels_ = nullptr;
    Blob log_prob_;
};

// Stochastic gradient descent with momentum, in PyTorch's form, per parameter w with gradient g:
//   g += weight_decay * w;  v = momentum * v + g;  w -= lr * v
// three cldnnAddTensor calls (two without weight decay) on the device; v starts at zero.
class SGDSolver {
public:
    SGDSolver(const Context& ctx, std::vector<Blob*> params, float lr, float momentum, float weight_decay);
    // One update of every parameter from its diff (which it modifies when weight_decay != 0).
    void Step();
    void set_lr(float lr) { lr_ = lr; }

private:
    Context ctx_;
    std::vector<Blob*> params_;
    std::vector<Blob> history_;
    float lr_, momentum_, weight_decay_;
};

}  // namespace caffe_cl

#endif  // CLDNN_EXAMPLES_CAFFE_LAYERS_HPP_
