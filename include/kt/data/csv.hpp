#pragma once
/// \file kt/data/csv.hpp
/// Reads numeric CSV files: one sample per line, a label column (by name or index) and every
/// other column an input feature. Bad cells (with line and column), ragged rows and missing
/// files are kt::Errors naming the file; blank lines are skipped.
///
///     auto csv = kt::read_csv("iris.csv", kt::CsvOptions().label_column("species"));
///     csv.inputs;     // Tensor<float, kt::Host> (rows, features)
///     csv.targets;    // Tensor<std::int64_t, kt::Host> (rows)
///     auto data = csv.dataset();                    // a kt::TensorDataset
///     auto reg = kt::read_csv<float>("y.csv", kt::CsvOptions().header(false).label_column(0));

#include "kt/core/device.hpp"
#include "kt/core/profiling.hpp"
#include "kt/data/impl/csv_impl.hpp"
#include "kt/data/tensor_dataset.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kt {

/// How to read a CSV file. Defaults: a header row, ',' between cells, the last column is
/// the label.
class CsvOptions {
public:
  /// Whether the first non-blank line names the columns.
  CsvOptions& header(bool has_header) { header_ = has_header; return *this; }
  CsvOptions& delimiter(char d) { delimiter_ = d; return *this; }
  /// The label column by index (negative counts from the end: -1 is the last column)...
  CsvOptions& label_column(int index) { label_index_ = index; label_name_.clear(); return *this; }
  /// ...or by its name in the header row.
  CsvOptions& label_column(const std::string& name) { label_name_ = name; return *this; }

  bool header() const { return header_; }
  char delimiter() const { return delimiter_; }
  int label_index() const { return label_index_; }
  const std::string& label_name() const { return label_name_; }

private:
  bool header_ = true;
  char delimiter_ = ',';
  int label_index_ = -1;
  std::string label_name_;
};

/// What kt::read_csv returns: features, labels and the column names.
template <class Y>
struct CsvData {
  Tensor<float, Host> inputs;        ///< (rows, columns - 1)
  Tensor<Y, Host> targets;           ///< (rows)
  std::vector<std::string> columns;  ///< the input columns' names (empty without a header)
  std::string target_column;         ///< the label column's name (empty without a header)
  TensorDataset<float, Y> dataset() const { return {inputs, targets}; }
};

/// Reads `path`; labels convert to Y (int64 class indices by default, or a floating type for
/// regression targets; integer labels must be whole numbers).
template <class Y = std::int64_t>
CsvData<Y> read_csv(const std::string& path, const CsvOptions& options = CsvOptions()) {
  KT_PROFILE_REGION("kt::read_csv");
  static_assert(is_dtype_v<Y>, "kt::read_csv<Y>: Y must be a kt dtype");
  const char* who = "kt::read_csv";
  const std::string text = impl::read_text_file(path, who);
  std::vector<std::string_view> cells;
  std::vector<float> inputs;
  std::vector<Y> targets;
  CsvData<Y> out;
  std::int64_t columns = -1, label = -1;
  std::vector<std::string> names;
  std::size_t pos = 0;
  for (std::int64_t line = 1; pos <= text.size(); ++line) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view row = std::string_view(text).substr(pos, end - pos);
    pos = end + 1;
    if (impl::trim(row).empty()) continue;
    impl::split_cells(row, options.delimiter(), cells);
    const auto n = static_cast<std::int64_t>(cells.size());
    if (columns < 0) {  // the first line fixes the columns and the label
      columns = n;
      if (options.header())
        for (auto c : cells) names.emplace_back(c);
      if (!options.label_name().empty()) {
        KT_REQUIRE(options.header(), who, ": '", path, "': label column '", options.label_name(),
                   "' is given by name but the options say there is no header row");
        for (std::int64_t c = 0; c < n && label < 0; ++c)
          if (names[static_cast<std::size_t>(c)] == options.label_name()) label = c;
        if (label < 0) {
          std::string list;
          for (const auto& s : names) list += (list.empty() ? "" : ", ") + s;
          KT_THROW(who, ": '", path, "': no column named '", options.label_name(), "' in the header on line ",
                   line, " (columns: ", list, ")");
        }
      } else {
        label = options.label_index() < 0 ? n + options.label_index() : options.label_index();
        KT_REQUIRE(label >= 0 && label < n, who, ": '", path, "': label column ", options.label_index(),
                   " is out of range for ", n, " columns (line ", line, ")");
      }
      KT_REQUIRE(n >= 1, who, ": '", path, "': line ", line, " has no columns");
      if (options.header()) continue;
    }
    KT_REQUIRE(n == columns, who, ": '", path, "': line ", line, " has ", n, " columns, expected ", columns,
               " (ragged row)");
    for (std::int64_t c = 0; c < n; ++c) {
      double value;
      const auto cell = cells[static_cast<std::size_t>(c)];
      if (!impl::parse_number(cell, value))
        KT_THROW(who, ": '", path, "': line ", line, ", column ", c + 1,
                 names.empty() ? std::string() : " ('" + names[static_cast<std::size_t>(c)] + "')", ": '",
                 std::string(cell), "' is not a number");
      if (c != label) {
        inputs.push_back(static_cast<float>(value));
      } else if constexpr (is_floating_dtype_v<Y>) {
        targets.push_back(static_cast<Y>(static_cast<compute_t<Y>>(value)));
      } else {
        KT_REQUIRE(value == std::floor(value) && value >= static_cast<double>(std::numeric_limits<Y>::lowest()) &&
                       value <= static_cast<double>(std::numeric_limits<Y>::max()),
                   who, ": '", path, "': line ", line, ", column ", c + 1, ": label '", std::string(cell),
                   "' is not a whole number that fits ", dtype_name<Y>());
        targets.push_back(static_cast<Y>(value));
      }
    }
  }
  const auto rows = static_cast<std::int64_t>(targets.size());
  const std::int64_t features = columns > 0 ? columns - 1 : 0;
  out.inputs = Tensor<float, Host>(Shape{rows, features});
  out.targets = Tensor<Y, Host>(Shape{rows});
  if (!inputs.empty()) std::memcpy(out.inputs.data(), inputs.data(), inputs.size() * sizeof(float));
  if (!targets.empty()) std::memcpy(out.targets.data(), targets.data(), targets.size() * sizeof(Y));
  if (!names.empty()) {
    out.target_column = names[static_cast<std::size_t>(label)];
    names.erase(names.begin() + label);
    out.columns = std::move(names);
  }
  return out;
}

}  // namespace kt
