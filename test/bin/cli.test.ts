import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../server/app.js';
import { doCreateRealm } from '../../server/actions/users.js';
import { silentLogger } from '../../server/log.js';
import { lanUrls } from '../../server/lib/network/lan-urls.js';
import { Store } from '../../server/store/store.js';
import { runCli, startServe, type CliResult, type ServeProcess } from '../helpers/cli.js';
import { Client } from '../helpers/server.js';

const PASSWORD = 'a long password';

/** Sets up an organization without a child process (faster than `hearth init`). */
async function initInProcess(dataDir: string, email = 'owner@example.com') {
  const store = await Store.open(dataDir);
  try {
    const { app } = createApp({ store, log: silentLogger });
    const u = await doCreateRealm(app, 'CLI Org', { email, password: PASSWORD, fullName: 'Owner' });
    return { id: u.id, email: u.email, apiKey: u.api_key, password: PASSWORD };
  } finally {
    await store.close();
  }
}

const oneLine = (r: CliResult) => {
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
  assert.ok(r.stderr.endsWith('\n'));
  return lines[0]!;
};

async function stopWith(p: ServeProcess, signal: NodeJS.Signals): Promise<CliResult> {
  p.child.kill(signal);
  return p.exited;
}

describe('hearth CLI', { timeout: 180_000 }, () => {
  let root: string;
  const running: ServeProcess[] = [];
  let n = 0;
  const dir = () => join(root, `d${++n}`);
  const serve = async (dataDir: string, env: Record<string, string> = {}, extra: string[] = []) => {
    const p = await startServe(['--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', ...extra], env);
    running.push(p);
    return p;
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-cli-'));
  });
  after(async () => {
    await Promise.all(running.map((p) => p.kill9()));
    await rm(root, { recursive: true, force: true });
  });

  it('init prints exactly one JSON line, and the key works against `serve`', async () => {
    const d = dir();
    const r = await runCli(['init', '--data-dir', d, '--realm-name', 'Acme', '--email', 'Boss@Example.com', '--password', PASSWORD, '--full-name', 'The Boss']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.ok(r.stdout.endsWith('\n'));
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 1, r.stdout);
    const out = JSON.parse(lines[0]!);
    assert.deepEqual(Object.keys(out).sort(), ['api_key', 'email', 'user_id']);
    assert.equal(out.user_id, 1);
    assert.equal(out.email, 'Boss@Example.com');
    assert.match(out.api_key, /^[A-Za-z0-9]{32}$/);

    const realm = JSON.parse(await readFile(join(d, 'realm.json'), 'utf8'));
    assert.equal(realm.realm.name, 'Acme');
    const users = JSON.parse(await readFile(join(d, 'users.json'), 'utf8'));
    assert.equal(users.users.length, 1);
    assert.equal(users.users[0].role, 100);
    assert.equal(users.users[0].full_name, 'The Boss');
    assert.equal(users.users[0].api_key, out.api_key);
    assert.equal(existsSync(join(d, 'hearth.lock')), false, 'init releases the data dir');

    const p = await serve(d);
    const c = new Client(p.url, { id: out.user_id, email: out.email, apiKey: out.api_key, password: PASSWORD });
    const me = await c.get('/users/me');
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.user_id, out.user_id);
    assert.equal(me.body.role, 100);
    const key = await new Client(p.url, null).post('/fetch_api_key', { username: 'boss@example.com', password: PASSWORD });
    assert.equal(key.body.api_key, out.api_key);
    assert.equal((await stopWith(p, 'SIGTERM')).code, 0);
  });

  it('init refuses bad input with a one-line reason and creates nothing', async () => {
    const existing = dir();
    await initInProcess(existing);
    const before = await readFile(join(existing, 'users.json'));
    const fresh = () => dir();
    const good = { 'data-dir': '', 'realm-name': 'Org', email: 'a@example.com', password: PASSWORD };
    const argsOf = (o: Record<string, string>) => ['init', ...Object.entries(o).flatMap(([k, v]) => [`--${k}`, v])];
    const cases: { args: string[]; dataDir: string | null; reason: RegExp }[] = [
      { args: argsOf({ ...good, 'data-dir': existing }), dataDir: null, reason: /already holds an organization/ },
    ];
    for (const missing of Object.keys(good)) {
      const d = fresh();
      const o: Record<string, string> = { ...good, 'data-dir': d };
      delete o[missing];
      cases.push({ args: argsOf(o), dataDir: d, reason: new RegExp(`missing --${missing}`) });
    }
    const badEmail = fresh();
    cases.push({ args: argsOf({ ...good, 'data-dir': badEmail, email: 'two words@example' }), dataDir: badEmail, reason: /invalid email/ });
    const short = fresh();
    cases.push({ args: argsOf({ ...good, 'data-dir': short, password: '1234567' }), dataDir: short, reason: /at least 8 characters/ });

    const results = await Promise.all(cases.map((c) => runCli(c.args)));
    for (const [i, r] of results.entries()) {
      const c = cases[i]!;
      assert.notEqual(r.code, 0, c.args.join(' '));
      assert.equal(r.stdout, '', c.args.join(' '));
      assert.match(oneLine(r), c.reason);
      assert.match(r.stderr, /^hearth init: /);
      if (c.dataDir) assert.equal(existsSync(join(c.dataDir, 'realm.json')), false, `${c.dataDir} has no organization`);
    }
    assert.deepEqual(await readFile(join(existing, 'users.json')), before, 'the existing organization is untouched');
    assert.equal(existsSync(join(existing, 'hearth.lock')), false);
  });

  it('serve on port 0 prints the bound port, answers, and stops cleanly on SIGTERM and SIGINT', async () => {
    const [a, b] = [dir(), dir()];
    const [ownerA] = await Promise.all([initInProcess(a), initInProcess(b)]);
    const [pa, pb] = await Promise.all([serve(a), serve(b)]);
    for (const p of [pa, pb]) {
      assert.match(p.listening, /^listening on http:\/\/127\.0\.0\.1:\d+\/$/);
      assert.notEqual(p.port, 0);
      assert.equal(p.url, `http://127.0.0.1:${p.port}`);
      const settings = await new Client(p.url, null).get('/server_settings');
      assert.equal(settings.status, 200);
      assert.equal(settings.body.realm_name, 'CLI Org');
    }
    assert.equal((await readFile(join(a, 'hearth.lock'), 'utf8')).trim(), String(pa.pid));
    assert.equal((await readFile(join(b, 'hearth.lock'), 'utf8')).trim(), String(pb.pid));

    // A parked long-poll is answered at shutdown, and an acknowledged write is on disk.
    const c = new Client(pa.url, ownerA);
    const draft = await c.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'before SIGTERM' }] });
    assert.equal(draft.status, 200);
    const reg = await c.post('/register', { event_types: ['drafts'] });
    const poll = c.get('/events', { queue_id: reg.body.queue_id, last_event_id: reg.body.last_event_id });
    await new Promise((r) => setTimeout(r, 100));

    const t0 = Date.now();
    const [ra, rb] = await Promise.all([stopWith(pa, 'SIGTERM'), stopWith(pb, 'SIGINT')]);
    assert.equal(ra.code, 0, ra.stderr);
    assert.equal(rb.code, 0, rb.stderr);
    assert.equal(ra.signal, null);
    assert.ok(Date.now() - t0 < 10_000, 'stops promptly');
    const polled = await poll;
    assert.equal(polled.status, 200, JSON.stringify(polled.body));
    assert.deepEqual(polled.body.events, []);
    assert.equal(existsSync(join(a, 'hearth.lock')), false, 'lock removed after SIGTERM');
    assert.equal(existsSync(join(b, 'hearth.lock')), false, 'lock removed after SIGINT');
    assert.match(ra.stderr, /SIGTERM/);
    assert.match(rb.stderr, /SIGINT/);
    const drafts = JSON.parse(await readFile(join(a, 'drafts.json'), 'utf8'));
    assert.deepEqual(drafts.drafts.map((d: { content: string }) => d.content), ['before SIGTERM']);
  });

  it('takes the data dir, host and port from HEARTH_* when no flags are given, and flags win', async () => {
    const d = dir();
    const owner = await initInProcess(d);
    const p = await startServe([], { HEARTH_DATA_DIR: d, HEARTH_HOST: '127.0.0.1', HEARTH_PORT: '0' });
    running.push(p);
    assert.match(p.listening, /^listening on http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.notEqual(p.port, 0);
    const me = await new Client(p.url, owner).get('/users/me');
    assert.equal(me.status, 200, 'serves the data dir from HEARTH_DATA_DIR');
    assert.equal(me.body.email, owner.email);
    assert.equal((await readFile(join(d, 'hearth.lock'), 'utf8')).trim(), String(p.pid));
    assert.equal((await stopWith(p, 'SIGTERM')).code, 0);

    // Flags beat the environment: a bad HEARTH_PORT and a foreign HEARTH_DATA_DIR are not used.
    const other = dir();
    const q = await startServe(['--data-dir', d, '--port', '0', '--host', '127.0.0.1'], {
      HEARTH_DATA_DIR: other,
      HEARTH_PORT: 'not-a-port',
      HEARTH_HOST: '256.0.0.1',
    });
    running.push(q);
    assert.equal((await new Client(q.url, owner).get('/users/me')).status, 200);
    assert.equal(existsSync(other), false, 'the HEARTH_DATA_DIR of the environment was not created');
    assert.equal((await stopWith(q, 'SIGINT')).code, 0);
  });

  it('refuses an invalid port, a port in use and an unknown command', async () => {
    const d = dir();
    const busyDir = dir();
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const busyPort = String((blocker.address() as AddressInfo).port);
    try {
      const [port, busy, cmd] = await Promise.all([
        runCli(['serve', '--data-dir', d, '--port', '70000']),
        runCli(['serve', '--data-dir', busyDir, '--host', '127.0.0.1', '--port', busyPort]),
        runCli(['frobnicate']),
      ]);
      assert.equal(port.code, 2);
      assert.match(oneLine(port), /invalid port '70000'/);
      assert.equal(existsSync(d), false, 'nothing was created');
      assert.notEqual(busy.code, 0);
      assert.equal(busy.stdout, '');
      assert.match(oneLine(busy), new RegExp(`EADDRINUSE.*${busyPort}`));
      assert.equal(existsSync(join(busyDir, 'hearth.lock')), false, 'the data dir is released');
      assert.equal(cmd.code, 2);
      assert.match(oneLine(cmd), /unknown command 'frobnicate'/);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('on all interfaces, prints http://localhost:PORT/ first (it opens on this computer), then the LAN addresses', async () => {
    const d = dir();
    const p = await startServe(['--data-dir', d, '--host', '0.0.0.0', '--port', '0']);
    running.push(p);
    assert.match(p.listening, /^listening on http:\/\/localhost:\d+\/$/);
    for (let i = 0; i < 100 && !/setup token: /.test(p.stdout()); i++) await new Promise((r) => setTimeout(r, 50));
    const lines = p.stdout().trim().split('\n');
    const lan = lanUrls('0.0.0.0', p.port).filter((u) => !u.includes('127.0.0.1'));
    assert.deepEqual(lines.slice(1, 1 + lan.length), lan.map((u) => `on the LAN: ${u}/`));
    // Then HTTPS (with --port 0, on a free port too), the same way.
    const https = /^listening on https:\/\/localhost:(\d+)\/$/.exec(lines[1 + lan.length] ?? '');
    assert.ok(https, lines.join('\n'));
    const tlsLan = lanUrls('0.0.0.0', Number(https[1])).filter((u) => !u.includes('127.0.0.1'));
    assert.deepEqual(lines.slice(2 + lan.length, 2 + lan.length + tlsLan.length), tlsLan.map((u) => `on the LAN: ${u.replace('http:', 'https:')}/`));
    assert.match(lines[2 + lan.length + tlsLan.length] ?? '', /^setup token: /);
    assert.match(p.stderr(), new RegExp(`open http://localhost:${p.port}/ on this computer`));
    // As printed, it opens on this computer without the setup token.
    const setup = await new Client(`http://localhost:${p.port}`, null).get('/hearth/setup');
    assert.equal(setup.body.setup_token_required, false);
    assert.equal((await stopWith(p, 'SIGTERM')).code, 0);
  });

  it('serves a data dir without an organization: server_settings answers, the API says it is not set up', async () => {
    const d = dir();
    const p = await serve(d);
    // The notice goes to stderr, which may arrive just after the "listening" line on stdout.
    for (let i = 0; i < 100 && !/No organization/.test(p.stderr()); i++) await new Promise((r) => setTimeout(r, 50));
    assert.match(p.stderr(), /No organization/);
    const anon = new Client(p.url, null);
    const settings = await anon.get('/server_settings');
    assert.equal(settings.status, 200);
    assert.equal(settings.body.realm_setup_required, true);
    assert.equal(settings.body.realm_name, '');
    assert.equal(settings.body.zulip_feature_level, 491);

    const someone = new Client(p.url, { id: 1, email: 'a@example.com', apiKey: 'x'.repeat(32), password: '' });
    const calls = [
      () => anon.get('/users/me'),
      () => someone.get('/users/me'),
      () => anon.post('/register'),
      () => someone.post('/register'),
      () => anon.post('/fetch_api_key', { username: 'a@example.com', password: 'whatever it is' }),
      () => someone.post('/drafts', { drafts: [] }),
    ];
    for (const call of calls) {
      const res = await call();
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.result, 'error');
      assert.equal(res.body.code, 'REALM_NOT_SET_UP');
      assert.match(res.body.msg, /no organization/);
    }
    // Unknown paths are still 404s.
    assert.equal((await anon.get('/nope')).status, 404);
    const users = join(d, 'users.json');
    if (existsSync(users)) assert.deepEqual(JSON.parse(await readFile(users, 'utf8')).users, [], 'nobody was created');
    assert.equal((await stopWith(p, 'SIGTERM')).code, 0);
  });

  it('refuses a second `serve` on the same data dir while the first runs', async () => {
    const d = dir();
    const owner = await initInProcess(d);
    const first = await serve(d);
    const second = await runCli(['serve', '--data-dir', d, '--host', '127.0.0.1', '--port', '0']);
    assert.notEqual(second.code, 0);
    assert.equal(second.stdout, '', 'it never listened');
    assert.match(oneLine(second), new RegExp(`in use by another Hearth server \\(pid ${first.pid}\\)`));
    assert.equal((await readFile(join(d, 'hearth.lock'), 'utf8')).trim(), String(first.pid), 'the lock is still the first server');
    assert.equal((await new Client(first.url, owner).get('/users/me')).status, 200, 'the first still serves');
    assert.equal((await stopWith(first, 'SIGTERM')).code, 0);
  });

  it('refuses to start on a corrupt data file, names it, and leaves it byte-for-byte unchanged', async () => {
    const cases: [string, string][] = [
      ['users.json', '{"nextId":'],
      ['drafts.json', '{"nextId": 1, "drafts": {}}'],
    ];
    const dirs = cases.map(() => dir());
    await Promise.all(dirs.map((d) => initInProcess(d)));
    await Promise.all(cases.map(([name, text], i) => writeFile(join(dirs[i]!, name), text)));
    const snapshots = await Promise.all(
      dirs.map(async (d) => {
        const out: Record<string, Buffer> = {};
        for (const f of await readdir(d)) if (f.endsWith('.json')) out[f] = await readFile(join(d, f));
        return out;
      }),
    );
    const results = await Promise.all(dirs.map((d) => runCli(['serve', '--data-dir', d, '--host', '127.0.0.1', '--port', '0'])));
    for (const [i, r] of results.entries()) {
      const [name] = cases[i]!;
      assert.notEqual(r.code, 0, name);
      assert.equal(r.stdout, '', `${name}: never listened`);
      const line = oneLine(r);
      assert.ok(line.includes(join(dirs[i]!, name)), `${name}: the message names the file: ${line}`);
      for (const [f, bytes] of Object.entries(snapshots[i]!)) {
        assert.deepEqual(await readFile(join(dirs[i]!, f)), bytes, `${f} unchanged after a refused start on a corrupt ${name}`);
      }
      assert.equal(existsSync(join(dirs[i]!, 'hearth.lock')), false, 'no lock left behind');
    }
  });
});
