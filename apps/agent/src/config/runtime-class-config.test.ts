// --runtime-class-handlers (nodelet's; the kubelet has none): name=handler pairs reach the core config, names are
// checked as the API server checks a RuntimeClass (metadata.name a DNS-1123 subdomain, handler a DNS-1123 label).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadConfig, type LoadDeps } from './load-config.ts';
import { coreKubeletConfig } from '../kubelet-factory.ts';

const deps: LoadDeps = { readFile: () => { throw new Error('ENOENT'); }, hostname: () => 'h', cwd: () => '/work' };

it('--runtime-class-handlers: name=handler pairs reach the kubelet config', () => {
  const r = loadConfig(['--runtime-class-handlers=sandboxed=userns,runc=runc'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(r.config.runtimeClassHandlers, { sandboxed: 'userns', runc: 'runc' });
  assert.deepEqual(coreKubeletConfig(r.config, 'unix:///x.sock').runtimeClassHandlers, { sandboxed: 'userns', runc: 'runc' });
  const none = loadConfig([], deps);
  assert.ok(none.ok && !none.help && coreKubeletConfig(none.config, 'unix:///x.sock').runtimeClassHandlers === undefined);
});

it('a class name or handler the API server would refuse is an invalid configuration', () => {
  assert.deepEqual(loadConfig(['--runtime-class-handlers=Bad_Name=runc'], deps), {
    ok: false,
    reason: `invalid configuration: runtimeClassHandlers["Bad_Name"] name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  });
  const bad = loadConfig(['--runtime-class-handlers=gvisor=run.sc'], deps);
  assert.ok(!bad.ok && bad.reason.startsWith('invalid configuration: runtimeClassHandlers["gvisor"] handler: Invalid value: "run.sc": a lowercase RFC 1123 label'), JSON.stringify(bad));
});

it('with --kubeconfig the map is not used, and the agent says so', () => {
  const r = loadConfig(['--runtime-class-handlers=sandboxed=userns', '--kubeconfig=/etc/kubelet.conf'], deps);
  assert.ok(r.ok && !r.help);
  assert.deepEqual(r.warnings, ["--runtime-class-handlers is not used with --kubeconfig: runtime handlers come from the API server's RuntimeClass objects"]);
  const alone = loadConfig(['--runtime-class-handlers=sandboxed=userns'], deps);
  assert.ok(alone.ok && !alone.help && alone.warnings.length === 0);
});
