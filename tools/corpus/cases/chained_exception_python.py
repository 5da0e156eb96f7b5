from corpuslib import noise as N, texts as T

STEP = 'PublishAlerts'
DETAILS = 'User not authorized to perform this action.'
EXC = 'google.api_core.exceptions.PermissionDenied: 403 ' + DETAILS
STEPS = ['S03:ReadFrames/Read+Detect+PublishAlerts']


def build(c):
    c.describe('''
        Chained Python exceptions: a DoFn publishes detections to Pub/Sub from /app/alerts/
        publish_alerts.py line 41 and the worker service account lacks the publisher role. gRPC
        raises "_InactiveRpcError ... status = StatusCode.PERMISSION_DENIED, details = "User not
        authorized to perform this action."" (the Pub/Sub detail text is real), api_core raises
        "google.api_core.exceptions.PermissionDenied: 403 User not authorized to perform this
        action." from it ("The above exception was the direct cause of the following
        exception:"), and Beam re-raises that with " [while running 'PublishAlerts']" ("During
        handling of the above exception, another exception occurred:"). The gRPC error has only
        framework frames; the group is the PermissionDenied the user's call raised, at
        publish_alerts.py:41, step PublishAlerts. Worker-log copy on both workers, job-message
        copy, then the work-item failure.''')
    cf = N.cfg(machine='n1-standard-4', gpu='nvidia-tesla-t4', driver=True, num_workers=2,
               max_workers=2, experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('camera-alerts-batch', '2024-09-03T21:44:50Z', region='us-east1',
              zone='us-east1-c', python='3.11', beam='2.58.0', workers=2)
    ready = N.bring_up(j, cf)
    tb = T.grpc_permission_denied_chain(
        '3.11', '/app/alerts/publish_alerts.py', 41,
        'self._publisher.publish(self._topic, payload).result()', STEP, DETAILS,
        'UNKNOWN:Error received from peer ipv4:142.250.1.95:443 {grpc_message:\\"%s\\", '
        'grpc_status:7}' % DETAILS)
    t = ready + 57
    for attempt in range(4):
        w = j.w[attempt % 2]
        first = attempt == 0
        j.wlog(t, w, T.instruction_error('process_bundle-%d' % (3 + attempt), tb), sev='ERROR',
               src='pubsub-denied', cite=EXC, module='apache_beam/runners/worker/sdk_worker.py',
               line=303, thread='Thread-%d' % (17 + attempt), step=STEP,
               mark='denied' if first else None)
        j.msg(t + 2.2, 'Error message from worker: generic::unknown: ' + tb, sev='ERROR',
              src='pubsub-denied', cite='Error message from worker: generic::unknown: Traceback '
              '… ' + EXC + " [while running '%s']" % STEP, mark='denied-msg' if first else None)
        t += 33.0
    c.source("… [while running 'PublishAlerts']", 'beam-reraise')
    N.fail(j, cf, t + 4.0, T.work_item_failed_4_plain(STEPS[0], [j.w[0], j.w[1], j.w[0], j.w[1]]),
           src=('current work-item-failed wording (apache/beam#30482) without "Root cause:" '
                'lines (composition)', 'I'), mark='wif', n=2,
           cite='Workflow failed. Causes: S03:… failed., The job failed because a work item has '
                'failed 4 times. …')
    c.output('export.json')
    c.fire('work-item-failed', marks=['wif'])
    c.fire('workflow-failed', marks=['wif'], caused_by='work-item-failed')
    c.not_fire('worker-lost-contact')
    # The innermost exception is the cause (issue 15): gRPC's error, which `raise … from` wrapped
    # into google.api_core's PermissionDenied; both have the user's frame publish_alerts.py:41.
    c.unexplained(exception='grpc._channel._InactiveRpcError',
                  message='StatusCode.PERMISSION_DENIED',
                  user_frame='publish_alerts.py:41', step=STEP, marks=['denied', 'denied-msg'],
                  key_strings=['PERMISSION_DENIED'])
