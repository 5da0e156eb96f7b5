def build(c):
    c.describe('''
        Empty export: `gcloud logging read` matched nothing (wrong job id, or the default
        one-day freshness window) and wrote `[]`. A valid export with zero entries: no finding,
        exit code 0.''')
    c.output('export.json')
