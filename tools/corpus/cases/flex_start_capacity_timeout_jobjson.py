import json

from corpuslib import noise as N

STALL = ('Workflow failed. Causes: The Dataflow job appears to be stuck because no worker activity '
         'has been seen in the last 1h. Please check the worker logs in Stackdriver Logging. You '
         'can also get help with Cloud Dataflow at https://cloud.google.com/dataflow/support.The '
         'Dataflow job appears to be stuck because no worker activity has been seen in the last '
         '1h. Please check the worker logs in Stackdriver Logging. You can also get help with '
         'Cloud Dataflow at https://cloud.google.com/dataflow/support.')


def build(c):
    c.describe('''
        Flex-start known only from --job job.json: the export holds the job messages of a T4
        batch job and the one-hour stall in the doubled form seen in apache/beam PR #34381
        ("...dataflow/support.The Dataflow job appears to be stuck ..."), but no flex-start
        notice. `gcloud dataflow jobs describe --full --format=json` (job.json, shape of
        gcpdiag's real fixture) carries environment.serviceOptions
        ["worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver:5xx;provisioning_model:FLEX_START"]
        (the exact example of the Dataflow GPU page), experiments and sdkPipelineOptions.
        Without job.json this would be workers-stuck-no-activity.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver='5xx', flex=True,
               num_workers=1, max_workers=1,
               image='us-central1-docker.pkg.dev/asr-sandbox/beam/asr:2025-11-03')
    j = c.job('asr-podcast-batch', '2025-11-03T19:40:08Z', region='us-central1',
              zone='us-central1-f', project='asr-sandbox', python='3.12', beam='2.69.0',
              workers=0, job_number='8817346106734221907')
    N.submit(j, cf, steps=['ReadEpisodes/Read+Transcribe+WriteTranscripts/Write/WriteImpl/'
                           'WriteBundles'])
    N.fail(j, cf, 3611.9, STALL, src='beam-34381', mark='stall', n=1)
    c.output('export.ndjson')
    acc = N.accelerator_value(cf)
    opts = N.options_dict(j, cf)
    jobjson = {
        'id': j.id,
        'projectId': j.project,
        'name': j.name,
        'type': 'JOB_TYPE_BATCH',
        'environment': {
            'tempStoragePrefix': 'storage.googleapis.com/acme-ml-dataflow/tmp',
            'clusterManagerApiService': 'compute.googleapis.com',
            'experiments': N.experiments(cf),
            'serviceOptions': ['worker_accelerator=' + acc],
            'sdkPipelineOptions': {
                'display_data': [],
                'options': dict(opts, dataflow_service_options=['worker_accelerator=' + acc]),
            },
            'userAgent': {'name': 'Apache Beam Python 3.12 SDK', 'version': '2.69.0',
                          'os.name': 'Linux', 'os.arch': 'x86_64'},
            'version': {'job_type': 'FNAPI_BATCH', 'major': '8'},
            'workerPools': [{
                'kind': 'harness',
                'numWorkers': 1,
                'machineType': cf.machine,
                'diskSizeGb': 0,
                'zone': j.zone,
                'autoscalingSettings': {'algorithm': 'AUTOSCALING_ALGORITHM_BASIC',
                                        'maxNumWorkers': 1},
                'sdkHarnessContainerImages': [{
                    'containerImage': cf.image,
                    'useSingleCorePerContainer': False,
                    'environmentId': 'ref_Environment_default_environment_1'}],
            }],
            'shuffleMode': 'SERVICE_BASED',
        },
        'currentState': 'JOB_STATE_FAILED',
        'currentStateTime': '2025-11-03T20:42:07.113208Z',
        'createTime': '2025-11-03T19:40:08.562291Z',
        'startTime': '2025-11-03T19:40:08.562291Z',
        'location': j.region,
        'labels': {'team': 'speech'},
        'jobMetadata': {'sdkVersion': {'version': '2.69.0',
                                       'versionDisplayName': 'Apache Beam Python 3.12 SDK',
                                       'sdkSupportStatus': 'SUPPORTED'}},
    }
    data = (json.dumps(jobjson, indent=2, sort_keys=True) + '\n').encode()
    c.extra_file('job.json', data, sources=[(
        'job.json: environment.serviceOptions ["worker_accelerator=…;provisioning_model:FLEX_START"]',
        'gcpdiag-job'), ('worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver:5xx;'
                         'provisioning_model:FLEX_START', 'flex-start-option')])
    c.args('--job', 'job.json')
    c.fire('flex-start-capacity-timeout', marks=['stall'])
    c.fire('workflow-failed', marks=['stall'], caused_by='flex-start-capacity-timeout')
    c.not_fire('workers-stuck-no-activity', 'flex-start-unsupported-config')
    c.fire('boot-disk-too-small', marks=[])  # job.json diskSizeGb 0: the batch default, 25 GB
