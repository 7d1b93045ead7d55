// blob.cpp: Context, Buffer and Blob of the Caffe-style layer set (blob.hpp says what they are).
#include "blob.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace caffe_cl {

void check_cl(cl_int err, const char* what) {
    if (err != CL_SUCCESS) throw std::runtime_error(std::string(what) + " failed with OpenCL error " + std::to_string(err));
}

Context Context::from(cldnnHandle_t h) {
    Context c;
    c.handle = h;
    cldnn::check(cldnnGetQueue(h, &c.queue));
    check_cl(clGetCommandQueueInfo(c.queue, CL_QUEUE_CONTEXT, sizeof c.context, &c.context, nullptr),
             "clGetCommandQueueInfo");
    return c;
}

void Context::finish() const { check_cl(clFinish(queue), "clFinish"); }

Buffer::Buffer(const Context& ctx, size_t bytes) : bytes_(bytes) {
    if (bytes == 0) return;
    cl_int err = CL_SUCCESS;
    mem_ = clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    check_cl(err, "clCreateBuffer");
}

Buffer::~Buffer() {
    if (mem_) clReleaseMemObject(mem_);
}

Buffer::Buffer(Buffer&& o) noexcept : mem_(o.mem_), bytes_(o.bytes_) {
    o.mem_ = nullptr;
    o.bytes_ = 0;
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
    if (this != &o) {
        if (mem_) clReleaseMemObject(mem_);
        mem_ = std::exchange(o.mem_, nullptr);
        bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
}

void Blob::Reshape(const Context& ctx, int n, int c, int h, int w) {
    desc_.set_4d(CLDNN_TENSOR_NCHW, CLDNN_DATA_FLOAT, n, c, h, w);  // rejects dims < 1
    shape_[0] = n;
    shape_[1] = c;
    shape_[2] = h;
    shape_[3] = w;
    if (bytes() > data_.bytes()) {
        data_ = Buffer(ctx, bytes());
        diff_ = Buffer(ctx, bytes());
    }
}

void Blob::Upload(const Context& ctx, const float* host, bool to_diff) const {
    check_cl(clEnqueueWriteBuffer(ctx.queue, to_diff ? diff() : data(), CL_TRUE, 0, bytes(), host, 0, nullptr, nullptr),
             "clEnqueueWriteBuffer");
}

void Blob::Download(const Context& ctx, float* host, bool from_diff) const {
    check_cl(clEnqueueReadBuffer(ctx.queue, from_diff ? diff() : data(), CL_TRUE, 0, bytes(), host, 0, nullptr, nullptr),
             "clEnqueueReadBuffer");
}

std::vector<float> Blob::Download(const Context& ctx, bool from_diff) const {
    std::vector<float> host(count());
    Download(ctx, host.data(), from_diff);
    return host;
}

void Blob::Fill(const Context& ctx, float value, bool diff) const {
    cldnn::check(cldnnSetTensor(ctx.handle, desc(), diff ? this->diff() : data(), 0, &value));
}

}  // namespace caffe_cl
