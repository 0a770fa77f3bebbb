/**
 * The kubelet's featureGates / --feature-gates (a map of feature names to true or false). Nodelet consults
 * KubeletPodResourcesGet (the pod resources API's Get; alpha in v1.28, default false); any other name is
 * accepted and has no effect, so a real kubelet's configuration loads unchanged. A flag value that is not a
 * Go boolean stops the agent with the kubelet's message.
 */
import type { FlagSpec } from './flag-spec.ts';

export interface FeatureGatesAgentConfig {
  /** As read: booleans from the file, strings from the flag (featureGatesOf turns them into booleans). */
  featureGates?: Record<string, boolean | string>;
}

export const FEATURE_GATES_FLAG_SPECS: FlagSpec<keyof FeatureGatesAgentConfig>[] = [
  {
    name: 'feature-gates',
    kind: 'map=',
    key: 'featureGates',
    help: 'A set of key=value pairs that describe feature gates. Nodelet consults: KubeletPodResourcesGet=true|false (ALPHA - default=false).',
  },
];

export const FEATURE_GATES_FILE_FIELDS = [{ path: 'featureGates', key: 'featureGates', kind: 'gates' }] as const;

/** strconv.ParseBool's words. */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function featureGatesOf(c: FeatureGatesAgentConfig): { ok: true; gates: Record<string, boolean> } | { ok: false; reason: string } {
  const gates: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(c.featureGates ?? {})) {
    if (typeof v === 'boolean') gates[k] = v;
    else if (TRUE.has(v)) gates[k] = true;
    else if (FALSE.has(v)) gates[k] = false;
    else return { ok: false, reason: `invalid value of ${k}=${v}, err: strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax` };
  }
  return { ok: true, gates };
}

export function validateFeatureGates(c: FeatureGatesAgentConfig): string | undefined {
  const r = featureGatesOf(c);
  return r.ok ? undefined : r.reason;
}
