// statecheck/detail/hash.hpp - 128-bit XXH3 fingerprints of encoded states.
#pragma once

#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace statecheck::detail {

/// XXH3-128 of a state's canonical encoding (lo is always >= 2). `lo` picks the home slot in the
/// visited set; the stored signature comes from bits no slot choice uses.
struct Hash128 {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  friend bool operator==(const Hash128&, const Hash128&) = default;
};

inline Hash128 hash_bytes(const void* data, std::size_t size) {
  const XXH128_hash_t h = XXH3_128bits(data, size);
  // lo of 0 and 1 are the level table's "empty" and "busy" tags; moving them
  // (probability 2^-63) keeps every table's view of a hash identical.
  return {h.low64 < 2 ? h.low64 + 2 : h.low64, h.high64};
}

}  // namespace statecheck::detail
