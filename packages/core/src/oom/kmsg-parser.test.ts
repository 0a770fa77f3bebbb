import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OomParser, parseKmsgRecord, systemOomMessage } from './kmsg-parser.ts';
import type { OomEvent } from './types.ts';

const UID = '7c1f2a10-5b0e-4d1c-9d2f-3a4b5c6d7e8f';
const CID = '4f3c2b1a0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b';

test('parseKmsgRecord', () => {
  assert.deepEqual(parseKmsgRecord('6,1234,5678901,-;hello world\n SUBSYSTEM=x\n'), { priority: 6, facility: 0, seq: 1234, timestampUsec: 5678901, message: 'hello world' });
  assert.deepEqual(parseKmsgRecord('14,1,2,-,caller=T1;user \\x3b msg'), { priority: 6, facility: 1, seq: 1, timestampUsec: 2, message: 'user ; msg' });
  assert.equal(parseKmsgRecord('no envelope'), undefined);
});

test('OOM kill sequences → events', () => {
  const cases: { name: string; lines: string[]; want: Omit<OomEvent, 'time' | 'source'> | undefined }[] = [
    {
      name: 'memcg kill (kernel ≥ 4.19) in a burstable pod',
      lines: [
        'dd invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=999',
        'memory: usage 65536kB, limit 65536kB, failcnt 124',
        `oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=${CID},mems_allowed=0,oom_memcg=/kubepods/burstable/pod${UID}/${CID},task_memcg=/kubepods/burstable/pod${UID}/${CID},task=dd,pid=43210,uid=0`,
        'Memory cgroup out of memory: Killed process 43210 (dd) total-vm:70000kB, anon-rss:65000kB, file-rss:1000kB, shmem-rss:0kB, UID:0 pgtables:180kB oom_score_adj:999',
      ],
      want: { pid: 43210, processName: 'dd', taskCgroup: `/kubepods/burstable/pod${UID}/${CID}`, oomCgroup: `/kubepods/burstable/pod${UID}/${CID}`, constraint: 'CONSTRAINT_MEMCG', podUid: UID, containerId: CID },
    },
    {
      name: 'pod-level limit hit, mems_allowed list with commas',
      lines: [
        `oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,2-3,oom_memcg=/kubepods/pod${UID},task_memcg=/kubepods/pod${UID}/${CID},task=python3,pid=7,uid=1000`,
        'Memory cgroup out of memory: Killed process 7 (python3) total-vm:1kB',
      ],
      want: { pid: 7, processName: 'python3', taskCgroup: `/kubepods/pod${UID}/${CID}`, oomCgroup: `/kubepods/pod${UID}`, constraint: 'CONSTRAINT_MEMCG', podUid: UID, containerId: CID },
    },
    {
      name: 'older kernels: Task in ... killed as a result of limit of ...',
      lines: [`Task in /kubepods/besteffort/pod${UID}/${CID} killed as a result of limit of /kubepods/besteffort/pod${UID}`, 'Memory cgroup out of memory: Kill process 99 (stress) score 1000 or sacrifice child'],
      want: { pid: 99, processName: 'stress', taskCgroup: `/kubepods/besteffort/pod${UID}/${CID}`, oomCgroup: `/kubepods/besteffort/pod${UID}`, constraint: 'CONSTRAINT_MEMCG', podUid: UID, containerId: CID },
    },
    {
      name: 'system OOM',
      lines: [
        'oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/system.slice/foo.service,task=foo,pid=555,uid=0',
        'Out of memory: Killed process 555 (foo) total-vm:1kB',
      ],
      want: { pid: 555, processName: 'foo', taskCgroup: '/system.slice/foo.service', oomCgroup: '/', constraint: 'CONSTRAINT_NONE' },
    },
    { name: 'kill line alone', lines: ['Out of memory: Killed process 1 (x)'], want: { pid: 1, processName: 'x', taskCgroup: '/', oomCgroup: '/', constraint: 'CONSTRAINT_NONE' } },
    { name: 'unrelated lines', lines: ['eth0: link up', 'oom_reaper: reaped process 43210 (dd)'], want: undefined },
  ];
  for (const tc of cases) {
    const p = new OomParser();
    const events = tc.lines.map((l) => p.feed(l, 1000)).filter((e) => e !== undefined);
    if (tc.want === undefined) assert.equal(events.length, 0, tc.name);
    else assert.deepEqual(events, [{ ...tc.want, time: 1000, source: 'kmsg' }], tc.name);
  }
});

test('systemOomMessage', () => {
  assert.equal(systemOomMessage({ time: 0, pid: 5, processName: 'foo', taskCgroup: '/', oomCgroup: '/', constraint: 'CONSTRAINT_NONE', source: 'kmsg' }), 'System OOM encountered, victim process: foo, pid: 5');
});
