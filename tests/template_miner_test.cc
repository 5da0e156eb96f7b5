// The template miner (gpudiag/patterns.h): what its masks hide and keep, how it groups real
// Dataflow lines, and what happens at its limits. The Loghub-2k scores are checked by
// bench/patterns.py --check (a CTest of its own, tests/CMakeLists.txt).
#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "gpudiag/patterns.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

// The job-message sequence of a healthy run, from /work/shared/reference/dataflow-log-signatures.md
// §2i (jcbaey/dataflow_python_timer README, apache/beam#19306, google-research/text-to-text-transfer-
// transformer#986), without the JOB_MESSAGE_* prefix as exports hold them.
const std::vector<std::string> kHealthyRun = {
    "Worker configuration: n1-standard-4 in europe-west1-d.",
    "Expanding SplittableParDo operations into optimizable parts.",
    "Fusing adjacent ParDo, Read, Write, and Flatten operations",
    "Workflow config is missing a default resource spec.",
    "Starting worker pool setup.",
    "Starting 1 workers in europe-west1-d...",
    "Autoscaling: Raised the number of workers to 1 so that the pipeline can catch up with its backlog and keep "
    "up with its input rate.",
    "Autoscaling: Raised the number of workers to 1 based on the rate of progress in the currently running "
    "stage(s).",
    "Workers have started successfully.",
    "Autoscaling is enabled for job 2020-10-26_06_19_05-11247069410789502909. The number of workers will be "
    "between 1 and 100.",
    "Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between 1 and 100 unless "
    "maxNumWorkers is specified.",
    "Cleaning up.",
    "Starting worker pool teardown.",
    "Stopping worker pool...",
    "Autoscaling: Resized worker pool from 1 to 0.",
    "Autoscaling: Would further reduce the number of workers but reached the minimum number allowed for the job.",
    "Worker pool stopped.",
    "Tearing down pending resources...",
};

std::vector<size_t> mine_all(TemplateMiner& miner, const std::vector<std::string>& lines) {
  std::vector<size_t> groups;
  for (const auto& line : lines) groups.push_back(miner.add(line));
  return groups;
}

}  // namespace

TEST_CASE("masks hide numbers sizes durations and hex", "[unit]") {
  // apache/beam#19306 (job message); jcbaey/dataflow_python_timer README (pipeline options repr).
  CHECK(mask_message("Autoscaling: Resized worker pool from 1 to 0.") ==
        "Autoscaling: Resized worker pool from <*> to <*>.");
  CHECK(mask_message("<apache_beam.options.value_provider.StaticValueProvider object at 0x7fa38a661520>") ==
        "<apache_beam.options.value_provider.StaticValueProvider object at <*>>");
  // PyTorch's CUDA out-of-memory error (c10/cuda/CUDACachingAllocator.cpp), as the corpus quotes it
  // (tools/corpus/cases/hostile_log_text.py): a size's unit symbol is part of its variable.
  CHECK(
      mask_message("RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 14.58 GiB total "
                   "capacity; 12.91 GiB already allocated; 611.56 MiB free; 13.02 GiB reserved in total by PyTorch)") ==
      "RuntimeError: CUDA out of memory. Tried to allocate <*> (GPU <*>; <*> total capacity; <*> already "
      "allocated; <*> free; <*> reserved in total by PyTorch)");
  // HDFS lines of Loghub (logpai/loghub, HDFS_2k): IP and port, a block id, a size.
  CHECK(mask_message("BLOCK* NameSystem.addStoredBlock: blockMap updated: 10.251.71.240:50010 is added to "
                     "blk_-6330812010936261924 size 67108864") ==
        "BLOCK* NameSystem.addStoredBlock: blockMap updated: <*>:<*> is added to <*> size <*>");
}

TEST_CASE("masks fold unit symbols into their quantity and leave out its restatement", "[unit]") {
  // The same PyTorch OOM at two sizes, in MiB and in GiB (dataflow-log-signatures.md b3: apache/beam#22811
  // and yyliu01/RPL#14): one template, whatever the magnitude.
  const std::string mib =
      "RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; 5.70 GiB total capacity; 2.97 GiB "
      "already allocated; 340.50 MiB free; 3.57 GiB reserved in total by PyTorch)";
  const std::string gib =
      "RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 14.58 GiB total capacity; 12.91 GiB "
      "already allocated; 611.56 MiB free; 13.02 GiB reserved in total by PyTorch)";
  CHECK(mask_message(mib) == mask_message(gib));
  // Loghub Proxifier_2k (logpai/loghub): a size restated in KB is left out, a duration's unit symbol
  // joins its number; unit words stay.
  CHECK(mask_message("proxy.cse.cuhk.edu.hk:5070 close, 1190 bytes (1.16 KB) sent, 1671 bytes (1.63 KB) received, "
                     "lifetime 00:02") ==
        "proxy.cse.cuhk.edu.hk:<*> close, <*> bytes sent, <*> bytes received, lifetime <*>:<*>");
  CHECK(mask_message("proxy.cse.cuhk.edu.hk:5070 close, 403 bytes sent, 426 bytes received, lifetime <1 sec") ==
        "proxy.cse.cuhk.edu.hk:<*> close, <*> bytes sent, <*> bytes received, lifetime <<*>");
  // Loghub Hadoop_2k: "seconds" is a word, kept as Loghub's template keeps it.
  CHECK(mask_message("Failed to renew lease for [DFSClient_NONMAPREDUCE_1537864556_1] for 30 seconds.  Will retry "
                     "shortly ...") == "Failed to renew lease for [<*>] for <*> seconds. Will retry shortly ...");
  // Not quantities: a word after a number (a healthy run's job message, kHealthyRun), a parenthesised
  // number without a unit (Loghub Linux_2k).
  CHECK(mask_message("Starting 1 workers in europe-west1-d...") == "Starting <*> workers in europe-west1-d...");
  CHECK(mask_message("mtrr: v2.0 (20020519)") == "mtrr: v2.<*> (<*>)");
}

TEST_CASE("lines whose quantities are written in other units join one group", "[unit]") {
  // Loghub Proxifier_2k (logpai/loghub): with and without a restatement in KB, over a second and under.
  TemplateMiner miner;
  const size_t a = miner.add(
      "proxy.cse.cuhk.edu.hk:5070 close, 1190 bytes (1.16 KB) sent, 1671 bytes (1.63 KB) received, lifetime 00:02");
  const size_t b = miner.add("proxy.cse.cuhk.edu.hk:5070 close, 0 bytes sent, 0 bytes received, lifetime 00:01");
  const size_t c = miner.add("proxy.cse.cuhk.edu.hk:5070 close, 403 bytes sent, 426 bytes received, lifetime <1 sec");
  CHECK(a == b);
  CHECK(a == c);
  // "<*>:<*>" does not stand for "<1 sec": the template says the lifetime varies in shape.
  CHECK(miner.template_of(a) == "proxy.cse.cuhk.edu.hk:<*> close, <*> bytes sent, <*> bytes received, lifetime <*>");
}

TEST_CASE("masks hide Dataflow job ids worker names and UUIDs", "[unit]") {
  // Job ids and VM names: the LogEntry samples of dataflow-log-signatures.md §1 (2022-10-28, 2019-02-04).
  CHECK(mask_message("job_id 2022-10-28_13_07_17-12646045757829274894") == "job_id <*>");
  CHECK(mask_message("app-kolban0kolban0altostr-10281307-71o6-harness-cqks") == "<*>");
  CHECK(mask_message("The work item was attempted on: rajsubtest-02040113-nvra-harness-t62t,") ==
        "The work item was attempted on: <*>,");
  // apache/beam#30482: an instruction id and a data-channel port.
  CHECK(mask_message("Exception while trying to handle InstructionRequest process_bundle-12") ==
        "Exception while trying to handle InstructionRequest <*>");
  CHECK(mask_message("Failed to handle for url: \"localhost:12371\"") == "Failed to handle for url: \"localhost:<*>\"");
  // RFC 4122 appendix C, the DNS namespace UUID.
  CHECK(mask_message("request 6ba7b810-9dad-11d1-80b4-00c04fd430c8 failed") == "request <*> failed");
  CHECK(mask_message("use_gpu=true cache=False") == "use_gpu=<*> cache=<*>");
}

TEST_CASE("masks hide paths with ids and keep other paths", "[unit]") {
  // Loghub HDFS_2k and Apache_2k lines (logpai/loghub).
  CHECK(mask_message("Deleting block blk_1350741653957819140 file "
                     "/mnt/hadoop/dfs/data/current/subdir32/blk_1350741653957819140") == "Deleting block <*> file <*>");
  CHECK(mask_message("workerEnv.init() ok /etc/httpd/conf/workers2.properties") == "workerEnv.init() ok <*>");
  // A Python traceback frame (issue 15's example): the user's file is kept.
  CHECK(mask_message("File \"/app/pipeline.py\", line 88, in process") ==
        "File \"/app/pipeline.py\", line <*>, in process");
}

TEST_CASE("masks keep words exception names and rule-like names", "[unit]") {
  // scikit-learn's check_array (sklearn/utils/validation.py), as issue 15 quotes it.
  const std::string value_error = "ValueError: Input contains NaN, infinity or a value too large for dtype('float32').";
  CHECK(mask_message(value_error) == value_error);
  // Loghub Apache_2k (logpai/loghub).
  CHECK(mask_message("jk2_init() Found child 3746 in scoreboard slot 7") ==
        "jk2_init() Found child <*> in scoreboard slot <*>");
  // Names, not log lines: gpudiag rule ids (rules/), a CUresult name (CUDA's cuda.h), a Dataflow
  // accelerator type (the GPU docs), a Python binary.
  const std::string names =
      "sdk-harness-disconnected workers-stuck-no-activity CUDA_ERROR_OUT_OF_MEMORY nvidia-tesla-t4 python3";
  CHECK(mask_message(names) == names);
  CHECK(mask_message("  Starting \t worker pool setup.  ") == "Starting worker pool setup.");
}

TEST_CASE("masking a masked message changes nothing so the miner takes masked lines as they are", "[unit]") {
  // Lines of the mask tests above (apache/beam#19306, PyTorch's CUDACachingAllocator.cpp message,
  // Loghub HDFS_2k, OpenSSH_2k and Linux_2k, dataflow-log-signatures.md §1) and the healthy run.
  std::vector<std::string> lines = kHealthyRun;
  lines.insert(lines.end(),
               {"<apache_beam.options.value_provider.StaticValueProvider object at 0x7fa38a661520>",
                "RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 14.58 GiB total capacity; "
                "12.91 GiB already allocated; 611.56 MiB free; 13.02 GiB reserved in total by PyTorch)",
                "BLOCK* NameSystem.addStoredBlock: blockMap updated: 10.251.71.240:50010 is added to "
                "blk_-6330812010936261924 size 67108864",
                "Deleting block blk_1350741653957819140 file "
                "/mnt/hadoop/dfs/data/current/subdir32/blk_1350741653957819140",
                "The work item was attempted on: rajsubtest-02040113-nvra-harness-t62t,", "use_gpu=true cache=False",
                "File \"/app/pipeline.py\", line 88, in process",
                "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=218.188.2.4",
                "Invalid user admin from 103.207.39.212", "  Starting \t worker pool setup.  "});
  TemplateMiner raw;
  TemplateMiner masked;
  for (const auto& line : lines) {
    const std::string once = mask_message(line);
    CHECK(mask_message(once) == once);
    CHECK(raw.add(line) == masked.add_masked(once));
  }
  REQUIRE(raw.groups() == masked.groups());
  for (size_t g = 0; g < raw.groups(); ++g) CHECK(raw.template_of(g) == masked.template_of(g));
}

TEST_CASE("a healthy run's job messages keep one group each", "[unit]") {
  TemplateMiner miner;
  const auto groups = mine_all(miner, kHealthyRun);
  CHECK(miner.groups() == kHealthyRun.size());
  for (size_t i = 0; i < groups.size(); ++i) CHECK(groups[i] == i);
  CHECK(miner.template_of(groups[4]) == "Starting worker pool setup.");
  CHECK(miner.template_of(groups[12]) == "Starting worker pool teardown.");
}

TEST_CASE("lines of one template with other values join one group", "[unit]") {
  TemplateMiner miner;
  // apache/beam#19306 and, with the job id of dataflow-log-signatures.md §1, the same job message.
  const size_t a = miner.add(
      "Autoscaling is enabled for job 2020-10-26_06_19_05-11247069410789502909. The number of workers will be "
      "between 1 and 100.");
  const size_t b = miner.add(
      "Autoscaling is enabled for job 2022-10-28_13_07_17-12646045757829274894. The number of workers will be "
      "between 1 and 1000.");
  CHECK(a == b);
  CHECK(miner.count(a) == 2);
  CHECK(miner.template_of(a) ==
        "Autoscaling is enabled for job <*>. The number of workers will be between <*> and <*>.");
  // Loghub OpenSSH_2k: a user name is no mask, Drain turns it into <*> when the rest is the same.
  const size_t c = miner.add("Invalid user admin from 103.207.39.212");
  const size_t d = miner.add("Invalid user abc from 187.141.143.180");
  CHECK(c == d);
  CHECK(miner.template_of(c) == "Invalid user <*> from <*>");
  // Loghub Linux_2k: a token keeps the text before '=' it shares.
  const size_t e = miner.add(
      "authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=d211-116-254-214.rev.krline.net");
  const size_t f = miner.add("authentication failure; logname= uid=0 euid=0 tty=NODEVssh ruser= rhost=218.188.2.4");
  CHECK(e == f);
  CHECK(miner.template_of(e) == "authentication failure; logname= uid=<*> euid=<*> tty=NODEVssh ruser= rhost=<*>");
}

TEST_CASE("the miner is deterministic", "[unit]") {
  TemplateMiner one;
  TemplateMiner two;
  std::vector<std::string> lines = kHealthyRun;
  lines.insert(lines.end(), kHealthyRun.rbegin(), kHealthyRun.rend());
  CHECK(mine_all(one, lines) == mine_all(two, lines));
  for (size_t g = 0; g < one.groups(); ++g) CHECK(one.template_of(g) == two.template_of(g));
  // Moving keeps the state.
  TemplateMiner moved = std::move(one);
  CHECK(moved.groups() == two.groups());
  CHECK(moved.add(kHealthyRun[3]) == 3);
}

TEST_CASE("past max_clusters new lines go to one overflow group", "[unit]") {
  TemplateMiner miner(MinerLimits{.max_clusters = 3});
  const auto groups = mine_all(miner, kHealthyRun);
  CHECK(groups[0] == 0);
  CHECK(groups[1] == 1);
  CHECK(groups[2] == 2);
  CHECK(miner.capped());
  CHECK(miner.overflow_group() == 3);
  for (size_t i = 3; i < groups.size(); ++i) CHECK(groups[i] == 3);
  CHECK(miner.count(3) == kHealthyRun.size() - 3);
  CHECK(miner.template_of(3) == std::string(kOverflowTemplate));
  // A line of an existing group still joins it.
  CHECK(miner.add(kHealthyRun[1]) == 1);
  CHECK(miner.groups() == 4);
}

TEST_CASE("past max_bytes new lines go to the overflow group", "[unit]") {
  TemplateMiner miner(MinerLimits{.max_bytes = 256 * 1024});
  // Each message repeats a real line a different number of times: a token count of its own, so a
  // group of its own, until the byte limit.
  size_t created = 0;
  for (int k = 1; k <= 2000 && !miner.capped(); ++k) {
    std::string message;
    for (int i = 0; i < k; ++i) message += kHealthyRun[1] + " ";
    const size_t group = miner.add(message);
    if (!miner.capped() && group == static_cast<size_t>(k - 1)) ++created;
  }
  REQUIRE(miner.capped());
  CHECK(created > 10);
  CHECK(created < 2000);
  CHECK(miner.overflow_group() == created);
  CHECK(miner.add(kHealthyRun[1] + " " + kHealthyRun[1]) == 1);  // an existing group still takes its lines
  CHECK(miner.add(kHealthyRun[5]) == miner.overflow_group());
  CHECK(TemplateMiner().capped() == false);
}

TEST_CASE("an empty message is a group and bad group ids are harmless", "[unit]") {
  TemplateMiner miner;
  const size_t empty = miner.add("");
  CHECK(miner.add("   ") == empty);
  CHECK(miner.template_of(empty).empty());
  CHECK(miner.template_of(99).empty());
  CHECK(miner.count(99) == 0);
  CHECK(miner.overflow_group() == miner.groups());
}

TEST_CASE("gpudiag patterns prints one row per line with its group's final template", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string path = dir + "/lines.txt";
  {
    std::ofstream out(path);
    // apache/beam#19306 and the job id of dataflow-log-signatures.md §1; Loghub OpenSSH_2k.
    out << "Autoscaling is enabled for job 2020-10-26_06_19_05-11247069410789502909. The number of workers will be "
           "between 1 and 100.\n"
        << "Invalid user admin from 103.207.39.212\n"
        << "Autoscaling is enabled for job 2022-10-28_13_07_17-12646045757829274894. The number of workers will be "
           "between 1 and 100.\n";
  }
  const auto tsv = test::run_gpudiag({"patterns", "--lines", path, "--format", "tsv"});
  CHECK(tsv.exit_code == 0);
  CHECK(tsv.out ==
        "1\t0\tAutoscaling is enabled for job <*>. The number of workers will be between <*> and <*>.\n"
        "2\t1\tInvalid user admin from <*>\n"
        "3\t0\tAutoscaling is enabled for job <*>. The number of workers will be between <*> and <*>.\n");
  const auto summary = test::run_gpudiag({"patterns", "--lines", path, "--format", "summary"});
  CHECK(summary.exit_code == 0);
  CHECK(summary.out ==
        "2\t0\tAutoscaling is enabled for job <*>. The number of workers will be between <*> and <*>.\n"
        "1\t1\tInvalid user admin from <*>\n");
}

TEST_CASE("gpudiag patterns on a missing file is exit 2 naming it", "[cli]") {
  const std::string missing = test::temp_dir() + "/no-such-lines.txt";
  const auto r = test::run_gpudiag({"patterns", "--lines", missing});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "gpudiag: " + missing + ": cannot open: No such file or directory\n");
}

TEST_CASE("a line seen again joins its group again after the group changed", "[unit]") {
  // A repeated line skips the search only while no group changed since it was last added; this
  // checks the answers stay those of a fresh search when groups change in between.
  TemplateMiner miner;
  const std::string a = "Worker pool setup finished on host alpha in zone west";
  const size_t first = miner.add(a);
  CHECK(miner.add(a) == first);
  CHECK(miner.add(a) == first);  // the second add changed nothing: this one is remembered
  // Another line of the same shape turns a token of the group into <*>.
  CHECK(miner.add("Worker pool setup finished on host beta in zone west") == first);
  CHECK(miner.template_of(first) == "Worker pool setup finished on host <*> in zone west");
  CHECK(miner.add(a) == first);
  CHECK(miner.template_of(first) == "Worker pool setup finished on host <*> in zone west");
  // A new group of the same length, then the first line again: still its own group.
  const size_t other = miner.add("Shuffle service stopped on disk three of seven total disks");
  CHECK(other != first);
  CHECK(miner.add(a) == first);
  CHECK(miner.add("Shuffle service stopped on disk three of seven total disks") == other);
  CHECK(miner.count(first) == 6);
  CHECK(miner.count(other) == 2);
  // Lines the same but for their blanks are the same tokens.
  CHECK(miner.add("Shuffle  service stopped on disk three of seven total disks") == other);
  CHECK(miner.count(other) == 3);
}

TEST_CASE("lines that differ in their second token are compared only past the tree's prefix tokens", "[unit]") {
  // Loghub-2k OpenStack (https://github.com/logpai/loghub; Zhu et al., ISSRE 2023): nova's WSGI
  // access lines, a GET and a POST, nine tokens that differ in one past the client address. With
  // one prefix token the address is <*> and the lines share a leaf, so 8/9 similar tokens merge
  // them; with two (the default, chosen by tools/miner-loso) `"GET` and `"POST` are two leaves.
  const std::string get =
      "10.11.10.1 \"GET /v2/54fadb412c4e40cdbaed9335e4c35a9e/servers/detail HTTP/1.1\" status: 200 len: 1893 time: "
      "0.2477829";
  const std::string post =
      "10.11.10.1 \"POST /v2/54fadb412c4e40cdbaed9335e4c35a9e/servers/detail HTTP/1.1\" status: 200 len: 1893 time: "
      "0.2477829";
  TemplateMiner shallow(MinerLimits{.prefix_tokens = 1});
  const size_t shallow_get = shallow.add(get);
  CHECK(shallow.add(post) == shallow_get);
  TemplateMiner deep;
  CHECK(MinerLimits{}.prefix_tokens == 2);
  const size_t deep_get = deep.add(get);
  CHECK(deep.add(post) != deep_get);
  CHECK(deep.add(get) == deep_get);
}
