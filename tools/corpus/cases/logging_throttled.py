from corpuslib import noise as N


def build(c):
    c.describe('''
        Export quality: a chatty DoFn logs one line per element and the worker hits Dataflow's
        logging quota; the worker log says "Throttling logger worker. It used up its 30s quota
        for logs in only 17.465s" (real, Dataflow docs / DataflowTemplates docs), WARNING, twice.
        The export is therefore incomplete - an info finding. The job itself is healthy GPU work
        (driver install lines, T4).''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/sentiment-lab/distilbert-tf:2.12', disk=50)
    j = c.job('review-sentiment-verbose', '2023-08-29T20:15:38Z', region='us-central1',
              zone='us-central1-a', project='sentiment-lab', python='3.10', beam='2.49.0')
    ready = N.bring_up(j, cf, tf=True)
    w = j.w[0]
    t = ready + 40
    for k in range(12):
        j.wlog(t + k * 0.0012, w, 'Scored review %d: positive=0.%04d' % (88211 + k, 7713 + k * 37),
               src='user-code', module='/opt/pipeline/score.py:44', thread='Thread-%d' % (9 + k % 3))
    j.wlog(t + 17.465, w, 'Throttling logger worker. It used up its 30s quota for logs in only '
           '17.465s', sev='WARNING', src='docs-throttle', mark='thr', sdk=None,
           logger='/usr/local/lib/python3.10/site-packages/apache_beam/runners/worker/'
                  'log_handler.py:170')
    j.wlog(t + 47.9, w, 'Throttling logger worker. It used up its 30s quota for logs in only '
           '16.102s', sev='WARNING', src='docs-throttle', sdk=None,
           logger='/usr/local/lib/python3.10/site-packages/apache_beam/runners/worker/'
                  'log_handler.py:170')
    end = ready + 900
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('logging-throttled', marks=['thr'])
