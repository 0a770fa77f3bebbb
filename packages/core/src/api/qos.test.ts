import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { computePodQOS, getPodQOS } from './qos.ts';
import type { QOSClass } from './types.ts';

type R = Record<string, string>;
const c = (name: string, requests?: R, limits?: R): V1Container => ({ name, image: 'x', resources: { requests, limits } });
const pod = (containers: V1Container[], initContainers?: V1Container[]): V1Pod => ({ spec: { containers, initContainers } });

const cases: Array<[string, V1Pod, QOSClass]> = [
  ['no resources', pod([c('a'), c('b')]), 'BestEffort'],
  ['zero requests count as none', pod([c('a', { cpu: '0', memory: '0' })]), 'BestEffort'],
  ['only extended resources', pod([c('a', { 'nvidia.com/gpu': '1' }, { 'nvidia.com/gpu': '1' })]), 'BestEffort'],
  ['limits = requests for cpu+memory', pod([c('a', { cpu: '100m', memory: '100Mi' }, { cpu: '100m', memory: '100Mi' })]), 'Guaranteed'],
  ['limits only (requests default to limits)', pod([c('a', undefined, { cpu: '1', memory: '1Gi' })]), 'Guaranteed'],
  ['equal quantities in different spelling', pod([c('a', { cpu: '1', memory: '1024Mi' }, { cpu: '1000m', memory: '1Gi' })]), 'Guaranteed'],
  [
    'two guaranteed containers',
    pod([c('a', { cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' }), c('b', undefined, { cpu: '2', memory: '2Gi' })]),
    'Guaranteed',
  ],
  ['requests below limits', pod([c('a', { cpu: '100m', memory: '100Mi' }, { cpu: '200m', memory: '100Mi' })]), 'Burstable'],
  ['cpu limit only', pod([c('a', undefined, { cpu: '1' })]), 'Burstable'],
  ['request only', pod([c('a', { memory: '10Mi' })]), 'Burstable'],
  [
    'one guaranteed, one best effort',
    pod([c('a', undefined, { cpu: '1', memory: '1Gi' }), c('b')]),
    'Burstable',
  ],
  [
    'init container without limits spoils guaranteed',
    pod([c('a', undefined, { cpu: '1', memory: '1Gi' })], [c('i', { cpu: '1' })]),
    'Burstable',
  ],
  [
    'explicit zero request with a limit',
    pod([c('a', { cpu: '0', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })]),
    'Burstable',
  ],
];

for (const [name, p, want] of cases) {
  test(`qos: ${name} → ${want}`, () => assert.equal(computePodQOS(p), want));
}

test('getPodQOS prefers status.qosClass', () => {
  const p = pod([c('a')]);
  p.status = { qosClass: 'Guaranteed' };
  assert.equal(getPodQOS(p), 'Guaranteed');
  assert.equal(computePodQOS(p), 'BestEffort');
});
