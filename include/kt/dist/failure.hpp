#pragma once
/// \file kt/dist/failure.hpp
/// What happens when one rank fails: kt::dist **aborts the whole job**. A rank that stops
/// while the others wait in a collective would leave them waiting forever (MPI collectives do
/// not time out), so the failing rank prints its message to stderr and calls `MPI_Abort`, which
/// makes the launcher (mpirun, srun) kill every process of the job.
///
/// `kt::dist::Environment` installs `terminate_handler` for its lifetime: an exception that
/// leaves main() (or any thread) on any rank ends the job with that exception's message. Code
/// that catches an exception itself and cannot go on calls `kt::dist::abort(e)`.

#include "kt/core/impl/public_begin.hpp"

#include "kt/dist/impl/mpi_call.hpp"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace kt::dist {

/// Prints "kt::dist: rank R of N failed: <why>" to stderr and aborts every process of the job.
[[noreturn]] inline void abort(const std::string& why, int exit_code = 1) {
  int rank = -1, size = 0;
  const bool running = impl::mpi_is_running();
  if (running) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  std::fprintf(stderr,
               "kt::dist: rank %d of %d failed: %s\n"
               "kt::dist: aborting the job (MPI_Abort) so that no rank is left waiting in a collective\n",
               rank, size, why.c_str());
  std::fflush(stderr);
  if (running) MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

[[noreturn]] inline void abort(const std::exception& error, int exit_code = 1) { abort(std::string(error.what()), exit_code); }

/// The std::terminate handler: aborts the job with the message of the exception in flight.
[[noreturn]] inline void terminate_handler() {
  std::string why = "std::terminate was called without an exception";
  if (std::exception_ptr error = std::current_exception()) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      why = std::string("uncaught exception: ") + e.what();
    } catch (...) {
      why = "uncaught exception of a type not derived from std::exception";
    }
  }
  abort(why);
}

}  // namespace kt::dist

#include "kt/core/impl/public_end.hpp"
