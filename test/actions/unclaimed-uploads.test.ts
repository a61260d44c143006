/**
 * Issue 36 (8): uploads no message ever linked do not stay for good (Zulip deletes them after
 * five weeks), so neither a forgotten draft's file nor a flood of uploads keeps the disk full.
 */
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { doDeleteUnclaimedUploads, UNCLAIMED_UPLOAD_DAYS } from '../../server/actions/unclaimed-uploads.js';
import { createChannel } from '../helpers/channels.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { uploadOne } from '../helpers/uploads.js';
import { drain } from '../helpers/verify-action.js';

const DAY = 86_400_000;

describe('uploads no message links', () => {
  let ts: TestServer;
  let mel: Client;
  const clock = { t: Date.UTC(2026, 10, 1), now() { return this.t; } };
  const fileOf = (url: string) => {
    const a = ts.store.attachments.byPathId(url.replace(/^\/user_uploads\//, ''));
    return a && join(ts.dataDir, 'uploads', 'files', a.storage);
  };

  before(async () => {
    ts = await startTestServer({ clock });
    [{ client: mel }] = await ts.people('Mel');
  });
  after(() => ts.stop());

  it('are deleted after five weeks (record, file, and an attachment event); linked and scheduled ones stay', async () => {
    await createChannel(ts, ts.ownerClient, 'kitchen', { principals: [] });
    const forgotten = await uploadOne(mel, 'forgotten.txt', 'never sent');
    const sent = await uploadOne(mel, 'sent.txt', 'in a message');
    const later = await uploadOne(mel, 'later.txt', 'in a scheduled message');
    assert.equal((await mel.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'kitchen' }]) })).status, 200);
    assert.equal((await mel.post('/messages', { type: 'stream', to: 'kitchen', topic: 'files', content: `[sent](${sent})` })).status, 200);
    const scheduled = await mel.post('/scheduled_messages', {
      type: 'stream', to: ts.store.channels.data.channels.find((c) => c.name === 'kitchen')!.id, topic: 'files',
      content: `[later](${later})`, scheduled_delivery_timestamp: Math.floor(clock.t / 1000) + 60 * DAY / 1000,
    });
    assert.equal(scheduled.status, 200, JSON.stringify(scheduled.body));
    const forgottenFile = fileOf(forgotten)!;
    clock.t += (UNCLAIMED_UPLOAD_DAYS - 1) * DAY;
    const recent = await uploadOne(mel, 'recent.txt', 'uploaded yesterday');
    assert.equal(await doDeleteUnclaimedUploads(ts.app), 0, 'nothing is five weeks old yet');

    const reg = (await mel.post('/register', { event_types: JSON.stringify(['attachment']) })).body;
    clock.t += 2 * DAY;
    assert.equal(await doDeleteUnclaimedUploads(ts.app), 1);
    assert.equal(fileOf(forgotten), undefined, 'the record is gone');
    await assert.rejects(stat(forgottenFile), /ENOENT/, 'and the file');
    for (const kept of [sent, later, recent]) assert.ok(fileOf(kept), kept);
    const events = await drain(mel, reg.queue_id, reg.last_event_id);
    assert.deepEqual(events.map((e) => [e.type, e.op]), [['attachment', 'remove']]);
    assert.equal((await mel.get('/attachments')).body.attachments.length, 3);
  });
});
