/**
 * The kubelet's certificate manager (client-go util/certificate/certificate_manager.go), one per certificate:
 * - the pair in use comes from the store; an expired one counts as none (Current() is nil);
 * - the rotation deadline is notBefore + a jittered 70–90 % of the lifetime (jitteryDuration), or now when there
 *   is no pair or it does not satisfy the template (CN, DNS names, IPs, orgs);
 * - at the deadline: a new ECDSA P-256 key, a CSR through `request`, the issued pair stored and handed to the
 *   listeners (the API client's connections, the 10250 server);
 * - a failed attempt counts a renew error and is retried with the kubelet's backoff (2 s doubling, 10 % jitter,
 *   5 attempts), then every 32 s until one succeeds: the old pair stays in use all the while;
 * - serverHealthy(): what the last CSR create said of the API server (updateServerError), for the exit watchdog;
 * - a dynamic template (the serving certificate's node addresses) is compared every second with the pair and the
 *   last request: a change the pair lacks cancels a pending request and rotates at once (templateChanged).
 * What it is built with and reports: manager-deps.ts; the template and whether a pair satisfies it: template.ts.
 */
import type { TimerHandle } from '@nodelet/core/util';
import { serverHealthAfter } from './csr-client.ts';
import { NoCertKeyError, type CertKeyPair } from './store.ts';
import type { CertificateManagerDeps, CertificateStatus } from './manager-deps.ts';
import { sameTemplate, satisfies, type CertificateTemplate } from './template.ts';

/** certificateWaitTimeout: how long one attempt waits for the CSR to be issued. */
export const CERTIFICATE_WAIT_TIMEOUT_MS = 15 * 60_000;
/** wait.Backoff{Duration: 2s, Factor: 2, Jitter: 0.1, Steps: 5}, then wait.PollInfinite(32s). */
export const ROTATION_BACKOFF = { initialMs: 2000, factor: 2, jitter: 0.1, steps: 5, pollMs: 32_000 };

/** jitteryDuration: wait.Jitter(total, 0.2) - 0.3 × total, i.e. 70–90 % of the lifetime. */
export function jitteryDuration(totalMs: number, random: () => number): number {
  return totalMs + random() * 0.2 * totalMs - totalMs * 0.3;
}

type Listener = (pair: CertKeyPair) => void;

export class CertificateManager {
  private pair: CertKeyPair | undefined;
  private forceRotation = false;
  private timer: TimerHandle | undefined;
  private running = false;
  private abort: AbortController | undefined;
  private deadline: number | undefined;
  private lastError: { message: string; at: number } | undefined;
  private renewErrors = 0;
  private rotations = 0;
  private readonly listeners: Listener[] = [];
  private readonly random: () => number;
  private serverHealth = false;
  /** The template of the last CSR created (setLastRequest), and whether the loop sleeps until the deadline. */
  private lastRequest: CertificateTemplate | undefined;
  private sleeping = false;
  private templateTimer: TimerHandle | undefined;

  /** Reads the store: no pair → rotate at once; an unreadable pair → throws (the message names the files). */
  constructor(private readonly d: CertificateManagerDeps) {
    this.random = d.random ?? Math.random;
    try {
      const p = d.store.current();
      if (d.clock.now() < Date.parse(p.leaf.validTo)) this.pair = p;
      else this.forceRotation = true;
    } catch (err) {
      if (!(err instanceof NoCertKeyError)) throw err;
      this.forceRotation = true;
    }
  }

  /** The pair in use; undefined when there is none or it has expired. */
  current(): CertKeyPair | undefined {
    const p = this.pair;
    if (p && this.d.clock.now() > Date.parse(p.leaf.validTo)) return undefined;
    return p;
  }

  /** Called with each newly issued pair. */
  onRotate(l: Listener): void {
    this.listeners.push(l);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.d.logger.info('Certificate rotation is enabled', { name: this.d.name });
    this.loop();
    if (this.d.dynamicTemplate) this.templateTimer = this.d.clock.setInterval(() => this.checkTemplate(), 1000);
  }

  stop(): void {
    this.running = false;
    this.timer?.cancel();
    this.templateTimer?.cancel();
    this.abort?.abort();
    this.deadline = undefined;
  }

  /** ServerHealthy: true after a pair was issued or the API server answered a CSR create as a working server would. */
  serverHealthy(): boolean {
    return this.serverHealth;
  }

  /**
   * The templateChanged check (every second with a dynamic template): when the pair lacks what the template asks
   * and no CSR for this template was made, a pending request is cancelled and, if the loop sleeps until its
   * deadline, the rotation starts at once ("Certificate template changed, rotating").
   */
  checkTemplate(): void {
    if (!this.running) return;
    const template = this.d.template();
    if ((this.pair && satisfies(this.pair.leaf, template)) || sameTemplate(this.lastRequest, template)) return;
    this.abort?.abort(new Error('the certificate template changed'));
    if (!this.sleeping) return;
    this.sleeping = false;
    if (!template) return this.schedule(0, () => this.loop());
    this.d.logger.info('Certificate template changed, rotating', { name: this.d.name });
    this.schedule(0, () => void this.attempt(0, ROTATION_BACKOFF.initialMs));
  }

  /** Seconds until the pair in use expires (math.Trunc), +Inf without one: the *_ttl_seconds gauges. */
  ttlSeconds(): number {
    const p = this.current();
    return p ? Math.trunc((Date.parse(p.leaf.validTo) - this.d.clock.now()) / 1000) : Number.POSITIVE_INFINITY;
  }

  status(): CertificateStatus {
    const leaf = this.pair?.leaf;
    return {
      ...(leaf ? { subject: oneLine(leaf.subject), issuer: oneLine(leaf.issuer), notBefore: iso(leaf.validFrom), notAfter: iso(leaf.validTo) } : {}),
      ...(this.deadline !== undefined ? { nextRotation: new Date(this.deadline).toISOString() } : {}),
      ...(this.lastError ? { lastError: this.lastError.message, lastErrorTime: new Date(this.lastError.at).toISOString() } : {}),
      renewErrors: this.renewErrors,
      rotations: this.rotations,
    };
  }

  /** nextRotationDeadline: now when forced or the pair misses the template, else notBefore + jitteryDuration. */
  nextRotationDeadline(): number {
    const now = this.d.clock.now();
    if (this.forceRotation) {
      this.forceRotation = false;
      return now;
    }
    const leaf = this.pair?.leaf;
    if (!leaf || !satisfies(leaf, this.d.template())) return now;
    const notBefore = Date.parse(leaf.validFrom);
    const deadline = notBefore + jitteryDuration(Date.parse(leaf.validTo) - notBefore, this.random);
    this.d.logger.info('Certificate expiration and rotation deadline', { name: this.d.name, expiration: leaf.validTo, deadline: new Date(deadline).toISOString() });
    return deadline;
  }

  /** One attempt (rotateCerts): true when a new pair is stored and in use. */
  async rotateCerts(): Promise<boolean> {
    const template = this.d.template();
    if (!template) return this.fail('unable to create a csr, no template available');
    this.d.logger.info('Rotating certificates', { name: this.d.name });
    let keyPem: string;
    try {
      keyPem = this.d.newKeyPem();
    } catch (err) {
      return this.fail(`Unable to generate a certificate signing request: ${(err as Error).message}`);
    }
    const abort = new AbortController();
    this.abort = abort;
    const timeout = this.d.clock.setTimeout(() => abort.abort(new Error('timed out waiting for the certificate')), CERTIFICATE_WAIT_TIMEOUT_MS);
    let certPem: string;
    let created = false;
    try {
      const onCreated = () => {
        created = true;
        this.lastRequest = template;
      };
      certPem = await this.d.request({ ...template, signerName: this.d.signerName, usages: this.d.usages, keyPem }, abort.signal, onCreated);
    } catch (err) {
      // updateServerError: only the create's answer says how the API server is; a wait that ends badly does not.
      if (!created) this.serverHealth = serverHealthAfter(err);
      return this.fail(`Failed while requesting a signed certificate from the control plane: ${(err as Error).message}`);
    } finally {
      timeout.cancel();
    }
    let pair: CertKeyPair;
    try {
      pair = this.d.store.update(certPem, keyPem);
    } catch (err) {
      return this.fail(`Unable to store the new cert/key pair: ${(err as Error).message}`);
    }
    const old = this.pair;
    this.pair = pair;
    this.serverHealth = true;
    this.rotations++;
    this.lastError = undefined;
    this.deadline = undefined;
    if (old) this.d.onRotationAge?.((this.d.clock.now() - Date.parse(old.leaf.validFrom)) / 1000);
    this.d.logger.info('Certificate rotated', { name: this.d.name, subject: oneLine(pair.leaf.subject), notAfter: iso(pair.leaf.validTo), file: pair.files[0] });
    for (const l of this.listeners) {
      try {
        l(pair);
      } catch (err) {
        this.d.logger.error('Certificate listener failed', { name: this.d.name, err: (err as Error).message });
      }
    }
    return true;
  }

  private fail(message: string): false {
    this.renewErrors++;
    this.d.onRenewError?.();
    this.lastError = { message, at: this.d.clock.now() };
    this.d.logger.error('Certificate rotation failed', { name: this.d.name, err: message });
    return false;
  }

  /** wait.Until(1s): wait for the deadline, then rotate with backoff; again once done. */
  private loop(): void {
    if (!this.running) return;
    if (!this.d.template()) {
      this.deadline = undefined;
      this.schedule(1000, () => this.loop());
      return;
    }
    const deadline = this.nextRotationDeadline();
    this.deadline = deadline;
    const wait = deadline - this.d.clock.now();
    if (wait > 0) this.d.logger.info('Waiting for next certificate rotation', { name: this.d.name, waitSeconds: Math.round(wait / 1000) });
    this.sleeping = wait > 0;
    this.schedule(Math.max(0, wait), () => {
      this.sleeping = false;
      void this.attempt(0, ROTATION_BACKOFF.initialMs);
    });
  }

  private async attempt(n: number, delayMs: number): Promise<void> {
    if (!this.running) return;
    const ok = await this.rotateCerts();
    if (!this.running) return;
    if (ok) return this.schedule(1000, () => this.loop());
    const b = ROTATION_BACKOFF;
    if (n + 1 < b.steps) {
      const jittered = delayMs + this.random() * b.jitter * delayMs;
      this.deadline = this.d.clock.now() + jittered;
      return this.schedule(jittered, () => void this.attempt(n + 1, delayMs * b.factor));
    }
    if (n + 1 === b.steps) this.d.logger.error('Reached backoff limit, still unable to rotate certs', { name: this.d.name, err: this.lastError?.message });
    this.deadline = this.d.clock.now() + b.pollMs;
    this.schedule(b.pollMs, () => void this.attempt(n + 1, delayMs));
  }

  private schedule(ms: number, fn: () => void): void {
    this.timer?.cancel();
    this.timer = this.d.clock.setTimeout(fn, ms);
  }
}

function oneLine(dn: string): string {
  return dn.split('\n').filter((l) => l).join(', ');
}

function iso(date: string): string {
  return new Date(Date.parse(date)).toISOString();
}
