from corpuslib import noise as N, texts as T


def build(c):
    c.describe('''
        Runner v2 installs the SDK into a per-process virtual environment, so the traceback paths
        are /opt/apache/beam-venv/beam-venv-worker-sdk-0-0/lib/python3.8/site-packages/... (real
        path form from apache/beam#24906). Python 3.8 container, launched from 3.9: "SystemError:
        unknown opcode" after dill_pickler.py. The traceback sits in jsonPayload.exception of the
        worker entry (message is short), and in the job message. Gzip-compressed Cloud Storage sink
        shard (export.ndjson.gz). The export ends while Dataflow is retrying.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver='5xx', num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='europe-docker.pkg.dev/geo-tiles-eu/beam/tiler:3.8', disk=80)
    j = c.job('tile-embeddings-eu', '2023-11-02T10:15:30Z', region='europe-west1',
              zone='europe-west1-b', project='geo-tiles-eu', python='3.8', beam='2.51.0')
    ready = N.bring_up(j, cf)
    venv = '/opt/apache/beam-venv/beam-venv-worker-sdk-0-0/lib/python3.8/site-packages'
    tb = T.unknown_opcode_tb('3.8', venv=venv)
    t = ready + 6
    for attempt in range(3):
        w = j.w[0]
        j.docker(t - 0.02, w, 'XXX lineno: 7, opcode: 164', sev='ERROR', src='dill-438')
        j.wlog(t, w, 'Error processing instruction process_bundle-%d. Original traceback is'
               % (1 + attempt), sev='ERROR', exception=tb, src='beam-24906',
               cite=venv + '/apache_beam/internal/dill_pickler.py … SystemError: unknown opcode',
               module=venv + '/apache_beam/runners/worker/sdk_worker.py:303',
               mark='exc' if attempt == 0 else None, thread='Thread-%d' % (12 + attempt))
        j.msg(t + 2.2, 'Error message from worker: ' + tb, sev='ERROR', src='beam-24906',
              cite='Error message from worker: Traceback (most recent call last): … SystemError: '
                   'unknown opcode', mark='jm' if attempt == 0 else None)
        t += 52.0
    c.output('export.ndjson.gz')
    c.fire('python-version-mismatch', marks=['exc'], captures={'python_worker': '3.8'})
    c.not_fire('beam-version-mismatch')
