// read_csv against hostile files, one class of the validation policy (docs/data.md) per test
// case, at least three variants each: no silent empty result, no undefined or lossy
// conversion, the policy's rejections with the option that relaxes each, bounded messages.

#include "data_test_files.hpp"
#include "kt_test.hpp"

#include <kt/data/csv.hpp>

#include <filesystem>
#include <string>

using kt_test::mentions;

namespace {

/// The error of reading `text` as a CSV file (with `options`), or "" when it reads.
template <class Y = std::int64_t>
std::string csv_error(const std::string& name, const std::string& text, const kt::CsvOptions& options = {}) {
  const auto path = kt_test::scratch_path(name);
  kt_test::write_text(path, text);
  return kt_test::error_of([&] { kt::read_csv<Y>(path, options); });
}

template <class Y = std::int64_t>
kt::CsvData<Y> csv_of(const std::string& name, const std::string& text, const kt::CsvOptions& options = {}) {
  const auto path = kt_test::scratch_path(name);
  kt_test::write_text(path, text);
  return kt::read_csv<Y>(path, options);
}

}  // namespace

TEST_CASE("read_csv never returns an empty data set: no rows is an error naming the reason") {
  const auto dir = kt_test::scratch_path("a_directory.csv");
  std::filesystem::create_directories(dir);
  CHECK(kt_test::error_of([&] { kt::read_csv(dir); }) == "kt::read_csv: '" + dir + "' is a directory, not a file");
  const auto empty = kt_test::scratch_path("empty.csv");
  CHECK(csv_error("empty.csv", "") == "kt::read_csv: '" + empty + "' has no data rows (the file is empty)");
  CHECK(mentions(csv_error("newline.csv", "\n"), "has no data rows (only blank lines)"));
  CHECK(mentions(csv_error("blanks.csv", "  \r\n\t\n\r"), "has no data rows (only blank lines)"));
  CHECK(mentions(csv_error("header_only.csv", "x,y,label\n"), "has no data rows (only a header row)"));
  CHECK(mentions(csv_error("header_only_no_newline.csv", "x,y,label"), "has no data rows (only a header row)"));
}

TEST_CASE("read_csv reads \\n, \\r\\n and lone \\r line endings alike") {
  for (const char* eol : {"\n", "\r\n", "\r"}) {
    const auto csv = csv_of("eol.csv", std::string("x,y,label") + eol + "1,2,0" + eol + "3,4,1" + eol);
    CHECK(csv.inputs.to_vector() == std::vector<float>{1, 2, 3, 4});
    CHECK(csv.targets.to_vector() == std::vector<std::int64_t>{0, 1});
  }
}

TEST_CASE("read_csv parses integer labels as integers and checks every narrowing") {
  // 2^53 + 1 is exact (through double it would load as 2^53); 2^63 - 1 is int64's max.
  CHECK(csv_of("big_label.csv", "x,label\n1,9007199254740993\n2,9223372036854775807\n").targets.to_vector() ==
        std::vector<std::int64_t>{9007199254740993, 9223372036854775807});
  CHECK(mentions(csv_error("label_2_63.csv", "x,label\n1,9223372036854775808\n"), "line 2, column 2 ('label')",
                 "label '9223372036854775808' is out of range for int64"));
  CHECK(mentions(csv_error("label_1e20.csv", "x,label\n1,1e20\n"),
                 "label '1e20' is a whole number too large to be exact in floating notation"));
  CHECK(csv_of("label_3_0.csv", "x,label\n1,3.0\n2,1e2\n").targets.to_vector() == std::vector<std::int64_t>{3, 100});
  CHECK(mentions(csv_error<std::uint8_t>("label_300.csv", "x,label\n1,300\n"), "label 300 is out of range for uint8"));
  CHECK(mentions(csv_error<std::int32_t>("label_int32.csv", "x,label\n1,2147483648\n"),
                 "label 2147483648 is out of range for int32"));
  CHECK(mentions(csv_error<std::uint8_t>("label_neg_u8.csv", "x,label\n1,-1\n", kt::CsvOptions().negative_labels(true)),
                 "label -1 is out of range for uint8"));
}

TEST_CASE("read_csv rejects features and floating labels beyond their type's range") {
  CHECK(mentions(csv_error("feature_1e39.csv", "x,label\n1e39,0\n"), "line 2, column 1 ('x'): '1e39' is out of range for float32"));
  CHECK(mentions(csv_error("feature_1e400.csv", "x,label\n-1e400,0\n"), "'-1e400' is out of range for float32"));
  CHECK(mentions(csv_error<float>("label_float.csv", "x,label\n1,4e38\n"), "'4e38' is out of range for float32"));
  CHECK(mentions(csv_error<kt::half>("label_half.csv", "x,label\n1,70000\n"), "'70000' is out of range for float16"));
  // Underflow is not an error: the value rounds to zero or a subnormal, as any parser does.
  CHECK(csv_of("tiny.csv", "x,label\n1e-50,0\n").inputs.to_vector() == std::vector<float>{0.0f});
}

TEST_CASE("read_csv's policy: non-finite cells, negative class labels, blank lines between rows") {
  CHECK(mentions(csv_error("nan.csv", "x,label\nnan,0\n"), "'nan' is not finite (CsvOptions().allow_non_finite(true)"));
  CHECK(mentions(csv_error("inf.csv", "x,label\ninf,0\n"), "'inf' is not finite"));
  CHECK(mentions(csv_error<float>("inf_label.csv", "x,label\n1,-inf\n"), "line 2, column 2", "'-inf' is not finite"));
  const auto relaxed = csv_of("nan_ok.csv", "x,label\nnan,0\n-inf,1\n", kt::CsvOptions().allow_non_finite(true));
  CHECK(std::isnan(relaxed.inputs.to_vector()[0]));

  CHECK(mentions(csv_error("negative.csv", "x,label\n1,-1\n"), "label -1 is negative", "negative_labels(true)"));
  CHECK(csv_of("negative_ok.csv", "x,label\n1,-2\n", kt::CsvOptions().negative_labels(true)).targets.to_vector() ==
        std::vector<std::int64_t>{-2});
  CHECK(csv_of<float>("negative_float.csv", "x,label\n1,-2.5\n").targets.to_vector() == std::vector<float>{-2.5f});

  CHECK(mentions(csv_error("blank_inside.csv", "x,label\n1,0\n\n2,1\n"), "line 3 is blank between data rows",
                 "skip_blank_lines(true)"));
  CHECK(mentions(csv_error("blank_spaces.csv", "x,label\n1,0\n   \t\n2,1\n"), "line 3 is blank between data rows"));
  CHECK(csv_of("blank_ok.csv", "x,label\n1,0\n\n2,1\n", kt::CsvOptions().skip_blank_lines(true)).targets.numel() == 2);
  CHECK(csv_of("blank_end.csv", "\nx,label\n1,0\n\n\n").targets.numel() == 1);  // leading and trailing: fine
}

TEST_CASE("read_csv unquotes RFC 4180 cells and rejects malformed quotes") {
  CHECK(mentions(csv_error("quoted_ragged.csv", "\"x, first\",\"label\"\n\"1.5\", 2 ,\"0\"\n"), "line 2 has 3 columns, expected 2"));
  const auto names = csv_of("quoted_names.csv", "\"x, first\",\"say \"\"hi\"\"\",label\n\"1.5\",2,\"0\"\n");
  CHECK(names.columns == std::vector<std::string>{"x, first", "say \"hi\""});
  CHECK(names.inputs.to_vector() == std::vector<float>{1.5f, 2});
  CHECK(mentions(csv_error("quoted_comma.csv", "x,label\n\"1,5\",0\n"), "'1,5' is not a number"));
  CHECK(mentions(csv_error("unterminated.csv", "x,label\n\"1.5,0\n"),
                 "line 2: the quoted cell starting at character 1 is not closed on its line"));
  CHECK(mentions(csv_error("after_quote.csv", "x,label\n\"1.5\"x,0\n"), "line 2: text after the closing quote"));
}

TEST_CASE("read_csv strips a UTF-8 byte-order mark") {
  const auto csv = csv_of("bom.csv", "\xEF\xBB\xBFlabel,x\n1,2\n", kt::CsvOptions().label_column("label"));
  CHECK(csv.target_column == "label");
  CHECK(csv.targets.to_vector() == std::vector<std::int64_t>{1});
  CHECK(csv_of("bom_no_header.csv", "\xEF\xBB\xBF" "3,4\n", kt::CsvOptions().header(false)).inputs.to_vector() ==
        std::vector<float>{3});
  CHECK(csv_of("bom_crlf.csv", "\xEF\xBB\xBFx,label\r\n5,0\r\n").inputs.to_vector() == std::vector<float>{5});
}

TEST_CASE("read_csv's messages echo at most 80 characters, with control bytes and bad UTF-8 escaped") {
  const std::string huge(10 << 20, 'a');
  const std::string error = csv_error("huge_cell.csv", "x,label\n" + huge + ",0\n");
  CHECK(error.size() < 300);
  CHECK(mentions(error, "'" + std::string(80, 'a') + "... (10485760 bytes)' is not a number"));
  CHECK(mentions(csv_error("nul.csv", std::string("x,label\n1\0x,0\n", 14)), "'1\\x00x' is not a number"));
  CHECK(mentions(csv_error("bad_utf8.csv", "x,label\n\xFF\xFE,0\n"), "'\\xFF\\xFE' is not a number"));
  CHECK(mentions(csv_error("good_utf8.csv", "x,label\n\xC3\xA9,0\n"), "'\xC3\xA9' is not a number"));  // é stays
}
