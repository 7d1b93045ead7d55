"""Every native op against PyTorch on the CPU, forward and backward (autograd)."""
import pytest
import torch
import torch.nn.functional as F

from conftest import DEV, run_both

HALF_TYPES = [torch.float16, torch.bfloat16]


# ------------------------------------------------------------------------------ element-wise
@pytest.mark.parametrize("op", [torch.add, torch.sub, torch.mul, torch.div])
@pytest.mark.parametrize("shapes", [((3, 5), (3, 5)), ((2, 3, 4), (4,)), ((4, 1), (1, 6)), ((5,), ())])
def test_binary_broadcast(op, shapes):
    a = torch.randn(shapes[0])
    b = torch.randn(shapes[1]) + (3 if op is torch.div else 0)
    run_both(op, a, b)


@pytest.mark.parametrize("op", [torch.add, torch.sub, torch.mul, torch.div])
def test_binary_scalars_and_views(op):
    a = torch.randn(6, 4)
    run_both(lambda x: op(x.t(), 2.5), a)
    run_both(lambda x: op(x, 3), a)          # not a power of two for div
    run_both(lambda x, y: op(x[::2], y.t()[1:4]), a, torch.randn(4, 6) + 3)


def test_add_alpha_and_inplace():
    a, b = torch.randn(4, 5), torch.randn(5)
    run_both(lambda x, y: torch.add(x, y, alpha=-0.5), a, b)
    run_both(lambda x, y: torch.sub(x, y, alpha=2), a, b)
    x, y = a.to(DEV), b.to(DEV)
    x.add_(y, alpha=3)
    x.mul_(y)
    x.div_(4)
    x.sub_(1)
    torch.testing.assert_close(x.cpu(), ((a + 3 * b) * b / 4) - 1)
    out = torch.empty(0, device=DEV)
    torch.mul(x, y, out=out)
    torch.testing.assert_close(out.cpu(), x.cpu() * b)


@pytest.mark.parametrize("dtype", HALF_TYPES)
def test_binary_half(dtype):
    a, b = torch.randn(8, 3).to(dtype), torch.randn(3).to(dtype)
    for op in (torch.add, torch.mul):
        torch.testing.assert_close(op(a.to(DEV), b.to(DEV)).cpu(), op(a.float(), b.float()).to(dtype))


# ------------------------------------------------------------------------------- activations
@pytest.mark.parametrize("fn", [F.relu, torch.sigmoid, torch.tanh, F.gelu, F.silu,
                                lambda x: F.leaky_relu(x, 0.1), F.relu6, F.elu, torch.abs],
                         ids=["relu", "sigmoid", "tanh", "gelu", "silu", "leaky_relu", "relu6", "elu", "abs"])
def test_activation(fn):
    x = torch.randn(3, 4, 5) * 3
    run_both(fn, x, atol=2e-5, rtol=1e-5)
    run_both(lambda t: fn(t.transpose(0, 2)), x, atol=2e-5, rtol=1e-5)


def test_neg():
    run_both(lambda x: -x.t(), torch.randn(3, 4))


def test_relu_inplace():
    x = torch.randn(4, 6)
    y = x.to(DEV)
    y.relu_()
    assert torch.equal(y.cpu(), x.relu())


@pytest.mark.parametrize("dtype", HALF_TYPES)
def test_activation_half(dtype):
    x = torch.randn(64).to(dtype)
    torch.testing.assert_close(torch.sigmoid(x.to(DEV)).cpu(), torch.sigmoid(x.float()).to(dtype))


# ----------------------------------------------------------------------------------- softmax
@pytest.mark.parametrize("fn", [F.softmax, F.log_softmax])
@pytest.mark.parametrize("shape,dim", [((4, 10), 1), ((2, 3, 5), 1), ((2, 3, 5), -1), ((6,), 0)])
def test_softmax(fn, shape, dim):
    run_both(lambda x: fn(x, dim=dim), torch.randn(shape) * 3)


# ------------------------------------------------------------------------------------- GEMM
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_mm(ta, tb):
    a = torch.randn(7, 5) if not ta else torch.randn(5, 7)
    b = torch.randn(5, 6) if not tb else torch.randn(6, 5)
    run_both(lambda x, y: torch.mm(x.t() if ta else x, y.t() if tb else y), a, b, atol=1e-5, rtol=1e-5)


def test_addmm_linear_bmm():
    run_both(lambda b, x, y: torch.addmm(b, x, y, beta=0.5, alpha=2), torch.randn(6), torch.randn(4, 5),
             torch.randn(5, 6), atol=1e-5, rtol=1e-5)
    run_both(F.linear, torch.randn(3, 8), torch.randn(4, 8), torch.randn(4), atol=1e-5, rtol=1e-5)
    run_both(F.linear, torch.randn(2, 3, 8), torch.randn(4, 8), torch.randn(4), atol=1e-5, rtol=1e-5)
    run_both(torch.bmm, torch.randn(3, 4, 5), torch.randn(3, 5, 2), atol=1e-5, rtol=1e-5)
    run_both(lambda x, y: torch.bmm(x, y.transpose(1, 2)), torch.randn(3, 4, 5), torch.randn(3, 2, 5),
             atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("dtype", HALF_TYPES)
def test_mm_half(dtype):
    a, b = torch.randn(8, 16).to(dtype), torch.randn(16, 4).to(dtype)
    torch.testing.assert_close(torch.mm(a.to(DEV), b.to(DEV)).cpu().float(), (a.float() @ b.float()),
                               atol=1e-2, rtol=1e-2)


# ---------------------------------------------------------------------------------- reductions
@pytest.mark.parametrize("dim,keepdim", [(None, False), (1, False), ((0, 2), True), (-1, True)])
def test_sum_mean(dim, keepdim):
    x = torch.randn(3, 4, 5)
    if dim is None:
        run_both(torch.sum, x, atol=1e-5, rtol=1e-5)
        run_both(torch.mean, x, atol=1e-5, rtol=1e-5)
    else:
        run_both(lambda t: t.sum(dim, keepdim=keepdim), x, atol=1e-5, rtol=1e-5)
        run_both(lambda t: t.mean(dim, keepdim=keepdim), x, atol=1e-5, rtol=1e-5)
    run_both(lambda t: t.transpose(0, 2).sum(1), x, atol=1e-5, rtol=1e-5)


def test_max_argmax():
    x = torch.randn(4, 7)
    y = x.to(DEV)
    v, i = y.max(1)
    vc, ic = x.max(1)
    assert torch.equal(v.cpu(), vc) and torch.equal(i.cpu(), ic)
    assert torch.equal(y.argmax(0).cpu(), x.argmax(0))
    assert y.argmax().item() == x.argmax().item()
    assert torch.equal(y.argmax(1, keepdim=True).cpu(), x.argmax(1, keepdim=True))
    assert y.max().item() == x.max().item()
    torch.testing.assert_close(y.amax(0).cpu(), x.amax(0))
    torch.testing.assert_close(y.amin(1).cpu(), x.amin(1))


# ------------------------------------------------------------------------------- convolution
@pytest.mark.parametrize("stride,padding,dilation,groups", [(1, 1, 1, 1), (2, 0, 1, 1), (1, 1, 2, 1), (1, 1, 1, 2)])
def test_conv2d(stride, padding, dilation, groups):
    x, w, b = torch.randn(2, 4, 7, 7), torch.randn(6, 4 // groups, 3, 3), torch.randn(6)
    run_both(lambda x, w, b: F.conv2d(x, w, b, stride, padding, dilation, groups), x, w, b, atol=1e-4, rtol=1e-4)


def test_conv2d_noncontiguous_input_no_bias():
    x, w = torch.randn(2, 5, 5, 3), torch.randn(4, 3, 1, 1)
    run_both(lambda x, w: F.conv2d(x.permute(0, 3, 1, 2), w), x, w, atol=1e-4, rtol=1e-4)


def test_conv_algo_cache():
    from cldnn_torch import _C
    x, w = torch.randn(1, 2, 6, 6, device=DEV), torch.randn(3, 2, 3, 3, device=DEV)
    F.conv2d(x, w)
    n = _C.conv_algo_cache_size()
    F.conv2d(x, w)
    assert _C.conv_algo_cache_size() == n


# -------------------------------------------------------------------------------- batch norm
@pytest.mark.parametrize("shape", [(4, 3, 5, 5), (6, 3)])
def test_batch_norm_training(shape):
    x, w, b = torch.randn(shape) * 2 + 1, torch.rand(3) + 0.5, torch.randn(3)
    rm_c, rv_c = torch.zeros(3), torch.ones(3)
    rm_o, rv_o = rm_c.to(DEV), rv_c.to(DEV)
    run_both(lambda x, w, b: F.batch_norm(x, rm_c if x.device.type == "cpu" else rm_o,
                                          rv_c if x.device.type == "cpu" else rv_o, w, b, True, 0.1, 1e-5),
             x, w, b, atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(rm_o.cpu(), rm_c)
    torch.testing.assert_close(rv_o.cpu(), rv_c)


def test_batch_norm_inference():
    x, w, b = torch.randn(2, 3, 4, 4), torch.rand(3) + 0.5, torch.randn(3)
    rm, rv = torch.randn(3), torch.rand(3) + 0.5
    run_both(lambda x, w, b, m, v: F.batch_norm(x, m, v, w, b, False, 0.1, 1e-5), x, w, b, rm, rv, grad=False,
             atol=1e-5, rtol=1e-5)


# ----------------------------------------------------------------------------------- pooling
@pytest.mark.parametrize("k,s,p", [(2, 2, 0), (3, 2, 1), (3, 1, 1)])
def test_max_pool2d(k, s, p):
    run_both(lambda x: F.max_pool2d(x, k, s, p), torch.randn(2, 3, 8, 8))


@pytest.mark.parametrize("k,s,p,include", [(2, 2, 0, True), (3, 2, 1, True), (3, 2, 1, False)])
def test_avg_pool2d(k, s, p, include):
    run_both(lambda x: F.avg_pool2d(x, k, s, p, count_include_pad=include), torch.randn(2, 3, 8, 8))


@pytest.mark.parametrize("out", [(1, 1), (2, 3), (3, 3)])
def test_adaptive_avg_pool2d(out):
    run_both(lambda x: F.adaptive_avg_pool2d(x, out), torch.randn(2, 3, 6, 9), atol=1e-5, rtol=1e-5)


# ------------------------------------------------------------------------------- layer norm
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm(affine):
    x = torch.randn(3, 4, 8)
    if affine:
        run_both(lambda x, w, b: F.layer_norm(x, (8,), w, b), x, torch.rand(8) + 0.5, torch.randn(8),
                 atol=1e-4, rtol=1e-4)
    else:
        run_both(lambda x: F.layer_norm(x, (4, 8)), x, atol=1e-4, rtol=1e-4)


# -------------------------------------------------------------------------------------- losses
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy(reduction):
    x, t = torch.randn(6, 5), torch.tensor([0, 4, 2, 2, 1, 3])
    run_both(lambda x, t: F.cross_entropy(x, t, reduction=reduction), x, t, atol=1e-5, rtol=1e-5)
    t2 = torch.tensor([0, -100, 2, 2, -100, 3])
    run_both(lambda x, t: F.nll_loss(F.log_softmax(x, 1), t, reduction=reduction), x, t2, atol=1e-5, rtol=1e-5)


def test_nll_loss_weight():
    x, t, w = torch.randn(6, 5), torch.tensor([0, 4, 2, 2, 1, 3]), torch.rand(5) + 0.1
    run_both(lambda x, t: F.nll_loss(x, t, w.to(x.device)), x, t, atol=1e-5, rtol=1e-5)


# -------------------------------------------------------------------------- optimizer updates
def test_optimizer_arithmetic():
    a, b, c = torch.randn(4, 5), torch.randn(4, 5), torch.rand(4, 5) + 0.5
    run_both(torch.sqrt, c)
    run_both(lambda x, y, z: torch.addcmul(x, y, z, value=0.3), a, b, c)
    run_both(lambda x, y, z: torch.addcdiv(x, y, z, value=-0.7), a, b, c)
    x, y = a.to(DEV), b.to(DEV)
    x.lerp_(y, 0.25)
    x.addcmul_(y, y, value=0.5)
    x.addcdiv_(y, c.to(DEV), value=2)
    ref = a.lerp(b, 0.25).addcmul(b, b, value=0.5).addcdiv(b, c, value=2)
    torch.testing.assert_close(x.cpu(), ref)


@pytest.mark.parametrize("opt", ["sgd", "adamw"])
def test_optimizer_step(opt):
    params = [torch.randn(5, 3), torch.randn(7)]
    grads = [torch.randn_like(p) for p in params]
    results = []
    for dev in ("cpu", DEV):
        ps = [p.detach().to(dev).clone().requires_grad_() for p in params]
        o = (torch.optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=1e-2) if opt == "sgd"
             else torch.optim.AdamW(ps, lr=0.01, weight_decay=1e-2))
        for _ in range(3):
            for p, g in zip(ps, grads):
                p.grad = g.to(dev)
            o.step()
        results.append([p.detach().cpu() for p in ps])
    for c, o in zip(*results):
        torch.testing.assert_close(o, c, atol=1e-5, rtol=1e-5)


def test_cat_stack():
    a, b = torch.randn(2, 3), torch.randn(4, 3)
    run_both(lambda x, y: torch.cat([x, y], 0), a, b)
    run_both(lambda x, y: torch.cat([x.t(), y.t()], 1), a, b)
    run_both(lambda x, y: torch.stack([x, y[:2]], 1), a, b)
    i = torch.arange(5)
    assert torch.equal(torch.cat([i.to(DEV), i.to(DEV)]).cpu(), torch.cat([i, i]))
