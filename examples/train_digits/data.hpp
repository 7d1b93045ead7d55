// data.hpp: what the cldnn and the CPU paths of train_digits share so that they train the same
// network on the same data in the same order from the same start: the seeded generator, the data
// set (scikit-learn's 8x8 digits, or a clearly labelled generated stand-in), its split, the epoch
// orders, the hyper-parameters and the initial parameters. perf/baselines/train_digits_torch.py
// repeats these definitions in Python (same generator, same split, same initial values).
#ifndef CLDNN_EXAMPLES_TRAIN_DIGITS_DATA_HPP_
#define CLDNN_EXAMPLES_TRAIN_DIGITS_DATA_HPP_

#include <cstdint>
#include <string>
#include <vector>

namespace digits {

constexpr int kSide = 8;          // images are kSide x kSide, one channel
constexpr int kPixels = kSide * kSide;
constexpr int kClasses = 10;
constexpr int kConv1 = 8;         // channels of the first 3x3 convolution
constexpr int kConv2 = 16;        // channels of the second
constexpr int kAvgWindow = 2;     // average pool window and stride after conv2 (4: global)
constexpr int kFeatures = kConv2 * (kSide / 2 / kAvgWindow) * (kSide / 2 / kAvgWindow);  // FC inputs
constexpr double kTestFraction = 0.2;

// splitmix64: small, exact in any language with 64-bit wrap-around arithmetic.
class Rng {
public:
    explicit Rng(uint64_t seed) : s_(seed) {}
    uint64_t next();
    double uniform();                     // [0, 1), 53 bits
    double normal();                      // Box-Muller: sqrt(-2 ln(1 - u1)) cos(2 pi u2)
    uint64_t below(uint64_t n) { return next() % n; }
    // Fisher-Yates over 0..n-1 from the identity: for i = n-1 .. 1, swap(i, below(i + 1)).
    std::vector<int> permutation(int n);

private:
    uint64_t s_;
};

struct Dataset {
    std::vector<float> images;  // n * kPixels, scaled to [0, 1] (pixel / 16)
    std::vector<int> labels;    // n, in [0, kClasses)
    std::string source;         // where it came from, for the report
    bool generated = false;     // true: the synthetic stand-in, not the real digits
    int size() const { return static_cast<int>(labels.size()); }
};

// Reads scikit-learn's digits.csv(.gz): rows of 64 pixel values (0..16) and the label. A .gz is read
// through zlib when the program was built with it. Throws std::runtime_error on a read or parse error.
Dataset load_digits(const std::string& path);
// The default file of Debian's python3-sklearn, "" if absent.
std::string default_digits_path();
// A generated stand-in of n samples (10 random stroke templates, shifted and noisy); labelled as such.
Dataset generate_digits(int n, uint64_t seed);

// The deterministic split: a permutation from Rng(seed * 2 + 1); its first round(n * kTestFraction)
// indices are the test set, the rest the training set.
void split(int n, uint64_t seed, std::vector<int>* train, std::vector<int>* test);

struct Hyper {
    int epochs = 10;
    int batch = 32;
    float lr = 0.05f;
    float momentum = 0.9f;
    float weight_decay = 0.0f;
    double bn_fraction = 0.1;  // running-statistics update factor (PyTorch's momentum)
    double bn_eps = 1e-5;
    uint64_t seed = 1;
    int train_limit = 0;       // > 0: use only this many training samples
};

// The order of epoch e (0-based): a permutation of the training indices from Rng(seed * 2 + 2),
// one permutation per epoch drawn in turn; an epoch runs floor(train / batch) full batches.
class EpochOrder {
public:
    explicit EpochOrder(uint64_t seed) : rng_(seed * 2 + 2) {}
    std::vector<int> next(const std::vector<int>& train);

private:
    Rng rng_;
};

// The initial parameters, in the layers' order: conv1 weight (8x1x3x3, no bias), bn scale (8, ones),
// bn bias (8, zeros), conv2 weight (16x8x3x3), conv2 bias (16, zeros), fc weight (10 x kFeatures), fc bias
// (10, zeros). Weights are He-normal, normal() * sqrt(2 / fan_in), drawn from Rng(seed * 2 + 3) in
// this order, each in row-major (KCRS) order, rounded to float.
std::vector<std::vector<float>> initial_params(uint64_t seed);

// Accuracy bookkeeping for one epoch of one path.
struct EpochStats {
    double train_loss = 0;  // mean of the batch losses
    double test_loss = 0;
    double test_acc = 0;    // percent
    double seconds = 0;     // training part of the epoch
};

}  // namespace digits

#endif  // CLDNN_EXAMPLES_TRAIN_DIGITS_DATA_HPP_
