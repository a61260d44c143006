/**
 * A new organization and new people start as in Zulip (create_realm.py, onboarding.py): the
 * default channels #general (announcements) and #sandbox with the Welcome Bot's first
 * conversations, and the Welcome Bot's direct message to every new person, plus the
 * organization's own note (welcome_message_custom_text, with Zulip's
 * POST /realm/test_welcome_bot_custom_message to try it). Through the setup page, `hearth
 * init`, POST /users and an invite link; bots get nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../server/app.js';
import { silentLogger } from '../../server/log.js';
import { Store } from '../../server/store/store.js';
import { runCli } from '../helpers/cli.js';
import { type Client, startTestServer, type Account, type TestServer } from '../helpers/server.js';

const SETUP = { realm_name: 'Acme Office', full_name: 'Ada Admin', email: 'ada@example.com', password: 'a good password' };
type Msg = { id: number; sender_email: string; type: string; display_recipient: unknown; subject: string; content: string; flags: string[] };

const messagesOf = async (c: Client): Promise<Msg[]> =>
  (await c.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: '[]', apply_markdown: 'false' })).body.messages;
const fromWelcomeBot = (ms: Msg[]) => ms.filter((m) => m.sender_email === 'welcome-bot@zulip.com' && m.type === 'private');

describe('a new organization (the setup page)', () => {
  let ts: TestServer;
  let owner: Client;
  let ownerAccount: Account;
  before(async () => {
    ts = await startTestServer({ withRealm: false });
    const res = await ts.anonymous.post('/hearth/setup', SETUP);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    ownerAccount = { id: res.body.user_id, email: res.body.email, apiKey: res.body.api_key, password: SETUP.password };
    owner = ts.client(ownerAccount);
  });
  after(() => ts.stop());

  it('has #general and #sandbox, default for new people, the owner subscribed, new channels announced in #general', async () => {
    const reg = (await owner.post('/register', { fetch_event_types: JSON.stringify(['realm', 'subscription', 'default_streams', 'realm_user']) })).body;
    const subs = reg.subscriptions.map((s: { name: string; description: string }) => [s.name, s.description]).sort();
    assert.deepEqual(subs, [['general', 'For team-wide conversations'], ['sandbox', 'Experiment with Hearth here. :test_tube:']]);
    assert.deepEqual(reg.realm_default_streams.map((id: number) => reg.subscriptions.find((s: { stream_id: number }) => s.stream_id === id).name).sort(), ['general', 'sandbox']);
    const general = reg.subscriptions.find((s: { name: string }) => s.name === 'general').stream_id;
    assert.equal(reg.realm_new_stream_announcements_stream_id, general);
    assert.equal(reg.realm_welcome_message_custom_text, '');
    const bots = reg.cross_realm_bots.map((b: { email: string; full_name: string; is_system_bot: boolean }) => [b.email, b.full_name, b.is_system_bot]);
    assert.deepEqual(bots, [['notification-bot@zulip.com', 'Notification Bot', true], ['welcome-bot@zulip.com', 'Welcome Bot', true]]);
  });

  it('the Welcome Bot started conversations in both channels and greeted the owner; all unread', async () => {
    const ms = await messagesOf(owner);
    const topics = ms.filter((m) => m.type === 'stream').map((m) => `${m.display_recipient} > ${m.subject}`);
    assert.deepEqual(topics, ['sandbox > experiments', 'sandbox > start a conversation', 'general > greetings']);
    assert.ok(ms.every((m) => m.sender_email === 'welcome-bot@zulip.com'));
    const dms = fromWelcomeBot(ms);
    assert.equal(dms.length, 1);
    assert.match(dms[0]!.content, /^Hello Ada Admin, and welcome to \*\*Acme Office\*\*!/);
    assert.match(dms[0]!.content, /#\*\*general\*\*/);
    assert.ok(ms.every((m) => !m.flags.includes('read')), 'unread');
    const botId = (await owner.post('/register', { fetch_event_types: '["realm_user"]' })).body.cross_realm_bots.find((b: { email: string }) => b.email === 'welcome-bot@zulip.com').user_id;
    assert.equal((await owner.get(`/users/${botId}`)).body.user.full_name, 'Welcome Bot');
    // The rendered channel link resolves.
    const html = (await owner.get(`/messages/${dms[0]!.id}`)).body.message.content as string;
    assert.match(html, /class="stream" data-stream-id="\d+" href="\/#narrow\/channel\/\d+-general">#general<\/a>/);
  });

  it('welcome_message_custom_text: administrators set it (≤ 8,000 characters); members cannot', async () => {
    const mel = await ts.addUser('Mel');
    const asMel = await ts.client(mel).patch('/realm', { welcome_message_custom_text: 'hi' });
    assert.equal(asMel.status, 400);
    assert.equal(asMel.body.msg, 'Must be an organization administrator');
    const tooLong = await owner.patch('/realm', { welcome_message_custom_text: 'x'.repeat(8001) });
    assert.equal(tooLong.status, 400);
    const ok = await owner.patch('/realm', { welcome_message_custom_text: 'Lunch is at **noon**. Ask ```Ada``` anything.' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal((await owner.post('/register', { fetch_event_types: '["realm"]' })).body.realm_welcome_message_custom_text, 'Lunch is at **noon**. Ask ```Ada``` anything.');
  });

  it('a person added with POST /users gets the greeting and the note, quoted; a bot gets nothing', async () => {
    const res = await owner.post('/users', { email: 'nick@example.com', password: 'long enough password', full_name: 'Nick New' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const nick = ts.client({ id: res.body.user_id, email: 'nick@example.com', apiKey: ts.store.users.get(res.body.user_id)!.api_key, password: '' });
    const dms = fromWelcomeBot(await messagesOf(nick));
    assert.equal(dms.length, 2);
    assert.match(dms[0]!.content, /^Hello Nick New, and welcome to \*\*Acme Office\*\*!/);
    // A fence longer than any the note uses, as Zulip's get_unused_fence.
    assert.equal(dms[1]!.content, 'A note from @_*role:administrators*:\n````quote\nLunch is at **noon**. Ask ```Ada``` anything.\n````');
    const html = (await nick.get(`/messages/${dms[1]!.id}`)).body.message.content as string;
    assert.match(html, /<blockquote>\s*<p>Lunch is at <strong>noon<\/strong>/);
    // Subscribed to the default channels.
    const subs = (await nick.get('/users/me/subscriptions')).body.subscriptions.map((s: { name: string }) => s.name).sort();
    assert.deepEqual(subs, ['general', 'sandbox']);
    const bot = await owner.post('/bots', { full_name: 'Build Bot', short_name: 'build' });
    assert.equal(bot.status, 200, JSON.stringify(bot.body));
    const toBot = [...ts.store.messages.all()].filter((m) => m.dm?.includes(bot.body.user_id));
    assert.deepEqual(toBot, []);
  });

  it('a colleague who joins with an invite link is greeted too', async () => {
    const link = (await owner.post('/invites/multiuse', { include_realm_default_subscriptions: 'true' })).body.invite_link as string;
    const key = /\/join\/([a-z0-9]+)\//.exec(link)![1]!;
    const joined = await ts.anonymous.post('/hearth/join', { key, email: 'ivy@example.com', full_name: 'Ivy Invited', password: 'long enough password' });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    const ivy = ts.client({ id: joined.body.user_id, email: 'ivy@example.com', apiKey: ts.store.users.get(joined.body.user_id)!.api_key, password: '' });
    const dms = fromWelcomeBot(await messagesOf(ivy));
    assert.equal(dms.length, 2);
    assert.match(dms[0]!.content, /^Hello Ivy Invited/);
  });

  it('POST /realm/test_welcome_bot_custom_message sends the note to the administrator alone and answers its ID', async () => {
    const res = await owner.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Try *this* note' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const m = (await owner.get(`/messages/${res.body.message_id}`, { apply_markdown: 'false' })).body.message;
    assert.equal(m.sender_email, 'welcome-bot@zulip.com');
    assert.deepEqual(m.display_recipient.map((r: { email: string }) => r.email).sort(), ['ada@example.com', 'welcome-bot@zulip.com']);
    assert.equal(m.content, 'A note from @_*role:administrators*:\n```quote\nTry *this* note\n```');
    for (const [text, msg] of [['', 'Message must not be empty'], ['   ', 'Message must not be empty']]) {
      const bad = await owner.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: text });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.msg, msg);
    }
    assert.equal((await owner.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'x'.repeat(8001) })).status, 400);
    const mel = await ts.addUser('Mo');
    const member = await ts.client(mel).post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'hi' });
    assert.equal(member.status, 400);
    assert.equal(member.body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.equal(member.body.msg, 'Must be an organization administrator');
    assert.equal((await owner.post('/realm/test_welcome_bot_custom_message')).body.code, 'REQUEST_VARIABLE_MISSING');
  });
});

describe('the Welcome Bot answers what it is told, alone', () => {
  it('replies to a direct message sent to it alone: its words, then the list for anything else; not in a group', async () => {
    const ts = await startTestServer({ withRealm: false });
    try {
      const res = await ts.anonymous.post('/hearth/setup', SETUP);
      const owner = ts.client({ id: res.body.user_id, email: res.body.email, apiKey: res.body.api_key, password: SETUP.password });
      const botId = (await owner.post('/register', { fetch_event_types: '["realm_user"]' })).body.cross_realm_bots.find((b: { email: string }) => b.email === 'welcome-bot@zulip.com').user_id;
      const last = async () => (await owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'dm', operand: [botId] }]), apply_markdown: 'false' })).body.messages[0];
      const say = async (content: string, to: number[] = [botId]) => {
        const sent = await owner.post('/messages', { type: 'direct', to: JSON.stringify(to), content });
        assert.equal(sent.status, 200, JSON.stringify(sent.body));
        return sent.body.id as number;
      };
      const help = await say('help');
      let reply = await last();
      assert.ok(reply.id > help);
      assert.equal(reply.sender_email, 'welcome-bot@zulip.com');
      assert.match(reply.content, /^I can tell you about these/);
      await say('  Apps ');
      assert.match((await last()).content, /Zulip's apps for phones and computers work with Hearth/);
      await say('hello there');
      reply = await last();
      assert.match(reply.content, /^You can chat with me as much as you like! I can tell you about these/);
      const mel = await ts.addUser('Mel');
      const before = [...ts.store.messages.all()].length;
      await say('help', [botId, mel.id]);
      assert.equal([...ts.store.messages.all()].length, before + 1, 'no reply in a group conversation');
    } finally {
      await ts.stop();
    }
  });
});

describe('hearth init', () => {
  it('creates the organization with its default channels and the Welcome Bot’s messages', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-onboard-'));
    try {
      const r = await runCli(['init', '--data-dir', dir, '--realm-name', 'CLI Org', '--email', 'o@example.com', '--password', 'long enough password']);
      assert.equal(r.code, 0, r.stderr);
      const store = await Store.open(dir);
      try {
        const { app } = createApp({ store, log: silentLogger });
        const names = app.store.channels.data.channels.map((c) => [c.name, c.is_default_stream]);
        assert.deepEqual(names, [['general', true], ['sandbox', true]]);
        const owner = app.store.users.all().find((u) => u.email === 'o@example.com')!;
        const all = [...app.store.messages.all()];
        assert.equal(all.length, 4, 'three channel messages and the greeting');
        assert.equal(all.filter((m) => m.dm?.includes(owner.id)).length, 1);
      } finally {
        await store.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
