import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { doCreateUser } from '../../server/actions/users.js';
import { createChannel } from '../helpers/channels.js';
import { CALLERS, castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type Account, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const storedUser = async (ts: TestServer, id: number) => {
  await ts.store.settled();
  const doc = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8'));
  return doc.users.find((u: { id: number }) => u.id === id);
};

/** Every event type except the bots area's, so the reducer here covers all of them. */
const TYPES = ['realm_user', 'user_group', 'subscription', 'stream'];

describe('DELETE /users/{id}, POST /users/{id}/reactivate, DELETE /users/me', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
  });
  after(() => ts.stop());

  it('role matrix: administrators deactivate and reactivate; others cannot', async () => {
    const expected: Record<string, number> = {
      owner: 200,
      admin: 200,
      moderator: 400,
      member: 400,
      guest: 400,
      bot: 400,
      deactivated: 401,
      anonymous: 401,
    };
    for (const caller of CALLERS) {
      const victim = await ts.addUser(`Vic${caller}`);
      const res = await cast.client(caller).delete(`/users/${victim.id}`);
      assert.equal(res.status, expected[caller], `${caller}: ${JSON.stringify(res.body)}`);
      assert.equal((await storedUser(ts, victim.id)).is_active, res.status !== 200, caller);
      if (res.status !== 200) await ts.ownerClient.delete(`/users/${victim.id}`);
      const back = await cast.client(caller).post(`/users/${victim.id}/reactivate`);
      assert.equal(back.status, expected[caller], `${caller} reactivate: ${JSON.stringify(back.body)}`);
      assert.equal((await storedUser(ts, victim.id)).is_active, back.status === 200, caller);
    }
  });

  it('deactivation: announced (verifyAction), peers removed, groups dropped, bots deactivated too; the account stops working', async () => {
    const victim = await ts.addUser('Val');
    const bot = await doCreateUser(ts.app, {
      email: `val${victim.id}-bot@example.com`,
      fullName: 'Val Bot',
      password: null,
      role: 400,
      bot: { type: 1, ownerId: victim.id },
    });
    const streamId = await createChannel(ts, ts.ownerClient, `val-${victim.id}`, { principals: [victim.id, cast.member.id] });
    const observer = cast.client('member');
    const victimQueue = (await ts.client(victim).post('/register', { event_types: ['realm_user'] })).body.queue_id as string;
    assert.ok(ts.app.events.get(victimQueue));
    const events = await verifyAction(
      observer,
      async () => {
        const res = await cast.client('admin').delete(`/users/${victim.id}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      },
      { event_types: TYPES, fetch_event_types: TYPES, include_subscribers: 'true' },
    );
    const shapes = events.map(({ id: _i, ...e }) => e);
    assert.deepEqual(
      shapes.filter((e) => e.type === 'realm_user'),
      [
        { type: 'realm_user', op: 'update', person: { user_id: bot.id, is_active: false } },
        { type: 'realm_user', op: 'update', person: { user_id: victim.id, is_active: false } },
      ],
    );
    assert.ok(
      shapes.some((e) => e.op === 'peer_remove' && (e.stream_ids as number[])[0] === streamId),
      JSON.stringify(shapes),
    );
    assert.equal((await storedUser(ts, victim.id)).is_active, false);
    assert.equal((await storedUser(ts, bot.id)).is_active, false);
    assert.equal((await ts.client(victim).get('/users/me')).status, 401);
    assert.equal(ts.app.events.get(victimQueue), undefined, 'the deactivated user\'s queues are gone');

    // Reactivation brings back the user alone (not the bot), groups and subscriptions.
    const back = await verifyAction(
      observer,
      async () => {
        const res = await cast.client('admin').post(`/users/${victim.id}/reactivate`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      },
      { event_types: TYPES, fetch_event_types: TYPES, include_subscribers: 'true' },
    );
    assert.ok(back.some((e) => e.type === 'user_group' && e.op === 'add_members'));
    assert.ok(back.some((e) => e.type === 'subscription' && e.op === 'peer_add'));
    assert.equal((await storedUser(ts, victim.id)).is_active, true);
    assert.equal((await storedUser(ts, bot.id)).is_active, false);
    assert.equal((await ts.client(victim).get('/users/me')).status, 200);
  });

  it('rules: bots are not users here, the only owner stays, owners only by owners, no double (re)activation', async () => {
    const admin = cast.client('admin');
    let res = await admin.delete(`/users/${cast.bot.id}`);
    assert.equal(res.body.msg, 'No such user');
    res = await admin.delete(`/users/${cast.owner.id}`);
    assert.equal(res.body.msg, 'Must be an organization owner');
    res = await admin.delete(`/users/${cast.deactivated.id}`);
    assert.equal(res.body.msg, 'User is deactivated');
    res = await admin.post(`/users/${cast.member.id}/reactivate`);
    assert.equal(res.body.msg, 'User is already active');
    res = await admin.delete('/users/55555');
    assert.equal(res.body.msg, 'No such user');
    const solo = await startTestServer();
    try {
      const lone = await solo.ownerClient.delete(`/users/${solo.owner.id}`);
      assert.equal(lone.status, 400);
      assert.equal(lone.body.msg, 'Cannot deactivate the only organization owner');
      const self = await solo.ownerClient.delete('/users/me');
      assert.equal(self.body.code, 'CANNOT_DEACTIVATE_LAST_USER');
      assert.equal(self.body.is_last_owner, false);
      assert.equal(self.body.entity, 'user');
      assert.equal(self.body.msg, 'Cannot deactivate the only user.');
      await solo.addUser('Pal');
      const owner = await solo.ownerClient.delete('/users/me');
      assert.equal(owner.body.is_last_owner, true);
      assert.equal(owner.body.entity, 'organization owner');
      assert.equal(owner.body.msg, 'Cannot deactivate the only organization owner.');
      assert.equal(solo.store.users.get(solo.owner.id)!.is_active, true);
    } finally {
      await solo.stop();
    }
  });

  it('reactivating a bot: one whose owner left passes to the reactivating administrator (verifyAction); a name in use is refused', async () => {
    const admin = cast.client('admin');
    const adminId = cast.admin.id;
    const owner = await ts.addUser('Orla');
    const name = `Orla Bot ${owner.id}`;
    const created = await ts.client(owner).post('/bots', { full_name: name, short_name: `orla${owner.id}` });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const botId = created.body.user_id as number;
    assert.equal((await admin.delete(`/users/${owner.id}`)).status, 200);
    assert.equal((await storedUser(ts, botId)).is_active, false, 'the bot left with its owner');

    const types = ['realm_bot', 'realm_user'];
    const events = await verifyAction(
      admin,
      async () => {
        const res = await admin.post(`/users/${botId}/reactivate`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      },
      { event_types: types, fetch_event_types: types },
    );
    const stored = await storedUser(ts, botId);
    assert.equal(stored.is_active, true);
    assert.equal(stored.bot_owner_id, adminId, 'the deactivated owner is replaced by the administrator');
    const shapes = events.map(({ id: _i, ...e }) => e);
    assert.deepEqual(
      shapes.filter((e) => e.type === 'realm_user'),
      [
        { type: 'realm_user', op: 'update', person: { user_id: botId, is_active: true } },
        { type: 'realm_user', op: 'update', person: { user_id: botId, bot_owner_id: adminId } },
      ],
    );
    assert.ok(
      shapes.some((e) => e.type === 'realm_bot' && e.op === 'update' && (e.bot as { owner_id?: number }).owner_id === adminId),
      JSON.stringify(shapes),
    );
    const listed = await admin.get('/bots');
    assert.ok(listed.body.bots.some((b: { user_id: number }) => b.user_id === botId), 'GET /bots: now the administrator\'s');

    // Deactivated again, and meanwhile someone active took the bot's name: refused, nothing changes.
    assert.equal((await admin.delete(`/bots/${botId}`)).status, 200);
    const twin = await ts.addUser('Twin');
    assert.equal((await admin.patch(`/users/${twin.id}`, { full_name: name })).status, 200);
    const clash = await admin.post(`/users/${botId}/reactivate`);
    assert.equal(clash.status, 400);
    assert.equal(
      clash.body.msg,
      `There is already an active bot named "${name}" in this organization. To reactivate this bot, you must rename or deactivate the other one first.`,
    );
    assert.equal((await storedUser(ts, botId)).is_active, false);
  });

  it('DELETE /users/me: a member deactivates themselves', async () => {
    const me: Account = await ts.addUser('Quinn');
    const res = await ts.client(me).delete('/users/me');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await storedUser(ts, me.id)).is_active, false);
    assert.equal((await ts.client(me).get('/users/me')).body.code, 'UNAUTHORIZED');
  });
});
