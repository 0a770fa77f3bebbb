// Runtime conformance on the embedded runtime: the behaviours upstream [NodeConformance] specs check.
import { conformanceSuite, nodeConformanceScenarios } from './suite.ts';
import { embeddedRuntime } from './runtimes.ts';

conformanceSuite('embedded-node', embeddedRuntime, nodeConformanceScenarios);
