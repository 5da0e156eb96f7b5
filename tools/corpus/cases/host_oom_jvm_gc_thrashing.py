from corpuslib import noise as N


def build(c):
    c.describe('''
        Host memory in a Java pipeline (both eras of the signal): the worker's kernel log has
        the older OOM-killer wording "Out of memory: Kill process 29957 (java) score 366 or
        sacrifice child" / "Killed process 29957 (java) total-vm:2532680kB, ..." (javacodegeeks /
        microsoft/pai#1682, outside Dataflow) and the Java worker logs "Shutting down JVM after 8
        consecutive periods of measured GC thrashing. Memory is used/total/max =
        24453/42043/42043 MB, ..." (Dataflow docs, verbatim). CPU job; the export ends there.''')
    cf = N.cfg(machine='n1-highmem-8', gpu=None, num_workers=1, max_workers=4,
               steps=['ReadEvents/Read+SessionizeEvents/GroupByKey/Write'])
    j = c.job('clickstream-sessionize', '2020-08-13T18:10:44Z', region='us-central1',
              zone='us-central1-b', project='web-analytics-prod', python='3.8', beam='2.23.0')
    N.submit(j, cf, steps=['ReadEvents/Read+SessionizeEvents/GroupByKey/Write'])
    N.started(j, cf, 95.0)
    w = j.w[0]
    N.vm_boot(j, w, 100.0)
    t = 2900.0
    j.wlog(t, w, 'Shutting down JVM after 8 consecutive periods of measured GC thrashing. Memory '
           'is used/total/max = 24453/42043/42043 MB, GC last/max = 58.97/99.89 %, #pushbacks=82, '
           'gc thrashing=true. Heap dump not written.', sev='ERROR', src='docs-gc',
           logger='org.apache.beam.runners.dataflow.worker.util.MemoryMonitor', thread='35',
           sdk=None, mark='gc')
    j.system(t + 14.2, w, 'Out of memory: Kill process 29957 (java) score 366 or sacrifice child',
             src='oom-old-kernel', mark='oomk')
    j.system(t + 14.20005, w, 'Killed process 29957 (java) total-vm:2532680kB, '
             'anon-rss:1416508kB, file-rss:0kB', src='oom-old-kernel')
    c.output('export.json')
    c.fire('host-out-of-memory', marks=['gc'])
