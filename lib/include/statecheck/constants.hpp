// statecheck/constants.hpp - spec constants a user sets with `--set name=value`.
//
//   struct Config { int rms = 3; Variant variant = Variant::as_is; bool lag = true; };
//   inline const auto config = statecheck::constants<Config>(
//       statecheck::integer("rms", &Config::rms, 1, 10, "resource managers"),
//       statecheck::choice("variant", &Config::variant,
//                          {{"as-is", Variant::as_is}, {"patched", Variant::patched}}, "code version"),
//       statecheck::boolean("lag", &Config::lag, "leader may apply late"));
//
// Defaults are the member initialisers of Config. Every value is stored as an
// int (an index for choices) so the command line can validate it generically.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace statecheck {

struct ConstantInfo {
  enum class Kind { integer, boolean, choice, time_span };  // a time_span (a duration) is held in milliseconds
  std::string name;
  std::string help;
  Kind kind = Kind::integer;
  int lo = 0;
  int hi = 0;
  std::vector<std::string> choices;  // Kind::choice
  int default_value = 0;

  /// Parses `text` into a value; on failure returns false and sets a one-line
  /// error naming the problem and the accepted values.
  bool parse(const std::string& text, int& value, std::string& error) const;
  /// The value as a user writes it: `4`, `true`, `patched`, `12m`.
  std::string text(int value) const;
  /// The accepted values: `1..10`, `true|false`, `as-is|patched`, `1s..2h`.
  std::string domain() const;
  /// "" when the default is in the declared domain; else why not, one line.
  std::string default_problem() const;
};

template <class Config>
struct constant {
  ConstantInfo info;
  std::function<void(Config&, int)> set;
  std::function<int(const Config&)> get;
};

/// An integer constant within lo..hi.
template <class Config>
constant<Config> integer(std::string name, int Config::*member, int lo, int hi, std::string help) {
  return {{std::move(name), std::move(help), ConstantInfo::Kind::integer, lo, hi, {}, 0},
          [member](Config& c, int v) { c.*member = v; },
          [member](const Config& c) { return c.*member; }};
}

/// A boolean constant: true|false (also 1|0, yes|no, on|off).
template <class Config>
constant<Config> boolean(std::string name, bool Config::*member, std::string help) {
  return {{std::move(name), std::move(help), ConstantInfo::Kind::boolean, 0, 1, {}, 0},
          [member](Config& c, int v) { c.*member = v != 0; },
          [member](const Config& c) { return c.*member ? 1 : 0; }};
}

/// A duration within lo..hi, written `500ms`, `30s`, `12m`, `2h` or `1h30m`
/// (statecheck/time.hpp); held in whole milliseconds, at most 2^31 - 1.
template <class Config>
constant<Config> duration_constant(std::string name, std::chrono::milliseconds Config::*member,
                                   std::chrono::milliseconds lo, std::chrono::milliseconds hi, std::string help) {
  return {{std::move(name), std::move(help), ConstantInfo::Kind::time_span, static_cast<int>(lo.count()),
           static_cast<int>(hi.count()), {}, 0},
          [member](Config& c, int v) { c.*member = std::chrono::milliseconds(v); },
          [member](const Config& c) { return static_cast<int>((c.*member).count()); }};
}

/// One of a list of names, each standing for a value of the member's type.
template <class Config, class T>
constant<Config> choice(std::string name, T Config::*member, std::vector<std::pair<std::string, T>> options,
                        std::string help) {
  ConstantInfo info{std::move(name), std::move(help), ConstantInfo::Kind::choice, 0,
                    static_cast<int>(options.size()) - 1, {}, 0};
  for (const auto& o : options) info.choices.push_back(o.first);
  return {std::move(info),
          [member, options](Config& c, int v) { c.*member = options[static_cast<std::size_t>(v)].second; },
          [member, options](const Config& c) {
            for (std::size_t i = 0; i < options.size(); ++i)
              if (options[i].second == c.*member) return static_cast<int>(i);
            return -1;  // none of the options: refused as a default (registry), never shown as one
          }};
}

template <class Config>
struct constant_set {
  std::vector<constant<Config>> list;

  /// Config with the defaults, then `values` (one per constant, in order) applied.
  Config make(const std::vector<int>& values) const {
    Config c{};
    for (std::size_t i = 0; i < list.size() && i < values.size(); ++i) list[i].set(c, values[i]);
    return c;
  }
  std::vector<ConstantInfo> infos() const {
    const Config defaults{};
    std::vector<ConstantInfo> out;
    for (const auto& k : list) {
      out.push_back(k.info);
      out.back().default_value = k.get(defaults);
    }
    return out;
  }
};

template <class Config, class... K>
constant_set<Config> constants(K... k) {
  return {{std::move(k)...}};
}

}  // namespace statecheck
