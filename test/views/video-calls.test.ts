import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CALLERS, castOf, type Caller, type Cast } from '../helpers/people.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

let ts: TestServer;
let cast: Cast;
let owner: Client;
let mel: Client;

const SECRET = 'bbb-shared-secret-0123456789';

/** A stand-in BigBlueButton server: checks every call's checksum as BigBlueButton does. */
interface FakeBbb {
  url: string;
  calls: URL[];
  mode: 'ok' | 'checksum' | 'fail';
  server: Server;
}
let bbb: FakeBbb;

const checksumOk = (call: string, url: URL) => {
  const raw = url.search.slice(1);
  const at = raw.lastIndexOf('&checksum=');
  const query = raw.slice(0, at);
  return createHash('sha256').update(`${call}${query}${SECRET}`).digest('hex') === raw.slice(at + '&checksum='.length);
};

async function startFakeBbb(): Promise<FakeBbb> {
  const fake: FakeBbb = { url: '', calls: [], mode: 'ok', server: null as unknown as Server };
  fake.server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    fake.calls.push(url);
    res.setHeader('content-type', 'text/xml');
    if (url.pathname !== '/bigbluebutton/api/create' || fake.mode === 'checksum' || !checksumOk('create', url)) {
      res.end('<response><returncode>FAILED</returncode><messageKey>checksumError</messageKey></response>');
    } else if (fake.mode === 'fail') {
      res.end('<response><returncode>FAILED</returncode><messageKey>idNotUnique</messageKey></response>');
    } else {
      res.end('<response><returncode>SUCCESS</returncode><meetingID>m</meetingID><createTime>1700000000000</createTime></response>');
    }
  });
  await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/bigbluebutton/`;
  return fake;
}

before(async () => {
  ts = await startTestServer();
  cast = await castOf(ts);
  owner = ts.ownerClient;
  mel = cast.client('member');
  bbb = await startFakeBbb();
  // A new organization calls with Hearth's own provider (test/views/hearth-calls.test.ts); these are Jitsi's and BigBlueButton's.
  assert.equal((await owner.patch('/realm', { video_chat_provider: 1 })).status, 200);
});
after(async () => {
  await new Promise((r) => bbb.server.close(r));
  await ts.stop();
});

const realmFile = async () => JSON.parse(await readFile(join(ts.dataDir, 'realm.json'), 'utf8')).realm.settings;
const setProvider = async (id: number) => assert.equal((await owner.patch('/realm', { video_chat_provider: id })).status, 200);

/** GET a join link without following the redirect. */
async function openLink(account: Account, path: string) {
  const res = await fetch(`${ts.url}${path}`, {
    redirect: 'manual',
    headers: { authorization: `Basic ${Buffer.from(`${account.email}:${account.apiKey}`).toString('base64')}` },
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json');
  return { status: res.status, location: res.headers.get('location'), body: json ? JSON.parse(text) : text };
}

describe('Jitsi Meet (the default provider)', () => {
  it('POST /calls/videocall/create answers a room on the server default, named after the conversation', async () => {
    const res = await mel.post('/calls/videocall/create', { room_name: 'Design review: café' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.url, /^https:\/\/meet\.jit\.si\/Design-review-cafe-\d{12}$/);
    const again = await mel.post('/calls/videocall/create', { room_name: 'Design review: café' });
    assert.notEqual(again.body.url, res.body.url);
    const missing = await mel.post('/calls/videocall/create');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    const reg = await mel.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_video_chat_provider, 1);
    assert.equal(reg.body.realm_jitsi_server_url, null);
    assert.equal(reg.body.server_jitsi_server_url, 'https://meet.jit.si');
    assert.equal(reg.body.jitsi_server_url, 'https://meet.jit.si');
    assert.equal(reg.body.realm_available_video_chat_providers.big_blue_button.id, 4);
    await mel.delete('/events', { queue_id: reg.body.queue_id });
  });

  it('an administrator sets a LAN Jitsi server (PATCH /realm jitsi_server_url, verifyAction); "default" resets it', async () => {
    const events = await verifyAction(mel, async () => {
      const res = await owner.patch('/realm', { jitsi_server_url: JSON.stringify('https://jitsi.lan:8443/') });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.deepEqual(
      events.filter((e) => e.type === 'realm').map((e) => [e.property, e.value]),
      [['jitsi_server_url', 'https://jitsi.lan:8443']],
    );
    assert.equal((await realmFile()).jitsi_server_url, 'https://jitsi.lan:8443');
    const link = await mel.post('/calls/videocall/create', { room_name: 'standup' });
    assert.match(link.body.url, /^https:\/\/jitsi\.lan:8443\/standup-\d{12}$/);
    const bad = await owner.patch('/realm', { jitsi_server_url: JSON.stringify('not a url') });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.msg, 'jitsi_server_url is not an allowed_type');
    assert.equal((await realmFile()).jitsi_server_url, 'https://jitsi.lan:8443');
    await verifyAction(mel, async () => {
      assert.equal((await owner.patch('/realm', { jitsi_server_url: JSON.stringify('default') })).status, 200);
    });
    assert.equal((await realmFile()).jitsi_server_url, null);
    assert.match((await mel.post('/calls/videocall/create', { room_name: 'x' })).body.url, /^https:\/\/meet\.jit\.si\//);
  });

  it('with the provider set to None, creating a call is a clear BAD_REQUEST', async () => {
    await setProvider(0);
    const res = await mel.post('/calls/videocall/create', { room_name: 'x' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'BAD_REQUEST');
    assert.match(res.body.msg, /Video calls are disabled/);
    await setProvider(1);
  });
});

describe('BigBlueButton', () => {
  it('unconfigured: both create paths answer a clear BAD_REQUEST', async () => {
    await setProvider(4);
    for (const res of [
      await mel.post('/calls/videocall/create', { room_name: 'x' }),
      await mel.get('/calls/bigbluebutton/create', { meeting_name: 'x' }),
    ]) {
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.match(res.body.msg, /BigBlueButton is not configured/);
    }
  });

  it('an administrator configures URL and secret: stored, never sent to clients (verifyAction)', async () => {
    const events = await verifyAction(mel, async () => {
      const res = await owner.patch('/realm', { bigbluebutton_url: bbb.url, bigbluebutton_secret: SECRET });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(JSON.stringify(res.body).includes(SECRET), false);
    });
    assert.deepEqual(events.filter((e) => e.type === 'realm'), []);
    const stored = await realmFile();
    assert.equal(stored.bigbluebutton_url, bbb.url);
    assert.equal(stored.bigbluebutton_secret, SECRET);
    const reg = await owner.post('/register');
    assert.equal(JSON.stringify(reg.body).includes(SECRET), false);
    await owner.delete('/events', { queue_id: reg.body.queue_id });
    const bad = await owner.patch('/realm', { bigbluebutton_url: 'ftp://x' });
    assert.equal(bad.status, 400);
    assert.equal((await realmFile()).bigbluebutton_url, bbb.url);
  });

  it("answers Zulip's signed join link; joining creates the meeting and redirects, the creator as moderator", async () => {
    const res = await mel.post('/calls/videocall/create', { room_name: 'Sprint planning' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const m = /^\/calls\/bigbluebutton\/join\?bigbluebutton=([^&]+)$/.exec(res.body.url);
    assert.ok(m, res.body.url);
    const signed = decodeURIComponent(m[1]!);
    const [value, sig] = signed.split(':') as [string, string];
    // Django's Signer: base64url(JSON) ":" base64url(HMAC-SHA256 keyed by sha256("django.core.signingsigner" + key)).
    const key = createHash('sha256').update(`django.core.signingsignerhearth-bigbluebutton-join:${SECRET}`).digest();
    assert.equal(sig, createHmac('sha256', key).update(value).digest('base64url'));
    const data = JSON.parse(Buffer.from(value, 'base64url').toString());
    assert.match(data.meeting_id, /^zulip-\d{12}$/);
    assert.equal(data.name, 'Sprint planning');
    assert.equal(data.moderator, cast.member.id);
    assert.equal(data.lock_settings_disable_cam, false);

    bbb.calls = [];
    const creator = await openLink(cast.member, res.body.url);
    assert.equal(creator.status, 302, JSON.stringify(creator.body));
    const create = bbb.calls[0]!;
    assert.equal(create.searchParams.get('meetingID'), data.meeting_id);
    assert.equal(create.searchParams.get('name'), 'Sprint planning');
    assert.ok(create.search.includes('name=Sprint%20planning'), create.search);
    const target = new URL(creator.location!);
    assert.equal(`${target.origin}${target.pathname}`, `${bbb.url}api/join`);
    assert.ok(checksumOk('join', target), 'join checksum');
    assert.equal(target.searchParams.get('role'), 'MODERATOR');
    assert.equal(target.searchParams.get('meetingID'), data.meeting_id);
    assert.equal(target.searchParams.get('createTime'), '1700000000000');
    assert.equal(target.searchParams.get('fullName'), ts.store.users.get(cast.member.id)!.full_name);
    const viewer = await openLink(cast.guest, res.body.url);
    assert.equal(new URL(viewer.location!).searchParams.get('role'), 'VIEWER');
  });

  it('GET /calls/bigbluebutton/create as Zulip clients call it, with voice_only', async () => {
    const res = await mel.get('/calls/bigbluebutton/create', { meeting_name: 'voice chat', voice_only: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    bbb.calls = [];
    const joined = await openLink(cast.member, res.body.url);
    assert.equal(joined.status, 302);
    assert.equal(bbb.calls[0]!.searchParams.get('lockSettingsDisableCam'), 'true');
    assert.equal((await mel.get('/calls/bigbluebutton/create')).body.code, 'REQUEST_VARIABLE_MISSING');
  });

  it('a tampered link, a refusing server and an unreachable one are clear errors', async () => {
    const res = await mel.post('/calls/videocall/create', { room_name: 'r' });
    const tampered = res.body.url.replace(/bigbluebutton=./, 'bigbluebutton=A');
    const bad = await openLink(cast.member, tampered);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.msg, 'Invalid signature.');
    assert.equal((await openLink(cast.member, '/calls/bigbluebutton/join?bigbluebutton=nocolon')).body.msg, 'Invalid signature.');
    bbb.mode = 'checksum';
    assert.equal((await openLink(cast.member, res.body.url)).body.msg, 'Error authenticating to the BigBlueButton server.');
    bbb.mode = 'fail';
    assert.equal((await openLink(cast.member, res.body.url)).body.msg, 'BigBlueButton server returned an unexpected error.');
    bbb.mode = 'ok';
    // A new secret voids the links signed with the old one.
    await owner.patch('/realm', { bigbluebutton_secret: 'another secret' });
    assert.equal((await openLink(cast.member, res.body.url)).body.msg, 'Invalid signature.');
    await owner.patch('/realm', { bigbluebutton_secret: SECRET, bigbluebutton_url: 'http://127.0.0.1:9/bigbluebutton/' });
    assert.equal((await openLink(cast.member, res.body.url)).body.msg, 'Error connecting to the BigBlueButton server.');
    await owner.patch('/realm', { bigbluebutton_url: bbb.url });
    const anon = await fetch(`${ts.url}${res.body.url}`, { redirect: 'manual' });
    assert.equal(anon.status, 401);
  });
});

describe('video calls role matrix', () => {
  const ok = (c: Caller) => !['deactivated', 'anonymous'].includes(c);
  for (const caller of CALLERS) {
    it(`create a call, and configure calls, as ${caller}`, async () => {
      await setProvider(1);
      const client = cast.client(caller);
      const res = await client.post('/calls/videocall/create', { room_name: `room of ${caller}` });
      if (ok(caller)) {
        assert.equal(res.status, 200, `${caller}: ${JSON.stringify(res.body)}`);
        assert.match(res.body.url, /^https:\/\/meet\.jit\.si\/room-of-/);
      } else {
        assert.equal(res.status, 401);
        assert.equal(res.body.code, caller === 'deactivated' ? 'UNAUTHORIZED' : 'UNAUTHORIZED');
      }
      const url = `https://jitsi-${caller}.lan`;
      const set = await client.patch('/realm', { jitsi_server_url: JSON.stringify(url), bigbluebutton_secret: `s-${caller}` });
      const stored = await realmFile();
      if (caller === 'owner' || caller === 'admin') {
        assert.equal(set.status, 200, JSON.stringify(set.body));
        assert.equal(stored.jitsi_server_url, url);
        assert.equal(stored.bigbluebutton_secret, `s-${caller}`);
      } else {
        assert.ok(set.status === 400 || set.status === 401, JSON.stringify(set.body));
        if (ok(caller)) assert.equal(set.body.msg, 'Must be an organization administrator');
        assert.notEqual(stored.jitsi_server_url, url);
        assert.notEqual(stored.bigbluebutton_secret, `s-${caller}`);
      }
      await owner.patch('/realm', { jitsi_server_url: JSON.stringify('default'), bigbluebutton_secret: SECRET });
    });
  }

  it('BigBlueButton create and join against the eight callers', async () => {
    await setProvider(4);
    const link = (await mel.get('/calls/bigbluebutton/create', { meeting_name: 'matrix' })).body.url as string;
    for (const caller of CALLERS) {
      const client = cast.client(caller);
      const created = await client.get('/calls/bigbluebutton/create', { meeting_name: `by ${caller}` });
      const viaNeutral = await client.post('/calls/videocall/create', { room_name: `by ${caller}` });
      const account = caller === 'anonymous' ? null : cast[caller];
      const joined = account ? await openLink(account, link) : { status: (await fetch(`${ts.url}${link}`, { redirect: 'manual' })).status, location: null };
      if (ok(caller)) {
        assert.equal(created.status, 200, `${caller}: ${JSON.stringify(created.body)}`);
        assert.match(created.body.url, /^\/calls\/bigbluebutton\/join\?bigbluebutton=/);
        assert.match(viaNeutral.body.url, /^\/calls\/bigbluebutton\/join\?bigbluebutton=/);
        assert.equal(joined.status, 302, caller);
        const role = new URL(joined.location!).searchParams.get('role');
        assert.equal(role, caller === 'member' ? 'MODERATOR' : 'VIEWER', caller);
      } else {
        for (const res of [created, viaNeutral]) {
          assert.equal(res.status, 401, caller);
          assert.equal(res.body.code, caller === 'deactivated' ? 'UNAUTHORIZED' : 'UNAUTHORIZED');
        }
        assert.equal(joined.status, 401, caller);
      }
    }
    await setProvider(1);
  });

  it('an incoming-webhook bot may not create calls', async () => {
    const res = await mel.post('/bots', { full_name: 'CI hook', short_name: 'ci', bot_type: 2 });
    const hook = ts.client({ id: res.body.user_id, email: 'ci-bot@hearth.local', apiKey: res.body.api_key, password: '' });
    const call = await hook.post('/calls/videocall/create', { room_name: 'x' });
    assert.equal(call.status, 401);
    assert.equal(call.body.msg, 'This API is not available to incoming webhook bots.');
  });
});
