/** Go's wait.Jitter(d, maxFactor): d plus a random 0–maxFactor share of it. `random` in [0, 1) (Math.random). */
export const jitter = (periodMs: number, maxFactor: number, random: () => number = Math.random): number => periodMs + random() * maxFactor * periodMs;
