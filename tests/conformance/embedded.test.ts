// Runtime conformance on the embedded runtime (packages/runtime, spawned by the agent).
import { conformanceSuite } from './suite.ts';
import { embeddedRuntime } from './runtimes.ts';

conformanceSuite('embedded', embeddedRuntime);
