import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContainerConfig__Output } from '../../../../proto/gen/runtime/v1/ContainerConfig.ts';
import type { ImageConfig } from '../images/types.ts';
import { DEFAULT_PATH, resolveProcessSpec, stopSignalOf } from './container-spec.ts';

const image = (p: Partial<ImageConfig> = {}): ImageConfig => ({
  entrypoint: [], cmd: [], env: [], workingDir: '', user: '', labels: {}, ...p,
});
const config = (p: Partial<ContainerConfig__Output> = {}): ContainerConfig__Output =>
  ({ command: [], args: [], envs: [], workingDir: '', linux: null, stopSignal: 'SIGNAL_RUNTIME_DEFAULT', ...p }) as ContainerConfig__Output;

test('resolveProcessSpec argv follows containerd', () => {
  const cases: Array<[string, Partial<ContainerConfig__Output>, Partial<ImageConfig>, string[] | undefined]> = [
    ['image entrypoint + cmd', {}, { entrypoint: ['/ep'], cmd: ['a'] }, ['/ep', 'a']],
    ['args replace cmd', { args: ['b'] }, { entrypoint: ['/ep'], cmd: ['a'] }, ['/ep', 'b']],
    ['command drops image cmd', { command: ['sh'] }, { entrypoint: ['/ep'], cmd: ['a'] }, ['sh']],
    ['command + args', { command: ['sh'], args: ['-c', 'x'] }, { cmd: ['a'] }, ['sh', '-c', 'x']],
    ['nothing at all', {}, {}, undefined],
  ];
  for (const [name, c, i, want] of cases) {
    const r = resolveProcessSpec(config(c), image(i), '/nonexistent');
    assert.deepEqual(r.ok ? r.spec.argv : undefined, want, name);
  }
});

test('resolveProcessSpec env, workdir, user', () => {
  const r = resolveProcessSpec(
    config({ command: ['x'], envs: [{ key: 'A', value: '2' as never }], linux: { securityContext: { runAsUser: { value: 1000 }, runAsGroup: null } } as never }),
    image({ env: ['A=1', 'B=x=y'], workingDir: '/w' }),
    '/nonexistent',
  );
  assert.ok(r.ok);
  assert.deepEqual(r.spec.env, { A: '2', B: 'x=y', PATH: DEFAULT_PATH });
  assert.equal(r.spec.workingDir, '/w');
  assert.equal(r.spec.uid, 1000);
  assert.equal(r.spec.gid, 0, 'containerd WithUserID: a uid without a passwd entry gets gid 0');
  const named = resolveProcessSpec(config({ command: ['x'] }), image({ user: 'nobody' }), '/nonexistent');
  assert.equal(named.ok, false);
  const numeric = resolveProcessSpec(config({ command: ['x'] }), image({ user: '5:6' }), '/nonexistent');
  assert.ok(numeric.ok && numeric.spec.uid === 5 && numeric.spec.gid === 6);
});

test('stopSignalOf', () => {
  const cases: Array<[string | undefined, string | undefined, string]> = [
    [undefined, undefined, 'SIGTERM'], ['SIGNAL_RUNTIME_DEFAULT', 'SIGQUIT', 'SIGQUIT'], ['SIGNAL_SIGINT', 'SIGQUIT', 'SIGINT'],
    [undefined, 'USR1', 'SIGUSR1'], [undefined, '9', '9'],
  ];
  for (const [cri, img, want] of cases) assert.equal(stopSignalOf(cri, img), want, `${cri}/${img}`);
});
