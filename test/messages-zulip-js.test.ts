/** The real zulip-js client against Hearth: password login, register, send, receive the event, fetch with a narrow. */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { createChannel } from './helpers/channels.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const zulip = require('zulip-js') as (config: Record<string, string>) => Promise<any>;

describe('zulip-js', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
    await createChannel(ts, ts.ownerClient, 'Denmark');
  });
  after(() => ts.stop());

  it('logs in with a password, registers, sends, receives the event and fetches with a narrow', async () => {
    const client = await zulip({ username: ts.owner.email, password: ts.owner.password, realm: ts.url });
    assert.equal(client.config.apiKey, ts.owner.apiKey);
    const reg = await client.queues.register({ event_types: ['message'] });
    assert.equal(reg.result, 'success', JSON.stringify(reg));
    const sent = await client.messages.send({ type: 'stream', to: 'Denmark', topic: 'Castle', content: 'Hello from zulip-js' });
    assert.equal(sent.result, 'success', JSON.stringify(sent));
    const events = await client.events.retrieve({ queue_id: reg.queue_id, last_event_id: -1, dont_block: true });
    assert.equal(events.result, 'success', JSON.stringify(events));
    const ev = events.events.find((e: { type: string }) => e.type === 'message');
    assert.equal(ev.message.id, sent.id);
    assert.equal(ev.message.display_recipient, 'Denmark');
    const fetched = await client.messages.retrieve({
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: 'Denmark' },
        { operator: 'topic', operand: 'Castle' },
      ],
    });
    assert.equal(fetched.result, 'success', JSON.stringify(fetched));
    assert.deepEqual(
      fetched.messages.map((m: { id: number; content: string }) => [m.id, m.content]),
      [[sent.id, '<p>Hello from zulip-js</p>']],
    );
  });
});
