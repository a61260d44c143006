import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { CALLERS, castOf, type Cast, groupId } from '../helpers/people.js';
import { startTestServer, type Account, type TestServer } from '../helpers/server.js';
import { drain, stateOf, verifyAction } from '../helpers/verify-action.js';
import { applyEvents } from '../helpers/apply-events.js';

const storedUser = async (ts: TestServer, id: number) => {
  await ts.store.settled();
  const doc = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8'));
  return doc.users.find((u: { id: number }) => u.id === id);
};

describe('PATCH /users/{user_id} and /users/{email}', () => {
  let ts: TestServer;
  let cast: Cast;
  let target: Account;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
  });
  beforeEach(async () => {
    target = await ts.addUser('Tara');
  });
  after(() => ts.stop());

  it('role matrix: only administrators and owners may change a name', async () => {
    const expected: Record<string, [number, string | null]> = {
      owner: [200, null],
      admin: [200, null],
      moderator: [400, 'Must be an organization administrator'],
      member: [400, 'Must be an organization administrator'],
      guest: [400, 'Must be an organization administrator'],
      bot: [400, 'Must be an organization administrator'],
      deactivated: [401, 'Account is deactivated'],
      anonymous: [401, 'Not logged in: API authentication or user session required'],
    };
    let current = 'Tara';
    for (const caller of CALLERS) {
      const name = `Tara ${caller}`;
      const res = await cast.client(caller).patch(`/users/${target.id}`, { full_name: name });
      const [status, msg] = expected[caller]!;
      assert.equal(res.status, status, `${caller}: ${JSON.stringify(res.body)}`);
      if (msg) assert.equal(res.body.msg, msg, caller);
      if (status === 200) current = name;
      assert.equal((await storedUser(ts, target.id)).full_name, current, caller);
    }
    assert.equal((await storedUser(ts, target.id)).full_name, 'Tara admin');
  });

  it('role changes: announced, stored, system groups and channel access follow (verifyAction)', async () => {
    const admin = cast.client('admin');
    const events = await verifyAction(admin, async () => {
      const res = await admin.patch(`/users/${target.id}`, { role: 300 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.equal((await storedUser(ts, target.id)).role, 300);
    const shapes = events.map(({ id: _id, ...e }) => e);
    assert.deepEqual(
      shapes.filter((e) => e.type === 'realm_user'),
      [{ type: 'realm_user', op: 'update', person: { user_id: target.id, role: 300 } }],
    );
    const groupEvents = shapes.filter((e) => e.type === 'user_group');
    assert.deepEqual(groupEvents, [
      { type: 'user_group', op: 'remove_members', group_id: groupId(ts, 'role:fullmembers'), user_ids: [target.id] },
      { type: 'user_group', op: 'remove_members', group_id: groupId(ts, 'role:members'), user_ids: [target.id] },
      { type: 'user_group', op: 'add_members', group_id: groupId(ts, 'role:moderators'), user_ids: [target.id] },
    ]);
    // The target's own clients: their register fields follow (is_moderator), and a private channel
    // administered by moderators appears.
    const mine = ts.client(target);
    await verifyAction(mine, async () => {
      const res = await admin.patch(`/users/${target.id}`, { role: 400 });
      assert.equal(res.status, 200);
    }, { fetch_event_types: ['realm_user', 'user_group'], event_types: ['realm_user', 'user_group'] });
    const me = await mine.post('/register', { fetch_event_types: ['realm_user'] });
    assert.equal(me.body.is_moderator, false);
    // A deactivated user's role changes too, without touching any group.
    const gone = await verifyAction(admin, async () => {
      const res = await admin.patch(`/users/${cast.deactivated.id}`, { role: 600 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.deepEqual(gone.map((e) => e.type), ['realm_user']);
    assert.equal((await storedUser(ts, cast.deactivated.id)).role, 600);
  });

  it('a guest who becomes a member gains the public channels (stream create)', async () => {
    const guest = await ts.addUser('Gail', 600);
    const streamId = await createChannel(ts, ts.ownerClient, `open-${guest.id}`);
    const events = await verifyAction(ts.client(guest), async () => {
      const res = await cast.client('admin').patch(`/users/${guest.id}`, { role: 400 });
      assert.equal(res.status, 200);
    }, { fetch_event_types: ['stream', 'subscription'], event_types: ['stream', 'subscription'] });
    const created = events.find((e) => e.type === 'stream' && e.op === 'create') as { streams: { stream_id: number }[] };
    assert.ok(created?.streams.some((s) => s.stream_id === streamId), JSON.stringify(events));
  });

  it('a restricted guest promoted or demoted sees a different set of users (realm_users follow the events)', async () => {
    ts.store.realm.data.realm!.settings.can_access_all_users_group = groupId(ts, 'role:members');
    try {
      const guest = await ts.addUser('Gwen', 600);
      const client = ts.client(guest);
      for (const [role, caps] of [
        [400, {}],
        [600, {}],
        [400, { user_list_incomplete: true }],
        [600, { user_list_incomplete: true }],
      ] as const) {
        const params = { fetch_event_types: ['realm_user'], event_types: ['realm_user'], client_capabilities: caps };
        const reg = await client.post('/register', params);
        const res = await cast.client('owner').patch(`/users/${guest.id}`, { role });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const events = await drain(client, reg.body.queue_id, reg.body.last_event_id);
        const applied = applyEvents(stateOf(reg.body), events);
        const fresh = await client.post('/register', params);
        assert.deepEqual(applied.realm_users, fresh.body.realm_users, `role ${role} ${JSON.stringify(caps)}`);
        const names = (fresh.body.realm_users as { full_name: string }[]).map((u) => u.full_name);
        assert.equal(names.includes('Unknown user'), role === 600 && !('user_list_incomplete' in caps));
        if (role === 600 && 'user_list_incomplete' in caps) assert.ok(events.some((e) => e.op === 'remove'));
      }
    } finally {
      delete ts.store.realm.data.realm!.settings.can_access_all_users_group;
    }
  });

  it('owner role: only owners give or take it, never from the only owner; roles outside the five are refused', async () => {
    const admin = cast.client('admin');
    let res = await admin.patch(`/users/${target.id}`, { role: 100 });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Must be an organization owner');
    res = await admin.patch(`/users/${cast.owner.id}`, { role: 400 });
    assert.equal(res.body.msg, 'Must be an organization owner');
    assert.equal((await storedUser(ts, cast.owner.id)).role, 100);
    res = await admin.patch(`/users/${target.id}`, { role: 500 });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Invalid role');
    res = await admin.patch(`/users/${target.id}`, { is_admin: true, is_guest: true });
    assert.equal(res.body.msg, 'Guests cannot be organization administrators');
    assert.equal((await storedUser(ts, target.id)).role, 400);

    const owner = cast.client('owner');
    res = await owner.patch(`/users/${target.id}`, { role: 100 });
    assert.equal(res.status, 200);
    assert.equal((await storedUser(ts, target.id)).role, 100);
    res = await owner.patch(`/users/${target.id}`, { role: 200 });
    assert.equal(res.status, 200);
    // With two other owners around, demoting the founder works; the last owner is protected.
    const solo = await startTestServer();
    try {
      const selfDemote = await solo.ownerClient.patch(`/users/${solo.owner.id}`, { role: 200 });
      assert.equal(selfDemote.status, 400);
      assert.equal(selfDemote.body.msg, 'The owner permission cannot be removed from the only organization owner.');
      assert.equal(solo.store.users.get(solo.owner.id)!.role, 100);
    } finally {
      await solo.stop();
    }
  });

  it('the email in the path: the real one when visible, otherwise user{id}@host', async () => {
    ts.store.realm.data.realm!.settings.email_address_visibility = 4; // nobody
    try {
      const admin = cast.client('admin');
      let res = await admin.patch(`/users/${target.email}`, { full_name: 'By Real Email' });
      assert.equal(res.status, 400);
      assert.equal(res.body.msg, 'No such user');
      res = await admin.patch(`/users/user${target.id}@hearth.local`, { full_name: 'By Dummy Email' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await storedUser(ts, target.id)).full_name, 'By Dummy Email');
    } finally {
      ts.store.realm.data.realm!.settings.email_address_visibility = 1;
    }
    const res = await cast.client('admin').patch(`/users/${target.email}`, { full_name: 'By Real Email' });
    assert.equal(res.status, 200);
    assert.equal((await storedUser(ts, target.id)).full_name, 'By Real Email');
  });

  it('full_name rules; blank names are ignored like Zulip', async () => {
    const admin = cast.client('admin');
    for (const [name, msg] of [
      ['x'.repeat(101), 'Name too long!'],
      ['Bad*Name', 'Invalid characters in name!'],
      ['Name|12', 'Invalid format!'],
    ] as const) {
      const res = await admin.patch(`/users/${target.id}`, { full_name: name });
      assert.equal(res.body.msg, msg);
    }
    const blank = await admin.patch(`/users/${target.id}`, { full_name: '   ' });
    assert.equal(blank.status, 200);
    assert.equal((await storedUser(ts, target.id)).full_name, 'Tara');
    const events = await verifyAction(cast.client('member'), async () => {
      await admin.patch(`/users/${target.id}`, { full_name: '  Tara Renamed ' });
    });
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [
      { type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: 'Tara Renamed' } },
    ]);
  });

  it('new_email needs an owner holding can_change_user_emails; it is announced and becomes the login', async () => {
    let res = await cast.client('admin').patch(`/users/${target.id}`, { new_email: 'new@example.com' });
    assert.equal(res.body.msg, 'Must be an organization owner');
    res = await cast.client('owner').patch(`/users/${target.id}`, { new_email: 'new@example.com' });
    assert.equal(res.body.msg, 'User not authorized to change user emails');
    res = await ts.ownerClient.patch(`/users/${target.id}`, { new_email: 'not-an-email' });
    assert.equal(res.body.msg, "Invalid email 'not-an-email'");
    res = await ts.ownerClient.patch(`/users/${target.id}`, { new_email: cast.admin.email });
    assert.match(res.body.msg, /already in use/);
    const newEmail = `tara${target.id}@new.example.com`;
    const events = await verifyAction(cast.client('member'), async () => {
      res = await ts.ownerClient.patch(`/users/${target.id}`, { new_email: newEmail });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [
      { type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: newEmail } },
      { type: 'realm_user', op: 'update', person: { user_id: target.id, new_email: newEmail } },
    ]);
    assert.equal((await storedUser(ts, target.id)).email, newEmail);
    const me = await ts.client({ ...target, email: newEmail }).get('/users/me');
    assert.equal(me.status, 200);
    assert.equal((await ts.client(target).get('/users/me')).status, 401);
  });

  it('unknown targets and a bad path answer clearly; nothing changes', async () => {
    const admin = cast.client('admin');
    const res = await admin.patch('/users/987654', { full_name: 'Ghost' });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'No such user');
    const bad = await admin.patch('/users/not-a-user', { full_name: 'Ghost' });
    assert.equal(bad.body.msg, 'No such user');
    const json = await admin.patch(`/users/${target.id}`, { role: 'admin' });
    assert.equal(json.status, 400);
    assert.equal((await storedUser(ts, target.id)).role, 400);
  });
});
