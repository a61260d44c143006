import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hookSuite, makeHookBot, newest, postHook, postMultipart } from '../helpers/webhooks.js';
import { notificationBotId } from '../../server/lib/people/system-bots.js';
import { filteredOut, fnmatch } from '../../server/webhooks/common.js';

const s = hookSuite('ci', 'ops');

/** A Sentry-like alert a monitoring tool posts. */
const ALERT = {
  action: 'triggered',
  data: { event: { title: 'TypeError: cannot read "id" of undefined', level: 'error', tags: [['release', '2.4.1']] } },
  url: 'https://sentry.office.lan/issues/42/',
  actor: { type: 'application', name: 'Sentry' },
};

describe('POST /api/v1/external/json', () => {
  it('posts the payload pretty-printed in a json code block, topic "JSON", as the bot', async () => {
    const res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: 'ops' }, ALERT);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { result: 'success', msg: '' });
    const m = newest(s.ts);
    assert.equal(m.streamId, s.channelId);
    assert.equal(m.topic, 'JSON');
    assert.equal(m.senderId, s.hook.id);
    assert.equal(m.client, 'ZulipJSONWebhook');
    assert.equal(m.content, `\`\`\`json\n${JSON.stringify(ALERT, null, 2)}\n\`\`\``);
  });

  it('escapes non-ASCII as Python json.dumps does, and takes `topic` and a channel ID', async () => {
    const res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: String(s.channelId), topic: 'nightly' }, { city: 'Zürich', mood: '🙂' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const m = newest(s.ts);
    assert.equal(m.topic, 'nightly');
    assert.equal(m.content, '```json\n{\n  "city": "Z\\u00fcrich",\n  "mood": "\\ud83d\\ude42"\n}\n```');
  });

  it('without `stream`, sends the bot owner a direct message; the message is unread for the owner and found by search', async () => {
    const res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey }, { ping: 1 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const m = newest(s.ts);
    assert.deepEqual(m.dm, [s.mel.id, s.hook.id].sort((a, b) => a - b));
    const mine = await s.melC.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'search', operand: 'ping' }] });
    assert.equal(mine.body.messages.at(-1)?.id, m.id, JSON.stringify(mine.body));
    assert.deepEqual(mine.body.messages.at(-1)?.flags, []);
  });

  it('takes HTTP Basic (email:api_key) instead of api_key', async () => {
    const email = s.ts.store.users.get(s.hook.id)!.email;
    const auth = `Basic ${Buffer.from(`${email}:${s.hook.apiKey}`).toString('base64')}`;
    const res = await postHook(s.ts, 'json', { stream: 'ops' }, { basic: true }, { authorization: auth });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(newest(s.ts).senderId, s.hook.id);
  });

  it('answers Zulip errors for a missing, malformed or wrong key and a deactivated bot', async () => {
    let res = await postHook(s.ts, 'json', { stream: 'ops' }, { a: 1 });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { result: 'error', msg: "Missing 'api_key' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'api_key' });
    res = await postHook(s.ts, 'json', { api_key: 'short', stream: 'ops' }, { a: 1 });
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { result: 'error', msg: 'Malformed API key', code: 'INVALID_API_KEY' });
    res = await postHook(s.ts, 'json', { api_key: 'x'.repeat(32), stream: 'ops' }, { a: 1 });
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' });
    const gone = await makeHookBot(s.melC, 'gone');
    assert.equal((await s.melC.delete(`/bots/${gone.id}`)).status, 200);
    res = await postHook(s.ts, 'json', { api_key: gone.apiKey, stream: 'ops' }, { a: 1 });
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
  });

  it('a channel that does not exist: success, nothing posted, and the owner hears from the Notification Bot once a minute', async () => {
    const before = s.ts.store.messages.maxId;
    const res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: 'no-such' }, { a: 1 });
    assert.deepEqual(res.body, { result: 'success', msg: '' });
    const notice = newest(s.ts);
    assert.equal(notice.id, before + 1);
    assert.deepEqual(notice.dm?.includes(s.mel.id), true);
    assert.equal(
      notice.content,
      `Your bot @_**Hook ci|${s.hook.id}** tried to send a message to channel #**no-such**, but that channel does not exist. Click [here](#channels/new) to create it.`,
    );
    await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: 'no-such' }, { a: 2 });
    assert.equal(s.ts.store.messages.maxId, notice.id, 'no second notice within a minute');
    // By ID the error is answered too.
    const byId = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: '99999' }, { a: 3 });
    assert.equal(byId.status, 400);
    assert.equal(byId.body.code, 'STREAM_DOES_NOT_EXIST');
  });

  it('bad input is always a JSON error: not JSON, too deep, not UTF-8, 20 MB, unknown integration, the /json/ mirror', async () => {
    let res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: 'ops' }, '{"oops": ', { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' });
    res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: 'ops' }, '', { 'content-type': 'application/json' });
    assert.equal(res.body.code, 'INVALID_JSON');
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: 'ops' }, deep, { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'INVALID_JSON');
    const ok = `${'['.repeat(1000)}${']'.repeat(1000)}`;
    res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: 'ops' }, ok, { 'content-type': 'application/json' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(newest(s.ts).content, /\[message truncated\]$/);
    const latin1 = await fetch(`${s.ts.url}/api/v1/external/json?api_key=${s.hook.apiKey}&stream=ops`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]),
    });
    assert.equal(latin1.status, 400);
    assert.equal((await latin1.json()).msg, 'Malformed payload');
    const huge = JSON.stringify({ blob: 'x'.repeat(20 * 1024 * 1024) });
    res = await postHook(s.ts, 'json', { api_key: s.hook.apiKey, stream: 'ops' }, huge, { 'content-type': 'application/json' });
    assert.equal(res.status, 413);
    assert.deepEqual(res.body, { result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' });
    res = await postHook(s.ts, 'nosuchtool', { api_key: s.hook.apiKey }, { a: 1 });
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' });
    const mirror = await fetch(`${s.ts.url}/json/external/json?api_key=${s.hook.apiKey}`, { method: 'POST', body: '{}' });
    assert.equal(mirror.status, 404);
  });

  it("malformed JSON: the caller's answer is unchanged and the owner hears Zulip's INVALID_JSON_MESSAGE, at most once a minute", async () => {
    const bot = await makeHookBot(s.melC, 'badjson');
    const notifier = notificationBotId(s.ts.app)!;
    const wording = (name: string) =>
      `Hi there! It looks like you tried to set up the Zulip ${name} integration,\nbut didn't correctly configure the webhook to send data in the JSON format\nthat this integration expects!`;
    const before = s.ts.store.messages.maxId;
    let res = await postHook(s.ts, 'json', { api_key: bot.apiKey, stream: 'ops' }, '{"oops": ', { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' });
    const notice = newest(s.ts);
    assert.equal(notice.id, before + 1);
    assert.equal(notice.senderId, notifier);
    assert.deepEqual(notice.dm, [s.mel.id, notifier].sort((a, b) => a - b));
    assert.equal(notice.content, wording('JSON'));
    // Within the minute: the same answer, no second notice (the wait the other owner notices share).
    res = await postHook(s.ts, 'github', { api_key: bot.apiKey, stream: 'ops' }, 'nope', { 'content-type': 'application/json', 'x-github-event': 'push' });
    assert.deepEqual(res.body, { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' });
    assert.equal(s.ts.store.messages.maxId, notice.id);
    // A minute later the next one is told, naming the integration as Zulip's webhook_view does.
    s.ts.store.users.get(bot.id)!.last_reminder! -= 61_000;
    res = await postHook(s.ts, 'github', { api_key: bot.apiKey, stream: 'ops' }, 'nope', { 'content-type': 'application/json', 'x-github-event': 'push' });
    assert.equal(res.status, 400);
    assert.equal(newest(s.ts).id, notice.id + 1);
    assert.equal(newest(s.ts).content, wording('GitHub'));
    // A good payload, and an error that is not about JSON, tell nobody.
    s.ts.store.users.get(bot.id)!.last_reminder! -= 61_000;
    const last = s.ts.store.messages.maxId;
    res = await postHook(s.ts, 'json', { api_key: bot.apiKey, stream: 'ops', only_events: '[' }, { a: 1 });
    assert.equal(res.status, 400);
    assert.equal(s.ts.store.messages.maxId, last);
  });

  it('slack_incoming answers malformed JSON in Slack\'s shape and tells nobody (Zulip\'s slack_error_handler answers it first)', async () => {
    const bot = await makeHookBot(s.melC, 'slackjson');
    const last = s.ts.store.messages.maxId;
    const res = await postHook(s.ts, 'slack_incoming', { api_key: bot.apiKey, stream: 'ops' }, '{"text": ', { 'content-type': 'application/json' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { ok: false, error: 'Malformed JSON' });
    assert.equal(s.ts.store.messages.maxId, last);
  });

  it('multipart/form-data: fields are read as a urlencoded form\'s (api_key); json reads the raw body, which is not JSON', async () => {
    const bot = await makeHookBot(s.melC, 'multi');
    const before = s.ts.store.messages.maxId;
    const res = await postMultipart(s.ts, 'json', {}, [
      { name: 'api_key', value: bot.apiKey },
      { name: 'stream', value: 'ops' },
    ]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' });
    // The key in a multipart field named the bot: its owner was told.
    assert.equal(newest(s.ts).id, before + 1);
    assert.match(newest(s.ts).content, /the Zulip JSON integration/);
    // A key only inside a file part is no key.
    const noKey = await postMultipart(s.ts, 'json', { stream: 'ops' }, [{ name: 'api_key', value: bot.apiKey, filename: 'key.txt' }]);
    assert.equal(noKey.status, 400);
    assert.equal(noKey.body.msg, "Missing 'api_key' argument");
    // Malformed multipart (no boundary) is a 400, and more than the webhook limit a 413, as for any body.
    const broken = await fetch(`${s.ts.url}/api/v1/external/json?api_key=${bot.apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    assert.equal(broken.status, 400);
    assert.equal((await broken.json()).result, 'error');
    const huge = await postMultipart(s.ts, 'json', { api_key: bot.apiKey }, [{ name: 'blob', value: 'x'.repeat(11 * 1024 * 1024) }]);
    assert.equal(huge.status, 413);
    assert.deepEqual(huge.body, { result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' });
  });

  it('only_events and exclude_events match with fnmatch patterns', () => {
    assert.ok(fnmatch('issue_comment', 'issue*'));
    assert.ok(fnmatch('pull_request', 'pull_?equest'));
    assert.ok(fnmatch('push', '[pq]ush'));
    assert.ok(!fnmatch('push', '[!p]ush'));
    assert.ok(!fnmatch('Push', 'push'));
    assert.ok(fnmatch('a.b', 'a.b') && !fnmatch('axb', 'a.b'));
    assert.equal(filteredOut('push', ['pull*'], undefined), true);
    assert.equal(filteredOut('push', ['pu*'], undefined), false);
    assert.equal(filteredOut('push', undefined, ['p*']), true);
    assert.equal(filteredOut('push', undefined, undefined), false);
  });

  it('register lists the integrations in realm_incoming_webhook_bots', async () => {
    const res = await s.melC.post('/register', { fetch_event_types: ['realm_incoming_webhook_bots'] });
    const ours = res.body.realm_incoming_webhook_bots.filter((b: { name: string }) => b.name === 'json' || b.name === 'slack_incoming');
    assert.deepEqual(ours, [
      { name: 'json', display_name: 'JSON formatter', all_event_types: null, config_options: [], url_options: [] },
      { name: 'slack_incoming', display_name: 'Slack-compatible webhook', all_event_types: null, config_options: [], url_options: [] },
    ]);
  });
});
