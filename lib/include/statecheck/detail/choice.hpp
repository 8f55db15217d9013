// statecheck/detail/choice.hpp - what the engine needs to know of an action's
// state-dependent choice (each / each_in in action.hpp): the type of the chosen
// value, the most witnesses a state may have, and the witnesses of a state in
// order. A choice that does not fit (an accessor returning a copy, an
// enumerator that takes no emit) never gets here: action(...) and
// spec<State>(...) refuse it first (action_checks.hpp). action.hpp includes it
// (through action_checks.hpp) before the choice types are complete, so it
// declares them rather than including action.hpp.
#pragma once

#include <cstdint>
#include <iterator>
#include <type_traits>

namespace statecheck {
template <class T, class Enumerate>
struct each_t;
template <class Access>
struct each_in_t;
}  // namespace statecheck

namespace statecheck::detail {

/// Hands each witness to the engine as a T (so that an emitted value converts
/// to the declared type once, at the call).
template <class T, class F>
struct emitter {
  F* f;
  void operator()(const T& value) const { (*f)(value); }
};

template <class Choice, class State, class... P>
struct choice_traits;

template <class T, class E, class State, class... P>
struct choice_traits<each_t<T, E>, State, P...> {
  using value_type = T;
  static std::uint32_t bound(const each_t<T, E>& c) { return c.bound; }

  template <class F>
  static void enumerate(const each_t<T, E>& c, const State& s, F& f, const P&... vs) {
    emitter<T, F> emit{&f};
    if constexpr (sizeof...(P) > 0 && std::is_invocable_v<const E&, const State&, emitter<T, F>&, const P&...>)
      c.enumerate(s, emit, vs...);
    else
      c.enumerate(s, emit);
  }
};

template <class A, class State, class... P>
struct each_in_container {
  static auto& get(const A& access, const State& s, const P&... vs) {
    if constexpr (sizeof...(P) > 0 && std::is_invocable_v<const A&, const State&, const P&...>) return access(s, vs...);
    else return access(s);
  }
  using container = std::remove_cvref_t<decltype(get(std::declval<const A&>(), std::declval<const State&>(),
                                                     std::declval<const P&>()...))>;
};

template <class A, class State, class... P>
struct choice_traits<each_in_t<A>, State, P...> {
  using container = typename each_in_container<A, State, P...>::container;
  using value_type = std::remove_cvref_t<decltype(*std::begin(std::declval<const container&>()))>;
  static std::uint32_t bound(const each_in_t<A>&) { return static_cast<std::uint32_t>(container::capacity()); }

  template <class F>
  static void enumerate(const each_in_t<A>& c, const State& s, F& f, const P&... vs) {
    for (const value_type& v : each_in_container<A, State, P...>::get(c.access, s, vs...)) f(v);
  }
};

}  // namespace statecheck::detail
