from corpuslib import noise as N, texts as T

# Log text is hostile input. Every string below tries to break out of one of gpudiag's output
# formats: HTML/SVG (<script>, an attribute, a comment end), XML (]]>, an entity), Markdown (a code
# fence, a link, a table pipe, a mention), GitHub workflow commands (::error::, a newline and the
# %0A encoding of one), and the terminal (ANSI colour and screen-clearing sequences, BEL, CR).
HOSTILE = ('<script>alert(1)</script> ]]> &amp; --> <!-- "quoted" \'single\' | pipe | '
           '`backtick` ``` fence [link](javascript:alert(2)) @everyone '
           '::error::injected %0A::error file=x.py,line=1::percent-encoded newline '
           '\x1b[31mRED\x1b[0m \x1b[2J\x07 bell\rcarriage')
OOM = ('RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 14.58 GiB total '
       'capacity; 12.91 GiB already allocated; 611.56 MiB free; 13.02 GiB reserved in total by '
       'PyTorch) ' + HOSTILE)
NEIGHBOUR = ('</pre></td></svg><img src=x onerror=alert(3)> <style>body{display:none}</style>\n'
             '::warning::a workflow command at the start of a line\n'
             '</details><details open><summary>forged</summary>\n'
             '```\n# forged heading\n```')
SOURCE = ('hostile text composed for this case to test output escaping; the OOM prefix follows '
          'the PyTorch wording of yyliu01/RPL#14', 'I')


def build(c):
    c.describe('''
        Hostile log text: a PyTorch "CUDA out of memory" line (which fires gpu-out-of-memory)
        also carries a script element, a CDATA end, an HTML comment end, a workflow command and
        a percent-encoded newline before another, pipes, backticks, a Markdown link to a
        javascript URL, a mention, ANSI escapes, BEL and CR. The entries around it (the
        evidence's neighbours) try to close pre, svg and details elements and to start a workflow
        command on a new line; a job message (a timeline phase) closes the svg; and the
        worker_accelerator option echoed in the pipeline options closes a title and opens a
        script, so the title of accelerator-option-malformed is hostile too. Every output format
        must render all of it as inert text (tests/format_test.cc). Otherwise the job runs on a
        T4 and is torn down.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               accelerator=('type:nvidia-tesla-t4;count:1;install-nvidia-driver;'
                            '</title><script>alert(5)</script>|`x`'),
               image='gcr.io/acme-ml-prod/torch-infer:2.1-cu121', disk=50)
    j = c.job('hostile-log-text-demo', '2024-05-02T09:14:07Z', region='europe-west4',
              zone='europe-west4-a', python='3.11', beam='2.56.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 40
    j.msg(t - 5, 'Executing operation Read</text></svg><script>alert(4)</script>+Detect',
          src=SOURCE, cite='Executing operation Read</text></svg><script>alert(4)</script>+Detect')
    j.wlog(t, w, NEIGHBOUR, src=SOURCE, module='/opt/pipeline/handlers.py:77',
           cite='</pre></td></svg><img src=x onerror=alert(3)> … (forged closing tags)')
    j.wlog(t + 2, w, T.instruction_error('process_bundle-7', T.torch_oom_tb('3.11', OOM)),
           sev='ERROR', src=SOURCE, module='apache_beam/runners/worker/sdk_worker.py', line=303,
           cite='RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB … <script>alert(1)'
                '</script> ]]> ::error::injected … (hostile)', mark='oom')
    j.wlog(t + 3, w, 'ESC sequences: \x1b]0;title\x07 \x1b[1;1H\x1b[J | done ]]>', src=SOURCE,
           module='/opt/pipeline/handlers.py:91', cite='ESC sequences: (OSC title, cursor home, '
                                                        'clear screen) | done ]]>')
    end = t + 600
    N.sdk_shutdown(j, w, end - 20)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('gpu-out-of-memory', marks=['oom'])
    c.fire('accelerator-option-malformed', marks=[])   # its title carries the hostile value
    c.not_fire('multiple-processes-per-gpu', 'host-out-of-memory')
