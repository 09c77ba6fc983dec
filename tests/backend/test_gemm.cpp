// Tests the back-end choice and BLAS threading, kt's internals (kt::impl) below the public matmul.
#define KT_USES_INTERNALS
#include "kt_test.hpp"

#include <kt/backend/gemm.hpp>
#include <kt/core/impl/parallel_for.hpp>

#include <algorithm>
#include <array>
#include <set>
#include <vector>
#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace {

// A row-major problem over host vectors, its naive double-precision reference and a runner;
// C: C's dtype (T, or float for 16-bit T).
template <class T, class C = T>
struct Case {
  std::int64_t m, n, k, batch;
  kt::Transpose ta, tb;
  double alpha, beta;
  std::int64_t stride_a, stride_b;  // 0: broadcast one matrix
  std::vector<T> a, b;
  std::vector<C> c;

  Case(std::int64_t m_, std::int64_t n_, std::int64_t k_, std::int64_t batch_, kt::Transpose ta_,
       kt::Transpose tb_, double alpha_ = 1, double beta_ = 0, bool broadcast_b = false)
      : m(m_), n(n_), k(k_), batch(batch_), ta(ta_), tb(tb_), alpha(alpha_), beta(beta_),
        stride_a(m_ * k_), stride_b(broadcast_b ? 0 : k_ * n_) {
    a = random<T>(std::max<std::int64_t>(1, batch * m * k), 1);
    b = random<T>(std::max<std::int64_t>(1, (broadcast_b ? 1 : batch) * k * n), 2);
    c = random<C>(std::max<std::int64_t>(1, batch * m * n), 3);
  }

  template <class U>
  static std::vector<U> random(std::int64_t count, std::uint64_t seed) {
    return kt::rand<U, kt::Serial>({count}, seed, -1, 1).to_vector();
  }

  kt::GemmProblem<T, C> problem(const T* da, const T* db, C* dc) const {
    kt::GemmProblem<T, C> p;
    p.trans_a = ta;
    p.trans_b = tb;
    p.m = m, p.n = n, p.k = k, p.batch = batch;
    p.a = da, p.lda = ta == kt::Transpose::Yes ? m : k, p.stride_a = stride_a;
    p.b = db, p.ldb = tb == kt::Transpose::Yes ? k : n, p.stride_b = stride_b;
    p.c = dc, p.ldc = n, p.stride_c = m * n;
    p.alpha = alpha;
    p.beta = beta;
    return p;
  }

  std::vector<double> reference() const {
    std::vector<double> out(static_cast<std::size_t>(batch * m * n));
    const auto p = problem(nullptr, nullptr, nullptr);
    for (std::int64_t q = 0; q < batch; ++q)
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          double acc = 0;
          for (std::int64_t l = 0; l < k; ++l) {
            const double x = double(a[std::size_t(q * stride_a + (ta == kt::Transpose::Yes ? l * p.lda + i : i * p.lda + l))]);
            const double y = double(b[std::size_t(q * stride_b + (tb == kt::Transpose::Yes ? j * p.ldb + l : l * p.ldb + j))]);
            acc += x * y;
          }
          const std::size_t e = std::size_t(q * m * n + i * n + j);
          out[e] = alpha * acc + (beta == 0 ? 0.0 : beta * double(c[e]));
        }
    return out;
  }

  template <class D>
  std::vector<C> run(const kt::GemmOptions& options) const {
    const auto da = kt::from_host<T, D>(a), db = kt::from_host<T, D>(b);
    const auto dc = kt::from_host<C, D>(c);
    kt::gemm(D(), problem(da.data(), db.data(), dc.data()), options);
    D().fence();
    auto out = dc.to_vector();
    out.resize(static_cast<std::size_t>(batch * m * n));
    return out;
  }
};

std::vector<kt::GemmBackend> host_backends() {
  std::vector<kt::GemmBackend> out{kt::GemmBackend::Kokkos};
  if (kt::impl::have_blas_gemm) out.push_back(kt::GemmBackend::Blas);
  if (kt::impl::have_eigen_gemm) out.push_back(kt::GemmBackend::Eigen);
  return out;
}

/// The back-ends that can run a GEMM on device D: the host's, or cuBLAS and kt's kernel on Cuda.
template <class D>
std::vector<kt::GemmBackend> backends_for() {
  if constexpr (kt::is_cuda_v<D>) return {kt::GemmBackend::Kokkos, kt::GemmBackend::Cublas};
  else return host_backends();
}

const kt::Transpose N = kt::Transpose::No, Tr = kt::Transpose::Yes;

/// Every back-end of D on 1 and 2 threads, and kt's own choice, against the double reference,
/// to the tolerance of C's dtype (fp32's for a 16-bit product with an fp32 C).
template <class T, class D, class C>
void check_all_backends(const Case<T, C>& c, double tol_scale = 1) {
  const auto want = c.reference();
  const double tol = tol_scale * kt_test::tolerance<C>() * std::sqrt(double(c.k) + 1);
  for (kt::GemmBackend backend : backends_for<D>()) {
    for (int threads : {1, 2}) {
      CAPTURE(kt::to_string(backend));
      CAPTURE(threads);
      CHECK(kt_test::all_close(c.template run<D>(kt::GemmOptions().backend(backend).threads(threads)), want, tol));
    }
  }
  CHECK(kt_test::all_close(c.template run<D>(kt::GemmOptions()), want, tol));
}

}  // namespace

// The 16-bit dtypes run on the host libraries too, widened to fp32 (kt/backend/impl/gemm_widen.hpp).
TEST_CASE_TEMPLATE("every back-end and transpose on odd shapes matches a double reference", TestCase,
                   KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const std::int64_t sizes[] = {1, 7, 33, 65};
  for (auto ta : {N, Tr})
    for (auto tb : {N, Tr})
      for (std::int64_t m : sizes)
        for (std::int64_t n : sizes)
          for (std::int64_t k : {std::int64_t(1), std::int64_t(33), std::int64_t(257)}) {
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(k);
            CAPTURE(int(ta));
            CAPTURE(int(tb));
            check_all_backends<T, D>(Case<T>(m, n, k, 1, ta, tb));
          }
}

TEST_CASE_TEMPLATE("alpha, beta, batches and broadcast operands on every back-end", TestCase, KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  check_all_backends<T, D>(Case<T>(17, 9, 12, 1, N, N, 2.5, 0.5));
  check_all_backends<T, D>(Case<T>(17, 9, 12, 1, Tr, Tr, -1, 1));
  check_all_backends<T, D>(Case<T>(5, 6, 7, 4, N, Tr, 1, 0));
  check_all_backends<T, D>(Case<T>(5, 6, 7, 3, Tr, N, 0.5, 2, /*broadcast_b=*/true));
  check_all_backends<T, D>(Case<T>(257, 65, 33, 2, N, N));
  // Past every blocking edge of the host kernels (kt/backend/impl/gemm_kokkos.hpp): several K
  // blocks (KC = 384) with a short last one, row blocks (MC = 192) and column blocks (NC = 512)
  // with partial micro-tiles at both ends; beta == 0 (accumulating in C) and beta != 0 (a C tile).
  check_all_backends<T, D>(Case<T>(203, 531, 401, 1, N, Tr));
  check_all_backends<T, D>(Case<T>(203, 531, 401, 1, Tr, N, 2.5, 0));
  check_all_backends<T, D>(Case<T>(203, 531, 401, 1, N, N, 1, 0.5));
  check_all_backends<T, D>(Case<T>(3, 2100, 20, 2, Tr, N));  // one thread's blocks end at 2048 columns
}

// kt's host kernel (kt/backend/impl/gemm_kokkos_host.hpp) accumulates in C itself when beta == 0
// and C is the accumulation type, otherwise in a scratch block. Both form every sum in the same
// order, so C = A B agrees bit for bit with C = A B + 1 * 0.
TEST_CASE_TEMPLATE("the host kernel's two paths give identical bits", T, float, double) {
  for (int threads : {1, 2}) {
    for (const auto& mnk : {std::array<std::int64_t, 3>{203, 531, 401}, {64, 64, 64}, {5, 700, 900}, {3, 2100, 20}}) {
      const std::int64_t m = mnk[0], n = mnk[1], k = mnk[2];  // CAPTURE's lambda may not capture a binding (C++17)
      CAPTURE(threads);
      CAPTURE(m);
      Case<T> direct(m, n, k, 1, N, Tr, 1, 0), tiled(m, n, k, 1, N, Tr, 1, 1);
      std::fill(tiled.c.begin(), tiled.c.end(), T(0));
      const auto options = kt::GemmOptions().backend(kt::GemmBackend::Kokkos).threads(threads);
      CHECK(direct.template run<kt::Host>(options) == tiled.template run<kt::Host>(options));
    }
  }
}

// GemmProblem<T, float> (cuBLAS' GemmEx with an fp32 C): the fp32 accumulation is stored
// unrounded, so it meets the double reference to fp32's tolerance — a result rounded to 16 bits
// (bfloat16: 2^-9 relative) would not. beta reads the fp32 C as it is.
TEST_CASE_TEMPLATE("16-bit operands with an fp32 C keep the fp32 accumulation on every back-end", TestCase,
                   KT_CASES(kt::half), KT_CASES(kt::bfloat16)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  check_all_backends<T, D>(Case<T, float>(33, 65, 257, 1, N, Tr));  // k over two K blocks
  check_all_backends<T, D>(Case<T, float>(65, 7, 33, 1, Tr, N, 2.5, 0.5));
  check_all_backends<T, D>(Case<T, float>(5, 6, 7, 3, N, N, 1, 1));  // batched, accumulating
  check_all_backends<T, D>(Case<T, float>(5, 6, 7, 3, Tr, Tr, -1, 0, /*broadcast_b=*/true));
  // The same product with a 16-bit C is rounded: it misses fp32's tolerance (the check above
  // can fail), and equals the fp32 C rounded once.
  Case<T> rounded(33, 65, 257, 1, N, Tr);
  const auto got16 = rounded.template run<D>(kt::GemmOptions().backend(kt::GemmBackend::Kokkos));
  CHECK_FALSE(kt_test::all_close(got16, rounded.reference(), kt_test::tolerance<float>() * std::sqrt(258.0)));
  Case<T, float> wide(33, 65, 257, 1, N, Tr);
  wide.a = rounded.a, wide.b = rounded.b;
  const auto got32 = wide.template run<D>(kt::GemmOptions().backend(kt::GemmBackend::Kokkos));
  for (std::size_t e = 0; e < got16.size(); ++e) CHECK(got16[e] == T(got32[e]));
}

// kt::addmm_ into an fp32 tensor from 16-bit tensors: the tensor form of the same GEMM.
TEST_CASE_TEMPLATE("addmm_ accumulates a 16-bit product into an fp32 tensor unrounded", TestCase,
                   KT_CASES(kt::half), KT_CASES(kt::bfloat16)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const auto a = kt::rand<T, D>({9, 40}, 1, -1, 1), b = kt::rand<T, D>({40, 11}, 2, -1, 1);
  const auto c0 = kt::rand<float, D>({11, 9}, 3, -1, 1);
  auto out = c0.clone();
  // out = 0.5 out + 2 (a b)ᵀ = 0.5 out + 2 bᵀ aᵀ
  kt::addmm_(out, b, a, kt::MatmulOptions().transpose_a(true).transpose_b(true).alpha(2).beta(0.5));
  const auto av = a.to_vector(), bv = b.to_vector();
  const auto cv = c0.to_vector(), got = out.to_vector();
  std::vector<double> want(got.size());
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 9; ++j) {
      double acc = 0;
      for (int l = 0; l < 40; ++l) acc += double(float(bv[std::size_t(l * 11 + i)])) * double(float(av[std::size_t(j * 40 + l)]));
      want[std::size_t(i * 9 + j)] = 0.5 * double(cv[std::size_t(i * 9 + j)]) + 2 * acc;
    }
  CHECK(kt_test::all_close(got, want, kt_test::tolerance<float>() * std::sqrt(41.0)));
  CHECK_THROWS_WITH_AS(kt::addmm_(out, a, b), doctest::Contains("kt::addmm_: out has shape (11, 9) but the product of (9, 40) and (40, 11) has shape (9, 11)"), kt::Error);
}

TEST_CASE_TEMPLATE("zero-size dimensions and beta == 0 over NaN", TestCase, KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  for (kt::GemmBackend backend : backends_for<D>()) {
    CAPTURE(kt::to_string(backend));
    const auto options = kt::GemmOptions().backend(backend);
    Case<T> k0(3, 4, 0, 2, N, N, 1, 0.5);  // k == 0: C = beta * C
    const auto got = k0.template run<D>(options);
    for (std::size_t e = 0; e < got.size(); ++e) CHECK(double(got[e]) == doctest::Approx(0.5 * double(k0.c[e])));
    Case<T> m0(0, 4, 3, 1, N, N);
    CHECK(m0.template run<D>(options).empty());
    Case<T> nan(4, 3, 5, 1, N, Tr);
    std::fill(nan.c.begin(), nan.c.end(), std::numeric_limits<T>::quiet_NaN());
    CHECK(kt_test::all_close(nan.template run<D>(options), nan.reference()));
  }
}

TEST_CASE("the raw interface validates its leading dimensions and back-ends") {
  std::vector<float> a(6), b(6), c(4);
  kt::GemmProblem<float> p;
  p.m = 2, p.n = 2, p.k = 3, p.a = a.data(), p.lda = 2, p.b = b.data(), p.ldb = 2, p.c = c.data(), p.ldc = 2;
  CHECK(kt_test::error_of([&] { kt::gemm(kt::Serial(), p); }) == "kt::gemm: lda=2 is smaller than A's row length 3");
  p.lda = 3;
  p.m = -1;
  CHECK(kt_test::error_of([&] { kt::gemm(kt::Serial(), p); }).find("kt::gemm: negative size m=-1") == 0);
  std::vector<std::int32_t> ia(2), ib(4), ic(4);
  kt::GemmProblem<std::int32_t> pi;
  pi.m = 2, pi.n = 2, pi.k = 1, pi.a = ia.data(), pi.lda = 1, pi.b = ib.data(), pi.ldb = 2, pi.c = ic.data(), pi.ldc = 2;
  CHECK(kt_test::error_of([&] { kt::gemm(kt::Serial(), pi, kt::GemmOptions().backend(kt::GemmBackend::Eigen)); }) ==
        "kt::gemm: the eigen back-end cannot run a int32 GEMM on Serial");
}

TEST_CASE_TEMPLATE("benchmark mode tunes once per shape and reuses the winner", D, KT_DEVICES) {
  kt::tuning::clear();
  kt::tuning::set_benchmark(true);
  auto x = kt::rand<float, D>({48, 40}, 1), w = kt::rand<float, D>({40, 24}, 2);
  const auto reference = kt::matmul(x, w, kt::MatmulOptions().backend(kt::GemmBackend::Kokkos)).to_vector();
  for (int call = 0; call < 5; ++call) CHECK(kt_test::all_close(kt::matmul(x, w).to_vector(), std::vector<double>(reference.begin(), reference.end())));
  auto stats = kt::tuning::stats();
  CHECK(stats.tuned == 1);
  CHECK(stats.reused == 4);
  CHECK(stats.candidate_runs >= backends_for<D>().size());
  kt::matmul(x.reshape({40, 48}), w.reshape({48, 20}));  // a new shape: tuned again
  CHECK(kt::tuning::stats().tuned == 2);
  const auto entries = kt::tuning::entries();
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].seconds > 0);
  CHECK(entries[0].key.find("float32 " + kt::device_name<D>()) == 0);
  kt::tuning::set_benchmark(false);
  kt::matmul(x, w);
  CHECK(kt::tuning::stats().reused == 4);  // the heuristic path does not touch the cache
  kt::tuning::clear();
  CHECK(kt::tuning::entries().empty());
}

TEST_CASE("deterministic mode is bit-identical across runs, host devices and thread counts") {
  kt::tuning::set_deterministic(true);
  kt::tuning::set_benchmark(true);  // deterministic mode overrides timing-based choices
  auto a = kt::randn<float, kt::Serial>({300, 500}, 5), b = kt::randn<float, kt::Serial>({500, 200}, 6);
  const auto serial = kt::matmul(a, b).to_vector();
  CHECK(kt::matmul(a, b).to_vector() == serial);
  auto ad = a.to<kt::DefaultDevice>(), bd = b.to<kt::DefaultDevice>();
  if constexpr (kt::is_host_accessible_v<kt::DefaultDevice>) {
    CHECK(kt::matmul(ad, bd).to_vector() == serial);
    CHECK(kt::matmul(ad, bd).to_vector() == serial);
  } else {  // a GPU's products round their own way: bit-identical from run to run on it
    const auto gpu = kt::matmul(ad, bd).to_vector();
    CHECK(kt::matmul(ad, bd).to_vector() == gpu);
    CHECK(kt_test::all_close(gpu, kt_test::as_double(serial), kt_test::tolerance<float>() * std::sqrt(500.0)));
  }
  CHECK(kt::tuning::stats().tuned == 0);
  kt::tuning::set_deterministic(false);
  kt::tuning::set_benchmark(false);
}

TEST_CASE("the heuristic sends host fp32 products to BLAS, else Eigen, 16-bit ones to kt's kernel, small ones to one thread") {
  auto choose = [](std::int64_t m, std::int64_t n, std::int64_t k) {
    kt::GemmProblem<float> p;
    p.m = m, p.n = n, p.k = k;
    return kt::impl::gemm_heuristic<Kokkos::DefaultHostExecutionSpace>(p, 2);
  };
  const auto library = kt::impl::have_blas_gemm    ? kt::GemmBackend::Blas
                       : kt::impl::have_eigen_gemm ? kt::GemmBackend::Eigen
                                                   : kt::GemmBackend::Kokkos;
  // A 784-512-512-10 classifier's products, skinny ones (m, n or k = 10) included.
  for (const auto& [m, n, k] : {std::array<std::int64_t, 3>{256, 512, 784}, {256, 10, 512}, {10, 512, 256}, {256, 512, 10}})
    CHECK(choose(m, n, k).backend == library);
  CHECK(choose(64, 64, 64).threads == 2);  // 0.52 MFLOP
  CHECK(choose(32, 512, 10).threads == 1);  // 0.33 MFLOP
  // 16-bit operands: kt's kernel, which widens them while packing (no fp32 copies first).
  kt::GemmProblem<kt::bfloat16, float> bf16;
  bf16.m = 256, bf16.n = 512, bf16.k = 784;
  CHECK(kt::impl::gemm_heuristic<Kokkos::DefaultHostExecutionSpace>(bf16, 2).backend == kt::GemmBackend::Kokkos);
  kt::GemmProblem<kt::half> fp16;
  fp16.m = 256, fp16.n = 10, fp16.k = 512;
  CHECK(kt::impl::gemm_heuristic<Kokkos::DefaultHostExecutionSpace>(fp16, 2).backend == kt::GemmBackend::Kokkos);
}

#if defined(KT_ENABLE_CBLAS) && defined(KT_CBLAS_IS_OPENBLAS) && defined(_OPENMP) && defined(KOKKOS_ENABLE_OPENMP)
TEST_CASE("a BLAS GEMM runs on the requested threads and leaves the caller's thread counts as they were") {
  const int omp_before = omp_get_max_threads(), blas_before = openblas_get_num_threads();
  // Inside kt's scope OpenBLAS runs on the requested count, whatever the caller set since the
  // last kt call (a cached count once skipped the reset: a "1-thread" GEMM ran on 2 threads).
  for (int round = 0; round < 2; ++round) {
    openblas_set_num_threads(2);
    omp_set_num_threads(2);
    {
      const kt::impl::BlasThreadScope scope(1);
      CHECK(openblas_get_num_threads() == 1);
      // (OpenBLAS' OpenMP build sets its count through OpenMP's; a pthreads build leaves it)
      if (kt::impl::blas_threading() == kt::impl::BlasThreading::OpenMP) CHECK(omp_get_max_threads() == 1);
    }
    CHECK(openblas_get_num_threads() == 2);
    CHECK(omp_get_max_threads() == 2);
  }
  // Through kt::gemm: the results are right and the caller's settings survive, either way.
  Case<float> c(200, 150, 170, 1, N, N);  // large enough for OpenBLAS to thread
  const auto want = c.reference();
  auto run = [&](int threads) {
    CHECK(kt_test::all_close(c.run<kt::OpenMP>(kt::GemmOptions().backend(kt::GemmBackend::Blas).threads(threads)), want));
  };
  omp_set_num_threads(omp_before);
  openblas_set_num_threads(blas_before);
  omp_set_num_threads(omp_before);
  run(1);
  CHECK(omp_get_max_threads() == omp_before);
  CHECK(openblas_get_num_threads() == blas_before);
  omp_set_num_threads(3);
  run(1);
  CHECK(omp_get_max_threads() == 3);
  run(2);
  CHECK(omp_get_max_threads() == 3);
  // A product OpenBLAS keeps on one thread (m·n·k up to 4 · 65536) runs without the scope, with
  // the caller's counts in place; one multiply-add more goes through it.
  CHECK(kt::impl::blas_gemm_runs_single(64.0 * 64 * 64));
  CHECK_FALSE(kt::impl::blas_gemm_runs_single(64.0 * 64 * 64 + 1));
  openblas_set_num_threads(2);
  omp_set_num_threads(3);
  for (const auto& small : {Case<float>(32, 64, 64, 1, N, Tr), Case<float>(64, 64, 32, 3, Tr, N, 0.5, 0.25)}) {
    CHECK(kt_test::all_close(small.run<kt::OpenMP>(kt::GemmOptions().backend(kt::GemmBackend::Blas).threads(1)),
                             small.reference()));
    CHECK(openblas_get_num_threads() == 2);
    CHECK(omp_get_max_threads() == 3);
  }
  openblas_set_num_threads(blas_before);
  omp_set_num_threads(omp_before);
}
#endif

#if defined(KOKKOS_ENABLE_OPENMP) && defined(__linux__)
namespace {
// The OS thread ids of the host pool: one index per thread of Kokkos' (whole) team.
std::set<long> pool_thread_ids() {
  const int pool = Kokkos::OpenMP().concurrency();
  std::vector<long> ids(static_cast<std::size_t>(pool));
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::OpenMP>(0, pool, Kokkos::ChunkSize(1)),
                       [&](int i) { ids[static_cast<std::size_t>(i)] = syscall(SYS_gettid); });
  return {ids.begin(), ids.end()};
}
}  // namespace

TEST_CASE("kt's host work of every width keeps the pool's threads (no team smaller than the pool)") {
  // GCC's OpenMP runtime ends the surplus threads of its pool when a smaller team starts and
  // creates new ones for the next larger team; kt's regions must all be whole-pool teams.
  const int pool = Kokkos::OpenMP().concurrency();
  if (pool < 3) {
    MESSAGE("needs 3 or more host threads (ctest runs it with --kokkos-threads=4)");
    return;
  }
  const auto before = pool_thread_ids();
  REQUIRE(before.size() == static_cast<std::size_t>(pool));
  std::vector<int> ran(static_cast<std::size_t>(pool));
  for (int pieces = 1; pieces <= pool; ++pieces) {
    std::fill(ran.begin(), ran.end(), 0);
    kt::impl::parallel_pieces("test::pieces", pieces, [&](int i) { ++ran[static_cast<std::size_t>(i)]; });
    CHECK(std::count(ran.begin(), ran.end(), 1) == pieces);  // each piece once
  }
  for (int grains = 1; grains <= pool + 1; ++grains) {
    const std::int64_t n = grains * kt::impl::host_grain;
    auto x = kt::zeros<float, kt::OpenMP>({n});
    auto v = x.view();
    kt::impl::parallel_for(kt::OpenMP(), "test::kernel", n, KOKKOS_LAMBDA(std::int64_t i) { v(i) += 1; });
    CHECK(kt::sum(x).item() == float(n));  // each element once
  }
#if defined(KT_ENABLE_CBLAS)
  Case<float> c(64, 64, 64, 1, N, N);  // two 32-row pieces
  CHECK(kt_test::all_close(c.run<kt::OpenMP>(kt::GemmOptions().backend(kt::GemmBackend::Blas).threads(pool)), c.reference()));
#endif
  CHECK(pool_thread_ids() == before);
}
#endif

TEST_CASE("a GEMM cut into pieces for kt's threads writes every element of C exactly once") {
  // Each piece runs alone with beta = 1 on the same C: an element two pieces shared would be
  // accumulated twice, one no piece covered would keep C's old value.
  struct Shape {
    std::int64_t m, n, k, batch;
    kt::Transpose ta, tb;
  };
  for (const Shape s : {Shape{100, 37, 9, 1, N, N}, Shape{37, 100, 9, 1, Tr, Tr}, Shape{64, 64, 5, 1, Tr, N},
                        Shape{33, 200, 7, 1, N, Tr}, Shape{10, 12, 6, 5, N, N}, Shape{5, 3, 4, 2, Tr, Tr}}) {
    for (int threads = 1; threads <= 7; ++threads) {
      CAPTURE(s.m);
      CAPTURE(s.n);
      CAPTURE(s.batch);
      CAPTURE(threads);
      Case<double> c(s.m, s.n, s.k, s.batch, s.ta, s.tb, 1.5, 1);
      const auto want = c.reference();
      auto out = c.c;
      const auto p = c.problem(c.a.data(), c.b.data(), out.data());
      const int pieces = kt::impl::gemm_piece_count(p, threads);
      CHECK(pieces >= 1);
      CHECK(pieces <= threads);
      if (s.batch >= threads) CHECK(pieces == threads);  // batch entries split first
      for (int i = 0; i < pieces; ++i) {
        const auto q = kt::impl::gemm_piece(p, i, pieces);
        CHECK_FALSE(q.empty());
        CHECK(q.k == p.k);
        kt::gemm(kt::Serial(), q, kt::GemmOptions().backend(kt::GemmBackend::Kokkos));
      }
      CHECK(kt_test::all_close(out, want, 1e-12));
    }
  }
  // Cuts fall on whole units of rows or columns: no piece thinner than one unit.
  kt::GemmProblem<float> wide;
  wide.m = 40, wide.n = 1000, wide.k = 1;
  CHECK(kt::impl::gemm_piece_count(wide, 64) == 32);  // ceil(1000 / 32) columns' units
  CHECK(kt::impl::gemm_piece(wide, 0, 32).n == kt::impl::kGemmSplitUnit);
  CHECK(kt::impl::gemm_piece(wide, 31, 32).n == 1000 - 31 * kt::impl::kGemmSplitUnit);
}

#if defined(KT_ENABLE_CBLAS)
TEST_CASE_TEMPLATE("BLAS calls on pieces, one per kt thread, match a double reference", T, float, double) {
  // The path taken with a BLAS that has a pool of its own (OpenBLAS' pthreads build), whichever
  // library this process loaded.
  const kt::impl::BlasThreadScope one_thread(1);
  for (int pieces : {2, 3, 4}) {
    for (const auto& c : {Case<T>(130, 70, 33, 1, N, Tr, 0.5, 0.25), Case<T>(50, 170, 40, 1, Tr, N),
                          Case<T>(20, 30, 10, 4, Tr, Tr, 1, 1)}) {
      CAPTURE(pieces);
      CAPTURE(c.m);
      auto out = c.c;
      const auto p = c.problem(c.a.data(), c.b.data(), out.data());
      kt::impl::gemm_blas_pieces(p, std::min(pieces, kt::impl::gemm_piece_count(p, pieces)));
      CHECK(kt_test::all_close(out, c.reference(), kt_test::tolerance<T>() * std::sqrt(double(c.k) + 1)));
    }
  }
}

TEST_CASE("the linked BLAS threads the way the test run expects") {
  // ctest runs this binary once more against OpenBLAS' pthreads build (tests/CMakeLists.txt)
  // and says so in KT_TEST_BLAS_THREADING: that run really took the pieces path.
  const std::string threading = kt::impl::to_string(kt::impl::blas_threading());
  MESSAGE("the linked BLAS threads with: " << threading);
  if (const char* expected = std::getenv("KT_TEST_BLAS_THREADING")) CHECK(threading == expected);
}
#endif
