import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { routes } from '../../server/routes.js';
import { fakeEmail } from '../../server/lib/people/people.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';

const basic = (email: string, key: string) => `Basic ${Buffer.from(`${email}:${key}`).toString('base64')}`;

/** GET with a chosen Host header (fetch does not let a caller set it). */
// biome-ignore lint/suspicious/noExplicitAny: the answer's JSON, read field by field
function getWithHost(url: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every route, its path with any `:param` filled in. */
const concrete = (path: string) => path.replace(/:[a-z_]+/g, '1').replace(/^\/api\/v1/, '');

const withHeader = (c: Client, method: string, path: string, authorization?: string) =>
  c.call(method, path, {}, { inQuery: true, headers: authorization === undefined ? {} : { authorization } });

describe('authentication', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('requires Basic credentials on every authenticated endpoint', async () => {
    // /api/v1 routes (the table's /json/ session routes take the cookie only: test/views/sessions.test.ts).
    const required = routes.filter((r) => r.auth === 'required' && r.path.startsWith('/api/v1/'));
    assert.ok(required.length >= 8, 'the route table lists the authenticated endpoints');
    for (const r of required) {
      const path = concrete(r.path);
      const none = await withHeader(ts.anonymous, r.method, path);
      assert.equal(none.status, 401, `${r.method} ${path}`);
      assert.deepEqual(none.body, {
        result: 'error',
        msg: 'Not logged in: API authentication or user session required',
        code: 'UNAUTHORIZED',
      });
      assert.equal(none.headers.get('www-authenticate'), 'Basic realm="zulip"');

      const wrong = await withHeader(ts.anonymous, r.method, path, basic(ts.owner.email, 'x'.repeat(32)));
      assert.equal(wrong.status, 401, `${r.method} ${path}`);
      assert.deepEqual(wrong.body, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });

      // (Only reads with valid credentials: a made-up id on a write could change the shared server.)
      if (r.method === 'GET') {
        const good = await withHeader(ts.anonymous, r.method, path, basic(ts.owner.email, ts.owner.apiKey));
        assert.notEqual(good.status, 401, `${r.method} ${path} with a valid key: ${JSON.stringify(good.body)}`);
      }
    }
  });

  it('refuses wrong keys and unknown emails as Zulip\'s Basic-auth decorator does: UNAUTHORIZED, "Invalid API key"', async () => {
    const bob = await ts.addUser('Bob');
    for (const [email, key] of [
      [ts.owner.email, 'x'.repeat(32)],
      [ts.owner.email, ts.owner.apiKey.slice(0, 31)],
      [ts.owner.email, `${ts.owner.apiKey}x`],
      [ts.owner.email, ''],
      [ts.owner.email, bob.apiKey], // another user's valid key
      ['nobody@example.com', ts.owner.apiKey],
      ['', ts.owner.apiKey],
    ]) {
      const res = await withHeader(ts.anonymous, 'GET', '/users/me', basic(email!, key!));
      assert.equal(res.status, 401, `${email}:${key}`);
      assert.deepEqual(res.body, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' });
      assert.equal(res.headers.get('www-authenticate'), 'Basic realm="zulip"');
    }
  });

  it('treats a header that is not Basic credentials as no credentials', async () => {
    for (const header of ['Bearer abc', 'Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`]) {
      const res = await withHeader(ts.anonymous, 'GET', '/users/me', header);
      assert.equal(res.status, 401, header);
      assert.equal(res.body.code, 'UNAUTHORIZED', header);
    }
  });

  it('accepts the Basic scheme name in any case and an API key with a colon-free email', async () => {
    const token = Buffer.from(`${ts.owner.email}:${ts.owner.apiKey}`).toString('base64');
    const res = await withHeader(ts.anonymous, 'GET', '/users/me', `basic ${token}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.user_id, ts.owner.id);
  });

  it('refuses a deactivated user: UNAUTHORIZED "Account is deactivated" over Basic auth, USER_DEACTIVATED from fetch_api_key', async () => {
    const carol = await ts.addUser('Carol');
    const c = ts.client(carol);
    assert.equal((await c.get('/users/me')).status, 200);
    const record = ts.store.users.get(carol.id)!;
    record.is_active = false;
    await ts.store.users.collection.save();
    const onDisk = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8'));
    assert.equal(onDisk.users.find((u: { id: number }) => u.id === carol.id).is_active, false);

    for (const [method, path] of [
      ['GET', '/users/me'],
      ['GET', '/drafts'],
      ['POST', '/register'],
    ]) {
      const res = await withHeader(c, method!, path!, c.authHeader.authorization);
      assert.equal(res.status, 401, `${method} ${path}`);
      assert.deepEqual(res.body, { result: 'error', msg: 'Account is deactivated', code: 'UNAUTHORIZED' });
    }
    // The right password does not hand out the key either; a wrong one does not reveal the state.
    const key = await ts.anonymous.post('/fetch_api_key', { username: carol.email, password: carol.password });
    assert.equal(key.status, 401);
    assert.equal(key.body.code, 'USER_DEACTIVATED');
    assert.equal('api_key' in key.body, false);
    const wrong = await ts.anonymous.post('/fetch_api_key', { username: carol.email, password: 'not it at all' });
    assert.equal(wrong.body.code, 'AUTHENTICATION_FAILED');
  });

  it('matches emails case-insensitively', async () => {
    for (const email of [ts.owner.email.toUpperCase(), 'Owner@Example.com']) {
      const res = await withHeader(ts.anonymous, 'GET', '/users/me', basic(email, ts.owner.apiKey));
      assert.equal(res.status, 200, email);
      assert.equal(res.body.user_id, ts.owner.id);
      assert.equal(res.body.email, ts.owner.email, 'the stored spelling is returned');
    }
    const key = await ts.anonymous.post('/fetch_api_key', { username: '  OWNER@EXAMPLE.COM ', password: ts.owner.password });
    assert.equal(key.status, 200, JSON.stringify(key.body));
    assert.equal(key.body.user_id, ts.owner.id);
  });

  it('accepts the API-only user{id}@domain address, and only with the realm domain', async () => {
    const domain = ts.store.realm.data.realm!.settings.fake_email_domain;
    for (const email of [`user${ts.owner.id}@${domain}`, `USER${ts.owner.id}@${domain.toUpperCase()}`]) {
      const res = await withHeader(ts.anonymous, 'GET', '/users/me', basic(email, ts.owner.apiKey));
      assert.equal(res.status, 200, email);
      assert.equal(res.body.user_id, ts.owner.id);
    }
    for (const email of [`user${ts.owner.id}@elsewhere.org`, `user0${ts.owner.id}@${domain}`, `user${ts.owner.id}@`]) {
      const res = await withHeader(ts.anonymous, 'GET', '/users/me', basic(email, ts.owner.apiKey));
      assert.equal(res.status, 401, email);
      assert.equal(res.body.code, 'UNAUTHORIZED');
    }
    // Another user's id with this user's key is refused.
    const dave = await ts.addUser('Dave');
    const cross = await withHeader(ts.anonymous, 'GET', '/users/me', basic(`user${dave.id}@${domain}`, ts.owner.apiKey));
    assert.equal(cross.status, 401);
  });
});

describe('POST /fetch_api_key', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('returns the api_key, email and user_id for the right password', async () => {
    const res = await ts.anonymous.post('/fetch_api_key', { username: ts.owner.email, password: ts.owner.password });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      result: 'success',
      msg: '',
      api_key: ts.owner.apiKey,
      email: ts.owner.email,
      user_id: ts.owner.id,
    });
    const stored = ts.store.users.get(ts.owner.id)!;
    assert.equal(res.body.api_key, stored.api_key);
    // It ignores any Authorization header, even garbage.
    const withHeader = await ts.anonymous.call(
      'POST',
      '/fetch_api_key',
      { username: ts.owner.email, password: ts.owner.password },
      { headers: { authorization: 'Basic garbage' } },
    );
    assert.equal(withHeader.status, 200);
  });

  it('refuses a wrong password or an unknown user with AUTHENTICATION_FAILED', async () => {
    for (const [username, password] of [
      [ts.owner.email, 'wrong password'],
      [ts.owner.email, ''],
      ['stranger@example.com', ts.owner.password],
    ]) {
      const res = await ts.anonymous.post('/fetch_api_key', { username: username!, password: password! });
      assert.equal(res.status, 401, `${username}`);
      assert.deepEqual(res.body, {
        result: 'error',
        msg: 'Your username or password is incorrect',
        code: 'AUTHENTICATION_FAILED',
      });
    }
  });
});

describe('login rate limits', () => {
  const fail = (ts: TestServer, username: string, extra: Record<string, string> = {}) =>
    ts.anonymous.call('POST', '/fetch_api_key', { username, password: 'definitely wrong' }, { headers: extra });

  it('limits failed logins per username, then lifts after the window', async () => {
    const clock = { t: 1_800_000_000_000, now() { return this.t; } };
    const ts = await startTestServer({ clock });
    try {
      const bob = await ts.addUser('Bob');
      for (let i = 0; i < 10; i++) {
        const res = await fail(ts, i % 2 ? bob.email : bob.email.toUpperCase());
        assert.equal(res.status, 401, `attempt ${i}`);
      }
      const limited = await ts.anonymous.post('/fetch_api_key', { username: bob.email, password: bob.password });
      assert.equal(limited.status, 429);
      // The account is limited, not one spelling of it: its API address (user{id}@…) counts the same.
      const alias = fakeEmail(ts.app, ts.store.users.get(bob.id)!);
      assert.notEqual(alias.toLowerCase(), bob.email.toLowerCase());
      assert.equal((await ts.anonymous.post('/fetch_api_key', { username: alias, password: bob.password })).status, 429);
      assert.deepEqual(limited.body, {
        result: 'error',
        msg: 'API usage exceeded rate limit',
        code: 'RATE_LIMIT_HIT',
        'retry-after': 600,
      });
      assert.equal(limited.headers.get('retry-after'), '600');
      assert.equal('api_key' in limited.body, false);

      // Other usernames from the same address are not affected yet.
      const owner = await ts.anonymous.post('/fetch_api_key', { username: ts.owner.email, password: ts.owner.password });
      assert.equal(owner.status, 200);

      clock.t += 599_000;
      const almost = await ts.anonymous.post('/fetch_api_key', { username: bob.email, password: bob.password });
      assert.equal(almost.status, 429);
      assert.equal(almost.body['retry-after'], 1);
      assert.equal(almost.headers.get('retry-after'), '1');

      clock.t += 1_000;
      const lifted = await ts.anonymous.post('/fetch_api_key', { username: bob.email, password: bob.password });
      assert.equal(lifted.status, 200, JSON.stringify(lifted.body));
      assert.equal(lifted.body.api_key, bob.apiKey);
      // A success clears the username's count: nine more failures are not yet limited.
      for (let i = 0; i < 9; i++) assert.equal((await fail(ts, bob.email)).status, 401);
      const stillOk = await ts.anonymous.post('/fetch_api_key', { username: bob.email, password: bob.password });
      assert.equal(stillOk.status, 200);
    } finally {
      await ts.stop();
    }
  });

  it('limits failed logins per address, whatever the username or X-Forwarded-For', async () => {
    const clock = { t: 1_800_000_000_000, now() { return this.t; } };
    const ts = await startTestServer({ clock });
    try {
      for (let i = 0; i < 30; i++) {
        const res = await fail(ts, `guess${i % 5}@example.com`, { 'x-forwarded-for': `10.0.0.${i}` });
        assert.equal(res.status, 401, `attempt ${i}`);
      }
      const limited = await ts.anonymous.call(
        'POST',
        '/fetch_api_key',
        { username: ts.owner.email, password: ts.owner.password },
        { headers: { 'x-forwarded-for': '10.9.9.9' } },
      );
      assert.equal(limited.status, 429);
      assert.equal(limited.body.code, 'RATE_LIMIT_HIT');
      assert.equal(limited.body['retry-after'], 600);
      assert.equal(limited.headers.get('retry-after'), '600');

      // Authenticated API calls are not login attempts and still work.
      assert.equal((await ts.ownerClient.get('/users/me')).status, 200);

      clock.t += 600_000;
      const lifted = await ts.anonymous.post('/fetch_api_key', { username: ts.owner.email, password: ts.owner.password });
      assert.equal(lifted.status, 200);
    } finally {
      await ts.stop();
    }
  });
});

describe('GET /server_settings', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  const FIELDS = [
    'authentication_methods',
    'external_authentication_methods',
    'zulip_feature_level',
    'service_feature_level',
    'zulip_version',
    'service_version',
    'zulip_merge_base',
    'service_merge_base',
    'push_notifications_enabled',
    'is_incompatible',
    'email_auth_enabled',
    'require_email_format_usernames',
    'realm_url',
    'realm_uri',
    'realm_name',
    'realm_icon',
    'realm_description',
    'realm_web_public_access_enabled',
  ];

  it('answers with no header, a valid header and a garbage header', async () => {
    const bodies = [];
    for (const authorization of [undefined, basic(ts.owner.email, ts.owner.apiKey), 'Basic garbage', 'Bearer x', basic('x@y.z', 'bad')]) {
      const res = await withHeader(ts.anonymous, 'GET', '/server_settings', authorization);
      assert.equal(res.status, 200, String(authorization));
      bodies.push(res.body);
    }
    for (const b of bodies) assert.deepEqual(b, bodies[0]);
  });

  it('has every field the spec lists, with the right types and values', async () => {
    const { body } = await ts.anonymous.get('/server_settings');
    for (const f of FIELDS) assert.ok(f in body, `missing ${f}`);
    assert.equal(body.result, 'success');
    assert.equal(body.msg, '');
    assert.equal(body.zulip_feature_level, 491);
    assert.equal(body.service_feature_level, 491);
    assert.equal(typeof body.zulip_version, 'string');
    assert.match(body.zulip_version, /^\d+\.\d+/, 'clients parse a leading major.minor');
    assert.equal(body.service_version, body.zulip_version);
    assert.equal(body.zulip_merge_base, body.service_merge_base);
    assert.equal(typeof body.zulip_merge_base, 'string');
    assert.equal(body.realm_name, 'Test Org');
    assert.equal(body.realm_url, ts.url);
    assert.equal(body.realm_uri, ts.url);
    assert.ok(body.realm_icon.startsWith(ts.url), body.realm_icon);
    assert.equal(typeof body.realm_description, 'string');
    assert.equal(body.email_auth_enabled, true);
    assert.equal(body.require_email_format_usernames, true);
    assert.equal(body.push_notifications_enabled, false);
    assert.equal(body.is_incompatible, false);
    assert.equal(body.realm_web_public_access_enabled, false);
    assert.deepEqual(body.external_authentication_methods, []);
    const methods = body.authentication_methods;
    for (const k of ['password', 'dev', 'email', 'ldap', 'remoteuser', 'saml', 'openid connect', 'github', 'gitlab', 'azuread', 'apple', 'google', 'slack']) {
      assert.equal(typeof methods[k], 'boolean', `authentication_methods.${k}`);
    }
    assert.equal(methods.password, true);
    assert.equal(methods.dev, false);
  });

  it('builds realm_url and realm_uri from a Host naming this computer, never from another one', async () => {
    const port = new URL(ts.url).port;
    const own = await getWithHost(`${ts.url}/api/v1/server_settings`, `localhost:${port}`);
    assert.equal(own.status, 200);
    assert.equal(own.body.realm_url, `http://localhost:${port}`);
    assert.equal(own.body.realm_uri, `http://localhost:${port}`);
    assert.equal(own.body.realm_icon, `http://localhost:${port}/static/hearth-icon.png`);
    // A Host anyone can forge (issue 36): links name the server's own address, with the port the connection used.
    const forged = await getWithHost(`${ts.url}/api/v1/server_settings`, 'evil.example:8443');
    assert.equal(forged.body.realm_url, ts.url);
    assert.equal(forged.body.realm_icon, `${ts.url}/static/hearth-icon.png`);
    // X-Forwarded-* is not trusted (no proxy configured).
    const fwd = await getWithHost(`${ts.url}/api/v1/server_settings`, `127.0.0.1:${port}`, {
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    assert.equal(fwd.body.realm_url, ts.url);
  });

  it('with a configured address (hearth serve --url), links always use it', async () => {
    const configured = await startTestServer({ config: { publicUrl: 'http://chat.office.lan:9991' } });
    try {
      for (const host of ['evil.example', `127.0.0.1:${new URL(configured.url).port}`]) {
        const res = await getWithHost(`${configured.url}/api/v1/server_settings`, host);
        assert.equal(res.body.realm_url, 'http://chat.office.lan:9991', host);
      }
    } finally {
      await configured.stop();
    }
  });
});

describe('users', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('GET /users/me returns the member object of the caller', async () => {
    const res = await ts.ownerClient.get('/users/me');
    assert.equal(res.status, 200);
    const stored = ts.store.users.get(ts.owner.id)!;
    const expected: Record<string, unknown> = {
      result: 'success',
      msg: '',
      user_id: ts.owner.id,
      delivery_email: ts.owner.email,
      email: ts.owner.email,
      full_name: 'Olive Owner',
      // Zulip's shape: minute precision with an explicit +00:00 offset.
      date_joined: `${stored.date_joined.slice(0, 16)}+00:00`,
      is_active: true,
      is_owner: true,
      is_admin: true,
      is_guest: false,
      is_bot: false,
      role: 100,
      timezone: '',
      avatar_url: `/avatar/${ts.owner.id}?v=1`,
      avatar_version: 1,
      profile_data: {},
      bot_type: null,
    };
    for (const [k, val] of Object.entries(expected)) assert.deepEqual(res.body[k], val, k);
    // Nothing beyond Zulip's own-user fields (in particular no key or hash).
    const allowed = new Set([
      ...Object.keys(expected),
      'bot_type',
      'bot_owner_id',
      'is_imported_stub',
      'max_message_id',
    ]);
    for (const k of Object.keys(res.body)) assert.ok(allowed.has(k), `unexpected field ${k}`);
    assert.doesNotMatch(JSON.stringify(res.body), new RegExp(`${ts.owner.apiKey}|scrypt`));
    assert.ok(!Number.isNaN(Date.parse(res.body.date_joined)));

    const member = await ts.addUser('Mia');
    const mine = await ts.client(member).get('/users/me');
    assert.equal(mine.body.user_id, member.id);
    assert.equal(mine.body.role, 400);
    assert.equal(mine.body.is_admin, false);
    assert.equal(mine.body.is_owner, false);
    assert.equal(mine.body.email, member.email);
  });

  it('POST /users is for administrators only, and a member creates nobody', async () => {
    const member = await ts.addUser('Max');
    const count = ts.store.users.count;
    const res = await ts.client(member).post('/users', {
      email: 'sneaky@example.com',
      password: 'long enough password',
      full_name: 'Sneaky',
    });
    assert.equal(res.status, 400);
    // Zulip's OrganizationAdministratorRequiredError.
    assert.deepEqual(res.body, {
      result: 'error',
      msg: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    assert.equal(ts.store.users.count, count);
    assert.equal(ts.store.users.byEmailAddress('sneaky@example.com'), undefined);
    const onDisk = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8'));
    assert.equal(onDisk.users.length, count);
  });

  it('an administrator creates a user who can then log in with their password', async () => {
    const admin: Account = await ts.addUser('Ada', 200);
    const res = await ts.client(admin).post('/users', {
      email: 'Newbie@Example.com',
      password: 'newbie password',
      full_name: '  Nina Newbie ',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['msg', 'result', 'user_id']);
    const id = res.body.user_id;
    const stored = ts.store.users.get(id)!;
    assert.equal(stored.email, 'Newbie@Example.com');
    assert.equal(stored.full_name, 'Nina Newbie');
    assert.equal(stored.role, 400);
    assert.equal(stored.is_active, true);
    const onDisk = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8'));
    assert.ok(onDisk.users.some((u: { id: number }) => u.id === id), 'on disk before the answer');

    const key = await ts.anonymous.post('/fetch_api_key', { username: 'newbie@example.com', password: 'newbie password' });
    assert.equal(key.status, 200, JSON.stringify(key.body));
    assert.equal(key.body.user_id, id);
    assert.equal(key.body.api_key, stored.api_key);
    const me = await ts.client({ id, email: key.body.email, apiKey: key.body.api_key, password: '' }).get('/users/me');
    assert.equal(me.status, 200);
    assert.equal(me.body.full_name, 'Nina Newbie');
  });

  it('refuses an invalid email, a duplicate email, a short password and a blank name', async () => {
    const count = ts.store.users.count;
    const cases: [Record<string, string>, RegExp][] = [
      [{ email: 'not-an-email', password: 'long enough', full_name: 'X' }, /email/i],
      [{ email: 'two@@example.com', password: 'long enough', full_name: 'X' }, /email/i],
      [{ email: ts.owner.email.toUpperCase(), password: 'long enough', full_name: 'X' }, /already in use/],
      [{ email: 'short@example.com', password: '1234567', full_name: 'X' }, /password is too short/],
      [{ email: 'blank@example.com', password: 'long enough', full_name: '   ' }, /Name too short/],
    ];
    for (const [params, msg] of cases) {
      const res = await ts.ownerClient.post('/users', params);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.match(res.body.msg, msg);
    }
    for (const missing of ['email', 'password', 'full_name']) {
      const params: Record<string, string> = { email: 'm@example.com', password: 'long enough', full_name: 'M' };
      delete params[missing];
      const res = await ts.ownerClient.post('/users', params);
      assert.equal(res.body.code, 'REQUEST_VARIABLE_MISSING');
      assert.equal(res.body.var_name, missing);
    }
    assert.equal(ts.store.users.count, count);
  });

  it('tells registered queues with a realm_user add event', async () => {
    const admin = ts.ownerClient;
    const member = ts.client(await ts.addUser('Watcher'));
    const regs = await Promise.all([admin, member].map((c) => c.post('/register', { event_types: ['realm_user'] })));
    const res = await admin.post('/users', { email: 'evented@example.com', password: 'long enough', full_name: 'Eve Ented' });
    assert.equal(res.status, 200);
    for (const [i, c] of [admin, member].entries()) {
      const { queue_id, last_event_id } = regs[i]!.body;
      const events = await c.get('/events', { queue_id, last_event_id, dont_block: true });
      assert.equal(events.status, 200);
      const adds = events.body.events.filter((e: { type: string; op: string }) => e.type === 'realm_user' && e.op === 'add');
      assert.equal(adds.length, 1, JSON.stringify(events.body.events));
      assert.equal(adds[0].person.user_id, res.body.user_id);
      assert.equal(adds[0].person.full_name, 'Eve Ented');
      assert.equal(adds[0].person.email, 'evented@example.com');
      assert.equal(adds[0].person.role, 400);
      await c.delete('/events', { queue_id });
    }
  });

  it('keeps password hashes (scrypt) and keys in a users.json only the owner can read', async () => {
    const file = join(ts.dataDir, 'users.json');
    const st = await stat(file);
    assert.equal(st.mode & 0o777, 0o600);
    assert.equal((await stat(ts.dataDir)).mode & 0o777, 0o700);
    const text = await readFile(file, 'utf8');
    assert.ok(!text.includes(ts.owner.password), 'no plaintext password on disk');
    const doc = JSON.parse(text);
    const keys = new Set<string>();
    for (const u of doc.users) {
      assert.match(u.password_hash, /^scrypt\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/, u.email);
      assert.match(u.api_key, /^[A-Za-z0-9]{32}$/, u.email);
      keys.add(u.api_key);
    }
    assert.ok(doc.users.length >= 3);
    assert.equal(keys.size, doc.users.length, 'API keys are distinct');
    const salts = new Set(doc.users.map((u: { password_hash: string }) => u.password_hash.split('$')[2]));
    assert.equal(salts.size, doc.users.length, 'each hash has its own salt');
  });
});
