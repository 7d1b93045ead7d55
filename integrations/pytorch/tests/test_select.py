"""Comparisons, where, var / std, index_select and embedding (forward and backward) against the CPU,
with CLDNN_TORCH_FALLBACK=error so none of them may fall back."""
import os
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

from conftest import DEV, run_both


DTYPES = [torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.bool]


def rand(shape, dtype, g):
    if dtype == torch.bool:
        return torch.rand(shape, generator=g) > 0.5
    if dtype.is_floating_point:
        x = torch.randn(shape, generator=g).to(dtype)
        x.view(-1)[::7] = 0.5  # ties for ==, <=, >=
        return x
    return torch.randint(-3, 4, shape, generator=g).to(dtype)


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_comparisons(op, dtype):
    g = torch.Generator().manual_seed(1)
    a = rand((4, 1, 6), dtype, g)
    b = rand((3, 6), dtype, g)
    fn = getattr(torch, op)
    out = fn(a.to(DEV), b.to(DEV))  # broadcast both ways
    assert out.device.type == "ocl" and out.dtype == torch.bool
    assert torch.equal(out.cpu(), fn(a, b))
    s = 0.5 if dtype.is_floating_point else 1
    assert torch.equal(fn(a.to(DEV), s).cpu(), fn(a, s))  # .Scalar
    assert torch.equal(fn(a.to(DEV), torch.tensor(s)).cpu(), fn(a, torch.tensor(s)))  # CPU 0-dim operand
    t = a.to(DEV).transpose(0, 2)  # non-contiguous
    assert torch.equal(fn(t, s).cpu(), fn(a.transpose(0, 2), s))
    o = torch.empty(0, dtype=torch.bool, device=DEV)  # .out, resized
    fn(a.to(DEV), b.to(DEV), out=o)
    assert torch.equal(o.cpu(), fn(a, b))


def test_comparisons_promote_and_nan():
    x = torch.tensor([1.0, float("nan"), 2.5, -0.0, float("inf")])
    i = torch.tensor([1, 2, 2, 0, 5])
    for op in (torch.eq, torch.ne, torch.lt, torch.ge):
        assert torch.equal(op(x.to(DEV), i.to(DEV)).cpu(), op(x, i))  # float against int64: compared as float
        assert torch.equal(op(i.to(DEV), 2.5).cpu(), op(i, 2.5))  # int64 against a float scalar
        assert torch.equal(op(x.to(DEV), x.to(DEV)).cpu(), op(x, x))  # NaN != NaN


@pytest.mark.parametrize("dtype", DTYPES + [torch.float64, torch.uint8])
def test_where(dtype):
    g = torch.Generator().manual_seed(2)
    c = torch.rand(5, 1, 3, generator=g) > 0.4
    a = rand((5, 4, 3), dtype, g) if dtype not in (torch.float64, torch.uint8) else torch.randn(5, 4, 3).to(dtype)
    b = rand((4, 1), dtype, g) if dtype not in (torch.float64, torch.uint8) else torch.randn(4, 1).to(dtype)
    out = torch.where(c.to(DEV), a.to(DEV), b.to(DEV))
    assert out.device.type == "ocl" and out.dtype == dtype
    assert torch.equal(out.cpu(), torch.where(c, a, b))
    if dtype.is_floating_point:
        assert torch.equal(torch.where(c.to(DEV), a.to(DEV), 0.0).cpu(), torch.where(c, a, 0.0))
        assert torch.equal(torch.where(c.to(DEV), -1.5, a.to(DEV)).cpu(), torch.where(c, -1.5, a))


def test_where_backward():
    c = torch.rand(6, 5) > 0.5
    run_both(lambda a, b: torch.where(c.to(a.device), a, b), torch.randn(6, 5), torch.randn(6, 5))
    run_both(lambda a: torch.where(a > 0, a, a * 0.1), torch.randn(6, 5))  # a leaky relu by hand


@pytest.mark.parametrize("dim,keepdim,correction", [(None, False, 1), ((1,), False, 1), ((0, 2), True, 0),
                                                     ((-1,), False, 2)])
def test_var_std(dim, keepdim, correction):
    x = torch.randn(7, 5, 9) * 3 + 2
    run_both(lambda t: torch.var(t, dim=dim, keepdim=keepdim, correction=correction), x, atol=1e-5, rtol=1e-5)
    run_both(lambda t: torch.std(t, dim=dim, keepdim=keepdim, correction=correction), x, atol=1e-5, rtol=1e-5)


def test_var_of_one_element_is_nan():
    assert torch.isnan(torch.var(torch.ones(1, 3).to(DEV), dim=0).cpu()).all()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.bool])
def test_index_select(dtype):
    g = torch.Generator().manual_seed(3)
    x = rand((5, 6, 7), dtype, g)
    for dim in range(3):
        idx = torch.randint(-x.size(dim), x.size(dim), (9,), generator=g)
        idx[0] = x.size(dim) - 1
        for it in (torch.int64, torch.int32):
            got = torch.index_select(x.to(DEV), dim, idx.to(it).to(DEV))
            assert torch.equal(got.cpu(), torch.index_select(x, dim, idx.to(it) % x.size(dim)))
    assert torch.equal(torch.index_select(x.to(DEV), 1, torch.tensor([], dtype=torch.long, device=DEV)).cpu(),
                       x[:, :0])


@pytest.mark.parametrize("padding_idx", [None, 2])
def test_embedding(padding_idx):
    """Forward (index_select) and backward (repeated indices accumulate) against the CPU."""
    g = torch.Generator().manual_seed(4)
    w = torch.randn(11, 8, generator=g)
    idx = torch.randint(0, 11, (4, 13), generator=g)
    idx[0, :5] = 3  # repeats
    idx[1, 0] = 2
    run_both(lambda weight: F.embedding(idx.to(weight.device), weight, padding_idx=padding_idx), w,
             atol=1e-5, rtol=1e-5)


def test_embedding_module_trains():
    torch.manual_seed(5)
    emb = torch.nn.Embedding(20, 4)
    ref = torch.nn.Embedding(20, 4)
    ref.load_state_dict(emb.state_dict())
    emb = emb.to(DEV)
    idx = torch.randint(0, 20, (6, 5))
    for m, dev in ((emb, DEV), (ref, "cpu")):
        opt = torch.optim.SGD(m.parameters(), lr=0.5)
        for _ in range(2):
            loss = m(idx.to(dev)).square().mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.testing.assert_close(emb.weight.detach().cpu(), ref.weight.detach(), atol=1e-6, rtol=1e-5)


def test_index_out_of_range_raises_at_synchronization():
    x = torch.randn(4, 3).to(DEV)
    y = torch.index_select(x, 0, torch.tensor([1, 4], device=DEV))  # 4 is past the end
    with pytest.raises(IndexError, match="index out of range"):
        y.cpu()
    torch.ocl.synchronize()  # reported once
    assert torch.equal(torch.index_select(x, 0, torch.tensor([3], device=DEV)).cpu(), x.cpu()[3:])


def test_no_fallback():
    """The ops above run natively: the same calls under CLDNN_TORCH_FALLBACK=error."""
    code = """
import torch, torch.nn.functional as F, cldnn_torch
x = torch.randn(6, 5).to("ocl")
i = torch.randint(0, 6, (7,)).to("ocl")
for r in (x == 0.5, x != x, x < 1, x <= 0, x > i[:5].float(), x >= 0, torch.where(x > 0, x, 0.0),
          x.var(dim=1), x.std(), torch.index_select(x, 0, i), torch.eq(i, 3), torch.where(i > 2, i, 0)):
    r.cpu()
w = torch.randn(6, 5).to("ocl").requires_grad_()
F.embedding(i, w).sum().backward()
w.grad.cpu()
print("ok")
"""
    env = dict(os.environ, CLDNN_TORCH_FALLBACK="error")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_ignore_index_and_half(reduction):
    """The class mask is built on the device: ignored targets, weights, half logits."""
    g = torch.Generator().manual_seed(6)
    x = torch.randn(9, 5, generator=g)
    t = torch.randint(0, 5, (9,), generator=g)
    t[2] = t[7] = -100
    w = torch.rand(5, generator=g) + 0.5
    run_both(lambda a: F.cross_entropy(a, t.to(a.device), weight=w.to(a.device), reduction=reduction), x,
             atol=1e-5, rtol=1e-5)
    got = F.cross_entropy(x.half().to(DEV), t.to(DEV), reduction=reduction)
    torch.testing.assert_close(got.cpu().float(), F.cross_entropy(x.half().float(), t, reduction=reduction),
                               atol=2e-3, rtol=2e-3)


def test_cross_entropy_all_ignored_is_nan():
    t = torch.full((4,), -100)
    assert torch.isnan(F.cross_entropy(torch.randn(4, 3).to(DEV), t.to(DEV)).cpu())


def test_cross_entropy_target_out_of_range_raises_at_synchronization():
    loss = F.cross_entropy(torch.randn(3, 4).to(DEV), torch.tensor([0, 4, 1]).to(DEV))
    with pytest.raises(IndexError, match="index out of range"):
        loss.item()
