// statecheck/detail/signature.hpp - the parameter types of a spec's callable,
// when it has one signature (a lambda that is not generic, a function
// pointer), so that a compile error can say WHICH value of a guard or effect
// does not fit, and an action(...) can find its state type before the spec
// names it. Generic lambdas have no such list: their mistakes are found by
// spec<State>(...), which knows the state type.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>

#include "statecheck/member_traits.hpp"

namespace statecheck::detail {

template <class... T>
struct type_list {
  static constexpr std::size_t size = sizeof...(T);
};

/// `known`: F has one signature; then `result` and `params` (a type_list).
template <class F>
struct signature {
  static constexpr bool known = false;
};
template <class R, class... A>
struct signature_of {
  static constexpr bool known = true;
  using result = R;
  using params = type_list<A...>;
};
template <class R, class... A>
struct signature<R (*)(A...)> : signature_of<R, A...> {};
template <class R, class... A>
struct signature<R (*)(A...) noexcept> : signature_of<R, A...> {};
template <class C, class R, class... A>
struct signature<R (C::*)(A...)> : signature_of<R, A...> {};
template <class C, class R, class... A>
struct signature<R (C::*)(A...) const> : signature_of<R, A...> {};
template <class C, class R, class... A>
struct signature<R (C::*)(A...) noexcept> : signature_of<R, A...> {};
template <class C, class R, class... A>
struct signature<R (C::*)(A...) const noexcept> : signature_of<R, A...> {};
template <class F>
  requires requires { &F::operator(); }
struct signature<F> : signature<decltype(&F::operator())> {};

/// Parameter I of a type_list as written (State&, const State&, int), or
/// void past its end.
template <std::size_t I, class List>
struct param_at {
  using type = void;
};
template <class T, class... Rest>
struct param_at<0, type_list<T, Rest...>> {
  using type = T;
};
template <std::size_t I, class T, class... Rest>
  requires(I > 0)
struct param_at<I, type_list<T, Rest...>> {
  using type = typename param_at<I - 1, type_list<Rest...>>::type;
};
template <std::size_t I, class List>
using param_at_t = typename param_at<I, List>::type;

/// The first parameter type of F without reference and const, or void (no
/// known signature, or no parameter).
template <class F>
struct first_param_of {
  using type = void;
};
template <class F>
  requires signature<F>::known
struct first_param_of<F> {
  using type = std::remove_cvref_t<param_at_t<0, typename signature<F>::params>>;
};
template <class F>
using first_param = typename first_param_of<F>::type;

template <class T>
concept state_like = !std::is_void_v<T> && reflected_struct<T>;

/// The state type a spec's callables take first: the first of Fns whose first
/// parameter is a reflected struct, or void (generic lambdas only, or no state).
template <class... Fns>
struct state_of {
  using type = void;
};
template <class F, class... Rest>
struct state_of<F, Rest...> {
  using type = std::conditional_t<state_like<first_param<F>>, first_param<F>, typename state_of<Rest...>::type>;
};

/// How the values an action passes (parameters, then the chosen value) fit a
/// callable's parameters after the state.
enum class fit { ok, count, chosen_not_last, reordered, type };

/// accepts[i][j]: the callable's value parameter i takes the action's value j.
template <class Declared, class Given>
struct value_table;
template <class... A, class... V>
struct value_table<type_list<A...>, type_list<V...>> {
  static constexpr std::size_t n = sizeof...(V);
  template <class Param>
  static constexpr std::array<bool, n> row = {std::is_convertible_v<const V&, Param>...};
  static constexpr std::array<std::array<bool, n>, n> accepts = {row<A>...};
};

/// Where the values first misfit `Declared` (the callable's value parameters):
/// the chosen value written too early, two values in another order, or a type
/// that nothing converts to. `ok` when each value fits its place.
template <bool HasChoice, class Declared, class Given>
constexpr fit fit_values() {
  if constexpr (Declared::size != Given::size) {
    return fit::count;
  } else {
    using table = value_table<Declared, Given>;
    constexpr std::size_t n = Given::size;
    for (std::size_t i = 0; i < n; ++i) {
      if (table::accepts[i][i]) continue;
      if (HasChoice && i + 1 < n && table::accepts[i][n - 1]) return fit::chosen_not_last;
      for (std::size_t j = 0; j < n; ++j)
        if (j != i && table::accepts[i][j]) return fit::reordered;
      return fit::type;
    }
    return fit::ok;
  }
}

/// A type_list without its first `Skip` types (a callable's values after its state parameters).
template <std::size_t Skip, class List>
struct drop;
template <class List>
struct drop<0, List> {
  using type = List;
};
template <std::size_t Skip, class T, class... Rest>
  requires(Skip > 0)
struct drop<Skip, type_list<T, Rest...>> {
  using type = typename drop<Skip - 1, type_list<Rest...>>::type;
};
template <std::size_t Skip>
  requires(Skip > 0)
struct drop<Skip, type_list<>> {
  using type = type_list<>;
};
template <std::size_t Skip, class List>
using drop_t = typename drop<Skip, List>::type;

}  // namespace statecheck::detail
