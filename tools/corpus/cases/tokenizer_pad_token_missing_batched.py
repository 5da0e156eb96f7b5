from corpuslib import noise as N, texts as T

STEP = 'RunInference/BeamML_RunInference'
STAGE = 'S01:ReadTickets/Read+BuildPrompts+RunInference/BatchElements/ParDo(_GlobalWindowsBatchingDoFn)+RunInference/BeamML_RunInference+WriteDigests/Write'
SP = T.sp('3.11')
MODEL = '/models/mistral-7b-instruct-v0.3'
HANDLER = '/app/ticketdigest/handler.py'
PAD_ERR = ("ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a token to use "
           "as `pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)` or add a new pad token via "
           "`tokenizer.add_special_tokens({'pad_token': '[PAD]'})`.")
SRC_PAD = ('huggingface/transformers src/transformers/tokenization_utils_base.py '
           'PreTrainedTokenizerBase._get_padding_truncation_strategies (the ValueError "Asking to pad but the tokenizer '
           'does not have a padding token. …", 3.0 on), reached from __call__ → _call_one → batch_encode_plus in 4.4x; '
           'public reports: vihangd/alpaca-qlora#8, huggingface/trl#466, nod-ai/AMD-SHARK-ModelDev#938 (frames); the '
           'handler and its line numbers composed', 'V-code')
SRC_OPEN_END = ('huggingface/transformers src/transformers/generation/utils.py: logger.warning "Setting `pad_token_id` '
                'to `eos_token_id`:{id} for open-end generation." when generate() gets no pad_token_id (public logs '
                'print it on stderr; 2 is Mistral\'s eos id): a near miss, the call goes on', 'V-code')
SRC_PAD_GETTER = ('huggingface/transformers src/transformers/tokenization_utils_base.py SpecialTokensMixin pad_token '
                  'getter: logger.error "Using pad_token, but it is not set yet." when code reads an unset pad token '
                  '(huggingface/transformers#3859 shows it next to the padding error): a near miss on its own', 'V-code')
SRC_SHARDS = ('huggingface/transformers modeling_utils.py: the tqdm "Loading checkpoint shards" bar on stderr, a near '
              'miss that a successful load prints', 'V-code')


def traceback():
    return T.user_tb('3.11', [
        '  File "%s/apache_beam/ml/inference/base.py", line 1475, in process' % SP,
        '    return self._run_inference(batch, inference_args)',
        '  File "%s/apache_beam/ml/inference/base.py", line 1431, in _run_inference' % SP,
        '    result_generator = self._model_handler.run_inference(',
        '  File "%s", line 71, in run_inference' % HANDLER,
        '    enc = self._tokenizer(prompts, return_tensors="pt", padding=len(prompts) > 1).to(self._device)',
        '  File "%s/transformers/tokenization_utils_base.py", line 3021, in __call__' % SP,
        '    encodings = self._call_one(text=text, text_pair=text_pair, **all_kwargs)',
        '  File "%s/transformers/tokenization_utils_base.py", line 3109, in _call_one' % SP,
        '    return self.batch_encode_plus(',
        '  File "%s/transformers/tokenization_utils_base.py", line 3302, in batch_encode_plus' % SP,
        '    padding_strategy, truncation_strategy, max_length, kwargs = self._get_padding_truncation_strategies(',
        '  File "%s/transformers/tokenization_utils_base.py", line 2923, in _get_padding_truncation_strategies' % SP,
        '    raise ValueError(',
    ], PAD_ERR + " [while running '%s']" % STEP)


def build(c):
    c.describe('''
        A tokenizer without a pad token meets the first batch of two prompts (issue 40, models): a batch
        job summarizes support tickets with a custom RunInference ModelHandler around
        Mistral-7B-Instruct-v0.3 (transformers 4.46) on an L4 worker. load_model loads the tokenizer and
        the model but never sets a pad token (the handler even logs pad_token=None, and transformers'
        getter prints "Using pad_token, but it is not set yet." on stderr); run_inference tokenizes with
        padding only when a batch holds more than one prompt. BatchElements starts with single
        elements, so the first five batches succeed, each with generate()'s "Setting `pad_token_id` to
        `eos_token_id`:2 for open-end generation." on stderr (ERROR in the docker log). The first batch of
        two raises "ValueError: Asking to pad but the tokenizer does not have a padding token. …" in
        _get_padding_truncation_strategies; the bundle fails four times, the job message repeats it, and
        the job fails. tokenizer-pad-token-missing fires and folds the work-item failure. Red herrings:
        the open-end generation warnings at ERROR, the pad_token getter's error line, the checkpoint
        progress bar and the successful first batches.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE], disk=100,
               image='us-docker.pkg.dev/helpdesk-ml/dataflow/ticket-digest:tf4.46-cu124')
    j = c.job('ticket-digest-nightly', '2026-02-18T02:30:07Z', region='us-central1', zone='us-central1-c',
              python='3.11', beam='2.63.0', workers=1)
    w = j.w[0]
    ready = N.bring_up(j, cf)
    t = ready + 6
    j.wlog(t, w, 'Loading tokenizer and model from %s' % MODEL, src='user-code', module=HANDLER)
    j.docker(t + 1.2, w, 'Using pad_token, but it is not set yet.', sev='ERROR', src=SRC_PAD_GETTER)
    j.wlog(t + 1.3, w, 'tokenizer LlamaTokenizerFast: pad_token=None eos_token=</s> padding_side=right',
           src='user-code', module=HANDLER)
    j.docker(t + 43.0, w, 'Loading checkpoint shards: 100%|██████████| 3/3 [00:41<00:00, 13.71s/it]', sev='ERROR',
             src=SRC_SHARDS)
    j.wlog(t + 44.5, w, 'model on cuda:0 (torch.bfloat16), load took 43.2s', src='user-code', module=HANDLER)
    t += 52
    for k in range(5):
        j.docker(t, w, 'Setting `pad_token_id` to `eos_token_id`:2 for open-end generation.', sev='ERROR',
                 src=SRC_OPEN_END)
        j.wlog(t + 6.1 + k * 0.3, w, 'summarized batch of 1 ticket(s) in %.1fs' % (6.1 + k * 0.3), src='user-code',
               module=HANDLER)
        t += 7.5 + k * 0.3
    t += 1.0
    t = N.failed_attempts(j, t, w, traceback(), STEP, src=SRC_PAD, bundle=3, thread=14,
                          cite='ValueError: Asking to pad but the tokenizer does not have a padding token. …',
                          gap=31.0, mark='pad',
                          msg_cite='Error message from worker: … Asking to pad but the tokenizer does not have a '
                                   'padding token. …')
    N.fail_work_item_4(j, cf, t + 3.0, STAGE, [w] * 4)
    c.output('export.json')
    c.fire('tokenizer-pad-token-missing', marks=['pad', 'pad-msg'])
    c.fire('work-item-failed', marks=['wif'], caused_by='tokenizer-pad-token-missing')
    c.fire('workflow-failed', marks=['wif'], caused_by='tokenizer-pad-token-missing')
    c.no_unexplained()
    c.not_fire('sampling-probabilities-invalid', 'chat-template-missing', 'tokenizer-dependency-missing',
               'gpu-out-of-memory', 'transformers-architecture-unknown', 'import-name-version-skew')
