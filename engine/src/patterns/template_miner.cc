// TemplateMiner: Drain (He, Zhu, Zheng, Lyu: "Drain: An Online Log Parsing Approach with Fixed Depth
// Tree", ICWS 2017) over masked messages. The tree's first level is the token count, the next
// MinerLimits::prefix_tokens levels the first tokens (a token with a variable, or past kMaxChildren siblings,
// goes under <*>), and each leaf lists its groups. A message joins the leaf's most similar group if
// at least `similarity` of the tokens are equal, and the group's differing tokens become <*>.
//
// Every token of a group is a string_view into an arena that holds each group's first message once;
// <*> points to a constant. A line costs one pass to mask, one to split, two hash look-ups and the
// comparison with the leaf's groups: no allocation once its group exists.
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpudiag/patterns.h"
#include "gpudiag/stable_hash.h"
#include "token_masks.h"

namespace gpudiag {
namespace {

constexpr size_t kMaxChildren = 100;
constexpr std::string_view kVar = "<*>";
constexpr size_t kNoGroup = std::numeric_limits<size_t>::max();
// Estimated bytes of the bookkeeping (hash nodes, vectors), so max_bytes bounds the real footprint.
constexpr size_t kNodeBytes = 96;
constexpr size_t kChildBytes = 48;
constexpr size_t kGroupBytes = 64;

bool is_var(std::string_view token) { return token == kVar; }

bool holds_variable(std::string_view token) {
  if (token.find(kVar) != std::string_view::npos) return true;
  return std::any_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Bytes that live as long as the miner; views into it stay valid (blocks never move). The bytes
// counted against the miner's limit are those of kBlock blocks, however the text is laid out:
// blocks start at kFirstBlock and double, since most jobs' miners hold a few templates and a job
// held at once should not cost a 64 KiB block for them (docs/performance.md, "Memory caps").
class Arena {
 public:
  std::string_view copy(std::string_view text) {
    if (text.size() > counted_left_) {  // what the limit counts: kBlock blocks, as if laid out in them
      const size_t size = std::max(kBlock, text.size());
      counted_left_ = size;
      bytes_ += size;
    }
    counted_left_ -= text.size();
    if (text.size() > left_) {
      const size_t size = std::max(std::min(next_block_, kBlock), text.size());
      next_block_ = std::min(next_block_ * 2, kBlock);  // doubling without a ceiling wraps to 0
      blocks_.push_back(std::make_unique<char[]>(size));
      next_ = blocks_.back().get();
      left_ = size;
    }
    if (!text.empty()) std::memcpy(next_, text.data(), text.size());
    std::string_view copied(next_, text.size());
    next_ += text.size();
    left_ -= text.size();
    return copied;
  }
  size_t bytes() const { return bytes_; }

 private:
  static constexpr size_t kBlock = 64 * 1024;
  static constexpr size_t kFirstBlock = 2 * 1024;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  size_t left_ = 0;
  size_t next_block_ = kFirstBlock;
  size_t counted_left_ = 0;
  size_t bytes_ = 0;
};

struct Group {
  std::vector<std::string_view> tokens;
  uint64_t count = 0;
};

// Where a merged token may keep a common prefix (ending with one of these) or suffix (starting with
// one): "rhost=1.2.3.4" and "rhost=host.example" give "rhost=<*>", "(uid=0)" and "(uid=<*>)" stay.
bool prefix_end(char c) { return std::string_view("=:,;([{/@|\"'").find(c) != std::string_view::npos; }
bool suffix_start(char c) { return std::string_view("=:,;()[]{}/@|\"'").find(c) != std::string_view::npos; }

// A template token that holds <*> (but is not just <*>) matches a message token that has its
// literal text in order around the variables: "<*>:<*>" matches "10:02" but not "<1".
bool glob_matches(std::string_view pattern, std::string_view token) {
  const size_t first = pattern.find(kVar);
  if (first == std::string_view::npos || pattern == kVar) return false;
  const size_t last = pattern.rfind(kVar);
  const std::string_view head = pattern.substr(0, first);
  const std::string_view tail = pattern.substr(last + kVar.size());
  if (token.size() < head.size() + tail.size() || token.substr(0, head.size()) != head ||
      token.substr(token.size() - tail.size()) != tail)
    return false;
  // The literal pieces between the first and the last variable, each after the one before.
  std::string_view middle = token.substr(head.size(), token.size() - head.size() - tail.size());
  size_t at = first + kVar.size();
  while (at < last) {
    const size_t next = pattern.find(kVar, at);
    const std::string_view piece = pattern.substr(at, next - at);
    const size_t found = middle.find(piece);
    if (found == std::string_view::npos) return false;
    middle.remove_prefix(found + piece.size());
    at = next + kVar.size();
  }
  return true;
}

struct Node {
  std::unordered_map<std::string_view, uint32_t> children;  // token → node index
  std::vector<uint32_t> groups;                             // at the leaves
};

}  // namespace

struct TemplateMiner::Impl {
  MinerLimits limits;
  Arena arena;
  std::vector<Group> groups;
  std::vector<Node> nodes;                         // nodes[0] is the root
  std::unordered_map<size_t, uint32_t> by_length;  // token count → node index
  size_t overflow = kNoGroup;
  size_t bookkeeping_bytes = 0;
  std::string masked;                    // reused for every line
  std::vector<std::string_view> tokens;  // reused for every line
  std::string scratch;                   // a merged token being built
  // Lines that joined a group and changed nothing: while no group has changed since
  // (`generation`), the same line finds the same group and changes nothing again, so its search is
  // skipped. Chatter repeats after masking (its timestamps and ids are variables), so most lines
  // hit. Bounded: kSettledLines short lines (a few KiB a miner).
  struct Settled {
    uint32_t group = 0;
    uint64_t generation = 0;
  };
  struct LineHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return stable_hash(s); }
  };
  static constexpr size_t kSettledLines = 32;
  static constexpr size_t kSettledLineBytes = 512;
  std::unordered_map<std::string, Settled, LineHash, std::equal_to<>> settled;
  uint64_t generation = 0;  // bumped whenever a group is created or a group's token changes

  explicit Impl(MinerLimits l) : limits(l) {}

  void split(std::string_view text) {
    tokens.clear();
    size_t start = 0;
    while (start <= text.size()) {
      size_t space = text.find(' ', start);
      if (space == std::string_view::npos) space = text.size();
      if (space > start) tokens.push_back(text.substr(start, space - start));
      start = space + 1;
    }
  }

  size_t leaf_for_search() const {
    auto len = by_length.find(tokens.size());
    if (len == by_length.end()) return kNoGroup;
    uint32_t node = len->second;
    for (size_t depth = 0; depth < limits.prefix_tokens && depth < tokens.size(); ++depth) {
      const auto& children = nodes[node].children;
      auto child = children.find(holds_variable(tokens[depth]) ? kVar : tokens[depth]);
      if (child == children.end()) child = children.find(kVar);
      if (child == children.end()) return kNoGroup;
      node = child->second;
    }
    return node;
  }

  // Drain's fastMatch: the most similar group, ties to the one with more variables, then the oldest.
  size_t best_group(size_t leaf) const {
    size_t best = kNoGroup;
    double best_similarity = -1;
    size_t best_vars = 0;
    for (uint32_t id : nodes[leaf].groups) {
      const Group& g = groups[id];
      size_t same = 0;
      size_t vars = 0;
      for (size_t i = 0; i < tokens.size(); ++i) {
        if (is_var(g.tokens[i])) ++vars;
        if (g.tokens[i] == tokens[i] || glob_matches(g.tokens[i], tokens[i])) ++same;
      }
      const double similarity = tokens.empty() ? 1.0 : static_cast<double>(same) / static_cast<double>(tokens.size());
      if (similarity > best_similarity || (similarity == best_similarity && vars > best_vars)) {
        best = id;
        best_similarity = similarity;
        best_vars = vars;
      }
    }
    return best_similarity >= limits.similarity ? best : kNoGroup;
  }

  uint32_t new_node() {
    nodes.emplace_back();
    bookkeeping_bytes += kNodeBytes;
    return static_cast<uint32_t>(nodes.size() - 1);
  }

  uint32_t child_for_insert(uint32_t node, std::string_view token) {
    auto& children = nodes[node].children;
    if (auto it = children.find(token); it != children.end()) return it->second;
    std::string_view key = token;
    if (holds_variable(token)) {
      key = kVar;
    } else if (children.size() + (children.count(kVar) ? 0 : 1) >= kMaxChildren) {
      key = kVar;  // a full node: Drain sends the rest under <*>
    }
    if (auto it = nodes[node].children.find(key); it != nodes[node].children.end()) return it->second;
    const uint32_t child = new_node();  // may move `nodes`: index again
    nodes[node].children.emplace(key, child);
    bookkeeping_bytes += kChildBytes;
    return child;
  }

  size_t estimated_bytes() const { return arena.bytes() + bookkeeping_bytes; }

  bool may_create(std::string_view text) const {
    if (groups.size() >= limits.max_clusters) return false;
    const size_t cost = text.size() + tokens.size() * (sizeof(std::string_view) + kChildBytes) + kGroupBytes +
                        limits.prefix_tokens * (kNodeBytes + kChildBytes);
    return estimated_bytes() + cost <= limits.max_bytes;
  }

  size_t create(std::string_view text) {
    const std::string_view stored = arena.copy(text);
    split(stored);  // `tokens` now view the arena copy
    const size_t id = groups.size();
    groups.push_back(Group{tokens, 1});
    bookkeeping_bytes += kGroupBytes + tokens.size() * sizeof(std::string_view);
    uint32_t node;
    if (auto len = by_length.find(tokens.size()); len != by_length.end()) {
      node = len->second;
    } else {
      node = new_node();
      by_length.emplace(tokens.size(), node);
      bookkeeping_bytes += kChildBytes;
    }
    for (size_t depth = 0; depth < limits.prefix_tokens && depth < tokens.size(); ++depth)
      node = child_for_insert(node, tokens[depth]);
    nodes[node].groups.push_back(static_cast<uint32_t>(id));
    return id;
  }

  size_t overflow_group() {
    if (overflow == kNoGroup) {
      overflow = groups.size();
      groups.push_back(Group{});
    }
    ++groups[overflow].count;
    return overflow;
  }

  // The template token for two different tokens: <*> with the prefix and suffix they share at a
  // delimiter. A new token text is stored in the arena unless the byte limit is reached.
  std::string_view merged(std::string_view a, std::string_view b) {
    if (is_var(a)) return kVar;
    size_t head = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()) && a[i] == b[i]; ++i)
      if (prefix_end(a[i])) head = i + 1;
    size_t tail = 0;
    const size_t room = std::min(a.size(), b.size()) - head;
    for (size_t i = 0; i < room && a[a.size() - 1 - i] == b[b.size() - 1 - i]; ++i)
      if (suffix_start(a[a.size() - 1 - i])) tail = i + 1;
    if (head == 0 && tail == 0) return kVar;
    scratch.assign(a.substr(0, head));
    scratch.append(kVar);
    scratch.append(a.substr(a.size() - tail));
    if (estimated_bytes() + scratch.size() > limits.max_bytes) return kVar;
    return arena.copy(scratch);
  }

  size_t add(std::string_view message) {
    masked.clear();
    append_masked(message, masked);
    return add_masked(masked);
  }

  size_t add_masked(std::string_view masked) {
    const bool short_line = masked.size() <= kSettledLineBytes;
    if (short_line) {
      if (auto hit = settled.find(masked); hit != settled.end() && hit->second.generation == generation) {
        ++groups[hit->second.group].count;
        return hit->second.group;
      }
    }
    split(masked);
    if (const size_t leaf = leaf_for_search(); leaf != kNoGroup) {
      if (const size_t id = best_group(leaf); id != kNoGroup) {
        Group& g = groups[id];
        bool changed = false;
        for (size_t i = 0; i < tokens.size(); ++i) {
          if (g.tokens[i] != tokens[i] && !glob_matches(g.tokens[i], tokens[i])) {
            const std::string_view token = merged(g.tokens[i], tokens[i]);
            changed = changed || token != g.tokens[i];
            g.tokens[i] = token;
          }
        }
        ++g.count;
        if (changed) {
          ++generation;
        } else if (short_line) {
          if (settled.size() >= kSettledLines) settled.clear();
          settled.insert_or_assign(std::string(masked), Settled{static_cast<uint32_t>(id), generation});
        }
        return id;
      }
    }
    if (overflow != kNoGroup || !may_create(masked)) return overflow_group();
    ++generation;
    return create(masked);
  }
};

TemplateMiner::TemplateMiner(MinerLimits limits) : impl_(std::make_unique<Impl>(limits)) {}
TemplateMiner::~TemplateMiner() = default;
TemplateMiner::TemplateMiner(TemplateMiner&&) noexcept = default;
TemplateMiner& TemplateMiner::operator=(TemplateMiner&&) noexcept = default;

size_t TemplateMiner::add(std::string_view message) { return impl_->add(message); }

size_t TemplateMiner::add_masked(std::string_view masked) { return impl_->add_masked(masked); }

std::string TemplateMiner::template_of(size_t group) const {
  if (group >= impl_->groups.size()) return {};
  if (group == impl_->overflow) return std::string(kOverflowTemplate);
  std::string text;
  for (std::string_view token : impl_->groups[group].tokens) {
    if (!text.empty()) text.push_back(' ');
    text.append(token);
  }
  return text;
}

size_t TemplateMiner::groups() const { return impl_->groups.size(); }

uint64_t TemplateMiner::count(size_t group) const {
  return group < impl_->groups.size() ? impl_->groups[group].count : 0;
}

bool TemplateMiner::capped() const { return impl_->overflow != kNoGroup; }

size_t TemplateMiner::overflow_group() const {
  return impl_->overflow == kNoGroup ? impl_->groups.size() : impl_->overflow;
}

}  // namespace gpudiag
