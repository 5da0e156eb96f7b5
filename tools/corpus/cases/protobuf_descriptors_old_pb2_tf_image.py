from corpuslib import noise as N, texts as T

STEP = 'ScoreCandidates'
STAGE = 'S01:ReadCandidates/Read+ScoreCandidates+WriteScores/Write'
SP = T.sp('3.10')
ADVICE = [
    'If this call came from a _pb2.py file, your generated code is out of date and must be regenerated with '
    'protoc >= 3.19.0.',
    'If you cannot immediately regenerate your protos, some other possible workarounds are:',
    ' 1. Downgrade the protobuf package to 3.20.x or lower.',
    ' 2. Set PROTOCOL_BUFFERS_PYTHON_IMPLEMENTATION=python (but this will use pure-Python parsing and will be '
    'much slower).',
    '',
    'More information: https://developers.google.com/protocol-buffers/docs/news/2022-05-06#python-updates',
]
EXC = 'TypeError: Descriptors cannot be created directly.\n' + '\n'.join(ADVICE)


def build(c):
    c.describe('''
        Generated protobuf code older than the image's protobuf runtime (issue 40, version skew): a
        ranking job's custom image has TensorFlow 2.15 and protobuf 4.25.3; the job's requirements
        file installs an in-house package, acme_ranking_protos 1.4.2, whose _pb2 modules were
        generated in 2021 by protoc 3.17. The DoFn's setup() imports TensorFlow (which logs its
        ERROR-level cuDNN/cuFFT/cuBLAS registration chatter on the docker log, in each SDK process)
        and then ranking_features_pb2, which protobuf 4.21+ refuses: "TypeError: Descriptors cannot
        be created directly. If this call came from a _pb2.py file …" with its workaround lines. The
        two SDK processes fail the bundle in turn, four times, and the job fails.
        protobuf-version-skew fires and names acme_ranking_protos; the TF chatter, the advice lines
        repeated in every copy and the job-message copies are not causes of their own.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               sdk_procs=2, image='us-central1-docker.pkg.dev/acme-rank/images/ranker-tf:2.15.1-r3',
               steps=[STAGE])
    j = c.job('ranking-features-t4', '2025-06-10T07:42:18Z', region='us-central1', zone='us-central1-f',
              python='3.10', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 14
    for i, sdk in enumerate(['sdk-0-0', 'sdk-0-1']):
        ts = 1749541382 + int(t) + i
        j.docker(t + i * 1.7, w, 'WARNING: All log messages before absl::InitializeLog() is called are written '
                 'to STDERR', sev='ERROR', src='absl-tf-factory')
        j.docker(t + i * 1.7 + 0.01, w, 'E0000 00:00:%d.118203      %d cuda_dnn.cc:8310] Unable to register '
                 'cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been '
                 'registered' % (ts, 41 + i * 37), sev='ERROR', src='absl-tf-factory')
        j.docker(t + i * 1.7 + 0.02, w, 'E0000 00:00:%d.124871      %d cuda_fft.cc:607] Unable to register '
                 'cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been '
                 'registered' % (ts, 41 + i * 37), sev='ERROR', src='tf-fft-factory')
        j.docker(t + i * 1.7 + 0.03, w, 'E0000 00:00:%d.130554      %d cuda_blas.cc:1515] Unable to register '
                 'cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been '
                 'registered' % (ts, 41 + i * 37), sev='ERROR', src='absl-tf-factory')
    t += 6
    tb = T.user_tb('3.10', [
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 311, in _execute' % SP,
        '    response = task()',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 386, in <lambda>' % SP,
        '    lambda: self.create_worker().do_instruction(request), request)',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 650, in do_instruction' % SP,
        '    return getattr(self, request_type)(',
        '  File "%s/apache_beam/runners/worker/sdk_worker.py", line 681, in process_bundle' % SP,
        '    bundle_processor = self.bundle_processor_cache.get(',
        '  File "%s/apache_beam/runners/worker/bundle_processor.py", line 1052, in __init__' % SP,
        '    op.setup(self.data_sampler)',
        '  File "apache_beam/runners/worker/operations.py", line 873, in '
        'apache_beam.runners.worker.operations.DoOperation.setup',
        '  File "apache_beam/runners/common.py", line 1489, in apache_beam.runners.common.DoFnRunner.setup',
        '  File "apache_beam/runners/common.py", line 1485, in '
        'apache_beam.runners.common.DoFnRunner._invoke_lifecycle_method',
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/ranker/dofns.py", line 42, in setup',
        '    from acme_ranking_protos import ranking_features_pb2',
        '  File "%s/acme_ranking_protos/ranking_features_pb2.py", line 38, in <module>' % SP,
        '    _descriptor.FieldDescriptor(',
        '  File "%s/google/protobuf/descriptor.py", line 621, in __new__' % SP,
        '    _message.Message._CheckCalledFromGeneratedFile()',
    ], EXC)
    for attempt in range(4):
        first = attempt == 0
        sdk = 'sdk-0-%d' % (attempt % 2)
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR',
               src='protobuf-descriptors', cite='TypeError: Descriptors cannot be created directly.',
               module='apache_beam/runners/worker/sdk_worker.py', line=314, thread='Thread-%d' % (12 + attempt),
               sdk=sdk, step=STEP, mark='pb' if first else None)
        j.msg(t + 2.0, T.worker_error_msg(tb, STEP), sev='ERROR', src='protobuf-descriptors',
              cite='Error message from worker: … TypeError: Descriptors cannot be created directly. …',
              mark='pb-msg' if first else None)
        t += 37.0
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('protobuf-version-skew', marks=['pb', 'pb-msg'], captures={'old_pb2_package': 'acme_ranking_protos'})
    c.fire('work-item-failed', marks=['wif'], caused_by='protobuf-version-skew')
    c.fire('workflow-failed', marks=['wif'], caused_by='protobuf-version-skew')
    c.not_fire('import-name-version-skew', 'numpy-abi-mismatch', 'cudnn-version-mismatch', 'gpu-driver-missing')
    c.no_unexplained()
