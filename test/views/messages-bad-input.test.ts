/** Bad input to the message endpoints is a 4xx with a Zulip error, never a 500, and stores nothing. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type ParamValue, type TestServer } from '../helpers/server.js';

describe('message endpoints refuse bad input cleanly', () => {
  let ts: TestServer;
  let id = 0;
  before(async () => {
    ts = await startTestServer();
    await createChannel(ts, ts.ownerClient, 'general');
    id = await sendStream(ts.ownerClient, 'general', 't', 'first');
  });
  after(() => ts.stop());

  const sends: Record<string, ParamValue>[] = [
    { type: 'stream', to: '{}', topic: 't', content: 'x' },
    { type: 'stream', to: '1.5', topic: 't', content: 'x' },
    { type: 'stream', to: 'null', topic: 't', content: 'x' },
    { type: 'stream', to: '[[1]]', topic: 't', content: 'x' },
    { type: 'stream', to: '[]', topic: 't', content: 'x' },
    { type: 'stream', to: 'general', topic: 'a\u0000b', content: 'x' },
    { type: 'stream', to: 'general', topic: 't', content: 'a\u0000b' },
    { type: 'direct', to: '', content: 'x' },
    { type: 'direct', to: '[[1]]', content: 'x' },
    { type: 'direct', to: '{"a":1}', content: 'x' },
    { type: 'direct', to: '[1, true]', content: 'x' },
    { type: 'direct', to: '[1]', content: 'x', read_by_sender: 'maybe' },
    { type: 'direct', to: '[1]' },
    { to: 'general', content: 'x' },
  ];

  it('POST /messages', async () => {
    const before = ts.store.messages.size;
    for (const params of sends) {
      const res = await ts.ownerClient.post('/messages', params);
      assert.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(params)} -> ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(res.body.result, 'error');
      assert.equal(typeof res.body.code, 'string');
    }
    assert.equal(ts.store.messages.size, before);
  });

  it('GET /messages and friends', async () => {
    const narrows: unknown[] = [
      '{"a":1}',
      '[1]',
      '[{"operator":5,"operand":"x"}]',
      '[{"operator":"dm","operand":{"a":1}}]',
      '[{"operator":"channels","operand":null}]',
      '[{"operator":"id","operand":"abc"}]',
      '[{"operator":"near","operand":[1]}]',
      '[{"operator":"is","operand":"dm","negated":"yes"}]',
      '[["dm", "nobody@example.com"]]',
      'not json',
    ];
    for (const narrow of narrows) {
      const res = await ts.ownerClient.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: String(narrow) });
      assert.ok(res.status >= 400 && res.status < 500, `${narrow} -> ${res.status} ${JSON.stringify(res.body)}`);
      const m = await ts.ownerClient.get('/messages/matches_narrow', { msg_ids: [id], narrow: String(narrow) });
      assert.ok(m.status >= 400 && m.status < 500, `matches ${narrow} -> ${m.status}`);
    }
    for (const params of [
      { anchor: 'newest', num_before: -1, num_after: 0 },
      { anchor: 'newest', num_before: 'x', num_after: 0 },
      { anchor: '1.5', num_before: 1, num_after: 0 },
      { message_ids: '[1, "a"]' },
    ] as Record<string, ParamValue>[]) {
      const res = await ts.ownerClient.get('/messages', params);
      assert.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(params)} -> ${res.status}`);
    }
    const huge = await ts.ownerClient.get('/messages', { anchor: '99999999999999999999999', num_before: 1, num_after: 0 });
    assert.equal(huge.status, 200);
    assert.equal((await ts.ownerClient.get('/messages/abc')).status, 400);
    assert.equal((await ts.ownerClient.get('/users/me/abc/topics')).status, 400);
    assert.equal((await ts.ownerClient.get('/users/me/99999/topics')).status, 400);
  });
});
