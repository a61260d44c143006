/**
 * The incoming-webhook integrations Hearth serves at `/api/v1/external/{name}`, in Zulip's order
 * (by name), and their entries in `realm_incoming_webhook_bots`.
 */
import { alertmanager } from './alertmanager.js';
import type { Integration } from './common.js';
import { gitea } from './gitea.js';
import { github } from './github.js';
import { gitlab } from './gitlab.js';
import { grafana } from './grafana.js';
import { homeassistant } from './homeassistant.js';
import { jsonIntegration } from './json.js';
import { slackIncoming } from './slack-incoming.js';
import { zabbix } from './zabbix.js';

export const INTEGRATIONS: readonly Integration[] = [alertmanager, gitea, github, gitlab, grafana, homeassistant, jsonIntegration, slackIncoming, zabbix];

const BY_NAME: ReadonlyMap<string, Integration> = new Map(INTEGRATIONS.map((i) => [i.name, i]));

export const findIntegration = (name: string): Integration | undefined => BY_NAME.get(name);

/** Zulip's register section: `{name, display_name, all_event_types, config_options, url_options}` per integration. */
export function incomingWebhookBots(): Record<string, unknown>[] {
  return INTEGRATIONS.map((i) => ({
    name: i.name,
    display_name: i.displayName,
    all_event_types: i.allEventTypes === null ? null : [...i.allEventTypes],
    config_options: i.configOptions.map((o) => ({ ...o })),
    url_options: i.urlOptions.map((o) => ({ ...o })),
  }));
}
