import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createChannel, isSubscribedInStore } from '../helpers/channels.js';
import { CALLERS, castOf, type Cast, groupId } from '../helpers/people.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const PASSWORD = 'a long enough password';

const storedUsers = async (ts: TestServer) => {
  await ts.store.settled();
  return JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8')).users as Record<string, unknown>[];
};

describe('POST /users and first login', () => {
  let ts: TestServer;
  let cast: Cast;
  let now = Date.parse('2026-01-05T10:00:00Z');
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    cast = await castOf(ts);
  });
  after(() => ts.stop());

  it('role matrix: administrators create accounts; nobody else creates anything', async () => {
    for (const caller of CALLERS) {
      const before = (await storedUsers(ts)).length;
      const email = `new-${caller}@example.com`;
      const res = await cast.client(caller).post('/users', { email, password: PASSWORD, full_name: `New ${caller}` });
      const ok = caller === 'owner' || caller === 'admin';
      const expected = ok ? 200 : caller === 'deactivated' || caller === 'anonymous' ? 401 : 400;
      assert.equal(res.status, expected, `${caller}: ${JSON.stringify(res.body)}`);
      const users = await storedUsers(ts);
      assert.equal(users.length, before + (ok ? 1 : 0), caller);
      if (ok) {
        const u = users.find((x) => x.email === email)!;
        assert.equal(res.body.user_id, u.id);
        assert.equal(u.role, 400);
        assert.equal(u.is_bot, false);
      }
    }
  });

  it('the new account is announced (realm_user add, role groups) to everyone (verifyAction)', async () => {
    let id = 0;
    const events = await verifyAction(cast.client('member'), async () => {
      const res = await cast.client('admin').post('/users', { email: 'announced@example.com', password: PASSWORD, full_name: 'Ann' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.user_id;
    });
    const shapes = events.map(({ id: _i, ...e }) => e);
    const add = shapes.find((e) => e.type === 'realm_user') as { op: string; person: Record<string, unknown> };
    assert.equal(add.op, 'add');
    assert.equal(add.person.user_id, id);
    assert.equal(add.person.full_name, 'Ann');
    assert.deepEqual(add.person.profile_data, {});
    assert.equal(add.person.date_joined, '2026-01-05T10:00+00:00');
    assert.deepEqual(
      shapes.filter((e) => e.type === 'user_group').map((e) => e.group_id),
      [groupId(ts, 'role:fullmembers'), groupId(ts, 'role:members')],
    );
  });

  it("the new account is subscribed to the organization's default channels, announced to their subscribers (verifyAction)", async () => {
    const lobby = await createChannel(ts, ts.ownerClient, 'lobby', { principals: [ts.owner.id, cast.member.id] });
    const other = await createChannel(ts, ts.ownerClient, 'side room', { principals: [ts.owner.id] });
    assert.equal((await ts.ownerClient.post('/default_streams', { stream_id: lobby })).status, 200);
    let id = 0;
    const events = await verifyAction(
      cast.client('member'),
      async () => {
        const res = await cast.client('admin').post('/users', { email: 'joiner@example.com', password: PASSWORD, full_name: 'Joy' });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        id = res.body.user_id;
      },
      { include_subscribers: 'true' },
    );
    assert.ok(isSubscribedInStore(ts, id, lobby), 'subscribed to the default channel');
    assert.ok(!isSubscribedInStore(ts, id, other), 'not to another channel');
    const stored = JSON.parse(await readFile(join(ts.dataDir, 'subscriptions.json'), 'utf8')).subscriptions;
    assert.ok(stored.some((s: { user_id: number; stream_id: number; active: boolean }) => s.user_id === id && s.stream_id === lobby && s.active));
    const peer = events.find((e) => e.type === 'subscription' && e.op === 'peer_add') as { stream_ids: number[]; user_ids: number[] };
    assert.deepEqual([peer.stream_ids, peer.user_ids], [[lobby], [id]]);
    const login = await fetch(`${ts.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'joiner@example.com', password: PASSWORD }).toString(),
    });
    const { api_key: apiKey } = (await login.json()) as { api_key: string };
    const mine = await ts.client({ id, email: 'joiner@example.com', apiKey, password: PASSWORD }).get('/users/me/subscriptions');
    assert.deepEqual(mine.body.subscriptions.map((s: { name: string }) => s.name), ['lobby']);
    assert.equal((await ts.ownerClient.delete('/default_streams', { stream_id: lobby })).status, 200);
  });

  it('validation: email, duplicates, password length, names', async () => {
    const admin = cast.client('admin');
    const cases: [Record<string, string>, string][] = [
      [{ email: 'nope', password: PASSWORD, full_name: 'X' }, "Invalid email 'nope'"],
      [{ email: cast.member.email, password: PASSWORD, full_name: 'X' }, `Email '${cast.member.email}' already in use`],
      [{ email: 'short@example.com', password: 'short', full_name: 'X' }, 'The password is too short: use at least 8 characters.'],
      [{ email: 'name@example.com', password: PASSWORD, full_name: '  ' }, 'Name too short!'],
      [{ email: 'name@example.com', password: PASSWORD, full_name: 'a@b' }, 'Invalid characters in name!'],
    ];
    const before = (await storedUsers(ts)).length;
    for (const [params, msg] of cases) {
      const res = await admin.post('/users', params);
      assert.equal(res.status, 400);
      assert.equal(res.body.msg, msg);
    }
    const missing = await admin.post('/users', { email: 'm@example.com', password: PASSWORD });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.equal((await storedUsers(ts)).length, before);
  });

  it('date_joined is the creation time until the first login, then that login (announced)', async () => {
    now = Date.parse('2026-01-06T08:00:00Z');
    const res = await cast.client('admin').post('/users', { email: 'late@example.com', password: PASSWORD, full_name: 'Late' });
    const id = res.body.user_id as number;
    let u = await cast.client('member').get(`/users/${id}`);
    assert.equal(u.body.user.date_joined, '2026-01-06T08:00+00:00');
    now = Date.parse('2026-02-01T09:30:00Z');
    const events = await verifyAction(cast.client('member'), async () => {
      const login = await ts.anonymous.post('/fetch_api_key', { username: 'late@example.com', password: PASSWORD });
      assert.equal(login.status, 200, JSON.stringify(login.body));
    });
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [
      { type: 'realm_user', op: 'update', person: { user_id: id, date_joined: '2026-02-01T09:30+00:00' } },
    ]);
    u = await cast.client('member').get(`/users/${id}`);
    assert.equal(u.body.user.date_joined, '2026-02-01T09:30+00:00');
    // Later logins change nothing.
    now = Date.parse('2026-03-01T00:00:00Z');
    await ts.anonymous.post('/fetch_api_key', { username: 'late@example.com', password: PASSWORD });
    u = await cast.client('member').get(`/users/${id}`);
    assert.equal(u.body.user.date_joined, '2026-02-01T09:30+00:00');
  });

  it('restricted guests get an "Unknown user" add, or nothing with user_list_incomplete', async () => {
    ts.store.realm.data.realm!.settings.can_access_all_users_group = groupId(ts, 'role:members');
    try {
      const guest = cast.client('guest');
      const plain = await verifyAction(guest, async () => {
        await cast.client('admin').post('/users', { email: 'hidden1@example.com', password: PASSWORD, full_name: 'Hidden' });
      });
      const add = plain.find((e) => e.type === 'realm_user') as { person: Record<string, unknown> };
      assert.equal(add.person.full_name, 'Unknown user');
      assert.ok(!('unknown_user' in add));
      const incomplete = await verifyAction(
        guest,
        async () => {
          await cast.client('admin').post('/users', { email: 'hidden2@example.com', password: PASSWORD, full_name: 'Hidden 2' });
        },
        { client_capabilities: { user_list_incomplete: true } },
      );
      assert.ok(!incomplete.some((e) => e.type === 'realm_user'));
    } finally {
      delete ts.store.realm.data.realm!.settings.can_access_all_users_group;
    }
  });
});
