import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../../server/app.js';
import { HearthError } from '../../../server/errors.js';
import {
  groupSettingForApi,
  groupSettingMemberIds,
  isSpectatorInGroupSetting,
  isUserInGroup,
  isUserInGroupSetting,
  systemGroupId,
  type SystemGroupName,
} from '../../../server/lib/groups/groups.js';
import { parseGroupSettingUpdate, validateGroupSettingValue } from '../../../server/lib/groups/setting-values.js';
import { silentLogger } from '../../../server/log.js';
import { DEFAULT_REALM_SETTINGS } from '../../../server/store/records.js';
import type { UserGroupRecord, UserGroupsDoc } from '../../../server/store/channel-records.js';
import { Store } from '../../../server/store/store.js';
import { startTestServer, type Account, type TestServer } from '../../helpers/server.js';

const named = (id: number, members: number[], subgroups: number[] = []): UserGroupRecord => ({
  id,
  name: `g${id}`,
  description: '',
  creator_id: null,
  date_created: null,
  members,
  subgroups,
  is_system_group: false,
  deactivated: false,
  settings: {},
});

function throwsMsg(fn: () => unknown, msg: string) {
  assert.throws(fn, (err: unknown) => err instanceof HearthError && err.message === msg && err.code === 'BAD_REQUEST');
}

describe('group-setting values (server/lib/groups/groups.ts)', () => {
  let ts: TestServer;
  let guest: Account, member: Account, admin: Account;
  before(async () => {
    ts = await startTestServer();
    guest = await ts.addUser('Gail', 600);
    member = await ts.addUser('Mo');
    admin = await ts.addUser('Al', 200);
  });
  after(() => ts.stop());

  it('derives system-group membership from roles; deactivated users are never members', () => {
    const app = ts.app;
    const id = (n: SystemGroupName) => systemGroupId(app, n);
    assert.equal(isUserInGroup(app, id('role:everyone'), guest.id), true);
    assert.equal(isUserInGroup(app, id('role:members'), guest.id), false);
    assert.equal(isUserInGroup(app, id('role:fullmembers'), member.id), true);
    assert.equal(isUserInGroup(app, id('role:administrators'), ts.owner.id), true);
    assert.equal(isUserInGroup(app, id('role:owners'), admin.id), false);
    assert.equal(isUserInGroup(app, id('role:internet'), guest.id), true);
    assert.equal(isUserInGroup(app, id('role:nobody'), ts.owner.id), false);
    assert.equal(isUserInGroup(app, 999, ts.owner.id), false);
    ts.store.users.get(member.id)!.is_active = false;
    try {
      assert.equal(isUserInGroup(app, id('role:everyone'), member.id), false);
      assert.equal(isUserInGroupSetting(app, { direct_members: [member.id], direct_subgroups: [] }, member.id), false);
      assert.deepEqual(groupSettingForApi({ direct_members: [member.id, admin.id], direct_subgroups: [3, 2, 3] }, app), {
        direct_members: [admin.id],
        direct_subgroups: [2, 3],
      });
    } finally {
      ts.store.users.get(member.id)!.is_active = true;
    }
    assert.equal(isUserInGroupSetting(app, id('role:everyone'), guest.id, { allowGuests: false }), false);
    assert.equal(isUserInGroupSetting(app, { direct_members: [guest.id], direct_subgroups: [] }, guest.id), true);
    assert.deepEqual(
      groupSettingMemberIds(app, { direct_members: [guest.id], direct_subgroups: [id('role:administrators')] }),
      [ts.owner.id, guest.id, admin.id].sort((a, b) => a - b),
    );
    assert.equal(isSpectatorInGroupSetting(app, id('role:internet')), true);
    assert.equal(isSpectatorInGroupSetting(app, { direct_members: [], direct_subgroups: [id('role:internet')] }), true);
    assert.equal(isSpectatorInGroupSetting(app, id('role:everyone')), false);
  });

  it('follows nested subgroups, cycle-safe, and counts deactivated subgroups as Zulip does', () => {
    const app = ts.app;
    const doc = ts.store.groups.data;
    const a = doc.nextId;
    const b = a + 1;
    // A cycle cannot be made through the API; the walk must still end.
    doc.groups.push(named(a, [], [b]), { ...named(b, [member.id], [a]), deactivated: true });
    doc.nextId += 2;
    try {
      assert.equal(isUserInGroup(app, a, member.id), true, 'through a deactivated subgroup');
      assert.equal(isUserInGroup(app, a, admin.id), false);
      assert.equal(isUserInGroupSetting(app, { direct_members: [], direct_subgroups: [b] }, member.id), true);
      assert.deepEqual(groupSettingMemberIds(app, a), [member.id]);
    } finally {
      doc.groups.splice(doc.groups.length - 2, 2);
    }
  });

  it('validates values with Zulip errors and normalises anonymous groups', () => {
    const app = ts.app;
    const nobody = systemGroupId(app, 'role:nobody');
    const everyone = systemGroupId(app, 'role:everyone');
    assert.equal(validateGroupSettingValue(app, { direct_members: [], direct_subgroups: [] }, 's'), nobody);
    assert.equal(validateGroupSettingValue(app, { direct_members: [], direct_subgroups: [everyone, everyone] }, 's'), everyone);
    assert.deepEqual(validateGroupSettingValue(app, { direct_members: [admin.id, guest.id, admin.id], direct_subgroups: [] }, 's'), {
      direct_members: [guest.id, admin.id].sort((x, y) => x - y),
      direct_subgroups: [],
    });
    throwsMsg(() => validateGroupSettingValue(app, nobody, 's', { allowNobody: false }), "'s' setting cannot be set to 'role:nobody' group.");
    throwsMsg(
      () => validateGroupSettingValue(app, { direct_members: [], direct_subgroups: [] }, 's', { allowNobody: false }),
      "'s' setting cannot be set to 'role:nobody' group.",
    );
    throwsMsg(() => validateGroupSettingValue(app, everyone, 's', { allowEveryone: false }), "'s' setting cannot be set to 'role:everyone' group.");
    assert.equal(validateGroupSettingValue(app, systemGroupId(app, 'role:internet'), 's', { allowInternet: true }), 8);
    throwsMsg(
      () => validateGroupSettingValue(app, { direct_members: [ts.owner.id], direct_subgroups: [] }, 's', { requireSystemGroup: true }),
      "'s' must be a system user group.",
    );
    throwsMsg(
      () => validateGroupSettingValue(app, 3, 's', { allowedSystemGroups: ['role:owners'] }),
      "'s' setting cannot be set to 'role:administrators' group.",
    );
    throwsMsg(() => validateGroupSettingValue(app, null, 's'), 's is not an integer or a dict');
    throwsMsg(() => validateGroupSettingValue(app, { direct_members: ['x'], direct_subgroups: [] }, 's'), 's["direct_members"][0] is not an integer');
  });

  it('parses {new, old} updates: a matching old in any order, a stale old refused, no-ops kept as is', () => {
    const app = ts.app;
    const current = { direct_members: [admin.id, member.id], direct_subgroups: [2] };
    const old = { direct_members: [member.id, admin.id], direct_subgroups: [2] };
    assert.equal(parseGroupSettingUpdate(app, { new: 6, old }, current, 's'), 6);
    assert.equal(parseGroupSettingUpdate(app, { new: 6, old: null }, current, 's'), 6);
    assert.equal(parseGroupSettingUpdate(app, { new: old }, current, 's'), current, 'unchanged value returned as stored');
    throwsMsg(() => parseGroupSettingUpdate(app, { new: 6, old: 7 }, current, 's'), "'old' value does not match the expected value.");
    throwsMsg(() => parseGroupSettingUpdate(app, { new: 999, old }, current, 's'), 'Invalid user group');
    throwsMsg(() => parseGroupSettingUpdate(app, 6, current, 's'), 's is not a dict');
    throwsMsg(() => parseGroupSettingUpdate(app, { new: 6, older: 1 }, current, 's'), 'Unexpected arguments: older');
  });

  it('lets can_manage_all_groups decide who manages every group: owners by default, as Zulip', async () => {
    const created = await ts.client(member).post('/user_groups/create', { name: 'mine', description: '', members: [] });
    const id = created.body.group_id as number;
    const realm = ts.store.realm.data.realm!;
    const reg = await ts.client(member).post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_can_create_groups, systemGroupId(ts.app, 'role:members'));
    assert.equal(reg.body.realm_can_manage_all_groups, systemGroupId(ts.app, 'role:owners'));
    const stored = () => ts.store.groups.data.groups.find((g) => g.id === id)!.description;
    const refused = await ts.client(admin).patch(`/user_groups/${id}`, { description: 'admin' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'Insufficient permission');
    assert.equal(stored(), '');
    assert.equal((await ts.ownerClient.patch(`/user_groups/${id}`, { description: 'owner' })).status, 200);
    assert.equal(stored(), 'owner');
    realm.settings.can_manage_all_groups = systemGroupId(ts.app, 'role:administrators');
    try {
      assert.equal((await ts.client(admin).patch(`/user_groups/${id}`, { description: 'admin' })).status, 200);
      assert.equal(stored(), 'admin');
    } finally {
      delete realm.settings.can_manage_all_groups;
    }
  });
});

describe('a system group missing while serving', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('answers a clear 503 SYSTEM_GROUP_MISSING, never a 500, and stores nothing', async () => {
    const groups = ts.store.groups.data.groups;
    const nobody = groups.find((g) => g.name === 'role:nobody')!;
    groups.splice(groups.indexOf(nobody), 1);
    try {
      const channelsBefore = JSON.stringify(ts.store.channels.data);
      const res = await ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'lost' }] });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.code, 'SYSTEM_GROUP_MISSING');
      assert.match(res.body.msg, /role:nobody is missing .*restart the server/);
      assert.equal(JSON.stringify(ts.store.channels.data), channelsBefore);
      assert.throws(() => systemGroupId(ts.app, 'role:nobody'), (e: unknown) => e instanceof HearthError && e.status === 503);
    } finally {
      groups.unshift(nobody);
    }
    const again = await ts.ownerClient.post('/users/me/subscriptions', { subscriptions: [{ name: 'found' }] });
    assert.equal(again.status, 200, JSON.stringify(again.body));
  });
});

describe('system groups at startup', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-groups-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('adds the missing system groups to an organization created before user groups, once', async () => {
    const store = await Store.open(dir);
    store.realm.data.realm = { id: 1, name: 'Old', description: '', date_created: 0, settings: { ...DEFAULT_REALM_SETTINGS } };
    await store.realm.save();
    assert.deepEqual(store.groups.data.groups, []);
    for (let start = 0; start < 2; start++) {
      const server = createApp({ store, log: silentLogger });
      await server.listen(0, '127.0.0.1');
      await server.close();
    }
    await store.close();
    const onDisk = JSON.parse(await readFile(join(dir, 'groups.json'), 'utf8')) as UserGroupsDoc;
    assert.deepEqual(
      onDisk.groups.map((g) => [g.id, g.name]),
      [
        [1, 'role:nobody'],
        [2, 'role:owners'],
        [3, 'role:administrators'],
        [4, 'role:moderators'],
        [5, 'role:fullmembers'],
        [6, 'role:members'],
        [7, 'role:everyone'],
        [8, 'role:internet'],
      ],
    );
    assert.equal(onDisk.nextId, 9);
    assert.deepEqual(onDisk.groups.find((g) => g.name === 'role:members')!.subgroups, [5]);
    assert.equal(onDisk.groups[0]!.settings.can_manage_group, 1);
  });
});
