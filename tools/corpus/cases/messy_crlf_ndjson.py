from corpuslib import noise as N, texts as T


def build(c):
    c.describe('''
        CRLF line endings: an NDJSON sink shard that passed through a Windows tool, every line
        ending in \\r\\n. Content: Python 3.8 container launched from 3.7, "XXX lineno: 4, opcode:
        120" then "SystemError: unknown opcode" through apache_beam/internal/pickler.py (dill#438
        lines in composed frames). The traceback is in the worker message. Export taken while
        retrying.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/vision-batch-4711/pano-seg:py38-beam2.46', disk=50)
    j = c.job('pano-segmentation-retry', '2023-05-17T07:12:40Z', region='europe-west4',
              zone='europe-west4-a', project='vision-batch-4711', python='3.8', beam='2.46.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.unknown_opcode_tb('3.8')
    t = ready + 7
    for attempt in range(2):
        j.docker(t, w, 'XXX lineno: 4, opcode: 120', sev='ERROR', src='dill-438')
        j.wlog(t + 0.05, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb),
               sev='ERROR', src='dill-438', module='apache_beam/runners/worker/sdk_worker.py',
               line=303, cite='SystemError: unknown opcode', mark='tb' if attempt == 0 else None,
               thread='Thread-%d' % (20 + attempt))
        t += 49.0
    c.output('export.ndjson', crlf=True)
    c.fire('python-version-mismatch', marks=['tb'], captures={'python_worker': '3.8'})
