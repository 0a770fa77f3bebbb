// What every scenario of the conformance suite gets: the runtime, the agent process and a CRI client to it.
import type { CriClient } from '@nodelet/core/cri';
import type { AgentProcess } from './agent-process.ts';
import type { ConformanceRuntime } from './runtimes.ts';

export interface SuiteContext {
  /** A private --cgroup-root: agents on one host must not garbage-collect each other's pod cgroups. */
  cgroupRoot: string;
  rt: ConformanceRuntime;
  agent: AgentProcess;
  cri: CriClient;
}
