#include "interrupts.h"

#include <pthread.h>

#include <csignal>

namespace gpudiag::cli {
namespace {

std::atomic<int> caught{0};
pthread_t main_thread;

void on_signal(int signal) {
  // The reading thread is the main one: a signal delivered to a worker is passed to it, so that a
  // read blocked on a pipe (stdin) returns with EINTR and sees the flag.
  if (!pthread_equal(pthread_self(), main_thread)) {
    pthread_kill(main_thread, signal);
    return;
  }
  if (caught.exchange(signal) != 0) {  // the second one: no more waiting
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}

}  // namespace

void catch_interrupts() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  main_thread = pthread_self();
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR
  for (int signal : {SIGINT, SIGTERM}) {
    struct sigaction before {};
    sigaction(signal, nullptr, &before);
    // A signal ignored by whoever started gpudiag (nohup, a shell's background job) stays ignored.
    if (before.sa_handler == SIG_IGN) continue;
    sigaction(signal, &action, nullptr);
  }
}

const std::atomic<int>& interrupt_signal() { return caught; }

int take_interrupt() { return caught.exchange(0); }

int interrupted_exit_code() {
  const int signal = caught.load();
  return signal == 0 ? 0 : 128 + signal;
}

}  // namespace gpudiag::cli
