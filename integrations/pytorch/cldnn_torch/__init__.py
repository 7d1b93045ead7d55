"""PyTorch device "ocl": OpenCL through cldnn's primitives.

``import cldnn_torch`` renames PyTorch's PrivateUse1 backend to ``ocl`` and registers ``torch.ocl``,
so ``torch.device("ocl")``, ``tensor.to("ocl")``, ``model.to("ocl")`` and ``tensor.is_ocl`` work.
``CLDNN_DEVICE`` picks the OpenCL device (as for every cldnn program); ``CLDNN_TORCH_FALLBACK=warn``
names each op that falls back to the CPU, ``=error`` raises instead.
"""
import types

import torch

from . import _C

__all__ = ["device_count", "is_available", "synchronize", "current_device", "set_device",
           "memory_allocated", "memory_reserved", "max_memory_allocated", "empty_cache",
           "reset_peak_memory_stats", "manual_seed", "manual_seed_all", "get_device_name"]


def device_count():
    return _C.device_count()


def is_available():
    return _C.device_count() > 0


def synchronize(device=None):
    _C.synchronize()


def current_device():
    return 0


def set_device(device):
    index = torch.device(device).index if not isinstance(device, int) else device
    if index not in (None, 0):
        raise RuntimeError("ocl: device %d does not exist (one device; CLDNN_DEVICE picks it)" % index)


def get_device_name(device=None):
    return _C.device_name()


def memory_allocated(device=None):
    return _C.memory_allocated()


def memory_reserved(device=None):
    return _C.memory_reserved()


def max_memory_allocated(device=None):
    return _C.max_memory_allocated()


def reset_peak_memory_stats(device=None):
    _C.reset_peak_memory_stats()


def empty_cache():
    _C.empty_cache()


def manual_seed(seed):
    # The device draws its random numbers from the CPU generator (parameter init, dropout seeds);
    # torch.manual_seed calls this after seeding it, so this must not call torch.manual_seed.
    torch.default_generator.manual_seed(int(seed))


manual_seed_all = manual_seed


def is_initialized():
    return True


def _lazy_init():
    pass


def _is_in_bad_fork():
    return False


def get_rng_state(device=None):
    return torch.get_rng_state()


def set_rng_state(state, device=None):
    torch.set_rng_state(state)


def _register():
    if getattr(torch, "ocl", None) is not None:
        return
    torch.utils.rename_privateuse1_backend("ocl")
    module = types.ModuleType("torch.ocl")
    for name in __all__ + ["is_initialized", "_lazy_init", "_is_in_bad_fork", "get_rng_state", "set_rng_state"]:
        setattr(module, name, globals()[name])
    torch._register_device_module("ocl", module)
    torch.utils.generate_methods_for_privateuse1_backend(for_tensor=True, for_module=True, for_storage=True)


_register()
