import json

from corpuslib import noise as N


def build(c):
    c.describe('''
        SYNTHETIC configuration case (no error text exists for it): a GPU job submitted with
        --experiments=disable_runner_v2 on Beam 2.40 (legacy runner still selectable then). GPUs
        need Runner v2. The job description passed with --job job.json (jobs describe shape)
        shows environment.experiments with disable_runner_v2 next to the worker_accelerator
        service option; the export itself holds only job messages. Finding from job facts.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['disable_runner_v2'])
    j = c.job('legacy-runner-gpu-test', '2022-08-30T16:41:12Z', region='us-central1',
              zone='us-central1-a', project='ml-platform-sbx', python='3.9', beam='2.40.0')
    N.submit(j, cf, steps=['Create/Read+Predict+Write/Write/WriteImpl/WriteBundles'])
    N.started(j, cf, 88.0)
    N.teardown(j, cf, 900.0)
    c.output('export.json', logs=['job-message'])
    exps = N.experiments(cf)
    so = N.service_options(cf)
    jobjson = {
        'id': j.id, 'projectId': j.project, 'name': j.name, 'type': 'JOB_TYPE_BATCH',
        'environment': {
            'experiments': exps,
            'serviceOptions': so,
            'sdkPipelineOptions': {'display_data': [], 'options': dict(
                N.options_dict(j, cf), dataflow_service_options=so, experiments=exps)},
            'userAgent': {'name': 'Apache Beam Python 3.9 SDK', 'version': '2.40.0'},
            'version': {'job_type': 'PYTHON_BATCH', 'major': '8'},
            'workerPools': [{'kind': 'harness', 'numWorkers': 1, 'machineType': cf.machine,
                             'zone': j.zone}],
        },
        'currentState': 'JOB_STATE_DONE',
        'createTime': '2022-08-30T16:41:12.804411Z',
        'startTime': '2022-08-30T16:41:12.804411Z',
        'currentStateTime': '2022-08-30T16:56:15.230114Z',
        'location': j.region,
        'jobMetadata': {'sdkVersion': {'version': '2.40.0',
                                       'versionDisplayName': 'Apache Beam Python 3.9 SDK',
                                       'sdkSupportStatus': 'SUPPORTED'}},
    }
    c.extra_file('job.json', (json.dumps(jobjson, indent=2, sort_keys=True) + '\n').encode(),
                 sources=[('job.json: environment.experiments ["disable_runner_v2", …] with '
                           'serviceOptions ["worker_accelerator=…"]', 'options-inferred')])
    c.args('--job', 'job.json')
    c.fire('runner-v2-missing', marks=[])
    c.fire('boot-disk-too-small', marks=[])  # job.json without a disk size: the batch default, 25 GB
