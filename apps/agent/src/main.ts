/**
 * `npm run agent -- <flags>`: runs the agent process (agent-process.ts: argv, env, signals, exit codes) with
 * the real kubelet factory.
 * Exit codes: 0 after a clean stop or --help, 1 for invalid configuration or a failed start.
 */
import { runAgentProcess } from './agent-process.ts';
import { coreKubeletFactory } from './kubelet-factory.ts';

await runAgentProcess(process.argv.slice(2), coreKubeletFactory);
