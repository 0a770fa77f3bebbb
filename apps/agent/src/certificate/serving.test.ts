/**
 * The serving certificate's template as pkg/kubelet/certificate/kubelet.go builds it (newGetTemplateFn,
 * addressesToHostnamesAndIPs): node addresses → sorted, deduplicated DNS names and IPs; no template without an IP.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressesToHostnamesAndIPs, nodeAddresses, servingTemplate } from './serving.ts';

describe('serving certificate template', () => {
  it('maps Hostname and *DNS to DNS names (a Hostname that is an IP to the IPs), *IP to IPs, sorted and deduplicated', () => {
    const r = addressesToHostnamesAndIPs([
      { type: 'Hostname', address: 'node-b' },
      { type: 'InternalIP', address: '10.0.0.9' },
      { type: 'ExternalIP', address: '192.0.2.1' },
      { type: 'InternalDNS', address: 'node-b.cluster.local' },
      { type: 'ExternalDNS', address: 'a.example.com' },
      { type: 'Hostname', address: '10.0.0.9' },
      { type: 'InternalIP', address: 'not-an-ip' },
      { type: 'InternalIP', address: '' },
    ]);
    assert.deepEqual(r, { dnsNames: ['a.example.com', 'node-b', 'node-b.cluster.local'], ips: ['10.0.0.9', '192.0.2.1'] });
  });

  it('asks for O=system:nodes CN=system:node:<name> with the addresses, and for nothing before the node has an IP', () => {
    assert.deepEqual(servingTemplate('n1', [{ type: 'InternalIP', address: '10.1.2.3' }, { type: 'Hostname', address: 'n1' }]), {
      commonName: 'system:node:n1',
      organizations: ['system:nodes'],
      dnsNames: ['n1'],
      ipAddresses: ['10.1.2.3'],
    });
    assert.equal(servingTemplate('n1', [{ type: 'Hostname', address: 'n1' }]), undefined);
  });

  it("takes the node status's addresses: --node-ip (else the default IP) as InternalIP, the node name as Hostname", () => {
    assert.deepEqual(nodeAddresses({ nodeName: 'n1', nodeIP: '10.9.8.7' }, () => '192.0.2.7'), [
      { type: 'InternalIP', address: '10.9.8.7' },
      { type: 'Hostname', address: 'n1' },
    ]);
    assert.deepEqual(nodeAddresses({ nodeName: 'n1' }, () => '192.0.2.7')[0], { type: 'InternalIP', address: '192.0.2.7' });
    assert.deepEqual(nodeAddresses({ nodeName: 'n1' }, () => undefined), [{ type: 'Hostname', address: 'n1' }]);
  });
});
