import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

describe('POST /messages/{id}/report (Zulip 11)', () => {
  let ts: TestServer;
  const t0 = Date.UTC(2026, 9, 5, 10, 30, 0);
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let annAcc: Account;
  let modChannel: number;
  before(async () => {
    ts = await startTestServer({ clock: { now: () => t0 } });
    [{ account: melAcc, client: mel }, { account: samAcc, client: sam }, { account: annAcc }] = await ts.people('Mel', 'Sam', 'Ann');
    await createChannel(ts, sam, 'kitchen', { principals: JSON.stringify([melAcc.id, samAcc.id]) });
    modChannel = await createChannel(ts, ts.ownerClient, 'moderation', { invite_only: true });
  });
  after(() => ts.stop());

  const mention = (a: Account, name: string) => `@_**${name}|${a.id}**`;
  const when = `<time:${new Date(t0).toISOString()}>`;
  const latestReport = async () =>
    (await fetchMessages(ts.ownerClient, {
      anchor: 'newest', num_before: 1, num_after: 0, apply_markdown: false,
      narrow: JSON.stringify([{ operator: 'channel', operand: modChannel }]),
    })).messages.at(-1) as { content: string; subject: string; sender_email: string; flags: string[] };

  it('is off until an administrator names a private channel (realm update event)', async () => {
    const msg = await sendStream(sam, 'kitchen', 'lunch', 'you all smell');
    const off = await mel.post(`/messages/${msg}/report`, { report_type: 'harassment' });
    assert.equal(off.status, 400);
    assert.equal(off.body.msg, 'Moderation request channel must be specified to enable message reporting.');
    const reg = await mel.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_moderation_request_channel_id, -1);
    const kitchen = ts.store.channels.data.channels.find((c) => c.name === 'kitchen')!.id;
    assert.equal((await ts.ownerClient.patch('/realm', { moderation_request_channel_id: kitchen })).body.msg, 'Moderation request channel must be private.');
    assert.equal((await ts.ownerClient.patch('/realm', { moderation_request_channel_id: 9999 })).body.msg, 'Invalid channel ID');
    assert.equal((await mel.patch('/realm', { moderation_request_channel_id: modChannel })).status, 400, 'administrators only');
    const events = await verifyAction(mel, async () => {
      const res = await ts.ownerClient.patch('/realm', { moderation_request_channel_id: modChannel });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }, { fetch_event_types: ['realm'] });
    assert.deepEqual(events.map((e) => [e.type, e.op, e.property, e.value]), [['realm', 'update', 'moderation_request_channel_id', modChannel]]);
  });

  it('a channel message: the Notification Bot posts the report where moderators see it, as Zulip words it', async () => {
    const msg = await sendStream(sam, 'kitchen', 'lunch', 'rude words');
    const res = await mel.post(`/messages/${msg}/report`, { report_type: 'harassment', description: 'Not the first time.' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const report = await latestReport();
    assert.equal(report.sender_email, 'notification-bot@zulip.com');
    assert.equal(report.subject, 'Sam moderation');
    assert.equal(
      report.content,
      `${mention(melAcc, 'Mel')} reported a message sent by ${mention(samAcc, 'Sam')} at ${when}.\n\`\`\`quote\n**Harassment**. Not the first time.\n\`\`\`\n\n\`\`\` spoiler Original message at #**kitchen>lunch@${msg}**\nrude words\n\`\`\`\n`,
    );
    assert.deepEqual(report.flags, [], 'unread for the moderators');
    // The reporter cannot read the moderation channel.
    const seen = await fetchMessages(mel, { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: modChannel }]) }).catch(() => null);
    assert.ok(!seen || seen.messages.length === 0);
  });

  it('direct messages name the conversation', async () => {
    const dm = await sendDirect(sam, [melAcc.id], 'psst, rude');
    assert.equal((await mel.post(`/messages/${dm}/report`, { report_type: 'spam' })).status, 200);
    assert.equal(
      (await latestReport()).content,
      `${mention(melAcc, 'Mel')} reported a direct message sent by ${mention(samAcc, 'Sam')} at ${when}.\n\`\`\`quote\n**Spam**. \n\`\`\`\n\n\`\`\` spoiler [Original message](/#narrow/id/${dm})\npsst, rude\n\`\`\`\n`,
    );
    const group = await sendDirect(sam, [melAcc.id, annAcc.id], 'group rude');
    assert.equal((await mel.post(`/messages/${group}/report`, { report_type: 'norms' })).status, 200);
    const expectedTo = [mention(annAcc, 'Ann'), mention(melAcc, 'Mel')].sort();
    assert.ok((await latestReport()).content.startsWith(`${mention(melAcc, 'Mel')} reported a direct message sent by ${mention(samAcc, 'Sam')} to ${expectedTo[0]} and ${expectedTo[1]} at ${when}.`));
  });

  it('refuses bad reasons, a missing description for "other", long descriptions and unreadable messages', async () => {
    const msg = await sendStream(sam, 'kitchen', 'x', 'hm');
    const secret = await createChannel(ts, sam, 'secret', { invite_only: true });
    const hidden = await sendStream(sam, 'secret', 'x', 'hidden');
    assert.ok(secret);
    const before = (await latestReport()).content;
    for (const [id, params, msgText] of [
      [msg, { report_type: 'boring' }, 'Invalid report_type'],
      [msg, { report_type: 'other' }, 'For report_type=other, a description must be provided.'],
      [msg, { report_type: 'spam', description: 'x'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
      [hidden, { report_type: 'spam' }, 'Invalid message(s)'],
    ] as const) {
      const res = await mel.post(`/messages/${id}/report`, params);
      assert.equal(res.status, 400, JSON.stringify(params));
      assert.equal(res.body.msg, msgText);
    }
    assert.equal((await latestReport()).content, before, 'nothing posted');
    assert.equal((await mel.post(`/messages/${msg}/report`, { report_type: 'other', description: 'meh' })).status, 200);
  });
});
