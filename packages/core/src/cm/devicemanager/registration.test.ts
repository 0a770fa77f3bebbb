import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registrationError } from './registration.ts';

const DIR = '/var/lib/kubelet/device-plugins';
const req = (over: Partial<{ version: string; resourceName: string; endpoint: string }>) => ({ version: 'v1beta1', resourceName: 'example.com/foo', endpoint: 'foo.sock', ...over });

// Messages of the kubelet's plugin/v1beta1/server.go (errUnsupportedVersion, errInvalidResourceName).
test('registration refusals as the kubelet words them', () => {
  assert.equal(registrationError(req({}), DIR), undefined);
  assert.equal(registrationError(req({ version: 'v1alpha' }), DIR), 'requested API version "v1alpha" is not supported by kubelet. Supported versions are ["v1beta1"]');
  for (const name of ['foo', 'kubernetes.io/foo', 'nvidia.com/', 'Example.com/foo', 'example.com/foo/bar', 'requests.example.com/foo']) {
    assert.equal(registrationError(req({ resourceName: name }), DIR), `the ResourceName ${JSON.stringify(name)} is invalid`, name);
  }
  for (const name of ['nvidia.com/gpu', 'example.com/foo_bar', 'intel.com/sriov-net.A']) assert.equal(registrationError(req({ resourceName: name }), DIR), undefined, name);
});

test('an endpoint that is not a file in the device plugin directory is refused', () => {
  for (const endpoint of ['', '../foo.sock', '/tmp/foo.sock', 'sub/foo.sock', '.']) {
    assert.match(registrationError(req({ endpoint }), DIR) ?? '', /^invalid endpoint .*: the plugin socket must be a file in \/var\/lib\/kubelet\/device-plugins$/, endpoint);
  }
});
