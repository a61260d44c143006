import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { deliverDueScheduledMessages } from '../../server/actions/scheduled-messages.js';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

const REGISTER = { fetch_event_types: ['scheduled_messages'] };

describe('scheduled messages', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 6, 1, 9, 0, 0);
  const nowS = () => Math.floor(now / 1000);
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let kitchen: number;
  let vault: number;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    [{ account: melAcc, client: mel }, { account: samAcc, client: sam }] = await ts.people('Mel', 'Sam');
    kitchen = await createChannel(ts, mel, 'kitchen', { principals: JSON.stringify([melAcc.id, samAcc.id]) });
    vault = await createChannel(ts, sam, 'vault', { invite_only: true, principals: JSON.stringify([samAcc.id, melAcc.id]) });
  });
  after(() => ts.stop());

  const stored = async () => {
    await ts.store.settled();
    return JSON.parse(await readFile(join(ts.dataDir, 'scheduled_messages.json'), 'utf8')).scheduled as Record<string, unknown>[];
  };
  const schedule = (c: Client, params: Record<string, string | number | boolean>) => c.post('/scheduled_messages', params);
  const latest = async (c: Client, narrow: unknown[]) =>
    (await fetchMessages(c, { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: JSON.stringify(narrow) })).messages.at(-1);

  it('schedules channel and direct messages (verifyAction: add), listed soonest first', async () => {
    let ids: number[] = [];
    const events = await verifyAction(mel, async () => {
      const later = await schedule(mel, { type: 'stream', to: kitchen, topic: 'lunch', content: 'Soup at **noon**', scheduled_delivery_timestamp: nowS() + 3600 });
      assert.equal(later.status, 200, JSON.stringify(later.body));
      const sooner = await schedule(mel, { type: 'direct', to: JSON.stringify([samAcc.id]), content: 'psst', scheduled_delivery_timestamp: nowS() + 600 });
      assert.equal(sooner.status, 200, JSON.stringify(sooner.body));
      ids = [later.body.scheduled_message_id, sooner.body.scheduled_message_id];
    }, REGISTER);
    assert.deepEqual(events.map((e) => [e.type, e.op]), [['scheduled_messages', 'add'], ['scheduled_messages', 'add']]);
    const list = (await mel.get('/scheduled_messages')).body.scheduled_messages;
    assert.deepEqual(list, [
      { scheduled_message_id: ids[1], type: 'private', to: [samAcc.id], content: 'psst', rendered_content: '<p>psst</p>', scheduled_delivery_timestamp: nowS() + 600, failed: false },
      { scheduled_message_id: ids[0], type: 'stream', to: kitchen, topic: 'lunch', content: 'Soup at **noon**', rendered_content: '<p>Soup at <strong>noon</strong></p>', scheduled_delivery_timestamp: nowS() + 3600, failed: false },
    ]);
    assert.deepEqual((await sam.get('/scheduled_messages')).body.scheduled_messages, [], 'only the sender sees them');
    assert.equal((await stored()).length, 2);
    // Cleanup for the next tests.
    for (const id of ids) assert.equal((await mel.delete(`/scheduled_messages/${id}`)).status, 200);
  });

  it('refuses what a send would refuse, and times not in the future; nothing is stored', async () => {
    const ok = { type: 'stream', to: kitchen, topic: 'x', content: 'hi', scheduled_delivery_timestamp: nowS() + 60 };
    const cases: [Record<string, string | number | boolean>, string][] = [
      [{ ...ok, scheduled_delivery_timestamp: nowS() }, 'Scheduled delivery time must be in the future.'],
      [{ ...ok, type: 'letter' }, 'Invalid type'],
      [{ ...ok, to: 99999 }, "Channel with ID '99999' does not exist"],
      [{ ...ok, to: 'kitchen' }, 'to is not valid JSON'],
      [{ ...ok, content: '   ' }, 'Message must not be empty'],
      [{ type: 'stream', to: kitchen, content: 'hi', scheduled_delivery_timestamp: nowS() + 60 }, 'Missing topic'],
      [{ ...ok, type: 'direct', to: JSON.stringify([424242]) }, 'Invalid user ID 424242'],
    ];
    for (const [params, msg] of cases) {
      const res = await schedule(mel, params);
      assert.equal(res.status, 400, JSON.stringify([params, res.body]));
      assert.equal(res.body.msg, msg);
    }
    const outsider = ts.client(await ts.addUser('Otto'));
    const res = await schedule(outsider, { ...ok, to: vault });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    const missing = await mel.post('/scheduled_messages', { type: 'stream', to: kitchen, topic: 'x', content: 'hi' });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.deepEqual(await stored(), []);
  });

  it('edits (verifyAction: update) with Zulip\'s rules; only the sender may edit or delete', async () => {
    const id = (await schedule(mel, { type: 'stream', to: kitchen, topic: 'plan', content: 'draft', scheduled_delivery_timestamp: nowS() + 600 })).body.scheduled_message_id;
    const events = await verifyAction(mel, async () => {
      const res = await mel.patch(`/scheduled_messages/${id}`, { content: 'final *plan*', topic: 'plans', scheduled_delivery_timestamp: nowS() + 1200 });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, REGISTER);
    assert.deepEqual(events.map((e) => [e.op, (e.scheduled_message as Record<string, unknown>).rendered_content]), [['update', '<p>final <em>plan</em></p>']]);
    // To a direct message: needs `to`; back to a channel: needs a topic.
    for (const [params, msg] of [
      [{}, 'Nothing to change'],
      [{ type: 'direct' }, 'Recipient required when updating type of scheduled message.'],
      [{ type: 'stream', to: kitchen }, 'Topic required when updating scheduled message type to channel.'],
      [{ scheduled_delivery_timestamp: nowS() - 5 }, 'Scheduled delivery time must be in the future.'],
      [{ to: 99999 }, "Channel with ID '99999' does not exist"],
    ] as const) {
      const res = await mel.patch(`/scheduled_messages/${id}`, params);
      assert.equal(res.body.msg, msg, JSON.stringify(params));
    }
    const direct = await mel.patch(`/scheduled_messages/${id}`, { type: 'direct', to: JSON.stringify([samAcc.id]), topic: 'ignored' });
    assert.equal(direct.status, 200, JSON.stringify(direct.body));
    const [m] = (await mel.get('/scheduled_messages')).body.scheduled_messages;
    assert.deepEqual([m.type, m.to, 'topic' in m], ['private', [samAcc.id], false]);
    for (const res of [await sam.patch(`/scheduled_messages/${id}`, { content: 'mine now' }), await sam.delete(`/scheduled_messages/${id}`)]) {
      assert.equal(res.status, 404);
      assert.equal(res.body.msg, 'Scheduled message does not exist');
    }
    const removed = await verifyAction(mel, () => mel.delete(`/scheduled_messages/${id}`), REGISTER);
    assert.deepEqual(removed.map((e) => [e.op, e.scheduled_message_id]), [['remove', id]]);
    assert.deepEqual(await stored(), []);
  });

  it('delivers when due: sent as the sender, read for them, gone from the schedule in the same write', async () => {
    const reg = (await mel.post('/register', REGISTER)).body;
    const at = nowS() + 300;
    const id = (await schedule(mel, { type: 'stream', to: kitchen, topic: 'reminder', content: 'Stand-up!', scheduled_delivery_timestamp: at })).body.scheduled_message_id;
    assert.equal(await deliverDueScheduledMessages(ts.app), 0, 'not yet');
    now = at * 1000;
    assert.equal(await deliverDueScheduledMessages(ts.app), 1);
    assert.equal(await deliverDueScheduledMessages(ts.app), 0, 'never twice');
    const sent = await latest(sam, [{ operator: 'channel', operand: kitchen }, { operator: 'topic', operand: 'reminder' }]);
    assert.deepEqual([sent.sender_id, sent.content, sent.timestamp, sent.flags], [melAcc.id, 'Stand-up!', at, []]);
    const own = await latest(mel, [{ operator: 'channel', operand: kitchen }, { operator: 'topic', operand: 'reminder' }]);
    assert.deepEqual(own.flags, ['read']);
    assert.deepEqual((await mel.get('/scheduled_messages')).body.scheduled_messages, []);
    assert.deepEqual(await stored(), []);
    const events = await drain(mel, reg.queue_id, reg.last_event_id);
    const scheduled = events.filter((e) => e.type === 'scheduled_messages');
    assert.deepEqual(scheduled.map((e) => [e.op, e.scheduled_message_id ?? null]), [['add', null], ['remove', id]]);
    // The message event comes in the same batch as the removal.
    const message = events.find((e) => e.type === 'message')!;
    assert.equal((message.message as { content: string }).content, 'Stand-up!');
  });

  it('a delivery that is no longer allowed fails: marked with the reason, rescheduling clears it', async () => {
    const at = nowS() + 60;
    const id = (await schedule(mel, { type: 'stream', to: vault, topic: 'secret', content: 'for the vault', scheduled_delivery_timestamp: at })).body.scheduled_message_id;
    assert.equal((await sam.delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['vault']), principals: JSON.stringify([melAcc.id]) })).status, 200);
    now = at * 1000;
    assert.equal(await deliverDueScheduledMessages(ts.app), 0);
    const [m] = (await mel.get('/scheduled_messages')).body.scheduled_messages;
    assert.equal(m.failed, true);
    assert.ok((await stored())[0]!.failure_message);
    assert.equal(await deliverDueScheduledMessages(ts.app), 0, 'a failed message is not retried');
    // The Notification Bot tells the sender, in a direct message clients can narrow to by the bot's ID or email.
    const bot = ts.store.users.collection.data.system_bots!.notification!;
    for (const operand of [[bot], 'notification-bot@zulip.com']) {
      const dm = await latest(mel, [{ operator: 'dm', operand }]);
      assert.ok(dm, JSON.stringify(operand));
      assert.equal(dm.sender_email, 'notification-bot@zulip.com');
      assert.match(dm.content, /^The message you scheduled for <time:2026-07-01T\d\d:\d\d:\d\d\.000Z> was not sent because of the following error:\n\n> .+\n\n\[View scheduled messages\]\(#scheduled\)$/);
      assert.deepEqual(dm.flags, [], 'unread');
      assert.deepEqual(dm.display_recipient.map((r: { id: number; full_name: string }) => [r.id, r.full_name]).sort(), [[bot, 'Notification Bot'], [melAcc.id, 'Mel']].sort());
    }
    const unread = (await mel.post('/register', { fetch_event_types: ['message', 'update_message_flags'] })).body.unread_msgs;
    assert.ok(unread.pms.some((p: { other_user_id?: number; sender_id?: number }) => (p.other_user_id ?? p.sender_id) === bot), JSON.stringify(unread.pms));
    const noTime = await mel.patch(`/scheduled_messages/${id}`, { content: 'again' });
    assert.equal(noTime.body.msg, 'Scheduled delivery time must be in the future.');
    const moved = await mel.patch(`/scheduled_messages/${id}`, { to: kitchen, scheduled_delivery_timestamp: nowS() + 60 });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal((await mel.get('/scheduled_messages')).body.scheduled_messages[0].failed, false);
    // Too late: a server that was down more than ten minutes past the time does not send it.
    now += 11 * 60 * 1000 + 60_000;
    assert.equal(await deliverDueScheduledMessages(ts.app), 0);
    const [late] = (await mel.get('/scheduled_messages')).body.scheduled_messages;
    assert.equal(late.failed, true);
    assert.equal((await stored())[0]!.failure_message, 'Message could not be sent at the scheduled time.');
    assert.equal((await mel.delete(`/scheduled_messages/${id}`)).status, 200);
  });
});

describe('scheduled delivery timer', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('sends a message at its time without any request', async () => {
    const channel = await createChannel(ts, ts.ownerClient, 'timed');
    const at = Math.floor(Date.now() / 1000) + 2;
    const res = await ts.ownerClient.post('/scheduled_messages', { type: 'stream', to: channel, topic: 't', content: 'on time', scheduled_delivery_timestamp: at });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const deadline = Date.now() + 15_000;
    let found: { content: string; timestamp: number } | undefined;
    while (!found && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      const got = await fetchMessages(ts.ownerClient, { anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false, narrow: JSON.stringify([{ operator: 'channel', operand: channel }]) });
      found = got.messages[0];
    }
    assert.ok(found, 'delivered by the timer');
    assert.equal(found.content, 'on time');
    // Within a second of its time on an idle machine; CI machines may be busy, hence the margin.
    assert.ok(found.timestamp >= at && found.timestamp <= at + 10, `sent at ${found.timestamp}, due ${at}`);
  });
});
