import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CALLERS, castOf, type Cast } from '../helpers/people.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const storedProfile = async (ts: TestServer, id: number) => {
  await ts.store.settled();
  const doc = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8'));
  return doc.users.find((u: { id: number }) => u.id === id).profile_data ?? {};
};

describe('custom profile field values: /users/me/profile_data and PATCH /users/{id}', () => {
  let ts: TestServer;
  let cast: Cast;
  const f: Record<string, number> = {};
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts);
    const admin = ts.ownerClient;
    const make = async (key: string, params: Record<string, unknown>) => {
      const res = await admin.post('/realm/profile_fields', params as never);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      f[key] = res.body.id;
    };
    await make('short', { name: 'Title', field_type: 1 });
    await make('long', { name: 'Bio', field_type: 2 });
    await make('select', { name: 'Team', field_type: 3, field_data: { r: { text: 'Red', order: '1' }, b: { text: 'Blue', order: '2' } } });
    await make('date', { name: 'Birthday', field_type: 4 });
    await make('url', { name: 'Site', field_type: 5 });
    await make('users', { name: 'Mentor', field_type: 6 });
    await make('external', { field_type: 7, field_data: { subtype: 'github' } });
    await make('pronouns', { name: 'Pronouns', field_type: 8 });
    await make('locked', { name: 'Employee ID', field_type: 1, editable_by_user: false });
  });
  after(() => ts.stop());

  it('role matrix for PATCH /users/me/profile_data: humans yes, bots and the logged-out no', async () => {
    for (const caller of CALLERS) {
      const res = await cast.client(caller).patch('/users/me/profile_data', { data: [{ id: f.short, value: `T ${caller}` }] });
      const expected = caller === 'bot' ? 400 : caller === 'deactivated' || caller === 'anonymous' ? 401 : 200;
      assert.equal(res.status, expected, `${caller}: ${JSON.stringify(res.body)}`);
      if (caller === 'bot') assert.equal(res.body.msg, 'This endpoint does not accept bot requests.');
      if (caller !== 'anonymous') {
        const stored = await storedProfile(ts, cast[caller].id);
        assert.equal(stored[String(f.short)]?.value, expected === 200 ? `T ${caller}` : undefined, caller);
      }
    }
  });

  it('the eight types: valid values stored, rendered where Markdown-capable, announced (verifyAction)', async () => {
    const me = cast.client('member');
    const memberId = cast.member.id;
    const data = [
      { id: f.short, value: 'Chief *tea* officer' },
      { id: f.long, value: 'Line one\n\nLine <two>' },
      { id: f.select, value: 'b' },
      { id: f.date, value: '1990-02-28' },
      { id: f.url, value: 'https://example.com/me' },
      { id: f.users, value: [cast.admin.id, cast.owner.id] },
      { id: f.external, value: 'octocat' },
      { id: f.pronouns, value: 'she/her' },
    ];
    const events = await verifyAction(me, async () => {
      const res = await me.patch('/users/me/profile_data', { data });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.equal(events.length, 8);
    const first = events[0] as { person: { custom_profile_field: Record<string, unknown> } };
    assert.deepEqual(first.person.custom_profile_field, {
      id: f.short,
      value: 'Chief *tea* officer',
      rendered_value: first.person.custom_profile_field.rendered_value,
    });
    assert.equal(first.person.custom_profile_field.rendered_value, '<p>Chief <em>tea</em> officer</p>');
    const stored = await storedProfile(ts, memberId);
    assert.equal(stored[String(f.users)].value, JSON.stringify([cast.admin.id, cast.owner.id]));
    assert.equal(stored[String(f.select)].value, 'b');
    assert.ok(!('rendered_value' in stored[String(f.select)]));
    assert.doesNotMatch(stored[String(f.long)].rendered_value, /<two>/);
    const res = await cast.client('guest').get(`/users/${memberId}`, { include_custom_profile_fields: true });
    assert.equal(res.body.user.profile_data[String(f.date)].value, '1990-02-28');
    // The same values again change nothing and announce nothing.
    const none = await verifyAction(me, async () => {
      await me.patch('/users/me/profile_data', { data });
    });
    assert.equal(none.length, 0);
  });

  it('invalid values per type are refused with Zulip-style messages; nothing is stored', async () => {
    const me = cast.client('moderator');
    const before = await storedProfile(ts, cast.moderator.id);
    const cases: [number | undefined, unknown, string][] = [
      [f.short, 'x'.repeat(51), 'Title is too long (limit: 50 characters)'],
      [f.long, 'x'.repeat(501), 'Bio is too long (limit: 500 characters)'],
      [f.select, 'green', "'green' is not a valid choice for 'Team'."],
      [f.date, '1990-02-30', 'Birthday is not a date'],
      [f.date, '28/02/1990', 'Birthday is not a date'],
      [f.url, 'javascript:alert(1)', 'Site is not a URL'],
      [f.users, [987654], 'Invalid user ID: 987654'],
      [f.users, [cast.bot.id], `User with ID ${cast.bot.id} is a bot`],
      [f.users, [cast.deactivated.id], `User with ID ${cast.deactivated.id} is deactivated`],
      [f.users, 'not a list', 'Mentor is not a list'],
      [f.pronouns, [1], 'Pronouns is not a string'],
      [4242, 'x', 'Field id 4242 not found.'],
    ];
    for (const [id, value, msg] of cases) {
      const res = await me.patch('/users/me/profile_data', { data: [{ id, value }] });
      assert.equal(res.status, 400, msg);
      assert.equal(res.body.msg, msg);
    }
    assert.deepEqual(await storedProfile(ts, cast.moderator.id), before);
  });

  it('editable_by_user=false: members are told to ask an administrator; administrators may edit anyone', async () => {
    const member = cast.client('member');
    const restricted = 'You are not allowed to change this field. Contact an administrator to update it.';
    let res = await member.patch('/users/me/profile_data', { data: [{ id: f.locked, value: 'E-1' }] });
    assert.equal(res.body.msg, restricted);
    res = await member.delete('/users/me/profile_data', { data: [f.locked] });
    assert.equal(res.body.msg, restricted);
    res = await cast.client('admin').patch(`/users/${cast.member.id}`, {
      profile_data: [{ id: f.locked, value: 'E-1' }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await storedProfile(ts, cast.member.id))[String(f.locked)].value, 'E-1');
    res = await cast.client('admin').patch('/users/me/profile_data', { data: [{ id: f.locked, value: 'A-9' }] });
    assert.equal(res.status, 200);
    // null clears through PATCH /users/{id}.
    await verifyAction(cast.client('member'), async () => {
      res = await cast.client('admin').patch(`/users/${cast.member.id}`, { profile_data: [{ id: f.locked, value: null }] });
      assert.equal(res.status, 200);
    });
    assert.ok(!(String(f.locked) in (await storedProfile(ts, cast.member.id))));
  });

  it('DELETE /users/me/profile_data: clears values; an unknown ID is named', async () => {
    const me = cast.client('member');
    await me.patch('/users/me/profile_data', { data: [{ id: f.pronouns, value: 'they/them' }] });
    let res = await me.delete('/users/me/profile_data', { data: [f.pronouns, 31337] });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Field id 31337 not found.');
    assert.equal((await storedProfile(ts, cast.member.id))[String(f.pronouns)].value, 'they/them');
    const events = await verifyAction(me, async () => {
      res = await me.delete('/users/me/profile_data', { data: [f.pronouns] });
      assert.equal(res.status, 200);
    });
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [
      { type: 'realm_user', op: 'update', person: { user_id: cast.member.id, custom_profile_field: { id: f.pronouns, value: null } } },
    ]);
    assert.ok(!(String(f.pronouns) in (await storedProfile(ts, cast.member.id))));
  });

  it('removing a dropdown choice or a field drops the values that used it (verifyAction)', async () => {
    const me = cast.client('guest');
    await me.patch('/users/me/profile_data', { data: [{ id: f.select, value: 'r' }, { id: f.url, value: 'https://g.example' }] });
    await verifyAction(cast.client('member'), async () => {
      const res = await ts.ownerClient.patch(`/realm/profile_fields/${f.select}`, {
        field_data: { b: { text: 'Blue', order: '1' }, g: { text: 'Green', order: '2' } },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.ok(!(String(f.select) in (await storedProfile(ts, cast.guest.id))));
    await verifyAction(cast.client('member'), async () => {
      assert.equal((await ts.ownerClient.delete(`/realm/profile_fields/${f.url}`)).status, 200);
    });
    assert.ok(!(String(f.url) in (await storedProfile(ts, cast.guest.id))));
  });
});
