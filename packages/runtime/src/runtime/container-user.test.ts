// The process user as containerd 1.6 sets it. Expected values from containerd's oci/spec_opts.go (WithUserID:
// "if uid is not found in /etc/passwd, it sets the requested uid, additionally sets the gid to 0"; WithUsername;
// WithUser "user:group"; WithAdditionalGIDs: groups of /etc/group listing the user, not its own group, the primary
// gid first — the CVE-2023-25173 fix in 1.6.18) and pkg/cri/server/container_create_linux.go (generateUserString:
// runAsUsername over runAsUser, ":" runAsGroup; CRI supplementalGroups appended).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LinuxContainerSecurityContext__Output } from '../../../../proto/gen/runtime/v1/LinuxContainerSecurityContext.ts';
import { resolveContainerUser } from './container-user.ts';

const root = mkdtempSync(join(tmpdir(), 'container-user-'));
after(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'etc'));
writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nwww:x:33:33::/var/www:/bin/false\napp:x:1000:1000::/home/app:/bin/sh\n');
writeFileSync(join(root, 'etc/group'), 'root:x:0:\nwheel:x:10:root,app\nwww:x:33:\napp:x:1000:app\naudio:x:29:app\n');

const sc = (p: Partial<LinuxContainerSecurityContext__Output>) => p as LinuxContainerSecurityContext__Output;

test('runAsUser: gid and groups from the image files; a uid they do not know gets gid 0', () => {
  assert.deepEqual(resolveContainerUser(sc({ runAsUser: { value: 1000 } }), '', root), { ok: true, uid: 1000, gid: 1000, groups: [1000, 10, 29] });
  assert.deepEqual(resolveContainerUser(sc({ runAsUser: { value: 0 } }), '', root), { ok: true, uid: 0, gid: 0, groups: [0, 10] });
  assert.deepEqual(resolveContainerUser(sc({ runAsUser: { value: 4242 } }), '', root), { ok: true, uid: 4242, gid: 0, groups: [0] });
  assert.deepEqual(resolveContainerUser(sc({ runAsUser: { value: 4242 } }), '', '/nonexistent'), { ok: true, uid: 4242, gid: 0, groups: [0] });
});

test('runAsGroup overrides the gid; CRI supplementalGroups come last', () => {
  assert.deepEqual(
    resolveContainerUser(sc({ runAsUser: { value: 1000 }, runAsGroup: { value: 3000 }, supplementalGroups: [2000, 1001] }), '', root),
    { ok: true, uid: 1000, gid: 3000, groups: [3000, 10, 29, 2000, 1001] },
  );
  assert.deepEqual(resolveContainerUser(sc({ runAsGroup: { value: 3000 } }), '', root), { ok: false, message: 'user group "3000" is specified without user' });
});

test('runAsUsername and the image USER (name, uid:gid, name:group)', () => {
  assert.deepEqual(resolveContainerUser(sc({ runAsUsername: 'www' }), '', root), { ok: true, uid: 33, gid: 33, groups: [33] });
  assert.deepEqual(resolveContainerUser(undefined, 'app', root), { ok: true, uid: 1000, gid: 1000, groups: [1000, 10, 29] });
  assert.deepEqual(resolveContainerUser(undefined, '5:6', root), { ok: true, uid: 5, gid: 6, groups: [6] });
  assert.deepEqual(resolveContainerUser(undefined, 'app:audio', root), { ok: true, uid: 1000, gid: 29, groups: [10, 29] });
  assert.deepEqual(resolveContainerUser(sc({ runAsUsername: 'nobody' }), '', root), { ok: false, message: 'no users found for "nobody" in /etc/passwd' });
  assert.deepEqual(resolveContainerUser(undefined, '', root), { ok: true });
});
