import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration, formatDuration } from './duration.ts';
import { parseFlags } from './flags.ts';
import { loadConfig, type LoadDeps } from './load-config.ts';

function deps(files: Record<string, string> = {}): LoadDeps {
  return {
    readFile: (p) => {
      const t = files[p];
      if (t === undefined) throw new Error(`ENOENT: no such file, open '${p}'`);
      return t;
    },
    hostname: () => 'MyHost',
    cwd: () => '/work',
  };
}

const header = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

describe('parseDuration', () => {
  const table: Array<[string, number | null]> = [
    ['20s', 20_000], ['1m30s', 90_000], ['300ms', 300], ['1h', 3_600_000], ['0', 0], ['1.5s', 1500],
    ['', null], ['20', null], ['abc', null], ['5d', null], ['1m 2s', null],
  ];
  for (const [input, want] of table) {
    it(`"${input}" → ${want}`, () => {
      const r = parseDuration(input);
      if (want === null) assert.equal(r.ok, false);
      else assert.deepEqual(r, { ok: true, ms: want });
    });
  }
  it('formats like Go', () => {
    assert.equal(formatDuration(180_000), '3m0s');
    assert.equal(formatDuration(1500), '1.5s');
    assert.equal(formatDuration(300), '300ms');
  });
});

describe('parseFlags', () => {
  const table: Array<{ argv: string[]; want?: Record<string, unknown>; err?: RegExp }> = [
    { argv: ['--port=1234'], want: { port: 1234 } },
    { argv: ['--port', '1234'], want: { port: 1234 } },
    { argv: ['--anonymous-auth'], want: { anonymousAuth: true } },
    { argv: ['--anonymous-auth=false'], want: { anonymousAuth: false } },
    { argv: ['--anonymous-auth=TRUE', '--port', '1'], want: { anonymousAuth: true, port: 1 } },
    { argv: ['--hostname-override', 'n1'], want: { nodeName: 'n1' } },
    { argv: ['--pleg-relist-period=200ms', '--crashloop-backoff-initial', '1s'], want: { plegRelistPeriodMs: 200, crashLoopBackOffInitialMs: 1000 } },
    { argv: ['-v=4'], want: { verbosity: 4 } },
    { argv: ['--nope'], err: /unknown flag: --nope/ },
    { argv: ['--port'], err: /flag needs an argument: --port/ },
    { argv: ['--port=ten'], err: /invalid argument "ten" for "--port" flag: not an integer/ },
    { argv: ['--anonymous-auth=maybe'], err: /not a boolean/ },
    { argv: ['--sync-frequency=soon'], err: /invalid duration/ },
    { argv: ['stray'], err: /unexpected argument "stray"/ },
  ];
  for (const t of table) {
    it(t.argv.join(' '), () => {
      const r = parseFlags(t.argv);
      if (t.err) {
        assert.equal(r.ok, false);
        if (!r.ok) assert.match(r.reason, t.err);
      } else {
        assert.ok(r.ok, !r.ok ? r.reason : '');
        if (r.ok) assert.deepEqual(r.value.settings, t.want);
      }
    });
  }
  it('--help and --config', () => {
    const r = parseFlags(['--config', '/c.yaml', '-h']);
    assert.ok(r.ok && r.value.help && r.value.configFile === '/c.yaml');
  });
});

describe('loadConfig', () => {
  it('--hostname-override is trimmed and lowercased, as the kubelet\'s nodeutil.GetHostname', () => {
    const r = loadConfig(['--hostname-override', ' Node-A '], deps());
    assert.ok(r.ok && !r.help && r.config.nodeName === 'node-a');
  });
  it('flags-only defaults (legacy CLI: read-only 10255, AlwaysAllow, anonymous off)', () => {
    const r = loadConfig([], deps());
    assert.ok(r.ok && !r.help);
    if (!r.ok || r.help) return;
    const c = r.config;
    assert.equal(c.nodeName, 'myhost');
    assert.equal(c.port, 10250);
    assert.equal(c.readOnlyPort, 10255);
    assert.equal(c.healthzPort, 10248);
    assert.equal(c.healthzBindAddress, '127.0.0.1');
    assert.equal(c.anonymousAuth, false);
    assert.equal(c.authorizationMode, 'AlwaysAllow');
    assert.equal(c.rootDir, '/var/lib/kubelet');
    assert.equal(c.podLogsDir, '/var/log/pods');
    assert.equal(c.maxPods, 110);
    assert.equal(c.fileCheckFrequencyMs, 20_000);
    assert.equal(c.syncFrequencyMs, 60_000);
    assert.deepEqual(c.crashLoopBackOff, { initialMs: 10_000, maxMs: 300_000 });
    assert.equal(c.plegRelistThresholdMs, 180_000);
    assert.equal(c.containerRuntimeEndpoint, undefined);
  });

  it('config file values, with config-file defaults, then flags override', () => {
    const file = `${header}staticPodPath: manifests
port: 11250
healthzPort: 0
fileCheckFrequency: 5s
authentication:
  anonymous: { enabled: true }
  x509: { clientCAFile: /etc/ca.crt }
authorization: { mode: AlwaysAllow }
crashLoopBackOff: { maxContainerRestartPeriod: 30s }
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
evictionHard: { memory.available: 100Mi }
kernelMemcgNotification: true
`;
    const r = loadConfig(['--config', '/c.yaml', '--port=12250', '--root-dir', 'state'], deps({ '/c.yaml': file }));
    assert.ok(r.ok && !r.help, !r.ok ? r.reason : '');
    if (!r.ok || r.help) return;
    const c = r.config;
    assert.equal(c.port, 12250, 'flag wins over file');
    assert.equal(c.readOnlyPort, 0, 'config-file default disables read-only');
    assert.equal(c.healthzPort, 0);
    assert.equal(c.podManifestPath, '/work/manifests');
    assert.equal(c.rootDir, '/work/state');
    assert.equal(c.podLogsDir, '/work/state/logs/pods');
    assert.equal(c.fileCheckFrequencyMs, 5000);
    assert.equal(c.anonymousAuth, true);
    assert.equal(c.clientCAFile, '/etc/ca.crt');
    assert.deepEqual(c.crashLoopBackOff, { initialMs: 10_000, maxMs: 30_000 });
    assert.equal(c.containerRuntimeEndpoint, 'unix:///run/containerd/containerd.sock');
    assert.deepEqual(c.evictionHard, { 'memory.available': '100Mi' });
    assert.deepEqual(r.warnings, ['/c.yaml: field "kernelMemcgNotification" is not supported by nodelet and is ignored']);
  });

  const errors: Array<{ name: string; argv: string[]; files?: Record<string, string>; err: RegExp }> = [
    { name: 'missing file', argv: ['--config', '/none.yaml'], err: /failed to read config file "\/none.yaml"/ },
    { name: 'wrong kind', argv: ['--config', '/c'], files: { '/c': 'kind: Pod\napiVersion: v1\n' }, err: /kind must be "KubeletConfiguration"/ },
    { name: 'wrong apiVersion', argv: ['--config', '/c'], files: { '/c': 'kind: KubeletConfiguration\napiVersion: v1\n' }, err: /apiVersion must be/ },
    { name: 'bad yaml', argv: ['--config', '/c'], files: { '/c': 'a: [\n' }, err: /invalid YAML/ },
    { name: 'bad type', argv: ['--config', '/c'], files: { '/c': `${header}port: "x"\n` }, err: /port: expected an integer, got "x"/ },
    { name: 'bad duration', argv: ['--config', '/c'], files: { '/c': `${header}syncFrequency: 10\n` }, err: /syncFrequency: expected a duration/ },
    { name: 'Webhook default with --config', argv: ['--config', '/c'], files: { '/c': header }, err: /Webhook needs an API server/ },
    { name: 'Webhook flag', argv: ['--authorization-mode=Webhook'], err: /Webhook needs an API server/ },
    { name: 'unknown mode', argv: ['--authorization-mode=RBAC'], err: /"RBAC" is not supported/ },
    { name: 'port range', argv: ['--port=70000'], err: /port: 70000 is not a valid port number/ },
    { name: 'port zero', argv: ['--port=0'], err: /port: 0 is not a valid port/ },
    { name: 'bad address', argv: ['--healthz-bind-address=localhost'], err: /healthzBindAddress: "localhost" is not a valid IP/ },
    { name: 'cert without key', argv: ['--tls-cert-file=/a.crt'], err: /must be given together/ },
    { name: 'endpoint scheme', argv: ['--container-runtime-endpoint=/run/x.sock'], err: /must be a unix socket URL/ },
    { name: 'manifest url', argv: ['--manifest-url=ftp://x'], err: /not an http\(s\) URL/ },
    { name: 'backoff order', argv: ['--crashloop-backoff-initial=10s', '--crashloop-backoff-max=1s'], err: /max must be >=/ },
    { name: 'token webhook without kubeconfig', argv: ['--authentication-token-webhook'], err: /token webhook needs an API server/ },
    { name: 'bad node ip', argv: ['--kubeconfig=/k', '--node-ip=nope'], err: /nodeIP: "nope" is not a valid IP/ },
    { name: 'zero connections', argv: ['--http-max-connections=0'], err: /httpMaxConnections: must be at least 1/ },
    { name: 'zero header timeout', argv: ['--http-header-timeout=0s'], err: /httpHeaderTimeout: must be greater than 0/ },
  ];

  it('API-server mode flags: --kubeconfig (resolved), Webhook allowed, node labels, QPS', () => {
    const r = loadConfig(
      ['--kubeconfig', 'k.yaml', '--authorization-mode=Webhook', '--authentication-token-webhook', '--node-ip=10.0.0.5', '--node-labels=a=b,c=d', '--kube-api-qps=5', '--kube-api-burst=10', '--register-node=false'],
      deps(),
    );
    assert.ok(r.ok && !r.help, !r.ok ? r.reason : '');
    const c = r.config;
    assert.equal(c.kubeconfig, '/work/k.yaml');
    assert.equal(c.authorizationMode, 'Webhook');
    assert.equal(c.authenticationTokenWebhook, true);
    assert.equal(c.nodeIP, '10.0.0.5');
    assert.deepEqual(c.nodeLabels, { a: 'b', c: 'd' });
    assert.deepEqual([c.kubeAPIQPS, c.kubeAPIBurst, c.registerNode], [5, 10, false]);
    assert.deepEqual([c.nodeStatusUpdateFrequencyMs, c.nodeStatusReportFrequencyMs, c.nodeLeaseDurationSeconds], [10_000, 300_000, 40]);
    assert.deepEqual([c.authenticationWebhookCacheTtlMs, c.authorizationWebhookCacheAuthorizedTtlMs, c.authorizationWebhookCacheUnauthorizedTtlMs], [120_000, 300_000, 30_000]);
  });
  it('console token file and HTTP limits: defaults under the root dir, flags resolved against the cwd', () => {
    const d = loadConfig(['--root-dir', 'state'], deps());
    assert.ok(d.ok && !d.help, !d.ok ? d.reason : '');
    assert.equal(d.config.consoleTokenFile, '/work/state/console.token');
    assert.deepEqual([d.config.httpMaxConnections, d.config.httpHeaderTimeoutMs, d.config.httpIdleTimeoutMs], [512, 10_000, 90_000]);
    const r = loadConfig(['--console-token-file', 'tok', '--http-max-connections=64', '--http-header-timeout=2s', '--http-idle-timeout=30s'], deps());
    assert.ok(r.ok && !r.help, !r.ok ? r.reason : '');
    assert.equal(r.config.consoleTokenFile, '/work/tok');
    assert.deepEqual([r.config.httpMaxConnections, r.config.httpHeaderTimeoutMs, r.config.httpIdleTimeoutMs], [64, 2000, 30_000]);
  });
  for (const t of errors) {
    it(`error: ${t.name}`, () => {
      const r = loadConfig(t.argv, deps(t.files));
      assert.equal(r.ok, false);
      if (!r.ok) assert.match(r.reason, t.err);
    });
  }

  it('--help short-circuits', () => {
    assert.deepEqual(loadConfig(['--help', '--nothing-else'], deps()), { ok: false, reason: 'unknown flag: --nothing-else' });
    assert.deepEqual(loadConfig(['--help'], deps()), { ok: true, help: true });
  });
});
