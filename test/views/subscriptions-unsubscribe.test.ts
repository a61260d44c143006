import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel, isSubscribedInStore, stored } from '../helpers/channels.js';
import { groupId, castOf, type Cast, type CastRole } from '../helpers/people.js';
import { startTestServer, type TestServer, assertError } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

/** DELETE and GET /users/me/subscriptions, and POST /users/me/subscriptions/properties. */
describe('unsubscribing, listing and subscription settings', () => {
  let ts: TestServer;
  let cast: Cast;
  let pub: number;
  let priv: number;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    pub = await createChannel(ts, ts.ownerClient, 'lobby', {
      principals: [cast.owner.id, cast.admin.id, cast.moderator.id, cast.member.id, cast.guest.id],
    });
    priv = await createChannel(ts, ts.ownerClient, 'vault', { invite_only: true, principals: [cast.owner.id, cast.member.id] });
  });
  after(() => ts.stop());

  const as = (who: CastRole) => ts.client(cast[who]);
  const unsubscribe = (who: CastRole, names: string[], principals?: unknown[]) =>
    as(who).delete('/users/me/subscriptions', { subscriptions: names, principals: principals as never });

  it('unsubscribes yourself with removed / not_removed, keeping the row for your settings', async () => {
    const sub = ts.store.subscriptions.data.subscriptions.find((s) => s.user_id === cast.moderator.id && s.stream_id === pub)!;
    sub.color = '#123456';
    const events = await verifyAction(
      as('moderator'),
      async () => {
        const res = await unsubscribe('moderator', ['lobby', 'LOBBY']);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.deepEqual(res.body.removed, ['lobby']);
        assert.deepEqual(res.body.not_removed, []);
      },
      { include_subscribers: 'true' },
    );
    assert.deepEqual(
      events.map((e) => `${e.type}/${e.op}`),
      ['subscription/remove'],
    );
    assert.equal(isSubscribedInStore(ts, cast.moderator.id, pub), false);
    const again = await unsubscribe('moderator', ['lobby']);
    assert.deepEqual([again.body.removed, again.body.not_removed], [[], ['lobby']]);
    const back = await as('moderator').post('/users/me/subscriptions', { subscriptions: [{ name: 'lobby' }] });
    assert.equal(back.status, 200);
    assert.equal(sub.active, true);
    assert.equal(sub.color, '#123456', 'resubscribing keeps the old colour');
  });

  it('answers STREAM_DOES_NOT_EXIST for unknown channels and for private ones you may not know', async () => {
    const res = await unsubscribe('moderator', ['nowhere']);
    assertError(res, "Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST');
    assert.equal(res.body.stream, 'nowhere');
    assertError(await unsubscribe('moderator', ['vault']), "Channel 'vault' does not exist", 'STREAM_DOES_NOT_EXIST');
    assertError(await unsubscribe('guest', ['vault']), "Channel 'vault' does not exist", 'STREAM_DOES_NOT_EXIST');
  });

  it('lets only administrators, channel administrators and can_remove_subscribers_group remove others', async () => {
    assertError(await unsubscribe('member', ['lobby'], [cast.guest.id]), 'Insufficient permission');
    assertError(await unsubscribe('moderator', ['lobby'], [cast.member.email]), 'Insufficient permission');
    assert.ok(isSubscribedInStore(ts, cast.guest.id, pub));

    // A guest who loses a public channel stops knowing it: remove, then delete.
    const guestEvents = await verifyAction(as('guest'), async () => {
      const res = await unsubscribe('admin', ['lobby'], [cast.guest.id]);
      assert.deepEqual(res.body.removed, ['lobby']);
    });
    assert.deepEqual(
      guestEvents.map((e) => `${e.type}/${e.op}`),
      ['subscription/remove', 'stream/delete'],
    );

    stored(ts, pub).settings.can_remove_subscribers_group = { direct_members: [cast.moderator.id], direct_subgroups: [] };
    assert.equal((await unsubscribe('moderator', ['lobby'], [cast.admin.id])).status, 200);
    assert.equal(isSubscribedInStore(ts, cast.admin.id, pub), false);
    // ...but not from a private channel the moderator may not know.
    stored(ts, priv).settings.can_remove_subscribers_group = groupId(ts, 'role:members');
    assertError(await unsubscribe('moderator', ['vault'], [cast.member.id]), "Channel 'vault' does not exist", 'STREAM_DOES_NOT_EXIST');

    stored(ts, pub).settings.can_remove_subscribers_group = groupId(ts, 'role:administrators');
    stored(ts, pub).settings.can_administer_channel_group = { direct_members: [cast.moderator.id], direct_subgroups: [] };
    assert.equal((await unsubscribe('moderator', ['lobby'], [cast.member.id])).status, 200, 'channel administrators may');
    assert.equal(isSubscribedInStore(ts, cast.member.id, pub), false);
  });

  it('lets you unsubscribe your own bot', async () => {
    const bot = await ts.addUser('Botty', 400);
    const rec = ts.store.users.get(bot.id)!;
    rec.is_bot = true;
    rec.bot_type = 1;
    rec.bot_owner_id = cast.member.id;
    assert.equal((await as('owner').post('/users/me/subscriptions', { subscriptions: [{ name: 'lobby' }], principals: [bot.id] })).status, 200);
    const res = await unsubscribe('member', ['lobby'], [bot.id]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(isSubscribedInStore(ts, bot.id, pub), false);
  });

  it('tells the remaining subscribers of a private channel, and only them', async () => {
    const events = await verifyAction(
      as('owner'),
      async () => {
        assert.equal((await unsubscribe('member', ['vault'])).status, 200);
      },
      { include_subscribers: 'true' },
    );
    assert.deepEqual(events, [
      events[0],
    ]);
    assert.deepEqual({ ...events[0], id: undefined }, {
      type: 'subscription',
      op: 'peer_remove',
      stream_ids: [priv],
      user_ids: [cast.member.id],
      id: undefined,
    });
    // The member no longer knows the private channel.
    const reg = await as('member').post('/register', { fetch_event_types: ['subscription', 'stream'] });
    const known = [...reg.body.subscriptions, ...reg.body.unsubscribed, ...reg.body.never_subscribed, ...reg.body.streams];
    assert.equal(known.some((s: { stream_id: number }) => s.stream_id === priv), false);
  });

  it('lists your subscriptions with GET, subscribers on request', async () => {
    const plain = await as('owner').get('/users/me/subscriptions');
    assert.equal(plain.status, 200);
    assert.deepEqual(
      plain.body.subscriptions.map((s: { name: string }) => s.name),
      ['lobby', 'vault'],
    );
    assert.equal('subscribers' in plain.body.subscriptions[0], false);
    const full = await as('owner').get('/users/me/subscriptions', { include_subscribers: true });
    const lobby = full.body.subscriptions.find((s: { name: string }) => s.name === 'lobby');
    assert.deepEqual(lobby.subscribers, [cast.owner.id, cast.moderator.id]);
    assert.equal(lobby.subscriber_count, 2);
    assertError(await as('owner').get('/users/me/subscriptions', { include_subscribers: 'maybe' }), /must be true, false or partial/);
  });

  it('changes personal settings, with in_home_view as the inverse of is_muted', async () => {
    const props = (who: CastRole, data: unknown[]) =>
      as(who).post('/users/me/subscriptions/properties', { subscription_data: data as never });
    const events = await verifyAction(
      as('owner'),
      async () => {
        const res = await props('owner', [
          { stream_id: pub, property: 'color', value: '#FF00AA' },
          { stream_id: pub, property: 'pin_to_top', value: true },
          { stream_id: pub, property: 'in_home_view', value: false },
          { stream_id: pub, property: 'desktop_notifications', value: true },
          { stream_id: priv, property: 'push_notifications', value: false },
        ]);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      },
      { client_capabilities: { notification_settings_null: true } },
    );
    assert.deepEqual(
      events.map((e) => `${e.property}=${String(e.value)}`),
      ['color=#ff00aa', 'pin_to_top=true', 'in_home_view=false', 'is_muted=true', 'desktop_notifications=true', 'push_notifications=false'],
    );
    const sub = ts.store.subscriptions.data.subscriptions.find((s) => s.user_id === cast.owner.id && s.stream_id === pub)!;
    assert.deepEqual([sub.color, sub.pin_to_top, sub.is_muted, sub.desktop_notifications], ['#ff00aa', true, true, true]);

    // null inherits; clients without notification_settings_null see the user default (false).
    const legacy = await verifyAction(as('owner'), async () => {
      const res = await props('owner', [
        { stream_id: pub, property: 'desktop_notifications', value: null },
        { stream_id: pub, property: 'is_muted', value: false },
      ]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.equal(sub.desktop_notifications, null);
    assert.equal(legacy[0]!.value, false);
    const reg = await as('owner').post('/register', {
      fetch_event_types: ['subscription'],
      client_capabilities: { notification_settings_null: true },
    });
    assert.equal(reg.body.subscriptions.find((s: { stream_id: number }) => s.stream_id === pub).desktop_notifications, null);
  });

  it('refuses bad subscription settings and changes nothing', async () => {
    const props = (data: unknown) => as('owner').post('/users/me/subscriptions/properties', { subscription_data: data as never });
    const sub = ts.store.subscriptions.data.subscriptions.find((s) => s.user_id === cast.owner.id && s.stream_id === pub)!;
    const before = { ...sub };
    assertError(await props([{ stream_id: pub, property: 'volume', value: 3 }]), 'Unknown subscription property: volume');
    assertError(await props([{ stream_id: pub, property: 'pin_to_top', value: null }]), 'pin_to_top is not a boolean');
    assertError(await props([{ stream_id: pub, property: 'is_muted', value: 'yes' }]), 'is_muted is not a boolean');
    assertError(await props([{ stream_id: pub, property: 'color', value: 'blue' }]), 'color is not a valid hex color code');
    assertError(await props([{ stream_id: pub, property: 'color', value: 0xff00aa }]), 'color is not a string');
    assertError(await props([{ stream_id: 4040, property: 'pin_to_top', value: true }]), 'Invalid channel ID');
    // All items are checked before any is applied.
    assertError(
      await props([
        { stream_id: pub, property: 'pin_to_top', value: false },
        { stream_id: 4040, property: 'pin_to_top', value: true },
      ]),
      'Invalid channel ID',
    );
    assert.equal(sub.pin_to_top, before.pin_to_top);
    const moderatorProps = await as('moderator').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: priv, property: 'pin_to_top', value: true }],
    });
    assertError(moderatorProps, 'Invalid channel ID');
    assert.equal((await props([{ stream_id: pub, property: 'pin_to_top', value: false }, { stream_id: pub, property: 'color', value: '#000' }])).status, 200);
    await unsubscribe('admin', ['lobby'], [cast.owner.id]);
    assertError(await props([{ stream_id: pub, property: 'pin_to_top', value: false }]), `Not subscribed to channel ID ${pub}`);
    assertError(await props({ stream_id: pub }), 'subscription_data is not a list');
    assert.equal(sub.pin_to_top, false, 'an earlier valid request did apply');
    assert.equal(sub.color, '#000000');
    assert.equal(before.is_muted, sub.is_muted);
  });

  it('lets drafts address only channels the user may post in', async () => {
    const draft = (who: CastRole, to: number) =>
      as(who).post('/drafts', { drafts: [{ type: 'stream', to: [to], topic: 't', content: 'c' }] });
    assert.equal((await draft('owner', priv)).status, 200);
    assertError(await draft('moderator', priv), 'Invalid channel ID');
    assertError(await draft('guest', pub), 'Invalid channel ID');
    assertError(await draft('owner', 4040), 'Invalid channel ID');
    assert.equal((await draft('moderator', pub)).status, 200);
  });
});
