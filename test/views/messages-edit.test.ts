import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FLAG } from '../../server/store/message-records.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const REGISTER = { fetch_event_types: ['message', 'update_message_flags', 'subscription'] };

describe('PATCH /messages/{id}: content and topics', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 3, 1);
  let admin: Client;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let moe: Client;
  let porch: number;
  const id = (name: string) => ts.store.groups.data.groups.find((g) => g.name === name)!.id;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    admin = ts.client(await ts.addUser('Adam', 200));
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    moe = ts.client(await ts.addUser('Moe', 300));
    porch = await createChannel(ts, sam, 'porch', { principals: [] });
    for (const c of [mel, sam, admin, moe]) await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }] });
  });
  after(() => ts.stop());

  it('the sender edits content: re-rendered, history kept, mention flags follow (verifyAction for the mentioned)', async () => {
    const msg = await sendStream(sam, 'porch', 'plans', 'meet at 5');
    let res: Awaited<ReturnType<Client['patch']>> | undefined;
    const events = await verifyAction(mel, async () => {
      res = await sam.patch(`/messages/${msg}`, { content: 'meet at 6, @**Mel**' });
    }, REGISTER);
    assert.equal(res!.status, 200, JSON.stringify(res!.body));
    const e = events.find((x) => x.type === 'update_message')!;
    assert.equal(e.orig_content, 'meet at 5');
    assert.equal(e.content, 'meet at 6, @**Mel**');
    assert.match(String(e.rendered_content), /user-mention/);
    assert.deepEqual(e.message_ids, [msg]);
    assert.equal(e.user_id, samAcc.id);
    assert.ok((e.flags as string[]).includes('mentioned'));
    assert.ok(!('propagate_mode' in e), 'no move');
    const m = ts.store.messages.get(msg)!;
    assert.ok(ts.store.messages.rowFlags(m, melAcc.id)! & FLAG.mentioned);
    const fetched = await mel.get(`/messages/${msg}`);
    assert.equal(fetched.body.raw_content, 'meet at 6, @**Mel**');
    assert.equal(fetched.body.message.last_edit_timestamp, Math.floor(now / 1000));
    const history = (await mel.get(`/messages/${msg}/history`)).body.message_history;
    assert.equal(history.length, 2);
    assert.equal(history[1].prev_content, 'meet at 5');
    // Taking the mention out clears the flag.
    await verifyAction(mel, () => sam.patch(`/messages/${msg}`, { content: 'meet at 6' }), REGISTER);
    assert.equal(ts.store.messages.rowFlags(ts.store.messages.get(msg)!, melAcc.id)! & FLAG.mentioned, 0);
  });

  it('content: only the sender, within the time limit, while editing is allowed', async () => {
    const msg = await sendStream(sam, 'porch', 'x', 'original');
    const notMine = await mel.patch(`/messages/${msg}`, { content: 'hijack' });
    assert.equal(notMine.body.msg, "You don't have permission to edit this message");
    assert.equal((await admin.patch(`/messages/${msg}`, { content: 'admin edit' })).body.msg, "You don't have permission to edit this message");
    now += 700_000;
    const late = await sam.patch(`/messages/${msg}`, { content: 'too late' });
    assert.equal(late.body.msg, "The time limit for editing this message's content has passed");
    assert.equal((await admin.patch('/realm', { message_content_edit_limit_seconds: 'unlimited' })).status, 200);
    assert.equal((await sam.patch(`/messages/${msg}`, { content: 'in time now' })).status, 200);
    assert.equal((await admin.patch('/realm', { allow_message_editing: false })).status, 200);
    const off = await sam.patch(`/messages/${msg}`, { content: 'no more' });
    assert.equal(off.body.msg, 'Your organization has turned off message editing');
    assert.equal(ts.store.messages.get(msg)!.content, 'in time now');
    assert.equal((await admin.patch('/realm', { allow_message_editing: true })).status, 200);
  });

  it('refuses malformed edits', async () => {
    const msg = await sendStream(sam, 'porch', 'y', 'z');
    const dm = await sendDirect(sam, [melAcc.id], 'hi');
    const cases: [number, Record<string, unknown>, string][] = [
      [msg, {}, 'Nothing to change'],
      [msg, { content: 'a', propagate_mode: 'change_all' }, 'Invalid propagate_mode without topic edit'],
      [msg, { topic: 'b', propagate_mode: 'sideways' }, 'Invalid propagate_mode'],
      [dm, { topic: 'b' }, 'Direct messages cannot have topics.'],
      [dm, { stream_id: porch }, 'Direct messages cannot be moved to channels.'],
      [msg, { topic: 'b', subject: 'c' }, "Can't decide between 'topic' and 'subject' arguments"],
      [999999, { content: 'x' }, 'Invalid message(s)'],
    ];
    for (const [target, params, msgText] of cases) {
      const res = await sam.patch(`/messages/${target}`, params as never);
      assert.equal(res.status, 400, JSON.stringify([params, res.body]));
      assert.equal(res.body.msg, msgText);
    }
  });

  it('prev_content_sha256 guards against overwriting an unseen edit; general chat cannot be resolved', async () => {
    const sha = (s: string) => createHash('sha256').update(s).digest('hex');
    const msg = await sendStream(sam, 'porch', 'guarded', 'first draft');
    const stale = await sam.patch(`/messages/${msg}`, { content: 'second', prev_content_sha256: sha('something else') });
    assert.equal(stale.status, 400, JSON.stringify(stale.body));
    assert.equal(stale.body.code, 'EXPECTATION_MISMATCH');
    assert.equal(stale.body.msg, "'prev_content_sha256' value does not match the expected value.");
    assert.equal(ts.store.messages.get(msg)!.content, 'first draft');
    // Checked for any edit, topic moves too (Zulip gives the parameter one meaning).
    const staleMove = await sam.patch(`/messages/${msg}`, { topic: 'elsewhere', prev_content_sha256: 'x' });
    assert.equal(staleMove.body.code, 'EXPECTATION_MISMATCH');
    assert.equal(ts.store.messages.get(msg)!.topic, 'guarded');
    const ok = await sam.patch(`/messages/${msg}`, { content: 'second', prev_content_sha256: sha('first draft') });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ts.store.messages.get(msg)!.content, 'second');

    const general = await sendStream(sam, 'porch', '', 'in general chat');
    for (const topic of ['✔', '✔ general chat', ' ✔ ']) {
      const res = await sam.patch(`/messages/${general}`, { topic, propagate_mode: 'change_all' });
      assert.equal(res.status, 400, JSON.stringify([topic, res.body]));
      assert.equal(res.body.msg, 'General chat cannot be marked as resolved');
    }
    assert.equal(ts.store.messages.get(general)!.topic, '');
  });

  it('renames a topic with each propagate_mode; unread messages follow (verifyAction)', async () => {
    const ids: number[] = [];
    for (const c of ['one', 'two', 'three', 'four']) ids.push(await sendStream(sam, 'porch', 'Lunch', c));
    // change_one
    await verifyAction(mel, () => mel.patch(`/messages/${ids[0]}`, { topic: 'breakfast' }), REGISTER);
    assert.equal(ts.store.messages.get(ids[0]!)!.topic, 'breakfast');
    assert.equal(ts.store.messages.get(ids[1]!)!.topic, 'Lunch');
    // change_later
    const later = await verifyAction(mel, () => mel.patch(`/messages/${ids[2]}`, { topic: 'dinner', propagate_mode: 'change_later' }), REGISTER);
    const e = later.find((x) => x.type === 'update_message')!;
    assert.deepEqual(e.message_ids, [ids[2], ids[3]]);
    assert.equal(e.orig_subject, 'Lunch');
    assert.equal(e.subject, 'dinner');
    assert.equal(e.propagate_mode, 'change_later');
    assert.equal(e.stream_id, porch);
    // change_all (topics match case-insensitively)
    await sendStream(sam, 'porch', 'DINNER', 'five');
    const all = await verifyAction(mel, () => mel.patch(`/messages/${ids[3]}`, { topic: 'supper', propagate_mode: 'change_all' }), REGISTER);
    // Three messages plus the Notification Bot's "moved here" notice the change_later move left in 'dinner'.
    assert.equal((all.find((x) => x.type === 'update_message')!.message_ids as number[]).length, 4);
    const history = (await mel.get(`/messages/${ids[3]}/history`)).body.message_history;
    assert.deepEqual(history.slice(1).map((h: { prev_topic?: string; topic: string }) => [h.prev_topic, h.topic]), [
      ['Lunch', 'dinner'],
      ['dinner', 'supper'],
    ]);
    const topics = (await mel.get(`/users/me/${porch}/topics`)).body.topics.map((x: { name: string }) => x.name);
    assert.ok(topics.includes('supper') && !topics.includes('dinner'));
  });

  it('resolving topics and moving between topics follow their group settings and the time limit', async () => {
    const msg = await sendStream(sam, 'porch', 'bug 12', 'broken');
    await verifyAction(mel, () => mel.patch(`/messages/${msg}`, { topic: '✔ bug 12', propagate_mode: 'change_all' }), REGISTER);
    assert.equal(ts.store.messages.get(msg)!.topic, '✔ bug 12');
    assert.equal((await admin.patch('/realm', { can_resolve_topics_group: { new: id('role:administrators') } })).status, 200);
    const unresolve = await mel.patch(`/messages/${msg}`, { topic: 'bug 12', propagate_mode: 'change_all' });
    assert.equal(unresolve.body.msg, "You don't have permission to resolve topics in this channel.");
    assert.equal((await admin.patch('/realm', { can_move_messages_between_topics_group: { new: id('role:moderators') } })).status, 200);
    const rename = await mel.patch(`/messages/${msg}`, { topic: 'bug twelve' });
    assert.equal(rename.body.msg, "You don't have permission to edit this message");
    assert.equal((await admin.patch('/realm', { can_move_messages_between_topics_group: { new: id('role:members') } })).status, 200);
    now += 8 * 86_400_000;
    const late = await mel.patch(`/messages/${msg}`, { topic: 'bug twelve' });
    assert.equal(late.body.msg, "The time limit for editing this message's topic has passed.");
    assert.equal((await moe.patch(`/messages/${msg}`, { topic: 'bug twelve' })).status, 200, 'moderators are not time-limited');
    assert.equal(ts.store.messages.get(msg)!.topic, 'bug twelve');
  });
});
