// The kt side of every C++ block in docs/training.md, compiled and run by ctest ("docs: the
// snippets of training.md run", "docs: training.md shows the snippets of
// docs/snippets/training.cpp"). A region between two `// [name]` lines is what training.md
// shows under `<!-- snippet: name -->`, without the indentation of its marker line; edit here,
// then copy into training.md (the second test fails until the two agree).

#include <kt/io/checkpoint.hpp>
#include <kt/kt.hpp>

#include "run_page.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

// [checkpoint_part]
struct LossAverage {  // a part of the run of your own
  std::int64_t steps = 0;
  kt::Tensor<float, kt::Host> value = kt::zeros<float, kt::Host>({1});
};

template <>
struct kt::io::CheckpointPart<LossAverage> {
  static void save(kt::io::NamedTensors& tensors, kt::io::CheckpointRecords& records,
                   const std::string& name, const LossAverage& a) {
    records[name] = std::to_string(a.steps);  // a string in the file's __metadata__
    tensors.add(name + ".value", a.value);    // a tensor "<name>.<key>"
  }
  static kt::io::RestoreCommit stage(const kt::io::SafetensorsFile& file, const std::string& name,
                                     LossAverage& a) {  // read and check everything here
    const auto it = file.metadata().find(name);
    KT_REQUIRE(it != file.metadata().end() && !it->second.empty() &&
                   it->second.find_first_not_of("0123456789") == std::string::npos,
               "LossAverage '", name, "': no step count in ", file.path());
    LossAverage read{std::stoll(it->second), file.get<float>(name + ".value")};
    return [&a, read] { a = read; };  // the commit only assigns
  }
};
// [checkpoint_part]

namespace {

// [custom_module]
template <class D>
struct Gated : kt::nn::Module<float, D> {          // y = x ⊙ gate + fc2(relu(fc1(x)))
  std::shared_ptr<kt::nn::Linear<float, D>> fc1, fc2;
  kt::Var<float, D> gate;                          // a parameter of its own
  kt::Tensor<float, D> calls;                      // a buffer: saved, not trained
  Gated(std::int64_t n, std::int64_t hidden) {
    fc1 = this->register_module("fc1", kt::nn::Linear<float, D>(kt::nn::LinearOptions(n, hidden)));
    fc2 = this->register_module("fc2", kt::nn::Linear<float, D>(kt::nn::LinearOptions(hidden, n)));
    gate = this->register_parameter("gate", kt::full<float, D>({n}, 0.5f));
    calls = this->register_buffer("calls", kt::zeros<float, D>({1}));
  }
  kt::Var<float, D> forward(const kt::Var<float, D>& x) override {
    calls += 1.0f;
    return x * gate + (*fc2)(kt::relu((*fc1)(x)));
  }
};
// [custom_module]

// [step_graph]
template <class D>
void train(kt::nn::Sequential<float, D>& model, kt::optim::Adam<float, D>& opt,
           const kt::Tensor<float, D>& x, const kt::Tensor<std::int64_t, D>& y) {
  auto step = kt::make_step_graph<D>([&](const kt::Tensor<float, D>& xb, const kt::Tensor<std::int64_t, D>& yb) {
    opt.zero_grad();
    auto loss = kt::cross_entropy(model(kt::Var<float, D>(xb)), yb);
    loss.backward();
    opt.step();
    return loss.data();  // the graph's memory: rewritten by every replay
  });
  for (int i = 0; i < 100; ++i) {
    const auto loss = step(x, y);  // copies x, y into the graph's inputs, launches the graph
    if (i % 20 == 0) (void)loss.item();
  }
}
// [step_graph]

// [custom_optimizer]
class PlainSGDOptions {                                // the hyperparameters, listed once in fields()
public:
  PlainSGDOptions(double lr) : lr_(lr) {}              // implicit: PlainSGD(params, 0.1)
  PlainSGDOptions& lr(double v) { lr_ = v; return *this; }
  double lr() const { return lr_; }
  void validate(const char* optimizer) const {         // kt::Error for values the optimizer refuses
    KT_REQUIRE(lr_ >= 0, optimizer, ": invalid learning rate ", lr_);
  }
  template <class Self, class F>
  static void fields(Self& s, F&& f) { f("lr", s.lr_); }   // doubles and bools, by name
private:
  double lr_;
};

template <class T, class D>
class PlainSGD final : public kt::optim::OptimizerWithOptions<T, D, PlainSGDOptions> {   // p ← p − lr·g
public:
  PlainSGD(kt::optim::Params<T, D> params, const PlainSGDOptions& options)
      : kt::optim::OptimizerWithOptions<T, D, PlainSGDOptions>(std::move(params), options, "PlainSGD") {}
  const char* name() const override { return "PlainSGD"; }

protected:
  void update() override {                             // what step() runs once a gradient exists
    const auto lr = static_cast<T>(this->options().lr());
    for (const auto& p : this->params())
      if (p.grad().defined()) p.data() -= p.grad() * lr;
  }
  std::vector<std::string> state_names() const override { return {}; }   // no per-parameter state
};
// [custom_optimizer]

void moving_modules() {
  // [moving_modules]
  auto net = kt::nn::make_module<Gated<kt::Host>>(4, 6);     // std::make_shared<Gated>(4, 6)
  auto gpu = kt::nn::to<kt::DefaultDevice>(net);              // shared_ptr<Gated<DefaultDevice>>, state copied
  kt::optim::Adam<float, kt::DefaultDevice> opt(gpu->parameters());   // built after the move

  kt::nn::Sequential<float, kt::Host> stack;                  // a Sequential holding it moves too
  stack.push_back(net);
  stack.push_back(kt::nn::Tanh<float, kt::Host>());
  auto stack_gpu = stack.to<kt::DefaultDevice>();             // child 0 rebuilt there as a Gated

  Gated<kt::Host> direct(4, 6);                               // constructed directly:
  auto copy = kt::nn::to<kt::DefaultDevice>(direct, 4, 6);    // pass its constructor arguments
  copy.copy_state_from(*net);                                 // in place, from any device
  // [moving_modules]
  KT_REQUIRE(gpu->gate.data().to_vector() == net->gate.data().to_vector() &&
                 copy.fc1->weight.data().to_vector() == net->fc1->weight.data().to_vector() &&
                 stack_gpu.parameter_count() == net->parameter_count(),
             "training.md: a moved module lost its state");
  (void)opt;
}

void overview() {
  auto loader = kt::make_data_loader<kt::DefaultDevice>(
      kt::TensorDataset(kt::randn<float, kt::Host>({256, 784}, 0), kt::randint<std::int64_t, kt::Host>(0, 10, {256}, 1)),
      kt::DataLoaderOptions().batch_size(64));
  // [overview]
  using D = kt::DefaultDevice;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(784, 256).activation(kt::Activation::ReLU).seed(1)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(256, 10).seed(2)));
  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-3));

  for (auto [x, y] : loader) {                         // kt::DataLoader, see docs/data.md
    auto loss = kt::cross_entropy(model(x), y);        // x: Tensor<float, D>, y: Tensor<int64_t, D>
    opt.zero_grad();
    loss.backward();
    opt.step();
  }
  std::cout << model;                                   // Sequential(\n  (0): Linear(in_features=784, ...
  // [overview]
  std::cout << "\n";
  KT_REQUIRE(model.parameter_count() == 784 * 256 + 256 + 256 * 10 + 10, "training: the model has ",
             model.parameter_count(), " parameters");
  KT_REQUIRE(opt.state(0).step == 4, "training: Adam took ", opt.state(0).step, " steps, not 4");
}

void var() {
  // [var]
  using D = kt::DefaultDevice;
  kt::Var<float, D> w(kt::randn<float, D>({3, 2}, 0));   // a constant leaf
  w.requires_grad_();                                    // w.requires_grad_(): leaves only
  const kt::Var<float, D> x(kt::ones<float, D>({4, 3}));
  auto y = kt::matmul(x, w);                             // y.is_leaf() == false, y.grad_fn_name() == "kt::matmul"
  int ready = 0;
  kt::HookHandle hook = w.register_post_accumulate_grad_hook([&](const kt::Var<float, D>&) { ++ready; });
  kt::sum(y * 2.0f).backward();                          // w.grad() == 2 · xᵀ · ones; the hook ran once
  hook.remove();                                         // handle.remove()
  const auto grad = w.grad().to_vector();               // w.grad.tolist()
  w.set_grad(kt::zeros_like(w.data()));                  // w.grad = torch.zeros_like(w)
  const bool same = w.is_same(w.detach());               // `w is w.detach()`: false, a new constant
  // [var]
  KT_REQUIRE(w.is_leaf() && w.requires_grad() && !y.is_leaf() && y.grad_fn_name() == "kt::matmul",
             "training: y was made by '", y.grad_fn_name(), "'");
  KT_REQUIRE(ready == 1 && !same, "training: the hook ran ", ready, " times");
  for (float g : grad) KT_REQUIRE(g == 8.0f, "training: a gradient is ", g, ", not 8");
  KT_REQUIRE(kt::max(kt::abs(w.grad())).item() == 0.0f, "training: set_grad did not replace the gradient");
}

void grad_mode() {
  using D = kt::DefaultDevice;
  kt::Var<float, D> w(kt::randn<float, D>({3, 2}, 0), true);
  const auto x = kt::ones<float, D>({4, 3});
  // [grad_mode]
  kt::Var<float, D> frozen, recorded;
  {
    kt::NoGradGuard no_grad;                           // with torch.no_grad():
    frozen = kt::matmul(x, w);                         // records nothing: frozen.requires_grad() == false
    kt::EnableGradGuard enable_grad;                   // with torch.enable_grad(): records again
    recorded = kt::matmul(x, w);                       // recorded.grad_fn_name() == "kt::matmul"
  }                                                    // each guard restores the mode it found
  {
    kt::AutoGradMode mode(false);                      // with torch.set_grad_enabled(False):
  }
  const bool on = kt::GradMode::is_enabled();          // torch.is_grad_enabled(): per thread, true by default
  // [grad_mode]
  KT_REQUIRE(on && !frozen.requires_grad() && frozen.is_leaf() && recorded.requires_grad() &&
                 recorded.grad_fn_name() == "kt::matmul",
             "training: the grad-mode guards did not switch recording");
}

void custom_op() {
  // [custom_op]
  using D = kt::DefaultDevice;
  auto softplus = kt::make_function<double, D>("softplus",         // log(1 + exp(x))
      [](kt::Context<double, D>& ctx, const std::vector<kt::Tensor<double, D>>& in) {
        ctx.save_for_backward({in[0]});
        return kt::log(kt::exp(in[0]) + 1.0);                         // kt ops, or your own Kokkos kernel
      },
      [](const kt::Context<double, D>& ctx, const kt::Tensor<double, D>& grad) {
        if (!ctx.needs_input_grad(0)) return std::vector<kt::Tensor<double, D>>{kt::Tensor<double, D>()};
        return std::vector<kt::Tensor<double, D>>{grad * kt::sigmoid(ctx.saved()[0])};   // one per input
      });
  kt::Var<double, D> x(kt::randn<double, D>({4, 3}, 0), /*requires_grad=*/true);
  kt::Var<double, D> y = softplus({x});
  kt::sum(y).backward();                                              // x.grad() == sigmoid(x)
  // [custom_op]
  KT_REQUIRE(y.grad_fn_name() == "softplus", "training: softplus recorded as '", y.grad_fn_name(), "'");
  const double err = kt::max(kt::abs(x.grad() - kt::sigmoid(x.data()))).item();
  KT_REQUIRE(err < 1e-12, "training: softplus's gradient is off by ", err);
}

void tensor_ops() {
  // [tensor_ops]
  using D = kt::DefaultDevice;
  const D exec;                                        // an execution-space instance: a CUDA stream on GPUs
  auto a = kt::arange<float, D>(0, 6).reshape({2, 3});
  auto b = kt::full_like(a, 2.0);                      // torch.full_like; zeros_like, ones_like, empty_like
  auto mask = kt::lt(a, b);                            // a < b: uint8 0/1 (torch.lt); eq, ne, le, gt, ge alike
  kt::mul_(exec, a, 0.5f);                             // a.mul_(0.5), ordered on exec; add_, sub_, div_
  auto n = kt::neg(a);                                 // -a (torch.neg)
  auto row = a[1];                                     // a view: row.storage_offset() == 3, row.nbytes() == 12
  const int last = a.shape().normalize_dim(-1);        // 1: dims count from the back, as in PyTorch
  // [tensor_ops]
  KT_REQUIRE(mask.to_vector() == std::vector<std::uint8_t>({1, 1, 0, 0, 0, 0}), "training: kt::lt gave ", mask);
  KT_REQUIRE(n.to_vector() == std::vector<float>({-0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -2.5f}), "training: neg gave ", n);
  KT_REQUIRE(row.storage_offset() == 3 && row.nbytes() == 12u && last == 1, "training: the row view is at offset ",
             row.storage_offset());
  KT_REQUIRE(b.shape() == a.shape() && b.to_vector()[5] == 2.0f, "training: full_like gave ", b);
}

void linear_kernels() {
  // [linear_kernels]
  using D = kt::DefaultDevice;
  const auto x = kt::randn<float, D>({8, 4}, 0), w = kt::randn<float, D>({3, 4}, 1), b = kt::zeros<float, D>({3});
  kt::LinearForward<float, D> fwd = kt::linear_forward(x, w, b, kt::Activation::GELU);   // .output, .pre_activation
  kt::LinearGrads<float, D> g = kt::linear_backward(kt::ones_like(fwd.output), x, w, fwd, kt::Activation::GELU);
  // g.dx (8, 4), g.dw (3, 4), g.db (3): d sum(y) / d x, w, b
  // [linear_kernels]
  kt::Var<float, D> wv(w, true);
  kt::sum(kt::linear(x, wv, b, kt::Activation::GELU)).backward();
  const float err = kt::max(kt::abs(wv.grad() - g.dw)).item();
  KT_REQUIRE(err < 1e-5f && g.dx.shape() == kt::Shape({8, 4}) && g.db.shape() == kt::Shape({3}),
             "training: linear_backward's dw is off by ", err);
  KT_REQUIRE(kt::MatmulOptions().transpose_b(true).trans_b() == kt::Transpose::Yes, "training: trans_b()");
}

void initialisation() {
  // [init]
  using D = kt::DefaultDevice;
  kt::nn::Linear<float, D> fc(kt::nn::LinearOptions(256, 128));
  kt::Generator gen(42);                                         // torch.Generator().manual_seed(42)
  const double gain = kt::nn::init::calculate_gain("tanh");      // 5/3
  kt::nn::init::xavier_uniform_(fc.weight.data(), gen, gain);    // nn.init.xavier_uniform_(fc.weight, gain)
  kt::nn::init::constant_(fc.bias.data(), 0.0);                  // nn.init.constant_(fc.bias, 0)
  const auto [fan_in, fan_out] = kt::nn::init::fans(fc.weight.shape());   // (256, 128)
  // [init]
  const double bound = gain * std::sqrt(6.0 / (fan_in + fan_out));
  const float wmax = kt::max(kt::abs(fc.weight.data())).item();
  KT_REQUIRE(fan_in == 256 && fan_out == 128 && wmax <= bound && wmax > 0.9 * bound,
             "training: xavier_uniform_ drew up to ", wmax, " for the bound ", bound);
  KT_REQUIRE(kt::max(kt::abs(fc.bias.data())).item() == 0.0f && gen.offset() == 1,
             "training: the generator is at offset ", gen.offset());
}

void layers() {
  // [layers]
  using D = kt::DefaultDevice;
  kt::nn::Sequential<float, D> net;
  net.push_back(kt::nn::Flatten<float, D>(kt::nn::FlattenOptions{1, -1}));   // nn.Flatten(1, -1)
  net.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(12, 16).seed(1)));
  net.push_back(kt::nn::LayerNorm<float, D>(kt::nn::LayerNormOptions({16}).eps(1e-5).elementwise_affine(true)));
  net.push_back(kt::nn::GELU<float, D>());                                   // ReLU, Tanh, Sigmoid alike
  net.push_back(kt::nn::Dropout<float, D>(kt::nn::DropoutOptions(0.1).seed(7)));
  net.push_back(kt::nn::Linear<float, D>(16, 4));
  net.push_back(kt::nn::LogSoftmax<float, D>(kt::nn::SoftmaxOptions{1}));    // nn.LogSoftmax(dim=1)
  for (const auto& [name, child] : net.named_children())                     // "0" ... "6"
    std::cout << name << ": " << child->name() << "(" << child->extra_repr() << ")\n";
  for (const auto& [name, gen] : net.named_generators())                     // "4": the Dropout's
    std::cout << name << " draws from seed " << gen->seed() << "\n";
  net.eval();                                          // is_training() is false in every child
  auto y = net(kt::randn<float, D>({8, 3, 4}, 0));     // (8, 4) log-probabilities
  // [layers]
  KT_REQUIRE(y.shape() == kt::Shape({8, 4}) && !net[4]->is_training(), "training: the layers gave ", y.shape());
  const auto gens = net.named_generators();
  KT_REQUIRE(gens.size() == 1 && gens[0].first == "4" && gens[0].second->seed() == 7, "training: named_generators");
  KT_REQUIRE(net.named_children().size() == 7, "training: named_children");
}

void optimizer_state() {
  // [optimizer_state]
  using D = kt::DefaultDevice;
  kt::Var<float, D> w(kt::randn<float, D>({3, 2}, 0), true), b(kt::zeros<float, D>({2}), true);
  kt::optim::Params<float, D> params{w, b};            // model.parameters(), a std::vector or {w, b}
  kt::optim::AdamW<float, D> opt(params, kt::optim::AdamWOptions(1e-3).weight_decay(0.05).amsgrad(true));
  kt::sum(kt::matmul(kt::ones<float, D>({4, 3}), w) + b).backward();
  opt.step();
  const kt::optim::ParamState<float, D>& s = opt.state(0);   // optimizer.state[w]: s.step, s.at("exp_avg"), ...
  kt::optim::OptimizerStateDict<float, D> sd = opt.state_dict();   // sd.state[i], sd.hyperparameters["lr"]
  opt.set_hyperparameters({{"lr", 3e-4}, {"weight_decay", 0.1}});  // param_groups[0]["lr"] = 3e-4, ...
  opt.set_options(kt::optim::AdamWOptions(opt.options()).betas(0.9, 0.95));   // all of them, validated
  opt.set_state(1, sd.state[1]);                       // one parameter's state, deep-copied
  kt::optim::OptimizerBase& any = opt;                 // what schedulers hold: lr(), set_lr(), step(), name()
  // [optimizer_state]
  KT_REQUIRE(s.step == 1 && s.has("exp_avg") && s.has("max_exp_avg_sq") && s.at("exp_avg_sq").shape() == w.shape(),
             "training: AdamW's state after one step");
  const auto h = opt.hyperparameters();
  KT_REQUIRE(h.at("lr") == 3e-4 && h.at("weight_decay") == 0.1 && h.at("beta2") == 0.95 && h.at("amsgrad") == 1,
             "training: the hyperparameters did not change");
  KT_REQUIRE(any.lr() == 3e-4 && std::string(any.name()) == "kt::optim::AdamW" && sd.state.size() == 2,
             "training: OptimizerBase sees lr ", any.lr());
}

void schedulers() {
  // [schedulers]
  using D = kt::DefaultDevice;
  kt::Var<float, D> w(kt::zeros<float, D>({4}), true);
  kt::optim::SGD<float, D> opt({w}, kt::optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  kt::optim::StepLR sched(opt, /*step_size=*/2, /*gamma=*/0.5);   // lr(e) = 0.1 · 0.5^⌊e/2⌋
  for (int epoch = 0; epoch < 3; ++epoch) {
    // ... an epoch of opt.step()
    sched.step();                                      // after the epoch's steps, as in PyTorch
  }
  const double lr = sched.get_last_lr();               // scheduler.get_last_lr()[0]: 0.05 at last_epoch() 3
  const double later = sched.lr_at(10);                // the closed form at any epoch; changes nothing
  kt::optim::LRSchedulerState saved = sched.state_dict();   // base_lr, last_epoch
  sched.set_last_epoch(0);                             // jumps: opt.lr() is 0.1 again
  sched.load_state_dict(saved);                        // back at epoch 3
  const kt::optim::LRScheduler& any = sched;           // the base of StepLR, CosineAnnealingLR, LinearLR
  // [schedulers]
  KT_REQUIRE(std::abs(lr - 0.05) < 1e-12 && std::abs(later - 0.1 / 32) < 1e-12 && std::abs(opt.lr() - 0.05) < 1e-12,
             "training: StepLR gave ", lr, " and ", later);
  KT_REQUIRE(any.last_epoch() == 3 && any.base_lr() == 0.1 && sched.step_size() == 2 && sched.gamma() == 0.5,
             "training: the scheduler's state");
  kt::optim::CosineAnnealingLR cosine(opt, /*T_max=*/10, /*eta_min=*/0.01);
  kt::optim::LinearLR warmup(opt, 0.5, 1.0, 4);
  KT_REQUIRE(cosine.T_max() == 10 && cosine.eta_min() == 0.01 && warmup.start_factor() == 0.5 &&
                 warmup.end_factor() == 1.0 && warmup.total_iters() == 4,
             "training: the schedulers' settings");
}

void custom_optimizer() {
  using D = kt::DefaultDevice;
  kt::Var<float, D> w(kt::ones<float, D>({4}), true);
  PlainSGD<float, D> opt({w}, 0.25);
  for (int step = 0; step < 2; ++step) {
    opt.zero_grad();
    kt::sum(w * w).backward();  // gradient 2w
    opt.step();                 // w ← w − 0.25 · 2w = w / 2
  }
  kt::optim::StepLR sched(opt, 1, 0.5);  // a scheduler drives it like any kt optimizer
  sched.step();
  KT_REQUIRE(w.data().to_vector()[0] == 0.25f && opt.lr() == 0.125 && opt.hyperparameters().at("lr") == 0.125,
             "training: PlainSGD left w at ", w.data().to_vector()[0]);
  kt::clip_grad_norm_(opt.params(), 1.0);
  kt::io::Checkpoint().add("optimizer", opt).save("training_plain_sgd.safetensors");
  opt.set_lr(1.0);
  kt::io::Restore().add("optimizer", opt).from(kt::io::load_checkpoint("training_plain_sgd.safetensors"));
  std::remove("training_plain_sgd.safetensors");
  KT_REQUIRE(opt.lr() == 0.125, "training: PlainSGD's checkpoint restored lr ", opt.lr());
}

void autocast() {
  // [autocast]
  using D = kt::DefaultDevice;
  kt::nn::Linear<float, D> fc(kt::nn::LinearOptions(8, 4).seed(0));   // fp32 master weights
  kt::optim::SGD<float, D> opt(fc.parameters(), 0.1);
  kt::amp::GradScaler scaler(kt::amp::GradScalerOptions().init_scale(1024).growth_interval(100));
  const auto x = kt::randn<float, D>({16, 8}, 1);
  const auto y = kt::randint<std::int64_t, D>(0, 4, {16}, 2);
  bool enabled = false;
  std::string dtype;
  kt::amp::StepTaken<D> taken;
  for (int step = 0; step < 3; ++step) {
    opt.zero_grad();
    kt::Var<float, D> loss;
    {
      kt::amp::autocast<D> guard;                      // kt::amp::autocast_default_t<D>: half on Cuda, else bfloat16
      enabled = kt::amp::autocast<D>::is_enabled();    // torch.is_autocast_enabled()
      auto logits = fc(x);                             // in 16 bits
      dtype = kt::amp::autocast_dtype(logits);         // logits.dtype: "float16" on Cuda, else "bfloat16"
      loss = kt::cross_entropy(logits, y);             // in fp32
    }
    scaler.scale(loss).backward();
    taken = scaler.step(opt);                          // converts to bool (stepped); reading it waits
    scaler.update();
  }
  kt::amp::GradScalerState state = scaler.state_dict();   // scale, growth_tracker, growth_factor, ...
  kt::amp::GradScaler::check_state_dict(state);        // what load_state_dict checks first
  // [autocast]
  KT_REQUIRE(enabled && !kt::amp::autocast<D>::is_enabled(), "training: autocast did not switch");
  KT_REQUIRE(dtype == kt::dtype_name<kt::amp::autocast_default_t<D>>(), "training: the logits' dtype is ", dtype);
  KT_REQUIRE(static_cast<bool>(taken) && state.scale == 1024 && state.growth_tracker == 3 &&
                 state.growth_factor == 2 && state.backoff_factor == 0.5 && state.growth_interval == 100,
             "training: the scaler's state is scale ", state.scale, ", tracker ", state.growth_tracker);
}

void checkpoint() {
  using D = kt::DefaultDevice;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(4, 8).seed(0)));
  model.push_back(kt::nn::Dropout<float, D>(kt::nn::DropoutOptions(0.1).seed(1)));
  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-3).amsgrad(true));
  kt::optim::StepLR sched(opt, /*step_size=*/10);
  auto loader = kt::make_data_loader<D>(kt::TensorDataset(kt::randn<float, kt::Host>({64, 4}, 0), kt::randn<float, kt::Host>({64, 8}, 1)),
                                        kt::DataLoaderOptions().batch_size(16).shuffle(true));
  const int epoch = 3;
  // [checkpoint]
  kt::io::Checkpoint().add("model", model).add("optimizer", opt).add("scheduler", sched)
      .add("loader", loader).add("rng", kt::default_generator())
      .set("epoch", std::to_string(epoch)).save("training_run.safetensors");   // atomic

  const auto saved = kt::io::load_checkpoint("training_run.safetensors");     // validated
  kt::io::Restore()                    // all or nothing
      .add("loader", loader)           // refuses another seed, batch size, dataset size
      .add("model", model)             // strict; its type and the Dropout layers' generators
      .add("optimizer", opt)           // state and hyperparameters; type checked
      .add("scheduler", sched)
      .add("rng", kt::default_generator())
      .from(saved);
  // [checkpoint]
  KT_REQUIRE(saved.get("epoch") == std::to_string(epoch), "training: the checkpoint's epoch is ", saved.get("epoch"));
  std::remove("training_run.safetensors");

  LossAverage average{12, kt::full<float, kt::Host>({1}, 0.5f)}, restored;
  kt::io::Checkpoint().add("model", model).add("loss_average", average).save("training_part.safetensors");
  kt::io::Restore().add("model", model).add("loss_average", restored).from("training_part.safetensors");
  KT_REQUIRE(restored.steps == 12 && restored.value.item() == 0.5f, "training: the LossAverage restored ", restored.steps);
  std::remove("training_part.safetensors");
}

void step_graph() {
  using D = kt::DefaultDevice;
  kt::nn::Sequential<float, D> model;
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(8, 16).activation(kt::Activation::ReLU).seed(1)));
  model.push_back(kt::nn::Linear<float, D>(kt::nn::LinearOptions(16, 3).seed(2)));
  kt::optim::Adam<float, D> opt(model.parameters(), kt::optim::AdamOptions(1e-2));
  const auto x = kt::randn<float, D>({64, 8}, 0);
  const auto y = kt::randint<std::int64_t, D>(0, 3, {64}, 1);
  const float before = [&] {
    kt::NoGradGuard no_grad;
    return kt::cross_entropy(model(x), y).item();
  }();
  train(model, opt, x, y);
  kt::NoGradGuard no_grad;
  const float after = kt::cross_entropy(model(x), y).item();
  KT_REQUIRE(after < before, "training: 100 captured steps took the loss from ", before, " to ", after);
}

}  // namespace

int main(int argc, char* argv[]) {
  return kt_docs::run_page(argc, argv, "training.md", [&] {
    overview();
    moving_modules();
    var();
    grad_mode();
    custom_op();
    tensor_ops();
    linear_kernels();
    initialisation();
    layers();
    optimizer_state();
    schedulers();
    custom_optimizer();
    step_graph();
    autocast();
    checkpoint();
  });
}
