"""The device runtime: copies, views, allocator statistics, fallback, errors."""
import os
import subprocess
import sys

import pytest
import torch

import cldnn_torch  # noqa: F401
from conftest import DEV


def test_device_module():
    assert torch.ocl.is_available() and torch.ocl.device_count() == 1
    assert torch.ocl.current_device() == 0
    torch.ocl.set_device(0)
    with pytest.raises(RuntimeError):
        torch.ocl.set_device(1)
    t = torch.ones(2, device="ocl")
    assert t.is_ocl and t.device == torch.device("ocl", 0)
    torch.ocl.synchronize()
    assert isinstance(torch.ocl.get_device_name(), str)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32,
                                   torch.bool, torch.uint8])
def test_copy_roundtrip(dtype):
    x = (torch.randn(5, 7) * 10).to(dtype)
    y = x.to(DEV)
    assert y.dtype == dtype
    assert torch.equal(y.cpu(), x)
    # strided views in both directions
    assert torch.equal(y.t().cpu(), x.t())
    assert torch.equal(y[1:4, ::2].cpu(), x[1:4, ::2])
    assert torch.equal(y.t().contiguous().cpu(), x.t().contiguous())
    z = torch.zeros(7, 5, dtype=dtype, device=DEV)
    z.t()[1:3].copy_(x[1:3])
    ref = torch.zeros(7, 5, dtype=dtype)
    ref.t()[1:3].copy_(x[1:3])
    assert torch.equal(z.cpu(), ref)


def test_expand_and_dtype_copies():
    x = torch.randn(3, 1)
    y = x.to(DEV).expand(3, 4).contiguous()
    assert torch.equal(y.cpu(), x.expand(3, 4))
    h = x.to(DEV).half()
    assert h.dtype == torch.float16 and torch.equal(h.cpu(), x.half())
    assert torch.equal(h.float().cpu(), x.half().float())


def test_views_fill_item():
    x = torch.arange(24, dtype=torch.float32)
    y = x.to(DEV)
    assert torch.equal(y.view(2, 3, 4).permute(2, 0, 1).contiguous().cpu(), x.view(2, 3, 4).permute(2, 0, 1))
    assert torch.equal(y.reshape(4, 6)[:, 1].cpu(), x.reshape(4, 6)[:, 1])
    assert y[5].item() == 5.0
    y.view(4, 6)[:, 2].fill_(-1.5)
    x.view(4, 6)[:, 2].fill_(-1.5)
    assert torch.equal(y.cpu(), x)
    y.zero_()
    assert torch.count_nonzero(y.cpu()) == 0
    i = torch.tensor([3, 1, 2]).to(DEV)
    i.fill_(7)
    assert torch.equal(i.cpu(), torch.tensor([7, 7, 7]))


def test_resize():
    y = torch.arange(6, dtype=torch.float32).to(DEV)
    y.resize_(12)
    assert torch.equal(y[:6].cpu(), torch.arange(6, dtype=torch.float32))
    assert y.shape == (12,)


def test_allocator_stats_return_to_zero():
    torch.ocl.synchronize()
    base = torch.ocl.memory_allocated()
    a = torch.randn(1000, device="cpu").to(DEV)
    b = torch.empty(300, 17, device=DEV)
    c = a * 2
    assert torch.ocl.memory_allocated() >= base + 4000 + 300 * 17 * 4
    del a, b, c
    assert torch.ocl.memory_allocated() == base
    reserved = torch.ocl.memory_reserved()
    assert reserved > 0
    torch.ocl.empty_cache()
    assert torch.ocl.memory_reserved() <= reserved


def test_autograd_graph_frees_memory():
    base = torch.ocl.memory_allocated()
    w = torch.randn(8, 8, device=DEV, requires_grad=True)
    for _ in range(3):
        loss = (torch.relu(w @ w) * 2).sum()
        loss.backward()
    del loss
    w.grad = None
    del w
    assert torch.ocl.memory_allocated() == base


def test_mixed_devices_name_the_op():
    a = torch.randn(4, 4, device=DEV)
    b = torch.randn(4, 4)
    with pytest.raises(RuntimeError, match="mm"):
        torch.mm(a, b)
    with pytest.raises(RuntimeError, match="add"):
        a + b
    with pytest.raises(RuntimeError, match="convolution"):
        torch.nn.functional.conv2d(torch.randn(1, 4, 5, 5, device=DEV), torch.randn(2, 4, 3, 3))


def test_unsupported_dtype_is_computed_by_the_fallback():
    a = torch.arange(6).to(DEV)
    assert torch.equal((a * 3 + 1).cpu(), torch.arange(6) * 3 + 1)


def _run(code, mode):
    env = dict(os.environ, CLDNN_TORCH_FALLBACK=mode)
    return subprocess.run([sys.executable, "-c", "import torch, cldnn_torch\n" + code], env=env,
                          capture_output=True, text=True, timeout=120)


def test_fallback_warn_names_the_op_once():
    r = _run("x = torch.randn(5).to('ocl')\nprint(torch.cumsum(x, 0).cpu().shape)\nprint(torch.cumsum(x, 0).shape)",
             "warn")
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("aten::cumsum") == 1, r.stderr


def test_fallback_error_raises_naming_the_op():
    r = _run("x = torch.randn(5).to('ocl')\ntorch.cumsum(x, 0)", "error")
    assert r.returncode != 0
    assert "aten::cumsum" in r.stderr and "CLDNN_TORCH_FALLBACK=error" in r.stderr, r.stderr
