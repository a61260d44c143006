/**
 * Zulip endpoints for what Hearth does not offer (push notification relay, development
 * login) answer as a Zulip server without that
 * service would, with a JSON error a client can show, never the router's 404.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';

describe('endpoints of services Hearth does not run', () => {
  let ts: TestServer;
  let mel: Client;
  let melId: number;
  before(async () => {
    ts = await startTestServer();
    const [p] = await ts.people('Mel');
    mel = p.client;
    melId = p.account.id;
  });
  after(() => ts.stop());

  it('E2EE push registration: PUSH_SERVICE_NOT_CONFIGURED, as Zulip without the push service', async () => {
    const res = await mel.post('/mobile_push/register', { token_kind: 'fcm', push_account_id: 7, push_public_key: 'k', bouncer_public_key: 'b', encrypted_push_registration: 'e' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'PUSH_SERVICE_NOT_CONFIGURED');
    assert.equal(res.body.msg, 'Server is not configured to use push notification service.');
  });

  it('test notifications: an unknown token is not recognized; a registered one cannot be reached', async () => {
    const unknown = await mel.post('/mobile_push/test_notification', { token: 'never-registered' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'INVALID_PUSH_DEVICE_TOKEN');
    assert.equal((await mel.post('/users/me/android_gcm_reg_id', { token: 'mel-phone' })).status, 200);
    const known = await mel.post('/mobile_push/test_notification', { token: 'mel-phone' });
    assert.equal(known.body.code, 'PUSH_SERVICE_NOT_CONFIGURED');
    const e2ee = await mel.post('/mobile_push/e2ee/test_notification');
    assert.equal(e2ee.status, 400);
    assert.equal(e2ee.body.code, 'NO_ACTIVE_PUSH_DEVICE');
  });

  it('development login: "Endpoint not available in production."', async () => {
    for (const res of [await ts.anonymous.post('/dev_fetch_api_key', { username: ts.owner.email }), await ts.anonymous.get('/dev_list_users')]) {
      assert.equal(res.status, 400);
      assert.equal(res.body.msg, 'Endpoint not available in production.');
    }
  });

  it("organization export consents: administrators see each person's setting", async () => {
    assert.equal((await mel.get('/export/realm/consents')).body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.deepEqual((await ts.ownerClient.get('/export/realm')).body.exports, []);
    assert.equal((await mel.patch('/settings', { allow_private_data_export: true })).status, 200);
    const consents = (await ts.ownerClient.get('/export/realm/consents')).body.export_consents as { user_id: number; consented: boolean }[];
    assert.deepEqual(
      consents.sort((a, b) => a.user_id - b.user_id),
      [
        { user_id: ts.owner.id, consented: false, email_address_visibility: 1 },
        { user_id: melId, consented: true, email_address_visibility: 1 },
      ],
    );
  });
});
