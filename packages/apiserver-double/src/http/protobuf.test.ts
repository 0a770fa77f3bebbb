/** A real kubectl protobuf body (`kubectl certificate approve`, captured) decoded into the JSON the API would take. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLIENT_CSR, KUBECTL_APPROVE_PROTOBUF } from '../testing/csr-fixtures.ts';
import { decodeProtobufObject } from './protobuf.ts';

test('kubectl certificate approve: the CSR with its Approved condition; a zero lastTransitionTime is left out', () => {
  const o = decodeProtobufObject(Buffer.from(KUBECTL_APPROVE_PROTOBUF, 'base64'));
  assert.ok(o);
  assert.deepEqual([o.apiVersion, o.kind], ['certificates.k8s.io/v1', 'CertificateSigningRequest']);
  const md = o.metadata as Record<string, unknown>;
  assert.deepEqual([md.name, md.uid, md.resourceVersion], ['node-csr-demo', '0eaa48b8-efbb-40b7-ac09-4ab3243526db', '1005']);
  const spec = o.spec as Record<string, unknown>;
  assert.equal(Buffer.from(String(spec.request), 'base64').toString(), CLIENT_CSR);
  assert.deepEqual([spec.signerName, spec.usages], ['kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth']]);
  assert.deepEqual(o.status, {
    conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'This CSR was approved by kubectl certificate approve.', lastUpdateTime: '2026-11-26T09:48:27Z' }],
  });
  assert.equal(decodeProtobufObject(Buffer.from('k8s\0\n\x0f\n\x02v1\x12\x09ConfigMap', 'binary')), undefined, 'other kinds: 415 upstream of here');
});
