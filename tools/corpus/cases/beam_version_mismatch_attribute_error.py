from corpuslib import noise as N, texts as T

EXC = ("AttributeError: Can't get attribute 'default_tensor_inference_fn' on <module "
       "'apache_beam.ml.inference.pytorch_inference' from '/usr/local/lib/python3.8/dist-packages/"
       "apache_beam/ml/inference/pytorch_inference.py'>")


def build(c):
    c.describe('''
        Beam SDK version mismatch: the pipeline was built with Beam 2.46 but the custom image
        ships Beam 2.40, whose pytorch_inference module has no default_tensor_inference_fn:
        "AttributeError: Can't get attribute 'default_tensor_inference_fn' on <module
        'apache_beam.ml.inference.pytorch_inference' from '/usr/local/lib/python3.8/dist-packages/
        ...'>" (real, google/dataflow-ml-starter README). Same Python minor on both sides.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-central1-docker.pkg.dev/ml-starter/beam/pytorch-gpu:beam2.40', disk=50)
    j = c.job('benchmark-tests-pytorch-i-0504', '2023-05-04T10:52:03Z', region='us-central1',
              zone='us-central1-a', project='ml-starter', python='3.8', beam='2.40.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    tb = T.user_tb('3.8', [
        '  File "/usr/local/lib/python3.8/dist-packages/apache_beam/runners/worker/'
        'bundle_processor.py", line 1610, in _create_pardo_operation',
        '    dofn_data = pickler.loads(serialized_fn)',
        '  File "/usr/local/lib/python3.8/dist-packages/apache_beam/internal/pickler.py", line 51, '
        'in loads',
        '    return desired_pickle_lib.loads(',
        '  File "/usr/local/lib/python3.8/dist-packages/apache_beam/internal/dill_pickler.py", '
        'line 289, in loads',
        '    return dill.loads(s)'], EXC)
    j.wlog(ready + 6, w, T.instruction_error('process_bundle-1', tb), sev='ERROR',
           src='ml-starter', cite=EXC, module='apache_beam/runners/worker/sdk_worker.py', line=303,
           mark='attr', thread='Thread-8')
    c.output('export.json')
    c.fire('beam-version-mismatch', marks=['attr'])
    c.not_fire('python-version-mismatch')
