"""kiln's prelude: softmax and log_softmax in every spelling, and the
torch.nn.functional ops of nn models, whose torch.nn modules' forwards
(modules.py) call them. Models compile in eval mode: dropout is the
identity and batch_norm uses the running statistics, and asking for
training is an error rather than a silent difference.

See nn.py for how the prelude is written and compiled.
"""
from kiln_table import ACTIVATION, FUNCTIONAL, METHOD, TORCH, op


@op('softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,5]', '1', -8, 8),
             ('x=f32[B,3,4]', '0', -8, 8),
             ('x=f64[6]', '-1', -30, 30),
             ('x=f32[3,4]', 'dim=1, dtype=torch.float64')],
    build='softmax')
@op('softmax(Tensor self, int? dim=None, int _stacklevel=3, ScalarType? dtype=None) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,5]', '1', -8, 8),
             ('x=f32[B,3,4]', '0', -8, 8),
             ('x=f64[6]', '-1', -30, 30),
             ('x=f32[3,4]', 'dim=1, dtype=torch.float64')],
    build='softmax')
@op('log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor',
    TORCH | METHOD,
    samples=[('x=f32[B,5]', '1', -8, 8),
             ('x=f32[B,3,4]', '0', -8, 8),
             ('x=f64[6]', '-1', -30, 30),
             ('x=f32[3,4]', 'dim=1, dtype=torch.float64')],
    build='log_softmax')
@op('log_softmax(Tensor self, int? dim=None, int _stacklevel=3, ScalarType? dtype=None) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,5]', '1', -8, 8),
             ('x=f32[B,3,4]', '0', -8, 8),
             ('x=f64[6]', '-1', -30, 30),
             ('x=f32[3,4]', 'dim=1, dtype=torch.float64')],
    build='log_softmax')
@op('linear(Tensor self, Tensor weight, Tensor? bias=None) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,5], w=f32[4,5], b=f32[4]', 'w, b'),
             ('x=f32[2,B,5], w=f32[3,5]', 'w')],
    build='linear')
@op('layer_norm(Tensor self, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,4]', '(4,)'),
             ('x=f32[B,3,4], w=f32[3,4], b=f32[3,4]', '(3, 4), w, b, 1e-3')],
    build='layer_norm')
@op('batch_norm(Tensor self, Tensor? running_mean, Tensor? running_var, Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, float eps=1e-05) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,4], m=f32[3], v=f32[3]', 'm, v', 0.1, 2),
             ('x=f32[B,3], m=f32[3], v=f32[3], w=f32[3], b=f32[3]', 'm, v, w, b, False, 0.1, 1e-3', 0.1, 2)],
    build='batch_norm')
@op('embedding(Tensor self, Tensor weight, int? padding_idx=None, Scalar? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor',
    FUNCTIONAL,
    samples=[('i=i64[B,3], w=f32[5,4]', 'w')],
    build='embedding')
@op('conv2d(Tensor self, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8], w=f32[4,3,3,3], b=f32[4]', 'w, b'),
             ('x=f32[B,4,7,9], w=f32[6,2,3,2]', 'w, None, (2, 1), (1, 0), 2, 2'),
             ('x=f64[1,2,5,5], w=f64[3,2,1,1]', 'w, stride=2'),
             ('x=f32[0,3,4,4], w=f32[2,3,3,3]', 'w, padding=1')],
    build='conv2d')
@op("conv2d(Tensor self, Tensor weight, Tensor? bias=None, int[2] stride=1, str padding='valid', int[2] dilation=1, int groups=1) -> Tensor",
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8], w=f32[4,3,3,3]', "w, padding='same'"),
             ('x=f32[B,3,8,8], w=f32[4,3,3,5], b=f32[4]', "w, b, padding='same', dilation=(2, 1)"),
             ('x=f32[B,3,6,6], w=f32[4,3,3,3]', "w, padding='valid'")],
    note="'same' needs stride 1 and an even total padding",
    build='conv2d')
@op('max_pool2d(Tensor self, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, bool return_indices=False) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8]', '2'),
             ('x=f32[B,2,9,7]', '(3, 2), stride=(2, 1), padding=1, ceil_mode=True'),
             ('x=f64[1,2,9,9]', '3, 2, 0, 2'),
             ('x=f32[0,2,4,4]', '2')],
    build='max_pool2d')
@op('avg_pool2d(Tensor self, int[2] kernel_size, int[2]? stride=None, int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8]', '2'),
             ('x=f32[B,2,9,7]', '3, 2, 1, True, False'),
             ('x=f64[1,2,6,6]', '(2, 3), padding=1'),
             ('x=f32[0,2,4,4]', '2, []')],
    note='divisor_override is not supported',
    build='avg_pool2d')
@op('adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor',
    FUNCTIONAL,
    samples=[('x=f32[B,3,8,8]', '1'),
             ('x=f32[B,3,8,6]', '(4, 3)'),
             ('x=f32[2,3,7,5]', '(3, 5)'),
             ('x=f64[1,2,5,9]', '(2, 4)'),
             ('x=f32[2,3,H,W]', '(1, 1)')],
    build='adaptive_avg_pool2d')
@op('dropout(Tensor self, float p=0.5, bool training=True) -> Tensor',
    ACTIVATION,
    samples=[('x=f32[B,4]', '0.2, False'),
             ('x=f32[3]', 'training=False')],
    note='eval mode only: the identity; training=True is an error',
    build='dropout')
def _functional_rows():
    pass
