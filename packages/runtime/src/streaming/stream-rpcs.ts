/** The CRI Exec / Attach / PortForward RPCs: validate, register the request, answer its streaming URL. */
import type { RuntimeServiceHandlers } from '../../../../proto/gen/runtime/v1/RuntimeService.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { fail, ok } from '../runtime/result.ts';
import { unary } from '../server/unary.ts';
import type { StreamingServer } from './streaming-server.ts';

export function streamingHandlers(rt: Runtime, streaming: StreamingServer): Pick<RuntimeServiceHandlers, 'Exec' | 'Attach' | 'PortForward'> {
  const log = rt.ctx.logger;
  const running = (id: string) => {
    const c = rt.ctx.store.findContainer(id);
    if (!c) return fail('NOT_FOUND', `failed to find container "${id}" in store: not found`);
    if (c.state !== 'CONTAINER_RUNNING') return fail('FAILED_PRECONDITION', `container ${c.id} is not in running state`);
    return ok(c.id);
  };
  return {
    Exec: unary(log, 'Exec', (req) => {
      const c = running(req.containerId);
      if (!c.ok) return c;
      if (req.cmd.length === 0) return fail('INVALID_ARGUMENT', 'cmd must not be empty');
      if (!req.stdout && !req.stderr && !req.stdin) return fail('INVALID_ARGUMENT', 'one of stdin, stdout, or stderr must be set');
      if (req.tty && req.stderr) return fail('INVALID_ARGUMENT', 'tty and stderr cannot both be true');
      return ok({ url: streaming.register({ kind: 'exec', containerId: c.value, cmd: req.cmd, tty: req.tty, stdin: req.stdin, stdout: req.stdout, stderr: req.stderr }) });
    }),
    Attach: unary(log, 'Attach', (req) => {
      const c = running(req.containerId);
      if (!c.ok) return c;
      return ok({ url: streaming.register({ kind: 'attach', containerId: c.value, cmd: [], tty: req.tty, stdin: req.stdin, stdout: req.stdout, stderr: req.stderr }) });
    }),
    PortForward: unary(log, 'PortForward', (req) => {
      const sb = rt.ctx.store.findSandbox(req.podSandboxId);
      if (!sb) return fail('NOT_FOUND', `failed to find sandbox "${req.podSandboxId}" in store: not found`);
      if (sb.state !== 'SANDBOX_READY') return fail('FAILED_PRECONDITION', `sandbox ${sb.id} is not running`);
      return ok({ url: streaming.register({ kind: 'portforward', podSandboxId: sb.id, ports: req.port }) });
    }),
  };
}
