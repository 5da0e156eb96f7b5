from corpuslib import noise as N

TPL = ("Startup of the worker pool in zone us-central1-c failed to bring up any of the desired 1 "
       "workers. Please refer to https://cloud.google.com/dataflow/docs/guides/common-errors#"
       "worker-pool-failure for help troubleshooting. INVALID_FIELD_VALUE: Instance '%s' "
       "creation failed: Invalid value for field 'resource.reservationAffinity': '{ "
       "\"consumeReservationType\": \"SPECIFIC_ALLOCATION\", \"key\": "
       "\"compute.googleapis.com/reservation-name\", \"values\": [\"a100-resv-prod\"] }'. "
       "Specified reservations [a100-resv-prod] do not exist.")


def build(c):
    c.describe('''
        The job consumes a specific Compute Engine reservation that does not exist in the zone:
        "INVALID_FIELD_VALUE: Instance '...' creation failed: Invalid value for field
        'resource.reservationAffinity': '{ "consumeReservationType": "SPECIFIC_ALLOCATION", ... }'.
        Specified reservations [a100-resv-prod] do not exist." (Dataflow docs template, GPU
        reservations use the TPU mechanism; values ours). Captures the reservation name.''')
    cf = N.cfg(machine='a2-highgpu-1g', gpu='nvidia-tesla-a100', driver=True, num_workers=1,
               max_workers=1)
    j = c.job('protein-fold-batch', '2025-09-02T12:00:41Z', region='us-central1',
              zone='us-central1-c', project='bio-fold-research', python='3.11', beam='2.67.0',
              workers=0)
    N.submit(j, cf, steps=['ReadSequences/Read+Fold+WriteStructures/Write/WriteImpl/'
                           'WriteBundles'])
    t = 48.0
    for k in range(2):
        j.msg(t, TPL % j.add_worker(), sev='ERROR', src='docs-reservation',
              mark='resv' if k == 0 else None, cite=TPL % '…-harness-…')
        t += 300.0
    c.output('export.json')
    c.fire('gpu-reservation-missing', marks=['resv'], captures={'reservation': 'a100-resv-prod'})
    c.not_fire('zone-resource-pool-exhausted')
