"""Model servers as Beam's model handlers run them (issue 40): the relayed output and Beam's error.

Beam's vLLM model handler (apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py, 2.60
on) starts the server as a subprocess, re-logs each line of its output with logging.info
(start_process), and raises "Failed to start vLLM server, polling process exited with code …" when the
server exits before it answers.
"""
from corpuslib import texts as T

START_FAILED = ('Exception: Failed to start vLLM server, polling process exited with code 1.  Next time '
                'a request is tried, the server will be restarted')
SRC_RELAY = ('apache/beam sdks/python/apache_beam/ml/inference/vllm_inference.py (2.64): start_process '
             're-logs each line of the server\'s output with logging.info; "Failed to start vLLM '
             'server, polling process exited with code …" after its retries', 'V-code')


def relayed(j, t, line, src, mark=None, cite=None, sdk='sdk-0-0'):
    """One line of the server's output as Beam's relay logs it: at INFO, from vllm_inference.py, with
    the microseconds of Python's logging record (Cloud Logging keeps them)."""
    e = j.wlog(t, j.w[0], line, src=src, cite=cite or line, mark=mark, sdk=sdk,
               module='apache_beam/ml/inference/vllm_inference.py', line=91, thread='Thread-7')
    e.fields['digits'] = 6
    return e


def start_failed(j, t, attempt, step, frames=(), sdk='sdk-0-0', mark=None):
    """Beam's exception when the server did not start, as the SDK harness logs it (ERROR, the
    instruction's traceback; `frames`: Beam's frames above the handler's own, if any)."""
    beam = T.user_tb('3.11', list(frames) + [
        '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 157, in __init__' % T.sp('3.11'),
        '    self.start_server()',
        '  File "%s/apache_beam/ml/inference/vllm_inference.py", line 209, in start_server' % T.sp('3.11'),
        '    raise Exception(',
    ], START_FAILED)
    return j.wlog(t, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), beam),
                  sev='ERROR', src=SRC_RELAY, cite=START_FAILED, module='apache_beam/runners/worker/sdk_worker.py',
                  line=303, thread='Thread-%d' % (11 + attempt), step=step, sdk=sdk, mark=mark)
