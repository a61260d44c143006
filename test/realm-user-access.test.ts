import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Client, type TestServer } from './helpers/server.js';
import { verifyAction } from './helpers/verify-action.js';

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
