import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserGroupRecord } from '../../server/store/channel-records.js';
import { applyEvents } from '../helpers/apply-events.js';
import { startTestServer, type Account, type Client, type ParamValue, type TestServer } from '../helpers/server.js';
import { drain, stateOf, verifyAction } from '../helpers/verify-action.js';

type Body = Record<string, unknown>;

const SYSTEM = {
  nobody: 1,
  owners: 2,
  administrators: 3,
  moderators: 4,
  fullmembers: 5,
  members: 6,
  everyone: 7,
  internet: 8,
} as const;

const groupParams = (cap: boolean) => ({
  fetch_event_types: ['realm_user_groups'],
  event_types: ['user_group'],
  client_capabilities: { include_deactivated_groups: cap },
});

/**
 * verifyAction for both kinds of client at once: a queue with and one without
 * the include_deactivated_groups capability see the same action; each one's
 * events applied to its register must equal a fresh register of its kind.
 */
async function verifyGroupAction(client: Client, action: () => Promise<unknown>) {
  const regs = [await client.post('/register', groupParams(true)), await client.post('/register', groupParams(false))];
  await action();
  const out: { withCap: Body[]; without: Body[] } = { withCap: [], without: [] };
  for (const [i, cap] of [true, false].entries()) {
    const reg = regs[i]!.body;
    const events = await drain(client, reg.queue_id, reg.last_event_id);
    const fresh = await client.post('/register', groupParams(cap));
    assert.deepEqual(applyEvents(stateOf(reg), events), stateOf(fresh.body), `capability ${cap}`);
    await client.delete('/events', { queue_id: reg.queue_id });
    await client.delete('/events', { queue_id: fresh.body.queue_id });
    out[cap ? 'withCap' : 'without'] = events;
  }
  return out;
}

const ops = (events: Body[]) => events.map((e) => e.op);

function ok(res: { status: number; body: Body }) {
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

function fails(res: { status: number; body: Body }, msg: string, code = 'BAD_REQUEST') {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.result, 'error');
  assert.equal(res.body.msg, msg);
  assert.equal(res.body.code, code);
}

describe('user groups', () => {
  let ts: TestServer;
  let admin: Account, moderator: Account, alice: Account, bob: Account, guest: Account;
  let c: (a: Account) => Client;
  const stored = (id: number): UserGroupRecord => ts.store.groups.data.groups.find((g) => g.id === id)!;
  const snapshot = () => JSON.stringify(ts.store.groups.data);

  async function create(by: Account | null, name: string, extra: Record<string, ParamValue> = {}): Promise<number> {
    const client = by ? c(by) : ts.ownerClient;
    const body = ok(await client.post('/user_groups/create', { name, description: `${name} team`, members: [], ...extra }));
    return body.group_id as number;
  }

  before(async () => {
    ts = await startTestServer();
    c = (a) => ts.client(a);
    admin = await ts.addUser('Ada', 200);
    moderator = await ts.addUser('Moe', 300);
    alice = await ts.addUser('Alice');
    bob = await ts.addUser('Bob');
    guest = await ts.addUser('Gus', 600);
  });
  after(() => ts.stop());

  it('creates the eight system groups with stable IDs, role-derived members and a subgroup chain', async () => {
    const groups = ok(await ts.ownerClient.get('/user_groups')).user_groups as Body[];
    const system = groups.filter((g) => g.is_system_group);
    assert.deepEqual(
      system.map((g) => [g.id, g.name]),
      Object.entries(SYSTEM).map(([n, id]) => [id, n === 'fullmembers' ? 'role:fullmembers' : `role:${n}`]),
    );
    const byName = (n: string) => system.find((g) => g.name === n)!;
    assert.deepEqual(byName('role:owners').members, [ts.owner.id]);
    assert.deepEqual(byName('role:administrators').members, [admin.id]);
    assert.deepEqual(byName('role:administrators').direct_subgroup_ids, [SYSTEM.owners]);
    assert.deepEqual(byName('role:moderators').members, [moderator.id]);
    assert.deepEqual(byName('role:members').members, [alice.id, bob.id]);
    assert.deepEqual(byName('role:fullmembers').members, [alice.id, bob.id], 'no waiting period');
    assert.deepEqual(byName('role:everyone').members, [guest.id]);
    assert.deepEqual(byName('role:everyone').direct_subgroup_ids, [SYSTEM.members]);
    assert.deepEqual(byName('role:internet').direct_subgroup_ids, [SYSTEM.everyone]);
    assert.deepEqual(byName('role:nobody').members, []);
    for (const g of system) {
      assert.equal(g.can_manage_group, SYSTEM.nobody);
      assert.equal(g.creator_id, null);
      assert.equal(g.deactivated, false);
    }
    assert.equal(stored(SYSTEM.everyone).is_system_group, true);

    const all = ok(await ts.ownerClient.get(`/user_groups/${SYSTEM.everyone}/members`)).members;
    assert.deepEqual(all, [ts.owner.id, admin.id, moderator.id, alice.id, bob.id, guest.id]);
    const staff = ok(await ts.ownerClient.get(`/user_groups/${SYSTEM.moderators}/members`)).members;
    assert.deepEqual(staff, [ts.owner.id, admin.id, moderator.id]);
    const direct = await ts.ownerClient.get(`/user_groups/${SYSTEM.moderators}/members`, { direct_member_only: true });
    assert.deepEqual(ok(direct).members, [moderator.id]);
    const isIn = (g: number, u: number) => ts.ownerClient.get(`/user_groups/${g}/members/${u}`);
    assert.equal(ok(await isIn(SYSTEM.administrators, ts.owner.id)).is_user_group_member, true);
    assert.equal(ok(await isIn(SYSTEM.members, guest.id)).is_user_group_member, false);
    assert.equal(ok(await isIn(SYSTEM.nobody, ts.owner.id)).is_user_group_member, false);
    const subs = ok(await ts.ownerClient.get(`/user_groups/${SYSTEM.members}/subgroups`)).subgroups;
    assert.deepEqual(subs, [SYSTEM.owners, SYSTEM.administrators, SYSTEM.moderators, SYSTEM.fullmembers]);
  });

  it('lets members create groups with Zulip defaults, announcing add then add_subgroups', async () => {
    let id = 0;
    const seen = await verifyGroupAction(c(alice), async () => {
      id = await create(alice, 'backend', { members: [alice.id, bob.id, bob.id], subgroups: [SYSTEM.moderators] });
    });
    assert.deepEqual(ops(seen.withCap), ['add', 'add_subgroups']);
    assert.deepEqual(ops(seen.without), ['add', 'add_subgroups']);
    const g = stored(id);
    assert.equal(g.name, 'backend');
    assert.equal(g.description, 'backend team');
    assert.equal(g.creator_id, alice.id);
    assert.ok(Math.abs(g.date_created! - Date.now() / 1000) < 10);
    assert.deepEqual(g.members, [alice.id, bob.id]);
    assert.deepEqual(g.subgroups, [SYSTEM.moderators]);
    const mine = { direct_members: [alice.id], direct_subgroups: [] };
    assert.deepEqual(g.settings, {
      can_add_members_group: mine,
      can_join_group: SYSTEM.nobody,
      can_leave_group: SYSTEM.everyone,
      can_manage_group: mine,
      can_mention_group: SYSTEM.everyone,
      can_remove_members_group: SYSTEM.nobody,
    });
    const event = seen.withCap[0]!.group as Body;
    assert.deepEqual(Object.keys(event).sort(), [
      'can_add_members_group',
      'can_join_group',
      'can_leave_group',
      'can_manage_group',
      'can_mention_group',
      'can_remove_members_group',
      'creator_id',
      'date_created',
      'deactivated',
      'description',
      'direct_subgroup_ids',
      'id',
      'is_system_group',
      'members',
      'name',
    ]);
    assert.equal('for_reactivation' in seen.without[0]!, false, 'internal keys never reach clients');
    // Nested membership: the owner is in role:moderators, hence in backend.
    const owner = await c(bob).get(`/user_groups/${id}/members/${ts.owner.id}`);
    assert.equal(ok(owner).is_user_group_member, true);
    const direct = await c(bob).get(`/user_groups/${id}/members/${ts.owner.id}`, { direct_member_only: true });
    assert.equal(ok(direct).is_user_group_member, false);
  });

  it('normalises group-setting values on create and refuses bad ones, storing nothing', async () => {
    const id = await create(bob, 'normalised', {
      can_mention_group: { direct_members: [], direct_subgroups: [SYSTEM.moderators] },
      can_join_group: { direct_members: [], direct_subgroups: [] },
      can_leave_group: { direct_members: [bob.id, alice.id, bob.id], direct_subgroups: [SYSTEM.owners] },
    });
    assert.equal(stored(id).settings.can_mention_group, SYSTEM.moderators, 'one subgroup collapses to its ID');
    assert.equal(stored(id).settings.can_join_group, SYSTEM.nobody, 'the empty group is role:nobody');
    assert.deepEqual(stored(id).settings.can_leave_group, {
      direct_members: [alice.id, bob.id],
      direct_subgroups: [SYSTEM.owners],
    });

    const before = snapshot();
    const bad: [Record<string, ParamValue>, string][] = [
      [{ can_manage_group: SYSTEM.internet }, "'can_manage_group' setting cannot be set to 'role:internet' group."],
      [{ can_manage_group: SYSTEM.everyone }, "'can_manage_group' setting cannot be set to 'role:everyone' group."],
      [{ can_mention_group: SYSTEM.internet }, "'can_mention_group' setting cannot be set to 'role:internet' group."],
      [{ can_join_group: 999 }, 'Invalid user group'],
      [{ can_join_group: { direct_members: [999], direct_subgroups: [] } }, 'Invalid user ID: 999'],
      [{ can_join_group: { direct_members: [bob.id], direct_subgroups: [998] } }, 'Invalid user group ID: 998'],
      [{ can_join_group: { direct_members: [] } }, 'direct_subgroups key is missing from can_join_group'],
      [{ can_join_group: '"role:members"' }, 'can_join_group is not an integer or a dict'],
      [{ can_join_group: 1.5 }, 'can_join_group is not an integer'],
      [{ can_join_group: { direct_members: [], direct_subgroups: [], x: 1 } }, 'Unexpected arguments: x'],
      [{ members: [999] }, 'Invalid user ID: 999'],
      [{ subgroups: [997] }, 'Invalid user group ID: 997'],
      [{ name: '   ' }, "User group name can't be empty!"],
      [{ name: 'x'.repeat(101) }, 'User group name cannot exceed 100 characters.'],
      [{ name: 'role:admins' }, "User group name cannot start with 'role:'."],
      [{ name: '@here' }, "User group name cannot start with '@'."],
      [{ name: 'backend' }, "User group 'backend' already exists."],
      [{ members: 'nope' }, 'members is not valid JSON'],
    ];
    for (const [extra, msg] of bad) {
      const res = await c(bob).post('/user_groups/create', { name: 'fresh', description: '', members: [], ...extra });
      fails(res, msg);
    }
    const missing = await c(bob).post('/user_groups/create', { name: 'x', members: [] });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.equal(missing.body.msg, "Missing 'description' argument");
    assert.equal(snapshot(), before, 'nothing stored by refused requests');
    assert.ok(await create(bob, 'x'.repeat(100)), 'exactly max_user_group_name_length is fine');
  });

  it('lets only members and administrators (as the organization allows) create groups', async () => {
    fails(await c(guest).post('/user_groups/create', { name: 'g', description: '', members: [] }), 'Not allowed for guest users');
    const realm = ts.store.realm.data.realm!;
    realm.settings.can_create_groups = SYSTEM.administrators;
    try {
      fails(await c(alice).post('/user_groups/create', { name: 'm', description: '', members: [] }), 'Insufficient permission');
      fails(await c(moderator).post('/user_groups/create', { name: 'm', description: '', members: [] }), 'Insufficient permission');
      await create(admin, 'admins-only');
    } finally {
      delete realm.settings.can_create_groups;
    }
    const bot = ts.store.users.get(bob.id)!;
    bot.is_bot = true;
    try {
      fails(await c(bob).get('/user_groups'), 'This endpoint does not accept bot requests.');
    } finally {
      bot.is_bot = false;
    }
  });

  it('edits name, description and settings by the {new, old} rule, per permission', async () => {
    const id = await create(alice, 'editable', { members: [alice.id] });
    const patch = (by: Account, params: Record<string, ParamValue>) => c(by).patch(`/user_groups/${id}`, params);

    fails(await patch(bob, { name: 'x' }), 'Insufficient permission');
    fails(await patch(moderator, { name: 'x' }), 'Insufficient permission');
    fails(await patch(guest, { name: 'x' }), 'Not allowed for guest users');
    fails(await patch(alice, {}), 'No new data supplied');
    fails(await patch(alice, { name: 'backend' }), "User group 'backend' already exists.");
    fails(await c(alice).patch('/user_groups/999', { name: 'x' }), 'Invalid user group');
    fails(await ts.ownerClient.patch(`/user_groups/${SYSTEM.members}`, { name: 'x' }), 'Insufficient permission');
    const badPath = await ts.ownerClient.patch('/user_groups/abc', { name: 'x' });
    assert.equal(badPath.body.code, 'REQUEST_VARIABLE_INVALID');

    const seen = await verifyGroupAction(c(alice), async () => {
      ok(await patch(alice, { name: 'edited', description: 'new words' }));
    });
    assert.deepEqual(
      seen.without.map((e) => e.data),
      [{ name: 'edited' }, { description: 'new words' }],
    );
    assert.equal(stored(id).name, 'edited');

    // The owner manages every group (can_manage_all_groups, role:owners by default as in Zulip); an
    // administrator does not, unless named in the group's can_manage_group. The creator holds can_manage_group.
    fails(await patch(admin, { description: 'by admin' }), 'Insufficient permission');
    await verifyAction(ts.ownerClient, async () => ok(await patch(ts.owner, { description: 'by owner' })), groupParams(true));
    assert.equal(stored(id).description, 'by owner');

    // A stale `old` is refused and nothing changes.
    const before = snapshot();
    const stale = await patch(alice, { can_join_group: { new: SYSTEM.members, old: SYSTEM.everyone } });
    fails(stale, "'old' value does not match the expected value.");
    fails(await patch(alice, { can_join_group: { new: SYSTEM.everyone } }), "'can_join_group' setting cannot be set to 'role:everyone' group.");
    fails(await patch(alice, { can_join_group: SYSTEM.members }), 'can_join_group is not a dict');
    fails(await patch(alice, { can_join_group: { old: SYSTEM.nobody } }), 'new key is missing from can_join_group');
    assert.equal(snapshot(), before);

    const set = await verifyGroupAction(c(alice), async () => {
      ok(await patch(alice, { can_join_group: { new: SYSTEM.members, old: SYSTEM.nobody } }));
      ok(await patch(alice, { can_leave_group: { new: { direct_members: [alice.id], direct_subgroups: [] }, old: { direct_members: [], direct_subgroups: [SYSTEM.everyone] } } }));
    });
    assert.deepEqual(
      set.withCap.map((e) => e.data),
      [{ can_join_group: SYSTEM.members }, { can_leave_group: { direct_members: [alice.id], direct_subgroups: [] } }],
    );
    assert.equal(stored(id).settings.can_join_group, SYSTEM.members);
    // The same value again is no change and no event.
    const same = await verifyGroupAction(c(alice), async () => {
      ok(await patch(alice, { can_join_group: { new: { direct_members: [], direct_subgroups: [SYSTEM.members] } } }));
    });
    assert.deepEqual(same.withCap, []);

    // Handing can_manage_group to a moderator lets them manage; taking it from Alice stops her.
    ok(await patch(alice, { can_manage_group: { new: SYSTEM.moderators } }));
    ok(await patch(moderator, { description: 'moderated' }));
    fails(await patch(alice, { description: 'mine again' }), 'Insufficient permission');
    assert.equal(stored(id).description, 'moderated');
  });

  it('adds and removes members by can_add_members_group, can_join_group and can_leave_group', async () => {
    const id = await create(alice, 'club');
    const members = (by: Account, params: Record<string, ParamValue>) => c(by).post(`/user_groups/${id}/members`, params);

    fails(await members(bob, { add: [bob.id] }), 'Insufficient permission', 'BAD_REQUEST');
    fails(await members(guest, { add: [guest.id] }), 'Not allowed for guest users');
    fails(await members(alice, {}), 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
    fails(await members(alice, { add: [999] }), 'Invalid user ID: 999');

    const added = await verifyGroupAction(c(alice), async () => ok(await members(alice, { add: [bob.id, alice.id] })));
    assert.deepEqual(added.withCap, [{ type: 'user_group', op: 'add_members', group_id: id, user_ids: [alice.id, bob.id], id: 0 }]);
    assert.deepEqual(stored(id).members, [alice.id, bob.id]);
    fails(await members(alice, { add: [bob.id] }), `User ${bob.id} is already a member of this group`);
    fails(await members(alice, { delete: [moderator.id] }), `There is no member '${moderator.id}' in this user group`);

    // Leaving oneself: can_leave_group is role:everyone by default.
    await verifyGroupAction(c(bob), async () => ok(await members(bob, { delete: [bob.id] })));
    assert.deepEqual(stored(id).members, [alice.id]);
    // Removing others needs can_remove_members_group (role:nobody) or managing the group.
    ok(await members(alice, { add: [bob.id] }));
    fails(await members(bob, { delete: [alice.id] }), 'Insufficient permission');

    // Joining oneself needs can_join_group.
    fails(await members(moderator, { add: [moderator.id] }), 'Insufficient permission');
    ok(await c(alice).patch(`/user_groups/${id}`, { can_join_group: { new: SYSTEM.moderators } }));
    ok(await members(moderator, { add: [moderator.id] }));
    fails(await members(moderator, { add: [bob.id, moderator.id] }), 'Insufficient permission');

    // All or nothing: a valid add with an invalid delete stores nothing.
    const before = snapshot();
    fails(await members(alice, { add: [admin.id], delete: [guest.id] }), `There is no member '${guest.id}' in this user group`);
    assert.equal(snapshot(), before);
    const both = await verifyGroupAction(c(alice), async () => ok(await members(alice, { add: [admin.id], delete: [bob.id] })));
    assert.deepEqual(ops(both.without), ['add_members', 'remove_members']);
    assert.deepEqual(stored(id).members, [alice.id, moderator.id, admin.id].sort((a, b) => a - b));
  });

  it('nests subgroups, refuses cycles, and follows membership through them', async () => {
    const outer = await create(alice, 'outer', { members: [alice.id] });
    const inner = await create(alice, 'inner', { members: [bob.id] });
    const sub = (group: number, params: Record<string, ParamValue>) => c(alice).post(`/user_groups/${group}/subgroups`, params);

    const added = await verifyGroupAction(c(alice), async () => ok(await sub(outer, { add: [inner] })));
    assert.deepEqual(added.without.map((e) => [e.op, e.direct_subgroup_ids]), [['add_subgroups', [inner]]]);
    assert.deepEqual(stored(outer).subgroups, [inner]);
    assert.equal(ok(await c(alice).get(`/user_groups/${outer}/members/${bob.id}`)).is_user_group_member, true);
    assert.deepEqual(ok(await c(alice).get(`/user_groups/${outer}/members`)).members, [alice.id, bob.id]);

    const before = snapshot();
    fails(await sub(inner, { add: [outer] }), `User group ${inner} is already a subgroup of one of the passed subgroups.`);
    fails(await sub(outer, { add: [outer] }), `User group ${outer} is already a subgroup of one of the passed subgroups.`);
    fails(await sub(outer, { add: [inner] }), `User group ${inner} is already a subgroup of this group.`);
    fails(await sub(outer, { add: [996] }), 'Invalid user group ID: 996');
    fails(await sub(outer, { delete: [SYSTEM.members] }), `User group ${SYSTEM.members} is not a subgroup of this group.`);
    fails(await sub(outer, {}), 'Nothing to do. Specify at least one of "add" or "delete".');
    fails(await c(bob).post(`/user_groups/${outer}/subgroups`, { add: [SYSTEM.members] }), 'Insufficient permission');
    fails(await ts.ownerClient.post(`/user_groups/${SYSTEM.members}/subgroups`, { add: [outer] }), 'Insufficient permission');
    assert.equal(snapshot(), before);

    // A third level through the members endpoint, then the recursive listing.
    const core = await create(alice, 'core', { members: [moderator.id] });
    await verifyGroupAction(c(alice), async () =>
      ok(await c(alice).post(`/user_groups/${inner}/members`, { add_subgroups: [core] })),
    );
    fails(await sub(core, { add: [outer] }), `User group ${core} is already a subgroup of one of the passed subgroups.`);
    assert.deepEqual(ok(await c(bob).get(`/user_groups/${outer}/subgroups`)).subgroups, [inner, core]);
    const direct = await c(bob).get(`/user_groups/${outer}/subgroups`, { direct_subgroup_only: true });
    assert.deepEqual(ok(direct).subgroups, [inner]);
    assert.equal(ok(await c(bob).get(`/user_groups/${outer}/members/${moderator.id}`)).is_user_group_member, true);

    const removed = await verifyGroupAction(c(alice), async () =>
      ok(await c(alice).post(`/user_groups/${inner}/members`, { delete_subgroups: [core] })),
    );
    assert.deepEqual(ops(removed.withCap), ['remove_subgroups']);
    assert.equal(ok(await c(bob).get(`/user_groups/${outer}/members/${moderator.id}`)).is_user_group_member, false);
  });

  it('deactivates unused groups (remove or update by capability), keeps them listable, and reactivates', async () => {
    const used = await create(alice, 'used');
    const user = await create(alice, 'user-of-used', { can_mention_group: used });
    const parent = await create(alice, 'parent', { subgroups: [used] });
    const res = await c(alice).post(`/user_groups/${used}/deactivate`);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'CANNOT_DEACTIVATE_GROUP_IN_USE');
    assert.equal(res.body.msg, 'Cannot deactivate user group in use.');
    assert.deepEqual(res.body.objections, [
      { type: 'subgroup', supergroup_ids: [parent] },
      { type: 'user_group', group_id: user, settings: ['can_mention_group'] },
    ]);
    assert.equal(stored(used).deactivated, false);
    fails(await c(bob).post(`/user_groups/${parent}/deactivate`), 'Insufficient permission');
    fails(await c(guest).post(`/user_groups/${parent}/deactivate`), 'Insufficient permission');
    fails(await ts.ownerClient.post(`/user_groups/${SYSTEM.everyone}/deactivate`), 'Insufficient permission');

    const seen = await verifyGroupAction(c(alice), async () => ok(await c(alice).post(`/user_groups/${parent}/deactivate`)));
    assert.deepEqual(seen.withCap, [{ type: 'user_group', op: 'update', group_id: parent, data: { deactivated: true }, id: 0 }]);
    assert.deepEqual(seen.without, [{ type: 'user_group', op: 'remove', group_id: parent, id: 0 }]);
    assert.equal(stored(parent).deactivated, true);
    fails(await c(alice).post(`/user_groups/${parent}/deactivate`), 'User group is deactivated.');
    const listed = (include?: boolean) =>
      c(bob)
        .get('/user_groups', include === undefined ? {} : { include_deactivated_groups: include })
        .then((r) => (ok(r).user_groups as Body[]).some((g) => g.id === parent));
    assert.equal(await listed(), false);
    assert.equal(await listed(true), true);
    fails(await c(bob).get(`/user_groups/${parent}/members`), 'User group is deactivated.');
    fails(await c(alice).post('/user_groups/create', { name: 'n', description: '', members: [], subgroups: [parent] }), 'User group is deactivated.');
    fails(await c(alice).patch(`/user_groups/${user}`, { can_mention_group: { new: parent } }), 'User group is deactivated.');
    fails(await c(alice).post('/user_groups/create', { name: 'parent', description: '', members: [] }), "User group 'parent' already exists.");

    // Still editable: members (feature level 391), and a rename reaches only capable clients.
    await verifyGroupAction(c(alice), async () => ok(await c(alice).post(`/user_groups/${parent}/members`, { add: [bob.id] })));
    const renamed = await verifyGroupAction(c(alice), async () => ok(await c(alice).patch(`/user_groups/${parent}`, { name: 'old parent' })));
    assert.deepEqual(renamed.withCap.map((e) => e.data), [{ name: 'old parent' }]);
    assert.deepEqual(renamed.without, []);
    assert.equal('group_deactivated' in renamed.withCap[0]!, false);

    const back = await verifyGroupAction(c(alice), async () => ok(await c(alice).patch(`/user_groups/${parent}`, { deactivated: false })));
    assert.deepEqual(back.withCap.map((e) => [e.op, e.data]), [['update', { deactivated: false }]]);
    assert.deepEqual(ops(back.without), ['add']);
    assert.equal((back.without[0]!.group as Body).name, 'old parent');
    assert.deepEqual((back.without[0]!.group as Body).members, [bob.id]);
    assert.equal(stored(parent).deactivated, false);
    ok(await c(alice).patch(`/user_groups/${parent}`, { deactivated: true }));
    assert.equal(stored(parent).deactivated, false, 'deactivated=true does nothing');
  });

  it('leaves deactivated users out of members and settings, and refuses them as new members', async () => {
    const dave = await ts.addUser('Dave');
    const id = await create(alice, 'with-dave', {
      members: [dave.id, alice.id],
      can_mention_group: { direct_members: [dave.id, alice.id], direct_subgroups: [SYSTEM.administrators] },
    });
    ts.store.users.get(dave.id)!.is_active = false;
    try {
      const g = (ok(await c(alice).get('/user_groups')).user_groups as Body[]).find((x) => x.id === id)!;
      assert.deepEqual(g.members, [alice.id]);
      assert.deepEqual(g.can_mention_group, { direct_members: [alice.id], direct_subgroups: [SYSTEM.administrators] });
      assert.deepEqual(stored(id).members, [alice.id, dave.id].sort((a, b) => a - b), 'kept for a reactivation');
      const everyone = ok(await c(alice).get(`/user_groups/${SYSTEM.everyone}/members`)).members as number[];
      assert.equal(everyone.includes(dave.id), false);
      fails(await c(alice).get(`/user_groups/${id}/members/${dave.id}`), 'User is deactivated');
      fails(await c(alice).post(`/user_groups/${id}/members`, { add: [dave.id] }), `Invalid user ID: ${dave.id}`);
      const denied = await c(dave).get('/user_groups');
      assert.equal(denied.body.code, 'UNAUTHORIZED');
    } finally {
      ts.store.users.get(dave.id)!.is_active = true;
    }
  });

  it('serves realm_user_groups in register, sorted by ID, honouring include_deactivated_groups', async () => {
    const plain = ok(await c(bob).post('/register', { fetch_event_types: ['realm_user_groups'] }));
    const groups = plain.realm_user_groups as Body[];
    assert.deepEqual(groups, [...groups].sort((a, b) => (a.id as number) - (b.id as number)));
    assert.ok(groups.every((g) => g.deactivated === false));
    assert.deepEqual(groups, ok(await c(bob).get('/user_groups')).user_groups);
    const all = ok(await c(bob).post('/register', groupParams(true))).realm_user_groups as Body[];
    assert.deepEqual(all, ok(await c(bob).get('/user_groups', { include_deactivated_groups: true })).user_groups);
    const withoutType = ok(await c(bob).post('/register', { fetch_event_types: ['drafts'] }));
    assert.equal('realm_user_groups' in withoutType, false);
  });
});
