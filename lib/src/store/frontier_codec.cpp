// zstd for the frontier's blocks on disk; see frontier_codec.hpp.
#include "store/frontier_codec.hpp"

#include <zstd.h>

#include <stdexcept>

namespace statecheck::detail {

namespace {

ZSTD_CCtx* as_c(void* p) { return static_cast<ZSTD_CCtx*>(p); }
ZSTD_DCtx* as_d(void* p) { return static_cast<ZSTD_DCtx*>(p); }

}  // namespace

void FrontierCodec::FreeC::operator()(void* c) const noexcept { ZSTD_freeCCtx(as_c(c)); }
void FrontierCodec::FreeD::operator()(void* d) const noexcept { ZSTD_freeDCtx(as_d(d)); }

std::size_t FrontierCodec::bound(std::size_t raw) { return ZSTD_compressBound(raw); }

std::size_t FrontierCodec::compress(const std::byte* in, std::size_t raw, std::byte* out, std::size_t out_capacity) {
  if (!cctx_) {
    cctx_.reset(ZSTD_createCCtx());
    if (!cctx_) throw std::bad_alloc();
    // Level 1: ~12x on a two-phase level at ~200 MB/s (bench/frontier.txt). No frame checksum: the
    // store checks its own of the frame before decoding (frontier_store.cpp).
    if (ZSTD_isError(ZSTD_CCtx_setParameter(as_c(cctx_.get()), ZSTD_c_compressionLevel, 1)))
      throw std::logic_error("zstd refused level 1");
  }
  const std::size_t packed = ZSTD_compress2(as_c(cctx_.get()), out, out_capacity, in, raw);
  // Only a destination smaller than ZSTD_compressBound fails: the store's bug.
  if (ZSTD_isError(packed)) throw std::logic_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(packed));
  return packed;
}

std::string FrontierCodec::decompress(const std::byte* in, std::size_t packed, std::byte* out, std::size_t raw) {
  if (!dctx_) {
    dctx_.reset(ZSTD_createDCtx());
    if (!dctx_) throw std::bad_alloc();
  }
  const std::size_t got = ZSTD_decompressDCtx(as_d(dctx_.get()), out, raw, in, packed);
  if (ZSTD_isError(got)) return ZSTD_getErrorName(got);
  if (got != raw) return "it holds " + std::to_string(got) + " bytes, not " + std::to_string(raw);
  return {};
}

std::size_t FrontierCodec::ram_bytes() const {
  return (cctx_ ? ZSTD_sizeof_CCtx(as_c(cctx_.get())) : 0) + (dctx_ ? ZSTD_sizeof_DCtx(as_d(dctx_.get())) : 0);
}

}  // namespace statecheck::detail
