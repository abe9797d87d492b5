//===- KernelRefs.cpp - The references of the test kernels ----------------===//
//
// One entry per kernel name that test/gpu/kernels/variants.txt compiles. To
// test a new kernel, add its spec and variants there and its entry here:
// signature, input and scalar ranges, shapes and the per-element formula.
//
//===----------------------------------------------------------------------===//

#include "HostValues.h"
#include "KernelRef.h"

#include <algorithm>
#include <cmath>

namespace tilert::gputest {

namespace {

/// The exact (erf) GELU.
double gelu(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }

// 1-D library specs (specs/*.tile): tensors A, B, C or X, Y over N.

double vectorAdd(const RefInputs &in, size_t, const int64_t *c,
                 double &magnitude) {
  double A = in.at(0, {c[0]}), B = in.at(1, {c[0]});
  magnitude = std::fabs(A) + std::fabs(B);
  return A + B;
}

double scaleAdd(const RefInputs &in, size_t, const int64_t *c,
                double &magnitude) {
  double Scaled = in.scalar(0) * in.at(0, {c[0]}), B = in.at(1, {c[0]});
  magnitude = std::fabs(Scaled) + std::fabs(B);
  return Scaled + B;
}

double geluForward(const RefInputs &in, size_t, const int64_t *c,
                   double &magnitude) {
  double X = in.at(0, {c[0]});
  magnitude = std::fabs(X);
  return gelu(X);
}

double doubled(const RefInputs &in, size_t, const int64_t *c,
               double &magnitude) {
  double X = in.at(0, {c[0]});
  magnitude = std::fabs(X);
  return 2 * X;
}

/// Y[m] = the sum of row m of X (specs/row_sum.tile), in f32.
double rowSum(const RefInputs &in, size_t, const int64_t *c,
              double &magnitude) {
  double Sum = 0;
  magnitude = 0;
  for (int64_t N = 0; N < in.dim(1); ++N) {
    double X = in.at(0, {c[0], N});
    Sum += X;
    magnitude += std::fabs(X);
  }
  return Sum;
}

// Row-wise specs over X[M, N]: each output element needs its row's
// statistics, recomputed per element (the check is parallel and the
// shapes small).

/// softmax(X)[m, n] = exp(X[m, n] - max) / sum of exp(X[m, j] - max) over
/// row m (specs/softmax.tile, specs/softmax_online.tile), in f32.
double softmax(const RefInputs &in, size_t, const int64_t *c,
               double &magnitude) {
  double Max = -INFINITY;
  for (int64_t N = 0; N < in.dim(1); ++N)
    Max = std::max(Max, in.at(0, {c[0], N}));
  double Sum = 0;
  for (int64_t N = 0; N < in.dim(1); ++N)
    Sum += std::exp(in.at(0, {c[0], N}) - Max);
  double Y = std::exp(in.at(0, {c[0], c[1]}) - Max) / Sum;
  magnitude = Y;
  return Y;
}

/// X[m, n] / sqrt(mean of X[m, j]^2 + eps) * W[n] (specs/rmsnorm.tile).
double rmsnorm(const RefInputs &in, size_t, const int64_t *c,
               double &magnitude) {
  double Squares = 0;
  for (int64_t N = 0; N < in.dim(1); ++N) {
    double X = in.at(0, {c[0], N});
    Squares += X * X;
  }
  double Scale = 1 / std::sqrt(Squares / in.dim(1) + in.scalar(0));
  double Y = in.at(0, {c[0], c[1]}) * Scale * in.at(1, {c[1]});
  magnitude = std::fabs(Y);
  return Y;
}

/// (X[m, n] - mean) / sqrt(var + eps) * W[n] + B[n], var the mean of the
/// squared deviations of row m (specs/layernorm.tile with has_bias).
double layernorm(const RefInputs &in, size_t, const int64_t *c,
                 double &magnitude) {
  double Sum = 0;
  for (int64_t N = 0; N < in.dim(1); ++N)
    Sum += in.at(0, {c[0], N});
  double Mean = Sum / in.dim(1);
  double Deviations = 0;
  for (int64_t N = 0; N < in.dim(1); ++N) {
    double D = in.at(0, {c[0], N}) - Mean;
    Deviations += D * D;
  }
  double Scale = 1 / std::sqrt(Deviations / in.dim(1) + in.scalar(0));
  double Normalized =
      (in.at(0, {c[0], c[1]}) - Mean) * Scale * in.at(1, {c[1]});
  double Bias = in.at(2, {c[1]});
  magnitude = std::fabs(Normalized) + std::fabs(Bias);
  return Normalized + Bias;
}

// The GEMM specs: C[m, n] = sum over k of op(A)[m, k] * op(B)[k, n], A and
// B stored as the spec says (transposed: A as [K, M], B as [N, K]); dim `k`
// is the reference's K (its index among the dims: first appearance).

double gemmSum(const RefInputs &in, const int64_t *c, size_t kDim,
               bool transposeA, bool transposeB, double &magnitude) {
  double Sum = 0;
  magnitude = 0;
  for (int64_t K = 0; K < in.dim(kDim); ++K) {
    double A = transposeA ? in.at(0, {K, c[0]}) : in.at(0, {c[0], K});
    double B = transposeB ? in.at(1, {c[1], K}) : in.at(1, {K, c[1]});
    Sum += A * B;
    magnitude += std::fabs(A * B);
  }
  return Sum;
}

double gemmNN(const RefInputs &in, size_t, const int64_t *c,
              double &magnitude) {
  return gemmSum(in, c, 1, false, false, magnitude);
}

double gemmNT(const RefInputs &in, size_t, const int64_t *c,
              double &magnitude) {
  return gemmSum(in, c, 1, false, true, magnitude);
}

double gemmTN(const RefInputs &in, size_t, const int64_t *c,
              double &magnitude) {
  return gemmSum(in, c, 0, true, false, magnitude);
}

double gemmTT(const RefInputs &in, size_t, const int64_t *c,
              double &magnitude) {
  return gemmSum(in, c, 0, true, true, magnitude);
}

/// gelu(A x B + bias[n]) (specs/gemm_bias_gelu.tile).
double gemmBiasGelu(const RefInputs &in, size_t, const int64_t *c,
                    double &magnitude) {
  double Bias = in.at(2, {c[1]});
  double X = gemmSum(in, c, 1, false, false, magnitude) + Bias;
  magnitude += std::fabs(Bias);
  return gelu(X);
}

// Rank-2 and rank-3 kernels of test/gpu/kernels.

double copy2d(const RefInputs &in, size_t, const int64_t *c, double &) {
  return in.at(0, {c[0], c[1]});
}

double affine2d(const RefInputs &in, size_t, const int64_t *c,
                double &magnitude) {
  double X = in.scalar(0) * in.at(0, {c[0], c[1]});
  double Y = in.scalar(1) * in.at(1, {c[0], c[1]});
  double Bias = in.at(2, {c[1]}) * in.at(3, {c[0]});
  magnitude = std::fabs(X) + std::fabs(Y) + std::fabs(Bias);
  return X + Y + Bias;
}

double convert(const RefInputs &in, size_t output, const int64_t *c, double &) {
  return roundTo(in.dtype(output), in.at(0, {c[0], c[1]}));
}

/// Y is N x M: element (n, m) is X's (m, n).
double transpose(const RefInputs &in, size_t, const int64_t *c, double &) {
  return in.at(0, {c[1], c[0]});
}

double iota2d(const RefInputs &in, size_t, const int64_t *c, double &) {
  return static_cast<double>(c[0] * in.dim(1) + c[1]) + in.scalar(0);
}

double horner(const RefInputs &in, size_t, const int64_t *c,
              double &magnitude) {
  double X = in.at(0, {c[0], c[1]});
  double Value = in.scalar(3), Magnitude = std::fabs(in.scalar(3));
  for (int K = 2; K >= 0; --K) {
    Value = Value * X + in.scalar(K);
    Magnitude = Magnitude * std::fabs(X) + std::fabs(in.scalar(K));
  }
  double Scale = std::ldexp(1.0, -static_cast<int>(in.scalar(4)));
  magnitude = Magnitude * Scale;
  return Value * Scale;
}

/// Output 1 is E = elu(x), output 2 is G = x > 3 ? x : gelu(x).
double eluGelu(const RefInputs &in, size_t output, const int64_t *c,
               double &magnitude) {
  double X = in.at(0, {c[0], c[1]});
  if (output == 1) {
    magnitude = X < 0 ? std::exp(X) + 1 : X;
    return X < 0 ? std::expm1(X) : X;
  }
  magnitude = std::fabs(X);
  return X > 3 ? X : gelu(X);
}

/// Y[b, m, n] = X[b, m, n] * W[m, n], one rounding to the dtype.
double batchScale3d(const RefInputs &in, size_t output, const int64_t *c,
                    double &) {
  return roundTo(in.dtype(output),
                 in.at(0, {c[0], c[1], c[2]}) * in.at(1, {c[1], c[2]}));
}

/// N: not multiples of any block, up to 2^28 elements.
const std::vector<std::vector<int64_t>> Shapes1D = {
    {1}, {7}, {1000}, {(int64_t(1) << 20) + 3}, {int64_t(1) << 28}};
/// M x N: degenerate, M != N, neither a multiple of the tile, and full tiles
/// (1000 x 1000 and 64 x 512 take the f16 vector path).
const std::vector<std::vector<int64_t>> Shapes2D = {
    {1, 1}, {7, 13}, {37, 83}, {1000, 1000}, {4097, 33}, {64, 512}};
/// M x K x N of the GEMMs (K x M x N for those with A transposed): partial
/// tiles on every side, K a multiple of 8 (TMA) and not (the cp.async
/// fallback), N odd (the fallback), several tiles per block of a
/// persistent launch.
const std::vector<std::vector<int64_t>> GemmShapes = {
    {1, 8, 1},    {17, 72, 130}, {129, 64, 257},  {300, 136, 200},
    {33, 40, 19}, {5, 3, 7},     {2048, 32, 2048}};
/// The same shapes with M and K swapped in the list (K x M x N).
const std::vector<std::vector<int64_t>> GemmShapesKMN = {
    {8, 1, 1},    {72, 17, 130}, {64, 129, 257},  {136, 300, 200},
    {40, 33, 19}, {3, 5, 7},     {32, 2048, 2048}};
/// B x M x N, likewise.
const std::vector<std::vector<int64_t>> Shapes3D = {
    {1, 1, 1},      {3, 7, 13},   {5, 37, 83},
    {2, 100, 1000}, {3, 1025, 8}, {4, 64, 256}};

/// The reference of a row softmax spec named `name`: Y = softmax over each
/// row of X.
KernelRef softmaxRef(const char *name) {
  return {name,
          {{"X", "dtype", {"M", "N"}, /*Output=*/false},
           {"Y", "dtype", {"M", "N"}, /*Output=*/true}},
          {"M", "N"},
          {},
          -8,
          8,
          Shapes2D,
          Accuracy::Rounded,
          softmax};
}

/// The reference of a kernel named `name` that copies X[M, N] into Y[M, N]
/// exactly (copy2d and the kernels that go through shared tiles or local
/// buffers).
KernelRef copyRef(const char *name) {
  return {name,
          {{"X", "dtype", {"M", "N"}, /*Output=*/false},
           {"Y", "dtype", {"M", "N"}, /*Output=*/true}},
          {"M", "N"},
          {},
          -4,
          4,
          Shapes2D,
          Accuracy::Exact,
          copy2d};
}

/// The reference of a kernel named `name` that sums each row of X[M, N]
/// into Y[M] in f32 (specs/row_sum.tile and its staged test kernel).
KernelRef rowSumRef(const char *name) {
  return {name,
          {{"X", "dtype", {"M", "N"}, /*Output=*/false},
           {"Y", "f32", {"M"}, /*Output=*/true}},
          {"M", "N"},
          {},
          -4,
          4,
          Shapes2D,
          Accuracy::Rounded,
          rowSum};
}

/// The reference of a norm spec named `name` with the [N] parameters
/// `params` after X[M, N] and before Y[M, N], and a run-time `eps`.
KernelRef normRef(const char *name, std::vector<const char *> params,
                  decltype(KernelRef::Compute) compute) {
  KernelRef Ref{name,       {{"X", "dtype", {"M", "N"}, /*Output=*/false}},
                {"M", "N"}, {{"eps", TILERT_DTYPE_F32, 1e-6, 1e-2}},
                -4,         4,
                Shapes2D,   Accuracy::Rounded,
                compute};
  for (const char *Param : params)
    Ref.Tensors.push_back({Param, "dtype", {"N"}, /*Output=*/false});
  Ref.Tensors.push_back({"Y", "dtype", {"M", "N"}, /*Output=*/true});
  return Ref;
}

const std::vector<KernelRef> &refs() {
  constexpr bool In = false, Out = true;
  static const std::vector<KernelRef> Table = {
      // C = A + B.
      {"vector_add",
       {{"A", "dtype", {"N"}, In},
        {"B", "dtype", {"N"}, In},
        {"C", "dtype", {"N"}, Out}},
       {"N"},
       {},
       -4,
       4,
       Shapes1D,
       Accuracy::Rounded,
       vectorAdd},
      // C = alpha * A + B, math in f32.
      {"scale_add",
       {{"A", "dtype", {"N"}, In},
        {"B", "dtype", {"N"}, In},
        {"C", "dtype", {"N"}, Out}},
       {"N"},
       {{"alpha", TILERT_DTYPE_F32, -2, 2}},
       -4,
       4,
       Shapes1D,
       Accuracy::Rounded,
       scaleAdd},
      // Y = 0.5 * X * (1 + erf(X / sqrt(2))) (specs/gelu.tile).
      {"gelu_forward",
       {{"X", "dtype", {"N"}, In}, {"Y", "dtype", {"N"}, Out}},
       {"N"},
       {},
       -6,
       6,
       Shapes1D,
       Accuracy::Rounded,
       geluForward},
      // Y = X, directly and through shared tiles (block copies).
      copyRef("copy2d"),
      copyRef("copy2d_staged"),
      copyRef("copy_rows_staged"),
      copyRef("copy_tiles_local"),
      // Z = alpha * X + beta * Y + bias[n] * scale[m], math in f32.
      {"affine2d",
       {{"X", "dtype", {"M", "N"}, In},
        {"Y", "dtype", {"M", "N"}, In},
        {"bias", "f32", {"N"}, In},
        {"scale", "f32", {"M"}, In},
        {"Z", "dtype", {"M", "N"}, Out}},
       {"M", "N"},
       {{"alpha", TILERT_DTYPE_F32, -2, 2}, {"beta", TILERT_DTYPE_F32, -2, 2}},
       -4,
       4,
       Shapes2D,
       Accuracy::Rounded,
       affine2d},
      // Y = cast<dst>(X): f16 spacing is 2 above 2048 and bf16's 16, so
      // values up to 3000 exercise rounding (ties to even from i32) and
      // truncation to i32.
      {"convert",
       {{"X", "src", {"M", "N"}, In}, {"Y", "dst", {"M", "N"}, Out}},
       {"M", "N"},
       {},
       -3000,
       3000,
       Shapes2D,
       Accuracy::Exact,
       convert},
      // Y[n, m] = X[m, n].
      {"transpose",
       {{"X", "dtype", {"M", "N"}, In}, {"Y", "dtype", {"N", "M"}, Out}},
       {"M", "N"},
       {},
       -4,
       4,
       Shapes2D,
       Accuracy::Exact,
       transpose},
      // Y[n, m] = X[m, n], through shared memory.
      {"transpose_smem",
       {{"X", "dtype", {"M", "N"}, In}, {"Y", "dtype", {"N", "M"}, Out}},
       {"M", "N"},
       {},
       -4,
       4,
       Shapes2D,
       Accuracy::Exact,
       transpose},
      // Y[m, n] = m * N + n + base.
      {"iota2d",
       {{"Y", "i32", {"M", "N"}, Out}},
       {"M", "N"},
       {{"base", TILERT_DTYPE_I32, -1000, 1000}},
       0,
       0,
       Shapes2D,
       Accuracy::Exact,
       iota2d},
      // Y = (c0 + c1 x + c2 x^2 + c3 x^3) / 2^halvings, in f32.
      {"horner",
       {{"X", "f32", {"M", "N"}, In}, {"Y", "f32", {"M", "N"}, Out}},
       {"M", "N"},
       {{"c0", TILERT_DTYPE_F32, -2, 2},
        {"c1", TILERT_DTYPE_F32, -2, 2},
        {"c2", TILERT_DTYPE_F32, -2, 2},
        {"c3", TILERT_DTYPE_F32, -2, 2},
        {"halvings", TILERT_DTYPE_I32, 0, 5}},
       -2,
       2,
       Shapes2D,
       Accuracy::Rounded,
       horner},
      // E = elu(X), G = X > 3 ? X : gelu(X), in f32.
      {"elu_gelu",
       {{"X", "dtype", {"M", "N"}, In},
        {"E", "dtype", {"M", "N"}, Out},
        {"G", "dtype", {"M", "N"}, Out}},
       {"M", "N"},
       {},
       -6,
       6,
       Shapes2D,
       Accuracy::Rounded,
       eluGelu},
      // Y = 2 X, printing from block 0 (test/gpu/kernels/print.tile).
      {"print_doubled",
       {{"X", "f32", {"N"}, In}, {"Y", "f32", {"N"}, Out}},
       {"N"},
       {},
       -4,
       4,
       Shapes1D,
       Accuracy::Exact,
       doubled},
      // Y[m] = sum over n of X[m, n] (specs/row_sum.tile): the block's
      // lane groups' partials combined in shared memory, by every thread
      // or (from 16 groups on) by a butterfly; the same with each row
      // staged block by block in shared memory.
      rowSumRef("row_sum"),
      rowSumRef("row_sum_staged"),
      // Y = softmax over each row of X (one row in registers per block;
      // the online form, rows of any length in chunks).
      softmaxRef("softmax"),
      softmaxRef("softmax_online"),
      // The norms, eps a run-time scalar.
      normRef("rmsnorm", {"W"}, rmsnorm),
      normRef("layernorm", {"W", "B"}, layernorm),
      // C = A B, A B^T, A^T B, A^T B^T (specs/gemm*.tile).
      {"gemm",
       {{"A", "dtype", {"M", "K"}, In},
        {"B", "dtype", {"K", "N"}, In},
        {"C", "dtype", {"M", "N"}, Out}},
       {"M", "K", "N"},
       {},
       -2,
       2,
       GemmShapes,
       Accuracy::Rounded,
       gemmNN},
      {"gemm_nt",
       {{"A", "dtype", {"M", "K"}, In},
        {"B", "dtype", {"N", "K"}, In},
        {"C", "dtype", {"M", "N"}, Out}},
       {"M", "K", "N"},
       {},
       -2,
       2,
       GemmShapes,
       Accuracy::Rounded,
       gemmNT},
      {"gemm_tn",
       {{"A", "dtype", {"K", "M"}, In},
        {"B", "dtype", {"K", "N"}, In},
        {"C", "dtype", {"M", "N"}, Out}},
       {"K", "M", "N"},
       {},
       -2,
       2,
       GemmShapesKMN,
       Accuracy::Rounded,
       gemmTN},
      {"gemm_tt",
       {{"A", "dtype", {"K", "M"}, In},
        {"B", "dtype", {"N", "K"}, In},
        {"C", "dtype", {"M", "N"}, Out}},
       {"K", "M", "N"},
       {},
       -2,
       2,
       GemmShapesKMN,
       Accuracy::Rounded,
       gemmTT},
      // C = gelu(A B + bias).
      {"gemm_bias_gelu",
       {{"A", "dtype", {"M", "K"}, In},
        {"B", "dtype", {"K", "N"}, In},
        {"bias", "dtype", {"N"}, In},
        {"C", "dtype", {"M", "N"}, Out}},
       {"M", "K", "N"},
       {},
       -2,
       2,
       GemmShapes,
       Accuracy::Rounded,
       gemmBiasGelu},
      // Y[b, m, n] = X[b, m, n] * W[m, n] in dtype.
      {"batch_scale3d",
       {{"X", "dtype", {"B", "M", "N"}, In},
        {"W", "dtype", {"M", "N"}, In},
        {"Y", "dtype", {"B", "M", "N"}, Out}},
       {"B", "M", "N"},
       {},
       -4,
       4,
       Shapes3D,
       Accuracy::Exact,
       batchScale3d},
  };
  return Table;
}

} // namespace

const KernelRef *findKernelRef(std::string_view name) {
  for (const KernelRef &Ref : refs())
    if (name == Ref.Name)
      return &Ref;
  return nullptr;
}

const std::vector<KernelRef> &allKernelRefs() { return refs(); }

} // namespace tilert::gputest
