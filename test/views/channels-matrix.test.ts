import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel, isSubscribedInStore, stored } from '../helpers/channels.js';
import { groupId, castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type Account, type TestServer } from '../helpers/server.js';

type Role = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'outsider' | 'deactivated';
const ROLES: Role[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'outsider', 'deactivated'];
type Res = { status: number; body: Record<string, unknown> };

/**
 * The channel actions beside PATCH and (un)subscribing, against every role,
 * asserting the answer and the stored state: archiving, default channels,
 * personal subscription settings, the read endpoints, and the subscription
 * actions that a channel's own settings (can_subscribe_group,
 * can_add_subscribers_group, can_remove_subscribers_group) open to non-administrators.
 *
 * Fixture per case: a public channel (owner, member, guest, target subscribed)
 * and a private one (owner, member, guest, target subscribed); `outsider` is
 * a member in neither.
 */
describe('channel actions permission matrix', () => {
  let ts: TestServer;
  let cast: Cast;
  let outsider: Account;
  let target: Account;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    outsider = await ts.addUser('Otto', 400);
    target = await ts.addUser('Tess', 400);
  });
  after(() => ts.stop());

  const account = (r: Role): Account => (r === 'outsider' ? outsider : cast[r]);
  let n = 0;
  async function fixture() {
    n++;
    const principals = [cast.owner.id, cast.member.id, cast.guest.id, target.id];
    const pub = await createChannel(ts, ts.ownerClient, `apub${n}`, { principals });
    const priv = await createChannel(ts, ts.ownerClient, `apriv${n}`, { invite_only: true, principals });
    return { pub, priv, pubName: `apub${n}`, privName: `apriv${n}` };
  }
  type Fixture = Awaited<ReturnType<typeof fixture>>;

  const OK = 'ok';
  const DEACTIVATED = 'Account is deactivated';
  const INVALID = 'Invalid channel ID';
  const NO_ADMIN = 'You do not have permission to administer this channel.';
  const MUST_ADMIN = 'Must be an organization administrator';
  const admins = (r: Role) => r === 'owner' || r === 'admin';
  /** Subscribed to both fixture channels. */
  const inside = (r: Role) => r === 'owner' || r === 'member' || r === 'guest';

  interface Case {
    label: string;
    /** Changes the fixture before the request (channel settings, archiving). */
    prepare?: (c: Fixture) => Promise<void> | void;
    run: (c: Fixture, who: Account) => Promise<Res>;
    expect: (role: Role, c: Fixture) => string;
    /** The stored fact a success establishes (and a refusal must not). */
    effect?: (c: Fixture, who: Account) => boolean;
    /** Checks the answer of a success beyond its status. */
    answer?: (res: Res, c: Fixture, role: Role) => void;
  }

  const as = (who: Account) => ts.client(who);
  const sub = (who: Account, name: string, principals?: number[]) =>
    as(who).post('/users/me/subscriptions', { subscriptions: [{ name }], principals });
  const unsub = (who: Account, name: string, principals?: number[]) =>
    as(who).delete('/users/me/subscriptions', { subscriptions: [name], principals });
  const setSetting = (id: number, name: string, value: number) => {
    stored(ts, id).settings[name] = value;
  };

  const cases: Case[] = [
    {
      label: 'archive a public channel',
      run: (c, who) => as(who).delete(`/streams/${c.pub}`),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : admins(r) ? OK : NO_ADMIN),
      effect: (c) => stored(ts, c.pub).is_archived,
    },
    {
      label: 'archive a private channel',
      run: (c, who) => as(who).delete(`/streams/${c.priv}`),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : admins(r) ? OK : inside(r) ? NO_ADMIN : INVALID),
      effect: (c) => stored(ts, c.priv).is_archived,
    },
    {
      label: 'archive a channel one administers through can_administer_channel_group',
      prepare: (c) => setSetting(c.pub, 'can_administer_channel_group', groupId(ts, 'role:moderators')),
      run: (c, who) => as(who).delete(`/streams/${c.pub}`),
      // Guests never administer channels, whatever the setting says.
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : ['owner', 'admin', 'moderator'].includes(r) ? OK : NO_ADMIN),
      effect: (c) => stored(ts, c.pub).is_archived,
    },
    {
      label: 'make a channel a default channel',
      run: (c, who) => as(who).post('/default_streams', { stream_id: c.pub }),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : admins(r) ? OK : MUST_ADMIN),
      effect: (c) => stored(ts, c.pub).is_default_stream,
    },
    {
      label: 'remove a default channel',
      prepare: (c) => {
        stored(ts, c.pub).is_default_stream = true;
      },
      run: (c, who) => as(who).delete('/default_streams', { stream_id: c.pub }),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : admins(r) ? OK : MUST_ADMIN),
      effect: (c) => !stored(ts, c.pub).is_default_stream,
    },
    {
      label: 'change personal settings of a private channel',
      run: (c, who) =>
        as(who).post('/users/me/subscriptions/properties', {
          subscription_data: [{ stream_id: c.priv, property: 'pin_to_top', value: true }],
        }),
      expect: (r) =>
        // Administrators know the channel but lack content access: Zulip's access_stream_by_id refuses alike.
        r === 'deactivated' ? DEACTIVATED : inside(r) ? OK : INVALID,
      effect: (c, who) =>
        ts.store.subscriptions.data.subscriptions.some((s) => s.user_id === who.id && s.stream_id === c.priv && s.pin_to_top),
    },
    {
      label: 'read a private channel (GET /streams/{id})',
      run: (c, who) => as(who).get(`/streams/${c.priv}`),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : inside(r) || admins(r) ? OK : INVALID),
      answer: (res, c) => assert.equal((res.body.stream as { stream_id: number }).stream_id, c.priv),
    },
    {
      label: 'list the subscribers of a private channel',
      run: (c, who) => as(who).get(`/streams/${c.priv}/members`),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : inside(r) || admins(r) ? OK : INVALID),
      answer: (res) =>
        assert.deepEqual(res.body.subscribers, [cast.owner.id, cast.member.id, cast.guest.id, target.id].sort((a, b) => a - b)),
    },
    {
      label: "check a user's subscription to a private channel",
      run: (c, who) => as(who).get(`/users/${target.id}/subscriptions/${c.priv}`),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : inside(r) || admins(r) ? OK : INVALID),
      answer: (res) => assert.deepEqual(res.body.is_subscribed, true),
    },
    {
      label: "check a user's subscription to a public channel",
      run: (c, who) => as(who).get(`/users/${cast.moderator.id}/subscriptions/${c.pub}`),
      // Guests know only their channels (the guest is subscribed here).
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : OK),
      answer: (res) => assert.deepEqual(res.body.is_subscribed, false),
    },
    {
      label: 'look up a private channel by name (content access)',
      run: (c, who) => as(who).get('/get_stream_id', { stream: c.privName }),
      // Administrators know the channel but may not read it: like a name that does not exist.
      expect: (r, c) => (r === 'deactivated' ? DEACTIVATED : inside(r) ? OK : `Invalid channel name '${c.privName}'`),
      answer: (res, c) => assert.equal(res.body.stream_id, c.priv),
    },
    {
      label: 'look up a public channel by name',
      run: (c, who) => as(who).get('/get_stream_id', { stream: c.pubName }),
      // Guests read only what they are subscribed to (the guest is subscribed here).
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : OK),
      answer: (res, c) => assert.equal(res.body.stream_id, c.pub),
    },
    {
      label: 'join a private channel through can_subscribe_group',
      prepare: async (c) => {
        setSetting(c.priv, 'can_subscribe_group', groupId(ts, 'role:moderators'));
        await unsub(ts.owner, c.privName, [cast.member.id]);
      },
      run: (c, who) => sub(who, c.privName),
      expect: (r, c) =>
        r === 'deactivated'
          ? DEACTIVATED
          : r === 'guest'
            ? 'Not allowed for guest users'
            : ['owner', 'admin', 'moderator'].includes(r)
              ? OK
              : `Unable to access channel (${c.privName}).`,
      effect: (c, who) => isSubscribedInStore(ts, who.id, c.priv),
    },
    {
      label: 'add someone to a private channel through can_add_subscribers_group',
      prepare: async (c) => {
        setSetting(c.priv, 'can_add_subscribers_group', groupId(ts, 'role:moderators'));
        await unsub(ts.owner, c.privName, [target.id]);
      },
      run: (c, who) => sub(who, c.privName, [target.id]),
      // role:moderators holds the setting (administrators and owners included), which also gives content
      // access without a subscription; the subscribed member may add through the organization's
      // can_add_subscribers_group (role:members); the outsider may not even see the channel.
      expect: (r, c) =>
        r === 'deactivated'
          ? DEACTIVATED
          : r === 'guest'
            ? 'Not allowed for guest users'
            : ['owner', 'admin', 'moderator', 'member'].includes(r)
              ? OK
              : `Unable to access channel (${c.privName}).`,
      effect: (c) => isSubscribedInStore(ts, target.id, c.priv),
    },
    {
      label: 'remove someone from a public channel through can_remove_subscribers_group',
      prepare: (c) => setSetting(c.pub, 'can_remove_subscribers_group', groupId(ts, 'role:members')),
      run: (c, who) => unsub(who, c.pubName, [target.id]),
      // Guests never hold it (role:members excludes them).
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : r === 'guest' ? 'Insufficient permission' : OK),
      effect: (c) => !isSubscribedInStore(ts, target.id, c.pub),
    },
    {
      label: 'remove someone from a private channel through can_remove_subscribers_group',
      prepare: (c) => setSetting(c.priv, 'can_remove_subscribers_group', groupId(ts, 'role:members')),
      run: (c, who) => unsub(who, c.privName, [target.id]),
      // The setting needs metadata access too: the moderator and the outsider do not know the channel.
      expect: (r, c) =>
        r === 'deactivated'
          ? DEACTIVATED
          : r === 'guest'
            ? 'Insufficient permission'
            : inside(r) || admins(r)
              ? OK
              : `Channel '${c.privName}' does not exist`,
      effect: (c) => !isSubscribedInStore(ts, target.id, c.priv),
    },
  ];

  const snapshot = () =>
    JSON.stringify([ts.store.channels.data, ts.store.subscriptions.data.subscriptions.filter((s) => s.user_id !== target.id)]);

  for (const k of cases) {
    it(k.label, async () => {
      for (const role of ROLES) {
        const c = await fixture();
        await k.prepare?.(c);
        const who = account(role);
        const before = snapshot();
        const effectBefore = k.effect?.(c, who);
        const targetBefore = isSubscribedInStore(ts, target.id, c.pub) + ',' + isSubscribedInStore(ts, target.id, c.priv);
        const res = await k.run(c, who);
        const want = k.expect(role, c);
        const label = `${k.label} as ${role}: ${JSON.stringify(res.body)}`;
        if (want === OK) {
          assert.equal(res.status, 200, label);
          assert.equal(res.body.result, 'success', label);
          if (k.effect) assert.ok(k.effect(c, who), `${label}: stored`);
          k.answer?.(res, c, role);
        } else {
          assert.equal(res.status, role === 'deactivated' ? 401 : 400, label);
          assert.equal(res.body.result, 'error', label);
          assert.equal(res.body.msg, want, label);
          if (k.effect) assert.equal(k.effect(c, who), effectBefore, `${label}: nothing stored`);
          assert.equal(snapshot(), before, `${label}: store unchanged`);
          assert.equal(
            isSubscribedInStore(ts, target.id, c.pub) + ',' + isSubscribedInStore(ts, target.id, c.priv),
            targetBefore,
            `${label}: target unchanged`,
          );
        }
      }
    });
  }
});
