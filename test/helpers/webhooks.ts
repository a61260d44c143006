/** Incoming-webhook tests: a bot, raw POSTs to /api/v1/external/{name}, and the message they stored. */
import assert from 'node:assert/strict';
import type { Client, TestServer } from './server.js';

export interface Hook {
  id: number;
  email: string;
  apiKey: string;
}

/** An incoming-webhook bot (type 2) owned by `owner`. */
export async function makeHookBot(owner: Client, shortName: string): Promise<Hook> {
  const res = await owner.post('/bots', { full_name: `Hook ${shortName}`, short_name: shortName, bot_type: 2 });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { id: res.body.user_id, email: `${shortName}-bot@hearth.local`, apiKey: res.body.api_key };
}

/** POSTs `body` (an object is sent as JSON) to the integration with `query` in the URL. */
export async function postHook(
  ts: TestServer,
  integration: string,
  query: Record<string, string>,
  body: string | object,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read field by field by the tests
): Promise<{ status: number; body: any }> {
  const url = `${ts.url}/api/v1/external/${integration}?${new URLSearchParams(query)}`;
  const isText = typeof body === 'string';
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': isText ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
    body: isText ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    assert.fail(`not JSON (${res.status}): ${text.slice(0, 200)}`);
  }
  return { status: res.status, body: parsed };
}

/** The newest message in the store: its topic (channel messages), content, sender and client. */
export function newest(ts: TestServer) {
  const m = ts.store.messages.get(ts.store.messages.maxId);
  assert.ok(m, 'no message');
  return { id: m.id, topic: m.topic, content: m.content, senderId: m.sender_id, streamId: m.stream_id, dm: m.dm, client: m.client };
}
