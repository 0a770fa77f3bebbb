/**
 * The example plugin's devices: N files `<dir>/fake-<i>` (created when missing), each one device. A device is
 * Unhealthy while `<dir>/fake-<i>.unhealthy` exists or its file is gone; Allocate mounts each device's file at
 * `<containerPath>/<id>` and names the devices in FAKE_DEVICE (comma-separated), refusing unknown or unhealthy
 * ids as upstream's sample device plugin does.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StubDevice } from '@nodelet/core/cm';

export interface FakeDevicesOptions {
  /** Where the device files live. */
  dir: string;
  count: number;
  /** Where a device's file appears in the container. */
  containerPath: string;
}

export interface FakeAllocation {
  envs: Record<string, string>;
  mounts: Array<{ containerPath: string; hostPath: string; readOnly: boolean }>;
  annotations: Record<string, string>;
}

export const ENV_NAME = 'FAKE_DEVICE';

export const deviceId = (i: number) => `fake-${i}`;

export class FakeDevices {
  readonly ids: string[];

  constructor(private readonly o: FakeDevicesOptions) {
    this.ids = Array.from({ length: o.count }, (_, i) => deviceId(i));
  }

  /** Creates the directory and any missing device file (an existing file and its content are kept). */
  create(): void {
    mkdirSync(this.o.dir, { recursive: true });
    for (const id of this.ids) {
      const file = this.file(id);
      if (!existsSync(file)) writeFileSync(file, `fake device ${id}\n`);
    }
  }

  file(id: string): string {
    return path.join(this.o.dir, id);
  }

  /** The health control file of a device. */
  marker(id: string): string {
    return `${this.file(id)}.unhealthy`;
  }

  /** Every device with its health as the files say now. */
  scan(): StubDevice[] {
    return this.ids.map((id) => ({ id, healthy: existsSync(this.file(id)) && !existsSync(this.marker(id)) }));
  }

  /** One container's Allocate answer; throws (the RPC's error) for an unknown or unhealthy device. */
  allocate(ids: string[], current: readonly StubDevice[]): FakeAllocation {
    for (const id of ids) {
      const d = current.find((x) => x.id === id);
      if (!d) throw new Error(`invalid allocation request with non-existing device ${id}`);
      if (!d.healthy) throw new Error(`invalid allocation request with unhealthy device: ${id}`);
    }
    return {
      envs: { [ENV_NAME]: ids.join(',') },
      mounts: ids.map((id) => ({ containerPath: path.posix.join(this.o.containerPath, id), hostPath: this.file(id), readOnly: false })),
      annotations: { 'example.com/fake-devices': ids.join(',') },
    };
  }
}
