// The kubelet's termination message rules (pkg/kubelet/kuberuntime/kuberuntime_container.go makeMounts,
// getTerminationMessage, readLastStringFromContainerLogs; pkg/kubelet/container/runtime.go limits;
// pkg/kubelet/status/status_manager.go normalizeStatus), against a recording fake file system.
// Upstream specs: "[sig-node] Container Runtime blackbox test on terminated container should report termination
// message ..." (test/e2e/common/node/runtime.go) — the end-to-end run is tests/conformance/scenarios-termination.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContainerStatus__Output } from '../cri/types.ts';
import {
  podContainerDir,
  readTerminationMessage,
  terminationMessageMount,
  trimTerminationMessages,
  withTerminationMessage,
  type TerminationMessageFs,
} from './termination-message.ts';

const PATH_KEY = 'io.kubernetes.container.terminationMessagePath';
const POLICY_KEY = 'io.kubernetes.container.terminationMessagePolicy';
const HOST_FILE = '/var/lib/kubelet/pods/u1/containers/c/abc';

class RecordingFs implements TerminationMessageFs {
  calls: string[] = [];
  constructor(
    private readonly file: Buffer | undefined | Error,
    private readonly log = 'last log line\n',
  ) {}
  async createMessageFile(dir: string, file: string) {
    this.calls.push(`create ${dir} ${file}`);
    if (this.file instanceof Error) throw this.file;
  }
  async readAtMost(path: string, max: number) {
    this.calls.push(`read ${path} ${max}`);
    if (this.file instanceof Error) throw this.file;
    return this.file;
  }
  async readLogTail(path: string, lines: number, bytes: number) {
    this.calls.push(`log ${path} ${lines} ${bytes}`);
    return this.log;
  }
}

function exited(policy: 'File' | 'FallbackToLogsOnError', exitCode: number, extra: Partial<ContainerStatus__Output> = {}): ContainerStatus__Output {
  return {
    annotations: { [PATH_KEY]: '/dev/termination-log', [POLICY_KEY]: policy },
    mounts: [{ containerPath: '/dev/termination-log', hostPath: HOST_FILE }],
    exitCode,
    reason: exitCode === 0 ? 'Completed' : 'Error',
    message: '',
    logPath: '/var/log/pods/ns_p_u1/c/0.log',
    ...extra,
  } as ContainerStatus__Output;
}

describe('termination message of an exited container', () => {
  it('File policy: the file content, read as its last 4096 bytes (MaxContainerTerminationMessageLength)', async () => {
    const fs = new RecordingFs(Buffer.from('DONE'));
    assert.equal(await readTerminationMessage(fs, exited('File', 0)), 'DONE');
    assert.deepEqual(fs.calls, [`read ${HOST_FILE} 4096`]);
  });

  it('File policy never reads the log, even on a failure with an empty file', async () => {
    const fs = new RecordingFs(Buffer.alloc(0));
    assert.equal(await readTerminationMessage(fs, exited('File', 1)), '');
    assert.ok(!fs.calls.some((c) => c.startsWith('log')));
  });

  it('FallbackToLogsOnError, exit 0 and a file: the file (the pod succeeds)', async () => {
    const fs = new RecordingFs(Buffer.from('OK'));
    assert.equal(await readTerminationMessage(fs, exited('FallbackToLogsOnError', 0)), 'OK');
    assert.ok(!fs.calls.some((c) => c.startsWith('log')));
  });

  it('FallbackToLogsOnError, exit 0 and an empty file: no message, no log read', async () => {
    const fs = new RecordingFs(Buffer.alloc(0));
    assert.equal(await readTerminationMessage(fs, exited('FallbackToLogsOnError', 0)), '');
    assert.ok(!fs.calls.some((c) => c.startsWith('log')));
  });

  it('FallbackToLogsOnError, nonzero exit, empty file: the last 80 lines / 2048 bytes of the log', async () => {
    const fs = new RecordingFs(Buffer.alloc(0), 'DONE\n');
    assert.equal(await readTerminationMessage(fs, exited('FallbackToLogsOnError', 1)), 'DONE\n');
    assert.deepEqual(fs.calls, [`read ${HOST_FILE} 4096`, 'log /var/log/pods/ns_p_u1/c/0.log 80 2048']);
  });

  it('FallbackToLogsOnError, nonzero exit, a file with content: the file wins', async () => {
    const fs = new RecordingFs(Buffer.from('from file'));
    assert.equal(await readTerminationMessage(fs, exited('FallbackToLogsOnError', 2)), 'from file');
    assert.ok(!fs.calls.some((c) => c.startsWith('log')));
  });

  it('FallbackToLogsOnError, nonzero exit, the file missing (or not mounted): the log', async () => {
    assert.equal(await readTerminationMessage(new RecordingFs(undefined), exited('FallbackToLogsOnError', 1)), 'last log line\n');
    const unmounted = new RecordingFs(Buffer.from('x'));
    assert.equal(await readTerminationMessage(unmounted, exited('FallbackToLogsOnError', 1, { mounts: [] })), 'last log line\n');
    assert.deepEqual(unmounted.calls, ['log /var/log/pods/ns_p_u1/c/0.log 80 2048']);
  });

  it('a container that could not run (ContainerCannotRun) has no log to fall back to', async () => {
    const fs = new RecordingFs(Buffer.alloc(0));
    assert.equal(await readTerminationMessage(fs, exited('FallbackToLogsOnError', 128, { reason: 'ContainerCannotRun' })), '');
    assert.ok(!fs.calls.some((c) => c.startsWith('log')));
  });

  it('the mount is found at a non-default path from the annotation', async () => {
    const fs = new RecordingFs(Buffer.from('DONE'));
    const s = exited('File', 0, {
      annotations: { [PATH_KEY]: '/dev/termination-custom-log', [POLICY_KEY]: 'File' },
      mounts: [{ containerPath: '/dev/termination-custom-log', hostPath: '/h/f' } as ContainerStatus__Output['mounts'][number]],
    });
    assert.equal(await readTerminationMessage(fs, s), 'DONE');
    assert.deepEqual(fs.calls, ['read /h/f 4096']);
  });

  it('a read error is the message (kubelet: "Error on reading termination log <path>: <err>"), no log read', async () => {
    const fs = new RecordingFs(new Error('permission denied'));
    assert.equal(await readTerminationMessage(fs, exited('FallbackToLogsOnError', 1)), `Error on reading termination log ${HOST_FILE}: permission denied`);
  });

  it('enriches the runtime message as "<runtime>: <message>"', () => {
    assert.equal(withTerminationMessage('', 'DONE'), 'DONE');
    assert.equal(withTerminationMessage('oom', 'DONE'), 'oom: DONE');
    assert.equal(withTerminationMessage('oom', ''), 'oom');
  });
});

describe('termination message file and mount (makeMounts)', () => {
  it('creates <root>/pods/<uid>/containers/<name>/<id> and mounts it read-write at the container path', async () => {
    const fs = new RecordingFs(undefined);
    const dir = podContainerDir('/var/lib/kubelet/', 'u1', 'c');
    assert.equal(dir, '/var/lib/kubelet/pods/u1/containers/c');
    assert.equal(podContainerDir('/r', '..', 'c'), undefined);
    assert.equal(podContainerDir('/r', 'u1', 'a/../../b'), undefined);
    const m = await terminationMessageMount(fs, dir ?? '', { terminationMessagePath: '/dev/termination-custom-log' }, () => assert.fail('no error'), () => 'id1');
    assert.deepEqual(m, { hostPath: `${dir}/id1`, containerPath: '/dev/termination-custom-log', readonly: false });
    assert.deepEqual(fs.calls, [`create ${dir} id1`]);
  });

  it('no path: no file, no mount; a file that cannot be created: logged, the container starts without it', async () => {
    const fs = new RecordingFs(undefined);
    assert.equal(await terminationMessageMount(fs, '/d', {}, () => assert.fail('no error')), undefined);
    assert.deepEqual(fs.calls, []);
    const errors: string[] = [];
    const m = await terminationMessageMount(new RecordingFs(new Error('no space')), '/d', { terminationMessagePath: '/dev/termination-log' }, (e) => errors.push(e), () => 'x');
    assert.equal(m, undefined);
    assert.deepEqual(errors, ['error on creating termination-log file "/d/x": no space']);
  });
});

describe('pod-wide trim (normalizeStatus)', () => {
  it('each message keeps its first 12 KiB / (containers + init containers) bytes', () => {
    const big = 'a'.repeat(5000);
    const statuses = [{ state: { terminated: { message: big } } }, { lastState: { terminated: { message: big } } }, { state: { terminated: { message: 'short' } } }];
    trimTerminationMessages(statuses, 3);
    assert.equal(statuses[0]?.state?.terminated?.message?.length, 4096);
    assert.equal(statuses[1]?.lastState?.terminated?.message?.length, 4096);
    assert.equal(statuses[2]?.state?.terminated?.message, 'short');
    const five = [{ state: { terminated: { message: big } } }];
    trimTerminationMessages(five, 5);
    assert.equal(five[0]?.state.terminated.message.length, Math.floor(12288 / 5));
  });
});
