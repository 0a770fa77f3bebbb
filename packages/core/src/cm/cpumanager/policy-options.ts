/**
 * cpuManagerPolicyOptions of the static policy (cpumanager/policy_options.go v1.28). `full-pcpus-only` (beta,
 * on by default) is supported; the alpha options need the CPUManagerPolicyAlphaOptions gate, which Nodelet does
 * not offer, so they are refused with the kubelet's message, as are unknown names.
 */
export const FULL_PCPUS_ONLY = 'full-pcpus-only';
const ALPHA_OPTIONS = ['distribute-cpus-across-numa', 'align-by-socket'];

export interface StaticPolicyOptions {
  fullPhysicalCPUsOnly: boolean;
}

export function parseStaticPolicyOptions(options: Record<string, string>): StaticPolicyOptions {
  const opts: StaticPolicyOptions = { fullPhysicalCPUsOnly: false };
  for (const [name, value] of Object.entries(options)) {
    if (ALPHA_OPTIONS.includes(name)) throw new Error(`CPU Manager Policy Alpha-level Options not enabled, but option ${JSON.stringify(name)} provided`);
    if (name !== FULL_PCPUS_ONLY) throw new Error(`unknown CPU Manager Policy option: ${JSON.stringify(name)}`);
    opts.fullPhysicalCPUsOnly = parseBool(name, value);
  }
  return opts;
}

/** strconv.ParseBool. */
function parseBool(name: string, value: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new Error(`bad value for option ${JSON.stringify(name)}: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}
