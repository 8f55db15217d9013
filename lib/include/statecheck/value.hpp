// statecheck/value.hpp - a printable snapshot of a state or parameter value.
//
// Reflection turns a state into this small tree once per printed trace step;
// the report module renders it as text (diffed by field path) or as JSON. It
// is never built on the search's hot path.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace statecheck {

struct Value {
  enum class Kind : std::uint8_t {
    integer,   // number
    boolean,   // number is 0 or 1
    name,      // text (an enumerator)
    array,     // fixed-size array: printed element by element (path[i])
    sequence,  // bounded_vec: printed whole unless its elements are structured
    set,       // id set: printed whole as {a, b}
    record,    // reflected struct: printed member by member (path.member)
  };
  Kind kind = Kind::integer;
  std::int64_t number = 0;
  std::string text;
  std::vector<Value> items;        // array / sequence / set / record members
  std::vector<std::string> keys;   // record member names, parallel to items

  static Value integer(std::int64_t n) { return {Kind::integer, n, {}, {}, {}}; }
  static Value boolean(bool b) { return {Kind::boolean, b ? 1 : 0, {}, {}, {}}; }
  static Value name(std::string s) { return {Kind::name, 0, std::move(s), {}, {}}; }
  static Value list(Kind kind) { return {kind, 0, {}, {}, {}}; }

  bool is_structured() const { return kind == Kind::array || kind == Kind::record; }
  friend bool operator==(const Value&, const Value&) = default;
};

/// One leaf of a flattened state: `rm[2]` = `prepared`.
struct Field {
  std::string path;
  std::string text;
  bool is_set = false;                    // a set: trace diffs print the members that left and joined it
  std::vector<std::string> members = {};  // a set's members, one text each
};

}  // namespace statecheck
