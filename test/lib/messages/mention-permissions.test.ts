import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../../helpers/channels.js';
import { startTestServer, type Client, type TestServer } from '../../helpers/server.js';

/** A group's can_mention_group decides who may @-mention it (silent mentions always allowed). */
describe('can_mention_group on sending', () => {
  let ts: TestServer;
  let admin: Client;
  let mel: Client;
  let leadId: number;
  let lea: Client;
  const id = (name: string) => ts.store.groups.data.groups.find((g) => g.name === name)!.id;
  const send = (client: Client, content: string) => client.post('/messages', { type: 'stream', to: 'hall', topic: 't', content });
  before(async () => {
    ts = await startTestServer();
    const a = await ts.addUser('Adam', 200);
    admin = ts.client(a);
    mel = ts.client(await ts.addUser('Mel'));
    const l = await ts.addUser('Lea');
    leadId = l.id;
    lea = ts.client(l);
    await createChannel(ts, admin, 'hall', { principals: [] });
    for (const c of [mel, lea]) assert.equal((await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'hall' }] })).status, 200);
    const g = await admin.post('/user_groups/create', {
      name: 'leads',
      description: 'leads',
      members: [leadId],
      can_mention_group: id('role:administrators'),
    });
    assert.equal(g.status, 200, JSON.stringify(g.body));
  });
  after(() => ts.stop());

  it('refuses a member mentioning the group, storing nothing', async () => {
    const before = ts.store.messages.size;
    const res = await send(mel, 'hey @*leads*');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'BAD_REQUEST');
    assert.equal(res.body.msg, "You are not allowed to mention user group 'leads'.");
    assert.equal(ts.store.messages.size, before);
  });

  it('allows a silent mention, and an administrator\'s mention flags the members', async () => {
    assert.equal((await send(mel, 'fyi @_*leads*')).status, 200);
    const res = await send(admin, 'hey @*leads*');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const fetched = await lea.get(`/messages/${res.body.id}`);
    assert.ok((fetched.body.message.flags as string[]).includes('mentioned'), JSON.stringify(fetched.body));
  });
});

/** Wildcard mentions reaching more than 15 people need can_mention_many_users_group (default: administrators). */
describe('can_mention_many_users_group on sending', () => {
  let ts: TestServer;
  let admin: Client;
  let mel: Client;
  const crowd: Client[] = [];
  const send = (client: Client, to: string, topic: string, content: string) => client.post('/messages', { type: 'stream', to, topic, content });
  before(async () => {
    ts = await startTestServer();
    admin = ts.client(await ts.addUser('Adam', 200));
    mel = ts.client(await ts.addUser('Mel'));
    for (let i = 0; i < 15; i++) crowd.push(ts.client(await ts.addUser(`Crowd${i}`)));
    await createChannel(ts, admin, 'big', { principals: [] });
    await createChannel(ts, admin, 'small', { principals: [] });
    for (const c of [mel, ...crowd]) assert.equal((await c.post('/users/me/subscriptions', { subscriptions: [{ name: 'big' }] })).status, 200);
    assert.equal((await mel.post('/users/me/subscriptions', { subscriptions: [{ name: 'small' }] })).status, 200);
  });
  after(() => ts.stop());

  it('register shows the setting (administrators by default)', async () => {
    const reg = await mel.post('/register', { fetch_event_types: ['realm'] });
    assert.equal(reg.body.realm_can_mention_many_users_group, ts.store.groups.data.groups.find((g) => g.name === 'role:administrators')!.id);
  });

  it('channel wildcards: refused for a member in a channel of 17, allowed in a small one and for administrators', async () => {
    const before = ts.store.messages.size;
    const res = await send(mel, 'big', 't', 'hello @**all**');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
    assert.equal(res.body.msg, 'You do not have permission to use channel wildcard mentions in this channel.');
    assert.equal(ts.store.messages.size, before);
    assert.equal((await send(mel, 'small', 't', 'hello @**all**')).status, 200);
    assert.equal((await send(admin, 'big', 't', 'hello @**channel**')).status, 200);
    assert.equal((await send(mel, 'big', 't', 'hello @_**all**')).status, 200, 'silent wildcards notify nobody');
  });

  it('topic wildcards: refused for a member once the topic has more than 15 participants', async () => {
    assert.equal((await send(mel, 'big', 'party', 'hi @**topic**')).status, 200, 'few participants');
    for (const c of crowd) assert.equal((await send(c, 'big', 'party', 'here')).status, 200);
    const res = await send(mel, 'big', 'party', 'hi @**topic**');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
  });
});
