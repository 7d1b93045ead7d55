// blob.hpp: the Blob and Context of the Caffe-style layer set in examples/caffe/, a worked example of
// how a C++ framework sits on cldnn (include/cldnn.hpp owners, the C calls underneath).
//
// Why headers and sources: the headers are what a framework includes (classes and contracts, no
// cldnn call in them), the .cpp files hold every cldnn and OpenCL call. That is Caffe's own split
// (include/caffe/layers/*.hpp beside src/caffe/layers/*.cpp, here side by side in one folder), and
// it keeps the layers one small library (cldnn_caffe) that programs link, compiled once.
//
// A Blob is Caffe's unit of data: a 4-d NCHW FLOAT shape, a device buffer for the values (data) and
// one for their gradient (diff), both packed, plus the cldnn tensor descriptor of that shape. The
// buffers are cl_mem objects at offset 0 of their own allocation. Blobs are move-only; a Blob and
// the layers that use it belong to one Context (one handle, one queue), used by one thread at a
// time, as the handle is.
#ifndef CLDNN_EXAMPLES_CAFFE_BLOB_HPP_
#define CLDNN_EXAMPLES_CAFFE_BLOB_HPP_

#include <cldnn.hpp>

#include <cstddef>
#include <vector>

namespace caffe_cl {

// Throws std::runtime_error naming `what` and the OpenCL error code unless err is CL_SUCCESS.
void check_cl(cl_int err, const char* what);

// The handle the layers enqueue on, with its queue and context read once.
struct Context {
    cldnnHandle_t handle = nullptr;
    cl_command_queue queue = nullptr;
    cl_context context = nullptr;
    // Reads the queue and context of `h`; h must outlive the Context and everything made from it.
    static Context from(cldnnHandle_t h);
    // Waits for every command enqueued so far (clFinish on the queue).
    void finish() const;
};

// Owner of one cl_mem (released once); move-only. Empty when default-made or of zero size.
class Buffer {
public:
    Buffer() = default;
    // A READ_WRITE buffer of `bytes` bytes (none when bytes == 0), contents undefined.
    Buffer(const Context& ctx, size_t bytes);
    ~Buffer();
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    Buffer(Buffer&& o) noexcept;
    Buffer& operator=(Buffer&& o) noexcept;
    cl_mem get() const noexcept { return mem_; }
    size_t bytes() const noexcept { return bytes_; }

private:
    cl_mem mem_ = nullptr;
    size_t bytes_ = 0;
};

class Blob {
public:
    Blob() = default;
    Blob(const Context& ctx, int n, int c, int h, int w) { Reshape(ctx, n, c, h, w); }
    Blob(Blob&&) = default;
    Blob& operator=(Blob&&) = default;

    // Sets the shape (each dim >= 1); reallocates data and diff only when the count grows.
    // Contents are undefined after a change of shape.
    void Reshape(const Context& ctx, int n, int c, int h, int w);

    int num() const { return shape_[0]; }
    int channels() const { return shape_[1]; }
    int height() const { return shape_[2]; }
    int width() const { return shape_[3]; }
    size_t count() const { return static_cast<size_t>(shape_[0]) * shape_[1] * shape_[2] * shape_[3]; }
    size_t bytes() const { return count() * sizeof(float); }
    bool empty() const { return count() == 0; }

    cl_mem data() const { return data_.get(); }
    cl_mem diff() const { return diff_.get(); }
    // The packed NCHW FLOAT descriptor of the shape (valid after Reshape).
    cldnnTensorDescriptor_t desc() const { return desc_.get(); }

    // Blocking copies between the host and data (or diff); host holds count() floats.
    void Upload(const Context& ctx, const float* host, bool to_diff = false) const;
    void Download(const Context& ctx, float* host, bool from_diff = false) const;
    std::vector<float> Download(const Context& ctx, bool from_diff = false) const;
    // Every value of data (or diff) set to `value`, enqueued (cldnnSetTensor).
    void Fill(const Context& ctx, float value, bool diff = false) const;

private:
    int shape_[4] = {0, 0, 0, 0};
    Buffer data_, diff_;
    cldnn::tensor_descriptor desc_;
};

}  // namespace caffe_cl

#endif  // CLDNN_EXAMPLES_CAFFE_BLOB_HPP_
