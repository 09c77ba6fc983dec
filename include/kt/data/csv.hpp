#pragma once
/// \file kt/data/csv.hpp
/// Reads numeric CSV files: one sample per line, a label column (by name or index) and every
/// other column an input feature. Options (strict defaults) in kt/data/csv_options.hpp.
///
///     auto csv = kt::read_csv("iris.csv", kt::CsvOptions().label_column("species"));
///     csv.inputs;     // Tensor<float, kt::Host> (rows, features)
///     csv.targets;    // Tensor<std::int64_t, kt::Host> (rows)
///     auto data = csv.dataset();                    // a kt::TensorDataset
///     auto reg = kt::read_csv<float>("y.csv", kt::CsvOptions().header(false).label_column(0));

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/device.hpp"
#include "kt/core/profiling.hpp"
#include "kt/data/csv_options.hpp"
#include "kt/data/impl/csv_table.hpp"
#include "kt/data/tensor_dataset.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace kt {

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
/// regression targets). Everything is validated (docs/data.md, "CSV validation policy"): a file
/// without data rows, a bad or out-of-range cell, a ragged row, a blank line between rows, a
/// non-finite value or a negative class label is a kt::Error naming the file, line and column.
template <class Y = std::int64_t>
CsvData<Y> read_csv(const std::string& path, const CsvOptions& options = CsvOptions()) {
  KT_PROFILE_REGION("kt::read_csv");
  static_assert(is_dtype_v<Y>, "kt::read_csv<Y>: Y must be a kt dtype");
  impl::CsvTable<Y> t = impl::parse_csv<Y>(path, options);
  const auto rows = static_cast<std::int64_t>(t.targets.size());
  CsvData<Y> out;
  out.inputs = Tensor<float, Host>(Shape{rows, t.columns - 1});
  out.targets = Tensor<Y, Host>(Shape{rows});
  if (!t.inputs.empty()) std::memcpy(out.inputs.data(), t.inputs.data(), t.inputs.size() * sizeof(float));
  std::memcpy(out.targets.data(), t.targets.data(), t.targets.size() * sizeof(Y));
  if (!t.names.empty()) {
    out.target_column = t.names[static_cast<std::size_t>(t.label)];
    t.names.erase(t.names.begin() + t.label);
    out.columns = std::move(t.names);
  }
  return out;
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
