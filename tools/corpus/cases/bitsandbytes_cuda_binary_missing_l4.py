from corpuslib import noise as N, texts as T

STEP = 'SummarizeTickets'
STEPS = ['S01:ReadTickets/Read+SummarizeTickets+WriteSummaries/Write']
SP = T.sp('3.11')
BNB = '%s/bitsandbytes' % SP
UNDEF = ('AttributeError: %s/libbitsandbytes_cpu.so: undefined symbol: cquantize_blockwise_bf16_nf4' % BNB)
SRC_WARN = ('bitsandbytes-foundation/bitsandbytes 0.44 bitsandbytes/cextension.py get_native_library: '
            'logger.warning("Could not find the bitsandbytes CUDA binary at %r") and "The installed version of '
            'bitsandbytes was compiled without GPU support. …", as public notes of bitsandbytes 0.44.1 under torch '
            '2.7+cu128 quote them (libbitsandbytes_cuda128.so); on stderr, stored at ERROR', 'V-other')
SRC_UNDEF = ('the CPU-only libbitsandbytes_cpu.so loaded in place of the CUDA one: ctypes "undefined symbol: '
             'cquantize_blockwise_…_nf4" from bitsandbytes functional.py quantize_4bit, as '
             'eosphoros-ai/DB-GPT-Hub#137 shows it; the transformers/bitsandbytes frames composed from 4.5x and '
             '0.44 sources', 'V-other')
SRC_PEFT = ('transformers "`torch_dtype` is deprecated! Use `dtype` instead!" (4.56 on), a healthy warning: a near '
            'miss', 'V-code')


def build(c):
    c.describe('''
        bitsandbytes without a GPU library for the image's CUDA (4-bit quantization): a ticket summarizer
        loads a 7B model with BitsAndBytesConfig(load_in_4bit=True) in a DoFn's setup() on g2-standard-8
        workers with an L4. The image was rebuilt on torch 2.7 (CUDA 12.8) but keeps a bitsandbytes 0.44.1
        pin, which ships no libbitsandbytes_cuda128.so: at import it warns "Could not find the bitsandbytes
        CUDA binary at …libbitsandbytes_cuda128.so" and "The installed version of bitsandbytes was compiled
        without GPU support" (stderr, stored at ERROR), loads the CPU-only library, and the first 4-bit
        quantization fails with "libbitsandbytes_cpu.so: undefined symbol: cquantize_blockwise_bf16_nf4".
        Four attempts, the job fails. bitsandbytes-gpu-unsupported leads from the error, not from the
        warnings. Red herrings: the warnings themselves, and transformers' healthy dtype deprecation
        warning; the GPU works (no gpu-not-used, no torch-cpu-only-build, no cuda-libraries-missing).''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS,
               image='europe-docker.pkg.dev/acme-support/beam/summarizer:torch27-cu128')
    j = c.job('ticket-summarizer-l4', '2026-08-03T15:40:11Z', region='europe-west4',
              zone='europe-west4-b', python='3.11', beam='2.66.0', workers=1)
    ready = N.bring_up(j, cf)
    t = ready + 15
    for attempt in range(4):
        first = attempt == 0
        j.docker(t, j.w[0], "Could not find the bitsandbytes CUDA binary at PosixPath('%s/libbitsandbytes_cuda128.so')"
                 % BNB, sev='ERROR', src=SRC_WARN, mark='warn' if first else None)
        j.docker(t + 0.004, j.w[0], 'The installed version of bitsandbytes was compiled without GPU support. 8-bit '
                 'optimizers, 8-bit multiplication, and GPU quantization are unavailable.', sev='ERROR', src=SRC_WARN)
        j.wlog(t + 2, j.w[0], '`torch_dtype` is deprecated! Use `dtype` instead!', sev='WARNING', src=SRC_PEFT,
               module='%s/transformers/configuration_utils.py' % SP, line=1101)
        tb = T.user_tb('3.11', [
            '  File "%s/apache_beam/runners/common.py", line 1562, in _invoke_setup' % SP,
            '    self.do_fn_invoker.invoke_setup()',
            '  File "/app/summarize.py", line 41, in setup',
            '    self._model = AutoModelForCausalLM.from_pretrained(MODEL_DIR, quantization_config=bnb, device_map="cuda:0")',
            '  File "%s/transformers/modeling_utils.py", line 5048, in from_pretrained' % SP,
            '    ) = cls._load_pretrained_model(',
            '  File "%s/transformers/quantizers/quantizer_bnb_4bit.py", line 212, in create_quantized_param' % SP,
            '    new_value = bnb.nn.Params4bit(new_value, requires_grad=False, **kwargs).to(target_device)',
            '  File "%s/nn/modules.py", line 335, in to' % BNB,
            '    return self._quantize(device)',
            '  File "%s/functional.py", line 1238, in quantize_4bit' % BNB,
            '    lib.cquantize_blockwise_bf16_nf4(*args)',
            '  File "/usr/local/lib/python3.11/ctypes/__init__.py", line 392, in __getattr__',
            '    func = self.__getitem__(name)',
            '  File "/usr/local/lib/python3.11/ctypes/__init__.py", line 397, in __getitem__',
            '    func = self._FuncPtr((name_or_ordinal, self))',
        ], UNDEF + " [while running '%s']" % STEP)
        j.wlog(t + 20, j.w[0], T.instruction_error('process_bundle-%d' % (1 + attempt), tb), sev='ERROR', src=SRC_UNDEF,
               cite='libbitsandbytes_cpu.so: undefined symbol: cquantize_blockwise_bf16_nf4',
               module='apache_beam/runners/worker/sdk_worker.py', line=303, thread='Thread-%d' % (11 + attempt),
               step=STEP, mark='undef' if first else None)
        j.msg(t + 22, T.worker_error_msg(tb, STEP), sev='ERROR', src=SRC_UNDEF,
              cite='Error message from worker: … undefined symbol: cquantize_blockwise_bf16_nf4',
              mark='undef-msg' if first else None)
        t += 60.0
    N.fail_work_item_4(j, cf, t + 3.0, STEPS[0], [j.w[0]] * 4)
    c.output('export.json')
    c.fire('bitsandbytes-gpu-unsupported', marks=['undef', 'undef-msg'],
           captures={'symbol': 'cquantize_blockwise_bf16_nf4'})
    c.fire('work-item-failed', marks=['wif'], caused_by='bitsandbytes-gpu-unsupported')
    c.fire('workflow-failed', marks=['wif'], caused_by='bitsandbytes-gpu-unsupported')
    c.not_fire('gpu-not-used', 'torch-cpu-only-build', 'cuda-libraries-missing', 'cuda-extension-abi-mismatch',
               'import-name-version-skew')
