/**
 * Test certificates for the certificate managers' tests (a CA and leaves with exact validity for RSA keys), and a
 * CertificateManager harness: injected clock, fake CSR client.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { FakeClock, RecordingLogger } from '@nodelet/core/testing';
import { createCa, signLeaf, type KeyAndCert } from '../pki/certs.ts';
import { CertificateManager } from './manager.ts';
import type { CertificateManagerDeps, CertificateRequestSpec } from './manager-deps.ts';
import type { CertificateTemplate } from './template.ts';
import { CLIENT_USAGES, nodeTemplate } from './serving.ts';
import { CertificateStore } from './store.ts';

export function rsaKeyPem(): string {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}

export interface TestLeaf {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ips?: string[];
  notBeforeMs: number;
  notAfterMs: number;
}

export function testCa(nowMs: number): KeyAndCert {
  return createCa(`test-ca@${Math.floor(nowMs / 1000)}`, nowMs);
}

/** A certificate for `keyPem` signed by `ca`, valid exactly from notBefore to notAfter (whole seconds). */
export function testLeaf(ca: KeyAndCert, keyPem: string, l: TestLeaf): string {
  const spec = { commonName: l.commonName, usage: 'client' as const, days: 1, ...(l.organizations ? { organizations: l.organizations } : {}), ...(l.dnsNames ? { dnsNames: l.dnsNames } : {}), ...(l.ips ? { ips: l.ips } : {}) };
  return signLeaf(ca, keyPem, spec, l.notBeforeMs, { notBeforeMs: l.notBeforeMs, notAfterMs: l.notAfterMs }).certPem;
}

export interface ManagerHarnessOptions {
  /** A fresh cert dir for the store. */
  dir: string;
  ca: KeyAndCert;
  keyPem: string;
  t0: number;
  /** A stored pair for the node identity from t0 (default: none). */
  initialLifetimeMs?: number;
  /** The initial pair's SANs. */
  initialSans?: { dnsNames?: string[]; ips?: string[] };
  lifetimeMs: number;
  random?: () => number;
  onRenewError?: () => void;
  template?: () => CertificateTemplate | undefined;
  dynamicTemplate?: boolean;
}

export interface ManagerHarness {
  clock: FakeClock;
  manager: CertificateManager;
  deps: CertificateManagerDeps;
  requests: CertificateRequestSpec[];
  store: CertificateStore;
  log: RecordingLogger;
  /** The fake CSR client's create fails: true → ECONNREFUSED (the API server is down), an Error → that one. */
  setDown(down: boolean | Error): void;
  /** Created CSRs stay pending (until the request is aborted) instead of being issued at once. */
  setPending(pending: boolean): void;
}

/** A CertificateManager on an injected clock with a fake CSR client issuing `lifetimeMs` certificates for the spec. */
export function managerHarness(o: ManagerHarnessOptions): ManagerHarness {
  const clock = new FakeClock(o.t0);
  const store = new CertificateStore({ pairNamePrefix: 'kubelet-client', certDirectory: o.dir, now: () => clock.now() });
  const identity = { commonName: 'system:node:n1', organizations: ['system:nodes'] };
  if (o.initialLifetimeMs) store.update(testLeaf(o.ca, o.keyPem, { ...identity, ...o.initialSans, notBeforeMs: o.t0, notAfterMs: o.t0 + o.initialLifetimeMs }), o.keyPem);
  const requests: CertificateRequestSpec[] = [];
  let down: Error | undefined;
  let pending = false;
  const log = new RecordingLogger();
  const deps: CertificateManagerDeps = {
    name: 'kubernetes.io/kube-apiserver-client-kubelet',
    signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
    usages: CLIENT_USAGES,
    store,
    template: o.template ?? (() => nodeTemplate('n1')),
    clock,
    logger: log.logger,
    random: o.random ?? (() => 0),
    newKeyPem: () => o.keyPem,
    ...(o.onRenewError ? { onRenewError: o.onRenewError } : {}),
    ...(o.dynamicTemplate ? { dynamicTemplate: true } : {}),
    request: async (spec, signal, onCreated) => {
      requests.push(spec);
      if (down) throw down;
      onCreated?.();
      if (pending) await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
      const now = Math.floor(clock.now() / 1000) * 1000;
      const sans = { ...(spec.dnsNames ? { dnsNames: spec.dnsNames } : {}), ...(spec.ipAddresses ? { ips: spec.ipAddresses } : {}) };
      return testLeaf(o.ca, spec.keyPem, { commonName: spec.commonName, organizations: spec.organizations, ...sans, notBeforeMs: now, notAfterMs: now + o.lifetimeMs });
    },
  };
  return {
    clock,
    manager: new CertificateManager(deps),
    deps,
    requests,
    store,
    log,
    setDown: (d) => (down = d === true ? new Error('connect ECONNREFUSED 127.0.0.1:6443') : d === false ? undefined : d),
    setPending: (p) => (pending = p),
  };
}

export interface CertTestBed {
  root: string;
  t0: number;
  ca: KeyAndCert;
  key: string;
  /** A fresh directory under root. */
  dir(): string;
  /** managerHarness with this bed's CA, key, t0 and a fresh directory. */
  harness(o: Omit<ManagerHarnessOptions, 'dir' | 'ca' | 'keyPem' | 't0'>): ManagerHarness;
}

/** One test file's setup: a temp dir (removed after the file's tests), a CA at t0 and an RSA key. */
export function certTestBed(prefix: string, t0 = Date.UTC(2026, 0, 1)): CertTestBed {
  const root = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(root, { recursive: true, force: true }));
  const ca = testCa(t0);
  const key = rsaKeyPem();
  let dirs = 0;
  const dir = () => join(root, `d${dirs++}`);
  return { root, t0, ca, key, dir, harness: (o) => managerHarness({ dir: dir(), ca, keyPem: key, t0, ...o }) };
}
