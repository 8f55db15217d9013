// Zeroed, huge-page-advised table memory; why in table_memory.hpp.
#include "store/table_memory.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace statecheck::detail {

namespace {
// Below one huge page the advice cannot apply; calloc is cheaper then.
constexpr std::size_t huge_page = std::size_t{2} << 20;
}  // namespace

void* allocate_table_memory(std::size_t bytes) {
  if (bytes < huge_page) {
    void* p = std::calloc(bytes == 0 ? 1 : bytes, 1);
    if (p == nullptr) throw std::bad_alloc();
    return p;
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  (void)madvise(p, bytes, MADV_HUGEPAGE);  // a hint: ignored where THP is off
#endif
  return p;
}

void free_table_memory(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < huge_page) std::free(p);
  else munmap(p, bytes);
}

}  // namespace statecheck::detail
