"""Trains a torchvision model on the ocl device (PyTorch on cldnn) and prints images/s.

    pip install --no-build-isolation ./integrations/pytorch     # once, into an env with torch
    python examples/pytorch/train.py --model resnet18 --batch 32 --steps 50 --size 64
    python examples/pytorch/train.py --model mobilenet_v2 --data /path/to/imagefolder

Data: torchvision's FakeData (random images and labels, nothing downloaded) unless --data names an
ImageFolder tree. --device cpu (or cuda) runs the same loop elsewhere for comparison; CLDNN_DEVICE
picks the OpenCL device; CLDNN_TORCH_FALLBACK=warn names every op that falls back to the CPU.
The first steps compile cldnn's kernels (cached on disk afterwards): images/s is measured after
--warmup steps, with the device synchronized around the timed steps.
"""
import argparse
import sys
import time

import torch
import torch.nn.functional as F
import torchvision
from torchvision import transforms


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="resnet18", help="a torchvision.models constructor name")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--size", type=int, default=64, help="image side (FakeData)")
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--data", default=None, help="an ImageFolder tree (default: FakeData)")
    ap.add_argument("--device", default="ocl")
    ap.add_argument("--benchmark", action="store_true", help="torch.backends.cudnn.benchmark: cldnn's Find")
    args = ap.parse_args()

    if args.device.startswith("ocl"):
        import cldnn_torch  # noqa: F401  (registers the ocl device)
    torch.backends.cudnn.benchmark = args.benchmark
    dev = torch.device(args.device)
    tf = transforms.Compose([transforms.Resize((args.size, args.size)), transforms.ToTensor()])
    if args.data:
        data = torchvision.datasets.ImageFolder(args.data, transform=tf)
        classes = len(data.classes)
    else:
        classes = args.classes
        data = torchvision.datasets.FakeData(size=args.batch * (args.steps + args.warmup),
                                             image_size=(3, args.size, args.size), num_classes=classes,
                                             transform=transforms.ToTensor())
    loader = torch.utils.data.DataLoader(data, batch_size=args.batch, shuffle=True, drop_last=True)
    model = getattr(torchvision.models, args.model)(num_classes=classes).to(dev)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4)
    sync = getattr(getattr(torch, dev.type, None), "synchronize", lambda: None)

    model.train()
    done, timed, t0 = 0, 0, None
    for step, (x, t) in enumerate(loader):
        if step == args.steps + args.warmup:
            break
        if step == args.warmup:
            sync()
            t0 = time.perf_counter()
        x, t = x.to(dev), t.to(dev)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), t)
        loss.backward()
        opt.step()
        done += 1
        if t0 is not None:
            timed += x.shape[0]
        bar = "#" * (30 * done // (args.steps + args.warmup))
        sys.stdout.write(f"\r[{bar:<30}] step {done}/{args.steps + args.warmup} loss {loss.item():.4f}")
        sys.stdout.flush()
    sync()
    print()
    if t0 is None or timed == 0:
        print("no timed steps (raise --steps or lower --warmup)")
        return 1
    dt = time.perf_counter() - t0
    print(f"{args.model} on {dev}: batch {args.batch}, {args.size}x{args.size}: {timed / dt:.1f} images/s "
          f"({timed} images in {dt:.2f} s after {args.warmup} warm-up steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
