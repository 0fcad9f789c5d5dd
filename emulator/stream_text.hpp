#pragma once
// Stream entries as tests write and read them: numbers (0x41, 65) and
// "text" tokens (a token in double quotes, with \n, \r, \t, \s for a space
// and \\ escapes, since script words hold no blanks). Shared by `inject` of
// a FIFO's input stream and the `expect-output` script command.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"

namespace regemu::emulator {

// Appends each entry of `words` to `out`; false (with `error` saying which
// word and why) for a word that is neither, or a number past `width` bits.
bool ParseStreamEntries(std::span<const std::string> words, unsigned width, std::vector<uint64_t>& out,
                        std::string& error);

// "'h' 'i' 0x0a" with each entry's time: what a failure message shows.
std::string DescribeStreamEntries(std::span<const StreamEntry> entries, size_t limit = 16);

}  // namespace regemu::emulator
