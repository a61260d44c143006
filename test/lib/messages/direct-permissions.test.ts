import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { doCreateUser } from '../../../server/actions/users.js';
import { startTestServer, type Account, type Client, type TestServer } from '../../helpers/server.js';
import { verifyAction } from '../../helpers/verify-action.js';

/** The organization's direct-message permissions (Zulip 9.0: direct_message_permission_group, _initiator_group). */
describe('direct message permission settings', () => {
  let ts: TestServer;
  let admin: Client;
  let adminId: number;
  let mel: Client;
  let melId: number;
  let nora: Account;
  let botId: number;
  const id = (name: string) => ts.store.groups.data.groups.find((g) => g.name === name)!.id;
  const dm = (client: Client, to: number[]) => client.post('/messages', { type: 'direct', to: JSON.stringify(to), content: 'hi' });
  before(async () => {
    ts = await startTestServer();
    const a = await ts.addUser('Adam', 200);
    admin = ts.client(a);
    adminId = a.id;
    const m = await ts.addUser('Mel');
    mel = ts.client(m);
    melId = m.id;
    nora = await ts.addUser('Nora');
    const bot = await doCreateUser(ts.app, { email: 'echo-bot@example.com', fullName: 'Echo', password: null, role: 400, bot: { type: 1, ownerId: melId } });
    botId = bot.id;
  });
  after(() => ts.stop());

  it('both default to role:everyone and are announced when changed (verifyAction)', async () => {
    const reg = await mel.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_direct_message_permission_group, id('role:everyone'));
    assert.equal(reg.body.realm_direct_message_initiator_group, id('role:everyone'));
    await verifyAction(mel, () => admin.patch('/realm', { direct_message_permission_group: { new: id('role:administrators') } }), {
      fetch_event_types: ['realm'],
    });
    assert.equal(ts.store.realm.data.realm!.settings.direct_message_permission_group, id('role:administrators'));
  });

  it('permission group: a conversation needs someone in it who may authorize it', async () => {
    const before = ts.store.messages.size;
    const refused = await dm(mel, [nora.id]);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'This conversation does not include any users who can authorize it.');
    assert.equal(ts.store.messages.size, before, 'nothing stored');
    assert.equal((await dm(mel, [adminId])).status, 200, 'an administrator authorizes it');
    assert.equal((await dm(mel, [adminId, nora.id])).status, 200, 'a group conversation including one');
    assert.equal((await dm(mel, [melId])).status, 200, 'to oneself');
    assert.equal((await dm(mel, [botId])).status, 200, 'to a bot');

    assert.equal((await admin.patch('/realm', { direct_message_permission_group: { new: id('role:nobody') } })).status, 200);
    const disabled = await dm(mel, [adminId]);
    assert.equal(disabled.status, 400);
    assert.equal(disabled.body.msg, 'Direct messages are disabled in this organization.');
    assert.equal((await admin.patch('/realm', { direct_message_permission_group: { new: id('role:everyone') } })).status, 200);
  });

  it('initiator group: only its members start conversations; everyone may reply', async () => {
    assert.equal((await admin.patch('/realm', { direct_message_initiator_group: { new: id('role:administrators') } })).status, 200);
    const refused = await dm(mel, [nora.id]);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'You do not have permission to initiate direct message conversations.');
    const started = await dm(admin, [nora.id]);
    assert.equal(started.status, 200);
    assert.equal((await dm(ts.client(nora), [adminId])).status, 200, 'a reply in an existing conversation');
    assert.equal((await dm(mel, [adminId])).status, 200, 'an earlier conversation continues');
  });
});
