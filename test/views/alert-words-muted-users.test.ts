import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FLAG } from '../../server/store/message-records.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

describe('alert words and muted users', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  before(async () => {
    ts = await startTestServer();
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    await createChannel(ts, sam, 'hall', { principals: [] });
    for (const c of [mel, sam]) await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'hall' }] });
  });
  after(() => ts.stop());

  const flags = (id: number, userId: number) => ts.store.messages.rowFlags(ts.store.messages.get(id)!, userId)!;

  it('adds and removes alert words (verifyAction), case-insensitively deduplicated, validated', async () => {
    let res: Awaited<ReturnType<Client['post']>> | undefined;
    const events = await verifyAction(mel, async () => {
      res = await mel.post('/users/me/alert_words', { alert_words: JSON.stringify(['Deploy', 'lunch', 'deploy']) });
    }, { fetch_event_types: ['alert_words'] });
    assert.deepEqual(res!.body.alert_words, ['Deploy', 'lunch']);
    assert.deepEqual(events.map((e) => e.alert_words), [['Deploy', 'lunch']]);
    assert.deepEqual((await mel.get('/users/me/alert_words')).body.alert_words, ['Deploy', 'lunch']);
    const bad = await mel.post('/users/me/alert_words', { alert_words: JSON.stringify(['x'.repeat(101)]) });
    assert.equal(bad.status, 400);
    assert.match(bad.body.msg, /too long/);
    const blank = await mel.post('/users/me/alert_words', { alert_words: JSON.stringify(['  ']) });
    assert.equal(blank.status, 400);
    await verifyAction(mel, () => mel.delete('/users/me/alert_words', { alert_words: JSON.stringify(['LUNCH']) }), { fetch_event_types: ['alert_words'] });
    assert.deepEqual(ts.store.users.get(melAcc.id)!.alert_words, ['Deploy']);
  });

  it('flags messages containing an alert word as a word (has_alert_word, is:alerted)', async () => {
    const hit = await sendStream(sam, 'hall', 't', 'We DEPLOY at noon.');
    const miss = await sendStream(sam, 'hall', 't', 'redeployment is different');
    assert.ok(flags(hit, melAcc.id) & FLAG.has_alert_word);
    assert.equal(flags(miss, melAcc.id) & FLAG.has_alert_word, 0);
    assert.equal(flags(hit, samAcc.id) & FLAG.has_alert_word, 0, 'only for the word\'s owner');
    const alerted = await mel.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'alerted' }]) });
    assert.deepEqual(alerted.body.messages.map((m: { id: number }) => m.id), [hit]);
  });

  it('mutes and unmutes a user (verifyAction); their new messages arrive read', async () => {
    const events = await verifyAction(mel, () => mel.post(`/users/me/muted_users/${samAcc.id}`), { fetch_event_types: ['muted_users', 'update_message_flags', 'message'] });
    assert.deepEqual((events[0]!.muted_users as { id: number }[]).map((m) => m.id), [samAcc.id]);
    const dm = await sendDirect(sam, [melAcc.id], 'you muted me');
    assert.ok(flags(dm, melAcc.id) & FLAG.read);
    const errors: [string, string][] = [
      [`/users/me/muted_users/${samAcc.id}`, 'User already muted'],
      [`/users/me/muted_users/${melAcc.id}`, 'Cannot mute self'],
      ['/users/me/muted_users/424242', 'No such user'],
    ];
    for (const [path, msg] of errors) {
      const res = await mel.post(path);
      assert.equal(res.status, 400);
      assert.equal(res.body.msg, msg);
    }
    await verifyAction(mel, () => mel.delete(`/users/me/muted_users/${samAcc.id}`), { fetch_event_types: ['muted_users'] });
    assert.equal(ts.store.users.get(melAcc.id)!.muted_users, undefined);
    assert.equal((await mel.delete(`/users/me/muted_users/${samAcc.id}`)).body.msg, 'User is not muted');
    const after = await sendDirect(sam, [melAcc.id], 'unmuted');
    assert.equal(flags(after, melAcc.id) & FLAG.read, 0);
  });
});
