// The text trace's diffs (statecheck/report.hpp print_trace): after the first
// state, a step shows what it changed and nothing else: leaves by path, a
// set's members that joined or left it, and the outermost part of a record or
// vector that disappeared, once. Values are built by hand, so every expected
// line is derived from the two states it compares.
#include <catch2/catch.hpp>
#include <sstream>

#include "statecheck/report.hpp"
#include "statecheck/statecheck.hpp"

using statecheck::Value;

namespace {

Value record(std::vector<std::pair<std::string, Value>> fields) {
  Value v = Value::list(Value::Kind::record);
  for (auto& [key, item] : fields) {
    v.keys.push_back(key);
    v.items.push_back(std::move(item));
  }
  return v;
}

Value list(Value::Kind kind, std::vector<Value> items) {
  Value v = Value::list(kind);
  v.items = std::move(items);
  return v;
}

Value cmd(int id) { return record({{"id", Value::integer(id)}, {"done", Value::boolean(false)}}); }

std::string trace_text(std::vector<Value> states) {
  std::vector<statecheck::TraceStep> trace;
  for (std::size_t i = 0; i < states.size(); ++i) {
    statecheck::TraceStep step;
    step.label = "Step" + std::to_string(i);
    step.state = std::move(states[i]);
    trace.push_back(std::move(step));
  }
  std::ostringstream out;
  statecheck::print_trace(out, trace);
  return out.str();
}

Value state(std::vector<Value> cmds, std::vector<Value> msgs) {
  return record({{"cmds", list(Value::Kind::sequence, std::move(cmds))},
                 {"msgs", list(Value::Kind::set, std::move(msgs))}});
}

}  // namespace

TEST_CASE("trace text: a set shows the members that joined and left it", "[report]") {
  const Value m1 = record({{"type", Value::name("1a")}, {"bal", Value::integer(1)}});
  const Value m2 = record({{"type", Value::name("1b")}, {"bal", Value::integer(2)}});
  REQUIRE(trace_text({state({}, {m1}), state({}, {m1, m2}), state({}, {m2})}) ==
          "  0: initial state\n"
          "       cmds = []\n"
          "       msgs = {{type: 1a, bal: 1}}\n"
          "  1: Step1\n"
          "       msgs: + {type: 1b, bal: 2}\n"
          "  2: Step2\n"
          "       msgs: - {type: 1a, bal: 1}\n");
}

TEST_CASE("trace text: a vector of records that fills, shrinks and empties shows no stale paths", "[report]") {
  // Was: `cmds (removed)` when it filled, and `cmds.size (removed)` plus one
  // line per field of each element when it emptied or shrank.
  REQUIRE(trace_text({state({}, {}), state({cmd(1), cmd(2)}, {}), state({cmd(1)}, {}), state({}, {})}) ==
          "  0: initial state\n"
          "       cmds = []\n"
          "       msgs = {}\n"
          "  1: Step1\n"
          "       cmds.size = 2\n"
          "       cmds[0].id = 1\n"
          "       cmds[0].done = false\n"
          "       cmds[1].id = 2\n"
          "       cmds[1].done = false\n"
          "  2: Step2\n"
          "       cmds.size: 2 -> 1\n"
          "       cmds[1] (removed)\n"
          "  3: Step3\n"
          "       cmds = []\n");
}

TEST_CASE("trace text: a value that changes reads old -> new, a new one shows its value", "[report]") {
  // Was: `clients[1].step = has_read`, which did not say what it was before.
  auto client = [](const char* step) { return record({{"step", Value::name(step)}}); };
  auto clients = [&](std::vector<Value> cs) { return record({{"clients", list(Value::Kind::sequence, std::move(cs))}}); };
  REQUIRE(trace_text({clients({client("start"), client("start")}), clients({client("start"), client("has_read")}),
                      clients({client("start"), client("has_read"), client("start")})}) ==
          "  0: initial state\n"
          "       clients.size = 2\n"
          "       clients[0].step = start\n"
          "       clients[1].step = start\n"
          "  1: Step1\n"
          "       clients[1].step: start -> has_read\n"
          "  2: Step2\n"
          "       clients.size: 2 -> 3\n"
          "       clients[2].step = start\n");
}
