# torch.nn modules whose forwards kiln's prelude defines
# (frontend/prelude/modules.py), held by models with non-default options,
# as timm, torchvision and Hugging Face models hold them. Each __init__ runs
# in real Python; test/e2e/nn_modules_more.test compares kiln with eager.
import torch
import torch.nn as nn


class Activations(nn.Module):
    def __init__(self, c=6):
        super().__init__()
        self.acts = nn.ModuleList([
            nn.LeakyReLU(0.2), nn.ReLU6(), nn.Hardswish(),
            nn.Hardsigmoid(), nn.Hardtanh(-0.5, 2.0), nn.ELU(0.5),
            nn.CELU(1.5), nn.SELU(), nn.Mish(),
            nn.Softplus(beta=2, threshold=1.5), nn.LogSigmoid(),
            nn.Softsign(), nn.Tanhshrink(), nn.Hardshrink(0.3),
            nn.Softshrink(0.2), nn.Threshold(0.1, -2.0), nn.PReLU(c),
            nn.PReLU(init=0.1)])
        nn.init.uniform_(self.acts[16].weight, -1.0, 1.0)
        self.glu = nn.GLU(dim=1)

    # kiln: x=f32[B,6,5]
    def forward(self, x):
        x = x * 3
        outs = []
        for act in self.acts:
            outs.append(act(x))
        return torch.stack(outs), self.glu(x)


class Norms(nn.Module):
    def __init__(self):
        super().__init__()
        self.gn = nn.GroupNorm(2, 8)
        self.gn_plain = nn.GroupNorm(4, 8, eps=1e-3, affine=False)
        self.inorm = nn.InstanceNorm2d(8, affine=True)
        self.inorm_stats = nn.InstanceNorm2d(8, track_running_stats=True)
        self.inorm1d = nn.InstanceNorm1d(8)
        self.bn1d = nn.BatchNorm1d(8, eps=1e-3)
        self.bn3d = nn.BatchNorm3d(8)
        for p in (self.gn.weight, self.gn.bias, self.inorm.weight,
                  self.inorm.bias, self.bn1d.weight, self.bn3d.bias):
            nn.init.normal_(p)
        self.softmax = nn.Softmax(dim=1)
        self.log_softmax = nn.LogSoftmax(dim=-1)
        self.softmin = nn.Softmin(dim=2)
        self.softmax2d = nn.Softmax2d()
        self.flatten = nn.Flatten(1)
        self.unflatten = nn.Unflatten(1, (2, 4))

    # kiln: x=f32[B,8,5,6]
    def forward(self, x):
        a = self.gn(x) + self.gn_plain(x) + self.inorm(x)
        b = self.inorm_stats(x) + self.bn3d(x.unsqueeze(2)).squeeze(2)
        c = self.bn1d(x.flatten(2)) + self.inorm1d(x.flatten(2))
        d = self.softmax(a) + self.log_softmax(b) + self.softmin(a)
        e = self.softmax2d(d) + self.softmax2d(d[0])
        return self.flatten(e), self.unflatten(c), self.bn1d(x.mean((2, 3)))


class Resample(nn.Module):
    def __init__(self):
        super().__init__()
        self.shuffle = nn.PixelShuffle(2)
        self.unshuffle = nn.PixelUnshuffle(2)
        self.up = nn.Upsample(scale_factor=2.0)
        self.up_bilinear = nn.Upsample(size=9, mode="bilinear",
                                       align_corners=False)
        self.up_nearest2d = nn.UpsamplingNearest2d(size=7)
        self.up_bilinear2d = nn.UpsamplingBilinear2d(scale_factor=2)
        self.pads = nn.ModuleList([
            nn.ZeroPad2d((1, 2, 0, 1)), nn.ConstantPad2d(1, 0.5),
            nn.ReflectionPad2d(2), nn.ReplicationPad2d((1, 0, 2, 1))])
        self.pad1d = nn.Sequential(nn.ConstantPad1d((2, 1), -1.0),
                                   nn.ReflectionPad1d(1),
                                   nn.ReplicationPad1d((0, 3)))
        self.pad3d = nn.Sequential(nn.ConstantPad3d(1, 2.0),
                                   nn.ReflectionPad3d((1, 0, 0, 1, 1, 1)),
                                   nn.ReplicationPad3d(1))
        self.drop = nn.Sequential(nn.Dropout2d(0.3), nn.AlphaDropout(0.3),
                                  nn.FeatureAlphaDropout(0.3))
        self.drop1d = nn.Dropout1d(0.3)
        self.drop3d = nn.Dropout3d(0.3)

    # kiln: x=f32[B,4,6,6]
    def forward(self, x):
        s = self.unshuffle(self.shuffle(x)) + x
        ups = (self.up(s), self.up_bilinear(s), self.up_nearest2d(s),
               self.up_bilinear2d(s))
        pads = [pad(s) for pad in self.pads]
        flat = self.drop1d(s.flatten(2))
        return (ups, pads, self.pad1d(flat), self.pad3d(s), self.drop(s),
                self.drop3d(s.unsqueeze(2)))


class Pairs(nn.Module):
    def __init__(self):
        super().__init__()
        self.cos = nn.CosineSimilarity(dim=1)
        self.cos_last = nn.CosineSimilarity(dim=-1, eps=1e-4)
        self.dist = nn.PairwiseDistance()
        self.dist_l1 = nn.PairwiseDistance(p=1.0, keepdim=True)
        # inplace=True is fine where nothing reads the input again.
        self.head = nn.Sequential(nn.LeakyReLU(0.1, inplace=True),
                                  nn.ReLU6(inplace=True), nn.Flatten(),
                                  nn.Dropout1d(0.1), nn.Softmax(dim=-1))

    # kiln: x=f32[B,5,4], y=f32[B,5,4]
    def forward(self, x, y):
        return (self.cos(x, y), self.cos_last(x, x2=y), self.dist(x[:, 0], y[:, 0]),
                self.dist_l1(x[:, 1], y[:, 1]), self.head(x - y))


class Losses(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        weight = torch.linspace(0.5, 1.5, classes)
        self.losses = nn.ModuleList([
            nn.L1Loss(), nn.MSELoss(reduction="sum"),
            nn.SmoothL1Loss(beta=0.5), nn.KLDivLoss(reduction="batchmean"),
            nn.BCELoss(weight=weight)])
        self.nll = nn.NLLLoss(weight=weight.flip(0), ignore_index=2)
        self.ce = nn.CrossEntropyLoss(label_smoothing=0.1, reduction="none")

    # kiln: x=f32[B,5], y=f32[B,5], labels=i64[B]
    def forward(self, x, y, labels):
        p, q = torch.sigmoid(x), torch.softmax(y, dim=1)
        out = [loss(p, q) for loss in self.losses]
        out.append(self.nll(torch.log_softmax(x, dim=1), labels))
        out.append(self.ce(x, target=labels))
        return out
