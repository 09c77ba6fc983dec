#pragma once
// The main() of each docs/snippets program: runs a page's snippets under a kt::Runtime and
// prints "every snippet of docs/PAGE ran" (what ctest waits for), or the kt::Error that
// stopped them (exit status 1).

#include <kt/core/error.hpp>
#include <kt/core/runtime.hpp>

#include <iostream>

namespace kt_docs {

template <class Snippets>
int run_page(int argc, char* argv[], const char* page, Snippets&& snippets) {
  try {
    kt::Runtime runtime(argc, argv);
    snippets();
  } catch (const kt::Error& e) {
    std::cerr << "error: " << e.message() << "\n";
    return 1;
  }
  std::cout << "every snippet of docs/" << page << " ran\n";
  return 0;
}

}  // namespace kt_docs
