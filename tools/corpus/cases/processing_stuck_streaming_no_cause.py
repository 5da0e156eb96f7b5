from corpuslib import noise as N, texts as T

STEP = 'Enrich/LookupCustomer'


def build(c):
    c.describe('''
        Streaming GPU job on an L4 whose enrichment step calls an external HTTP service that
        stops answering. An older Python SDK reports the stall in its own words: "Operation
        ongoing for over 318.27 seconds in state process-msecs in step Enrich/LookupCustomer
        without returning. Current Traceback: ..." (format string of Beam's sdk_worker.py /
        worker_status.py, our values; the stack ends in a socket read). Nothing else goes wrong
        on the worker: no GPU or host memory error, no unresponsive SDK, no driver or Xid line.
        gpudiag reports the stuck processing alone, as a symptom without a known cause
        (synthetic situation).''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1,
               max_workers=1, streaming=True,
               experiments=['no_use_multiple_sdk_containers', 'enable_streaming_engine'],
               image='us-docker.pkg.dev/retail-ml/beam/enrich-score:2023-06', disk=50,
               steps=['ReadOrders/Read+' + STEP + '+Score+WriteScores'])
    j = c.job('orders-enrich-score', '2023-06-12T14:03:55Z', region='us-east1',
              zone='us-east1-c', project='retail-ml', python='3.10', beam='2.41.0')
    ready = N.bring_up(j, cf, steps=['ReadOrders/Read+' + STEP + '+Score+WriteScores'])
    w = j.w[0]
    for k in range(3):
        j.wlog(ready + 90 + k * 120, w, 'Scored %d orders in the last 2 minutes' % (8120 + k * 311),
               src='user-code', module='/opt/pipeline/score.py:88')
    base = T.sp('3.10')
    stack = T.py_stack('3.10', [
        ('/opt/pipeline/enrich.py', 41, 'process',
         'resp = self._session.get(url, timeout=None)'),
        (base + '/requests/sessions.py', 703, 'send', 'r = adapter.send(request, **kwargs)'),
        ('/usr/local/lib/python3.10/socket.py', 705, 'readinto',
         'return self._sock.recv_into(b)'),
    ])
    t = ready + 90 + 3 * 120 + 318.27
    for k, secs in enumerate((318.27, 618.31, 918.40)):
        j.wlog(t + k * 300.0, w, T.lull_old(STEP, 'process-msecs', secs, stack), sev='WARNING',
               src='beam-lull-py-old', mark='stuck' if k == 0 else None,
               module='apache_beam/runners/worker/sdk_worker.py', line=745, thread='Thread-14',
               cite='Operation ongoing for over %.2f seconds in state process-msecs in step '
                    'Enrich/LookupCustomer  without returning. Current Traceback: …' % secs)
    c.output('export.ndjson')
    c.fire('processing-stuck', marks=['stuck'], caused_by=None,
           captures={'step': STEP, 'duration': '318.27 seconds', 'state': 'process-msecs'})
    c.not_fire('gpu-out-of-memory', 'host-out-of-memory', 'sdk-unresponsive', 'work-item-failed')
