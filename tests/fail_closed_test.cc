// Fail closed (issue 37): an export cut anywhere never passes a gate, Ctrl-C keeps the report, the
// quiet line agrees with the exit code, and a job the export does not hold is a usage error.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "test_support.h"

namespace fs = std::filesystem;
using Catch::Contains;
using Catch::StartsWith;

namespace gpudiag {
namespace {

struct CorpusExport {
  std::string name;
  std::string path;  // the case's one export file
  std::string verdict;
};

// The corpus cases with one export file, and the top-level verdict of their golden JSON report.
std::vector<CorpusExport> single_export_cases() {
  std::vector<CorpusExport> out;
  for (const auto& dir : test::corpus_cases()) {
    std::vector<std::string> exports;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().filename().string().starts_with("export")) exports.push_back(e.path().string());
    }
    if (exports.size() != 1) continue;
    const std::string json = test::read_file(dir + "/expected.json");
    const size_t at = json.find("\"verdict\": \"");
    if (at == std::string::npos) continue;
    const size_t from = at + 12;
    out.push_back({fs::path(dir).filename().string(), exports[0], json.substr(from, json.find('"', from) - from)});
  }
  return out;
}

// Ten offsets into `size` bytes between `from` and `to` (fractions of it), none at the ends.
std::vector<size_t> ten_offsets(size_t size, double from, double to) {
  std::vector<size_t> out;
  for (int i = 0; i < 10; ++i) out.push_back(static_cast<size_t>(size * (from + (to - from) * i / 9.0)));
  return out;
}

// `gpudiag gate -q` on `bytes` written to `name`: the one line, the exit code.
test::CommandResult gate_quiet(const std::string& dir, const std::string& name, const std::string& bytes) {
  test::write_file(dir + "/" + name, bytes);
  return test::run_gpudiag({"gate", "-q", dir + "/" + name});
}

void check_refused_as_cut(const test::CommandResult& r) {
  CHECK(r.exit_code == 2);
  if (r.out.empty()) {  // cut before its first entry: nothing to report, and stderr says so
    CHECK_THAT(r.err, Contains("no report was written"));
  } else {
    CHECK_THAT(r.out, StartsWith("gate refused — "));
    CHECK_THAT(r.out, Contains("input incomplete: "));
    CHECK_THAT(r.out, !Contains("OK —"));
  }
}

TEST_CASE("every healthy corpus export, gzipped and cut anywhere, is refused by the gate as cut", "[cli]") {
  const std::string dir = test::temp_dir();
  size_t healthy = 0, taken = 0;
  for (const auto& c : single_export_cases()) {
    if (c.verdict != "ok") continue;
    // Under the sanitizers every fifth case, in turn: the cuts repeat the same reading paths.
    if (++healthy % 5 != 1 && test::kSanitized) continue;
    ++taken;
    const std::string plain = test::read_file(c.path);
    const bool gzipped = plain.size() >= 2 && static_cast<unsigned char>(plain[0]) == 0x1f;
    const std::string gz = gzipped ? plain : test::gzip(plain);
    // Whole, it passes: the cuts below are what makes the difference.
    const auto whole = gate_quiet(dir, "whole.json.gz", gz);
    INFO(c.name << ": " << whole.out << whole.err);
    CHECK(whole.exit_code == 0);
    CHECK_THAT(whole.out, StartsWith("gate passed — OK"));
    // Eight cuts inside the deflate data, two inside the 8-byte trailer (CRC-32, length). Under the
    // sanitizers a third of them, a different third each case.
    std::vector<size_t> cuts = ten_offsets(gz.size() - 8, 0.3, 0.98);
    cuts.resize(8);
    cuts.push_back(gz.size() - 6);
    cuts.push_back(gz.size() - 1);
    const auto sampled = [&](size_t i) { return !test::kSanitized || (i + taken) % 3 == 0; };
    for (size_t i = 0; i < cuts.size(); ++i) {
      if (!sampled(i)) continue;
      const size_t cut = cuts[i];
      INFO("gzip cut at byte " << cut << " of " << gz.size());
      check_refused_as_cut(gate_quiet(dir, "cut.json.gz", gz.substr(0, cut)));
    }
    if (gzipped) continue;
    const std::vector<size_t> plain_cuts = ten_offsets(plain.size(), 0.2, 0.999);
    for (size_t i = 0; i < plain_cuts.size(); ++i) {
      if (!sampled(i)) continue;
      const size_t cut = plain_cuts[i];
      INFO("plain cut at byte " << cut << " of " << plain.size());
      check_refused_as_cut(gate_quiet(dir, "cut.json", plain.substr(0, cut)));
    }
  }
  CHECK(healthy >= 5);
  // Under the sanitizers three cases or more, so that each cut offset was taken by one of them.
  CHECK((taken >= 3 || !test::kSanitized));
}

TEST_CASE("a cut failing export never gates with 0, and its verdict names the failure and the cut", "[cli]") {
  const std::string dir = test::temp_dir();
  size_t failing = 0;
  for (const auto& c : single_export_cases()) {
    if (c.verdict != "failed") continue;
    // Under the sanitizers every sixth case, in turn: each is one run through the same gzip reader.
    if (++failing % 6 != 1 && test::kSanitized) continue;
    INFO(c.name);
    const std::string bytes = test::read_file(c.path);
    const bool gzipped = bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f;
    const std::string gz = gzipped ? bytes : test::gzip(bytes);
    const auto r = gate_quiet(dir, "cut.json.gz", gz.substr(0, gz.size() * 3 / 4));
    CHECK(r.exit_code == 2);
    if (!r.out.empty()) CHECK_THAT(r.out, Contains("input incomplete: gzip stream cut at byte "));
  }
  CHECK(failing >= 40);
}

TEST_CASE("what is not a cut: a last line without its newline, a bad line mid-NDJSON", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string a = test::log_entry_line("2024-01-01T00:00:01Z", "worker", "Worker started", "INFO", "w-1", "a");
  const std::string b = test::log_entry_line("2024-01-01T00:00:02Z", "worker", "Processing", "INFO", "w-1", "b");
  const auto no_newline = gate_quiet(dir, "a.ndjson", a + "\n" + b);
  CHECK(no_newline.exit_code == 0);
  CHECK_THAT(no_newline.out, StartsWith("gate passed — OK"));
  const auto middle = gate_quiet(dir, "b.ndjson", a + "\n{\"broken\": \n" + b + "\n");
  CHECK(middle.exit_code == 0);
  const auto last = gate_quiet(dir, "c.ndjson", a + "\n" + b + "\n{\"timestamp\": \"2024-01-01T00:00:03Z\", \"sev");
  CHECK(last.exit_code == 2);
  CHECK_THAT(last.out, Contains("INCOMPLETE — input incomplete: export cut at byte "));
  // An array missing only its closing bracket: every entry parses, the input is still cut.
  const auto open_array = gate_quiet(dir, "d.json", "[\n" + a + ",\n" + b + "\n");
  CHECK(open_array.exit_code == 2);
  CHECK_THAT(open_array.out, Contains("input incomplete: export cut at byte "));
  const auto closed = gate_quiet(dir, "e.json", "[\n" + a + ",\n" + b + "\n]\n");
  CHECK(closed.exit_code == 0);
}

TEST_CASE("a cut export says so in every format, with file, byte and reason", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string bytes = test::read_file("corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json");
  const std::string gz = test::gzip(bytes);
  test::write_file(dir + "/cut.json.gz", gz.substr(0, gz.size() - 4));  // only the length is missing
  const auto r = test::run_gpudiag({"report", "--fail-on", "error", "--deterministic", dir + "/cut.json.gz", "-o",
                                    dir + "/r.json", "-o", dir + "/r.md", "-o", dir + "/r.html", "-o", dir + "/r.xml",
                                    "-o", dir + "/r.sarif", "-o", dir + "/r.txt"});
  CHECK(r.exit_code == 2);
  const auto github = test::run_gpudiag({"gate", "--deterministic", "--format", "github", dir + "/cut.json.gz"});
  CHECK(github.exit_code == 2);
  CHECK_THAT(github.out, Contains("::error file=cut.json.gz,title=gpudiag%3A input not read::gzip stream ends"));
  const std::string json = test::read_file(dir + "/r.json");
  CHECK_THAT(json, Contains("\"verdict\": \"failed\""));
  CHECK_THAT(json, Contains("(input incomplete: gzip stream cut at byte "));
  CHECK_THAT(json, Contains("\"code\": \"gzip-truncated\""));
  CHECK_THAT(json, Contains("\"refused\": \"input incomplete: gzip stream cut at byte "));
  CHECK_THAT(test::read_file(dir + "/r.txt"), Contains("input not read in full: cut.json.gz: gzip stream"));
  CHECK_THAT(test::read_file(dir + "/r.md"), Contains("> **1 input not read in full**"));
  CHECK_THAT(test::read_file(dir + "/r.html"), Contains("<strong>1 input not read in full</strong>"));
  CHECK_THAT(test::read_file(dir + "/r.xml"), Contains("type=\"input-not-read\""));
  const std::string sarif = test::read_file(dir + "/r.sarif");
  CHECK_THAT(sarif, Contains("\"executionSuccessful\": false"));
  CHECK_THAT(sarif, Contains("gzip-truncated"));
}

TEST_CASE("the quiet line leads with what the exit code says", "[cli]") {
  const std::string oom = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
  const auto failed = test::run_gpudiag({"gate", "-q", oom});
  CHECK(failed.exit_code == 1);
  CHECK_THAT(failed.out, StartsWith("gate failed — FAILED — most likely cause: GPU ran out of memory"));
  const std::string dir = test::temp_dir();
  const auto created = test::run_gpudiag({"baseline", "create", oom, "-o", dir + "/b.yaml"});
  REQUIRE(created.exit_code == 0);
  const auto accepted = test::run_gpudiag({"gate", "-q", "--baseline", dir + "/b.yaml", oom});
  CHECK(accepted.exit_code == 0);
  CHECK_THAT(accepted.out, StartsWith("gate passed (") && Contains("accepted by the baseline) — FAILED"));
  const auto plain = test::run_gpudiag({"analyze", "-q", oom});  // no threshold: the verdict alone
  CHECK_THAT(plain.out, StartsWith("FAILED — most likely cause"));
}

TEST_CASE("a --job-id or --job-name the export does not hold: exit 2, naming the jobs it holds", "[cli]") {
  const std::string oom = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
  for (const std::string command : {"analyze", "report", "gate"}) {
    INFO(command);
    const auto typo =
        test::run_gpudiag({command, "--format", "text", "--job-id", "2022-11-28_14_05_40-8583720370029902119", oom});
    CHECK(typo.exit_code == 2);
    CHECK(typo.out.empty());
    CHECK_THAT(typo.err, Contains("the export holds no such job; it holds 1 job: "
                                  "2022-11-28_14_05_40-8583720370029902118 (traffic-cam-detections-p4)"));
    CHECK_THAT(typo.err, Contains("did you mean `2022-11-28_14_05_40-8583720370029902118`?"));
  }
  const auto name = test::run_gpudiag({"analyze", "--job-id", "traffic-cam-detections-p4", oom});
  CHECK(name.exit_code == 2);
  CHECK_THAT(name.err, Contains("is a job's name: use --job-name 'traffic-cam-detections-p4'"));
  const auto glob = test::run_gpudiag({"analyze", "--job-id", "traffic-*", oom});
  CHECK_THAT(glob.err, Contains("for a glob over names use --job-name 'traffic-*'"));
  const auto no_match = test::run_gpudiag({"analyze", "--job-name", "nightly-*", oom});
  CHECK(no_match.exit_code == 2);
  const auto match = test::run_gpudiag({"analyze", "-q", "--job-name", "traffic-*", oom});
  CHECK(match.exit_code == 0);
  // An export of no job at all keeps its verdict, `empty`, which --allow-empty lets pass.
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/empty.json", "[]\n");
  const auto empty =
      test::run_gpudiag({"gate", "--allow-empty", "--job-id", "2024-01-01_00_00_00-1", dir + "/empty.json"});
  CHECK(empty.exit_code == 0);
}

// gpudiag reading `analyze -` from a pipe this test holds open, stdout and stderr to files.
struct PipedRun {
  pid_t pid = -1;
  int feed = -1;  // the write end of gpudiag's stdin
  std::string dir = test::temp_dir();

  // `stdout_fd` >= 0: gpudiag's stdout (else a file).
  explicit PipedRun(const std::vector<std::string>& args, int stdout_fd = -1) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      dup2(fds[0], STDIN_FILENO);
      close(fds[0]);
      close(fds[1]);
      const int out = open((dir + "/out").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = open((dir + "/err").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(stdout_fd >= 0 ? stdout_fd : out, STDOUT_FILENO);
      dup2(err, STDERR_FILENO);
      signal(SIGINT, SIG_DFL);  // as a terminal's foreground job has it
      std::vector<std::string> argv_store{GPUDIAG_BINARY};
      argv_store.insert(argv_store.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (auto& a : argv_store) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    close(fds[0]);
    feed = fds[1];
  }
  void write_all(const std::string& bytes) const {
    for (size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::write(feed, bytes.data() + done, bytes.size() - done);
      REQUIRE(n > 0);
      done += static_cast<size_t>(n);
    }
  }
  int wait_status() {
    int status = 0;
    waitpid(pid, &status, 0);
    close(feed);
    return status;
  }
  std::string out() const { return test::read_file(dir + "/out"); }
  std::string err() const { return test::read_file(dir + "/err"); }
};

TEST_CASE("Ctrl-C while reading a stream: the report of what was read, marked interrupted, exit 130", "[cli]") {
  const std::string bytes = test::read_file("corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json");
  for (const auto& [sig, code, name] : {std::tuple{SIGINT, 130, "SIGINT"}, std::tuple{SIGTERM, 143, "SIGTERM"}}) {
    INFO(name);
    PipedRun run({"analyze", "-j2", "-"});
    // The stream stays open (gcloud still writing). More than a pipe holds: this returns once
    // gpudiag reads, so its handlers are in place before the signal.
    run.write_all(bytes.substr(0, bytes.size() * 2 / 3));
    std::this_thread::sleep_for(std::chrono::milliseconds(800));
    kill(run.pid, sig);
    const int status = run.wait_status();
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == code);
    const std::string out = run.out();
    CHECK_THAT(out, Contains("verdict: FAILED — most likely cause: GPU ran out of memory (input incomplete: "
                             "interrupted by " +
                             std::string(name) + " at entry "));
    CHECK_THAT(run.err(), Contains("interrupted by " + std::string(name)));
  }
}

TEST_CASE("a second signal ends gpudiag at once, by the signal", "[cli]") {
  // gpudiag's stdout is a pipe nobody reads, filled to the brim: after the first signal it stops
  // reading and blocks writing its report, where only the second signal can end it.
  int out[2];
  REQUIRE(pipe(out) == 0);
  REQUIRE(fcntl(out[1], F_SETFL, O_NONBLOCK) == 0);
  const std::string block(4096, 'x');
  while (::write(out[1], block.data(), block.size()) > 0) {
  }
  REQUIRE(fcntl(out[1], F_SETFL, 0) == 0);  // gpudiag's writes block, as on a stalled reader
  PipedRun run({"analyze", "-"}, out[1]);
  // More than a pipe holds: this returns once gpudiag reads, so its handlers are in place.
  run.write_all(test::read_file("corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json").substr(0, 90000));
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  kill(run.pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(800));
  int status = 0;
  CHECK(waitpid(run.pid, &status, WNOHANG) == 0);  // still writing: the first signal does not end it
  kill(run.pid, SIGINT);
  status = run.wait_status();
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
  close(out[0]);
  close(out[1]);
}

}  // namespace
}  // namespace gpudiag
