from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STEPS = ['S01:ReadTickets/Read+RunInference/BeamML_RunInference+WriteLabels/Write']
SP = T.sp('3.11')
SRC_LOAD = ('huggingface/transformers src/transformers/modeling_utils.py (4.4x): the "Loading checkpoint shards" '
            'progress bar tqdm writes to stderr, one write per shard, which Dataflow stores at ERROR '
            '(the counts and times adapted to a 30-shard checkpoint)', 'V-code')


def build(c):
    c.describe('''
        A healthy batch job whose model takes six minutes to load (issue 40): a 34 B model in 30
        checkpoint shards, loaded by Beam's Hugging Face model handler inside the first bundle on an
        A100 80 GB worker. The Python SDK harness reports the lull once while the shards load
        ("Operation ongoing in bundle process_bundle-1 for PTransform{name=RunInference/
        BeamML_RunInference, state=process-msecs} for at least 300.12 seconds …", its stack in
        transformers' from_pretrained), at WARNING; tqdm's shard progress goes to stderr at ERROR.
        The model loads, the job labels its tickets and succeeds. A lull that a succeeded batch job
        outlived is not a finding: processing-stuck stays quiet and the verdict is OK.''')
    cf = N.cfg(machine='a2-ultragpu-1g', gpu='nvidia-a100-80gb', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'], steps=STEPS, disk=200)
    j = c.job('ticket-labels-yi34b', '2026-02-11T04:00:03Z', region='us-central1',
              zone='us-central1-c', python='3.11', beam='2.68.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 15
    stack = T.py_stack('3.11', [
        ('%s/apache_beam/runners/worker/sdk_worker.py' % SP, 385, 'task', 'self._execute(lambda: worker.do_instruction(work), work)'),
        ('%s/apache_beam/ml/inference/base.py' % SP, 1567, 'process', 'self._model = self._load_model()'),
        ('%s/apache_beam/ml/inference/huggingface_inference.py' % SP, 603, 'load_model', 'model = self._model_class.from_pretrained('),
        ('%s/transformers/modeling_utils.py' % SP, 4225, '_load_pretrained_model', 'state_dict = load_state_dict(shard_file, is_quantized=is_quantized)'),
    ])
    for k in range(30):
        j.docker(t + 12 * k, w, 'Loading checkpoint shards: %3d%%|%s| %d/30 [%02d:%02d<%02d:%02d, 11.9s/it]'
                 % (int(100 * (k + 1) / 30), '#' * (k // 3), k + 1, (12 * (k + 1)) // 60, (12 * (k + 1)) % 60,
                    (12 * (29 - k)) // 60, (12 * (29 - k)) % 60), sev='ERROR', src=SRC_LOAD)
    for k, secs in enumerate((300.12,)):
        j.wlog(t + secs, w, T.lull_new('process_bundle-1', STEP, 'process-msecs', secs, stack), sev='WARNING',
               src='beam-lull-py-new', mark='lull' if k == 0 else None,
               module='apache_beam/runners/worker/worker_status.py', line=180, thread='Thread-4',
               cite='Operation ongoing in bundle process_bundle-1 for PTransform{name=%s, state=process-msecs} '
                    'for at least %.2f seconds without outputting or completing. …' % (STEP, secs))
    t += 380
    for k in range(6):
        j.wlog(t + 60 * k, w, 'Labelled %d tickets' % (2048 * (k + 1)), module='/app/labels/pipeline.py',
               line=88, thread='Thread-4', step=STEP)
    t += 420
    N.sdk_shutdown(j, w, t)
    N.teardown(j, cf, t + 40, n=1)
    c.output('export.json')
    c.not_fire('processing-stuck', 'sdk-unresponsive', 'host-out-of-memory', 'work-item-failed')
    c.no_unexplained()
