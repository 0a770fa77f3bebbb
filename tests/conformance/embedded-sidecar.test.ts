// Runtime conformance on the embedded runtime: sidecar containers (a file and an agent of their own, so the pod
// lifecycle file stays within the runner's per-file timeout).
import { conformanceSuite } from './suite.ts';
import { embeddedRuntime } from './runtimes.ts';
import { defineSidecarScenarios } from './scenarios-sidecar.ts';

conformanceSuite('embedded-sidecar', embeddedRuntime, [defineSidecarScenarios]);
