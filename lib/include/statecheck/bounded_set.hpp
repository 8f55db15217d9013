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
#include <boost/hana.hpp>
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

/// A set of at most Cap values of T, kept sorted by statecheck::order.
template <class T, std::size_t Cap>
class bounded_set {
  static_assert(Cap > 0 && Cap < 256, "statecheck::bounded_set: capacity must be 1..255");
  static_assert(std::is_trivially_copyable_v<T>, "statecheck::bounded_set: items must be trivially copyable");

 public:
  using value_type = T;
  constexpr bounded_set() = default;
  constexpr bounded_set(std::initializer_list<T> items) {
    for (const T& item : items) insert(item);
  }

  static constexpr int capacity() { return static_cast<int>(Cap); }
  constexpr int size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T* begin() const { return items_.data(); }
  constexpr const T* end() const { return items_.data() + size_; }

  constexpr bool contains(const T& item) const { return find(item) >= 0; }
  /// Adds `item`; false when it was already there.
  constexpr bool insert(const T& item) {
    int at = 0;
    while (at < size_ && order(items_[index(at)], item) < 0) ++at;
    if (at < size_ && order(items_[index(at)], item) == 0) return false;
    if (size_ == static_cast<int>(Cap)) throw std::length_error("statecheck::bounded_set: insert beyond capacity");
    for (int k = size_; k > at; --k) items_[index(k)] = items_[index(k - 1)];
    items_[index(at)] = item;
    ++size_;
    return true;
  }
  /// Removes `item`; false when it was not there.
  constexpr bool erase(const T& item) {
    const int at = find(item);
    if (at < 0) return false;
    for (int k = at; k + 1 < size_; ++k) items_[index(k)] = items_[index(k + 1)];
    items_[index(--size_)] = T{};
    return true;
  }
  constexpr void clear() {
    items_ = {};
    size_ = 0;
  }

  friend constexpr bool operator==(const bounded_set& a, const bounded_set& b) {
    if (a.size_ != b.size_) return false;
    for (int i = 0; i < a.size_; ++i)
      if (order(a.items_[index(i)], b.items_[index(i)]) != 0) return false;
    return true;
  }

 private:
  static constexpr std::size_t index(int i) { return static_cast<std::size_t>(i); }
  constexpr int find(const T& item) const {
    for (int i = 0; i < size_; ++i) {
      const int c = order(items_[index(i)], item);
      if (c == 0) return i;
      if (c > 0) break;
    }
    return -1;
  }
  std::array<T, Cap> items_{};
  std::uint8_t size_ = 0;
};

/// One key and its value in a bounded_map.
template <class K, class V>
struct map_entry {
  K key{};
  V value{};
};

/// A finite function from at most Cap keys to values, kept sorted by key.
template <class K, class V, std::size_t Cap>
class bounded_map {
  static_assert(Cap > 0 && Cap < 256, "statecheck::bounded_map: capacity must be 1..255");

 public:
  using entry = map_entry<K, V>;
  static constexpr int capacity() { return static_cast<int>(Cap); }
  constexpr int size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const entry* begin() const { return entries_.data(); }
  constexpr const entry* end() const { return entries_.data() + size_; }

  constexpr bool contains(const K& key) const { return find(key) >= 0; }
  /// The value of `key`, or nullptr.
  constexpr const V* get(const K& key) const {
    const int at = find(key);
    return at < 0 ? nullptr : &entries_[index(at)].value;
  }
  /// The value of `key`; throws std::out_of_range when absent.
  constexpr const V& at(const K& key) const {
    const V* v = get(key);
    if (v == nullptr) throw std::out_of_range("statecheck::bounded_map: no such key");
    return *v;
  }
  /// Sets key to value, adding the key when absent.
  constexpr void put(const K& key, const V& value) {
    int at = 0;
    while (at < size_ && order(entries_[index(at)].key, key) < 0) ++at;
    if (at < size_ && order(entries_[index(at)].key, key) == 0) {
      entries_[index(at)].value = value;
      return;
    }
    if (size_ == static_cast<int>(Cap)) throw std::length_error("statecheck::bounded_map: put beyond capacity");
    for (int k = size_; k > at; --k) entries_[index(k)] = entries_[index(k - 1)];
    entries_[index(at)] = entry{key, value};
    ++size_;
  }
  /// Removes `key`; false when it was not there.
  constexpr bool erase(const K& key) {
    const int at = find(key);
    if (at < 0) return false;
    for (int k = at; k + 1 < size_; ++k) entries_[index(k)] = entries_[index(k + 1)];
    entries_[index(--size_)] = entry{};
    return true;
  }
  constexpr void clear() {
    entries_ = {};
    size_ = 0;
  }

  friend constexpr bool operator==(const bounded_map& a, const bounded_map& b) {
    if (a.size_ != b.size_) return false;
    for (int i = 0; i < a.size_; ++i) {
      const entry& x = a.entries_[index(i)];
      const entry& y = b.entries_[index(i)];
      if (order(x.key, y.key) != 0 || order(x.value, y.value) != 0) return false;
    }
    return true;
  }

 private:
  static constexpr std::size_t index(int i) { return static_cast<std::size_t>(i); }
  constexpr int find(const K& key) const {
    for (int i = 0; i < size_; ++i) {
      const int c = order(entries_[index(i)].key, key);
      if (c == 0) return i;
      if (c > 0) break;
    }
    return -1;
  }
  std::array<entry, Cap> entries_{};
  std::uint8_t size_ = 0;
};

}  // namespace statecheck
