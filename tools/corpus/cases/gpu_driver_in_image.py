from corpuslib import noise as N


def build(c):
    c.describe('''
        A driver baked into the custom image conflicts with the one Dataflow installs: the COS
        installer puts driver 535.129.03 on the L4 worker (system log), but the image ships NVIDIA
        user-space libraries 565.57, so the pipeline's nvidia-smi check prints "Failed to
        initialize NVML: Driver/library version mismatch" and "NVML library version: 565.57"
        (real lines, k4yt3x/video2x#1226, outside Dataflow). The fix is to remove the driver from
        the image. The export ends while the job is still running.''')
    cf = N.cfg(machine='g2-standard-8', gpu='nvidia-l4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/media-ai-lab/beam/upscaler:cuda12.7-driver565', disk=120)
    j = c.job('video-upscale-batch', '2024-11-20T13:02:44Z', region='us-central1',
              zone='us-central1-c', project='media-ai-lab', python='3.11', beam='2.60.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    t = ready + 9
    j.docker(t, w, 'Failed to initialize NVML: Driver/library version mismatch', sev='INFO',
             src='video2x-1226', mark='nvml')
    j.docker(t + 0.001, w, 'NVML library version: 565.57', sev='INFO', src='video2x-1226')
    c.output('export.json')
    c.fire('gpu-driver-in-image', marks=['nvml'])
    c.not_fire('gpu-driver-missing')
