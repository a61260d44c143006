import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { renderMessage } from '../../server/markdown/index.js';
import { renderContextFor } from '../../server/lib/messages/render-context.js';
import { FLAG } from '../../server/store/message-records.js';
import { createChannel } from '../helpers/channels.js';
import { castOf, type Cast } from '../helpers/people.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type ParamValue, type TestServer } from '../helpers/server.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

describe('message events and register', () => {
  let ts: TestServer;
  let cast: Cast;
  let owner: Client;
  let member: Client;
  let admin: Client;
  let guest: Client;

  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    owner = ts.ownerClient;
    member = ts.client(cast.member);
    admin = ts.client(cast.admin);
    guest = ts.client(cast.guest);
    await createChannel(ts, owner, 'general', { principals: JSON.stringify([cast.owner.id, cast.member.id]) });
    await createChannel(ts, owner, 'other', { principals: JSON.stringify([cast.owner.id, cast.member.id]) });
    await createChannel(ts, owner, 'private', { invite_only: true, principals: JSON.stringify([cast.owner.id]) });
  });
  after(() => ts.stop());

  async function queue(client: Client, params: Record<string, ParamValue> = {}) {
    const reg = await client.post('/register', { event_types: ['message'], ...params });
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    return async () => (await drain(client, reg.body.queue_id, -1)).filter((e) => e.type === 'message');
  }

  it('honours the queue narrow', async () => {
    const q = await queue(member, { narrow: [['stream', 'general']] });
    const qt = await queue(member, { narrow: JSON.stringify([{ operator: 'topic', operand: 'b' }]) });
    const qdm = await queue(member, { narrow: [['is', 'dm']] });
    const a = await sendStream(owner, 'general', 'a', 'in general');
    const b = await sendStream(owner, 'other', 'b', 'in other');
    const d = await sendDirect(owner, [cast.member.id], 'direct');
    assert.deepEqual((await q()).map((e) => (e.message as { id: number }).id), [a]);
    assert.deepEqual((await qt()).map((e) => (e.message as { id: number }).id), [b]);
    assert.deepEqual((await qdm()).map((e) => (e.message as { id: number }).id), [d]);
  });

  it('all_public_streams reaches non-subscribers for public channels only, never guests', async () => {
    const qa = await queue(admin, { all_public_streams: true });
    const qplain = await queue(admin);
    // Zulip's register refuses the flag to guests outright (check_user_can_access_all_public_streams).
    const refused = await guest.post('/register', { event_types: ['message'], all_public_streams: true });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'User not authorized for this query');
    const qg = await queue(guest);
    const pub = await sendStream(owner, 'general', 'x', 'public');
    await sendStream(owner, 'private', 'x', 'private');
    const got = await qa();
    assert.deepEqual(got.map((e) => (e.message as { id: number }).id), [pub]);
    assert.deepEqual(got[0]!.flags, []);
    assert.deepEqual(await qplain(), []);
    assert.deepEqual(await qg(), []);
  });

  it('applies apply_markdown, event_types and the empty-topic capability', async () => {
    const md = await queue(member, { apply_markdown: true });
    const raw = await queue(member, { apply_markdown: false });
    const capable = await queue(member, { client_capabilities: { empty_topic_name: true } });
    const noMessages = await queue(member, { event_types: ['stream'] });
    await sendStream(owner, 'general', '', 'x < y');
    const [m1] = await md();
    const [m2] = await raw();
    const [m3] = await capable();
    assert.equal((m1!.message as Record<string, unknown>).content_type, 'text/html');
    assert.match(String((m1!.message as Record<string, unknown>).content), /x &lt; y/);
    assert.equal((m2!.message as Record<string, unknown>).content, 'x < y');
    assert.equal((m2!.message as Record<string, unknown>).content_type, 'text/x-markdown');
    assert.equal((m1!.message as Record<string, unknown>).subject, 'general chat');
    assert.equal((m3!.message as Record<string, unknown>).subject, '');
    assert.deepEqual(await noMessages(), []);
  });

  it('verifyAction: unread_msgs, recent_private_conversations and max_message_id follow sends', async () => {
    const params = { fetch_event_types: undefined };
    await verifyAction(member, () => sendStream(owner, 'general', 'news', 'one'), params);
    await verifyAction(member, () => sendDirect(owner, [cast.member.id], 'two'), params);
    await verifyAction(member, () => sendDirect(owner, [cast.member.id, cast.admin.id], 'three'), params);
    await verifyAction(member, () => sendDirect(member, [cast.member.id], 'self'), params);
    await verifyAction(member, () => sendStream(owner, 'general', '', 'empty topic'), {
      client_capabilities: { empty_topic_name: true },
    });
    const reg = await member.post('/register', {});
    const u = reg.body.unread_msgs;
    assert.ok(u.count >= 3);
    assert.ok(u.pms.some((p: { other_user_id: number }) => p.other_user_id === cast.owner.id));
    assert.equal(u.huddles[0].user_ids_string, [cast.owner.id, cast.member.id, cast.admin.id].sort((a, b) => a - b).join(','));
    assert.deepEqual(reg.body.recent_private_conversations[0].user_ids, []);
    assert.equal(reg.body.max_message_id, ts.store.messages.maxId);
  });

  it('unread count leaves out muted channels but lists them', async () => {
    const other = ts.store.channels.data.channels.find((c) => c.name === 'other')!.id;
    const sub = ts.store.subscriptions.data.subscriptions.find((s) => s.user_id === cast.member.id && s.stream_id === other)!;
    sub.is_muted = true;
    const reg0 = await member.post('/register', {});
    const id = await sendStream(owner, 'other', 'muted', 'quiet');
    const reg = await member.post('/register', {});
    assert.equal(reg.body.unread_msgs.count, reg0.body.unread_msgs.count);
    assert.ok(reg.body.unread_msgs.streams.some((s: { unread_message_ids: number[] }) => s.unread_message_ids.includes(id)));
    sub.is_muted = false;
  });

  it('feeds stream_weekly_traffic, first_message_id and is_recently_active', async () => {
    const id = await createChannel(ts, owner, 'traffic');
    const c = ts.store.channels.data.channels.find((x) => x.id === id)!;
    const reg0 = await owner.post('/register', {});
    const before = reg0.body.subscriptions.find((x: { stream_id: number }) => x.stream_id === id);
    assert.equal(before.stream_weekly_traffic, null);
    assert.equal(before.first_message_id, null);
    let first = 0;
    const events = await verifyAction(owner, async () => {
      first = await sendStream(owner, 'traffic', 't', 'one');
    });
    const updates = events.filter((e) => e.type === 'stream' && e.op === 'update');
    // A new channel is already recently active: only its first message is announced.
    assert.deepEqual(
      updates.map((e) => [e.property, e.value]),
      [['first_message_id', first]],
    );
    c.is_recently_active = false; // as after 180 quiet days
    const revived = await verifyAction(owner, () => sendStream(owner, 'traffic', 't', 'back'));
    assert.ok(revived.some((e) => e.type === 'stream' && e.property === 'is_recently_active' && e.value === true));
    for (let i = 0; i < 6; i++) await sendStream(owner, 'traffic', 't', `more ${i}`);
    c.date_created -= 30 * 86_400;
    const reg = await owner.post('/register', {});
    const sub = reg.body.subscriptions.find((x: { stream_id: number }) => x.stream_id === id);
    assert.equal(sub.stream_weekly_traffic, 2); // 8 messages in 28 days
    assert.equal(sub.first_message_id, first);
    assert.equal(sub.is_recently_active, true);
    assert.equal(c.first_message_id, first);
  });

  it('mentions set mentioned and wildcard_mentioned flags', async () => {
    const rendered = renderMessage('@**all** @**Mel**', renderContextFor(ts.app, cast.owner.id));
    assert.ok(rendered.channelWildcard && rendered.mentionedUserIds.has(cast.member.id), 'the renderer reports mentions');
    const id = await sendStream(owner, 'general', 'hello', '@**Mel** hi');
    const m = ts.store.messages.get(id)!;
    assert.equal(ts.store.messages.rowFlags(m, cast.member.id)! & FLAG.mentioned, FLAG.mentioned);
    assert.equal(ts.store.messages.rowFlags(m, cast.owner.id)! & FLAG.mentioned, 0);
    const all = await sendStream(owner, 'general', 'hello', '@**all** look');
    const w = ts.store.messages.get(all)!;
    assert.equal(ts.store.messages.rowFlags(w, cast.member.id)! & FLAG.stream_wildcard_mentioned, FLAG.stream_wildcard_mentioned);
    const reg = await member.post('/register', {});
    assert.ok(reg.body.unread_msgs.mentions.includes(id));
    assert.ok(reg.body.unread_msgs.mentions.includes(all));
    // A silent mention sets nothing; a group mention flags the group's members who received the message.
    const silent = await sendStream(owner, 'general', 'hello', '@_**Mel** quietly');
    assert.equal(ts.store.messages.rowFlags(ts.store.messages.get(silent)!, cast.member.id)! & FLAG.mentioned, 0);
    const created = await owner.post('/user_groups/create', {
      name: 'devs',
      description: 'developers',
      members: JSON.stringify([cast.member.id, cast.admin.id]),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const g = await sendStream(owner, 'general', 'hello', '@*devs* please look');
    const gm = ts.store.messages.get(g)!;
    assert.equal(ts.store.messages.rowFlags(gm, cast.member.id)! & FLAG.mentioned, FLAG.mentioned);
    assert.equal(ts.store.messages.rowFlags(gm, cast.owner.id)! & FLAG.mentioned, 0);
    assert.equal(ts.store.messages.rowFlags(gm, cast.admin.id), null); // not subscribed: no row
    // @**topic** flags those who took part in the topic; the API reports it as wildcard_mentioned.
    await sendStream(member, 'general', 'tw', 'I was here');
    const tw = await sendStream(owner, 'general', 'tw', '@**topic** heads up');
    const twm = ts.store.messages.get(tw)!;
    assert.equal(ts.store.messages.rowFlags(twm, cast.member.id)! & FLAG.topic_wildcard_mentioned, FLAG.topic_wildcard_mentioned);
    const fetched = await member.get(`/messages/${tw}`);
    assert.ok(fetched.body.message.flags.includes('wildcard_mentioned'));
    const quiet = await sendStream(owner, 'general', 'elsewhere', '@**topic** nobody here');
    assert.equal(ts.store.messages.rowFlags(ts.store.messages.get(quiet)!, cast.member.id)! & FLAG.topic_wildcard_mentioned, 0);
  });

  it('wildcard mentions show as stream_/topic_wildcard_mentioned plus the legacy wildcard_mentioned, in Zulip\'s order', async () => {
    await sendStream(member, 'general', 'flags', 'I take part');
    const events = await queue(member, { apply_markdown: true });
    const all = await sendStream(owner, 'general', 'flags', '@**all** and @**Mel**');
    const topic = await sendStream(owner, 'general', 'flags', '@**topic** please');
    const got = await events();
    const flagsOf = (id: number) => got.find((e) => (e.message as { id: number }).id === id)!.flags;
    assert.deepEqual(flagsOf(all), ['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
    assert.deepEqual(flagsOf(topic), ['topic_wildcard_mentioned', 'wildcard_mentioned']);
    const fetched = await member.get('/messages', {
      anchor: all,
      num_before: 0,
      num_after: 1,
      narrow: JSON.stringify([{ operator: 'topic', operand: 'flags' }]),
    });
    assert.equal(fetched.status, 200, JSON.stringify(fetched.body));
    assert.deepEqual(
      fetched.body.messages.map((m: { flags: string[] }) => m.flags),
      [
        ['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned'],
        ['topic_wildcard_mentioned', 'wildcard_mentioned'],
      ],
    );
    // The stored rows hold one bit each; is:mentioned finds both.
    const mentioned = await member.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([['is', 'mentioned'], ['topic', 'flags']]) });
    assert.deepEqual(mentioned.body.messages.map((m: { id: number }) => m.id), [all, topic]);
  });
});
