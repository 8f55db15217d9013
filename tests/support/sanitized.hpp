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

/// First statement of a test that measures the checker's peak RSS: in a
/// sanitized build it warns and leaves the test.
#define SKIP_PEAK_RSS_IN_SANITIZED_BUILD()                                                  \
  do {                                                                                      \
    if (test::sanitized_build) {                                                            \
      WARN("skipped: a sanitizer's shadow memory and quarantine make the peak RSS meaningless"); \
      return;                                                                               \
    }                                                                                       \
  } while (false)
