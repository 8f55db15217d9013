// Fuzz target: the reader of saved traces (`statecheck replay`). Any bytes are
// either refused with config_error (one line) or parsed into a trace that is
// then replayed against die-hard, which must give a verdict, never crash.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "examples/die_hard.hpp"
#include "statecheck/detail/model.hpp"
#include "tools/replay.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto spec = examples::die_hard::make_spec({});
  static const statecheck::detail::Model<std::remove_const_t<decltype(spec)>> model(spec);
  static const statecheck::detail::ModelOps ops = model.ops();
  static const statecheck::detail::ModelView view(ops);
  statecheck::detail::SavedTrace saved;
  try {
    saved = statecheck::detail::parse_saved_trace(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const statecheck::config_error& e) {
    if (std::string(e.what()).empty()) std::abort();
    return 0;
  }
  if (saved.steps.empty()) std::abort();  // the reader promises a trace to replay
  const auto r = statecheck::detail::replay(view, saved);
  if (r.message.empty()) std::abort();
  return 0;
}
