/**
 * Names every JavaScript object inherits (`constructor`, `toString`, `__proto__`...) are not known
 * values of any parameter, and odd values found by a fuzz probe get 4xx errors, not a 500 or a
 * stored record: message and scheduled types, select choices, external account kinds, static files,
 * narrow operators and operands, retention days nested deep, control characters in emails,
 * a personal language, and a code block's language.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';

const INHERITED = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];

describe('inherited names and other odd values', () => {
  let ts: TestServer;
  let owner: Client;
  let mel: Client;
  let melId: number;
  before(async () => {
    ts = await startTestServer();
    owner = ts.ownerClient;
    const acc = await ts.addUser('Mel');
    melId = acc.id;
    mel = ts.client(acc);
  });
  after(() => ts.stop());

  const refused = (res: { status: number; body: { result: string; msg: string } }, msg: RegExp | string, status = 400) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.result, 'error');
    if (typeof msg === 'string') assert.equal(res.body.msg, msg);
    else assert.match(res.body.msg, msg);
  };

  it('message, scheduled message and typing types', async () => {
    const before = (await owner.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 })).body.messages.length;
    for (const type of INHERITED) {
      refused(await owner.post('/messages', { type, to: JSON.stringify([melId]), content: 'x' }), 'Invalid type');
      const at = Math.floor(Date.now() / 1000) + 600;
      refused(await owner.post('/scheduled_messages', { type, to: JSON.stringify([melId]), content: 'x', scheduled_delivery_timestamp: at }), 'Invalid type');
      refused(await owner.post('/typing', { type, op: 'start', to: JSON.stringify([melId]) }), 'Invalid type');
    }
    assert.equal((await owner.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 })).body.messages.length, before);
    assert.deepEqual((await owner.get('/scheduled_messages')).body.scheduled_messages, []);
  });

  it('select choices and external account kinds', async () => {
    const field = await owner.post('/realm/profile_fields', { name: 'Team', field_type: 3, field_data: JSON.stringify({ a: { text: 'Alpha', order: '1' } }) });
    assert.equal(field.status, 200, JSON.stringify(field.body));
    for (const value of INHERITED) {
      refused(await mel.patch('/users/me/profile_data', { data: JSON.stringify([{ id: field.body.id, value }]) }), `'${value}' is not a valid choice for 'Team'.`);
      refused(await owner.post('/realm/profile_fields', { name: 'Acct', field_type: 7, field_data: JSON.stringify({ subtype: value }) }), 'Invalid external account type');
    }
    assert.equal((await mel.patch('/users/me/profile_data', { data: JSON.stringify([{ id: field.body.id, value: 'a' }]) })).status, 200);
    const fields = (await owner.get('/realm/profile_fields')).body.custom_fields as { name: string }[];
    assert.deepEqual(fields.map((f) => f.name).filter((n) => n !== 'Team' && !n.startsWith('Pronouns')).filter((n) => n === 'Object' || n === 'Acct'), []);
  });

  it('message flags, and a dict parameter with a __proto__ key', async () => {
    const channel = await createChannel(ts, owner, 'flagged');
    const sent = await owner.post('/messages', { type: 'stream', to: String(channel), topic: 't', content: 'x' });
    for (const flag of INHERITED) {
      refused(await mel.post('/messages/flags', { messages: JSON.stringify([sent.body.id]), op: 'add', flag }), `Invalid flag: '${flag}'`);
    }
    const proto = await owner.post('/realm/profile_fields', { name: 'Git', field_type: 7, field_data: '{"__proto__": {"subtype": "github"}}' });
    refused(proto, 'subtype key is missing from field_data');
  });

  it('static files and narrows', async () => {
    for (const name of INHERITED) {
      const res = await owner.call('GET', `/static/${name}`, {}, { raw: true });
      refused(res, 'Not Found', 404);
      refused(await owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'has', operand: name }]) }), /unknown 'has' operand/);
      const op = await owner.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: name, operand: 'x' }]) });
      assert.equal(op.status, 400);
      assert.doesNotMatch(op.body.msg, /native code/);
    }
  });

  it('retention days nested deep, emails with control characters or a trailing dot, a personal language', async () => {
    const general = await createChannel(ts, owner, 'retained');
    refused(await owner.patch(`/streams/${general}`, { message_retention_days: `${'['.repeat(5001)}${']'.repeat(5001)}` }), /^Bad value for 'message_retention_days': /);
    for (const email of ['nul\u0000@example.com', 'tab\t@example.com', 'x@example.com.', 'x..y@example.com']) {
      refused(await owner.post('/users', { email, password: 'long-enough-1', full_name: 'X' }), /email/i);
    }
    refused(await mel.patch('/settings', { default_language: 'zzzz' }), 'Invalid default_language');
    assert.equal((await mel.patch('/settings', { default_language: 'pt-BR' })).status, 200);
  });

  it("a code block's language named like an inherited name renders as given", async () => {
    const res = await mel.post('/messages/render', { content: '```constructor\nx\n```' });
    assert.equal(res.status, 200);
    assert.match(res.body.rendered, /data-code-language="constructor"/);
  });
});
