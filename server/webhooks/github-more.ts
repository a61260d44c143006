/**
 * The rest of Zulip's GitHub message bodies: repository, organization, wiki, Pages, deployment and
 * discussion events (github-format.ts has pushes, pull requests, issues and releases).
 */
import { quoted, pullRequestMessage } from './git.js';
import { action, type Body, commentAction, fullName, repositoryName, repoUrl, senderName, senderUrl } from './github-format.js';

const deployment: Body = ({ payload }) => `${senderName(payload)} created new deployment.`;

const deploymentStatus: Body = ({ payload }) => `Deployment changed status to ${payload.at('deployment_status').at('state').str()}.`;

const discussion: Body = ({ payload }) => {
  const d = payload.at('discussion');
  return `${senderName(payload)} created [discussion #${d.at('number').int()}](${d.at('html_url').str()}) in ${d.at('category').at('name').str()}:\n\n~~~ quote\n### ${d.at('title').str()}\n${d.at('body').str()}\n~~~`;
};

const discussionComment: Body = ({ payload, includeTitle }) => {
  const d = payload.at('discussion');
  return pullRequestMessage({
    userName: senderName(payload),
    action: commentAction(payload),
    url: d.at('html_url').str(),
    number: d.at('number').int(),
    message: payload.at('comment').at('body').str(),
    title: includeTitle ? d.at('title').str() : null,
    type: 'discussion',
  });
};

const fork: Body = ({ payload }) => {
  const forkee = payload.at('forkee');
  return `${senderName(payload)} forked [${forkee.at('name').str()}](${forkee.at('html_url').str()}).`;
};

const gollum: Body = ({ payload }) => {
  let pages = '';
  for (const page of payload.at('pages').list()) {
    pages += `* ${page.at('action').str()} [${page.at('title').str()}](${page.at('html_url').str()})\n`;
  }
  return `${senderName(payload)}:\n${pages.trimEnd()}`;
};

const member: Body = ({ payload }) => {
  const m = payload.at('member');
  return `${senderName(payload)} ${action(payload)} [${m.at('login').str()}](${m.at('html_url').str()}) to [${repositoryName(payload)}](${repoUrl(payload)}).`;
};

const membership: Body = ({ payload }) => {
  const a = action(payload);
  const m = payload.at('member');
  const team = payload.at('team').at('name').str();
  return `${senderName(payload)} ${a} [${m.at('login').str()}](${m.at('html_url').str()}) ${a === 'removed' ? 'from' : 'to'} the ${team} team.`;
};

const PAGE_BUILD: Record<string, string> = {
  null: 'has yet to be built',
  building: 'is being built',
  errored: 'has failed: {}',
  built: 'has finished building',
};

const pageBuild: Body = ({ payload }) => {
  const build = payload.at('build');
  const status = build.at('status').str();
  let act = Object.hasOwn(PAGE_BUILD, status) ? PAGE_BUILD[status]! : `is ${status}`;
  const error = build.at('error').get('message');
  if (error) act = act.replace('{}', quoted(error.str()));
  return `GitHub Pages build, triggered by ${build.at('pusher').at('login').str()}, ${act}.`;
};

const publicBody: Body = ({ payload }) => `${senderName(payload)} made the repository [${fullName(payload)}](${repoUrl(payload)}) public.`;

const repository: Body = ({ payload }) =>
  `${senderName(payload)} ${action(payload)} the repository [${fullName(payload)}](${repoUrl(payload)}).`;

const star: Body = ({ payload }) =>
  `[${senderName(payload)}](${senderUrl(payload)}) ${action(payload) === 'created' ? 'starred' : 'unstarred'} the repository [${fullName(payload)}](${repoUrl(payload)}).`;

const watch: Body = ({ payload }) => `${senderName(payload)} starred the repository [${fullName(payload)}](${repoUrl(payload)}).`;

const teamAdd: Body = ({ payload }) =>
  `The repository [${fullName(payload)}](${repoUrl(payload)}) was added to team ${payload.at('team').at('name').str()}.`;

/** A team's edit: its description, name or visibility; any other change is named by its keys. */
const team: Body = ({ payload }) => {
  const changes = payload.at('changes');
  if (changes.has('description')) {
    return `**${senderName(payload)}** changed the team description to:\n\n~~~ quote\n${payload.at('team').at('description').str()}\n~~~`;
  }
  if (changes.has('name')) return `Team \`${changes.at('name').at('from').str()}\` was renamed to \`${payload.at('team').at('name').str()}\`.`;
  if (changes.has('privacy')) return `Team visibility changed to \`${payload.at('team').at('privacy').str()}\``;
  const keys = Object.keys(changes.value as object).sort();
  return `Team has changes to \`${keys.join('/')}\` data.`;
};

export const MORE_BODIES: Readonly<Record<string, Body>> = {
  deployment,
  deployment_status: deploymentStatus,
  discussion,
  discussion_comment: discussionComment,
  fork,
  gollum,
  member,
  membership,
  page_build: pageBuild,
  public: publicBody,
  repository,
  star,
  team,
  team_add: teamAdd,
  watch,
};
