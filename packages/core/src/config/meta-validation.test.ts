// Metadata rules of the API server (apimachinery ValidateObjectMeta / ValidateLabels / ValidateAnnotations),
// expected messages as apimachinery prints them; plus path-safe static pod UIDs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeSinglePod } from './decode.ts';

const SRC = { kind: 'file' as const, id: '/etc/kubernetes/manifests/web.yaml', nodeName: 'node1' };
const LIMIT = 256 * (1 << 10); // apimachinery TotalAnnotationSizeLimitB

const pod = (metadata: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', ...metadata }, spec: { containers: [{ name: 'app', image: 'busybox' }] } });
const refusedWith = (metadata: Record<string, unknown>) => {
  const r = decodeSinglePod(pod(metadata), SRC);
  assert.equal(r.ok, false, 'refused');
  return r.ok ? '' : r.message;
};
const admitted = (metadata: Record<string, unknown>) => {
  const r = decodeSinglePod(pod(metadata), SRC);
  assert.ok(r.ok, !r.ok ? r.message : '');
  return r.pods[0]!;
};

const QNAME_PART =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

test('a 10 MB annotation is refused with the API server message, which does not repeat the value', () => {
  const msg = refusedWith({ annotations: { big: 'x'.repeat(10 * 1024 * 1024) } });
  assert.equal(msg, `invalid pod: [metadata.annotations: Too long: must have at most ${LIMIT} bytes]`);
});

test('annotations: the limit counts keys and values of all annotations together (bytes)', () => {
  // The kubelet adds kubernetes.io/config.hash and config.source before its own validation, as here.
  const added = 'kubernetes.io/config.hash'.length + 32 + 'kubernetes.io/config.source'.length + 'file'.length;
  admitted({ annotations: { a: 'b'.repeat(LIMIT - 1 - added) } });
  assert.match(refusedWith({ annotations: { a: 'b'.repeat(LIMIT / 2), c: 'd'.repeat(LIMIT / 2) } }), /Too long: must have at most 262144 bytes/);
  assert.match(refusedWith({ annotations: { a: 'é'.repeat(LIMIT / 2) } }), /Too long/, 'two UTF-8 bytes per é');
});

test('annotation keys are qualified names, case-insensitive', () => {
  admitted({ annotations: { 'Example.COM/MyName': 'v', UpperCase123: 'v' } });
  assert.equal(
    refusedWith({ annotations: { 'only/one/slash': 'v' } }),
    `invalid pod: [metadata.annotations: Invalid value: "only/one/slash": a qualified name ${QNAME_PART} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')]`,
  );
  assert.equal(refusedWith({ annotations: { 'cantendwithadash-': 'v' } }), `invalid pod: [metadata.annotations: Invalid value: "cantendwithadash-": name part ${QNAME_PART}]`);
});

test('label keys and values', () => {
  admitted({ labels: { 'app.kubernetes.io/name': 'web', empty: '', 'My_Key.1': 'My_Value-1' } });
  assert.equal(refusedWith({ labels: { app: 'x'.repeat(64) } }), `invalid pod: [metadata.labels: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters]`);
  assert.equal(refusedWith({ labels: { app: '-bad' } }), `invalid pod: [metadata.labels: Invalid value: "-bad": ${LABEL_VALUE}]`);
  assert.equal(refusedWith({ labels: { '/app': 'v' } }), 'invalid pod: [metadata.labels: Invalid value: "/app": prefix part must be non-empty]');
  assert.equal(refusedWith({ labels: { 'example.com/': 'v' } }), `invalid pod: [metadata.labels: Invalid value: "example.com/": name part must be non-empty, metadata.labels: Invalid value: "example.com/": name part ${QNAME_PART}]`);
  assert.equal(refusedWith({ labels: { ['k'.repeat(64)]: 'v' } }), `invalid pod: [metadata.labels: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters]`);
  assert.match(refusedWith({ labels: { 'Bad_Prefix/app': 'v' } }), /^invalid pod: \[metadata\.labels: Invalid value: "Bad_Prefix\/app": prefix part a lowercase RFC 1123 subdomain/);
});

test('name and namespace can never name a path: no "/", no ".."', () => {
  for (const name of ['../etc', 'a/b', '..', 'a..b']) assert.match(refusedWith({ name }), /^invalid pod: \[metadata\.name: Invalid value/, name);
  for (const namespace of ['../etc', 'a/b', 'kube.system']) assert.match(refusedWith({ namespace }), /^invalid pod: \[metadata\.namespace: Invalid value/, namespace);
});

test('a given metadata.uid is kept (as the kubelet) when path-safe, refused otherwise', () => {
  assert.equal(admitted({ uid: '123e4567-e89b-12d3-a456-426614174000' }).metadata?.uid, '123e4567-e89b-12d3-a456-426614174000');
  assert.equal(admitted({ uid: 'My_Static.Pod-1' }).metadata?.uid, 'My_Static.Pod-1');
  for (const uid of ['../../etc', 'a/b', '..', 'a..b', '.hidden', 'x'.repeat(254), 'a b', 'a\0b']) {
    assert.match(refusedWith({ uid }), /^invalid pod: \[metadata\.uid: Invalid value: /, JSON.stringify(uid));
  }
});

test('a huge invalid value is cut in the message', () => {
  const msg = refusedWith({ name: 'a'.repeat(1_000_000) });
  assert.ok(msg.length < 400, `message length ${msg.length}`);
  assert.match(msg, /\.\.\. \(1000000 characters\): must be no more than 253 characters\]$/);
});
