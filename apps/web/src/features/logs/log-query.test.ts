import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downloadName, logUrl, parseDuration, refusalMessage, type LogForm } from './log-query.ts';

const form = (f: Partial<LogForm>): LogForm => ({ container: 'main', previous: false, follow: false, tailLines: '', since: '', ...f });
const t = { namespace: 'default', pod: 'web' };

test('logUrl: the form becomes the agent containerLogs query (timestamps always on)', () => {
  assert.deepEqual(logUrl(t, form({})), { ok: true, url: '/containerLogs/default/web/main?timestamps=true' });
  assert.deepEqual(logUrl(t, form({ follow: true, previous: true, tailLines: ' 100 ', since: '2h30m' })), {
    ok: true, url: '/containerLogs/default/web/main?timestamps=true&follow=true&previous=true&tailLines=100&sinceSeconds=9000',
  });
  assert.deepEqual(logUrl({ ...t, agent: 'n2' }, form({ since: '2026-11-26T05:00:00Z' })), {
    ok: true, url: '/agents/n2/containerLogs/default/web/main?timestamps=true&sinceTime=2026-11-26T05%3A00%3A00Z',
  });
  assert.equal((logUrl({ namespace: 'a b', pod: 'p/q' }, form({ container: 'c' })) as { url: string }).url, '/containerLogs/a%20b/p%2Fq/c?timestamps=true');
});

test('logUrl: bad input is named before anything is sent (the kubelet\'s ValidatePodLogOptions wording)', () => {
  const bad: Array<[Partial<LogForm>, string, string]> = [
    [{ tailLines: '-1' }, 'tailLines', 'tailLines: Invalid value: -1: must be greater than or equal to 0'],
    [{ tailLines: 'ten' }, 'tailLines', 'tailLines: Invalid value: "ten": must be an integer'],
    [{ tailLines: '1.5' }, 'tailLines', 'tailLines: Invalid value: "1.5": must be an integer'],
    [{ since: '0s' }, 'since', 'sinceSeconds: Invalid value: 0: must be greater than 0'],
    [{ since: '-5m' }, 'since', 'since: Invalid value: "-5m": a duration (90s, 5m, 1h) or an RFC3339 time (2026-01-02T15:04:05Z)'],
    [{ since: 'yesterday' }, 'since', 'since: Invalid value: "yesterday": a duration (90s, 5m, 1h) or an RFC3339 time (2026-01-02T15:04:05Z)'],
    [{ container: '' }, 'container', 'container: Required value: pick a container'],
  ];
  for (const [f, field, message] of bad) assert.deepEqual(logUrl(t, form(f)), { ok: false, field, message }, JSON.stringify(f));
});

test('parseDuration and downloadName', () => {
  assert.deepEqual(['90s', '5m', '1h', '1h1m1s', '5', 'm', '1d'].map(parseDuration), [90, 300, 3600, 3661, null, null, null]);
  assert.equal(downloadName('web', 'main', true), 'web_main_previous.log');
  assert.equal(downloadName('we b', 'ma/in', false), 'we_b_ma_in.log');
});

test('refusalMessage: the agent\'s text, the console\'s JSON error, the proxy\'s tRPC-shaped error', () => {
  assert.equal(refusalMessage(404, 'container "ghost" not found in pod "web"\n'), 'container "ghost" not found in pod "web"');
  assert.equal(refusalMessage(404, '{"error":"not found: /containerLogs/a"}'), 'not found: /containerLogs/a');
  assert.equal(refusalMessage(502, '{"error":{"message":"agent unreachable: ECONNREFUSED 127.0.0.1:1","code":-32603}}'), 'agent unreachable: ECONNREFUSED 127.0.0.1:1');
  assert.equal(refusalMessage(500, ''), 'the agent answered 500');
  assert.equal(refusalMessage(400, '[1]'), '[1]');
});
