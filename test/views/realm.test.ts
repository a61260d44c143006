import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { REALM_SETTINGS } from '../../server/lib/realm/settings.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const storedRealm = async (ts: TestServer) => JSON.parse(await readFile(join(ts.dataDir, 'realm.json'), 'utf8')).realm;

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** The first bytes of a JPEG are all the server looks at. */
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

async function uploadIcon(client: Client, files: { name: string; data: Buffer; type: string }[]) {
  const form = new FormData();
  files.forEach((f, i) => form.append(`file-${i}`, new Blob([new Uint8Array(f.data)], { type: f.type }), f.name));
  const res = await fetch(`${client.baseUrl}/api/v1/realm/icon`, { method: 'POST', headers: client.authHeader, body: form });
  return { status: res.status, body: await res.json() };
}

describe('PATCH /realm and the settings table', () => {
  let ts: TestServer;
  let admin: Client;
  let member: Client;
  before(async () => {
    ts = await startTestServer();
    admin = ts.client(await ts.addUser('Adam', 200));
    member = ts.client(await ts.addUser('Mona'));
  });
  after(() => ts.stop());

  it('name and description: stored, answered, announced as realm/update, and in register', async () => {
    let res: Awaited<ReturnType<Client['patch']>> | undefined;
    const events = await verifyAction(admin, async () => {
      res = await admin.patch('/realm', { name: '  Acme Office ', description: 'We make **anvils**.' });
    });
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    assert.equal(res!.body.name, 'Acme Office');
    assert.equal(res!.body.description, 'We make **anvils**.');
    const realmEvents = events.filter((e) => e.type === 'realm');
    assert.deepEqual(
      realmEvents.map(({ id: _id, ...e }) => e),
      [
        { type: 'realm', op: 'update', property: 'name', value: 'Acme Office' },
        { type: 'realm', op: 'update', property: 'description', value: 'We make **anvils**.' },
      ],
    );
    const stored = await storedRealm(ts);
    assert.equal(stored.name, 'Acme Office');
    assert.equal(stored.description, 'We make **anvils**.');
    const reg = await member.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_name, 'Acme Office');
    assert.equal(reg.body.realm_description, 'We make **anvils**.');
    const settings = await ts.anonymous.get('/server_settings');
    assert.equal(settings.body.realm_name, 'Acme Office');
    assert.match(settings.body.realm_description, /<p>/);
  });

  it('refuses bad values and non-administrators without changing anything', async () => {
    const before = await storedRealm(ts);
    const cases: [Client, Record<string, string | number | boolean>, string | RegExp][] = [
      [member, { name: 'Mine now' }, 'Must be an organization administrator'],
      [admin, { name: '   ' }, /must not be empty/],
      [admin, { name: 'x'.repeat(41) }, 'Organization name is too long.'],
      [admin, { name: 'two\nlines' }, 'Invalid characters in name!'],
      [admin, { description: 'd'.repeat(1001) }, 'Organization description is too long.'],
      [admin, { video_chat_provider: 3 }, /Invalid video_chat_provider/],
      [admin, { video_chat_provider: 'jitsi' }, 'video_chat_provider is not valid JSON'],
      [admin, { enable_spectator_access: true }, /not enabled/],
      [admin, { enable_spectator_access: 'yes' }, /not valid JSON|not a boolean/],
      [admin, { message_retention_days: 30 }, 'Must be an organization owner'],
      // One bad value fails the whole request: the good one is not applied either.
      [admin, { name: 'Partial', video_chat_provider: 99 }, /Invalid video_chat_provider/],
    ];
    for (const [client, params, msg] of cases) {
      const res = await client.patch('/realm', params);
      assert.equal(res.status, 400, JSON.stringify([params, res.body]));
      if (typeof msg === 'string') assert.equal(res.body.msg, msg);
      else assert.match(res.body.msg, msg);
    }
    assert.deepEqual(await storedRealm(ts), before);
  });

  it('video_chat_provider: announced, listed with the available providers', async () => {
    const reg = await admin.post('/register', { fetch_event_types: ['realm'] });
    // A new organization calls with Hearth's own provider (100); Jitsi Meet stays a choice.
    assert.equal(reg.body.realm_video_chat_provider, 100);
    assert.deepEqual(reg.body.realm_available_video_chat_providers.disabled, { name: 'None', id: 0 });
    assert.deepEqual(reg.body.realm_available_video_chat_providers.jitsi_meet, { name: 'Jitsi Meet', id: 1 });
    await verifyAction(admin, () => admin.patch('/realm', { video_chat_provider: 0 }));
    assert.equal((await storedRealm(ts)).settings.video_chat_provider, 0);
  });

  it('owner-only settings: an owner changes message_retention_days ("unlimited" is -1)', async () => {
    const events = await verifyAction(ts.ownerClient, () => ts.ownerClient.patch('/realm', { message_retention_days: 30 }));
    assert.ok(events.some((e) => e.property === 'message_retention_days' && e.value === 30));
    assert.equal((await storedRealm(ts)).settings.message_retention_days, 30);
    await verifyAction(ts.ownerClient, () => ts.ownerClient.patch('/realm', { message_retention_days: 'unlimited' }));
    assert.equal((await storedRealm(ts)).settings.message_retention_days, -1);
    assert.equal((await ts.ownerClient.patch('/realm', { message_retention_days: 0 })).status, 400);
  });

  it('a request that changes nothing sends no event', async () => {
    const name = (await storedRealm(ts)).name;
    const events = await verifyAction(admin, async () => {
      const res = await admin.patch('/realm', { name });
      assert.equal(res.status, 200);
      assert.equal(res.body.name, undefined);
    });
    assert.deepEqual(events.filter((e) => e.type === 'realm'), []);
  });

  it('email visibility (a user-settings default, organization-wide): users see addresses per the new rule', async () => {
    // A deactivated user's address follows the rule too (realm_non_active_users).
    const gone = await ts.addUser('Gone');
    const deactivated = await admin.delete(`/users/${gone.id}`);
    assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
    const reg = await member.post('/register', { fetch_event_types: ['realm_user_settings_defaults'] });
    assert.deepEqual(reg.body.realm_user_settings_defaults, { email_address_visibility: 1 });
    assert.equal((await member.patch('/realm/user_settings_defaults', { email_address_visibility: 3 })).status, 400);

    const events = await verifyAction(member, () => admin.patch('/realm/user_settings_defaults', { email_address_visibility: 3 }));
    const inactive = (await member.post('/register', { fetch_event_types: ['realm_user'] })).body.realm_non_active_users;
    assert.equal(inactive.find((u: { user_id: number }) => u.user_id === gone.id).delivery_email, null);
    assert.ok(events.some((e) => e.type === 'realm_user_settings_defaults' && e.value === 3));
    const users = (await member.post('/register', { fetch_event_types: ['realm_user'] })).body.realm_users;
    const owner = users.find((u: { user_id: number }) => u.user_id === ts.owner.id);
    assert.equal(owner.delivery_email, null);
    assert.match(owner.email, /^user\d+@/);
    // Administrators still see every address; back to "everyone" restores them for members.
    await verifyAction(admin, () => admin.patch('/realm/user_settings_defaults', { email_address_visibility: 1 }));
    await verifyAction(member, () => admin.patch('/realm/user_settings_defaults', { email_address_visibility: 4 }));
    await verifyAction(member, () => admin.patch('/realm/user_settings_defaults', { email_address_visibility: 1 }));
    assert.equal((await admin.patch('/realm/user_settings_defaults', { email_address_visibility: 9 })).status, 400);
    assert.equal((await storedRealm(ts)).settings.email_address_visibility, 1);
  });

  it('group-setting permissions: {new, old} updates, checked, owner-only where Zulip says, announced as update_dict', async () => {
    const groups = (await admin.get('/user_groups')).body.user_groups as { id: number; name: string }[];
    const id = (name: string) => groups.find((g) => g.name === name)!.id;
    const current = (await admin.post('/register', { fetch_event_types: ['realm'] })).body;
    assert.equal(current.realm_can_create_public_channel_group, id('role:members'));

    const events = await verifyAction(
      admin,
      async () => {
        const res = await admin.patch('/realm', {
          can_create_public_channel_group: { new: id('role:administrators'), old: id('role:members') },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.can_create_public_channel_group, id('role:administrators'));
      },
      { fetch_event_types: ['realm'] },
    );
    const ev = events.find((e) => e.type === 'realm') as Record<string, unknown>;
    assert.deepEqual({ ...ev, id: 0 }, {
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { can_create_public_channel_group: id('role:administrators') },
      id: 0,
    });
    assert.equal((await storedRealm(ts)).settings.can_create_public_channel_group, id('role:administrators'));
    // The permission now applies: a member may no longer create a public channel.
    const perms = await member.post('/register', { fetch_event_types: ['realm_user'] });
    assert.equal(perms.body.can_create_public_streams, false);

    // An anonymous group of users.
    const memberId = (await member.get('/users/me')).body.user_id;
    await verifyAction(admin, () => admin.patch('/realm', { can_add_subscribers_group: { new: { direct_members: [memberId], direct_subgroups: [] } } }), {
      fetch_event_types: ['realm'],
    });

    const before = await storedRealm(ts);
    const refused: [Client, Record<string, unknown>, RegExp][] = [
      [admin, { can_create_public_channel_group: { new: id('role:members'), old: id('role:members') } }, /'old' value does not match/],
      [admin, { can_create_public_channel_group: { new: id('role:internet') } }, /cannot be set to 'role:internet'/],
      [admin, { can_create_web_public_channel_group: { new: id('role:members') } }, /cannot be set to 'role:members'/],
      [admin, { can_create_public_channel_group: { new: 99999 } }, /Invalid user group/],
      [admin, { can_create_public_channel_group: 5 }, /is not a dict/],
      [admin, { can_create_groups: { new: id('role:administrators') } }, /Must be an organization owner/],
      [member, { can_add_subscribers_group: { new: id('role:members') } }, /Must be an organization administrator/],
    ];
    for (const [client, params, msg] of refused) {
      const res = await client.patch('/realm', params as Record<string, object>);
      assert.equal(res.status, 400, JSON.stringify([params, res.body]));
      assert.match(res.body.msg, msg);
    }
    assert.deepEqual(await storedRealm(ts), before);

    // Owners change the group-management permissions.
    await verifyAction(ts.ownerClient, () => ts.ownerClient.patch('/realm', { can_create_groups: { new: id('role:administrators') } }), {
      fetch_event_types: ['realm'],
    });
    assert.equal((await storedRealm(ts)).settings.can_create_groups, id('role:administrators'));
    // Setting the current value again changes nothing and sends nothing.
    const none = await verifyAction(ts.ownerClient, () => ts.ownerClient.patch('/realm', { can_create_groups: { new: id('role:administrators') } }), {
      fetch_event_types: ['realm'],
    });
    assert.deepEqual(none.filter((e) => e.type === 'realm'), []);
  });

  it('every table entry has a validator-backed type, a storage place and a permission', () => {
    const names = new Set<string>();
    for (const s of REALM_SETTINGS) {
      assert.ok(!names.has(s.name), `duplicate ${s.name}`);
      names.add(s.name);
      assert.ok(['admin', 'owner'].includes(s.who));
      assert.ok(['record', 'settings'].includes(s.stored.in));
      assert.equal(typeof s.type.read, 'function');
    }
  });
});

describe('public access needs the server to allow web-public channels', () => {
  it('enable_spectator_access is stored and announced', async () => {
    const ts = await startTestServer({ config: { webPublicStreamsEnabled: true } });
    try {
      await verifyAction(ts.ownerClient, () => ts.ownerClient.patch('/realm', { enable_spectator_access: true }), {
        fetch_event_types: ['realm'],
      });
      assert.equal((await storedRealm(ts)).settings.enable_spectator_access, true);
      const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['realm'] });
      assert.equal(reg.body.realm_enable_spectator_access, true);
    } finally {
      await ts.stop();
    }
  });
});

describe('organization icon', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('upload: stored in the data dir, served offline, announced, shown in register and server_settings', async () => {
    const reg0 = await ts.ownerClient.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg0.body.realm_icon_source, 'G');
    assert.equal(reg0.body.realm_icon_url, '/static/hearth-icon.png');

    let res: { status: number; body: Record<string, unknown> } | undefined;
    const events = await verifyAction(ts.ownerClient, async () => {
      res = await uploadIcon(ts.ownerClient, [{ name: 'logo.png', data: PNG, type: 'image/png' }]);
    });
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    const iconUrl = res!.body.icon_url as string;
    assert.match(iconUrl, /^\/realm_icon\/icon-\d+\.png$/);
    const ev = events.find((e) => e.type === 'realm') as Record<string, unknown>;
    assert.deepEqual({ ...ev, id: 0 }, {
      type: 'realm',
      op: 'update_dict',
      property: 'icon',
      data: { icon_url: iconUrl, icon_source: 'U' },
      id: 0,
    });
    const served = await fetch(`${ts.url}${iconUrl}`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
    const stored = await storedRealm(ts);
    const file = join(ts.dataDir, 'realm', stored.settings.icon.file);
    assert.deepEqual(await readFile(file), PNG);
    assert.equal((await ts.anonymous.get('/server_settings')).body.realm_icon, `${ts.url}${iconUrl}`);

    // Anything but exactly one image is refused.
    const bad = [
      [{ name: 'x.png', data: Buffer.from('<svg onload=alert(1)>'), type: 'image/png' }],
      [],
      [
        { name: 'a.png', data: PNG, type: 'image/png' },
        { name: 'b.png', data: PNG, type: 'image/png' },
      ],
    ];
    const huge = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await uploadIcon(ts.ownerClient, [{ name: 'huge.png', data: huge, type: 'image/png' }]);
    assert.equal(tooBig.status, 400);
    assert.match(tooBig.body.msg as string, /larger than the allowed limit of 5 MiB/);
    for (const files of bad) {
      const r = await uploadIcon(ts.ownerClient, files);
      assert.equal(r.status, 400, JSON.stringify(r.body));
    }
    const member = ts.client(await ts.addUser('Mel'));
    assert.equal((await uploadIcon(member, [{ name: 'a.png', data: PNG, type: 'image/png' }])).status, 400);
    assert.equal((await storedRealm(ts)).settings.icon.file, stored.settings.icon.file);

    // Delete: back to the default, the uploaded file removed, the old URL gone.
    await verifyAction(ts.ownerClient, async () => {
      const del = await ts.ownerClient.delete('/realm/icon');
      assert.equal(del.status, 200);
      assert.equal(del.body.icon_url, '/static/hearth-icon.png');
    });
    assert.equal((await storedRealm(ts)).settings.icon, undefined);
    assert.equal(existsSync(file), false);
    assert.equal((await fetch(`${ts.url}${iconUrl}`)).status, 404);

    // A new upload never reuses an old URL (clients cache icons for a year).
    const next = await uploadIcon(ts.ownerClient, [{ name: 'logo.jpg', data: JPEG, type: 'image/jpeg' }]);
    assert.equal(next.status, 200);
    assert.notEqual(next.body.icon_url, iconUrl);
    assert.match(next.body.icon_url as string, /\.jpg$/);
    const served2 = await fetch(`${ts.url}${next.body.icon_url}`);
    assert.equal(served2.headers.get('content-type'), 'image/jpeg');
  });
});
