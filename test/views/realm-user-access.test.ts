import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const storedRealm = async (ts: TestServer) => JSON.parse(await readFile(join(ts.dataDir, 'realm.json'), 'utf8')).realm;

/** PATCH /realm can_access_all_users_group: who sees every user (Zulip limits it to everyone or members). */
describe('the organization setting can_access_all_users_group', () => {
  let ts: TestServer;
  let admin: Client;
  let member: Client;
  let guest: Client;
  let moderatorId: number;
  const id = (name: string) => ts.store.groups.data.groups.find((g) => g.name === name)!.id;
  before(async () => {
    ts = await startTestServer();
    admin = ts.client(await ts.addUser('Adam', 200));
    member = ts.client(await ts.addUser('Mona'));
    moderatorId = (await ts.addUser('Moe', 300)).id;
    guest = ts.client(await ts.addUser('Gwen', 600));
  });
  after(() => ts.stop());

  it('defaults to role:everyone in register', async () => {
    const reg = await member.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_can_access_all_users_group, id('role:everyone'));
  });

  it('refuses other groups, anonymous groups and non-administrators, storing nothing', async () => {
    const before = await storedRealm(ts);
    const refused: [Client, Record<string, unknown>, RegExp][] = [
      [admin, { can_access_all_users_group: { new: id('role:moderators') } }, /cannot be set to 'role:moderators'/],
      [admin, { can_access_all_users_group: { new: { direct_members: [moderatorId], direct_subgroups: [] } } }, /./],
      [admin, { can_access_all_users_group: { new: 99999 } }, /Invalid user group/],
      [member, { can_access_all_users_group: { new: id('role:members') } }, /Must be an organization administrator/],
    ];
    for (const [client, params, msg] of refused) {
      const res = await client.patch('/realm', params as Record<string, object>);
      assert.equal(res.status, 400, JSON.stringify([params, res.body]));
      assert.equal(res.body.result, 'error');
      assert.match(res.body.msg, msg);
    }
    assert.deepEqual(await storedRealm(ts), before);
  });

  it('limits guests to the people they share a channel or DM with; they hear of the change by events', async () => {
    const events = await verifyAction(guest, () => admin.patch('/realm', { can_access_all_users_group: { new: id('role:members') } }), {
      fetch_event_types: ['realm', 'realm_user'],
      client_capabilities: { user_list_incomplete: true },
    });
    assert.equal((await storedRealm(ts)).settings.can_access_all_users_group, id('role:members'));
    assert.ok(events.some((e) => e.type === 'realm' && e.op === 'update_dict'), JSON.stringify(events));
    assert.ok(events.some((e) => e.type === 'realm_user' && e.op === 'remove'), JSON.stringify(events));
    const users = await guest.get('/users');
    assert.ok(!users.body.members.some((m: { user_id: number }) => m.user_id === moderatorId));
    // Members still see everyone.
    assert.ok((await member.get('/users')).body.members.some((m: { user_id: number }) => m.user_id === moderatorId));

    // Back to everyone: the guest gets the people back.
    const back = await verifyAction(guest, () => admin.patch('/realm', { can_access_all_users_group: { new: id('role:everyone') } }), {
      fetch_event_types: ['realm', 'realm_user'],
      client_capabilities: { user_list_incomplete: true },
    });
    assert.ok(back.some((e) => e.type === 'realm_user' && e.op === 'add'), JSON.stringify(back));
    assert.ok((await guest.get('/users')).body.members.some((m: { user_id: number }) => m.user_id === moderatorId));
  });
});

/** PATCH /realm max_file_upload_size_mib: Hearth's administrator sets what Zulip sets per server. */
describe('the organization setting max_file_upload_size_mib', () => {
  let ts: TestServer;
  let admin: Client;
  let member: Client;
  before(async () => {
    ts = await startTestServer({ config: { fileLimitBytes: 40 * 1024 * 1024 } });
    admin = ts.client(await ts.addUser('Adam', 200));
    member = ts.client(await ts.addUser('Mona'));
  });
  after(() => ts.stop());

  const upload = async (client: Client, bytes: number) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'blob.bin');
    const res = await fetch(`${client.baseUrl}/api/v1/user_uploads`, { method: 'POST', headers: client.authHeader, body: form });
    return { status: res.status, body: await res.json() };
  };

  it('is validated against the server ceiling and changed by administrators only', async () => {
    const before = await storedRealm(ts);
    for (const [client, value, msg] of [
      [admin, 0, /between 1 and 40/],
      [admin, 41, /between 1 and 40/],
      [admin, 'big', /./],
      [member, 10, /Must be an organization administrator/],
    ] as [Client, unknown, RegExp][]) {
      const res = await client.patch('/realm', { max_file_upload_size_mib: value as number });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.msg, msg);
    }
    assert.deepEqual(await storedRealm(ts), before);
  });

  it('raised above the form-body limit, a larger upload goes through; lowered, it is refused', async () => {
    await verifyAction(member, () => admin.patch('/realm', { max_file_upload_size_mib: 34 }), { fetch_event_types: ['realm'] });
    assert.equal((await storedRealm(ts)).settings.max_file_upload_size_mib, 34);
    const big = await upload(member, 33 * 1024 * 1024); // over the 32 MiB form-field limit
    assert.equal(big.status, 200, JSON.stringify(big.body));

    assert.equal((await admin.patch('/realm', { max_file_upload_size_mib: 1 })).status, 200);
    const refused = await upload(member, 2 * 1024 * 1024);
    assert.equal(refused.status, 400);
    assert.match(refused.body.msg, /maximum upload size \(1 MiB\)/);
    const reg = await member.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.max_file_upload_size_mib, 1);
  });
});

/** A restricted guest meets people through channels and direct messages, by events (Zulip's user access updates). */
describe('a restricted guest gains and loses people through subscriptions and direct messages', () => {
  let ts: TestServer;
  let admin: Client;
  let guest: Client;
  let guestId: number;
  let moderator: Client;
  let moderatorId: number;
  let memberId: number;
  let mel: Client;
  const id = (name: string) => ts.store.groups.data.groups.find((g) => g.name === name)!.id;
  const params = { fetch_event_types: ['realm_user', 'subscription', 'stream', 'message'], client_capabilities: { user_list_incomplete: true } };
  before(async () => {
    ts = await startTestServer();
    admin = ts.client(await ts.addUser('Adam', 200));
    const mod = await ts.addUser('Moe', 300);
    moderator = ts.client(mod);
    moderatorId = mod.id;
    const m = await ts.addUser('Mel');
    memberId = m.id;
    mel = ts.client(m);
    const g = await ts.addUser('Gwen', 600);
    guest = ts.client(g);
    guestId = g.id;
    assert.equal((await admin.patch('/realm', { can_access_all_users_group: { new: id('role:members') } })).status, 200);
  });
  after(() => ts.stop());

  const sees = async (userId: number) => (await guest.get('/users')).body.members.some((m: { user_id: number }) => m.user_id === userId);

  it('subscribing the guest to a channel with the moderator: realm_user add before the subscription', async () => {
    assert.equal(await sees(moderatorId), false);
    assert.equal((await moderator.post('/users/me/subscriptions', { subscriptions: [{ name: 'garden' }] })).status, 200);
    const events = await verifyAction(guest, async () => {
      const res = await admin.post('/users/me/subscriptions', { subscriptions: [{ name: 'garden' }], principals: [guestId] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, params);
    const addAt = events.findIndex((e) => e.type === 'realm_user' && e.op === 'add' && (e.person as { user_id: number }).user_id === moderatorId);
    const subAt = events.findIndex((e) => e.type === 'subscription' && e.op === 'add');
    assert.ok(addAt >= 0 && subAt > addAt, JSON.stringify(events));
    assert.equal(await sees(moderatorId), true);
  });

  it('unsubscribing takes the people away again (realm_user remove)', async () => {
    const events = await verifyAction(guest, async () => {
      const res = await admin.delete('/users/me/subscriptions', { subscriptions: ['garden'], principals: [guestId] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, params);
    assert.ok(events.some((e) => e.type === 'realm_user' && e.op === 'remove' && (e.person as { user_id: number }).user_id === moderatorId), JSON.stringify(events));
    assert.equal(await sees(moderatorId), false);
  });

  it('a first direct message from a member introduces them to the guest', async () => {
    assert.equal(await sees(memberId), false);
    const events = await verifyAction(guest, async () => {
      const res = await mel.post('/messages', { type: 'direct', to: JSON.stringify([guestId]), content: 'welcome' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, params);
    const addAt = events.findIndex((e) => e.type === 'realm_user' && e.op === 'add' && (e.person as { user_id: number }).user_id === memberId);
    const msgAt = events.findIndex((e) => e.type === 'message');
    assert.ok(addAt >= 0 && msgAt > addAt, JSON.stringify(events));
    assert.equal(await sees(memberId), true);
  });
});
