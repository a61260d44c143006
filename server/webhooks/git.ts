/**
 * The messages and topics Zulip's git integrations share (its zerver/lib/webhooks/git.py): pushes
 * with their commit lists, branches and tags, pull requests and issues, comments on commits,
 * releases, and the `branches` URL option. Gitea, GitLab and GitHub build their messages here so
 * the wording matches Zulip's to the character.
 */

export const topicWithBranch = (repo: string, branch: string) => `${repo} / ${branch}`;
export const topicWithPrOrIssue = (repo: string, type: string, id: number | string, title: string) => `${repo} / ${type} #${id} ${title}`;
export const topicWithRelease = (repo: string, tag: string, title: string) => `${repo} / ${tag} ${title}`;

export const EMPTY_SHA = '0000000000000000000000000000000000000000';
const COMMITS_LIMIT = 20;
const COMMITTERS_LIMIT = 3;

/** Python's string.punctuation. */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
export const endsWithPunctuation = (s: string) => s !== '' && PUNCTUATION.includes(s[s.length - 1]!);

/** A quoted block under a message (Zulip's CONTENT_MESSAGE_TEMPLATE). */
export const quoted = (message: string) => `\n~~~ quote\n${message}\n~~~`;

/** A commit as the push message lists it. */
export interface CommitData {
  /** Who wrote it (counted for "Commits by …"). */
  name: string;
  sha: string;
  url: string | null;
  message: string;
}

/** Python's `str(x)`, as `format` shows a missing URL. */
const py = (x: string | null | undefined) => (x === null || x === undefined ? 'None' : x);

export const shortSha = (sha: string) => sha.slice(0, 11);

/** The commit list: the first 20, then "[and N more commit(s)]". */
export function commitsContent(commits: readonly CommitData[], isTruncated = false): string {
  let out = '';
  for (const c of commits.slice(0, COMMITS_LIMIT)) {
    const firstLine = c.message.split('\n')[0]!;
    out += `* ${firstLine} ([${shortSha(c.sha)}](${py(c.url)}))\n`;
  }
  if (commits.length > COMMITS_LIMIT) out += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  else if (isTruncated) out += '[and more commit(s)]';
  return out.trimEnd();
}

/** Committers by commit count (ties by name), the fourth and later summed up as "others". */
function allCommitters(commits: readonly CommitData[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const c of commits) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  const items = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (items.length > COMMITTERS_LIMIT) {
    const others = items.slice(COMMITTERS_LIMIT).reduce((sum, [, n]) => sum + n, 0);
    return [...items.slice(0, COMMITTERS_LIMIT), ['others', others]];
  }
  return items;
}

export interface PushInput {
  userName: string;
  compareUrl: string | null;
  branchName: string;
  commits: readonly CommitData[];
  isTruncated?: boolean;
  deleted?: boolean;
  forcePush?: boolean;
  repositoryName?: string | null;
  repositoryUrl?: string | null;
}

/** Zulip's get_push_commits_event_message. */
export function pushCommitsMessage(p: PushInput): string {
  const { userName, compareUrl, branchName, commits } = p;
  if (commits.length === 0 && p.deleted) return `${userName} [deleted](${py(compareUrl)}) the branch ${branchName}.`;
  const pushType = p.forcePush ? 'force pushed' : 'pushed';
  if (commits.length === 0) {
    return compareUrl
      ? `${userName} [${pushType}](${compareUrl}) the branch ${branchName}.`
      : `${userName} ${pushType} the branch ${branchName}.`;
  }
  const count = `${commits.length} commit${commits.length > 1 ? 's' : ''}`;
  const pushed = compareUrl ? `[${pushType}](${compareUrl}) ${count}` : `${pushType} ${count}`;
  const base =
    p.repositoryName && p.repositoryUrl
      ? `${userName} ${pushed} to branch ${branchName} of [${p.repositoryName}](${p.repositoryUrl}).`
      : `${userName} ${pushed} to branch ${branchName}.`;
  const list = commitsContent(commits, p.isTruncated);
  const committers = allCommitters(commits);
  if (committers.length === 1 && committers[0]![0] === userName) return `${base}\n\n${list}\n`.trimEnd();
  let details = `${committers[0]![0]} (${committers[0]![1]})`;
  for (const [name, n] of committers.slice(1, -1)) details = `${details}, ${name} (${n})`;
  if (committers.length > 1) {
    const [name, n] = committers[committers.length - 1]!;
    details = `${details} and ${name} (${n})`;
  }
  return `${base} Commits by ${details}.\n\n${list}\n`.trimEnd();
}

export const forcePushMessage = (userName: string, url: string, branchName: string, head: string) =>
  `${userName} [force pushed](${url}) to branch ${branchName}. Head is now ${head}.`;

export const createBranchMessage = (userName: string, url: string | null, branchName: string) =>
  url === null ? `${userName} created ${branchName} branch.` : `${userName} created [${branchName}](${url}) branch.`;

export const removeBranchMessage = (userName: string, branchName: string) => `${userName} deleted branch ${branchName}.`;

export interface PrInput {
  userName: string;
  action: string;
  url: string;
  number?: number | null;
  targetBranch?: string | null;
  baseBranch?: string | null;
  message?: string | null;
  assignee?: string | null;
  /** Usernames of the assignees ("a, b and c"). */
  assignees?: readonly string[] | null;
  assigneeUpdated?: string | null;
  reviewer?: string | null;
  type?: string;
  title?: string | null;
}

const ACTION_WORDS: Record<string, string> = { approval: 'added their approval for', unapproval: 'removed their approval for' };

const assigneeString = (names: readonly string[]) =>
  names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** Zulip's get_pull_request_event_message (and get_issue_event_message with type "issue"). */
export function pullRequestMessage(p: PrInput): string {
  const type = p.type ?? 'PR';
  const id = p.number === null || p.number === undefined ? '' : ` #${p.number}`;
  const title = p.title === null || p.title === undefined ? '' : ` ${p.title}`;
  // Zulip writes "assigned None to" when the payload names nobody; Hearth leaves the name out.
  const updated = p.assigneeUpdated;
  const who = !updated ? '' : p.action === 'assigned' ? ` ${updated} to` : p.action === 'unassigned' ? ` ${updated} from` : '';
  let main = `${p.userName} ${ACTION_WORDS[p.action] ?? p.action}${who} [${type}${id}${title}](${p.url})`;
  if (p.targetBranch && p.baseBranch) main = `${main} from \`${p.targetBranch}\` to \`${p.baseBranch}\``;
  const hasAssignees = p.assignees !== null && p.assignees !== undefined && p.assignees.length > 0;
  if (hasAssignees) main = `${main} (assigned to ${assigneeString(p.assignees!)})`;
  else if (p.assignee) main = `${main} (assigned to ${p.assignee})`;
  else if (p.reviewer) main = `${main} (assigned reviewers: ${p.reviewer})`;
  const punctuation = p.message ? ':' : '.';
  if (
    hasAssignees ||
    p.assignee ||
    (p.targetBranch && p.baseBranch) ||
    p.title === null ||
    p.title === undefined ||
    !endsWithPunctuation(p.title)
  ) {
    main = `${main}${punctuation}`;
  }
  if (p.message) main += `\n${quoted(p.message)}`;
  return main.trimEnd();
}

export const issueMessage = (p: Omit<PrInput, 'type' | 'targetBranch' | 'baseBranch' | 'reviewer'>) =>
  pullRequestMessage({ ...p, type: 'issue' });

/** Zulip's get_push_tag_event_message. */
export function pushTagMessage(userName: string, tagName: string, tagUrl: string | null = null, action = 'pushed'): string {
  const tag = tagUrl ? `[${tagName}](${tagUrl})` : tagName;
  const message = `${userName} ${action} tag ${tag}`;
  return endsWithPunctuation(tagName) ? message : `${message}.`;
}

/** Zulip's get_commits_comment_action_message. */
export function commitCommentMessage(userName: string, action: string, commitUrl: string, sha: string, message: string | null = null): string {
  let content = `${userName} ${action} on [${shortSha(sha)}](${commitUrl})${message ? ':' : '.'}`;
  if (message) content += quoted(message);
  return content;
}

export const releaseMessage = (userName: string, action: string, tagName: string, releaseName: string, url: string) =>
  `${userName} ${action} release [${releaseName}](${url}) for tag ${tagName}.`;

/** The `branches` URL option: a comma-separated list (spaces around names ignored); none is every branch. */
export const branchNotifiable = (branch: string, branches: string | undefined) =>
  branches === undefined || branches.split(',').some((b) => b.trim() === branch);

/** Zulip's get_issue_labeled_or_unlabeled_event_message. */
export function issueLabelMessage(userName: string, action: string, url: string, number: number, label: string, userUrl: string, title: string | null): string {
  const preposition = action === 'added' ? 'to' : 'from';
  const issue = title === null ? `Issue #${number}` : `Issue #${number} ${title}`;
  return `[${userName}](${userUrl}) ${action} the ${label} label ${preposition} [${issue}](${url}).`;
}

/** Zulip's get_issue_milestoned_or_demilestoned_event_message. */
export function issueMilestoneMessage(
  userName: string,
  action: string,
  url: string,
  number: number,
  milestone: string,
  milestoneUrl: string,
  userUrl: string,
  title: string | null,
): string {
  const preposition = action === 'added' ? 'to' : 'from';
  const issue = title === null ? `issue #${number}` : `issue #${number} ${title}`;
  return `[${userName}](${userUrl}) ${action} milestone [${milestone}](${milestoneUrl}) ${preposition} [${issue}](${url}).`;
}

/** Zulip's get_setup_webhook_message. */
export const setupMessage = (integration: string, userName: string | null) =>
  `${integration} webhook has been successfully configured${userName ? ` by ${userName}` : ''}.`;
