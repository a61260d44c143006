/**
 * Zulip's `github` integration (GitHub and GitHub Enterprise Server): `X-GitHub-Event` and the
 * payload's action give Zulip's event type ("push_commits", "push_tags", "opened_pull_request",
 * "closed_pull_request", "issues", "issue_comment", "release", "ping", …), which
 * `only_events`/`exclude_events` match. Events Zulip knows but ignores (check_suite, label, meta,
 * milestone, organization, project_card, merge-queue pushes, draft/label/approval PR actions,
 * unfinished check runs) post nothing; any other, such as workflow_run, is Zulip's unsupported
 * answer naming "event:action". Topics: "repo / branch" for commits, "repo / PR #1 title",
 * "repo / issue #1 title" (comments on a PR: "PR"), "repo / Deployment on env", "org organization",
 * "team name", "repo / wiki pages", "repo / checks", "repo discussion #1: title", else the
 * repository. URL options: `branches` (pushes), `ignore_private_repositories` (nothing from
 * private repositories) and `include_repository_name` (pushes name the repository).
 */
import { eventHeader, type Integration, jsonBoolParam, parseJson, type WebhookOutcome } from './common.js';
import { branchNotifiable, topicWithBranch, topicWithPrOrIssue } from './git.js';
import { BODIES, branchFromRef, type Helper, isPullRequestComment, repositoryName } from './github-format.js';
import { MORE_BODIES } from './github-more.js';
import { Wild } from './wild.js';

/** Zulip's event types, in its order. */
const EVENT_TYPES = [
  'commit_comment', 'closed_pull_request', 'create', 'check_run', 'delete', 'deployment', 'deployment_status', 'discussion',
  'discussion_comment', 'fork', 'gollum', 'issue_comment', 'issue_labeled_or_unlabeled', 'issue_milestoned_or_demilestoned',
  'issues', 'member', 'membership', 'opened_pull_request', 'updated_pull_request', 'assigned_or_unassigned_pull_request',
  'page_build', 'ping', 'public', 'pull_request_ready_for_review', 'pull_request_review', 'pull_request_review_comment',
  'pull_request_review_requested', 'pull_request_auto_merge', 'locked_or_unlocked_pull_request', 'push_commits', 'push_tags',
  'release', 'repository', 'star', 'status', 'team', 'team_add', 'watch',
] as const;

const ALL_BODIES = { ...BODIES, ...MORE_BODIES };

const IGNORED_EVENTS = ['check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card', 'push__merge_queue', 'repository_vulnerability_alert'];
const IGNORED_PULL_REQUEST_ACTIONS = ['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled'];
const IGNORED_TEAM_ACTIONS = ['added_to_repository', 'created', 'deleted', 'removed_from_repository'];

const PULL_REQUEST_EVENTS: Record<string, string> = {
  opened: 'opened_pull_request',
  reopened: 'opened_pull_request',
  synchronize: 'updated_pull_request',
  edited: 'updated_pull_request',
  assigned: 'assigned_or_unassigned_pull_request',
  unassigned: 'assigned_or_unassigned_pull_request',
  closed: 'closed_pull_request',
  review_requested: 'pull_request_review_requested',
  ready_for_review: 'pull_request_ready_for_review',
  locked: 'locked_or_unlocked_pull_request',
  unlocked: 'locked_or_unlocked_pull_request',
  auto_merge_enabled: 'pull_request_auto_merge',
  auto_merge_disabled: 'pull_request_auto_merge',
};

type Mapped = { event: string } | { ignored: true } | { unsupported: string };

/** Zulip's get_zulip_event_name. */
function zulipEvent(header: string, payload: Wild, branches: string | undefined): Mapped {
  const act = () => payload.at('action').str();
  if (header === 'pull_request') {
    const a = act();
    if (Object.hasOwn(PULL_REQUEST_EVENTS, a)) return { event: PULL_REQUEST_EVENTS[a]! };
    if (IGNORED_PULL_REQUEST_ACTIONS.includes(a)) return { ignored: true };
  } else if (header === 'push') {
    const ref = payload.at('ref').str();
    if (ref.startsWith('refs/heads/gh-readonly-queue/')) return { ignored: true };
    if (!ref.startsWith('refs/heads/')) return { event: 'push_tags' };
    if (!branchNotifiable(branchFromRef(ref), branches)) return { ignored: true };
    return { event: 'push_commits' };
  } else if (header === 'check_run') {
    return payload.at('check_run').at('status').str() === 'completed' ? { event: 'check_run' } : { ignored: true };
  } else if (header === 'team') {
    const a = act();
    if (a === 'edited') return { event: 'team' };
    if (IGNORED_TEAM_ACTIONS.includes(a)) return { ignored: true };
    return { unsupported: `unsupported team action ${a}` };
  } else if (header === 'issues') {
    const a = act();
    if (a === 'labeled' || a === 'unlabeled') return { event: 'issue_labeled_or_unlabeled' };
    if (a === 'milestoned' || a === 'demilestoned') return { event: 'issue_milestoned_or_demilestoned' };
    return { event: 'issues' };
  } else if (Object.hasOwn(ALL_BODIES, header)) {
    return { event: header };
  } else if (IGNORED_EVENTS.includes(header)) {
    return { ignored: true };
  }
  return { unsupported: `${header}:${payload.has('action') ? payload.at('action').str() : '???'}` };
}

/** Zulip's get_topic_based_on_type. */
function topicOf(payload: Wild, event: string): string {
  if (event.includes('pull_request')) {
    const pr = payload.at('pull_request');
    return topicWithPrOrIssue(repositoryName(payload), 'PR', pr.at('number').int(), pr.at('title').str());
  }
  if (event.startsWith('issue')) {
    const issue = payload.at('issue');
    const type = isPullRequestComment(payload) ? 'PR' : 'issue';
    return topicWithPrOrIssue(repositoryName(payload), type, issue.at('number').int(), issue.at('title').str());
  }
  if (event.startsWith('deployment')) return `${repositoryName(payload)} / Deployment on ${payload.at('deployment').at('environment').str()}`;
  if (event === 'membership') return `${payload.at('organization').at('login').str()} organization`;
  if (event === 'team') return `team ${payload.at('team').at('name').str()}`;
  if (event === 'push_commits') return topicWithBranch(repositoryName(payload), branchFromRef(payload.at('ref').str()));
  if (event === 'gollum') return topicWithBranch(repositoryName(payload), 'wiki pages');
  if (event === 'ping' && !payload.get('repository')) return payload.at('organization').at('login').str();
  if (event === 'check_run') return `${repositoryName(payload)} / checks`;
  if (event.startsWith('discussion')) {
    const d = payload.at('discussion');
    return `${repositoryName(payload)} discussion #${d.at('number').int()}: ${d.at('title').str()}`;
  }
  return repositoryName(payload);
}

function handle(payload: Wild, header: string, options: { branches?: string; userTopic: boolean; ignorePrivate: boolean; repoName: boolean }): WebhookOutcome {
  const mapped = zulipEvent(header, payload, options.branches);
  if ('ignored' in mapped) return { messages: [] };
  if ('unsupported' in mapped) return { unsupported: mapped.unsupported };
  const { event } = mapped;
  const repository = payload.get('repository');
  if (options.ignorePrivate && repository?.get('private')?.value === true) return { messages: [] };
  const topic = topicOf(payload, event);
  const helper: Helper = { payload, includeTitle: options.userTopic, includeRepositoryName: options.repoName };
  return { messages: [{ topic, content: ALL_BODIES[event]!(helper), eventType: event }] };
}

export const github: Integration = {
  name: 'github',
  displayName: 'GitHub',
  clientName: 'GitHub',
  categories: ['version-control', 'continuous-integration', 'project-management'],
  allEventTypes: EVENT_TYPES,
  configOptions: [],
  urlOptions: [
    { key: 'branches', label: '', input_type: 'text' },
    { key: 'ignore_private_repositories', label: 'Exclude notifications from private repositories', input_type: 'boolean' },
    { key: 'include_repository_name', label: 'Include repository name in the notifications', input_type: 'boolean' },
  ],
  handle(req) {
    const payload = new Wild('payload', parseJson(req.body));
    const ignorePrivate = jsonBoolParam(req, 'ignore_private_repositories', false);
    const repoName = jsonBoolParam(req, 'include_repository_name', false);
    const header = eventHeader(req, 'GitHub', 'X-GitHub-Event');
    return handle(payload, header, { branches: req.param('branches'), userTopic: req.param('topic') !== undefined, ignorePrivate, repoName });
  },
};
