/**
 * Pull concurrency (the kubelet's serial/parallel image pullers): serializeImagePulls (default true) runs one
 * pull at a time in arrival order; with serializeImagePulls false, at most maxParallelImagePulls (0 = no
 * limit) run at once and the rest wait their turn.
 */
export interface PullerConfig {
  serializeImagePulls?: boolean;
  maxParallelImagePulls?: number;
}

export class ImagePuller {
  private readonly limit: number;
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(config: PullerConfig = {}) {
    const serial = config.serializeImagePulls ?? true;
    const max = config.maxParallelImagePulls ?? 0;
    this.limit = serial ? 1 : max > 0 ? max : Number.POSITIVE_INFINITY;
  }

  /** Pulls running now. */
  running(): number {
    return this.active;
  }

  /** Pulls waiting for a slot. */
  queued(): number {
    return this.waiting.length;
  }

  async run<T>(pull: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await pull();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
