// Issue 14 item 7: a spec written the natural way (int parameters and loop
// counters, named ids, the containers' size()) compiles without one
// -Wsign-conversion warning. Was: 13 in one small spec, as parameters were int,
// indices size_t, id_set::size() int and bounded_vec::size() size_t. The test
// (tests/cli/CMakeLists.txt) compiles this file with -Wsign-conversion -Werror.
#include <statecheck/statecheck.hpp>

namespace {

struct Node {
  static constexpr std::string_view prefix = "n";
};
using NodeId = statecheck::id<Node>;
constexpr int nodes = 3;

struct Entry {
  BOOST_HANA_DEFINE_STRUCT(Entry, (int, term), (int, value));
  friend bool operator==(const Entry&, const Entry&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (std::array<int, nodes>, term), (statecheck::bounded_vec<Entry, 4>, log),
                           (statecheck::id_set<nodes, Node>, acks), (statecheck::bounded_set<Entry, 4>, sent));
  friend bool operator==(const State&, const State&) = default;
};

const auto node = statecheck::ids<Node>("n", nodes);
const auto slot = statecheck::param("slot", 0, 3);

const auto spec = statecheck::spec<State>(
    "sign-clean", statecheck::init([](State&) {}),
    statecheck::actions(
        statecheck::action("Append", node, [](const State& s, NodeId n) { return s.log.size() < 4 && s.term[n] < 2; },
                           [](State& s, NodeId n) {
                             s.log.push_back({s.term[n], s.log.size()});
                             s.acks.insert(n);
                           }),
        statecheck::action("Bump", slot, [](const State& s, int i) { return i < s.log.size() && s.acks.size() < nodes; },
                           [](const State& before, State& after, int i) {
                             after.log[i].term = before.log[i].term + 1;
                             for (int k = 0; k < before.log.size(); ++k) after.log[k].value = before.log[k].value + k;
                           }),
        statecheck::action("Send", statecheck::each_in("e", [](const State& s) -> const auto& { return s.log; }),
                           [](const State& s, const Entry&) { return s.sent.size() < 4; },
                           [](State& s, const Entry& e) { s.sent.insert(e); })),
    statecheck::allow_deadlock);

}  // namespace

int main() { return statecheck::check(spec, {}).stats.distinct > 0 ? 0 : 1; }
