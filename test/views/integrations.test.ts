/**
 * The Integrations section's server side: `POST /json/hearth/integrations/test` (each integration's
 * sample payload through the integration, posted as the bot), and the last call of each
 * outgoing-webhook bot (`hearth_last_call` in GET /bots and register's `realm_bots`, kept in
 * outgoing_webhooks.json). Real HTTP on a temporary data directory; the bots' service is a small
 * server on loopback, allowed by `hearth_allow_loopback_webhooks`.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { sendStream } from '../helpers/messages.js';
import { type ParamValue, startTestServer, type Person, type TestServer } from '../helpers/server.js';
import { makeHookBot } from '../helpers/webhooks.js';
import { INTEGRATIONS } from '../../server/webhooks/registry.js';
import { SAMPLES } from '../../server/webhooks/samples.js';

let ts: TestServer;
let mel: Person;
let sam: Person;
let channelId: number;

before(async () => {
  ts = await startTestServer({ config: { outgoingWebhookTimeoutMs: 300, outgoingWebhookRetryMs: 20 } });
  [mel, sam] = await ts.people('Mel', 'Sam');
  channelId = await createChannel(ts, mel.client, 'alerts');
});
after(() => ts.stop());

describe('POST /json/hearth/integrations/test', () => {
  it('every integration has a sample: its message is posted as the bot, in the channel and topic named', async () => {
    const hook = await makeHookBot(mel.client, 'tester');
    for (const integration of INTEGRATIONS) {
      assert.ok(SAMPLES.has(integration.name), `a sample for ${integration.name}`);
      const res = await mel.client.post('/hearth/integrations/test', { integration: integration.name, bot_id: hook.id, stream_id: channelId, topic: `test ${integration.name}` });
      assert.equal(res.status, 200, `${integration.name}: ${JSON.stringify(res.body)}`);
      assert.ok(res.body.message_ids.length >= 1, `${integration.name} posts a message`);
      for (const id of res.body.message_ids) {
        const m = ts.store.messages.get(id)!;
        assert.equal(m.sender_id, hook.id);
        assert.equal(m.stream_id, channelId);
        assert.equal(m.topic, `test ${integration.name}`);
        assert.equal(m.client, `Zulip${integration.clientName}Webhook`);
        assert.ok(m.content.length > 0);
      }
    }
    const gitea = await mel.client.post('/hearth/integrations/test', { integration: 'gitea', bot_id: hook.id, stream_id: channelId, topic: 'forge' });
    const m = ts.store.messages.get(gitea.body.message_ids[0])!;
    assert.match(m.content, /\[pushed\]\(.*\) 1 commit to branch main/);
    assert.match(m.content, /Test message from Hearth/);
  });

  it('without a topic, the integration’s own topic', async () => {
    const hook = await makeHookBot(mel.client, 'notopic');
    const res = await mel.client.post('/hearth/integrations/test', { integration: 'homeassistant', bot_id: hook.id, stream_id: channelId });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(ts.store.messages.get(res.body.message_ids[0])!.topic, 'Home Assistant');
  });

  it('refuses an unknown integration, a bot that is not an incoming webhook, another member’s bot, an unknown channel', async () => {
    const hook = await makeHookBot(mel.client, 'refusals');
    const generic = await mel.client.post('/bots', { full_name: 'Plain bot', short_name: 'plain', bot_type: 1 });
    const before = ts.store.messages.maxId;
    const cases: [Record<string, ParamValue>, RegExp, typeof mel.client][] = [
      [{ integration: 'nonesuch', bot_id: hook.id, stream_id: channelId }, /integration/, mel.client],
      [{ integration: 'json', bot_id: generic.body.user_id, stream_id: channelId }, /not an incoming webhook/, mel.client],
      [{ integration: 'json', bot_id: hook.id, stream_id: channelId }, /Insufficient permission/, sam.client],
      [{ integration: 'json', bot_id: hook.id, stream_id: 99999 }, /channel|stream/i, mel.client],
    ];
    for (const [params, msg, client] of cases) {
      const res = await client.post('/hearth/integrations/test', params);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.msg, msg);
    }
    assert.equal(ts.store.messages.maxId, before, 'nothing posted');
  });
});

describe('an outgoing bot’s last call (hearth_last_call)', () => {
  let target: Server;
  let url: string;
  const answers: ((res: import('node:http').ServerResponse) => void)[] = [];

  before(async () => {
    target = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const answer = answers.shift();
        if (answer) answer(res);
        // Else never answers: a timeout.
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/hook`;
    const on = await ts.ownerClient.patch('/realm', { hearth_allow_loopback_webhooks: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
  });
  after(async () => {
    target.closeAllConnections();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  const lastCallOf = async (botId: number) => {
    const own = await mel.client.get('/bots');
    const listed = own.body.bots.find((b: { user_id: number }) => b.user_id === botId);
    const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['realm_bot'] });
    const admin = reg.body.realm_bots.find((b: { user_id: number }) => b.user_id === botId);
    assert.deepEqual(listed.hearth_last_call, admin.hearth_last_call, 'GET /bots and realm_bots agree');
    return listed.hearth_last_call;
  };
  /** The bot's last call as the file on disk has it (written by rename: never half a file). */
  const onDisk = async (botId: number) => JSON.parse(await readFile(join(ts.dataDir, 'outgoing_webhooks.json'), 'utf8')).last_calls?.[String(botId)];

  it('null before the first call; then each call’s outcome, durable in outgoing_webhooks.json', async () => {
    const made = await mel.client.post('/bots', { full_name: 'Desk bot', short_name: 'desk', bot_type: 3, payload_url: JSON.stringify(url) });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const botId: number = made.body.user_id;
    assert.equal(await lastCallOf(botId), null);
    // Other bots have no such field.
    const reg = await ts.ownerClient.post('/register', { fetch_event_types: ['realm_bot'] });
    assert.ok(reg.body.realm_bots.filter((b: { bot_type: number }) => b.bot_type !== 3).every((b: object) => !('hearth_last_call' in b)));

    const t0 = Math.floor(Date.now() / 1000);
    answers.push((res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"content": "ok"}'));
    await sendStream(sam.client, 'alerts', 'desk', '@**Desk bot** hello');
    await eventually(async () => (await onDisk(botId))?.text === 'HTTP 200', 'the first call recorded');
    const first = await lastCallOf(botId);
    assert.equal(first.ok, true);
    assert.equal(first.text, 'HTTP 200');
    assert.ok(first.timestamp >= t0 && first.timestamp <= Math.floor(Date.now() / 1000) + 1);

    answers.push((res) => res.writeHead(500).end('down'));
    await sendStream(sam.client, 'alerts', 'desk', '@**Desk bot** again');
    await eventually(async () => (await onDisk(botId))?.text === 'HTTP 500', 'a 500 recorded');
    assert.deepEqual(await lastCallOf(botId), { ...(await onDisk(botId)), ok: false, text: 'HTTP 500' });

    answers.push((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'));
    await sendStream(sam.client, 'alerts', 'desk', '@**Desk bot** html');
    await eventually(async () => (await onDisk(botId))?.text === 'HTTP 200: Invalid JSON in response', 'an unreadable answer recorded');
    assert.equal((await lastCallOf(botId)).ok, false);

    // No answer: each timed-out try is recorded, then the last one.
    await sendStream(sam.client, 'alerts', 'desk', '@**Desk bot** silence');
    await eventually(async () => (await onDisk(botId))?.text === 'timed out, trying again', 'a retry recorded', 5000);
    await eventually(async () => ts.store.outgoingWebhooks.data.calls.length === 0 && (await onDisk(botId))?.text === 'timed out', 'the last try recorded', 10000);
    assert.deepEqual(await lastCallOf(botId), { ...(await onDisk(botId)), ok: false, text: 'timed out' });
  });

  it('PATCH /bots/{id} changes the URL and interface; an unreachable one is "could not connect"', async () => {
    const made = await mel.client.post('/bots', { full_name: 'Moved bot', short_name: 'moved', bot_type: 3, payload_url: JSON.stringify(url) });
    const botId: number = made.body.user_id;
    const dead = 'http://127.0.0.1:9/nothing';
    const res = await ts.ownerClient.patch(`/bots/${botId}`, { service_payload_url: JSON.stringify(dead), service_interface: 2 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const service = ts.store.users.get(botId)!.bot_settings!.outgoing!;
    assert.equal(service.base_url, dead);
    assert.equal(service.interface, 2);
    await sendStream(sam.client, 'alerts', 'moved', '@**Moved bot** are you there');
    await eventually(async () => ts.store.outgoingWebhooks.data.calls.length === 0 && (await onDisk(botId))?.text === 'could not connect', 'recorded', 10000);
    assert.equal((await lastCallOf(botId)).ok, false);
  });
});
