/** Helpers of the upload, attachment and tus tests. */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { createApp } from '../../server/app.js';
import { commit } from '../../server/actions/commit.js';
import { claimAttachments } from '../../server/actions/attachment-links.js';
import { pathIdFromReference } from '../../server/lib/uploads/names.js';
import { silentLogger } from '../../server/log.js';
import { Store } from '../../server/store/store.js';
import { Client, type ApiResponse, type TestServer } from './server.js';

/** POST /user_uploads with these files (multipart, like the web app and zulip-js). */
export async function uploadFiles(
  client: Client,
  files: { field?: string; name: string; content: Buffer | string; type?: string }[],
): Promise<ApiResponse> {
  const form = new FormData();
  for (const f of files) {
    const bytes = typeof f.content === 'string' ? Buffer.from(f.content) : f.content;
    form.append(f.field ?? 'file', new Blob([new Uint8Array(bytes)], f.type ? { type: f.type } : {}), f.name);
  }
  const res = await fetch(`${client.baseUrl}/api/v1/user_uploads`, { method: 'POST', headers: client.authHeader, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* left as text */
  }
  return { status: res.status, headers: res.headers, body };
}

/** Uploads one file and returns the answer's `url` (asserting success). */
export async function uploadOne(client: Client, name: string, content: Buffer | string, type?: string): Promise<string> {
  const res = await uploadFiles(client, [{ name, content, type }]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.url as string;
}

/** GET a path from the server root (not under /api/v1) through fetch, with the client's credentials. */
export async function fetchFile(client: Client, path: string, method = 'GET') {
  const res = await fetch(`${client.baseUrl}${path}`, { method, headers: client.authHeader, redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
}

/**
 * Sends `path` exactly as written (fetch would normalise `..` and `\`):
 * one HTTP/1.1 request over a socket; returns the status and the raw body.
 */
export function rawGet(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text });
    });
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n${extra}\r\n`, 'latin1');
  });
}

/**
 * Makes sure message `messageId` (sent by `senderId`, linking `url`) claimed the
 * file: the Markdown renderer reports linked uploads; while it does not yet, the
 * claim is made the way the messages area does, inside a transaction.
 */
export async function ensureClaimed(ts: TestServer, senderId: number, messageId: number, url: string): Promise<void> {
  const pathId = pathIdFromReference(url);
  assert.ok(pathId, url);
  const a = ts.store.attachments.byPathId(pathId);
  assert.ok(a, `attachment ${pathId}`);
  if (!a.message_ids.includes(messageId)) {
    await commit(ts.app, (tx) => claimAttachments(ts.app, tx, senderId, messageId, [url]));
  }
}

/**
 * Stops the server and closes the store without deleting the data dir, then
 * starts a new server on the same data dir (the accounts keep working), on `port`
 * (default: any free one).
 */
export async function restart(ts: TestServer, port = 0): Promise<TestServer> {
  await ts.server.close();
  await ts.store.close();
  const store = await Store.open(ts.dataDir);
  const server = createApp({ store, log: silentLogger });
  const listening = await server.listen(port, '127.0.0.1');
  const url = `http://127.0.0.1:${listening.port}`;
  return {
    ...ts,
    url,
    app: server.app,
    server,
    store,
    ownerClient: new Client(url, ts.owner),
    anonymous: new Client(url, null),
    client: (account) => new Client(url, account),
    async stop() {
      await server.close();
      await store.close();
      await rm(ts.dataDir, { recursive: true, force: true });
    },
  };
}
