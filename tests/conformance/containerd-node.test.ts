// Runtime conformance on a real containerd + runc: the behaviours upstream [NodeConformance] specs check. Needs root
// and Debian's containerd packages; without them this FAILS with what to install (it never skips, in CI or not).
import { conformanceSuite, nodeConformanceScenarios } from './suite.ts';
import { containerdRuntime } from './runtimes.ts';

conformanceSuite('containerd-node', containerdRuntime, nodeConformanceScenarios);
