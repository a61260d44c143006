/**
 * The tools the Integrations section offers, each with its integration (`/api/v1/external/<name>`,
 * listed by register's `realm_incoming_webhook_bots`), the name of the bot made for it, and two or
 * three lines on where the URL goes in that tool. The help center's admin guide says the same.
 */

export interface Tool {
  /** The integration's name, as `realm_incoming_webhook_bots` lists it. */
  integration: string;
  /** What the picker shows. */
  label: string;
  /** The bot made for it is "<bot> bot" (`<integration>-bot@…`). */
  bot: string;
  /** Where the URL goes, a line each. */
  where: readonly string[];
}

export const TOOLS: readonly Tool[] = [
  {
    integration: 'gitea',
    label: 'Gitea / Forgejo',
    bot: 'Gitea',
    where: [
      'In the repository (or the organization): Settings › Webhooks › Add webhook › Gitea (Forgejo: Forgejo).',
      'Paste the URL as the Target URL, keep POST and application/json, choose the events, then Add webhook.',
      'Test Delivery on the webhook’s page sends a push to check it.',
    ],
  },
  {
    integration: 'gitlab',
    label: 'GitLab',
    bot: 'GitLab',
    where: [
      'In the project (or group): Settings › Webhooks › Add new webhook.',
      'Paste the URL, tick the triggers (push, merge requests, issues, pipelines …), then Add webhook.',
      'Test › Push events checks it.',
    ],
  },
  {
    integration: 'github',
    label: 'GitHub Enterprise Server',
    bot: 'GitHub',
    where: [
      'In the repository (or the organization): Settings › Webhooks › Add webhook.',
      'Paste the URL as the Payload URL, set Content type to application/json, choose the events, then Add webhook.',
    ],
  },
  {
    integration: 'grafana',
    label: 'Grafana',
    bot: 'Grafana',
    where: [
      'Alerting › Contact points › Add contact point, Integration: Webhook.',
      'Paste the URL, then Test and Save; use the contact point in a notification policy.',
    ],
  },
  {
    integration: 'alertmanager',
    label: 'Prometheus Alertmanager',
    bot: 'Alertmanager',
    where: [
      'In alertmanager.yml, a receiver with webhook_configs: - url: the URL (in quotes).',
      'Route alerts to that receiver, then reload Alertmanager.',
    ],
  },
  {
    integration: 'homeassistant',
    label: 'Home Assistant',
    bot: 'Home Assistant',
    where: [
      'In configuration.yaml, under notify: a platform: rest entry with resource: the URL, method: POST_JSON and title_param_name: topic.',
      'Restart Home Assistant, then call the notify.<name> action from an automation.',
    ],
  },
  {
    integration: 'zabbix',
    label: 'Zabbix',
    bot: 'Zabbix',
    where: [
      'Alerts › Media types: a Webhook media type (Zulip’s Zabbix media type) that POSTs hostname, severity, status, item, trigger and link.',
      'Give a user that media with the URL as its Send to, then an action that sends to that user.',
    ],
  },
  {
    integration: 'slack_incoming',
    label: 'Uptime Kuma and other Slack-compatible tools',
    bot: 'Slack-compatible',
    where: [
      'Any tool that can notify a Slack incoming webhook. Uptime Kuma: Settings › Notifications › Setup Notification, type Slack.',
      'Paste the URL as the Webhook URL, then Test and Save.',
    ],
  },
  {
    integration: 'json',
    label: 'Any tool that POSTs JSON',
    bot: 'JSON',
    where: ['Point the tool’s webhook at the URL with POST: the JSON it sends is posted as a code block.'],
  },
];

/** The bot's username for a tool (`gitea` → `gitea`, `slack_incoming` → `slack-incoming`), `-2` … when taken. */
export const botShortName = (tool: Tool, n = 1) => `${tool.integration.replace(/_/g, '-')}${n > 1 ? `-${n}` : ''}`;

/** The bot's name for a tool: "Gitea bot", "Gitea bot 2" … */
export const botFullName = (tool: Tool, n = 1) => `${tool.bot} bot${n > 1 ? ` ${n}` : ''}`;

/** Zulip's integration URL: the origin, the integration, the bot's key, the channel by ID and the topic. */
export function webhookUrl(origin: string, integration: string, key: string, streamId: number, topic: string): string {
  const t = topic.trim();
  return `${origin}/api/v1/external/${integration}?api_key=${encodeURIComponent(key)}&stream=${streamId}${t ? `&topic=${encodeURIComponent(t)}` : ''}`;
}
