// Whether this test binary was built with a sanitizer. Tests that measure the
// checker's memory (peak RSS, ulimit -v) skip themselves then: ASan and TSan
// reserve shadow memory and keep freed blocks in quarantine, so their numbers
// say nothing about the checker's own.
#pragma once

namespace test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool sanitized_build = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif
#else
inline constexpr bool sanitized_build = false;
#endif

}  // namespace test
