import torch


# kiln: x=f32[N]
@torch.jit.script
def myfun(x: torch.Tensor) -> torch.Tensor:
    y = x * x
    z = y.tanh()
    return z


if __name__ == "__main__":
    torch.manual_seed(0)
    print(myfun(torch.randn(5)))
