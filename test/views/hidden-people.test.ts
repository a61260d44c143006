/**
 * Issue 36 (4, 5): a person a restricted guest may not access, and an address the viewer may
 * not see, answer exactly as someone who does not exist, everywhere a user can be named.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Account, type ApiResponse, type Client, type TestServer } from '../helpers/server.js';

const NOBODY = 4;

/** The answer with the looked-up key replaced, so answers about two keys compare. */
const shape = (res: ApiResponse, key: string | number) => ({
  status: res.status,
  body: JSON.parse(JSON.stringify(res.body).split(String(key)).join('<key>')),
});

describe('hidden people and hidden addresses', () => {
  let ts: TestServer;
  let guest: Client;
  let guestAcc: Account;
  let maya: Account;
  let mel: Client;
  let melAcc: Account;

  before(async () => {
    ts = await startTestServer();
    guestAcc = await ts.addUser('Gus', 600);
    guest = ts.client(guestAcc);
    maya = await ts.addUser('Maya');
    [{ client: mel, account: melAcc }] = await ts.people('Mel');
  });
  after(() => ts.stop());

  const restrictGuests = () => {
    const members = ts.store.groups.data.groups.find((g) => g.name === 'role:members')!.id;
    ts.store.realm.data.realm!.settings.can_access_all_users_group = members;
  };

  it('a restricted guest cannot reveal someone by writing to their ID: refused as an unknown ID', async () => {
    restrictGuests();
    const unknown = 999_999;
    const lookups = async (key: number | string) => ({
      user: shape(await guest.get(`/users/${key}`), key),
      dm: shape(await guest.post('/messages', { type: 'direct', to: JSON.stringify([key]), content: 'hello?' }), key),
      presence: shape(await guest.get(`/users/${key}/presence`), key),
      typing: shape(await guest.post('/typing', { op: 'start', to: JSON.stringify([key]) }), key),
      narrow: shape(await guest.get('/messages', {
        anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'dm', operand: [key] }]),
      }), key),
      sender: shape(await guest.get('/messages', {
        anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'sender', operand: key }]),
      }), key),
    });
    const hidden = await lookups(maya.id);
    const nobody = await lookups(unknown);
    assert.deepEqual(hidden, nobody);
    assert.equal(hidden.dm.status, 400, 'the message is refused');
    assert.equal(hidden.user.body.msg, 'No such user');
    // Nothing was sent, and Maya is still hidden afterwards (GET /users, register).
    assert.equal(ts.store.messages.directOf(maya.id).length, 0);
    assert.equal((await guest.get(`/users/${maya.id}`)).body.msg, 'No such user');
    const members = (await guest.get('/users')).body.members as { user_id: number }[];
    assert.ok(!members.some((m) => m.user_id === maya.id));
    const reg = (await guest.post('/register', { fetch_event_types: JSON.stringify(['realm_user']) })).body;
    // Register names her as Zulip does for an inaccessible user: "Unknown user", stand-in address.
    const entry = reg.realm_users.find((m: { user_id: number }) => m.user_id === maya.id);
    assert.equal(entry?.full_name ?? 'Unknown user', 'Unknown user');
    assert.ok(!JSON.stringify(reg).includes(maya.email), "her address is nowhere in the guest's register");
    assert.ok(!JSON.stringify(reg).includes('"Maya"'), "nor her name");
  });

  it('nor by mentioning her: @**|id** and @**Maya** render as for nobody, in a preview and in a message', async () => {
    restrictGuests();
    const render = async (content: string) => (await guest.post('/messages/render', { content })).body.rendered as string;
    assert.equal(await render(`@**|${maya.id}**`), (await render('@**|999999**')).replace('999999', String(maya.id)));
    assert.equal(await render('@**Maya**'), (await render('@**Nobodyatall**')).replace('Nobodyatall', 'Maya'));
    assert.doesNotMatch(await render(`@**|${maya.id}**`), /user-mention/);
    // Mel is accessible to nobody-restricted members: members still mention Maya.
    assert.match((await mel.post('/messages/render', { content: '@**Maya**' })).body.rendered, /user-mention/);
  });

  it('once Maya writes to the guest, the guest may answer her (as in Zulip)', async () => {
    restrictGuests();
    const first = await ts.client(maya).post('/messages', { type: 'direct', to: JSON.stringify([guestAcc.id]), content: 'hi Gus' });
    assert.equal(first.status, 200);
    const reply = await guest.post('/messages', { type: 'direct', to: JSON.stringify([maya.id]), content: 'hi Maya' });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    delete ts.store.realm.data.realm!.settings.can_access_all_users_group;
  });

  it('with hidden addresses, a real address names nobody (narrows, messages, presence, users), the stand-in works', async () => {
    ts.store.realm.data.realm!.settings.email_address_visibility = NOBODY;
    try {
      const real = maya.email;
      const unknown = 'nobody-here@example.com';
      const lookups = async (email: string) => ({
        user: shape(await mel.get(`/users/${email}`), email),
        dm: shape(await mel.post('/messages', { type: 'direct', to: JSON.stringify([email]), content: 'ping' }), email),
        presence: shape(await mel.get(`/users/${email}/presence`), email),
        sender: shape(await mel.get('/messages', {
          anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'sender', operand: email }]),
        }), email),
        dmNarrow: shape(await mel.get('/messages', {
          anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'dm', operand: email }]),
        }), email),
        subscribe: shape(await ts.ownerClient.post('/users/me/subscriptions', {
          subscriptions: JSON.stringify([{ name: 'lobby' }]), principals: JSON.stringify([email]),
        }), email),
      });
      // Maya has said something, so a narrow by her real address would find it.
      assert.equal((await ts.client(maya).post('/messages', { type: 'direct', to: JSON.stringify([melAcc.id]), content: 'hi Mel' })).status, 200);
      const hidden = await lookups(real);
      const nobody = await lookups(unknown);
      assert.deepEqual(hidden, nobody);
      assert.equal(hidden.dm.status, 400);
      assert.equal(hidden.sender.status, 400);
      // The stand-in address (what the API shows) names her.
      const standIn = `user${maya.id}@hearth.local`;
      const bySender = await mel.get('/messages', {
        anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'sender', operand: standIn }]),
      });
      assert.equal(bySender.status, 200);
      assert.equal(bySender.body.messages.length, 1);
      assert.equal((await mel.get(`/users/${standIn}`)).body.user.user_id, maya.id);
      // Maya herself still uses her own address, and so does signing in.
      assert.equal((await ts.client(maya).get(`/users/${real}`)).status, 200);
      assert.equal((await ts.anonymous.post('/fetch_api_key', { username: real, password: maya.password })).status, 200);
    } finally {
      ts.store.realm.data.realm!.settings.email_address_visibility = 1;
    }
  });

  it('nor by muting, drafting to, naming in a profile field, asking about subscriptions or loading the avatar of an ID', async () => {
    const hana = await ts.addUser('Hana');
    const dora = await ts.addUser('Dora');
    assert.equal((await ts.ownerClient.delete(`/users/${dora.id}`)).status, 200);
    const field = await ts.ownerClient.post('/realm/profile_fields', { name: 'Buddy', field_type: 6 });
    assert.equal(field.status, 200);
    restrictGuests();
    try {
      const lookups = async (key: number) => {
        const avatar = await guest.call('GET', `/avatar/${key}`, {}, { raw: true });
        return {
          mute: shape(await guest.post(`/users/me/muted_users/${key}`), key),
          unmute: shape(await guest.delete(`/users/me/muted_users/${key}`), key),
          subscribed: shape(await guest.get(`/users/${key}/subscriptions/1`), key),
          draft: shape(await guest.post('/drafts', { drafts: JSON.stringify([{ type: 'private', to: [key], topic: '', content: 'x' }]) }), key),
          profile: shape(await guest.patch('/users/me/profile_data', { data: JSON.stringify([{ id: field.body.id, value: [key] }]) }), key),
          avatar: { status: avatar.status, type: avatar.headers.get('content-type'), body: avatar.body },
        };
      };
      const nobody = await lookups(999_999);
      assert.deepEqual(await lookups(hana.id), nobody);
      assert.deepEqual(await lookups(dora.id), nobody, 'a hidden deactivated person too');
      assert.equal(nobody.mute.body.msg, 'No such user');
      assert.equal(nobody.avatar.status, 200, 'an unused ID shows the unknown-user tile to a restricted guest');
      // Members still mute, and see a 404 for an unused ID.
      assert.equal((await mel.post(`/users/me/muted_users/${hana.id}`)).status, 200);
      assert.equal((await mel.call('GET', '/avatar/999999', {}, { raw: true })).status, 404);
    } finally {
      delete ts.store.realm.data.realm!.settings.can_access_all_users_group;
    }
  });
});
