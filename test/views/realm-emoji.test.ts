/**
 * Custom emoji: POST /realm/emoji/{name} (one image), GET /realm/emoji,
 * DELETE (deactivates), the image URL, `realm_emoji` at register and in both
 * event forms (verifyAction), permissions (can_add_custom_emoji_group,
 * overriding Unicode names, authors), and use in messages, reactions and
 * statuses; stored state checked on disk and across a restart.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { groupId } from '../helpers/people.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { restart } from '../helpers/uploads.js';
import { verifyAction } from '../helpers/verify-action.js';

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');

async function upload(client: Client, name: string, files: { data: Buffer; type: string }[] = [{ data: PNG, type: 'image/png' }]) {
  const form = new FormData();
  files.forEach((f, i) => form.append(`f${i}`, new Blob([new Uint8Array(f.data)], { type: f.type }), `e${i}`));
  const res = await fetch(`${client.baseUrl}/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: client.authHeader,
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const EMOJI_EVENTS = (individual: boolean) => ({
  fetch_event_types: ['realm_emoji'],
  client_capabilities: { individual_emoji_changes: individual },
});

describe('custom emoji', () => {
  let ts: TestServer;
  let member: Account;
  let guest: Account;
  let m: Client;
  let admin: Client;

  before(async () => {
    ts = await startTestServer();
    member = await ts.addUser('Mel');
    guest = await ts.addUser('Gus', 600);
    m = ts.client(member);
    admin = ts.ownerClient;
    await createChannel(ts, m, 'hall', { principals: JSON.stringify([member.id, ts.owner.id]) });
  });
  after(() => ts.stop());

  const storedEmoji = async () => JSON.parse(await readFile(join(ts.dataDir, 'emoji.json'), 'utf8')).emoji as Record<string, unknown>[];

  it('a member adds one: stored with its image, listed, served, announced in the legacy form (verifyAction)', async () => {
    assert.deepEqual((await m.get('/realm/emoji')).body.emoji, {});
    let res: Awaited<ReturnType<typeof upload>> | undefined;
    const events = await verifyAction(m, async () => (res = await upload(m, 'Party Parrot ')), EMOJI_EVENTS(false));
    // Zulip trims the name and turns spaces into underscores, but names must be lower case.
    assert.equal(res!.status, 400);
    assert.match(String(res!.body.msg), /lowercase alphanumeric/);
    assert.equal(events.length, 0);

    const legacy = await verifyAction(m, async () => (res = await upload(m, 'party parrot')), EMOJI_EVENTS(false));
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    const list = (await m.get('/realm/emoji')).body.emoji as Record<string, Record<string, unknown>>;
    const [id] = Object.keys(list);
    const e = list[id!]!;
    assert.deepEqual({ ...e, source_url: '' }, { id: id, name: 'party_parrot', source_url: '', still_url: null, deactivated: false, author_id: member.id });
    assert.match(String(e.source_url), /^\/user_avatars\/\d+\/emoji\/images\/[0-9a-f]+\.png$/);
    assert.deepEqual(legacy, [{ type: 'realm_emoji', op: 'update', realm_emoji: list, id: legacy[0]!.id }]);

    const img = await fetch(`${ts.url}${e.source_url}`);
    assert.equal(img.status, 200);
    assert.equal(img.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await img.arrayBuffer()), PNG);
    const onDisk = await storedEmoji();
    assert.equal(onDisk.length, 1);
    assert.equal(onDisk[0]!.name, 'party_parrot');
    assert.ok(existsSync(join(ts.dataDir, 'emoji', String(onDisk[0]!.file))));
    assert.equal((await fetch(`${ts.url}/user_avatars/1/emoji/images/nope.png`)).status, 404);
  });

  it('individual_emoji_changes: add with the emoji, update_one (and the spec\'s edit) on deactivation (verifyAction); deactivated emoji stay listed', async () => {
    let res: Awaited<ReturnType<typeof upload>> | undefined;
    const added = await verifyAction(m, async () => (res = await upload(m, 'ship-it', [{ data: GIF, type: 'image/gif' }])), EMOJI_EVENTS(true));
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    assert.equal(added.length, 1);
    const ev = added[0] as { op: string; emoji: Record<string, unknown> };
    assert.equal(ev.op, 'add');
    assert.equal(ev.emoji.name, 'ship-it');
    assert.match(String(ev.emoji.source_url), /\.gif$/);
    assert.equal('realm_emoji' in ev, false, 'no full map for capable clients');

    const id = String(ev.emoji.id);
    const removed = await verifyAction(m, () => m.delete('/realm/emoji/ship-it'), EMOJI_EVENTS(true));
    assert.deepEqual(
      removed.map((e) => ({ ...e, id: 0 })),
      [
        { type: 'realm_emoji', op: 'update_one', emoji_id: id, data: { deactivated: true }, id: 0 },
        { type: 'realm_emoji', op: 'edit', emoji_id: id, data: { deactivated: true }, id: 0 },
      ],
    );
    // Legacy queues hear of a deactivation once, as the full map.
    const legacyRemoved = await verifyAction(m, async () => {
      assert.equal((await upload(m, 'brief')).status, 200);
      assert.equal((await m.delete('/realm/emoji/brief')).status, 200);
    }, EMOJI_EVENTS(false));
    assert.deepEqual(legacyRemoved.map((e) => e.op), ['update', 'update']);
    assert.equal(((await m.get('/realm/emoji')).body.emoji as Record<string, { deactivated: boolean }>)[id]!.deactivated, true);
    assert.equal((await storedEmoji()).find((e) => String(e.id) === id)!.deactivated, true);
    // Its image still loads (old messages show it).
    assert.equal((await fetch(`${ts.url}${ev.emoji.source_url}`)).status, 200);
    // Gone by name: deleting again is a 404; the name is free for a new emoji.
    const again = await m.delete('/realm/emoji/ship-it');
    assert.equal(again.status, 404);
    assert.equal(again.body.msg, "Emoji 'ship-it' does not exist");
    assert.equal((await upload(m, 'ship-it')).status, 200);
  });

  it('bad uploads: names, file count, type, size limit, duplicates; nothing stored', async () => {
    const before = (await storedEmoji()).length;
    const cases: [string, Awaited<ReturnType<typeof upload>>, string][] = [
      ['trailing', await upload(m, 'bad_'), 'Emoji names must end with either a letter or digit.'],
      ['chars', await upload(m, 'nö'), 'Emoji names must contain only lowercase alphanumeric characters, hyphen, and underscore.'],
      ['long', await upload(m, 'a'.repeat(61)), 'Emoji name is too long (limit: 60 characters)'],
      ['none', await upload(m, 'nofile', []), 'You must upload exactly one file.'],
      ['two', await upload(m, 'twofiles', [{ data: PNG, type: 'image/png' }, { data: PNG, type: 'image/png' }]), 'You must upload exactly one file.'],
      ['text', await upload(m, 'text', [{ data: Buffer.from('hello'), type: 'image/png' }]), 'Invalid image format: use a PNG, JPEG, GIF or WebP file'],
      ['big', await upload(m, 'big', [{ data: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), type: 'image/png' }]), 'Uploaded file is larger than the allowed limit of 5 MiB'],
      ['duplicate', await upload(m, 'party_parrot'), 'A custom emoji with this name already exists.'],
    ];
    for (const [what, res, msg] of cases) {
      assert.equal(res.status, 400, what);
      assert.equal(res.body.code, 'BAD_REQUEST', what);
      assert.equal(res.body.msg, msg, what);
    }
    assert.equal((await storedEmoji()).length, before);
  });

  it('who may add and remove: can_add_custom_emoji_group, guests, Unicode names for administrators, authors and administrators remove', async () => {
    const g = ts.client(guest);
    const denied = await upload(g, 'guest_emoji');
    assert.equal(denied.status, 400);
    assert.equal(denied.body.msg, 'Insufficient permission');
    const override = await upload(m, 'smile');
    assert.equal(override.body.msg, 'Only administrators can override default emoji.');
    assert.equal((await upload(admin, 'smile')).status, 200);

    // Another member cannot remove Mel's emoji; the owner can.
    const other = ts.client(await ts.addUser('Oli'));
    const refused = await other.delete('/realm/emoji/party_parrot');
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'Must be an organization administrator or emoji author');

    // Only administrators may add once the setting says so; the register shows the setting.
    const admins = groupId(ts, 'role:administrators');
    const members = groupId(ts, 'role:members');
    const patched = await admin.patch('/realm', { can_add_custom_emoji_group: JSON.stringify({ new: admins, old: members }) });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal((await m.post('/register', { fetch_event_types: ['realm'] })).body.realm_can_add_custom_emoji_group, admins);
    assert.equal((await upload(m, 'late')).body.msg, 'Insufficient permission');
    // An author who may no longer add emoji may not remove theirs either.
    assert.equal((await m.delete('/realm/emoji/party_parrot')).body.msg, 'Must be an organization administrator or emoji author');
    await admin.patch('/realm', { can_add_custom_emoji_group: JSON.stringify({ new: members, old: admins }) });
  });

  it('in use: Markdown renders the image, reactions and statuses take the emoji by name; a deactivated one only as a vote', async () => {
    const id = await sendStream(m, 'hall', 'fun', 'so :party_parrot: and :smile:');
    const msg = ts.store.messages.get(id)!;
    const html = msg.rendered ?? '';
    assert.match(html, /<img alt=":party_parrot:" class="emoji" src="\/user_avatars\/\d+\/emoji\/images\/[0-9a-f]+\.png" title="party parrot">/);
    // An active custom emoji named like a Unicode one wins (Zulip's order).
    assert.match(html, /<img alt=":smile:" class="emoji"/);

    const react = await m.post(`/messages/${id}/reactions`, { emoji_name: 'party_parrot' });
    assert.equal(react.status, 200, JSON.stringify(react.body));
    const stored = ts.store.messages.get(id)!.reactions!;
    const emojiId = Object.values((await m.get('/realm/emoji')).body.emoji as Record<string, { id: string; name: string; deactivated: boolean }>).find(
      (e) => e.name === 'party_parrot' && !e.deactivated,
    )!.id;
    assert.deepEqual(stored.map((r) => [r.emoji_name, r.emoji_code, r.reaction_type]), [['party_parrot', emojiId, 'realm_emoji']]);

    const status = await m.post('/users/me/status', { status_text: 'celebrating', emoji_name: 'party_parrot' });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    const reg = await m.post('/register', { fetch_event_types: ['user_status'] });
    assert.deepEqual(
      { ...reg.body.user_status[String(member.id)] },
      { status_text: 'celebrating', emoji_name: 'party_parrot', emoji_code: emojiId, reaction_type: 'realm_emoji' },
    );

    // Deactivated: new reactions by name fail; voting for the existing reaction still works.
    assert.equal((await admin.delete('/realm/emoji/party_parrot')).status, 200);
    const byName = await admin.post(`/messages/${id}/reactions`, { emoji_name: 'party_parrot' });
    assert.equal(byName.status, 400);
    const vote = await admin.post(`/messages/${id}/reactions`, { emoji_name: 'party_parrot', emoji_code: emojiId, reaction_type: 'realm_emoji' });
    assert.equal(vote.status, 200, JSON.stringify(vote.body));
    // New messages no longer render it.
    const later = await sendStream(m, 'hall', 'fun', ':party_parrot:');
    assert.doesNotMatch(ts.store.messages.get(later)!.rendered ?? '<p>:party_parrot:</p>', /<img/);
  });

  it('survives a restart', async () => {
    const before = (await m.get('/realm/emoji')).body.emoji;
    ts = await restart(ts);
    const after = (await ts.client(member).get('/realm/emoji')).body.emoji;
    assert.deepEqual(after, before);
    const one = Object.values(after as Record<string, { source_url: string }>)[0]!;
    assert.equal((await fetch(`${ts.url}${one.source_url}`)).status, 200);
  });
});
