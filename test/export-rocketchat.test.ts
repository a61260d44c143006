/**
 * The export for Zulip's importer (server/export/): an organization with every kind of thing the
 * converter carries is exported through Zulip's API (POST /export/realm, the .tar.gz from
 * export_url), decoded with `bson`, and read the way Zulip's convert_rocketchat_data reads it
 * (test/helpers/rocketchat-converter.ts): fields and types, cross-references, topic names within
 * the converter's 60 characters, no `t` on ordinary messages, mentions and reactions, uploads and
 * custom emoji byte for byte, and counts equal to Hearth's. Also: the export list and its events,
 * an export taken while messages are being sent holds one instant, and what stays private.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { doCreateUser } from '../server/actions/users.js';
import { importedTopicName } from '../server/export/rocketchat-model.js';
import { isPrefixFree } from '../server/export/usernames.js';
import { createChannel } from './helpers/channels.js';
import { sendDirect, sendStream } from './helpers/messages.js';
import { convert, decodeAll, type Converted } from './helpers/rocketchat-converter.js';
import { startTestServer, type Account, type Client, type TestServer } from './helpers/server.js';
import { untarGz } from './helpers/tar.js';
import { fetchFile, uploadFiles } from './helpers/uploads.js';

export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
export const LONG_TOPIC = 'Quarterly planning for the new warehouse in Ghent';

export interface Org {
  ts: TestServer;
  people: Record<'ada' | 'mo' | 'mel' | 'gus' | 'al' | 'alice' | 'gone', Account & { client: Client }>;
  channels: Record<'general' | 'secret' | 'old', number>;
  files: { name: string; bytes: Buffer }[];
}

async function person(ts: TestServer, email: string, fullName: string, role: 100 | 200 | 300 | 400 | 600): Promise<Account & { client: Client }> {
  const u = await doCreateUser(ts.app, { email, fullName, password: 'correct horse battery', role });
  const account = { id: u.id, email: u.email, apiKey: u.api_key, password: 'correct horse battery' };
  return { ...account, client: ts.client(account) };
}

/** An organization with what the converter carries, and what only the fix-up restores. */
export async function buildOrganization(): Promise<Org> {
  const ts = await startTestServer();
  const people = {
    ada: await person(ts, 'ada@office.example', 'Ada Admin', 200),
    mo: await person(ts, 'mo@office.example', 'Mo Moderator', 300),
    mel: await person(ts, 'mel@office.example', 'Mel', 400),
    gus: await person(ts, 'gus@office.example', 'Gus Guest', 600),
    // "al" is a prefix of "alice": usernames must not be.
    al: await person(ts, 'al@office.example', 'Al', 400),
    alice: await person(ts, 'alice@office.example', 'Alice', 400),
    gone: await person(ts, 'gone@office.example', 'Gone Person', 400),
  };
  const owner = ts.ownerClient;
  const folder = await owner.post('/channel_folders/create', { name: 'Projects', description: 'Work in progress' });
  assert.equal(folder.status, 200, JSON.stringify(folder.body));
  const everyone = Object.values(people).map((p) => p.id);
  const general = await createChannel(ts, owner, 'general', { principals: JSON.stringify([ts.owner.id, ...everyone]) });
  assert.equal((await owner.patch(`/streams/${general}`, { description: 'Everything else' })).status, 200);
  const secret = await createChannel(ts, owner, 'secret', { principals: JSON.stringify([ts.owner.id, people.mel.id]), invite_only: true });
  const old = await createChannel(ts, owner, 'old', { principals: JSON.stringify([ts.owner.id, people.mel.id]), folder_id: folder.body.channel_folder_id as number });

  const emojiForm = new FormData();
  emojiForm.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'party.png');
  const emoji = await fetch(`${ts.url}/api/v1/realm/emoji/party_hearth`, { method: 'POST', headers: owner.authHeader, body: emojiForm });
  assert.equal(emoji.status, 200);

  const files = [
    { name: 'plan.pdf', bytes: Buffer.from('%PDF-1.4 a plan\n'.repeat(20_000)) },
    { name: 'site.png', bytes: PNG },
  ];
  const urls: string[] = [];
  for (const f of files) {
    const up = await uploadFiles(owner, [{ name: f.name, content: f.bytes, type: f.name.endsWith('.png') ? 'image/png' : 'application/pdf' }]);
    assert.equal(up.status, 200, JSON.stringify(up.body));
    urls.push(`[${f.name}](${up.body.url as string})`);
  }
  const m1 = await sendStream(owner, 'general', 'plans', `Hi @**Mel** and @**Ada Admin|${people.ada.id}**, cc @_**Alice**. Mail x@allianz.example or @here.`);
  await sendStream(people.mel.client, 'general', 'plans', '@**all** lunch at noon');
  await sendStream(people.al.client, 'general', 'plans', `@**Al** and @**Alice** both`);
  await sendStream(owner, 'general', LONG_TOPIC, `The drawings:\n${urls.join('\n')}`);
  await sendStream(people.mel.client, 'general', LONG_TOPIC.toLowerCase(), 'same topic, other case');
  await sendStream(owner, 'secret', 'quiet', 'just us');
  await sendStream(people.mel.client, 'old', 'history', 'from before');
  await sendDirect(owner, [people.mel.id], 'a direct message');
  await sendDirect(owner, [people.mel.id, people.ada.id], 'a group');
  await sendDirect(people.mel.client, [people.mel.id], 'a note to self');
  await sendStream(people.gone.client, 'general', 'plans', 'my last words');
  assert.equal((await people.mel.client.post(`/messages/${m1}/reactions`, { emoji_name: 'thumbs_up' })).status, 200);
  assert.equal((await people.ada.client.post(`/messages/${m1}/reactions`, { emoji_name: 'thumbs_up' })).status, 200);
  assert.equal((await people.mel.client.post(`/messages/${m1}/reactions`, { emoji_name: 'party_hearth' })).status, 200);

  assert.equal((await owner.post('/user_groups/create', { name: 'designers', description: 'They draw', members: JSON.stringify([people.mel.id, people.alice.id]) })).status, 200);
  const field = await owner.post('/realm/profile_fields', { name: 'Team', field_type: 1, hint: 'Your team' });
  assert.equal(field.status, 200, JSON.stringify(field.body));
  assert.equal((await owner.patch(`/users/${people.mel.id}`, { profile_data: JSON.stringify([{ id: field.body.id, value: 'Kitchen' }]) })).status, 200);
  assert.equal((await owner.delete(`/streams/${old}`)).status, 200);
  assert.equal((await owner.delete(`/users/${people.gone.id}`)).status, 200);
  return { ts, people, channels: { general, secret, old }, files };
}

/** Everyone allows exporting their private data (a standard export then holds everything). */
export async function everyoneConsents(org: Org): Promise<void> {
  for (const c of [org.ts.ownerClient, ...Object.values(org.people).filter((p) => p.email !== 'gone@office.example').map((p) => p.client)]) {
    assert.equal((await c.patch('/settings', { allow_private_data_export: true })).status, 200);
  }
}

/** POST /export/realm, waits for it, downloads the .tar.gz: the export's files by name. */
export async function exportThroughApi(ts: TestServer, exportType = 2): Promise<{ id: number; files: Map<string, Buffer> }> {
  const start = await ts.ownerClient.post('/export/realm', { export_type: exportType });
  assert.equal(start.status, 200, JSON.stringify(start.body));
  await ts.app.exports.finished();
  const list = (await ts.ownerClient.get('/export/realm')).body.exports as { id: number; pending: boolean; export_url: string | null }[];
  const done = list.find((e) => e.id === start.body.id)!;
  assert.equal(done.pending, false);
  assert.ok(done.export_url, 'an export_url');
  const file = await fetchFile(ts.ownerClient, new URL(done.export_url).pathname);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'application/gzip');
  const files = new Map([...untarGz(file.body)].map(([name, bytes]) => [name.split('/').pop()!, bytes]));
  return { id: start.body.id as number, files };
}

describe('export for Zulip (Rocket.Chat format)', () => {
  let org: Org;
  let files: Map<string, Buffer>;
  let converted: Converted;

  before(async () => {
    org = await buildOrganization();
    await everyoneConsents(org);
    ({ files } = await exportThroughApi(org.ts));
    converted = convert(files);
  });
  after(() => org.ts.stop());

  it('holds every file the converter opens, and the fix-up file', () => {
    for (const name of [
      'instances.bson',
      'users.bson',
      'rocketchat_avatars.bson',
      'rocketchat_room.bson',
      'rocketchat_message.bson',
      'rocketchat_custom_emoji.bson',
      'custom_emoji.files.bson',
      'custom_emoji.chunks.bson',
      'rocketchat_uploads.bson',
      'rocketchat_uploads.files.bson',
      'rocketchat_uploads.chunks.bson',
      'hearth-fixup.json',
      'README.txt',
    ]) {
      assert.ok(files.has(name), name);
    }
    assert.equal(files.get('rocketchat_avatars.bson')!.length, 0);
  });

  it("people: roles as the converter maps them, bots inactive, usernames prefix-free, emails as Hearth's", () => {
    const byEmail = new Map(converted.users.map((u) => [u.email, u]));
    assert.equal(converted.users.length, org.ts.store.users.all().length);
    assert.equal(byEmail.get('owner@example.com')?.role, 'owner');
    assert.equal(byEmail.get('ada@office.example')?.role, 'owner', 'administrators become owners (the fix-up sets them back)');
    assert.equal(byEmail.get('mo@office.example')?.role, 'member', 'moderators become members (the fix-up sets them back)');
    assert.equal(byEmail.get('gus@office.example')?.role, 'guest');
    assert.ok(isPrefixFree(converted.users.map((u) => u.shortName)));
    const users = decodeAll(files.get('users.bson'));
    for (const u of users) {
      assert.ok(u.createdAt instanceof Date);
      assert.equal(typeof u.username, 'string');
      assert.ok(Array.isArray(u.roles));
    }
  });

  it('channels: private stays private, subscribers from __rooms, the description carried', () => {
    const general = converted.channels.find((c) => c.name === 'general')!;
    const secret = converted.channels.find((c) => c.name === 'secret')!;
    assert.equal(general.inviteOnly, false);
    assert.equal(general.description, 'Everything else');
    assert.equal(secret.inviteOnly, true);
    assert.deepEqual(secret.subscribers, ['mel@office.example', 'owner@example.com']);
    assert.ok(converted.channels.find((c) => c.name === 'old'), 'an archived channel is exported too');
  });

  it("messages: counts equal Hearth's, no `t`, one file per message in order, topics within 60 characters", () => {
    const docs = decodeAll(files.get('rocketchat_message.bson'));
    assert.ok(docs.every((d) => !('t' in d)));
    const hearthCount = [...org.ts.store.messages.all()].length;
    const ids = new Set(converted.messages.map((m) => m.id.replace(/f\d+$/, '')));
    assert.equal(ids.size, hearthCount);
    const withFiles = converted.messages.filter((m) => m.file);
    assert.deepEqual(withFiles.map((m) => m.file!.name), ['plan.pdf', 'site.png']);
    assert.deepEqual(withFiles.map((m) => m.file!.bytes), org.files.map((f) => f.bytes));
    assert.equal(converted.messages.length, hearthCount + 1, 'the message with two files became two');
    assert.match(withFiles[0]!.content, /^The drawings:\n\n\[plan\.pdf\]\(\/user_uploads\/NEW\)$/);
    for (const m of converted.messages) assert.ok([...m.topic].length <= 60, m.topic);
    const long = converted.messages.filter((m) => m.channel === 'general' && m.topic.toLowerCase().startsWith('quarterly'));
    assert.equal(long.length, 3, 'both spellings of the topic are one topic');
    assert.equal(new Set(long.map((m) => m.topic)).size, 1);
  });

  it('mentions come back as Zulip Markdown with their flags; a literal @all or @here does not become a wildcard', () => {
    const first = converted.messages.find((m) => m.content.startsWith('Hi '))!;
    assert.equal(first.content, 'Hi @**Mel** and @**Ada Admin**, cc @_**Alice**. Mail x@\u2060allianz.example or @\u2060here.');
    assert.deepEqual(first.mentioned.sort(), ['ada@office.example', 'mel@office.example']);
    assert.equal(first.wildcard, false);
    const lunch = converted.messages.find((m) => m.content.includes('lunch'))!;
    assert.equal(lunch.wildcard, true);
    assert.equal(lunch.content, '@**all** lunch at noon');
    const both = converted.messages.find((m) => m.content.includes('both'))!;
    assert.equal(both.content, '@**Al** and @**Alice** both');
  });

  it('reactions by name and person, custom emoji with its image', () => {
    const reactions = converted.messages.flatMap((m) => m.reactions);
    const hearth = [...org.ts.store.messages.all()].reduce((n, m) => n + (m.reactions?.length ?? 0), 0);
    assert.equal(reactions.length, hearth);
    assert.deepEqual(reactions.map((r) => `${r.name} ${r.email}`).sort(), ['party_hearth mel@office.example', 'thumbs_up ada@office.example', 'thumbs_up mel@office.example']);
    assert.deepEqual(converted.emoji.map((e) => e.name), ['party_hearth']);
    assert.ok(converted.emoji[0]!.bytes.length > 0);
  });

  it('direct messages: one-to-one, group and self conversations by their people', () => {
    const dms = converted.messages.filter((m) => m.dm).map((m) => `${m.content}: ${m.dm!.join(' ')}`);
    assert.deepEqual(dms.sort(), [
      'a direct message: mel@office.example owner@example.com',
      'a group: ada@office.example mel@office.example owner@example.com',
      'a note to self: mel@office.example',
    ]);
  });

  it('hearth-fixup.json names the exact topic for each imported one, roles, groups, fields, folders', async () => {
    const fixup = JSON.parse(files.get('hearth-fixup.json')!.toString());
    const long = fixup.topics.find((t: { topic: string }) => t.topic.toLowerCase().startsWith('quarterly'));
    assert.equal([...long.imported].length, 60);
    assert.ok(converted.messages.some((m) => m.topic === long.imported), 'the fix-up names the topic the converter made');
    assert.equal(long.topic, LONG_TOPIC.toLowerCase(), "the topic's latest spelling");
    assert.equal(fixup.users.find((u: { email: string }) => u.email === 'ada@office.example').role, 200);
    assert.equal(fixup.users.find((u: { email: string }) => u.email === 'gone@office.example').is_active, false);
    assert.deepEqual(fixup.groups, [{ name: 'designers', description: 'They draw', members: ['mel@office.example', 'alice@office.example'], subgroups: [] }]);
    assert.deepEqual(fixup.profile_values, [{ email: 'mel@office.example', field: 'Team', value: 'Kitchen' }]);
    assert.deepEqual(fixup.channels.find((c: { name: string }) => c.name === 'old'), { name: 'old', description: '', folder: 'Projects', is_archived: true });
    assert.equal(importedTopicName('plans', 'c1t1'), 'plans (Imported from Rocket.Chat)');
  });
});

describe('organization exports over the API', () => {
  let org: Org;
  before(async () => {
    org = await buildOrganization();
  });
  after(() => org.ts.stop());

  it('members may not; a standard export needs an owner; events tell administrators', async () => {
    assert.equal((await org.people.mel.client.get('/export/realm')).body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.equal((await org.people.mel.client.post('/export/realm', { export_type: 1 })).body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.equal((await org.people.ada.client.post('/export/realm', { export_type: 2 })).body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.equal((await org.ts.ownerClient.post('/export/realm', { export_type: 3 })).status, 400);
    const queue = await org.people.ada.client.post('/register', { event_types: JSON.stringify(['realm_export']) });
    const { id } = await exportThroughApi(org.ts, 1);
    const events = await org.people.ada.client.get('/events', { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
    const last = (events.body.events as { type: string; exports: { id: number; pending: boolean }[] }[]).filter((e) => e.type === 'realm_export').pop()!;
    assert.equal(last.exports.find((e) => e.id === id)?.pending, false);
  });

  it('a public export holds public channels only; without consent a standard export leaves direct messages out', async () => {
    const pub = convert((await exportThroughApi(org.ts, 1)).files);
    assert.ok(pub.messages.every((m) => m.channel !== null && m.channel !== 'secret'));
    assert.ok(!pub.channels.some((c) => c.name === 'secret'));
    const standard = convert((await exportThroughApi(org.ts, 2)).files);
    assert.ok(standard.messages.every((m) => m.dm === null), 'nobody consented');
  });

  it('an export taken while messages are being sent holds one instant: every message up to its last, none after', async () => {
    let sending = true;
    const sent: number[] = [];
    const sender = (async () => {
      while (sending) sent.push(await sendStream(org.people.mel.client, 'general', 'busy', `message ${sent.length}`));
    })();
    while (sent.length < 5) await new Promise((r) => setTimeout(r, 5));
    const { files } = await exportThroughApi(org.ts, 1);
    sending = false;
    await sender;
    const exported = new Set(convert(files).messages.map((m) => Number(m.id.replace(/^m/, '').replace(/f\d+$/, ''))));
    const busy = sent.filter((id) => exported.has(id));
    assert.ok(busy.length >= 5 && busy.length < sent.length, `${busy.length} of ${sent.length}`);
    assert.deepEqual(busy, sent.slice(0, busy.length), 'a prefix of what was sent');
  });

  it('delete: the file goes, the record says when', async () => {
    const { id } = await exportThroughApi(org.ts, 1);
    const before = ((await org.ts.ownerClient.get('/export/realm')).body.exports as { id: number; export_url: string }[]).find((e) => e.id === id)!;
    assert.equal((await org.ts.ownerClient.delete(`/export/realm/${id}`)).status, 200);
    assert.equal((await org.ts.ownerClient.delete(`/export/realm/${id}`)).status, 400);
    const after = ((await org.ts.ownerClient.get('/export/realm')).body.exports as { id: number; export_url: string | null; deleted_timestamp: number | null }[]).find((e) => e.id === id)!;
    assert.equal(after.export_url, null);
    assert.ok(after.deleted_timestamp);
    assert.equal((await fetchFile(org.ts.ownerClient, new URL(before.export_url).pathname)).status, 404);
    assert.equal((await fetchFile(org.people.mel.client, new URL(before.export_url).pathname)).status, 400);
  });

  it('exports are not part of backups and the list survives a restart', async () => {
    const list = JSON.parse(await readFile(join(org.ts.dataDir, 'exports', 'exports.json'), 'utf8'));
    assert.ok(list.exports.length >= 1);
  });
});
