import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMissingHeader, assertUnsupported, hookSuite, postOne, registerEntry } from '../helpers/webhooks.js';

const s = hookSuite('lab', 'gitlab');

const WEB = 'https://gitlab.office.lan/ops/billing';
const project = { id: 9, name: 'billing', web_url: WEB, path_with_namespace: 'ops/billing', default_branch: 'main' };
const repository = { name: 'billing', url: 'git@gitlab.office.lan:ops/billing.git', homepage: WEB };
const user = { id: 2, name: 'Ann Lee', username: 'ann', email: 'ann@office.lan' };
const bo = { id: 3, name: 'Bo Diaz', username: 'bo' };

/** Posts a GitLab event and answers the stored topic and content (null when nothing was posted). */
async function post(event: string, payload: object, query: Record<string, string> = {}) {
  return postOne(s, 'ZulipGitLabWebhook', 'gitlab', { stream: 'gitlab', ...query }, payload, { 'X-Gitlab-Event': event });
}

const SHA1 = '5fcdd5551fc3085df79bece2c32b1400802ac407';
const SHA2 = 'eb6ae1e591e0819dc5bf187c6bfe18ec065a80e9';
const ZERO = '0000000000000000000000000000000000000000';
const commit = (sha: string, message: string, name: string) => ({
  id: sha,
  message,
  title: message.split('\n')[0],
  url: `${WEB}/-/commit/${sha}`,
  author: { name, email: 'x@office.lan' },
});
const push = (extra: Record<string, unknown> = {}) => ({
  object_kind: 'push',
  event_name: 'push',
  before: SHA1,
  after: SHA2,
  ref: 'refs/heads/main',
  checkout_sha: SHA2,
  user_name: 'Ann Lee',
  user_username: 'ann',
  project,
  repository,
  commits: [commit(SHA2, 'Round invoice totals\n\nDetails', 'Ann Lee')],
  total_commits_count: 1,
  ...extra,
});

const mr = (action: string | null, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({
  object_kind: 'merge_request',
  event_type: 'merge_request',
  user,
  project,
  repository,
  object_attributes: {
    id: 501,
    iid: 14,
    title: 'Add VAT rates for 2027',
    description: 'Rates from the tax office.',
    source_branch: 'vat-2027',
    target_branch: 'main',
    state: 'opened',
    url: `${WEB}/-/merge_requests/14`,
    ...(action === null ? {} : { action }),
    ...extra,
  },
  ...top,
});

const issue = (action: string, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({
  object_kind: 'issue',
  event_type: 'issue',
  user,
  project,
  repository,
  object_attributes: { id: 77, iid: 3, title: 'Invoice PDF is blank', description: 'Since Tuesday.', url: `${WEB}/-/issues/3`, action, ...extra },
  ...top,
});

const note = (noteableType: string, extra: Record<string, unknown>) => ({
  object_kind: 'note',
  event_type: 'note',
  user,
  project,
  repository,
  object_attributes: { id: 9001, note: 'Looks right to me.', noteable_type: noteableType, url: `${WEB}/-/x#note_9001` },
  ...extra,
});

describe('POST /api/v1/external/gitlab', () => {
  it('Push Hook: commits, several authors, a new branch without commits, a removed branch; `branches` filters', async () => {
    const compare = `${WEB}/-/compare/${SHA1}...${SHA2}`;
    assert.deepEqual(await post('Push Hook', push()), {
      topic: 'billing / main',
      content: `Ann Lee [pushed](${compare}) 1 commit to branch main.\n\n* Round invoice totals ([eb6ae1e591e](${WEB}/-/commit/${SHA2}))`,
    });
    const two = push({ commits: [commit(SHA1, 'a', 'Bo Diaz'), commit(SHA2, 'b', 'Ann Lee')] });
    assert.equal(
      (await post('Push Hook', two))?.content,
      `Ann Lee [pushed](${compare}) 2 commits to branch main. Commits by Ann Lee (1) and Bo Diaz (1).\n\n* a ([5fcdd5551fc](${WEB}/-/commit/${SHA1}))\n* b ([eb6ae1e591e](${WEB}/-/commit/${SHA2}))`,
    );
    assert.deepEqual(await post('Push Hook', push({ before: ZERO, ref: 'refs/heads/feature', commits: [] })), {
      topic: 'billing / feature',
      content: `Ann Lee [pushed](${WEB}/-/compare/${ZERO}...${SHA2}) the branch feature.`,
    });
    assert.deepEqual(await post('Push Hook', push({ after: ZERO, ref: 'refs/heads/old', commits: [] })), {
      topic: 'billing / old',
      content: 'Ann Lee deleted branch old.',
    });
    assert.equal(await post('Push Hook', push(), { branches: 'release,dev' }), null);
    assert.equal((await post('Push Hook', push(), { branches: 'release, main' }))?.topic, 'billing / main');
  });

  it('Tag Push Hook: pushed and removed; the topic is the project', async () => {
    assert.deepEqual(await post('Tag Push Hook', push({ object_kind: 'tag_push', ref: 'refs/tags/v3.2.0', commits: [] })), {
      topic: 'billing',
      content: 'Ann Lee pushed tag v3.2.0.',
    });
    assert.equal((await post('Tag Push Hook', push({ ref: 'refs/tags/v3.1.9', checkout_sha: null, after: ZERO })))?.content, 'Ann Lee removed tag v3.1.9.');
  });

  it('Merge Request Hook: open (with assignees), update, new commits, approved, merge, close, reopen; use_merge_request_title=false', async () => {
    const topic = 'billing / MR #14 Add VAT rates for 2027';
    const link = `[MR #14](${WEB}/-/merge_requests/14)`;
    assert.deepEqual(await post('Merge Request Hook', mr('open', {}, { assignees: [user, bo] })), {
      topic,
      content: `Ann Lee created ${link} from \`vat-2027\` to \`main\` (assigned to Ann Lee and Bo Diaz):\n\n~~~ quote\nRates from the tax office.\n~~~`,
    });
    assert.equal((await post('Merge Request Hook', mr(null, { description: null })))?.content, `Ann Lee created ${link} from \`vat-2027\` to \`main\`.`);
    assert.equal(
      (await post('Merge Request Hook', mr('update')))?.content,
      `Ann Lee updated ${link}:\n\n~~~ quote\nRates from the tax office.\n~~~`,
    );
    assert.equal((await post('Merge Request Hook', mr('update', { oldrev: SHA1 })))?.content, `Ann Lee added commit(s) to ${link}.`);
    assert.equal((await post('Merge Request Hook', mr('approved')))?.content, `Ann Lee approved ${link}.`);
    assert.equal((await post('Merge Request Hook', mr('approval')))?.content, `Ann Lee added their approval for ${link}.`);
    assert.equal((await post('Merge Request Hook', mr('merge')))?.content, `Ann Lee merged ${link} from \`vat-2027\` to \`main\`.`);
    assert.equal((await post('Merge Request Hook', mr('close')))?.content, `Ann Lee closed ${link}.`);
    assert.deepEqual(await post('Merge Request Hook', mr('reopen')), { topic, content: `Ann Lee reopened ${link}.` });
    assert.equal((await post('Merge Request Hook', mr('close'), { use_merge_request_title: 'false' }))?.topic, 'billing / MR #14');
  });

  it('Issue Hook: open (hidden comments dropped, assignee), update, close, reopen; Confidential Issue Hook', async () => {
    const topic = 'billing / issue #3 Invoice PDF is blank';
    const link = `[issue #3](${WEB}/-/issues/3)`;
    assert.deepEqual(await post('Issue Hook', issue('open', { description: 'Since Tuesday.<!-- internal\nnote -->\n\n' }, { assignees: [bo] })), {
      topic,
      content: `Ann Lee created ${link} (assigned to Bo Diaz):\n\n~~~ quote\nSince Tuesday.\n~~~`,
    });
    assert.equal((await post('Issue Hook', issue('open', { description: null })))?.content, `Ann Lee created ${link}.`);
    assert.equal((await post('Issue Hook', issue('update')))?.content, `Ann Lee updated ${link}.`);
    assert.equal((await post('Issue Hook', issue('close')))?.content, `Ann Lee closed ${link}.`);
    assert.equal((await post('Issue Hook', issue('reopen')))?.content, `Ann Lee reopened ${link}.`);
    assert.deepEqual(await post('Confidential Issue Hook', issue('close')), { topic, content: `Ann Lee closed ${link}.` });
  });

  it('Note Hook: comments on a commit, a merge request, an issue and a snippet', async () => {
    const onCommit = note('Commit', { commit: { id: SHA2, message: 'Round', url: `${WEB}/-/commit/${SHA2}` } });
    assert.deepEqual(await post('Note Hook', onCommit), {
      topic: 'billing',
      content: `Ann Lee [commented](${WEB}/-/x#note_9001) on [eb6ae1e591e](${WEB}/-/commit/${SHA2}):\n~~~ quote\nLooks right to me.\n~~~`,
    });
    const onMr = note('MergeRequest', { merge_request: { iid: 14, title: 'Add VAT rates for 2027', url: `${WEB}/-/merge_requests/14` } });
    assert.deepEqual(await post('Note Hook', onMr), {
      topic: 'billing / MR #14 Add VAT rates for 2027',
      content: `Ann Lee [commented](${WEB}/-/x#note_9001) on [MR #14](${WEB}/-/merge_requests/14):\n\n~~~ quote\nLooks right to me.\n~~~`,
    });
    const onIssue = note('Issue', { issue: { iid: 3, title: 'Invoice PDF is blank', url: `${WEB}/-/issues/3` } });
    assert.deepEqual(await post('Note Hook', onIssue), {
      topic: 'billing / issue #3 Invoice PDF is blank',
      content: `Ann Lee [commented](${WEB}/-/x#note_9001) on [issue #3](${WEB}/-/issues/3):\n\n~~~ quote\nLooks right to me.\n~~~`,
    });
    const onSnippet = note('Snippet', { snippet: { id: 42, title: 'Rounding helper' } });
    assert.deepEqual(await post('Note Hook', onSnippet), {
      topic: 'billing / snippet #42 Rounding helper',
      content: `Ann Lee [commented](${WEB}/-/x#note_9001) on [snippet #42](${WEB}/-/snippets/42):\n\n~~~ quote\nLooks right to me.\n~~~`,
    });
    assert.equal((await post('Confidential Note Hook', onIssue))?.topic, 'billing / issue #3 Invoice PDF is blank');
  });

  it('Pipeline Hook: builds listed with their artifacts; the topic is the ref', async () => {
    const pipeline = (status: string) => ({
      object_kind: 'pipeline',
      object_attributes: { id: 880, ref: 'main', status, sha: SHA2 },
      user,
      project,
      builds: [
        { id: 4001, stage: 'test', name: 'unit', status: 'success', artifacts_file: { filename: null, size: null } },
        { id: 4002, stage: 'build', name: 'package', status: status === 'success' ? 'success' : 'running', artifacts_file: { filename: 'dist.zip', size: 1024 } },
      ],
    });
    const jobs = `${WEB}/-/jobs`;
    const builds = (second: string) =>
      `* [unit](${jobs}/4001) - success\n* [package](${jobs}/4002) - ${second}\n  * built artifact: *dist.zip* [[Browse](${jobs}/4002/artifacts/browse)|[Download](${jobs}/4002/artifacts/download)].`;
    assert.deepEqual(await post('Pipeline Hook', pipeline('running')), {
      topic: 'billing / main',
      content: `[Pipeline (880)](${WEB}/-/pipelines/880) started with build(s):\n${builds('running')}`,
    });
    assert.equal(
      (await post('Pipeline Hook', pipeline('success')))?.content,
      `[Pipeline (880)](${WEB}/-/pipelines/880) changed status to success with build(s):\n${builds('success')}`,
    );
    assert.equal(
      (await post('Pipeline Hook', { ...pipeline('pending'), builds: [] }))?.content,
      `[Pipeline (880)](${WEB}/-/pipelines/880) was created with build(s):\n.`,
    );
  });

  it('Job Hook and Build Hook: created, started, changed status', async () => {
    const job = (status: string) => ({
      object_kind: 'build',
      ref: 'main',
      build_id: 4002,
      build_name: 'package',
      build_stage: 'build',
      build_status: status,
      project_name: 'ops / billing',
      repository,
    });
    assert.deepEqual(await post('Job Hook', job('created')), { topic: 'billing / main', content: 'Build package from build stage was created.' });
    assert.equal((await post('Job Hook', job('running')))?.content, 'Build package from build stage started.');
    assert.equal((await post('Build Hook', job('failed')))?.content, 'Build package from build stage changed status to failed.');
  });

  it('Release Hook, Wiki Page Hook and System Hook (the event named in the payload)', async () => {
    const release = { object_kind: 'release', action: 'create', name: 'Billing 3.2', tag: 'v3.2.0', url: `${WEB}/-/releases/v3.2.0`, description: 'VAT 2027', project };
    assert.deepEqual(await post('Release Hook', release), {
      topic: 'billing',
      content: `Release [Billing 3.2](${WEB}/-/releases/v3.2.0) for tag v3.2.0 was created.\n~~~ quote\nVAT 2027\n~~~`,
    });
    assert.equal((await post('Release Hook', { ...release, action: 'delete' }))?.content, 'Release Billing 3.2 for tag v3.2.0 was deleted.');
    const wiki = { object_kind: 'wiki_page', user, project, object_attributes: { title: 'Runbook', url: `${WEB}/-/wikis/runbook`, action: 'create' } };
    assert.equal((await post('Wiki Page Hook', wiki))?.content, `Ann Lee created [wiki page "Runbook"](${WEB}/-/wikis/runbook).`);
    assert.equal((await post('System Hook', { ...mr('close'), event_type: undefined }))?.content, `Ann Lee closed [MR #14](${WEB}/-/merge_requests/14).`);
    assert.equal((await post('System Hook', push({ event_name: 'push' })))?.topic, 'billing / main');
  });

  it('a `topic` in the URL: the message starts with a link to the project and names the title', async () => {
    assert.deepEqual(await post('Merge Request Hook', mr('close'), { topic: 'reviews' }), {
      topic: 'reviews',
      content: `[[billing](${WEB})] Ann Lee closed [MR #14 Add VAT rates for 2027](${WEB}/-/merge_requests/14).`,
    });
    assert.equal(
      (await post('Push Hook', push(), { topic: 'all pushes' }))?.content,
      `[[billing](${WEB})] Ann Lee [pushed](${WEB}/-/compare/${SHA1}...${SHA2}) 1 commit to branch main.\n\n* Round invoice totals ([eb6ae1e591e](${WEB}/-/commit/${SHA2}))`,
    );
  });

  it('only_events / exclude_events match the full event type ("Merge Request Hook close")', async () => {
    assert.equal(await post('Merge Request Hook', mr('close'), { only_events: '["Merge Request Hook open"]' }), null);
    assert.equal(await post('Merge Request Hook', mr('close'), { exclude_events: '["Merge Request Hook *"]' }), null);
    assert.ok(await post('Merge Request Hook', mr('close'), { only_events: '["Merge Request Hook close"]' }));
  });

  it("unknown events are Zulip's unsupported answer; no X-Gitlab-Event is MISSING_HTTP_EVENT_HEADER", async () => {
    const unsupported = (event: string, payload: object, eventType: string) =>
      assertUnsupported(s, 'gitlab', { stream: 'gitlab' }, payload, { 'X-Gitlab-Event': event }, { webhookName: 'GitLab', eventType });
    await unsupported('Emoji Hook', { object_kind: 'emoji', project }, 'Emoji Hook');
    await unsupported('Merge Request Hook', mr('unlock'), 'Merge Request Hook unlock');
    await unsupported('System Hook', { event_name: 'project_create', project }, 'Project Create Hook');
    await assertMissingHeader(s, 'gitlab', { stream: 'gitlab' }, push(), { header: 'X-GitLab-Event', tool: 'GitLab' });
  });

  it('is listed by register with its event types and the `branches` option', async () => {
    const entry = await registerEntry(s, 'gitlab');
    assert.equal(entry.display_name, 'GitLab');
    assert.equal(entry.all_event_types.length, 36);
    assert.ok(entry.all_event_types.includes('Note Hook Snippet'));
    assert.deepEqual(
      entry.url_options.map((o: { key: string }) => o.key),
      ['branches'],
    );
  });
});
