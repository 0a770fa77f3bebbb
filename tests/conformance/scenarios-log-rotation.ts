// Container log rotation on the real agent (the suite runs it with --container-log-max-size 16Ki and
// --container-log-max-files 3): the kubelet's container log manager checks every 10 s, renames a log that reached
// the size to `<n>.log.<YYYYMMDD-hhmmss>`, asks the runtime to reopen (CRI ReopenContainerLog), gzips older
// rotations and keeps at most MaxFiles files; `kubectl logs -f` (follow on /containerLogs) reads across a rotation.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitUntil } from '../../e2e/harness.ts';
import type { SuiteContext } from './suite-context.ts';
import type { AgentProcess } from './agent-process.ts';
import { bareId, containerStatus as cs, ctr, fullName, logs, NS, removePod, waitPod, writePod } from './pods.ts';

export const LOG_ROTATION_ARGS = ['--container-log-max-size', '16Ki', '--container-log-max-files', '3'];

/** About 5 KB a second: numbered 200-byte lines, 5 every 0.2 s (16Ki every ~3 s: each 10 s check rotates). */
const WRITER = 'i=0; pad=$(printf "%0190d" 0); while true; do for j in 1 2 3 4 5; do i=$((i+1)); echo "line $i $pad"; done; sleep 0.2; done';

/** Follows /containerLogs until `until` settles (at most `ms`), returning the text received. */
function follow(a: AgentProcess, pod: string, container: string, until: Promise<unknown>, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = request(`${a.kubeletUrl}/containerLogs/${NS}/${fullName(a, pod)}/${container}?follow=true`, { ...a.tls(), method: 'GET' }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('error', () => resolve(text));
      res.on('close', () => resolve(text));
    });
    req.on('error', (e) => (text ? resolve(text) : reject(e)));
    req.end();
    const t = setTimeout(() => req.destroy(), ms);
    const stop = () => {
      clearTimeout(t);
      req.destroy();
    };
    until.then(stop, stop);
  });
}

function lineNumbers(text: string): number[] {
  return text.split('\n').filter((l) => l.startsWith('line ')).map((l) => Number(l.split(' ')[1]));
}

export function defineLogRotationScenarios(ctx: SuiteContext): void {
  describe('container log rotation', () => {
    it('rotates at containerLogMaxSize, gzips older files, keeps containerLogMaxFiles, and follow reads across', async () => {
      const { agent: a, rt, cri } = ctx;
      writePod(a, 'logrot', { restartPolicy: 'Always', terminationGracePeriodSeconds: 1, containers: [ctr('w', rt.image, WRITER)] });
      const running = await waitPod(a, 'logrot', 'running', (p) => Boolean(cs(p, 'w')?.state?.running));
      const id = bareId(cs(running, 'w')?.containerID);
      const logPath = (await cri.containerStatus({ containerId: id })).status?.logPath ?? '';
      assert.ok(logPath, 'the runtime reports the log path');
      const files = () => readdirSync(dirname(logPath)).filter((n) => n.startsWith(basename(logPath))).sort();
      // The follow spans every rotation up to the gzipped one (two at least) and a moment past the last reopen.
      const rotated = (async () => {
        let most = 0;
        await waitUntil('a gzipped rotation', () => {
          most = Math.max(most, files().length);
          return files().some((n) => n.endsWith('.gz'));
        }, 60_000);
        assert.ok(most <= 3, `at most containerLogMaxFiles (3) files, saw ${most}`);
        // A check may be between its rename and the runtime's reopen: the current file comes back within moments.
        await waitUntil('the current file exists again after the reopen', () => files().includes(basename(logPath)), 10_000);
        await sleep(2_000);
      })();
      const followed = follow(a, 'logrot', 'w', rotated, 70_000);
      await rotated;
      const names = files();
      for (const n of names.filter((x) => x !== basename(logPath))) assert.match(n, /^\d+\.log\.\d{8}-\d{6}(\.gz(\.tmp)?)?$/); // .tmp: a compression in progress
      const gz = names.find((n) => n.endsWith('.gz')) ?? '';
      const old = gunzipSync(readFileSync(join(dirname(logPath), gz))).toString('utf8');
      assert.match(old.split('\n')[0] ?? '', /^\S+ stdout F line \d+ 0+$/, 'a gzipped file holds CRI log lines');
      const seen = lineNumbers(await followed);
      assert.ok(seen.length > 100, `follow received ${seen.length} lines`);
      const gaps = seen.slice(1).filter((n, i) => n !== (seen[i] as number) + 1);
      assert.deepEqual(gaps, [], 'follow reads every line once, in order, across rotations');
      const tail = await logs(a, 'logrot', 'w', 'tailLines=3');
      assert.equal(tail.status, 200);
      assert.equal(lineNumbers(tail.body).length, 3, 'logs of the current file still answer');
      removePod(a, 'logrot');
    });
  });
}
