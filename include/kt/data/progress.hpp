#pragma once
/// \file kt/data/progress.hpp
/// `kt::ProgressBar`: a progress display for training loops — epoch, step/total, mean loss,
/// samples/s and ETA. On a terminal it redraws one line in place ('\r', at most every
/// `redraw_interval` seconds); otherwise (CI logs, pipes) it prints a plain line every
/// `line_interval` seconds and at the end of each epoch.
///
///     kt::ProgressBar bar(loader.size(), kt::ProgressOptions().num_epochs(10));
///     for (int epoch = 0; epoch < 10; ++epoch) {
///       bar.start_epoch(epoch);
///       for (auto [x, y] : loader) { float loss = ...; bar.step(x.size(0), loss); }
///       bar.finish_epoch();   // "epoch 1/10  235/235  loss 0.5123  61234 samples/s  0.9 s"
///     }

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <ostream>
#include <string>

namespace kt {

class ProgressOptions {
public:
  /// Epochs in the run, shown as "epoch e/n" (0: just "epoch e").
  ProgressOptions& num_epochs(int n) { num_epochs_ = n; return *this; }
  /// Seconds between in-place redraws on a terminal (default 0.1).
  ProgressOptions& redraw_interval(double s) { redraw_interval_ = s; return *this; }
  /// Seconds between plain lines when not on a terminal (default 5).
  ProgressOptions& line_interval(double s) { line_interval_ = s; return *this; }
  /// Forces terminal (true) or plain-line (false) output instead of detecting it.
  ProgressOptions& interactive(bool on) {
    interactive_ = on;
    interactive_set_ = true;
    return *this;
  }

  int num_epochs() const { return num_epochs_; }
  double redraw_interval() const { return redraw_interval_; }
  double line_interval() const { return line_interval_; }
  std::optional<bool> interactive() const { return interactive_set_ ? std::optional<bool>(interactive_) : std::nullopt; }

private:
  int num_epochs_ = 0;
  double redraw_interval_ = 0.1;
  double line_interval_ = 5.0;
  bool interactive_ = false, interactive_set_ = false;  // (not an optional<bool>: GCC 12 warns falsely)
};

class ProgressBar {
  using clock = std::chrono::steady_clock;

public:
  /// `total_steps` steps per epoch (0 if unknown: no ETA), written to `out`.
  explicit ProgressBar(std::int64_t total_steps, ProgressOptions options = ProgressOptions(),
                       std::ostream& out = std::cout)
      : total_(total_steps), options_(options), out_(out) {
    const bool is_terminal = (&out == &std::cout && isatty(STDOUT_FILENO)) ||
                             ((&out == &std::cerr || &out == &std::clog) && isatty(STDERR_FILENO));
    tty_ = options_.interactive().value_or(is_terminal);
    start_epoch(0);
  }

  /// Resets the counters for epoch `epoch` (0-based; shown 1-based).
  void start_epoch(int epoch) {
    epoch_ = epoch;
    step_ = samples_ = 0;
    loss_sum_ = 0;
    losses_ = 0;
    start_ = last_draw_ = clock::now();
  }

  /// One step done: `samples` processed and its loss (NaN: none to show).
  void step(std::int64_t samples, double loss = std::nan("")) {
    ++step_;
    samples_ += samples;
    if (!std::isnan(loss)) {
      loss_sum_ += loss;
      ++losses_;
    }
    const auto now = clock::now();
    const double since = std::chrono::duration<double>(now - last_draw_).count();
    if (since >= (tty_ ? options_.redraw_interval() : options_.line_interval())) {
      last_draw_ = now;
      draw(false);
    }
  }

  /// Prints the epoch's final line (and a newline on a terminal).
  void finish_epoch() { draw(true); }

  /// The current status line: "epoch 2/10  120/235  loss 0.4321  51234 samples/s  ETA 1.2 s".
  std::string line() const {
    const double elapsed = std::chrono::duration<double>(clock::now() - start_).count();
    std::string s = "epoch " + std::to_string(epoch_ + 1);
    if (options_.num_epochs() > 0) s += "/" + std::to_string(options_.num_epochs());
    s += "  " + std::to_string(step_);
    if (total_ > 0) s += "/" + std::to_string(total_);
    char buf[128];
    if (losses_ > 0) {
      std::snprintf(buf, sizeof buf, "  loss %.4f", loss_sum_ / static_cast<double>(losses_));
      s += buf;
    }
    if (elapsed > 0) {
      std::snprintf(buf, sizeof buf, "  %.0f samples/s", static_cast<double>(samples_) / elapsed);
      s += buf;
    }
    if (total_ > 0 && step_ > 0 && step_ < total_) {
      std::snprintf(buf, sizeof buf, "  ETA %.1f s", elapsed / static_cast<double>(step_) * static_cast<double>(total_ - step_));
      s += buf;
    } else if (step_ > 0) {
      std::snprintf(buf, sizeof buf, "  %.1f s", elapsed);
      s += buf;
    }
    return s;
  }

  bool interactive() const { return tty_; }
  std::int64_t steps() const { return step_; }
  /// Mean of the losses given to step() in this epoch (NaN when none).
  double mean_loss() const { return losses_ > 0 ? loss_sum_ / static_cast<double>(losses_) : std::nan(""); }

private:
  void draw(bool final) {
    const std::string text = line();
    if (tty_) {
      // pad over a longer previous line, then stay on it until the epoch ends
      out_ << '\r' << text << std::string(text.size() < width_ ? width_ - text.size() : 0, ' ');
      width_ = text.size();
      if (final) out_ << '\n';
    } else {
      out_ << text << '\n';
    }
    out_.flush();
  }

  std::int64_t total_;
  ProgressOptions options_;
  std::ostream& out_;
  bool tty_ = false;
  int epoch_ = 0;
  std::int64_t step_ = 0, samples_ = 0, losses_ = 0;
  double loss_sum_ = 0;
  std::size_t width_ = 0;
  clock::time_point start_, last_draw_;
};

}  // namespace kt
