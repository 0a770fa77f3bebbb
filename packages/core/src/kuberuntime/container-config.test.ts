import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Pod } from '@kubernetes/client-node';
import protobuf from 'protobufjs';
import { CRI_PROTO_PATH } from '../../../../proto/load.ts';
import { generateContainerConfig } from './container-config.ts';

const pod: V1Pod = {
  metadata: { name: 'p', namespace: 'default', uid: 'u1' },
  spec: {
    containers: [
      {
        name: 'c',
        image: 'nodelet.local/host:latest',
        command: ['echo', '$(GREETING)'],
        env: [
          { name: 'GREETING', value: 'héllo 18080' },
          { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
        ],
      },
    ],
    nodeName: 'n1',
  },
};

test('container config env values survive CRI encoding (KeyValue.value is bytes on the wire)', async () => {
  const c = pod.spec!.containers[0]!;
  const r = await generateContainerConfig(pod, c, 0, 'nodelet.local/host:latest', { podIp: '', podIps: [], nodeName: 'n1' });
  assert.ok(r.ok);
  const root = protobuf.loadSync(CRI_PROTO_PATH);
  const Config = root.lookupType('runtime.v1.ContainerConfig');
  const cfg = (r as { ok: true; config: unknown }).config as Record<string, unknown>;
  const decoded = Config.toObject(Config.decode(Config.encode(Config.fromObject(cfg)).finish()), { bytes: String }) as {
    envs: Array<{ key: string; value: string }>;
    command: string[];
  };
  const env = Object.fromEntries(decoded.envs.map((e) => [e.key, Buffer.from(e.value, 'base64').toString('utf8')]));
  assert.equal(env.GREETING, 'héllo 18080');
  assert.equal(env.NODE, 'n1');
  assert.deepEqual(decoded.command, ['echo', 'héllo 18080']);
});
