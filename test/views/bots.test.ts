import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';
import { createChannel } from '../helpers/channels.js';

let ts: TestServer;
let admin: Account;
let member: Account;
let other: Account;
let adminC: Client;
let memberC: Client;
let otherC: Client;

before(async () => {
  ts = await startTestServer();
  admin = await ts.addUser('Ada', 200);
  member = await ts.addUser('Mel', 400);
  other = await ts.addUser('Otto', 400);
  adminC = ts.client(admin);
  memberC = ts.client(member);
  otherC = ts.client(other);
});
after(() => ts.stop());

const storedUsers = async () =>
  JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8')).users as Record<string, unknown>[];

let n = 0;
/** Creates a generic bot owned by `client`'s account through the API. */
async function makeBot(client: Client, extra: Record<string, unknown> = {}) {
  const tag = ++n;
  const res = await client.post('/bots', { full_name: `Helper ${tag}`, short_name: `helper${tag}`, ...extra });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const bot = ts.store.users.get(res.body.user_id)!;
  return { id: bot.id, email: bot.email, apiKey: res.body.api_key as string, password: '' };
}

describe('POST /bots', () => {
  it('creates a generic bot owned by the requester, with email short-bot@<bot domain>, durably', async () => {
    const res = await memberC.post('/bots', { full_name: 'Weather Bot', short_name: 'weather' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(typeof res.body.user_id, 'number');
    assert.match(res.body.api_key, /^[A-Za-z0-9]{32}$/);
    assert.equal(res.body.default_sending_stream, null);
    assert.equal(res.body.default_events_register_stream, null);
    assert.equal(res.body.default_all_public_streams, false);
    assert.match(res.body.avatar_url, new RegExp(`^/avatar/${res.body.user_id}`));
    const stored = (await storedUsers()).find((u) => u.id === res.body.user_id)!;
    assert.equal(stored.email, 'weather-bot@hearth.local');
    assert.equal(stored.is_bot, true);
    assert.equal(stored.bot_type, 1);
    assert.equal(stored.bot_owner_id, member.id);
    assert.equal(stored.role, 400);
    assert.equal(stored.api_key, res.body.api_key);
    assert.equal(stored.password_hash, null);
    // The bot authenticates with its key; GET /users shows it as a bot with its owner.
    const me = await ts.client({ id: 0, email: 'weather-bot@hearth.local', apiKey: res.body.api_key, password: '' }).get('/users/me');
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.is_bot, true);
    assert.equal(me.body.bot_owner_id, member.id);
    assert.equal(me.body.bot_type, 1);
    // register's realm_bot_domain names the domain new bots get.
    const reg = await memberC.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_bot_domain, 'hearth.local');
    const members = ts.store.groups.data.groups.find((g) => g.name === 'role:members')!.id;
    assert.equal(reg.body.realm_can_create_bots_group, members);
    assert.equal(reg.body.realm_can_create_write_only_bots_group, members);
    await memberC.delete('/events', { queue_id: reg.body.queue_id });
  });

  it('refuses bad input with Zulip messages and stores nothing', async () => {
    const before = ts.store.users.count;
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ full_name: 'X' }, 400, /Missing 'short_name' argument/],
      [{ short_name: 'x' }, 400, /Missing 'full_name' argument/],
      [{ full_name: 'X', short_name: '   ' }, 400, /^Bad name or username$/],
      [{ full_name: 'X', short_name: 'a b' }, 400, /^Bad name or username$/],
      [{ full_name: 'X', short_name: 'a@b' }, 400, /^Bad name or username$/],
      [{ full_name: 'X', short_name: 'x'.repeat(70) }, 400, /^Bad name or username$/],
      [{ full_name: '', short_name: 'empty' }, 400, /^Name too short!$/],
      [{ full_name: 'a*b', short_name: 'stars' }, 400, /^Invalid characters in name!$/],
      [{ full_name: 'Another', short_name: 'weather' }, 400, /^Username already in use$/],
      [{ full_name: 'Weather Bot', short_name: 'weather2' }, 400, /^Name is already in use\.$/],
      [{ full_name: 'Nine', short_name: 'nine', bot_type: 9 }, 400, /^Invalid bot type$/],
      [{ full_name: 'T', short_name: 't', bot_type: 'x' }, 400, /bot_type is not valid JSON/],
      [{ full_name: 'I', short_name: 'i', bot_type: 3, interface_type: 7 }, 400, /^Invalid interface type$/],
      [{ full_name: 'E', short_name: 'e', bot_type: 4, service_name: 'nope' }, 400, /^Invalid embedded bot name\.$/],
      [{ full_name: 'U', short_name: 'u', bot_type: 3, payload_url: '"ftp://x"' }, 400, /payload_url is not a URL/],
      [{ full_name: 'C', short_name: 'c', config_data: '{"a": 1}' }, 400, /is not a string/],
      [{ full_name: 'D', short_name: 'd', default_sending_stream: 'no such channel' }, 400, /Invalid channel name/],
    ];
    for (const [params, status, msg] of cases) {
      const res = await memberC.post('/bots', params as never);
      assert.equal(res.status, status, `${JSON.stringify(params)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.result, 'error');
      assert.equal(res.body.code, /^Missing/.test(res.body.msg) ? 'REQUEST_VARIABLE_MISSING' : 'BAD_REQUEST');
      assert.match(res.body.msg, msg, JSON.stringify(params));
    }
    assert.equal(ts.store.users.count, before);
  });

  it('outgoing-webhook and embedded bots keep their service; incoming webhooks their configuration', async () => {
    const out = await memberC.post('/bots', {
      full_name: 'Hook Out',
      short_name: 'hookout',
      bot_type: 3,
      payload_url: JSON.stringify('http://10.0.0.5:8080/hook'),
      interface_type: 2,
    });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const emb = await memberC.post('/bots', {
      full_name: 'Converter',
      short_name: 'conv',
      bot_type: 4,
      service_name: 'converter',
      config_data: { unit: 'metric' },
    });
    assert.equal(emb.status, 200, JSON.stringify(emb.body));
    const inc = await memberC.post('/bots', {
      full_name: 'Hook In',
      short_name: 'hookin',
      bot_type: 2,
      service_name: 'github',
      config_data: { branches: 'main' },
    });
    assert.equal(inc.status, 200, JSON.stringify(inc.body));
    const reg = await memberC.post('/register', { fetch_event_types: ['realm_bot'] });
    const byId = (id: number) => reg.body.realm_bots.find((b: { user_id: number }) => b.user_id === id);
    const o = byId(out.body.user_id);
    assert.equal(o.bot_type, 3);
    assert.equal(o.services.length, 1);
    assert.equal(o.services[0].base_url, 'http://10.0.0.5:8080/hook');
    assert.equal(o.services[0].interface, 2);
    assert.match(o.services[0].token, /^[A-Za-z0-9]{32}$/);
    assert.deepEqual(byId(emb.body.user_id).services, [{ config_data: { unit: 'metric' }, service_name: 'converter' }]);
    assert.deepEqual(byId(inc.body.user_id).services, []);
    const stored = (await storedUsers()).find((u) => u.id === inc.body.user_id)!;
    assert.deepEqual((stored.bot_settings as Record<string, unknown>).config_data, { branches: 'main' });
    assert.equal((stored.bot_settings as Record<string, unknown>).service_name, 'github');
    await memberC.delete('/events', { queue_id: reg.body.queue_id });
  });

  it('default channels must be channels the creator may post to', async () => {
    await createChannel(ts, adminC, 'secret plans', { invite_only: true });
    const refused = await memberC.post('/bots', { full_name: 'Spy', short_name: 'spy', default_sending_stream: 'secret plans' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, "Invalid channel name 'secret plans'");
    const ok = await adminC.post('/bots', {
      full_name: 'Planner',
      short_name: 'planner',
      default_sending_stream: 'secret plans',
      default_all_public_streams: true,
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.default_sending_stream, 'secret plans');
    assert.equal(ok.body.default_all_public_streams, true);
  });

  it('announces realm_user add to everyone and realm_bot add to administrators and the owner (verifyAction)', async () => {
    let created = 0;
    const action = async () => {
      created = (await makeBot(memberC)).id;
    };
    const ownerEvents = await verifyAction(memberC, action);
    // biome-ignore lint/suspicious/noExplicitAny: the event's JSON, read field by field
    const add = ownerEvents.find((e) => e.type === 'realm_bot' && e.op === 'add') as Record<string, any>;
    assert.ok(add, JSON.stringify(ownerEvents));
    assert.equal(add.bot.user_id, created);
    assert.equal(add.bot.owner_id, member.id);
    assert.equal(typeof add.bot.api_key, 'string');
    assert.ok(ownerEvents.some((e) => e.type === 'realm_user' && e.op === 'add'));
    const adminEvents = await verifyAction(adminC, action);
    assert.ok(adminEvents.some((e) => e.type === 'realm_bot' && e.op === 'add'));
    // Another member hears of the new user, not of the bot's administration (nor its key).
    const otherEvents = await verifyAction(otherC, action);
    assert.ok(otherEvents.some((e) => e.type === 'realm_user' && e.op === 'add'));
    assert.ok(!otherEvents.some((e) => e.type === 'realm_bot'), JSON.stringify(otherEvents));
  });
});

describe('GET /bots and the realm_bots register section', () => {
  it('GET /bots lists the requester’s own active bots with keys, oldest first', async () => {
    const a = await makeBot(otherC);
    const b = await makeBot(otherC);
    const res = await otherC.get('/bots');
    assert.equal(res.status, 200);
    const ids = res.body.bots.map((x: { user_id: number }) => x.user_id);
    assert.deepEqual(ids.slice(-2), [a.id, b.id]);
    const first = res.body.bots.find((x: { user_id: number }) => x.user_id === a.id);
    assert.equal(first.username, a.email);
    assert.equal(first.api_key, a.apiKey);
    assert.equal(first.default_all_public_streams, false);
    // Administrators list their own bots only here; a deactivated bot drops out.
    const adminList = await adminC.get('/bots');
    assert.ok(!adminList.body.bots.some((x: { user_id: number }) => x.user_id === a.id));
    assert.equal((await otherC.delete(`/bots/${a.id}`)).status, 200);
    const after = await otherC.get('/bots');
    assert.ok(!after.body.bots.some((x: { user_id: number }) => x.user_id === a.id));
  });

  it('realm_bots: administrators see every bot (deactivated too), members their own', async () => {
    const mine = await makeBot(otherC);
    const theirs = await makeBot(memberC);
    const reg = async (c: Client) => {
      const r = await c.post('/register', { fetch_event_types: ['realm_bot'] });
      await c.delete('/events', { queue_id: r.body.queue_id });
      return (r.body.realm_bots as { user_id: number; owner_id: number; is_active: boolean }[]).map((b) => b.user_id);
    };
    const adminSees = await reg(adminC);
    assert.ok(adminSees.includes(mine.id) && adminSees.includes(theirs.id));
    const otherSees = await reg(otherC);
    assert.ok(otherSees.includes(mine.id) && !otherSees.includes(theirs.id));
    assert.ok(ts.store.users.all().filter((u) => u.is_bot && u.bot_owner_id === other.id).every((u) => otherSees.includes(u.id)));
    const botSees = await reg(ts.client(mine));
    assert.deepEqual(botSees, []);
  });
});

describe('PATCH /bots/{bot_id}', () => {
  it('renames, moves default channels and regenerates, each announced (verifyAction)', async () => {
    const bot = await makeBot(memberC);
    await createChannel(ts, memberC, 'bot news');
    const events = await verifyAction(memberC, async () => {
      const res = await memberC.patch(`/bots/${bot.id}`, {
        full_name: 'Renamed Helper',
        default_sending_stream: 'bot news',
        default_events_register_stream: 'bot news',
        default_all_public_streams: true,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.full_name, 'Renamed Helper');
      assert.equal(res.body.default_sending_stream, 'bot news');
      assert.equal(res.body.bot_owner, member.email);
    });
    assert.ok(events.some((e) => e.type === 'realm_user' && (e.person as Record<string, unknown>).full_name === 'Renamed Helper'));
    assert.ok(events.some((e) => e.type === 'realm_bot' && (e.bot as Record<string, unknown>).full_name === 'Renamed Helper'));
    const stored = (await storedUsers()).find((u) => u.id === bot.id)!;
    assert.equal(stored.full_name, 'Renamed Helper');
    assert.equal((stored.bot_settings as Record<string, unknown>).default_all_public_streams, true);
    // '' clears a default channel.
    await verifyAction(adminC, async () => {
      const res = await adminC.patch(`/bots/${bot.id}`, { default_sending_stream: '' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.default_sending_stream, null);
    });
    // Sending the unchanged name back is accepted and changes nothing.
    const same = await memberC.patch(`/bots/${bot.id}`, { full_name: 'Renamed Helper' });
    assert.equal(same.status, 200);
  });

  it('a bot renamed through PATCH /users/{id} is announced to its owner as realm_bot update too (verifyAction)', async () => {
    const bot = await makeBot(memberC);
    const events = await verifyAction(memberC, async () => {
      const res = await adminC.patch(`/users/${bot.id}`, { full_name: 'Renamed By Admin' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    const botUpdates = events.filter((e) => e.type === 'realm_bot');
    assert.deepEqual(botUpdates.map((e) => e.bot), [{ user_id: bot.id, full_name: 'Renamed By Admin' }]);
    assert.equal((await storedUsers()).find((u) => u.id === bot.id)!.full_name, 'Renamed By Admin');
  });

  it('a bot\'s default_all_public_streams and default_events_register_stream shape its queues when the client sends neither', async () => {
    await createChannel(ts, adminC, 'town square', { principals: [admin.id] });
    await createChannel(ts, adminC, 'bot inbox', { principals: [admin.id] });
    const everything = ts.client(await makeBot(memberC, { default_all_public_streams: true }));
    const inboxOnly = ts.client(await makeBot(memberC, { default_events_register_stream: 'bot inbox' }));
    const plain = ts.client(await makeBot(memberC));
    const queues = await Promise.all(
      [everything, inboxOnly, plain].map(async (c) => (await c.post('/register', { event_types: ['message'] })).body),
    );
    for (const [stream, content] of [['town square', 'one'], ['bot inbox', 'two']]) {
      const res = await adminC.post('/messages', { type: 'stream', to: stream, topic: 't', content });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const got = await Promise.all(
      [everything, inboxOnly, plain].map(async (c, i) => {
        const res = await c.get('/events', { queue_id: queues[i].queue_id, last_event_id: queues[i].last_event_id, dont_block: true });
        return (res.body.events as { type: string; message?: { content: string } }[])
          .filter((e) => e.type === 'message')
          .map((e) => e.message!.content);
      }),
    );
    assert.deepEqual(got, [['one', 'two'], [], []]); // apply_markdown defaults to false: raw content
    // The inbox bot is not subscribed: its narrow is set, but without all_public_streams it hears only its own messages.
    const explicit = (await inboxOnly.post('/register', { event_types: ['message'], all_public_streams: true })).body;
    await adminC.post('/messages', { type: 'stream', to: 'town square', topic: 't', content: 'three' });
    await adminC.post('/messages', { type: 'stream', to: 'bot inbox', topic: 't', content: 'four' });
    const res = await inboxOnly.get('/events', { queue_id: explicit.queue_id, last_event_id: explicit.last_event_id, dont_block: true });
    assert.deepEqual(
      (res.body.events as { type: string; message?: { content: string } }[]).filter((e) => e.type === 'message').map((e) => e.message!.content),
      ['four'],
      'narrowed to its default channel',
    );
  });

  it('moves a bot to a new owner: delete for the old, add for the new, update for administrators', async () => {
    const bot = await makeBot(memberC);
    const oldOwner = await verifyAction(memberC, async () => {
      const res = await adminC.patch(`/bots/${bot.id}`, { bot_owner_id: other.id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.bot_owner, other.email);
    });
    assert.ok(oldOwner.some((e) => e.type === 'realm_bot' && e.op === 'delete'), JSON.stringify(oldOwner));
    assert.equal(ts.store.users.get(bot.id)!.bot_owner_id, other.id);
    const newOwner = await verifyAction(memberC, async () => {
      await adminC.patch(`/bots/${bot.id}`, { bot_owner_id: member.id });
    });
    assert.ok(newOwner.some((e) => e.type === 'realm_bot' && e.op === 'add'));
    const admins = await verifyAction(adminC, async () => {
      await adminC.patch(`/bots/${bot.id}`, { bot_owner_id: other.id });
    });
    assert.ok(admins.some((e) => e.type === 'realm_bot' && e.op === 'update' && (e.bot as Record<string, unknown>).owner_id === other.id));
    assert.ok(admins.some((e) => e.type === 'realm_user' && (e.person as Record<string, unknown>).bot_owner_id === other.id));
    // Zulip's three refusals.
    const humanBot = await makeBot(memberC);
    for (const [id, msg] of [
      [99999, 'Failed to change owner, no such user'],
      [humanBot.id, "Failed to change owner, bots can't own other bots"],
    ] as const) {
      const res = await adminC.patch(`/bots/${bot.id}`, { bot_owner_id: id });
      assert.equal(res.status, 400);
      assert.equal(res.body.msg, msg);
    }
    const gone = await ts.addUser('Gone', 400);
    await ts.client(gone).delete('/users/me');
    const res = await adminC.patch(`/bots/${bot.id}`, { bot_owner_id: gone.id });
    assert.equal(res.body.msg, 'Failed to change owner, user is deactivated');
    assert.equal(ts.store.users.get(bot.id)!.bot_owner_id, other.id);
  });

  it('updates an outgoing webhook and an embedded bot’s configuration (verifyAction)', async () => {
    const out = await makeBot(memberC, { bot_type: 3, payload_url: JSON.stringify('http://example.com/a') });
    const emb = await makeBot(memberC, { bot_type: 4, service_name: 'followup', config_data: { stream: 'a' } });
    await verifyAction(memberC, async () => {
      const res = await memberC.patch(`/bots/${out.id}`, {
        service_payload_url: JSON.stringify('http://example.com/b'),
        service_interface: 2,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.service_payload_url, 'http://example.com/b');
      assert.equal(res.body.service_interface, 2);
    });
    await verifyAction(memberC, async () => {
      const res = await memberC.patch(`/bots/${emb.id}`, { config_data: { key: 'v' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
    assert.deepEqual(ts.store.users.get(emb.id)!.bot_settings!.config_data, { stream: 'a', key: 'v' });
    assert.equal(ts.store.users.get(out.id)!.bot_settings!.outgoing!.base_url, 'http://example.com/b');
    const bad = await memberC.patch(`/bots/${out.id}`, { service_payload_url: JSON.stringify('http://x'), service_interface: 5 });
    assert.equal(bad.body.msg, 'Invalid interface type');
  });

  it('role changes follow the users rules: administrators only, owners for the owner role', async () => {
    const bot = await makeBot(memberC);
    const byMember = await memberC.patch(`/bots/${bot.id}`, { role: 200 });
    assert.equal(byMember.status, 400);
    assert.equal(byMember.body.msg, 'Must be an organization administrator');
    const toOwner = await adminC.patch(`/bots/${bot.id}`, { role: 100 });
    assert.equal(toOwner.body.msg, 'Must be an organization owner');
    await verifyAction(adminC, async () => {
      assert.equal((await adminC.patch(`/bots/${bot.id}`, { role: 300 })).status, 200);
    });
    assert.equal(ts.store.users.get(bot.id)!.role, 300);
    assert.equal((await adminC.patch(`/bots/${bot.id}`, { role: 500 })).status, 400);
  });
});

describe('API keys and deactivation', () => {
  it('regenerating a key answers the new key; the old one stops working at once (verifyAction)', async () => {
    const bot = await makeBot(memberC);
    assert.equal((await ts.client(bot).get('/users/me')).status, 200);
    let fresh = '';
    const events = await verifyAction(memberC, async () => {
      const res = await memberC.post(`/bots/${bot.id}/api_key/regenerate`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      fresh = res.body.api_key;
    });
    assert.match(fresh, /^[A-Za-z0-9]{32}$/);
    assert.notEqual(fresh, bot.apiKey);
    assert.ok(events.some((e) => e.type === 'realm_bot' && (e.bot as Record<string, unknown>).api_key === fresh));
    const old = await ts.client(bot).get('/users/me');
    assert.equal(old.status, 401);
    assert.equal(old.body.code, 'UNAUTHORIZED');
    assert.equal((await ts.client({ ...bot, apiKey: fresh }).get('/users/me')).status, 200);
    assert.equal((await storedUsers()).find((u) => u.id === bot.id)!.api_key, fresh);
  });

  it('an unknown ID or a human names no such bot', async () => {
    for (const id of [99999, member.id]) {
      const res = await adminC.post(`/bots/${id}/api_key/regenerate`);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.equal(res.body.msg, 'No such bot');
      assert.equal((await adminC.patch(`/bots/${id}`, { full_name: 'x' })).body.msg, 'No such bot');
      assert.equal((await adminC.delete(`/bots/${id}`)).body.msg, 'No such bot');
    }
    assert.equal((await adminC.post('/bots/abc/api_key/regenerate')).status, 400);
  });

  it('DELETE /bots/{id} deactivates the bot (verifyAction): its key is refused', async () => {
    const bot = await makeBot(memberC);
    const events = await verifyAction(memberC, async () => {
      assert.equal((await memberC.delete(`/bots/${bot.id}`)).status, 200);
    });
    assert.ok(events.some((e) => e.type === 'realm_bot' && (e.bot as Record<string, unknown>).is_active === false));
    assert.equal(ts.store.users.get(bot.id)!.is_active, false);
    assert.equal((await storedUsers()).find((u) => u.id === bot.id)!.is_active, false);
    const res = await ts.client(bot).get('/users/me');
    assert.equal(res.body.code, 'UNAUTHORIZED');
  });
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A multipart request (fields plus image files), as the web app sends bot forms with an avatar. */
async function multipart(client: Client, method: string, path: string, fields: Record<string, string>, files: Buffer[]) {
  const form = new FormData();
  for (const [k, val] of Object.entries(fields)) form.append(k, val);
  files.forEach((f, i) => form.append(`file-${i}`, new Blob([new Uint8Array(f)], { type: 'image/png' }), `a${i}.png`));
  const res = await fetch(`${client.baseUrl}/api/v1${path}`, { method, headers: client.authHeader, body: form });
  return { status: res.status, body: await res.json() };
}

describe('bot avatars', () => {
  it('POST /bots and PATCH /bots/{id} take one avatar file; two are refused', async () => {
    const res = await multipart(memberC, 'POST', '/bots', { full_name: 'Pic Bot', short_name: 'pic' }, [PNG]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const bot = ts.store.users.get(res.body.user_id)!;
    assert.ok(bot.avatar, 'stored avatar');
    const served = await fetch(`${ts.url}/avatar/${bot.id}`);
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(PNG));
    const version = bot.avatar_version;
    const events = await verifyAction(memberC, async () => {
      const patched = await multipart(memberC, 'PATCH', `/bots/${bot.id}`, {}, [PNG]);
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.avatar_url, `/avatar/${bot.id}?v=${version + 1}`);
    });
    assert.ok(events.some((e) => e.type === 'realm_bot' && (e.bot as Record<string, unknown>).avatar_url));
    const before = ts.store.users.count;
    const two = await multipart(memberC, 'POST', '/bots', { full_name: 'Two', short_name: 'two' }, [PNG, PNG]);
    assert.equal(two.status, 400);
    assert.equal(two.body.msg, 'You may only upload one file at a time');
    assert.equal(ts.store.users.count, before);
    const notImage = await multipart(memberC, 'PATCH', `/bots/${bot.id}`, {}, [Buffer.from('hello')]);
    assert.equal(notImage.status, 400);
    assert.equal(bot.avatar_version, version + 1);
  });
});

describe('incoming-webhook bots', () => {
  it('may send messages and nothing else', async () => {
    const hook = await makeBot(memberC, { bot_type: 2 });
    const client = ts.client(hook);
    const sent = await client.post('/messages', { type: 'direct', to: JSON.stringify([member.id]), content: 'build passed' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    for (const [method, path] of [
      ['GET', '/users/me'],
      ['POST', '/register'],
      ['GET', '/messages'],
      ['GET', '/users'],
      ['POST', '/bots'],
    ] as const) {
      const res = await client.call(method, path);
      // Zulip: validate_api_key's refusal becomes an UnauthorizedError (401).
      assert.equal(res.status, 401, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'UNAUTHORIZED');
      assert.equal(res.body.msg, 'This API is not available to incoming webhook bots.');
    }
    // A generic bot is not limited.
    const generic = await makeBot(memberC);
    assert.equal((await ts.client(generic).get('/users/me')).status, 200);
  });
});

describe('a bot given to another owner', () => {
  it('gets a new API key: the previous owner cannot keep using it; the new owner has the new one', async () => {
    const bot = await makeBot(memberC);
    const botC = ts.client(bot);
    assert.equal((await botC.get('/users/me')).status, 200);
    const res = await memberC.patch(`/bots/${bot.id}`, { bot_owner_id: other.id });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await botC.get('/users/me')).status, 401, 'the old key no longer works');
    const key = (await otherC.get(`/bots/${bot.id}/api_key`)).body.api_key as string;
    assert.notEqual(key, bot.apiKey);
    assert.equal((await ts.client({ ...bot, apiKey: key }).get('/users/me')).status, 200);
    const stored = (await storedUsers()).find((u) => u.id === bot.id)!;
    assert.equal(stored.api_key, key);
  });
});
