/** The real ProbeRunner: exec over CRI ExecSync, http over node:http(s), tcp over node:net, grpc health. */
import type { Clock } from '../../util/clock.ts';
import type { ProbeRunner } from '../types.ts';
import { createExecRunner, type ExecSync } from './exec-runner.ts';
import { createGrpcRunner } from './grpc-runner.ts';
import { createHttpRunner } from './http-runner.ts';
import { createTcpRunner } from './tcp-runner.ts';

export interface ProbeRunnerDeps {
  cri: ExecSync;
  clock: Clock;
}

export interface ProbeRunnerConfig {
  /** `<major>.<minor>` for User-Agent kube-probe/<ver> (default '1.34'). */
  kubeletVersion?: string;
}

export function createProbeRunner(deps: ProbeRunnerDeps, config: ProbeRunnerConfig = {}): ProbeRunner {
  const exec = createExecRunner(deps.cri, deps.clock);
  return {
    exec,
    http: createHttpRunner({ clock: deps.clock, kubeletVersion: config.kubeletVersion }),
    tcp: createTcpRunner(deps.clock),
    grpc: createGrpcRunner(deps.clock, config.kubeletVersion),
  };
}
