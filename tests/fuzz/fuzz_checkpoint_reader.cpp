// Fuzz target: the checkpoint reader (--resume). Any bytes are either refused
// with config_error or parsed into a checkpoint whose trace log can be walked
// from every state of its last level without reading out of bounds (a damaged
// log may throw std::runtime_error, never crash). The section checksums are
// skipped so that mutations reach the parsing behind them.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include "store/checkpoint.hpp"
#include "statecheck/result.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  statecheck::detail::TraceLog log;
  try {
    const auto parsed = statecheck::detail::parse_checkpoint(
        std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size), "fuzz", log,
        statecheck::detail::Checksums::skip);
    if (parsed.meta.level != log.levels()) std::abort();  // the reader promises a consistent log
    const std::uint32_t last = log.levels();
    const std::uint64_t states = last == 0 ? 0 : log.level_size(last);
    for (std::uint64_t rank = 0; rank < states && rank < 64; ++rank) {
      try {
        if (log.path(last, rank).size() != last) std::abort();
      } catch (const std::runtime_error&) {
      }
    }
  } catch (const statecheck::config_error&) {
  }
  return 0;
}
