from corpuslib import noise as N, texts as T

STEP = 'RerankPairs'
STEPS = ['S02:GroupCandidates/Read+RerankPairs+WriteRanked/Write']
SP = T.sp('3.12')
EXC = 'RuntimeError: Already borrowed'
SRC = ('huggingface/tokenizers#537 and huggingface/transformers#47085 (one fast tokenizer used by several threads: '
       'while one thread encodes with the GIL released, another that changes truncation/padding is refused by '
       'PyO3\'s borrow check with "RuntimeError: Already borrowed"); transformers 5 tokenization_utils_tokenizers.py '
       'frames (_encode_plus, set_truncation_and_padding → self._tokenizer.enable_truncation(**target)) as public '
       'tracebacks name the file; line numbers and the DoFn frames composed', 'V-other')
SRC_FORK = ('huggingface/tokenizers bindings/python/src/utils/parallelism.rs: the fork advisory printed on stderr '
            '(a healthy warning about processes, not threads)', 'V-code')


def build(c):
    c.describe('''
        A fast tokenizer shared by threads (issue 40, tokenizers): a nightly batch reranking job keeps
        one cross-encoder tokenizer on its DoFn class (created on first use and then reused by every
        instance) and calls it with max_length taken from each query's candidate set. The worker runs
        one SDK process on an n1-standard-8 with one T4 (no_use_multiple_sdk_containers), so several
        bundles run at once on harness threads and enter the same Rust tokenizer: the call that changes
        truncation is refused with "RuntimeError: Already borrowed" from transformers 5's
        tokenization_utils_tokenizers.py set_truncation_and_padding. The failures are intermittent
        (other bundles succeed), but one work item fails four times and the job fails.
        hf-tokenizer-shared-across-threads leads. Near misses in the same export: tokenizers' fork
        advisory on stderr, and the pipeline's own INFO line naming the tokenizer.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1, max_workers=1,
               experiments=['no_use_multiple_sdk_containers'], steps=STEPS)
    j = c.job('nightly-rerank-bge', '2026-02-17T02:05:31Z', region='europe-west1', zone='europe-west1-b',
              python='3.12', beam='2.68.0', workers=1)
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 11
    j.wlog(t - 4, w, 'Reranker tokenizer BAAI/bge-reranker-v2-m3 cached on RerankPairs (class attribute); '
           'max_length per candidate set', sev='INFO', module='/app/rerank/dofn.py', thread='Thread-14',
           step=STEP, src=('pipeline INFO line (composition)', 'I'), mark='note')
    j.docker(t - 2, w, 'huggingface/tokenizers: The current process just got forked, after parallelism has already '
             'been used. Disabling parallelism to avoid deadlocks...', sev='ERROR', src=SRC_FORK, mark='fork')
    tb = T.augmented_tb('3.12', [
        '  File "/app/rerank/dofn.py", line 58, in process',
        '    enc = RerankPairs.TOKENIZER(pairs, truncation=True, max_length=limit, padding="longest", '
        'return_tensors="pt")',
        '  File "%s/transformers/tokenization_utils_base.py", line 2513, in __call__' % SP,
        '    encodings = self._encode_plus(',
        '  File "%s/transformers/tokenization_utils_tokenizers.py", line 943, in _encode_plus' % SP,
        '    self.set_truncation_and_padding(',
        '  File "%s/transformers/tokenization_utils_tokenizers.py", line 893, in set_truncation_and_padding' % SP,
        '    self._tokenizer.enable_truncation(**target)',
    ], EXC, STEP)
    # bundles on other threads keep succeeding between the failed attempts
    for k in range(4):
        j.wlog(t + 3 + k * 29, w, 'Reranked %d candidate sets' % (240 + 17 * k), sev='INFO',
               module='/app/rerank/dofn.py', thread='Thread-%d' % (21 + k), step=STEP,
               src=('pipeline INFO line (composition)', 'I'))
    N.failing_attempts(j, cf, w, t, tb, STEP, STEPS[0], SRC, 'borrowed', 29.0)
    c.output('export-sink.ndjson')
    c.fire('hf-tokenizer-shared-across-threads', marks=['borrowed'])
    c.fire('work-item-failed', marks=['wif'], caused_by='hf-tokenizer-shared-across-threads')
    c.fire('workflow-failed', marks=['wif'], caused_by='hf-tokenizer-shared-across-threads')
    c.not_fire('tokenizer-pad-token-missing', 'cuda-fork-reinit', 'gpu-out-of-memory')
    c.no_unexplained()
