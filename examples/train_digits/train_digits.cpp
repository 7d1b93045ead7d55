// train_digits.cpp: trains a small CNN for real on scikit-learn's 8x8 digits with the Caffe-style
// layers of examples/caffe/ on cldnn's default device, then the same network from the same start on
// the same batches on the CPU reference path (cpu_net.hpp), and compares them.
//
//   conv 3x3 8 (no bias) -> BN -> ReLU -> max pool 2x2 -> conv 3x3 16 -> ReLU -> average pool 2x2
//   -> FC 10 -> softmax cross-entropy;  SGD, momentum 0.9, lr 0.05, batch 32 (flags below)
// (a global average pool before the FC learns slowly here: about 80% after 10 epochs, against 96%
// with the 2x2 pool, whose 64 features keep where the strokes are)
//
// Data: --data PATH (digits.csv or .csv.gz), else Debian python3-sklearn's digits.csv.gz, else a
// generated stand-in, announced as GENERATED in the output. 20% is held out as the test set
// (data.hpp: the split and every other shared definition).
//
// Prints per epoch and path: mean training loss, test loss and accuracy, seconds of training; then a
// summary and "RESULT" lines for scripts. Exit status: 0; 1 when cldnn's final test accuracy is below
// the CPU path's minus --margin points or below --floor percent, or when the first batch's loss of
// the two paths differs by more than 1e-3 relative (a wrong layer shows there first); 2 on a usage,
// data or cldnn error.
#include "../caffe/layers.hpp"
#include "cpu_net.hpp"
#include "data.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace {

using caffe_cl::Blob;
using digits::EpochStats;
using digits::Hyper;
using digits::kClasses;
using digits::kPixels;

struct Options {
    Hyper hyper;
    std::string data;
    bool run_cldnn = true, run_cpu = true;
    double floor = 85.0, margin = 3.0;
};

void usage() {
    std::fprintf(stderr,
                 "usage: train_digits [--data PATH] [--epochs N] [--batch N] [--lr X] [--momentum X]\n"
                 "                    [--weight-decay X] [--seed N] [--train-limit N] [--floor PCT]\n"
                 "                    [--margin PTS] [--no-cpu] [--cpu-only]\n");
}

bool parse(int argc, char** argv, Options* o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        auto value = [&]() { return std::string(argv[++i]); };
        if (a == "--no-cpu") o->run_cpu = false;
        else if (a == "--cpu-only") o->run_cldnn = false;
        else if (!has_value) return false;
        else if (a == "--data") o->data = value();
        else if (a == "--epochs") o->hyper.epochs = std::atoi(value().c_str());
        else if (a == "--batch") o->hyper.batch = std::atoi(value().c_str());
        else if (a == "--lr") o->hyper.lr = std::strtof(value().c_str(), nullptr);
        else if (a == "--momentum") o->hyper.momentum = std::strtof(value().c_str(), nullptr);
        else if (a == "--weight-decay") o->hyper.weight_decay = std::strtof(value().c_str(), nullptr);
        else if (a == "--seed") o->hyper.seed = std::strtoull(value().c_str(), nullptr, 10);
        else if (a == "--train-limit") o->hyper.train_limit = std::atoi(value().c_str());
        else if (a == "--floor") o->floor = std::strtod(value().c_str(), nullptr);
        else if (a == "--margin") o->margin = std::strtod(value().c_str(), nullptr);
        else return false;
    }
    return o->hyper.epochs >= 1 && o->hyper.batch >= 2;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The images and labels of `idx[first .. first + count)` into a batch of `batch` rows (rows past
// count are zero images with label -1); one-hot labels when `one_hot` is not null.
void gather(const digits::Dataset& ds, const std::vector<int>& idx, size_t first, int count, int batch,
            float* images, int* labels, float* one_hot) {
    std::fill(images, images + static_cast<size_t>(batch) * kPixels, 0.0f);
    if (one_hot) std::fill(one_hot, one_hot + static_cast<size_t>(batch) * kClasses, 0.0f);
    for (int b = 0; b < batch; ++b) {
        labels[b] = -1;
        if (b >= count) continue;
        const int s = idx[first + b];
        std::copy(&ds.images[static_cast<size_t>(s) * kPixels], &ds.images[static_cast<size_t>(s + 1) * kPixels],
                  images + static_cast<size_t>(b) * kPixels);
        labels[b] = ds.labels[s];
        if (one_hot) one_hot[b * kClasses + labels[b]] = 1.0f;
    }
}

// Adds the loss and the correct predictions of the rows with a label (>= 0) of log-probabilities
// `logp` (rows x kClasses) to *loss and *correct.
template <typename T>
void score(const T* logp, const int* labels, int rows, double* loss, int* correct) {
    for (int b = 0; b < rows; ++b) {
        if (labels[b] < 0) continue;
        int best = 0;
        for (int o = 1; o < kClasses; ++o)
            if (logp[b * kClasses + o] > logp[b * kClasses + best]) best = o;
        *correct += best == labels[b];
        *loss -= logp[b * kClasses + labels[b]];
    }
}

void print_epoch(const char* path, int e, int epochs, const EpochStats& s) {
    std::printf("[%s] epoch %2d/%d: train loss %.4f, test loss %.4f, test accuracy %6.2f%%, %.3f s\n", path, e + 1,
                epochs, s.train_loss, s.test_loss, s.test_acc, s.seconds);
    std::fflush(stdout);
}

// The network on cldnn: blobs[i] -> layers[i] -> blobs[i + 1]; the last layer is the loss.
class ClNet {
public:
    ClNet(const caffe_cl::Context& ctx, const Hyper& hp) : ctx_(ctx) {
        using caffe_cl::PoolingLayer;
        layers_.emplace_back(new caffe_cl::ConvolutionLayer(ctx, digits::kConv1, 3, 1, 1, false));
        layers_.emplace_back(new caffe_cl::BatchNormLayer(ctx, hp.bn_fraction, hp.bn_eps));
        layers_.emplace_back(new caffe_cl::ReLULayer(ctx));
        layers_.emplace_back(new PoolingLayer(ctx, PoolingLayer::Method::MAX, 2, 2));
        layers_.emplace_back(new caffe_cl::ConvolutionLayer(ctx, digits::kConv2, 3, 1, 1, true));
        layers_.emplace_back(new caffe_cl::ReLULayer(ctx));
        layers_.emplace_back(new PoolingLayer(ctx, PoolingLayer::Method::AVE, digits::kAvgWindow, digits::kAvgWindow));
        layers_.emplace_back(new caffe_cl::InnerProductLayer(ctx, kClasses, true));
        loss_ = new caffe_cl::SoftmaxWithLossLayer(ctx);
        layers_.emplace_back(loss_);
        blobs_.resize(layers_.size() + 1);
        blobs_[0].Reshape(ctx, hp.batch, 1, digits::kSide, digits::kSide);
        labels_.Reshape(ctx, hp.batch, kClasses, 1, 1);
        loss_->set_labels(labels_);
        for (size_t i = 0; i < layers_.size(); ++i) layers_[i]->Reshape(blobs_[i], blobs_[i + 1]);
    }
    std::vector<Blob*> params() {
        std::vector<Blob*> all;
        for (auto& l : layers_)
            for (Blob* p : l->params()) all.push_back(p);
        return all;
    }
    Blob& data() { return blobs_.front(); }
    Blob& labels() { return labels_; }
    const Blob& loss() const { return blobs_.back(); }
    const Blob& log_prob() const { return loss_->log_prob(); }
    void Forward(caffe_cl::Phase phase) {
        for (size_t i = 0; i < layers_.size(); ++i) {
            layers_[i]->set_phase(phase);
            layers_[i]->Forward(blobs_[i], blobs_[i + 1]);
        }
    }
    void Backward() {
        for (size_t i = layers_.size(); i-- > 0;) layers_[i]->Backward(blobs_[i + 1], blobs_[i], i > 0);
    }

private:
    caffe_cl::Context ctx_;
    std::vector<std::unique_ptr<caffe_cl::Layer>> layers_;
    caffe_cl::SoftmaxWithLossLayer* loss_;
    std::vector<Blob> blobs_;
    Blob labels_;
};

// Trains on cldnn; fills stats per epoch and the first batch's loss.
void train_cldnn(const Options& o, const digits::Dataset& ds, const std::vector<int>& train,
                 const std::vector<int>& test, const std::vector<std::vector<float>>& init,
                 std::vector<EpochStats>* stats, double* first_loss) {
    const Hyper& hp = o.hyper;
    const int B = hp.batch, nb = static_cast<int>(train.size()) / B;
    cldnn::handle h;
    const caffe_cl::Context ctx = caffe_cl::Context::from(h);
    cl_device_id dev;
    caffe_cl::check_cl(clGetCommandQueueInfo(ctx.queue, CL_QUEUE_DEVICE, sizeof dev, &dev, nullptr),
                       "clGetCommandQueueInfo");
    char name[256] = "";
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, nullptr);
    std::printf("[cldnn] device: %s (cldnn %zu)\n", name, cldnnGetVersion());

    ClNet net(ctx, hp);
    std::vector<Blob*> params = net.params();
    if (params.size() != init.size()) throw std::logic_error("parameter count differs from initial_params");
    for (size_t i = 0; i < params.size(); ++i) {
        if (params[i]->count() != init[i].size()) throw std::logic_error("parameter shape differs from initial_params");
        params[i]->Upload(ctx, init[i].data());
    }
    caffe_cl::SGDSolver solver(ctx, params, hp.lr, hp.momentum, hp.weight_decay);
    Blob epoch_loss(ctx, 1, 1, 1, 1);
    const size_t img_batch = static_cast<size_t>(B) * kPixels * sizeof(float);
    const size_t lab_batch = static_cast<size_t>(B) * kClasses * sizeof(float);
    caffe_cl::Buffer epoch_images(ctx, img_batch * nb), epoch_labels(ctx, lab_batch * nb);
    std::vector<float> images(static_cast<size_t>(nb) * B * kPixels), one_hot(static_cast<size_t>(nb) * B * kClasses);
    std::vector<int> labels(static_cast<size_t>(nb) * B);
    const float one = 1.0f;
    digits::EpochOrder orders(hp.seed);

    for (int e = 0; e < hp.epochs; ++e) {
        EpochStats s;
        const std::vector<int> order = orders.next(train);
        for (int i = 0; i < nb; ++i)
            gather(ds, order, static_cast<size_t>(i) * B, B, B, &images[static_cast<size_t>(i) * B * kPixels],
                   &labels[static_cast<size_t>(i) * B], &one_hot[static_cast<size_t>(i) * B * kClasses]);
        const auto t0 = std::chrono::steady_clock::now();
        caffe_cl::check_cl(clEnqueueWriteBuffer(ctx.queue, epoch_images.get(), CL_FALSE, 0, epoch_images.bytes(),
                                                images.data(), 0, nullptr, nullptr), "clEnqueueWriteBuffer");
        caffe_cl::check_cl(clEnqueueWriteBuffer(ctx.queue, epoch_labels.get(), CL_FALSE, 0, epoch_labels.bytes(),
                                                one_hot.data(), 0, nullptr, nullptr), "clEnqueueWriteBuffer");
        epoch_loss.Fill(ctx, 0.0f);
        for (int i = 0; i < nb; ++i) {
            caffe_cl::check_cl(clEnqueueCopyBuffer(ctx.queue, epoch_images.get(), net.data().data(), img_batch * i, 0,
                                                   img_batch, 0, nullptr, nullptr), "clEnqueueCopyBuffer");
            caffe_cl::check_cl(clEnqueueCopyBuffer(ctx.queue, epoch_labels.get(), net.labels().data(), lab_batch * i,
                                                   0, lab_batch, 0, nullptr, nullptr), "clEnqueueCopyBuffer");
            net.Forward(caffe_cl::Phase::TRAIN);
            cldnn::check(cldnnAddTensor(h, &one, net.loss().desc(), net.loss().data(), 0, &one, epoch_loss.desc(),
                                        epoch_loss.data(), 0));
            if (e == 0 && i == 0) *first_loss = net.loss().Download(ctx)[0];
            net.Backward();
            solver.Step();
        }
        s.train_loss = epoch_loss.Download(ctx)[0] / nb;  // blocking: the epoch's work is done
        s.seconds = seconds_since(t0);

        double loss = 0;
        int correct = 0;
        std::vector<float> timg(static_cast<size_t>(B) * kPixels), thot(static_cast<size_t>(B) * kClasses);
        std::vector<int> tlab(B);
        for (size_t first = 0; first < test.size(); first += B) {
            const int count = static_cast<int>(std::min<size_t>(B, test.size() - first));
            gather(ds, test, first, count, B, timg.data(), tlab.data(), thot.data());
            net.data().Upload(ctx, timg.data());
            net.labels().Upload(ctx, thot.data());
            net.Forward(caffe_cl::Phase::TEST);
            const std::vector<float> logp = net.log_prob().Download(ctx);
            score(logp.data(), tlab.data(), B, &loss, &correct);
        }
        s.test_loss = loss / test.size();
        s.test_acc = 100.0 * correct / test.size();
        stats->push_back(s);
        print_epoch("cldnn", e, hp.epochs, s);
    }
}

// The same training on the CPU reference path.
void train_cpu(const Options& o, const digits::Dataset& ds, const std::vector<int>& train,
               const std::vector<int>& test, const std::vector<std::vector<float>>& init,
               std::vector<EpochStats>* stats, double* first_loss) {
    const Hyper& hp = o.hyper;
    const int B = hp.batch, nb = static_cast<int>(train.size()) / B;
    digits::CpuNet net(init, hp);
    digits::EpochOrder orders(hp.seed);
    std::vector<float> images(static_cast<size_t>(B) * kPixels);
    std::vector<int> labels(B);
    for (int e = 0; e < hp.epochs; ++e) {
        EpochStats s;
        const std::vector<int> order = orders.next(train);
        const auto t0 = std::chrono::steady_clock::now();
        double sum = 0;
        for (int i = 0; i < nb; ++i) {
            gather(ds, order, static_cast<size_t>(i) * B, B, B, images.data(), labels.data(), nullptr);
            const double l = net.TrainStep(images.data(), labels.data(), B);
            if (e == 0 && i == 0) *first_loss = l;
            sum += l;
        }
        s.train_loss = sum / nb;
        s.seconds = seconds_since(t0);
        double loss = 0;
        int correct = 0;
        for (size_t first = 0; first < test.size(); first += B) {
            const int count = static_cast<int>(std::min<size_t>(B, test.size() - first));
            gather(ds, test, first, count, B, images.data(), labels.data(), nullptr);
            const std::vector<double> logp = net.Predict(images.data(), B);
            score(logp.data(), labels.data(), B, &loss, &correct);
        }
        s.test_loss = loss / test.size();
        s.test_acc = 100.0 * correct / test.size();
        stats->push_back(s);
        print_epoch("cpu", e, hp.epochs, s);
    }
}

// Seconds of epoch 1 (program builds or cache loads included) and the mean of the others.
void epoch_times(const std::vector<EpochStats>& st, double* first, double* rest) {
    *first = st.front().seconds;
    *rest = 0;
    for (size_t i = 1; i < st.size(); ++i) *rest += st[i].seconds;
    *rest = st.size() > 1 ? *rest / (st.size() - 1) : *first;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, &o)) {
        usage();
        return 2;
    }
    try {
        digits::Dataset ds;
        const std::string path = o.data.empty() ? digits::default_digits_path() : o.data;
        if (!path.empty())
            ds = digits::load_digits(path);
        else
            ds = digits::generate_digits(1797, o.hyper.seed);
        std::vector<int> train, test;
        digits::split(ds.size(), o.hyper.seed, &train, &test);
        if (o.hyper.train_limit > 0 && static_cast<int>(train.size()) > o.hyper.train_limit)
            train.resize(o.hyper.train_limit);
        if (static_cast<int>(train.size()) < o.hyper.batch) throw std::runtime_error("fewer training samples than a batch");
        const Hyper& hp = o.hyper;
        std::printf("data: %s%s\n", ds.source.c_str(), ds.generated ? "  *** GENERATED DATA, NOT THE DIGITS ***" : "");
        std::printf("samples: %d (train %zu, test %zu); epochs %d, batch %d (%zu steps/epoch), lr %g, momentum %g, "
                    "weight decay %g, seed %llu\n",
                    ds.size(), train.size(), test.size(), hp.epochs, hp.batch, train.size() / hp.batch, hp.lr,
                    hp.momentum, hp.weight_decay, static_cast<unsigned long long>(hp.seed));
        const std::vector<std::vector<float>> init = digits::initial_params(hp.seed);

        std::vector<EpochStats> cl, cpu;
        double cl_first = 0, cpu_first = 0;
        if (o.run_cldnn) train_cldnn(o, ds, train, test, init, &cl, &cl_first);
        if (o.run_cpu) train_cpu(o, ds, train, test, init, &cpu, &cpu_first);

        int status = 0;
        double t1, tr;
        if (o.run_cldnn) {
            epoch_times(cl, &t1, &tr);
            std::printf("RESULT path=cldnn test_acc=%.2f train_loss=%.4f epoch1_s=%.4f epoch_s=%.4f\n",
                        cl.back().test_acc, cl.back().train_loss, t1, tr);
        }
        if (o.run_cpu) {
            epoch_times(cpu, &t1, &tr);
            std::printf("RESULT path=cpu test_acc=%.2f train_loss=%.4f epoch1_s=%.4f epoch_s=%.4f\n",
                        cpu.back().test_acc, cpu.back().train_loss, t1, tr);
        }
        if (o.run_cldnn && cl.back().test_acc < o.floor) {
            std::printf("FAIL: cldnn test accuracy %.2f%% is below the floor %.2f%%\n", cl.back().test_acc, o.floor);
            status = 1;
        }
        if (o.run_cldnn && o.run_cpu) {
            const double rel = std::fabs(cl_first - cpu_first) / std::fabs(cpu_first);
            std::printf("first batch loss: cldnn %.6f, cpu %.6f (relative difference %.2e)\n", cl_first, cpu_first, rel);
            if (rel > 1e-3) {
                std::printf("FAIL: the first batch's loss differs by more than 1e-3\n");
                status = 1;
            }
            if (cl.back().test_acc < cpu.back().test_acc - o.margin) {
                std::printf("FAIL: cldnn test accuracy %.2f%% is more than %.1f points below the CPU path's %.2f%%\n",
                            cl.back().test_acc, o.margin, cpu.back().test_acc);
                status = 1;
            }
        }
        if (status == 0) std::printf("OK\n");
        return status;
    } catch (const cldnn::error& e) {
        std::fprintf(stderr, "cldnn error %s: %s\n", cldnnGetErrorString(e.status()), e.what());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
    }
    return 2;
}
