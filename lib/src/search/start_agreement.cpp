// What a search was started with, as the processes of one check compare it
// before they search together (exchange.hpp: agree_on_start). Only what changes
// the search or the collective calls it makes: --threads, --memory, --workdir,
// the output options and the directories' paths may differ between machines.
#include <link.h>
#include <sys/stat.h>

#include <cstring>

#include "search/distribution.hpp"

namespace statecheck::detail {

namespace {

/// The GNU build id of the program (the first object dl_iterate_phdr lists), as hex; "" when it has none.
int build_id_of_program(dl_phdr_info* info, std::size_t, void* out) {
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[i];
    if (segment.p_type != PT_NOTE) continue;
    const char* at = reinterpret_cast<const char*>(info->dlpi_addr + segment.p_vaddr);
    const char* end = at + segment.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const char* name = at + sizeof note;
      const auto* desc = reinterpret_cast<const unsigned char*>(name + ((note.n_namesz + 3) & ~3u));
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        auto& hex = *static_cast<std::string*>(out);
        for (std::size_t b = 0; b < note.n_descsz; ++b) {
          hex += "0123456789abcdef"[desc[b] >> 4];
          hex += "0123456789abcdef"[desc[b] & 15];
        }
        return 1;
      }
      at = reinterpret_cast<const char*>(desc) + ((note.n_descsz + 3) & ~3u);
    }
  }
  return 1;  // the program only, not its shared libraries
}

/// Which binary this is: its build id, else its size (a copy of the same file on each machine has both).
std::string binary_identity() {
  std::string id;
  dl_iterate_phdr(build_id_of_program, &id);
  if (!id.empty()) return "the binary with build id " + id.substr(0, 16);
  struct stat st {};
  if (stat("/proc/self/exe", &st) != 0) return "a binary of unknown size";
  return "a binary of " + std::to_string(st.st_size) + " bytes";
}

/// `flag value` for each value, as parts of one item (agree_on_start names only the parts that differ).
std::string flags(const std::string& flag, const std::vector<std::string>& values, const std::string& none) {
  std::string s;
  for (const std::string& v : values) s += (s.empty() ? "" : std::string(1, start_item_part)) + flag + " " + v;
  return s.empty() ? none : s;
}

}  // namespace

std::vector<std::string> Distribution::started_with() const {
  std::vector<std::string> constants, invariants;
  for (const auto& [name, value] : d_.options.checkpoint.constants) constants.push_back(name + "=" + value);
  for (std::size_t i = 0; i < d_.ops.invariant_names.size(); ++i)
    if ((d_.invariant_mask >> i) & 1u) invariants.push_back(d_.ops.invariant_names[i]);
  if (invariants.size() == d_.ops.invariant_names.size()) invariants.clear();  // every one: with or without --invariant
  const std::string self_check = d_.options.self_check_states == CheckOptions::self_check_all ? "all" : std::to_string(d_.options.self_check_states);
  const CheckpointOptions& c = d_.options.checkpoint;
  return {"spec " + d_.ops.name,
          flags("--set", constants, "no constants"),
          flags("--invariant", invariants, "every invariant"),
          d_.options.check_deadlock ? "deadlock checked" : "--no-deadlock",
          d_.options.max_depth == 0 ? "no --max-depth" : "--max-depth " + std::to_string(d_.options.max_depth),
          d_.options.exact ? "--exact" : "no --exact",
          d_.options.symmetry ? "symmetry" : "--no-symmetry",
          "--self-check " + self_check,
          // Saved at the same boundaries: whether a save can be due matters, not when (the first process's clock decides).
          c.dir.empty() ? "no --checkpoint" : c.every_minutes > 0 ? "--checkpoint with --checkpoint-every" : "--checkpoint",
          c.resume.empty() ? "no --resume" : "--resume",
          "stop after level " + std::to_string(d_.options.stop_after_level),
          binary_identity()};
}

void Distribution::agree_with_processes() {
  const std::string line = agree_on_start(*net_, {started_with(), false, ""});
  if (!line.empty()) throw config_error(line);
}

}  // namespace statecheck::detail
