"""Builds cldnn_torch: PyTorch's PrivateUse1 backend ("ocl") on cldnn.

libcldnn and include/cldnn.h come from, in order: CLDNN_ROOT (an install prefix with include/ and
lib/, or a source tree with include/ and build/), else this source tree (../../include and
../../build). Install with `pip install --no-build-isolation ./integrations/pytorch`.
"""
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

HERE = os.path.dirname(os.path.abspath(__file__))


def find_cldnn():
    root = os.environ.get("CLDNN_ROOT") or os.path.normpath(os.path.join(HERE, "..", ".."))
    include = os.path.join(root, "include")
    for libdir in ("build", "lib", "lib64", os.path.join("lib", "x86_64-linux-gnu")):
        path = os.path.join(root, libdir)
        if os.path.exists(os.path.join(path, "libcldnn.so")):
            if not os.path.exists(os.path.join(include, "cldnn.h")):
                break
            return include, path
    raise RuntimeError(
        "libcldnn.so and include/cldnn.h not found under %s: build cldnn first "
        "(cmake -S . -B build && cmake --build build) or set CLDNN_ROOT to its prefix" % root)


class BuildWithSharedStdlib(BuildExtension):
    """PyTorch's build, then a check that the extension links libstdc++ dynamically. A compiler
    that links it statically (a wrapper adding -static-libstdc++, as the GPU machine's default CXX
    /opt/gcc/bin/g++ does) gives the extension a second copy of libstdc++ whose locale facet ids do
    not match the process's: the first number formatted into a stream then crashes (seen as a
    segfault in the first convolution). Failing the build says so instead."""

    def build_extension(self, ext):
        super().build_extension(ext)
        path = self.get_ext_fullpath(ext.name)
        with open(path, "rb") as f:
            if b"libstdc++.so.6" not in f.read():
                os.remove(path)
                raise RuntimeError(
                    "%s does not link libstdc++.so.6 dynamically: the compiler (CXX=%s) links it statically, "
                    "which crashes inside torch's process; build with the system compiler, e.g. CXX=/usr/bin/g++"
                    % (path, os.environ.get("CXX", "c++")))


include_dir, lib_dir = find_cldnn()
sources = sorted(os.path.join("csrc", f) for f in os.listdir(os.path.join(HERE, "csrc")) if f.endswith(".cpp"))

setup(
    name="cldnn_torch",
    version="0.1.0",
    description="PyTorch device 'ocl' on the cldnn OpenCL primitives",
    packages=["cldnn_torch"],
    ext_modules=[
        CppExtension(
            "cldnn_torch._C",
            sources,
            include_dirs=[include_dir, os.path.join(HERE, "csrc")],
            library_dirs=[lib_dir],
            libraries=["cldnn", "OpenCL"],
            runtime_library_dirs=[lib_dir],
            define_macros=[("CL_TARGET_OPENCL_VERSION", "120")],
            extra_compile_args=["-O2", "-Wall", "-Wno-unused-parameter"],
        )
    ],
    cmdclass={"build_ext": BuildWithSharedStdlib},
    python_requires=">=3.8",
)
