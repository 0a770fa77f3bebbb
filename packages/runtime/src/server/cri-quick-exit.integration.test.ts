/**
 * Integration: a container whose command exits at once reports the command's own exit code and reason
 * (containerd: Completed for 0, Error otherwise), never StartError 128, which is for a command that was never
 * exec'd (a missing binary: cri-runtime.test.ts). The runtime learns of the launch chain's exit and of its status
 * line ("ok", right before the command is exec'd) on two pipes; the start must not take the exit it saw first for
 * a failed start, nor lose the reason a setup that failed gave. Repeated a bounded number of times, as the order the
 * two arrive in varies from run to run.
 * Run: node --import tsx --test packages/runtime/src/server/cri-quick-exit.integration.test.ts (an integration file: its
 * 105 container starts take 60–120 s on two loaded cores, past the 180 s per-file limit of the short tests once).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { containerConfig, sandboxConfig, startInProcess, until, type Harness } from '../testing/harness.ts';

let h: Harness;
before(async () => {
  h = await startInProcess();
});
after(async () => {
  await h?.cleanup();
});

const ROUNDS = 40;

/**
 * Other children of this process exiting while the loop is busy: each prints a line, whose handler holds the loop
 * (Atomics.wait, no CPU) for a while, then exits. Its SIGCHLD makes the loop reap every exited child after that
 * handler, also a container chain whose status line came in meanwhile: the order the tested fix is about.
 */
function neighbours(): () => Promise<void> {
  let stop = false;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let running: Promise<void>;
  const one = () =>
    new Promise<void>((resolve) => {
      const c = spawn('sh', ['-c', 'echo x'], { stdio: ['ignore', 'pipe', 'ignore'] });
      c.stdout.on('data', () => Atomics.wait(pause, 0, 0, 40));
      c.on('close', () => resolve());
    });
  const loop = async () => {
    while (!stop) await one();
  };
  // several at once: the loop wakes for one's output while another's exit is already pending
  running = Promise.all([loop(), loop(), loop(), loop()]).then(() => {});
  return async () => {
    stop = true;
    await running;
  };
}

async function exitsOf(name: string, cmd: string[], rounds = ROUNDS): Promise<string[]> {
  const config = sandboxConfig(name, join(h.dir, 'logs'));
  const { podSandboxId } = await h.rt.RunPodSandbox({ config });
  const seen: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const c = containerConfig(`c${i}`, cmd);
    const { containerId } = await h.rt.CreateContainer({ podSandboxId, config: c, sandboxConfig: config });
    const started = await h.rt.StartContainer({ containerId }).then(() => 'ok', (err: { details: string }) => err.details);
    const st = await until(async () => {
      const s = (await h.rt.ContainerStatus({ containerId })).status;
      return s.state === 'CONTAINER_EXITED' && s;
    }, `container ${containerId} to exit`);
    seen.push(`${started} ${st.exitCode} ${st.reason}`);
    await h.rt.RemoveContainer({ containerId });
  }
  await h.rt.RemovePodSandbox({ podSandboxId });
  return seen;
}

test(`sh -c 'exit 3', ${ROUNDS} times: started, exit code 3, reason Error`, async () => {
  assert.deepEqual(await exitsOf('exit-three', ['sh', '-c', 'exit 3']), Array(ROUNDS).fill('ok 3 Error'));
});

// Before the fix, about 4 starts in 10 failed here (StartError 128, "setup exited before starting (code 3)").
const BUSY_ROUNDS = 20;
test(`sh -c 'exit 3' while other children exit, ${BUSY_ROUNDS} times: started, exit code 3, reason Error`, async () => {
  const done = neighbours();
  try {
    assert.deepEqual(await exitsOf('exit-busy', ['sh', '-c', 'exit 3'], BUSY_ROUNDS), Array(BUSY_ROUNDS).fill('ok 3 Error'));
  } finally {
    await done();
  }
});

test('a missing command while other children exit, 5 times: StartError 128 naming the binary, as containerd', async () => {
  const done = neighbours();
  try {
    const error = 'failed to create containerd task: failed to create shim task: OCI runtime create failed: unable to start container process: '
      + 'exec: "nope": executable file not found in $PATH: unknown';
    assert.deepEqual(await exitsOf('missing-busy', ['nope'], 5), Array(5).fill(`${error} 128 StartError`));
  } finally {
    await done();
  }
});

test(`true, ${ROUNDS} times: started, exit code 0, reason Completed`, async () => {
  assert.deepEqual(await exitsOf('exit-zero', ['true']), Array(ROUNDS).fill('ok 0 Completed'));
});
