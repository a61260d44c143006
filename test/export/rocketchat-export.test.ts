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
import { importedTopicName } from '../../server/export/rocketchat-model.js';
import { isPrefixFree } from '../../server/export/usernames.js';
import { systemBots } from '../../server/lib/people/system-bots.js';
import { buildOrganization, everyoneConsents, exportThroughApi, LONG_TOPIC, type Org } from '../helpers/export-org.js';
import { sendStream } from '../helpers/messages.js';
import { convert, decodeAll, type Converted } from '../helpers/rocketchat-converter.js';
import { fetchFile } from '../helpers/uploads.js';

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
    assert.equal(converted.users.length, org.ts.store.users.all().length + systemBots(org.ts.app).length);
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
