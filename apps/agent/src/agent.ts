/**
 * The composition root: certificates, runtime, core kubelet, then the three servers. Shutdown reverses it:
 * not-ready → stop accepting → close streams → stop kubelet → close CRI → close connections.
 */
import { readFileSync } from 'node:fs';
import { agentCertificateManagers, initialServingPair } from './certificate/managers-agent.ts';
import type { CertificateManagers } from './certificate/managers.ts';
import type { HealthReport, KubeletApi } from '@nodelet/core/kubelet';
import type { Clock, TimerHandle, Logger } from '@nodelet/core/util';
import type { AgentConfig } from './config/types.ts';
import type { KubeletFactory, KubeletHandle } from './kubelet-factory.ts';
import { runShutdown, type StepOutcome } from './lifecycle/shutdown.ts';
import { ensurePki, type Pki } from './pki/ensure-pki.ts';
import { ensureRuntime, probeEndpoint, type RuntimeLaunch } from './runtime-launcher.ts';
import { superviseEmbeddedRuntime, type RuntimeSupervisor } from './runtime-supervisor.ts';
import { buildAuth, httpLimits, loadConsoleToken } from './auth/build-auth.ts';
import type { GuardOptions } from './servers/auth.ts';
import { createKubeletServer, type KubeletServer } from './servers/kubelet-server.ts';
import type { FlightRecorder } from './recorder/recorder.ts';
import { startFlightRecorder } from './recorder/start.ts';
import { configzBody } from './config/configz.ts';
import { criStreamsClient, type CriStreams } from './servers/routes/cri-streams.ts';
import { createHealthzServer, createReadOnlyServer, type PlainServer } from './servers/readonly-server.ts';

export type ServerName = 'kubelet' | 'readonly' | 'healthz';

export interface AgentPorts {
  kubelet?: number;
  readonly?: number;
  healthz?: number;
}

export interface AgentDeps {
  logger: Logger;
  clock: Clock;
  createKubelet: KubeletFactory;
  launchRuntime?: (rootDir: string, endpoint: string | undefined) => Promise<RuntimeLaunch>;
}

export interface Agent {
  start(): Promise<AgentPorts>;
  stop(): Promise<StepOutcome[]>;
  /** The graceful node shutdown (pods terminated as shutdownGracePeriod says); false when it is not configured. */
  shutdownNode(): Promise<boolean>;
  readonly ports: AgentPorts;
}

export function createAgent(config: AgentConfig, deps: AgentDeps): Agent {
  const log = deps.logger;
  const ports: AgentPorts = {};
  let handle: KubeletHandle | undefined;
  let kubeletServer: KubeletServer | undefined;
  let criStreams: CriStreams | undefined;
  const plain: PlainServer[] = [];
  let stopping = false;
  let runtimeOk = true;
  let runtimeTimer: TimerHandle | undefined;
  let supervisor: RuntimeSupervisor | undefined;
  let stopped: Promise<StepOutcome[]> | undefined;
  let recorder: FlightRecorder | undefined;
  let certs: CertificateManagers | undefined;

  const health = (kubelet: KubeletApi) => (): HealthReport => {
    const report = kubelet.healthz();
    const checks = [...report.checks];
    if (!checks.some((c) => c.name === 'runtime') && !runtimeOk) {
      checks.push({ name: 'runtime', ok: false, message: 'container runtime is not answering' });
    }
    const apiserver = apiServerCheck(kubelet);
    if (apiserver) checks.push(apiserver);
    if (stopping) checks.push({ name: 'shutdown', ok: false, message: 'the agent is shutting down' });
    return { ok: checks.every((c) => c.ok), checks };
  };

  async function start(): Promise<AgentPorts> {
    const pki = ensurePki(config.rootDir, config.nodeName, log.child('pki'));
    const consoleToken = loadConsoleToken(config, log.child('auth'));
    const launch = deps.launchRuntime ?? ((root, ep) => ensureRuntime(root, ep, { logger: log.child('runtime-launcher'), clock: deps.clock }));
    const runtime = await launch(config.rootDir, config.containerRuntimeEndpoint);
    if (!runtime.ok) watchRuntime(runtime.endpoint);
    criStreams = criStreamsClient(runtime.endpoint);
    handle = await deps.createKubelet({ config, runtimeEndpoint: runtime.endpoint, logger: log, clock: deps.clock });
    const kubelet = handle.kubelet;
    // rotateCertificates / serverTLSBootstrap: the managers read their stores now (an unreadable pair stops the start, naming the files).
    // No valid client certificate for 5 minutes with the API server answering: the kubelet exits (os.Exit(1)) so
    // that its supervisor restarts it and the bootstrap runs again; the agent stops first, then exits 1.
    const exit = (code: number) => void stop().finally(() => process.exit(code));
    const managers = await agentCertificateManagers(config, handle.apiClient, pki, { clock: deps.clock, logger: log, exit });
    certs = managers;
    recorder = await startFlightRecorder(config, kubelet, { clock: deps.clock, logger: log.child('flight-recorder') });
    // The embedded runtime (ours to run): restarted whenever it dies, from now on.
    if (!deps.launchRuntime && config.containerRuntimeEndpoint === undefined) {
      supervisor = superviseEmbeddedRuntime(config.rootDir, { logger: log, clock: deps.clock, nodeName: config.nodeName, recorder: () => kubelet.recorder });
      supervisor.start();
    }
    await kubelet.start();
    log.info('kubelet started', { node: config.nodeName });
    await listenAll(kubelet, pki, health(kubelet), consoleToken);
    managers.start();
    return ports;
  }

  function watchRuntime(endpoint: string): void {
    runtimeOk = false;
    runtimeTimer = deps.clock.setInterval(() => {
      void probeEndpoint(endpoint).then((ok) => {
        if (!ok || runtimeOk) return;
        runtimeOk = true;
        runtimeTimer?.cancel();
        log.info('runtime ready', { endpoint });
      });
    }, 5000);
  }

  async function listenAll(kubelet: KubeletApi, pki: Pki, h: () => HealthReport, consoleToken: GuardOptions['consoleToken']): Promise<void> {
    const clientCAs = [pki.ca.certPem];
    if (config.clientCAFile) clientCAs.push(readFileSync(config.clientCAFile, 'utf8'));
    // serverTLSBootstrap: the serving manager's pair (or its tlsCertFile fallback); none yet → handshakes are refused
    // until one is issued, as the kubelet's GetCertificate ("no serving certificate available for the kubelet").
    const serving = certs?.serving ? certs.servingPair() : initialServingPair(config, pki);
    kubeletServer = createKubeletServer({
      kubelet,
      logger: log.child('server'),
      ...buildAuth(config, handle?.apiClient, deps.clock, log.child('auth')),
      nodeName: config.nodeName,
      anonymousAuth: config.anonymousAuth,
      tls: { cert: serving?.cert, key: serving?.key, clientCAs },
      health: h,
      ...(criStreams ? { cri: criStreams } : {}),
      ...(consoleToken ? { consoleToken } : {}),
      limits: httpLimits(config),
      configz: () => configzBody(config),
      ...(recorder ? { recorder } : {}),
      ...(certs ? { certificates: certs } : {}),
    });
    const server = kubeletServer;
    certs?.followServing((p) => server.setCertificate(p?.cert, p?.key));
    ports.kubelet = await kubeletServer.listen(config.port, config.address);
    announce('kubelet', ports.kubelet, config.address);
    if (config.readOnlyPort > 0) {
      const ro = createReadOnlyServer(kubelet, log.child('server'), h, httpLimits(config), certs?.metricsText);
      plain.push(ro);
      ports.readonly = await ro.listen(config.readOnlyPort, config.address);
      announce('readonly', ports.readonly, config.address);
    }
    if (config.healthzPort > 0) {
      const hz = createHealthzServer(kubelet, log.child('server'), h, httpLimits(config));
      plain.push(hz);
      ports.healthz = await hz.listen(config.healthzPort, config.healthzBindAddress);
      announce('healthz', ports.healthz, config.healthzBindAddress);
    }
  }

  function announce(server: ServerName, port: number, address: string): void {
    log.info('listening', { server, port, address });
  }

  function stop(): Promise<StepOutcome[]> {
    stopped ??= runShutdown(
      [
        {
          name: 'not-ready',
          timeoutMs: 1000,
          run: () => {
            stopping = true;
            supervisor?.stop();
            certs?.stop();
          },
        },
        { name: 'stop-accepting', timeoutMs: 1000, run: () => [kubeletServer, ...plain].forEach((s) => s?.stopAccepting()) },
        { name: 'close-streams', timeoutMs: 2000, run: () => kubeletServer?.closeStreams() },
        { name: 'stop-kubelet', timeoutMs: 10_000, run: () => handle?.kubelet.stop() },
        { name: 'close-recorder', timeoutMs: 2000, run: () => recorder?.close() },
        {
          name: 'close-cri',
          timeoutMs: 2000,
          run: () => {
            criStreams?.close();
            return handle?.close();
          },
        },
        {
          name: 'close-connections',
          timeoutMs: 3000,
          run: async () => {
            runtimeTimer?.cancel();
            await Promise.all([kubeletServer, ...plain].map((s) => s?.close(1000)));
          },
        },
      ],
      { clock: deps.clock, logger: log.child('shutdown') },
    );
    return stopped;
  }

  async function shutdownNode(): Promise<boolean> {
    const m = handle?.kubelet.nodeShutdown;
    if (!m) return false;
    await m.shutdownNow();
    return true;
  }

  return { start, stop, shutdownNode, ports };
}

/**
 * API-server mode: the cluster connection as an informational healthz check. The kubelet keeps running its pods
 * while the API server is unreachable and never fails /healthz for it, so the check always passes; when the last
 * call failed its message says so (shown as `[+]apiserver ok (degraded: ...)` with ?verbose; details in the logs
 * and node.get's cluster.lastError).
 */
export function apiServerCheck(kubelet: Pick<KubeletApi, 'node'>): HealthReport['checks'][number] | undefined {
  const cluster = kubelet.node().cluster;
  if (!cluster) return undefined;
  if (!cluster.lastError) return { name: 'apiserver', ok: true };
  return { name: 'apiserver', ok: true, message: 'degraded: API server requests failing, retrying with backoff; reason withheld' };
}
