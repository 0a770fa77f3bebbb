/**
 * Test entry: the agent process with kubelet overrides (KubeletOverrides as JSON in the first argument, then the
 * agent's flags), e.g. `agent-main.ts '{"imageGcPeriodMs":2000}' --root-dir …`. Production reads no such knob:
 * a kubelet constant is shortened only here, through the kubelet factory's options.
 */
import { runAgentProcess } from '../agent-process.ts';
import { kubeletFactory, type KubeletOverrides } from '../kubelet-factory.ts';

const [overrides = '{}', ...flags] = process.argv.slice(2);
await runAgentProcess(flags, kubeletFactory(JSON.parse(overrides) as KubeletOverrides));
