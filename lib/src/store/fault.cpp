// The STATECHECK_FAULT test hook; see detail/fault.hpp.
#include "store/fault.hpp"

#include <cstdlib>
#include <string_view>

namespace statecheck::detail {

Fault injected_fault() {
  static const Fault fault = [] {
    const char* v = std::getenv("STATECHECK_FAULT");
    const std::string_view name = v == nullptr ? "" : v;
    if (name == "checkpoint-write") return Fault::checkpoint_write;
    if (name == "checkpoint-fsync") return Fault::checkpoint_fsync;
    if (name == "checkpoint-rename") return Fault::checkpoint_rename;
    if (name == "spill-write") return Fault::spill_write;
    if (name == "spill-read") return Fault::spill_read;
    return Fault::none;
  }();
  return fault;
}

}  // namespace statecheck::detail
