#include "kt_test.hpp"

#include <kt/data/progress.hpp>

#include <sstream>

TEST_CASE("ProgressBar prints plain lines when not on a terminal") {
  std::ostringstream out;
  kt::ProgressBar bar(4, kt::ProgressOptions().num_epochs(3).line_interval(0), out);
  CHECK_FALSE(bar.interactive());  // a string stream is never a terminal
  bar.start_epoch(1);
  bar.step(256, 1.0);
  bar.step(256, 0.5);
  CHECK(bar.mean_loss() == 0.75);
  CHECK(bar.line().rfind("epoch 2/3  2/4  loss 0.7500  ", 0) == 0);
  CHECK(bar.line().find("samples/s") != std::string::npos);
  CHECK(bar.line().find("ETA") != std::string::npos);
  bar.step(256, 0.5);
  bar.step(100, 0.5);
  bar.finish_epoch();
  const std::string text = out.str();
  CHECK(text.find('\r') == std::string::npos);
  CHECK(std::count(text.begin(), text.end(), '\n') == 5);  // a line per step (interval 0) + the final one
  CHECK(text.find("epoch 2/3  4/4  loss 0.6250") != std::string::npos);
}

TEST_CASE("ProgressBar redraws in place on a terminal rate-limited") {
  std::ostringstream out;
  kt::ProgressBar bar(1000, kt::ProgressOptions().interactive(true).redraw_interval(3600), out);
  CHECK(bar.interactive());
  for (int i = 0; i < 1000; ++i) bar.step(1);
  CHECK(out.str().empty());  // no redraw within the interval
  bar.finish_epoch();
  CHECK(out.str().rfind("\repoch 1  1000/1000  ", 0) == 0);
  CHECK(out.str().back() == '\n');
  CHECK(out.str().find("loss") == std::string::npos);  // no loss given
}
