"""What a cuBLASLt epilogue would give kiln on this GPU, measured with
PyTorch alone (no kiln): torch._addmm_activation runs cuBLASLt's
RELU_BIAS epilogue on CUDA for contiguous f32 operands with a 1-D bias,
and eager's Linear runs its BIAS epilogue.

It prints, for docs/cuda.md (Library epilogues):
- what the fused ReLU makes of a NaN (eager's relu keeps it);
- the time of the MLP's two hidden layers at batch 4096 as eager runs them
  (addmm with the bias epilogue, then relu) and with the ReLU fused.

Run on a GPU machine: python3 probe_epilogues.py
"""
import torch


def time_us(fn, iterations=200):
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iterations):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) * 1000.0 / iterations


def main():
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = "cuda"
    g = torch.Generator(device="cpu").manual_seed(0)
    x = torch.randn(64, 32, generator=g).to(dev)
    w = torch.randn(48, 32, generator=g).to(dev)
    b = torch.randn(48, generator=g).to(dev)
    x[3, 5] = float("nan")
    x[7, :] = -1e30  # a row whose products are all far below zero
    fused = torch._addmm_activation(b, x, w.t())
    eager = torch.relu(torch.addmm(b, x, w.t()))
    print("NaN row, eager relu keeps NaN:", bool(eager[3].isnan().all()))
    print("NaN row, fused RELU_BIAS keeps NaN:", bool(fused[3].isnan().all()),
          "; zeros:", int((fused[3] == 0).sum()), "of", fused.shape[1])
    rest = torch.ones(64, dtype=torch.bool, device=dev)
    rest[3] = False
    print("other rows equal:",
          bool(torch.allclose(fused[rest], eager[rest], rtol=1e-5,
                              atol=1e-5)))

    a = torch.randn(4096, 784, device=dev)
    w1 = torch.randn(1024, 784, device=dev)
    b1 = torch.randn(1024, device=dev)
    w2 = torch.randn(1024, 1024, device=dev)
    b2 = torch.randn(1024, device=dev)

    def separate():
        h = torch.relu(torch.addmm(b1, a, w1.t()))
        return torch.relu(torch.addmm(b2, h, w2.t()))

    def fused_relu():
        h = torch._addmm_activation(b1, a, w1.t())
        return torch._addmm_activation(b2, h, w2.t())

    def no_bias():
        h = torch.relu(torch.mm(a, w1.t()) + b1)
        return torch.relu(torch.mm(h, w2.t()) + b2)

    print("MLP hidden layers b4096, us per call: "
          "mm, add, relu (three kernels) %.1f, addmm (bias epilogue) then relu %.1f, "
          "RELU_BIAS epilogue %.1f"
          % (time_us(no_bias), time_us(separate), time_us(fused_relu)))


if __name__ == "__main__":
    main()
