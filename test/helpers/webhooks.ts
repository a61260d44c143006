/** Incoming-webhook tests: a bot, raw POSTs to /api/v1/external/{name}, and the message they stored. */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { createChannel } from './channels.js';
import { type Account, type Client, startTestServer, type TestServer } from './server.js';

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

/** What an integration's test file shares: a server, Mel (an administrator), her incoming-webhook bot and a channel. */
export interface HookSuite {
  ts: TestServer;
  mel: Account;
  melC: Client;
  hook: Hook;
  /** The channel's id. */
  channelId: number;
}

/**
 * Registers the file's `before` (a fresh server, Mel, her bot `shortName` and the channel
 * `channel`) and `after` (the server stopped). The fields are filled before the first test.
 */
export function hookSuite(shortName: string, channel: string): HookSuite {
  const s = {} as HookSuite;
  before(async () => {
    s.ts = await startTestServer();
    s.mel = await s.ts.addUser('Mel', 400);
    s.melC = s.ts.client(s.mel);
    s.hook = await makeHookBot(s.melC, shortName);
    s.channelId = await createChannel(s.ts, s.melC, channel);
  });
  after(() => s.ts.stop());
  return s;
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

/** One part of a multipart/form-data body: a field, or a file when `filename` is given; `type` its own Content-Type. */
export interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body written byte by byte (parts as curl -F and python-requests send them), and its Content-Type. */
export function multipartBody(parts: FormPart[]): { body: Buffer; contentType: string } {
  const boundary = '----hearth-test-boundary-7d1f';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type !== undefined) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs `parts` as multipart/form-data to the integration with `query` in the URL; answers the status and JSON. */
// biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read field by field by the tests
export async function postMultipart(ts: TestServer, integration: string, query: Record<string, string>, parts: FormPart[]): Promise<{ status: number; body: any }> {
  const { body, contentType } = multipartBody(parts);
  const res = await fetch(`${ts.url}/api/v1/external/${integration}?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(body),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return assert.fail(`not JSON (${res.status}): ${text.slice(0, 200)}`);
  }
}

/** The newest message in the store: its topic (channel messages), content, sender and client. */
export function newest(ts: TestServer) {
  const m = ts.store.messages.get(ts.store.messages.maxId);
  assert.ok(m, 'no message');
  return { id: m.id, topic: m.topic, content: m.content, senderId: m.sender_id, streamId: m.stream_id, dm: m.dm, client: m.client };
}

/** What postStored and postOne send: as postHook's arguments, and the success answer expected. */
type StoredPost = [
  integration: string,
  query: Record<string, string>,
  body: string | object,
  headers?: Record<string, string>,
  answer?: object,
];

/**
 * POSTs as the suite's bot (its api_key added to `query`), asserts a 200 with `answer` (Zulip's
 * success by default), and answers the messages this request stored, oldest first (topic and content).
 */
export async function postStored(s: HookSuite, ...[integration, query, body, headers = {}, answer = { result: 'success', msg: '' }]: StoredPost) {
  const before = s.ts.store.messages.maxId;
  const res = await postHook(s.ts, integration, { api_key: s.hook.apiKey, ...query }, body, headers);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, answer);
  const out: { topic: string; content: string }[] = [];
  for (let id = before + 1; id <= s.ts.store.messages.maxId; id++) {
    const m = s.ts.store.messages.get(id);
    if (m) out.push({ topic: m.topic, content: m.content });
  }
  return out;
}

/**
 * postStored for an integration that posts at most one message: null when it posted none, else
 * the newest message's topic and content, asserting it was sent by the integration's `client`
 * (unless null).
 */
export async function postOne(s: HookSuite, client: string | null, ...post: StoredPost) {
  const out = await postStored(s, ...post);
  if (out.length === 0) return null;
  const m = newest(s.ts);
  if (client !== null) assert.equal(m.client, client);
  return { topic: m.topic, content: m.content };
}

/**
 * POSTs an event the integration does not handle as the suite's bot, and asserts Zulip's answer:
 * a 200 with UNSUPPORTED_WEBHOOK_EVENT_TYPE naming the webhook and the event type.
 */
export async function assertUnsupported(
  s: HookSuite,
  integration: string,
  query: Record<string, string>,
  payload: object,
  headers: Record<string, string>,
  expected: { webhookName: string; eventType: string },
) {
  const res = await postHook(s.ts, integration, { api_key: s.hook.apiKey, ...query }, payload, headers);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    result: 'error',
    msg: `The '${expected.eventType}' event isn't currently supported by the ${expected.webhookName} webhook; ignoring`,
    code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
    webhook_name: expected.webhookName,
    event_type: expected.eventType,
  });
}

/**
 * POSTs without the event header as the suite's bot, and asserts Zulip's 400 MISSING_HTTP_EVENT_HEADER
 * naming `header`, and the notice to Mel that says `tool` names its events by that header.
 */
export async function assertMissingHeader(
  s: HookSuite,
  integration: string,
  query: Record<string, string>,
  payload: object,
  expected: { header: string; tool: string },
) {
  const { header, tool } = expected;
  const res = await postHook(s.ts, integration, { api_key: s.hook.apiKey, ...query }, payload);
  assert.equal(res.status, 400);
  assert.deepEqual(res.body, {
    result: 'error',
    msg: `Missing the HTTP event header '${header}'`,
    code: 'MISSING_HTTP_EVENT_HEADER',
    header,
  });
  const notice = newest(s.ts);
  assert.ok(notice.dm?.includes(s.mel.id));
  assert.ok(notice.content.includes(`is missing the HTTP ${header} header.  Because this header is how\n${tool} indicates`), notice.content);
}

/** The integration's entry in Mel's `realm_incoming_webhook_bots` (register), or undefined. */
export async function registerEntry(s: HookSuite, name: string) {
  const res = await s.melC.post('/register', { fetch_event_types: ['realm_incoming_webhook_bots'] });
  return res.body.realm_incoming_webhook_bots.find((b: { name: string }) => b.name === name);
}
