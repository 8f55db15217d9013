// statecheck/detail/clocks.hpp - the engine's side of statecheck/time.hpp:
// which clock kinds a state type holds, and one unit of time passing over
// every clock of a state, capped at its kind's largest bound.
#pragma once

#include <array>
#include <boost/hana/at_key.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/keys.hpp>
#include <boost/hana/members.hpp>
#include <boost/hana/tuple.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>

#include "statecheck/containers.hpp"
#include "statecheck/result.hpp"
#include "statecheck/symmetry.hpp"
#include "statecheck/time.hpp"

namespace statecheck::detail {

struct clock_access {
  template <class Tag>
  static std::uint16_t code(const clock<Tag>& c) { return c.code_; }
  /// One unit passes: false when the clock does not change (stopped, or capped).
  template <class Tag>
  static bool tick(clock<Tag>& c, std::uint16_t cap) {
    if (c.code_ == clock<Tag>::stopped || (c.code_ & clock<Tag>::beyond) != 0) return false;
    const auto next = static_cast<std::uint16_t>(c.code_ + 1);
    c.code_ = next >= cap ? static_cast<std::uint16_t>(clock<Tag>::beyond | cap) : next;
    return true;
  }
  template <class Tag>
  static bool capped(const clock<Tag>& c) {
    return c.code_ != clock<Tag>::stopped && (c.code_ & clock<Tag>::beyond) != 0;
  }
};

/// The clock kinds (tags) a value of type T holds, as a std::tuple of tags
/// (a kind may repeat); std::tuple<> for a type without clocks.
template <class T, class Enable = void>
struct clock_tags {
  using type = std::tuple<>;
};
template <class T>
using clock_tags_t = typename clock_tags<std::remove_cv_t<T>>::type;
template <class T>
inline constexpr bool holds_clocks = std::tuple_size_v<clock_tags_t<T>> > 0;

template <class Tag>
struct clock_tags<clock<Tag>> {
  using type = std::tuple<Tag>;
};
template <class T, std::size_t N>
struct clock_tags<std::array<T, N>> : clock_tags<T> {};
template <class T, std::size_t Cap>
struct clock_tags<bounded_vec<T, Cap>> : clock_tags<T> {};
template <class Tag, class T, std::size_t N>
struct clock_tags<id_array<Tag, T, N>> : clock_tags<T> {};
template <class T, std::size_t Cap>
struct clock_tags<bounded_set<T, Cap>> : clock_tags<T> {  // its tags: refused here, and nowhere else
  static_assert(!holds_clocks<T>, "statecheck::clock: a clock may not be in a bounded_set's elements (a time step "
                                  "would change their order); keep it in a record, an id_array or a map's values");
};
template <class K, class V, std::size_t Cap>
struct clock_tags<bounded_map<K, V, Cap>> : clock_tags<V> {
  static_assert(!holds_clocks<K>, "statecheck::clock: a clock may not be in a bounded_map's keys (a time step "
                                  "would change their order); keep it in the values");
};
template <class... Alts>
struct clock_tags<one_of<Alts...>> {
  static_assert((!holds_clocks<Alts> && ...), "statecheck::clock: a clock may not be in a one_of alternative (a "
                                              "value that changes shape); keep it in a record or an id_array");
  using type = std::tuple<>;
};
template <class Tuple>
struct member_clock_tags;
template <class... Ms>
struct member_clock_tags<boost::hana::tuple<Ms...>> {
  using type = decltype(std::tuple_cat(std::declval<clock_tags_t<Ms>>()...));
};
template <class T>
struct clock_tags<T, std::enable_if_t<boost::hana::Struct<T>::value>> {
  using type = typename member_clock_tags<decltype(boost::hana::members(std::declval<const T&>()))>::type;
};

/// Per clock kind of a state type (its place among State's clock tags): the
/// code at which its clocks stop, one above its largest bound.
template <class Tuple>
struct clock_caps;
template <class... Tags>
struct clock_caps<std::tuple<Tags...>> {
  std::array<std::uint16_t, sizeof...(Tags)> cap{};

  template <class Tag>
  std::uint16_t of() const {
    return cap[kind_index<Tag, Tags...>()];
  }

  /// Reads the caps from the spec's timing; throws config_error when a kind
  /// has no bound, or when the timing bounds a kind the state has no clock of.
  static clock_caps from(const std::string& spec, const timing& t) {
    clock_caps out;
    std::size_t i = 0;
    const auto read = [&](const void* key, const std::string& name) {
      const int largest = t.largest(key);
      if (largest == 0)
        throw config_error("spec '" + spec + "': clocks of kind " + name +
                           " are compared with no bound; make their bounds with timing::bound<" + name + ">(...)");
      out.cap[i++] = static_cast<std::uint16_t>(largest + 1);
    };
    (read(clock_kind_key<Tags>(), clock_kind_name<Tags>()), ...);
    for (const auto& [key, name] : t.kinds()) {
      const bool held = ((key == clock_kind_key<Tags>()) || ... || false);
      if (!held)
        throw config_error("spec '" + spec + "': timing::bound<" + name + "> bounds a kind of clock the state holds "
                           "none of; give the state a statecheck::clock<" + name + "> or drop the bound");
    }
    return out;
  }
  /// The most units a delay can matter: beyond it every clock is capped.
  int longest() const {
    int most = 0;
    for (std::uint16_t c : cap) most = c > most ? c : most;
    return most;
  }
};

/// Lets one unit of time pass over every clock in `v`; true when a clock changed.
template <class T, class Caps>
bool tick_clocks(T& v, const Caps& caps) {
  if constexpr (!holds_clocks<T>) {
    return false;
  } else if constexpr (is_clock<T>::value) {
    return clock_access::tick(v, caps.template of<typename T::tag>());
  } else if constexpr (is_bounded_map<T>::value) {
    bool changed = false;
    for (auto e : v) {
      if (tick_clocks(e.value, caps)) {
        v.put(e.key, e.value);
        changed = true;
      }
    }
    return changed;
  } else if constexpr (is_bounded_vec<T>::value || is_std_array<T>::value || is_id_array<T>::value) {
    bool changed = false;
    for (auto& item : v) changed = tick_clocks(item, caps) || changed;
    return changed;
  } else {
    bool changed = false;
    boost::hana::for_each(boost::hana::keys(v),
                          [&](auto key) { changed = tick_clocks(boost::hana::at_key(v, key), caps) || changed; });
    return changed;
  }
}

}  // namespace statecheck::detail
