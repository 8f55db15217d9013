// statecheck/containers.hpp - fixed-capacity containers for compact states.
//
// States are copied for every successor, so they hold no heap memory. These
// containers cover what std::vector, std::set and std::map would otherwise do in a spec:
//   bounded_vec<T, Cap>       a sequence (log, FIFO, multiset kept sorted) of at most Cap items
//   id_set<N>, id_set<N, Tag> a set of small ids 0..N-1 (members, acks, replicas); with a
//                             tag (statecheck/ids.hpp) its members are named ids (s1, s2)
//   bounded_set<T, Cap>       a set of any state values, records included (bounded_set.hpp)
//   bounded_map<K, V, Cap>    a finite map (bounded_set.hpp)
//   id_array<Tag, T, N>       one T per named id of a kind, indexed only by id<Tag>; what
//                             symmetry reduction renames slot by slot (statecheck/symmetry.hpp);
//                             N is its capacity, init says how many ids are in use
// All keep unused storage zeroed, so equal values have equal bytes. Sizes are
// int, like parameters, and any integer or named id indexes a bounded_vec.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "statecheck/bounded_set.hpp"
#include "statecheck/ids.hpp"
#include "statecheck/mistakes.hpp"

namespace statecheck {

/// A sequence of at most `Cap` elements stored inline. Exceeding the capacity
/// throws std::length_error (reported by the checker as a spec error with its trace).
template <class T, std::size_t Cap>
class bounded_vec {
  static_assert(Cap > 0 && Cap < 256, "statecheck::bounded_vec: capacity must be 1..255");
  static_assert(std::is_trivially_copyable_v<T>,
                "statecheck::bounded_vec: elements must be trivially copyable");

 public:
  using value_type = T;
  constexpr bounded_vec() = default;
  constexpr bounded_vec(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }

  static constexpr int capacity() { return static_cast<int>(Cap); }
  constexpr int size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr bool full() const { return size_ == Cap; }

  /// Unchecked element access by size_t or a named id (at() checks).
  constexpr T& operator[](std::size_t i) { return items_[i]; }
  constexpr const T& operator[](std::size_t i) const { return items_[i]; }
  /// Any other integer indexes without a cast (int parameters, loop counters).
  template <std::integral I>
  constexpr T& operator[](I i) { return items_[static_cast<std::size_t>(i)]; }
  template <std::integral I>
  constexpr const T& operator[](I i) const { return items_[static_cast<std::size_t>(i)]; }
  constexpr T& at(std::size_t i) { return items_[check_index(i)]; }
  constexpr const T& at(std::size_t i) const { return items_[check_index(i)]; }
  constexpr T& front() { return at(0); }
  constexpr const T& front() const { return at(0); }
  constexpr T& back() { return at(size_ - 1u); }
  constexpr const T& back() const { return at(size_ - 1u); }

  constexpr T* begin() { return items_.data(); }
  constexpr T* end() { return items_.data() + size_; }
  constexpr const T* begin() const { return items_.data(); }
  constexpr const T* end() const { return items_.data() + size_; }

  constexpr void push_back(const T& item) {
    if (size_ == Cap) throw std::length_error("statecheck::bounded_vec: push_back beyond capacity");
    items_[size_++] = item;
  }
  constexpr void pop_back() {
    if (size_ == 0) throw std::out_of_range("statecheck::bounded_vec: pop_back on empty");
    items_[--size_] = T{};
  }
  /// Removes element i, keeping the order of the rest (FIFO pop is erase(0)).
  constexpr void erase(std::size_t i) {
    check_index(i);
    for (std::size_t k = i; k + 1 < size_; ++k) items_[k] = items_[k + 1];
    items_[--size_] = T{};
  }
  template <std::integral I>
  constexpr void erase(I i) {
    if (i < 0) throw std::out_of_range("statecheck::bounded_vec: index out of range");
    erase(static_cast<std::size_t>(i));
  }
  constexpr void pop_front() { erase(0); }
  constexpr void clear() {
    items_ = {};
    size_ = 0;
  }
  /// Inserts keeping ascending order: a canonical multiset (needs operator<).
  constexpr void insert_sorted(const T& item) {
    push_back(item);
    std::size_t i = size_ - 1u;
    while (i > 0 && item < items_[i - 1]) {
      items_[i] = items_[i - 1];
      --i;
    }
    items_[i] = item;
  }
  constexpr bool contains(const T& item) const {
    return std::find(begin(), end(), item) != end();
  }

  // Constrained, so that a struct without == makes the state's defaulted ==
  // deleted (and spec() says so) rather than failing in here.
  friend constexpr bool operator==(const bounded_vec& a, const bounded_vec& b)
    requires std::equality_comparable<T>
  {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  constexpr std::size_t check_index(std::size_t i) const {
    if (i >= size_) throw std::out_of_range("statecheck::bounded_vec: index out of range");
    return i;
  }
  std::array<T, Cap> items_{};
  std::uint8_t size_ = 0;
};

/// A set of ids 0..N-1 (N <= 64) stored as a bit mask; prints as {0, 2}, or
/// with a tag (`id_set<5, Scm>`) holds named ids and prints as {s1, s3}.
template <std::size_t N, class Tag = void>
class id_set {
  static_assert(N > 0 && N <= 64, "statecheck::id_set: N must be 1..64");
  using word = std::conditional_t<(N <= 8), std::uint8_t,
               std::conditional_t<(N <= 16), std::uint16_t,
               std::conditional_t<(N <= 32), std::uint32_t, std::uint64_t>>>;

 public:
  using tag = Tag;  // void for an untagged set
  /// The member type: int, or id<Tag> for a tagged set.
  using element = std::conditional_t<std::is_void_v<Tag>, int, id<Tag>>;
  constexpr id_set() = default;
  constexpr id_set(std::initializer_list<element> ids) {
    for (element id : ids) insert(id);
  }
  static constexpr int universe() { return static_cast<int>(N); }

  constexpr bool contains(element id) const { return (bits_ >> check(id)) & 1u; }
  constexpr void insert(element id) { bits_ = static_cast<word>(bits_ | bit(id)); }
  constexpr void erase(element id) { bits_ = static_cast<word>(bits_ & ~bit(id)); }
  constexpr void clear() { bits_ = 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr std::uint64_t mask() const { return bits_; }
  /// Calls f(member) for every member, in ascending order.
  template <class F>
  constexpr void for_each(F&& f) const {
    for (int i = 0; i < static_cast<int>(N); ++i)
      if ((bits_ >> i) & 1u) f(element(i));
  }

  constexpr bool subset_of(id_set other) const { return (bits_ & ~other.bits_) == 0; }
  friend constexpr id_set operator|(id_set a, id_set b) { return from_bits(a.bits_ | b.bits_); }
  friend constexpr id_set operator&(id_set a, id_set b) { return from_bits(a.bits_ & b.bits_); }
  /// Set difference.
  friend constexpr id_set operator-(id_set a, id_set b) { return from_bits(a.bits_ & ~b.bits_); }
  friend constexpr bool operator==(id_set, id_set) = default;

 private:
  static constexpr id_set from_bits(std::uint64_t bits) {
    id_set s;
    s.bits_ = static_cast<word>(bits);
    return s;
  }
  static constexpr int check(element e) {
    int id = 0;
    if constexpr (std::is_void_v<Tag>) id = e;
    else id = e.index();
    if (id < 0 || id >= static_cast<int>(N)) throw std::out_of_range("statecheck::id_set: id out of range");
    return id;
  }
  static constexpr word bit(element id) { return static_cast<word>(word{1} << check(id)); }
  word bits_ = 0;
};

namespace detail {
/// One byte padded with explicit zeros to an alignment (Pad = alignment - 1),
/// so that the type holding it has no padding bytes (states are hashed as raw
/// bytes when they have none): an id_array's count of ids in use, a one_of's index.
template <std::size_t Pad>
struct padded_byte {
  std::uint8_t value;
  std::array<std::uint8_t, Pad> zeros{};
  friend constexpr bool operator==(const padded_byte&, const padded_byte&) = default;
};
template <>
struct padded_byte<0> {
  std::uint8_t value;
  friend constexpr bool operator==(const padded_byte&, const padded_byte&) = default;
};
/// "d1..d4": the names of ids 0..n-1 of a kind.
template <class Tag>
std::string id_range(int n) {
  return n <= 1 ? id<Tag>(0).name() : id<Tag>(0).name() + ".." + id<Tag>(n - 1).name();
}
}  // namespace detail

/// One T per id of kind Tag, indexed only by id<Tag>: `s.role[scm]`.
/// Unlike a std::array, it says that its positions are the ids, so symmetry
/// reduction moves its slots when it renames ids; it prints as a record keyed
/// by id name, {s1: leader, s2: follower}.
///
/// N is the capacity; the ids in use are the first size() of them (all N
/// unless init says otherwise with resize(n) or statecheck::use_ids<Tag>(s, n),
/// statecheck/id_arrays.hpp). Only the ids in use are iterated, printed,
/// hashed and renamed, and indexing another is a spec error: a configuration
/// with 4 datanodes in an array of 8 has no phantom d5..d8.
template <class Tag, class T, std::size_t N>
class id_array {
  static_assert(N > 0 && N <= id<Tag>::max_count, "statecheck::id_array: N must be 1..255");
  static_assert(std::is_trivially_copyable_v<T>, "statecheck::id_array: elements must be trivially copyable");

 public:
  using tag = Tag;
  using value_type = T;
  /// How many ids are in use (d1..d<size()>).
  constexpr int size() const { return used_.value; }
  /// How many ids the array can hold.
  static constexpr int capacity() { return static_cast<int>(N); }
  /// Uses the first n ids (1..N); the slots left out return to T{}.
  constexpr void resize(int n) {
    if (n < 1 || n > capacity())
      throw std::length_error("statecheck::id_array of " + std::string(Tag::prefix) + " ids: resize(" + std::to_string(n) +
                              ") is outside 1.." + std::to_string(N) + "; use at most its capacity " + std::to_string(N) +
                              " ids, or declare it larger");
    for (std::size_t i = static_cast<std::size_t>(n); i < N; ++i) items_[i] = T{};
    used_.value = static_cast<std::uint8_t>(n);
  }
  constexpr T& operator[](id<Tag> i) { return items_[check(i)]; }
  constexpr const T& operator[](id<Tag> i) const { return items_[check(i)]; }
  /// Any other index (an int, another kind's id) is a mistake named at the
  /// user's line (statecheck/mistakes.hpp): declared, never defined.
  template <class Other>
    requires(!std::is_same_v<std::remove_cvref_t<Other>, id<Tag>>)
  mistake::id_array_is_indexed_by_its_own_kind_of_id operator[](const Other&) const;
  /// Sets every slot in use to `value` (init: `s.role.fill(Role::follower)`).
  constexpr void fill(const T& value) { std::fill(begin(), end(), value); }
  constexpr T* begin() { return items_.data(); }
  constexpr T* end() { return items_.data() + used_.value; }
  constexpr const T* begin() const { return items_.data(); }
  constexpr const T* end() const { return items_.data() + used_.value; }
  friend constexpr bool operator==(const id_array&, const id_array&) = default;

 private:
  std::size_t check(id<Tag> i) const {
    const auto slot = static_cast<std::size_t>(i.index());
    if (slot >= used_.value || slot >= N) throw std::out_of_range(not_in_use(i));
    return slot;
  }
  std::string not_in_use(id<Tag> i) const {
    return "statecheck::id_array of " + std::string(Tag::prefix) + " ids: " + i.name() + " is not in use (" +
           std::to_string(size()) + " of " + std::to_string(N) + ": " + detail::id_range<Tag>(size()) +
           "); index only the ids in use, or resize(n) the array in init";
  }
  detail::padded_byte<alignof(T) - 1> used_{static_cast<std::uint8_t>(N)};
  std::array<T, N> items_{};
};

template <class T>
struct is_id_array : std::false_type {};
template <class Tag, class T, std::size_t N>
struct is_id_array<id_array<Tag, T, N>> : std::true_type {};

}  // namespace statecheck
