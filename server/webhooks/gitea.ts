/**
 * Zulip's `gitea` integration (Gitea and Forgejo, which send the same payloads): the event type
 * from `X-Gitea-Event` (Forgejo sends it too, and `X-Forgejo-Event`, read when the first is
 * absent). Zulip formats Gitea with its Gogs code (Gitea is a fork of Gogs) and Gitea's own pull
 * request message: push (the `branches` option filters it), create, pull_request, issues,
 * issue_comment and release. Topics are "repo / branch", "repo / PR #id title" (the PR's
 * database ID, as Zulip shows it), "repo / issue #n title" and "repo / tag name". With a `topic`
 * in the URL the messages name the PR or issue's title, as Zulip's do.
 */
import { eventHeader, type Integration, parseJson, type WebhookOutcome } from './common.js';
import {
  branchNotifiable,
  type CommitData,
  createBranchMessage,
  issueMessage,
  pullRequestMessage,
  pushCommitsMessage,
  releaseMessage,
  topicWithBranch,
  topicWithPrOrIssue,
  topicWithRelease,
} from './git.js';
import { Wild } from './wild.js';

const issueUrl = (payload: Wild, n: number) => `${payload.at('repository').at('html_url').str()}/issues/${n}`;

/** Python's `str.split()[0]` (a name of only spaces answers ""). */
const firstWord = (s: string) => s.trim().split(/\s+/)[0] ?? '';

function pushBody(payload: Wild): string {
  const commits: CommitData[] = payload
    .at('commits')
    .list()
    .map((c) => {
      const author = c.at('author');
      return {
        name: author.at('username').str() || firstWord(author.at('name').str()),
        sha: c.at('id').str(),
        url: c.at('url').str(),
        message: c.at('message').str(),
      };
    });
  return pushCommitsMessage({
    userName: payload.at('sender').at('username').str(),
    compareUrl: payload.at('compare_url').str(),
    branchName: payload.at('ref').str().replace('refs/heads/', ''),
    commits,
  });
}

/** Gitea's pull request message (head.ref and base.ref, the sender, the assignee). */
function pullRequestBody(payload: Wild, includeTitle: boolean): string {
  const pr = payload.at('pull_request');
  const assignee = pr.at('assignee');
  let userName: string;
  let action: string;
  if (pr.at('merged').value === true) {
    userName = pr.at('merged_by').at('username').str();
    action = 'merged';
  } else {
    if (pr.at('merged').value !== false) throw Wild.invalid(`${pr.name}["merged"] is not a bool`);
    userName = payload.at('sender').at('username').str();
    action = payload.at('action').str();
  }
  let targetBranch: string | null = null;
  let baseBranch: string | null = null;
  if (action !== 'edited') {
    if (pr.has('head')) targetBranch = pr.at('head').at('ref').str();
    if (pr.has('base')) baseBranch = pr.at('base').at('ref').str();
  }
  const assigneeName = assignee.truthy() ? assignee.at('login').str() : null;
  return pullRequestMessage({
    userName,
    action,
    url: pr.at('html_url').str(),
    number: pr.at('number').int(),
    targetBranch,
    baseBranch,
    title: includeTitle ? pr.at('title').str() : null,
    assignee: assigneeName,
    assigneeUpdated: action === 'assigned' ? assigneeName : null,
  });
}

function issuesBody(payload: Wild, includeTitle: boolean): string {
  const issue = payload.at('issue');
  const n = issue.at('number').int();
  const assignee = issue.at('assignee');
  const assigneeName = assignee.truthy() ? assignee.at('login').str() : null;
  const action = payload.at('action').str();
  return issueMessage({
    userName: payload.at('sender').at('login').str(),
    action,
    url: issueUrl(payload, n),
    number: n,
    message: issue.at('body').str(),
    assignee: assigneeName,
    title: includeTitle ? issue.at('title').str() : null,
    assigneeUpdated: action === 'assigned' ? assigneeName : null,
  });
}

function issueCommentBody(payload: Wild, includeTitle: boolean): string {
  const comment = payload.at('comment');
  const issue = payload.at('issue');
  const action = payload.at('action').str();
  const verb = action === 'created' ? '[commented]' : `${action} a [comment]`;
  const n = issue.at('number').int();
  return issueMessage({
    userName: payload.at('sender').at('login').str(),
    action: `${verb}(${comment.at('html_url').str()}) on`,
    url: issueUrl(payload, n),
    number: n,
    message: comment.at('body').str(),
    title: includeTitle ? issue.at('title').str() : null,
  });
}

function handle(payload: Wild, event: string, branches: string | undefined, userTopic: boolean): WebhookOutcome {
  const repo = payload.at('repository').at('name').str();
  let topic: string;
  let content: string;
  switch (event) {
    case 'push': {
      const branch = payload.at('ref').str().replace('refs/heads/', '');
      if (!branchNotifiable(branch, branches)) return { messages: [] };
      content = pushBody(payload);
      topic = topicWithBranch(repo, branch);
      break;
    }
    case 'create': {
      const ref = payload.at('ref').str();
      const url = `${payload.at('repository').at('html_url').str()}/src/${ref}`;
      content = createBranchMessage(payload.at('sender').at('username').str(), url, ref);
      topic = topicWithBranch(repo, ref);
      break;
    }
    case 'pull_request': {
      content = pullRequestBody(payload, userTopic);
      const pr = payload.at('pull_request');
      topic = topicWithPrOrIssue(repo, 'PR', pr.at('id').int(), pr.at('title').str());
      break;
    }
    case 'issues':
    case 'issue_comment': {
      content = event === 'issues' ? issuesBody(payload, userTopic) : issueCommentBody(payload, userTopic);
      const issue = payload.at('issue');
      topic = topicWithPrOrIssue(repo, 'issue', issue.at('number').int(), issue.at('title').str());
      break;
    }
    case 'release': {
      const release = payload.at('release');
      const tag = release.at('tag_name').str();
      const name = release.at('name').str();
      const author = release.at('author').at('username').str();
      content = releaseMessage(author, payload.at('action').str(), tag, name, payload.at('repository').at('html_url').str());
      topic = topicWithRelease(repo, tag, name);
      break;
    }
    default:
      return { unsupported: event };
  }
  return { messages: [{ topic, content, eventType: event }] };
}

export const gitea: Integration = {
  name: 'gitea',
  displayName: 'Gitea',
  clientName: 'Gitea',
  categories: ['version-control'],
  // Zulip's gitea view declares no event types (its register entry says null), though it reports them.
  allEventTypes: null,
  configOptions: [],
  urlOptions: [{ key: 'branches', label: '', input_type: 'text' }],
  handle(req) {
    const payload = new Wild('payload', parseJson(req.body));
    // Zulip reads the repository before the header.
    payload.at('repository').at('name').str();
    const event = eventHeader(req, 'Gitea', 'X-Gitea-Event', 'X-Forgejo-Event');
    return handle(payload, event, req.param('branches'), req.param('topic') !== undefined);
  },
};
