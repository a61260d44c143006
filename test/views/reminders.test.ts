import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deliverDueScheduledMessages } from '../../server/actions/scheduled-messages.js';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendDirect, sendStream } from '../helpers/messages.js';
import { OpenApi, openApiAvailable } from '../helpers/openapi.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const REGISTER = { fetch_event_types: ['reminders', 'scheduled_messages'] };

describe('reminders (Zulip 11)', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 7, 3, 8, 0, 0);
  const nowS = () => Math.floor(now / 1000);
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let kitchen: number;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    [{ account: melAcc, client: mel }, { account: samAcc, client: sam }] = await ts.people('Mel', 'Sam');
    kitchen = await createChannel(ts, sam, 'kitchen', { principals: JSON.stringify([melAcc.id, samAcc.id]) });
  });
  after(() => ts.stop());

  const botDms = async () =>
    (await fetchMessages(mel, {
      anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: false,
      narrow: JSON.stringify([{ operator: 'dm', operand: 'notification-bot@zulip.com' }]),
    })).messages as { content: string; flags: string[]; sender_email: string }[];

  it('sets a reminder about a channel message (verifyAction: reminders add), kept apart from scheduled messages', async () => {
    const msg = await sendStream(sam, 'kitchen', 'lunch', 'Soup at **noon**');
    let id = 0;
    const events = await verifyAction(mel, async () => {
      const res = await mel.post('/reminders', { message_id: msg, scheduled_delivery_timestamp: nowS() + 3600, note: 'bring bowls' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.reminder_id;
    }, REGISTER);
    assert.deepEqual(events.map((e) => [e.type, e.op]), [['reminders', 'add']]);
    const list = (await mel.get('/reminders')).body;
    assert.equal(list.reminders.length, 1);
    const r = list.reminders[0];
    assert.deepEqual([r.reminder_id, r.type, r.to, r.scheduled_delivery_timestamp, r.failed, r.reminder_target_message_id], [id, 'private', [melAcc.id], nowS() + 3600, false, msg]);
    assert.equal(
      r.content,
      `You requested a reminder for #**kitchen>lunch@${msg}**. Note:\n > bring bowls\n\n@_**Sam|${samAcc.id}** [said](/#narrow/channel/${kitchen}-kitchen/topic/lunch/near/${msg}):\n\`\`\`quote\nSoup at **noon**\n\`\`\``,
    );
    assert.match(r.rendered_content, /<blockquote>/);
    assert.deepEqual((await mel.get('/scheduled_messages')).body.scheduled_messages, []);
    if (openApiAvailable()) assert.deepEqual(new OpenApi().errors('get', '/reminders', list), []);
    await ts.store.settled();
    const stored = JSON.parse(await readFile(join(ts.dataDir, 'scheduled_messages.json'), 'utf8')).scheduled;
    assert.deepEqual(stored.map((s: { remind?: unknown }) => s.remind), [{ message_id: msg, note: 'bring bowls' }]);
  });

  it('delivers as a Notification Bot direct message, unread, with the message as it is then; the reminder goes', async () => {
    const [r] = (await mel.get('/reminders')).body.reminders;
    // Edited after the reminder was set: the reminder quotes the message as it is at delivery.
    const edit = await sam.patch(`/messages/${r.reminder_target_message_id}`, { content: 'Soup at **one**' });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    const events = await verifyAction(mel, async () => {
      // The server's own delivery runs every second: the clock moves on and delivery starts in one
      // synchronous step, so that tick cannot take the reminder first (it did under load).
      now = (r.scheduled_delivery_timestamp + 1) * 1000;
      assert.equal(await deliverDueScheduledMessages(ts.app), 1);
    }, REGISTER);
    assert.deepEqual(events.filter((e) => e.type === 'reminders').map((e) => [e.op, e.reminder_id]), [['remove', r.reminder_id]]);
    const [dm] = await botDms();
    assert.equal(dm!.sender_email, 'notification-bot@zulip.com');
    assert.match(dm!.content, /^You requested a reminder for #\*\*kitchen>lunch@\d+\*\*\. Note:\n > bring bowls/);
    assert.match(dm!.content, /```quote\nSoup at \*\*one\*\*\n```$/);
    assert.deepEqual(dm!.flags, []);
    assert.deepEqual((await mel.get('/reminders')).body.reminders, []);
  });

  it('direct messages, and a reminder is sent even when late (unlike a scheduled message)', async () => {
    const dm = await sendDirect(sam, [melAcc.id], 'call me');
    const res = await mel.post('/reminders', { message_id: dm, scheduled_delivery_timestamp: nowS() + 60 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    now += 3 * 3600 * 1000;
    assert.equal(await deliverDueScheduledMessages(ts.app), 1);
    const latest = (await botDms()).at(-1);
    assert.match(latest!.content, /^You requested a reminder for the following direct message\.\n\n@_\*\*Sam\|\d+\*\* \[said\]\(\/#narrow\/id\/\d+\):\n```quote\ncall me\n```$/);
  });

  it('refuses messages the user cannot read, past times and long notes; deletes only one\'s own (404 otherwise)', async () => {
    const secret = await createChannel(ts, sam, 'secret', { invite_only: true });
    const hidden = await sendStream(sam, 'secret', 'x', 'hidden');
    const visible = await sendStream(sam, 'kitchen', 'x', 'visible');
    for (const [params, msg] of [
      [{ message_id: hidden, scheduled_delivery_timestamp: nowS() + 60 }, 'Invalid message(s)'],
      [{ message_id: 999999, scheduled_delivery_timestamp: nowS() + 60 }, 'Invalid message(s)'],
      [{ message_id: visible, scheduled_delivery_timestamp: nowS() }, 'Scheduled delivery time must be in the future.'],
      [{ message_id: visible, scheduled_delivery_timestamp: nowS() + 60, note: 'x'.repeat(1001) }, 'Maximum reminder note length: 1000 characters'],
    ] as const) {
      const res = await mel.post('/reminders', params);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.msg, msg);
    }
    assert.ok(secret);
    const id = (await mel.post('/reminders', { message_id: visible, scheduled_delivery_timestamp: nowS() + 60 })).body.reminder_id;
    const others = await sam.delete(`/reminders/${id}`);
    assert.equal(others.status, 404);
    assert.equal(others.body.msg, 'Reminder does not exist');
    assert.equal((await mel.delete(`/scheduled_messages/${id}`)).status, 404, 'not a scheduled message');
    const events = await verifyAction(mel, () => mel.delete(`/reminders/${id}`), REGISTER);
    assert.deepEqual(events.map((e) => [e.type, e.op, e.reminder_id]), [['reminders', 'remove', id]]);
    assert.deepEqual((await mel.get('/reminders')).body.reminders, []);
  });
});
