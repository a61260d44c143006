/**
 * Browser sessions (server/API.md: Browser sessions): POST /json/login sets an HttpOnly
 * cookie; /json/ mirrors every /api/v1 route with the cookie as the only
 * credential and a CSRF token on unsafe methods; files load with the cookie.
 * Everything through real HTTP, reading Set-Cookie as a browser would.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { commit } from '../../server/actions/commit.js';
import { routes } from '../../server/routes.js';
import { encodeParams, startTestServer, type Account, type ApiResponse, type ParamValue, type TestServer } from '../helpers/server.js';
import { restart, uploadOne } from '../helpers/uploads.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const basic = (a: Account) => `Basic ${Buffer.from(`${a.email}:${a.apiKey}`).toString('base64')}`;
const CSRF_FAILED = { result: 'error', code: 'CSRF_FAILED', msg: 'CSRF verification failed.' };

interface Session {
  token: string;
  csrf: string;
  userId: number;
  setCookie: string;
}

interface Call {
  params?: Record<string, ParamValue>;
  /** The session whose cookie is sent (null: none). */
  session?: Session | null;
  /** X-CSRFToken: the session's own unless given (null: none). */
  csrf?: string | null;
  headers?: Record<string, string>;
}

/** A request from the server root as a browser page makes it (GET parameters in the query, others urlencoded). */
async function call(base: string, method: string, path: string, c: Call = {}): Promise<ApiResponse & { cookies: string[] }> {
  const encoded = encodeParams(c.params ?? {});
  const inQuery = method === 'GET';
  const qs = inQuery && [...encoded.keys()].length ? `?${encoded}` : '';
  const headers: Record<string, string> = { ...c.headers };
  if (c.session) {
    headers.cookie = `other=1; hearth_session=${c.session.token}`;
    const csrf = c.csrf === undefined ? c.session.csrf : c.csrf;
    if (csrf !== null) headers['x-csrftoken'] = csrf;
  }
  if (!inQuery) headers['content-type'] = 'application/x-www-form-urlencoded';
  const res = await fetch(`${base}${path}${qs}`, { method, headers, body: inQuery ? undefined : encoded.toString() });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* a file */
  }
  return { status: res.status, headers: res.headers, body, cookies: res.headers.getSetCookie() };
}

async function login(base: string, account: Account): Promise<Session> {
  const res = await call(base, 'POST', '/json/login', { params: { username: account.email, password: account.password } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.cookies.length, 1);
  const m = /^hearth_session=([^;]*);/.exec(res.cookies[0]!);
  assert.ok(m, res.cookies[0]);
  return { token: m[1]!, csrf: res.body.csrf_token, userId: res.body.user_id, setCookie: res.cookies[0]! };
}

const onDisk = async (ts: TestServer) => {
  await ts.store.settled();
  const text = await readFile(join(ts.dataDir, 'sessions.json'), 'utf8');
  return { text, sessions: JSON.parse(text).sessions as { id: string; user_id: number; csrf_token: string; created: number; last_used: number }[] };
};
const storedIds = async (ts: TestServer) => (await onDisk(ts)).sessions.map((s) => s.id);

describe('browser sessions', () => {
  let ts: TestServer;
  const clock = { t: 1_800_000_000_000, now() { return this.t; } };
  const get = (path: string, c?: Call) => call(ts.url, 'GET', path, c);
  const post = (path: string, c?: Call) => call(ts.url, 'POST', path, c);
  before(async () => {
    ts = await startTestServer({ clock });
  });
  after(() => ts.stop());

  it('POST /json/login: an HttpOnly, SameSite=Strict cookie for a year, the CSRF token in the answer, the token never stored', async () => {
    const res = await post('/json/login', { params: { username: ts.owner.email, password: ts.owner.password } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const csrf = res.body.csrf_token;
    assert.deepEqual(res.body, { result: 'success', msg: '', user_id: ts.owner.id, email: ts.owner.email, csrf_token: csrf });
    assert.equal(typeof csrf, 'string');
    assert.ok(csrf.length >= 32);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.cookies.length, 1);
    const m = /^hearth_session=([^;]+); Max-Age=31536000; Path=\/; HttpOnly; SameSite=Strict$/.exec(res.cookies[0]!);
    assert.ok(m, `no Secure over plain http: ${res.cookies[0]}`);
    const token = m[1]!;
    assert.match(token, TOKEN, '32 random bytes, base64url');
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.equal('api_key' in res.body, false, 'the API key never reaches the page');

    const { text, sessions } = await onDisk(ts);
    assert.equal(text.includes(token), false, 'sessions.json holds no raw token');
    const s = sessions.find((x) => x.id === sha256(token));
    assert.ok(s, 'stored under the SHA-256 of the token');
    assert.deepEqual(s, { id: sha256(token), user_id: ts.owner.id, csrf_token: csrf, created: clock.t / 1000, last_used: clock.t / 1000 });
    // Two logins are two sessions with their own tokens.
    const again = await login(ts.url, ts.owner);
    assert.notEqual(again.token, token);
    assert.notEqual(again.csrf, csrf);
  });

  it('Secure is added when the request came over HTTPS', async () => {
    // The same Koa app behind a server whose sockets say they are encrypted (what ctx.secure reads).
    const srv: Server = createServer(ts.server.koa.callback());
    srv.on('connection', (socket) => Object.assign(socket, { encrypted: true }));
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
      const s = await login(base, ts.owner);
      assert.match(s.setCookie, /^hearth_session=[A-Za-z0-9_-]{43}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
      const out = await call(base, 'POST', '/json/logout', { session: s });
      assert.deepEqual(out.cookies, ['hearth_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict; Secure']);
    } finally {
      srv.closeAllConnections();
      await new Promise((resolve) => srv.close(resolve));
    }
  });

  it('login refuses wrong passwords, deactivated accounts and bots as fetch_api_key does, with no cookie', async () => {
    const mel = await ts.addUser('Mel');
    const wrong = await post('/json/login', { params: { username: mel.email, password: 'not it at all' } });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' });
    assert.deepEqual(wrong.cookies, []);
    const missing = await post('/json/login', { params: { username: mel.email } });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');

    const bot = await ts.ownerClient.post('/bots', { full_name: 'Helper', short_name: 'helper' });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    const botEmail = ts.store.users.get(bot.body.user_id)!.email;
    for (const password of ['', bot.body.api_key]) {
      const res = await post('/json/login', { params: { username: botEmail, password } });
      assert.equal(res.body.code, 'AUTHENTICATION_FAILED', `bot with ${JSON.stringify(password)}`);
      assert.deepEqual(res.cookies, []);
    }

    assert.equal((await ts.ownerClient.delete(`/users/${mel.id}`)).status, 200);
    const gone = await post('/json/login', { params: { username: mel.email, password: mel.password } });
    assert.equal(gone.status, 401);
    assert.deepEqual(gone.body, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
    assert.deepEqual(gone.cookies, []);
  });

  it('/json/users/me works with the cookie alone and fails without it (session challenge, not Basic)', async () => {
    const s = await login(ts.url, ts.owner);
    const me = await get('/json/users/me', { session: s });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.user_id, ts.owner.id);
    const none = await get('/json/users/me');
    assert.equal(none.status, 401);
    assert.deepEqual(none.body, { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
    assert.equal(none.headers.get('www-authenticate'), 'Session realm="zulip"');
    // A made-up or malformed cookie: refused, and the browser is told to drop it.
    for (const token of ['A'.repeat(43), 'not a token', '']) {
      const bad = await get('/json/users/me', { session: { ...s, token } });
      assert.equal(bad.status, 401, token);
      assert.deepEqual(bad.cookies, ['hearth_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict']);
    }
  });

  it('the cookie is not a credential under /api/v1, and Basic is not one under /json/', async () => {
    const s = await login(ts.url, ts.owner);
    const cookieOnApi = await get('/api/v1/users/me', { session: s });
    assert.equal(cookieOnApi.status, 401);
    assert.equal(cookieOnApi.headers.get('www-authenticate'), 'Basic realm="zulip"');
    const basicOnJson = await get('/json/users/me', { headers: { authorization: basic(ts.owner) } });
    assert.equal(basicOnJson.status, 401);
    assert.equal(basicOnJson.body.code, 'UNAUTHORIZED');
    // Both sent: each prefix uses its own credential only.
    const sam = await ts.addUser('Sam');
    const both = { session: s, headers: { authorization: basic(sam) } };
    assert.equal((await get('/json/users/me', both)).body.user_id, ts.owner.id);
    assert.equal((await get('/api/v1/users/me', both)).body.user_id, sam.id);
    // An unsafe /api/v1 call with Basic needs no CSRF token even when a cookie rides along.
    const draft = await call(ts.url, 'POST', '/api/v1/drafts', { ...both, csrf: null, params: { drafts: [{ type: '', to: [], topic: '', content: 'via basic' }] } });
    assert.equal(draft.status, 200, JSON.stringify(draft.body));
  });

  it('every /api/v1 route is also under /json/: the cookie gets in, nothing else does', async () => {
    const s = await login(ts.url, ts.owner);
    const required = routes.filter((r) => r.auth === 'required' && r.path.startsWith('/api/v1/'));
    assert.ok(required.length > 100);
    for (const r of required) {
      const path = `/json/${r.path.slice('/api/v1/'.length).replace(/[:*][a-z_]+/g, '1')}`;
      const anonymous = await call(ts.url, r.method, path);
      assert.equal(anonymous.status, 401, `${r.method} ${path}`);
      assert.equal(anonymous.headers.get('www-authenticate'), 'Session realm="zulip"', `${r.method} ${path}`);
      const withBasic = await call(ts.url, r.method, path, { headers: { authorization: basic(ts.owner) } });
      assert.equal(withBasic.status, 401, `${r.method} ${path} with Basic`);
      if (r.method === 'GET') {
        const good = await call(ts.url, r.method, path, { session: s });
        assert.notEqual(good.status, 401, `${r.method} ${path}: ${JSON.stringify(good.body)}`);
        // Routed (a made-up ID may still be a view's own 404, never the router's "Not Found").
        assert.ok(!(good.status === 404 && good.body.msg === 'Not Found'), `${r.method} ${path}: ${JSON.stringify(good.body)}`);
      } else {
        // Unsafe and without the token: refused before anything runs.
        const noCsrf = await call(ts.url, r.method, path, { session: s, csrf: null });
        assert.equal(noCsrf.status, 403, `${r.method} ${path}`);
        assert.deepEqual(noCsrf.body, CSRF_FAILED);
      }
    }
  });

  it('unsafe /json/ requests need X-CSRFToken; without it or with a wrong one nothing changes', async () => {
    const s = await login(ts.url, ts.owner);
    const drafts = () => ts.store.drafts.data.drafts.map((d) => d.content);
    const draftsOnDisk = async () => {
      await ts.store.settled();
      return (JSON.parse(await readFile(join(ts.dataDir, 'drafts.json'), 'utf8')).drafts as { content: string }[]).map((d) => d.content);
    };
    const before = { memory: drafts(), disk: await draftsOnDisk() };
    const params = { drafts: [{ type: '', to: [], topic: '', content: 'forged' }] };
    for (const csrf of [null, '', 'x'.repeat(s.csrf.length), s.csrf.slice(0, -1), `${s.csrf}x`, s.csrf.toUpperCase()]) {
      const res = await post('/json/drafts', { session: s, csrf, params });
      assert.equal(res.status, 403, `csrf ${JSON.stringify(csrf)}`);
      assert.deepEqual(res.body, CSRF_FAILED);
    }
    // Another session's token does not do either.
    const other = await login(ts.url, ts.owner);
    assert.equal((await post('/json/drafts', { session: s, csrf: other.csrf, params })).status, 403);
    const name = ts.store.users.get(ts.owner.id)!.full_name;
    assert.equal((await call(ts.url, 'PATCH', '/json/settings', { session: s, csrf: null, params: { full_name: 'Forged Name' } })).status, 403);
    assert.equal((await call(ts.url, 'DELETE', '/json/users/me', { session: s, csrf: 'nope' })).status, 403);
    assert.deepEqual(drafts(), before.memory);
    assert.deepEqual(await draftsOnDisk(), before.disk);
    assert.equal(ts.store.users.get(ts.owner.id)!.full_name, name);
    assert.equal(ts.store.users.get(ts.owner.id)!.is_active, true);

    const ok = await post('/json/drafts', { session: s, params: { drafts: [{ type: '', to: [], topic: '', content: 'mine' }] } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.ok((await draftsOnDisk()).includes('mine'));
    const renamed = await call(ts.url, 'PATCH', '/json/settings', { session: s, params: { full_name: 'Olive Browser' } });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(ts.store.users.get(ts.owner.id)!.full_name, 'Olive Browser');
    // Safe methods need no token.
    assert.equal((await get('/json/drafts', { session: s, csrf: null })).status, 200);
  });

  it('GET /json/session answers the user and CSRF token for the cookie, else 401', async () => {
    const s = await login(ts.url, ts.owner);
    const res = await get('/json/session', { session: s, csrf: null });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { result: 'success', msg: '', user_id: ts.owner.id, email: ts.owner.email, csrf_token: s.csrf });
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const none = await get('/json/session');
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'UNAUTHORIZED');
    assert.equal((await get('/json/session', { headers: { authorization: basic(ts.owner) } })).status, 401);
  });

  it('logout ends the session durably and clears the cookie; it needs the CSRF token', async () => {
    const s = await login(ts.url, ts.owner);
    const keep = await login(ts.url, ts.owner);
    const forged = await post('/json/logout', { session: s, csrf: null });
    assert.equal(forged.status, 403);
    assert.equal((await get('/json/users/me', { session: s })).status, 200, 'a forged logout does nothing');

    const out = await post('/json/logout', { session: s });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(out.cookies, ['hearth_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict']);
    const ids = await storedIds(ts);
    assert.equal(ids.includes(sha256(s.token)), false);
    assert.ok(ids.includes(sha256(keep.token)), 'only that session ends');
    assert.equal((await get('/json/users/me', { session: s })).status, 401);
    assert.equal((await get('/json/session', { session: s })).status, 401);
    assert.equal((await post('/json/logout', { session: s })).status, 401);
    assert.equal((await get('/json/users/me', { session: keep })).status, 200);
  });

  it('a new login from a browser replaces the session its cookie named', async () => {
    const first = await login(ts.url, ts.owner);
    const res = await post('/json/login', { session: first, params: { username: ts.owner.email, password: ts.owner.password } });
    assert.equal(res.status, 200);
    const ids = await storedIds(ts);
    assert.equal(ids.includes(sha256(first.token)), false);
    assert.equal((await get('/json/users/me', { session: first })).status, 401);
  });

  it('deactivation ends every session of the user, in the same write', async () => {
    const zed = await ts.addUser('Zed');
    const [a, b] = [await login(ts.url, zed), await login(ts.url, zed)];
    const owner = await login(ts.url, ts.owner);
    assert.equal((await get('/json/users/me', { session: a })).status, 200);
    assert.equal((await call(ts.url, 'DELETE', `/json/users/${zed.id}`, { session: owner })).status, 200);
    const ids = await storedIds(ts);
    assert.equal(ids.includes(sha256(a.token)) || ids.includes(sha256(b.token)), false);
    assert.ok(ids.includes(sha256(owner.token)));
    for (const s of [a, b]) assert.equal((await get('/json/users/me', { session: s })).status, 401);
    // Reactivating gives no session back.
    assert.equal((await ts.ownerClient.post(`/users/${zed.id}/reactivate`)).status, 200);
    assert.equal((await get('/json/users/me', { session: a })).status, 401);

    // Deactivating oneself through /json/ ends that session too.
    const yan = await ts.addUser('Yan');
    const y = await login(ts.url, yan);
    assert.equal((await call(ts.url, 'DELETE', '/json/users/me', { session: y })).status, 200);
    assert.equal((await get('/json/users/me', { session: y })).status, 401);
    assert.equal((await storedIds(ts)).includes(sha256(y.token)), false);
  });

  it('a session of a user no longer active is refused and deleted on the way', async () => {
    const kim = await ts.addUser('Kim');
    const token = 'k'.repeat(43);
    const now = Math.floor(clock.t / 1000);
    // As if left over (a data dir edited by hand): the account is inactive, the session still there.
    await commit(ts.app, (tx) => {
      ts.store.users.get(kim.id)!.is_active = false;
      tx.touch(ts.store.users.collection);
      ts.store.sessions.add({ id: sha256(token), user_id: kim.id, csrf_token: 'c'.repeat(43), created: now, last_used: now });
      tx.touch(ts.store.sessions.collection);
    });
    assert.ok((await storedIds(ts)).includes(sha256(token)));
    const res = await get('/json/users/me', { session: { token, csrf: '', userId: kim.id, setCookie: '' } });
    assert.equal(res.status, 401);
    assert.equal((await storedIds(ts)).includes(sha256(token)), false);
  });

  it('a password change ends the other sessions (the changing one stays); an administrator reset ends them all', async () => {
    const pat = await ts.addUser('Pat');
    const [changer, other] = [await login(ts.url, pat), await login(ts.url, pat)];
    const bystander = await login(ts.url, ts.owner);
    const res = await call(ts.url, 'PATCH', '/json/settings', {
      session: changer,
      params: { old_password: pat.password, new_password: 'a brand new password' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await get('/json/users/me', { session: changer })).status, 200);
    assert.equal((await get('/json/users/me', { session: other })).status, 401);
    assert.equal((await get('/json/users/me', { session: bystander })).status, 200);
    const ids = await storedIds(ts);
    assert.ok(ids.includes(sha256(changer.token)));
    assert.equal(ids.includes(sha256(other.token)), false);

    // Through /api/v1 (Basic): no session made the change, so every one ends.
    const patNow = { ...pat, password: 'a brand new password' };
    const third = await login(ts.url, patNow);
    const viaApi = await ts.client(pat).patch('/settings', { old_password: 'a brand new password', new_password: 'another new password' });
    assert.equal(viaApi.status, 200, JSON.stringify(viaApi.body));
    for (const s of [changer, third]) assert.equal((await get('/json/users/me', { session: s })).status, 401);

    // An administrator's reset of someone else's password ends all of theirs.
    const fourth = await login(ts.url, { ...pat, password: 'another new password' });
    const reset = await call(ts.url, 'POST', `/json/hearth/users/${pat.id}/password`, { session: bystander, params: { new_password: 'reset by the owner' } });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal((await get('/json/users/me', { session: fourth })).status, 401);
    assert.equal((await get('/json/users/me', { session: bystander })).status, 200);
    // Regenerating API keys is no password change: a session survives it (bots have none anyway).
  });

  it('GET /json/events long-polls with the cookie (queue registered through POST /json/register)', async () => {
    const s = await login(ts.url, ts.owner);
    const reg = await post('/json/register', { session: s, params: { event_types: ['drafts'] } });
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    const refused = await post('/json/register', { session: s, csrf: null, params: { event_types: ['drafts'] } });
    assert.equal(refused.status, 403);
    const poll = get('/json/events', { session: s, params: { queue_id: reg.body.queue_id, last_event_id: reg.body.last_event_id } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const made = await post('/json/drafts', { session: s, params: { drafts: [{ type: '', to: [], topic: '', content: 'wakes the poll' }] } });
    assert.equal(made.status, 200);
    const events = await poll;
    assert.equal(events.status, 200, JSON.stringify(events.body));
    assert.deepEqual(events.body.events.map((e: { type: string; op: string }) => [e.type, e.op]), [['drafts', 'add']]);
    const del = await call(ts.url, 'DELETE', '/json/events', { session: s, params: { queue_id: reg.body.queue_id } });
    assert.equal(del.status, 200, JSON.stringify(del.body));
  });

  it('uploaded files open with the cookie alone (and upload through /json/ with the token)', async () => {
    const s = await login(ts.url, ts.owner);
    const url = await uploadOne(ts.ownerClient, 'note.txt', 'hello from the browser');
    const res = await fetch(`${ts.url}${url}`, { headers: { cookie: `hearth_session=${s.token}` } });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'hello from the browser');
    const anonymous = await fetch(`${ts.url}${url}`);
    assert.notEqual(anonymous.status, 200);
    await anonymous.arrayBuffer();
    // A GET needs no CSRF token; a stale cookie is ignored there (anonymous), not an error page.
    const stale = await fetch(`${ts.url}${url}`, { headers: { cookie: `hearth_session=${'z'.repeat(43)}` } });
    assert.equal(stale.status, anonymous.status);
    await stale.arrayBuffer();
    // The avatar route takes the cookie as well.
    const avatar = await fetch(`${ts.url}/avatar/${ts.owner.id}`, { headers: { cookie: `hearth_session=${s.token}` }, redirect: 'manual' });
    assert.ok(avatar.status < 400, String(avatar.status));
    await avatar.arrayBuffer();

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('pasted'))], { type: 'text/plain' }), 'pasted.txt');
    const noToken = await fetch(`${ts.url}/json/user_uploads`, { method: 'POST', headers: { cookie: `hearth_session=${s.token}` }, body: form });
    assert.equal(noToken.status, 403);
    await noToken.arrayBuffer();
    const up = await fetch(`${ts.url}/json/user_uploads`, {
      method: 'POST',
      headers: { cookie: `hearth_session=${s.token}`, 'x-csrftoken': s.csrf },
      body: form,
    });
    assert.equal(up.status, 200);
    const { url: uploaded } = (await up.json()) as { url: string };
    const back = await fetch(`${ts.url}${uploaded}`, { headers: { cookie: `hearth_session=${s.token}` } });
    assert.equal(await back.text(), 'pasted');
  });

  it('unknown /json/ paths answer the same JSON 404 as /api/v1; a wrong method the same 405', async () => {
    const s = await login(ts.url, ts.owner);
    const json = await get('/json/no/such/thing', { session: s });
    const api = await ts.ownerClient.get('/no/such/thing');
    assert.equal(json.status, 404);
    assert.deepEqual(json.body, api.body);
    assert.deepEqual(json.body, { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
    const wrongMethod = await call(ts.url, 'PUT', '/json/users/me', { session: s });
    assert.equal(wrongMethod.status, 405);
    assert.deepEqual(wrongMethod.body, (await ts.ownerClient.call('PUT', '/users/me')).body);
    // The session routes exist only under /json/.
    assert.equal((await ts.ownerClient.post('/login')).status, 404);
  });

  it('last_used is written at most once an hour; a session ends a year after login', async () => {
    const s = await login(ts.url, ts.owner);
    const stored = async () => (await onDisk(ts)).sessions.find((x) => x.id === sha256(s.token));
    const t0 = Math.floor(clock.t / 1000);
    const flushes = ts.store.sessions.collection.flushes;
    clock.t += 30 * 60_000;
    for (let i = 0; i < 3; i++) assert.equal((await get('/json/users/me', { session: s })).status, 200);
    assert.equal((await stored())!.last_used, t0);
    assert.equal(ts.store.sessions.collection.flushes, flushes, 'no write for requests within the hour');
    clock.t += 31 * 60_000;
    assert.equal((await get('/json/users/me', { session: s })).status, 200);
    assert.equal((await stored())!.last_used, t0 + 61 * 60);
    assert.equal((await get('/json/users/me', { session: s })).status, 200);
    assert.equal((await stored())!.last_used, t0 + 61 * 60);

    clock.t = (t0 + 365 * 24 * 3600) * 1000;
    assert.equal((await get('/json/users/me', { session: s })).status, 401, 'expired with its cookie');
    assert.equal(await stored(), undefined);
  });
});

describe('browser sessions: rate limits and restarts', () => {
  it('login shares fetch_api_key\'s limiter, both ways', async () => {
    const ts = await startTestServer();
    try {
      const [bob, cy] = [await ts.addUser('Bob'), await ts.addUser('Cy')];
      for (let i = 0; i < 10; i++) {
        assert.equal((await ts.anonymous.post('/fetch_api_key', { username: bob.email, password: 'wrong wrong' })).status, 401);
      }
      const limited = await call(ts.url, 'POST', '/json/login', { params: { username: bob.email, password: bob.password } });
      assert.equal(limited.status, 429);
      // Ten minutes from the first failure, less the seconds the ten attempts took on a busy machine.
      const wait = limited.body['retry-after'];
      assert.ok(wait > 590 && wait <= 600, String(wait));
      assert.deepEqual(limited.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': wait });
      assert.equal(limited.headers.get('retry-after'), String(wait));
      assert.deepEqual(limited.cookies, []);

      for (let i = 0; i < 10; i++) {
        const res = await call(ts.url, 'POST', '/json/login', { params: { username: cy.email, password: 'wrong wrong' } });
        assert.equal(res.status, 401);
      }
      const viaApi = await ts.anonymous.post('/fetch_api_key', { username: cy.email, password: cy.password });
      assert.equal(viaApi.status, 429);
      assert.equal((await call(ts.url, 'POST', '/json/login', { params: { username: ts.owner.email, password: ts.owner.password } })).status, 200);
    } finally {
      await ts.stop();
    }
  });

  it('a session survives a restart on the same data dir', async () => {
    let ts = await startTestServer();
    try {
      const s = await login(ts.url, ts.owner);
      ts = await restart(ts);
      const me = await call(ts.url, 'GET', '/json/users/me', { session: s });
      assert.equal(me.status, 200, JSON.stringify(me.body));
      assert.equal((await call(ts.url, 'GET', '/json/session', { session: s })).body.csrf_token, s.csrf);
      const draft = await call(ts.url, 'POST', '/json/drafts', { session: s, params: { drafts: [{ type: '', to: [], topic: '', content: 'after restart' }] } });
      assert.equal(draft.status, 200, JSON.stringify(draft.body));
    } finally {
      await ts.stop();
    }
  });
});
