from corpuslib import noise as N

STEPS = ['ReadFromPubSub/Read+DecodeFrames+RunInference/BeamML_RunInference+PublishLabels/Write']


def build(c):
    c.describe('''
        A healthy streaming job on an L4 (Streaming Engine, one worker, Runner v2), exported with
        gcloud while it still runs: the job messages stop at "Executing operation ..." and the
        Streaming Engine notice "Autoscaling is enabled for Dataflow Streaming Engine. Workers
        will scale between 1 and 100 unless maxNumWorkers is specified." (real, jcbaey README);
        the worker booted with the COS driver installer lines and the SDK harness, and its last
        entries are the pipeline's own progress lines, two hours in. There is no teardown and no
        failure message: the job's outcome is running (it did not end inside the export), and
        nothing is wrong with it, so no rule fires and the verdict is OK, said together with the
        fact that the job was still running when the export ends.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1,
               max_workers=1, streaming=True,
               experiments=['no_use_multiple_sdk_containers', 'enable_streaming_engine'],
               image='us-docker.pkg.dev/shelf-vision/beam/shelf-detect:2024-12', disk=50,
               steps=STEPS)
    j = c.job('shelf-camera-labels-stream', '2024-12-03T06:00:41Z', region='us-east4',
              zone='us-east4-c', project='shelf-vision', python='3.11', beam='2.61.0')
    j.msg(4.0, 'Autoscaling is enabled for Dataflow Streaming Engine. Workers will scale between '
          '1 and 100 unless maxNumWorkers is specified.', sev='WARNING', src='jcbaey')
    ready = N.bring_up(j, cf, steps=STEPS)
    w = j.w[0]
    for k in range(12):
        j.wlog(ready + 120 + k * 600, w, 'Labelled %d frames in the last 10 minutes' %
               (52110 + 413 * k), src='user-code', module='/opt/pipeline/label.py:64')
    c.output('export.json')
    c.not_fire('workers-stuck-no-activity', 'processing-stuck', 'export-window-short',
               'flex-start-unsupported-config')
    c.job_truth(j, outcome='running', verdict='ok',
                not_fire=['workers-stuck-no-activity', 'processing-stuck'])
