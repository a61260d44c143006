import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hookSuite, newest, postHook, registerEntry } from '../helpers/webhooks.js';

const s = hookSuite('house', 'house');

const send = (payload: object | string, query: Record<string, string> = { stream: 'house' }, headers: Record<string, string> = {}) =>
  postHook(s.ts, 'homeassistant', { api_key: s.hook.apiKey, ...query }, payload, headers);

async function post(payload: object, query?: Record<string, string>) {
  const res = await send(payload, query);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, { result: 'success', msg: '' });
  const m = newest(s.ts);
  return { topic: m.topic, content: m.content };
}

describe('POST /api/v1/external/homeassistant', () => {
  it('the message as it is, topic "homeassistant" without a topic in the body', async () => {
    assert.deepEqual(await post({ message: 'The washing machine has finished.' }), {
      topic: 'homeassistant',
      content: 'The washing machine has finished.',
    });
    assert.equal(newest(s.ts).client, 'ZulipHomeAssistantWebhook');
  });

  it('the body\'s topic (Home Assistant\'s title, sent with title_param_name: topic); Markdown passes through', async () => {
    assert.deepEqual(await post({ topic: 'Front door', message: 'The front door has been **open** for 10 minutes.' }), {
      topic: 'Front door',
      content: 'The front door has been **open** for 10 minutes.',
    });
    // The URL's topic still wins over the body's, as every integration's.
    assert.equal((await post({ topic: 'Front door', message: 'Closed.' }, { stream: 'house', topic: 'Doors' })).topic, 'Doors');
  });

  it('without a stream, a direct message to the bot\'s owner', async () => {
    const res = await send({ message: 'Good morning!' }, {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const m = newest(s.ts);
    assert.equal(m.content, 'Good morning!');
    assert.deepEqual(m.dm, [s.mel.id, s.hook.id].sort((a, b) => a - b));
  });

  it('no message, or not strings: Zulip\'s WildValue errors; no event types in register', async () => {
    let res = await send({ title: 'Weather' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { result: 'error', msg: 'payload["message"] is missing', code: 'BAD_REQUEST' });
    res = await send({ message: ['a'] });
    assert.deepEqual(res.body, { result: 'error', msg: 'payload["message"] is not a string', code: 'BAD_REQUEST' });
    res = await send({ message: 'x', topic: null });
    assert.deepEqual(res.body, { result: 'error', msg: 'payload["topic"] is not a string', code: 'BAD_REQUEST' });
    res = await send({ message: '   ' });
    assert.deepEqual(res.body, { result: 'error', msg: 'Message must not be empty', code: 'BAD_REQUEST' });
    const entry = await registerEntry(s, 'homeassistant');
    assert.deepEqual(entry, { name: 'homeassistant', display_name: 'Home Assistant', all_event_types: null, config_options: [], url_options: [] });
  });
});
