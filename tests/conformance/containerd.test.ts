// Runtime conformance on a real containerd + runc (scripts/containerd-up.sh): the pod lifecycle. Needs root and
// Debian's containerd packages; without them this FAILS with what to install (it never skips, in CI or not).
import { conformanceSuite, lifecycleScenarios } from './suite.ts';
import { containerdRuntime } from './runtimes.ts';

conformanceSuite('containerd', containerdRuntime, lifecycleScenarios);
