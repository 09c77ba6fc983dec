# cmake -DSOURCE=... -DBINARY=... -DKOKKOS_DIR=... -P build_sanitized.cmake: configures kt with
# -fsanitize=address,undefined (UB is fatal) and builds the data, tensor, io and interop test
# binaries, each layer as one translation unit (instrumented code compiles slowly; the test files
# of a layer instantiate the same templates), against header-only kt::kt: the suite's one run of
# tests without kt_compiled.
include("${CMAKE_CURRENT_LIST_DIR}/../script_args.cmake")
kt_require_script_args(build_sanitized.cmake SOURCE BINARY KOKKOS_DIR)
# -O0: instrumented code at -O1 took more than twice the compiler time (kt_tests_tensor, g++ 12.2,
# AMD EPYC Zen 3: over 10 min at -O1, 4.7 min at -O0), and the instrumented tests still run in
# seconds (kt_tests_tensor: 15 s for its 276 cases in one process).
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_FLAGS_RELEASE=-O0 -DNDEBUG"
    "-DKokkos_DIR=${KOKKOS_DIR}" -DKT_ENABLE_TESTS=ON -DKT_ENABLE_EXAMPLES=OFF -DKT_ENABLE_BENCHMARKS=OFF
    -DKT_SANITIZE_CHECK=OFF -DKT_TEST_UNITY_BUILD=ON -DKT_TEST_USE_COMPILED=OFF "-DKT_FASHION_MNIST_DIR=${FASHION_MNIST}"
    "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    "-DKT_TEST_EXTRA_ENV=ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1|UBSAN_OPTIONS=print_stacktrace=1"
  RESULT_VARIABLE configured)
if(NOT configured EQUAL 0)
  message(FATAL_ERROR "configuring the sanitizer build failed (${configured})")
endif()
# The build lists the test cases by running the binaries (doctest discovery): without leak
# checks, as in the tests.
set(ENV{ASAN_OPTIONS} "detect_leaks=0:allocator_may_return_null=1")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY}" -j 2 --target kt_tests_sanitized
                RESULT_VARIABLE built)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "building the sanitizer build failed (${built})")
endif()
message(STATUS "kt_tests_data, kt_tests_tensor, kt_tests_io and kt_tests_interop built with ASan+UBSan in ${BINARY}")
