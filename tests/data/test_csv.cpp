#include "data_test_files.hpp"
#include "kt_test.hpp"

#include <kt/data/csv.hpp>

using kt_test::mentions;

TEST_CASE("read_csv reads features and labels by column name or index") {
  const auto p = kt_test::scratch_path("iris.csv");
  kt_test::write_text(p, "a,b,label,c\r\n1,2.5,0,-3\r\n\r\n 4 , +5e1 ,2, 6\r\n7,8,1,9\n");
  auto csv = kt::read_csv(p, kt::CsvOptions().label_column("label").skip_blank_lines(true));
  CHECK(csv.inputs.shape() == kt::Shape{3, 3});
  CHECK(csv.inputs.to_vector() == std::vector<float>{1, 2.5f, -3, 4, 50, 6, 7, 8, 9});
  CHECK(csv.targets.to_vector() == std::vector<std::int64_t>{0, 2, 1});
  CHECK(csv.columns == std::vector<std::string>{"a", "b", "c"});
  CHECK(csv.target_column == "label");
  CHECK(csv.dataset().size() == 3);

  auto by_index = kt::read_csv<float>(p, kt::CsvOptions().label_column(0).skip_blank_lines(true));
  CHECK(by_index.targets.to_vector() == std::vector<float>{1, 4, 7});
  CHECK(by_index.inputs.to_vector()[0] == 2.5f);

  const auto q = kt_test::scratch_path("noheader.csv");
  kt_test::write_text(q, "1;2;3\n4;5;6");
  auto raw = kt::read_csv(q, kt::CsvOptions().header(false).delimiter(';'));  // last column by default
  CHECK(raw.inputs.shape() == kt::Shape{2, 2});
  CHECK(raw.targets.to_vector() == std::vector<std::int64_t>{3, 6});
  CHECK(raw.columns.empty());
}

TEST_CASE("read_csv names the file line and column of bad cells and ragged rows") {
  const auto bad = kt_test::scratch_path("bad_cell.csv");
  kt_test::write_text(bad, "x,y,label\n1,2,0\n3,abc,1\n");
  CHECK(mentions(kt_test::error_of([&] { kt::read_csv(bad); }), "kt::read_csv: '", bad, "': line 3, column 2 ('y')",
                 "'abc' is not a number"));
  const auto empty_cell = kt_test::scratch_path("empty_cell.csv");
  kt_test::write_text(empty_cell, "1,,0\n");
  CHECK(mentions(kt_test::error_of([&] { kt::read_csv(empty_cell, kt::CsvOptions().header(false)); }),
                 empty_cell, "line 1, column 2", "'' is not a number"));
  const auto ragged = kt_test::scratch_path("ragged.csv");
  kt_test::write_text(ragged, "x,y,label\n1,2,0\n3,1\n");
  CHECK(mentions(kt_test::error_of([&] { kt::read_csv(ragged); }), ragged, "line 3 has 2 columns, expected 3",
                 "ragged"));
  const auto label = kt_test::scratch_path("bad_label.csv");
  kt_test::write_text(label, "x,label\n1,0.5\n");
  CHECK(mentions(kt_test::error_of([&] { kt::read_csv(label); }), label, "line 2, column 2",
                 "label '0.5' is not a whole number"));
  CHECK(mentions(kt_test::error_of([&] { kt::read_csv(label, kt::CsvOptions().label_column("class")); }), label,
                 "no column named 'class'", "(columns: x, label)"));
  CHECK(mentions(kt_test::error_of([&] { kt::read_csv(label, kt::CsvOptions().label_column(5)); }), label,
                 "label column 5 is out of range for 2 columns"));
  const auto missing = kt_test::scratch_path("missing.csv");
  CHECK(mentions(kt_test::error_of([&] { kt::read_csv(missing); }), "cannot open '", missing));
}
