/**
 * The tcpSocket probe: a TCP connect bounded by timeoutS (the kubelet's tcp prober). Success when the
 * connection opens (closed at once); failure with Go's dial text (`dial tcp 127.0.0.1:8080: connect:
 * connection refused`, `dial tcp 10.0.0.1:80: i/o timeout`).
 */
import net from 'node:net';
import type { Clock } from '../../util/clock.ts';
import type { RunOutcome } from '../types.ts';
import { goDialError, joinHostPort } from './go-text.ts';

export function createTcpRunner(clock: Clock): (host: string, port: number, timeoutS: number) => Promise<RunOutcome> {
  return (host, port, timeoutS) =>
    new Promise<RunOutcome>((resolve) => {
      let done = false;
      const sock = net.connect({ host, port });
      const finish = (o: RunOutcome) => {
        if (done) return;
        done = true;
        timer.cancel();
        sock.destroy();
        resolve(o);
      };
      const timer = clock.setTimeout(
        () => finish({ status: 'failure', output: `dial tcp ${joinHostPort(host, port)}: i/o timeout` }),
        timeoutS * 1000,
      );
      sock.once('connect', () => finish({ status: 'success', output: '' }));
      sock.once('error', (err) => finish({ status: 'failure', output: goDialError(err, host, port) }));
    });
}
