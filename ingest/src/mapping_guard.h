// A mapped input that shrinks while it is read (an export rewritten with `>` while a CI step reads
// it) would kill the process with SIGBUS on the first access past its new end. MappingGuard makes
// that a reportable event instead: a process-wide SIGBUS handler maps zero-filled pages over the
// vanished part of a registered mapping, so the access reads zeros, and records the first offset
// that vanished. The reader then reports "the input changed while it was read" with that offset.
//
// Faults outside every registered mapping go to the previous handler (or the default action), so a
// genuine bug still crashes as it should. Internal to ingest.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gpudiag::detail {

class MappingGuard {
 public:
  // Watches [data, data + size) (size in whole pages). False when no slot is free (then the caller
  // reads the file instead of mapping it).
  bool watch(const char* data, size_t size);
  // Stops watching; call before the mapping is unmapped.
  void unwatch();
  ~MappingGuard() { unwatch(); }

  // The first offset whose page vanished, or -1 while the mapping is intact.
  int64_t vanished_at() const;
  // The same, shared with whoever holds a chunk of the mapping.
  const std::atomic<int64_t>* vanished_at_flag() const;

 private:
  int slot_ = -1;
};

}  // namespace gpudiag::detail
