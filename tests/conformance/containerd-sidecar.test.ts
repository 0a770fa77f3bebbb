// Runtime conformance on a real containerd + runc (scripts/containerd-up.sh): sidecar containers. Needs root and
// Debian's containerd packages; without them this FAILS with what to install (it never skips, in CI or not).
import { conformanceSuite } from './suite.ts';
import { containerdRuntime } from './runtimes.ts';
import { defineSidecarScenarios } from './scenarios-sidecar.ts';

conformanceSuite('containerd-sidecar', containerdRuntime, [defineSidecarScenarios]);
