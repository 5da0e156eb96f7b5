def build(c):
    c.describe('''
        Empty export: `gcloud logging read` matched nothing (wrong job id, or the default
        one-day freshness window) and wrote `[]`. A valid export with zero entries: no finding,
        the verdict `empty` (never OK); exit code 0 without a threshold, 2 under a gate unless
        --allow-empty.''')
    c.output('export.json')
