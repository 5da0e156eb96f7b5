import json

from corpuslib import noise as N


def build(c):
    c.describe('''
        Export quality: the job ran for two days, but the logs were read with gcloud's default
        one-day freshness, so the export starts 47 hours after the job was created
        (job.json createTime / startTime, passed with --job) and holds only the last hours:
        processing lines and the teardown. Anything that happened at startup (driver install,
        pool errors) is outside the export; an info finding says so. GPU job, otherwise healthy.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='gcr.io/genomics-var/pileup-gpu:0.5', disk=100)
    j = c.job('pileup-images-cohort3', '2024-02-05T08:00:12Z', region='us-central1',
              zone='us-central1-f', project='genomics-var', python='3.10', beam='2.53.0')
    w = j.w[0]
    H = 3600.0
    for k in range(4):
        j.wlog(47 * H + k * 1500, w, 'Processed %d of 2210 shards' % (2101 + k * 27),
               src='user-code', module='/opt/pipeline/pileup.py:140', mark='first' if k == 0 else None)
    end = 47 * H + 6500
    N.sdk_shutdown(j, w, end - 40)
    N.teardown(j, cf, end)
    c.output('export.json')
    jobjson = {
        'id': j.id, 'projectId': j.project, 'name': j.name, 'type': 'JOB_TYPE_BATCH',
        'environment': {
            'experiments': N.experiments(cf),
            'serviceOptions': N.service_options(cf),
            'sdkPipelineOptions': {'display_data': [], 'options': N.options_dict(j, cf)},
            'userAgent': {'name': 'Apache Beam Python 3.10 SDK', 'version': '2.53.0'},
            'version': {'job_type': 'FNAPI_BATCH', 'major': '8'},
        },
        'currentState': 'JOB_STATE_DONE',
        'createTime': '2024-02-05T08:00:12.418220Z',
        'startTime': '2024-02-05T08:00:12.418220Z',
        'currentStateTime': '2024-02-07T08:51:55.004113Z',
        'location': j.region,
        'jobMetadata': {'sdkVersion': {'version': '2.53.0',
                                       'versionDisplayName': 'Apache Beam Python 3.10 SDK',
                                       'sdkSupportStatus': 'SUPPORTED'}},
    }
    c.extra_file('job.json', (json.dumps(jobjson, indent=2, sort_keys=True) + '\n').encode(),
                 sources=[('job.json: createTime 2024-02-05T08:00:12Z, 47 h before the first '
                           'exported entry', 'gcpdiag-job')])
    c.args('--job', 'job.json')
    c.fire('export-window-short', marks=[])
