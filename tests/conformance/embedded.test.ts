// Runtime conformance on the embedded runtime (packages/runtime, spawned by the agent): the pod lifecycle.
import { conformanceSuite, lifecycleScenarios } from './suite.ts';
import { embeddedRuntime } from './runtimes.ts';

conformanceSuite('embedded', embeddedRuntime, lifecycleScenarios);
