// OrderedPool: worker threads that take tasks in the order they are submitted and hand their
// results back in that same order, with a bound on the tasks in flight (that bounds memory). The
// record stream's one pool. Internal to ingest.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace gpudiag::detail {

template <typename Task, typename Done>
class OrderedPool {
 public:
  using Work = std::function<Done(Task&&)>;

  // `make_work` runs once on each worker thread and returns what turns a task into its result
  // there. With one thread or fewer the work runs on the calling thread, inside submit().
  OrderedPool(unsigned threads, const std::function<Work()>& make_work) : max_in_flight_(threads * 2) {
    if (threads <= 1) {
      inline_work_ = make_work();
      return;
    }
    for (unsigned i = 0; i < threads; ++i) {
      threads_.emplace_back([this, make_work] { run(make_work()); });
    }
  }
  // Tasks not yet started are dropped (this is how an exception from a merge ends the run).
  ~OrderedPool() {
    {
      std::lock_guard lock(mutex_);
      closing_ = true;
      tasks_.clear();
    }
    task_cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;

  // Queues a task; first hands every finished result that is next in order to `merge`, and waits
  // while too many tasks are in flight.
  template <typename Merge>
  void submit(Task task, Merge&& merge) {
    if (inline_work_) {
      merge(inline_work_(std::move(task)));
      return;
    }
    std::unique_lock lock(mutex_);
    for (;;) {
      drain_ready(lock, merge);
      if (submitted_ - merged_ < max_in_flight_) break;
      done_cv_.wait(lock, [&] { return done_.count(merged_) > 0; });
    }
    tasks_.emplace_back(submitted_++, std::move(task));
    lock.unlock();
    task_cv_.notify_one();
  }

  // Hands the remaining results to `merge`, in order.
  template <typename Merge>
  void finish(Merge&& merge) {
    std::unique_lock lock(mutex_);
    while (merged_ < submitted_) {
      done_cv_.wait(lock, [&] { return done_.count(merged_) > 0; });
      drain_ready(lock, merge);
    }
  }

 private:
  void run(Work work) {
    for (;;) {
      std::pair<uint64_t, Task> task;
      {
        std::unique_lock lock(mutex_);
        task_cv_.wait(lock, [&] { return closing_ || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      Done result = work(std::move(task.second));
      {
        std::lock_guard lock(mutex_);
        done_.emplace(task.first, std::move(result));
      }
      done_cv_.notify_all();
    }
  }

  template <typename Merge>
  void drain_ready(std::unique_lock<std::mutex>& lock, Merge& merge) {
    for (auto it = done_.find(merged_); it != done_.end(); it = done_.find(merged_)) {
      Done result = std::move(it->second);
      done_.erase(it);
      ++merged_;
      lock.unlock();
      merge(std::move(result));
      lock.lock();
    }
  }

  size_t max_in_flight_;
  Work inline_work_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable task_cv_, done_cv_;
  std::deque<std::pair<uint64_t, Task>> tasks_;
  std::map<uint64_t, Done> done_;
  uint64_t submitted_ = 0;
  uint64_t merged_ = 0;
  bool closing_ = false;
};

}  // namespace gpudiag::detail
