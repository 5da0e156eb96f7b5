"""Healthy hay around the needles: the lifecycle of a Dataflow job and the boot of its workers.

All texts here are real (see sources.py keys); values (zones, worker counts, step names, image
names, ports) are ours. A rule must find its signal among these lines; none of them may fire.
"""

DEFAULT_EXPERIMENTS = ['use_runner_v2', 'use_unified_worker', 'beam_fn_api',
                       'use_portable_job_submission']


class Cfg(dict):
    """Job configuration used to render options lines and lifecycle messages."""

    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k)


def cfg(**kw):
    c = Cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', gpu_count=1, driver=True,
            flex=False, mps=False, experiments=[], image=None, sdk_procs=1, disk=None,
            streaming=False, num_workers=1, max_workers=4, service_options=None,
            accelerator=None, zone_pinned=False, threads=None, steps=None, extra_options=None,
            prime=False, bucket='gs://acme-ml-dataflow')
    c.update(kw)
    return c


def accelerator_value(c):
    if c.accelerator is not None:
        return c.accelerator
    if not c.gpu:
        return None
    v = 'type:%s;count:%d' % (c.gpu, c.gpu_count)
    if c.driver:
        v += ';install-nvidia-driver' + ('' if c.driver is True else ':' + str(c.driver))
    if c.mps:
        v += ';use_nvidia_mps'
    if c.flex:
        v += ';provisioning_model:FLEX_START'
    return v


def service_options(c):
    if c.service_options is not None:
        return list(c.service_options)
    acc = accelerator_value(c)
    out = []
    if acc:
        out.append('worker_accelerator=' + acc)
    if c.prime:
        out.append('enable_prime')
    return out


def experiments(c):
    exps = list(c.experiments)
    if 'disable_runner_v2' in exps:
        base = ['beam_fn_api']
    else:
        base = list(DEFAULT_EXPERIMENTS)
    for e in base:
        if e not in exps:
            exps.append(e)
    if 'no_use_multiple_sdk_containers' not in exps and 'disable_runner_v2' not in exps:
        exps.append('use_multiple_sdk_containers')
    return exps


def options_dict(j, c):
    d = {'runner': 'DataflowRunner'}
    if c.streaming:
        d['streaming'] = True
    d['project'] = j.project
    d['job_name'] = j.name
    d['staging_location'] = c.bucket + '/staging'
    d['temp_location'] = c.bucket + '/tmp'
    d['region'] = j.region
    if c.zone_pinned:
        d['worker_zone'] = j.zone
    d['service_account_email'] = 'dataflow-worker@%s.iam.gserviceaccount.com' % j.project
    d['num_workers'] = c.num_workers
    d['max_num_workers'] = c.max_workers
    d['machine_type'] = c.machine
    if c.disk:
        d['disk_size_gb'] = c.disk
    so = service_options(c)
    if so:
        d['dataflow_service_options'] = so
    d['experiments'] = experiments(c)
    if c.threads:
        d['number_of_worker_harness_threads'] = c.threads
    if c.image:
        d['sdk_container_image'] = c.image
        d['sdk_location'] = 'container'
    d['save_main_session'] = True
    d['sdk_worker_parallelism'] = '1'
    d['pipeline_type_check'] = True
    if c.extra_options:
        d.update(c.extra_options)
    return d


def options_line(j, c):
    return 'Python sdk harness started with pipeline_options: %r' % (options_dict(j, c),)


def sdk_ids(c):
    return ['sdk-0-%d' % i for i in range(c.sdk_procs)]


STEPS_GPU = ['ReadImages/Read+ReadImages/ReadAllFiles+Preprocess+RunInference/BeamML_RunInference'
             '+FormatResults+WriteToBigQuery/_StreamToBigQuery/AppendDestination']
STEPS_CPU = ['ReadLines/Read+Split+PairWithOne+GroupAndSum/GroupByKey/Write',
             'GroupAndSum/GroupByKey/Read+GroupAndSum/GroupByKey/GroupByWindow+GroupAndSum/'
             'Combine/Extract+Format+WriteCounts/Write/WriteImpl/WriteBundles']


# --------------------------------------------------------------------------------------------
# job-message lifecycle


def submit(j, c, t=0.0, steps=None, autoscaling_mark=None):
    """Job messages from graph optimisation to 'Starting N workers'. Returns the next time."""
    j.msg(t + 1.2, 'Worker configuration: %s in %s.' % (c.machine, j.zone), src='jcbaey')
    j.msg(t + 1.9, 'Expanding SplittableParDo operations into optimizable parts.', src='jcbaey')
    j.msg(t + 2.4, 'Fusing adjacent ParDo, Read, Write, and Flatten operations', src='jcbaey')
    j.msg(t + 3.1, 'Workflow config is missing a default resource spec.', sev='DEBUG', src='jcbaey')
    j.msg(t + 3.3, 'Starting worker pool setup.', sev='DEBUG', src='jcbaey')
    j.msg(t + 3.6, 'Autoscaling is enabled for job %s. The number of workers will be between 1 '
          'and %d.' % (j.id, c.max_workers), src='gvt48', mark=autoscaling_mark)
    j.msg(t + 4.2, 'Starting %d workers in %s...' % (c.num_workers, j.zone), src='jcbaey')
    for i, s in enumerate(steps if steps is not None else (c.steps or STEPS_GPU)):
        j.msg(t + 5.0 + i * 0.4, 'Executing operation ' + s, src='jcbaey')
    return t + 6.0


def started(j, c, t, n=None):
    n = n or c.num_workers
    j.msg(t, 'Autoscaling: Raised the number of workers to %d based on the rate of progress in '
          'the currently running stage(s).' % n, src='t5-986')
    j.msg(t + 34.0, 'Workers have started successfully.', src='t5-986')
    return t + 34.0


def runnerv2_notice(j, t):
    j.msg(t, "The Dataflow RunnerV2 container image of this job's workers will be ready for "
          "update in 7 days.", src='runnerv2-notice')


def teardown(j, c, t, n=None):
    n = n or c.num_workers
    j.msg(t, 'Cleaning up.', src='jcbaey')
    j.msg(t + 0.3, 'Starting worker pool teardown.', sev='DEBUG', src='jcbaey')
    j.msg(t + 0.5, 'Stopping worker pool...', src='jcbaey')
    j.msg(t + 95.0, 'Autoscaling: Resized worker pool from %d to 0.' % n, src='jcbaey')
    j.msg(t + 95.4, 'Autoscaling: Would further reduce the number of workers but reached the '
          'minimum number allowed for the job.', src='jcbaey')
    j.msg(t + 96.0, 'Worker pool stopped.', src='trv-jobmsg')
    j.msg(t + 97.0, 'Tearing down pending resources...', sev='DEBUG', src='jcbaey')
    return t + 97.0


# --------------------------------------------------------------------------------------------
# worker VM boot


def vm_boot(j, w, t):
    """system + kubelet noise of a COS worker VM coming up."""
    j.system(t, w, 'ima: No architecture policies found', src='kolban-system')
    j.system(t + 0.004, w, 'ima: Can not allocate sha384 (reason: -2)', src='docs-benign')
    j.kubelet(t + 6.5, w, '"Error initializing dynamic plugin prober" err="error (re-)creating '
              'driver directory: mkdir /usr/libexec/kubernetes: read-only file system"',
              sev='ERROR', src='docs-benign')
    j.kubelet(t + 7.1, w, '"Skipping pod synchronization" err="[container runtime status check '
              'may not have completed yet, PLEG is not healthy: pleg has yet to be successful]"',
              sev='ERROR', src='docs-benign')
    j.system(t + 9.8, w, 'Error running LookupEffectiveGuestPolicies', sev='ERROR',
             src='docs-benign')
    return t + 10.0


COS = {  # driver version lines per installer run (COS build, driver version)
    'nvidia-tesla-t4': ('16623.102.23', '470.82.01'),
    'nvidia-l4': ('17800.66.78', '535.129.03'),
    'nvidia-tesla-a100': ('17800.66.78', '535.129.03'),
    'nvidia-tesla-v100': ('16623.102.23', '470.82.01'),
}


def driver_install(j, w, c, t, finished=True):
    """cos-gpu-installer lines (system log), as written when install-nvidia-driver is set."""
    build, ver = COS.get(c.gpu, COS['nvidia-tesla-t4'])
    j.system(t, w, 'Downloading gpu_latest_version from https://storage.googleapis.com/cos-tools/'
             '%s/gpu_latest_version' % build, src='cos-installer')
    j.system(t + 0.6, w, 'Installing GPU driver version %s' % ver, src='cos-installer',
             mark='driver-line')
    j.system(t + 0.7, w, 'map[BUILD_ID:%s DRIVER_VERSION:%s]' % (build, ver), src='cos-installer')
    j.system(t + 31.0, w, 'Loading gpu-key to secondary system keyring', src='cos-installer')
    j.system(t + 31.2, w, 'Successfully load key gpu-key into secondary system keyring.',
             src='cos-installer')
    j.system(t + 44.0, w, 'Verifying GPU driver installation', src='cos-installer')
    if finished:
        j.system(t + 46.5, w, 'Finished installing the drivers.', src='cos-installer-code')
    return t + 47.0


def image_check(j, w, c, t):
    img = c.image or ('gcr.io/cloud-dataflow/v1beta3/beam_python%s_sdk:%s' % (j.python, j.beam))
    j.kubelet(t, w, 'Checking docker image integrity of %s' % img, src='df-templates-1761')
    return t + 1.0


def sdk_boot(j, w, c, t, sdk='sdk-0-0', status_port=43335):
    """docker (boot.go) and worker (SDK harness) lines of one SDK process coming up."""
    j.docker(t, w, 'Initializing python harness: /opt/apache/beam/boot --id=%s '
             '--provision_endpoint=localhost:12371' % sdk, src='beam-boot')
    j.docker(t + 2.4, w, 'Executing: python -m apache_beam.runners.worker.sdk_worker_main',
             src='beam-boot')
    mod = 'apache_beam/runners/worker/sdk_worker_main.py'
    j.wlog(t + 4.1, w, 'Logging handler created.', sdk=sdk, module=mod, line=105)
    j.wlog(t + 4.2, w, 'semi_persistent_directory: /var/opt/google', sdk=sdk, module=mod, line=109)
    j.wlog(t + 4.4, w, 'Status HTTP server running at localhost:%d' % status_port, sdk=sdk,
           module='apache_beam/runners/worker/worker_status.py', line=163)
    j.wlog(t + 4.5, w, "Discarding unparseable args: ['--autoscalingAlgorithm=NONE', "
           "'--dataflowWorkerJar=/opt/google/dataflow/runner_harness.jar', "
           "'--direct_runner_use_stacked_bundle', '--pipeline_type_check']", sev='WARNING',
           sdk=sdk, module='apache_beam/options/pipeline_options.py', line=335)
    j.wlog(t + 4.6, w, options_line(j, c), sdk=sdk, module=mod, line=136, mark=('options',),
           src='jcbaey', cite='Python sdk harness started with pipeline_options: {…}')
    j.wlog(t + 4.7, w, 'Creating state cache with size 0', sdk=sdk,
           module='apache_beam/runners/worker/statecache.py', line=172)
    j.wlog(t + 4.8, w, 'Creating insecure control channel for localhost:12371.', sdk=sdk,
           module='apache_beam/runners/worker/sdk_worker.py', line=183, src='beam-sdk-worker')
    j.wlog(t + 4.9, w, 'Control channel established.', sdk=sdk,
           module='apache_beam/runners/worker/sdk_worker.py', line=191, src='beam-sdk-worker')
    j.wlog(t + 5.0, w, 'Initializing SDKHarness with unbounded number of workers.', sdk=sdk,
           module='apache_beam/runners/worker/sdk_worker.py', line=232, src='beam-sdk-worker')
    j.wlog(t + 5.6, w, 'Creating insecure state channel for localhost:12371.', sdk=sdk,
           thread='Thread-14', module='apache_beam/runners/worker/sdk_worker.py', line=858)
    j.wlog(t + 5.7, w, 'State channel established.', sdk=sdk, thread='Thread-14',
           module='apache_beam/runners/worker/sdk_worker.py', line=865)
    j.wlog(t + 5.8, w, 'Creating client data channel for localhost:12371', sdk=sdk,
           thread='Thread-14', module='apache_beam/runners/worker/data_plane.py', line=805)
    return t + 6.0


def sdk_shutdown(j, w, t, sdk='sdk-0-0'):
    mod = 'apache_beam/runners/worker/sdk_worker.py'
    j.wlog(t, w, 'No more requests from control plane', sdk=sdk, module=mod, line=263,
           src='beam-sdk-worker')
    j.wlog(t + 0.1, w, 'SDK Harness waiting for in-flight requests to complete', sdk=sdk,
           module=mod, line=264, src='beam-sdk-worker')
    j.wlog(t + 0.4, w, 'Done consuming work.', sdk=sdk, module=mod, line=276, src='beam-sdk-worker')
    return t + 0.5


def tf_gpu_lines(j, w, t, date, bus='0000:00:04.0', mb=13829):
    """TensorFlow stderr on a worker whose T4 works (docker log; stderr -> ERROR severity)."""
    j.docker(t, w, '%s: I tensorflow/stream_executor/platform/default/dso_loader.cc:49] '
             'Successfully opened dynamic library libcudart.so.11.0' % _tfts(date, t),
             sev='ERROR', src='tf-healthy')
    j.docker(t + 0.8, w, '%s: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1558] Found '
             'device 0 with properties: \npciBusID: %s name: Tesla T4 computeCapability: 7.5\n'
             'coreClock: 1.59GHz coreCount: 40 deviceMemorySize: 14.75GiB '
             'deviceMemoryBandwidth: 298.08GiB/s' % (_tfts(date, t + 0.8), bus), sev='ERROR',
             src='dali-1813')
    j.docker(t + 1.1, w, '%s: I tensorflow/stream_executor/cuda/cuda_gpu_executor.cc:981] '
             'successful NUMA node read from SysFS had negative value (-1), but there must be at '
             'least one NUMA node, so returning NUMA node zero' % _tfts(date, t + 1.1),
             sev='ERROR', src='kubeflow-1156')
    j.docker(t + 1.3, w, '%s: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1241] Created '
             'TensorFlow device (/job:localhost/replica:0/task:0/device:GPU:0 with %d MB memory) '
             '-> physical GPU (device: 0, name: Tesla T4, pci bus id: %s, compute capability: '
             '7.5)' % (_tfts(date, t + 1.3), mb, bus), sev='ERROR', src='kubeflow-1156',
             mark='tf-device')
    return t + 1.5


def _tfts(date, t):
    """TF's own 'YYYY-MM-DD hh:mm:ss.ffffff' prefix, derived from the job clock."""
    import datetime as dt
    base = dt.datetime.strptime(date, '%Y-%m-%dT%H:%M:%SZ')
    x = base + dt.timedelta(seconds=t + 0.000731)
    return x.strftime('%Y-%m-%d %H:%M:%S.%f')


def full_worker_boot(j, w, c, t, driver_lines=None, tf=False, date=None):
    """VM boot, optional driver install, image check, SDK processes. Returns next time."""
    t = vm_boot(j, w, t)
    if driver_lines is None:
        driver_lines = bool(c.gpu and c.driver)
    if driver_lines:
        t = driver_install(j, w, c, t + 2.0)
    t = image_check(j, w, c, t + 3.0)
    for i, sdk in enumerate(sdk_ids(c)):
        sdk_boot(j, w, c, t + 12.0 + i * 0.9, sdk=sdk, status_port=43335 + i * 17)
    t = t + 12.0 + len(sdk_ids(c)) * 0.9 + 6.0
    if tf and date:
        t = tf_gpu_lines(j, w, t + 20.0, date)
    return t


def bring_up(j, c, workers=None, t0=0.0, boot_at=64.0, tf=False, driver_lines=None, steps=None,
             notice=True, stagger=6.3, autoscaling_mark=None):
    """Submission messages, worker VMs booting, 'Workers have started successfully'.

    Returns the time at which every worker's SDK processes are up.
    """
    submit(j, c, t0, steps=steps, autoscaling_mark=autoscaling_mark)
    ws = workers if workers is not None else j.w
    started(j, c, boot_at - 5.0, n=len(ws))
    ends = []
    date = j.start.strftime('%Y-%m-%dT%H:%M:%SZ')
    for i, w in enumerate(ws):
        ends.append(full_worker_boot(j, w, c, boot_at + i * stagger, driver_lines, tf, date))
    if notice and not c.get('disable_notice'):
        runnerv2_notice(j, boot_at + 41.0)
    return max(ends) if ends else boot_at


def fail(j, c, t, text, src, mark='workflow-failed', n=None, sev='ERROR', cite=None):
    """The job's final error message followed by the usual teardown messages."""
    j.msg(t, text, sev=sev, src=src, mark=mark, cite=cite)
    return teardown(j, c, t + 1.5, n=n)


def failed_attempts(j, t, worker, tb, step, src, cite, gap, bundle=1, thread=11, sdk='sdk-0-0', mark=None,
                    msg_cite=None, msg_at=2.0):
    """Four failed attempts of a bundle as the Python SDK reports them: the worker log's "Error
    processing instruction process_bundle-N. Original traceback is" with `tb` at ERROR, and with
    `msg_cite` the job message "Error message from worker: …" `msg_at` seconds later. `mark` (and
    mark + '-msg') labels the first attempt's entries. Returns the time after the fourth attempt."""
    from corpuslib import texts as T
    for attempt in range(4):
        first = attempt == 0
        j.wlog(t, worker, T.instruction_error('process_bundle-%d' % (bundle + attempt), tb), sev='ERROR', src=src,
               cite=cite, module='apache_beam/runners/worker/sdk_worker.py', line=303,
               thread='Thread-%d' % (thread + attempt), sdk=sdk, step=step, mark=mark if first else None)
        if msg_cite is not None:
            j.msg(t + msg_at, T.worker_error_msg(tb, step), sev='ERROR', src=src, cite=msg_cite,
                  mark=mark + '-msg' if first and mark else None)
        t += gap
    return t


def fail_work_item_4(j, c, t, stage, workers, mark='wif', n=1):
    """The job's failure after four failed attempts, in the current work-item-failed wording
    without "Root cause:" lines (texts.work_item_failed_4_plain), and the teardown."""
    from corpuslib import texts as T
    return fail(j, c, t, T.work_item_failed_4_plain(stage, workers),
                src=('current work-item-failed wording (apache/beam#30482) without "Root cause:" '
                     'lines (composition)', 'I'), mark=mark, n=n,
                cite='Workflow failed. Causes: S01:… failed., The job failed because a work item '
                     'has failed 4 times. …')


NO_ACTIVITY_1H = ('Workflow failed. Causes: The Dataflow job appears to be stuck because no worker '
                  'activity has been seen in the last 1h. Please check the worker logs in '
                  'Stackdriver Logging. You can also get help with Cloud Dataflow at '
                  'https://cloud.google.com/dataflow/support.')

UNABLE_TO_BRING_UP = ('Workflow failed. Causes: Unable to bring up enough workers: minimum 1, '
                      'actual 0. Please check your quota and retry later, or please try in a '
                      'different zone.')


def failing_attempts(j, c, w, t, tb, step, stage, src, mark, gap, thread_base=11):
    """A DoFn that raises the same traceback on each of four attempts, as the SDK harness logs it
    (ERROR, "Error processing instruction process_bundle-N …", one thread per attempt, `gap`
    seconds apart; `mark` tags the first), then the job's failure after the fourth."""
    from corpuslib import texts as T
    for attempt in range(4):
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=src,
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (thread_base + attempt),
               step=step, mark=mark if attempt == 0 else None)
        t += gap
    return fail_work_item_4(j, c, t + 2.0, stage, [w] * 4)


def flex_launcher_start(j, args, t0):
    """The Flex Template launcher's first four lines for a Python template run with `args`."""
    j.launcher(t0, 'Started template launcher.', line='python_template_launcher.go:36',
               src='ft-launcher-2020')
    j.launcher(t0 + 0.1, 'Initialize Python template.', line='python_template_launcher.go:38',
               src='ft-launcher-2020')
    j.launcher(t0 + 0.4, 'Using launch args: [/dataflow/template/main.py %s]' % args,
               line='python_template.go:63', src='ft-launcher-2020',
               cite='Using launch args: [/dataflow/template/main.py …]')
    j.launcher(t0 + 0.5, 'Executing: python /dataflow/template/main.py %s' % args, line='exec.go:37',
               src='ft-launcher-2020', cite='Executing: python /dataflow/template/main.py …')
