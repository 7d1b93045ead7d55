// data.cpp: the generator, data set, split, epoch orders and initial parameters of data.hpp.
#include "data.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <sys/stat.h>

#ifdef CLDNN_EXAMPLES_ZLIB
#include <zlib.h>
#endif

namespace digits {

uint64_t Rng::next() {
    s_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = s_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double Rng::uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

double Rng::normal() {
    const double u1 = uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
}

std::vector<int> Rng::permutation(int n) {
    std::vector<int> p(n);
    for (int i = 0; i < n; ++i) p[i] = i;
    for (int i = n - 1; i > 0; --i) {
        const int j = static_cast<int>(below(static_cast<uint64_t>(i) + 1));
        std::swap(p[i], p[j]);
    }
    return p;
}

namespace {

// The whole file as text (decompressed when it is a .gz and zlib is there).
std::string read_text(const std::string& path) {
    std::string text;
    char buf[65536];
#ifdef CLDNN_EXAMPLES_ZLIB
    gzFile f = gzopen(path.c_str(), "rb");  // reads plain files too
    if (!f) throw std::runtime_error("cannot open " + path);
    int got;
    while ((got = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(got));
    const bool bad = got < 0;
    gzclose(f);
    if (bad) throw std::runtime_error("cannot decompress " + path);
#else
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0)
        throw std::runtime_error(path + ": built without zlib; pass the decompressed file (gunzip -k)");
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot open " + path);
    size_t got;
    while ((got = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, got);
    std::fclose(f);
#endif
    return text;
}

}  // namespace

Dataset load_digits(const std::string& path) {
    const std::string text = read_text(path);
    Dataset d;
    d.source = path;
    const char* p = text.c_str();
    int line = 0;
    while (*p) {
        if (*p == '\n' || *p == '\r') {
            ++p;
            continue;
        }
        ++line;
        for (int i = 0; i <= kPixels; ++i) {
            char* end = nullptr;
            const long v = std::strtol(p, &end, 10);
            const bool sep_ok = i < kPixels ? *end == ',' : (*end == '\0' || *end == '\n' || *end == '\r');
            if (end == p || v < 0 || v > (i < kPixels ? 16 : kClasses - 1) || !sep_ok)
                throw std::runtime_error(path + ": bad value in row " + std::to_string(line));
            if (i < kPixels)
                d.images.push_back(static_cast<float>(v) / 16.0f);
            else
                d.labels.push_back(static_cast<int>(v));
            p = *end == ',' ? end + 1 : end;
        }
    }
    if (d.labels.empty()) throw std::runtime_error(path + ": no rows");
    return d;
}

std::string default_digits_path() {
    const char* candidates[] = {"/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz",
                                "/usr/share/scikit-learn/datasets/data/digits.csv.gz"};
    struct stat st;
    for (const char* c : candidates)
        if (stat(c, &st) == 0) return c;
    return "";
}

Dataset generate_digits(int n, uint64_t seed) {
    Rng rng(seed * 2 + 7);
    // 10 templates: 3 random strokes (rows, columns or diagonals) each on the 8x8 grid.
    std::vector<float> templ(kClasses * kPixels, 0.0f);
    for (int c = 0; c < kClasses; ++c)
        for (int s = 0; s < 3; ++s) {
            const int kind = static_cast<int>(rng.below(3)), at = 1 + static_cast<int>(rng.below(6));
            for (int t = 1; t < kSide - 1; ++t) {
                const int y = kind == 0 ? at : t, x = kind == 1 ? at : (kind == 0 ? t : (t + at) % kSide);
                templ[c * kPixels + y * kSide + x] = 1.0f;
            }
        }
    Dataset d;
    d.source = "GENERATED stand-in (digits.csv.gz not found): 10 random stroke templates, shifted, with noise";
    d.generated = true;
    for (int i = 0; i < n; ++i) {
        const int c = static_cast<int>(rng.below(kClasses));
        const int dy = static_cast<int>(rng.below(3)) - 1, dx = static_cast<int>(rng.below(3)) - 1;
        for (int y = 0; y < kSide; ++y)
            for (int x = 0; x < kSide; ++x) {
                const int sy = y - dy, sx = x - dx;
                const float t = sy >= 0 && sy < kSide && sx >= 0 && sx < kSide ? templ[c * kPixels + sy * kSide + sx] : 0;
                d.images.push_back(std::fmin(1.0f, 0.75f * t + 0.3f * static_cast<float>(rng.uniform())));
            }
        d.labels.push_back(c);
    }
    return d;
}

void split(int n, uint64_t seed, std::vector<int>* train, std::vector<int>* test) {
    Rng rng(seed * 2 + 1);
    const std::vector<int> p = rng.permutation(n);
    const int n_test = static_cast<int>(std::lround(n * kTestFraction));
    test->assign(p.begin(), p.begin() + n_test);
    train->assign(p.begin() + n_test, p.end());
}

std::vector<int> EpochOrder::next(const std::vector<int>& train) {
    const std::vector<int> p = rng_.permutation(static_cast<int>(train.size()));
    std::vector<int> order(train.size());
    for (size_t i = 0; i < train.size(); ++i) order[i] = train[p[i]];
    return order;
}

std::vector<std::vector<float>> initial_params(uint64_t seed) {
    Rng rng(seed * 2 + 3);
    auto he = [&rng](int count, int fan_in) {
        std::vector<float> w(count);
        const double s = std::sqrt(2.0 / fan_in);
        for (float& v : w) v = static_cast<float>(rng.normal() * s);
        return w;
    };
    std::vector<std::vector<float>> p;
    p.push_back(he(kConv1 * 1 * 9, 1 * 9));
    p.push_back(std::vector<float>(kConv1, 1.0f));
    p.push_back(std::vector<float>(kConv1, 0.0f));
    p.push_back(he(kConv2 * kConv1 * 9, kConv1 * 9));
    p.push_back(std::vector<float>(kConv2, 0.0f));
    p.push_back(he(kClasses * kFeatures, kFeatures));
    p.push_back(std::vector<float>(kClasses, 0.0f));
    return p;
}

}  // namespace digits
