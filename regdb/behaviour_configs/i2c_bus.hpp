#pragma once
// `kind: i2c-bus`: an I2C bus a controller masters, and the targets that
// answer on it (yaml/README.md, "kind: i2c-bus"). The controller's command
// FIFO drains into the bus (a fifo route `to: [{bus: NAME}]`), one command
// entry per byte time; each entry is a byte to write or a request to read
// one, with STOP and RESTART bits, in positions the database names. The
// target address comes from an expression over the controller's registers,
// taken at each START. A target is a register-pointer memory (the AT24
// EEPROM and most sensors): after the address, a write's first bytes set
// the pointer, further bytes store at it, and reads return successive
// bytes. An address no target has is not acknowledged: the bus signals
// `NAME.nack`, which reactions turn into the controller's abort status and
// fifo `clear: [{event: NAME.nack}]` into flushed FIFOs.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/expression.hpp"

namespace regemu::regdb {

// A memory-shaped target at one 7-bit address.
struct I2cTarget {
  std::string name;
  uint8_t address = 0;
  uint32_t size = 0;                  // bytes of memory; the pointer wraps at the end
  unsigned pointer_bytes = 1;         // word-address bytes a write starts with (big-endian)
  uint32_t page = 0;                  // writes wrap inside a page of this many bytes; 0: no pages
  std::vector<uint8_t> contents;      // the first bytes at power-on; the rest read 0xFF (erased)
};

struct I2cBusConfig : BehaviourConfig {
  // Where a command entry keeps its parts (masks in entry position).
  FieldBits data;     // the byte to write
  FieldBits read;     // 1: read a byte instead
  FieldBits stop;     // 1: STOP after this byte
  FieldBits restart;  // 1: a repeated START before this byte (mask 0: none)
  Expression address;                // the 7-bit target address, evaluated at each START
  std::string receive;               // the fifo read bytes go to
  std::vector<RegisterBits> active;  // fields kept at 1 while a transfer holds the bus
  // The master runs only while this holds (the controller enabled): when it
  // stops holding, an open transfer ends with a STOP and later commands are
  // dropped. None: always.
  std::optional<Expression> enabled;
  std::vector<I2cTarget> targets;
  std::string ref;
};

}  // namespace regemu::regdb
