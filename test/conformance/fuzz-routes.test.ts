/**
 * Bad input on every route: each route of the route table gets, as the owner,
 * every parameter Zulip's OpenAPI documents for it (and the path's own IDs)
 * set to malformed values one at a time. Every answer must be JSON with
 * `result`, never a 500; afterwards the server still works and every data
 * file still parses.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { routes } from '../../server/routes.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { OpenApi, skipWithoutOpenApi } from '../helpers/openapi.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';

type Json = Record<string, unknown>;

/** Malformed values: wrong types, broken and hostile JSON, extremes. */
const BAD_VALUES = [
  '',
  'x',
  '-1',
  '1.5',
  '1e400',
  '99999999999999999999999',
  '{',
  '[1,',
  'null',
  '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
  '[{}]',
  '[{"operator":"channel","operand":{"a":1}}]',
  '{"new":"x","old":[1.5]}',
  '[-1,"a",null]',
  'a\u0000b',
  'x'.repeat(70_000),
];
const BAD_PATH_IDS = ['0', '-1', 'abc', '99999999999999999999', '1.5', '%00', '%E2%80%AE'];

/** Routes whose success would end the fuzzing identity (the owner's own deactivation) or are not API. */
function skipped(method: string, path: string): boolean {
  return (method === 'DELETE' && path === '/api/v1/users/me') || !path.startsWith('/api/v1/');
}

function deref(doc: Json, node: unknown): Json {
  let n = node as Json;
  while (n && typeof n.$ref === 'string') {
    n = (n.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce<Json>((o, k) => o?.[k] as Json, doc);
  }
  return n ?? {};
}

/** The parameter names Zulip documents for an operation (query and form body). */
function documentedParams(doc: Json, method: string, zulipPath: string): string[] {
  const op = ((doc.paths as Json)[zulipPath] as Json | undefined)?.[method.toLowerCase()] as Json | undefined;
  if (!op) return [];
  const names = new Set<string>();
  for (const p of (op.parameters as unknown[]) ?? []) {
    const d = deref(doc, p);
    if (d.in === 'query' && typeof d.name === 'string') names.add(d.name);
  }
  const content = ((op.requestBody as Json | undefined)?.content as Json | undefined) ?? {};
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    const schema = deref(doc, (content[type] as Json | undefined)?.schema);
    for (const k of Object.keys((schema.properties as Json) ?? {})) names.add(k);
  }
  return [...names];
}

describe('bad input on every route', { skip: skipWithoutOpenApi('the fuzzing of documented parameters') }, () => {
  let ts: TestServer;
  let owner: Client;
  let ids: Record<string, string>;
  const problems: string[] = [];
  let requests = 0;

  before(async () => {
    ts = await startTestServer();
    owner = ts.ownerClient;
    const member = await ts.addUser('Fuzzy');
    const channel = await createChannel(ts, owner, 'fuzz', { principals: JSON.stringify([ts.owner.id, member.id]) });
    const message = await sendStream(owner, 'fuzz', 'topic', 'hello');
    const group = (await owner.post('/user_groups/create', { name: 'fuzzers', description: 'x', members: JSON.stringify([member.id]) })).body;
    const groups = (await owner.get('/user_groups')).body.user_groups as { id: number; name: string }[];
    const groupId = String(groups.find((g) => g.name === 'fuzzers')?.id ?? group.group_id ?? 1);
    // Path parameters that name real objects, so the malformed body values reach the deeper checks.
    ids = {
      stream_id: String(channel),
      message_id: String(message),
      user_id: String(member.id),
      bot_id: String(member.id),
      user_group_id: groupId,
      group_id: groupId,
      email: member.email,
      topic_name: 'topic',
    };
  });
  after(() => ts.stop());

  async function probe(method: string, path: string, params: Record<string, string>, label: string): Promise<void> {
    requests++;
    let res;
    try {
      res = await owner.call(method, path, params);
    } catch (err) {
      problems.push(`${label}: request failed (${String(err)})`);
      return;
    }
    const body = res.body as Json | string;
    if (res.status >= 500 && !(res.status === 503 && typeof body === 'object' && body.code !== undefined)) {
      problems.push(`${label}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    } else if (typeof body !== 'object' || (body.result !== 'success' && body.result !== 'error')) {
      // Files, avatars and redirects answer with other bodies on success; errors are JSON.
      if (res.status >= 400) problems.push(`${label}: HTTP ${res.status} not a JSON error: ${String(body).slice(0, 120)}`);
    }
  }

  it('never answers 500, always JSON errors, and keeps every data file readable', async () => {
    const doc = new OpenApi().doc;
    for (const route of routes) {
      if (skipped(route.method, route.path)) continue;
      const apiPath = route.path.slice('/api/v1'.length);
      const zulipPath = apiPath.replace(/[:*]([a-z_]+)/g, '{$1}');
      const pathParams = [...apiPath.matchAll(/[:*]([a-z_]+)/g)].map((m) => m[1]!);
      const fill = (override: Record<string, string> = {}) =>
        apiPath.replace(/[:*]([a-z_]+)/g, (_m, name: string) => override[name] ?? encodeURIComponent(ids[name] ?? '1'));
      for (const name of pathParams) {
        for (const bad of BAD_PATH_IDS) await probe(route.method, fill({ [name]: bad }), {}, `${route.method} ${apiPath} :${name}=${bad}`);
      }
      for (const name of documentedParams(doc, route.method, zulipPath)) {
        for (const bad of BAD_VALUES) {
          await probe(route.method, fill(), { [name]: bad }, `${route.method} ${apiPath} ${name}=${JSON.stringify(bad.slice(0, 40))}`);
        }
      }
    }
    assert.ok(requests > 1000, `probed ${requests} requests`);
    assert.deepEqual(problems, []);

    // Still serving, still the owner, and every data file parses.
    const me = await owner.get('/users/me');
    assert.equal(me.status, 200, JSON.stringify(me.body));
    await ts.store.settled();
    const files: string[] = [];
    const walk = async (dir: string) => {
      for (const e of await readdir(dir, { withFileTypes: true })) {
        if (e.isDirectory()) {
          if (e.name !== 'uploads' && e.name !== 'avatars' && e.name !== 'emoji' && e.name !== 'realm') await walk(join(dir, e.name));
        } else if (e.name.endsWith('.json')) files.push(join(dir, e.name));
      }
    };
    await walk(ts.dataDir);
    assert.ok(files.length > 5);
    for (const f of files) JSON.parse(await readFile(f, 'utf8'));
    assert.equal(({} as Json).polluted, undefined, 'no prototype pollution');
  });
});
