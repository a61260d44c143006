import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel, stored } from '../helpers/channels.js';
import { groupId, castOf, type Cast, type CastRole } from '../helpers/people.js';
import { startTestServer, type TestServer, assertError } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

/** PATCH /streams/{stream_id}: each parameter's rules, errors and events. */
describe('PATCH /streams/{stream_id} rules and events', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
  });
  after(() => ts.stop());

  const patch = (id: number, params: Record<string, unknown>, who: CastRole = 'owner') =>
    ts.client(cast[who]).patch(`/streams/${id}`, params as never);
  const fresh = (params: Record<string, unknown> = {}) =>
    createChannel(ts, ts.ownerClient, `r${ts.store.channels.data.nextId}`, {
      principals: [cast.owner.id, cast.member.id],
      ...params,
    } as never);

  it('answers Invalid channel ID for unknown channels and checks the path', async () => {
    assertError(await patch(9999, { description: 'x' }), 'Invalid channel ID');
    const bad = await ts.ownerClient.patch('/streams/abc', { description: 'x' });
    assertError(bad, 'Invalid stream_id', 'REQUEST_VARIABLE_INVALID');
  });

  it('renames within the length limit, case changes allowed, names unique', async () => {
    const id = await fresh();
    const other = await fresh();
    const name = stored(ts, id).name;
    assertError(await patch(id, { new_name: `  ${name} ` }), 'Channel already has that name.');
    assertError(await patch(id, { new_name: stored(ts, other).name.toUpperCase() }), `Channel '${stored(ts, other).name.toUpperCase()}' already exists`, 'CHANNEL_ALREADY_EXISTS');
    assertError(await patch(id, { new_name: 'n'.repeat(61) }), 'Channel name too long (limit: 60 characters).');
    assertError(await patch(id, { new_name: ' ' }), "Channel name can't be empty.");
    assert.equal(stored(ts, id).name, name);
    const events = await verifyAction(ts.client(cast.member), async () => {
      assert.equal((await patch(id, { new_name: name.toUpperCase() })).status, 200);
    });
    assert.equal(stored(ts, id).name, name.toUpperCase());
    assert.deepEqual({ ...events[0], id: undefined }, {
      type: 'stream', op: 'update', stream_id: id, name, property: 'name', value: name.toUpperCase(), id: undefined,
    });
  });

  it('limits descriptions to 1024 characters, one line, rendered', async () => {
    const id = await fresh();
    assertError(await patch(id, { description: 'd'.repeat(1025) }), 'description is too long (limit: 1024 characters)');
    const events = await verifyAction(ts.client(cast.member), async () => {
      assert.equal((await patch(id, { description: 'two\nlines <b>' })).status, 200);
    });
    assert.equal(stored(ts, id).description, 'two lines <b>');
    assert.equal(events[0]!.rendered_description, '<p>two lines &lt;b&gt;</p>');
    assert.equal((await patch(id, { description: 'd'.repeat(1024) })).status, 200);
  });

  it('renders descriptions as Markdown, linking the channels the author can read', async () => {
    const target = await fresh();
    const hidden = await createChannel(ts, ts.ownerClient, 'Backroom', { invite_only: true });
    const targetName = stored(ts, target).name;
    // The owner reads both channels: both links resolve.
    assert.equal((await patch(target, { description: `**Plans**: see #**${targetName}** and #**Backroom**` })).status, 200);
    const rendered = stored(ts, target).rendered_description;
    assert.match(rendered, /<strong>Plans<\/strong>/);
    assert.match(rendered, new RegExp(`<a class="stream" data-stream-id="${target}" href="[^"]+">#${targetName}</a>`));
    assert.match(rendered, new RegExp(`data-stream-id="${hidden}"`));
    // A channel administrator who cannot read Backroom gets no link (and no ID) for it.
    stored(ts, target).settings.can_administer_channel_group = { direct_members: [cast.member.id], direct_subgroups: [] };
    const events = await verifyAction(ts.client(cast.member), async () => {
      assert.equal((await patch(target, { description: 'see #**Backroom**' }, 'member')).status, 200);
    });
    assert.equal(events[0]!.rendered_description, stored(ts, target).rendered_description);
    assert.doesNotMatch(stored(ts, target).rendered_description, /data-stream-id/);
    // Creation renders the same way.
    const made = await ts.ownerClient.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'Announced', description: 'about #**Backroom**' }],
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const announced = ts.store.channels.data.channels.find((c) => c.name === 'Announced')!;
    assert.match(announced.rendered_description, new RegExp(`data-stream-id="${hidden}"`));
  });

  it('enforces the privacy combinations', async () => {
    const pub = await fresh();
    assertError(await patch(pub, { history_public_to_subscribers: false }), 'Invalid parameters');
    assertError(await patch(pub, { is_private: false, history_public_to_subscribers: false }), 'Invalid parameters');
    assertError(await patch(pub, { is_web_public: true, is_private: true }), /Web-public channels are not enabled|Invalid parameters/);
    stored(ts, pub).settings.can_create_topic_group = groupId(ts, 'role:members');
    assertError(
      await patch(pub, { is_private: true }),
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    assert.equal((await patch(pub, { is_private: true, history_public_to_subscribers: true })).status, 200);
    assert.deepEqual([stored(ts, pub).invite_only, stored(ts, pub).history_public_to_subscribers], [true, true]);
    assertError(
      await patch(pub, { history_public_to_subscribers: false }),
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    const res = await patch(pub, {
      history_public_to_subscribers: false,
      can_create_topic_group: { new: groupId(ts, 'role:everyone') },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(stored(ts, pub).history_public_to_subscribers, false);
    assertError(
      await patch(pub, { can_create_topic_group: { new: groupId(ts, 'role:members') } }),
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    const def = await fresh({ is_default_stream: true });
    assertError(await patch(def, { is_private: true }), 'A default channel cannot be private.');
    assertError(await patch(pub, { is_default_stream: true }), 'A default channel cannot be private.');
  });

  it('refuses web-public channels by default, with a clear message', async () => {
    const id = await fresh();
    const res = await patch(id, { is_web_public: true });
    assertError(res, /^Web-public channels are not enabled\./);
    assert.match(res.body.msg, /server setting and spectator access/);
    ts.app.config.webPublicStreamsEnabled = true;
    try {
      assertError(await patch(id, { is_web_public: true }), /not enabled/, 'BAD_REQUEST');
      ts.store.realm.data.realm!.settings.enable_spectator_access = true;
      assertError(await patch(id, { is_web_public: true }, 'admin'), 'Insufficient permission');
      assert.equal((await patch(id, { is_web_public: true })).status, 200);
      assert.equal(stored(ts, id).is_web_public, true);
      assertError(await patch(id, { history_public_to_subscribers: false }), 'Invalid parameters');
    } finally {
      ts.app.config.webPublicStreamsEnabled = false;
      ts.store.realm.data.realm!.settings.enable_spectator_access = false;
    }
  });

  it('takes message_retention_days as days, unlimited (-1) or realm_default (null)', async () => {
    const id = await fresh();
    for (const [value, storedValue] of [[30, 30], ['unlimited', -1], ['"unlimited"', -1], ['realm_default', null]] as const) {
      const res = await patch(id, { message_retention_days: value });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(stored(ts, id).message_retention_days, storedValue);
    }
    for (const bad of [0, -5, 'forever', 1.5]) {
      assertError(await patch(id, { message_retention_days: bad }), `Bad value for 'message_retention_days': ${bad}`);
    }
    const events = await verifyAction(ts.client(cast.member), async () => {
      await patch(id, { message_retention_days: 'unlimited' });
    });
    assert.equal(events[0]!.value, -1);
  });

  it('moves channels between folders; null takes them out', async () => {
    const id = await fresh();
    const folder = (await ts.ownerClient.post('/channel_folders/create', { name: 'Ops', description: '' })).body.channel_folder_id;
    assertError(await patch(id, { folder_id: 4040 }), 'Invalid channel folder ID');
    assertError(await patch(id, { folder_id: 'x' }), 'folder_id is not valid JSON');
    await verifyAction(ts.client(cast.member), async () => {
      assert.equal((await patch(id, { folder_id: folder })).status, 200);
    });
    assert.equal(stored(ts, id).folder_id, folder);
    await verifyAction(ts.client(cast.member), async () => {
      assert.equal((await patch(id, { folder_id: null })).status, 200);
    });
    assert.equal(stored(ts, id).folder_id, null);
  });

  it('sets topics_policy; empty_topic_only only without named topics (messages hook)', async () => {
    const id = await fresh();
    assertError(await patch(id, { topics_policy: 'whatever' }), 'Invalid topics_policy: whatever');
    for (const policy of ['allow_empty_topic', 'disable_empty_topic', 'empty_topic_only', 'inherit']) {
      assert.equal((await patch(id, { topics_policy: policy })).status, 200);
      assert.equal(stored(ts, id).topics_policy, policy);
    }
    const real = ts.app.channelMessages;
    ts.app.channelMessages = { ...real, hasNamedTopics: (sid) => sid === id };
    try {
      assertError(await patch(id, { topics_policy: 'empty_topic_only' }), /all messages in this channel must be in the "general chat" topic/);
      assert.equal(stored(ts, id).topics_policy, 'inherit');
    } finally {
      ts.app.channelMessages = real;
    }
    const realm = ts.store.realm.data.realm!.settings;
    realm.can_set_topics_policy_group = groupId(ts, 'role:nobody');
    stored(ts, id).settings.can_administer_channel_group = groupId(ts, 'role:members');
    try {
      assertError(await patch(id, { topics_policy: 'allow_empty_topic' }, 'member'), 'Insufficient permission');
      assert.equal((await patch(id, { topics_policy: 'allow_empty_topic' }, 'admin')).status, 200, 'administrators always may');
    } finally {
      delete realm.can_set_topics_policy_group;
    }
  });

  it('unarchives only: is_archived false on an archived channel', async () => {
    const id = await fresh();
    assertError(await patch(id, { is_archived: true }), /Only unarchiving is allowed/);
    assertError(await patch(id, { is_archived: false }), 'Channel is not currently deactivated');
    assert.equal((await ts.ownerClient.delete(`/streams/${id}`)).status, 200);
    assertError(await ts.ownerClient.delete(`/streams/${id}`), 'Channel is already deactivated');
    assert.equal(stored(ts, id).is_archived, true);
    assert.equal((await patch(id, { is_archived: false })).status, 200);
    assert.equal(stored(ts, id).is_archived, false);
    const lonely = await createChannel(ts, ts.ownerClient, 'lonely', { invite_only: true });
    await ts.ownerClient.delete('/users/me/subscriptions', { subscriptions: ['lonely'] });
    await ts.ownerClient.delete(`/streams/${lonely}`);
    assertError(await patch(lonely, { is_archived: false }), 'Channel is private and have no subscribers');
  });

  it('changes group settings with {new, old}, refusing a stale old', async () => {
    const id = await fresh();
    const mods = groupId(ts, 'role:moderators');
    const admins = groupId(ts, 'role:administrators');
    assertError(await patch(id, { can_send_message_group: { old: 7 } }), 'new key is missing from can_send_message_group');
    assertError(await patch(id, { can_send_message_group: 5 }), 'can_send_message_group is not a dict');
    assertError(
      await patch(id, { can_send_message_group: { new: mods, old: admins } }),
      "'old' value does not match the expected value.",
    );
    assertError(
      await patch(id, { can_subscribe_group: { new: groupId(ts, 'role:everyone') } }),
      "'can_subscribe_group' setting cannot be set to 'role:everyone' group.",
    );
    const events = await verifyAction(ts.client(cast.member), async () => {
      const res = await patch(id, { can_send_message_group: { new: admins, old: groupId(ts, 'role:everyone') } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.deepEqual(
      events.map((e) => `${e.property}=${JSON.stringify(e.value)}`),
      [`can_send_message_group=${admins}`, 'stream_post_policy=2', 'is_announcement_only=true'],
    );
    const anon = { direct_members: [cast.member.id], direct_subgroups: [mods] };
    await verifyAction(ts.client(cast.member), async () => {
      assert.equal((await patch(id, { can_remove_subscribers_group: { new: anon } })).status, 200);
    });
    assert.deepEqual(stored(ts, id).settings.can_remove_subscribers_group, anon);
    const same = await verifyAction(ts.client(cast.member), async () => {
      assert.equal((await patch(id, { can_remove_subscribers_group: { new: anon, old: anon } })).status, 200);
    });
    assert.deepEqual(same, [], 'no change, no event');
  });

  it('lists the removed stream_post_policy and is_announcement_only as ignored', async () => {
    const id = await fresh();
    const before = structuredClone(stored(ts, id));
    const res = await patch(id, { stream_post_policy: 2, is_announcement_only: true });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.ignored_parameters_unsupported, ['is_announcement_only', 'stream_post_policy']);
    assert.deepEqual(stored(ts, id), before);
  });

  it('tells users who gain or lose access through web-public status or the access-granting settings', async () => {
    ts.app.config.webPublicStreamsEnabled = true;
    ts.store.realm.data.realm!.settings.enable_spectator_access = true;
    try {
      const pub = await fresh();
      // A guest sees a web-public channel appear (create + its subscribers) and disappear (delete).
      for (const [value, ops] of [[true, ['stream/create', 'subscription/peer_add']], [false, ['stream/delete']]] as const) {
        const events = await verifyAction(
          ts.client(cast.guest),
          async () => assert.equal((await patch(pub, { is_web_public: value })).status, 200),
          { include_subscribers: 'true' },
        );
        assert.deepEqual(events.map((e) => `${e.type}/${e.op}`), ops);
      }
      const created = await verifyAction(ts.client(cast.guest), async () => {
        await ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'open-window' }], is_web_public: true });
      });
      assert.deepEqual(created.map((e) => `${e.type}/${e.op}`), ['stream/create', 'subscription/peer_add']);
      assert.equal((created[0]!.streams as { subscriber_count: number }[])[0]!.subscriber_count, 0);
    } finally {
      ts.app.config.webPublicStreamsEnabled = false;
      ts.store.realm.data.realm!.settings.enable_spectator_access = false;
    }
    const priv = await fresh({ invite_only: true });
    for (const setting of ['can_subscribe_group', 'can_add_subscribers_group', 'can_administer_channel_group']) {
      const gain = await verifyAction(
        ts.client(cast.moderator),
        async () => {
          const res = await patch(priv, { [setting]: { new: groupId(ts, 'role:moderators') } });
          assert.equal(res.status, 200, JSON.stringify(res.body));
        },
        { include_subscribers: 'true' },
      );
      assert.deepEqual(gain.map((e) => `${e.type}/${e.op}`), ['stream/create', 'subscription/peer_add'], setting);
      const lose = await verifyAction(ts.client(cast.moderator), async () => {
        assert.equal((await patch(priv, { [setting]: { new: groupId(ts, 'role:nobody') } })).status, 200);
      });
      assert.deepEqual(lose.map((e) => `${e.type}/${e.op}`), ['stream/delete'], setting);
      const quiet = await verifyAction(ts.client(cast.guest), async () => {
        await patch(priv, { [setting]: { new: { direct_members: [cast.guest.id], direct_subgroups: [] } } });
        await patch(priv, { [setting]: { new: groupId(ts, 'role:nobody') } });
      });
      assert.deepEqual(quiet, [], `guests gain nothing from ${setting}`);
    }
  });

  it('sends each change to those who may know the channel, with events that rebuild their register', async () => {
    const viewers = ['member', 'moderator', 'guest', 'admin'] as const;
    const registers = [{ include_subscribers: 'true' }, {}, { client_capabilities: { archived_channels: true } }];
    for (const who of viewers) {
      for (const params of registers) {
        const id = await fresh();
        const steps: [string, () => Promise<{ status: number; body: unknown }>][] = [
          ['metadata', () => patch(id, { description: 'about', new_name: `e${id}`, topics_policy: 'disable_empty_topic' })],
          ['default', () => patch(id, { is_default_stream: true })],
          ['private', () => patch(id, { is_default_stream: false, is_private: true })],
          ['shared history', () => patch(id, { history_public_to_subscribers: true })],
          ['public', () => patch(id, { is_private: false })],
          ['administer', () => patch(id, { can_administer_channel_group: { new: groupId(ts, 'role:members') } })],
          ['archive', () => ts.ownerClient.delete(`/streams/${id}`)],
          ['unarchive', () => patch(id, { is_archived: false })],
        ];
        for (const [label, step] of steps) {
          await verifyAction(
            ts.client(cast[who]),
            async () => {
              const res = await step();
              assert.equal(res.status, 200, `${label}: ${JSON.stringify(res.body)}`);
            },
            params as never,
          );
        }
      }
    }
  });
});
