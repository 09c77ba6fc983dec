// kt's CUDA adapters (cuBLAS GEMM, pinned memory) compiled by plain nvcc, without Kokkos.
//
// Always: error formatting, argument validation and the empty-problem paths (which must not
// call CUDA at all, so they pass on machines without a GPU too).
// Without a usable GPU: the adapters must turn the failure into kt::Error, which is checked
// and printed; the test passes. With a GPU: GEMMs in float, double, half and bfloat16, every
// transpose, batched, padded leading dimensions, shared A, k == 0, checked against a host
// reference; a GEMM from a second thread; pinned round trips. Non-zero exit on any failure.
#include <kt/backend/cuda/cublas_gemm.hpp>
#include <kt/backend/cuda/cuda_pinned.hpp>

#include "check.hpp"

#if defined(KOKKOS_INLINE_FUNCTION) || defined(KOKKOS_VERSION)
#error "kt's CUDA adapter headers must not include Kokkos"
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace {

using kt_cuda_test::check;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != s.npos; }

/// Runs f; returns the kt::Error message it threw, or "" (and a failure) when it threw none.
template <class F>
std::string error_of(const F& f, const std::string& what) {
  try {
    f();
  } catch (const kt::Error& e) {
    check(true, what);
    return e.message();
  } catch (const std::exception& e) {
    check(false, what + ": threw a non-kt exception: " + e.what());
    return "";
  }
  check(false, what + ": no kt::Error");
  return "";
}

template <class F>
void no_error(const F& f, const std::string& what) {
  try {
    f();
    check(true, what);
  } catch (const std::exception& e) {
    check(false, what + ": unexpected exception: " + e.what());
  }
}

cudaError_t fakeCudaCall(int) { return cudaErrorInvalidValue; }
cublasStatus_t fakeCublasCall(int) { return CUBLAS_STATUS_NOT_INITIALIZED; }

kt::GemmProblem<float> args_2x2(float* c, const float* a, const float* b) {
  kt::GemmProblem<float> g;
  g.m = g.n = g.k = 2;
  g.a = a, g.lda = 2, g.b = b, g.ldb = 2, g.c = c, g.ldc = 2;
  return g;
}

void host_checks() {
  const std::string cuda = error_of([] { KT_CUDA_CHECK(fakeCudaCall(1)); }, "KT_CUDA_CHECK");
  check(contains(cuda, "kt::cuda: fakeCudaCall failed: cudaErrorInvalidValue: "),
        "cuda message: " + cuda);
  const std::string blas = error_of([] { KT_CUBLAS_CHECK(fakeCublasCall(1)); }, "KT_CUBLAS_CHECK");
  check(contains(blas, "kt::cublas: fakeCublasCall failed: CUBLAS_STATUS_NOT_INITIALIZED: "),
        "cublas message: " + blas);

  // Invalid arguments are reported before any CUDA call.
  float a[4] = {}, b[4] = {}, c[4] = {};
  const auto expect = [&](kt::GemmProblem<float> g, const std::string& part, const std::string& what) {
    const std::string msg = error_of([&] { kt::cuda::gemm(nullptr, g); }, what);
    check(contains(msg, part), what + ": message '" + msg + "' lacks '" + part + "'");
  };
  kt::GemmProblem<float> g = args_2x2(c, a, b);
  g.m = -1;
  expect(g, "kt::cuda::gemm: negative size m=-1", "negative m");
  g = args_2x2(c, a, b), g.ldc = 1;
  expect(g, "ldc=1 is smaller than n=2", "small ldc");
  g = args_2x2(c, a, b), g.trans_a = kt::Transpose::Yes, g.lda = 1;
  expect(g, "lda=1 is smaller than A's row length 2", "small lda");
  g = args_2x2(c, a, b), g.trans_b = kt::Transpose::Yes, g.ldb = 1;
  expect(g, "ldb=1 is smaller than B's row length 2", "small ldb");
  g = args_2x2(nullptr, a, b);
  expect(g, "C is null", "null C");
  g = args_2x2(c, a, b), g.batch = 2, g.stride_c = 3;
  expect(g, "stride_c=3 makes the C matrices of the batch overlap", "overlapping C");
  g = args_2x2(c, a, b), g.m = std::int64_t(1) << 31;
  expect(g, "must fit in int for cuBLAS", "m > INT_MAX");

  // Empty problems return before touching CUDA: these pass on a machine without a GPU.
  for (int which = 0; which < 3; ++which) {
    g = args_2x2(c, a, b);
    if (which == 0) g.m = 0;
    if (which == 1) g.n = 0;
    if (which == 2) g.batch = 0;
    no_error([&] { kt::cuda::gemm(nullptr, g); }, "empty problem " + std::to_string(which));
  }
  g = args_2x2(nullptr, nullptr, nullptr), g.m = 0, g.lda = g.ldb = g.ldc = 0;
  no_error([&] { kt::cuda::gemm(nullptr, g); }, "m = 0 with null pointers");

  kt::cuda::PinnedBuffer<float> empty(0);
  kt::cuda::PinnedBuffer<float> moved(std::move(empty));
  check(moved.data() == nullptr && moved.empty() && empty.size() == 0, "empty pinned buffer");
  no_error([&] { kt::cuda::copy_async(c, a, 0, nullptr); }, "copy_async of 0 elements");
}

void no_device_checks() {
  float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4] = {};
  const std::string msg = error_of([&] { kt::cuda::gemm(nullptr, args_2x2(c, a, b)); }, "gemm");
  check(contains(msg, "cublasCreate failed") || contains(msg, "cudaGetDevice failed"),
        "gemm error names the failed call: " + msg);
  std::printf("kt cuda adapters: no CUDA device; adapter raised kt::Error: %s\n", msg.c_str());

  kt::GemmProblem<float> zero = args_2x2(c, a, b);
  zero.k = 0;  // C = beta C: cuBLAS handles k == 0 itself, so this reaches CUDA too
  const std::string empty_k = error_of([&] { kt::cuda::gemm(nullptr, zero); }, "k = 0 gemm");
  check(contains(empty_k, "cublasCreate failed") || contains(empty_k, "cudaGetDevice failed"),
        "k = 0 error: " + empty_k);

  const std::string pinned = error_of([] { kt::cuda::PinnedBuffer<double> p(16); }, "pinned");
  check(contains(pinned, "cudaMallocHost failed") && contains(pinned, "128 bytes"),
        "pinned error: " + pinned);
  std::printf("kt cuda adapters: pinned buffer raised kt::Error: %s\n", pinned.c_str());
  kt::cuda::release_cublas_handles();  // nothing to release: must not throw or crash
}

// ---- With a GPU --------------------------------------------------------------------------

// 16-bit storage types, converted by hand (round to nearest even): cuda_fp16.h and
// cuda_bf16.h would double this file's compile time. Values here are small and finite.
struct Half { std::uint16_t bits; };
struct BFloat16 { std::uint16_t bits; };

std::uint32_t bits_of(float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return u; }
float float_of(std::uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

Half to_half(float f) {
  if (std::isnan(f)) return {0x7e00};
  const std::uint32_t x = bits_of(f), ax = x & 0x7fffffffu;
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  if (ax < 0x38800000u)  // below 2^-14: a subnormal half, in units of 2^-24 (exact scaling)
    return {static_cast<std::uint16_t>(sign | std::lrint(std::fabs(f) * 16777216.0f))};
  const std::uint32_t a = ax - (112u << 23);  // rebias 127 -> 15, then drop 13 bits, RNE
  return {static_cast<std::uint16_t>(sign | ((a + 0xfffu + ((a >> 13) & 1u)) >> 13))};
}
double from_half(Half h) {
  const int e = (h.bits >> 10) & 0x1f, man = h.bits & 0x3ff;
  const double v = e == 0 ? std::ldexp(man, -24) : e == 31 ? (man ? NAN : INFINITY)
                                                         : std::ldexp(1024 + man, e - 25);
  return (h.bits & 0x8000) ? -v : v;
}
BFloat16 to_bfloat16(float f) {
  if (std::isnan(f)) return {0x7fc0};
  const std::uint32_t x = bits_of(f);
  return {static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16)};
}

template <class S> struct Type;
template <> struct Type<float> {
  using Kt = float;
  static constexpr cudaDataType_t id = CUDA_R_32F; static constexpr double tol = 1e-5;
  static float to(double x) { return static_cast<float>(x); }
  static double from(float x) { return x; }
};
template <> struct Type<double> {
  using Kt = double;
  static constexpr cudaDataType_t id = CUDA_R_64F; static constexpr double tol = 1e-12;
  static double to(double x) { return x; }
  static double from(double x) { return x; }
};
template <> struct Type<Half> {
  using Kt = kt::half;  // only declared here: the adapter passes the pointers through
  static constexpr cudaDataType_t id = CUDA_R_16F; static constexpr double tol = 2e-3;
  static Half to(double x) { return to_half(static_cast<float>(x)); }
  static double from(Half x) { return from_half(x); }
};
template <> struct Type<BFloat16> {
  using Kt = kt::bfloat16;
  static constexpr cudaDataType_t id = CUDA_R_16BF; static constexpr double tol = 1e-2;
  static BFloat16 to(double x) { return to_bfloat16(static_cast<float>(x)); }
  static double from(BFloat16 x) { return float_of(std::uint32_t(x.bits) << 16); }
};

template <class S>
struct DeviceCopy {  // a device copy of a host vector, copied back by get()
  S* p = nullptr;
  std::size_t n;
  explicit DeviceCopy(const std::vector<S>& h) : n(h.size()) {
    KT_CUDA_CHECK(cudaMalloc(&p, n * sizeof(S)));
    KT_CUDA_CHECK(cudaMemcpy(p, h.data(), n * sizeof(S), cudaMemcpyHostToDevice));
  }
  ~DeviceCopy() { cudaFree(p); }
  std::vector<S> get() const {
    std::vector<S> h(n);
    KT_CUDA_CHECK(cudaMemcpy(h.data(), p, n * sizeof(S), cudaMemcpyDeviceToHost));
    return h;
  }
};

double next_value(std::uint32_t& state) {  // deterministic values in [-1, 1)
  state = state * 1664525u + 1013904223u;
  return (state >> 8) / double(1u << 23) - 1.0;
}

/// One GEMM on the GPU vs a double reference computed from the same (rounded) inputs; the
/// padding of C between rows and batch entries must stay untouched.
template <class S>
void gemm_case(cudaStream_t stream, bool ta, bool tb, std::int64_t batch, bool shared_a,
               std::int64_t k, double beta) {
  using Ty = Type<S>;
  const std::int64_t m = 5, n = 7;
  const std::int64_t a_rows = ta ? k : m, a_cols = ta ? m : k, lda = a_cols + 3;
  const std::int64_t b_rows = tb ? n : k, b_cols = tb ? k : n, ldb = b_cols + 1;
  const std::int64_t ldc = n + 2, stride_c = m * ldc + 5;
  const std::int64_t stride_a = shared_a ? 0 : a_rows * lda + 1, stride_b = b_rows * ldb;
  std::uint32_t state = 12345;
  std::vector<S> a(a_rows * lda + stride_a * (batch - 1) + 1), b(b_rows * ldb * batch + 1);
  std::vector<S> c(stride_c * batch);
  for (auto& x : a) x = Ty::to(next_value(state));
  for (auto& x : b) x = Ty::to(next_value(state));
  const double sentinel = beta == 0 ? std::numeric_limits<double>::quiet_NaN() : 0.75;
  for (auto& x : c) x = Ty::to(beta == 0 ? sentinel : next_value(state));
  const double alpha = 1.5;

  DeviceCopy<S> da(a), db(b), dc(c);
  using K = typename Ty::Kt;
  kt::GemmProblem<K> g;
  g.trans_a = ta ? kt::Transpose::Yes : kt::Transpose::No, g.trans_b = tb ? kt::Transpose::Yes : kt::Transpose::No;
  g.m = m, g.n = n, g.k = k, g.batch = batch;
  g.a = reinterpret_cast<const K*>(da.p), g.lda = lda, g.stride_a = stride_a;
  g.b = reinterpret_cast<const K*>(db.p), g.ldb = ldb, g.stride_b = stride_b;
  g.c = reinterpret_cast<K*>(dc.p), g.ldc = ldc, g.stride_c = stride_c, g.alpha = alpha, g.beta = beta;
  kt::cuda::gemm(stream, g);
  KT_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::vector<S> got = dc.get();

  bool ok = true;
  double worst = 0;
  for (std::int64_t e = 0; e < batch; ++e) {
    for (std::int64_t i = 0; i < m; ++i) {
      for (std::int64_t j = 0; j < ldc; ++j) {
        const std::int64_t at = e * stride_c + i * ldc + j;
        const double now = Ty::from(got[at]), before = Ty::from(c[at]);
        if (j >= n) {  // padding: unchanged (NaN stays NaN)
          ok = ok && (now == before || (std::isnan(now) && std::isnan(before)));
          continue;
        }
        double sum = 0, scale = 0;
        for (std::int64_t p = 0; p < k; ++p) {
          const double x = Ty::from(a[e * stride_a + (ta ? p * lda + i : i * lda + p)]);
          const double y = Ty::from(b[e * stride_b + (tb ? j * ldb + p : p * ldb + j)]);
          sum += x * y, scale += std::fabs(x * y);
        }
        double want = alpha * sum;
        scale = alpha * scale;
        if (beta != 0) want += beta * before, scale += std::fabs(beta * before);
        const double err = std::fabs(now - want);
        worst = std::max(worst, err);
        ok = ok && err <= Ty::tol * std::max(scale, 1e-3);
      }
    }
  }
  char what[200];
  std::snprintf(what, sizeof what, "gemm type=%d ta=%d tb=%d batch=%lld shared_a=%d k=%lld beta=%g"
                " (worst error %.3g)", int(Ty::id), int(ta), int(tb), (long long)batch,
                int(shared_a), (long long)k, beta, worst);
  check(ok, what);
}

template <class S>
void gemm_cases(cudaStream_t stream) {
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb)
      for (std::int64_t batch : {1, 3})
        for (double beta : {0.0, 0.5}) gemm_case<S>(stream, ta, tb, batch, false, 9, beta);
  gemm_case<S>(stream, false, true, 3, true, 9, 0.5);  // one A for every batch entry
  for (double beta : {0.0, 0.5, 1.0}) gemm_case<S>(stream, false, false, 3, false, 0, beta);
}

void device_checks() {
  cudaStream_t stream = nullptr;
  KT_CUDA_CHECK(cudaStreamCreate(&stream));
  gemm_cases<float>(stream);
  gemm_cases<double>(stream);
  gemm_cases<Half>(stream);
  gemm_cases<BFloat16>(stream);
  gemm_case<float>(nullptr, true, false, 2, false, 4, 0.5);  // the legacy default stream

  // Another thread gets its own handle, destroyed when it exits.
  std::thread worker([] { no_error([] { gemm_case<float>(nullptr, false, true, 2, false, 3, 0); },
                                   "gemm from a second thread"); });
  worker.join();
  kt::cuda::release_cublas_handles();  // and this thread's handle is recreated on next use
  gemm_case<double>(stream, true, true, 1, false, 4, 0.5);

  kt::cuda::PinnedBuffer<float> up(1000), down(1000);
  for (std::size_t i = 0; i < up.size(); ++i) up[i] = 0.5f * static_cast<float>(i);
  float* d = nullptr;
  KT_CUDA_CHECK(cudaMalloc(&d, up.bytes()));
  kt::cuda::copy_async(d, up.data(), up.size(), stream);
  kt::cuda::copy_async(down.data(), d, down.size(), stream);
  KT_CUDA_CHECK(cudaStreamSynchronize(stream));
  bool same = true;
  for (std::size_t i = 0; i < up.size(); ++i) same = same && down[i] == up[i];
  check(same, "pinned round trip host -> device -> host");
  KT_CUDA_CHECK(cudaFree(d));
  KT_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace

int main() {
  host_checks();
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    (void)cudaGetLastError();
    no_device_checks();
  } else {
    cudaDeviceProp prop{};
    (void)cudaGetDeviceProperties(&prop, 0);
    std::printf("kt cuda adapters: running on %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);
    try {
      device_checks();
    } catch (const std::exception& ex) {
      check(false, std::string("device checks threw: ") + ex.what());
    }
  }
  return kt_cuda_test::summary();
}
