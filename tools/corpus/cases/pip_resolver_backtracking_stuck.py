from corpuslib import noise as N

STAGE = 'S01:ReadExamples/Read+Preprocess/AnalyzeAndTransform+Embed+WriteTFRecords/Write'
REQ = '/var/opt/google/staged/requirements.txt'
SRC_BOOT = ('apache/beam sdks/python/container/boot.go and piputil.go (2.5x–2.6x): "Installing setup packages ...", '
            'the cache-only round pip install -r … --no-index --no-deps --find-links, then "Some packages could not be '
            'installed solely from the requirements cache. Installing packages from PyPI." and the index round, the pip '
            'output passed through the buffered boot logger (flushed every 15 s) to the python container\'s startup log',
            'V-code')
SRC_PIP = ('pip\'s install output ("Looking in links: …", "Collecting … (from -r … (line N))", "  Downloading '
           '….whl.metadata (… kB)", "Collecting … (from X->-r …)"), standard pip 24 wording; the package versions '
           'walked are composed', 'V-other')
SRC_NOIDX = ('pip under --no-index with an empty find-links folder: "ERROR: Could not find a version that satisfies the '
             'requirement … (from versions: none)", "ERROR: No matching distribution found for …" (standard pip '
             'wording); that Beam\'s first, cache-only round fails so and goes on is piputil.go\'s design', 'V-other')
SRC_BT = ('pypa/pip src/pip/_internal/resolution/resolvelib/reporter.py (23.2 on): "INFO: pip is looking at multiple '
          'versions of {package_name} …", "INFO: pip is still looking at multiple versions of …", "INFO: This is taking '
          'longer than usual. … See https://pip.pypa.io/warnings/backtracking for guidance. If you want to abort this '
          'run, press Ctrl + C."', 'V-code')
SRC_RETRY = ('pip\'s vendored urllib3 retry warning ("WARNING: Retrying (Retry(total=4, connect=None, read=None, '
             'redirect=None, status=None)) after connection broken by \'ReadTimeoutError(…Read timed out. (read '
             'timeout=15)\')\': /simple/…/"), standard pip output; the request then succeeds', 'V-other')


def _burst(j, w, t, lines, src, mark=None, cite=None):
    """One flush of Beam's buffered boot logger: the lines pip wrote since the last flush, a few
    hundred microseconds apart."""
    first = None
    for k, line in enumerate(lines):
        e = j.startup(t + k * 0.0004, w, line, src=src, mark=mark if k == 0 else None,
                      cite=cite if (k == 0 and cite) else line)
        first = first or e
    return first


def _walk(wheel, versions, size):
    return ['  Downloading %s-%s-py3-none-any.whl.metadata (%s kB)' % (wheel, v, size) for v in versions]


def build(c):
    c.describe('''
        pip's resolver backtracks at worker start-up until Dataflow declares the job stuck (the
        start-up family): a batch GPU job (two n1-standard-8 workers with one T4 each, the stock
        Python 3.10 SDK image) stages a requirements.txt that pins tensorflow==2.15.1 but leaves
        tensorflow-transform and tfx-bsl unpinned. Each tensorflow-transform release needs one
        tfx-bsl and one apache-beam/pyarrow range, so pip walks their releases one by one, ever older:
        "INFO: pip is looking at multiple versions of tensorflow-transform …", "pip is still looking
        …", then "INFO: This is taking longer than usual. You might need to provide the dependency
        resolver with stricter constraints to reduce runtime. See https://pip.pypa.io/warnings/backtracking
        for guidance." — and it never finishes: nothing is installed, the SDK harness never starts,
        and after an hour Dataflow fails the job ("no worker activity has been seen in the last 1h").
        pip-resolver-backtracking fires (the absence leg: 20 minutes after "taking longer than usual"
        nothing showed that pip finished) and the stall folds under it. Red herrings: the cache-only
        first round's "ERROR: Could not find a version that satisfies the requirement … (from
        versions: none)", which Beam's boot expects and follows with "Installing packages from PyPI";
        a pip retry warning after a read timeout, which it recovers from; the benign kubelet/system
        lines. Neither a crash loop nor a disk, driver or network rule fires.''')
    cf = N.cfg(machine='n1-standard-8', gpu='nvidia-tesla-t4', driver=True, num_workers=2, max_workers=2,
               experiments=['no_use_multiple_sdk_containers'], steps=[STAGE],
               extra_options={'requirements_file': 'requirements.txt'})
    j = c.job('tft-embed-preprocess-0311', '2025-03-11T14:20:07Z', region='us-east1', zone='us-east1-c',
              python='3.10', beam='2.61.0', workers=2)
    N.submit(j, cf)
    N.started(j, cf, 59.0)
    starts = []
    for i, w in enumerate(j.w):
        t = N.vm_boot(j, w, 98.0 + i * 7.3)
        t = N.driver_install(j, w, cf, t + 2.0)
        t = N.image_check(j, w, cf, t + 3.0)
        j.docker(t + 9.0, w, 'Initializing python harness: /opt/apache/beam/boot --id=sdk-0-0 '
                 '--provision_endpoint=localhost:12371', src='beam-boot')
        starts.append(t + 11.0)
    N.runnerv2_notice(j, 140.0)
    pkgs = [
        ('tensorflow-transform', 'tensorflow_transform', ['1.16.0', '1.15.0', '1.14.0', '1.13.0', '1.12.0',
                                                          '1.11.0', '1.10.1', '1.10.0', '1.9.0', '1.8.0'], '4.1'),
        ('tfx-bsl', 'tfx_bsl', ['1.16.1', '1.15.1', '1.14.0', '1.13.0', '1.12.0', '1.11.1', '1.11.0', '1.10.1',
                                '1.10.0', '1.9.0'], '3.6'),
    ]
    for i, w in enumerate(j.w):
        first = i == 0
        t = starts[i]
        j.startup(t, w, 'Installing setup packages ...', src=SRC_BOOT)
        _burst(j, w, t + 2.1, [
            'Looking in links: /var/opt/google/staged',
            'ERROR: Could not find a version that satisfies the requirement tensorflow==2.15.1 (from versions: none)',
            'ERROR: No matching distribution found for tensorflow==2.15.1',
        ], SRC_NOIDX)
        j.startup(t + 2.3, w, 'Some packages could not be installed solely from the requirements cache. '
                  'Installing packages from PyPI.', src=SRC_BOOT)
        _burst(j, w, t + 17.6, [
            'Looking in links: /var/opt/google/staged',
            'Collecting tensorflow==2.15.1 (from -r %s (line 1))' % REQ,
            '  Downloading tensorflow-2.15.1-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata '
            '(4.2 kB)',
            'Collecting tensorflow-transform (from -r %s (line 2))' % REQ,
            '  Downloading tensorflow_transform-1.16.0-py3-none-any.whl.metadata (4.1 kB)',
            'Collecting tfx-bsl (from -r %s (line 3))' % REQ,
            '  Downloading tfx_bsl-1.16.1-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata '
            '(3.6 kB)',
            'Collecting sentencepiece==0.2.0 (from -r %s (line 4))' % REQ,
        ], SRC_PIP)
        _burst(j, w, t + 41.0, [
            'INFO: pip is looking at multiple versions of tensorflow-transform to determine which version is '
            'compatible with other requirements. This could take a while.',
        ] + _walk(pkgs[0][1], pkgs[0][2][1:5], pkgs[0][3]), SRC_BT,
            cite='INFO: pip is looking at multiple versions of tensorflow-transform …')
        if first:
            j.startup(t + 64.0, w, "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
                      "status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', "
                      "port=443): Read timed out. (read timeout=15)\")': /simple/tfx-bsl/", src=SRC_RETRY)
        _burst(j, w, t + 82.0, _walk(pkgs[0][1], pkgs[0][2][5:8], pkgs[0][3]) + [
            'INFO: pip is still looking at multiple versions of tensorflow-transform to determine which version is '
            'compatible with other requirements. This could take a while.',
        ] + _walk(pkgs[0][1], pkgs[0][2][8:], pkgs[0][3]), SRC_BT,
            cite='INFO: pip is still looking at multiple versions of tensorflow-transform …')
        _burst(j, w, t + 131.0, [
            'INFO: This is taking longer than usual. You might need to provide the dependency resolver with '
            'stricter constraints to reduce runtime. See https://pip.pypa.io/warnings/backtracking for guidance. If '
            'you want to abort this run, press Ctrl + C.',
            'Collecting tfx-bsl (from tensorflow-transform)',
        ], SRC_BT, mark='bt' if first else None,
            cite='INFO: This is taking longer than usual. You might need to provide the dependency resolver with '
                 'stricter constraints to reduce runtime. …')
        # the walk goes on for the rest of the hour, one flush every minute or two
        tt = t + 200.0
        k = 0
        while tt < 3560.0:
            vs = pkgs[1][2][k % len(pkgs[1][2]):][:3] or pkgs[1][2][:3]
            lines = ['  Downloading tfx_bsl-%s-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl.metadata '
                     '(3.6 kB)' % v for v in vs]
            if k % 7 == 3:
                lines.append('INFO: pip is looking at multiple versions of apache-beam[gcp] to determine which '
                             'version is compatible with other requirements. This could take a while.')
            if k % 11 == 6:
                lines.append('  Downloading pyarrow-%d.0.0.tar.gz (1.0 MB)' % (10 - (k // 11) % 4))
            _burst(j, w, tt, lines, SRC_PIP)
            tt += 95.0 + 23.0 * ((k + i) % 3)
            k += 1
    N.fail(j, cf, 59.0 + 34.0 + 3600.6, N.NO_ACTIVITY_1H, src='tfx-6386', mark='stall', n=2)
    c.output('export.json')
    c.fire('pip-resolver-backtracking', marks=['bt'])
    c.fire('workers-stuck-no-activity', marks=['stall'], caused_by='pip-resolver-backtracking')
    c.fire('workflow-failed', marks=['stall'], caused_by='workers-stuck-no-activity')
    c.may_fire('pip-install-failed')
    c.not_fire('container-crash-loop', 'worker-disk-full', 'gpu-driver-missing', 'hf-hub-unreachable',
               'container-image-pull-failed', 'beam-pip-missing', 'venv-unavailable', 'flex-start-capacity-timeout')
