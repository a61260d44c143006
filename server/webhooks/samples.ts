/**
 * A small, realistic payload per integration, in the shape the tool itself sends, for the
 * organization settings' "Send a test message" (`POST /hearth/integrations/test`): run through
 * the integration as a real delivery would be, so the message shows what the tool's own will.
 */

export interface SamplePayload {
  /** The headers the tool sends with it (its event header). */
  headers: Readonly<Record<string, string>>;
  body: object;
}

const SHA_BEFORE = '9049f1265b7d8e3a1c2b4d5f6a7b8c9d0e1f2a3b';
const SHA = '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c';
const MESSAGE = 'Test message from Hearth\n\nSent from the organization settings to check the webhook.';
const WHEN = '2026-01-05T09:30:00Z';

const gitUser = { name: 'Hearth', email: 'hearth@office.lan', username: 'hearth' };
/** What each forge's push event names: the branch, and the commits before and after. */
const pushRefs = { ref: 'refs/heads/main', before: SHA_BEFORE, after: SHA };

const gitea: SamplePayload = {
  headers: { 'X-Gitea-Event': 'push' },
  body: {
    ...pushRefs,
    compare_url: 'https://git.office.lan/office/handbook/compare/9049f12...0d1a26e',
    commits: [
      {
        id: SHA,
        message: MESSAGE,
        url: `https://git.office.lan/office/handbook/commit/${SHA}`,
        author: gitUser,
        committer: gitUser,
        timestamp: WHEN,
      },
    ],
    repository: { id: 1, name: 'handbook', full_name: 'office/handbook', html_url: 'https://git.office.lan/office/handbook', default_branch: 'main' },
    pusher: { id: 1, login: 'hearth', username: 'hearth', full_name: 'Hearth', email: 'hearth@office.lan' },
    sender: { id: 1, login: 'hearth', username: 'hearth', full_name: 'Hearth', email: 'hearth@office.lan' },
  },
};

const GITLAB_WEB = 'https://gitlab.office.lan/office/handbook';
const gitlab: SamplePayload = {
  headers: { 'X-Gitlab-Event': 'Push Hook' },
  body: {
    object_kind: 'push',
    event_name: 'push',
    ...pushRefs,
    checkout_sha: SHA,
    user_name: 'Hearth',
    user_username: 'hearth',
    project: { id: 1, name: 'handbook', web_url: GITLAB_WEB, path_with_namespace: 'office/handbook', default_branch: 'main' },
    repository: { name: 'handbook', url: 'git@gitlab.office.lan:office/handbook.git', homepage: GITLAB_WEB },
    commits: [{ id: SHA, message: MESSAGE, title: MESSAGE.split('\n')[0], url: `${GITLAB_WEB}/-/commit/${SHA}`, author: { name: 'Hearth', email: 'hearth@office.lan' } }],
    total_commits_count: 1,
  },
};

const GITHUB_WEB = 'https://github.office.lan/office/handbook';
const github: SamplePayload = {
  headers: { 'X-GitHub-Event': 'push' },
  body: {
    ...pushRefs,
    created: false,
    deleted: false,
    forced: false,
    compare: `${GITHUB_WEB}/compare/9049f1265b7d...0d1a26e67d8f`,
    commits: [{ id: SHA, message: MESSAGE, url: `${GITHUB_WEB}/commit/${SHA}`, author: gitUser, committer: gitUser, timestamp: WHEN }],
    repository: { id: 1, name: 'handbook', full_name: 'office/handbook', private: false, html_url: GITHUB_WEB, default_branch: 'main' },
    sender: { login: 'hearth', id: 1, html_url: 'https://github.office.lan/hearth', type: 'User' },
  },
};

const grafana: SamplePayload = {
  headers: {},
  body: {
    receiver: 'Hearth',
    status: 'firing',
    orgId: 1,
    alerts: [
      {
        status: 'firing',
        labels: { alertname: 'TestAlert', instance: 'Grafana' },
        annotations: { summary: 'Notification test from Hearth' },
        startsAt: WHEN,
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: '',
        fingerprint: '57c6d9296de2ad39',
        silenceURL: '',
        dashboardURL: '',
        panelURL: '',
        values: null,
        valueString: "[ metric='foo' labels={instance=bar} value=10 ]",
      },
    ],
    groupLabels: { alertname: 'TestAlert' },
    commonLabels: { alertname: 'TestAlert', instance: 'Grafana' },
    commonAnnotations: { summary: 'Notification test from Hearth' },
    externalURL: '',
    version: '1',
    groupKey: '{alertname="TestAlert", instance="Grafana"}',
    truncatedAlerts: 0,
    title: '[FIRING:1] TestAlert Grafana',
    state: 'alerting',
    message: '**Firing**\n\nNotification test from Hearth',
  },
};

const alertmanager: SamplePayload = {
  headers: {},
  body: {
    version: '4',
    groupKey: '{}:{alertname="HearthTest"}',
    truncatedAlerts: 0,
    status: 'firing',
    receiver: 'hearth',
    groupLabels: { alertname: 'HearthTest' },
    commonLabels: { alertname: 'HearthTest', severity: 'info' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.office.lan:9093',
    alerts: [
      {
        status: 'firing',
        labels: { alertname: 'HearthTest', instance: 'alertmanager.office.lan:9093', severity: 'info' },
        annotations: { summary: 'Test message from Hearth' },
        startsAt: WHEN,
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.office.lan:9090/graph?g0.expr=vector%281%29&g0.tab=1',
        fingerprint: 'a3c1e0f9b2d47c65',
      },
    ],
  },
};

const homeassistant: SamplePayload = {
  headers: {},
  body: { message: 'Test message from Hearth: Home Assistant notifications arrive here.', topic: 'Home Assistant' },
};

const zabbix: SamplePayload = {
  headers: {},
  body: {
    hostname: 'zabbix.office.lan',
    severity: 'Information',
    status: 'PROBLEM',
    item: 'Test message from Hearth',
    trigger: 'Hearth webhook test',
    link: 'https://zabbix.office.lan/zabbix.php?action=problem.view',
  },
};

const slackIncoming: SamplePayload = {
  headers: {},
  body: { text: '*Test message from Hearth*: notifications sent in Slack’s format (Uptime Kuma and others) arrive here.' },
};

const json: SamplePayload = {
  headers: {},
  body: { message: 'Test message from Hearth', from: 'Organization settings', ok: true },
};

export const SAMPLES: ReadonlyMap<string, SamplePayload> = new Map([
  ['alertmanager', alertmanager],
  ['gitea', gitea],
  ['github', github],
  ['gitlab', gitlab],
  ['grafana', grafana],
  ['homeassistant', homeassistant],
  ['json', json],
  ['slack_incoming', slackIncoming],
  ['zabbix', zabbix],
]);
