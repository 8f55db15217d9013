// statecheck/time.hpp - clocks, bounds and deadlines: time in a spec.
//
//   struct Report {};                                        // a kind of clock
//   struct State { BOOST_HANA_DEFINE_STRUCT(State, (statecheck::clock<Report>, waiting), ...); };
//
//   statecheck::timing time(cfg.unit);                          // the spec's time unit, e.g. 30s
//   const auto deadline = time.bound<Report>("deadline", cfg.deadline);  // 12min: 24 units
//   ... guard:    s.waiting >= deadline                         // a lower bound: enabled from 12 min on
//   ... effect:   s.waiting.reset();  s.waiting.stop();
//   statecheck::deadlines(statecheck::deadline("ReportInTime",  // an upper bound: time cannot pass
//       [=](const State& s) { return !s.waiting.running() || s.waiting <= deadline; }))
//   statecheck::spec<State>("name", ..., time, deadlines);
//
// Semantics (integer, or "digitized", time). A clock counts whole units of
// the spec's time unit from its last reset(); a stopped clock does not count
// and may not be compared. Time passes in a step the engine adds to every
// spec whose state holds a clock, labelled with the time it takes ("+30 s"):
// from a state, every delay of 1, 2, ... units is a successor, as long as
// every deadline predicate still holds after each unit (time cannot pass a
// deadline while its event is pending) and some clock still changes. Bounds
// are closed (>= and <= only): with closed bounds integer time reaches
// exactly the states dense time reaches, up to the clocks' fractions
// (Henzinger, Manna and Pnueli, 1992); a strict bound does not compile.
//
// Capping. A clock of kind K is only ever compared with the bounds made by
// `time.bound<K>(...)`; once it passes the largest of them (B units) its
// exact value no longer matters, so the engine stops it at B + 1, marked as
// "beyond" (printed "> 12 min"). A comparison of a capped clock with a bound
// above B (one not declared through this spec's timing) would be answered
// wrongly, so it throws instead: a spec error naming the clock's kind.
#pragma once

#include <chrono>
#include <cstring>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/core/demangle.hpp>

#include "statecheck/containers.hpp"
#include "statecheck/member_traits.hpp"
#include "statecheck/result.hpp"

namespace statecheck {

/// Durations in specs and constants: write them with std::chrono's literals
/// (`using namespace std::chrono_literals;` then 500ms, 30s, 12min, 2h).
using duration = std::chrono::milliseconds;

/// "30 s", "6 min 30 s", "2 h", "500 ms": a duration as traces print it.
std::string duration_text(duration d);
/// "30s", "6m30s", "2h", "500ms": as `--set` accepts it (and prints defaults).
std::string duration_setting(duration d);
/// Parses `500ms`, `30s`, `12m`/`12min`, `2h`, and sums such as `1h30m`; false
/// (with `error` saying what is accepted) for anything else or a value beyond
/// 2^31 - 1 ms.
bool parse_duration(std::string_view text, duration& out, std::string& error);

namespace detail {
/// The name of a clock kind in messages: its tag's type name.
template <class Tag>
std::string clock_kind_name() {
  return boost::core::demangle(typeid(Tag).name());
}
/// One address per clock kind: how a timing finds a kind's bounds.
template <class Tag>
const void* clock_kind_key() {
  static const char key = 0;
  return &key;
}
struct clock_access;
}  // namespace detail

/// The most units a clock holds: a bound above it is refused (choose a coarser unit).
inline constexpr int max_clock_units = 32000;

/// A duration a clock of kind Tag is compared with, in units of the spec's
/// time unit: made by timing::bound<Tag>, which also caps the kind's clocks.
template <class Tag>
struct bound {
  std::uint16_t units = 0;
  duration value{};
  std::string_view name;
};

/// Spec part: the time unit, and per clock kind the largest bound compared
/// with it (from which the engine caps the kind's clocks).
class timing {
 public:
  /// Refuses a unit that is not positive.
  explicit timing(duration unit) : unit_(unit) {
    if (unit.count() <= 0)
      throw config_error("the time unit must be positive, not " + duration_setting(unit));
  }

  /// The bound `name` = d for clocks of kind Tag. Refused (config_error: the run is refused, exit 2) when d
  /// is not positive, not a multiple of the unit, or beyond max_clock_units.
  template <class Tag>
  statecheck::bound<Tag> bound(std::string_view name, duration d) {
    const std::string what = "bound '" + std::string(name) + "' = " + duration_setting(d);
    if (d.count() <= 0) throw config_error(what + " must be positive");
    if (d.count() % unit_.count() != 0)
      throw config_error(what + " is not a multiple of the time unit " + duration_setting(unit_) +
                       "; choose a unit that divides every bound, or round the bound");
    const long long units = d.count() / unit_.count();
    if (units > max_clock_units)
      throw config_error(what + " is " + std::to_string(units) + " units of " + duration_setting(unit_) +
                       "; a clock holds at most " + std::to_string(max_clock_units) + ": choose a coarser unit");
    note(detail::clock_kind_key<Tag>(), detail::clock_kind_name<Tag>(), static_cast<int>(units));
    return {static_cast<std::uint16_t>(units), d, name};
  }

  duration unit() const { return unit_; }
  /// The largest bound of a clock kind, in units; 0 when it has none.
  int largest(const void* kind) const {
    for (const Kind& k : kinds_)
      if (k.key == kind) return k.largest;
    return 0;
  }
  /// The kinds that have bounds, by name (for the check that each is a state's).
  std::vector<std::pair<const void*, std::string>> kinds() const {
    std::vector<std::pair<const void*, std::string>> out;
    for (const Kind& k : kinds_) out.emplace_back(k.key, k.name);
    return out;
  }

 private:
  struct Kind {
    const void* key;
    std::string name;
    int largest;
  };
  void note(const void* key, std::string name, int units) {
    for (Kind& k : kinds_)
      if (k.key == key) {
        if (units > k.largest) k.largest = units;
        return;
      }
    kinds_.push_back({key, std::move(name), units});
  }
  duration unit_;
  std::vector<Kind> kinds_;
};

namespace detail {
template <class T>
inline constexpr bool always_false = false;
}

/// A clock of kind Tag, a member of a state (also inside records, arrays,
/// id_arrays, bounded_vecs and map values; not in set elements or map keys,
/// whose order a time step could break). Starts stopped.
template <class Tag>
class clock {
 public:
  using tag = Tag;
  constexpr clock() = default;

  /// Starts counting from zero (also when running already).
  void reset() { code_ = 0; }
  /// Stops counting; a stopped clock may not be compared.
  void stop() { code_ = stopped; }
  bool running() const { return code_ != stopped; }

  /// Elapsed >= b: the clock has reached the bound (a lower bound in a guard).
  friend bool operator>=(const clock& c, const bound<Tag>& b) { return c.at_least(b); }
  friend bool operator<=(const bound<Tag>& b, const clock& c) { return c.at_least(b); }
  /// Elapsed <= b: the clock has not passed the bound (an upper bound, a deadline).
  friend bool operator<=(const clock& c, const bound<Tag>& b) { return c.at_most(b); }
  friend bool operator>=(const bound<Tag>& b, const clock& c) { return c.at_most(b); }

  // Strict bounds, and bounds of another kind, do not compile.
  template <class B>
  friend bool operator<(const clock&, const B&) requires(!std::is_same_v<B, clock>) {
    static_assert(detail::always_false<B>, "statecheck::clock: strict bounds (<, >) are not exact in integer time; "
                                           "compare with >= or <= (a closed bound)");
    return false;
  }
  template <class B>
  friend bool operator>(const clock&, const B&) requires(!std::is_same_v<B, clock>) {
    static_assert(detail::always_false<B>, "statecheck::clock: strict bounds (<, >) are not exact in integer time; "
                                           "compare with >= or <= (a closed bound)");
    return false;
  }
  template <class B>
  friend bool operator>=(const clock&, const B&) requires(!std::is_same_v<B, bound<Tag>> && !std::is_same_v<B, clock>) {
    static_assert(detail::always_false<B>, "statecheck::clock<K>: compare a clock with a bound<K> made by "
                                           "timing::bound<K>(name, duration), of the clock's own kind K");
    return false;
  }
  template <class B>
  friend bool operator<=(const clock&, const B&) requires(!std::is_same_v<B, bound<Tag>> && !std::is_same_v<B, clock>) {
    static_assert(detail::always_false<B>, "statecheck::clock<K>: compare a clock with a bound<K> made by "
                                           "timing::bound<K>(name, duration), of the clock's own kind K");
    return false;
  }

  // Clocks compare with each other as values (sets, symmetry's order), by their code.
  friend bool operator==(const clock&, const clock&) = default;
  friend bool operator<(const clock& a, const clock& b) { return a.code_ < b.code_; }

 private:
  friend struct detail::clock_access;
  static constexpr std::uint16_t stopped = 0xFFFF;
  static constexpr std::uint16_t beyond = 0x8000;  // set with the cap: the clock passed every bound

  bool at_least(const bound<Tag>& b) const {
    check_running();
    if ((code_ & beyond) == 0) return code_ >= b.units;
    if (b.units <= (code_ & ~beyond)) return true;
    throw_undeclared(b);
  }
  bool at_most(const bound<Tag>& b) const {
    check_running();
    if ((code_ & beyond) == 0) return code_ <= b.units;
    if (b.units < (code_ & ~beyond)) return false;
    throw_undeclared(b);
  }
  void check_running() const {
    if (code_ == stopped)
      throw std::logic_error("a stopped clock of kind " + detail::clock_kind_name<Tag>() +
                             " was compared: reset() it before reading it, or test running() first");
  }
  [[noreturn]] static void throw_undeclared(const bound<Tag>& b) {
    throw std::logic_error("clock kind " + detail::clock_kind_name<Tag>() + " was compared with bound '" +
                           std::string(b.name) + "' = " + duration_setting(b.value) +
                           ", above the bounds its spec's timing declares, after the engine capped it: make the "
                           "bound with the timing given to the spec");
  }

  std::uint16_t code_ = stopped;  // elapsed units; `stopped`; or beyond | cap
};
static_assert(sizeof(clock<struct any_clock_kind>) == 2 && std::is_trivially_copyable_v<clock<struct any_clock_kind>>);

template <class T>
struct is_clock : std::false_type {};
template <class Tag>
struct is_clock<clock<Tag>> : std::true_type {};

namespace detail {
/// The time unit clocks print in, on this thread, while a printing_time_unit
/// lives (a state's value is printed by the cold path of its model, which
/// knows the unit; a clock alone does not). Zero: print in units.
inline thread_local long long printed_unit_ms = 0;
/// "12 units", "6 min 30 s", "stopped", "> 12 min": a clock's code as printed.
std::string clock_text(std::uint16_t code, long long unit_ms);
}  // namespace detail

/// While alive, clocks print in real units of `unit` (detail::printed_unit_ms).
class printing_time_unit {
 public:
  explicit printing_time_unit(duration unit) : saved_(detail::printed_unit_ms) { detail::printed_unit_ms = unit.count(); }
  ~printing_time_unit() { detail::printed_unit_ms = saved_; }
  printing_time_unit(const printing_time_unit&) = delete;
  printing_time_unit& operator=(const printing_time_unit&) = delete;

 private:
  long long saved_;
};

/// A clock is encoded as its 16-bit code and printed as its elapsed time.
template <class Tag>
struct member_traits<clock<Tag>> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = 2;
  static void encode(const clock<Tag>& c, std::byte*& out) {
    std::uint16_t code = 0;
    std::memcpy(&code, &c, sizeof code);  // clock holds exactly its code: no friend needed here
    detail::encode_unsigned(code, out);
  }
  static Value to_value(const clock<Tag>& c) {
    std::uint16_t code = 0;
    std::memcpy(&code, &c, sizeof code);
    return Value::name(detail::clock_text(code, detail::printed_unit_ms));
  }
};

template <class Fn>
struct deadline_t {
  std::string_view name;
  Fn fn;
};
/// An upper bound: time may only pass into states where fn(state) holds
/// (bool(const State&), typically `!pending || s.c <= bound`).
template <class Fn>
deadline_t<Fn> deadline(std::string_view name, Fn fn) {
  return {name, fn};
}
template <class... D>
struct deadlines_t {
  std::tuple<D...> list;
};
template <class... D>
deadlines_t<D...> deadlines(D... d) {
  return {std::make_tuple(std::move(d)...)};
}

namespace detail {
/// What a spec's time parts come to (spec_t's Time): its timing and deadlines.
template <class Deadlines>
struct timed_t {
  timing clock_timing;
  Deadlines deadlines;
  bool timelock_allowed = false;
};
/// spec_t's Time for a spec whose state holds no clock.
struct untimed_t {};
}  // namespace detail

/// Marks a spec whose timelocks (no action enabled, a deadline stops time) are expected.
struct allow_timelock_t {};
inline constexpr allow_timelock_t allow_timelock{};

}  // namespace statecheck
