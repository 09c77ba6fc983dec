#pragma once
// kt::read_csv's parse: the file's text to row-major features and labels, every rule of the
// validation policy (docs/data.md) applied with the file, line, column and cell named.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/error.hpp"
#include "kt/core/impl/printable.hpp"
#include "kt/data/csv_options.hpp"
#include "kt/data/impl/csv_impl.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <string>
#include <vector>

namespace kt::impl {

template <class Y>
struct CsvTable {
  std::vector<float> inputs;  // rows x (columns - 1)
  std::vector<Y> targets;
  std::int64_t columns = 0, label = 0;
  std::vector<std::string> names;  // from the header row, or empty
};

/// The largest finite value of a floating dtype (0 for the others: never asked).
template <class T>
double largest_finite() {
  if constexpr (is_floating_dtype_v<T>) return static_cast<double>(static_cast<compute_t<T>>(std::numeric_limits<T>::max()));
  else return 0;
}

/// The label's column, fixed by the first line: by name (among the header's `names`) or by
/// index (negative counts from the end) among its `n` cells.
inline std::int64_t csv_label_column(const std::vector<std::string>& names, std::int64_t n, std::int64_t line,
                                     const std::string& path, const CsvOptions& options, const char* who) {
  if (options.label_name().empty()) {
    const std::int64_t label = options.label_index() < 0 ? n + options.label_index() : options.label_index();
    KT_REQUIRE(label >= 0 && label < n, who, ": '", path, "': label column ", options.label_index(),
               " is out of range for ", n, " columns (line ", line, ")");
    return label;
  }
  KT_REQUIRE(options.header(), who, ": '", path, "': label column '", printable(options.label_name()),
             "' is given by name but the options say there is no header row");
  for (std::int64_t c = 0; c < n; ++c)
    if (names[static_cast<std::size_t>(c)] == options.label_name()) return c;
  std::string list;
  for (const auto& s : names) list += (list.empty() ? "" : ", ") + printable(s, 40);
  KT_THROW(who, ": '", path, "': no column named '", printable(options.label_name()), "' in the header on line ",
           line, " (columns: ", printable(list, 400), ")");
}

/// A class-index label cell as Y; `where()` names the cell in the error.
template <class Y, class Where>
Y csv_class_label(const std::string& cell, const CsvOptions& options, const Where& where, const char* who) {
  std::int64_t v = 0;
  const std::string bad = parse_integer(cell, v);
  KT_REQUIRE(bad.empty(), who, ": ", where(), ": label '", printable(cell), "' ", bad);
  KT_REQUIRE(v >= 0 || options.negative_labels(), who, ": ", where(), ": label ", v,
             " is negative (class labels are indices from 0; CsvOptions().negative_labels(true) accepts it)");
  // Integral Y only: a floating Y reads its labels as numbers (csv_number), though the
  // caller's run-time branch still instantiates this for it.
  if constexpr (std::is_integral_v<Y>) {
    using limits = std::numeric_limits<Y>;
    const bool fits = std::is_signed_v<Y>
                          ? v >= static_cast<std::int64_t>(limits::lowest()) && v <= static_cast<std::int64_t>(limits::max())
                          : v >= 0 && static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(limits::max());
    KT_REQUIRE(fits, who, ": ", where(), ": label ", v, " is out of range for ", dtype_name<Y>());
  }
  return static_cast<Y>(v);
}

/// A number cell, checked against what it becomes: float32 for a feature, Y for a floating
/// label (`is_label`); `where()` names the cell in the error.
template <class Y, class Where>
double csv_number(const std::string& cell, bool is_label, const CsvOptions& options, const Where& where,
                  const char* who) {
  bool overflow = false;
  const auto value = parse_double(cell, overflow);
  KT_REQUIRE(value.has_value(), who, ": ", where(), ": '", printable(cell), "' is not a number");
  const double max = is_label ? largest_finite<Y>() : largest_finite<float>();
  KT_REQUIRE(!overflow && !(std::isfinite(*value) && std::fabs(*value) > max), who, ": ", where(), ": '",
             printable(cell), "' is out of range for ", is_label ? dtype_name<Y>() : "float32");
  KT_REQUIRE(std::isfinite(*value) || options.allow_non_finite(), who, ": ", where(), ": '", printable(cell),
             "' is not finite (CsvOptions().allow_non_finite(true) accepts it)");
  return *value;
}

template <class Y>
CsvTable<Y> parse_csv(const std::string& path, const CsvOptions& options) {
  const char* who = "kt::read_csv";
  const std::string text = read_text_file(path, who, options.max_bytes());
  CsvTable<Y> t;
  std::vector<std::string> cells;
  std::string_view row;
  std::size_t pos = 0;
  std::int64_t line = 0, blank_line = 0;  // blank_line: the first blank line not yet followed by data
  bool have_columns = false, header_pending = options.header();
  while (next_line(text, pos, row)) {
    ++line;
    if (trim(row).empty()) {
      if (blank_line == 0) blank_line = line;
      continue;
    }
    KT_REQUIRE(blank_line == 0 || options.skip_blank_lines() || !have_columns, who, ": '", path, "': line ",
               blank_line, " is blank between data rows (CsvOptions().skip_blank_lines(true) skips such lines)");
    blank_line = 0;
    const std::string malformed = split_cells(row, options.delimiter(), cells);
    KT_REQUIRE(malformed.empty(), who, ": '", path, "': line ", line, ": ", malformed);
    const auto n = static_cast<std::int64_t>(cells.size());
    if (!have_columns) {  // the first line fixes the columns and the label
      have_columns = true;
      t.columns = n;
      if (options.header()) t.names = cells;
      t.label = csv_label_column(t.names, n, line, path, options, who);
      if (header_pending) {
        header_pending = false;
        continue;
      }
    }
    KT_REQUIRE(n == t.columns, who, ": '", path, "': line ", line, " has ", n, " columns, expected ", t.columns,
               " (ragged row)");
    for (std::int64_t c = 0; c < n; ++c) {
      const std::string& cell = cells[static_cast<std::size_t>(c)];
      const auto where = [&] {
        return concat("'", path, "': line ", line, ", column ", c + 1,
                      t.names.empty() ? std::string() : " ('" + printable(t.names[static_cast<std::size_t>(c)]) + "')");
      };
      if (c == t.label && !is_floating_dtype_v<Y>) {
        t.targets.push_back(csv_class_label<Y>(cell, options, where, who));
      } else {
        const double value = csv_number<Y>(cell, c == t.label, options, where, who);
        if (c != t.label) t.inputs.push_back(static_cast<float>(value));
        else if constexpr (is_floating_dtype_v<Y>) t.targets.push_back(static_cast<Y>(static_cast<compute_t<Y>>(value)));
      }
    }
  }
  KT_REQUIRE(!t.targets.empty(), who, ": '", path, "' has no data rows (",
             text.empty() ? "the file is empty"
             : !have_columns ? "only blank lines"
                             : "only a header row",
             ")");
  return t;
}

}  // namespace kt::impl
