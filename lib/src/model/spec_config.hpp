// lib/src/model/spec_config.hpp - a spec and its configuration from text: the
// spec's name, its constants' name=value settings, a size such as 512M. The
// command line reads them from its flags; the trace tools (trace_walk) and
// the --set fuzzer from files and bytes, so they live in the engine, not in
// cli/ (which alone compiles CLI11).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/spec_entry.hpp"

namespace statecheck::detail {

/// The registered spec `name`, usable; config_error naming `statecheck list` otherwise.
const SpecEntry& find_spec(const std::string& name);
/// "512M", "2G", "1.5GiB" in bytes; config_error (naming `flag`) otherwise.
std::size_t parse_size(const std::string& text, const std::string& flag);
/// name=value pairs of --set; config_error for a malformed one.
std::vector<std::pair<std::string, std::string>> split_sets(const std::vector<std::string>& sets);
/// Constant values (defaults, then each name=value in order); `shown` receives
/// every constant's name and value text.
std::vector<int> constant_values(const SpecEntry& e, const std::vector<std::pair<std::string, std::string>>& sets,
                                 std::vector<std::pair<std::string, std::string>>& shown);

}  // namespace statecheck::detail
