/**
 * Outgoing-webhook bots called as Zulip calls them (server/actions/outgoing-webhook-worker.ts):
 * against a small HTTP server on loopback, with the organization allowing loopback targets
 * (`hearth_allow_loopback_webhooks`) except where the refusal itself is tested.
 */
import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { eventually } from '../helpers/eventually.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type Person, type TestServer } from '../helpers/server.js';
import { createApp, type HearthServer } from '../../server/app.js';
import { silentLogger } from '../../server/log.js';
import { FLAG, type MessageRecord } from '../../server/store/message-records.js';
import { Store } from '../../server/store/store.js';

interface Hit {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (hit: Hit, res: ServerResponse) => void;

/** The bots' service: records every call and answers with the handler named by the path's first segment. */
class Target {
  hits: Hit[] = [];
  handlers = new Map<string, Handler>();
  private constructor(
    readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<Target> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const t = new Target(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const hit = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        t.hits.push(hit);
        const handler = t.handlers.get(hit.path.split('/')[1] ?? '');
        if (handler) handler(hit, res);
        else res.writeHead(404).end();
      });
    });
    return t;
  }

  hitsOn = (name: string) => this.hits.filter((h) => h.path === `/${name}`);

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** Makes an outgoing-webhook bot owned by `owner`, calling `${target}/${name}`. */
async function makeBot(owner: Client, target: Target, name: string, interfaceType = 1) {
  const res = await owner.post('/bots', {
    full_name: `Bot ${name}`,
    short_name: name,
    bot_type: 3,
    payload_url: JSON.stringify(`${target.url}/${name}`),
    interface_type: interfaceType,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { id: res.body.user_id as number, name: `Bot ${name}` };
}

const botMessages = (ts: TestServer, botId: number): MessageRecord[] => [...ts.store.messages.all()].filter((m) => m.sender_id === botId);

describe('outgoing webhooks', () => {
  let ts: TestServer;
  let target: Target;
  let mel: Person;
  let sam: Person;
  let channelId: number;

  before(async () => {
    ts = await startTestServer({ config: { outgoingWebhookTimeoutMs: 300, outgoingWebhookRetryMs: 20 } });
    target = await Target.start();
    [mel, sam] = await ts.people('Mel', 'Sam');
    channelId = await createChannel(ts, sam.client, 'bots');
    const on = await ts.ownerClient.patch('/realm', { hearth_allow_loopback_webhooks: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
  });
  after(async () => {
    await ts.stop();
    await target.stop();
  });

  it('a mention POSTs Zulip’s JSON off the send’s path, and the reply goes to the same topic', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    target.handlers.set('echo', (hit, res) => void held.then(() => json(res, 200, { content: `pong: ${JSON.parse(hit.body).data}` })));
    const bot = await makeBot(mel.client, target, 'echo');
    const content = `@**${bot.name}** ping`;
    // The target holds its answer until the send has answered: a send that waited would never answer.
    const id = await sendStream(sam.client, 'bots', 'lunch', content);
    release();
    await eventually(() => target.hitsOn('echo').length === 1, 'the service is called');
    const hit = target.hitsOn('echo')[0]!;
    assert.match(String(hit.headers['content-type']), /^application\/json/);
    assert.match(String(hit.headers['user-agent']), /^ZulipOutgoingWebhook\//);
    const body = JSON.parse(hit.body);
    const service = ts.store.users.get(bot.id)!.bot_settings!.outgoing!;
    assert.deepEqual(Object.keys(body).sort(), ['bot_email', 'bot_full_name', 'data', 'message', 'token', 'trigger']);
    assert.equal(body.bot_email, ts.store.users.get(bot.id)!.email);
    assert.equal(body.bot_full_name, bot.name);
    assert.equal(body.data, content);
    assert.equal(body.token, service.token);
    assert.equal(body.trigger, 'mention');
    assert.equal(body.message.id, id);
    assert.equal(body.message.content, content);
    assert.match(body.message.rendered_content, /user-mention/);
    assert.equal(body.message.type, 'stream');
    assert.equal(body.message.stream_id, channelId);
    assert.equal(body.message.display_recipient, 'bots');
    assert.equal(body.message.subject, 'lunch');
    assert.equal(body.message.sender_id, sam.account.id);
    const [reply] = await eventually(() => botMessages(ts, bot.id).length === 1 && botMessages(ts, bot.id), 'the reply is posted');
    assert.equal(reply!.content, `pong: ${content}`);
    assert.equal(reply!.stream_id, channelId);
    assert.equal(reply!.topic, 'lunch');
    assert.equal(reply!.client, 'OutgoingWebhookResponse');
    await eventually(() => ts.store.outgoingWebhooks.data.calls.length === 0, 'the call leaves the queue');
    // The bot's own reply (a bot's message) triggers nothing; a mention in code, or a silent one, neither.
    await sendStream(sam.client, 'bots', 'lunch', `\`@**${bot.name}**\` and @_**${bot.name}**`);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(target.hitsOn('echo').length, 1);
  });

  it('a direct message triggers direct_message; the legacy response_string replies; a group conversation gets the reply', async () => {
    target.handlers.set('dm', (hit, res) => json(res, 200, { response_string: `got ${JSON.parse(hit.body).trigger}` }));
    const bot = await makeBot(mel.client, target, 'dm');
    await sendDirect(sam.client, [bot.id], 'hello bot');
    const [one] = await eventually(() => botMessages(ts, bot.id).length === 1 && botMessages(ts, bot.id), 'the reply');
    assert.equal(one!.content, 'got direct_message');
    assert.deepEqual([...one!.dm!].sort(), [sam.account.id, bot.id].sort());
    assert.equal(JSON.parse(target.hitsOn('dm')[0]!.body).message.type, 'private');
    await sendDirect(sam.client, [bot.id, mel.account.id], 'hello all');
    const group = await eventually(() => botMessages(ts, bot.id)[1], 'the group reply');
    assert.deepEqual([...group.dm!].sort(), [sam.account.id, mel.account.id, bot.id].sort());
  });

  it('a connection cut before the answer is tried again (not a failure while a retry succeeds); the message is read for the bot', async () => {
    let calls = 0;
    target.handlers.set('flaky', (_hit, res) => {
      if (++calls === 1) res.socket?.destroy();
      else json(res, 200, { content: 'second time lucky' });
    });
    const bot = await makeBot(mel.client, target, 'flaky');
    const id = await sendDirect(sam.client, [bot.id], 'try me');
    await eventually(() => botMessages(ts, bot.id)[0]?.content === 'second time lucky', 'the reply after a retry');
    assert.equal(target.hitsOn('flaky').length, 2);
    assert.equal(botMessages(ts, bot.id).length, 1, 'no failure message, no notice');
    const m = ts.store.messages.get(id)!;
    assert.equal((ts.store.messages.rowFlags(m, bot.id)! & FLAG.read) !== 0, true);
  });

  it('response_not_required (or "") posts nothing', async () => {
    target.handlers.set('quiet', (_hit, res) => json(res, 200, { response_not_required: true, content: 'not this' }));
    target.handlers.set('empty', (_hit, res) => json(res, 200, ''));
    const quiet = await makeBot(mel.client, target, 'quiet');
    const empty = await makeBot(mel.client, target, 'empty');
    await sendStream(sam.client, 'bots', 'silence', `@**${quiet.name}** @**${empty.name}** hi`);
    await eventually(() => target.hitsOn('quiet').length === 1 && target.hitsOn('empty').length === 1, 'both called');
    await eventually(() => ts.store.outgoingWebhooks.data.calls.length === 0, 'both calls ended');
    assert.equal(botMessages(ts, quiet.id).length + botMessages(ts, empty.id).length, 0);
  });

  it('the Slack interface sends Slack’s form and posts its `text`; a direct message is refused', async () => {
    target.handlers.set('slack', (_hit, res) => json(res, 200, { text: 'from slack' }));
    const bot = await makeBot(mel.client, target, 'slack', 2);
    const id = await sendStream(sam.client, 'bots', 'slacky', `@**${bot.name}** go`);
    await eventually(() => target.hitsOn('slack').length === 1, 'called');
    const hit = target.hitsOn('slack')[0]!;
    assert.equal(hit.headers['content-type'], 'application/x-www-form-urlencoded');
    const form = Object.fromEntries(new URLSearchParams(hit.body));
    const service = ts.store.users.get(bot.id)!.bot_settings!.outgoing!;
    assert.equal(form.token, service.token);
    assert.equal(form.channel_id, `C${channelId}`);
    assert.equal(form.channel_name, 'bots');
    assert.equal(form.user_id, `U${sam.account.id}`);
    assert.equal(form.user_name, 'Sam');
    assert.equal(form.text, `@**${bot.name}** go`);
    assert.equal(form.trigger_word, 'mention');
    assert.equal(form.service_id, String(bot.id));
    assert.equal(form.timestamp, String(ts.store.messages.get(id)!.timestamp));
    for (const k of ['team_id', 'team_domain', 'thread_ts']) assert.ok(form[k], k);
    await eventually(() => botMessages(ts, bot.id)[0]?.content === 'from slack', 'the reply');
    await sendDirect(sam.client, [bot.id], 'dm to slack');
    await eventually(
      () => botMessages(ts, bot.id).some((m) => m.content === "Failure! Slack outgoing webhooks don't support direct messages."),
      'the refusal',
    );
    assert.equal(target.hitsOn('slack').length, 1);
  });

  /** The notice the bot sent its owner (Mel) last. */
  const ownerNotice = (botId: number) =>
    botMessages(ts, botId)
      .filter((m) => m.dm && m.dm.includes(mel.account.id) && m.dm.length === 2)
      .at(-1);

  it('a service that never answers: 4 tries (Zulip’s 3 retries), then "Bot is unavailable" and the owner’s notice', async () => {
    target.handlers.set('slow', () => undefined);
    const bot = await makeBot(mel.client, target, 'slow');
    const id = await sendStream(sam.client, 'bots', 'waiting', `@**${bot.name}** anyone?`);
    const notice = await eventually(() => ownerNotice(bot.id), 'the owner is told', 15_000);
    assert.equal(target.hitsOn('slow').length, 4);
    assert.equal(
      notice.content,
      `[A message](/#narrow/channel/${channelId}-bots/topic/waiting/near/${id}) to your bot @_**${bot.name}** triggered an outgoing webhook.\nRequest timed out after 0.3 seconds.`,
    );
    const inTopic = botMessages(ts, bot.id).find((m) => m.stream_id === channelId);
    assert.equal(inTopic?.content, 'Failure! Bot is unavailable');
    assert.equal(inTopic?.topic, 'waiting');
    assert.equal(ts.store.outgoingWebhooks.data.calls.length, 0);
  });

  it('an answer of 500, or HTML, or a redirect (not followed): a failure in the topic and a notice, no retry', async () => {
    target.handlers.set('boom', (_hit, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('it broke'));
    target.handlers.set('html', (_hit, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hello</h1>'));
    target.handlers.set('moved', (_hit, res) => res.writeHead(302, { location: `${target.url}/echo` }).end());
    const boom = await makeBot(mel.client, target, 'boom');
    const html = await makeBot(mel.client, target, 'html');
    const moved = await makeBot(mel.client, target, 'moved');
    const echoHits = target.hitsOn('echo').length;
    await sendStream(sam.client, 'bots', 'errors', `@**${boom.name}** @**${html.name}** @**${moved.name}**`);
    const n500 = await eventually(() => ownerNotice(boom.id), 'the 500 notice');
    assert.match(n500.content, /\nThe webhook got a response with status code \*500\*\.\nThe response contains the following payload:\n```\nb'it broke'\n```$/);
    assert.ok(botMessages(ts, boom.id).some((m) => m.content === 'Failure! Third party responded with 500'));
    const nHtml = await eventually(() => ownerNotice(html.id), 'the HTML notice');
    assert.match(
      nHtml.content,
      /\nThe outgoing webhook server attempted to send a message in Zulip, but that request resulted in the following error:\n> Invalid JSON in response\nThe response contains the following payload:\n```\n'<h1>Hello<\/h1>'\n```$/,
    );
    assert.ok(botMessages(ts, html.id).some((m) => m.content === 'Failure! Invalid JSON in response'));
    const nMoved = await eventually(() => ownerNotice(moved.id), 'the redirect notice');
    assert.match(nMoved.content, /status code \*302\*/);
    assert.equal(target.hitsOn('boom').length, 1);
    assert.equal(target.hitsOn('echo').length, echoHits, 'the redirect was not followed');
  });

  it('a reply’s widget_content: a zform is posted with it; content that is not JSON is a failure with a notice', async () => {
    const zform = { widget_type: 'zform', extra_data: { type: 'choices', heading: 'Lunch?', choices: [{ type: 'multiple_choice', short_name: 'Y', long_name: 'Yes', reply: 'yes' }] } };
    target.handlers.set('form', (_hit, res) => json(res, 200, { content: 'choose', widget_content: JSON.stringify(zform) }));
    target.handlers.set('badform', (_hit, res) => json(res, 200, { content: 'whatever', widget_content: 'test' }));
    const form = await makeBot(mel.client, target, 'form');
    const bad = await makeBot(mel.client, target, 'badform');
    await sendStream(sam.client, 'bots', 'widgets', `@**${form.name}** @**${bad.name}**`);
    const posted = await eventually(() => botMessages(ts, form.id)[0], 'the zform reply');
    assert.equal(posted.content, 'choose');
    assert.equal(posted.submessages?.[0]?.msg_type, 'widget');
    const notice = await eventually(() => ownerNotice(bad.id), 'the notice');
    assert.match(
      notice.content,
      /\n> Widgets: API programmer sent invalid JSON content\nThe response contains the following payload:\n```\n'\{"content":"whatever","widget_content":"test"\}'\n```$/,
    );
    assert.ok(botMessages(ts, bad.id).some((m) => m.content === 'Failure! Widgets: API programmer sent invalid JSON content'));
  });

  it('an answer over 1 MiB is refused, with a notice', async () => {
    target.handlers.set('huge', (_hit, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"content": "${'x'.repeat(2 * 1024 * 1024)}"}`));
    const bot = await makeBot(mel.client, target, 'huge');
    await sendDirect(sam.client, [bot.id], 'big please');
    const notice = await eventually(() => ownerNotice(bot.id), 'the notice');
    assert.match(notice.content, /\nThe response was larger than 1 MiB, so it was not read\.$/);
    assert.ok(botMessages(ts, bot.id).some((m) => m.content === 'Failure! The response was larger than 1 MiB.'));
    assert.equal(ts.store.outgoingWebhooks.data.calls.length, 0);
  });

  it('hearth_allow_loopback_webhooks: owners only, in register, announced; off, this computer is refused with a notice', async () => {
    const [admin] = [await ts.addUser('Ada', 200)];
    const byAdmin = await ts.client(admin).patch('/realm', { hearth_allow_loopback_webhooks: false });
    assert.equal(byAdmin.status, 400, JSON.stringify(byAdmin.body));
    const reg = await sam.client.post('/register', { event_types: ['realm'], fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_hearth_allow_loopback_webhooks, true);
    const off = await ts.ownerClient.patch('/realm', { hearth_allow_loopback_webhooks: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    const events = await sam.client.get('/events', { queue_id: reg.body.queue_id, last_event_id: -1, dont_block: true });
    assert.ok(
      events.body.events.some(
        (e: Record<string, unknown>) => e.type === 'realm' && e.op === 'update' && e.property === 'hearth_allow_loopback_webhooks' && e.value === false,
      ),
      JSON.stringify(events.body.events),
    );
    try {
      target.handlers.set('local', (_hit, res) => json(res, 200, { content: 'should not happen' }));
      const bot = await makeBot(mel.client, target, 'local');
      const id = await sendDirect(sam.client, [bot.id], 'are you there?');
      const notice = await eventually(() => ownerNotice(bot.id), 'the notice');
      assert.equal(
        notice.content,
        `[A message](/#narrow/id/${id}) to your bot @_**${bot.name}** triggered an outgoing webhook.\nThe URL configured for the webhook is for a private or disallowed network.\nIt names this computer: an owner can allow that with the organization setting \`hearth_allow_loopback_webhooks\`.`,
      );
      assert.equal(target.hitsOn('local').length, 0);
      assert.ok(botMessages(ts, bot.id).some((m) => m.content === 'Failure! Third party responded with 407'));
    } finally {
      await ts.ownerClient.patch('/realm', { hearth_allow_loopback_webhooks: true });
    }
  });
});

describe('outgoing webhooks across a restart', () => {
  it('a call waiting when Hearth stops is on disk with its message, and is made after the next start', async () => {
    const config = { outgoingWebhookTimeoutMs: 5000, outgoingWebhookRetryMs: 20, apiRateLimitPerMinute: 0 };
    const ts = await startTestServer({ config });
    const target = await Target.start();
    let second: HearthServer | null = null;
    try {
      await ts.ownerClient.patch('/realm', { hearth_allow_loopback_webhooks: true });
      const [mel] = await ts.people('Mel');
      // The service does not answer before the stop.
      target.handlers.set('later', () => undefined);
      const bot = await makeBot(mel.client, target, 'later');
      const id = await sendDirect(mel.client, [bot.id], 'remember me');
      const onDisk = JSON.parse(await readFile(join(ts.dataDir, 'outgoing_webhooks.json'), 'utf8'));
      assert.deepEqual(
        onDisk.calls.map((c: Record<string, unknown>) => [c.bot_id, c.message_id, c.trigger]),
        [[bot.id, id, 'direct_message']],
        'the call was written before the send answered',
      );
      await eventually(() => target.hitsOn('later').length === 1, 'the first try is in flight');
      await ts.server.close();
      await ts.store.close();
      assert.equal(JSON.parse(await readFile(join(ts.dataDir, 'outgoing_webhooks.json'), 'utf8')).calls.length, 1, 'still queued after the stop');

      target.handlers.set('later', (_hit, res) => json(res, 200, { content: 'back again' }));
      const store = await Store.open(ts.dataDir);
      second = createApp({ store, log: silentLogger, config });
      await second.listen(0, '127.0.0.1');
      const app = second.app;
      await eventually(() => [...app.store.messages.all()].some((m) => m.sender_id === bot.id && m.content === 'back again'), 'the reply after the restart');
      assert.equal(target.hitsOn('later').length, 2);
      await eventually(() => app.store.outgoingWebhooks.data.calls.length === 0, 'the queue is empty');
    } finally {
      if (second) {
        await second.close();
        await second.app.store.close();
        await rm(ts.dataDir, { recursive: true, force: true });
      } else {
        await ts.stop().catch(() => undefined);
      }
      await target.stop();
    }
  });
});
