#include "mapping_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <mutex>

namespace gpudiag::detail {
namespace {

// Slots are read by the signal handler, so they are plain lock-free atomics in static storage.
struct WatchedRegion {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<int64_t> vanished_at{-1};
};
constexpr int kSlots = 256;  // inputs whose chunks are in flight at once; more fall back to reading
WatchedRegion g_regions[kSlots];
std::mutex g_slots_mutex;  // taken only by watch/unwatch, never by the handler
struct sigaction g_previous;
std::once_flag g_installed;

void lower_to(std::atomic<int64_t>& flag, int64_t value) {
  int64_t seen = flag.load();
  while ((seen < 0 || value < seen) && !flag.compare_exchange_weak(seen, value)) {
  }
}

void on_sigbus(int signo, siginfo_t* info, void* context) {
  const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  for (auto& region : g_regions) {
    const uintptr_t begin = region.begin.load(std::memory_order_acquire);
    const uintptr_t end = region.end.load(std::memory_order_acquire);
    if (begin == 0 || addr < begin || addr >= end) continue;
    // Everything from the faulting page on is past the file's new end: zeros from here on.
    const uintptr_t from = addr & ~(page - 1);
    void* zeros =
        ::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0);
    if (zeros == MAP_FAILED) break;
    lower_to(region.vanished_at, static_cast<int64_t>(from - begin));
    return;  // the faulting access is retried and now reads zeros
  }
  // Not one of ours: behave as if this handler were not here.
  if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(signo, info, context);
    return;
  }
  if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(signo);
    return;
  }
  ::signal(SIGBUS, SIG_DFL);  // returning re-runs the access, which now takes the default action
}

void install_handler() {
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, &g_previous);
}

}  // namespace

bool MappingGuard::watch(const char* data, size_t size) {
  std::call_once(g_installed, install_handler);
  std::lock_guard lock(g_slots_mutex);
  for (int i = 0; i < kSlots; ++i) {
    if (g_regions[i].begin.load() != 0) continue;
    g_regions[i].vanished_at.store(-1);
    g_regions[i].end.store(reinterpret_cast<uintptr_t>(data) + size, std::memory_order_release);
    g_regions[i].begin.store(reinterpret_cast<uintptr_t>(data), std::memory_order_release);
    slot_ = i;
    return true;
  }
  return false;
}

void MappingGuard::unwatch() {
  if (slot_ < 0) return;
  std::lock_guard lock(g_slots_mutex);
  g_regions[slot_].begin.store(0, std::memory_order_release);
  g_regions[slot_].end.store(0, std::memory_order_release);
  slot_ = -1;
}

int64_t MappingGuard::vanished_at() const { return slot_ < 0 ? -1 : g_regions[slot_].vanished_at.load(); }

const std::atomic<int64_t>* MappingGuard::vanished_at_flag() const {
  return slot_ < 0 ? nullptr : &g_regions[slot_].vanished_at;
}

}  // namespace gpudiag::detail
