/**
 * A narrow that matches little reads every message (a negated search, a search while the word
 * index is not ready): GET /messages scans in slices of at most ~10 ms (server/lib/messages/fetch.ts),
 * so other requests are answered while it runs, and the scan's answer is still exactly right.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FLAG, packRow } from '../../server/store/message-records.js';
import { createChannel } from '../helpers/channels.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('a long scan of history', () => {
  let ts: TestServer;
  const N = 120_000;

  before(async () => {
    ts = await startTestServer();
    const channel = await createChannel(ts, ts.ownerClient, 'archive', { principals: [ts.owner.id] });
    const store = ts.store.messages;
    const ids: number[] = [];
    for (let i = 0; i < N; i++) {
      const m = store.add({ sender_id: ts.owner.id, stream_id: channel, topic: 'old', content: `message ${i} of the archive`, timestamp: 1_700_000_000 + i, um: [packRow(ts.owner.id, FLAG.read)] });
      ids.push(m.id);
    }
    for (let i = 0; i < ids.length; i += 1000) await store.save(...ids.slice(i, i + 1000));
  });
  after(() => ts.stop());

  it('answers other requests while it reads every message, and finds exactly what the narrow holds', async () => {
    // Every message says "archive": `-archive` matches none but the ones below, so the scan reads them all.
    const store = ts.store.messages;
    const channel = store.get(store.maxId)!.stream_id!;
    const last = store.add({ sender_id: ts.owner.id, stream_id: channel, topic: 'old', content: 'the odd one', timestamp: 1_800_000_000, um: [packRow(ts.owner.id, FLAG.read)] });
    await store.save(last.id);
    const gaps: number[] = [];
    let prev = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      gaps.push(now - prev);
      prev = now;
    }, 2);
    const t0 = performance.now();
    let pingedAt = 0;
    const scan = ts.ownerClient.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: JSON.stringify([{ operator: 'search', operand: 'archive', negated: true }]) }).then((r) => ({ r, at: performance.now() - t0 }));
    const ping = ts.ownerClient.get('/users/me').then((r) => {
      pingedAt = performance.now() - t0;
      return r;
    });
    const [{ r, at }, p] = await Promise.all([scan, ping]);
    clearInterval(timer);
    assert.equal(p.status, 200);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const found = (r.body.messages as { id: number }[]).map((m) => m.id);
    // The odd one, and the channel-creation notices before the archive, if any: nothing that says "archive".
    assert.ok(found.includes(last.id));
    for (const id of found) assert.ok(!/archive/.test(store.get(id)!.content), `message ${id}`);
    assert.equal(r.body.found_oldest, true, 'it read to the beginning');
    // The other request was answered before the scan ended, and the loop was never held long.
    assert.ok(pingedAt < at, `answered at ${pingedAt.toFixed(0)} ms, the scan at ${at.toFixed(0)} ms`);
    const held = Math.max(...gaps);
    assert.ok(held < 150, `the event loop was held ${held.toFixed(0)} ms at most (scan ${at.toFixed(0)} ms)`);
  });
});
