import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CALLERS, castOf, type Cast } from '../helpers/people.js';
import { createChannel } from '../helpers/channels.js';

const FIELDS = [
  'user_id',
  'delivery_email',
  'email',
  'full_name',
  'date_joined',
  'is_active',
  'is_owner',
  'is_admin',
  'is_guest',
  'is_bot',
  'role',
  'timezone',
  'avatar_url',
  'avatar_version',
  'is_imported_stub',
];

describe('GET /users, /users/{id}, /users/{email}, /users/me', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
  });
  after(() => ts.stop());

  it('role matrix for GET /users: every active account reads; deactivated and anonymous do not', async () => {
    const expected: Record<string, number> = {
      owner: 200,
      admin: 200,
      moderator: 200,
      member: 200,
      guest: 200,
      bot: 200,
      deactivated: 401,
      anonymous: 401,
    };
    for (const caller of CALLERS) {
      const res = await cast.client(caller).get('/users');
      assert.equal(res.status, expected[caller], `${caller}: ${JSON.stringify(res.body)}`);
      if (res.status === 200) {
        const ids = res.body.members.map((m: { user_id: number }) => m.user_id);
        assert.deepEqual(ids, ts.store.users.all().map((u) => u.id), caller);
      } else {
        assert.equal(res.body.code, caller === 'deactivated' ? 'UNAUTHORIZED' : 'UNAUTHORIZED');
      }
    }
  });

  it('member objects carry every field, Zulip date format, bots their owner, humans no profile_data unless asked', async () => {
    const res = await cast.client('member').get('/users');
    const byId = new Map(res.body.members.map((m: { user_id: number }) => [m.user_id, m]));
    const member = byId.get(cast.member.id) as Record<string, unknown>;
    for (const f of FIELDS) assert.ok(f in member, f);
    assert.ok(!('profile_data' in member));
    assert.ok(!('is_deleted' in member));
    // The spec's User table: bot_type null for people; bot_owner_id only on bots.
    assert.equal(member.bot_type, null, JSON.stringify(member));
    assert.ok(!('bot_owner_id' in member), JSON.stringify(member));
    assert.match(member.date_joined as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}\+00:00$/);
    assert.equal(member.avatar_url, `/avatar/${cast.member.id}?v=1`);
    const bot = byId.get(cast.bot.id) as Record<string, unknown>;
    assert.equal(bot.is_bot, true);
    assert.equal(bot.bot_type, 1);
    assert.equal(bot.bot_owner_id, cast.member.id);
    const deactivated = byId.get(cast.deactivated.id) as Record<string, unknown>;
    assert.equal(deactivated.is_active, false);
    const withProfile = await cast.client('member').get('/users', { include_custom_profile_fields: true });
    assert.deepEqual(withProfile.body.members.find((m: { user_id: number }) => m.user_id === cast.member.id).profile_data, {});
    assert.ok(!('profile_data' in withProfile.body.members.find((m: { user_id: number }) => m.user_id === cast.bot.id)));
  });

  it('user_ids limits the answer; a bad value is refused', async () => {
    const ids = [cast.admin.id, cast.guest.id, 99999];
    const res = await cast.client('member').get('/users', { user_ids: ids });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.members.map((m: { user_id: number }) => m.user_id),
      [cast.admin.id, cast.guest.id],
    );
    const bad = await cast.client('member').get('/users', { user_ids: '[1,"x"]' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.msg, 'user_ids[1] is not an integer');
  });

  it('email visibility: delivery_email and the API address follow the organization setting', async () => {
    ts.store.realm.data.realm!.settings.email_address_visibility = 3; // admins only
    try {
      const asMember = await cast.client('member').get(`/users/${cast.admin.id}`);
      assert.equal(asMember.body.user.delivery_email, null);
      assert.equal(asMember.body.user.email, `user${cast.admin.id}@hearth.local`);
      const asAdmin = await cast.client('admin').get(`/users/${cast.member.id}`);
      assert.equal(asAdmin.body.user.delivery_email, cast.member.email);
      // By email: the real address only for those who may see it; the user{id}@ address for everyone.
      const hidden = await cast.client('member').get(`/users/${encodeURIComponent(cast.admin.email)}`);
      assert.equal(hidden.status, 400);
      assert.equal(hidden.body.msg, 'No such user');
      const dummy = await cast.client('member').get(`/users/user${cast.admin.id}@hearth.local`);
      assert.equal(dummy.status, 200);
      assert.equal(dummy.body.user.user_id, cast.admin.id);
      const real = await cast.client('admin').get(`/users/${cast.member.email}`);
      assert.equal(real.body.user.user_id, cast.member.id);
      const me = await cast.client('member').get('/users/me');
      assert.equal(me.body.delivery_email, cast.member.email);
    } finally {
      ts.store.realm.data.realm!.settings.email_address_visibility = 1;
    }
  });

  it('GET /users/{id}: deactivated users and bots are found, unknown IDs are not; /users/me adds max_message_id', async () => {
    const d = await cast.client('member').get(`/users/${cast.deactivated.id}`);
    assert.equal(d.status, 200);
    assert.equal(d.body.user.is_active, false);
    const b = await cast.client('guest').get(`/users/${cast.bot.id}`, { include_custom_profile_fields: true });
    assert.equal(b.body.user.bot_owner_id, cast.member.id);
    const none = await cast.client('member').get('/users/424242');
    assert.equal(none.status, 400);
    assert.equal(none.body.msg, 'No such user');
    const anon = await ts.anonymous.get(`/users/${cast.member.id}`);
    assert.equal(anon.status, 401);
    const me = await cast.client('bot').get('/users/me');
    assert.equal(me.body.user_id, cast.bot.id);
    assert.equal(me.body.max_message_id, -1);
    const sent = await cast.client('member').post('/messages', { type: 'direct', to: [cast.admin.id], content: 'hi' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const admin = await cast.client('admin').get('/users/me');
    assert.equal(admin.body.max_message_id, sent.body.id);
    assert.equal((await cast.client('bot').get('/users/me')).body.max_message_id, -1);
  });

  it('spectators read GET /users only in a web-public organization, with day-precision dates and no timezone', async () => {
    const realm = ts.store.realm.data.realm!;
    const refused = async (why: string) => {
      const res = await ts.anonymous.get('/users');
      assert.equal(res.status, 401, why);
      assert.equal(res.body.code, 'UNAUTHORIZED', why);
    };
    // Zulip's allow_web_public_streams_access: the server switch, spectator access and a web-public channel.
    realm.settings.enable_spectator_access = true;
    try {
      await refused('spectator access alone (the server switch is off)');
      ts.app.config.webPublicStreamsEnabled = true;
      await refused('no web-public channel yet');
      const id = await createChannel(ts, ts.ownerClient, 'window');
      const made = await ts.ownerClient.patch(`/streams/${id}`, { is_web_public: true });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const res = await ts.anonymous.get('/users');
      assert.equal(res.status, 200);
      const m = res.body.members.find((x: { user_id: number }) => x.user_id === cast.member.id);
      assert.match(m.date_joined, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(!('timezone' in m));
      assert.equal(m.delivery_email, null);
      assert.equal(m.email, `user${cast.member.id}@hearth.local`);
      // A restart without the server switch closes the list again.
      ts.app.config.webPublicStreamsEnabled = false;
      await refused('the server switch turned off again');
    } finally {
      ts.app.config.webPublicStreamsEnabled = false;
      realm.settings.enable_spectator_access = false;
    }
  });

  it('guests limited by can_access_all_users_group see themselves, bots and people they share a channel with', async () => {
    const membersGroup = ts.store.groups.data.groups.find((g) => g.name === 'role:members')!.id;
    ts.store.realm.data.realm!.settings.can_access_all_users_group = membersGroup;
    try {
      const guest = cast.guest;
      let res = await cast.client('guest').get('/users');
      const ids = () => res.body.members.map((m: { user_id: number }) => m.user_id).sort((a: number, b: number) => a - b);
      const bots = ts.store.users.all().filter((u) => u.is_bot).map((u) => u.id);
      assert.deepEqual(ids(), [guest.id, ...bots].sort((a, b) => a - b));
      const hidden = await cast.client('guest').get(`/users/${cast.admin.id}`);
      assert.equal(hidden.status, 400);
      // Answered as for nobody: a hidden person's ID is not told apart from an unused one.
      assert.equal(hidden.body.msg, 'No such user');
      const nobody = await cast.client('guest').get('/users/999999');
      assert.deepEqual(hidden.body, nobody.body);
      // Sharing a channel makes the admin accessible.
      await createChannel(ts, ts.ownerClient, 'shared', { principals: [guest.id, cast.admin.id] });
      res = await cast.client('guest').get('/users');
      assert.ok(ids().includes(cast.admin.id));
      assert.ok(!ids().includes(cast.moderator.id));
      // So does a direct message.
      const dm = await cast.client('moderator').post('/messages', { type: 'direct', to: [guest.id], content: 'hello' });
      assert.equal(dm.status, 200, JSON.stringify(dm.body));
      res = await cast.client('guest').get('/users');
      assert.ok(ids().includes(cast.moderator.id));
      assert.ok(!ids().includes(cast.owner.id));
      // Register: placeholders without user_list_incomplete, nothing with it.
      const plain = await cast.client('guest').post('/register', { fetch_event_types: ['realm_user'] });
      const unknown = plain.body.realm_users.find((u: { user_id: number }) => u.user_id === cast.owner.id);
      assert.equal(unknown.full_name, 'Unknown user');
      const incomplete = await cast.client('guest').post('/register', {
        fetch_event_types: ['realm_user'],
        client_capabilities: { user_list_incomplete: true },
      });
      assert.ok(!incomplete.body.realm_users.some((u: { user_id: number }) => u.user_id === cast.owner.id));
      // Members are not limited.
      const asMember = await cast.client('member').get('/users');
      assert.equal(asMember.body.members.length, ts.store.users.count);
    } finally {
      delete ts.store.realm.data.realm!.settings.can_access_all_users_group;
    }
  });
});
