// check_snippets DOC.md SNIPPETS.cpp: every block of the page announced by
// `<!-- snippet: NAME -->` must equal the region between the two `// [NAME]` lines of the
// snippets file, less the marker line's indentation, and every region must be shown. Exit 1
// naming the first difference. (A program rather than a CMake script: CMake lists cannot
// hold C++ lines with semicolons and brackets.)

#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> lines_of(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::map<std::string, std::string> regions_of(const char* path) {
  static const std::regex marker(R"(^( *)// \[([a-z_]+)\]$)");
  std::map<std::string, std::string> regions;
  std::string open;
  std::size_t indent = 0;
  for (const auto& line : lines_of(path)) {
    std::smatch m;
    if (std::regex_match(line, m, marker)) {
      if (open.empty()) {
        open = m[2];
        indent = m[1].length();
        if (regions.count(open)) throw std::runtime_error(std::string(path) + ": region [" + open + "] twice");
        regions[open];
      } else if (open == m[2]) {
        open.clear();
      } else {
        throw std::runtime_error(std::string(path) + ": region [" + std::string(m[2]) + "] opens inside [" + open + "]");
      }
    } else if (!open.empty()) {
      regions[open] += (line.size() >= indent ? line.substr(indent) : line) + "\n";
    }
  }
  if (!open.empty()) throw std::runtime_error(std::string(path) + ": region [" + open + "] is never closed");
  return regions;
}

}  // namespace

int main(int argc, char* argv[]) {
  if (argc != 3) {
    std::cerr << "usage: check_snippets DOC.md SNIPPETS.cpp\n";
    return 2;
  }
  try {
    const auto regions = regions_of(argv[2]);
    const auto doc = lines_of(argv[1]);
    static const std::regex announce(R"(^<!-- snippet: ([a-z_]+) -->$)");
    std::set<std::string> shown;
    for (std::size_t i = 0; i < doc.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(doc[i], m, announce)) continue;
      const std::string name = m[1];
      if (i + 1 >= doc.size() || doc[i + 1] != "```cpp")
        throw std::runtime_error(std::string(argv[1]) + ": snippet " + name + " must be followed by a ```cpp block");
      std::string block;
      std::size_t j = i + 2;
      for (; j < doc.size() && doc[j] != "```"; ++j) block += doc[j] + "\n";
      if (j == doc.size()) throw std::runtime_error(std::string(argv[1]) + ": the block of snippet " + name + " is never closed");
      const auto region = regions.find(name);
      if (region == regions.end())
        throw std::runtime_error(std::string(argv[1]) + ": snippet " + name + " has no region // [" + name + "] in " + argv[2]);
      if (block != region->second)
        throw std::runtime_error(std::string(argv[1]) + ": snippet " + name + " differs from its region in " + argv[2] +
                                 "\n--- " + std::string(argv[1]) + ":\n" + block + "--- snippets:\n" + region->second);
      shown.insert(name);
      i = j;
    }
    for (const auto& [name, text] : regions)
      if (!shown.count(name))
        throw std::runtime_error(std::string(argv[1]) + ": the region [" + name + "] of " + argv[2] +
                                 " is not shown (<!-- snippet: " + name + " -->)");
    std::cout << argv[1] << " shows all " << shown.size() << " snippets of " << argv[2] << "\n";
  } catch (const std::exception& e) {
    std::cerr << "check_snippets: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
