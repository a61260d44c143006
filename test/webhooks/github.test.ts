import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMissingHeader, assertUnsupported, hookSuite, postOne, registerEntry } from '../helpers/webhooks.js';

const s = hookSuite('ghes', 'github');

// GitHub Enterprise Server on the office network.
const WEB = 'https://github.office.lan/infra/dns';
const sender = { login: 'ann', id: 7, html_url: 'https://github.office.lan/ann', type: 'User' };
const bo = { login: 'bo', id: 8, html_url: 'https://github.office.lan/bo', type: 'User' };
const repository = { id: 31, name: 'dns', full_name: 'infra/dns', private: false, html_url: WEB, default_branch: 'main' };
const organization = { login: 'infra', id: 2 };

/** Posts a GitHub event and answers the stored topic and content (null when nothing was posted). */
async function post(event: string, payload: object, query: Record<string, string> = {}) {
  return postOne(s, 'ZulipGitHubWebhook', 'github', { stream: 'github', ...query }, payload, { 'X-GitHub-Event': event });
}

const SHA1 = '9049f1265b7d61be4a8904a9a27120d2064dab3b';
const SHA2 = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';
const commit = (sha: string, message: string, author: { name: string; username?: string }) => ({
  id: sha,
  message,
  url: `${WEB}/commit/${sha}`,
  author: { email: 'x@office.lan', ...author },
  distinct: true,
});
const push = (extra: Record<string, unknown> = {}) => ({
  ref: 'refs/heads/main',
  before: SHA1,
  after: SHA2,
  created: false,
  deleted: false,
  forced: false,
  compare: `${WEB}/compare/9049f1265b7d...0d1a26e67d8f`,
  commits: [commit(SHA2, 'Add the printer zone\n\nfor floor 2', { name: 'Ann Lee', username: 'ann' })],
  repository,
  sender,
  ...extra,
});

const pr = (action: string, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({
  action,
  number: 12,
  pull_request: {
    number: 12,
    title: 'Move the mail server records',
    body: 'New MX for the office.',
    html_url: `${WEB}/pull/12`,
    state: 'open',
    merged: false,
    assignee: null,
    head: { label: 'ann:mx-move', ref: 'mx-move' },
    base: { label: 'infra:main', ref: 'main' },
    user: sender,
    ...extra,
  },
  repository,
  sender,
  ...top,
});

const issue = (action: string, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({
  action,
  issue: { number: 4, title: 'VPN drops every hour', body: 'Since the firmware update.', html_url: `${WEB}/issues/4`, user: bo, ...extra },
  repository,
  sender,
  ...top,
});

describe('POST /api/v1/external/github', () => {
  it('push: commits (author usernames, else names), force push, deleted branch, tags; `branches` filters', async () => {
    const compare = `${WEB}/compare/9049f1265b7d...0d1a26e67d8f`;
    assert.deepEqual(await post('push', push()), {
      topic: 'dns / main',
      content: `ann [pushed](${compare}) 1 commit to branch main.\n\n* Add the printer zone ([0d1a26e67d8](${WEB}/commit/${SHA2}))`,
    });
    assert.equal(
      (await post('push', push({ commits: [commit(SHA1, 'Fix TTL', { name: 'Bo Diaz' })] })))?.content,
      `ann [pushed](${compare}) 1 commit to branch main. Commits by Bo Diaz (1).\n\n* Fix TTL ([9049f1265b7](${WEB}/commit/${SHA1}))`,
    );
    assert.equal((await post('push', push({ forced: true, commits: [] })))?.content, `ann [force pushed](${compare}) the branch main.`);
    assert.deepEqual(await post('push', push({ ref: 'refs/heads/old', deleted: true, commits: [] })), {
      topic: 'dns / old',
      content: `ann [deleted](${compare}) the branch old.`,
    });
    assert.deepEqual(await post('push', push({ ref: 'refs/tags/v2.0', created: true, commits: [] })), { topic: 'dns', content: 'ann pushed tag v2.0.' });
    assert.equal((await post('push', push({ ref: 'refs/tags/v1.9', created: false, deleted: true })))?.content, 'ann removed tag v1.9.');
    assert.equal(await post('push', push(), { branches: 'release,dev' }), null);
    assert.equal((await post('push', push(), { branches: 'release,main' }))?.topic, 'dns / main');
    assert.equal(await post('push', push({ ref: 'refs/heads/gh-readonly-queue/main/pr-12' })), null);
  });

  it('push with include_repository_name names the repository', async () => {
    assert.equal(
      (await post('push', push(), { include_repository_name: 'true' }))?.content,
      `ann [pushed](${WEB}/compare/9049f1265b7d...0d1a26e67d8f) 1 commit to branch main of [dns](${WEB}).\n\n* Add the printer zone ([0d1a26e67d8](${WEB}/commit/${SHA2}))`,
    );
  });

  it('pull_request: opened (with its description and assignee), synchronize, edited, reopened, closed, merged, assigned, review requested', async () => {
    const topic = 'dns / PR #12 Move the mail server records';
    const link = `[PR #12](${WEB}/pull/12)`;
    assert.deepEqual(await post('pull_request', pr('opened')), {
      topic,
      content: `ann opened ${link} from \`ann:mx-move\` to \`infra:main\`:\n\n~~~ quote\nNew MX for the office.\n~~~`,
    });
    assert.equal(
      (await post('pull_request', pr('opened', { body: null, assignee: bo })))?.content,
      `ann opened ${link} from \`ann:mx-move\` to \`infra:main\` (assigned to bo).`,
    );
    assert.equal((await post('pull_request', pr('synchronize')))?.content, `ann updated ${link}.`);
    assert.equal((await post('pull_request', pr('edited', {}, { changes: { title: { from: 'x' } } })))?.content, `ann edited ${link}.`);
    assert.equal(
      (await post('pull_request', pr('edited', {}, { changes: { body: { from: 'x' } } })))?.content,
      `ann edited ${link}:\n\n~~~ quote\nNew MX for the office.\n~~~`,
    );
    assert.equal((await post('pull_request', pr('reopened')))?.content, `ann reopened ${link}.`);
    assert.equal((await post('pull_request', pr('closed')))?.content, `ann closed without merge ${link}.`);
    assert.deepEqual(await post('pull_request', pr('closed', { merged: true })), { topic, content: `ann merged ${link}.` });
    assert.equal((await post('pull_request', pr('assigned', { assignee: bo })))?.content, `ann assigned bo to ${link}.`);
    assert.equal((await post('pull_request', pr('unassigned')))?.content, `ann unassigned ${link}.`);
    const requested = pr('review_requested', {}, { requested_reviewer: bo });
    assert.equal((await post('pull_request', requested))?.content, `**ann** requested [bo](${bo.html_url}) for a review on ${link}.`);
    assert.equal(await post('pull_request', pr('labeled')), null);
  });

  it('issues: opened, closed, assigned, unassigned, labeled, milestoned', async () => {
    const topic = 'dns / issue #4 VPN drops every hour';
    const link = `[issue #4](${WEB}/issues/4)`;
    assert.deepEqual(await post('issues', issue('opened')), {
      topic,
      content: `ann opened ${link}:\n\n~~~ quote\nSince the firmware update.\n~~~`,
    });
    assert.equal((await post('issues', issue('closed', { body: null })))?.content, `ann closed ${link}.`);
    assert.equal((await post('issues', issue('assigned', {}, { assignee: bo })))?.content, `ann assigned bo to ${link}.`);
    assert.equal((await post('issues', issue('unassigned', {}, { assignee: bo })))?.content, `ann unassigned bo from ${link}.`);
    assert.deepEqual(await post('issues', issue('labeled', {}, { label: { name: 'network' } })), {
      topic,
      content: `[ann](${sender.html_url}) added the network label to [Issue #4](${WEB}/issues/4).`,
    });
    const milestone = { title: 'Q3', html_url: `${WEB}/milestone/3` };
    assert.equal(
      (await post('issues', issue('milestoned', {}, { milestone })))?.content,
      `[ann](${sender.html_url}) added milestone [Q3](${WEB}/milestone/3) to [issue #4](${WEB}/issues/4).`,
    );
  });

  it('issue_comment: on an issue, edited, and on a pull request (topic and link say PR)', async () => {
    const comment = { id: 55, html_url: `${WEB}/issues/4#issuecomment-55`, body: 'Replaced the router.', user: sender };
    assert.deepEqual(await post('issue_comment', { ...issue('created'), comment }), {
      topic: 'dns / issue #4 VPN drops every hour',
      content: `ann [commented](${WEB}/issues/4#issuecomment-55) on [issue #4](${WEB}/issues/4):\n\n~~~ quote\nReplaced the router.\n~~~`,
    });
    assert.equal(
      (await post('issue_comment', { ...issue('edited'), comment }))?.content,
      `ann edited a [comment](${WEB}/issues/4#issuecomment-55) on [issue #4](${WEB}/issues/4):\n\n~~~ quote\nReplaced the router.\n~~~`,
    );
    const onPr = issue('created', { number: 12, title: 'Move the mail server records', html_url: `${WEB}/pull/12`, pull_request: { url: 'x' } });
    assert.deepEqual(await post('issue_comment', { ...onPr, comment: { ...comment, html_url: `${WEB}/pull/12#issuecomment-56` } }), {
      topic: 'dns / PR #12 Move the mail server records',
      content: `ann [commented](${WEB}/pull/12#issuecomment-56) on [PR #12](${WEB}/pull/12):\n\n~~~ quote\nReplaced the router.\n~~~`,
    });
  });

  it('release: published (the tag when it has no name)', async () => {
    const release = { tag_name: 'v2.0', name: 'Spring zones', html_url: `${WEB}/releases/tag/v2.0`, draft: false };
    assert.deepEqual(await post('release', { action: 'published', release, repository, sender }), {
      topic: 'dns',
      content: `ann published release [Spring zones](${WEB}/releases/tag/v2.0) for tag v2.0.`,
    });
    assert.equal(
      (await post('release', { action: 'created', release: { ...release, name: null }, repository, sender }))?.content,
      `ann created release [v2.0](${WEB}/releases/tag/v2.0) for tag v2.0.`,
    );
  });

  it('ping: the setup message, topic the repository (an organization hook: the organization)', async () => {
    const hookInfo = { type: 'Repository', id: 9, events: ['push'] };
    assert.deepEqual(await post('ping', { zen: 'Keep it logically awesome.', hook_id: 9, hook: hookInfo, repository, sender }), {
      topic: 'dns',
      content: 'GitHub webhook has been successfully configured by ann.',
    });
    assert.equal((await post('ping', { zen: 'Design for failure.', hook_id: 10, hook: hookInfo, organization, sender }))?.topic, 'infra');
  });

  it('a `topic` in the URL puts the title in the message', async () => {
    assert.deepEqual(await post('pull_request', pr('closed', { merged: true }), { topic: 'merges' }), {
      topic: 'merges',
      content: `ann merged [PR #12 Move the mail server records](${WEB}/pull/12).`,
    });
    assert.equal(
      (await post('issues', issue('assigned', { title: 'Is the VPN down?' }, { assignee: bo }), { topic: 'helpdesk' }))?.content,
      `ann assigned bo to [issue #4 Is the VPN down?](${WEB}/issues/4)`,
    );
  });

  it('ignore_private_repositories posts nothing for a private repository', async () => {
    const priv = push({ repository: { ...repository, private: true } });
    assert.equal(await post('push', priv, { ignore_private_repositories: 'true' }), null);
    assert.ok(await post('push', priv, { ignore_private_repositories: 'false' }));
  });

  it('only_events / exclude_events match Zulip event types; ignored GitHub events post nothing', async () => {
    assert.equal(await post('pull_request', pr('opened'), { only_events: '["closed_pull_request"]' }), null);
    assert.equal(await post('push', push(), { exclude_events: '["push_*"]' }), null);
    assert.ok(await post('pull_request', pr('closed'), { only_events: '["*_pull_request"]' }));
    for (const event of ['check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card']) assert.equal(await post(event, {}), null, event);
  });

  it("workflow_run and other unknown events are Zulip's unsupported answer (event:action); no X-GitHub-Event is MISSING_HTTP_EVENT_HEADER", async () => {
    const unsupported = (event: string, payload: object, eventType: string) =>
      assertUnsupported(s, 'github', { stream: 'github' }, payload, { 'X-GitHub-Event': event }, { webhookName: 'GitHub', eventType });
    const run = { id: 3001, name: 'CI', head_branch: 'main', status: 'completed', conclusion: 'success', html_url: `${WEB}/actions/runs/3001` };
    await unsupported('workflow_run', { action: 'completed', workflow_run: run, repository, sender }, 'workflow_run:completed');
    await unsupported('workflow_job', { workflow_job: {}, repository, sender }, 'workflow_job:???');
    await unsupported('pull_request', pr('enqueued'), 'pull_request:enqueued');
    await unsupported('team', { action: 'renamed', team: { name: 'ops' }, sender }, 'unsupported team action renamed');
    await assertMissingHeader(s, 'github', { stream: 'github' }, push(), { header: 'X-GitHub-Event', tool: 'GitHub' });
  });

  it('is listed by register with its event types and options', async () => {
    const entry = await registerEntry(s, 'github');
    assert.equal(entry.display_name, 'GitHub');
    assert.ok(entry.all_event_types.includes('push_commits'));
    assert.ok(entry.all_event_types.includes('closed_pull_request'));
    assert.deepEqual(
      entry.url_options.map((o: { key: string }) => o.key),
      ['branches', 'ignore_private_repositories', 'include_repository_name'],
    );
  });
});
