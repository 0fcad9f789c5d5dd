#pragma once
// Notes for an access trace of the example driver, in the words a driver
// developer uses: which force-wake domain an access falls in (from the
// force-wake behaviour's own description of its domains, so the demo can
// never disagree with the device), what a Gen11 interrupt register access
// means in the service flow, what a configuration-space access does in a
// BAR sizing or capability walk, and which MCHBAR register a mirror read
// reaches.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/emulator/trace.hpp"

namespace regemu::demo {

class Annotator {
 public:
  explicit Annotator(const emulator::Model& model);

  // The note for one access ("" when there is nothing to say). Stateful:
  // it follows BAR sizing and the capability chains as they are read.
  std::string Note(const emulator::TraceEntry& entry);

  // The register an access reaches, also through an alias window
  // ("MCHBAR_MIRROR > RP_STATE_CAP"); "" when nothing decodes there.
  std::string Where(const emulator::TraceEntry& entry) const;

 private:
  struct Domain {
    std::string name;
    emulator::SpaceId space = 0;
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
  };

  std::string Name(const emulator::TraceEntry& entry) const;
  std::string ForcewakeNote(const emulator::TraceEntry& entry) const;
  std::string InterruptNote(const std::string& reg, const emulator::TraceEntry& entry) const;
  std::string ConfigNote(const emulator::TraceEntry& entry);
  std::string WindowNote(const emulator::TraceEntry& entry) const;
  // The alias window the access went through, if any.
  const emulator::RangeModel* Window(const emulator::TraceEntry& entry) const;
  // Non-zero fields of `reg` in `value`: "MSE BME INTDIS" or "RP0_CAP=0x16 ...".
  std::string Fields(emulator::RegisterId reg, uint64_t value) const;
  std::string DomainAt(const emulator::TraceEntry& entry) const;

  const emulator::Model& model_;
  std::map<emulator::RegisterId, std::string> requests_;  // force-wake request register -> domain
  std::map<emulator::RegisterId, std::string> acks_;
  std::vector<Domain> domains_;
  // Configuration-space walks in progress.
  std::map<uint64_t, int> bar_state_;  // BAR dword -> 1 after the all-ones write
  uint64_t next_cap_ = 0;              // position the capability chain points at next
  uint64_t next_ext_cap_ = 0x100;
};

}  // namespace regemu::demo
