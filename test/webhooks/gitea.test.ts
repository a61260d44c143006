import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertMissingHeader, assertUnsupported, hookSuite, newest, postHook, postOne, registerEntry } from '../helpers/webhooks.js';

const s = hookSuite('forge', 'commits');

const BASE = 'https://git.office.lan/ops/infra';
const ann = { id: 3, login: 'ann', username: 'ann', full_name: 'Ann Lee', email: 'ann@office.lan' };
const bo = { id: 4, login: 'bo', username: 'bo', full_name: 'Bo Diaz', email: 'bo@office.lan' };
const repository = { id: 12, name: 'infra', full_name: 'ops/infra', html_url: BASE, default_branch: 'main' };

/** Posts a Gitea event and answers the stored topic and content (null when nothing was posted). */
async function post(event: string, payload: object, query: Record<string, string> = {}, header = 'X-Gitea-Event') {
  return postOne(s, 'ZulipGiteaWebhook', 'gitea', { stream: 'commits', ...query }, payload, { [header]: event });
}

const commit = (sha: string, message: string, author: { name: string; username: string }) => ({
  id: sha,
  message,
  url: `${BASE}/commit/${sha}`,
  author: { ...author, email: 'x@office.lan' },
  committer: { ...author, email: 'x@office.lan' },
  timestamp: '2026-03-02T10:00:00Z',
});

const SHA1 = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const SHA2 = 'b2c3d4e5f60718293a4b5c6d7e8f901234567890';
const SHA3 = 'c3d4e5f60718293a4b5c6d7e8f90123456789012';

const push = (commits: object[], ref = 'refs/heads/main') => ({
  ref,
  before: '1111111111111111111111111111111111111111',
  after: SHA1,
  compare_url: `${BASE}/compare/1111111...a1b2c3d`,
  commits,
  repository,
  pusher: ann,
  sender: ann,
});

const pullRequest = (action: string, extra: Record<string, unknown> = {}) => ({
  action,
  number: 7,
  pull_request: {
    id: 2041,
    number: 7,
    user: bo,
    title: 'Rotate the backup keys',
    body: 'Keys expire next week.',
    html_url: `${BASE}/pulls/7`,
    merged: false,
    merged_by: null,
    assignee: null,
    assignees: null,
    head: { ref: 'keys', sha: SHA2 },
    base: { ref: 'main', sha: SHA1 },
    ...extra,
  },
  repository,
  sender: ann,
});

const issue = (action: string, extra: Record<string, unknown> = {}) => ({
  action,
  number: 12,
  issue: { id: 880, number: 12, user: bo, title: 'Printer on floor 2 offline', body: 'It shows error E-302.', assignee: null, ...extra },
  repository,
  sender: ann,
});

describe('POST /api/v1/external/gitea', () => {
  it('push: one author who pushed; several authors counted; no username falls back to the first name; 20 listed then "and N more"', async () => {
    assert.deepEqual(await post('push', push([commit(SHA1, 'Add the VPN role\n\nLong body', { name: 'Ann Lee', username: 'ann' })])), {
      topic: 'infra / main',
      content: `ann [pushed](${BASE}/compare/1111111...a1b2c3d) 1 commit to branch main.\n\n* Add the VPN role ([a1b2c3d4e5f](${BASE}/commit/${SHA1}))`,
    });
    const three = [
      commit(SHA1, 'One', { name: 'Ann Lee', username: 'ann' }),
      commit(SHA2, 'Two', { name: 'Bo Diaz', username: '' }),
      commit(SHA3, 'Three', { name: 'Bo Diaz', username: '' }),
    ];
    assert.deepEqual(await post('push', push(three, 'refs/heads/dev')), {
      topic: 'infra / dev',
      content: [
        `ann [pushed](${BASE}/compare/1111111...a1b2c3d) 3 commits to branch dev. Commits by Bo (2) and ann (1).`,
        '',
        `* One ([a1b2c3d4e5f](${BASE}/commit/${SHA1}))`,
        `* Two ([b2c3d4e5f60](${BASE}/commit/${SHA2}))`,
        `* Three ([c3d4e5f6071](${BASE}/commit/${SHA3}))`,
      ].join('\n'),
    });
    const many = Array.from({ length: 22 }, (_, i) => commit(SHA1, `Change ${i}`, { name: 'Ann Lee', username: 'ann' }));
    const content = (await post('push', push(many)))?.content ?? '';
    assert.ok(content.startsWith(`ann [pushed](${BASE}/compare/1111111...a1b2c3d) 22 commits to branch main.\n\n* Change 0 (`), content);
    assert.ok(content.endsWith(`* Change 19 ([a1b2c3d4e5f](${BASE}/commit/${SHA1}))\n[and 2 more commit(s)]`), content);
  });

  it('push: `branches` filters (spaces ignored), posting nothing for other branches; an empty push names the branch', async () => {
    const one = [commit(SHA1, 'Fix', { name: 'Ann Lee', username: 'ann' })];
    assert.equal(await post('push', push(one, 'refs/heads/dev'), { branches: 'main, release' }), null);
    assert.equal((await post('push', push(one, 'refs/heads/release'), { branches: 'main, release' }))?.topic, 'infra / release');
    assert.deepEqual(await post('push', push([])), { topic: 'infra / main', content: `ann [pushed](${BASE}/compare/1111111...a1b2c3d) the branch main.` });
  });

  it('create: a new branch', async () => {
    const payload = { sha: SHA1, ref: 'feature/dns', ref_type: 'branch', repository, sender: ann };
    assert.deepEqual(await post('create', payload), {
      topic: 'infra / feature/dns',
      content: `ann created [feature/dns](${BASE}/src/feature/dns) branch.`,
    });
  });

  it('pull_request: opened, synchronized, closed, reopened, edited, assigned, merged; the topic shows the PR ID as Zulip does', async () => {
    const topic = 'infra / PR #2041 Rotate the backup keys';
    const link = `[PR #7](${BASE}/pulls/7)`;
    const cases: [string, object, string][] = [
      ['opened', pullRequest('opened'), `ann opened ${link} from \`keys\` to \`main\`.`],
      ['synchronized', pullRequest('synchronized'), `ann synchronized ${link} from \`keys\` to \`main\`.`],
      ['closed', pullRequest('closed'), `ann closed ${link} from \`keys\` to \`main\`.`],
      ['reopened', pullRequest('reopened'), `ann reopened ${link} from \`keys\` to \`main\`.`],
      ['edited', pullRequest('edited'), `ann edited ${link}.`],
      ['assigned', pullRequest('assigned', { assignee: bo }), `ann assigned bo to ${link} from \`keys\` to \`main\` (assigned to bo).`],
      ['merged', pullRequest('closed', { merged: true, merged_by: bo }), `bo merged ${link} from \`keys\` to \`main\`.`],
    ];
    for (const [name, payload, content] of cases) assert.deepEqual(await post('pull_request', payload), { topic, content }, name);
  });

  it('issues: opened, edited, closed, reopened, assigned (the body quoted)', async () => {
    const link = `[issue #12](${BASE}/issues/12)`;
    const topic = 'infra / issue #12 Printer on floor 2 offline';
    const quote = '\n\n~~~ quote\nIt shows error E-302.\n~~~';
    assert.deepEqual(await post('issues', issue('opened')), { topic, content: `ann opened ${link}:${quote}` });
    assert.deepEqual(await post('issues', issue('edited', { assignee: bo })), { topic, content: `ann edited ${link} (assigned to bo):${quote}` });
    assert.deepEqual(await post('issues', issue('closed')), { topic, content: `ann closed ${link}:${quote}` });
    assert.deepEqual(await post('issues', issue('reopened')), { topic, content: `ann reopened ${link}:${quote}` });
    assert.deepEqual(await post('issues', issue('assigned', { assignee: bo })), {
      topic,
      content: `ann assigned bo to ${link} (assigned to bo):${quote}`,
    });
    assert.deepEqual(await post('issues', issue('closed', { body: '' })), { topic, content: `ann closed ${link}.` });
  });

  it('issue_comment: created and edited, on an issue and on a pull request (shown as the issue, as Zulip does)', async () => {
    const comment = (action: string, url: string, body: string) => ({
      ...issue(action),
      comment: { id: 301, html_url: url, user: ann, body },
      is_pull: url.includes('/pulls/'),
    });
    const link = `[issue #12](${BASE}/issues/12)`;
    assert.deepEqual(await post('issue_comment', comment('created', `${BASE}/issues/12#issuecomment-301`, 'Rebooted it.')), {
      topic: 'infra / issue #12 Printer on floor 2 offline',
      content: `ann [commented](${BASE}/issues/12#issuecomment-301) on ${link}:\n\n~~~ quote\nRebooted it.\n~~~`,
    });
    assert.deepEqual(await post('issue_comment', comment('edited', `${BASE}/issues/12#issuecomment-301`, 'Rebooted it twice.')), {
      topic: 'infra / issue #12 Printer on floor 2 offline',
      content: `ann edited a [comment](${BASE}/issues/12#issuecomment-301) on ${link}:\n\n~~~ quote\nRebooted it twice.\n~~~`,
    });
    assert.equal(
      (await post('issue_comment', comment('created', `${BASE}/pulls/12#issuecomment-302`, 'LGTM')))?.content,
      `ann [commented](${BASE}/pulls/12#issuecomment-302) on ${link}:\n\n~~~ quote\nLGTM\n~~~`,
    );
  });

  it('release: published', async () => {
    const payload = {
      action: 'published',
      release: { id: 5, tag_name: 'v1.4.0', name: 'Spring cleanup', body: 'Notes', author: ann, draft: false, prerelease: false },
      repository,
      sender: ann,
    };
    assert.deepEqual(await post('release', payload), {
      topic: 'infra / v1.4.0 Spring cleanup',
      content: `ann published release [Spring cleanup](${BASE}) for tag v1.4.0.`,
    });
  });

  it('a `topic` in the URL replaces the topic and the messages name the title', async () => {
    assert.deepEqual(await post('pull_request', pullRequest('opened'), { topic: 'reviews' }), {
      topic: 'reviews',
      content: `ann opened [PR #7 Rotate the backup keys](${BASE}/pulls/7) from \`keys\` to \`main\`.`,
    });
    assert.deepEqual(await post('issues', issue('closed', { body: '', title: 'Is the printer back?' }), { topic: 'helpdesk' }), {
      topic: 'helpdesk',
      content: `ann closed [issue #12 Is the printer back?](${BASE}/issues/12)`,
    });
  });

  it('Forgejo: X-Forgejo-Event alone is read too', async () => {
    assert.equal((await post('create', { ref: 'hotfix', ref_type: 'branch', repository, sender: ann }, {}, 'X-Forgejo-Event'))?.topic, 'infra / hotfix');
  });

  it('only_events / exclude_events filter by event type', async () => {
    const payload = { ref: 'tmp', ref_type: 'branch', repository, sender: ann };
    assert.equal(await post('create', payload, { only_events: '["push", "pull_*"]' }), null);
    assert.equal(await post('create', payload, { exclude_events: '["cr*"]' }), null);
    assert.equal((await post('create', payload, { only_events: '["create"]' }))?.topic, 'infra / tmp');
  });

  it("an unknown event is Zulip's unsupported answer; no event header is MISSING_HTTP_EVENT_HEADER and the owner is told", async () => {
    const wiki = { action: 'created', repository, sender: ann };
    await assertUnsupported(s, 'gitea', { stream: 'commits' }, wiki, { 'X-Gitea-Event': 'wiki' }, { webhookName: 'Gitea', eventType: 'wiki' });
    const before = s.ts.store.messages.maxId;
    await assertMissingHeader(s, 'gitea', { stream: 'commits' }, push([]), { header: 'X-Gitea-Event', tool: 'Gitea' });
    const notice = newest(s.ts);
    assert.equal(notice.id, before + 1);
    assert.ok(
      notice.content.startsWith(
        'Hi there!  Your bot Hook forge just sent an HTTP request to /api/v1/external/gitea that\nis missing the HTTP X-Gitea-Event header.  Because this header is how\nGitea indicates the event type,',
      ),
      notice.content,
    );
  });

  it('a payload of the wrong shape is a 400 naming the field', async () => {
    const res = await postHook(s.ts, 'gitea', { api_key: s.hook.apiKey, stream: 'commits' }, { ...push([]), commits: 'none' }, { 'X-Gitea-Event': 'push' });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'payload["commits"] is not a list');
  });

  it('is listed by register with the `branches` option', async () => {
    const entry = await registerEntry(s, 'gitea');
    assert.equal(entry.display_name, 'Gitea');
    assert.equal(entry.all_event_types, null);
    assert.deepEqual(
      entry.url_options.map((o: { key: string }) => o.key),
      ['branches'],
    );
  });
});
