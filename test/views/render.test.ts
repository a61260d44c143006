import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { renderContextFor } from '../../server/lib/messages/render-context.js';
import { renderMessage } from '../../server/markdown/index.js';
import { createChannel } from '../helpers/channels.js';
import { castOf, type Cast, type CastRole } from '../helpers/people.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** POST /messages/render and the render context built from the organization. */
describe('POST /messages/render', () => {
  let ts: TestServer;
  let cast: Cast;
  let general = 0;
  let secret = 0;
  let groupId = 0;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    general = await createChannel(ts, ts.client(cast.owner), 'general');
    secret = await createChannel(ts, ts.client(cast.owner), 'secret plans', { invite_only: true });
    const res = await ts.client(cast.owner).post('/user_groups/create', { name: 'support', description: 'help', members: JSON.stringify([cast.member.id]) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    groupId = res.body.group_id;
  });
  after(() => ts.stop());

  const render = (who: CastRole, content: string) => ts.client(cast[who]).post('/messages/render', { content });

  it('renders with the organization: users, groups, channels the author can see', async () => {
    const res = await render('member', '@**Mel** @**Ada** @*support* #**general>hi** #**secret plans** :smile:');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result, 'success');
    assert.equal(
      res.body.rendered,
      `<p><span class="user-mention" data-user-id="${cast.member.id}">@Mel</span> ` +
        `<span class="user-mention" data-user-id="${cast.admin.id}">@Ada</span> ` +
        `<span class="user-group-mention" data-user-group-id="${groupId}">@support</span> ` +
        `<a class="stream-topic" data-stream-id="${general}" href="/#narrow/channel/${general}-general/topic/hi">#general &gt; hi</a> ` +
        '#<strong>secret plans</strong> <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>',
    );
    const owner = await render('owner', '#**secret plans**');
    assert.equal(
      owner.body.rendered,
      `<p><a class="stream" data-stream-id="${secret}" href="/#narrow/channel/${secret}-secret-plans">#secret plans</a></p>`,
    );
  });

  it('deactivated users are mentioned silently (notifying nobody); case does not matter', async () => {
    const res = await render('member', '@**Dee** @**mel**');
    assert.equal(
      res.body.rendered,
      `<p><span class="user-mention silent" data-user-id="${cast.deactivated.id}">Dee</span> ` +
        `<span class="user-mention" data-user-id="${cast.member.id}">@Mel</span></p>`,
    );
    const r = renderMessage('@**Dee**', renderContextFor(ts.app, cast.member.id));
    assert.equal(r.mentionedUserIds.size, 0);
  });

  it('stores nothing and notifies nobody', async () => {
    const before = ts.store.messages.maxId;
    await render('owner', '@**Mel** @**all**');
    assert.equal(ts.store.messages.maxId, before);
    assert.doesNotMatch(readFileSync(join(ts.dataDir, 'users.json'), 'utf8'), /@\*\*all\*\*/);
  });

  it('empty and long content; bad requests', async () => {
    assert.equal((await render('member', '')).body.rendered, '');
    const long = await render('member', 'x'.repeat(12_000));
    assert.equal(long.status, 200);
    assert.equal(long.body.rendered, `<p>${'x'.repeat(10_000)}</p>`);
    const missing = await ts.client(cast.member).post('/messages/render', {});
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    const nul = await render('member', 'a\u0000b');
    assert.equal(nul.status, 400);
    const anon = await ts.anonymous.post('/messages/render', { content: 'x' });
    assert.equal(anon.status, 401);
  });

  it("topic links carry /with/ the topic's first message the author can read (Zulip's moved-topic-proof links)", async () => {
    const send = async (who: CastRole, to: number, topic: string) => {
      const res = await ts.client(cast[who]).post('/messages', { type: 'stream', to, topic, content: 'hello' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.id as number;
    };
    const first = await send('owner', general, 'plans');
    await send('owner', general, 'plans');
    const link = (id: number | undefined, topic = 'plans') =>
      `<p><a class="stream-topic" data-stream-id="${general}" href="/#narrow/channel/${general}-general/topic/${topic}` +
      `${id === undefined ? '' : `/with/${id}`}">#general &gt; ${topic}</a></p>`;
    assert.equal((await render('member', '#**general>plans**')).body.rendered, link(first));
    // Topics match without regard to case, as Zulip's; a topic with no messages gets the plain link.
    assert.equal((await render('member', '#**general>PLANS**')).body.rendered, link(first, 'PLANS'));
    assert.equal((await render('member', '#**general>nothing yet**')).body.rendered, link(undefined, 'nothing.20yet').replace('nothing.20yet</a>', 'nothing yet</a>'));
    // A link to a message keeps its /near/ form.
    assert.match((await render('member', `#**general>plans@${first}**`)).body.rendered, new RegExp(`/topic/plans/near/${first}"`));
    // Protected history: a newcomer's link starts at the first message they received.
    const vault = await createChannel(ts, ts.client(cast.owner), 'vault', { invite_only: true, history_public_to_subscribers: false });
    const early = await send('owner', vault, 'ops');
    const sub = await ts.client(cast.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [cast.member.id] });
    assert.equal(sub.status, 200, JSON.stringify(sub.body));
    const late = await send('owner', vault, 'ops');
    assert.match((await render('owner', '#**vault>ops**')).body.rendered, new RegExp(`/topic/ops/with/${early}"`));
    assert.match((await render('member', '#**vault>ops**')).body.rendered, new RegExp(`/topic/ops/with/${late}"`));
    // Stored messages keep the link they were sent with.
    const id = await ts.client(cast.member).post('/messages', { type: 'stream', to: general, topic: 'links', content: '#**general>plans**' });
    assert.match(ts.store.messages.get(id.body.id)!.rendered ?? '', new RegExp(`/with/${first}"`));
  });

  it('renderContextFor reflects the current organization', async () => {
    const ctx = renderContextFor(ts.app, cast.guest.id);
    assert.equal(ctx.userById(cast.deactivated.id)?.is_active, false);
    assert.equal(ctx.usersByName('ada')[0]?.id, cast.admin.id);
    assert.equal(ctx.groupByName('SUPPORT')?.id, groupId);
    assert.equal(ctx.channelByName('secret plans'), undefined);
    const r = renderMessage('@**Mo** @*support* @**topic**', ctx);
    assert.deepEqual([...r.mentionedUserIds], [cast.moderator.id]);
    assert.deepEqual([...r.mentionedGroupIds], [groupId]);
    assert.equal(r.topicWildcard, true);
  });
});
