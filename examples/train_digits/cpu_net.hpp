// cpu_net.hpp: the CPU reference path of train_digits: the same network as the cldnn path
// (conv 3x3 8 -> spatial BN -> ReLU -> max pool 2x2 -> conv 3x3 16 + bias -> ReLU -> average pool
// kAvgWindow -> FC 10 -> log-softmax cross-entropy), in plain loops in double, with the same SGD update
// (PyTorch's momentum form), the same batch-norm conventions (biased variance to normalize, unbiased
// in the running variance) and the same max-pool tie rule (the first maximum in window order).
// Single-threaded, deterministic.
#ifndef CLDNN_EXAMPLES_TRAIN_DIGITS_CPU_NET_HPP_
#define CLDNN_EXAMPLES_TRAIN_DIGITS_CPU_NET_HPP_

#include "data.hpp"

#include <vector>

namespace digits {

class CpuNet {
public:
    // params: initial_params()'s vectors, in that order.
    CpuNet(const std::vector<std::vector<float>>& params, const Hyper& hyper);
    // One SGD step on a batch (n images of kPixels, n labels); returns the batch's mean loss.
    double TrainStep(const float* images, const int* labels, int n);
    // Inference (running BN statistics): log-probabilities, n x kClasses.
    std::vector<double> Predict(const float* images, int n);

private:
    // Forward of a batch; train: batch statistics (and running update), else running statistics.
    void Forward(const float* images, int n, bool train);
    void Backward(const int* labels, int n);
    void Update();

    Hyper hyper_;
    std::vector<std::vector<double>> w_, dw_, v_;  // parameters, gradients, momentum buffers
    std::vector<double> run_mean_, run_var_;
    // activations of the last Forward
    std::vector<double> x_, c1_, xhat_, bn_, r1_, p1_, c2_, r2_, p2_, logp_;
    std::vector<int> argmax_;
    std::vector<double> inv_std_;
};

}  // namespace digits

#endif  // CLDNN_EXAMPLES_TRAIN_DIGITS_CPU_NET_HPP_
