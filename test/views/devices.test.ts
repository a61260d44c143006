import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CALLERS, castOf, type Caller, type Cast } from '../helpers/people.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

let ts: TestServer;
let cast: Cast;
let mel: Client;

before(async () => {
  ts = await startTestServer();
  cast = await castOf(ts);
  mel = cast.client('member');
});
after(() => ts.stop());

interface DevicesFile {
  nextId: number;
  devices: { id: number; user_id: number }[];
  push_tokens: { user_id: number; kind: string; token: string; ios_app_id: string | null }[];
}
const stored = async (): Promise<DevicesFile> => JSON.parse(await readFile(join(ts.dataDir, 'devices.json'), 'utf8'));
const tokensOf = async (userId: number) => (await stored()).push_tokens.filter((t) => t.user_id === userId);

const APNS = 'c0ffee'.repeat(10) + 'c0ff'; // 64 hex digits, as the iOS app sends

describe('FCM tokens (POST/DELETE /users/me/android_gcm_reg_id)', () => {
  it('keeps a token, refreshes it when sent again, and removes it', async () => {
    const id = cast.member.id;
    assert.equal((await mel.post('/users/me/android_gcm_reg_id', { token: 'fcm-token-1' })).status, 200);
    assert.equal((await mel.post('/users/me/android_gcm_reg_id', { token: 'fcm-token-1' })).status, 200);
    assert.deepEqual(
      (await tokensOf(id)).map((t) => [t.kind, t.token]),
      [['fcm', 'fcm-token-1']],
    );
    const del = await mel.delete('/users/me/android_gcm_reg_id', { token: 'fcm-token-1' });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(await tokensOf(id), []);
    const again = await mel.delete('/users/me/android_gcm_reg_id', { token: 'fcm-token-1' });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'BAD_REQUEST');
    assert.equal(again.body.msg, 'Token does not exist');
  });

  it('registering and removing tokens changes no client state and sends no event (verifyAction)', async () => {
    for (const action of [
      () => mel.post('/users/me/android_gcm_reg_id', { token: 'quiet' }),
      () => mel.delete('/users/me/android_gcm_reg_id', { token: 'quiet' }),
      () => mel.post('/users/me/apns_device_token', { token: APNS, appid: 'org.zulip.Zulip' }),
      () => mel.delete('/users/me/apns_device_token', { token: APNS }),
    ]) {
      const events = await verifyAction(mel, async () => assert.equal((await action()).status, 200));
      assert.deepEqual(events, []);
    }
  });

  it('an empty or over-long token is a BAD_REQUEST saying so; 4096 characters are accepted', async () => {
    const before = (await stored()).push_tokens.length;
    for (const token of ['', 'x'.repeat(4097), 'é'.repeat(4097)]) {
      for (const method of ['POST', 'DELETE']) {
        const res = await mel.call(method, '/users/me/android_gcm_reg_id', { token });
        assert.equal(res.status, 400, `${method} ${token.length}`);
        assert.equal(res.body.code, 'BAD_REQUEST');
        assert.equal(res.body.msg, 'Empty or invalid length token');
      }
    }
    const missing = await mel.post('/users/me/android_gcm_reg_id');
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.equal((await stored()).push_tokens.length, before);
    assert.equal((await mel.post('/users/me/android_gcm_reg_id', { token: 'y'.repeat(4096) })).status, 200);
    assert.equal((await stored()).push_tokens.length, before + 1);
  });

  it('a token registered by someone else moves to the account now logged in on the phone', async () => {
    const other = ts.client(cast.moderator);
    await mel.post('/users/me/android_gcm_reg_id', { token: 'shared-phone' });
    await other.post('/users/me/android_gcm_reg_id', { token: 'shared-phone' });
    const rows = (await stored()).push_tokens.filter((t) => t.token === 'shared-phone');
    assert.deepEqual(
      rows.map((t) => t.user_id),
      [cast.moderator.id],
    );
    // Removing someone else's token is refused as unknown.
    assert.equal((await mel.delete('/users/me/android_gcm_reg_id', { token: 'shared-phone' })).body.msg, 'Token does not exist');
  });
});

describe('APNs tokens (POST/DELETE /users/me/apns_device_token)', () => {
  it('tokens are hex, as Python bytes.fromhex reads them in current Zulip (pairs, white space between pairs)', async () => {
    for (const token of ['c0ffee', 'C0FFEE', 'c0 ff ee', ' c0ffee\n']) {
      const res = await mel.post('/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' });
      assert.equal(res.status, 200, `${JSON.stringify(token)}: ${JSON.stringify(res.body)}`);
      assert.equal((await mel.delete('/users/me/apns_device_token', { token })).status, 200);
    }
    // Odd length, a space inside a pair, not hex, and base64 (what Zulip once accepted).
    for (const token of ['c0ffe', 'c 0ffee', 'zz', 'wP/u', 'c0ffee==']) {
      const res = await mel.post('/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' });
      assert.equal(res.status, 400, JSON.stringify(token));
      assert.equal(res.body.msg, 'Invalid APNS token');
    }
  });

  it('needs a decodable token and a valid app ID, and keeps the app ID', async () => {
    const ok = await mel.post('/users/me/apns_device_token', { token: APNS, appid: 'org.zulip.Zulip' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const row = (await tokensOf(cast.member.id)).find((t) => t.kind === 'apns')!;
    assert.equal(row.token, APNS);
    assert.equal(row.ios_app_id, 'org.zulip.Zulip');
    const cases: [Record<string, string>, string][] = [
      [{ token: APNS }, "Missing 'appid' argument"],
      [{ token: APNS, appid: 'bad app/id' }, 'Invalid app ID'],
      [{ token: 'abc', appid: 'org.zulip.Zulip' }, 'Invalid APNS token'],
      [{ token: '', appid: 'org.zulip.Zulip' }, 'Empty or invalid length token'],
    ];
    for (const [params, msg] of cases) {
      const res = await mel.post('/users/me/apns_device_token', params);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.msg, msg);
    }
    assert.equal((await mel.delete('/users/me/apns_device_token', { token: APNS })).status, 200);
    assert.equal((await tokensOf(cast.member.id)).filter((t) => t.kind === 'apns').length, 0);
    // An FCM token of the same text is a different registration.
    assert.equal((await mel.delete('/users/me/apns_device_token', { token: 'abcd' })).body.msg, 'Token does not exist');
  });
});

describe('POST /register_client_device and the devices register section', () => {
  it('answers a new device_id, stored and announced to the user (verifyAction)', async () => {
    let id = 0;
    const events = await verifyAction(mel, async () => {
      const res = await mel.post('/register_client_device');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.device_id;
    });
    assert.equal(typeof id, 'number');
    assert.ok(events.some((e) => e.type === 'device' && e.op === 'add' && e.device_id === id), JSON.stringify(events));
    const second = await mel.post('/register_client_device');
    assert.ok(second.body.device_id > id);
    const file = await stored();
    assert.deepEqual(
      file.devices.filter((d) => d.user_id === cast.member.id).map((d) => d.id),
      [id, second.body.device_id],
    );
    const reg = await mel.post('/register', { fetch_event_types: ['device'] });
    assert.deepEqual(Object.keys(reg.body.devices), [String(id), String(second.body.device_id)]);
    assert.deepEqual(reg.body.devices[String(id)], {
      push_key_id: null,
      push_token_id: null,
      pending_push_token_id: null,
      push_token_last_updated_timestamp: null,
      push_registration_error_code: null,
    });
    // No end-to-end-encrypted push registrations exist (Hearth relays no push notifications).
    const push = await mel.post('/register', { fetch_event_types: ['push_device'] });
    assert.deepEqual(push.body.push_devices, {});
    // Another user's register does not show them.
    const other = await ts.client(cast.admin).post('/register', { fetch_event_types: ['device'] });
    assert.deepEqual(other.body.devices, {});
  });
});

describe('devices role matrix', () => {
  const human = (c: Caller) => !['bot', 'deactivated', 'anonymous'].includes(c);
  for (const caller of CALLERS) {
    it(`push tokens and devices as ${caller}`, async () => {
      const client = cast.client(caller);
      const before = await stored();
      const token = `token-of-${caller}`;
      const results = [
        await client.post('/users/me/android_gcm_reg_id', { token }),
        await client.post('/users/me/apns_device_token', { token: APNS, appid: 'org.zulip.Zulip' }),
        await client.delete('/users/me/apns_device_token', { token: APNS }),
        await client.delete('/users/me/android_gcm_reg_id', { token }),
      ];
      const device = await client.post('/register_client_device');
      for (const res of results) {
        if (human(caller)) assert.equal(res.status, 200, `${caller}: ${JSON.stringify(res.body)}`);
        else if (caller === 'bot') assert.equal(res.body.msg, 'This endpoint does not accept bot requests.');
        else if (caller === 'deactivated') assert.equal(res.body.code, 'UNAUTHORIZED');
        else assert.equal(res.body.code, 'UNAUTHORIZED');
      }
      const after = await stored();
      assert.equal(after.push_tokens.length, before.push_tokens.length, 'added then removed, or refused');
      if (caller === 'deactivated' || caller === 'anonymous') {
        assert.equal(device.status, 401);
        assert.equal(after.devices.length, before.devices.length);
      } else {
        assert.equal(device.status, 200, JSON.stringify(device.body));
        assert.equal(after.devices.at(-1)!.id, device.body.device_id);
        assert.equal(after.devices.at(-1)!.user_id, cast[caller as Exclude<Caller, 'anonymous'>].id);
      }
    });
  }
});
