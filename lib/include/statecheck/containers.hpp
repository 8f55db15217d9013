// statecheck/containers.hpp - fixed-capacity containers for compact states.
//
// States are copied for every successor, so they hold no heap memory. These two
// containers cover what std::vector and std::set would otherwise do in a spec:
//   bounded_vec<T, Cap>  a sequence (log, FIFO, multiset kept sorted) of at most Cap items
//   id_set<N>            a set of small ids 0..N-1 (members, acks, replicas)
// Both keep unused storage zeroed, so equal values have equal bytes.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <type_traits>

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

  static constexpr std::size_t capacity() { return Cap; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr bool full() const { return size_ == Cap; }

  constexpr T& operator[](std::size_t i) { return items_[i]; }
  constexpr const T& operator[](std::size_t i) const { return items_[i]; }
  constexpr T& at(std::size_t i) { return items_[check_index(i)]; }
  constexpr const T& at(std::size_t i) const { return items_[check_index(i)]; }
  constexpr T& front() { return at(0); }
  constexpr const T& front() const { return at(0); }
  constexpr T& back() { return at(size_ - 1); }
  constexpr const T& back() const { return at(size_ - 1); }

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
  constexpr void pop_front() { erase(0); }
  constexpr void clear() {
    items_ = {};
    size_ = 0;
  }
  /// Inserts keeping ascending order: a canonical multiset (needs operator<).
  constexpr void insert_sorted(const T& item) {
    push_back(item);
    std::size_t i = size_ - 1;
    while (i > 0 && item < items_[i - 1]) {
      items_[i] = items_[i - 1];
      --i;
    }
    items_[i] = item;
  }
  constexpr bool contains(const T& item) const {
    return std::find(begin(), end(), item) != end();
  }

  friend constexpr bool operator==(const bounded_vec& a, const bounded_vec& b) {
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

/// A set of ids 0..N-1 (N <= 64) stored as a bit mask; prints as {0, 2}.
template <std::size_t N>
class id_set {
  static_assert(N > 0 && N <= 64, "statecheck::id_set: N must be 1..64");
  using word = std::conditional_t<(N <= 8), std::uint8_t,
               std::conditional_t<(N <= 16), std::uint16_t,
               std::conditional_t<(N <= 32), std::uint32_t, std::uint64_t>>>;

 public:
  constexpr id_set() = default;
  constexpr id_set(std::initializer_list<int> ids) {
    for (int id : ids) insert(id);
  }
  static constexpr std::size_t universe() { return N; }

  constexpr bool contains(int id) const { return (bits_ >> check(id)) & 1u; }
  constexpr void insert(int id) { bits_ = static_cast<word>(bits_ | bit(id)); }
  constexpr void erase(int id) { bits_ = static_cast<word>(bits_ & ~bit(id)); }
  constexpr void clear() { bits_ = 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr std::uint64_t mask() const { return bits_; }

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
  static constexpr int check(int id) {
    if (id < 0 || id >= static_cast<int>(N)) throw std::out_of_range("statecheck::id_set: id out of range");
    return id;
  }
  static constexpr word bit(int id) { return static_cast<word>(word{1} << check(id)); }
  word bits_ = 0;
};

}  // namespace statecheck
