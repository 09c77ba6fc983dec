#pragma once
// Shared helpers of kt's tests: the device lists that TEST_CASE_TEMPLATE runs over, readable
// names for them, per-dtype tolerances and a bitwise comparison of tensors.

#include <doctest/doctest.h>

#include <kt/kt.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace kt_test {

/// A (device, dtype) pair for tests typed over both.
template <class D, class T>
struct Case {
  using device = D;
  using dtype = T;
};

/// Whether a and b have the same shape and the same bits (results that kt promises identical).
template <class T, class D>
bool bit_equal(const kt::Tensor<T, D>& a, const kt::Tensor<T, D>& b) {
  const auto x = a.to_vector(), y = b.to_vector();
  return a.shape() == b.shape() && std::memcmp(x.data(), y.data(), x.size() * sizeof(T)) == 0;
}

/// Absolute/relative tolerance for comparing results computed in T with a double reference.
template <class T>
constexpr double tolerance() {
  if constexpr (std::is_same_v<T, double>) return 1e-12;
  else if constexpr (std::is_same_v<T, float>) return 1e-5;
  else if constexpr (std::is_same_v<T, kt::half>) return 2e-3;
  else if constexpr (std::is_same_v<T, kt::bfloat16>) return 1.6e-2;
  else return 0;
}

/// The values as doubles (16-bit dtypes through their exact float value).
template <class T>
std::vector<double> as_double(const std::vector<T>& v) {
  std::vector<double> out;
  out.reserve(v.size());
  for (const T& x : v) out.push_back(static_cast<double>(static_cast<kt::compute_t<T>>(x)));
  return out;
}

/// |a - b| <= tol * max(1, |b|), element by element; reports the first mismatch.
template <class T>
bool all_close(const std::vector<T>& got, const std::vector<double>& want, double tol = tolerance<T>()) {
  if (got.size() != want.size()) {
    MESSAGE("size mismatch: got ", got.size(), ", want ", want.size());
    return false;
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g = static_cast<double>(static_cast<kt::compute_t<T>>(got[i]));
    if (!(std::abs(g - want[i]) <= tol * std::max(1.0, std::abs(want[i])))) {
      MESSAGE("element ", i, ": got ", g, ", want ", want[i]);
      return false;
    }
  }
  return true;
}

/// The results of one computation on two devices: bit for bit between host devices; within
/// `gpu_tol` (default: T's rounding) when one is a GPU (its FMA contraction and math library
/// round their own way).
template <class D1, class D2, class T>
bool same_across_devices(const std::vector<T>& a, const std::vector<T>& b, double gpu_tol = tolerance<T>()) {
  if constexpr (kt::is_host_accessible_v<D1> && kt::is_host_accessible_v<D2>) return a == b;
  else return all_close(a, as_double(b), gpu_tol);
}

/// Where a module on D moves at run time (Module::clone_to, Sequential::to), other than D when
/// there is such a device: kt::DefaultDevice, or kt::Host from a host default device (a host
/// build's OpenMP modules have none: both are OpenMP; a GPU's have none either).
template <class D>
using module_move_target =
    std::conditional_t<std::is_same_v<D, kt::DefaultDevice> && kt::is_host_accessible_v<D>, kt::Host, kt::DefaultDevice>;

/// The error message of `f()`'s kt::Error, or "" when it throws none.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const kt::Error& e) {
    return e.message();
  }
  return "";
}

/// How many launches of the Kokkos kernel `name` a kt::Profiler counts while f runs.
template <class F>
std::int64_t launches_during(const std::string& name, F&& f) {
  kt::Profiler profiler;
  f();
  profiler.stop();
  std::int64_t n = 0;
  for (const auto& row : profiler.key_averages())
    if (row.kind == "kernel" && row.name == name) n += row.count;
  return n;
}

/// Whether device D runs two fp32 products of these sizes ({m, n, k} each) at once
/// (kt/backend/impl/gemm_pair.hpp): on the BLAS, where kt does not pass over it, and where D's
/// threads share out between them.
template <class D>
bool runs_as_pair(std::array<std::int64_t, 3> p, std::array<std::int64_t, 3> q) {
  if constexpr (kt::is_host_accessible_v<D>) {
    kt::GemmProblem<float> a, b;
    a.m = p[0], a.n = p[1], a.k = p[2];
    b.m = q[0], b.n = q[1], b.k = q[2];
    return kt::impl::have_blas_gemm && !kt::tuning::stats().blas_bypassed &&
           kt::impl::gemm_pair_pieces(a, b, static_cast<int>(D().concurrency())).first > 0;
  } else {
    return false;
  }
}

}  // namespace kt_test

TYPE_TO_STRING_AS("Serial", Kokkos::Serial);
#if defined(KOKKOS_ENABLE_OPENMP)
TYPE_TO_STRING_AS("OpenMP", Kokkos::OpenMP);
#endif
#if defined(KOKKOS_ENABLE_CUDA)
TYPE_TO_STRING_AS("Cuda", Kokkos::Cuda);
#endif

#define KT_CASE_NAMES(D, name)                                                      \
  TYPE_TO_STRING_AS(name "/float32", kt_test::Case<D, float>);                      \
  TYPE_TO_STRING_AS(name "/float64", kt_test::Case<D, double>);                     \
  TYPE_TO_STRING_AS(name "/float16", kt_test::Case<D, kt::half>);                   \
  TYPE_TO_STRING_AS(name "/bfloat16", kt_test::Case<D, kt::bfloat16>);              \
  TYPE_TO_STRING_AS(name "/int32", kt_test::Case<D, std::int32_t>);                 \
  TYPE_TO_STRING_AS(name "/int64", kt_test::Case<D, std::int64_t>);                 \
  TYPE_TO_STRING_AS(name "/uint8", kt_test::Case<D, std::uint8_t>)

KT_CASE_NAMES(Kokkos::Serial, "Serial");
#if defined(KOKKOS_ENABLE_OPENMP)
KT_CASE_NAMES(Kokkos::OpenMP, "OpenMP");
#endif
#if defined(KOKKOS_ENABLE_CUDA)
KT_CASE_NAMES(Kokkos::Cuda, "Cuda");
#endif

// The devices every typed test runs on: all that are compiled in — except in a Cuda build,
// whose typed tests run on Cuda only (the host devices are the host build's; configure with
// -DKT_TEST_ALL_DEVICES=ON for all of them). Each device more is a full instantiation of every
// op under nvcc.
#if defined(KOKKOS_ENABLE_CUDA) && !defined(KT_TEST_ALL_DEVICES)
#define KT_DEVICES Kokkos::Cuda
/// Every device x one dtype.
#define KT_CASES(T) kt_test::Case<Kokkos::Cuda, T>
#else
#if defined(KOKKOS_ENABLE_CUDA)
#define KT_CUDA_DEVICE , Kokkos::Cuda
#define KT_CUDA_CASES(T) , kt_test::Case<Kokkos::Cuda, T>
#else
#define KT_CUDA_DEVICE
#define KT_CUDA_CASES(T)
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
#define KT_OPENMP_DEVICE , Kokkos::OpenMP
#define KT_OPENMP_CASES(T) , kt_test::Case<Kokkos::OpenMP, T>
#else
#define KT_OPENMP_DEVICE
#define KT_OPENMP_CASES(T)
#endif
#define KT_DEVICES Kokkos::Serial KT_OPENMP_DEVICE KT_CUDA_DEVICE
/// Every device x one dtype.
#define KT_CASES(T) kt_test::Case<Kokkos::Serial, T> KT_OPENMP_CASES(T) KT_CUDA_CASES(T)
#endif
/// The host devices (what host-only features such as datasets take), in every build.
#if defined(KOKKOS_ENABLE_OPENMP)
#define KT_HOST_DEVICES Kokkos::Serial, Kokkos::OpenMP
#else
#define KT_HOST_DEVICES Kokkos::Serial
#endif
/// Every device x the floating dtypes computed natively (float, double).
#define KT_FLOAT_CASES KT_CASES(float), KT_CASES(double)
/// Every device x every floating dtype, 16-bit included.
#define KT_ALL_FLOAT_CASES KT_FLOAT_CASES, KT_CASES(kt::half), KT_CASES(kt::bfloat16)
