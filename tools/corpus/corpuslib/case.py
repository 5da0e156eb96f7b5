"""Case builder: LogEntry envelopes, exports and labels for one corpus case.

A case spec (tools/corpus/cases/<name>.py) defines `build(c)` and receives a Case. It creates a
Job, adds entries through the Job's per-log methods (each with a source key and optionally a
`mark`), declares outputs (export files) and expectations (fire / inconclusive / input). The
Case then renders the export bytes and labels.yaml; evidence line numbers are computed from
the rendered export, so they never drift from the file.
"""

import datetime as _dt
import gzip
import hashlib
import json
import random
import re

from . import sources as _sources

NS = 1_000_000_000
_TFTS = re.compile(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+: ')
_DIGITS = re.compile(r'\d+')


# --------------------------------------------------------------------------------------------
# time helpers


def _pacific_offset_hours(utc):
    """US Pacific UTC offset (-7 in DST, -8 otherwise) for job ids and VM names."""
    y = utc.year
    # second Sunday of March, 10:00 UTC; first Sunday of November, 09:00 UTC
    mar = _dt.datetime(y, 3, 8)
    while mar.weekday() != 6:
        mar += _dt.timedelta(days=1)
    nov = _dt.datetime(y, 11, 1)
    while nov.weekday() != 6:
        nov += _dt.timedelta(days=1)
    start = mar.replace(hour=10)
    end = nov.replace(hour=9)
    return -7 if start <= utc.replace(tzinfo=None) < end else -8


def parse_utc(s):
    return _dt.datetime.strptime(s, '%Y-%m-%dT%H:%M:%SZ')


def fmt_ts(ns_total, digits):
    """RFC 3339 'Zulu' with `digits` fractional digits (0-9), trailing zeros trimmed."""
    secs, frac = divmod(ns_total, NS)
    t = _dt.datetime(1970, 1, 1) + _dt.timedelta(seconds=secs)
    base = t.strftime('%Y-%m-%dT%H:%M:%S')
    if digits <= 0:
        return base + 'Z'
    f = ('%09d' % frac)[:digits].rstrip('0')
    return base + ('.' + f if f else '') + 'Z'


def to_ns(t):
    return int((t - _dt.datetime(1970, 1, 1)).total_seconds()) * NS


# --------------------------------------------------------------------------------------------


LOG_KIND = {
    # log short name -> (payload kind, insertId style, default log_type label)
    'job-message': ('text', 'short', 'system'),
    'worker': ('json', 'worker', None),
    'harness': ('json', 'worker', None),
    'harness-startup': ('json', 'worker', 'system'),
    'docker': ('json', 'worker', 'system'),
    'kubelet': ('json', 'journald', 'system'),
    'system': ('json', 'journald', 'system'),
    'worker-startup': ('json', 'journald', 'system'),
    'nvidia-mps': ('json', 'journald', 'system'),
    # Flex Template launcher VM: jsonPayload {message, line}, insertId "<vm id>:<n>:0:<n>", no
    # log_type label (the real entry copied into GoogleCloudPlatform/DataflowTemplates,
    # pubsub-to-redis PublishMessage.java, 2023)
    'launcher': ('json', 'launcher', None),
}

# fractional digits a log's timestamps tend to carry (weights), 0..9
DIGIT_WEIGHTS = {
    'job-message': [1, 0, 0, 2, 0, 0, 3, 0, 0, 14],
    'worker': [1, 0, 0, 3, 0, 0, 5, 0, 0, 10],
    'harness': [1, 0, 0, 3, 0, 0, 5, 0, 0, 10],
    'docker': [1, 1, 1, 2, 1, 1, 4, 1, 1, 8],
    'default': [1, 1, 1, 1, 1, 1, 6, 1, 1, 6],
}


class Entry:
    __slots__ = ('case', 'seq', 'log', 'ns', 'fields', 'mark', 'src', 'cite', 'worker', 'block_head')

    def __init__(self, case, seq, log, ns, fields, mark, src, cite, worker):
        self.case, self.seq, self.log, self.ns = case, seq, log, ns
        self.fields, self.mark, self.src, self.cite, self.worker = fields, mark, src, cite, worker
        self.block_head = None   # launcher_lines: the first entry of its one-line-per-entry block


class Job:
    """One Dataflow job: resource labels, worker VM names, and per-log entry constructors."""

    def __init__(self, case, name, start, region='us-central1', zone=None, project='acme-ml-prod',
                 project_number=None, job_number=None, python='3.10', beam='2.53.0',
                 workers=1, worker_prefix=None):
        self.case = case
        self.name = name
        self.start = parse_utc(start)
        self.start_ns = to_ns(self.start)
        self.region = region
        self.zone = zone or (region + '-a')
        self.project = project
        self.project_number = project_number
        self.python = python
        self.beam = beam
        rng = case.rng
        off = _pacific_offset_hours(self.start)
        local = self.start + _dt.timedelta(hours=off)
        num = job_number or str(rng.randrange(10 ** 18, 10 ** 19 * 2))
        self.id = local.strftime('%Y-%m-%d_%H_%M_%S') + '-' + num
        prefix = (worker_prefix or name)[:25].rstrip('-').replace('_', '0')
        stamp = local.strftime('%m%d%H%M')
        tag = _rand_str(rng, 4)
        self.worker_names = []
        self.worker_ids = {}
        for _ in range(workers):
            self.add_worker(prefix, stamp, tag)
        self._prefix, self._stamp, self._tag = prefix, stamp, tag

    def add_worker(self, prefix=None, stamp=None, tag=None):
        rng = self.case.rng
        name = '%s-%s-%s-harness-%s' % (prefix or self._prefix, stamp or self._stamp,
                                         tag or self._tag, _rand_str(rng, 4))
        self.worker_names.append(name)
        self.worker_ids[name] = str(rng.randrange(10 ** 18, 9 * 10 ** 18))
        return name

    @property
    def w(self):
        return self.worker_names

    # -- labels -------------------------------------------------------------------------------
    def _resource(self, step=''):
        return {
            'type': 'dataflow_step',
            'labels': {
                'job_id': self.id,
                'job_name': self.name,
                'project_id': self.project_number or self.project,
                'region': self.region,
                'step_id': step,
            },
        }

    def _labels(self, log, worker):
        kind = LOG_KIND[log]
        lab = {}
        if kind[2]:
            lab['dataflow.googleapis.com/log_type'] = kind[2]
        if worker:
            lab['compute.googleapis.com/resource_type'] = 'instance'
            lab['compute.googleapis.com/resource_name'] = worker
            lab['compute.googleapis.com/resource_id'] = self.worker_ids.get(worker, '0')
        lab['dataflow.googleapis.com/job_name'] = self.name
        lab['dataflow.googleapis.com/region'] = self.region
        lab['dataflow.googleapis.com/job_id'] = self.id
        return lab

    # -- entry constructors ----------------------------------------------------------------------
    def _add(self, log, t, severity, payload, worker=None, step='', mark=None, src=None, cite=None,
             exact_ns=None):
        ns = self.start_ns + int(round(t * 1000)) * 1_000_000 + self.case.rng.randrange(0, 999_999)
        fields = {'log': log, 'severity': severity, 'payload': payload, 'worker': worker,
                  'step': step, 'job': self}
        if exact_ns is not None:      # split stderr lines: their order lives in the timestamp
            ns = exact_ns
            fields['digits'] = 9
        return self.case._add_entry(log, ns, fields, mark, src, cite, worker)

    def msg(self, t, text, sev='INFO', src='sig-2i', mark=None, cite=None):
        """job-message entry (textPayload)."""
        return self._add('job-message', t, sev, text, None, '', mark, src, cite)

    def wlog(self, t, worker, message, sev='INFO', src='jcbaey', mark=None, cite=None,
             logger=None, thread='MainThread', exception=None, sdk='sdk-0-0', step='',
             module='apache_beam/runners/worker/sdk_worker_main.py', line=None):
        """worker log entry (jsonPayload with message/exception/logger/thread/job/worker)."""
        if logger is None:
            if module.startswith('/'):
                logger = module
            else:
                logger = '/usr/local/lib/python%s/site-packages/%s:%d' % (
                    self.python, module, line or 136)
        p = {'job': self.id, 'logger': logger, 'message': message, 'thread': thread,
             'worker': worker}
        if sdk:
            p['portability_worker_id'] = sdk
        if exception is not None:
            p['exception'] = exception
        if step:
            p['step'] = step
        return self._add('worker', t, sev, p, worker, step, mark, src, cite)

    def _simple(self, log, t, worker, message, sev, src, mark, cite, extra=None):
        p = {'message': message}
        if extra:
            p.update(extra)
        return self._add(log, t, sev, p, worker, '', mark, src, cite)

    def docker(self, t, worker, message, sev='INFO', src=None, mark=None, cite=None):
        return self._simple('docker', t, worker, message, sev, src, mark, cite)

    def docker_lines(self, t, worker, lines, sev='ERROR', src=None, mark=None, cite=None,
                     step_us=9):
        """A multi-line stderr write as the docker log stores it: one entry per line, `step_us`
        microseconds apart, 9-digit timestamps (apache/beam PR #33317). `mark` tags the first
        line's entry (where the reassembled copy starts). Returns the entries."""
        base = self.start_ns + int(round(t * 1_000_000)) * 1000
        out = []
        for k, line in enumerate(lines):
            out.append(self._add('docker', t, sev, {'message': line}, worker, '',
                                 mark if k == 0 else None, src if k == 0 else None,
                                 cite if k == 0 else None, exact_ns=base + k * step_us * 1000))
        return out

    def kubelet(self, t, worker, message, sev='INFO', src=None, mark=None, cite=None):
        return self._simple('kubelet', t, worker, message, sev, src, mark, cite)

    def system(self, t, worker, message, sev='INFO', src=None, mark=None, cite=None):
        return self._simple('system', t, worker, message, sev, src, mark, cite)

    def startup(self, t, worker, message, sev='INFO', src=None, mark=None, cite=None):
        return self._simple('worker-startup', t, worker, message, sev, src, mark, cite)

    def harness(self, t, worker, message, sev='INFO', src=None, mark=None, cite=None):
        return self._simple('harness', t, worker, message, sev, src, mark, cite)

    def harness_startup(self, t, worker, message, sev='INFO', src=None, mark=None, cite=None):
        return self._simple('harness-startup', t, worker, message, sev, src, mark, cite)

    @property
    def launcher_vm(self):
        """The Flex Template launcher VM: 'launcher-' + the job id's digits (real form:
        launcher-2023050916043812092580578624392451 for job 2023-05-09_16_04_38-12092580578624392451)."""
        name = 'launcher-' + ''.join(ch for ch in self.id if ch.isdigit())
        if name not in self.worker_ids:
            self.worker_ids[name] = str(self.case.rng.randrange(10 ** 18, 9 * 10 ** 18))
        return name

    def launcher(self, t, message, sev='INFO', src=None, mark=None, cite=None, line='exec.go:66'):
        """Flex Template launcher log entry (jsonPayload.message + jsonPayload.line)."""
        p = {'message': message}
        if line:
            p['line'] = line
        return self._add('launcher', t, sev, p, self.launcher_vm, '', mark, src, cite)


    def launcher_lines(self, t, lines, sev='INFO', src=None, mark=None, cite=None, step_us=10,
                       line='exec.go:64'):
        """The launcher's copy of a program's multi-line output: one entry per line, `step_us`
        microseconds apart, each at `sev` (python-docs-samples#4891: every line of a traceback an
        INFO entry from exec.go:64, about 10 µs apart). `mark` tags the first line's entry."""
        base = self.start_ns + int(round(t * 1_000_000)) * 1000
        out = []
        for k, text in enumerate(lines):
            p = {'message': text}
            if line:
                p['line'] = line
            out.append(self._add('launcher', t, sev, p, self.launcher_vm, '',
                                 mark if k == 0 else None, src if k == 0 else None,
                                 cite if k == 0 else None, exact_ns=base + k * step_us * 1000))
        for e in out[1:]:
            e.block_head = out[0]   # the spec's claims may be in any line of the block
        return out


def _rand_str(rng, n, alphabet='abcdefghijklmnopqrstuvwxyz0123456789'):
    return ''.join(rng.choice(alphabet) for _ in range(n))


# --------------------------------------------------------------------------------------------


class Output:
    def __init__(self, file, shape, order, gz, crlf, projection, logs, duplicates, malformed,
                 truncate, note):
        self.file, self.shape, self.order, self.gz, self.crlf = file, shape, order, gz, crlf
        self.projection, self.logs, self.duplicates = projection, logs, duplicates
        self.malformed, self.truncate, self.note = malformed, truncate, note
        self.lines = {}          # entry seq -> first line number
        self.count = 0           # distinct entries analysable in this file
        self.dups = 0
        self.skipped = 0
        self.data = b''


class Case:
    def __init__(self, name):
        self.name = name
        seed = int(hashlib.sha256(name.encode()).hexdigest()[:16], 16)
        self.rng = random.Random(seed)
        self.entries = []
        self.outputs = []
        self.description = ''
        self._fire = []
        self._may = []
        self._not = []
        self._inconclusive = []
        self._args = []
        self._input = {}
        self._extra_files = {}
        self._extra_sources = []
        self._seq = 0
        self.jobs = []
        self._job_truth = []      # (job, outcome, verdict, not_fire, inconclusive, may_fire)
        self._unexplained = []    # groups that must be reported at error level
        self._unexplained_none = False   # say `unexplained: []` (the default when absent)

    # -- spec API -----------------------------------------------------------------------------
    def describe(self, text):
        self.description = ' '.join(text.split())

    def job(self, name, start, **kw):
        j = Job(self, name, start, **kw)
        self.jobs.append(j)
        return j

    def _add_entry(self, log, ns, fields, mark, src, cite, worker):
        e = Entry(self, self._seq, log, ns, fields, mark, src, cite, worker)
        self._seq += 1
        self.entries.append(e)
        return e

    def output(self, file='export.json', shape=None, order=None, gz=None, crlf=False,
               projection=None, logs=None, duplicates=(), malformed=None, truncate=False,
               note=None):
        """Declare an export file.

        shape: 'array' (gcloud --format=json) or 'ndjson' (Cloud Storage sink shard).
        order: 'newest' (gcloud default), 'shuffle' (sink; also for a messy array), 'oldest'.
        projection: list of dotted fields kept (e.g. ['timestamp', 'jsonPayload.message']).
        logs: only entries of these log names go to this file.
        duplicates: marks (or entry objects) whose entries are written twice.
        malformed: (after_line_index, raw_text) inserted as a raw line into an NDJSON shard.
        truncate: cut the file inside its last entry (truncated tail).
        """
        if shape is None:
            shape = 'ndjson' if '.ndjson' in file or '.jsonl' in file else 'array'
        if order is None:
            order = 'newest' if shape == 'array' else 'shuffle'
        if gz is None:
            gz = file.endswith('.gz')
        self.outputs.append(Output(file, shape, order, gz, crlf, projection, logs,
                                   list(duplicates), malformed, truncate, note))

    def fire(self, rule, marks=(), captures=None, caused_by=None, job=None):
        """A rule that must fire; `job` (a Job) names the job whose finding it is."""
        self._fire.append({'rule': rule, 'marks': list(marks), 'captures': captures,
                           'caused_by': caused_by, 'job': job})

    def unexplained(self, exception, message, user_frame, step, marks=(), job=None, severity='error',
                    key_strings=()):
        """An error no rule explains that gpudiag must report as an error-level group (labels
        `unexplained:`): the exception type of the cause ('' for a plain error line), a substring
        of its exception line, the innermost user frame as 'basename:line' (None when there is
        none), the Beam step of "[while running '...']" (None when none), and the entries where
        the exemplar's copies start. build.py checks that the marked entries hold these texts.
        `severity='info'`: the group is listed, but not as the cause (a cause rule explains the job).
        `key_strings`: the decisive text an engineer needs (issue 39), each found in some entry of
        the case; the report's first 25 text lines must hold each, and the verdict the first."""
        if severity not in ('error', 'info'):
            raise ValueError('%s: unexplained severity %r is not error or info' % (self.name, severity))
        self._unexplained.append({'exception': exception, 'message': message,
                                  'user_frame': user_frame, 'step': step, 'marks': list(marks),
                                  'job': job, 'severity': severity, 'key_strings': list(key_strings)})

    def no_unexplained(self):
        """Write `unexplained: []`: no group at error level (what an absent key means too; for
        cases whose point is that nothing is reported, e.g. healthy runs with error noise)."""
        self._unexplained_none = True

    OUTCOMES = ('succeeded', 'failed', 'cancelled', 'drained', 'updated', 'running', 'queued',
                'unknown')
    VERDICTS = ('ok', 'warning', 'failed', 'empty')

    def job_truth(self, job, outcome, verdict, not_fire=(), inconclusive=(), may_fire=()):
        """The truth about one job of the export (labels `jobs:`): how it ended and the verdict
        gpudiag must give it. Its `fire` list is the case's fire() calls made with job=job."""
        if outcome not in self.OUTCOMES:
            raise ValueError('%s: outcome %r is not one of %s' % (self.name, outcome, self.OUTCOMES))
        if verdict not in self.VERDICTS:
            raise ValueError('%s: verdict %r is not one of %s' % (self.name, verdict, self.VERDICTS))
        self._job_truth.append((job, outcome, verdict, list(not_fire), list(inconclusive),
                                list(may_fire)))

    def may_fire(self, *rules):
        self._may.extend(rules)

    def not_fire(self, *rules):
        self._not.extend(rules)

    def inconclusive(self, *rules):
        self._inconclusive.extend(rules)

    def args(self, *a):
        self._args.extend(a)

    def input(self, **kw):
        self._input.update(kw)

    def extra_file(self, name, data, sources=()):
        """Another file of the case (job.json …)."""
        self._extra_files[name] = data
        self._extra_sources.extend(sources)

    def source(self, text, src):
        """A source line that is not tied to one entry (e.g. the job.json)."""
        self._extra_sources.append((text, src))

    # -- rendering ------------------------------------------------------------------------------
    def _entry_json(self, e, ordered_like_api):
        f = e.fields
        job = f['job']
        kind = LOG_KIND[e.log]
        digits_w = DIGIT_WEIGHTS.get(e.log, DIGIT_WEIGHTS['default'])
        r = random.Random(hash_int(self.name, e.seq))
        digits = r.choices(range(10), weights=digits_w)[0]
        digits = f.get('digits', digits)
        ts = fmt_ts(e.ns, digits)
        recv_ns = e.ns + r.randrange(150_000_000, 9_000_000_000 if e.log != 'job-message'
                                     else 1_200_000_000)
        recv = fmt_ts(recv_ns, 9)
        if kind[1] == 'short':
            iid = _rand_str(r, r.choice([10, 11, 12, 13]))
        elif kind[1] == 'journald':
            iid = 's=%s;i=%x;b=%s;m=%x;t=%x;x=%s' % (
                '%032x' % r.getrandbits(128), r.randrange(0x100, 0x40000),
                '%032x' % r.getrandbits(128), r.randrange(0x100000, 0x40000000),
                e.ns // 1000, '%016x' % r.getrandbits(64))
        elif kind[1] == 'launcher':
            iid = '%s:%d:0:%d' % (job.worker_ids.get(e.worker, '0'), r.randrange(100000, 999999),
                                  r.randrange(1000, 99999))
        else:
            iid = _rand_str(r, r.choice([13, 14, 15]))
        payload_key = 'textPayload' if kind[0] == 'text' else 'jsonPayload'
        log_name = 'projects/%s/logs/dataflow.googleapis.com%%2F%s' % (job.project, e.log)
        d = {}
        d['insertId'] = iid
        d[payload_key] = f['payload']
        d['resource'] = job._resource(f['step'])
        d['timestamp'] = ts
        if f['severity'] is not None:
            d['severity'] = f['severity']
        d['labels'] = job._labels(e.log, e.worker)
        d['logName'] = log_name
        d['receiveTimestamp'] = recv
        return d

    def _project(self, d, fields):
        out = {}
        for path in fields:
            parts = path.split('.')
            cur = d
            ok = True
            for p in parts:
                if isinstance(cur, dict) and p in cur:
                    cur = cur[p]
                else:
                    ok = False
                    break
            if not ok:
                continue
            tgt = out
            for p in parts[:-1]:
                tgt = tgt.setdefault(p, {})
            tgt[parts[-1]] = cur
        return out

    def _render_output(self, o):
        ents = [e for e in self.entries if o.logs is None or e.log in o.logs]
        # ordering
        if o.order == 'newest':
            ents = sorted(ents, key=lambda e: (-e.ns, e.seq))
        elif o.order == 'oldest':
            ents = sorted(ents, key=lambda e: (e.ns, e.seq))
        elif o.order == 'shuffle':
            ents = sorted(ents, key=lambda e: (e.ns, e.seq))
            random.Random(hash_int(self.name, o.file)).shuffle(ents)
        else:
            raise ValueError(o.order)
        dup_set = set()
        for d in o.duplicates:
            for e in ents:
                if (isinstance(d, Entry) and e is d) or (isinstance(d, str) and e.mark == d):
                    dup_set.add(e.seq)
        objs = []          # (entry or None, json-able dict or raw string)
        for e in ents:
            d = self._entry_json(e, True)
            if o.projection:
                d = self._project(d, o.projection)
            objs.append((e, d))
        # duplicates: re-insert a copy later in the file (sink overlap / re-export)
        r = random.Random(hash_int(self.name, o.file, 'dup'))
        for (e, d) in list(objs):
            if e.seq in dup_set:
                pos = r.randrange(0, len(objs) + 1)
                idx = objs.index((e, d))
                pos = max(pos, idx + 1)
                objs.insert(pos, (e, json.loads(json.dumps(d))))
        o.dups = len(dup_set)
        lines_out = []
        seen = set()
        if o.shape == 'array':
            if not objs:
                text = '[]\n'
            else:
                chunks = []
                line = 2
                for (e, d) in objs:
                    s = json.dumps(d, indent=2, sort_keys=True, ensure_ascii=False)
                    s = '\n'.join('  ' + ln for ln in s.split('\n'))
                    if e.seq not in seen:
                        o.lines[e.seq] = line
                        seen.add(e.seq)
                    line += s.count('\n') + 1
                    chunks.append(s)
                text = '[\n' + ',\n'.join(chunks) + '\n]\n'
                check = json.dumps([d for (_, d) in objs], indent=2, sort_keys=True,
                                   ensure_ascii=False) + '\n'
                assert text == check, 'array rendering mismatch'
        else:
            for (e, d) in objs:
                s = json.dumps(d, separators=(',', ':'), ensure_ascii=False)
                lines_out.append((e, s))
            if o.malformed is not None:
                after, raw = o.malformed
                lines_out.insert(after, (None, raw))
                o.skipped += 1
            for i, (e, s) in enumerate(lines_out):
                if e is not None and e.seq not in seen:
                    o.lines[e.seq] = i + 1
                    seen.add(e.seq)
            text = '\n'.join(s for (_, s) in lines_out) + ('\n' if lines_out else '')
        o.count = len(seen)
        if o.truncate:
            # cut inside the last entry: keep roughly 60 % of it, no trailing newline
            if o.shape == 'array':
                last_start = text.rfind('\n  {\n')
                cut = last_start + int((len(text) - last_start) * 0.6)
                text = text[:cut]
            else:
                body = text.rstrip('\n')
                last_start = body.rfind('\n') + 1
                cut = last_start + int((len(body) - last_start) * 0.6)
                text = body[:cut]
            # the cut entry is not analysable
            last_e = objs[-1][0] if o.shape == 'array' else lines_out[-1][0]
            if last_e is not None:
                o.lines.pop(last_e.seq, None)
                o.count -= 1
            o.skipped += 1
        if o.crlf:
            text = text.replace('\n', '\r\n')
        data = text.encode('utf-8')
        if o.gz:
            data = gzip.compress(data, compresslevel=9, mtime=0)
        o.data = data

    def render(self):
        for o in self.outputs:
            self._render_output(o)
        files = {o.file: o.data for o in self.outputs}
        files.update(self._extra_files)
        files['labels.yaml'] = self._labels_yaml().encode('utf-8')
        return files

    # -- labels -----------------------------------------------------------------------------------
    def _mark_lines(self, mark):
        lines = []
        for e in self.entries:
            if e.mark == mark or (isinstance(e.mark, (list, tuple)) and mark in e.mark):
                for o in self.outputs:
                    if e.seq in o.lines:
                        lines.append(o.lines[e.seq])
                        break
        if not lines:
            raise ValueError('%s: mark %r matches no entry in any output' % (self.name, mark))
        return lines

    def _sources_list(self):
        seen = []
        keys = set()
        for e in sorted(self.entries, key=lambda e: (e.ns, e.seq)):
            if e.src is None:
                continue
            text = e.cite if e.cite is not None else _first_line(e)
            text = _TFTS.sub('', text)
            frm, tag = _sources.resolve(e.src)
            k = (_DIGITS.sub('#', text), frm, tag)
            if k not in keys:
                keys.add(k)
                seen.append((text, frm, tag))
        for (text, src) in self._extra_sources:
            frm, tag = _sources.resolve(src)
            k = (_DIGITS.sub('#', text), frm, tag)
            if k not in keys:
                keys.add(k)
                seen.append((text, frm, tag))
        return seen

    def _labels_yaml(self):
        y = []
        y.append('# Generated by tools/corpus/build.py from tools/corpus/cases/%s.py.' %
                 self.name.replace('-', '_'))
        y.append('# The spec is the hand-written truth; edit it and rebuild, not this file.')
        y.append('description: >')
        for ln in _wrap(self.description, 96):
            y.append('  ' + ln)
        y.append('sources:')
        for (text, frm, tag) in self._sources_list():
            y.append('  - text: %s' % yq(_clip(text, 220)))
            y.append('    from: %s' % yq(frm))
            y.append('    tag: %s' % tag)
        y.append('  - envelope: synthetic')
        if not self._fire:
            y.append('fire: []')
        else:
            y.append('fire:')
            for f in self._fire:
                y.append('  - rule: %s' % f['rule'])
                lines = []
                for m in f['marks']:
                    lines.extend(self._mark_lines(m))
                lines = sorted(set(lines))
                y.append('    evidence_lines: [%s]' % ', '.join(str(x) for x in lines))
                if f['captures']:
                    y.append('    captures: { %s }' % ', '.join(
                        '%s: %s' % (k, yq(v)) for k, v in f['captures'].items()))
                if f['caused_by'] != '?':   # '?': folding target not asserted
                    y.append('    caused_by: %s' % (f['caused_by'] or 'null'))
                if f.get('job') is not None:
                    y.append('    job: %s' % yq(f['job'].id))
        y.append('may_fire: [%s]' % ', '.join(self._may))
        y.append('not_fire: [%s]' % ', '.join(self._not))
        y.append('inconclusive: [%s]' % ', '.join(self._inconclusive))
        y.extend(self._unexplained_yaml())
        total = sum(o.count for o in self.outputs)
        skipped = sum(o.skipped for o in self.outputs)
        dups = sum(o.dups for o in self.outputs)
        inp = {'entries': total, 'skipped': skipped, 'duplicates': dups}
        inp.update(self._input)
        y.append('input:')
        y.append('  entries: %d      # distinct entries analysed (duplicates and skipped lines '
                 'not counted)' % inp['entries'])
        y.append('  skipped: %d' % inp['skipped'])
        y.append('  duplicates: %d' % inp['duplicates'])
        y.append('args: [%s]' % ', '.join(yq(a) for a in self._args))
        y.extend(self._jobs_yaml(total))
        return '\n'.join(y) + '\n'

    def _unexplained_yaml(self):
        """The `unexplained:` section (corpus/README.md, "unexplained")."""
        if not self._unexplained:
            return ['unexplained: []'] if self._unexplained_none else []
        if self._unexplained_none:
            raise ValueError('%s: no_unexplained() and unexplained() both called' % self.name)
        y = ['unexplained:         # groups gpudiag must report, at error level unless said (corpus/README.md)']
        for u in self._unexplained:
            self._check_unexplained(u)
            y.append('  - exception: %s' % yq(u['exception']))
            y.append('    message: %s' % yq(u['message']))
            y.append('    user_frame: %s' % (yq(u['user_frame']) if u['user_frame'] else 'null'))
            y.append('    step: %s' % (yq(u['step']) if u['step'] else 'null'))
            lines = sorted(set(x for m in u['marks'] for x in self._mark_lines(m)))
            y.append('    evidence_lines: [%s]' % ', '.join(str(x) for x in lines))
            if u['job'] is not None:
                y.append('    job: %s' % yq(u['job'].id))
            if u['severity'] != 'error':
                y.append('    severity: %s' % u['severity'])
            if u['key_strings']:
                y.append('    key_strings: [%s]' % ', '.join(yq(k) for k in u['key_strings']))
        return y

    def _check_unexplained(self, u):
        """The spec's claims must be in the text of the entries it marks (no drift)."""
        def marked(e, m):
            return e.mark == m or (isinstance(e.mark, (list, tuple)) and m in e.mark)
        # An entry of a one-line-per-entry block (launcher_lines) counts with its first line's mark.
        texts = [_entry_text(e) for e in self.entries for m in u['marks']
                 if marked(e, m) or (e.block_head is not None and marked(e.block_head, m))]
        if u['marks'] and not texts:
            raise ValueError('%s: unexplained marks match no entry' % self.name)
        joined = '\n'.join(texts)
        if u['message'] and u['message'] not in joined:
            raise ValueError('%s: unexplained message %r is in no marked entry'
                             % (self.name, u['message']))
        if u['exception'] and u['exception'] not in joined:
            raise ValueError('%s: unexplained exception %r is in no marked entry'
                             % (self.name, u['exception']))
        if u['user_frame']:
            base, line = u['user_frame'].rsplit(':', 1)
            py = re.search(r'%s", line %s\b' % (re.escape(base), line), joined)
            java = re.search(r'\(%s:%s\)' % (re.escape(base), line), joined)
            if not py and not java:
                raise ValueError('%s: user frame %r is in no marked entry'
                                 % (self.name, u['user_frame']))
        everything = '\n'.join(_entry_text(e) for e in self.entries)
        for k in u['key_strings']:
            if k not in everything:
                raise ValueError('%s: key string %r is in no entry' % (self.name, k))
        if u['step'] and ("[while running '%s']" % u['step']) not in joined:
            raise ValueError("%s: step %r: no \"[while running '...']\" in a marked entry"
                             % (self.name, u['step']))

    def _job_entries(self, job):
        seqs = set()
        for o in self.outputs:
            for e in self.entries:
                if e.fields['job'] is job and e.seq in o.lines:
                    seqs.add(e.seq)
        return len(seqs)

    def _jobs_yaml(self, total):
        """The `jobs:` section (only for cases that state a truth per job)."""
        if not self._job_truth:
            return []
        told = [t[0] for t in self._job_truth]
        for u in self._unexplained:
            if u['job'] is None or u['job'] not in told:
                raise ValueError('%s: unexplained(%r) must name a job with job_truth()' %
                                 (self.name, u['exception']))
        for f in self._fire:
            if f.get('job') is None:
                raise ValueError('%s: fire(%r) names no job, but the case has jobs:' %
                                 (self.name, f['rule']))
            if f['job'] not in told:
                raise ValueError('%s: fire(%r) names a job without job_truth()' %
                                 (self.name, f['rule']))
        if set(told) != set(self.jobs) or len(told) != len(self.jobs):
            raise ValueError('%s: every job needs exactly one job_truth()' % self.name)
        y = ['jobs:                # the truth per job (corpus/README.md, "jobs")']
        counted = 0
        for (job, outcome, verdict, nots, inc, may) in self._job_truth:
            n = self._job_entries(job)
            counted += n
            y.append('  - id: %s' % yq(job.id))
            y.append('    name: %s' % yq(job.name))
            y.append('    outcome: %s' % outcome)
            y.append('    verdict: %s' % verdict)
            y.append('    fire: [%s]' % ', '.join(f['rule'] for f in self._fire if f['job'] is job))
            y.append('    may_fire: [%s]' % ', '.join(may))
            y.append('    not_fire: [%s]' % ', '.join(nots))
            y.append('    inconclusive: [%s]' % ', '.join(inc))
            y.append('    entries: %d' % n)
        y.append('unattributed:        # entries that carry no job id')
        y.append('  entries: %d' % (total - counted))
        return y


def hash_int(*parts):
    h = hashlib.sha256('\x1f'.join(str(p) for p in parts).encode()).hexdigest()
    return int(h[:16], 16)


def _entry_text(e):
    """All the log text of an entry (message, exception, textPayload)."""
    p = e.fields['payload']
    if isinstance(p, dict):
        return '\n'.join(str(p.get(k, '')) for k in ('message', 'exception') if p.get(k))
    return str(p)


def _first_line(e):
    p = e.fields['payload']
    if isinstance(p, dict):
        if 'exception' in p and p['exception']:
            ex = p['exception'].rstrip().split('\n')
            return ex[-1].strip()
        p = p.get('message', '')
    lines = [ln for ln in str(p).split('\n') if ln.strip()]
    return lines[0].strip() if lines else ''


def _clip(s, n):
    s = ' '.join(s.split())
    return s if len(s) <= n else s[:n - 1] + '…'


def _wrap(text, width):
    words = text.split()
    lines, cur = [], ''
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = (cur + ' ' + w) if cur else w
    if cur:
        lines.append(cur)
    return lines


def yq(s):
    """YAML single-quoted scalar; a double-quoted one with escapes when the text holds a control
    character (an ANSI colour code), which YAML allows in no plain or single-quoted scalar."""
    s = str(s)
    if any(ord(ch) < 0x20 and ch not in '\t' for ch in s):
        return json.dumps(s)
    return "'" + s.replace("'", "''") + "'"
