import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from './helpers/channels.js';
import { startTestServer, type Client, type TestServer } from './helpers/server.js';

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
