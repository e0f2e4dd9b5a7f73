# Compile errors of torch.nn.functional and the nn tensor ops: wrong ranks,
# bad dims, arguments that must be compile-time constants, unsupported
# keywords and training-mode behaviour. Each function is one case, compiled
# alone with --entry; each error points at the call or at the argument at
# fault.
import torch
import torch.nn.functional as F


# conv2d needs 4-D input and weight; unbatched 3-D input is rejected.
# RUN: not kiln compile %s --emit=ir --entry conv_rank 2>&1 | FileCheck %s --check-prefix=CONVRANK --strict-whitespace --implicit-check-not='{{error|note}}:'
# CONVRANK: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: conv2d takes a 4-D input (N, C, H, W) and a 4-D weight (O, C/groups, KH, KW), got Tensor[f32, 3x8x8] and Tensor[f32, 4x3x3x3]{{$}}
# CONVRANK-NEXT: {{^}}    return F.conv2d(x, w){{$}}
# CONVRANK-NEXT: {{^}}           ^~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3,8,8], w=f32[4,3,3,3]
def conv_rank(x, w):
    return F.conv2d(x, w)


# The weight's input channels times groups must match the input's.
# RUN: not kiln compile %s --emit=ir --entry conv_channels 2>&1 | FileCheck %s --check-prefix=CONVCHANNELS --strict-whitespace --implicit-check-not='{{error|note}}:'
# CONVCHANNELS: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: conv2d expects 2 input channels (weight Tensor[f32, 4x2x3x3], groups 1), got Tensor[f32, 2x3x8x8]{{$}}
# CONVCHANNELS-NEXT: {{^}}    return F.conv2d(x, w){{$}}
# CONVCHANNELS-NEXT: {{^}}           ^~~~~~~~~~~~~~{{$}}
# kiln: x=f32[2,3,8,8], w=f32[4,2,3,3]
def conv_channels(x, w):
    return F.conv2d(x, w)


# A stride that is not a compile-time constant is rejected at the argument.
# RUN: not kiln compile %s --emit=ir --entry conv_stride 2>&1 | FileCheck %s --check-prefix=CONVSTRIDE --strict-whitespace --implicit-check-not='{{error|note}}:'
# CONVSTRIDE: {{^.*}}nn-errors.py:[[@LINE+5]]:34: error: F.conv2d() argument 'stride' must be constant ints here, got an int{{$}}
# CONVSTRIDE-NEXT: {{^}}    return F.conv2d(x, w, stride=s){{$}}
# CONVSTRIDE-NEXT: {{^}}                                 ^{{$}}
# kiln: x=f32[2,3,8,8], w=f32[4,3,3,3]
def conv_stride(x, w, s: int):
    return F.conv2d(x, w, stride=s)


# padding='same' with an even kernel would pad unevenly.
# RUN: not kiln compile %s --emit=ir --entry conv_same 2>&1 | FileCheck %s --check-prefix=CONVSAME --strict-whitespace --implicit-check-not='{{error|note}}:'
# CONVSAME: {{^.*}}nn-errors.py:[[@LINE+5]]:35: error: padding='same' with kernel Tensor[f32, 4x3x2x2] pads unevenly, which is not supported; give the padding explicitly{{$}}
# CONVSAME-NEXT: {{^}}    return F.conv2d(x, w, padding='same'){{$}}
# CONVSAME-NEXT: {{^}}                                  ^~~~~~{{$}}
# kiln: x=f32[2,3,8,8], w=f32[4,3,2,2]
def conv_same(x, w):
    return F.conv2d(x, w, padding='same')


# A kernel size that is not a compile-time constant is rejected.
# RUN: not kiln compile %s --emit=ir --entry pool_kernel 2>&1 | FileCheck %s --check-prefix=POOLKERNEL --strict-whitespace --implicit-check-not='{{error|note}}:'
# POOLKERNEL: {{^.*}}nn-errors.py:[[@LINE+5]]:28: error: F.max_pool2d() argument 'kernel_size' must be constant ints here, got an int{{$}}
# POOLKERNEL-NEXT: {{^}}    return F.max_pool2d(x, k){{$}}
# POOLKERNEL-NEXT: {{^}}                           ^{{$}}
# kiln: x=f32[2,3,8,8]
def pool_kernel(x, k: int):
    return F.max_pool2d(x, k)


# max_pool2d(return_indices=True) is not supported.
# RUN: not kiln compile %s --emit=ir --entry pool_indices 2>&1 | FileCheck %s --check-prefix=POOLINDICES --strict-whitespace --implicit-check-not='{{error|note}}:'
# POOLINDICES: {{^.*}}nn-errors.py:[[@LINE+5]]:46: error: return_indices=True is not supported; max_pool2d returns the values only{{$}}
# POOLINDICES-NEXT: {{^}}    return F.max_pool2d(x, 2, return_indices=True){{$}}
# POOLINDICES-NEXT: {{^}}                                             ^~~~{{$}}
# kiln: x=f32[2,3,8,8]
def pool_indices(x):
    return F.max_pool2d(x, 2, return_indices=True)


# avg_pool2d(divisor_override=...) is not supported.
# RUN: not kiln compile %s --emit=ir --entry pool_divisor 2>&1 | FileCheck %s --check-prefix=POOLDIVISOR --strict-whitespace --implicit-check-not='{{error|note}}:'
# POOLDIVISOR: {{^.*}}nn-errors.py:[[@LINE+5]]:48: error: divisor_override is not supported{{$}}
# POOLDIVISOR-NEXT: {{^}}    return F.avg_pool2d(x, 2, divisor_override=3){{$}}
# POOLDIVISOR-NEXT: {{^}}                                               ^{{$}}
# kiln: x=f32[2,3,8,8]
def pool_divisor(x):
    return F.avg_pool2d(x, 2, divisor_override=3)


# A pooling window larger than the padded input is rejected.
# RUN: not kiln compile %s --emit=ir --entry pool_big 2>&1 | FileCheck %s --check-prefix=POOLBIG --strict-whitespace --implicit-check-not='{{error|note}}:'
# POOLBIG: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: max_pool2d: pooling window (9, 9) is larger than the padded input Tensor[f32, 2x3x8x8]{{$}}
# POOLBIG-NEXT: {{^}}    return F.max_pool2d(x, 9){{$}}
# POOLBIG-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[2,3,8,8]
def pool_big(x):
    return F.max_pool2d(x, 9)


# Pooling needs a 4-D input.
# RUN: not kiln compile %s --emit=ir --entry pool_rank 2>&1 | FileCheck %s --check-prefix=POOLRANK --strict-whitespace --implicit-check-not='{{error|note}}:'
# POOLRANK: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: avg_pool2d: pooling takes a 4-D input (N, C, H, W), got Tensor[f32, 3x8]{{$}}
# POOLRANK-NEXT: {{^}}    return F.avg_pool2d(x, 2){{$}}
# POOLRANK-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3,8]
def pool_rank(x):
    return F.avg_pool2d(x, 2)


# batch_norm in training mode is not supported.
# RUN: not kiln compile %s --emit=ir --entry bn_training 2>&1 | FileCheck %s --check-prefix=BNTRAINING --strict-whitespace --implicit-check-not='{{error|note}}:'
# BNTRAINING: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: batch_norm with training=True is not supported; models are compiled in eval mode{{$}}
# BNTRAINING-NEXT: {{^}}    return F.batch_norm(x, m, v, training=True){{$}}
# BNTRAINING-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}
# BNTRAINING-NEXT: {{^.*}}nn-errors.py: note: in 'batch_norm', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3,8,8], m=f32[3], v=f32[3]
def bn_training(x, m, v):
    return F.batch_norm(x, m, v, training=True)


# batch_norm's running statistics must have one value per channel.
# RUN: not kiln compile %s --emit=ir --entry bn_stats 2>&1 | FileCheck %s --check-prefix=BNSTATS --strict-whitespace --implicit-check-not='{{error|note}}:'
# BNSTATS: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: batch_norm running_mean must be 1-D with one element per channel of the input, a Tensor[f32, 2x3x8x8], and its dtype, got a Tensor[f32, 4]{{$}}
# BNSTATS-NEXT: {{^}}    return F.batch_norm(x, m, v){{$}}
# BNSTATS-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~{{$}}
# BNSTATS-NEXT: {{^.*}}nn-errors.py: note: in 'batch_norm', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3,8,8], m=f32[4], v=f32[4]
def bn_stats(x, m, v):
    return F.batch_norm(x, m, v)


# dropout with training=True is not supported.
# RUN: not kiln compile %s --emit=ir --entry dropout_training 2>&1 | FileCheck %s --check-prefix=DROPOUTTRAINING --strict-whitespace --implicit-check-not='{{error|note}}:'
# DROPOUTTRAINING: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: dropout with training=True is not supported; models are compiled in eval mode{{$}}
# DROPOUTTRAINING-NEXT: {{^}}    return F.dropout(x, 0.1, True){{$}}
# DROPOUTTRAINING-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~~~{{$}}
# DROPOUTTRAINING-NEXT: {{^.*}}nn-errors.py: note: in 'dropout', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3]
def dropout_training(x):
    return F.dropout(x, 0.1, True)


# F.dropout defaults to training=True, so leaving it out is an error too.
# RUN: not kiln compile %s --emit=ir --entry dropout_default 2>&1 | FileCheck %s --check-prefix=DROPOUTDEFAULT --strict-whitespace --implicit-check-not='{{error|note}}:'
# DROPOUTDEFAULT: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: F.dropout() defaults to training=True, which is not supported; pass training=False (models are compiled in eval mode){{$}}
# DROPOUTDEFAULT-NEXT: {{^}}    return F.dropout(x, 0.1){{$}}
# DROPOUTDEFAULT-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~{{$}}
# DROPOUTDEFAULT-NEXT: {{^.*}}nn-errors.py: note: in 'dropout', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3]
def dropout_default(x):
    return F.dropout(x, 0.1)


# A dim out of range is reported at the call, which the prelude's softmax
# passes it through.
# RUN: not kiln compile %s --emit=ir --entry softmax_dim 2>&1 | FileCheck %s --check-prefix=SOFTMAXDIM --strict-whitespace --implicit-check-not='{{error|note}}:'
# SOFTMAXDIM: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: dimension 2 is out of range for a tensor of rank 2{{$}}
# SOFTMAXDIM-NEXT: {{^}}    return F.softmax(x, dim=2){{$}}
# SOFTMAXDIM-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~{{$}}
# SOFTMAXDIM-NEXT: {{^.*}}nn-errors.py: note: in '_shifted', called by 'softmax', called by 'softmax_functional', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3]
def softmax_dim(x):
    return F.softmax(x, dim=2)


# softmax needs dim=.
# RUN: not kiln compile %s --emit=ir --entry softmax_nodim 2>&1 | FileCheck %s --check-prefix=SOFTMAXNODIM --strict-whitespace --implicit-check-not='{{error|note}}:'
# SOFTMAXNODIM: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: F.softmax() needs dim=; PyTorch's implicit choice of dim is deprecated{{$}}
# SOFTMAXNODIM-NEXT: {{^}}    return F.softmax(x){{$}}
# SOFTMAXNODIM-NEXT: {{^}}           ^~~~~~~~~~~~{{$}}
# SOFTMAXNODIM-NEXT: {{^.*}}nn-errors.py: note: in '_explicit_dim', called by 'softmax_functional', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3]
def softmax_nodim(x):
    return F.softmax(x)


# softmax of an int tensor is rejected, as in PyTorch.
# RUN: not kiln compile %s --emit=ir --entry softmax_int 2>&1 | FileCheck %s --check-prefix=SOFTMAXINT --strict-whitespace --implicit-check-not='{{error|note}}:'
# SOFTMAXINT: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: softmax() needs a float tensor with at least one dimension, got a Tensor[i64, 2x3]{{$}}
# SOFTMAXINT-NEXT: {{^}}    return x.softmax(-1){{$}}
# SOFTMAXINT-NEXT: {{^}}           ^~~~~~~~~~~~~{{$}}
# SOFTMAXINT-NEXT: {{^.*}}nn-errors.py: note: in '_shifted', called by 'softmax', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=i64[2,3]
def softmax_int(x):
    return x.softmax(-1)


# linear's input features must match the weight's.
# RUN: not kiln compile %s --emit=ir --entry linear_features 2>&1 | FileCheck %s --check-prefix=LINEARFEATURES --strict-whitespace --implicit-check-not='{{error|note}}:'
# LINEARFEATURES: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: linear input, a Tensor[f32, 2x5], does not have as many features (its last dim) as the weight, a Tensor[f32, 4x6], expects (its dim 1){{$}}
# LINEARFEATURES-NEXT: {{^}}    return F.linear(x, w){{$}}
# LINEARFEATURES-NEXT: {{^}}           ^~~~~~~~~~~~~~{{$}}
# LINEARFEATURES-NEXT: {{^.*}}nn-errors.py: note: in 'linear', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,5], w=f32[4,6]
def linear_features(x, w):
    return F.linear(x, w)


# linear's weight must be 2-D.
# RUN: not kiln compile %s --emit=ir --entry linear_rank 2>&1 | FileCheck %s --check-prefix=LINEARRANK --strict-whitespace --implicit-check-not='{{error|note}}:'
# LINEARRANK: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: linear weight must be 2-D (out_features, in_features), got a Tensor[f32, 5]{{$}}
# LINEARRANK-NEXT: {{^}}    return F.linear(x, w){{$}}
# LINEARRANK-NEXT: {{^}}           ^~~~~~~~~~~~~~{{$}}
# LINEARRANK-NEXT: {{^.*}}nn-errors.py: note: in 'linear', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,5], w=f32[5]
def linear_rank(x, w):
    return F.linear(x, w)


# linear's bias must have out_features elements.
# RUN: not kiln compile %s --emit=ir --entry linear_bias 2>&1 | FileCheck %s --check-prefix=LINEARBIAS --strict-whitespace --implicit-check-not='{{error|note}}:'
# LINEARBIAS: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: linear bias must be 1-D with out_features elements (dim 0 of the weight, a Tensor[f32, 4x5]) of the input's dtype, got a Tensor[f32, 5]{{$}}
# LINEARBIAS-NEXT: {{^}}    return F.linear(x, w, b){{$}}
# LINEARBIAS-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~{{$}}
# LINEARBIAS-NEXT: {{^.*}}nn-errors.py: note: in 'linear', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,5], w=f32[4,5], b=f32[5]
def linear_bias(x, w, b):
    return F.linear(x, w, b)


# layer_norm's normalized_shape must match the input's last dims.
# RUN: not kiln compile %s --emit=ir --entry layer_norm_shape 2>&1 | FileCheck %s --check-prefix=LAYERNORMSHAPE --strict-whitespace --implicit-check-not='{{error|note}}:'
# LAYERNORMSHAPE: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: layer_norm normalized_shape (4,) does not match the last dims of the input, a Tensor[f32, 2x5]{{$}}
# LAYERNORMSHAPE-NEXT: {{^}}    return F.layer_norm(x, (4,)){{$}}
# LAYERNORMSHAPE-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~{{$}}
# LAYERNORMSHAPE-NEXT: {{^.*}}nn-errors.py: note: in 'layer_norm', kiln's prelude decomposition of this call (frontend/prelude/functional.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,5]
def layer_norm_shape(x):
    return F.layer_norm(x, (4,))


# embedding needs integer indices.
# RUN: not kiln compile %s --emit=ir --entry embedding_float 2>&1 | FileCheck %s --check-prefix=EMBEDDINGFLOAT --strict-whitespace --implicit-check-not='{{error|note}}:'
# EMBEDDINGFLOAT: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: embedding indices must be an int32 or int64 tensor, got Tensor[f32, 2x5]{{$}}
# EMBEDDINGFLOAT-NEXT: {{^}}    return F.embedding(x, w){{$}}
# EMBEDDINGFLOAT-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[2,5], w=f32[10,3]
def embedding_float(x, w):
    return F.embedding(x, w)


# Unknown keywords are rejected at the keyword.
# RUN: not kiln compile %s --emit=ir --entry relu_keyword 2>&1 | FileCheck %s --check-prefix=RELUKEYWORD --strict-whitespace --implicit-check-not='{{error|note}}:'
# RELUKEYWORD: {{^.*}}nn-errors.py:[[@LINE+5]]:22: error: F.relu() got an unexpected keyword argument 'foo'; the schema is relu(Tensor self, bool inplace=False) -> Tensor{{$}}
# RELUKEYWORD-NEXT: {{^}}    return F.relu(x, foo=1){{$}}
# RELUKEYWORD-NEXT: {{^}}                     ^~~~~{{$}}
# kiln: x=f32[2,3]
def relu_keyword(x):
    return F.relu(x, foo=1)


# gelu's approximate must be 'none' or 'tanh': the prelude's check, made
# while compiling, at the call.
# RUN: not kiln compile %s --emit=ir --entry gelu_approximate 2>&1 | FileCheck %s --check-prefix=GELUAPPROXIMATE --strict-whitespace --implicit-check-not='{{error|note}}:'
# GELUAPPROXIMATE: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: approximate must be 'none' or 'tanh', got 'fast'{{$}}
# GELUAPPROXIMATE-NEXT: {{^}}    return F.gelu(x, approximate='fast'){{$}}
# GELUAPPROXIMATE-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~{{$}}
# GELUAPPROXIMATE-NEXT: {{^.*}}nn-errors.py: note: in 'gelu', kiln's prelude decomposition of this call (frontend/prelude/activations.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3]
def gelu_approximate(x):
    return F.gelu(x, approximate='fast')


# A torch.nn.functional function kiln does not know is rejected at its name.
# RUN: not kiln compile %s --emit=ir --entry functional_unknown 2>&1 | FileCheck %s --check-prefix=FUNCTIONALUNKNOWN --strict-whitespace --implicit-check-not='{{error|note}}:'
# FUNCTIONALUNKNOWN: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: 'torch.nn.functional.unfold' is a PyTorch function that kiln does not support yet{{$}}
# FUNCTIONALUNKNOWN-NEXT: {{^}}    return F.unfold(x, 2){{$}}
# FUNCTIONALUNKNOWN-NEXT: {{^}}           ^~~~~~~~{{$}}
# kiln: x=f32[1,1,3,3]
def functional_unknown(x):
    return F.unfold(x, 2)


# masked_fill needs a bool mask.
# RUN: not kiln compile %s --emit=ir --entry masked_fill_mask 2>&1 | FileCheck %s --check-prefix=MASKEDFILLMASK --strict-whitespace --implicit-check-not='{{error|note}}:'
# MASKEDFILLMASK: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: masked_fill() needs a bool tensor mask, got a Tensor[f32, 2x3]{{$}}
# MASKEDFILLMASK-NEXT: {{^}}    return x.masked_fill(m, 0.0){{$}}
# MASKEDFILLMASK-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~{{$}}
# MASKEDFILLMASK-NEXT: {{^.*}}nn-errors.py: note: in 'masked_fill', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3], m=f32[2,3]
def masked_fill_mask(x, m):
    return x.masked_fill(m, 0.0)


# masked_fill's mask must broadcast to x's shape without growing it.
# RUN: not kiln compile %s --emit=ir --entry masked_fill_grow 2>&1 | FileCheck %s --check-prefix=MASKEDFILLGROW --strict-whitespace --implicit-check-not='{{error|note}}:'
# MASKEDFILLGROW: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: masked_fill(): the mask, a Tensor[bool, 4x2x3], does not broadcast to the shape of the input, a Tensor[f32, 2x3]{{$}}
# MASKEDFILLGROW-NEXT: {{^}}    return x.masked_fill(m, 0.0){{$}}
# MASKEDFILLGROW-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~{{$}}
# MASKEDFILLGROW-NEXT: {{^.*}}nn-errors.py: note: in '_mask_grows', called by 'masked_fill', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,3], m=bool[4,2,3]
def masked_fill_grow(x, m):
    return x.masked_fill(m, 0.0)


# torch.where needs a bool condition.
# RUN: not kiln compile %s --emit=ir --entry where_cond 2>&1 | FileCheck %s --check-prefix=WHERECOND --strict-whitespace --implicit-check-not='{{error|note}}:'
# WHERECOND: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: where() needs a bool condition, got Tensor[f32, 3]{{$}}
# WHERECOND-NEXT: {{^}}    return torch.where(c, x, 0.0){{$}}
# WHERECOND-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3], c=f32[3]
def where_cond(x, c):
    return torch.where(c, x, 0.0)


# torch.where(condition) alone (nonzero) is not supported.
# RUN: not kiln compile %s --emit=ir --entry where_one 2>&1 | FileCheck %s --check-prefix=WHEREONE --strict-whitespace --implicit-check-not='{{error|note}}:'
# WHEREONE: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: torch.where(condition) with one argument is not supported; it returns indices of a run-time count{{$}}
# WHEREONE-NEXT: {{^}}    return torch.where(c){{$}}
# WHEREONE-NEXT: {{^}}           ^~~~~~~~~~~~~~{{$}}
# kiln: c=bool[3]
def where_one(c):
    return torch.where(c)


# triu needs at least 2 dims.
# RUN: not kiln compile %s --emit=ir --entry triu_rank 2>&1 | FileCheck %s --check-prefix=TRIURANK --strict-whitespace --implicit-check-not='{{error|note}}:'
# TRIURANK: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: triu() needs a tensor with at least 2 dimensions, got a Tensor[f32, 3]{{$}}
# TRIURANK-NEXT: {{^}}    return x.triu(){{$}}
# TRIURANK-NEXT: {{^}}           ^~~~~~~~{{$}}
# TRIURANK-NEXT: {{^.*}}nn-errors.py: note: in 'triu', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=f32[3]
def triu_rank(x):
    return x.triu()


# Splitting a dynamic dim into pieces of one size is rejected: the number of pieces is not known.
# RUN: not kiln compile %s --emit=ir --entry split_dynamic 2>&1 | FileCheck %s --check-prefix=SPLITDYNAMIC --strict-whitespace --implicit-check-not='{{error|note}}:'
# SPLITDYNAMIC: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: split() of dimension 0 needs a static size, got a Tensor[f32, ?x4]; pass a list of sizes instead{{$}}
# SPLITDYNAMIC-NEXT: {{^}}    return x.split(2){{$}}
# SPLITDYNAMIC-NEXT: {{^}}           ^~~~~~~~~~{{$}}
# SPLITDYNAMIC-NEXT: {{^.*}}nn-errors.py: note: in '_split_by', called by '_split', called by 'split', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=f32[N,4]
def split_dynamic(x):
    return x.split(2)


# Split sizes must add up to the dim's size.
# RUN: not kiln compile %s --emit=ir --entry split_sum 2>&1 | FileCheck %s --check-prefix=SPLITSUM --strict-whitespace --implicit-check-not='{{error|note}}:'
# SPLITSUM: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: split sizes [2, 2] sum to 4, but dimension 0 of a Tensor[f32, 5x4] has size 5{{$}}
# SPLITSUM-NEXT: {{^}}    return x.split([2, 2]){{$}}
# SPLITSUM-NEXT: {{^}}           ^~~~~~~~~~~~~~~{{$}}
# SPLITSUM-NEXT: {{^.*}}nn-errors.py: note: in '_split', called by 'split', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=f32[5,4]
def split_sum(x):
    return x.split([2, 2])


# chunk needs a positive number of chunks.
# RUN: not kiln compile %s --emit=ir --entry chunk_zero 2>&1 | FileCheck %s --check-prefix=CHUNKZERO --strict-whitespace --implicit-check-not='{{error|note}}:'
# CHUNKZERO: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: chunks must be positive, got 0{{$}}
# CHUNKZERO-NEXT: {{^}}    return x.chunk(0){{$}}
# CHUNKZERO-NEXT: {{^}}           ^~~~~~~~~~{{$}}
# CHUNKZERO-NEXT: {{^.*}}nn-errors.py: note: in 'chunk', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=f32[5,4]
def chunk_zero(x):
    return x.chunk(0)


# rand_like draws floats only.
# RUN: not kiln compile %s --emit=ir --entry rand_like_int 2>&1 | FileCheck %s --check-prefix=RANDLIKEINT --strict-whitespace --implicit-check-not='{{error|note}}:'
# RANDLIKEINT: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: torch.rand_like() needs a floating dtype, got torch.int64{{$}}
# RANDLIKEINT-NEXT: {{^}}    return torch.rand_like(x){{$}}
# RANDLIKEINT-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~{{$}}
# RANDLIKEINT-NEXT: {{^.*}}nn-errors.py: note: in '_float_dtype', called by 'rand_like', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=i64[3]
def rand_like_int(x):
    return torch.rand_like(x)


# bmm takes 3-D tensors only.
# RUN: not kiln compile %s --emit=ir --entry bmm_rank 2>&1 | FileCheck %s --check-prefix=BMMRANK --strict-whitespace --implicit-check-not='{{error|note}}:'
# BMMRANK: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: bmm() multiplies two 3-D tensors; got a Tensor[f32, 5x4] and a Tensor[f32, 4x3]{{$}}
# BMMRANK-NEXT: {{^}}    return torch.bmm(x, y){{$}}
# BMMRANK-NEXT: {{^}}           ^~~~~~~~~~~~~~~{{$}}
# BMMRANK-NEXT: {{^.*}}nn-errors.py: note: in 'bmm', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=f32[5,4], y=f32[4,3]
def bmm_rank(x, y):
    return torch.bmm(x, y)


# bmm does not broadcast batch dims.
# RUN: not kiln compile %s --emit=ir --entry bmm_batch 2>&1 | FileCheck %s --check-prefix=BMMBATCH --strict-whitespace --implicit-check-not='{{error|note}}:'
# BMMBATCH: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: bmm() batch sizes differ: a Tensor[f32, 2x5x4] and a Tensor[f32, 3x4x3]{{$}}
# BMMBATCH-NEXT: {{^}}    return torch.bmm(x, y){{$}}
# BMMBATCH-NEXT: {{^}}           ^~~~~~~~~~~~~~~{{$}}
# BMMBATCH-NEXT: {{^.*}}nn-errors.py: note: in 'bmm', kiln's prelude decomposition of this call (frontend/prelude/tensor.py:{{[0-9]+}}){{$}}
# kiln: x=f32[2,5,4], y=f32[3,4,3]
def bmm_batch(x, y):
    return torch.bmm(x, y)


# A constant zero step is rejected.
# RUN: not kiln compile %s --emit=ir --entry arange_step 2>&1 | FileCheck %s --check-prefix=ARANGESTEP --strict-whitespace --implicit-check-not='{{error|note}}:'
# ARANGESTEP: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: torch.arange() step must be nonzero{{$}}
# ARANGESTEP-NEXT: {{^}}    return torch.arange(0, 5, 0){{$}}
# ARANGESTEP-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3]
def arange_step(x):
    return torch.arange(0, 5, 0)


# Constant bounds that the step moves away from are rejected.
# RUN: not kiln compile %s --emit=ir --entry arange_sign 2>&1 | FileCheck %s --check-prefix=ARANGESIGN --strict-whitespace --implicit-check-not='{{error|note}}:'
# ARANGESIGN: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: torch.arange(): upper bound and larger bound inconsistent with step sign{{$}}
# ARANGESIGN-NEXT: {{^}}    return torch.arange(0, 5, -1){{$}}
# ARANGESIGN-NEXT: {{^}}           ^~~~~~~~~~~~~~~~~~~~~~{{$}}
# kiln: x=f32[3]
def arange_sign(x):
    return torch.arange(0, 5, -1)


# clamp needs min or max.
# RUN: not kiln compile %s --emit=ir --entry clamp_none 2>&1 | FileCheck %s --check-prefix=CLAMPNONE --strict-whitespace --implicit-check-not='{{error|note}}:'
# CLAMPNONE: {{^.*}}nn-errors.py:[[@LINE+5]]:12: error: clamp() needs at least one of min and max{{$}}
# CLAMPNONE-NEXT: {{^}}    return x.clamp(){{$}}
# CLAMPNONE-NEXT: {{^}}           ^~~~~~~~~{{$}}
# kiln: x=f32[3]
def clamp_none(x):
    return x.clamp()


# argmax of a bool tensor is rejected, as in PyTorch.
# RUN: not kiln compile %s --emit=ir --entry argmax_bool 2>&1 | FileCheck %s --check-prefix=ARGMAXBOOL --strict-whitespace --implicit-check-not='{{error|note}}:'
# ARGMAXBOOL: {{^.*}}nn-errors.py:[[@LINE+6]]:12: error: argmax() does not support bool tensors, got a Tensor[bool, 3]{{$}}
# ARGMAXBOOL-NEXT: {{^}}    return x.argmax(){{$}}
# ARGMAXBOOL-NEXT: {{^}}           ^~~~~~~~~~{{$}}
# ARGMAXBOOL-NEXT: {{^.*}}nn-errors.py: note: in '_no_bool', called by 'argmax', kiln's prelude decomposition of this call (frontend/prelude/reductions.py:{{[0-9]+}}){{$}}
# kiln: x=bool[3]
def argmax_bool(x):
    return x.argmax()
