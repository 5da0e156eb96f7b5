from corpuslib import noise as N


def build(c):
    c.describe('''
        GPU requested and the driver installed (COS installer lines present), but the image has
        a CPU-only PyTorch wheel, so Beam's model handler logs "Model handler specified a 'GPU'
        device, but GPUs are not available. Switching to CPU." (warning string from Beam's
        pytorch/huggingface inference modules) and the job runs on CPU for 50 minutes. No device
        is ever created: gpu-not-used. The driver is fine (gpu-driver-missing must stay quiet).''')
    cf = N.cfg(machine='g2-standard-4', gpu='nvidia-l4', driver=True, num_workers=1,
               max_workers=1, experiments=['no_use_multiple_sdk_containers'],
               image='us-docker.pkg.dev/retail-recs-prod/images/vit-embed:cpu-wheel', disk=60)
    j = c.job('product-image-embeddings-v2', '2024-06-18T05:00:12Z', region='us-east4',
              zone='us-east4-a', project='retail-recs-prod', python='3.11', beam='2.57.0')
    ready = N.bring_up(j, cf)
    w = j.w[0]
    j.wlog(ready + 21, w, "Model handler specified a 'GPU' device, but GPUs are not available. "
           "Switching to CPU.", sev='WARNING', src='beam-hf-inference', mark='cpu',
           module='apache_beam/ml/inference/pytorch_inference.py', line=312)
    end = ready + 3000
    N.sdk_shutdown(j, w, end - 30)
    N.teardown(j, cf, end)
    c.output('export.json')
    c.fire('gpu-not-used', marks=['cpu'])
    c.not_fire('gpu-driver-missing', 'cuda-libraries-missing')
