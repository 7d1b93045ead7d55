"""torch's foreach ops (the optimizers' multi-tensor updates) against float64 references on the CPU,
the multi-tensor route's launch count, the per-tensor route for what it does not take, and whole
optimizer steps against the CPU."""
import math

import pytest
import torch

from cldnn_torch import _C
from conftest import DEV

# Sizes around the kernel's 256-element work-groups, empty and 0-d tensors, and more tensors than
# one launch takes (at most 32).
SHAPES = [(3,), (0,), (), (255,), (257,), (5, 7), (64, 3, 3, 3), (1,), (4097,), (2, 0, 3)] * 4 + [(1000, 10)]


def make(seed, positive=False):
    g = torch.Generator().manual_seed(seed)
    out = []
    for s in SHAPES:
        t = torch.randn(s, generator=g, dtype=torch.float64)
        out.append(t.abs() + 0.5 if positive else t)
    return out


def lerp(a, b, w):
    return torch.where(torch.as_tensor(w).abs() < 0.5, a + w * (b - a), b - (b - a) * (1 - w))


# name, number of tensor lists, extra arguments, float64 reference of one element-wise result.
CASES = [
    ("add", 1, (1.5,), lambda a, s: a + s),
    ("add", 2, (), lambda a, b: a + b),
    ("add", 2, {"alpha": -0.25}, lambda a, b: a - 0.25 * b),
    ("add", 1, ("list",), lambda a, s: a + s),
    ("sub", 1, (0.75,), lambda a, s: a - s),
    ("sub", 2, {"alpha": 2.0}, lambda a, b: a - 2.0 * b),
    ("sub", 1, ("list",), lambda a, s: a - s),
    ("mul", 1, (0.9,), lambda a, s: a * s),
    ("mul", 2, (), lambda a, b: a * b),
    ("mul", 1, ("list",), lambda a, s: a * s),
    ("div", 1, (3.0,), lambda a, s: a / s),
    ("div", 2, (), lambda a, b: a / b),
    ("div", 1, ("list",), lambda a, s: a / s),
    ("lerp", 2, (0.1,), lambda a, b, w: lerp(a, b, w)),
    ("lerp", 2, (0.8,), lambda a, b, w: lerp(a, b, w)),
    ("lerp", 3, (), lambda a, b, w: lerp(a, b, w)),
    ("addcmul", 3, (), lambda a, b, c: a + b * c),
    ("addcmul", 3, {"value": -0.001}, lambda a, b, c: a - 0.001 * b * c),
    ("addcmul", 3, ("list",), lambda a, b, c, s: a + s * b * c),
    ("addcdiv", 3, {"value": 0.3}, lambda a, b, c: a + 0.3 * (b / c)),
    ("addcdiv", 3, ("list",), lambda a, b, c, s: a + s * (b / c)),
    ("sqrt", 1, (), lambda a: a.sqrt()),
    ("neg", 1, (), lambda a: -a),
]


def scalar_list(n, seed):
    g = torch.Generator().manual_seed(seed)
    return [float(x) for x in (torch.rand(n, generator=g, dtype=torch.float64) + 0.25)]


@pytest.mark.parametrize("inplace", [True, False])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "%s-%d-%s" % (c[0], c[1], c[2]))
def test_foreach_against_float64(case, inplace):
    name, nlists, extra, ref = case
    seed = torch.randint(0, 2**31 - 1, ()).item()
    positive = name in ("sqrt", "div", "addcdiv")
    lists = [make(seed + i, positive and i > 0 or name == "sqrt") for i in range(nlists)]
    if name == "lerp" and nlists == 3:  # weights in [0, 1] on both sides of 0.5
        lists[2] = [t.abs().clamp(max=1.0) for t in lists[2]]
    scalars = scalar_list(len(SHAPES), seed) if extra == ("list",) else None
    args = (scalars,) if scalars is not None else extra if isinstance(extra, tuple) else ()
    kwargs = extra if isinstance(extra, dict) else {}
    ocl = [[t.float().to(DEV) for t in lst] for lst in lists]
    fn = getattr(torch, "_foreach_%s%s" % (name, "_" if inplace else ""))
    before = _C.foreach_launches()
    res = fn(*ocl, *args, **kwargs)
    launches = _C.foreach_launches() - before
    out = ocl[0] if inplace else res
    assert len(out) == len(SHAPES)
    # The float32 inputs the device saw, in float64: the reference's rounding is the output's only.
    ins = [[t.float().double() for t in lst] for lst in lists]
    for i, o in enumerate(out):
        assert o.device.type == "ocl" and o.dtype == torch.float32 and o.shape == SHAPES[i]
        operands = [lst[i] for lst in ins]
        if scalars is not None:
            operands.append(scalars[i])
        elif isinstance(extra, tuple):
            operands.extend(extra)
        want = ref(*operands)
        torch.testing.assert_close(o.cpu().double(), want, rtol=2e-6, atol=1e-6,
                                   msg=lambda m: "seed %d, tensor %d %s: %s" % (seed, i, SHAPES[i], m))
    # The multi-tensor route: a launch takes up to 32 tensors, never one per tensor.
    assert 1 <= launches <= math.ceil(len(SHAPES) / 8), launches


def test_zero_and_aliasing():
    cpu = [torch.randn(s) for s in SHAPES]
    xs = [t.to(DEV) for t in cpu]
    torch._foreach_add_(xs, xs, alpha=2.0)  # each tensor read and written by one launch
    for x, c in zip(xs, cpu):
        torch.testing.assert_close(x.cpu(), c * 3.0)
    before = _C.foreach_launches()
    torch._foreach_zero_(xs)
    assert _C.foreach_launches() > before
    for x in xs:
        assert torch.equal(x.cpu(), torch.zeros(x.shape))


def test_per_tensor_route_for_the_rest():
    """Half, non-contiguous and integer tensors take torch's per-tensor loop and stay right; a length
    mismatch raises torch's error."""
    a = [torch.randn(4, 6), torch.randn(3)]
    b = [torch.randn(6, 4).t(), torch.randn(3)]  # a transposed view
    oa = [t.to(DEV) for t in a]
    ob = [t.to(DEV) for t in b]
    torch._foreach_add_(oa, ob, alpha=0.5)
    for x, y, z in zip(oa, a, b):
        torch.testing.assert_close(x.cpu(), y + 0.5 * z)
    h = [torch.randn(5).half(), torch.randn(7).half()]
    oh = [t.to(DEV) for t in h]
    res = torch._foreach_mul(oh, 0.5)
    for x, y in zip(res, h):
        assert x.dtype == torch.float16
        torch.testing.assert_close(x.cpu(), y * 0.5)
    n = [torch.arange(4), torch.arange(3)]
    on = [t.to(DEV) for t in n]
    torch._foreach_add_(on, 1)
    for x, y in zip(on, n):
        assert torch.equal(x.cpu(), y + 1)
    with pytest.raises(RuntimeError):
        torch._foreach_add_(oa, ob[:1])


@pytest.mark.parametrize("opt", ["sgd", "sgd_nesterov", "adam", "adamw", "rmsprop", "adagrad"])
def test_optimizer_steps(opt):
    """Three steps of a foreach optimizer on ocl against the CPU's per-tensor implementation."""
    make_opt = {
        "sgd": lambda p, f: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-4, foreach=f),
        "sgd_nesterov": lambda p, f: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, foreach=f),
        "adam": lambda p, f: torch.optim.Adam(p, lr=1e-2, foreach=f),
        "adamw": lambda p, f: torch.optim.AdamW(p, lr=1e-2, weight_decay=0.1, foreach=f),
        "rmsprop": lambda p, f: torch.optim.RMSprop(p, lr=1e-2, momentum=0.5, foreach=f),
        "adagrad": lambda p, f: torch.optim.Adagrad(p, lr=1e-1, foreach=f),
    }[opt]
    seed = torch.randint(0, 2**31 - 1, ()).item()
    g = torch.Generator().manual_seed(seed)
    shapes = [(16, 3, 3, 3), (16,), (40, 16), (40,), (3000,)]
    init = [torch.randn(s, generator=g) for s in shapes]
    grads = [[torch.randn(s, generator=g) for s in shapes] for _ in range(3)]
    pc = [torch.nn.Parameter(t.clone()) for t in init]
    po = [torch.nn.Parameter(t.to(DEV)) for t in init]
    oc, oo = make_opt(pc, False), make_opt(po, True)
    before = _C.foreach_launches()
    for step in range(3):
        for p, q, gr in zip(pc, po, grads[step]):
            p.grad = gr.clone()
            q.grad = gr.to(DEV)
        oc.step()
        oo.step()
    assert _C.foreach_launches() > before
    for i, (p, q) in enumerate(zip(pc, po)):
        torch.testing.assert_close(q.detach().cpu(), p.detach(), rtol=1e-5, atol=1e-6,
                                   msg=lambda m: "seed %d, parameter %d: %s" % (seed, i, m))
