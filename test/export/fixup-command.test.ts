/**
 * `hearth zulip-fixup` end to end: an organization is exported, a second Hearth server is set up
 * the way Zulip's Rocket.Chat converter and importer leave an organization (administrators as
 * owners, moderators as members, deactivated people active, no groups, no profile fields, no
 * folders, topics named "<topic> (Imported from Rocket.Chat)", cut to 60 characters), and the
 * fix-up is run against it over HTTP with hearth-fixup.json: everything it restores is checked,
 * and a second run changes nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { doCreateUser } from '../../server/actions/users.js';
import { runFixupCommand } from '../../server/export/fixup-command.js';
import { buildOrganization, everyoneConsents, exportThroughApi, LONG_TOPIC, type Org } from '../helpers/export-org.js';
import { createChannel, storedByName } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { convert, type Converted } from '../helpers/rocketchat-converter.js';
import { reservedEmailReason } from '../../server/lib/people/reserved.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';

const ROLE = { owner: 100, member: 400, guest: 600 } as const;

/** Sets up `target` as Zulip's importer would leave the converted organization. */
async function importLikeZulip(target: TestServer, converted: Converted): Promise<void> {
  assert.equal((await target.ownerClient.patch('/realm', { name: 'Imported' })).status, 200);
  const clients = new Map<string, Client>([[target.owner.email, target.ownerClient]]);
  const ids = new Map<string, number>([[target.owner.email, target.owner.id]]);
  for (const u of converted.users) {
    // Zulip's importer maps the system bots to its own (the addresses are reserved: no account takes them).
    if (ids.has(u.email) || reservedEmailReason(target.app, u.email)) continue;
    const made = await doCreateUser(target.app, { email: u.email, fullName: u.fullName, password: 'correct horse battery', role: ROLE[u.role] });
    ids.set(u.email, made.id);
    clients.set(u.email, target.client({ id: made.id, email: made.email, apiKey: made.api_key, password: 'correct horse battery' }));
  }
  for (const c of converted.channels) {
    const principals = c.subscribers.map((e) => ids.get(e)).filter((id) => id !== undefined);
    await createChannel(target, target.ownerClient, c.name, { principals: JSON.stringify(principals), invite_only: c.inviteOnly });
    if (c.description) await target.ownerClient.patch(`/streams/${storedByName(target, c.name)!.id}`, { description: c.description });
  }
  for (const m of converted.messages) {
    if (m.channel === null) continue;
    const sender = clients.get(m.sender) ?? target.ownerClient;
    await sendStream(sender, m.channel, m.topic, m.content || '(file)');
  }
  for (const u of converted.users) {
    if (!u.isActive && ids.has(u.email)) assert.equal((await target.ownerClient.delete(`/users/${ids.get(u.email)}`)).status, 200);
  }
}

describe('hearth zulip-fixup against an imported organization', () => {
  let source: Org;
  let target: TestServer;
  let dir: string;
  let fixupFile: string;
  const lines: string[] = [];
  let ok: boolean;

  before(async () => {
    source = await buildOrganization();
    await everyoneConsents(source);
    const { files } = await exportThroughApi(source.ts);
    target = await startTestServer();
    await importLikeZulip(target, convert(files));
    dir = await mkdtemp(join(tmpdir(), 'hearth-fixup-'));
    fixupFile = join(dir, 'hearth-fixup.json');
    await writeFile(fixupFile, files.get('hearth-fixup.json')!);
    ok = await runFixupCommand({ site: target.url, email: target.owner.email, apiKey: target.owner.apiKey, fixupFile }, (l) => lines.push(l));
  });
  after(async () => {
    await source.ts.stop();
    await target.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs every step with progress and reports nothing it could not restore', () => {
    assert.equal(ok, true, lines.join('\n'));
    assert.ok(lines.some((l) => l.startsWith('[6/7] Topic names')));
    assert.ok(lines.some((l) => /^Not carried over by the import at all: read and unread state/.test(l)));
  });

  it('topics get their exact names back, the long one too', async () => {
    const general = storedByName(target, 'general')!.id;
    const topics = ((await target.ownerClient.get(`/users/me/${general}/topics`)).body.topics as { name: string }[]).map((t) => t.name).sort();
    assert.deepEqual(topics, ['plans', LONG_TOPIC.toLowerCase()]);
  });

  it('roles, deactivated people, the organization name', async () => {
    const users = (await target.ownerClient.get('/users')).body.members as { email: string; role: number; is_active: boolean }[];
    const by = new Map(users.map((u) => [u.email, u]));
    assert.equal(by.get('ada@office.example')?.role, 200);
    assert.equal(by.get('mo@office.example')?.role, 300);
    assert.equal(by.get('gus@office.example')?.role, 600);
    assert.equal(by.get('gone@office.example')?.is_active, false);
    assert.equal(target.store.realm.data.realm?.name, 'Test Org');
  });

  it('groups, profile fields and values, channel folders, descriptions and archived channels', async () => {
    const groups = (await target.ownerClient.get('/user_groups')).body.user_groups as { name: string; members: number[] }[];
    const designers = groups.find((g) => g.name === 'designers');
    const idOf = (email: string) => target.store.users.byEmailAddress(email)!.id;
    assert.deepEqual(designers?.members.sort(), [idOf('mel@office.example'), idOf('alice@office.example')].sort());
    const fields = (await target.ownerClient.get('/realm/profile_fields')).body.custom_fields as { id: number; name: string }[];
    const team = fields.find((f) => f.name === 'Team')!;
    assert.equal(target.store.users.byEmailAddress('mel@office.example')!.profile_data?.[String(team.id)]?.value, 'Kitchen');
    const old = storedByName(target, 'old')!;
    assert.equal(old.is_archived, true);
    const folders = (await target.ownerClient.get('/channel_folders')).body.channel_folders as { id: number; name: string }[];
    assert.equal(old.folder_id, folders.find((f) => f.name === 'Projects')?.id);
    assert.equal(storedByName(target, 'general')!.description, 'Everything else');
  });

  it('a second run changes nothing', async () => {
    const again: string[] = [];
    assert.equal(await runFixupCommand({ site: target.url, email: target.owner.email, apiKey: target.owner.apiKey, fixupFile }, (l) => again.push(l)), true);
    assert.ok(again.includes('Done: 0 changes made.'), again.join('\n'));
  });

  it('refuses a member, a wrong key and a file that is not a fix-up file, plainly', async () => {
    const mel = target.store.users.byEmailAddress('mel@office.example')!;
    await assert.rejects(runFixupCommand({ site: target.url, email: mel.email, apiKey: mel.api_key, fixupFile }, () => undefined), /not an owner/);
    await assert.rejects(runFixupCommand({ site: target.url, email: target.owner.email, apiKey: 'x'.repeat(32), fixupFile }, () => undefined), /cannot sign in/);
    const bogus = join(dir, 'bogus.json');
    await writeFile(bogus, '{"hello": 1}');
    await assert.rejects(runFixupCommand({ site: target.url, email: target.owner.email, apiKey: target.owner.apiKey, fixupFile: bogus }, () => undefined), /not a Hearth fix-up file/);
  });
});
