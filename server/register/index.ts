import type { App } from '../context.js';
import { StateRegistry } from '../events/state.js';
import type { StateArea } from './area.js';
import * as absentFeatures from './absent-features.js';
import * as bots from './bots.js';
import * as channels from './channels.js';
import * as devices from './devices.js';
import * as drafts from './drafts.js';
import * as linkifiers from './linkifiers.js';
import * as messages from './messages.js';
import * as people from './people.js';
import * as playgrounds from './playgrounds.js';
import * as presence from './presence.js';
import * as realm from './realm.js';
import * as realmEmoji from './realm-emoji.js';
import * as realmExtras from './realm-extras.js';
import * as realmFixed from './realm-fixed.js';
import * as savedItems from './saved-items.js';
import * as scheduledMessages from './scheduled-messages.js';
import * as typing from './typing.js';
import * as uploads from './uploads.js';
import * as userGroups from './user-groups.js';
import * as userSettings from './user-settings.js';
import * as userTopics from './user-topics.js';
import * as videoCalls from './video-calls.js';

/** Every area, in the order its sections fill the register answer. */
const AREAS: readonly StateArea[] = [
  realm,
  realmFixed,
  people,
  drafts,
  scheduledMessages,
  playgrounds,
  userGroups,
  channels,
  typing,
  userSettings,
  userTopics,
  presence,
  realmExtras,
  linkifiers,
  realmEmoji,
  savedItems,
  messages,
  bots,
  devices,
  videoCalls,
  uploads,
  absentFeatures,
];

/** Every register section, area by area. */
export function buildStateRegistry(): StateRegistry {
  const registry = new StateRegistry();
  for (const area of AREAS) for (const section of area.sections) registry.add(section);
  return registry;
}

/** Registers every area's queue filters on `app.events` (createApp, once). */
export function installQueueFilters(app: App): void {
  for (const area of AREAS) area.filters?.(app);
}
