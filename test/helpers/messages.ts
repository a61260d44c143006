import assert from 'node:assert/strict';
import type { Client, ParamValue } from './server.js';

/** Sends a channel message through the API and returns its ID. */
export async function sendStream(
  client: Client,
  channel: string | number,
  topic: string,
  content: string,
  extra: Record<string, ParamValue> = {},
): Promise<number> {
  const res = await client.post('/messages', {
    type: 'stream',
    to: typeof channel === 'number' ? String(channel) : channel,
    topic,
    content,
    ...extra,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id as number;
}

/** Sends a direct message to these user IDs and returns its ID. */
export async function sendDirect(client: Client, to: number[], content: string, extra: Record<string, ParamValue> = {}) {
  const res = await client.post('/messages', { type: 'direct', to: JSON.stringify(to), content, ...extra });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.id as number;
}

/** GET /messages with a narrow; returns the body. */
export async function fetchMessages(client: Client, params: Record<string, ParamValue>) {
  const res = await client.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, ...params });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
