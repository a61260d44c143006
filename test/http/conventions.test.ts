import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../server/app.js';
import { doCreateRealm } from '../../server/actions/users.js';
import type { Logger } from '../../server/log.js';
import { Store } from '../../server/store/store.js';
import { startTestServer, type ApiResponse, type TestServer } from '../helpers/server.js';

const JSON_TYPE = /^application\/json\b/;

/** A fetch that keeps the body as text and parses it, asserting it is JSON. */
async function raw(url: string, init: RequestInit = {}): Promise<ApiResponse & { text: string }> {
  const res = await fetch(url, init);
  const text = await res.text();
  assert.match(res.headers.get('content-type') ?? '', JSON_TYPE, `${init.method ?? 'GET'} ${url}: ${text}`);
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
}

const draft = (content: string) => ({ type: '', to: [], topic: '', content });

describe('HTTP conventions', () => {
  let ts: TestServer;
  let small: TestServer;
  before(async () => {
    [ts, small] = await Promise.all([startTestServer(), startTestServer({ config: { bodyLimitBytes: 1000, fileLimitBytes: 1000 } })]);
  });
  after(async () => {
    await Promise.all([ts.stop(), small.stop()]);
  });

  const contents = () => ts.store.drafts.data.drafts.map((d) => d.content);

  it('answers every kind of request with JSON', async () => {
    const auth = ts.ownerClient.authHeader;
    const cases: [string, RequestInit, number][] = [
      ['/api/v1/users/me', { headers: auth }, 200],
      ['/api/v1/users/me', {}, 401],
      ['/api/v1/no/such/endpoint', { headers: auth }, 404],
      ['/api/no-version', {}, 404],
      ['/api/v1/drafts', { method: 'PUT', headers: auth }, 405],
      ['/api/v1/drafts/abc', { method: 'PATCH', headers: auth }, 400],
      ['/api/v1/server_settings', {}, 200],
    ];
    for (const [path, init, status] of cases) {
      const res = await raw(`${ts.url}${path}`, init);
      assert.equal(res.status, status, `${path}: ${res.text}`);
      assert.equal(typeof res.body.result, 'string');
      assert.equal(typeof res.body.msg, 'string');
      if (status >= 400) {
        assert.equal(res.body.result, 'error');
        assert.equal(typeof res.body.code, 'string', `${path} error has a code`);
      }
    }
  });

  it('answers unknown routes with a JSON 404', async () => {
    // (/json/users/me is served: the browser-session mirror of /api/v1, test/views/sessions.test.ts.)
    for (const path of ['/api/v1/nope', '/api/v1/users/me/nope', '/api/v2/users/me', '/json/nope', '/json/users/me/nope', '/json']) {
      const res = await ts.ownerClient.call('GET', path, {}, { raw: true });
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
    }
    // Also for methods no route uses at all.
    const del = await ts.ownerClient.call('DELETE', '/api/v1/nope', {}, { raw: true, inQuery: true });
    assert.equal(del.status, 404);
    assert.deepEqual(del.body, { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
  });

  it('answers a known path with another method with 405, allowed_methods and an Allow header', async () => {
    const put = await ts.ownerClient.call('PUT', '/drafts');
    assert.equal(put.status, 405);
    assert.deepEqual(put.body, {
      result: 'error',
      msg: 'Method Not Allowed',
      code: 'BAD_REQUEST',
      allowed_methods: ['GET', 'POST'],
    });
    assert.equal(put.headers.get('allow'), 'GET, POST');

    const onDraft = await ts.ownerClient.call('POST', '/drafts/1');
    assert.equal(onDraft.status, 405);
    assert.deepEqual(onDraft.body.allowed_methods, ['DELETE', 'PATCH']);
    assert.equal(onDraft.headers.get('allow'), 'DELETE, PATCH');

    const events = await ts.ownerClient.call('POST', '/events');
    assert.equal(events.status, 405);
    assert.deepEqual(events.body.allowed_methods, ['DELETE', 'GET']);

    // 405 happens before authentication: nothing about the caller is needed to say it.
    const anon = await ts.anonymous.call('PUT', '/users/me/subscriptions');
    assert.equal(anon.status, 405);
    assert.deepEqual(anon.body.allowed_methods, ['DELETE', 'GET', 'PATCH', 'POST']);
  });

  it('refuses a form body over the limit with a JSON 413, and stores nothing', async () => {
    const before = small.store.drafts.data.drafts.length;
    const big = await small.ownerClient.post('/drafts', { drafts: [draft('x'.repeat(2000))] });
    assert.equal(big.status, 413);
    assert.deepEqual(big.body, { result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' });
    assert.equal(small.store.drafts.data.drafts.length, before);

    // Just under the limit is fine.
    const fits = await small.ownerClient.post('/drafts', { drafts: [draft('y'.repeat(800))] });
    assert.equal(fits.status, 200, JSON.stringify(fits.body));
    assert.equal(small.store.drafts.data.drafts.length, before + 1);

    // PATCH bodies obey the same limit.
    const id = fits.body.ids[0];
    const patch = await small.ownerClient.patch(`/drafts/${id}`, { draft: draft('z'.repeat(2000)) });
    assert.equal(patch.status, 413);
    assert.equal(small.store.drafts.data.drafts.find((d) => d.id === id)?.content, 'y'.repeat(800));
  });

  it('refuses a multipart body over the limit with a JSON 413 and leaves no spooled file', async () => {
    const before = small.store.drafts.data.drafts.length;
    const fields = new FormData();
    fields.set('drafts', JSON.stringify([draft('x'.repeat(2000))]));
    const a = await raw(`${small.url}/api/v1/drafts`, { method: 'POST', body: fields, headers: small.ownerClient.authHeader });
    assert.equal(a.status, 413, a.text);
    assert.deepEqual(a.body, { result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' });

    const file = new FormData();
    file.set('attachment', new Blob(['f'.repeat(3000)]), 'big.txt');
    const b = await raw(`${small.url}/api/v1/drafts`, { method: 'POST', body: file, headers: small.ownerClient.authHeader });
    assert.equal(b.status, 413, b.text);
    assert.equal(b.body.code, 'BAD_REQUEST');
    assert.equal(small.store.drafts.data.drafts.length, before);

    const tmp = join(small.dataDir, 'uploads', 'tmp');
    // Removed once the request has ended, which a loaded machine may take a few seconds to get to.
    for (let i = 0; i < 1000 && (await readdir(tmp)).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(await readdir(tmp), [], 'partial uploads are removed');
  });

  it('answers a malformed multipart body with a JSON 400', async () => {
    const auth = ts.ownerClient.authHeader;
    const noBoundary = await raw(`${ts.url}/api/v1/drafts`, {
      method: 'POST',
      body: 'drafts=[]',
      headers: { ...auth, 'content-type': 'multipart/form-data' },
    });
    assert.equal(noBoundary.status, 400, noBoundary.text);
    assert.equal(noBoundary.body.result, 'error');
    assert.equal(noBoundary.body.code, 'BAD_REQUEST');
    const truncated = await raw(`${ts.url}/api/v1/drafts`, {
      method: 'POST',
      body: '--xx\r\nContent-Disposition: form-data; name="drafts"\r\n',
      headers: { ...auth, 'content-type': 'multipart/form-data; boundary=xx' },
    });
    assert.equal(truncated.status, 400, truncated.text);
    assert.equal(truncated.body.code, 'BAD_REQUEST');
  });

  it('hides the details of an internal error behind a bare 500', async () => {
    const lines: string[] = [];
    const capture: Logger = {
      info: () => {},
      warn: () => {},
      error: (msg, fields) => lines.push(`${msg} ${JSON.stringify(fields)}`),
    };
    const store = await Store.open(join(ts.dataDir, 'second'));
    const server = createApp({ store, log: capture });
    await doCreateRealm(server.app, 'Org', { email: 'boss@example.com', password: 'long enough', fullName: 'Boss' });
    // Runs after the router, so it sees requests no route matched.
    server.koa.use(async (ctx, next) => {
      if (ctx.path === '/boom') throw new Error('secret detail: /etc/shadow');
      if (ctx.path === '/boom-status') throw Object.assign(new Error('hidden 400'), { status: 400, expose: false });
      await next();
    });
    const { port } = await server.listen(0, '127.0.0.1');
    try {
      for (const path of ['/boom', '/boom-status']) {
        const res = await raw(`http://127.0.0.1:${port}${path}`);
        assert.equal(res.status, 500);
        assert.deepEqual(res.body, { result: 'error', msg: 'Internal server error' });
        assert.doesNotMatch(res.text, /secret|shadow|hidden|at /);
      }
      assert.equal(lines.length, 2);
      assert.match(lines[0]!, /secret detail: \/etc\/shadow/, 'the details go to the log');
      // The routes still work next to it.
      const ok = await raw(`http://127.0.0.1:${port}/api/v1/server_settings`);
      assert.equal(ok.status, 200);
    } finally {
      await server.close();
      await store.close();
    }
  });

  it('serves the bare envelope on a plain Koa app too', async () => {
    const { default: Koa } = await import('koa');
    const { envelope } = await import('../../server/http/envelope.js');
    const { silentLogger } = await import('../../server/log.js');
    const { errors } = await import('../../server/errors.js');
    const koa = new Koa();
    koa.silent = true;
    koa.use(envelope(silentLogger));
    koa.use((ctx) => {
      if (ctx.path === '/typeerror') (null as unknown as { x: () => void }).x();
      if (ctx.path === '/hearth') throw errors.missing('thing');
      if (ctx.path === '/string') throw 'a thrown string';
      ctx.body = { ok: true };
    });
    const http = createServer(koa.callback());
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      for (const path of ['/typeerror', '/string']) {
        const res = await raw(`${base}${path}`);
        assert.equal(res.status, 500);
        assert.deepEqual(res.body, { result: 'error', msg: 'Internal server error' });
      }
      const missing = await raw(`${base}/hearth`);
      assert.equal(missing.status, 400);
      assert.deepEqual(missing.body, {
        result: 'error',
        msg: "Missing 'thing' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'thing',
      });
    } finally {
      await new Promise((r) => http.close(r));
    }
  });

  it('answers success with result "success" and an empty msg', async () => {
    for (const [method, path] of [
      ['GET', '/users/me'],
      ['GET', '/drafts'],
      ['GET', '/server_settings'],
      ['POST', '/drafts'],
    ] as const) {
      const res = await ts.ownerClient.call(method, path);
      assert.equal(res.status, 200, `${method} ${path}`);
      assert.equal(res.body.result, 'success');
      assert.equal(res.body.msg, '');
    }
  });

  it('lists unknown parameters in ignored_parameters_unsupported, and only then', async () => {
    const n = contents().length;
    const withFoo = await ts.ownerClient.post('/drafts', { foo: 1, bar: 'x', drafts: [draft('with foo')] });
    assert.equal(withFoo.status, 200);
    assert.deepEqual(withFoo.body.ignored_parameters_unsupported, ['bar', 'foo']);
    assert.equal(withFoo.body.ids.length, 1);
    assert.equal(contents().length, n + 1, 'the known parameters still took effect');

    const clean = await ts.ownerClient.post('/drafts', { drafts: [draft('clean')] });
    assert.equal(clean.status, 200);
    assert.equal('ignored_parameters_unsupported' in clean.body, false);

    // Query-string extras on a GET count too.
    const get = await ts.ownerClient.get('/drafts', { narrow: '[]' });
    assert.deepEqual(get.body.ignored_parameters_unsupported, ['narrow']);
    const getClean = await ts.ownerClient.get('/drafts');
    assert.equal('ignored_parameters_unsupported' in getClean.body, false);
  });

  it('reads PATCH and DELETE parameters from the query string (zulip-js)', async () => {
    const c = ts.ownerClient;
    const [a, b] = (await c.post('/drafts', { drafts: [draft('q1'), draft('q2')] })).body.ids;
    const patch = await c.call('PATCH', `/drafts/${a}`, { draft: draft('patched via query') }, { inQuery: true });
    assert.equal(patch.status, 200, JSON.stringify(patch.body));
    assert.equal(ts.store.drafts.data.drafts.find((d) => d.id === a)?.content, 'patched via query');

    const del = await c.call('DELETE', `/drafts/${b}`, { extra: 'x' }, { inQuery: true });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body.ignored_parameters_unsupported, ['extra'], 'the query string was read');
    assert.equal(ts.store.drafts.data.drafts.some((d) => d.id === b), false);
  });

  it('reads PATCH and DELETE parameters from form bodies (Python client)', async () => {
    const c = ts.ownerClient;
    const [a, b] = (await c.post('/drafts', { drafts: [draft('f1'), draft('f2')] })).body.ids;
    const patch = await c.patch(`/drafts/${a}`, { draft: draft('patched via body') });
    assert.equal(patch.status, 200, JSON.stringify(patch.body));
    assert.equal(ts.store.drafts.data.drafts.find((d) => d.id === a)?.content, 'patched via body');

    const del = await c.delete(`/drafts/${b}`, { extra: 'y' });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body.ignored_parameters_unsupported, ['extra'], 'the body was read');
    assert.equal(ts.store.drafts.data.drafts.some((d) => d.id === b), false);
  });

  it('prefers the form body over the query string for the same parameter', async () => {
    const n = contents().length;
    const res = await ts.ownerClient.call('POST', `/drafts?drafts=${encodeURIComponent('[]')}`, {
      drafts: [draft('body wins')],
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.ids.length, 1);
    assert.equal(contents().length, n + 1);
    assert.equal(contents().at(-1), 'body wins');
  });

  it('takes the last value of a repeated parameter', async () => {
    const body = `drafts=${encodeURIComponent(JSON.stringify([draft('first')]))}&drafts=${encodeURIComponent(
      JSON.stringify([draft('last')]),
    )}`;
    const res = await raw(`${ts.url}/api/v1/drafts`, {
      method: 'POST',
      body,
      headers: { ...ts.ownerClient.authHeader, 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 200);
    assert.equal(ts.store.drafts.data.drafts.find((d) => d.id === res.body.ids[0])?.content, 'last');
  });

  it('accepts multipart/form-data bodies', async () => {
    const form = new FormData();
    form.set('drafts', JSON.stringify([draft('from multipart'), draft('ünïcödé ✓')]));
    form.set('unknown_field', 'x');
    const res = await raw(`${ts.url}/api/v1/drafts`, { method: 'POST', body: form, headers: ts.ownerClient.authHeader });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ids.length, 2);
    assert.deepEqual(res.body.ignored_parameters_unsupported, ['unknown_field']);
    const stored = res.body.ids.map((id: number) => ts.store.drafts.data.drafts.find((d) => d.id === id)?.content);
    assert.deepEqual(stored, ['from multipart', 'ünïcödé ✓']);

    // PATCH with multipart too.
    const edit = new FormData();
    edit.set('draft', JSON.stringify(draft('multipart patch')));
    const patch = await raw(`${ts.url}/api/v1/drafts/${res.body.ids[0]}`, {
      method: 'PATCH',
      body: edit,
      headers: ts.ownerClient.authHeader,
    });
    assert.equal(patch.status, 200, patch.text);
    assert.equal(ts.store.drafts.data.drafts.find((d) => d.id === res.body.ids[0])?.content, 'multipart patch');

    // A file part is not kept anywhere once the request is done.
    const withFile = new FormData();
    withFile.set('drafts', '[]');
    withFile.set('file', new Blob(['hello']), 'hello.txt');
    const f = await raw(`${ts.url}/api/v1/drafts`, { method: 'POST', body: withFile, headers: ts.ownerClient.authHeader });
    assert.equal(f.status, 200, f.text);
    assert.deepEqual(await readdir(join(ts.dataDir, 'uploads', 'tmp')), []);
  });

  it('reads a gzip-encoded form body, and refuses a broken or unknown encoding with a JSON 4xx', async () => {
    const n = contents().length;
    const form = `drafts=${encodeURIComponent(JSON.stringify([draft('gzipped')]))}`;
    const headers = { ...ts.ownerClient.authHeader, 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await raw(`${ts.url}/api/v1/drafts`, {
      method: 'POST',
      body: gzipSync(form),
      headers: { ...headers, 'content-encoding': 'gzip' },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(contents().at(-1), 'gzipped');

    for (const body of [Buffer.from(form), gzipSync(form).subarray(0, 20)]) {
      const bad = await raw(`${ts.url}/api/v1/drafts`, { method: 'POST', body, headers: { ...headers, 'content-encoding': 'gzip' } });
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.body.result, 'error');
      assert.equal(bad.body.code, 'BAD_REQUEST');
    }
    const unknown = await raw(`${ts.url}/api/v1/drafts`, {
      method: 'POST',
      body: form,
      headers: { ...headers, 'content-encoding': 'bogus' },
    });
    assert.equal(unknown.status, 415, unknown.text);
    assert.equal(unknown.body.code, 'BAD_REQUEST');
    assert.equal(contents().length, n + 1);
  });

  it('collapses doubled slashes in the path', async () => {
    for (const path of ['//api/v1/users/me', '/api//v1///users/me', '//api/v1/users/me/']) {
      const res = await ts.ownerClient.call('GET', path, {}, { raw: true });
      assert.equal(res.status, 200, path);
      assert.equal(res.body.user_id, ts.owner.id);
    }
    const post = await ts.ownerClient.call('POST', '//api/v1/drafts', { drafts: [draft('double slash')] }, { raw: true });
    assert.equal(post.status, 200);
    assert.equal(contents().at(-1), 'double slash');
  });

  it('types parameters strictly', async () => {
    const c = ts.ownerClient;
    const queues = ts.app.events.size;
    // JSON `1` decodes to a number, not a boolean.
    for (const value of [1, '1', '"true"', 'True', 'yes', 'null']) {
      const res = await c.post('/register', { apply_markdown: value });
      assert.equal(res.status, 400, `apply_markdown=${value}`);
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.match(res.body.msg, /^apply_markdown is (not a boolean|not valid JSON)$/);
    }
    assert.equal((await c.post('/register', { apply_markdown: 1 })).body.msg, 'apply_markdown is not a boolean');
    assert.equal((await c.post('/register', { apply_markdown: 'yes' })).body.msg, 'apply_markdown is not valid JSON');
    assert.equal(ts.app.events.size, queues, 'no queue was allocated by a refused register');

    const ok = await c.post('/register', { apply_markdown: true, event_types: ['drafts'] });
    assert.equal(ok.status, 200);
    const q = ok.body.queue_id;
    const dontBlock = await c.get('/events', { queue_id: q, dont_block: 'yes' });
    assert.equal(dontBlock.status, 400);
    assert.equal(dontBlock.body.msg, 'dont_block is not valid JSON');
    for (const [value, msg] of [
      ['1.5', 'last_event_id is not an integer'],
      ['"-1"', 'last_event_id is not an integer'],
      ['true', 'last_event_id is not an integer'],
      ['x', 'last_event_id is not valid JSON'],
    ]) {
      const res = await c.get('/events', { queue_id: q, last_event_id: value!, dont_block: true });
      assert.equal(res.status, 400, value);
      assert.equal(res.body.msg, msg);
    }
    const good = await c.get('/events', { queue_id: q, last_event_id: -1, dont_block: true });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    await c.delete('/events', { queue_id: q });
  });

  it('names a missing required parameter with REQUEST_VARIABLE_MISSING', async () => {
    const [id] = (await ts.ownerClient.post('/drafts', { drafts: [draft('keep me')] })).body.ids;
    const patch = await ts.ownerClient.patch(`/drafts/${id}`, { drft: draft('typo') });
    assert.equal(patch.status, 400);
    assert.deepEqual(patch.body, {
      result: 'error',
      msg: "Missing 'draft' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'draft',
    });
    assert.equal(ts.store.drafts.data.drafts.find((d) => d.id === id)?.content, 'keep me');

    const fetchKey = await ts.anonymous.post('/fetch_api_key', { password: 'whatever' });
    assert.equal(fetchKey.status, 400);
    assert.deepEqual(fetchKey.body, {
      result: 'error',
      msg: "Missing 'username' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'username',
    });
    const noPassword = await ts.anonymous.post('/fetch_api_key', { username: ts.owner.email });
    assert.equal(noPassword.body.var_name, 'password');
    assert.equal(noPassword.body.msg, "Missing 'password' argument");
  });

  it('refuses malformed path ids without touching anything', async () => {
    const [id] = (await ts.ownerClient.post('/drafts', { drafts: [draft('untouched')] })).body.ids;
    const snapshot = JSON.stringify(ts.store.drafts.data);
    for (const bad of ['abc', '-1', '1.5', '1e3', '0x10', '99999999999999999999', '%20', `${id}abc`]) {
      const res = await ts.ownerClient.patch(`/drafts/${bad}`, { draft: draft('changed') });
      assert.equal(res.status, 400, bad);
      assert.deepEqual(res.body, {
        result: 'error',
        msg: 'Invalid draft_id',
        code: 'REQUEST_VARIABLE_INVALID',
        var_name: 'draft_id',
      });
      const del = await ts.ownerClient.delete(`/drafts/${bad}`);
      assert.equal(del.status, 400, bad);
    }
    // A well-formed id that names nothing is a 404, not a 400.
    const missing = await ts.ownerClient.delete('/drafts/0');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.msg, 'Draft does not exist');
    assert.equal(JSON.stringify(ts.store.drafts.data), snapshot);
  });
});
