import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CALLERS, castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function upload(client: Client, files: { data: Buffer; type: string }[]) {
  const form = new FormData();
  files.forEach((f, i) => form.append(`f${i}`, new Blob([new Uint8Array(f.data)], { type: f.type }), `a${i}.png`));
  const res = await fetch(`${client.baseUrl}/api/v1/users/me/avatar`, { method: 'POST', headers: client.authHeader, body: form });
  return { status: res.status, body: await res.json() };
}

async function fetchAvatar(ts: TestServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${ts.url}${path}`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

describe('avatars: GET /avatar/{id}, POST/DELETE /users/me/avatar', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
  });
  after(() => ts.stop());

  it('a generated default PNG per user, 100 px and 500 px (medium), no third party involved', async () => {
    const a = await fetchAvatar(ts, `/avatar/${cast.member.id}?v=1`);
    assert.equal(a.status, 200);
    assert.equal(a.type, 'image/png');
    assert.ok(a.body.subarray(0, 8).equals(SIGNATURE));
    assert.equal(a.body.readUInt32BE(16), 100);
    assert.equal(a.headers.get('x-content-type-options'), 'nosniff');
    const again = await fetchAvatar(ts, `/avatar/${cast.member.id}`);
    assert.ok(again.body.equals(a.body), 'deterministic');
    const other = await fetchAvatar(ts, `/avatar/${cast.admin.id}`);
    assert.ok(!other.body.equals(a.body), 'differs between users');
    const medium = await fetchAvatar(ts, `/avatar/${cast.member.id}/medium`);
    assert.equal(medium.body.readUInt32BE(16), 500);
    assert.equal((await fetchAvatar(ts, '/avatar/999999')).status, 404);
    // By email: signed-in requesters only.
    const byEmail = await fetchAvatar(ts, `/avatar/${cast.member.email}`, cast.client('admin').authHeader);
    assert.ok(byEmail.body.equals(a.body));
    assert.equal((await fetchAvatar(ts, `/avatar/${cast.member.email}`)).status, 401);
    assert.equal((await fetchAvatar(ts, '/avatar/nobody@example.com', cast.client('admin').authHeader)).status, 404);
    assert.equal((await fetchAvatar(ts, '/avatar/abc')).status, 400);
  });

  it('role matrix for POST /users/me/avatar: every active account (bots included); not deactivated or anonymous', async () => {
    for (const caller of CALLERS) {
      const res = await upload(cast.client(caller), [{ data: PNG, type: 'image/png' }]);
      const ok = !['deactivated', 'anonymous'].includes(caller);
      assert.equal(res.status, ok ? 200 : 401, `${caller}: ${JSON.stringify(res.body)}`);
      if (caller === 'anonymous') continue;
      const u = ts.store.users.get(cast[caller].id)!;
      assert.equal(u.avatar !== undefined, ok, caller);
      if (ok) assert.equal(res.body.avatar_url, `/avatar/${u.id}?v=${u.avatar_version}`);
    }
  });

  it('upload and delete are announced (verifyAction), stored, served, and the old file is removed', async () => {
    const me = await ts.addUser('Ava');
    const client = ts.client(me);
    const events = await verifyAction(client, async () => {
      const res = await upload(client, [{ data: PNG, type: 'image/png' }]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [
      {
        type: 'realm_user',
        op: 'update',
        person: {
          user_id: me.id,
          avatar_source: 'U',
          avatar_url: `/avatar/${me.id}?v=2`,
          avatar_url_medium: `/avatar/${me.id}/medium?v=2`,
          avatar_version: 2,
        },
      },
    ]);
    const stored = ts.store.users.get(me.id)!.avatar!;
    const file = join(ts.dataDir, 'avatars', stored.file);
    assert.ok(existsSync(file));
    const served = await fetchAvatar(ts, `/avatar/${me.id}?v=2`);
    assert.ok(served.body.equals(PNG));
    assert.equal(served.type, 'image/png');
    await verifyAction(cast.client('member'), async () => {
      const res = await client.delete('/users/me/avatar');
      assert.equal(res.status, 200);
      assert.equal(res.body.avatar_url, `/avatar/${me.id}?v=3`);
    });
    assert.equal(ts.store.users.get(me.id)!.avatar, undefined);
    assert.ok(!existsSync(file));
    const back = await fetchAvatar(ts, `/avatar/${me.id}?v=3`);
    assert.equal(back.body.readUInt32BE(16), 100);
  });

  it('refuses no file, two files and non-images; nothing changes', async () => {
    const client = cast.client('member');
    const before = ts.store.users.get(cast.member.id)!.avatar_version;
    let res = await upload(client, []);
    assert.equal(res.body.msg, 'You must upload exactly one avatar.');
    res = await upload(client, [
      { data: PNG, type: 'image/png' },
      { data: PNG, type: 'image/png' },
    ]);
    assert.equal(res.body.msg, 'You must upload exactly one avatar.');
    res = await upload(client, [{ data: Buffer.from('<svg onload="x"/>'), type: 'image/png' }]);
    assert.equal(res.status, 400);
    assert.match(res.body.msg, /Invalid image format/);
    assert.equal(ts.store.users.get(cast.member.id)!.avatar_version, before);
  });

  it('a guest who may not access a user gets the neutral tile, not their image', async () => {
    const membersGroup = ts.store.groups.data.groups.find((g) => g.name === 'role:members')!.id;
    ts.store.realm.data.realm!.settings.can_access_all_users_group = membersGroup;
    try {
      const hidden = await fetchAvatar(ts, `/avatar/${cast.admin.id}`, cast.client('guest').authHeader);
      const neutral = await fetchAvatar(ts, `/avatar/${cast.moderator.id}`, cast.client('guest').authHeader);
      assert.equal(hidden.status, 200);
      assert.ok(hidden.body.equals(neutral.body));
      const real = await fetchAvatar(ts, `/avatar/${cast.admin.id}`, cast.client('member').authHeader);
      assert.ok(!real.body.equals(hidden.body));
    } finally {
      delete ts.store.realm.data.realm!.settings.can_access_all_users_group;
    }
  });
});
