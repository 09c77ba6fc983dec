#pragma once
/// \file kt/data/csv_options.hpp
/// How kt::read_csv reads a file (kt/data/csv.hpp), with chained setters. The defaults are
/// strict: a classifier's file with a header row, ',' between cells, the label in the last
/// column, every cell a finite number, class labels non-negative, no blank line between rows.

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/error.hpp"

#include <cstdint>
#include <string>

namespace kt {

class CsvOptions {
public:
  /// Whether the first line names the columns (default true).
  CsvOptions& header(bool has_header) { header_ = has_header; return *this; }
  /// The cell separator (default ',').
  CsvOptions& delimiter(char d) { delimiter_ = d; return *this; }
  /// The label column by index (negative counts from the end: -1, the default, is the last)...
  CsvOptions& label_column(int index) { label_index_ = index; label_name_.clear(); return *this; }
  /// ...or by its name in the header row.
  CsvOptions& label_column(const std::string& name) { label_name_ = name; return *this; }
  /// Skip blank lines between rows instead of rejecting them (blank lines at the end of the
  /// file are always fine). Default false: a blank line inside the data often means two files
  /// were concatenated or one was cut.
  CsvOptions& skip_blank_lines(bool on) { skip_blank_lines_ = on; return *this; }
  /// Accept nan / inf cells (features, and floating labels). Default false.
  CsvOptions& allow_non_finite(bool on) { allow_non_finite_ = on; return *this; }
  /// Accept negative integer labels (default false: integer labels are class indices).
  CsvOptions& negative_labels(bool on) { negative_labels_ = on; return *this; }
  /// Default of max_bytes(): 2 GiB, as kt::IdxOptions.
  static constexpr std::int64_t default_max_bytes = std::int64_t{1} << 31;
  /// The largest file read_csv reads (the whole text is held in memory while parsing); a
  /// larger file is a kt::Error before anything is read.
  CsvOptions& max_bytes(std::int64_t n) {
    KT_REQUIRE(n >= 0, "kt::CsvOptions::max_bytes: must be non-negative, got ", n);
    max_bytes_ = n;
    return *this;
  }

  bool header() const { return header_; }
  char delimiter() const { return delimiter_; }
  int label_index() const { return label_index_; }
  const std::string& label_name() const { return label_name_; }
  bool skip_blank_lines() const { return skip_blank_lines_; }
  bool allow_non_finite() const { return allow_non_finite_; }
  bool negative_labels() const { return negative_labels_; }
  std::int64_t max_bytes() const { return max_bytes_; }

private:
  bool header_ = true;
  char delimiter_ = ',';
  int label_index_ = -1;
  std::string label_name_;
  bool skip_blank_lines_ = false;
  bool allow_non_finite_ = false;
  bool negative_labels_ = false;
  std::int64_t max_bytes_ = default_max_bytes;
};

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
