// cldnn.hpp: an optional, header-only C++11 layer over the C API of cldnn.h.
//
// What it adds, and nothing more:
//   - cldnn::error, an exception carrying the status and the thread's last-error string, thrown by
//     cldnn::check(status) for every status but SUCCESS;
//   - move-only owners (RAII) for the handle and every descriptor kind, which destroy what they own
//     exactly once, convert implicitly to the C type so they pass straight to any cldnn* call, and
//     offer the common setters as members that throw on failure.
// The C API stays the interface: every call of cldnn.h works on what these classes hold. Thread
// safety is that of the C objects (a handle is used by one thread at a time).
//
//   cldnn::handle h;                                   // cldnnCreateDefault
//   cldnn::tensor_descriptor x, y;
//   x.set_4d(CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, 32, 64, 56, 56);
//   cldnn::check(cldnnActivationForward(h, act, &one, x, xbuf, 0, &zero, y, ybuf, 0));
#ifndef CLDNN_API_HPP_
#define CLDNN_API_HPP_

#include <cldnn.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace cldnn {

/// A failed cldnn call: the status, and as what() the calling thread's last-error string (which
/// starts with the status name), or the status name alone when that string is empty.
class error : public std::runtime_error {
public:
    /// Wraps status with detail as what() (the status name when detail is empty).
    error(cldnnStatus_t status, const std::string& detail)
        : std::runtime_error(detail.empty() ? std::string(cldnnGetErrorString(status)) : detail),
          status_(status) {}
    /// The cldnn status of the failed call.
    cldnnStatus_t status() const noexcept { return status_; }

private:
    cldnnStatus_t status_;
};

// The calling thread's last-error string.
inline std::string last_error() {
    char buf[2048];
    cldnnGetLastErrorString(buf, sizeof buf);
    return std::string(buf);
}

// Throws cldnn::error unless status is CLDNN_STATUS_SUCCESS.
inline void check(cldnnStatus_t status) {
    if (status != CLDNN_STATUS_SUCCESS) throw error(status, last_error());
}

/// Owner of one C object of type T, released by Destroy exactly once. Move-only.
template <typename T, cldnnStatus_t (*Destroy)(T)>
class owned {
public:
    owned() = default;
    ~owned() { reset(); }
    owned(const owned&) = delete;
    owned& operator=(const owned&) = delete;
    /// Takes over what o owns; o is left empty.
    owned(owned&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
    /// Destroys what this owns, then takes over what o owns; o is left empty.
    owned& operator=(owned&& o) noexcept {
        if (this != &o) {
            reset();
            p_ = o.p_;
            o.p_ = nullptr;
        }
        return *this;
    }
    /// The C object (NULL when empty), to pass straight to any cldnn* call.
    operator T() const noexcept { return p_; }
    /// The C object (NULL when empty).
    T get() const noexcept { return p_; }
    /// Gives up ownership: the caller destroys the returned object.
    T release() noexcept {
        T p = p_;
        p_ = nullptr;
        return p;
    }

protected:
    /// Destroys the owned object, if any, and leaves this empty.
    void reset() noexcept {
        if (p_) Destroy(p_);
        p_ = nullptr;
    }
    /// The owned C object, NULL when empty.
    T p_ = nullptr;
};

/// A descriptor made by Create on construction.
template <typename T, cldnnStatus_t (*Create)(T*), cldnnStatus_t (*Destroy)(T)>
class owner : public owned<T, Destroy> {
public:
    owner() { check(Create(&this->p_)); }
};

/// The handle: on the embedded default device, or bound to the caller's in-order queue.
class handle : public owned<cldnnHandle_t, cldnnDestroy> {
public:
    handle() { check(cldnnCreateDefault(&p_)); }
    /// cldnnCreate on the caller's in-order queue; throws cldnn::error on failure.
    explicit handle(cl_command_queue queue) { check(cldnnCreate(&p_, queue)); }
    /// The bound queue (cldnnGetQueue; not retained for the caller).
    cl_command_queue queue() const {
        cl_command_queue q = nullptr;
        check(cldnnGetQueue(p_, &q));
        return q;
    }
    /// cldnnSetQueue: rebinds to another in-order queue of the same context and device.
    void set_queue(cl_command_queue q) { check(cldnnSetQueue(p_, q)); }
};

/// Owner of a cldnnTensorDescriptor_t, with the common setters (each throws cldnn::error on failure).
class tensor_descriptor
    : public owner<cldnnTensorDescriptor_t, cldnnCreateTensorDescriptor, cldnnDestroyTensorDescriptor> {
public:
    tensor_descriptor() = default;
    /// A 4-d descriptor (cldnnSetTensor4dDescriptor).
    tensor_descriptor(cldnnTensorFormat_t format, cldnnDataType_t type, int n, int c, int h, int w) {
        set_4d(format, type, n, c, h, w);
    }
    /// cldnnSetTensor4dDescriptor: logical NCHW dimensions, packed in format.
    void set_4d(cldnnTensorFormat_t format, cldnnDataType_t type, int n, int c, int h, int w) {
        check(cldnnSetTensor4dDescriptor(p_, format, type, n, c, h, w));
    }
    /// cldnnSetTensor4dDescriptorEx: dimensions with strides in elements.
    void set_4d_ex(cldnnDataType_t type, int n, int c, int h, int w, int ns, int cs, int hs, int ws) {
        check(cldnnSetTensor4dDescriptorEx(p_, type, n, c, h, w, ns, cs, hs, ws));
    }
    /// cldnnSetTensorNdDescriptor: nb_dims dimensions and strides in elements.
    void set_nd(cldnnDataType_t type, int nb_dims, const int64_t* dims, const int64_t* strides) {
        check(cldnnSetTensorNdDescriptor(p_, type, nb_dims, dims, strides));
    }
    /// cldnnGetTensorSizeInBytes: bytes a buffer must hold past its offset.
    size_t size_in_bytes() const {
        size_t s = 0;
        check(cldnnGetTensorSizeInBytes(p_, &s));
        return s;
    }
};

/// Owner of a cldnnFilterDescriptor_t.
class filter_descriptor
    : public owner<cldnnFilterDescriptor_t, cldnnCreateFilterDescriptor, cldnnDestroyFilterDescriptor> {
public:
    filter_descriptor() = default;
    /// A 4-d filter (cldnnSetFilter4dDescriptor).
    filter_descriptor(cldnnDataType_t type, cldnnTensorFormat_t format, int k, int c, int h, int w) {
        set_4d(type, format, k, c, h, w);
    }
    /// cldnnSetFilter4dDescriptor: k output, c input channels (per group), h x w window.
    void set_4d(cldnnDataType_t type, cldnnTensorFormat_t format, int k, int c, int h, int w) {
        check(cldnnSetFilter4dDescriptor(p_, type, format, k, c, h, w));
    }
    /// cldnnGetFilterSizeInBytes.
    size_t size_in_bytes() const {
        size_t s = 0;
        check(cldnnGetFilterSizeInBytes(p_, &s));
        return s;
    }
};

/// Owner of a cldnnConvolutionDescriptor_t.
class convolution_descriptor
    : public owner<cldnnConvolutionDescriptor_t, cldnnCreateConvolutionDescriptor, cldnnDestroyConvolutionDescriptor> {
public:
    /// cldnnSetConvolution2dDescriptor; cross-correlation in FLOAT unless told.
    void set_2d(int pad_h, int pad_w, int u, int v, int dilation_h, int dilation_w,
                cldnnConvolutionMode_t mode = CLDNN_CROSS_CORRELATION, cldnnDataType_t type = CLDNN_DATA_FLOAT) {
        check(cldnnSetConvolution2dDescriptor(p_, pad_h, pad_w, u, v, dilation_h, dilation_w, mode, type));
    }
    /// cldnnSetConvolutionGroupCount.
    void set_group_count(int groups) { check(cldnnSetConvolutionGroupCount(p_, groups)); }
    /// cldnnSetConvolutionMathType.
    void set_math_type(cldnnMathType_t math) { check(cldnnSetConvolutionMathType(p_, math)); }
};

/// Owner of a cldnnActivationDescriptor_t.
class activation_descriptor
    : public owner<cldnnActivationDescriptor_t, cldnnCreateActivationDescriptor, cldnnDestroyActivationDescriptor> {
public:
    activation_descriptor() = default;
    /// A descriptor set to mode (cldnnSetActivationDescriptor).
    activation_descriptor(cldnnActivationMode_t mode, double coef = 0.0,
                          cldnnNanPropagation_t nan = CLDNN_NOT_PROPAGATE_NAN) {
        set(mode, coef, nan);
    }
    /// cldnnSetActivationDescriptor.
    void set(cldnnActivationMode_t mode, double coef = 0.0, cldnnNanPropagation_t nan = CLDNN_NOT_PROPAGATE_NAN) {
        check(cldnnSetActivationDescriptor(p_, mode, nan, coef));
    }
};

/// Owner of a cldnnPoolingDescriptor_t.
class pooling_descriptor
    : public owner<cldnnPoolingDescriptor_t, cldnnCreatePoolingDescriptor, cldnnDestroyPoolingDescriptor> {
public:
    /// cldnnSetPooling2dDescriptor.
    void set_2d(cldnnPoolingMode_t mode, int window_h, int window_w, int pad_h, int pad_w, int stride_h, int stride_w,
                cldnnNanPropagation_t nan = CLDNN_NOT_PROPAGATE_NAN) {
        check(cldnnSetPooling2dDescriptor(p_, mode, nan, window_h, window_w, pad_h, pad_w, stride_h, stride_w));
    }
};

/// Owner of a cldnnLRNDescriptor_t (cuDNN's defaults until set).
class lrn_descriptor : public owner<cldnnLRNDescriptor_t, cldnnCreateLRNDescriptor, cldnnDestroyLRNDescriptor> {
public:
    /// cldnnSetLRNDescriptor.
    void set(unsigned n, double alpha, double beta, double k) { check(cldnnSetLRNDescriptor(p_, n, alpha, beta, k)); }
};

}  // namespace cldnn

#endif  // CLDNN_API_HPP_
