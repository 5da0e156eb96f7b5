// Never destroy a user's file, never crash on a changing input, never fail open (issue 11): each
// reproducer of the stress campaign, run against the binary or the ingest library.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "gpudiag/ingest.h"
#include "test_support.h"

using namespace gpudiag;
namespace fs = std::filesystem;

namespace {

const std::string kCase = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";

// A copy of the OOM case in a fresh folder, and that folder.
std::string copy_case(const std::string& name = "in.json") {
  const std::string dir = test::temp_dir();
  fs::copy_file(test::source_dir() + "/" + kCase, dir + "/" + name);
  return dir;
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("an output that is an input, the database, the baseline or another output is refused", "[badinput]") {
  const std::string dir = copy_case();
  const std::string in = dir + "/in.json";
  const std::string original = test::read_file(in);

  auto r = test::run_gpudiag({"report", in, "-o", in});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("it is an input"));
  CHECK(test::read_file(in) == original);

  fs::create_symlink(in, dir + "/link.json");  // another spelling of the same file
  r = test::run_gpudiag({"report", in, "-o", dir + "/link.json"});
  CHECK(r.exit_code == 2);
  CHECK(test::read_file(in) == original);

  const std::string db = dir + "/h.db";
  REQUIRE(test::run_gpudiag({"analyze", in, "--db", db}).exit_code == 0);
  const std::string db_bytes = test::read_file(db);
  r = test::run_gpudiag({"gate", in, "--db", db, "--format", "json", "-o", db});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("history database"));
  CHECK(test::read_file(db) == db_bytes);
  CHECK(test::run_gpudiag({"history", "--db", db}).exit_code == 0);

  r = test::run_gpudiag({"analyze", in, "--db", in});  // SQLite would write into the export
  CHECK(r.exit_code == 2);
  CHECK(test::read_file(in) == original);
  r = test::run_gpudiag({"ingest", in, "--db", in});
  CHECK(r.exit_code == 2);
  CHECK(test::read_file(in) == original);

  test::write_file(dir + "/baseline.yaml", "accepted: []\n");
  r = test::run_gpudiag({"report", in, "--baseline", dir + "/baseline.yaml", "-o", dir + "/baseline.yaml"});
  CHECK(r.exit_code == 2);
  CHECK(test::read_file(dir + "/baseline.yaml") == "accepted: []\n");

  r = test::run_gpudiag({"report", in, "-o", dir + "/a.md", "-o", dir + "/./a.md"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("twice"));
  CHECK_FALSE(fs::exists(dir + "/a.md"));  // refused before anything was written
}

TEST_CASE("outputs land whole or not at all, keeping the target's mode", "[badinput]") {
  const std::string dir = copy_case();
  const std::string in = dir + "/in.json", md = dir + "/old.md";
  test::write_file(md, "OLD\n");
  ::chmod(md.c_str(), 0640);

  // The second output cannot be written: the first is not replaced, no temporary file is left.
  auto r = test::run_gpudiag({"report", in, "-o", md, "-o", dir + "/missing/x.json"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("missing/x.json") && Catch::Contains("No such file or directory"));
  CHECK(test::read_file(md) == "OLD\n");
  CHECK(names_in(dir) == std::vector<std::string>{"in.json", "old.md"});

  r = test::run_gpudiag({"report", in, "-o", md});
  CHECK(r.exit_code == 0);
  CHECK_THAT(test::read_file(md), Catch::StartsWith("## "));
  struct stat st {};
  REQUIRE(::stat(md.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0640);
  CHECK(names_in(dir) == std::vector<std::string>{"in.json", "old.md"});
}

TEST_CASE("a run whose outputs fail is not recorded in the history", "[badinput]") {
  const std::string dir = copy_case();
  const std::string db = dir + "/h.db";
  auto r = test::run_gpudiag({"gate", dir + "/in.json", "--db", db, "-o", dir + "/missing/x.json"});
  CHECK(r.exit_code == 2);
  r = test::run_gpudiag({"history", "--db", db, "--format", "json"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, !Catch::Contains("\"run\""));
  CHECK_THAT(r.out, !Catch::Contains("gpu-out-of-memory"));
}

TEST_CASE("FIFOs and shared append targets are written in place", "[badinput]") {
  const std::string dir = copy_case();
  const std::string in = dir + "/in.json";
  const std::string fifo = dir + "/pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  auto r = test::run_shell(fmt::format("cat {0} > {1}/from-fifo & {2} report {3} -o {0} --format md; wait",
                                       test::shell_quote(fifo), test::shell_quote(dir),
                                       test::shell_quote(GPUDIAG_BINARY), test::shell_quote(in)));
  CHECK(r.exit_code == 0);
  CHECK_THAT(test::read_file(dir + "/from-fifo"), Catch::StartsWith("## "));

  // GitHub's step summary is appended to by every step: what the others wrote stays.
  const std::string summary = dir + "/step-summary.md";
  test::write_file(summary, "earlier step\n");
  r = test::run_shell(fmt::format("GITHUB_STEP_SUMMARY={0} {1} report {2} -o {0}", test::shell_quote(summary),
                                  test::shell_quote(GPUDIAG_BINARY), test::shell_quote(in)));
  CHECK(r.exit_code == 0);
  CHECK_THAT(test::read_file(summary), Catch::StartsWith("earlier step\n## "));
}

TEST_CASE("a failed write to stdout is exit 2, a reader that leaves is SIGPIPE's 141", "[badinput]") {
  const std::string bin = test::shell_quote(GPUDIAG_BINARY);
  for (const std::string args : {"analyze " + kCase, "analyze --format json " + kCase, std::string("rules dump")}) {
    auto r = test::run_shell(fmt::format("{} {} > /dev/full", bin, args));
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("cannot write to stdout: No space left on device"));
  }
  // With SIGPIPE ignored (as some CI runners and Python's subprocess leave it), writing to a closed
  // pipe fails with EPIPE; gpudiag still ends as a writer ended by SIGPIPE does.
  for (const std::string trap : {"trap '' PIPE;", ""}) {
    const std::string script =
        fmt::format("{} {} analyze --format json {} | true; exit ${{PIPESTATUS[0]}}", trap, bin, kCase);
    const auto r = test::run_shell("bash -c " + test::shell_quote(script));
    INFO(script);
    CHECK(r.exit_code == 141);
  }
}

TEST_CASE("any amount of leading whitespace is skipped, and the gate still trips", "[badinput]") {
  const std::string dir = copy_case();
  const std::string padded = dir + "/padded.json";
  // 2.5 MiB of blanks, more than shape detection's first window, with three newlines among them.
  test::write_file(padded, "\xEF\xBB\xBF" + std::string(1 << 20, ' ') + "\n\n\n" + std::string(1500000, '\t') +
                               test::read_file(dir + "/in.json"));
  auto r = test::run_gpudiag({"gate", padded});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.out, Catch::Contains("gpu-out-of-memory"));
  CHECK_THAT(r.out, Catch::Contains("85 entries"));
  CHECK_THAT(r.out, Catch::Contains("padded.json:491"));  // lines still count the blank ones (488 + 3)
}

TEST_CASE("a mapped input that shrinks while it is read is reported, not a crash", "[badinput]") {
  const std::string dir = test::temp_dir();
  const std::string path = dir + "/growing.ndjson";
  std::string text;
  for (int i = 0; text.size() < (4u << 20); ++i) {
    text += fmt::format(
        R"({{"insertId":"{}","timestamp":"2024-01-01T00:00:01Z","severity":"INFO","textPayload":"line {} {}"}})"
        "\n",
        i, i, std::string(200, 'x'));
  }
  for (const bool no_mmap : {false, true}) {
    test::write_file(path, text);
    ReadLimits limits;
    limits.chunk_bytes = 64 << 10;
    limits.no_mmap = no_mmap;
    uint64_t records = 0;
    bool truncated = false;
    const auto summary = read_export(
        path,
        [&](const LogRecord&) {
          ++records;
          if (!truncated) {  // rewritten with `>` while we read: the file is 1 MiB shorter at once
            REQUIRE(::truncate(path.c_str(), 1 << 20) == 0);
            truncated = true;
          }
        },
        limits);
    REQUIRE(summary);
    const std::string changed = summary->not_read_in_full ? summary->not_read_in_full->message : "";
    INFO("no_mmap " << no_mmap);
    CHECK_THAT(changed, Catch::Contains("the input changed while it was read"));
    CHECK(records > 0);
    CHECK(records < 20000);
  }
}
