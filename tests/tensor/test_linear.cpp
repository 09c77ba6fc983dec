#include "kt_test.hpp"

#include <kt/tensor/linear.hpp>

namespace {

double act_ref(kt::Activation act, double z) {
  switch (act) {
    case kt::Activation::ReLU: return z > 0 ? z : 0;
    case kt::Activation::GELU: return 0.5 * z * (1 + std::erf(z / std::sqrt(2.0)));
    case kt::Activation::Tanh: return std::tanh(z);
    default: return z;
  }
}

double act_grad_ref(kt::Activation act, double z) {
  switch (act) {
    case kt::Activation::ReLU: return z > 0 ? 1 : 0;
    case kt::Activation::GELU:
      return 0.5 * (1 + std::erf(z / std::sqrt(2.0))) + z * std::exp(-0.5 * z * z) / std::sqrt(2 * M_PI);
    case kt::Activation::Tanh: return 1 - std::tanh(z) * std::tanh(z);
    default: return 1;
  }
}

template <class T>
std::vector<double> doubles(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

}  // namespace

TEST_CASE_TEMPLATE("linear forward and backward match an unfused double reference", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  const std::int64_t batch = 13, in = 21, out = 9;
  auto x = kt::randn<T, D>({batch, in}, 1), w = kt::randn<T, D>({out, in}, 2, 0, 0.3);
  auto b = kt::randn<T, D>({out}, 3), dy = kt::randn<T, D>({batch, out}, 4);
  const auto hx = doubles(x.to_vector()), hw = doubles(w.to_vector()), hb = doubles(b.to_vector()),
             hdy = doubles(dy.to_vector());
  const double tol = 10 * kt_test::tolerance<T>();
  for (auto act : {kt::Activation::Identity, kt::Activation::ReLU, kt::Activation::GELU, kt::Activation::Tanh}) {
    CAPTURE(kt::to_string(act));
    std::vector<double> z(batch * out), y(batch * out), dz(batch * out), db(out, 0), dw(out * in, 0), dx(batch * in, 0);
    for (std::int64_t i = 0; i < batch; ++i)
      for (std::int64_t j = 0; j < out; ++j) {
        double acc = hb[j];
        for (std::int64_t l = 0; l < in; ++l) acc += hx[i * in + l] * hw[j * in + l];
        z[i * out + j] = acc;
        y[i * out + j] = act_ref(act, acc);
        dz[i * out + j] = hdy[i * out + j] * act_grad_ref(act, acc);
        db[j] += dz[i * out + j];
      }
    for (std::int64_t j = 0; j < out; ++j)
      for (std::int64_t l = 0; l < in; ++l)
        for (std::int64_t i = 0; i < batch; ++i) dw[j * in + l] += dz[i * out + j] * hx[i * in + l];
    for (std::int64_t i = 0; i < batch; ++i)
      for (std::int64_t l = 0; l < in; ++l)
        for (std::int64_t j = 0; j < out; ++j) dx[i * in + l] += dz[i * out + j] * hw[j * in + l];

    const auto fwd = kt::linear_forward(x, w, b, act);
    CHECK(kt_test::all_close(fwd.output.to_vector(), y, tol));
    CHECK(fwd.pre_activation.defined() == (act == kt::Activation::GELU));
    CHECK(kt_test::all_close(kt::linear(x, w, b, act).to_vector(), y, tol));
    const auto g = kt::linear_backward(dy, x, w, fwd, act);
    CHECK(kt_test::all_close(g.db.to_vector(), db, tol));
    CHECK(kt_test::all_close(g.dw.to_vector(), dw, tol));
    CHECK(kt_test::all_close(g.dx.to_vector(), dx, tol));
  }
}

TEST_CASE_TEMPLATE("the fused epilogue equals the unfused composition of kt ops", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto x = kt::randn<T, D>({33, 65}, 7), w = kt::randn<T, D>({17, 65}, 8), b = kt::randn<T, D>({17}, 9);
  const auto z = kt::matmul(x, w, kt::MatmulOptions().transpose_b(true)) + b;
  const double tol = 4 * kt_test::tolerance<T>();
  CHECK(kt_test::all_close(kt::linear(x, w, b).to_vector(), doubles(z.to_vector()), tol));
  CHECK(kt_test::all_close(kt::linear(x, w, b, kt::Activation::ReLU).to_vector(), doubles(kt::relu(z).to_vector()), tol));
  CHECK(kt_test::all_close(kt::linear(x, w, b, kt::Activation::Tanh).to_vector(), doubles(kt::tanh(z).to_vector()), tol));
  CHECK(kt_test::all_close(kt::linear(x, w, kt::Tensor<T, D>()).to_vector(),
                           doubles(kt::matmul(x, w, kt::MatmulOptions().transpose_b(true)).to_vector()), tol));
  auto no_bias = kt::linear_backward(kt::ones<T, D>({33, 17}), x, w, kt::linear_forward(x, w, kt::Tensor<T, D>()),
                                     kt::Activation::Identity, /*has_bias=*/false, /*need_dx=*/false);
  CHECK_FALSE(no_bias.db.defined());
  CHECK_FALSE(no_bias.dx.defined());
  const auto frozen = kt::linear_backward(kt::ones<T, D>({33, 17}), x, w, kt::linear_forward(x, w, b),
                                          kt::Activation::Identity, /*has_bias=*/true, /*need_dx=*/true,
                                          /*need_dw=*/false);
  CHECK_FALSE(frozen.dw.defined());
  CHECK(frozen.dx.shape() == kt::Shape{33, 65});
  CHECK(kt_test::all_close(frozen.db.to_vector(), std::vector<double>(17, 33.0), tol));
  CHECK(no_bias.dw.shape() == kt::Shape{17, 65});
  CHECK(kt_test::all_close(no_bias.dw[0].to_vector(), doubles(kt::sum(x, 0).to_vector()), tol * 10));
}

TEST_CASE_TEMPLATE("matmul transposes and addmm_ accumulate like torch.addmm_", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto a = kt::randn<T, D>({7, 5}, 1), b = kt::randn<T, D>({6, 5}, 2);
  const auto abt = kt::matmul(a, b, kt::MatmulOptions().transpose_b(true));  // (7, 6)
  CHECK(abt.shape() == kt::Shape{7, 6});
  const auto ref = kt::matmul(a, kt::transpose(b, 0, 1));
  const double tol = 4 * kt_test::tolerance<T>();
  CHECK(kt_test::all_close(abt.to_vector(), doubles(ref.to_vector()), tol));
  const auto atb = kt::matmul(abt, a, kt::MatmulOptions().transpose_a(true).alpha(2));  // 2 (6, 7)(7, 5)
  CHECK(kt_test::all_close(atb.to_vector(), doubles((kt::matmul(kt::transpose(abt, 0, 1), a) * T(2)).to_vector()), tol));
  auto acc = kt::ones<T, D>({7, 6});
  kt::addmm_(acc, a, b, kt::MatmulOptions().transpose_b(true).beta(1));
  CHECK(kt_test::all_close(acc.to_vector(), doubles((abt + T(1)).to_vector()), tol));
  CHECK(kt_test::error_of([&] { kt::addmm_(kt::ones<T, D>({6, 7}), a, b, kt::MatmulOptions().transpose_b(true)); }) ==
        "kt::addmm_: out has shape (6, 7) but the product of (7, 5) and (6, 5) has shape (7, 6)");
  CHECK(kt_test::error_of([&] { kt::matmul(a, b); }) == "kt::matmul: inner dimensions differ: (7, 5) x (6, 5)");
}

TEST_CASE_TEMPLATE("linear_backward<T, D, float> gives 16-bit layers fp32 parameter gradients, dw unrounded", D,
                   KT_DEVICES) {
  using T = kt::bfloat16;
  const std::int64_t batch = 24, in = 19, out = 7;
  auto x = kt::randn<T, D>({batch, in}, 11), w = kt::randn<T, D>({out, in}, 12), b = kt::randn<T, D>({out}, 13);
  auto dy = kt::randn<T, D>({batch, out}, 14);
  const auto fwd = kt::linear_forward(x, w, b, kt::Activation::Identity);
  const auto wide = kt::linear_backward<T, D, float>(dy, x, w, fwd, kt::Activation::Identity);
  const auto narrow = kt::linear_backward(dy, x, w, fwd, kt::Activation::Identity);
  static_assert(std::is_same_v<decltype(wide.dw), kt::Tensor<float, D>>);
  // With the identity, dz = dy exactly: dw = dyᵀ · x from the 16-bit values, in double.
  const auto hx = doubles(x.to_vector()), hdy = doubles(dy.to_vector());
  const std::vector<float> dw = wide.dw.to_vector();
  const std::vector<kt::bfloat16> dw16 = narrow.dw.to_vector();
  int rounded_apart = 0;  // elements where a 16-bit dw would fail the fp32 tolerance
  for (std::int64_t j = 0; j < out; ++j)
    for (std::int64_t l = 0; l < in; ++l) {
      double ref = 0;
      for (std::int64_t i = 0; i < batch; ++i) ref += hdy[i * out + j] * hx[i * in + l];
      const double tol = 1e-5 * (1 + std::abs(ref));
      CHECK(std::abs(dw[j * in + l] - ref) <= tol);
      rounded_apart += std::abs(double(dw16[j * in + l]) - ref) > tol;
    }
  CHECK(rounded_apart > out * in / 2);
  // The same product, rounded once at the end; the same column sums, widened.
  CHECK(kt_test::bit_equal(narrow.dw, wide.dw.template to<T>()));
  CHECK(kt_test::bit_equal(narrow.db.template to<float>(), wide.db));
  CHECK(kt_test::bit_equal(narrow.dx, wide.dx));
}

TEST_CASE_TEMPLATE("linear validates its operands", D, KT_DEVICES) {
  auto x = kt::ones<float, D>({4, 3}), w = kt::ones<float, D>({2, 5});
  CHECK(kt_test::error_of([&] { kt::linear(x, w, kt::Tensor<float, D>()); }) ==
        "kt::linear: x has 3 features but w expects 5: x (4, 3), w (2, 5)");
  CHECK(kt_test::error_of([&] { kt::linear(x, kt::ones<float, D>({2, 3}), kt::ones<float, D>({3})); })
            .find("kt::linear: bias of shape (3) does not match 2 outputs") == 0);
  auto fwd = kt::linear_forward(x, kt::ones<float, D>({2, 3}), kt::Tensor<float, D>());
  CHECK(kt_test::error_of([&] { kt::linear_backward(kt::ones<float, D>({4, 3}), x, w, fwd, kt::Activation::ReLU); })
            .find("kt::linear_backward: dy has shape (4, 3) but the output has shape (4, 2)") == 0);
  CHECK(kt_test::error_of([&] { kt::linear_backward(kt::ones<float, D>({4, 2}), x, w, fwd, kt::Activation::GELU); })
            .find("gelu needs the pre-activation") != std::string::npos);
}

TEST_CASE_TEMPLATE("ReLU backward is exactly dy where y > 0 and exactly 0 where y == 0; db is the column sums",
                   TestCase, KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  using C = kt::compute_t<T>;
  // 150 outputs: two full 64-column blocks of the host kernel and a partial one. Outputs 3 and
  // 70 have a zero weight row and a zero bias: their pre-activation is exactly 0 (y == 0).
  const std::int64_t batch = 37, in = 11, out = 150;
  auto x = kt::randn<T, D>({batch, in}, 21);
  auto hw = kt::randn<T, kt::Serial>({out, in}, 22).to_vector();
  auto hb = kt::randn<T, kt::Serial>({out}, 23).to_vector();
  for (std::int64_t j : {3, 70}) {
    hb[std::size_t(j)] = T(0);
    for (std::int64_t l = 0; l < in; ++l) hw[std::size_t(j * in + l)] = T(0);
  }
  auto w = kt::from_host<T, D>(hw, {out, in});
  auto b = kt::from_host<T, D>(hb, {out});
  const auto fwd = kt::linear_forward(x, w, b, kt::Activation::ReLU);
  const auto hy = fwd.output.to_vector();
  // An infinite upstream gradient wherever y == 0: a select gives exactly 0 there, while
  // `dy * (y > 0)` would give NaN.
  auto hdy = kt::randn<T, kt::Serial>({batch, out}, 24).to_vector();
  std::int64_t zeros = 0;
  for (std::size_t e = 0; e < hy.size(); ++e)
    if (static_cast<C>(hy[e]) == C(0)) hdy[e] = static_cast<T>(C(INFINITY)), ++zeros;
  CHECK(zeros >= 2 * batch);  // columns 3 and 70, plus the negative pre-activations
  CHECK(zeros < batch * out);
  auto dy = kt::from_host<T, D>(hdy, {batch, out});

  kt::Tensor<T, D> dz({batch, out}), db(kt::Shape{out});
  kt::impl::linear_grad_epilogue(D(), dy, fwd.output, fwd.pre_activation, kt::Activation::ReLU, dz, db);
  const auto hdz = dz.to_vector();
  bool exact = true;
  for (std::size_t e = 0; e < hy.size(); ++e) {
    const C want = static_cast<C>(hy[e]) > C(0) ? static_cast<C>(hdy[e]) : C(0);
    const C got = static_cast<C>(hdz[e]);
    if (!(got == want && !std::signbit(got) == !std::signbit(want))) {
      if (exact) MESSAGE("element ", e, ": y ", double(static_cast<C>(hy[e])), ", dz ", double(got), ", want ", double(want));
      exact = false;
    }
  }
  CHECK(exact);
  // db: each column summed in the compute type in the device's fixed order — exactly. Host:
  // the rows in order. GPU: row group r of R sums rows r, r + R, ...; then the R partial sums
  // in order.
  const std::int64_t groups = kt::is_host_accessible_v<D> ? 1 : kt::impl::linear_grad_row_groups;
  std::vector<T> want_db(static_cast<std::size_t>(out));
  for (std::int64_t j = 0; j < out; ++j) {
    C s = C(0);
    for (std::int64_t r = 0; r < groups; ++r) {
      C part = C(0);
      for (std::int64_t i = r; i < batch; i += groups) part += static_cast<C>(hdz[std::size_t(i * out + j)]);
      s += part;
    }
    want_db[std::size_t(j)] = static_cast<T>(s);
  }
  const auto hdb = db.to_vector();
  bool db_exact = true;
  for (std::int64_t j = 0; j < out; ++j)
    db_exact = db_exact && static_cast<C>(hdb[std::size_t(j)]) == static_cast<C>(want_db[std::size_t(j)]);
  CHECK(db_exact);
  CHECK(static_cast<C>(hdb[3]) == C(0));
  CHECK(static_cast<C>(hdb[70]) == C(0));
  // The public entry point computes the same db.
  const auto g = kt::linear_backward(dy, x, w, fwd, kt::Activation::ReLU);
  CHECK(g.db.to_vector() == hdb);
}

TEST_CASE("the Linear backward epilogue is bit-identical on OpenMP and Serial") {
  // 300 x 200: three full 64-column blocks and a partial one, every activation.
  const std::int64_t batch = 300, in = 40, out = 200;
  auto x = kt::randn<float, kt::Serial>({batch, in}, 31), w = kt::randn<float, kt::Serial>({out, in}, 32, 0, 0.2);
  // The OpenMP epilogue gets the Serial forward's output, so only the epilogue is compared.
  auto b = kt::randn<float, kt::Serial>({out}, 33), dy = kt::randn<float, kt::Serial>({batch, out}, 34);
  for (auto act : {kt::Activation::Identity, kt::Activation::ReLU, kt::Activation::GELU, kt::Activation::Tanh}) {
    CAPTURE(kt::to_string(act));
    const auto fs = kt::linear_forward(x, w, b, act);
    kt::Tensor<float, kt::Serial> dzs({batch, out}), dbs(kt::Shape{out});
    kt::impl::linear_grad_epilogue(kt::Serial(), dy, fs.output, fs.pre_activation, act, dzs, dbs);
#if defined(KOKKOS_ENABLE_OPENMP)
    using P = Kokkos::OpenMP;
    auto dyp = dy.to<P>();
    kt::Tensor<float, P> dzp({batch, out}), dbp(kt::Shape{out});
    kt::LinearForward<float, P> same{fs.output.to<P>(), fs.pre_activation.defined() ? fs.pre_activation.to<P>()
                                                                                     : kt::Tensor<float, P>()};
    kt::impl::linear_grad_epilogue(P(), dyp, same.output, same.pre_activation, act, dzp, dbp);
    CHECK(dzp.to_vector() == dzs.to_vector());
    CHECK(dbp.to_vector() == dbs.to_vector());
#endif
  }
}

TEST_CASE_TEMPLATE("bias and ReLU applied in the small GEMM's tile store give the two-pass form's bits", D,
                   KT_HOST_DEVICES) {
  // Deterministic mode runs every product on kt's kernel: on one thread (Serial) that is the
  // small path, whose tile stores then apply the bias and activation; on a pool of several
  // threads the packed kernel, followed by the epilogue's own pass.
  const bool was_deterministic = kt::tuning::deterministic();
  kt::tuning::set_deterministic(true);
  const bool fused = D().concurrency() == 1;
  // Partial row tiles (m 1, 5, 13, 37), partial panels narrower and wider than half a panel
  // (n 10, 17, 40, 70), full panels (32, 64), k from 3 to 64.
  const std::int64_t shapes[][3] = {{1, 10, 3},   {5, 17, 64},  {8, 32, 64}, {13, 40, 21},
                                    {32, 64, 64}, {37, 70, 9}, {32, 10, 64}};
  for (const auto& s : shapes) {
    const std::int64_t m = s[0], n = s[1], k = s[2];
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(k);
    auto x = kt::randn<float, D>({m, k}, 40 + n), w = kt::randn<float, D>({n, k}, 41 + m);
    auto b = kt::randn<float, D>({n}, 42);
    const auto xw = kt::matmul(x, w, kt::MatmulOptions().transpose_b(true));
    const auto z = xw + b;
    kt::Profiler profiler;
    CHECK(kt::linear(x, w, b).to_vector() == z.to_vector());
    CHECK(kt::linear(x, w, b, kt::Activation::ReLU).to_vector() == kt::relu(z).to_vector());
    CHECK(kt::linear_forward(x, w, b, kt::Activation::ReLU).output.to_vector() == kt::relu(z).to_vector());
    CHECK(kt::linear(x, w, kt::Tensor<float, D>(), kt::Activation::ReLU).to_vector() == kt::relu(xw).to_vector());
    profiler.stop();
    std::int64_t epilogues = 0, products = 0;
    for (const auto& row : profiler.key_averages()) {
      if (row.kind == "kernel" && row.name == "kt::linear::epilogue") epilogues += row.count;
      if (row.kind == "region" && row.name == "kt::gemm_kokkos") products += row.count;
    }
    CHECK(products == 4);
    CHECK(epilogues == (fused ? 0 : 4));
  }
  kt::tuning::set_deterministic(was_deterministic);
}
