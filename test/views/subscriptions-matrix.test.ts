import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel, isSubscribedInStore, storedByName } from '../helpers/channels.js';
import { castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type Account, type TestServer } from '../helpers/server.js';

type Role = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'outsider' | 'deactivated';
const ROLES: Role[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'outsider', 'deactivated'];

/**
 * Every subscription action against every role, with Zulip's default
 * settings. Each case runs on fresh channels: a public one every active
 * role is in, and a private one only the owner and the member are in.
 */
describe('subscription actions permission matrix', () => {
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
    const pub = await createChannel(ts, ts.ownerClient, `pub${n}`, {
      principals: [cast.owner.id, cast.admin.id, cast.moderator.id, cast.member.id, cast.guest.id, target.id],
    });
    const priv = await createChannel(ts, ts.ownerClient, `priv${n}`, {
      invite_only: true,
      principals: [cast.owner.id, cast.member.id, target.id],
    });
    return { pub, priv, pubName: `pub${n}`, privName: `priv${n}` };
  }

  const OK = 'ok';
  const GUEST = 'Not allowed for guest users';
  const DEACTIVATED = 'Account is deactivated';
  const unable = (name: string) => `Unable to access channel (${name}).`;
  const missing = (name: string) => `Channel '${name}' does not exist`;

  interface Case {
    label: string;
    run: (c: Awaited<ReturnType<typeof fixture>>, who: Account) => Promise<{ status: number; body: Record<string, unknown> }>;
    expect: (role: Role, c: Awaited<ReturnType<typeof fixture>>) => string;
    /** The stored fact the action changes when it succeeds. */
    effect: (c: Awaited<ReturnType<typeof fixture>>, who: Account) => boolean;
  }

  const sub = (who: Account, name: string, principals?: number[]) =>
    ts.client(who).post('/users/me/subscriptions', { subscriptions: [{ name }], principals });
  const unsub = (who: Account, name: string, principals?: number[]) =>
    ts.client(who).delete('/users/me/subscriptions', { subscriptions: [name], principals });

  const cases: Case[] = [
    {
      label: 'join a public channel',
      run: (c, who) => sub(who, c.pubName),
      expect: (r) => (r === 'guest' ? GUEST : r === 'deactivated' ? DEACTIVATED : OK),
      effect: (c, who) => isSubscribedInStore(ts, who.id, c.pub),
    },
    {
      label: 'join a private channel',
      run: (c, who) => sub(who, c.privName),
      expect: (r, c) =>
        r === 'guest' ? GUEST : r === 'deactivated' ? DEACTIVATED : ['owner', 'member'].includes(r) ? OK : unable(c.privName),
      effect: (c, who) => isSubscribedInStore(ts, who.id, c.priv),
    },
    {
      label: 'add a user to a public channel',
      run: async (c, who) => {
        await unsub(ts.owner, c.pubName, [target.id]);
        return sub(who, c.pubName, [target.id]);
      },
      expect: (r) => (r === 'guest' ? GUEST : r === 'deactivated' ? DEACTIVATED : OK),
      effect: (c) => isSubscribedInStore(ts, target.id, c.pub),
    },
    {
      label: 'add a user to a private channel',
      run: async (c, who) => {
        await unsub(ts.owner, c.privName, [target.id]);
        return sub(who, c.privName, [target.id]);
      },
      expect: (r, c) =>
        r === 'guest' ? GUEST : r === 'deactivated' ? DEACTIVATED : ['owner', 'member'].includes(r) ? OK : unable(c.privName),
      effect: (c) => isSubscribedInStore(ts, target.id, c.priv),
    },
    {
      label: 'leave a public channel',
      run: (c, who) => unsub(who, c.pubName),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : OK),
      effect: (c, who) => !isSubscribedInStore(ts, who.id, c.pub),
    },
    {
      label: 'remove another user from a public channel',
      run: (c, who) => unsub(who, c.pubName, [target.id]),
      expect: (r) => (r === 'deactivated' ? DEACTIVATED : ['owner', 'admin'].includes(r) ? OK : 'Insufficient permission'),
      effect: (c) => !isSubscribedInStore(ts, target.id, c.pub),
    },
    {
      label: 'remove another user from a private channel',
      run: (c, who) => unsub(who, c.privName, [target.id]),
      expect: (r, c) =>
        r === 'deactivated'
          ? DEACTIVATED
          : ['owner', 'admin'].includes(r)
            ? OK
            : r === 'member'
              ? 'Insufficient permission'
              : missing(c.privName),
      effect: (c) => !isSubscribedInStore(ts, target.id, c.priv),
    },
    {
      label: 'create a public channel',
      run: (c, who) => sub(who, `${c.pubName}-new-${who.id}`),
      expect: (r) => (r === 'guest' ? GUEST : r === 'deactivated' ? DEACTIVATED : OK),
      effect: (c, who) => storedByName(ts, `${c.pubName}-new-${who.id}`)?.creator_id === who.id,
    },
    {
      label: 'create a private channel',
      run: (c, who) => ts.client(who).post('/users/me/subscriptions', { subscriptions: [{ name: `${c.privName}-new` }], invite_only: true }),
      expect: (r) => (r === 'guest' ? GUEST : r === 'deactivated' ? DEACTIVATED : OK),
      effect: (c) => storedByName(ts, `${c.privName}-new`)?.invite_only === true,
    },
  ];

  for (const k of cases) {
    it(k.label, async () => {
      for (const role of ROLES) {
        const c = await fixture();
        const who = account(role);
        const subsBefore = structuredClone(ts.store.subscriptions.data.subscriptions);
        const channelsBefore = ts.store.channels.data.channels.length;
        const res = await k.run(c, who);
        const want = k.expect(role, c);
        const label = `${k.label} as ${role}: ${JSON.stringify(res.body)}`;
        if (want === OK) {
          assert.equal(res.status, 200, label);
          assert.ok(k.effect(c, who), `${label}: stored`);
        } else {
          assert.equal(res.status, role === 'deactivated' ? 401 : 400, label);
          assert.equal(res.body.msg, want, label);
          assert.equal(ts.store.channels.data.channels.length, channelsBefore, `${label}: no channel created`);
          // The setup step of "add a user" cases removed the target first; nothing else changed.
          const ignoreTarget = (list: typeof subsBefore) =>
            list.filter((s) => !(s.user_id === target.id && k.label.startsWith('add')));
          assert.deepEqual(ignoreTarget(ts.store.subscriptions.data.subscriptions), ignoreTarget(subsBefore), `${label}: nothing stored`);
        }
      }
    });
  }
});
