import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeFixture } from '../cm/testing/cgroup-fixture.ts';
import { createNodeHostFs } from '../cm/node-host-fs.ts';
import { readMachineInfo } from './machine-info.ts';

test('machine info from a fixture tree', async () => {
  const f = makeFixture('v1');
  try {
    f.write('/proc/cpuinfo', 'processor\t: 0\nphysical id\t: 0\ncore id\t: 0\n\nprocessor\t: 1\nphysical id\t: 0\ncore id\t: 1\n');
    f.write('/proc/meminfo', 'MemTotal:       1024 kB\nSwapTotal:      0 kB\n');
    f.write('/etc/machine-id', 'abc123\n');
    f.write('/proc/sys/kernel/random/boot_id', 'boot-1\n');
    f.write('/proc/sys/kernel/osrelease', '6.18.0\n');
    f.write('/etc/os-release', 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n');
    f.write('/sys/class/net/eth0/address', '02:00:00:00:00:01\n');
    f.write('/sys/class/net/eth0/mtu', '1500\n');
    f.write('/sys/class/net/eth0/speed', '-1\n');
    f.write('/sys/class/net/lo/mtu', '65536\n');
    const m = await readMachineInfo(f.fs);
    assert.deepEqual(
      { ...m, filesystems: m.filesystems.length },
      {
        numCores: 2, numPhysicalCores: 2, numSockets: 1, cpuFrequencyKhz: 0, memoryCapacityBytes: 1024 * 1024, swapCapacityBytes: 0,
        machineId: 'abc123', systemUuid: '', bootId: 'boot-1', kernelVersion: '6.18.0', osImage: 'Debian GNU/Linux 12 (bookworm)',
        interfaces: [{ name: 'eth0', macAddress: '02:00:00:00:00:01', mtu: 1500, speedMbps: 0 }],
        filesystems: 1,
      },
    );
  } finally {
    f.cleanup();
  }
});

test('machine info of this host is plausible', async () => {
  const m = await readMachineInfo(createNodeHostFs());
  assert.ok(m.numCores >= 1);
  assert.ok(m.memoryCapacityBytes > 0);
  assert.match(m.bootId, /^[0-9a-f-]{36}$/);
  assert.ok(m.kernelVersion.length > 0);
});
