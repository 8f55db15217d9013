// statecheck/bounded_set.hpp - sets and maps of any state value, stored inline.
//
//   bounded_set<Msg, 16>       a set of records (TLA+'s msgs \subseteq Message)
//   bounded_map<ScmId, int, 5> a finite function from keys to values
//
// Both keep their items sorted by statecheck::order, which compares any value a
// state may hold (numbers, enums, ids, reflected structs member by member,
// arrays and containers lexicographically). Sorted, duplicate-free and with
// unused slots zeroed, equal sets have equal bytes: the encoding is canonical.
// Inserting beyond the capacity throws std::length_error (a spec error with its trace).
#pragma once

#include <array>
#include <boost/hana/at_key.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/keys.hpp>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <type_traits>

namespace statecheck {

namespace detail {
template <class T>
concept ordered_by_less = requires(const T& a, const T& b) {
  { a < b } -> std::convertible_to<bool>;
};
template <class T>
concept iterable = requires(const T& t) {
  t.begin();
  t.end();
};
}  // namespace detail

/// Three-way comparison of any state value: negative, zero or positive.
template <class T>
constexpr int order(const T& a, const T& b) {
  if constexpr (boost::hana::Struct<T>::value) {
    int result = 0;
    boost::hana::for_each(boost::hana::keys(a), [&](auto key) {
      if (result == 0) result = order(boost::hana::at_key(a, key), boost::hana::at_key(b, key));
    });
    return result;
  } else if constexpr (detail::iterable<T>) {
    auto i = a.begin();
    auto j = b.begin();
    for (; i != a.end() && j != b.end(); ++i, ++j)
      if (const int c = order(*i, *j); c != 0) return c;
    return (i != a.end()) - (j != b.end());
  } else if constexpr (requires { a.mask(); }) {  // id_set
    return (a.mask() > b.mask()) - (a.mask() < b.mask());
  } else {
    static_assert(detail::ordered_by_less<T>,
                  "statecheck::order: give this type operator< (or make it a reflected struct)");
    return (b < a) - (a < b);
  }
}

namespace detail {
/// Up to Cap items kept sorted by order(key(item)), without duplicate keys:
/// the storage both bounded_set and bounded_map are made of.
template <class Item, std::size_t Cap, class KeyOf>
class sorted_items {
  static_assert(Cap > 0 && Cap < 256, "statecheck: set and map capacities must be 1..255");
  static_assert(std::is_trivially_copyable_v<Item>, "statecheck: set and map items must be trivially copyable");

 public:
  static constexpr int capacity() { return static_cast<int>(Cap); }
  constexpr int size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const Item* begin() const { return items_.data(); }
  constexpr const Item* end() const { return items_.data() + size_; }
  constexpr void clear() {
    items_ = {};
    size_ = 0;
  }

 protected:
  /// Position of the item with this key, or -1.
  template <class Key>
  constexpr int find(const Key& key) const {
    for (int i = 0; i < size_; ++i) {
      const int c = order(KeyOf{}(items_[at(i)]), key);
      if (c == 0) return i;
      if (c > 0) break;
    }
    return -1;
  }
  /// Puts `item` in its place; replaces an item with the same key when `replace`.
  /// False when the key was there already.
  constexpr bool place(const Item& item, bool replace, const char* full_message) {
    int i = 0;
    while (i < size_ && order(KeyOf{}(items_[at(i)]), KeyOf{}(item)) < 0) ++i;
    if (i < size_ && order(KeyOf{}(items_[at(i)]), KeyOf{}(item)) == 0) {
      if (replace) items_[at(i)] = item;
      return false;
    }
    if (size_ == static_cast<int>(Cap)) throw std::length_error(full_message);
    for (int k = size_; k > i; --k) items_[at(k)] = items_[at(k - 1)];
    items_[at(i)] = item;
    ++size_;
    return true;
  }
  /// Removes the item at position i (from find), zeroing the freed slot.
  constexpr void remove(int i) {
    for (int k = i; k + 1 < size_; ++k) items_[at(k)] = items_[at(k + 1)];
    items_[at(--size_)] = Item{};
  }
  constexpr const Item& item(int i) const { return items_[at(i)]; }
  static constexpr bool same_items(const sorted_items& a, const sorted_items& b) {
    if (a.size_ != b.size_) return false;
    for (int i = 0; i < a.size_; ++i)
      if (order(a.items_[at(i)], b.items_[at(i)]) != 0) return false;
    return true;
  }

 private:
  static constexpr std::size_t at(int i) { return static_cast<std::size_t>(i); }
  std::array<Item, Cap> items_{};
  std::uint8_t size_ = 0;
};

struct whole_item {
  template <class T>
  constexpr const T& operator()(const T& t) const { return t; }
};
struct entry_key {
  template <class E>
  constexpr const auto& operator()(const E& e) const { return e.key; }
};
}  // namespace detail

/// A set of at most Cap values of T, kept sorted by statecheck::order.
template <class T, std::size_t Cap>
class bounded_set : public detail::sorted_items<T, Cap, detail::whole_item> {
 public:
  using value_type = T;
  constexpr bounded_set() = default;
  constexpr bounded_set(std::initializer_list<T> items) {
    for (const T& item : items) insert(item);
  }
  constexpr bool contains(const T& item) const { return this->find(item) >= 0; }
  /// Adds `item`; false when it was already there.
  constexpr bool insert(const T& item) {
    return this->place(item, false, "statecheck::bounded_set: insert beyond capacity");
  }
  /// Removes `item`; false when it was not there.
  constexpr bool erase(const T& item) {
    const int at = this->find(item);
    if (at >= 0) this->remove(at);
    return at >= 0;
  }
  friend constexpr bool operator==(const bounded_set& a, const bounded_set& b)
    requires std::equality_comparable<T>
  {
    return bounded_set::same_items(a, b);
  }
};

/// One key and its value in a bounded_map (reflected, so it orders and prints like any record).
template <class K, class V>
struct map_entry {
  BOOST_HANA_DEFINE_STRUCT(map_entry, (K, key), (V, value));
};

/// A finite function from at most Cap keys to values, kept sorted by key.
template <class K, class V, std::size_t Cap>
class bounded_map : public detail::sorted_items<map_entry<K, V>, Cap, detail::entry_key> {
 public:
  using entry = map_entry<K, V>;
  using key_type = K;
  using mapped_type = V;
  constexpr bool contains(const K& key) const { return this->find(key) >= 0; }
  /// The value of `key`, or nullptr.
  constexpr const V* get(const K& key) const {
    const int at = this->find(key);
    return at < 0 ? nullptr : &this->item(at).value;
  }
  /// The value of `key`; throws std::out_of_range when absent.
  constexpr const V& at(const K& key) const {
    const V* v = get(key);
    if (v == nullptr) throw std::out_of_range("statecheck::bounded_map: no such key");
    return *v;
  }
  /// Sets key to value, adding the key when absent.
  constexpr void put(const K& key, const V& value) {
    this->place(entry{key, value}, true, "statecheck::bounded_map: put beyond capacity");
  }
  /// Removes `key`; false when it was not there.
  constexpr bool erase(const K& key) {
    const int at = this->find(key);
    if (at >= 0) this->remove(at);
    return at >= 0;
  }
  friend constexpr bool operator==(const bounded_map& a, const bounded_map& b)
    requires std::equality_comparable<K> && std::equality_comparable<V>
  {
    return bounded_map::same_items(a, b);
  }
};

}  // namespace statecheck
