/**
 * `hearth demo`: the demo organization's data set (counts, every kind of content a demo should
 * show, the same on every build), every demo account signs in and registers with unread
 * messages, and the command line: the printed lines, its own data dir, --reset refusing a
 * real organization, --live traffic.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildDemo, DEMO_DAYS } from '../../server/demo/build.js';
import { DEMO_PASSWORD, PEOPLE, emailOf } from '../../server/demo/roster.js';
import { silentLogger } from '../../server/log.js';
import { startServer, type RunningServer } from '../../server/start.js';
import { runCli, startServe } from '../helpers/cli.js';
import { Client } from '../helpers/server.js';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const DAY = 86_400_000;

/** What the messages say, in order, without IDs or times that depend on the run. */
function digest(server: RunningServer): string {
  const h = createHash('sha256');
  for (const m of server.store.messages.all()) h.update(`${m.sender_id}|${m.stream_id}|${m.topic}|${(m.dm ?? []).join(',')}|${m.content.replace(/\/user_uploads\/\S+/g, 'UPLOAD')}|${m.timestamp}\n`);
  return h.digest('hex');
}

describe('the demo organization', { timeout: 240_000 }, () => {
  const dirs: string[] = [];
  let server: RunningServer;
  let dir = '';
  let owner: Client;
  before(async () => {
    const [a, b] = [await mkdtemp(join(tmpdir(), 'hearth-demo-a-')), await mkdtemp(join(tmpdir(), 'hearth-demo-b-'))];
    dirs.push(a, b);
    dir = join(a, 'demo');
    const other = join(b, 'demo');
    await Promise.all([buildDemo(dir, () => undefined, NOW), buildDemo(other, () => undefined, NOW)]);
    const second = await startServer({ dataDir: other, host: '127.0.0.1', port: 0, log: silentLogger });
    const otherDigest = digest(second);
    await second.stop();
    server = await startServer({ dataDir: dir, host: '127.0.0.1', port: 0, log: silentLogger });
    assert.equal(digest(server), otherDigest, 'two builds hold the same conversation');
    const key = (await new Client(server.url, null).post('/fetch_api_key', { username: emailOf(PEOPLE[0]!), password: DEMO_PASSWORD })).body;
    owner = new Client(server.url, { id: key.user_id, email: key.email, apiKey: key.api_key, password: DEMO_PASSWORD });
  });
  after(async () => {
    await server?.stop();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('has its people, bots, channels in folders, custom emoji, a linkifier, and says it is a demo', async () => {
    const users = server.store.users.all();
    const humans = users.filter((u) => !u.is_bot);
    assert.deepEqual(humans.map((u) => u.email).sort(), PEOPLE.map(emailOf).sort());
    assert.deepEqual(
      [...new Set(humans.map((u) => u.role))].sort(),
      [100, 200, 300, 400, 600],
      'an owner, an administrator, a moderator, members and a guest',
    );
    assert.deepEqual(users.filter((u) => u.is_bot).map((u) => u.full_name).sort(), ['Deploy Bot', 'Office Bot']);
    const reg = (await owner.post('/register', { fetch_event_types: JSON.stringify(['realm', 'subscription', 'channel_folders', 'realm_emoji', 'realm_linkifiers', 'user_status', 'custom_profile_fields', 'realm_user']), client_capabilities: JSON.stringify({ linkifier_url_template: true }) })).body;
    assert.equal(reg.hearth_demo_organization, true);
    assert.equal((await new Client(server.url, null).get('/server_settings')).body.hearth_demo_organization, true);
    const channels = server.store.channels.data.channels;
    assert.ok(channels.length >= 8, `${channels.length} channels`);
    assert.ok(channels.some((c) => c.invite_only), 'a private channel');
    assert.ok(channels.every((c) => c.description), 'every channel has a description');
    assert.equal(reg.channel_folders.length, 2);
    assert.ok(channels.filter((c) => c.folder_id !== null).length >= 8, 'channels are in folders');
    assert.deepEqual(Object.values(reg.realm_emoji as Record<string, { name: string }>).map((e) => e.name).sort(), ['juniper', 'shipit']);
    assert.equal(reg.realm_linkifiers.length, 1);
    assert.ok(Object.keys(reg.user_status).length >= 4, 'statuses');
    assert.deepEqual(reg.custom_profile_fields.map((f: { name: string }) => f.name), ['Team', 'Pronouns']);
    const withFields = reg.realm_users.filter((u: { profile_data?: object }) => Object.keys(u.profile_data ?? {}).length === 2);
    assert.equal(withFields.length, PEOPLE.length);
    // An uploaded picture bumps avatar_version past the generated one's 1.
    assert.ok(reg.realm_users.every((u: { avatar_version: number; is_bot: boolean }) => u.is_bot || u.avatar_version > 1), 'everyone has an uploaded picture');
  });

  it('holds a few thousand messages over six weeks, none dated in the future, with every kind of content', async () => {
    const all = [...server.store.messages.all()];
    assert.ok(all.length >= 2_500 && all.length <= 5_000, `${all.length} messages`);
    const times = all.map((m) => m.timestamp * 1000);
    assert.ok(Math.max(...times) <= NOW, 'nothing in the future');
    assert.ok(Math.max(...times) - Math.min(...times) >= (DEMO_DAYS - 3) * DAY, 'spread over the weeks');
    const rendered = all.map((m) => m.rendered ?? '');
    const has = (what: string, re: RegExp) => assert.ok(rendered.some((r) => re.test(r)), what);
    has('code blocks', /<pre>|codehilite/);
    has('quotes', /<blockquote>/);
    has('tables', /<table>/);
    has('mentions', /class="user-mention"/);
    has('inline images', /class="message_inline_image"/);
    has('linkifier links', /https:\/\/tracker\.juniper\.example\/JUN-\d+/);
    has('highlighted code', /<div class="codehilite" data-code-language="TypeScript"><pre><span><\/span><code><span class="/);
    has('math', /<span class="katex">/);
    assert.ok(all.some((m) => m.content.startsWith('/me ')), 'a /me message');
    const widget = (type: string) => all.find((m) => m.submessages?.length && JSON.parse(m.submessages[0]!.content).widget_type === type);
    assert.ok((widget('poll')?.submessages?.length ?? 0) >= 4, 'a poll people voted in');
    assert.ok((widget('todo')?.submessages?.length ?? 0) >= 2, 'a to-do list with ticked tasks');
    has('custom emoji', /class="emoji"[^>]*\/user_avatars\/|realm_emoji|emoji\/images/);
    assert.ok(all.some((m) => /\[budget-2027\.csv\]\(\/user_uploads\//.test(m.content)), 'an uploaded file');
    assert.ok(all.some((m) => m.edits?.length || m.last_edit_timestamp), 'edited messages');
    assert.ok(all.some((m) => m.dm?.length === 2), 'one-to-one conversations');
    assert.ok(all.some((m) => (m.dm?.length ?? 0) >= 3), 'group conversations');
    const reactions = all.flatMap((m) => m.reactions ?? []);
    assert.ok(reactions.length >= 100, `${reactions.length} reactions`);
    assert.ok(reactions.some((r) => r.reaction_type === 'realm_emoji'), 'reactions with custom emoji');
    assert.ok(all.some((m) => m.sender_id === server.store.users.all().find((u) => u.full_name === 'Deploy Bot')!.id), 'the bot posts');
  });

  it('every demo account signs in with the printed password, registers, and has unread messages', async () => {
    let starredSomewhere = 0;
    for (const p of PEOPLE) {
      const key = await new Client(server.url, null).post('/fetch_api_key', { username: emailOf(p), password: DEMO_PASSWORD });
      assert.equal(key.status, 200, `${p.key}: ${JSON.stringify(key.body)}`);
      const c = new Client(server.url, { id: key.body.user_id, email: emailOf(p), apiKey: key.body.api_key, password: DEMO_PASSWORD });
      const reg = await c.post('/register', { fetch_event_types: JSON.stringify(['message', 'update_message_flags', 'starred_messages']) });
      assert.equal(reg.status, 200, p.key);
      assert.ok(reg.body.unread_msgs.count > 0, `${p.key} has unread messages`);
      assert.ok(reg.body.unread_msgs.count < 1_000, `${p.key}: only the last days are unread (${reg.body.unread_msgs.count})`);
      starredSomewhere += reg.body.starred_messages.length;
      // The browser's way in works too.
      const login = await fetch(`${server.url}/json/login`, { method: 'POST', body: new URLSearchParams({ username: emailOf(p), password: DEMO_PASSWORD }) });
      assert.equal(login.status, 200, p.key);
    }
    assert.ok(starredSomewhere >= 10, `${starredSomewhere} starred`);
  });

  describe('hearth demo (the command line)', () => {
    it('serves the demo: listening lines, then one demo account line per person; SIGTERM stops it', async () => {
      const copy = join(dirs[1]!, 'served');
      await cp(dir, copy, { recursive: true, filter: (src) => !src.endsWith('hearth.lock') });
      const p = await startServe(['--data-dir', copy, '--port', '0', '--live=1'], {}, 60_000, 'demo');
      try {
        assert.match(p.listening, /^listening on http:\/\/127\.0\.0\.1:\d+\/$/);
        for (let i = 0; i < 100 && p.stdout().split('\n').filter((l) => l.startsWith('demo account: ')).length < PEOPLE.length; i++) await new Promise((r) => setTimeout(r, 50));
        const accounts = p.stdout().split('\n').filter((l) => l.startsWith('demo account: '));
        assert.deepEqual(accounts, PEOPLE.map((x) => `demo account: ${x.role} ${emailOf(x)} ${DEMO_PASSWORD}`));
        const key = (await new Client(p.url, null).post('/fetch_api_key', { username: 'ben@juniper.example', password: DEMO_PASSWORD })).body;
        const ben = new Client(p.url, { id: key.user_id, email: key.email, apiKey: key.api_key, password: DEMO_PASSWORD });
        // --live=1: the Office Bot posts in #random within a few seconds.
        const newest = async () => (await ben.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: 'random' }]) })).body.messages[0];
        const before = (await newest()).id;
        let live: { sender_full_name: string; subject: string; id: number } | undefined;
        for (let i = 0; i < 60 && !live; i++) {
          await new Promise((r) => setTimeout(r, 100));
          const m = await newest();
          if (m.id !== before) live = m;
        }
        assert.ok(live, 'a live message arrived');
        assert.equal(live.sender_full_name, 'Office Bot');
        assert.equal(live.subject, 'office life');
      } finally {
        p.child.kill('SIGTERM');
        assert.equal((await p.exited).code, 0);
      }
    });

    it('refuses to reset or serve a data dir that holds a real organization, and leaves it alone', async () => {
      const real = await mkdtemp(join(tmpdir(), 'hearth-real-'));
      dirs.push(real);
      const init = await runCli(['init', '--data-dir', real, '--realm-name', 'Real Office', '--email', 'r@example.com', '--password', 'long enough password']);
      assert.equal(init.code, 0, init.stderr);
      const before = await readFile(join(real, 'realm.json'), 'utf8');
      for (const args of [['--data-dir', real, '--reset', '--port', '0'], ['--data-dir', real, '--port', '0']]) {
        const r = await runCli(['demo', ...args]);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /holds a real organization, not the demo/);
      }
      assert.equal(await readFile(join(real, 'realm.json'), 'utf8'), before);
      const bad = await runCli(['demo', '--live=0']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--live takes seconds/);
    });
  });
});
