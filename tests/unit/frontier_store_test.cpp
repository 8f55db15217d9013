// A level in --workdir (store/frontier_store.hpp), compressed or raw: what is
// read back is what was written, for views that start anywhere (a trace's last
// state) and blocks of any size up to a window (a streamed level's flushes), in
// order and out of it; a level built by blocks, appended, or spilled from RAM;
// and a compressed level takes fewer bytes on disk than its states.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "store/frontier_store.hpp"
#include "support/temp_dir.hpp"

using statecheck::detail::FrontierStore;

namespace {

constexpr std::size_t stride = 16;

// State i: its rank and a word of few values (as a spec's small fields), so that it compresses.
void fill(std::byte* out, std::uint64_t i) {
  const std::uint64_t words[2] = {i, (i * 7) % 5};
  std::memcpy(out, words, stride);
}

void check_views(const FrontierStore& store, std::uint64_t n, std::mt19937_64& rng) {
  REQUIRE(store.size() == n);
  for (std::uint64_t begin = 0; begin < n; begin += 3) {  // in order, overlapping, as self-check and expansion read
    const std::uint64_t end = std::min(n, begin + 1 + begin % store.window());
    const std::byte* got = store.view(begin, end);
    for (std::uint64_t i = begin; i < end; ++i) {
      std::byte want[stride];
      fill(want, i);
      REQUIRE(std::memcmp(got + (i - begin) * stride, want, stride) == 0);
    }
  }
  for (int k = 0; k < 200; ++k) {  // anywhere, as a trace's last state
    const std::uint64_t begin = rng() % n;
    const std::uint64_t end = std::min(n, begin + 1 + rng() % store.window());
    const std::byte* got = store.view(begin, end);
    for (std::uint64_t i = begin; i < end; ++i) {
      std::byte want[stride];
      fill(want, i);
      INFO("view [" << begin << ", " << end << "), state " << i);
      REQUIRE(std::memcmp(got + (i - begin) * stride, want, stride) == 0);
    }
  }
}

}  // namespace

TEST_CASE("frontier store: a level on disk reads back as written, compressed or raw", "[frontier]") {
  const test::TempDir dir("frontier-store");
  const std::uint64_t n = 5000;
  for (const bool compress : {true, false}) {
    INFO((compress ? "zstd" : "raw"));
    std::mt19937_64 rng(compress ? 1 : 2);
    FrontierStore appended;
    appended.configure(stride, dir.path, 4096, compress);  // windows of 64 states (compressed) or 85 (raw: 3 to the decoded window)
    appended.start_appending();
    const std::uint64_t window = appended.window();
    CHECK(window == (compress ? 64u : 85u));
    for (std::uint64_t at = 0; at < n;) {  // blocks of any size up to a window
      const std::uint64_t k = std::min(n - at, 1 + rng() % window);
      std::byte* out = appended.append_block(k);
      for (std::uint64_t i = 0; i < k; ++i) fill(out + i * stride, at + i);
      appended.append_commit(k);
      at += k;
    }
    check_views(appended, n, rng);
    CHECK(appended.raw_bytes() == n * stride);
    // Regression pin, first measured by statecheck: 22,422 of 80,000 bytes (blocks of ~32 states, 16 B header each).
    if (compress) CHECK(appended.disk_bytes() < appended.raw_bytes() / 2);
    // Raw: the states, and each block's 24-byte header (its size and checksum).
    if (!compress) CHECK(appended.disk_bytes() > appended.raw_bytes());
    if (!compress) CHECK((appended.disk_bytes() - appended.raw_bytes()) % 24 == 0);

    FrontierStore spilled;  // whole windows, from RAM
    spilled.configure(stride, dir.path, 4096, compress);
    spilled.start(n, false);
    for (std::uint64_t i = 0; i < n; ++i) fill(spilled.block(0, n) + i * stride, i);
    spilled.spill();
    REQUIRE(spilled.on_disk());
    check_views(spilled, n, rng);
    spilled.swap_level(appended);  // the streamed level becomes the frontier: still readable
    check_views(spilled, n, rng);
    CHECK(std::filesystem::is_empty(dir.path));  // unlinked at creation
  }
}
