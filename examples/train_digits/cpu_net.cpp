// cpu_net.cpp: the CPU reference network of cpu_net.hpp, in double.
#include "cpu_net.hpp"

#include <algorithm>
#include <cmath>

namespace digits {

namespace {

constexpr int kPooled = kSide / 2;            // side after the 2x2 max pool
constexpr int kAvgOut = kPooled / kAvgWindow;  // side after the average pool

// y (n x k x h x w) = 3x3 cross-correlation of x (n x c x h x w), padding 1, stride 1, + bias.
void conv3x3_forward(const double* x, int n, int c, int h, int w, const double* wt, const double* bias, int k,
                     double* y) {
    for (int b = 0; b < n; ++b)
        for (int o = 0; o < k; ++o)
            for (int i = 0; i < h; ++i)
                for (int j = 0; j < w; ++j) {
                    double s = bias ? bias[o] : 0.0;
                    for (int ci = 0; ci < c; ++ci)
                        for (int r = 0; r < 3; ++r)
                            for (int q = 0; q < 3; ++q) {
                                const int yy = i + r - 1, xx = j + q - 1;
                                if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                                s += wt[((o * c + ci) * 3 + r) * 3 + q] * x[((b * c + ci) * h + yy) * w + xx];
                            }
                    y[((b * k + o) * h + i) * w + j] = s;
                }
}

// The gradients of conv3x3_forward: dw (overwritten), db and dx (overwritten) when not null.
void conv3x3_backward(const double* x, const double* dy, int n, int c, int h, int w, const double* wt, int k,
                      double* dw, double* db, double* dx) {
    std::fill(dw, dw + k * c * 9, 0.0);
    if (db) std::fill(db, db + k, 0.0);
    if (dx) std::fill(dx, dx + n * c * h * w, 0.0);
    for (int b = 0; b < n; ++b)
        for (int o = 0; o < k; ++o)
            for (int i = 0; i < h; ++i)
                for (int j = 0; j < w; ++j) {
                    const double g = dy[((b * k + o) * h + i) * w + j];
                    if (db) db[o] += g;
                    for (int ci = 0; ci < c; ++ci)
                        for (int r = 0; r < 3; ++r)
                            for (int q = 0; q < 3; ++q) {
                                const int yy = i + r - 1, xx = j + q - 1;
                                if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                                const int wi = ((o * c + ci) * 3 + r) * 3 + q, xi = ((b * c + ci) * h + yy) * w + xx;
                                dw[wi] += g * x[xi];
                                if (dx) dx[xi] += g * wt[wi];
                            }
                }
}

}  // namespace

CpuNet::CpuNet(const std::vector<std::vector<float>>& params, const Hyper& hyper)
    : hyper_(hyper), run_mean_(kConv1, 0.0), run_var_(kConv1, 1.0) {
    for (const std::vector<float>& p : params) {
        w_.emplace_back(p.begin(), p.end());
        dw_.emplace_back(p.size(), 0.0);
        v_.emplace_back(p.size(), 0.0);
    }
}

void CpuNet::Forward(const float* images, int n, bool train) {
    const int plane = kSide * kSide, m = n * plane;
    x_.assign(images, images + n * kPixels);
    c1_.resize(n * kConv1 * plane);
    conv3x3_forward(x_.data(), n, 1, kSide, kSide, w_[0].data(), nullptr, kConv1, c1_.data());

    xhat_.resize(c1_.size());
    bn_.resize(c1_.size());
    inv_std_.assign(kConv1, 0.0);
    for (int k = 0; k < kConv1; ++k) {
        double mean = run_mean_[k], var = run_var_[k];
        if (train) {
            double s = 0, s2 = 0;
            for (int b = 0; b < n; ++b)
                for (int i = 0; i < plane; ++i) s += c1_[(b * kConv1 + k) * plane + i];
            mean = s / m;
            for (int b = 0; b < n; ++b)
                for (int i = 0; i < plane; ++i) {
                    const double d = c1_[(b * kConv1 + k) * plane + i] - mean;
                    s2 += d * d;
                }
            var = s2 / m;
            const double f = hyper_.bn_fraction;
            run_mean_[k] = (1 - f) * run_mean_[k] + f * mean;
            run_var_[k] = (1 - f) * run_var_[k] + f * var * m / (m - 1);
        }
        inv_std_[k] = 1.0 / std::sqrt(var + hyper_.bn_eps);
        for (int b = 0; b < n; ++b)
            for (int i = 0; i < plane; ++i) {
                const int at = (b * kConv1 + k) * plane + i;
                xhat_[at] = (c1_[at] - mean) * inv_std_[k];
                bn_[at] = w_[1][k] * xhat_[at] + w_[2][k];
            }
    }
    r1_.resize(bn_.size());
    for (size_t i = 0; i < bn_.size(); ++i) r1_[i] = std::max(bn_[i], 0.0);

    p1_.resize(n * kConv1 * kPooled * kPooled);
    argmax_.resize(p1_.size());
    for (int bc = 0; bc < n * kConv1; ++bc)
        for (int i = 0; i < kPooled; ++i)
            for (int j = 0; j < kPooled; ++j) {
                int best = bc * plane + (2 * i) * kSide + 2 * j;
                for (int r = 0; r < 2; ++r)
                    for (int q = 0; q < 2; ++q) {
                        const int at = bc * plane + (2 * i + r) * kSide + 2 * j + q;
                        if (r1_[at] > r1_[best]) best = at;
                    }
                const int o = (bc * kPooled + i) * kPooled + j;
                p1_[o] = r1_[best];
                argmax_[o] = best;
            }

    const int plane2 = kPooled * kPooled;
    c2_.resize(n * kConv2 * plane2);
    conv3x3_forward(p1_.data(), n, kConv1, kPooled, kPooled, w_[3].data(), w_[4].data(), kConv2, c2_.data());
    r2_.resize(c2_.size());
    for (size_t i = 0; i < c2_.size(); ++i) r2_[i] = std::max(c2_[i], 0.0);
    p2_.assign(n * kFeatures, 0.0);
    for (int bc = 0; bc < n * kConv2; ++bc)
        for (int i = 0; i < kPooled; ++i)
            for (int j = 0; j < kPooled; ++j)
                p2_[bc * kAvgOut * kAvgOut + (i / kAvgWindow) * kAvgOut + j / kAvgWindow] +=
                    r2_[(bc * kPooled + i) * kPooled + j] / (kAvgWindow * kAvgWindow);

    logp_.resize(n * kClasses);
    for (int b = 0; b < n; ++b) {
        double* z = &logp_[b * kClasses];
        double mx = -HUGE_VAL;
        for (int o = 0; o < kClasses; ++o) {
            double s = w_[6][o];
            for (int c = 0; c < kFeatures; ++c) s += w_[5][o * kFeatures + c] * p2_[b * kFeatures + c];
            z[o] = s;
            mx = std::max(mx, s);
        }
        double se = 0;
        for (int o = 0; o < kClasses; ++o) se += std::exp(z[o] - mx);
        const double lse = mx + std::log(se);
        for (int o = 0; o < kClasses; ++o) z[o] -= lse;
    }
}

void CpuNet::Backward(const int* labels, int n) {
    const int plane = kSide * kSide, m = n * plane;
    std::vector<double> dlogit(n * kClasses);
    for (int b = 0; b < n; ++b)
        for (int o = 0; o < kClasses; ++o)
            dlogit[b * kClasses + o] = (std::exp(logp_[b * kClasses + o]) - (labels[b] == o ? 1.0 : 0.0)) / n;

    std::fill(dw_[5].begin(), dw_[5].end(), 0.0);
    std::fill(dw_[6].begin(), dw_[6].end(), 0.0);
    std::vector<double> dp2(n * kFeatures, 0.0);
    for (int b = 0; b < n; ++b)
        for (int o = 0; o < kClasses; ++o) {
            const double g = dlogit[b * kClasses + o];
            dw_[6][o] += g;
            for (int c = 0; c < kFeatures; ++c) {
                dw_[5][o * kFeatures + c] += g * p2_[b * kFeatures + c];
                dp2[b * kFeatures + c] += g * w_[5][o * kFeatures + c];
            }
        }

    std::vector<double> dc2(c2_.size());
    for (int bc = 0; bc < n * kConv2; ++bc)
        for (int i = 0; i < kPooled; ++i)
            for (int j = 0; j < kPooled; ++j) {
                const int at = (bc * kPooled + i) * kPooled + j;
                dc2[at] = c2_[at] > 0 ? dp2[bc * kAvgOut * kAvgOut + (i / kAvgWindow) * kAvgOut + j / kAvgWindow] /
                                            (kAvgWindow * kAvgWindow)
                                      : 0.0;
            }
    std::vector<double> dp1(p1_.size());
    conv3x3_backward(p1_.data(), dc2.data(), n, kConv1, kPooled, kPooled, w_[3].data(), kConv2, dw_[3].data(),
                     dw_[4].data(), dp1.data());

    std::vector<double> dbn(bn_.size(), 0.0);
    for (size_t o = 0; o < p1_.size(); ++o) dbn[argmax_[o]] += dp1[o];
    for (size_t i = 0; i < bn_.size(); ++i)
        if (!(bn_[i] > 0)) dbn[i] = 0.0;

    std::vector<double> dc1(c1_.size());
    for (int k = 0; k < kConv1; ++k) {
        double sg = 0, sgx = 0;
        for (int b = 0; b < n; ++b)
            for (int i = 0; i < plane; ++i) {
                const int at = (b * kConv1 + k) * plane + i;
                sg += dbn[at];
                sgx += dbn[at] * xhat_[at];
            }
        dw_[1][k] = sgx;
        dw_[2][k] = sg;
        const double s = w_[1][k] * inv_std_[k] / m;
        for (int b = 0; b < n; ++b)
            for (int i = 0; i < plane; ++i) {
                const int at = (b * kConv1 + k) * plane + i;
                dc1[at] = s * (m * dbn[at] - sg - xhat_[at] * sgx);
            }
    }
    conv3x3_backward(x_.data(), dc1.data(), n, 1, kSide, kSide, w_[0].data(), kConv1, dw_[0].data(), nullptr, nullptr);
}

void CpuNet::Update() {
    for (size_t p = 0; p < w_.size(); ++p)
        for (size_t i = 0; i < w_[p].size(); ++i) {
            const double g = dw_[p][i] + hyper_.weight_decay * w_[p][i];
            v_[p][i] = hyper_.momentum * v_[p][i] + g;
            w_[p][i] -= hyper_.lr * v_[p][i];
        }
}

double CpuNet::TrainStep(const float* images, const int* labels, int n) {
    Forward(images, n, true);
    double loss = 0;
    for (int b = 0; b < n; ++b) loss -= logp_[b * kClasses + labels[b]];
    Backward(labels, n);
    Update();
    return loss / n;
}

std::vector<double> CpuNet::Predict(const float* images, int n) {
    Forward(images, n, false);
    return logp_;
}

}  // namespace digits
