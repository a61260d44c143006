import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { groupId, castOf, type Cast, type CastRole } from '../helpers/people.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

type Dict = Record<string, unknown>;
const CHANNEL_FIELDS = [
  'can_add_subscribers_group', 'can_administer_channel_group', 'can_create_topic_group', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group',
  'can_remove_subscribers_group', 'can_resolve_topics_group', 'can_send_message_group', 'can_subscribe_group',
  'creator_id', 'date_created', 'description', 'first_message_id', 'folder_id', 'history_public_to_subscribers',
  'invite_only', 'is_announcement_only', 'is_archived', 'is_recently_active', 'is_web_public', 'message_retention_days',
  'name', 'rendered_description', 'stream_id', 'stream_post_policy', 'stream_weekly_traffic', 'subscriber_count',
  'topics_policy',
];
const SUBSCRIPTION_FIELDS = [
  'audible_notifications', 'color', 'desktop_notifications', 'email_notifications', 'in_home_view', 'is_muted',
  'pin_to_top', 'push_notifications', 'wildcard_mentions_notify',
];

/** The register sections of the channels area. */
describe('register: channels sections', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer({ config: { webPublicStreamsEnabled: true } });
    cast = await castOf(ts, { owner: ts.owner });
    await createChannel(ts, ts.ownerClient, 'alpha', { principals: [cast.owner.id, cast.member.id] });
    await createChannel(ts, ts.ownerClient, 'beta');
  });
  after(() => ts.stop());

  const as = (who: CastRole) => ts.client(cast[who]);
  const register = (who: CastRole, params: Dict = {}) => as(who).post('/register', params as never);

  it('returns every channel field, the subscription fields, and the channel limits', async () => {
    await as('member').delete('/users/me/subscriptions', { subscriptions: ['alpha'] });
    await as('member').post('/users/me/subscriptions', { subscriptions: [{ name: 'gamma' }] });
    const reg = await register('member', { client_capabilities: { notification_settings_null: true } });
    assert.equal(reg.status, 200);
    const gamma = reg.body.subscriptions.find((s: Dict) => s.name === 'gamma');
    assert.deepEqual(Object.keys(gamma).sort(), [...CHANNEL_FIELDS, ...SUBSCRIPTION_FIELDS].sort());
    assert.deepEqual(Object.keys(reg.body.unsubscribed[0]).sort(), [...CHANNEL_FIELDS, ...SUBSCRIPTION_FIELDS].sort());
    assert.equal(reg.body.unsubscribed[0].name, 'alpha');
    assert.deepEqual(reg.body.never_subscribed.map((s: Dict) => s.name), ['beta']);
    assert.deepEqual(Object.keys(reg.body.never_subscribed[0]).sort(), [...CHANNEL_FIELDS].sort());
    assert.deepEqual(
      [gamma.in_home_view, gamma.is_muted, gamma.stream_weekly_traffic, gamma.first_message_id, gamma.is_recently_active],
      [true, false, null, null, true],
    );
    assert.equal(reg.body.max_stream_name_length, 60);
    assert.equal(reg.body.max_stream_description_length, 1024);
    assert.equal(reg.body.realm_topics_policy, 'allow_empty_topic');
    assert.equal(reg.body.realm_can_create_public_channel_group, groupId(ts, 'role:members'));
    assert.equal(reg.body.realm_can_create_web_public_channel_group, groupId(ts, 'role:owners'));
    assert.equal(reg.body.can_create_public_streams, true);
    assert.equal(reg.body.can_create_web_public_streams, false);
    assert.deepEqual(reg.body.streams.map((s: Dict) => s.name), ['alpha', 'beta', 'gamma']);
    assert.deepEqual(reg.body.realm_default_streams, []);
    assert.deepEqual(reg.body.channel_folders, []);
  });

  it('includes subscribers per include_subscribers: false, true, partial', async () => {
    const none = await register('owner', { fetch_event_types: ['subscription'] });
    assert.equal('subscribers' in none.body.subscriptions[0], false);
    const full = await register('owner', { fetch_event_types: ['subscription'], include_subscribers: 'true' });
    assert.deepEqual(full.body.subscriptions.find((s: Dict) => s.name === 'alpha').subscribers, [cast.owner.id]);
    const partial = await register('owner', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    const small = partial.body.subscriptions.find((s: Dict) => s.name === 'alpha');
    assert.deepEqual(small.subscribers, [cast.owner.id], 'under 250 subscribers: the full list');
    assert.equal('partial_subscribers' in small, false);

    // A channel with 250 subscribers: partial_subscribers instead, holding every bot, the requester and
    // whoever was active in the last 14 days (joined, or sent a message); the others are left out.
    const ids: number[] = [];
    for (let i = 0; i < 250; i++) {
      const u = ts.store.users.add({
        email: `crowd${i}@example.com`, full_name: `Crowd ${i}`, role: 400, is_active: true, is_bot: i === 0,
        bot_type: i === 0 ? 1 : null, bot_owner_id: i === 0 ? cast.owner.id : null, api_key: `k${i}`.padEnd(32, 'x'),
        password_hash: null, date_joined: new Date().toISOString(), timezone: '', avatar_version: 1,
        is_imported_stub: false,
      });
      ids.push(u.id);
    }
    await createChannel(ts, ts.ownerClient, 'crowd', { principals: ids });
    const fresh = await register('owner', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    const all = fresh.body.never_subscribed.find((s: Dict) => s.name === 'crowd');
    assert.equal('subscribers' in all, false);
    assert.deepEqual(all.partial_subscribers, ids, 'everyone joined just now: all are recent');
    const events = await verifyAction(
      as('owner'),
      async () => {
        const res = await as('owner').post('/users/me/subscriptions', { subscriptions: [{ name: 'crowd' }] });
        assert.equal(res.status, 200);
      },
      { fetch_event_types: ['subscription', 'stream'], include_subscribers: 'partial' },
    );
    assert.equal(events.length, 1);

    // Weeks later: only the bot, the one who posted, the newcomer and the requester remain.
    for (const id of ids.slice(1)) ts.store.users.get(id)!.date_joined = '2020-01-01T00:00:00+00:00';
    ts.store.users.get(ids[2]!)!.date_joined = new Date().toISOString();
    const poster = { id: ids[1]!, email: 'crowd1@example.com', apiKey: 'k1'.padEnd(32, 'x'), password: '' };
    const sent = await ts.client(poster).post('/messages', { type: 'stream', to: 'crowd', topic: 'hi', content: 'hello' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const big = await register('member', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    const crowd = big.body.never_subscribed.find((s: Dict) => s.name === 'crowd');
    assert.equal('subscribers' in crowd, false);
    assert.deepEqual(crowd.partial_subscribers, [cast.owner.id, ids[0], ids[1], ids[2]].sort((a, b) => a! - b!));
    assert.equal(crowd.subscriber_count, 251);
    const fifth = { ...poster, id: ids[5]!, email: 'crowd5@example.com', apiKey: 'k5'.padEnd(32, 'x') };
    const asCrowd = await ts.client(fifth).post('/register', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    const mine = asCrowd.body.subscriptions.find((s: Dict) => s.name === 'crowd');
    assert.deepEqual(mine.partial_subscribers, [cast.owner.id, ids[0], ids[1], ids[2], ids[5]].sort((a, b) => a! - b!), 'the requester is kept');
    // Someone whose client reports presence is active too, even without posting.
    const online = { ...poster, id: ids[3]!, email: 'crowd3@example.com', apiKey: 'k3'.padEnd(32, 'x') };
    const ping = await ts.client(online).post('/users/me/presence', { status: 'idle' });
    assert.equal(ping.status, 200, JSON.stringify(ping.body));
    const later = await register('member', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    const seen = later.body.never_subscribed.find((s: Dict) => s.name === 'crowd');
    assert.deepEqual(seen.partial_subscribers, [cast.owner.id, ids[0], ids[1], ids[2], ids[3]].sort((a, b) => a! - b!));
  });

  it('gives booleans for null notification settings without notification_settings_null', async () => {
    const legacy = await register('member', { fetch_event_types: ['subscription'] });
    const gamma = legacy.body.subscriptions.find((s: Dict) => s.name === 'gamma');
    assert.deepEqual(
      [gamma.desktop_notifications, gamma.audible_notifications, gamma.push_notifications, gamma.email_notifications],
      [false, false, false, false],
    );
    assert.equal(gamma.wildcard_mentions_notify, null, 'as Zulip, this one keeps its null');
    await verifyAction(as('member'), async () => {
      await as('owner').post('/users/me/subscriptions', { subscriptions: [{ name: 'delta' }], principals: [cast.member.id] });
    });
  });

  it('fills null notification settings from the user\'s enable_stream_* settings for clients without notification_settings_null', async () => {
    const member = as('member');
    const gammaId = ts.store.channels.data.channels.find((c) => c.name === 'gamma')!.id;
    const settings = { enable_stream_desktop_notifications: true, enable_stream_push_notifications: true };
    assert.equal((await member.patch('/settings', settings)).status, 200);
    // An explicit channel value wins over the user's default.
    const explicit = await member.post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: gammaId, property: 'push_notifications', value: false }],
    });
    assert.equal(explicit.status, 200, JSON.stringify(explicit.body));
    const legacy = await register('member', { fetch_event_types: ['subscription'] });
    const gamma = legacy.body.subscriptions.find((s: Dict) => s.name === 'gamma');
    assert.deepEqual(
      [gamma.desktop_notifications, gamma.audible_notifications, gamma.push_notifications, gamma.email_notifications],
      [true, false, false, false],
    );
    const alpha = legacy.body.unsubscribed.find((s: Dict) => s.name === 'alpha');
    assert.equal(alpha.desktop_notifications, true, 'unsubscribed rows too');
    const modern = await register('member', { fetch_event_types: ['subscription'], client_capabilities: { notification_settings_null: true } });
    assert.equal(modern.body.subscriptions.find((s: Dict) => s.name === 'gamma').desktop_notifications, null);
    // Back to inherit: the legacy event carries the user's value, the modern one null.
    const events = await verifyAction(member, async () => {
      const res = await member.post('/users/me/subscriptions/properties', {
        subscription_data: [{ stream_id: gammaId, property: 'push_notifications', value: null }],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.deepEqual(events.filter((e) => e.type === 'subscription').map((e) => [e.property, e.value]), [['push_notifications', true]]);
    const stored = ts.store.subscriptions.data.subscriptions.find((s) => s.user_id === cast.member.id && s.stream_id === gammaId)!;
    assert.equal(stored.push_notifications, null);
    const reset = { enable_stream_desktop_notifications: false, enable_stream_push_notifications: false };
    assert.equal((await member.patch('/settings', reset)).status, 200);
  });

  it('computes stream_weekly_traffic as Zulip: whole days of age, rounded down, at least 1, two significant digits', async () => {
    const traffic = async (name: string) => {
      const reg = await register('owner', { fetch_event_types: ['subscription'] });
      return reg.body.subscriptions.find((s: Dict) => s.name === name).stream_weekly_traffic;
    };
    const day = 86_400;
    // One message in 28 days is still some traffic.
    const trickle = await createChannel(ts, ts.ownerClient, 'trickle');
    await sendStream(ts.ownerClient, 'trickle', 't', 'one');
    ts.store.channels.data.channels.find((c) => c.id === trickle)!.date_created -= 40 * day;
    assert.equal(await traffic('trickle'), 1);
    // Three messages over 8.9 days: 3 * 7 // 8 = 2.
    const young = await createChannel(ts, ts.ownerClient, 'young');
    for (let i = 0; i < 3; i++) await sendStream(ts.ownerClient, 'young', 't', `m${i}`);
    ts.store.channels.data.channels.find((c) => c.id === young)!.date_created -= Math.floor(8.9 * day);
    assert.equal(await traffic('young'), 2);
    // 125 a week becomes 120 (Python's round to two significant digits, halves to even).
    const busy = await createChannel(ts, ts.ownerClient, 'busy');
    for (let i = 0; i < 125; i++) await sendStream(ts.ownerClient, 'busy', 't', `m${i}`);
    ts.store.channels.data.channels.find((c) => c.id === busy)!.date_created -= 7 * day;
    assert.equal(await traffic('busy'), 120);
  });

  it('shows archived channels only to clients with archived_channels', async () => {
    const id = await createChannel(ts, ts.ownerClient, 'epsilon', { principals: [cast.owner.id, cast.member.id] });
    await ts.ownerClient.delete(`/streams/${id}`);
    const plain = await register('member', { fetch_event_types: ['subscription', 'stream'] });
    assert.equal(JSON.stringify(plain.body).includes('epsilon'), false);
    const capable = await register('member', {
      fetch_event_types: ['subscription', 'stream'],
      client_capabilities: { archived_channels: true },
    });
    assert.equal(capable.body.subscriptions.find((s: Dict) => s.name === 'epsilon').is_archived, true);
    assert.ok(capable.body.streams.some((s: Dict) => s.name === 'epsilon'));
  });

  it('gives guests only what they are in (and web-public channels), and no default channels', async () => {
    const realm = ts.store.realm.data.realm!.settings;
    realm.enable_spectator_access = true;
    await createChannel(ts, ts.ownerClient, 'window', { is_web_public: true });
    await ts.ownerClient.post('/default_streams', { stream_id: ts.store.channels.data.channels.find((c) => c.name === 'beta')!.id });
    const guest = await register('guest', { include_subscribers: 'true' });
    assert.deepEqual(guest.body.never_subscribed.map((s: Dict) => s.name), ['window']);
    assert.deepEqual(guest.body.subscriptions, []);
    assert.deepEqual(guest.body.streams.map((s: Dict) => s.name), ['window']);
    assert.deepEqual(guest.body.realm_default_streams, []);
    const member = await register('member', { fetch_event_types: ['default_streams'] });
    assert.equal(member.body.realm_default_streams.length, 1);
  });

  it('gives spectators the web-public channels as subscriptions', async () => {
    const reg = await ts.anonymous.post('/register', { fetch_event_types: ['subscription', 'stream', 'default_streams'] });
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    assert.deepEqual(reg.body.subscriptions.map((s: Dict) => s.name), ['window']);
    assert.deepEqual(Object.keys(reg.body.subscriptions[0]).sort(), [...CHANNEL_FIELDS, ...SUBSCRIPTION_FIELDS].sort());
    assert.deepEqual([reg.body.unsubscribed, reg.body.never_subscribed, reg.body.realm_default_streams], [[], [], []]);
    assert.deepEqual(reg.body.streams.map((s: Dict) => s.name), ['window']);
    ts.store.realm.data.realm!.settings.enable_spectator_access = false;
  });

  it('reads first_message_id, is_recently_active and stream_weekly_traffic through app.channelMessages', async () => {
    const id = ts.store.channels.data.channels.find((c) => c.name === 'alpha')!.id;
    const real = ts.app.channelMessages;
    ts.app.channelMessages = {
      ...real,
      firstMessageId: (s) => (s === id ? 4242 : null),
      isRecentlyActive: (s) => s !== id,
      weeklyTraffic: (s) => (s === id ? 17 : null),
    };
    try {
      const one = await as('owner').get(`/streams/${id}`);
      assert.equal(one.status, 200, JSON.stringify(one.body));
      const got = one.body.stream as Dict;
      assert.deepEqual([got.first_message_id, got.is_recently_active, got.stream_weekly_traffic], [4242, false, 17]);
      const reg = await register('owner', { fetch_event_types: ['subscription', 'stream'] });
      const sub = reg.body.subscriptions.find((s: Dict) => s.name === 'alpha');
      assert.deepEqual([sub.first_message_id, sub.is_recently_active, sub.stream_weekly_traffic], [4242, false, 17]);
      const listed = reg.body.streams.find((s: Dict) => s.name === 'alpha');
      assert.deepEqual([listed.first_message_id, listed.is_recently_active, listed.stream_weekly_traffic], [4242, false, 17]);
    } finally {
      ts.app.channelMessages = real;
    }
  });
});
