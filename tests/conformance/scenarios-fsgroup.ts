// fsGroup on the real agent: a non-root container (runAsUser 1000, fsGroup 1001) reads a 0440 API-data volume
// file through its supplementary group, and a file it creates in an emptyDir gets the group (setgid dir).
// Our own run of the upstream specs "[sig-storage] Secrets should be consumable from pods in volume as non-root
// with defaultMode and fsGroup set" and "[sig-storage] Projected secret ... non-root with defaultMode and fsGroup
// set" (test/e2e/common/storage/secrets_volume.go, projected_secret.go at v1.28: mode -r--r-----, the content
// read as uid 1000). Static pods may not reference Secrets, so the 0440 files here come from a downwardAPI and a
// projected downwardAPI volume: the same payload writer and ownership step as secret volumes
// (packages/core/src/volume/volume-manager-fsgroup.test.ts covers the secret and projected secret sources).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SuiteContext } from './suite-context.ts';
import { containerStatus as cs, ctr, fullName, logs, removePod, waitPod, writePod } from './pods.ts';

const SCRIPT = [
  'for f in /etc/podinfo/podname /etc/projected/podname; do echo "mode $(stat -L -c %A $f) group $(stat -L -c %g $f) content $(cat $f)"; done',
  'echo "groups $(id -u) $(id -G)"',
  'echo x > /scratch/mine && echo "scratch $(stat -c %A /scratch) new-file-group $(stat -c %g /scratch/mine)"',
].join('; ');

export function defineFsGroupScenarios(ctx: SuiteContext): void {
  describe('fsGroup and non-root volumes', () => {
    it('upstream: Secrets / Projected secret should be consumable from pods in volume as non-root with defaultMode and fsGroup set', async () => {
      const { agent, rt } = ctx;
      const item = [{ path: 'podname', fieldRef: { fieldPath: 'metadata.name' } }];
      writePod(agent, 'fsgroup', {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        securityContext: { runAsUser: 1000, fsGroup: 1001 },
        volumes: [
          { name: 'podinfo', downwardAPI: { defaultMode: 0o440, items: item } },
          { name: 'projected', projected: { defaultMode: 0o440, sources: [{ downwardAPI: { items: item } }] } },
          { name: 'scratch', emptyDir: {} },
        ],
        containers: [ctr('c', rt.image, SCRIPT, {
          volumeMounts: [{ name: 'podinfo', mountPath: '/etc/podinfo' }, { name: 'projected', mountPath: '/etc/projected' }, { name: 'scratch', mountPath: '/scratch' }],
        })],
      });
      const p = await waitPod(agent, 'fsgroup', 'Succeeded', (x) => x.status?.phase === 'Succeeded' || x.status?.phase === 'Failed', 120_000).catch((e: Error) => {
        throw new Error(`${e.message}\nagent log:\n${agent.logTail(4000)}`);
      });
      const out = (await logs(agent, 'fsgroup', 'c')).body;
      assert.equal(p.status?.phase, 'Succeeded', `${JSON.stringify(cs(p, 'c')?.state)}\n${out}`);
      const name = fullName(agent, 'fsgroup');
      assert.match(out, new RegExp(`^mode -r--r----- group 1001 content ${name}$`, 'm'));
      assert.equal(out.split('\n').filter((l) => l === `mode -r--r----- group 1001 content ${name}`).length, 2, out);
      assert.match(out, /^groups 1000 \d+( \d+)* ?$/m);
      assert.ok(/^groups 1000 .*\b1001\b/m.test(out), `fsGroup 1001 among the process's groups: ${out}`);
      assert.match(out, /^scratch drwxrwsrwx new-file-group 1001$/m);
      removePod(agent, 'fsgroup');
    });
  });
}
