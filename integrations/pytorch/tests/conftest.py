"""Shared helpers: every test runs an op on the ocl device and on the CPU and compares."""
import pytest
import torch

import cldnn_torch  # noqa: F401  (registers the ocl device)

DEV = torch.device("ocl")


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)
    yield


def to_dev(x):
    if isinstance(x, torch.Tensor):
        y = x.detach().to(DEV)
        y.requires_grad_(x.requires_grad)
        return y
    return x


def run_both(fn, *inputs, grad=True, atol=1e-5, rtol=1.3e-6, grad_atol=None, grad_rtol=None):
    """fn on CPU copies and on ocl copies of inputs: outputs equal, and with grad, the gradients of
    every floating input that requires it after a backward with the same random upstream gradient."""
    cpu = [x.detach().clone().requires_grad_(grad and x.is_floating_point()) if isinstance(x, torch.Tensor) else x
           for x in inputs]
    ocl = [to_dev(x) for x in cpu]
    out_c = fn(*cpu)
    out_o = fn(*ocl)
    assert out_o.device.type == "ocl"
    torch.testing.assert_close(out_o.cpu(), out_c, atol=atol, rtol=rtol)
    if grad and out_c.requires_grad:
        g = torch.randn_like(out_c)
        out_c.backward(g)
        out_o.backward(g.to(DEV))
        for a, b in zip(cpu, ocl):
            if isinstance(a, torch.Tensor) and a.requires_grad:
                assert b.grad is not None and b.grad.device.type == "ocl"
                torch.testing.assert_close(b.grad.cpu(), a.grad, atol=grad_atol or atol * 10,
                                           rtol=grad_rtol or rtol * 10)
    return out_o
