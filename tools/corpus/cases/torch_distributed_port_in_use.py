from corpuslib import noise as N, texts as T

STEP = 'Summarize'
STEPS = ['S01:ReadContracts/Read+Summarize+WriteSummaries/Write']
PORT = ("torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
        "address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use")
SRC_PORT = ('pytorch/pytorch torch/csrc/distributed/c10d/socket.cpp SocketListenOp and the libuv TCPStore '
            '(2.2 on), as a vLLM multiproc executor\'s traceback quotes it (port, useIpv6, code -98 EADDRINUSE)',
            'V-code')
SP = T.sp('3.11')


def build(c):
    c.describe('''
        torch.distributed's fixed rendezvous port (issue 40, multi-GPU): each SDK process of a
        2-GPU a2-highgpu-2g worker (several per worker: no_use_multiple_sdk_containers is not set)
        calls init_process_group in the DoFn's setup at /app/tp_model.py:64 with MASTER_PORT 29500;
        the first binds it and every other fails with "torch.distributed.DistNetworkError: The server
        socket has failed to listen on any local network address. port: 29500 … EADDRINUSE"; the
        bundles fail four times and the job fails. torch-distributed-port-in-use fires and names the
        port.''')
    cf = N.cfg(machine='a2-highgpu-2g', gpu='nvidia-tesla-a100', gpu_count=2, driver=True, num_workers=1,
               max_workers=1, steps=STEPS)
    j = c.job('contract-summaries-tp2', '2026-09-21T05:00:02Z', region='us-central1',
              zone='us-central1-f', python='3.11', beam='2.67.0', workers=1)
    ready = N.bring_up(j, cf)
    tb = T.user_tb('3.11', [
        '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
        '    self.do_fn_invoker.invoke_setup()',
        '  File "/app/tp_model.py", line 64, in setup',
        '    dist.init_process_group("nccl", rank=0, world_size=2)',
        '  File "%s/torch/distributed/rendezvous.py", line 198, in _create_c10d_store' % SP,
        '    return TCPStore(',
    ], PORT + " [while running '%s']" % STEP)
    t = ready + 30
    t = N.failed_attempts(j, t, j.w[0], tb, STEP, src=SRC_PORT,
                          cite='failed to listen on any local network address', gap=35.0, mark='port')
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('torch-distributed-port-in-use', marks=['port'], captures={'port': '29500'})
    c.fire('work-item-failed', marks=['wif'], caused_by='torch-distributed-port-in-use')
    c.fire('workflow-failed', marks=['wif'], caused_by='torch-distributed-port-in-use')
    c.not_fire('nccl-error', 'gpu-out-of-memory', 'nccl-collective-timeout')
