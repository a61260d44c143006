import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_BULK_NEW_SUBSCRIPTION_MESSAGES } from '../../server/actions/subscription-notices.js';
import { createChannel } from '../helpers/channels.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';

describe('Notification Bot: "subscribed you to" notices (Zulip 11 send_new_subscription_messages)', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let samAcc: Account;
  let sam: Client;
  let annAcc: Account;
  let ann: Client;
  before(async () => {
    ts = await startTestServer();
    [{ account: melAcc, client: mel }, { account: samAcc, client: sam }, { account: annAcc, client: ann }] = await ts.people('Mel', 'Sam', 'Ann');
    await createChannel(ts, mel, 'kitchen');
    await createChannel(ts, mel, 'porch');
  });
  after(() => ts.stop());

  const botDms = async (c: Client) =>
    (await c.get('/messages', {
      anchor: 'newest', num_before: 20, num_after: 0, apply_markdown: 'false',
      narrow: JSON.stringify([{ operator: 'dm', operand: 'notification-bot@zulip.com' }]),
    })).body.messages as { content: string; flags: string[] }[];
  const subscribe = (c: Client, names: string[], principals: number[], extra: Record<string, string> = {}) =>
    c.post('/users/me/subscriptions', { subscriptions: JSON.stringify(names.map((name) => ({ name }))), principals: JSON.stringify(principals), ...extra });

  it('tells each person someone else subscribed, one message for all their channels, unread', async () => {
    const res = await subscribe(mel, ['kitchen', 'porch'], [samAcc.id, annAcc.id, melAcc.id], { send_new_subscription_messages: 'true' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.new_subscription_messages_sent, true);
    const expected = `@_**Mel|${melAcc.id}** subscribed you to the following channels:\n\n* #**kitchen**\n* #**porch**\n`;
    for (const c of [sam, ann]) {
      const dms = await botDms(c);
      assert.deepEqual(dms.map((m) => [m.content, m.flags]), [[expected, []]]);
    }
    assert.deepEqual(await botDms(mel), [], 'not the person who did it');
  });

  it('one channel reads "subscribed you to #**name**."; created channels, bots and opting out send nothing', async () => {
    await createChannel(ts, mel, 'garden');
    assert.equal((await subscribe(mel, ['garden'], [samAcc.id])).status, 200);
    assert.equal((await botDms(sam)).at(-1)!.content, `@_**Mel|${melAcc.id}** subscribed you to #**garden**.`);
    const before = (await botDms(ann)).length;
    const created = await subscribe(mel, ['brand-new'], [annAcc.id, melAcc.id]);
    assert.equal(created.status, 200);
    assert.equal((await botDms(ann)).length, before, 'a channel the request created: no notice (Zulip)');
    await createChannel(ts, mel, 'quiet');
    const quiet = await subscribe(mel, ['quiet'], [annAcc.id], { send_new_subscription_messages: 'false' });
    assert.equal(quiet.status, 200);
    assert.ok(!('new_subscription_messages_sent' in quiet.body), 'only when asked for with true');
    assert.equal((await botDms(ann)).length, before);
    const bot = await ts.ownerClient.post('/bots', { full_name: 'Helper Bot', short_name: 'helper' });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    assert.equal((await subscribe(mel, ['quiet'], [bot.body.user_id])).status, 200);
  });

  it('announce=true: new public channels are announced in the organization\'s new channels channel', async () => {
    const lobby = await createChannel(ts, ts.ownerClient, 'lobby');
    const latestInLobby = async () =>
      (await ts.ownerClient.get('/messages', {
        anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: 'false',
        narrow: JSON.stringify([{ operator: 'channel', operand: lobby }]),
      })).body.messages.at(-1) as { content: string; subject: string; sender_email: string } | undefined;
    // Off until an administrator names the channel.
    assert.equal((await mel.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'quiet-new' }]), announce: 'true' })).status, 200);
    assert.equal(await latestInLobby(), undefined);
    assert.equal((await mel.patch('/realm', { new_stream_announcements_stream_id: lobby })).status, 400, 'administrators only');
    assert.equal((await ts.ownerClient.patch('/realm', { new_stream_announcements_stream_id: 99999 })).body.msg, 'Invalid channel ID');
    assert.equal((await ts.ownerClient.patch('/realm', { new_stream_announcements_stream_id: lobby })).status, 200);
    assert.equal((await mel.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'recipes' }]), announce: 'true' })).status, 200);
    const one = (await latestInLobby())!;
    assert.deepEqual([one.sender_email, one.subject, one.content], ['notification-bot@zulip.com', 'new channels', `@_**Mel|${melAcc.id}** created a new channel #**recipes**.`]);
    assert.equal((await mel.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'alpha' }, { name: 'beta' }]), announce: 'true' })).status, 200);
    assert.equal((await latestInLobby())!.content, `@_**Mel|${melAcc.id}** created the following channels: #**alpha**, #**beta**.`);
    // Without announce, and for private channels, nothing.
    assert.equal((await mel.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'gamma' }]) })).status, 200);
    assert.equal((await mel.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'hush' }]), invite_only: 'true', announce: 'true' })).status, 200);
    assert.equal((await latestInLobby())!.content, `@_**Mel|${melAcc.id}** created the following channels: #**alpha**, #**beta**.`);
  });

  it(`above ${MAX_BULK_NEW_SUBSCRIPTION_MESSAGES} people, nothing is sent; register announces the limit`, async () => {
    const reg = await mel.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.max_bulk_new_subscription_messages, MAX_BULK_NEW_SUBSCRIPTION_MESSAGES);
    const many: Account[] = [];
    for (let i = 0; i <= MAX_BULK_NEW_SUBSCRIPTION_MESSAGES; i++) many.push(await ts.addUser(`Many${i}`));
    await createChannel(ts, mel, 'all-hands');
    const res = await subscribe(mel, ['all-hands'], many.map((a) => a.id), { send_new_subscription_messages: 'true' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.new_subscription_messages_sent, false);
    assert.equal(Object.keys(res.body.subscribed).length, MAX_BULK_NEW_SUBSCRIPTION_MESSAGES + 1);
    for (const a of [many[0]!, many.at(-1)!]) assert.deepEqual(await botDms(ts.client(a)), [], 'no notice for anyone');
  });
});
