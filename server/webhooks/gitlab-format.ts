/**
 * The message bodies of Zulip's `gitlab` integration, one per event (gitlab.ts picks the event and
 * the topic). Wording as Zulip's GitLab view, through the shared git helpers (git.ts).
 */
import {
  commitCommentMessage,
  EMPTY_SHA,
  issueMessage,
  pullRequestMessage,
  pushCommitsMessage,
  pushTagMessage,
  quoted,
  removeBranchMessage,
} from './git.js';
import { Wild } from './wild.js';

export type Body = (payload: Wild, includeTitle: boolean) => string;

export const repoName = (payload: Wild) =>
  // Job Hook payloads have no `project`, only `repository`.
  payload.has('project') ? payload.at('project').at('name').str() : payload.at('repository').at('name').str();

export const projectHomepage = (payload: Wild) =>
  payload.has('project') ? payload.at('project').at('web_url').str() : payload.at('repository').at('homepage').str();

export const branchName = (payload: Wild) => payload.at('ref').str().replace('refs/heads/', '');
const tagName = (payload: Wild) => payload.at('ref').str().replace('refs/tags/', '');
const userName = (payload: Wild) => payload.at('user_name').str();
const issueUserName = (payload: Wild) => payload.at('user').at('name').str();
const attrs = (payload: Wild) => payload.at('object_attributes');
const titleIf = (w: Wild, includeTitle: boolean) => (includeTitle ? w.at('title').str() : null);

/** A string or null (Zulip's check_none_or(check_string)). */
function strOrNull(w: Wild): string | null {
  if (w.value === null) return null;
  return w.str();
}

/** The assignees' names: `assignees`, else the single `assignee`, else none. */
function assigneeNames(payload: Wild): string[] {
  const many = payload.get('assignees');
  const list = many ? many.list() : payload.get('assignee') ? [payload.at('assignee')] : [];
  return list.map((a) => a.at('name').str());
}

export const pushBody: Body = (payload) => {
  const after = payload.get('after');
  if (after && after.str() === EMPTY_SHA) return removeBranchMessage(userName(payload), branchName(payload));
  const compareUrl = `${projectHomepage(payload)}/-/compare/${payload.at('before').str()}...${payload.at('after').str()}`;
  const commits = payload
    .at('commits')
    .list()
    .map((c) => ({ name: c.at('author').at('name').str(), sha: c.at('id').str(), message: c.at('message').str(), url: c.at('url').str() }));
  return pushCommitsMessage({ userName: userName(payload), compareUrl, branchName: branchName(payload), commits });
};

export const tagPushBody: Body = (payload) =>
  pushTagMessage(userName(payload), tagName(payload), null, payload.get('checkout_sha') ? 'pushed' : 'removed');

export const issueCreatedBody: Body = (payload, includeTitle) => {
  const description = attrs(payload).get('description');
  const message = description ? description.str().replace(/<!--[\s\S]*?-->/g, '').trimEnd() : null;
  return issueMessage({
    userName: issueUserName(payload),
    action: 'created',
    url: attrs(payload).at('url').str(),
    number: attrs(payload).at('iid').int(),
    message,
    assignees: assigneeNames(payload),
    title: titleIf(attrs(payload), includeTitle),
  });
};

export const issueBody =
  (action: string): Body =>
  (payload, includeTitle) =>
    issueMessage({
      userName: issueUserName(payload),
      action,
      url: attrs(payload).at('url').str(),
      number: attrs(payload).at('iid').int(),
      title: titleIf(attrs(payload), includeTitle),
    });

/**
 * Zulip's merge request bodies: the branches are shown for the action `branchesOn` only; `details`
 * adds the description and the assignees (an opened or updated merge request).
 */
function mergeRequestMessage(payload: Wild, includeTitle: boolean, action: string, branchesOn: string, details: boolean): string {
  const mr = attrs(payload);
  const branches = action === branchesOn;
  return pullRequestMessage({
    userName: issueUserName(payload),
    action,
    url: mr.at('url').str(),
    number: mr.at('iid').int(),
    targetBranch: branches ? mr.at('source_branch').str() : null,
    baseBranch: branches ? mr.at('target_branch').str() : null,
    ...(details ? { message: strOrNull(mr.at('description')), assignees: assigneeNames(payload) } : {}),
    type: 'MR',
    title: titleIf(mr, includeTitle),
  });
}

export const mergeRequestBody =
  (action: string): Body =>
  (payload, includeTitle) =>
    mergeRequestMessage(payload, includeTitle, action, 'merged', false);

export const mergeRequestOpenOrUpdatedBody =
  (action: string): Body =>
  (payload, includeTitle) =>
    mergeRequestMessage(payload, includeTitle, action, 'created', true);

export const mergeRequestUpdatedBody: Body = (payload, includeTitle) =>
  attrs(payload).get('oldrev')
    ? mergeRequestBody('added commit(s) to')(payload, includeTitle)
    : mergeRequestOpenOrUpdatedBody('updated')(payload, includeTitle);

const commentedOn = (payload: Wild) => `[commented](${attrs(payload).at('url').str()}) on`;

export const commitNoteBody: Body = (payload) => {
  const commit = payload.at('commit');
  const action = `[commented](${attrs(payload).at('url').str()})`;
  return commitCommentMessage(issueUserName(payload), action, commit.at('url').str(), commit.at('id').str(), attrs(payload).at('note').str());
};

/** A comment on a merge request (`merge_request`), an issue (`issue`) or a snippet (`snippet`). */
export const noteOnBody =
  (key: 'merge_request' | 'issue', type: string): Body =>
  (payload, includeTitle) => {
    const target = payload.at(key);
    return pullRequestMessage({
      userName: issueUserName(payload),
      action: commentedOn(payload),
      url: target.at('url').str(),
      number: target.at('iid').int(),
      message: attrs(payload).at('note').str(),
      type,
      title: titleIf(target, includeTitle),
    });
  };

export const snippetNoteBody: Body = (payload, includeTitle) => {
  const snippet = payload.at('snippet');
  // The snippet's URL is only sent by GitLab 16.1 and later.
  const url = snippet.has('url')
    ? snippet.at('url').str()
    : `${payload.at('project').at('web_url').str()}/-/snippets/${snippet.at('id').int()}`;
  return pullRequestMessage({
    userName: issueUserName(payload),
    action: commentedOn(payload),
    url,
    number: snippet.at('id').int(),
    message: attrs(payload).at('note').str(),
    type: 'snippet',
    title: titleIf(snippet, includeTitle),
  });
};

export const designNoteBody: Body = (payload) => {
  const comment = attrs(payload);
  const homepage = payload.at('repository').at('homepage').str();
  const parts = comment.at('position').at('new_path').str().split('/');
  if (parts.length !== 3) throw Wild.invalid(`Invalid ${comment.name}["position"]["new_path"]`);
  const [, issuePath, designName] = parts as [string, string, string];
  const designUrl = `${homepage}/-/issues/${issuePath.split('-').at(-1)}/designs/${designName}`;
  const commentUrl = `${designUrl}#note_${comment.at('id').int()}`;
  return `${issueUserName(payload)} [commented](${commentUrl}) on design [${designName}](${designUrl}):\n${quoted(comment.at('note').str())}`;
};

export const wikiPageBody =
  (action: string): Body =>
  (payload) =>
    `${issueUserName(payload)} ${action} [wiki page "${attrs(payload).at('title').str()}"](${attrs(payload).at('url').str()}).`;

export const buildBody: Body = (payload) => {
  const status = payload.at('build_status').str();
  const action = status === 'created' ? 'was created' : status === 'running' ? 'started' : `changed status to ${status}`;
  return `Build ${payload.at('build_name').str()} from ${payload.at('build_stage').str()} stage ${action}.`;
};

export const testBody: Body = (payload) => `Webhook for **${repoName(payload)}** has been configured successfully! :tada:`;

export const pipelineBody: Body = (payload) => {
  const status = attrs(payload).at('status').str();
  const action = status === 'pending' ? 'was created' : status === 'running' ? 'started' : `changed status to ${status}`;
  const homepage = projectHomepage(payload);
  const id = attrs(payload).at('id').int();
  let builds = '';
  for (const build of payload.at('builds').list()) {
    const buildUrl = `${homepage}/-/jobs/${build.at('id').int()}`;
    const artifacts = build.get('artifacts_file');
    const filename = artifacts ? artifacts.get('filename') : null;
    const artifact = filename
      ? `  * built artifact: *${filename.str()}* [[Browse](${buildUrl}/artifacts/browse)|[Download](${buildUrl}/artifacts/download)]\n`
      : '';
    builds += `* [${build.at('name').str()}](${buildUrl}) - ${build.at('status').str()}\n${artifact}`;
  }
  return `[Pipeline (${id})](${homepage}/-/pipelines/${id}) ${action} with build(s):\n${builds.slice(0, -1)}.`;
};

export const releaseBody: Body = (payload) => {
  const action = `${payload.at('action').str()}d`;
  const name = payload.at('name').str();
  const tag = payload.at('tag').str();
  if (action === 'deleted') return `Release ${name} for tag ${tag} was ${action}.`;
  let body = `Release [${name}](${payload.at('url').str()}) for tag ${tag} was ${action}.`;
  if (payload.has('description')) body += quoted(payload.at('description').str());
  return body;
};

export const featureFlagBody: Body = (payload) => {
  const flag = attrs(payload);
  const action = flag.at('active').truthy() ? 'activated' : 'deactivated';
  const url = `${payload.at('project').at('web_url').str()}/-/feature_flags`;
  return `${payload.at('user').at('username').str()} ${action} the feature flag [${flag.at('name').str()}](${url}).`;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const accessTokenBody: Body = (payload) => {
  const token = attrs(payload);
  const expires = token.at('expires_at');
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(expires.str());
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || month === undefined) throw Wild.invalid(`Invalid ${expires.name}`);
  const date = `${month} ${m[3]!.padStart(2, '0')}, ${m[1]}`;
  const url = payload.has('group')
    ? `https://gitlab.com/groups/${payload.at('group').at('group_path').str()}/-/settings/access_tokens`
    : `${payload.at('project').at('web_url').str()}/-/settings/access_tokens`;
  return `The access token [${token.at('name').str()}](${url}) will expire on ${date}.`;
};

export const deploymentBody: Body = (payload) => {
  const user = `[${payload.at('user').at('name').str()}](${payload.at('user_url').str()})`;
  const status = payload.at('status').strIn(['running', 'success', 'failed', 'canceled']);
  const deployableUrl = payload.has('deployable_url') ? payload.at('deployable_url').str() : '';
  const deployment = deployableUrl ? `[deployment](${deployableUrl})` : 'deployment';
  const commitTitle = payload.at('commit_title').str();
  const commitUrl = payload.at('commit_url').str();
  const sha = (commitUrl.split('/').at(-1) ?? '').slice(0, 7);
  switch (status) {
    case 'running':
      return `${user} started a new ${deployment}:\n> [${sha}](${commitUrl}) ${commitTitle}`;
    case 'success':
      return `The ${deployment} was successful.`;
    case 'failed':
      return `The ${deployment} failed.`;
    default:
      return `The ${deployment} was canceled.`;
  }
};
