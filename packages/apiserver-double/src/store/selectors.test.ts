import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matches, parseFieldSelector, parseLabelSelector } from './selectors.ts';

test('label selectors', () => {
  const labels: Record<string, string> = { app: 'web', tier: 'fe' };
  const get = (k: string) => labels[k];
  const cases: [string, boolean][] = [
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app!=web', false],
    ['app=web,tier=be', false],
    ['app in (web, api)', true],
    ['app notin (web)', false],
    ['tier,app', true],
    ['!missing', true],
    ['missing', false],
    ['missing!=x', true],
  ];
  for (const [sel, want] of cases) {
    const p = parseLabelSelector(sel);
    assert.ok(p.ok, sel);
    assert.equal(p.ok && matches(p.reqs, get), want, sel);
  }
  assert.equal(parseLabelSelector('a in b').ok, false);
});

test('field selectors', () => {
  const fields: Record<string, string> = { 'spec.nodeName': 'n1', 'metadata.name': 'p' };
  const get = (k: string) => fields[k];
  const cases: [string, boolean][] = [
    ['spec.nodeName=n1', true],
    ['spec.nodeName==n1,metadata.name=p', true],
    ['spec.nodeName!=n1', false],
    ['spec.nodeName=', false],
  ];
  for (const [sel, want] of cases) {
    const p = parseFieldSelector(sel);
    assert.ok(p.ok, sel);
    assert.equal(p.ok && matches(p.reqs, get), want, sel);
  }
  assert.equal(parseFieldSelector('nodeName').ok, false);
});
