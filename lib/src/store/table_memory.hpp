// lib/src/store/table_memory.hpp - zeroed memory for the big hash tables
// (visited set, level table), backed by transparent huge pages.
//
// Why: both tables are probed at random positions, once or twice per
// successor. With 4 KiB pages nearly every probe of a table of hundreds of MiB
// also misses the TLB, and the page walk costs as much as the cache miss (the
// profile in bench/PROFILE.md: the visited-set prefetch alone stalled for 13%
// of two-phase's time). 2 MiB pages cut the walks; the memory is the same,
// since a table probed at random touches every page anyway.
//
// The pages are anonymous and zero until first written (like calloc): a part
// never touched costs no resident memory. The huge-page advice is a hint the
// kernel may ignore (THP disabled or "never"); the memory is correct either way.
#pragma once

#include <cstddef>

namespace statecheck::detail {

/// `bytes` of zeroed memory; throws std::bad_alloc when none is left.
/// `huge_pages` false leaves out the advice: a small table whose few entries
/// land on random pages would otherwise make a whole 2 MiB page resident each.
void* allocate_table_memory(std::size_t bytes, bool huge_pages = true);
/// Gives the resident pages of allocate_table_memory(bytes)'s memory back to
/// the system, which reads as zero again; false (nothing done) below a huge
/// page, where the memory is the allocator's.
bool release_table_pages(void* p, std::size_t bytes) noexcept;
/// Gives back what allocate_table_memory(bytes) returned (null is ignored).
void free_table_memory(void* p, std::size_t bytes) noexcept;

}  // namespace statecheck::detail
