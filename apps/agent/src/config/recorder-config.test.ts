// flightRecorderMaxAge / flightRecorderMaxSize and their flags (#16 item 4: default 7 days and 64 MiB, in the
// kubelet's flag style); bad values stop the agent with a message naming the field; 0 turns the recorder off.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseConfigFile } from './config-file.ts';
import { configzBody } from './configz.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';
import { recorderBounds } from './recorder-config.ts';

const deps: LoadDeps = { readFile: () => { throw new Error('ENOENT'); }, hostname: () => 'h', cwd: () => '/work' };

it('defaults to 168h and 64Mi, shown by /configz as KubeletConfiguration fields', () => {
  const r = loadConfig([], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(recorderBounds(r.config), { ok: true, maxBytes: 64 * 1024 * 1024, maxAgeMs: 7 * 24 * 3_600_000 });
  const k = configzBody(r.config).kubeletconfig;
  assert.equal(k.flightRecorderMaxAge, '168h0m0s');
  assert.equal(k.flightRecorderMaxSize, '64Mi');
});

it('reads the flags and the KubeletConfiguration fields', () => {
  const r = loadConfig(['--flight-recorder-max-age=36h', '--flight-recorder-max-size=16Mi'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(recorderBounds(r.config), { ok: true, maxBytes: 16 * 1024 * 1024, maxAgeMs: 36 * 3_600_000 });
  const f = parseConfigFile('kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nflightRecorderMaxAge: 2h30m\nflightRecorderMaxSize: 1Gi\n', 'c.yaml');
  assert.ok(f.ok);
  assert.equal(f.value.flightRecorderMaxAgeMs, 9_000_000);
  assert.equal(f.value.flightRecorderMaxSize, '1Gi');
});

it('0 turns the recorder off; a size that is not a quantity, under 1Mi, or an age of 0 stops the agent', () => {
  const off = loadConfig(['--flight-recorder-max-size=0'], deps);
  assert.ok(off.ok && !off.help);
  assert.deepEqual(recorderBounds(off.config), { ok: true, maxBytes: 0, maxAgeMs: 168 * 3_600_000 });
  const bad = (args: string[]) => {
    const r = loadConfig(args, deps);
    return r.ok ? 'ok' : r.reason;
  };
  assert.match(bad(['--flight-recorder-max-size=lots']), /^invalid configuration: invalid flightRecorderMaxSize "lots": quantities must match/);
  assert.equal(bad(['--flight-recorder-max-size=100Ki']), 'invalid configuration: invalid flightRecorderMaxSize "100Ki": must be 0 (off) or at least 1Mi');
  assert.equal(bad(['--flight-recorder-max-age=0s']), 'invalid configuration: invalid flightRecorderMaxAge: must be greater than 0');
});
