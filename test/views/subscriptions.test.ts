import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STREAM_COLORS } from '../../server/lib/channels/format.js';
import { createChannel, isSubscribedInStore, stored, storedByName } from '../helpers/channels.js';
import { groupId, castOf, type Cast, type CastRole } from '../helpers/people.js';
import { startTestServer, type TestServer, assertError } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

/** POST /users/me/subscriptions: creating channels and subscribing users. */
describe('subscribing and creating channels', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
  });
  after(() => ts.stop());

  const as = (who: CastRole) => ts.client(cast[who]);
  const subscribe = (who: CastRole, names: string[], params: Record<string, unknown> = {}) =>
    as(who).post('/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })), ...params } as never);

  it("creates a channel with Zulip's defaults, subscribes the creator, and the events rebuild the register", async () => {
    const before = Math.floor(Date.now() / 1000);
    let res: Awaited<ReturnType<typeof subscribe>> | undefined;
    const events = await verifyAction(
      as('member'),
      async () => {
        res = await as('member').post('/users/me/subscriptions', {
          subscriptions: [{ name: '  design  ', description: 'Pixels\nand more' }],
        });
      },
      { include_subscribers: 'true' },
    );
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    assert.deepEqual(res!.body.subscribed, { [String(cast.member.id)]: ['design'] });
    assert.deepEqual(res!.body.already_subscribed, {});
    assert.equal('unauthorized' in res!.body, false);
    assert.deepEqual(
      events.map((e) => `${e.type}/${e.op}`),
      ['stream/create', 'subscription/add'],
    );

    const c = storedByName(ts, 'design')!;
    assert.equal(c.description, 'Pixels and more', 'newlines become spaces');
    assert.equal(c.rendered_description, '<p>Pixels and more</p>');
    assert.equal(c.invite_only, false);
    assert.equal(c.is_web_public, false);
    assert.equal(c.history_public_to_subscribers, true);
    assert.equal(c.message_retention_days, null);
    assert.equal(c.topics_policy, 'inherit');
    assert.equal(c.folder_id, null);
    assert.equal(c.creator_id, cast.member.id);
    assert.ok(c.date_created >= before && c.date_created <= before + 5);
    assert.deepEqual(c.settings.can_administer_channel_group, { direct_members: [cast.member.id], direct_subgroups: [] });
    assert.equal(c.settings.can_remove_subscribers_group, groupId(ts, 'role:administrators'));
    assert.equal(c.settings.can_send_message_group, groupId(ts, 'role:everyone'));
    assert.equal(c.settings.can_create_topic_group, groupId(ts, 'role:everyone'));
    for (const name of ['can_add_subscribers_group', 'can_subscribe_group', 'can_delete_any_message_group', 'can_resolve_topics_group']) {
      assert.equal(c.settings[name], groupId(ts, 'role:nobody'), name);
    }
    const sub = ts.store.subscriptions.data.subscriptions.find((s) => s.stream_id === c.id)!;
    assert.ok(STREAM_COLORS.includes(sub.color));
    assert.equal(sub.is_muted, false);
    assert.equal(sub.desktop_notifications, null);

    const add = events[1] as { subscriptions: Record<string, unknown>[] };
    assert.deepEqual(add.subscriptions[0]!.subscribers, [cast.member.id]);
    assert.equal(add.subscriptions[0]!.subscriber_count, 1);
  });

  it('subscribes others by user ID or email, keyed by user-ID string, and reports already_subscribed', async () => {
    await createChannel(ts, as('owner'), 'team');
    const res = await subscribe('owner', ['team'], { principals: [cast.member.id, cast.moderator.id] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.subscribed, { [cast.member.id]: ['team'], [cast.moderator.id]: ['team'] });
    const again = await subscribe('owner', ['TEAM'], { principals: [cast.member.email, cast.admin.email] });
    assert.deepEqual(again.body.subscribed, { [cast.admin.id]: ['team'] });
    assert.deepEqual(again.body.already_subscribed, { [cast.member.id]: ['team'] }, 'names match case-insensitively');
    assert.ok(isSubscribedInStore(ts, cast.admin.id, storedByName(ts, 'team')!.id));
  });

  it('refuses unknown, deactivated and malformed principals, storing nothing', async () => {
    const count = ts.store.subscriptions.data.subscriptions.length;
    assertError(await subscribe('owner', ['team'], { principals: [99999] }), 'No such user');
    assertError(await subscribe('owner', ['team'], { principals: ['nobody@example.com'] }), 'No such user');
    assertError(await subscribe('owner', ['team'], { principals: [cast.deactivated.id] }), 'User is deactivated');
    assertError(await subscribe('owner', ['team'], { principals: [cast.member.id, 'x@example.com'] }), 'principals[1] is not an integer');
    assertError(await subscribe('owner', ['brand-new'], { principals: [99999] }), 'No such user');
    assert.equal(storedByName(ts, 'brand-new'), undefined, 'a failed request creates no channel');
    assert.equal(ts.store.subscriptions.data.subscriptions.length, count);
  });

  it('never lets guests subscribe themselves, but others may subscribe a guest, who then learns the channel', async () => {
    for (const name of ['team', 'guest-made']) {
      assertError(await subscribe('guest', [name]), 'Not allowed for guest users');
    }
    assert.equal(storedByName(ts, 'guest-made'), undefined);
    const team = storedByName(ts, 'team')!;
    assert.equal(isSubscribedInStore(ts, cast.guest.id, team.id), false);
    const events = await verifyAction(as('guest'), async () => {
      const res = await subscribe('member', ['team'], { principals: [cast.guest.id] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    // Then the Notification Bot's direct message: someone else subscribed the guest.
    assert.deepEqual(
      events.map((e) => `${e.type}/${e.op}`),
      ['stream/create', 'subscription/add', 'message/undefined'],
    );
    const notice = events[2]!.message as { sender_email: string; content: string };
    assert.equal(notice.sender_email, 'notification-bot@zulip.com');
    assert.match(notice.content, /subscribed you to/);
    assert.ok(isSubscribedInStore(ts, cast.guest.id, team.id));
  });

  it('keeps private channels to those with content access; authorization_errors_fatal=false reports them', async () => {
    const id = await createChannel(ts, as('owner'), 'secret', { invite_only: true });
    assertError(await subscribe('member', ['secret']), 'Unable to access channel (secret).');
    const soft = await subscribe('member', ['secret', 'team'], { authorization_errors_fatal: false });
    assert.equal(soft.status, 200);
    assert.deepEqual(soft.body.unauthorized, ['secret']);
    assert.deepEqual(soft.body.subscribed, {});
    assert.deepEqual(soft.body.already_subscribed, { [cast.member.id]: ['team'] });
    assert.equal(isSubscribedInStore(ts, cast.member.id, id), false);
    // Admins have metadata access, not content access.
    assertError(await subscribe('admin', ['secret']), 'Unable to access channel (secret).');

    // can_subscribe_group lets its members join a private channel...
    stored(ts, id).settings.can_subscribe_group = { direct_members: [cast.member.id], direct_subgroups: [] };
    assert.equal((await subscribe('member', ['secret'])).status, 200);
    assert.ok(isSubscribedInStore(ts, cast.member.id, id));
    // ...but not add others, which needs can_add_subscribers_group (or administering the channel).
    assertError(await subscribe('moderator', ['secret'], { principals: [cast.moderator.id] }), 'Unable to access channel (secret).');
    stored(ts, id).settings.can_add_subscribers_group = { direct_members: [cast.moderator.id], direct_subgroups: [] };
    const added = await subscribe('moderator', ['secret'], { principals: [cast.admin.id] });
    assert.equal(added.status, 200, 'members of can_add_subscribers_group need not be subscribed');
    assert.ok(isSubscribedInStore(ts, cast.admin.id, id));
    assert.equal(isSubscribedInStore(ts, cast.moderator.id, id), false);
  });

  it("needs a permission to subscribe others: the organization's, the channel's or administering it", async () => {
    const id = await createChannel(ts, as('owner'), 'closed');
    const realm = ts.store.realm.data.realm!.settings;
    realm.can_add_subscribers_group = groupId(ts, 'role:nobody');
    try {
      assertError(await subscribe('member', ['closed'], { principals: [cast.moderator.id] }), 'Insufficient permission');
      assert.equal(isSubscribedInStore(ts, cast.moderator.id, id), false);
      assert.equal((await subscribe('member', ['closed'])).status, 200, 'subscribing yourself needs nothing');
      stored(ts, id).settings.can_administer_channel_group = groupId(ts, 'role:members');
      assert.equal((await subscribe('member', ['closed'], { principals: [cast.moderator.id] })).status, 200);
      assert.equal((await subscribe('admin', ['closed'], { principals: [cast.guest.id] })).status, 200);
    } finally {
      delete realm.can_add_subscribers_group;
    }
  });

  it('applies the creation parameters and their permission rules', async () => {
    const realm = ts.store.realm.data.realm!.settings;
    realm.can_create_public_channel_group = groupId(ts, 'role:administrators');
    try {
      assertError(await subscribe('member', ['c-public']), 'Insufficient permission');
      assert.equal((await subscribe('admin', ['c-public'])).status, 200);
    } finally {
      delete realm.can_create_public_channel_group;
    }
    assertError(await subscribe('member', ['c-def'], { is_default_stream: true }), 'Insufficient permission');
    assertError(await subscribe('admin', ['c-def'], { is_default_stream: true, invite_only: true }), 'A default channel cannot be private.');
    assert.equal((await subscribe('admin', ['c-def'], { is_default_stream: true })).status, 200);
    assert.equal(storedByName(ts, 'c-def')!.is_default_stream, true);

    assertError(await subscribe('admin', ['c-ret'], { message_retention_days: 30 }), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    assertError(await subscribe('owner', ['c-ret'], { message_retention_days: 'forever' }), "Bad value for 'message_retention_days': forever");
    assertError(await subscribe('owner', ['c-ret'], { message_retention_days: 0 }), "Bad value for 'message_retention_days': 0");
    await subscribe('owner', ['c-ret'], { message_retention_days: 30 });
    await subscribe('owner', ['c-forever'], { message_retention_days: 'unlimited' });
    await subscribe('admin', ['c-realm'], { message_retention_days: 'realm_default' });
    assert.equal(storedByName(ts, 'c-ret')!.message_retention_days, 30);
    assert.equal(storedByName(ts, 'c-forever')!.message_retention_days, -1);
    assert.equal(storedByName(ts, 'c-realm')!.message_retention_days, null);

    assertError(await subscribe('owner', ['c-web'], { is_web_public: true }), 'Web-public channels are not enabled.');
    assertError(await subscribe('owner', ['c-folder'], { folder_id: 404 }), 'Invalid channel folder ID');
    assertError(await subscribe('owner', ['c-topics'], { topics_policy: 'sometimes' }), 'Invalid topics_policy: sometimes');
    await subscribe('member', ['c-topics'], { topics_policy: 'disable_empty_topic' });
    assert.equal(storedByName(ts, 'c-topics')!.topics_policy, 'disable_empty_topic');
    realm.can_set_topics_policy_group = groupId(ts, 'role:nobody');
    try {
      assertError(await subscribe('member', ['c-topics2'], { topics_policy: 'empty_topic_only' }), 'Insufficient permission');
      assert.equal((await subscribe('member', ['c-topics2'], { topics_policy: 'inherit' })).status, 200);
    } finally {
      delete realm.can_set_topics_policy_group;
    }

    await subscribe('owner', ['c-private'], { invite_only: true });
    await subscribe('owner', ['c-shared'], { invite_only: true, history_public_to_subscribers: true });
    await subscribe('owner', ['c-pubhist'], { history_public_to_subscribers: false });
    assert.equal(storedByName(ts, 'c-private')!.history_public_to_subscribers, false, 'private: protected by default');
    assert.equal(storedByName(ts, 'c-shared')!.history_public_to_subscribers, true);
    assert.equal(storedByName(ts, 'c-pubhist')!.history_public_to_subscribers, true, 'public channels share history');
  });

  it('validates the group settings of a new channel', async () => {
    const everyone = groupId(ts, 'role:everyone');
    assertError(
      await subscribe('owner', ['g1'], { can_add_subscribers_group: everyone }),
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    );
    assertError(
      await subscribe('owner', ['g1'], { can_send_message_group: groupId(ts, 'role:internet') }),
      "'can_send_message_group' setting cannot be set to 'role:internet' group.",
    );
    assertError(await subscribe('owner', ['g1'], { can_send_message_group: 9999 }), 'Invalid user group');
    assertError(
      await subscribe('owner', ['g1'], { can_send_message_group: { direct_members: [9999], direct_subgroups: [] } }),
      'Invalid user ID: 9999',
    );
    assertError(
      await subscribe('owner', ['g1'], { invite_only: true, can_create_topic_group: groupId(ts, 'role:members') }),
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    assertError(
      await subscribe('member', ['g1'], { can_delete_any_message_group: groupId(ts, 'role:moderators') }),
      'Insufficient permission',
    );
    assert.equal(storedByName(ts, 'g1'), undefined);
    const ok = await subscribe('moderator', ['g1'], {
      can_delete_any_message_group: groupId(ts, 'role:moderators'),
      can_send_message_group: { direct_members: [cast.member.id], direct_subgroups: [groupId(ts, 'role:administrators')] },
      can_remove_subscribers_group: { direct_members: [], direct_subgroups: [groupId(ts, 'role:members')] },
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const g1 = storedByName(ts, 'g1')!;
    assert.equal(g1.settings.can_delete_any_message_group, groupId(ts, 'role:moderators'));
    assert.deepEqual(g1.settings.can_send_message_group, {
      direct_members: [cast.member.id],
      direct_subgroups: [groupId(ts, 'role:administrators')],
    });
    assert.equal(g1.settings.can_remove_subscribers_group, groupId(ts, 'role:members'), 'one subgroup collapses to its ID');
  });

  it('checks names, descriptions and colours', async () => {
    assertError(await subscribe('owner', ['   ']), "Channel name can't be empty.");
    assertError(await subscribe('owner', ['x'.repeat(61)]), 'Channel name too long (limit: 60 characters).');
    assertError(await subscribe('owner', ['a\u0007b']), 'Invalid character in channel name, at position 2.');
    const long = await as('owner').post('/users/me/subscriptions', { subscriptions: [{ name: 'd', description: 'y'.repeat(1025) }] });
    assertError(long, 'description is too long (limit: 1024 characters)');
    const color = await as('owner').post('/users/me/subscriptions', { subscriptions: [{ name: 'hue', color: 'red' }] });
    assertError(color, 'subscriptions[0]["color"] is not a valid hex color code');
    assertError(await as('owner').post('/users/me/subscriptions', { subscriptions: [{ color: '#fff' }] }), 'name key is missing from subscriptions[0]');
    assertError(await as('owner').post('/users/me/subscriptions', {}), "Missing 'subscriptions' argument", 'REQUEST_VARIABLE_MISSING');
    assert.equal((await as('owner').post('/users/me/subscriptions', { subscriptions: [{ name: 'y'.repeat(60) }] })).status, 200);
    const ok = await as('owner').post('/users/me/subscriptions', { subscriptions: [{ name: 'hue', color: '#ABC' }] });
    assert.equal(ok.status, 200);
    const sub = ts.store.subscriptions.data.subscriptions.find((s) => s.stream_id === storedByName(ts, 'hue')!.id)!;
    assert.equal(sub.color, '#aabbcc', 'colours are stored as lowercase #rrggbb');
  });

  it('lists removed parameters and unknown ones as ignored, and takes announce', async () => {
    const res = await subscribe('owner', ['ignored'], { stream_post_policy: 2, announce: true, bogus: 1 });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.ignored_parameters_unsupported, ['bogus', 'stream_post_policy']);
  });
});
