#pragma once
// Registers that SVD declares to be second descriptions of a place another
// register already describes: an <alternateRegister> (or a register of an
// <alternateGroup>), and every register of an <alternateCluster>, SVD 1.3's
// way to describe a peripheral's modes at the same offsets (Microchip's SAM
// SERCOM as USART, SPI, I2C master and slave).
// https://open-cmsis-pack.github.io/svd-spec/latest/elem_registers.html

#include "tools/convert/svd_model.hpp"

namespace regemu::convert {

// True when `a` and `b` may share a place: one is the other's
// alternateRegister, both are alternates of one register, or they lie in
// two clusters one of which is the other's alternateCluster (or both
// alternates of one cluster).
bool AreAlternatives(const SvdRegister& a, const SvdRegister& b);

// After the layout check: gives each register that shares its place the
// register it is an alias of in the database (`alternate_of`). Of a run of
// overlapping registers, the one spanning the run is the target of all the
// others (even of a register SVD does not call an alternative, as regemu
// names one target per register); without one, each alternative names one it
// overlaps. An alternateRegister that overlaps nothing (the copies of a dim
// array naming one register, nRF51's SIZERAMBLOCK[%s]) is dropped with a note.
void ResolveAlternates(SvdPeripheral& peripheral);

// A write-only field over read-only ones is the write layout of bits whose
// read layout those fields give (Arm's DHCSR: DBGKEY [31:16] written, the
// S_ status bits read, as Microchip's SAMD5x/E5x files describe it). regemu
// has one field per bit: the read-only fields stay, the write-only one goes
// with a note on the register. Any other overlap is left for the layout check.
void DropWriteLayoutOverReadFields(SvdRegister& reg);

}  // namespace regemu::convert
