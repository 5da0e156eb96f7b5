from corpuslib import noise as N, texts as T

STEP = 'Detect'
EXC = "AttributeError: 'NoneType' object has no attribute 'create_execution_context'"
TRT_E1 = ('[11/03/2025-08:14:52] [TRT] [E] 1: [stdArchiveReader.cpp::StdArchiveReader::35] Error Code 1: '
          'Serialization (Serialization assertion safeVersionRead == safeSerializationVersion '
          'failed.Version tag does not match. Note: Current Version: 0, Serialized Engine Version: 43)')
TRT_E4 = ('[11/03/2025-08:14:52] [TRT] [E] 4: [runtime.cpp::deserializeCudaEngine::50] Error Code 4: '
          'Internal Error (Engine deserialization failed.)')
SRC = ('Linaom1214/TensorRT-For-YOLO-Series#17 (2022): the two [TRT] [E] lines and the '
       'AttributeError verbatim (their timestamps moved to the job\'s day)', 'V')


def build(c):
    c.describe('''
        A cause in the prelude (issue 39, "The cause chain"): a detection DoFn loads a TensorRT
        engine file with TensorRT's Python API itself, on its first bundle, and the file was built
        by another TensorRT version. TensorRT's logger writes "[TRT] [E] 1: … Error Code 1:
        Serialization (Serialization assertion safeVersionRead == safeSerializationVersion
        failed.Version tag does not match. …)" and "[TRT] [E] 4: … Error Code 4: Internal Error
        (Engine deserialization failed.)" to stderr (the docker log, at ERROR);
        deserialize_cuda_engine returns None and the DoFn's next call raises "AttributeError:
        'NoneType' object has no attribute 'create_execution_context'" — the three lines verbatim
        from Linaom1214/TensorRT-For-YOLO-Series#17, a script of that shape (the DoFn's frames
        and Beam's are composition; Beam's own TensorRT handler asserts the engine instead, a bare
        AssertionError that is not this case). The AttributeError is generic
        (rules/generic-errors.yaml), and so is Error Code 4: the report must name the Version tag
        line, which the same worker logged just before, as the AttributeError's cause.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               steps=['S01:ReadImages/Read+Detect+WriteDetections/Write'])
    j = c.job('detect-trt-l4', '2025-11-03T08:10:30Z', region='us-central1',
              zone='us-central1-b', python='3.10', beam='2.60.0', workers=1)
    ready = N.bring_up(j, cf)
    frames = [
        '  File "/app/detect/trt_model.py", line 41, in process',
        '    self._context = self._load()',
        '  File "/app/detect/trt_model.py", line 29, in _load',
        '    return engine.create_execution_context()',
    ]
    tb = T.augmented_tb('3.10', frames, EXC, STEP)
    t = ready + 15
    for attempt in range(4):
        first = attempt == 0
        j.docker(t, j.w[0], TRT_E1, sev='ERROR', src=SRC, mark='e1' if first else None)
        j.docker(t + 0.001, j.w[0], TRT_E4, sev='ERROR', src=SRC, mark='e4' if first else None)
        j.wlog(t + 0.2, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb),
               sev='ERROR', src=SRC, cite=EXC, module='apache_beam/runners/worker/sdk_worker.py',
               line=303, thread='Thread-%d' % (9 + attempt), step=STEP,
               mark='none' if first else None)
        t += 36.0
    N.fail_work_item_4(j, cf, t + 3.0, 'S01:ReadImages/Read+Detect+WriteDetections/Write', [j.w[0]] * 4)
    c.output('export.json')
    # Since issue 40 a rule knows TensorRT's reason: tensorrt-engine-incompatible fires on the
    # "Version tag does not match" line of the prelude and leads.
    c.fire('tensorrt-engine-incompatible', marks=['e1'])
    c.fire('work-item-failed', marks=['wif'], caused_by='tensorrt-engine-incompatible')
    c.fire('workflow-failed', marks=['wif'], caused_by='tensorrt-engine-incompatible')
    c.not_fire('gpu-out-of-memory', 'cuda-libraries-missing')
