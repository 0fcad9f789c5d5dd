#pragma once
// A CMSIS-SVD device after every `derivedFrom`, `dim` and inherited
// property is resolved: concrete peripherals, registers and fields with
// their regemu access policy. The reader (svd_reader) builds it from XML,
// the YAML writer (svd_yaml_writer) turns it into a database. Anything the
// mapping could not say exactly travels as `notes`, which the writer puts
// in the output as comments.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/access.hpp"
#include "regemu/regdb/source.hpp"

namespace regemu::convert {

struct SvdEnumValue {
  std::string name;
  uint64_t value = 0;
  std::string doc;
};

struct SvdField {
  std::string name;
  unsigned lsb = 0;
  unsigned msb = 0;
  regdb::Access access = regdb::Access::kRw;
  bool is_volatile = false;
  std::vector<SvdEnumValue> values;
  std::string doc;
  std::vector<std::string> notes;  // what regemu's vocabulary cannot say exactly
  regdb::SourceLoc loc;
};

// A cluster a register lies in, outermost first. SVD 1.3's <alternateCluster>
// makes a cluster a second description of another one's addresses (SAM's
// SERCOM as USART, SPI or I2C): https://open-cmsis-pack.github.io/svd-spec/latest/elem_registers.html
struct SvdClusterScope {
  std::string path;          // "SERCOM_I2CS": the enclosing clusters' names and its own
  std::string alternate_of;  // the path of the cluster it is an alternative of; "" when none
};

struct SvdRegister {
  std::string name;     // inside its peripheral: clusters and dim already folded into it
  uint64_t offset = 0;  // from the peripheral's base
  unsigned width = 32;
  uint64_t reset = 0;
  // Bits of `reset` that SVD's resetMask leaves undefined (regemu starts them at 0).
  uint64_t reset_undefined = 0;
  // The policy of a register without fields (then the whole register).
  regdb::Access access = regdb::Access::kRw;
  bool is_volatile = false;
  std::string alternate_of;  // <alternateRegister>: a second view of another register's place
  std::string alternate_group;  // <alternateGroup>: one of a group of registers at other registers' places
  std::vector<SvdClusterScope> clusters;  // outermost first; empty outside any cluster
  std::vector<SvdField> fields;
  std::string doc;
  std::vector<std::string> notes;
  regdb::SourceLoc loc;
};

struct SvdReservedBlock {
  uint64_t offset = 0;  // from the peripheral's base
  uint64_t size = 0;
  regdb::SourceLoc loc;
};

struct SvdInterrupt {
  std::string name;
  uint64_t value = 0;
  std::string doc;
};

struct SvdPeripheral {
  std::string name;
  uint64_t base = 0;
  std::string doc;
  // `derivedFrom` a peripheral without registers of its own: the same
  // registers at another base (a block instance in the database).
  std::string instance_of;
  // <prependToName> given: registers are named prefix + name, at absolute
  // offsets, outside any block (an empty prefix keeps the names as they are:
  // what `regemu convert --to svd` writes for registers not in a block).
  std::optional<std::string> prefix;
  std::string suffix;  // <appendToName>
  // <alternatePeripheral>: its addresses overlap another peripheral's; it
  // gets a space of its own, as regemu decodes one register per place.
  std::string alternate_of;
  std::vector<SvdRegister> registers;
  std::vector<SvdReservedBlock> reserved;
  std::vector<SvdInterrupt> interrupts;
  std::vector<std::string> notes;
  regdb::SourceLoc loc;
};

struct SvdDevice {
  std::string name;
  std::string doc;
  unsigned address_bits = 32;  // the bus: 2^address_bits bytes
  std::vector<SvdPeripheral> peripherals;
  std::vector<std::string> notes;

  size_t RegisterCount() const;
  size_t FieldCount() const;
};

}  // namespace regemu::convert
