// kt::cuda::gemm on kt::GemmProblem<T>, compiled by the C++ compiler (not nvcc) together
// with kt's Kokkos headers: the adapters are host code, usable from any .cpp that links
// kt::cuda_adapters. Without a GPU: the empty/invalid paths and the kt::Error; with one: a
// half and a bfloat16 GEMM against a host reference. Prints "N passed, N failed".
#include <kt/backend/cuda/cublas_gemm.hpp>  // first: must not need the kt headers below
#include <kt/backend/gemm_problem.hpp>
#include <kt/core/dtype.hpp>

#include "check.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using kt_cuda_test::check;

/// The kt::Error message gemm(p) throws, or "" when it throws none.
template <class T, class C>
std::string gemm_error(const kt::GemmProblem<T, C>& p) {
  try {
    kt::cuda::gemm(nullptr, p);
  } catch (const kt::Error& e) {
    return e.message();
  }
  return "";
}

template <class T, class C = T>
kt::GemmProblem<T, C> problem(C* c, const T* a, const T* b, std::int64_t batch = 1) {
  kt::GemmProblem<T, C> p;
  p.m = 3, p.n = 2, p.k = 4, p.batch = batch;
  p.trans_b = kt::Transpose::Yes;  // B stored (n, k)
  p.a = a, p.lda = 4, p.stride_a = 12;
  p.b = b, p.ldb = 4, p.stride_b = 8;
  p.c = c, p.ldc = 2, p.stride_c = 6;
  p.alpha = 2, p.beta = 0;
  return p;
}

template <class T>
void host_checks() {
  const std::string name = kt::dtype_name<T>();
  T a[24] = {}, b[16] = {}, c[12] = {};
  kt::GemmProblem<T> p = problem<T>(c, a, b);
  p.m = 0;
  check(gemm_error(p).empty(), name + ": m = 0 is a no-op without CUDA");
  p = problem<T>(c, a, b), p.batch = 0;
  check(gemm_error(p).empty(), name + ": batch = 0 is a no-op without CUDA");
  p = problem<T>(c, a, b), p.ldb = 3;
  const std::string msg = gemm_error(p);
  check(msg.find("kt::cuda::gemm: ldb=3 is smaller than B's row length 4") == 0,
        name + ": " + msg);
}

template <class T>
T* device_alloc(std::size_t n) {
  void* p = nullptr;  // plain C++: cudaMalloc takes void** (nvcc adds a template overload)
  KT_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)));
  return static_cast<T*>(p);
}

/// C = 2 A Bᵀ (batch 2) on the GPU vs the host, in T (half or bfloat16) with fp32 compute; C
/// of dtype C (T, or float: GemmEx's Ctype 32F).
template <class T, class C = T>
void device_check(double tol) {
  std::vector<T> a(24), b(16);
  std::vector<C> c(12, C(-1.0f));
  for (int i = 0; i < 24; ++i) a[i] = T(0.125f * float(i % 7) - 0.3f);
  for (int i = 0; i < 16; ++i) b[i] = T(0.25f * float(i % 5) - 0.5f);
  T* da = device_alloc<T>(24);
  T* db = device_alloc<T>(16);
  C* dc = device_alloc<C>(12);
  KT_CUDA_CHECK(cudaMemcpy(da, a.data(), sizeof(T) * 24, cudaMemcpyHostToDevice));
  KT_CUDA_CHECK(cudaMemcpy(db, b.data(), sizeof(T) * 16, cudaMemcpyHostToDevice));
  kt::cuda::gemm(nullptr, problem<T, C>(dc, da, db, 2));
  KT_CUDA_CHECK(cudaMemcpy(c.data(), dc, sizeof(C) * 12, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int e = 0; e < 2; ++e)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j) {
        double want = 0;
        for (int q = 0; q < 4; ++q)
          want += 2.0 * float(a[e * 12 + i * 4 + q]) * float(b[e * 8 + j * 4 + q]);
        ok = ok && std::fabs(float(c[e * 6 + i * 2 + j]) - want) <= tol * (1 + std::fabs(want));
      }
  check(ok, std::string(kt::dtype_name<T>()) + " -> " + kt::dtype_name<C>() + ": GemmProblem on the GPU");
  cudaFree(da), cudaFree(db), cudaFree(dc);
}

}  // namespace

int main() {
  host_checks<float>();
  host_checks<double>();
  host_checks<kt::half>();
  host_checks<kt::bfloat16>();
  {  // a 16-bit problem with an fp32 C is validated the same way
    kt::bfloat16 a[24] = {}, b[16] = {};
    float c[12] = {};
    auto p = problem<kt::bfloat16, float>(c, a, b);
    p.ldb = 3;
    const std::string msg = gemm_error(p);
    check(msg.find("kt::cuda::gemm: ldb=3 is smaller than B's row length 4") == 0, "bfloat16 -> float: " + msg);
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    kt::half a[24] = {}, b[16] = {}, c[12] = {};
    const std::string msg = gemm_error(problem<kt::half>(c, a, b));
    check(msg.find("cudaGetDevice failed") != msg.npos ||
              msg.find("cublasCreate failed") != msg.npos,
          "no device: " + msg);
    std::printf("kt cuda adapters (GemmProblem, g++): no CUDA device; kt::Error: %s\n",
                msg.c_str());
  } else {
    try {
      device_check<kt::half>(2e-3);
      device_check<kt::bfloat16>(1e-2);
      // fp32 C: unrounded (a 16-bit C would miss 1e-6 by orders of magnitude).
      device_check<kt::half, float>(1e-6);
      device_check<kt::bfloat16, float>(1e-6);
    } catch (const kt::Error& e) {
      check(false, std::string("device check threw: ") + e.what());
    }
  }
  return kt_cuda_test::summary();
}
