/**
 * Unread invariants after random sequences of sends (channel, direct, group,
 * self, empty topic) and channel mutes: the applied events always equal a
 * fresh register (verifyAction), and `unread_msgs` always agrees with the
 * stored rows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FLAG } from '../../../server/store/message-records.js';
import { createChannel } from '../../helpers/channels.js';
import { castOf, type Cast } from '../../helpers/people.js';
import { sendDirect, sendStream } from '../../helpers/messages.js';
import { startTestServer, type Client, type TestServer } from '../../helpers/server.js';
import { verifyAction } from '../../helpers/verify-action.js';

/** A small deterministic generator (mulberry32), so a failure replays. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('unread invariants', () => {
  let ts: TestServer;
  let cast: Cast;
  let observer: Client;
  const channels = ['red', 'green', 'blue'];

  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    observer = ts.client(cast.member);
    for (const name of channels) {
      await createChannel(ts, ts.ownerClient, name, {
        principals: JSON.stringify([cast.owner.id, cast.member.id, cast.admin.id]),
      });
    }
  });
  after(() => ts.stop());

  it('holds after 40 random sends and mutes', async () => {
    const rand = rng(20261122);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const senders = [cast.owner, cast.admin, cast.member];
    for (let step = 0; step < 40; step++) {
      const sender = ts.client(pick(senders));
      const r = rand();
      if (r < 0.1) {
        const name = pick(channels);
        const id = ts.store.channels.data.channels.find((c) => c.name === name)!.id;
        const sub = ts.store.subscriptions.data.subscriptions.find((s) => s.user_id === cast.member.id && s.stream_id === id)!;
        sub.is_muted = !sub.is_muted;
        continue;
      }
      const action =
        r < 0.6
          ? () => sendStream(sender, pick(channels), pick(['a', 'b', '', 'C']), `step ${step}`)
          : r < 0.8
            ? () => sendDirect(sender, [cast.member.id], `dm ${step}`)
            : r < 0.9
              ? () => sendDirect(sender, [cast.member.id, cast.admin.id, cast.owner.id], `group ${step}`)
              : () => sendDirect(observer, [cast.member.id], `self ${step}`, { read_by_sender: rand() < 0.5 });
      await verifyAction(observer, action, { client_capabilities: { empty_topic_name: rand() < 0.5 } });

      const reg = await observer.post('/register', {});
      const u = reg.body.unread_msgs;
      const store = ts.store.messages;
      const unread = store.unread(cast.member.id).toArray();
      const listed = [
        ...u.pms.flatMap((p: { unread_message_ids: number[] }) => p.unread_message_ids),
        ...u.huddles.flatMap((h: { unread_message_ids: number[] }) => h.unread_message_ids),
        ...u.streams.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids),
      ].sort((a, b) => a - b);
      assert.deepEqual(listed, unread, 'every unread row is listed once');
      for (const id of unread) assert.equal(store.rowFlags(store.get(id)!, cast.member.id)! & FLAG.read, 0);
      const muted = new Set(
        ts.store.subscriptions.data.subscriptions.filter((s) => s.user_id === cast.member.id && s.is_muted).map((s) => s.stream_id),
      );
      // Topics the member started or took part in are followed (Zulip's defaults), so they count even in a muted channel.
      const policies = ts.store.users.get(cast.member.id)!.user_topics ?? [];
      const policy = (m: { stream_id: number | null; topic: string }) =>
        policies.find((t) => t.stream_id === m.stream_id && t.topic_name.toLowerCase() === m.topic.toLowerCase())?.visibility_policy ?? 0;
      const counted = unread.filter((id) => {
        const m = store.get(id)!;
        return m.stream_id === null || !muted.has(m.stream_id) || policy(m) >= 2;
      }).length;
      assert.equal(u.count, counted, 'count leaves out muted channels, except unmuted and followed topics');
      assert.equal(u.old_unreads_missing, false);
    }
  });
});
