/** An organization with what Zulip's converter carries and what only the fix-up restores, and its export over the API (export tests). */
import assert from 'node:assert/strict';
import { doCreateUser } from '../../server/actions/users.js';
import { createChannel } from './channels.js';
import { sendDirect, sendStream } from './messages.js';
import type { Account, Client, TestServer } from './server.js';
import { startTestServer } from './server.js';
import { untarGz } from './tar.js';
import { fetchFile, uploadFiles } from './uploads.js';

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

