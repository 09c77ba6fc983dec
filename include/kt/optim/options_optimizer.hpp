#pragma once
/// \file kt/optim/options_optimizer.hpp
/// `kt::optim::OptimizerWithOptions<T, D, Options>`: the base of optimizers whose
/// hyperparameters are an options class (SGDOptions, AdamOptions, ...). It owns the options,
/// the learning rate schedulers drive, and access by name (`hyperparameters()`,
/// `set_hyperparameters()`, what state_dict saves) — all from the options class's one list of
/// fields:
///
///     class MyOptions {
///     public:
///       MyOptions(double lr) : lr_(lr) {}
///       MyOptions& lr(double v) { lr_ = v; return *this; }
///       double lr() const { return lr_; }
///       void validate(const char* optimizer) const;              // kt::Error when invalid
///       template <class Self, class F> static void fields(Self& s, F&& f) {
///         f("lr", s.lr_); f("nesterov", s.nesterov_);           // doubles and bools
///       }
///     private: double lr_; bool nesterov_ = false;
///     };

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"
#include "kt/optim/optimizer.hpp"
#include "kt/tensor/tensor.hpp"

#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kt::optim {

template <class T, class D, class Options>
class OptimizerWithOptions : public Optimizer<T, D> {
public:
  using options_type = Options;

  const Options& options() const { return options_; }
  /// Replaces all hyperparameters (validated first; nothing changes when invalid).
  void set_options(const Options& options) {
    options.validate(this->name());
    const bool new_lr = options.lr() != options_.lr();
    options_ = options;
    if (new_lr) lr_device_.fill_(options_.lr());
  }

  double lr() const override { return options_.lr(); }
  void set_lr(double lr) override { set_options(Options(options_).lr(lr)); }

  /// The hyperparameters by name ("lr", "momentum", "beta1", ...; flags as 0 or 1).
  std::map<std::string, double> hyperparameters() const override {
    std::map<std::string, double> out;
    Options::fields(options_, [&](const char* name, const auto& value) { out[name] = static_cast<double>(value); });
    return out;
  }

  /// Sets hyperparameters by name (those not named keep their values); kt::Error for an
  /// unknown name or an invalid value (nothing changes then).
  void set_hyperparameters(const std::map<std::string, double>& h) override {
    Options o = options_;
    std::string names;
    Options::fields(o, [&](const char* name, auto& value) {
      names += (names.empty() ? "" : ", ") + std::string(name);
      const auto it = h.find(name);
      if (it == h.end()) return;
      if constexpr (std::is_same_v<std::decay_t<decltype(value)>, bool>) {
        KT_REQUIRE(it->second == 0 || it->second == 1, this->name(), "::set_hyperparameters: \"", name,
                   "\" is a flag (0 or 1), got ", it->second);
        value = it->second != 0;
      } else {
        value = it->second;
      }
    });
    for (const auto& kv : h) {
      bool known = false;
      Options::fields(o, [&](const char* name, const auto&) { known = known || kv.first == name; });
      KT_REQUIRE(known, this->name(), "::set_hyperparameters: unknown hyperparameter \"", kv.first,
                 "\" (expected ", names, ")");
    }
    set_options(o);
  }

protected:
  OptimizerWithOptions(Params<T, D> params, const Options& options, const char* qualified_name)
      : Optimizer<T, D>(std::move(params), qualified_name), options_(options), lr_device_(Shape{1}) {
    options_.validate(qualified_name);
    lr_device_.fill_(options_.lr());
  }

  /// The learning rate in the device's memory, for kernels that read it there (a captured
  /// step then follows set_lr() between replays); set_options keeps it current.
  const double* device_lr() const { return lr_device_.data(); }

private:
  Options options_;
  Tensor<double, D> lr_device_;
};

}  // namespace kt::optim

#include "kt/core/impl/public_end.hpp"
