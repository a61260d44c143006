import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../../server/app.js';
import { doCreateRealm } from '../../../server/actions/users.js';
import { silentLogger } from '../../../server/log.js';
import { Store } from '../../../server/store/store.js';
import { runCli, startServe, type ServeProcess } from '../../helpers/cli.js';
import { createChannel, stored } from '../../helpers/channels.js';
import { Client, startTestServer, type TestServer, assertError } from '../../helpers/server.js';

/**
 * Zulip's WEB_PUBLIC_STREAMS_ENABLED: the server switch (`hearth serve
 * --web-public-streams`, HEARTH_WEB_PUBLIC_STREAMS), how register and
 * server_settings announce it, and what it allows.
 */
describe('web-public channels: the server setting', { timeout: 120_000 }, () => {
  let root: string;
  const running: ServeProcess[] = [];
  let n = 0;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-webpublic-'));
  });
  after(async () => {
    await Promise.all(running.map((p) => p.kill9()));
    await rm(root, { recursive: true, force: true });
  });

  async function orgDir() {
    const dir = join(root, `d${++n}`);
    const store = await Store.open(dir);
    try {
      const { app } = createApp({ store, log: silentLogger });
      const u = await doCreateRealm(app, 'Org', { email: 'o@example.com', password: 'a long password', fullName: 'O' });
      return { dir, owner: { id: u.id, email: u.email, apiKey: u.api_key, password: 'a long password' } };
    } finally {
      await store.close();
    }
  }

  async function announced(extra: string[], env: Record<string, string> = {}) {
    const { dir, owner } = await orgDir();
    const p = await startServe(['--data-dir', dir, '--host', '127.0.0.1', '--port', '0', ...extra], env);
    running.push(p);
    const reg = await new Client(p.url, owner).post('/register', { fetch_event_types: ['realm', 'realm_user'] });
    assert.equal(reg.status, 200, JSON.stringify(reg.body));
    await p.kill9();
    return reg.body;
  }

  it('is off by default and announced in register as server_web_public_streams_enabled', async () => {
    const body = await announced([]);
    assert.equal(body.server_web_public_streams_enabled, false);
    assert.equal(body.can_create_web_public_streams, false);
  });

  it('is turned on by --web-public-streams or HEARTH_WEB_PUBLIC_STREAMS; the flag wins', async () => {
    assert.equal((await announced(['--web-public-streams'])).server_web_public_streams_enabled, true);
    assert.equal((await announced(['--web-public-streams=true'])).server_web_public_streams_enabled, true);
    assert.equal((await announced([], { HEARTH_WEB_PUBLIC_STREAMS: 'true' })).server_web_public_streams_enabled, true);
    assert.equal((await announced([], { HEARTH_WEB_PUBLIC_STREAMS: '1' })).server_web_public_streams_enabled, true);
    const off = await announced(['--web-public-streams=false'], { HEARTH_WEB_PUBLIC_STREAMS: 'true' });
    assert.equal(off.server_web_public_streams_enabled, false);
  });

  it('refuses a value that is not a boolean, with a one-line usage error', async () => {
    const { dir } = await orgDir();
    const r = await runCli(['serve', '--data-dir', dir, '--port', '0', '--web-public-streams=maybe']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--web-public-streams must be true or false, not 'maybe'/);
    const e = await runCli(['serve', '--data-dir', dir, '--port', '0'], { HEARTH_WEB_PUBLIC_STREAMS: 'sometimes' });
    assert.equal(e.code, 2);
    assert.match(e.stderr, /HEARTH_WEB_PUBLIC_STREAMS must be true or false/);
  });
});

describe('web-public channels: what the switches allow', () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer({ config: { webPublicStreamsEnabled: true } });
  });
  after(() => ts.stop());

  const settings = async () => (await ts.anonymous.get('/server_settings')).body;

  it('server_settings says realm_web_public_access_enabled only with every switch on and a web-public channel', async () => {
    const realm = ts.store.realm.data.realm!;
    assert.equal((await settings()).realm_web_public_access_enabled, false, 'no spectator access yet');
    const id = await createChannel(ts, ts.ownerClient, 'lobby');
    const refused = await ts.ownerClient.patch(`/streams/${id}`, { is_web_public: true });
    assertError(refused, /Web-public channels are not enabled/);
    assert.equal(stored(ts, id).is_web_public, false);

    realm.settings.enable_spectator_access = true;
    assert.equal((await settings()).realm_web_public_access_enabled, false, 'no web-public channel yet');
    const made = await ts.ownerClient.patch(`/streams/${id}`, { is_web_public: true });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    assert.equal(stored(ts, id).is_web_public, true);
    assert.equal((await settings()).realm_web_public_access_enabled, true);

    const spectator = await ts.anonymous.post('/register', { fetch_event_types: ['subscription', 'stream'] });
    assert.deepEqual(
      (spectator.body.subscriptions as { name: string }[]).map((s) => s.name),
      ['lobby'],
    );

    // The server setting turned off again (a restart without the flag): nothing is web-public for visitors.
    ts.app.config.webPublicStreamsEnabled = false;
    try {
      assert.equal((await settings()).realm_web_public_access_enabled, false);
      // No longer a web-public organization (Zulip's allow_web_public_streams_access): spectators are refused.
      const after = await ts.anonymous.post('/register', { fetch_event_types: ['subscription', 'stream'] });
      assert.equal(after.status, 401, JSON.stringify(after.body));
      assert.equal(after.body.code, 'UNAUTHORIZED');
      const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['realm'] });
      assert.equal(reg.body.server_web_public_streams_enabled, false);
    } finally {
      ts.app.config.webPublicStreamsEnabled = true;
      realm.settings.enable_spectator_access = false;
    }
  });

  it('refuses the spec error cases of a spectator register (include_subscribers=true, client_gravatar=true)', async () => {
    ts.store.realm.data.realm!.settings.enable_spectator_access = true;
    try {
      const subs = await ts.anonymous.post('/register', { include_subscribers: 'true' });
      assertError(subs, "Invalid 'include_subscribers' parameter for anonymous request");
      const gravatar = await ts.anonymous.post('/register', { client_gravatar: true });
      assertError(gravatar, "Invalid 'client_gravatar' parameter for anonymous request");
      const partial = await ts.anonymous.post('/register', { include_subscribers: 'partial', fetch_event_types: ['subscription'] });
      assert.equal(partial.status, 200, JSON.stringify(partial.body));
      assert.equal(partial.body.queue_id, null);
    } finally {
      ts.store.realm.data.realm!.settings.enable_spectator_access = false;
    }
  });
});
