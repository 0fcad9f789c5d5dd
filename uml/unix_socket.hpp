#pragma once
// Unix stream sockets as the kernel's side expects them: a listening
// socket at a path (the kernel connects at boot, so it must exist first),
// and whole reads and writes that survive EINTR and short transfers.

#include <cstddef>
#include <string>

namespace regemu::uml {

// Listens at `path`, removing a stale socket there first; throws
// std::runtime_error naming the path and the reason.
int ListenUnix(const std::string& path);

enum class ReadResult { kOk, kClosed, kError };
// Reads exactly `size` bytes; kClosed when the peer closed before the
// first byte, kError on a failure or a close part-way (errno 0 then).
ReadResult ReadAll(int fd, void* data, size_t size);
bool WriteAll(int fd, const void* data, size_t size);

}  // namespace regemu::uml
