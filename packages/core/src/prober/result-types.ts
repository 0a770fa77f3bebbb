/** A probe's kind and a run's result (the kubelet's probe types), shared by the prober and the probe bus event. */
export type ProbeType = 'liveness' | 'readiness' | 'startup';
export type ProbeResult = 'success' | 'failure' | 'unknown';
