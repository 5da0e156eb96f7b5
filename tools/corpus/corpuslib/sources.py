"""Where the log text in the corpus comes from.

Every entry a case spec creates names a source key from SOURCES (or passes an explicit
(from, tag) tuple). build.py lists the distinct (text, from, tag) triples of a case in its
labels.yaml `sources:` section, so each log line in an export can be traced to public text.

Tags are the ones of shared/reference/dataflow-log-signatures.md:
  V        verbatim from the cited source
  V-tmpl   verbatim from official docs that show placeholders; the corpus fills in values
  V-other  verbatim text of the same program (TensorFlow, PyTorch, kernel, kubelet …) seen
           outside Dataflow; that it appears the same way in a Dataflow export is inferred
  V-code   a format string or constant from source code, formatted with our values
  I        inferred: no public text found; a case that depends on it is named *-synthetic
           or says so in its description
"""

SIG = 'shared/reference/dataflow-log-signatures.md'

SOURCES = {
    # --- job-message lifecycle (healthy noise) ---------------------------------------------
    'jcbaey': ('jcbaey/dataflow_python_timer README.md (2020), job messages and Python SDK '
               'harness startup lines (' + SIG + ' §2i, §1.2 D)', 'V'),
    'beam19306': ('apache/beam#19306 (2019), job-message sequence (' + SIG + ' §2i, §2f f8)', 'V'),
    't5-986': ('google-research/text-to-text-transfer-transformer#986 (2022), job messages of '
               'a run that stalled (' + SIG + ' §2d d3)', 'V'),
    'gvt48': ('googlegenomics/gcp-variant-transforms#48 (2018), "Autoscaling is enabled for '
              'job …" (' + SIG + ' §1.8)', 'V'),
    'trv-jobmsg': ('LogEntry docstring of a public orchestration repo, "Worker pool stopped." '
                   '(' + SIG + ' §1.2 B)', 'V'),
    'runnerv2-notice': ('Runner v2 notice quoted in ' + SIG + ' §2f f10', 'V'),
    'sig-2i': (SIG + ' §2i, healthy job-message sequence', 'V'),
    # --- worker VM noise ---------------------------------------------------------------------
    'kolban-system': ('kolban-google/offline-log-viewer src/LogRecord.js, system log entry '
                      '"ima: No architecture policies found" (' + SIG + ' §1.2 A)', 'V'),
    'docs-benign': ('Dataflow docs "Troubleshoot Dataflow errors", lines listed as safe to '
                    'ignore (' + SIG + ' §2i)', 'V'),
    'beam-sdk-worker': ('apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py, '
                        'log format strings', 'V-code'),
    'beam-boot': ('apache/beam sdks/python/container/boot.go, log format strings', 'V-code'),
    'df-templates-1761': ('GoogleCloudPlatform/DataflowTemplates#1761 and #1817 (2024), '
                          'kubelet/boot lines of real Dataflow workers', 'V'),
    'df-templates-1487': ('GoogleCloudPlatform/DataflowTemplates#1487 (2024), kubelet '
                          '"PullImage from image service failed" on a Dataflow worker', 'V'),
    'cos-installer': ('GoogleCloudPlatform/container-engine-accelerators#237 (2022), '
                      'cos-gpu-installer output; that Dataflow writes the same lines to the '
                      'system log is inferred (' + SIG + ' §2e e2)', 'V-other'),
    'cos-installer-code': ('cos-gpu-installer source strings (' + SIG + ' §2e e2); placement '
                           'in the Dataflow system log inferred', 'V-code'),
    'beam-hf-inference': ('apache/beam sdks/python/apache_beam/ml/inference/'
                          'huggingface_inference.py / pytorch_inference.py, warning string',
                          'V-code'),
    # --- TensorFlow device lines ----------------------------------------------------------------
    'kubeflow-1156': ('kubeflow/trainer#1156 (2020), TensorFlow on a Tesla T4: "Created '
                      'TensorFlow device … GPU:0 … Tesla T4"; timestamp prefix adapted', 'V-other'),
    'dali-1813': ('NVIDIA/DALI#1813 (2020), TensorFlow "Found device 0 with properties" on a '
                  'Tesla T4; timestamp prefix adapted', 'V-other'),
    'tf-healthy': (SIG + ' §2i, TensorFlow lines on a working GPU; timestamp prefix adapted',
                   'V-other'),
    # --- signatures --------------------------------------------------------------------------
    'dill-438': ('uqfoundation/dill#438, "XXX lineno: 4, opcode: 120" / "SystemError: unknown '
                 'opcode" (' + SIG + ' §2a a3)', 'V-other'),
    'docs-gpu-ts': ('Dataflow docs "Troubleshoot your Dataflow GPU job" (' + SIG + ')', 'V'),
    'beam-24906': ('apache/beam#24906 (2023), Runner v2 venv path in a worker traceback '
                   '(' + SIG + ' §2a a5)', 'V'),
    'beam-26330': ('apache/beam#26330 (2023), DoFn deserialisation frames through '
                   'apache_beam/internal/pickler.py (' + SIG + ' §2a a5)', 'V'),
    'beam-compat': ('apache/beam bundle_processor.py _verify_descriptor_created_in_a_compatible_env, '
                    'f-string filled with our versions (' + SIG + ' §2a a4)', 'V-code'),
    'ml-starter': ('google/dataflow-ml-starter README (' + SIG + ' §2a a6, §2f f3, f6)', 'V'),
    'beam-22811': ('apache/beam#22811 (2022), PyTorch CUDA OOM inside RunInference '
                   '(' + SIG + ' §2b b3)', 'V'),
    'rpl-14': ('yyliu01/RPL#14, "RuntimeError: CUDA out of memory. Tried to allocate …" '
               '(' + SIG + ' §2b b3)', 'V-other'),
    'dify-599': ('dify-official-plugins#599, "torch.OutOfMemoryError: CUDA out of memory …" '
                 '(' + SIG + ' §2b b3)', 'V-other'),
    'rapids-cudf': ('rapidsai/cudf (RMM) "std::bad_alloc: out_of_memory: CUDA error at: … '
                    'cudaErrorMemoryAllocation out of memory" (' + SIG + ' §2b b2)', 'V-other'),
    'sleap-2142': ('talmolab/sleap#2142, TensorFlow CUDA_ERROR_OUT_OF_MEMORY allocation retry '
                   'and BFC allocator "not a failure" lines (' + SIG + ' §2b b4)', 'V-other'),
    'tf-oom-fatal': ('TensorFlow ResourceExhaustedError "OOM when allocating tensor" '
                     '(' + SIG + ' §2b b4)', 'V-other'),
    'pontem-251': ('GoogleCloudPlatform/pontem#251 (2024), ZONE_RESOURCE_POOL_EXHAUSTED job '
                   'message (' + SIG + ' §2c c1)', 'V'),
    'pds-5247': ('GoogleCloudPlatform/python-docs-samples#5247 (2021), Dataflow GPU sample test '
                 '(' + SIG + ' §2c c2, §2e e3)', 'V'),
    'beam-26552': ('apache/beam#26552 (2023), ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS with '
                   'instance name; Jenkins "****" masking undone (' + SIG + ' §2c c3)', 'V'),
    'cloudml-54': ('GoogleCloudPlatform/cloudml-samples#54 (2017), "Workflow failed. Causes: '
                   'Unable to bring up enough workers: minimum 1, actual 0 …" (message ids '
                   'dropped)', 'V'),
    'ml-starter-quota': ('google/dataflow-ml-starter README, QUOTA_EXCEEDED NVIDIA_T4_GPUS job '
                         'message (' + SIG + ' §2c c6)', 'V'),
    'quota-preemptible': (SIG + ' §2c c7: PREEMPTIBLE_* quota metric names are real, the '
                          'Dataflow sentence is inferred from the NVIDIA_T4_GPUS case', 'I'),
    'flex-start-es': ('Dataflow "Run a pipeline with GPUs" (doc-pages/run-pipeline-with-gpus.es.txt): '
                      '"FLEX_START está habilitado para el trabajo JOB_ID"; the English wording '
                      'is a translation (' + SIG + ' §2d d2)', 'I'),
    'flex-start-option': ('Dataflow "Run a pipeline with GPUs", provisioning model section: '
                          'worker_accelerator=type:nvidia-tesla-t4;count:1;install-nvidia-driver:5xx;'
                          'provisioning_model:FLEX_START', 'V'),
    'beam-34381': ('apache/beam PR #34381 (2025), full "no worker activity … 1h" text '
                   '(' + SIG + ' §2d d3)', 'V'),
    'tfx-6386': ('tensorflow/tfx#6386 (2023), "Workflow failed. Causes: The Dataflow job appears '
                 'to be stuck because no worker activity has been seen in the last 1h. …"', 'V'),
    'docs-gpu-option': ('Dataflow "Run a pipeline with GPUs" (doc-pages/use-gpus.ko.txt): '
                        "dataflow_service_options ['worker_accelerator=type:nvidia-tesla-t4;"
                        "count:1;install-nvidia-driver', ...]", 'V'),
    'tf-cuinit': ('TensorFlow "failed call to cuInit: CUDA_ERROR_NO_DEVICE" and "kernel driver '
                  'does not appear to be running on this host" (' + SIG + ' §2e e3)', 'V-other'),
    'gcp-gpu-install-33': ('GoogleCloudPlatform/compute-gpu-installation#33 (2024), "NVIDIA-SMI '
                           'has failed because it couldn\'t communicate with the NVIDIA driver. '
                           'Make sure that the latest NVIDIA driver is installed and running."',
                           'V-other'),
    'pytorch-c10': ('PyTorch c10/cuda source string "Found no NVIDIA driver on your system …" '
                    '(' + SIG + ' §2e e3)', 'V-code'),
    'tf-dlopen': ('TensorFlow "Could not load dynamic library …" / "Cannot dlopen some GPU '
                  'libraries" / "Skipping registering GPU devices..." (' + SIG + ' §2e e3)',
                  'V-other'),
    'video2x-1226': ('k4yt3x/video2x#1226 (2024), "Failed to initialize NVML: Driver/library '
                     'version mismatch" / "NVML library version: 565.57"', 'V-other'),
    'tf-41401': ('tensorflow/tensorflow#41401 and #37978, "cudaGetDevice() failed. Status: CUDA '
                 'driver version is insufficient for CUDA runtime version"', 'V-other'),
    'autoawq-584': ('casper-hansen/AutoAWQ#584 (Tesla T4), "RuntimeError: CUDA error: no kernel '
                    'image is available for execution on the device" and its follow-up lines',
                    'V-other'),
    'dask-6110': ('dask/distributed#6110, kernel OOM-killer lines (syslog prefix removed as '
                  'journald stores it) (' + SIG + ' §2b b7)', 'V-other'),
    'oom-old-kernel': ('older kernel OOM-killer wording, javacodegeeks (2014) and microsoft/pai#1682 '
                       '(' + SIG + ' §2b b7)', 'V-other'),
    'torch-multi-proc': ('PyTorch >= 2.1 OOM message format (dify-official-plugins#599) including its '
                         '"Process N has X GiB memory in use." lines for other processes on the GPU; '
                         'numbers adapted to a 16 GB T4', 'V-other'),
    'flink-version': ('Dataflow custom-container troubleshooting page: "sdk_worker_main.py: error: '
                      'argument --flink_version: invalid choice: …" (' + SIG + ' §2a a6)', 'V'),
    'docs-pkg-resources': ('Dataflow docs "Troubleshoot Dataflow errors" (2026-02): "ModuleNotFoundError: '
                           'No module named \'pkg_resources\'" after setuptools 82.0.0 (' + SIG + ' §2f f6)', 'V'),
    'docs-gc': ('Dataflow docs "Troubleshoot Dataflow errors": "Shutting down JVM after 8 '
                'consecutive periods of measured GC thrashing …" (' + SIG + ' §2b b6)', 'V'),
    'akash-244': ('akash-network/support#244 (2024), NVRM Xid 43/31/94 kernel lines', 'V-other'),
    'akash-209': ('akash-network/support#209 (2024), NVRM Xid 79 "GPU has fallen off the bus"',
                  'V-other'),
    'gpu-operator-1146': ('NVIDIA/gpu-operator#1146 (2024), NVRM Xid 48 double bit error line',
                          'V-other'),
    'docs-unresponsive': ('Beam docs python-pipeline-dependencies / Dataflow common-errors: '
                          '"Unable to retrieve status info from SDK harness <...> within allowed '
                          'time", "SDK worker appears to be permanently unresponsive. Aborting '
                          'the SDK"', 'V-tmpl'),
    'beam-25273': ('apache/beam#25273 (2023), "SDK harness sdk-0-1 disconnected." / "Data '
                   'channel closed …" job message', 'V'),
    'tfds-1473': ('tensorflow/datasets#1473 (2020), "The job failed because a work item has '
                  'failed 4 times … Root cause: The worker lost contact with the service."', 'V'),
    'beam-30482': ('apache/beam#30482 (2024), current work-item-failed wording with "Root cause: '
                   'Timed out waiting for an update from the worker"', 'V'),
    'gvt-466': ('googlegenomics/gcp-variant-transforms#466 and apache/beam#19306: old wording '
                '"A work item was attempted 4 times without success. Each time the worker '
                'eventually lost contact with the service."', 'V'),
    'docs-throttle': ('Dataflow docs "Work with pipeline logs" and GoogleCloudPlatform/'
                      'DataflowTemplates docs: "Throttling logger worker. It used up its 30s '
                      'quota for logs in only 17.465s"', 'V'),
    'docs-image-pull': ('Dataflow docs "Troubleshoot Dataflow errors", container image errors '
                        '(' + SIG + ' §2f f1)', 'V-tmpl'),
    'beam-19622': ('apache/beam#19622, "Error syncing pod … CrashLoopBackOff … '
                   'harness-fbm2" kubelet line (' + SIG + ' §2f f2)', 'V'),
    'vcluster-162': ('loft-sh/vcluster#162, structured kubelet "Error syncing pod, skipping" '
                     'err=… CrashLoopBackOff line and "RemoveContainer" line', 'V-other'),
    'docs-arch': ('Dataflow docs / google/dataflow-ml-starter: "exec /opt/apache/beam/boot: exec '
                  'format error" (' + SIG + ' §2f f3)', 'V'),
    'docker-no-space': ('docker "failed to register layer: Error processing tar file(exit status '
                        '1): write …: no space left on device" (dusty-nv/jetson-inference#1569, '
                        'NVIDIA-NeMo#1029); Dataflow wording of the pull failure inferred',
                        'V-other'),
    'docs-disk': ('Dataflow docs "Troubleshoot Dataflow errors": "No space left on device" '
                  '(' + SIG + ' §2f f4)', 'V'),
    'pip-missing': (SIG + ' §2f f5: the boot.go wrapper strings are V-code; the '
                    '"fork/exec /usr/local/bin/pip: no such file or directory" error is inferred',
                    'I'),
    'ml-starter-venv': ('google/dataflow-ml-starter README, worker log at INFO: "The virtual '
                        'environment was not created successfully because ensurepip is not '
                        'available …" (' + SIG + ' §2f f6)', 'V'),
    'gce-live-migration': ('GCE API error "Instances with guest accelerators do not support live '
                           'migration." (loft-sh/devpod#973, cloudpilot-ai/karpenter-provider-gcp'
                           '#167) inside the Dataflow docs template "UNSUPPORTED_OPERATION: '
                           'Instance … creation failed" (' + SIG + ' §2g g1)', 'V-tmpl'),
    'docs-invalid-config': ('Dataflow docs right-fitting page: "… is an invalid configuration for '
                            'NUMBER count of \'GPU_TYPE\' in family \'MACHINE_TYPE\'." '
                            '(' + SIG + ' §2g g2)', 'V-tmpl'),
    'docs-reservation': ('Dataflow TPU docs reservation error, same mechanism for GPUs '
                         '(' + SIG + ' §2g g4)', 'V-tmpl'),
    'gce-accel-not-found': ('GCE error "The resource \'projects/…/zones/us-west1-b/acceleratorTypes/'
                            'nvidia-tesla-p4\' was not found" (fastai/course-v3#430); the Dataflow '
                            'wrapping is inferred (' + SIG + ' §2g g5)', 'I'),
    'codelabs-967': ('googlecodelabs/feedback#967 (2021), real Dataflow wording "Workflow failed. '
                     'Causes: Error: Message: … HTTP Code: 403" (used as the envelope)', 'V'),
    'options-inferred': ('pipeline options echoed in "Python sdk harness started with '
                         'pipeline_options" (format V from jcbaey/dataflow_python_timer); the '
                         'misconfiguration itself raises no known error text', 'I'),
    'flex-max-runtime': ('Dataflow "Run a pipeline with GPUs": flex-start worker VMs have a maximum '
                         'run time of seven days; no public log text of the stop exists', 'I'),
    'gcpdiag-job': ('GoogleCloudPlatform/gcpdiag test-data/dataflow1 json-dumps (real '
                    '`jobs describe` output shape); values ours', 'V'),
    'synthetic-frames': ('Python traceback frames around the real exception line are composed '
                         'by us from Beam/PyTorch module paths', 'I'),
    'beam-lull-py-new': ('apache/beam sdks/python/apache_beam/runners/worker/worker_status.py '
                         '(newer Beam, e.g. v2.67.0 per apache/beam#36022): "Operation ongoing in '
                         'bundle %s%s for at least %.2f seconds without outputting or completing.'
                         '\\nCurrent Traceback:\\n%s" with " for PTransform{name=%s, state=%s}"',
                         'V-code'),
    'beam-lull-py-old': ('apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py and '
                         'worker_status.py (older Beam): "Operation ongoing for over %.2f seconds in '
                         'state %s" + " in step %s " + " without returning. Current Traceback:\\n%s"',
                         'V-code'),
    # --- Flex Template launcher ---------------------------------------------------------------
    'ft-launch-failed-msg': ('GoogleCloudPlatform/python-docs-samples#6245 (2021), exported job-message '
                             'LogEntry: textPayload "Error occurred in the launcher container: Template '
                             'launch failed. See console logs.", severity ERROR', 'V'),
    'ft-console-log-msg': ('mozilla/gcp-ingestion#1899 (2021) and GoogleCloudPlatform/dataflow-video-'
                           'analytics#16 (2021): job message "Console log from launcher will be '
                           'available at gs://…/template_launches/JOB_ID/console_logs."', 'V'),
    'ft-launcher-2020': ('GoogleCloudPlatform/python-docs-samples#4891 (2020), launcher console lines '
                         '"Started template launcher." (python_template_launcher.go:36), "Initialize '
                         'Python template." (:38), "Using launch args: [...]" (python_template.go:63), '
                         '"Executing: python ..." (exec.go:37); args ours', 'V'),
    'ft-launcher-entry': ('GoogleCloudPlatform/DataflowTemplates pubsub-to-redis PublishMessage.java '
                          '(2023): a real dataflow.googleapis.com/launcher LogEntry (jsonPayload '
                          'message + line "exec.go:66", launcher-<digits> VM labels, the job id in '
                          'resource.labels); program output line ours', 'V'),
    'ft-launcher-traceback-4891': ('GoogleCloudPlatform/python-docs-samples#4891 (2020): the launcher '
                                   'console of a failed Python Flex Template launch, a traceback logged '
                                   'one entry per line at severity INFO from exec.go:64, about 10 µs '
                                   'apart, indentation kept; verbatim lines "    out = subprocess.'
                                   'check_output(*args, **kwargs)", "  File \"/usr/local/lib/python3.7/'
                                   'subprocess.py\", line 411, in check_output", "    **kwargs).stdout", '
                                   '"  File \"/usr/local/lib/python3.7/subprocess.py\", line 512, in '
                                   'run", "    output=stdout, stderr=stderr)", then the '
                                   'subprocess.CalledProcessError line; the frames above them (the '
                                   'template\'s main.py, Beam\'s stager) are ours', 'V'),
    'beam-options-deprecation': ('apache/beam sdks/python/apache_beam/pipeline.py (Pipeline.options is '
                                 '@deprecated since "First stable release", "References to '
                                 '<pipeline>.options will not be supported"); the warning as Python '
                                 'prints it, "…/apache_beam/io/gcp/bigquery.py:1881: '
                                 'BeamDeprecationWarning: options is deprecated …" and its source line '
                                 '"  temp_location = pcoll.pipeline.options.view_as(", is quoted from '
                                 'users\' console output of Python Dataflow jobs (public lab and '
                                 'question texts); logged at INFO by the launcher as its other '
                                 'program output', 'V'),
    'docs-template-launch': ('Dataflow docs "Troubleshoot Dataflow errors", "Template launch failed '
                             'with error": "Error: Template launch failed: exit status 13", the '
                             'setuptools "canonicalize_version() got an unexpected keyword argument '
                             '\'strip_trailing_zero\'" trace and the setup.py sdist CalledProcessError; '
                             'one launcher entry per line and the severities are inferred', 'V'),
    'job-cancel': ('apache/beam#13727 (2021), "Cancel request is committed for workflow job: JOB_ID."',
                   'V'),
    # --- errors no rule explains (issue 15) -----------------------------------------------
    'sklearn-nan': ('scikit-learn sklearn/utils/validation.py _assert_all_finite: "ValueError: Input '
                    'contains NaN, infinity or a value too large for dtype(\'float32\')." (dmlc/'
                    'xgboost#7941 title; check_array -> _assert_all_finite frames from dipanjanS/'
                    'practical-machine-learning-with-python#6)', 'V-other'),
    'beam-reraise': ('apache/beam sdks/python/apache_beam/runners/common.py DoFnRunner.'
                     '_reraise_augmented: step_annotation " [while running \'%s\']" appended to '
                     'the exception\'s message and raised inside the except block (Python 3 prints '
                     '"During handling of the above exception, another exception occurred:"); '
                     'compiled frames "File \\"apache_beam/runners/common.py\\", line N, in apache_beam.'
                     'runners.common.DoFnRunner._reraise_augmented" as in leap-stc/cmip6-leap-'
                     'feedstock PR #9', 'V-code'),
    'beam-instruction-error': ('apache/beam sdks/python/apache_beam/runners/worker/sdk_worker.py '
                               '_execute: print(traceback_string, file=sys.stderr) and _LOGGER.'
                               'error("Error processing instruction %s. Original traceback is\\n%s'
                               '\\n", …): the worker-log copy and the stderr (docker) copy of a '
                               'failed bundle', 'V-code'),
    'jobmsg-flat': ('job-message copy "Error message from worker: Traceback (most recent call '
                    'last): File \\"…\\", line 290, in loads return dill.loads(s) File …" flattened '
                    'onto one line (tensorflow/tfx#3772, GoogleCloudPlatform/mlops-with-vertex-ai#4)',
                    'V'),
    'weather-165': ('google/weather-tools#165 (2022): "Error message from worker: Traceback … '
                    'ModuleNotFoundError: No module named \'download_pipeline.config\'" / "During '
                    'handling of the above exception, another exception occurred:" / sdk_worker.py '
                    '_execute frames; the module is the pipeline\'s own package', 'V'),
    'leap-40': ('leap-stc/cmip6-leap-feedstock PR #40 (2023): "in _keep_only_variable_id '
                'AttributeError: \'OpenFile\' object has no attribute \'data_vars\' [while running '
                '\'…/Preprocessor/Fix coordinates\'" (flattened job-message tail)', 'V'),
    'pangeo-138': ('pangeo-forge/staged-recipes PR #138 (2022): Dataflow traceback ending '
                   '"File \\"/tmp/tmp1yj338fa/cached_recipe.py\\", line 12, in format_function" / '
                   '"ImportError: __import__ not found" with pangeo_forge_recipes and compiled Beam '
                   'frames', 'V'),
    'beam-33317': ('apache/beam PR #33317 (2024), SDK crash on Dataflow: the SDK container\'s '
                   'stderr in the worker\'s docker log one entry per line, all in the same second '
                   '("Traceback (most recent call last):", "  File \\"/usr/local/lib/python3.9/'
                   'threading.py\\", line 980, in _bootstrap_inner", "    self.run()")', 'V'),
    'dlp-74': ('GoogleCloudPlatform/dlp-dataflow-deidentification#74 (2021): "Error message from '
               'worker: java.lang.RuntimeException: org.apache.beam.sdk.util.UserCodeException: '
               'java.lang.ArrayIndexOutOfBoundsException: 1" then the frames one per line, '
               'indented, without "at"', 'V'),
    'java-trace': ('Java UserCodeException stack in the Runner v2 Java harness: "org.apache.beam.sdk.'
                   'util.UserCodeException: …", "at org.apache.beam.sdk.util.UserCodeException.wrap'
                   '(UserCodeException.java:39)", "…$DoFnInvoker$….invokeProcessElement", "at org.'
                   'apache.beam.fn.harness.FnApiDoFnRunner.processElementForWindowObservingParDo('
                   'FnApiDoFnRunner.java:645)" (GoogleCloudPlatform/DataflowTemplates PR #4203), '
                   '"Caused by: …" / "... N more" (java.lang.Throwable.printStackTrace); user class ours',
                   'V-other'),
    'pubsub-denied': ('Pub/Sub PERMISSION_DENIED detail "User not authorized to perform this action." '
                      '(googleapis/google-cloud-java#3083, googleapis/nodejs-pubsub#1180) in the Python '
                      'client\'s shapes: grpc/_channel.py _InactiveRpcError repr, google/api_core '
                      'grpc_helpers.py "raise exceptions.from_grpc_error(exc) from exc" ("403 '
                      '<details>"), CPython "The above exception was the direct cause of the '
                      'following exception:"', 'V-code'),
    'absl-tf-factory': ('bmaltais/kohya_ss#3320 (2025), TensorFlow start-up on a working GPU: '
                        '"WARNING: All log messages before absl::InitializeLog() is called are '
                        'written to STDERR", "E0000 00:00:1751448150.986970   10148 cuda_dnn.cc:8579] '
                        'Unable to register cuDNN factory: …", "E0000 … cuda_blas.cc:1407] Unable to '
                        'register cuBLAS factory: …", "W0000 … computation_placer.cc:177] computation '
                        'placer already registered. …"; "just warnings" (volnas10/DeepFaceLab-RTX5000#2)',
                        'V-other'),
    'tf-fft-factory': ('kr-colab/ReLERNN#63 and openxla/xla#20803: "E external/local_xla/xla/'
                       'stream_executor/cuda/cuda_fft.cc:607] Unable to register cuFFT factory: '
                       'Attempting to register factory for plugin cuFFT when one has already been '
                       'registered" (timestamped form)', 'V-other'),
    'pip-resolver': ('googlecolab/colabtools#1868 (2021): "ERROR: pip\'s dependency resolver does not '
                     'currently take into account all the packages that are installed. This '
                     'behaviour is the source of the following dependency conflicts." / "… requires '
                     '…, but you have … which is incompatible." ("just warnings", the maintainer); '
                     'that boot.go relays pip\'s output to the Dataflow worker-startup log is inferred',
                     'V-other'),
    'user-code': ('application log line written by the pipeline\'s own code (synthetic)', 'I'),
    'protobuf-descriptors': ('protocolbuffers/protobuf python/message.c (upb, 4.21 on): "TypeError: '
                             'Descriptors cannot be created directly. If this call came from a _pb2.py '
                             'file, …" with its workaround lines, raised from google/protobuf/'
                             'descriptor.py __new__ under a _pb2 module generated before protoc 3.19 '
                             '(tensorflow/tensorflow#56266, MicrosoftDocs/windows-ai-docs#77 show the '
                             'frames); the package and its frames in the case are composed', 'V-code'),
    'numpy-alias-removed': ('numpy/numpy numpy/__init__.py __getattr__ (1.24.2 on): "module \'numpy\' has '
                            'no attribute \'object\'.\n`np.object` was a deprecated alias for the builtin '
                            '`object`. …"; onnx/mapping.py of onnx before 1.11 mapped STRING to '
                            'np.dtype(np.object); frames composed', 'V-code'),
    'ort-ir-too-new': ('microsoft/onnxruntime onnxruntime/core/graph/model.cc Model::Model: "Unsupported '
                       'model IR version: 10, max supported IR version: 9", in the bytes-path form '
                       '"[ONNXRuntimeError] : 2 : INVALID_ARGUMENT : Failed to load model with error: …" '
                       '(microsoft/onnxscript#1288, microsoft/onnxruntime#20559); Beam '
                       'onnx_inference.py load_model frames composed', 'V-code'),
    'vllm-lora-rank': ('vllm-project/vllm vllm/lora/peft_helper.py PEFTHelper.validate_legal (0.7 on) and '
                       'vllm/lora/worker_manager.py _load_adapter: "LoRA rank {r} is greater than max_lora_rank {max}." '
                       '(vllm-project/vllm#2847, gpustack/gpustack#5438, unslothai/unsloth#2097 show it in real '
                       'tracebacks, the last through LLM.generate and the V0 engine\'s model_runner.set_active_loras); '
                       'frames and line numbers composed for vLLM 0.7.3', 'V-code'),
    'vllm-context-length-400': ('vllm-project/vllm vllm/entrypoints/openai/serving_engine.py _validate_input (0.2 to '
                                '0.10): "This model\'s maximum context length is N tokens. However, you requested M '
                                'tokens (P in the messages, C in the completion). Please reduce the length of the '
                                'messages or completion.", logged by serving_completion.py ("Error in preprocessing '
                                'prompt inputs") and returned as 400; the openai client\'s BadRequestError body in the '
                                'shape vLLM returns; frames composed from apache/beam vllm_inference.py run_inference '
                                'and openai/_base_client.py', 'V-code'),
    'ort-invalid-rank': ('microsoft/onnxruntime onnxruntime/core/session/inference_session.cc CheckShapes: "Invalid '
                         'rank for input: NAME Got: N Expected: M Please fix either the inputs or the model." raised '
                         'as INVALID_ARGUMENT from InferenceSession.run; apache/beam onnx_inference.py '
                         'default_numpy_inference_fn stacks the batch with numpy.stack; frames composed', 'V-code'),
}


def resolve(src):
    """Return (from, tag) for a source key or an explicit tuple."""
    if src is None:
        return None
    if isinstance(src, tuple):
        return src
    if src not in SOURCES:
        raise KeyError('unknown source key: %s' % src)
    return SOURCES[src]
