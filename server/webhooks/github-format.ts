/**
 * The message bodies of Zulip's `github` integration, one per Zulip event type (github.ts maps
 * X-GitHub-Event and the action to these and picks the topic). Wording as Zulip's GitHub view,
 * through the shared git helpers (git.ts).
 */
import {
  commitCommentMessage,
  issueLabelMessage,
  issueMessage,
  issueMilestoneMessage,
  pullRequestMessage,
  pushCommitsMessage,
  pushTagMessage,
  releaseMessage,
  setupMessage,
  shortSha,
} from './git.js';
import { Wild } from './wild.js';

/** Zulip's check_bool. */
export function bool(w: Wild): boolean {
  if (typeof w.value !== 'boolean') throw Wild.invalid(`${w.name} is not a bool`);
  return w.value;
}

export interface Helper {
  payload: Wild;
  includeTitle: boolean;
  /** The `include_repository_name` option. */
  includeRepositoryName: boolean;
}
export type Body = (h: Helper) => string;

export const senderName = (p: Wild) => p.at('sender').at('login').str();
export const senderUrl = (p: Wild) => p.at('sender').at('html_url').str();
export const repositoryName = (p: Wild) => p.at('repository').at('name').str();
export const fullName = (p: Wild) => p.at('repository').at('full_name').str();
export const repoUrl = (p: Wild) => p.at('repository').at('html_url').str();
export const branchFromRef = (ref: string) => ref.replace(/^refs\/heads\//, '');
const tagFromRef = (ref: string) => ref.replace(/^refs\/tags\//, '');
export const action = (p: Wild) => p.at('action').str();
const strOrNull = (w: Wild) => (w.value === null ? null : w.str());
const titleIf = (w: Wild, h: Helper) => (h.includeTitle ? w.at('title').str() : null);

/** Whether an issue_comment is on a pull request (the issue carries `pull_request`). */
export const isPullRequestComment = (p: Wild) => p.at('issue').has('pull_request');

export function commentAction(p: Wild): string {
  const a = action(p);
  return `${a === 'created' ? '[commented]' : `${a} a [comment]`}(${p.at('comment').at('html_url').str()}) on`;
}

const openedOrUpdatedPullRequest: Body = ({ payload, includeTitle }) => {
  const pr = payload.at('pull_request');
  let act = action(payload);
  if (act === 'synchronize') act = 'updated';
  const assignee = pr.get('assignee');
  const changes = payload.get('changes');
  const description = (changes?.has('body') ?? false) || act === 'opened' ? strOrNull(pr.at('body')) : null;
  const branches = act === 'opened' || act === 'merged';
  return pullRequestMessage({
    userName: senderName(payload),
    action: act,
    url: pr.at('html_url').str(),
    targetBranch: branches ? pr.at('head').at('label').str() : null,
    baseBranch: branches ? pr.at('base').at('label').str() : null,
    message: description,
    assignee: assignee ? assignee.at('login').str() : null,
    number: pr.at('number').int(),
    title: includeTitle ? pr.at('title').str() : null,
  });
};

const assignedPullRequest: Body = ({ payload, includeTitle }) => {
  const pr = payload.at('pull_request');
  const assignee = pr.get('assignee');
  return pullRequestMessage({
    userName: senderName(payload),
    action: action(payload),
    url: pr.at('html_url').str(),
    number: pr.at('number').int(),
    title: includeTitle ? pr.at('title').str() : null,
    assigneeUpdated: assignee ? assignee.at('login').str() : null,
  });
};

const closedPullRequest: Body = ({ payload, includeTitle }) => {
  const pr = payload.at('pull_request');
  const merged = pr.at('merged');
  return pullRequestMessage({
    userName: senderName(payload),
    action: bool(merged) ? 'merged' : 'closed without merge',
    url: pr.at('html_url').str(),
    number: pr.at('number').int(),
    title: includeTitle ? pr.at('title').str() : null,
  });
};

const issues: Body = ({ payload, includeTitle }) => {
  const act = action(payload);
  const issue = payload.at('issue');
  const assigned = act === 'assigned' || act === 'unassigned';
  const who = payload.has('assignee') && assigned ? payload.at('assignee').at('login').str() : null;
  return issueMessage({
    userName: senderName(payload),
    action: act,
    url: issue.at('html_url').str(),
    number: issue.at('number').int(),
    message: assigned ? null : strOrNull(issue.at('body')),
    title: titleIf(issue, { payload, includeTitle, includeRepositoryName: false }),
    assigneeUpdated: who,
  });
};

const issueComment: Body = (h) => {
  const issue = h.payload.at('issue');
  return pullRequestMessage({
    userName: senderName(h.payload),
    action: commentAction(h.payload),
    url: issue.at('html_url').str(),
    number: issue.at('number').int(),
    message: h.payload.at('comment').at('body').str(),
    title: titleIf(issue, h),
    type: isPullRequestComment(h.payload) ? 'PR' : 'issue',
  });
};

const issueLabeled: Body = (h) => {
  const issue = h.payload.at('issue');
  return issueLabelMessage(
    senderName(h.payload),
    action(h.payload) === 'labeled' ? 'added' : 'removed',
    issue.at('html_url').str(),
    issue.at('number').int(),
    h.payload.at('label').at('name').str(),
    senderUrl(h.payload),
    titleIf(issue, h),
  );
};

const issueMilestoned: Body = (h) => {
  const issue = h.payload.at('issue');
  const milestone = h.payload.at('milestone');
  return issueMilestoneMessage(
    senderName(h.payload),
    action(h.payload) === 'milestoned' ? 'added' : 'removed',
    issue.at('html_url').str(),
    issue.at('number').int(),
    milestone.at('title').str(),
    milestone.at('html_url').str(),
    senderUrl(h.payload),
    titleIf(issue, h),
  );
};

const createOrDelete =
  (verb: string): Body =>
  ({ payload }) =>
    `${senderName(payload)} ${verb} ${payload.at('ref_type').str()} ${payload.at('ref').str()}.`.trimEnd();

const commitComment: Body = ({ payload }) => {
  const comment = payload.at('comment');
  const url = comment.at('html_url').str();
  return commitCommentMessage(senderName(payload), `[commented](${url})`, url.split('#')[0]!, comment.at('commit_id').str(), comment.at('body').str());
};

const pushTags: Body = ({ payload }) => {
  const created = bool(payload.at('created'));
  return pushTagMessage(senderName(payload), tagFromRef(payload.at('ref').str()), null, created ? 'pushed' : 'removed');
};


const pushCommits: Body = ({ payload, includeRepositoryName }) => {
  const commits = payload
    .at('commits')
    .list()
    .map((c) => {
      const author = c.at('author');
      const username = author.get('username');
      return {
        name: username ? username.str() : author.at('name').str(),
        sha: c.at('id').str(),
        url: c.at('url').str(),
        message: c.at('message').str(),
      };
    });
  return pushCommitsMessage({
    userName: senderName(payload),
    compareUrl: payload.at('compare').str(),
    branchName: branchFromRef(payload.at('ref').str()),
    commits,
    deleted: bool(payload.at('deleted')),
    forcePush: bool(payload.at('forced')),
    repositoryName: includeRepositoryName ? repositoryName(payload) : null,
    repositoryUrl: includeRepositoryName ? repoUrl(payload) : null,
  });
};

const release: Body = ({ payload }) => {
  const r = payload.at('release');
  const name = r.get('name') ? r.at('name').str() : r.at('tag_name').str();
  return releaseMessage(senderName(payload), action(payload), r.at('tag_name').str(), name, r.at('html_url').str());
};

const ping: Body = ({ payload }) => setupMessage('GitHub', senderName(payload));

const status: Body = ({ payload }) => {
  const state = payload.at('state').str();
  const target = payload.get('target_url');
  const shown = target ? `[${state}](${target.str()})` : state;
  return `[${shortSha(payload.at('sha').str())}](${payload.at('commit').at('html_url').str()}) changed its status to ${shown}.`;
};

const checkRun: Body = ({ payload }) => {
  const run = payload.at('check_run');
  const sha = run.at('head_sha').str();
  return `Check [${run.at('name').str()}](${run.at('html_url').str()}) ${run.at('status').str()} (${run.at('conclusion').str()}). ([${shortSha(sha)}](${repoUrl(payload)}/commit/${sha}))`;
};

const reviewRequested: Body = ({ payload, includeTitle }) => {
  const pr = payload.at('pull_request');
  const n = pr.at('number').int();
  let reviewers: string;
  if (payload.has('requested_reviewer')) {
    const r = payload.at('requested_reviewer');
    reviewers = `[${r.at('login').str()}](${r.at('html_url').str()})`;
  } else {
    const t = payload.at('requested_team');
    reviewers = `[${t.at('name').str()}](${t.at('html_url').str()})`;
  }
  const pr_ = includeTitle ? `PR #${n} ${pr.at('title').str()}` : `PR #${n}`;
  return `**${senderName(payload)}** requested ${reviewers} for a review on [${pr_}](${pr.at('html_url').str()}).`;
};

const prLink = (p: Wild) => `[PR #${p.at('pull_request').at('number').int()}](${p.at('pull_request').at('html_url').str()})`;

const review: Body = ({ payload, includeTitle }) => {
  const pr = payload.at('pull_request');
  return pullRequestMessage({
    userName: senderName(payload),
    action: 'submitted',
    url: payload.at('review').at('html_url').str(),
    type: 'PR review',
    title: includeTitle ? `for #${pr.at('number').int()} ${pr.at('title').str()}` : null,
    message: strOrNull(payload.at('review').at('body')),
  });
};

const reviewComment: Body = ({ payload, includeTitle }) => {
  const pr = payload.at('pull_request');
  const act = action(payload);
  return pullRequestMessage({
    userName: senderName(payload),
    action: act,
    url: payload.at('comment').at('html_url').str(),
    message: act === 'created' ? payload.at('comment').at('body').str() : null,
    type: 'PR review comment',
    title: includeTitle ? `on #${pr.at('number').int()} ${pr.at('title').str()}` : null,
  });
};

const lockedPullRequest: Body = ({ payload }) => {
  if (action(payload) === 'unlocked') return `${senderName(payload)} has unlocked ${prLink(payload)}.`;
  const reason = payload.at('pull_request').get('active_lock_reason');
  return `${senderName(payload)} has locked ${prLink(payload)} as ${reason ? reason.str() : 'None'} and limited conversation to collaborators.`;
};

const autoMerge: Body = ({ payload }) =>
  `${senderName(payload)} has ${action(payload) === 'auto_merge_disabled' ? 'disabled' : 'enabled'} auto merge for ${prLink(payload)}.`;

const readyForReview: Body = ({ payload }) => `**${senderName(payload)}** has marked ${prLink(payload)} as ready for review.`;

export const BODIES: Readonly<Record<string, Body>> = {
  commit_comment: commitComment,
  closed_pull_request: closedPullRequest,
  create: createOrDelete('created'),
  delete: createOrDelete('deleted'),
  issue_comment: issueComment,
  issue_labeled_or_unlabeled: issueLabeled,
  issue_milestoned_or_demilestoned: issueMilestoned,
  issues,
  opened_pull_request: openedOrUpdatedPullRequest,
  updated_pull_request: openedOrUpdatedPullRequest,
  assigned_or_unassigned_pull_request: assignedPullRequest,
  ping,
  pull_request_ready_for_review: readyForReview,
  pull_request_review: review,
  pull_request_review_comment: reviewComment,
  pull_request_review_requested: reviewRequested,
  pull_request_auto_merge: autoMerge,
  locked_or_unlocked_pull_request: lockedPullRequest,
  push_commits: pushCommits,
  push_tags: pushTags,
  release,
  status,
  check_run: checkRun,
};
