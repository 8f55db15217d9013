// Fuzz target: the --set and size parsers of the command line. Each input line
// is one --set argument (or, starting with 'm', a --memory size). Either it is
// accepted, and the value is within the constant's domain and prints back to
// text that parses to the same value, or it is refused with config_error.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/spec_config.hpp"
#include "fuzz_input.hpp"
#include "statecheck/registry.hpp"

namespace {

struct Config {
  int count = 3;
  bool flag = false;
  int mode = 0;
};

const auto config = statecheck::constants<Config>(
    statecheck::integer("count", &Config::count, -5, 100, "an integer"),
    statecheck::boolean("flag", &Config::flag, "a boolean"),
    statecheck::choice("mode", &Config::mode, {{"fast", 0}, {"safe", 1}, {"both", 2}}, "a choice"));

statecheck::SpecEntry make_entry() {
  statecheck::SpecEntry e;
  e.name = "fuzz";
  e.constants = config.infos();
  return e;
}

void require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const statecheck::SpecEntry entry = make_entry();
  fuzz::Input in(data, size);
  std::vector<std::string> sets;
  while (!in.empty()) {
    std::string line = in.line();
    if (!line.empty() && line[0] == 'm') {
      try {
        const std::size_t bytes = statecheck::detail::parse_size(line.substr(1), "--memory");
        require(bytes >= std::size_t{16} << 20);
      } catch (const statecheck::config_error&) {
      }
    } else {
      sets.push_back(std::move(line));
    }
  }
  try {
    std::vector<std::pair<std::string, std::string>> shown;
    const std::vector<int> values = statecheck::detail::constant_values(entry, statecheck::detail::split_sets(sets), shown);
    require(values.size() == entry.constants.size() && shown.size() == values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
      const statecheck::ConstantInfo& c = entry.constants[i];
      int again = -1;
      std::string error;
      require(c.parse(c.text(values[i]), again, error) && again == values[i]);
    }
    const Config made = config.make(values);
    require(made.count >= -5 && made.count <= 100 && made.mode >= 0 && made.mode <= 2);
  } catch (const statecheck::config_error& e) {
    const std::string message = e.what();
    require(!message.empty() && message.find('\n') == std::string::npos);
  }
  return 0;
}
