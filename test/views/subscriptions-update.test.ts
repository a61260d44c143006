import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel, isSubscribedInStore, storedByName } from '../helpers/channels.js';
import { castOf, type Cast, type CastRole } from '../helpers/people.js';
import { startTestServer, type TestServer, assertError } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

/** PATCH /users/me/subscriptions (Zulip's update_subscriptions_backend): add and delete in one request. */
describe('PATCH /users/me/subscriptions', () => {
  let ts: TestServer;
  let cast: Cast;
  let lobby = 0;
  let vault = 0;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    lobby = await createChannel(ts, ts.ownerClient, 'lobby', { principals: [cast.owner.id, cast.guest.id] });
    vault = await createChannel(ts, ts.ownerClient, 'vault', { invite_only: true });
  });
  after(() => ts.stop());

  const as = (who: CastRole) => ts.client(cast[who]);
  const patch = (who: CastRole, params: Record<string, unknown>) => as(who).patch('/users/me/subscriptions', params as never);
  const REG = { fetch_event_types: ['subscription', 'stream'], event_types: ['subscription', 'stream'], include_subscribers: 'true' };

  it('subscribes, creates and unsubscribes in one request, answering both halves', async () => {
    assert.equal((await as('member').post('/users/me/subscriptions', { subscriptions: [{ name: 'old' }] })).status, 200);
    let res: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
    const events = await verifyAction(
      as('member'),
      async () => {
        res = await patch('member', { add: [{ name: 'lobby' }, { name: 'fresh', color: '#ABCDEF' }], delete: ['old'] });
      },
      REG,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.subscribed, { [String(cast.member.id)]: ['fresh', 'lobby'].sort() });
    assert.deepEqual(res.body.already_subscribed, {});
    assert.deepEqual(res.body.removed, ['old']);
    assert.deepEqual(res.body.not_removed, []);
    assert.ok(isSubscribedInStore(ts, cast.member.id, lobby));
    const fresh = storedByName(ts, 'fresh')!;
    assert.equal(fresh.creator_id, cast.member.id);
    assert.ok(isSubscribedInStore(ts, cast.member.id, fresh.id));
    assert.equal(
      ts.store.subscriptions.data.subscriptions.find((s) => s.user_id === cast.member.id && s.stream_id === fresh.id)!.color,
      '#abcdef',
    );
    assert.ok(!isSubscribedInStore(ts, cast.member.id, storedByName(ts, 'old')!.id));
    assert.ok(events.some((e) => e.type === 'subscription' && e.op === 'remove'));
  });

  it('reports already_subscribed and not_removed', async () => {
    const res = await patch('member', { add: [{ name: 'lobby' }], delete: ['old'] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.already_subscribed, { [String(cast.member.id)]: ['lobby'] });
    assert.deepEqual([res.body.subscribed, res.body.removed, res.body.not_removed], [{}, [], ['old']]);
  });

  it('checks both halves before changing anything', async () => {
    const before = JSON.stringify([ts.store.subscriptions.data, ts.store.channels.data]);
    assertError(await patch('member', {}), 'Nothing to do. Specify at least one of "add" or "delete".');
    assertError(await patch('member', { add: [{ name: 'lobby2' }], delete: ['nowhere'] }), "Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST');
    assertError(await patch('member', { add: [{ name: 'vault' }], delete: ['lobby'] }), 'Unable to access channel (vault).');
    assertError(await patch('moderator', { delete: ['vault'] }), "Channel 'vault' does not exist", 'STREAM_DOES_NOT_EXIST');
    assertError(await patch('member', { add: [{ name: '' }] }), "Channel name can't be empty.");
    assertError(await patch('member', { add: '[{"nom": "x"}]' }), 'name key is missing from add[0]');
    // Guests never use the adding half, so not even `delete` alone (as Zulip).
    assertError(await patch('guest', { delete: ['lobby'] }), 'Not allowed for guest users');
    assert.equal(JSON.stringify([ts.store.subscriptions.data, ts.store.channels.data]), before);
    assert.ok(isSubscribedInStore(ts, cast.guest.id, lobby));
    assert.ok(!storedByName(ts, 'lobby2'));
    assert.ok(vault > 0);
  });
});
