// Timings a spec author gets wrong (statecheck/time.hpp): a bound that is not
// positive, not a multiple of the unit or beyond a clock's range, a clock kind
// with no bound or a bound for no clock, and a guard comparing with a bound its
// spec's timing never declared: refused with one line, or a spec error.
#include <chrono>
#include <functional>
#include <string>

#include "support/check_helpers.hpp"
#include "statecheck/report.hpp"

using namespace std::chrono_literals;
using statecheck::Outcome;

namespace {

struct Lone {};
struct Other {};
struct LoneState {
  BOOST_HANA_DEFINE_STRUCT(LoneState, (statecheck::clock<Lone>, c));
  friend bool operator==(const LoneState&, const LoneState&) = default;
};

/// A one-clock spec whose guard compares with `guard_bound`, made by `guard_timing`.
auto lone_spec(statecheck::timing spec_timing, statecheck::bound<Lone> guard_bound) {
  return statecheck::spec<LoneState>(
      "lone", statecheck::init([](LoneState& s) { s.c.reset(); }),
      statecheck::actions(statecheck::action("Ring", [guard_bound](const LoneState& s) { return s.c >= guard_bound; },
                                             [](LoneState& s) { s.c.reset(); })),
      spec_timing);
}

std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const statecheck::config_error& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("bad timings are refused with one line naming the bound and the unit", "[time]") {
  statecheck::timing t(1s);
  CHECK(refusal([&] { t.bound<Lone>("zero", 0s); }) == "bound 'zero' = 0s must be positive");
  CHECK(refusal([&] { t.bound<Lone>("negative", -5s); }) == "bound 'negative' = -5s must be positive");
  CHECK(refusal([&] { statecheck::timing(0ms); }) == "the time unit must be positive, not 0s");
  statecheck::timing odd(700ms);
  CHECK(refusal([&] { odd.bound<Lone>("deadline", 3s); }) ==
        "bound 'deadline' = 3s is not a multiple of the time unit 700ms; choose a unit that divides every bound, or "
        "round the bound");
  statecheck::timing fine(1ms);
  CHECK(refusal([&] { fine.bound<Lone>("polling", 2h); }) ==
        "bound 'polling' = 2h is 7200000 units of 1ms; a clock holds at most 32000: choose a coarser unit");
}

TEST_CASE("a clock kind with no bound, or a bound for no clock, is refused when the model is built", "[time]") {
  statecheck::timing t(1s);
  const auto other = t.bound<Other>("other", 5s);  // a kind the state has no clock of
  (void)other;
  const auto msg = refusal([&] { statecheck::check(lone_spec(t, statecheck::bound<Lone>{1, 1s, "b"}), test::options(1)); });
  CHECK_THAT(msg, Catch::Matchers::Contains("Lone are compared with no bound; make their bounds with timing::bound<"));
  statecheck::timing both(1s);
  const auto ring = both.bound<Lone>("ring", 2s);
  both.bound<Other>("other", 5s);
  CHECK_THAT(refusal([&] { statecheck::check(lone_spec(both, ring), test::options(1)); }),
             Catch::Matchers::Contains("bounds a kind of clock the state holds none of"));
}

TEST_CASE("a capped clock compared with a bound its spec's timing never declared is a spec error", "[time]") {
  statecheck::timing spec_timing(1s);
  spec_timing.bound<Lone>("declared", 2s);  // caps c at 3 units: beyond 2 s
  statecheck::timing elsewhere(1s);
  const auto undeclared = elsewhere.bound<Lone>("undeclared", 5s);
  const auto r = statecheck::check(lone_spec(spec_timing, undeclared), test::options(1));
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE_THAT(r.error->message, Catch::Matchers::Contains("was compared with bound 'undeclared' = 5s, above the bounds"));
  REQUIRE(r.error->where == "action Ring");
}
