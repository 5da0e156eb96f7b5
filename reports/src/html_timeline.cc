// The timeline SVG. Coordinates are in a 1000-unit-wide viewBox that scales with the page; text sizes
// are estimated (no fonts are loaded, so nothing can be measured) and labels that would collide are
// moved to another row or left to their <title> tooltip and the story list under the chart.
#include "html_timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "gpudiag/formats.h"
#include "wording.h"

namespace gpudiag::detail {
namespace {

constexpr double kWidth = 1000, kGutter = 210, kRight = 16;
constexpr double kPlot = kWidth - kGutter - kRight;
constexpr double kAxisY = 26, kBandY = 34, kBandH = 26;
constexpr double kMarkRowY = 76, kMarkRowH = 15;
constexpr int kMarkRows = 3;
constexpr double kWorkersY = 136, kWorkersH = 56;
constexpr double kLanesY = 238, kLaneH = 26;
constexpr double kCharWidth = 6.1;  // 11px sans-serif, on average

constexpr int64_t kSecond = 1'000'000'000;

std::string severity_class(Impact i) { return fmt::format("sev-{}", impact_name(i)); }

std::string fmt_x(double x) { return fmt::format("{:.1f}", x); }

struct Scale {
  Timestamp t0, t1;
  double x(Timestamp t) const {
    const double f = static_cast<double>(std::clamp(t, t0, t1) - t0) / static_cast<double>(t1 - t0);
    return kGutter + f * kPlot;
  }
};

std::string clock(Timestamp t, int64_t step_seconds, bool days) {
  const std::string s = format_rfc3339(t);  // 2022-11-28T22:05:41.2Z
  if (days) return s.substr(5, 5) + " " + s.substr(11, 5);
  return s.substr(11, step_seconds < 60 ? 8 : 5);
}

void axis(std::string& out, const Scale& sc, double bottom) {
  static constexpr std::array<int64_t, 20> kSteps = {1,   2,    5,    10,   15,    30,    60,    120,   300,    600,
                                                     900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800};
  const int64_t span = (sc.t1 - sc.t0) / kSecond;
  int64_t step = kSteps.back();
  for (int64_t s : kSteps) {
    if (span / s <= 8) {
      step = s;
      break;
    }
  }
  const bool days = span > 86400;
  out += fmt::format(R"(<text class="axis-label" x="8" y="{}">UTC</text>)", kAxisY - 8);
  const int64_t first = (sc.t0 / (step * kSecond) + 1) * step * kSecond;
  for (int64_t t = first; t <= sc.t1; t += step * kSecond) {
    const double x = sc.x(t);
    out +=
        fmt::format(R"(<line class="grid" x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)", fmt_x(x), kAxisY - 4, fmt_x(bottom));
    if (x > kGutter + 18 && x < kWidth - kRight - 18) {
      out += fmt::format(R"(<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>)", fmt_x(x), kAxisY - 8,
                         clock(t, step, days));
    }
  }
}

// The job's state between phase changes, for the coloured band.
std::string_view state_after(std::string_view phase, std::string_view state) {
  if (phase == "workers-starting") return state == "submitted" ? "starting" : state;
  if (phase == "workers-started") return state == "failed" ? state : "running";
  if (phase == "failed") return "failed";
  if (phase == "stopping" || phase == "cleaning-up" || phase == "cancelling")
    return state == "failed" ? state : "stopping";
  if (phase == "stopped" || phase == "drained") return "stopped";
  return state;
}

void phase_band(std::string& out, const RankedReport& report, const Scale& sc) {
  const Analysis& d = *report.analysis;
  out += fmt::format(R"(<text class="lane-label" x="8" y="{}">Job phases</text>)", kBandY + 17);
  std::vector<std::pair<Timestamp, std::string_view>> changes{{sc.t0, "submitted"}};
  for (const auto& p : d.phases) {
    if (p.at == kNoTime) continue;
    const std::string_view next = state_after(p.phase, changes.back().second);
    if (next != changes.back().second) changes.emplace_back(std::max(p.at, sc.t0), next);
  }
  for (size_t i = 0; i < changes.size(); ++i) {
    const double x0 = sc.x(changes[i].first);
    const double x1 = i + 1 < changes.size() ? sc.x(changes[i + 1].first) : kWidth - kRight;
    if (x1 - x0 < 0.05) continue;
    out += fmt::format(R"(<rect class="state-{}" x="{}" y="{}" width="{}" height="{}"><title>{}</title></rect>)",
                       changes[i].second, fmt_x(x0), kBandY, fmt_x(x1 - x0), kBandH, changes[i].second);
    if (x1 - x0 > static_cast<double>(changes[i].second.size()) * kCharWidth + 10) {
      out += fmt::format(R"(<text class="state-text" x="{}" y="{}">{}</text>)", fmt_x(x0 + 5), kBandY + 17,
                         changes[i].second);
    }
  }
  // Milestones: a tick on the band and a label in the first row where it fits.
  std::array<double, kMarkRows> row_end;
  row_end.fill(0);
  for (const auto& e : story_events(report)) {
    if (e.finding_rank > 0 || e.group_rank > 0 || e.at == kNoTime) continue;
    const double x = sc.x(e.at);
    const double width = static_cast<double>(e.label.size()) * kCharWidth;
    const double left = std::min(x, kWidth - kRight - width);
    int row = -1;
    for (int r = 0; r < kMarkRows && row < 0; ++r) {
      if (left > row_end[static_cast<size_t>(r)] + 6) row = r;
    }
    const double y = kMarkRowY + (row < 0 ? 0 : row) * kMarkRowH;
    out += fmt::format(R"(<g class="milestone"><title>{} — {}: {}</title>)", html_escape(format_rfc3339(e.at)),
                       html_escape(e.label), html_escape(e.detail));
    out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)", fmt_x(x), kBandY,
                       fmt_x(row < 0 ? kBandY + kBandH + 4 : y - 10));
    if (row >= 0) {
      out += fmt::format(R"(<text x="{}" y="{}">{}</text>)", fmt_x(left), y, html_escape(e.label));
      row_end[static_cast<size_t>(row)] = left + width;
    }
    out += "</g>";
  }
}

void worker_lane(std::string& out, const Analysis& d, const Scale& sc) {
  uint32_t most = 0;
  for (const auto& p : d.worker_counts) most = std::max(most, p.workers);
  out += fmt::format(
      R"(<text class="lane-label" x="8" y="{}">Workers<title>the worker count the job messages announce: a target, which workers may not have reached</title></text>)",
      kWorkersY + kWorkersH / 2 - 2);
  out += fmt::format(R"(<text class="tick" x="8" y="{}">as announced</text>)", kWorkersY + kWorkersH / 2 + 12);
  out += fmt::format(R"(<line class="baseline" x1="{0}" y1="{1}" x2="{2}" y2="{1}"/>)", kGutter, kWorkersY + kWorkersH,
                     kWidth - kRight);
  if (d.worker_counts.empty()) {
    out += fmt::format(R"(<text class="none" x="{}" y="{}">no worker counts in the job messages</text>)", kGutter + 6,
                       kWorkersY + kWorkersH / 2 + 4);
    return;
  }
  out +=
      fmt::format(R"(<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>)", kGutter - 6, kWorkersY + 8, most);
  out +=
      fmt::format(R"(<text class="tick" x="{}" y="{}" text-anchor="end">0</text>)", kGutter - 6, kWorkersY + kWorkersH);
  const auto y = [&](uint32_t n) { return kWorkersY + kWorkersH - kWorkersH * n / std::max(most, 1u); };
  std::string path = fmt::format("M{} {}", fmt_x(sc.x(d.worker_counts.front().at)), fmt_x(kWorkersY + kWorkersH));
  double last_label = -100;
  for (const auto& p : d.worker_counts) {
    const double x = sc.x(p.at);
    path += fmt::format(" H{} V{}", fmt_x(x), fmt_x(y(p.workers)));
    if (x - last_label > 16) {
      out += fmt::format(R"(<text class="count" x="{}" y="{}">{}</text>)", fmt_x(x + 2),
                         fmt_x(std::max(y(p.workers) - 3, kWorkersY + 8)), p.workers);
      last_label = x;
    }
  }
  path += fmt::format(" H{} V{} Z", fmt_x(kWidth - kRight), fmt_x(kWorkersY + kWorkersH));
  out += fmt::format(R"(<path class="workers" d="{}"><title>worker count from the job messages</title></path>)", path);
}

void finding_lanes(std::string& out, const RankedReport& report, const Scale& sc, std::string_view prefix) {
  for (size_t i = 0; i < report.findings.size(); ++i) {
    const RankedFinding& rf = report.findings[i];
    const Finding& f = *rf.finding;
    const double y = kLanesY + static_cast<double>(i) * kLaneH;
    const std::string sev = severity_class(f.severity);
    const std::string label = crop_middle(fmt::format("{}#{} {}", rf.depth > 0 ? "↳ " : "", rf.rank, f.rule_id), 34);
    out += fmt::format(R"(<a href="#{}f-{}"><text class="lane-label{}" x="{}" y="{}">{}</text></a>)", prefix, rf.rank,
                       rf.suppressed ? " suppressed" : "", 8 + rf.depth * 10, y + 4, html_escape(label));
    out += fmt::format(R"(<line class="lane" x1="{0}" y1="{1}" x2="{2}" y2="{1}"/>)", kGutter, y, kWidth - kRight);
    const std::string tip =
        html_escape(fmt::format("#{} {} — {}", rf.rank, f.title, time_span(f.first_seen, f.last_seen)));
    if (f.first_seen == kNoTime) {
      out += fmt::format(R"(<text class="none" x="{}" y="{}">{}<title>{}</title></text>)", kGutter + 6, y + 4,
                         f.via == "facts" ? "from the job's configuration" : "no time", tip);
      continue;
    }
    const double x0 = sc.x(f.first_seen);
    const double x1 = f.last_seen == kNoTime ? x0 : sc.x(f.last_seen);
    out += fmt::format(R"(<a href="#{}f-{}" class="{}"><title>{}</title>)", prefix, rf.rank, sev, tip);
    out += fmt::format(R"(<rect class="span" x="{}" y="{}" width="{}" height="6" rx="3"/>)", fmt_x(x0), y - 3,
                       fmt_x(std::max(x1 - x0, 6.0)));
    out += fmt::format(R"(<circle class="pin" cx="{}" cy="{}" r="9"/>)", fmt_x(x0), y);
    out += fmt::format(R"(<text class="pin-text" x="{}" y="{}" text-anchor="middle">{}</text></a>)", fmt_x(x0), y + 4,
                       rf.rank);
  }
}

// After the findings' lanes: one per error no rule explains, its pin labelled U1, U2 ….
void group_lanes(std::string& out, const RankedReport& report, const Scale& sc, std::string_view prefix) {
  const size_t lanes = std::min(report.unexplained.size(), kTimelineGroups);
  for (size_t i = 0; i < lanes; ++i) {
    const RankedUnexplained& u = report.unexplained[i];
    const UnexplainedGroup& g = *u.group;
    const double y = kLanesY + static_cast<double>(report.findings.size() + i) * kLaneH;
    const std::string what = g.exception_type.empty() ? unexplained_headline(g) : g.exception_type;
    const std::string label = crop_middle(fmt::format("U{} {}", u.rank, what), 34);
    out += fmt::format(R"(<a href="#{}u-{}"><text class="lane-label{}" x="8" y="{}">{}</text></a>)", prefix, u.rank,
                       u.suppressed ? " suppressed" : "", y + 4, html_escape(label));
    out += fmt::format(R"(<line class="lane" x1="{0}" y1="{1}" x2="{2}" y2="{1}"/>)", kGutter, y, kWidth - kRight);
    const std::string tip = html_escape(fmt::format("U{} {} — no rule explains it — {}", u.rank,
                                                    unexplained_headline(g), time_span(g.first_seen, g.last_seen)));
    if (g.first_seen == kNoTime) {
      out +=
          fmt::format(R"(<text class="none" x="{}" y="{}">no time<title>{}</title></text>)", kGutter + 6, y + 4, tip);
      continue;
    }
    const double x0 = sc.x(g.first_seen);
    const double x1 = g.last_seen == kNoTime ? x0 : sc.x(g.last_seen);
    out += fmt::format(R"(<a href="#{}u-{}" class="{} unexplained"><title>{}</title>)", prefix, u.rank,
                       severity_class(u.severity()), tip);
    out += fmt::format(R"(<rect class="span" x="{}" y="{}" width="{}" height="6" rx="3"/>)", fmt_x(x0), y - 3,
                       fmt_x(std::max(x1 - x0, 6.0)));
    out += fmt::format(R"(<rect class="pin" x="{}" y="{}" width="22" height="18" rx="4"/>)", fmt_x(x0 - 11), y - 9);
    out += fmt::format(R"(<text class="pin-text" x="{}" y="{}" text-anchor="middle">U{}</text></a>)", fmt_x(x0), y + 4,
                       u.rank);
  }
}

}  // namespace

std::string phase_label(std::string_view phase) {
  std::string out(phase);
  std::replace(out.begin(), out.end(), '-', ' ');
  return out;
}

std::vector<StoryEvent> story_events(const RankedReport& report) {
  const Analysis& d = *report.analysis;
  std::vector<StoryEvent> events;
  std::string_view previous;
  for (const auto& p : d.phases) {
    if (p.phase == previous ||
        (p.phase == "running" &&
         std::any_of(events.begin(), events.end(), [](const StoryEvent& e) { return e.label == "running"; }))) {
      continue;
    }
    previous = p.phase;
    events.push_back({p.at, phase_label(p.phase), p.message, 0, Impact::kInfo});
  }
  for (const auto& rf : report.findings) {
    const Finding& f = *rf.finding;
    std::string where;
    if (!f.evidence.empty()) {
      const LogRecord& r = f.evidence.front().entry.record();
      where = r.worker.empty() ? std::string(r.log) : fmt::format("{} on {}", r.log, r.worker);
    }
    std::string detail = f.via == "facts"     ? "found from the job's configuration"
                         : f.via == "absence" ? "found by what is missing"
                                              : plural(f.count, "entry", "entries");
    if (f.last_seen != kNoTime && f.last_seen != f.first_seen) detail += ", the last at " + format_rfc3339(f.last_seen);
    if (!where.empty()) detail += fmt::format("; first in the {} log", where);
    events.push_back({f.first_seen, fmt::format("#{} {}", rf.rank, f.title), std::move(detail), rf.rank, f.severity});
  }
  for (size_t i = 0; i < report.unexplained.size() && i < kTimelineGroups; ++i) {
    const RankedUnexplained& u = report.unexplained[i];
    const UnexplainedGroup& g = *u.group;
    const LogRecord& r = g.exemplar.entry.record();
    std::string detail = fmt::format("no rule explains it; {}", plural(g.count, "entry", "entries"));
    if (g.last_seen != kNoTime && g.last_seen != g.first_seen) detail += ", the last at " + format_rfc3339(g.last_seen);
    if (!r.log.empty())
      detail += fmt::format("; first in the {} log",
                            r.worker.empty() ? std::string(r.log) : fmt::format("{} on {}", r.log, r.worker));
    events.push_back({g.first_seen, fmt::format("U{} {}", u.rank, unexplained_headline(g)), std::move(detail), 0,
                      u.severity(), u.rank});
  }
  std::stable_sort(events.begin(), events.end(), [](const StoryEvent& a, const StoryEvent& b) {
    if ((a.at == kNoTime) != (b.at == kNoTime)) return b.at == kNoTime;
    return a.at < b.at;
  });
  return events;
}

std::string timeline_svg(const RankedReport& report, std::string_view prefix) {
  const Analysis& d = *report.analysis;
  if (d.start == kNoTime) return "";
  Scale sc{d.start, std::max(d.end, d.start + 60 * kSecond)};
  const size_t lanes = report.findings.size() + std::min(report.unexplained.size(), kTimelineGroups);
  const double height = kLanesY + static_cast<double>(lanes) * kLaneH + 6;
  std::string out = fmt::format(
      R"(<svg id="{0}timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {1} {2}" role="img" aria-labelledby="{0}timeline-title">)",
      prefix, kWidth, fmt_x(height));
  out +=
      fmt::format(R"(<title id="{}timeline-title">Timeline of job {}: phases, worker count and findings, {}</title>)",
                  prefix, html_escape(d.job.id), html_escape(time_span(d.start, d.end)));
  axis(out, sc, height - 6);
  phase_band(out, report, sc);
  worker_lane(out, d, sc);
  if (!report.findings.empty() || !report.unexplained.empty()) {
    out += fmt::format(R"(<text class="lane-head" x="8" y="{}">{}, first seen</text>)", kLanesY - 22,
                       report.unexplained.empty() ? "Findings"
                       : report.findings.empty()  ? "Errors no rule explains"
                                                  : "Findings and errors no rule explains");
  }
  finding_lanes(out, report, sc, prefix);
  group_lanes(out, report, sc, prefix);
  return out + "</svg>";
}

}  // namespace gpudiag::detail
