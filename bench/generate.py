#!/usr/bin/env python3
"""Deterministic generator of large, realistic Dataflow GPU log exports for benchmarks.

The entries are the corpus' own (real log text in LogEntry envelopes, see corpus/INDEX.md): the
healthy hay of every case — job-message lifecycle, SDK harness start-up, docker, kubelet and system
lines, COS driver installs, TensorFlow device lines — re-stamped with fresh timestamps, insertIds
and worker names, plus long worker tracebacks, and the failure entries the labels point at, mixed in
at a fixed rate. Same arguments, same bytes.

  bench/generate.py --size 1G --shape ndjson --out bench/data/1g.ndjson
  bench/generate.py --size 1G --shape array  --out bench/data/1g.json      # gcloud's pretty array
  bench/generate.py --size 100M --shape ndjson --gzip --out bench/data/100m.ndjson.gz
  bench/generate.py --size 1G --jobs 31 --out bench/data/1g-31jobs.ndjson      # a day's sink shard
  bench/generate.py --size 1G --healthy --out bench/data/1G-healthy.ndjson     # green runs only

Without --jobs every entry keeps the job id of the corpus case it was taken from (so the export holds
as many job ids as there are cases), as it always did: that output is unchanged. With --jobs N every
entry is rewritten to belong to one of N jobs of one project, each with its own job id, name and
worker VMs, and the jobs' entries are interleaved by time the way a day's sink shard holds them:
each job runs in its own window of the export's time span, and about three jobs run at any moment.
The total size is the one asked for, whatever N is (--jobs 1 and --jobs 31 at the same --size are
the same amount of work for a per-job engine).

With --healthy no failure entry is mixed in: only the healthy and near-miss cases' entries (their
jobs all succeed, with the ERROR-level chatter green runs have) and the long, retried tracebacks.
Nothing in it may become a finding or an error-level unexplained group.
"""
import argparse
import gzip
import json
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, 'corpus')


def parse_size(text):
    m = re.fullmatch(r'(\d+(?:\.\d+)?)([KMG]?)', text.upper())
    if not m:
        raise argparse.ArgumentTypeError('size like 10M, 1G')
    return int(float(m.group(1)) * {'': 1, 'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}[m.group(2)])


def read_entries(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8', errors='replace') as f:
        text = f.read()
    stripped = text.lstrip()
    if stripped.startswith('['):
        try:
            return json.loads(text), None
        except json.JSONDecodeError:
            return [], None
    entries, lines = [], []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        try:
            entries.append(json.loads(line))
            lines.append(n)
        except json.JSONDecodeError:
            pass
    return entries, lines


def entry_lines_of_array(path):
    """1-based line where each element of a pretty-printed array starts."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8', errors='replace') as f:
        return [n for n, line in enumerate(f, 1) if line.rstrip('\r\n') == '  {']


def load_templates():
    """The hay: every entry of the healthy and near-miss cases. The needles: the entries the other
    cases' labels cite as evidence."""
    healthy, failures = [], []
    for case in sorted(os.listdir(CORPUS)):
        d = os.path.join(CORPUS, case)
        labels = os.path.join(d, 'labels.yaml')
        if not os.path.isfile(labels) or case.startswith(('messy-', 'hostile-', 'empty-')):
            continue
        hay_case = case.startswith(('healthy-', 'near-miss-'))
        with open(labels, encoding='utf-8') as f:
            text = f.read()
        if re.search(r'^jobs:', text, re.M):
            continue  # cases with a truth per job (several jobs in one export) are not templates
        evidence = {int(n) for n in re.findall(r'\d+', ' '.join(re.findall(r'evidence_lines: \[([^\]]*)\]', text)))}
        for name in sorted(os.listdir(d)):
            if not name.startswith('export'):
                continue
            path = os.path.join(d, name)
            entries, lines = read_entries(path)
            if lines is None:
                lines = entry_lines_of_array(path)
            for e, line in zip(entries, lines):
                if not isinstance(e, dict):
                    continue
                if hay_case:
                    healthy.append(e)
                elif line in evidence:
                    failures.append(e)
    return healthy, failures


def is_job_message(entry):
    return 'job-message' in entry.get('logName', '')


TRACEBACK_FRAMES = [
    'File "/usr/local/lib/python3.10/site-packages/apache_beam/runners/worker/sdk_worker.py", line 300, in _execute',
    'File "/usr/local/lib/python3.10/site-packages/apache_beam/runners/worker/bundle_processor.py", line 1180, in process_bundle',
    'File "apache_beam/runners/common.py", line 1494, in apache_beam.runners.common.DoFnRunner.process',
    'File "/usr/local/lib/python3.10/site-packages/apache_beam/ml/inference/base.py", line 1116, in process',
    'File "/usr/local/lib/python3.10/site-packages/google/api_core/retry.py", line 349, in retry_wrapped_func',
]


def long_traceback(rng):
    """A long, harmless worker traceback (retried transient error) — the kind that makes exports big."""
    frames = [rng.choice(TRACEBACK_FRAMES) for _ in range(rng.randint(20, 60))]
    body = '\n  '.join(frames)
    return ('Traceback (most recent call last):\n  ' + body +
            '\ngoogle.api_core.exceptions.ServiceUnavailable: 503 The service is currently unavailable. (retrying)')


def restamp(entry, rng, n, t_ns, workers):
    e = json.loads(json.dumps(entry))  # deep copy
    secs, frac = divmod(t_ns, 1_000_000_000)
    digits = rng.choice((0, 3, 6, 9))
    stamp = __import__('time').strftime('%Y-%m-%dT%H:%M:%S', __import__('time').gmtime(secs))
    if digits:
        stamp += '.' + f'{frac:09d}'[:digits]
    e['timestamp'] = stamp + 'Z'
    if 'receiveTimestamp' in e:
        e['receiveTimestamp'] = stamp + 'Z'
    e['insertId'] = f'{n:012x}{rng.getrandbits(32):08x}'
    labels = e.get('labels')
    if isinstance(labels, dict) and 'compute.googleapis.com/resource_name' in labels:
        labels['compute.googleapis.com/resource_name'] = rng.choice(workers)
    return e


class Jobs:
    """N synthetic jobs of one project, each active in its own window of the export."""

    def __init__(self, n, seed, t0_ns):
        rng = random.Random(seed * 1_000_003 + n)
        self.n = n
        self.width = min(1.0, 3.0 / n)
        words = ('embed', 'score', 'ocr', 'detect', 'wordcount', 'sessionize', 'dedupe', 'export')
        self.ids, self.names, self.workers = [], [], []
        for k in range(n):
            start_s = t0_ns // 1_000_000_000 + int(self.start(k) * 86_400)
            local = __import__('time').gmtime(start_s - 8 * 3600)   # job ids are US Pacific time
            self.ids.append(__import__('time').strftime('%Y-%m-%d_%H_%M_%S', local) +
                            '-%d' % rng.randrange(10 ** 18, 2 * 10 ** 19))
            name = 'benchjob-%04d-%s' % (k, words[k % len(words)])
            self.names.append(name)
            stamp = __import__('time').strftime('%m%d%H%M', local)
            tag = '%04x' % rng.getrandbits(16)
            self.workers.append(['%s-%s-%s-harness-%04x' % (name[:25], stamp, tag, rng.getrandbits(16))
                                 for _ in range(4)])

    def start(self, k):
        return 0.0 if self.width >= 1.0 else k / self.n * (1.0 - self.width)

    def pick(self, rng, progress):
        """A job running at this point of the export (0 <= progress < 1)."""
        if self.width >= 1.0:      # up to three jobs: all of them run the whole time
            return rng.randrange(self.n)
        span = self.n / (1.0 - self.width)
        lo = min(self.n - 1, max(0, int(-(-(progress - self.width) * span // 1))))
        hi = min(self.n - 1, int(progress * span))
        return rng.randint(lo, max(lo, hi))

    def assign(self, e, k, rng):
        job_id, name = self.ids[k], self.names[k]
        res = e.get('resource')
        if isinstance(res, dict) and isinstance(res.get('labels'), dict):
            res['labels']['job_id'] = job_id
            res['labels']['job_name'] = name
        labels = e.get('labels')
        worker = None
        if isinstance(labels, dict):
            if 'dataflow.googleapis.com/job_id' in labels:
                labels['dataflow.googleapis.com/job_id'] = job_id
            if 'dataflow.googleapis.com/job_name' in labels:
                labels['dataflow.googleapis.com/job_name'] = name
            if 'compute.googleapis.com/resource_name' in labels:
                worker = rng.choice(self.workers[k])
                labels['compute.googleapis.com/resource_name'] = worker
        payload = e.get('jsonPayload')
        if isinstance(payload, dict):
            if 'job' in payload:
                payload['job'] = job_id
            if 'worker' in payload and worker is not None:
                payload['worker'] = worker


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--size', type=parse_size, required=True, help='approximate output size (e.g. 10M, 1G)')
    ap.add_argument('--shape', choices=('ndjson', 'array'), default='ndjson')
    ap.add_argument('--gzip', action='store_true')
    ap.add_argument('--failure-every', type=int, default=20000, help='one failure entry per N entries')
    ap.add_argument('--traceback-every', type=int, default=400, help='one long traceback per N entries')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--jobs', type=int, default=None,
                    help='rewrite the entries into N jobs, interleaved by time (default: keep the '
                         'corpus cases\' own job ids)')
    ap.add_argument('--healthy', action='store_true',
                    help='no failure entries: a green export (the hay and the retried tracebacks only)')
    ap.add_argument('--out', required=True)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    healthy, failures = load_templates()
    if not healthy:
        sys.exit('no corpus entries found under ' + CORPUS)
    workers = [f'benchjob-11281405-4dok-harness-{rng.getrandbits(16):04x}' for _ in range(40)]
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    raw = open(args.out, 'wb')
    out = gzip.GzipFile(fileobj=raw, mode='wb', compresslevel=6, mtime=0) if args.gzip else raw
    written = 0
    n = 0
    t_ns = 1_700_000_000 * 1_000_000_000
    if args.jobs is not None and args.jobs < 1:
        sys.exit('--jobs must be at least 1')
    jobs = Jobs(args.jobs, args.seed, t_ns) if args.jobs else None
    job_rng = random.Random(args.seed * 7_919 + (args.jobs or 0))   # own stream: the default path is untouched
    if args.shape == 'array':
        out.write(b'[\n')
        written += 2
    while written < args.size:
        n += 1
        t_ns += rng.randint(1_000_000, 300_000_000)
        if n % args.failure_every == 0 and failures:
            template = rng.choice(failures)
            if args.healthy:
                continue  # a green export: the failure's slot stays empty
        else:
            # A job logs a few dozen job messages but thousands of worker, docker and system lines.
            template = rng.choice(healthy)
            while is_job_message(template) and rng.random() < 0.95:
                template = rng.choice(healthy)
        e = restamp(template, rng, n, t_ns, workers)
        if jobs is not None:
            jobs.assign(e, jobs.pick(job_rng, min(written / args.size, 0.999999)), job_rng)
        if n % args.traceback_every == 0:
            payload = e.setdefault('jsonPayload', {}) if 'textPayload' not in e else None
            if payload is not None and isinstance(payload, dict):
                payload['exception'] = long_traceback(rng)
        if args.shape == 'ndjson':
            data = (json.dumps(e, separators=(',', ':'), ensure_ascii=False) + '\n').encode()
        else:
            body = json.dumps(e, indent=2, ensure_ascii=False)
            data = (('' if n == 1 else ',\n') + '\n'.join('  ' + l for l in body.splitlines())).encode()
        out.write(data)
        written += len(data)
    if args.shape == 'array':
        out.write(b'\n]\n')
    out.close()
    if args.gzip:
        raw.close()
    print(f'{args.out}: {n} entries, {written} bytes of JSON' +
          (f', {args.jobs} jobs' if jobs is not None else ''), file=sys.stderr)


if __name__ == '__main__':
    main()
