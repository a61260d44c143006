/**
 * Zulip's `gitlab` integration: the event from `X-GitLab-Event` ("Push Hook", "Merge Request
 * Hook", …; a "System Hook" names it in `event_name` or `object_kind`), with the action of issues,
 * merge requests and wiki pages ("Merge Request Hook open") and the commented kind of notes
 * ("Note Hook MergeRequest") appended, as Zulip's event types. Topics: "repo / branch" for pushes,
 * jobs and pipelines, "repo / MR #1 title" (`use_merge_request_title=false` leaves the title out),
 * "repo / issue #1 title", "repo / snippet #1 title", "repo / environment" for deployments, else
 * the repository. The `branches` option filters pushes. With a `topic` in the URL the message
 * starts with a link to the project and names the MR or issue's title, as Zulip's.
 */
import { eventHeader, type Integration, jsonBoolParam, parseJson, type WebhookOutcome } from './common.js';
import { branchNotifiable, topicWithPrOrIssue } from './git.js';
import * as f from './gitlab-format.js';
import { Wild } from './wild.js';

const BODIES: Readonly<Record<string, f.Body>> = {
  'Push Hook': f.pushBody,
  'Tag Push Hook': f.tagPushBody,
  'Test Hook': f.testBody,
  'Issue Hook open': f.issueCreatedBody,
  'Issue Hook close': f.issueBody('closed'),
  'Issue Hook reopen': f.issueBody('reopened'),
  'Issue Hook update': f.issueBody('updated'),
  'Confidential Issue Hook open': f.issueCreatedBody,
  'Confidential Issue Hook close': f.issueBody('closed'),
  'Confidential Issue Hook reopen': f.issueBody('reopened'),
  'Confidential Issue Hook update': f.issueBody('updated'),
  'Note Hook Commit': f.commitNoteBody,
  'Note Hook MergeRequest': f.noteOnBody('merge_request', 'MR'),
  'Note Hook Issue': f.noteOnBody('issue', 'issue'),
  'Confidential Note Hook Issue': f.noteOnBody('issue', 'issue'),
  'Note Hook DesignManagement::Design': f.designNoteBody,
  'Confidential Note Hook DesignManagement::Design': f.designNoteBody,
  'Note Hook Snippet': f.snippetNoteBody,
  'Merge Request Hook approved': f.mergeRequestBody('approved'),
  'Merge Request Hook unapproved': f.mergeRequestBody('unapproved'),
  // Sent only when more than one approval is required.
  'Merge Request Hook approval': f.mergeRequestBody('approval'),
  'Merge Request Hook unapproval': f.mergeRequestBody('unapproval'),
  'Merge Request Hook open': f.mergeRequestOpenOrUpdatedBody('created'),
  'Merge Request Hook update': f.mergeRequestUpdatedBody,
  'Merge Request Hook merge': f.mergeRequestBody('merged'),
  'Merge Request Hook close': f.mergeRequestBody('closed'),
  'Merge Request Hook reopen': f.mergeRequestBody('reopened'),
  'Wiki Page Hook create': f.wikiPageBody('created'),
  'Wiki Page Hook update': f.wikiPageBody('updated'),
  'Job Hook': f.buildBody,
  'Build Hook': f.buildBody,
  'Pipeline Hook': f.pipelineBody,
  'Release Hook': f.releaseBody,
  'Feature Flag Hook': f.featureFlagBody,
  'Resource Access Token Hook': f.accessTokenBody,
  'Deployment Hook': f.deploymentBody,
};

/** Python's str.title(): each run of letters capitalised, the rest lower case. */
const pyTitle = (s: string) => s.replace(/\p{L}+/gu, (w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase());

/** The event type, null for a push to a branch `branches` leaves out. */
function eventOf(header: string, payload: Wild, branches: string | undefined): string | null {
  let event = header;
  if (event === 'System Hook') {
    const name = payload.has('event_name') ? payload.at('event_name').str() : payload.at('object_kind').str();
    event = `${pyTitle(name.split('__')[0]!.replace(/_/g, ' '))} Hook`;
  }
  if (['Confidential Issue Hook', 'Issue Hook', 'Merge Request Hook', 'Wiki Page Hook'].includes(event)) {
    const a = payload.at('object_attributes');
    event = `${event} ${a.has('action') ? a.at('action').str() : 'open'}`;
  } else if (event === 'Confidential Note Hook' || event === 'Note Hook') {
    event = `${event} ${payload.at('object_attributes').at('noteable_type').str()}`;
  } else if (event === 'Push Hook' && branches !== undefined && !branchNotifiable(f.branchName(payload), branches)) {
    return null;
  }
  return event;
}

function topicOf(event: string, payload: Wild, mrTitle: boolean): string {
  const repo = () => f.repoName(payload);
  if (event === 'Push Hook') return `${repo()} / ${f.branchName(payload)}`;
  if (event === 'Job Hook' || event === 'Build Hook') return `${payload.at('repository').at('name').str()} / ${f.branchName(payload)}`;
  if (event === 'Pipeline Hook') return `${repo()} / ${payload.at('object_attributes').at('ref').str().replace('refs/heads/', '')}`;
  if (event.startsWith('Merge Request Hook')) {
    const mr = payload.at('object_attributes');
    return topicWithPrOrIssue(repo(), 'MR', mr.at('iid').int(), mrTitle ? mr.at('title').str() : '');
  }
  if (event.startsWith('Issue Hook') || event.startsWith('Confidential Issue Hook')) {
    const issue = payload.at('object_attributes');
    return topicWithPrOrIssue(repo(), 'issue', issue.at('iid').int(), issue.at('title').str());
  }
  if (event === 'Note Hook Issue' || event === 'Confidential Note Hook Issue') {
    const issue = payload.at('issue');
    return topicWithPrOrIssue(repo(), 'issue', issue.at('iid').int(), issue.at('title').str());
  }
  if (event.endsWith('Note Hook DesignManagement::Design')) {
    const design = payload.at('object_attributes').at('position').at('new_path').str().split('/').at(-1);
    return `${repo()} / design ${design}`;
  }
  if (event === 'Note Hook MergeRequest') {
    const mr = payload.at('merge_request');
    return topicWithPrOrIssue(repo(), 'MR', mr.at('iid').int(), mrTitle ? mr.at('title').str() : '');
  }
  if (event === 'Note Hook Snippet') {
    const snippet = payload.at('snippet');
    return topicWithPrOrIssue(repo(), 'snippet', snippet.at('id').int(), snippet.at('title').str());
  }
  if (event === 'Resource Access Token Hook' && payload.get('group')) return payload.at('group').at('group_name').str();
  if (event === 'Deployment Hook') return `${repo()} / ${payload.at('environment').str()}`;
  return repo();
}

function handle(payload: Wild, header: string, mrTitle: boolean, param: (name: string) => string | undefined): WebhookOutcome {
  const event = eventOf(header, payload, param('branches'));
  if (event === null) return { messages: [] };
  const body = BODIES[event];
  if (body === undefined || !Object.hasOwn(BODIES, event)) return { unsupported: event };
  const userTopic = param('topic');
  let content = body(payload, userTopic !== undefined);
  // A topic of the user's own loses "repo / …", so the message links the project.
  if (userTopic) content = `[[${f.repoName(payload)}](${f.projectHomepage(payload)})] ${content}`;
  return { messages: [{ topic: topicOf(event, payload, mrTitle), content, eventType: event }] };
}

export const gitlab: Integration = {
  name: 'gitlab',
  displayName: 'GitLab',
  clientName: 'GitLab',
  categories: ['version-control'],
  allEventTypes: Object.keys(BODIES),
  configOptions: [],
  urlOptions: [{ key: 'branches', label: '', input_type: 'text' }],
  handle(req) {
    const payload = new Wild('payload', parseJson(req.body));
    const mrTitle = jsonBoolParam(req, 'use_merge_request_title', true);
    const header = eventHeader(req, 'GitLab', 'X-GitLab-Event');
    return handle(payload, header, mrTitle, (name) => req.param(name));
  },
};
