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
    if (name == "frontier-write") return Fault::frontier_write;
    if (name == "frontier-read") return Fault::frontier_read;
    if (name == "frontier-spill") return Fault::frontier_spill;
    if (name == "frontier-stream") return Fault::frontier_stream;
    if (name == "frontier-stream-write") return Fault::frontier_stream_write;
    if (name == "frontier-stream-interrupt") return Fault::frontier_stream_interrupt;
    if (name == "frontier-corrupt") return Fault::frontier_corrupt;
    return Fault::none;
  }();
  return fault;
}

}  // namespace statecheck::detail
