import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../../helpers/channels.js';
import { sendDirect, sendStream } from '../../helpers/messages.js';
import { seededRandom } from '../../../server/lib/seeded-random.js';
import { startTestServer, type Account, type Client, type TestServer } from '../../helpers/server.js';
import { verifyAction } from '../../helpers/verify-action.js';

type Step = { name: string; run: () => Promise<unknown> };

/**
 * After random sequences of sends, reads, unreads, mark-as-read calls and channel mutes,
 * register's `unread_msgs` must agree with what GET /messages says is unread:
 * the same IDs, and `count` = direct messages + messages of unmuted channels.
 * Every few steps the step also runs under verifyAction (events replayed = fresh register).
 */
describe('unread counts stay consistent', () => {
  let ts: TestServer;
  let me: Account;
  let meC: Client;
  let others: Client[];
  let otherIds: number[];
  const channels = ['alpha', 'beta', 'gamma'];
  const channelIds = new Map<string, number>();
  before(async () => {
    ts = await startTestServer();
    me = await ts.addUser('Una');
    meC = ts.client(me);
    const a = await ts.addUser('Ann');
    const b = await ts.addUser('Bob');
    others = [ts.client(a), ts.client(b)];
    otherIds = [a.id, b.id];
    for (const name of channels) {
      channelIds.set(name, await createChannel(ts, others[0]!, name, { principals: [] }));
      for (const c of [meC, ...others]) await c.post('/users/me/subscriptions', { subscriptions: [{ name }] });
    }
  });
  after(() => ts.stop());

  async function check(label: string) {
    const reg = await meC.post('/register', { fetch_event_types: ['message', 'update_message_flags', 'subscription'] });
    assert.equal(reg.status, 200);
    const u = reg.body.unread_msgs;
    const res = await meC.get('/messages', { anchor: 'newest', num_before: 5000, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]) });
    const unread = res.body.messages as { id: number; type: string; stream_id?: number }[];
    const muted = new Set(
      (reg.body.subscriptions as { stream_id: number; is_muted: boolean }[]).filter((s) => s.is_muted).map((s) => s.stream_id),
    );
    const listed = [
      ...u.streams.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids),
      ...u.pms.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids),
      ...u.huddles.flatMap((s: { unread_message_ids: number[] }) => s.unread_message_ids),
    ].sort((x, y) => x - y);
    assert.deepEqual(listed, unread.map((m) => m.id).sort((x, y) => x - y), `${label}: unread IDs`);
    const expected = unread.filter((m) => m.type === 'private' || !muted.has(m.stream_id!)).length;
    assert.equal(u.count, expected, `${label}: count`);
  }

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}: 60 random steps`, async () => {
      const rand = seededRandom(seed);
      const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const sent: number[] = [];
      const someSent = () => sent.filter(() => rand() < 0.4);
      const steps: (() => Step)[] = [
        () => ({
          name: 'send to a channel',
          run: async () => sent.push(await sendStream(pick(others), pick(channels), pick(['a', 'b', 'c']), 'hi')),
        }),
        () => ({ name: 'send a direct message', run: async () => sent.push(await sendDirect(pick(others), [me.id], 'yo')) }),
        () => ({
          name: 'send a group direct message',
          run: async () => sent.push(await sendDirect(others[0]!, [me.id, otherIds[1]!], 'all of us')),
        }),
        () => ({
          name: 'mark some read',
          run: () => meC.post('/messages/flags', { messages: JSON.stringify(someSent()), op: 'add', flag: 'read' }),
        }),
        () => ({
          name: 'mark some unread',
          run: () => meC.post('/messages/flags', { messages: JSON.stringify(someSent()), op: 'remove', flag: 'read' }),
        }),
        () => {
          const c = pick(channels);
          return { name: `mark ${c} read`, run: () => meC.post('/mark_stream_as_read', { stream_id: channelIds.get(c)! }) };
        },
        () => ({
          name: 'mark a topic read',
          run: () => meC.post('/mark_topic_as_read', { stream_id: channelIds.get(pick(channels))!, topic_name: pick(['a', 'b', 'c']) }),
        }),
        () => {
          const c = pick(channels);
          const value = rand() < 0.5;
          return {
            name: `${value ? 'mute' : 'unmute'} ${c}`,
            run: () =>
              meC.post('/users/me/subscriptions/properties', {
                subscription_data: JSON.stringify([{ stream_id: channelIds.get(c)!, property: 'is_muted', value }]),
              }),
          };
        },
        () => ({ name: 'mark all read', run: () => meC.post('/mark_all_as_read') }),
        () => ({
          name: 'delete one (by an administrator)',
          run: async () => {
            const victim = sent.length ? sent.splice(Math.floor(rand() * sent.length), 1)[0]! : null;
            if (victim !== null) await ts.ownerClient.delete(`/messages/${victim}`);
          },
        }),
        () => ({
          name: 'move one to another channel',
          run: async () => {
            const candidates = sent.filter((id) => ts.store.messages.get(id)?.stream_id != null);
            if (candidates.length) await ts.ownerClient.patch(`/messages/${pick(candidates)}`, { stream_id: channelIds.get(pick(channels))!, topic: pick(['a', 'b', 'c']) });
          },
        }),
      ];
      const weights = [6, 3, 1, 3, 3, 1, 1, 2, 1, 2, 1];
      const total = weights.reduce((a, b) => a + b, 0);
      for (let i = 0; i < 60; i++) {
        let r = rand() * total;
        let k = 0;
        while (r >= weights[k]!) r -= weights[k++]!;
        const step = steps[k]!();
        // (Without 'message': a deletion moves max_message_id, which no event carries.)
        if (i % 5 === 4) {
          try {
            await verifyAction(meC, step.run, { fetch_event_types: ['update_message_flags', 'message', 'subscription'] });
          } catch (err) {
            throw new Error(`seed ${seed} step ${i} (${step.name}): ${(err as Error).message}`);
          }
        }
        else await step.run();
        await check(`seed ${seed} step ${i} (${step.name})`);
      }
    });
  }
});
