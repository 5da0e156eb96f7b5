// A rule pattern's own RE2, compiled the first time a match needs it. Internal to engine.
//
// The built-in pack's patterns were proven when gpudiag was built (gpudiag-rulec), and the pack's
// RE2::Set answers for all of them in one pass; a pattern's own RE2 is needed only for the entries the
// set picked (captures, refiners, long texts). Compiling all of them at every start was a third of a
// small run (about 100 M instructions of 322 M for `analyze` of `[]`, bench/RESULTS-set-form.md).
// A user rule's pattern is compiled when read (its errors are reported then) and handed over.
//
//   LazyRegex re(pattern, pattern_options());   // nothing compiled yet
//   RE2::PartialMatch(text, *re);                // compiled here, once, whichever thread is first
#pragma once

#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace gpudiag::detail {

class LazyRegex {
 public:
  LazyRegex() = default;
  LazyRegex(std::string pattern, const RE2::Options& options)
      : state_(std::make_shared<State>(std::move(pattern), options)) {}
  explicit LazyRegex(std::shared_ptr<const RE2> compiled) : compiled_(std::move(compiled)) {}

  const RE2& operator*() const { return get(); }
  const RE2* operator->() const { return &get(); }

 private:
  struct State {
    State(std::string p, const RE2::Options& o) : pattern(std::move(p)), options(o) {}
    std::string pattern;
    RE2::Options options;
    std::once_flag once;
    std::unique_ptr<const RE2> re;
  };

  const RE2& get() const {
    if (compiled_) return *compiled_;
    std::call_once(state_->once, [&] { state_->re = std::make_unique<const RE2>(state_->pattern, state_->options); });
    return *state_->re;
  }

  std::shared_ptr<State> state_;
  std::shared_ptr<const RE2> compiled_;
};

// The names of a pattern's named groups (`(?P<name>…)`), read from its text without compiling it, in
// the order they open.
std::vector<std::string> named_groups(std::string_view pattern);

}  // namespace gpudiag::detail
