from corpuslib import noise as N

SRC_ADVISORY = ('vllm-project/vllm vllm/worker/model_runner.py (v0.4-v0.6, capture_model): '
                'logger.info("CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running '
                'out of memory, consider decreasing `gpu_memory_utilization` or enforcing eager mode. '
                '..."); the line as users pasted it with its (VllmWorkerProcess pid=N) prefix '
                '(the date, pid and line number adapted)', 'V-code')
SRC_CAPTURE = ('vllm-project/vllm vllm/worker/model_runner.py: the "Capturing the model for CUDA graphs" '
               'and "Graph capturing finished in N secs." INFO lines around the advisory', 'V-code')
SRC_RELAY = ('apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (2.60+): start_process '
             're-logs each line of the server\'s output with logging.info', 'V-code')
SRC_HUB = ('huggingface/huggingface_hub src/huggingface_hub/file_download.py http_get: '
           'logger.warning("Error while downloading from %s: %s\\nTrying to resume download...", url, str(e)); '
           'printed by Python\'s last-resort handler to stderr, which Dataflow stores at ERROR '
           '(the URL and times adapted)', 'V-code')
SRC_RETRY = ('apache/beam sdks/python/apache_beam/utils/retry.py (with_exponential_backoff): '
             '"Retry with exponential backoff: waiting for %s seconds before retrying %s because we caught '
             'exception: %s Traceback for above exception (most recent call last):\\n%s" at WARNING '
             '(the frames as Beam 2.64 prints them for a GCS copy; the wait adapted)', 'V-code')


def build(c):
    c.describe('''
        A healthy near miss of retried transient errors and a relayed advisory (issue 39): a batch
        job with Beam's vLLM model handler on an L4 worker. While the server downloads its weights,
        the model hub's read times out once: huggingface_hub warns "Error while downloading from …:
        Read timed out. / Trying to resume download...", on stderr (Dataflow stores it at ERROR),
        and resumes. Beam's GCS copy is retried once with its "Retry with exponential backoff"
        WARNING, which carries the exception's frames. The server then captures CUDA graphs and says,
        at INFO, relayed by Beam, "If you are running out of memory, consider decreasing
        `gpu_memory_utilization` or enforcing eager mode" — advice, not an error. The job succeeds:
        no finding, no unexplained group at error.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'],
               steps=['S01:ReadPrompts/Read+RunInference/BeamML_RunInference+WriteAnswers/Write'])
    j = c.job('summarise-vllm-l4-nightly', '2025-11-28T02:00:04Z', region='us-central1',
              zone='us-central1-b', python='3.11', beam='2.64.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 20
    retry = dict(module='apache_beam/utils/retry.py', line=300, thread='Thread-3')
    j.wlog(t, j.w[0], 'Retry with exponential backoff: waiting for 3.8912370145 seconds before retrying '
           '_gcs_file_copy because we caught exception: requests.exceptions.ConnectionError: '
           "('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))\n"
           ' Traceback for above exception (most recent call last):\n'
           '  File "/usr/local/lib/python3.11/site-packages/apache_beam/utils/retry.py", line 298, in wrapper\n'
           '    return fun(*args, **kwargs)\n'
           '  File "/usr/local/lib/python3.11/site-packages/apache_beam/io/gcp/gcsio.py", line 336, in _gcs_file_copy\n'
           '    self._gcs_object(src).rewrite(dest_blob)\n',
           sev='WARNING', src=SRC_RETRY, **retry)
    relay = dict(module='apache_beam/ml/inference/vllm_inference.py', line=91, thread='Thread-7')
    j.wlog(t + 4, j.w[0], "Starting service with ['/usr/local/bin/python', '-m', "
           "'vllm.entrypoints.openai.api_server', '--model', 'mistralai/Mistral-7B-Instruct-v0.3', "
           "'--port', '41007']", src=SRC_RELAY, **relay)
    j.docker(t + 40, j.w[0], "Error while downloading from https://cdn-lfs-us-1.hf.co/repos/c2/ec/"
             "c2ecf54f7fa0d838b0e99f7ff8b8b4776cef647a35e582c3cfc2ef6a3b35216a/"
             "ac079810acaca8a00ac1abef5c5d2e2d746a9b99fdefc98d0bf5031a2748482f: "
             "HTTPSConnectionPool(host='cdn-lfs-us-1.hf.co', port=443): Read timed out.\n"
             "Trying to resume download...", sev='ERROR', src=SRC_HUB)
    lines = [
        ('INFO 11-28 02:05:41 model_runner.py:1008] Capturing the model for CUDA graphs. This may lead to '
         "unexpected consequences if the model is not static. To run the model in eager mode, set "
         "'enforce_eager=True' or use '--enforce-eager' in the CLI.", SRC_CAPTURE),
        ('INFO 11-28 02:05:41 model_runner.py:1012] CUDA graphs can take additional 1~3 GiB memory per GPU. '
         'If you are running out of memory, consider decreasing `gpu_memory_utilization` or enforcing eager '
         'mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage.', SRC_ADVISORY),
        ('INFO 11-28 02:05:52 model_runner.py:1106] Graph capturing finished in 11 secs.', SRC_CAPTURE),
    ]
    for k, (line, src) in enumerate(lines):
        j.wlog(t + 97 + k, j.w[0], line, src=src, cite=line, **relay)
    t += 400
    N.sdk_shutdown(j, j.w[0], t)
    N.teardown(j, cf, t + 40, n=1)
    c.output('export.json')
    c.not_fire('gpu-out-of-memory', 'multiple-processes-per-gpu', 'work-item-failed')
    c.no_unexplained()
