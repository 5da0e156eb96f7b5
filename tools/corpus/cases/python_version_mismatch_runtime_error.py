from corpuslib import noise as N, texts as T


def build(c):
    c.describe('''
        Newer Beam (2.53.0) turns the launcher/container mismatch into an explicit error: a
        Python 3.11 custom image launched from Python 3.10. bundle_processor.py raises
        "RuntimeError: Pipeline construction environment and pipeline runtime environment are not
        compatible. ... Submission environment: beam:version:sdk_base:apache/beam_python3.10_sdk:2.53.0.
        Runtime environment: beam:version:sdk_base:apache/beam_python3.11_sdk:2.53.0." (format
        string from Beam source, filled with our versions). Only the Python minor differs, so this
        is python-version-mismatch, not beam-version-mismatch. Cloud Storage sink shard (NDJSON,
        unordered); the export was taken while Dataflow was still retrying (no final failure).''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver='latest', num_workers=1,
               max_workers=3, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/retail-recs-prod/images/reranker:2024-01-09', disk=100)
    j = c.job('reranker-backfill-20240110', '2024-01-10T17:03:55Z', region='us-east4',
              zone='us-east4-c', project='retail-recs-prod', python='3.11', beam='2.53.0')
    ready = N.bring_up(j, cf)
    tb = T.compat_tb('3.11', 'beam:version:sdk_base:apache/beam_python3.10_sdk:2.53.0',
                     'beam:version:sdk_base:apache/beam_python3.11_sdk:2.53.0')
    t = ready + 5
    for attempt in range(2):
        w = j.w[0]
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (2 + attempt), tb), sev='ERROR',
               src='beam-compat', module='apache_beam/runners/worker/sdk_worker.py', line=303,
               cite=tb.split('\n')[-1], mark='rt' if attempt == 0 else None,
               thread='Thread-%d' % (31 + attempt))
        j.msg(t + 3.1, 'Error message from worker: ' + tb, sev='ERROR', src='beam-compat',
              cite='Error message from worker: Traceback (most recent call last): … RuntimeError: '
                   'Pipeline construction environment and pipeline runtime environment are not '
                   'compatible. …')
        t += 63.0
    c.output('export.ndjson')
    c.fire('python-version-mismatch', marks=['rt'], captures={'python_launch': '3.10', 'python_worker': '3.11'}, caused_by='launch-image-python-mismatch')
    c.not_fire('beam-version-mismatch')
    c.fire('launch-image-python-mismatch', marks=[])  # the facts of the Submission/Runtime environment line
