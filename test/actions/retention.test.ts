/**
 * Issue 34 (4): message retention as Zulip's archiving: the organization's and each channel's
 * `message_retention_days` enforced by a pass in small batches through the normal delete path
 * (events, unread counts, search, files no message links any more), resumed after a restart; the
 * dry-run count administrators see before shortening a period.
 */
import assert from 'node:assert/strict';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../server/app.js';
import { runRetentionPass } from '../../server/actions/retention.js';
import { silentLogger } from '../../server/log.js';
import { Store } from '../../server/store/store.js';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { fetchMessages, sendDirect, sendStream } from '../helpers/messages.js';
import { assertError, Client, type Person, startTestServer, type TestServer } from '../helpers/server.js';
import { uploadOne } from '../helpers/uploads.js';
import { drain } from '../helpers/verify-action.js';

const DAY = 86_400_000;
/** The pass runs only when a test says so (or, after a restart, at once). */
const NO_TIMER = { retentionFirstPassMs: 3_600_000, retentionEveryMs: DAY };

describe('message retention', () => {
  let ts: TestServer;
  let mel: Person;
  let sam: Person;
  const clock = { t: Date.UTC(2026, 0, 5), now() { return this.t; } };
  type Sent = 'oldKitchen' | 'oldLibrary' | 'oldVault' | 'oldDirect' | 'newKitchen' | 'newDirect' | 'newScratch';
  const ids = {} as Record<Sent, number>;
  const chan = {} as Record<'kitchen' | 'library' | 'vault' | 'scratch', number>;
  let fileOnlyOld = '';
  let fileShared = '';
  const exists = (id: number) => ts.store.messages.get(id) !== undefined;
  const fileRecord = (url: string) => ts.store.attachments.byPathId(url.replace(/^\/user_uploads\//, ''));

  before(async () => {
    ts = await startTestServer({ clock, config: NO_TIMER });
    [mel, sam] = await ts.people('Mel', 'Sam');
    const everyone = [ts.owner.id, mel.account.id, sam.account.id];
    chan.kitchen = await createChannel(ts, ts.ownerClient, 'kitchen', { principals: everyone });
    chan.library = await createChannel(ts, ts.ownerClient, 'library', { principals: everyone, message_retention_days: 30 });
    chan.vault = await createChannel(ts, ts.ownerClient, 'vault', { principals: everyone, message_retention_days: 'unlimited' });
    chan.scratch = await createChannel(ts, ts.ownerClient, 'scratch', { principals: everyone, message_retention_days: 3 });
    fileOnlyOld = await uploadOne(mel.client, 'old-menu.txt', 'soup');
    fileShared = await uploadOne(mel.client, 'shared.txt', 'both');
    // Twenty days ago: one message in each place, a file only an old message links, one linked old and new.
    ids.oldKitchen = await sendStream(mel.client, 'kitchen', 'lunch', `zucchini soup [menu](${fileOnlyOld}) [shared](${fileShared})`);
    ids.oldLibrary = await sendStream(mel.client, 'library', 'books', 'zucchini almanac');
    ids.oldVault = await sendStream(mel.client, 'vault', 'keys', 'zucchini key');
    ids.oldDirect = await sendDirect(mel.client, [sam.account.id], 'zucchini, just for you');
    clock.t += 20 * DAY;
    ids.newKitchen = await sendStream(mel.client, 'kitchen', 'lunch', `zucchini bread [shared](${fileShared})`);
    ids.newDirect = await sendDirect(mel.client, [sam.account.id], 'more zucchini');
    ids.newScratch = await sendStream(mel.client, 'scratch', 'notes', 'fresh zucchini');
  });
  after(() => ts.stop());

  it('nothing expires while everything is kept forever (the default)', async () => {
    assert.equal((await ts.ownerClient.get('/hearth/retention/preview', { days: 'unlimited' })).body.messages, 0);
    const report = await runRetentionPass(ts.app);
    // #scratch keeps 3 days: its message is a minute old.
    assert.equal(report.messages, 0);
    assert.ok(Object.values(ids).every(exists));
  });

  it('the preview counts what a period would delete, for administrators only', async () => {
    const preview = await ts.ownerClient.get('/hearth/retention/preview', { days: 10 });
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    // #kitchen's and the direct message follow the organization; #library (30) and #vault (forever) keep theirs.
    assert.deepEqual(
      { messages: preview.body.messages, direct_messages: preview.body.direct_messages, attachments: preview.body.attachments },
      { messages: 2, direct_messages: 1, attachments: 1 },
    );
    const longer = await ts.ownerClient.get('/hearth/retention/preview', { days: 30 });
    assert.equal(longer.body.messages, 0);
    const library = await ts.ownerClient.get('/hearth/retention/preview', { days: 10, stream_id: chan.library });
    assert.deepEqual([library.body.messages, library.body.direct_messages, library.body.attachments], [1, 0, 0]);
    const inherit = await ts.ownerClient.get('/hearth/retention/preview', { days: 'realm_default', stream_id: chan.kitchen });
    assert.equal(inherit.body.messages, 0, 'the organization keeps forever');
    assertError(await mel.client.get('/hearth/retention/preview', { days: 10 }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
    assertError(await ts.ownerClient.get('/hearth/retention/preview', { days: 0 }), "Bad value for 'message_retention_days': 0");
    assertError(await ts.ownerClient.get('/hearth/retention/preview', { days: 5, stream_id: 9999 }), 'Invalid channel ID');
  });

  it('a pass deletes what is older than its period: files, events, unread counts and search follow', async () => {
    const reg = await sam.client.post('/register', {
      event_types: ['message', 'delete_message', 'update_message_flags'],
      client_capabilities: { bulk_message_deletion: true },
    });
    const melReg = await mel.client.post('/register', { event_types: ['attachment'] });
    const unreadBefore = (await sam.client.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body.unread_msgs.count;
    const oldFile = join(ts.dataDir, 'uploads', 'files', fileRecord(fileOnlyOld)!.storage);
    assert.equal((await ts.ownerClient.patch('/realm', { message_retention_days: 10 })).status, 200);

    const report = await runRetentionPass(ts.app);
    assert.equal(report.messages, 2);
    assert.equal(report.attachments, 1);
    assert.ok(report.finished);
    assert.equal(exists(ids.oldKitchen), false);
    assert.equal(exists(ids.oldDirect), false);
    for (const kept of ['oldLibrary', 'oldVault', 'newKitchen', 'newDirect', 'newScratch'] as const) assert.ok(exists(ids[kept]), kept);
    // The file only the old message linked is gone (record and bytes); the shared one stays with the new message.
    assert.equal(fileRecord(fileOnlyOld), undefined);
    await assert.rejects(stat(oldFile), /ENOENT/);
    assert.deepEqual(fileRecord(fileShared)?.message_ids, [ids.newKitchen]);

    const events = (await drain(sam.client, reg.body.queue_id, reg.body.last_event_id)).filter((e) => e.type === 'delete_message');
    assert.deepEqual(
      events.map((e) => [e.message_type, e.message_ids]).sort(),
      [['private', [ids.oldDirect]], ['stream', [ids.oldKitchen]]].sort(),
    );
    const melEvents = await drain(mel.client, melReg.body.queue_id, melReg.body.last_event_id);
    assert.ok(melEvents.some((e) => e.type === 'attachment' && e.op === 'remove'), JSON.stringify(melEvents));

    // Unread counts: Sam had all seven unread (Mel sent them); the two deleted are no longer counted.
    const after = (await sam.client.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body.unread_msgs;
    assert.equal(unreadBefore, 7);
    assert.equal(after.count, 5);
    const unreadIds = (await fetchMessages(sam.client, { narrow: [{ operator: 'is', operand: 'unread' }] })).messages.map((m: { id: number }) => m.id);
    assert.equal(unreadIds.length, 5);
    assert.ok(!unreadIds.includes(ids.oldKitchen) && !unreadIds.includes(ids.oldDirect));
    const found = (await fetchMessages(sam.client, { narrow: [{ operator: 'search', operand: 'zucchini' }] })).messages.map((m: { id: number }) => m.id);
    assert.deepEqual(found.sort((a: number, b: number) => a - b), [ids.oldLibrary, ids.oldVault, ids.newKitchen, ids.newDirect, ids.newScratch].sort((a, b) => a - b));
  });

  it("a channel's own period beats the organization's; -1 keeps forever", async () => {
    clock.t += 15 * DAY; // #library's message is 35 days old, #scratch's 15, #vault's 35
    assert.equal((await ts.ownerClient.patch('/realm', { message_retention_days: 'unlimited' })).status, 200);
    const preview = await ts.ownerClient.get('/hearth/retention/preview', { days: 'unlimited' });
    assert.equal(preview.body.messages, 2, 'what the channels’ own periods delete');
    const report = await runRetentionPass(ts.app);
    assert.equal(report.messages, 2);
    assert.equal(exists(ids.oldLibrary), false, '#library keeps 30 days');
    assert.equal(exists(ids.newScratch), false, '#scratch keeps 3 days though the organization keeps forever');
    assert.ok(exists(ids.oldVault), '#vault keeps forever');
    assert.ok(exists(ids.newKitchen) && exists(ids.newDirect), 'the organization keeps forever');
    // Run again: nothing more to do.
    assert.equal((await runRetentionPass(ts.app)).messages, 0);
  });
});

describe('a retention pass stopped half-way', () => {
  it('carries on after a restart, from where it stopped, and starts by itself', async () => {
    const clock = { t: Date.UTC(2026, 2, 1), now() { return this.t; } };
    const ts = await startTestServer({ clock, config: NO_TIMER });
    let store: Store | null = null;
    let server: ReturnType<typeof createApp> | null = null;
    try {
      const [mel, sam] = await ts.people('Mel', 'Sam');
      await createChannel(ts, ts.ownerClient, 'kitchen', { principals: [mel.account.id, sam.account.id] });
      const old: number[] = [];
      for (let i = 0; i < 300; i++) old.push(await sendStream(mel.client, 'kitchen', `topic ${i % 7}`, `old ${i}`));
      for (let i = 0; i < 30; i++) old.push(await sendDirect(mel.client, [sam.account.id], `old direct ${i}`));
      clock.t += 40 * DAY;
      const kept = [await sendStream(mel.client, 'kitchen', 'topic 1', 'new'), await sendDirect(sam.client, [mel.account.id], 'new direct')];
      assert.equal((await ts.ownerClient.patch('/realm', { message_retention_days: 30 })).status, 200);
      ts.app.retention.batchSize = 20;
      const pass = runRetentionPass(ts.app);
      // The stop lets the batch in progress land, then the pass ends.
      await ts.server.close();
      const report = await pass;
      assert.equal(report.finished, null, 'stopped before the end');
      assert.ok(report.messages > 0 && report.messages < old.length, String(report.messages));
      await ts.app.store.close();

      store = await Store.open(ts.dataDir);
      assert.equal(old.filter((id) => store!.messages.get(id)).length, old.length - report.messages, 'every finished batch is on disk');
      server = createApp({ store, log: silentLogger, clock, config: { retentionFirstPassMs: 0, retentionEveryMs: DAY } });
      const { port } = await server.listen(0, '127.0.0.1');
      await eventually(() => old.every((id) => !store!.messages.get(id)), 'the next start deletes the rest');
      assert.ok(kept.every((id) => store!.messages.get(id)));
      const samClient = new Client(`http://127.0.0.1:${port}`, sam.account);
      const unread = (await samClient.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body.unread_msgs;
      assert.equal(unread.count, 1, 'only the new channel message is unread');
      await eventually(() => server!.app.retention.running === null, 'the pass ends');
      assert.ok(server.app.retention.last?.finished);
    } finally {
      if (server) await server.close();
      if (store) await store.close();
      await rm(ts.dataDir, { recursive: true, force: true });
    }
  });
});
