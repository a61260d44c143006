import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChannelRecord } from '../../server/store/channel-records.js';
import { CHANNEL_SETTING_NAMES } from '../../server/lib/channels/settings.js';
import { createChannel, stored } from '../helpers/channels.js';
import { groupId, castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type Account, type TestServer } from '../helpers/server.js';

/**
 * PATCH /streams/{stream_id}: who may change what, every parameter against
 * every role, asserting the answer and that the stored channel changed (or
 * stayed exactly as it was).
 */
describe('PATCH /streams/{stream_id} permission matrix', () => {
  let ts: TestServer;
  let cast: Cast;
  let chanAdmin: Account;
  let outsider: Account;
  let folderId: number;
  before(async () => {
    ts = await startTestServer({ config: { webPublicStreamsEnabled: true } });
    ts.store.realm.data.realm!.settings.enable_spectator_access = true;
    cast = await castOf(ts, { owner: ts.owner });
    chanAdmin = await ts.addUser('Chad', 400);
    outsider = await ts.addUser('Otto', 400);
    const f = await ts.ownerClient.post('/channel_folders/create', { name: 'Work', description: '' });
    folderId = f.body.channel_folder_id;
  });
  after(() => ts.stop());

  const DENIED = 'You do not have permission to administer this channel.';
  const INVISIBLE = 'Invalid channel ID';
  const CONTENT = 'Channel content access is required.';

  interface Param {
    name: string;
    value: () => unknown;
    changed: (c: ChannelRecord) => boolean;
    /** Prepares the fresh channel (e.g. archives it) before the request. */
    setup?: (id: number) => Promise<void>;
  }
  const moderators = () => groupId(ts, 'role:moderators');
  let renames = 0;
  const params = (isPrivate: boolean): Param[] => [
    { name: 'new_name', value: () => `Renamed ${renames}`, changed: (c) => c.name === `Renamed ${renames++}` },
    { name: 'description', value: () => 'New words', changed: (c) => c.description === 'New words' },
    { name: 'is_private', value: () => !isPrivate, changed: (c) => c.invite_only === !isPrivate },
    ...(isPrivate ? [] : [{ name: 'is_web_public', value: () => true, changed: (c: ChannelRecord) => c.is_web_public }]),
    ...(isPrivate ? [] : [{ name: 'is_default_stream', value: () => true, changed: (c: ChannelRecord) => c.is_default_stream }]),
    { name: 'message_retention_days', value: () => 7, changed: (c) => c.message_retention_days === 7 },
    { name: 'folder_id', value: () => folderId, changed: (c) => c.folder_id === folderId },
    // Public channels always share history (false is refused below); private ones may start sharing it.
    {
      name: 'history_public_to_subscribers',
      value: () => isPrivate,
      changed: (c) => c.history_public_to_subscribers,
    },
    {
      name: 'is_archived',
      value: () => false,
      changed: (c) => !c.is_archived,
      setup: async (id) => {
        const res = await ts.ownerClient.delete(`/streams/${id}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
      },
    },
    { name: 'topics_policy', value: () => 'allow_empty_topic', changed: (c) => c.topics_policy === 'allow_empty_topic' },
    ...CHANNEL_SETTING_NAMES.filter((n) => n !== 'can_create_topic_group').map((n) => ({
      name: n,
      value: () => ({ new: moderators() }),
      changed: (c: ChannelRecord) => c.settings[n] === moderators(),
    })),
    {
      name: 'can_create_topic_group',
      value: () => ({ new: isPrivate ? groupId(ts, 'role:everyone') : moderators() }),
      changed: (c) => (isPrivate ? true : c.settings.can_create_topic_group === moderators()),
    },
  ];

  /** What an organization or channel administrator with full access may not do anyway. */
  function adminOutcome(role: 'owner' | 'admin' | 'chanAdmin', param: string, isPrivate: boolean, subscribed: boolean) {
    if (param === 'message_retention_days' && role !== 'owner') return 'Must be an organization owner';
    if (param === 'is_web_public' && role !== 'owner') return 'Insufficient permission';
    if (param === 'is_default_stream' && role === 'chanAdmin') return 'You do not have permission to change default channels.';
    if (role === 'chanAdmin' && (param === 'can_delete_any_message_group' || param === 'can_delete_own_message_group')) {
      return 'Insufficient permission';
    }
    if (param === 'history_public_to_subscribers' && !isPrivate) return 'Invalid parameters';
    const needsContent = ['is_private', 'can_add_subscribers_group', 'can_subscribe_group'].includes(param);
    if (isPrivate && !subscribed && needsContent) return CONTENT;
    return 'ok';
  }

  /**
   * The channel: created by the owner, administered (can_administer_channel_group)
   * by the creator and chanAdmin; subscribed by owner, member and guest (private:
   * the admin and chanAdmin are not subscribed).
   */
  async function freshChannel(isPrivate: boolean): Promise<number> {
    const name = `m${ts.store.channels.data.nextId}`;
    const principals = [cast.owner.id, cast.member.id, cast.guest.id];
    if (!isPrivate) principals.push(chanAdmin.id);
    const id = await createChannel(ts, ts.ownerClient, name, { invite_only: isPrivate, principals });
    stored(ts, id).settings.can_administer_channel_group = {
      direct_members: [cast.owner.id, chanAdmin.id],
      direct_subgroups: [],
    };
    return id;
  }

  type Role = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'chanAdmin' | 'outsider' | 'deactivated';
  const account = (role: Role): Account =>
    role === 'chanAdmin' ? chanAdmin : role === 'outsider' ? outsider : cast[role];

  function expected(role: Role, param: string, isPrivate: boolean): string {
    switch (role) {
      case 'owner':
        return adminOutcome('owner', param, isPrivate, true);
      case 'admin':
        return adminOutcome('admin', param, isPrivate, false);
      case 'chanAdmin':
        return adminOutcome('chanAdmin', param, isPrivate, !isPrivate);
      case 'moderator':
      case 'outsider':
        return isPrivate ? INVISIBLE : DENIED;
      case 'member':
      case 'guest':
        return DENIED; // subscribed: they may read it, not administer it
      case 'deactivated':
        return 'Account is deactivated';
    }
  }

  async function runRole(role: Role, isPrivate: boolean): Promise<void> {
    for (const p of params(isPrivate)) {
      const id = await freshChannel(isPrivate);
      await p.setup?.(id);
      const before = structuredClone(stored(ts, id));
      const res = await ts.client(account(role)).patch(`/streams/${id}`, { [p.name]: p.value() as never });
      const want = expected(role, p.name, isPrivate);
      const label = `${role} ${isPrivate ? 'private' : 'public'} ${p.name}: ${JSON.stringify(res.body)}`;
      if (want === 'ok') {
        assert.equal(res.status, 200, label);
        assert.ok(p.changed(stored(ts, id)), `${label}: stored value changed`);
      } else {
        assert.equal(res.body.result, 'error', label);
        assert.equal(res.body.msg, want, label);
        assert.equal(res.status, role === 'deactivated' ? 401 : 400, label);
        assert.deepEqual(stored(ts, id), before, `${label}: nothing stored`);
      }
    }
  }

  for (const isPrivate of [false, true]) {
    for (const role of ['owner', 'admin', 'chanAdmin', 'moderator', 'member', 'guest', 'outsider', 'deactivated'] as Role[]) {
      it(`${role} on a ${isPrivate ? 'private' : 'public'} channel`, () => runRole(role, isPrivate));
    }
  }

  it('lets guests administer nothing, even when named in can_administer_channel_group', async () => {
    const id = await freshChannel(false);
    stored(ts, id).settings.can_administer_channel_group = { direct_members: [cast.guest.id], direct_subgroups: [] };
    const res = await ts.client(cast.guest).patch(`/streams/${id}`, { description: 'guest was here' });
    assert.equal(res.body.msg, DENIED);
    assert.equal(stored(ts, id).description, '');
    const priv = await freshChannel(true);
    stored(ts, priv).settings.can_administer_channel_group = { direct_members: [cast.moderator.id], direct_subgroups: [] };
    const mod = await ts.client(cast.moderator).patch(`/streams/${priv}`, { description: 'moderated' });
    assert.equal(mod.status, 200, 'a channel administrator needs no subscription to edit metadata');
    assert.equal(stored(ts, priv).description, 'moderated');
  });
});
