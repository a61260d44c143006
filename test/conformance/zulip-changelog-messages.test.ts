import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pathIdFromReference } from '../../server/lib/uploads/names.js';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type Person, type TestServer } from '../helpers/server.js';
import { uploadOne } from '../helpers/uploads.js';
import { drain } from '../helpers/verify-action.js';

/** Messages-area behaviours from Zulip's API changelog (feature levels 172 to 489). */

const DAY_MS = 86_400_000;
type Body = Record<string, unknown>;

describe('Zulip API changelog: messages', () => {
  let ts: TestServer;
  let now = Date.UTC(2026, 4, 1);
  let mel: Person;
  let sam: Person;
  let admin: Client;
  let moe: Client;
  const groupId = (name: string) => ts.store.groups.data.groups.find((g) => g.name === name)!.id;
  const subscribe = (c: Client, name: string) => c.post('/users/me/subscriptions', { subscriptions: [{ name }] });
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    [mel, sam] = await ts.people('Mel', 'Sam');
    admin = ts.client(await ts.addUser('Adam', 200));
    moe = ts.client(await ts.addUser('Moe', 300));
    await createChannel(ts, sam.client, 'porch', { principals: [] });
    await createChannel(ts, sam.client, 'attic', { principals: [] });
    for (const c of [mel.client, sam.client, admin, moe]) {
      await subscribe(c, 'porch');
      await subscribe(c, 'attic');
    }
  });
  after(() => ts.stop());

  it('FL 172: change_all past the move time limit answers MOVE_MESSAGES_TIME_LIMIT_EXCEEDED (not for moderators or resolving)', async () => {
    const old1 = await sendStream(mel.client, 'porch', 'history', 'one');
    const old2 = await sendStream(sam.client, 'porch', 'history', 'two');
    now += 8 * DAY_MS; // past the default 7-day limits
    const new1 = await sendStream(mel.client, 'porch', 'history', 'three');
    const new2 = await sendStream(mel.client, 'porch', 'history', 'four');

    const res = await mel.client.patch(`/messages/${new2}`, { topic: 'the past', propagate_mode: 'change_all' });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      result: 'error',
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      msg: 'You only have permission to move the 2/4 most recent messages in this topic.',
      first_message_id_allowed_to_move: new1,
      total_messages_in_topic: 4,
      total_messages_allowed_to_move: 2,
    });
    assert.equal(ts.store.messages.get(new2)!.topic, 'history', 'nothing moved');

    // Moving the channel: the between-channels limit applies (here the stricter of the two).
    assert.equal((await admin.patch('/realm', { move_messages_between_streams_limit_seconds: 60 })).status, 200);
    const attic = ts.store.channels.data.channels.find((c) => c.name === 'attic')!.id;
    const move = await mel.client.patch(`/messages/${new2}`, { stream_id: attic, propagate_mode: 'change_all' });
    assert.equal(move.body.code, 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED');
    assert.equal(move.body.total_messages_allowed_to_move, 2);
    assert.equal((await admin.patch('/realm', { move_messages_between_streams_limit_seconds: 604_800 })).status, 200);

    // Resolving is exempt; change_later from the first movable message is the way forward.
    assert.equal((await mel.client.patch(`/messages/${new2}`, { topic: '✔ history', propagate_mode: 'change_all' })).status, 200);
    assert.equal(ts.store.messages.get(old1)!.topic, '✔ history');
    const later = await mel.client.patch(`/messages/${new1}`, { topic: 'the present', propagate_mode: 'change_later' });
    assert.equal(later.status, 200, JSON.stringify(later.body));
    assert.equal(ts.store.messages.get(new2)!.topic, 'the present');
    assert.equal(ts.store.messages.get(old2)!.topic, '✔ history');
    // Moderators are not bound by the limits.
    assert.equal((await moe.patch(`/messages/${old2}`, { topic: 'the past', propagate_mode: 'change_all' })).status, 200);
    assert.equal(ts.store.messages.get(old1)!.topic, 'the past');
  });

  it("FL 402: resolving follows the organization's or the channel's can_resolve_topics_group", async () => {
    const inPorch = await sendStream(sam.client, 'porch', 'bug 1', 'broken');
    const inAttic = await sendStream(sam.client, 'attic', 'bug 2', 'broken too');
    const porch = ts.store.channels.data.channels.find((c) => c.name === 'porch')!.id;
    assert.equal((await admin.patch('/realm', { can_resolve_topics_group: { new: groupId('role:administrators') } })).status, 200);
    assert.equal((await admin.patch(`/streams/${porch}`, { can_resolve_topics_group: { new: groupId('role:members') } })).status, 200);

    const denied = await mel.client.patch(`/messages/${inAttic}`, { topic: '✔ bug 2', propagate_mode: 'change_all' });
    assert.equal(denied.status, 400);
    assert.equal(denied.body.msg, "You don't have permission to resolve topics in this channel.");
    const ok = await mel.client.patch(`/messages/${inPorch}`, { topic: '✔ bug 1', propagate_mode: 'change_all' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ts.store.messages.get(inPorch)!.topic, '✔ bug 1');
    // The channel the messages move to counts as well.
    const into = await mel.client.patch(`/messages/${inAttic}`, { topic: '✔ bug 2', stream_id: porch, propagate_mode: 'change_all' });
    assert.equal(into.status, 200, JSON.stringify(into.body));
    assert.equal(ts.store.messages.get(inAttic)!.stream_id, porch);
    assert.equal((await admin.patch('/realm', { can_resolve_topics_group: { new: groupId('role:everyone') } })).status, 200);
  });

  it('FL 457: the deleting user hears delete_message only for messages they can read', async () => {
    // A private channel with protected history. Mel posts before Sam joins, then leaves; Sam resolves
    // what he can see (so the resolve notice only reaches Sam), and Mel, within the undo grace period,
    // resolves her own leftover message: that undoes (deletes) the notice, which Mel never received.
    await createChannel(ts, mel.client, 'vault', { invite_only: true, history_public_to_subscribers: false });
    const vault = ts.store.channels.data.channels.find((c) => c.name === 'vault')!.id;
    const mine = await sendStream(mel.client, vault, 'leak', 'before Sam');
    assert.equal((await mel.client.post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [sam.account.id] })).status, 200);
    assert.equal((await mel.client.delete('/users/me/subscriptions', { subscriptions: ['vault'] })).status, 200);
    const his = await sendStream(sam.client, vault, 'leak', 'after Mel');
    assert.equal((await sam.client.patch(`/messages/${his}`, { topic: '✔ leak', propagate_mode: 'change_all' })).status, 200);
    const resolved = ts.store.messages.topic(vault, '✔ leak');
    const notice = resolved.at(resolved.length - 1);
    assert.notEqual(notice, his);
    assert.equal(ts.store.messages.rowFlags(ts.store.messages.get(notice)!, mel.account.id), null, 'Mel never got the notice');

    const reg = await mel.client.post('/register', { event_types: JSON.stringify(['delete_message']) });
    const samReg = await sam.client.post('/register', { event_types: JSON.stringify(['delete_message']) });
    const res = await mel.client.patch(`/messages/${mine}`, { topic: '✔ leak', propagate_mode: 'change_all' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(ts.store.messages.get(notice), undefined, 'the notice was undone');
    assert.deepEqual(await drain(mel.client, reg.body.queue_id, reg.body.last_event_id), []);
    const samEvents = await drain(sam.client, samReg.body.queue_id, samReg.body.last_event_id);
    assert.deepEqual(samEvents.map((e) => e.message_id), [notice], 'those who could read it still hear of it');
  });

  it('FL 285/443/472: PATCH answers detached_uploads; attachment times are in seconds, with message_ids', async () => {
    const url = await uploadOne(mel.client, 'notes.txt', 'some notes');
    const a = ts.store.attachments.byPathId(pathIdFromReference(url)!)!;
    const msg = await sendStream(mel.client, 'porch', 'files', `[notes](${url})`);
    const m = ts.store.messages.get(msg)!;
    const listed = (await mel.client.get('/attachments')).body.attachments.find((x: Body) => x.id === a.id);
    assert.deepEqual(listed, {
      id: a.id,
      name: 'notes.txt',
      path_id: a.path_id,
      size: 10,
      create_time: Math.floor(now / 1000),
      message_ids: [msg],
      messages: [{ id: msg, date_sent: m.timestamp }],
    });

    const unchanged = await mel.client.patch(`/messages/${msg}`, { content: `still [notes](${url})` });
    assert.equal(unchanged.status, 200);
    assert.deepEqual(unchanged.body.detached_uploads, []);
    const moved = await mel.client.patch(`/messages/${msg}`, { topic: 'papers' });
    assert.deepEqual(moved.body.detached_uploads, []);

    const edited = await mel.client.patch(`/messages/${msg}`, { content: 'no more notes' });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.deepEqual(edited.body.detached_uploads, [
      { id: a.id, name: 'notes.txt', path_id: a.path_id, size: 10, create_time: Math.floor(now / 1000), message_ids: [], messages: [] },
    ]);

    // A file another message still links is not detached.
    const url2 = await uploadOne(mel.client, 'twice.txt', 'x');
    const first = await sendStream(mel.client, 'porch', 'files', `[twice](${url2})`);
    await sendStream(mel.client, 'porch', 'files', `again [twice](${url2})`);
    const kept = await mel.client.patch(`/messages/${first}`, { content: 'gone here' });
    assert.deepEqual(kept.body.detached_uploads, []);
  });

  it('FL 451: an invalid <time:...> renders as its escaped original text', async () => {
    const res = await mel.client.post('/messages/render', { content: 'at <time:not a time & more> ok' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.rendered, '<p>at &lt;time:not a time &amp; more&gt; ok</p>');
    const valid = await mel.client.post('/messages/render', { content: '<time:1496701800>' });
    assert.equal(valid.body.rendered, '<p><time datetime="2017-06-05T22:30:00Z">1496701800</time></p>');
  });

  it('FL 446: mentions:<user> finds visible personal mentions of that user', async () => {
    const group = await admin.post('/user_groups/create', { name: 'crew', description: '', members: JSON.stringify([mel.account.id]) });
    assert.equal(group.status, 200, JSON.stringify(group.body));
    const direct = await sendStream(sam.client, 'porch', 'mentions', 'hi @**Mel**');
    await sendStream(sam.client, 'porch', 'mentions', 'quietly @_**Mel**');
    await sendStream(sam.client, 'porch', 'mentions', 'everyone @**all**');
    await sendStream(sam.client, 'porch', 'mentions', 'the group @*crew*');
    await sendStream(sam.client, 'porch', 'mentions', '> quoted @**Mel**');
    await sendStream(sam.client, 'porch', 'mentions', `hi @**Sam**`);
    const ids = async (operand: unknown, negated = false) =>
      (await fetchMessages(sam.client, { narrow: JSON.stringify([{ operator: 'topic', operand: 'mentions' }, { operator: 'mentions', operand, negated }]) }))
        .messages.map((x: Body) => x.id);
    assert.deepEqual(await ids(mel.account.id), [direct]);
    assert.deepEqual(await ids(mel.account.email), [direct]);
    assert.deepEqual(await ids(String(mel.account.id)), [direct]);
    assert.equal((await ids(mel.account.id, true)).length, 5);
    for (const operand of ['nobody@example.com', 99_999, { id: 1 }]) {
      const res = await sam.client.get('/messages', {
        anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'mentions', operand }]),
      });
      assert.equal(res.status, 400, JSON.stringify(operand));
      assert.equal(res.body.code, 'BAD_NARROW', JSON.stringify(operand));
    }
  });

  it('FL 489: channels:archived finds the messages the user received in archived channels', async () => {
    await createChannel(ts, sam.client, 'shed', { principals: [] });
    await createChannel(ts, sam.client, 'barn', { principals: [] });
    await subscribe(mel.client, 'shed');
    const received = await sendStream(sam.client, 'shed', 'old', 'for Mel');
    await sendStream(sam.client, 'barn', 'old', 'Mel never got this');
    const live = await sendStream(sam.client, 'porch', 'archive test', 'still here');
    for (const name of ['shed', 'barn']) {
      const id = ts.store.channels.data.channels.find((c) => c.name === name)!.id;
      assert.equal((await admin.delete(`/streams/${id}`)).status, 200);
    }
    const narrow = (negated: boolean) => JSON.stringify([{ operator: 'channels', operand: 'archived', negated }]);
    const archived = (await fetchMessages(mel.client, { narrow: narrow(false) })).messages.map((x: Body) => x.id);
    assert.deepEqual(archived, [received]);
    const rest = (await fetchMessages(mel.client, { narrow: narrow(true) })).messages.map((x: Body) => x.id);
    assert.ok(rest.includes(live) && !rest.includes(received));
    const bad = await mel.client.get('/messages', {
      anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'channels', operand: 'closed' }]),
    });
    assert.equal(bad.body.code, 'BAD_NARROW');
  });
});
