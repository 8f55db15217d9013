// lib/src/store/frontier_codec.hpp - zstd for the blocks of a frontier level on
// disk (store/frontier_store.hpp): one context each way, made at the first use
// and kept, so that a block costs no allocation. Level 1, no frame checksum:
// the store checks each frame's own XXH3-64 before it is decompressed (a
// damaged frame never reaches zstd), which also costs less than zstd's XXH64
// of the decoded bytes.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace statecheck::detail {

class FrontierCodec {
 public:
  /// What compress() may write for `raw` bytes.
  static std::size_t bound(std::size_t raw);
  /// Resident bytes the two contexts may take (libzstd 1.5.4, level 1, blocks
  /// up to 8 MiB: 569 KB + 94 KB measured): what --memory plans for them.
  static constexpr std::size_t planned_bytes = std::size_t{704} << 10;

  /// Compresses `raw` bytes into `out` (bound(raw) bytes): one zstd frame; its size.
  std::size_t compress(const std::byte* in, std::size_t raw, std::byte* out, std::size_t out_capacity);
  /// Decompresses the frame `in` into exactly `raw` bytes at `out`; else the
  /// reason (zstd's, or a size that differs), empty when it did.
  std::string decompress(const std::byte* in, std::size_t packed, std::byte* out, std::size_t raw);
  /// What the contexts made so far take.
  std::size_t ram_bytes() const;

 private:
  struct FreeC {
    void operator()(void* c) const noexcept;
  };
  struct FreeD {
    void operator()(void* d) const noexcept;
  };
  std::unique_ptr<void, FreeC> cctx_;
  std::unique_ptr<void, FreeD> dctx_;
};

}  // namespace statecheck::detail
