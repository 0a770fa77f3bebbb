import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContainerSample } from '@nodelet/core/stats';
import { statsJson } from './cadvisor-shapes.ts';

const cpu = { usageNanoseconds: 10, userNanoseconds: 4, systemNanoseconds: 6, periods: 0, throttledPeriods: 0, throttledNanoseconds: 0 };

describe('statsJson', () => {
  const cases: { name: string; sample: ContainerSample; want: Record<string, unknown> | undefined }[] = [
    { name: 'v1 per-core usage', sample: { time: 1, cpu: { ...cpu, perCpuNanoseconds: [7, 3] } }, want: { total: 10, per_cpu_usage: [7, 3], user: 4, system: 6 } },
    { name: 'no per-core figure (cgroup v2): key absent', sample: { time: 1, cpu }, want: { total: 10, user: 4, system: 6 } },
    { name: 'no cpu at all (controller missing): no cpu object', sample: { time: 1 }, want: undefined },
  ];
  for (const c of cases) {
    for (const v2 of [false, true]) {
      it(`${c.name} (${v2 ? 'v2.0' : 'v1.3'})`, () => {
        const out = statsJson(c.sample, undefined, v2) as { cpu?: { usage: unknown }; has_cpu?: boolean };
        assert.deepEqual(out.cpu?.usage, c.want);
        if (v2) assert.equal(out.has_cpu, c.want !== undefined);
      });
    }
  }
});
