//===- OpTablePrelude.cpp - The op table's rows written in the prelude ----===//
//
// The rows whose lowering is a function of the Python prelude
// (frontend/prelude/*.py, see Prelude.h): each calls the prelude function
// named as its schema, with the call's arguments bound to the schema and
// passed in its order, so the schema and the function's signature list the
// same parameters. Keyword-only parameters (`*`) stand where PyTorch's
// Python signature has deprecated ones (size_average, reduce), so that a
// positional argument there is refused rather than bound to the wrong
// parameter.
//
//===----------------------------------------------------------------------===//
#include "frontend/LoweringImpl.h"
#include "frontend/OpFamilies.h"
#include "frontend/Prelude.h"

namespace kiln::ops {

namespace {
std::optional<mlir::Value> prelude(OpArgs &a) { return lowerViaPrelude(a); }

/// A loss: its `reduction` is checked here, as PyTorch checks it, since the
/// prelude would take any other string for 'none'.
std::optional<mlir::Value> loss(OpArgs &a) {
  std::string r = a.str("reduction");
  bool batchmean = a.row.schema().name == "kl_div" && r == "batchmean";
  if (r != "mean" && r != "sum" && r != "none" && !batchmean) {
    a.fl.error(a.range("reduction"),
               "'" + r + "' is not a valid value for reduction");
    return std::nullopt;
  }
  return lowerViaPrelude(a);
}

constexpr unsigned kLoss = Functional;
constexpr const char *kNote = "prelude (nn.py)";
} // namespace

std::vector<Row> preludeRows() {
  return {
      {"glu(Tensor self, int dim=-1) -> Tensor",
       Functional,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,6]"}, {"x=f64[4,3]", "0"}, {"x=f32[2,4,6]", "dim=1"}},
       {},
       0,
       0,
       kNote},
      {"logsumexp(Tensor self, int[] dim, bool keepdim=False) -> Tensor",
       Torch | Method,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,5]", "1"},
        {"x=f64[3,4]", "(0, 1), keepdim=True"},
        {"x=f32[B,5]", "-1, True", -30, 30}},
       {},
       0,
       0,
       kNote},
      {"softmin(Tensor self, int dim) -> Tensor",
       Functional,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,5]", "1"}, {"x=f64[3,4]", "0"}},
       {},
       0,
       0,
       kNote},
      {"normalize(Tensor self, float p=2.0, int dim=1, float eps=1e-12) -> "
       "Tensor",
       Functional,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,5]"},
        {"x=f64[3,4]", "p=1.0, dim=0"},
        {"x=f32[B,4]", "3.0, -1"}},
       {},
       0,
       0,
       kNote},
      {"cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) "
       "-> Tensor",
       Torch | Functional,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,5], y=f32[B,5]", "y"},
        {"x=f32[B,1,4], y=f32[3,4]", "y, -1"},
        {"x=f64[3,4], y=f64[3,4]", "y, 0, 1e-6"}},
       {},
       0,
       0,
       kNote},
      {"pairwise_distance(Tensor x1, Tensor x2, float p=2.0, float "
       "eps=1e-06, bool keepdim=False) -> Tensor",
       Torch | Functional,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,5], y=f32[B,5]", "y"},
        {"x=f64[3,4], y=f64[4]", "y, 1.0"},
        {"x=f32[B,5], y=f32[B,5]", "y, 3.0, keepdim=True"}},
       {},
       0,
       0,
       kNote},
      {"addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, "
       "Scalar alpha=1) -> Tensor",
       Torch | Method,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[3,4], a=f32[3,5], b=f32[5,4]", "a, b"},
        {"x=f32[4], a=f32[B,5], b=f32[5,4]", "a, b, beta=0.5, alpha=2.0"},
        {"x=f64[3,1], a=f64[3,2], b=f64[2,4]", "a, b, beta=0"}},
       {},
       0,
       0,
       kNote},
      {"baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
       "Scalar alpha=1) -> Tensor",
       Torch | Method,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,3,4], a=f32[B,3,5], b=f32[B,5,4]", "a, b"},
        {"x=f32[3,4], a=f32[2,3,5], b=f32[2,5,4]",
         "a, b, beta=2.0, alpha=0.5"}},
       {},
       0,
       0,
       kNote},
      {"group_norm(Tensor self, int num_groups, Tensor? weight=None, Tensor? "
       "bias=None, float eps=1e-05) -> Tensor",
       Torch | Functional,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,6,4,4]", "3"},
        {"x=f32[B,4,5], w=f32[4], b=f32[4]", "2, w, b"},
        {"x=f64[2,6]", "6, eps=1e-3"}},
       {},
       0,
       0,
       kNote},
      {"instance_norm(Tensor self, Tensor? running_mean=None, Tensor? "
       "running_var=None, Tensor? weight=None, Tensor? bias=None, bool "
       "use_input_stats=True, float momentum=0.1, float eps=1e-05) -> Tensor",
       Functional,
       nullptr,
       prelude,
       NoFlags,
       {{"x=f32[B,3,4,4]"},
        {"x=f32[B,3,5], w=f32[3], b=f32[3]", "weight=w, bias=b"},
        {"x=f32[B,3,5], m=f32[3], v=f32[3]",
         "m, v * v + 0.5, use_input_stats=False"}},
       {},
       0,
       0,
       "prelude (nn.py); inference: running statistics are read, not updated"},
      {"mse_loss(Tensor self, Tensor target, *, str reduction='mean') -> "
       "Tensor",
       kLoss,
       nullptr,
       loss,
       NoFlags,
       {{"x=f32[B,5], y=f32[B,5]", "y"},
        {"x=f64[4], y=f64[4]", "y, reduction='sum'"},
        {"x=f32[B,5], y=f32[B,5]", "y, reduction='none'"}},
       {},
       0,
       0,
       kNote},
      {"l1_loss(Tensor self, Tensor target, *, str reduction='mean') -> "
       "Tensor",
       kLoss,
       nullptr,
       loss,
       NoFlags,
       {{"x=f32[B,5], y=f32[B,5]", "y"},
        {"x=f64[4], y=f64[4]", "y, reduction='none'"}},
       {},
       0,
       0,
       kNote},
      {"smooth_l1_loss(Tensor self, Tensor target, *, str reduction='mean', "
       "float beta=1.0) -> Tensor",
       kLoss,
       nullptr,
       loss,
       NoFlags,
       {{"x=f32[B,5], y=f32[B,5]", "y", -3, 3},
        {"x=f64[4], y=f64[4]", "y, reduction='sum', beta=0.5", -3, 3},
        {"x=f32[B,5], y=f32[B,5]", "y, reduction='none', beta=0.0"}},
       {},
       0,
       0,
       kNote},
      {"binary_cross_entropy(Tensor self, Tensor target, Tensor? "
       "weight=None, *, str reduction='mean') -> Tensor",
       kLoss,
       nullptr,
       loss,
       NoFlags,
       {{"x=f32[B,5], y=f32[B,5]", "y", 0.01, 0.99},
        {"x=f32[4], y=f32[4], w=f32[4]", "y, w, reduction='sum'", 0.01, 0.99},
        {"x=f64[B,3], y=f64[B,3]", "y, reduction='none'", 0.01, 0.99}},
       {},
       0,
       0,
       kNote},
      {"kl_div(Tensor self, Tensor target, *, str reduction='mean', bool "
       "log_target=False) -> Tensor",
       kLoss,
       nullptr,
       loss,
       NoFlags,
       {{"x=f32[B,5], y=f32[B,5]", "y, reduction='batchmean'", 0, 1},
        {"x=f32[4], y=f32[4]", "y, reduction='sum', log_target=True"},
        {"x=f64[B,3], y=f64[B,3]", "y, reduction='none'", 0, 1}},
       {},
       0,
       0,
       kNote},
      {"nll_loss(Tensor self, Tensor target, Tensor? weight=None, *, int "
       "ignore_index=-100, str reduction='mean') -> Tensor",
       kLoss,
       nullptr,
       loss,
       NoFlags,
       {{"x=f32[B,5], t=i64[B]", "t"},
        {"x=f32[B,5], t=i64[B], w=f32[5]", "t, w * w + 0.5, reduction='sum'"},
        {"x=f32[2,5,3], t=i64[2,3]", "t, ignore_index=2"},
        {"x=f64[B,5], t=i64[B]", "t, reduction='none'"},
        {"x=f32[5], t=i64[]", "t"}},
       {},
       0,
       0,
       kNote},
      {"cross_entropy(Tensor self, Tensor target, Tensor? weight=None, *, int "
       "ignore_index=-100, str reduction='mean', float label_smoothing=0.0) "
       "-> Tensor",
       kLoss,
       nullptr,
       loss,
       NoFlags,
       {{"x=f32[B,5], t=i64[B]", "t", -4, 4},
        {"x=f32[B,5], t=i64[B], w=f32[5]", "t, w * w + 0.5"},
        {"x=f32[B,5], t=i64[B]", "t, label_smoothing=0.1"},
        {"x=f32[2,5,3], t=i64[2,3]", "t, ignore_index=1, reduction='none'"},
        {"x=f64[5], t=i64[]", "t, reduction='sum', label_smoothing=0.2"},
        {"x=f32[B,5], t=i64[B]", "t, ignore_index=3, reduction='sum'"}},
       {},
       0,
       0,
       "prelude (nn.py); class indices; probabilities as targets are not "
       "supported"},
  };
}

} // namespace kiln::ops
