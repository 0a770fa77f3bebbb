import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAgentLogger } from './log-sink.ts';

describe('createAgentLogger', () => {
  it('writes JSON lines with a component field; debug only at -v 4', () => {
    for (const [verbosity, want] of [[0, 2], [4, 3]] as const) {
      const lines: string[] = [];
      const log = createAgentLogger({ write: (l) => lines.push(l), pretty: false, verbosity });
      log.info('listening', { server: 'kubelet', port: 10250 });
      log.child('pki').warn('reused');
      log.debug('noise');
      assert.equal(lines.length, want);
      const first = JSON.parse(lines[0] ?? '');
      assert.equal(first.component, 'agent');
      assert.ok((lines[0] ?? '').includes('"msg":"listening","server":"kubelet","port":10250'));
      assert.equal(JSON.parse(lines[1] ?? '').component, 'pki');
    }
  });

  it('pretty format is one readable line, plus the machine-readable listening line', () => {
    const lines: string[] = [];
    const log = createAgentLogger({ write: (l) => lines.push(l), pretty: true, verbosity: 0 });
    log.info('listening', { server: 'healthz', port: 10248 });
    assert.match(lines[0] ?? '', /^\d\d:\d\d:\d\d\.\d{3} INF \[agent\] listening server=healthz port=10248\n$/);
    assert.equal(lines[1], '{"msg":"listening","server":"healthz","port":10248}\n');
  });
});
