import importlib.util
import os


def build(c):
    """docker-split-traceback written as Cloud Storage sink shards: the split docker lines come
    shuffled, so only their timestamps give the traceback's order."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'docker_split_traceback.py')
    spec = importlib.util.spec_from_file_location('docker_split_traceback_base', path)
    base = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(base)
    base.build(c, sink=True)
    c.describe(c.description + ''' This variant is the same job written by a Cloud Storage sink
        instead: one NDJSON shard per log (docker, job-message), each in no particular order, so
        the split lines are shuffled and only their timestamps order them.''')
