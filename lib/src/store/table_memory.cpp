// Zeroed, huge-page-advised table memory; why in table_memory.hpp.
#include "store/table_memory.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace statecheck::detail {

namespace {
// Below one huge page the advice cannot apply; calloc is cheaper then.
constexpr std::size_t huge_page = std::size_t{2} << 20;
}  // namespace

void* allocate_table_memory(std::size_t bytes, bool huge_pages) {
  if (bytes < huge_page) {
    void* p = std::calloc(bytes == 0 ? 1 : bytes, 1);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  // Aligned to a huge page, or a 2 MiB visited-set segment could never be one
  // (mmap aligns to 4 KiB): map one huge page more and unmap the ends.
  void* mapped = mmap(nullptr, bytes + huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(mapped);
  const std::uintptr_t aligned = (start + huge_page - 1) & ~(std::uintptr_t{huge_page} - 1);
  if (aligned != start) munmap(mapped, aligned - start);
  const std::size_t tail = start + huge_page - aligned;
  const std::size_t kept = (bytes + 4095) & ~std::size_t{4095};  // the kernel maps whole pages
  if (tail != 0) munmap(reinterpret_cast<void*>(aligned + kept), tail);
  void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  if (huge_pages) (void)madvise(p, bytes, MADV_HUGEPAGE);  // a hint: ignored where THP is off
#else
  (void)huge_pages;
#endif
  return p;
}

bool release_table_pages(void* p, std::size_t bytes) noexcept {
  if (p == nullptr || bytes < huge_page) return false;
  return madvise(p, bytes, MADV_DONTNEED) == 0;  // private anonymous: zero-filled on the next touch
}

void free_table_memory(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < huge_page) std::free(p);
  else munmap(p, bytes);
}

}  // namespace statecheck::detail
