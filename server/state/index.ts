import { StateRegistry } from '../events/state.js';
import {
  channelFoldersSection,
  channelPermissionsSection,
  channelRealmSection,
  defaultStreamsSection,
  streamsSection,
  subscriptionsSection,
} from './channels.js';
import { botDomainSection, botsSection } from './bots.js';
import { devicesSection, pushDevicesSection } from './devices.js';
import { draftsSection } from './drafts.js';
import {
  emptyTopicNameSection,
  maxMessageSection,
  recentPrivateSection,
  starredSection,
  unreadSection,
} from './messages.js';
import { peopleSection, profileFieldsSection } from './people.js';
import { realmSection, realmUserDefaultsSection } from './realm.js';
import { userGroupsSection } from './user-groups.js';
import { videoCallsSection } from './video-calls.js';
import { uploadQuotaSection } from '../lib/uploads/limits.js';
import { typingSection } from '../lib/people/typing.js';
import { userSettingsSection } from './user-settings.js';
import { presenceRealmSection, presenceSection } from '../lib/people/presence.js';
import { legacyLinkifiersSection, linkifiersSection, realmExtrasSection } from '../lib/realm/extras.js';
import { realmEmojiSection } from '../lib/emoji/custom-events.js';
import { navigationViewsSection, savedSnippetsSection } from './saved-items.js';
import { alertWordsSection } from '../lib/people/alert-words.js';
import { mutedTopicsSection, userTopicsSection } from '../lib/topics/visibility.js';
import { mutedUsersSection, userStatusSection } from '../lib/people/status.js';
import { remindersSection, scheduledMessagesSection } from '../lib/messages/scheduled.js';
import { playgroundsSection } from '../lib/realm/playgrounds.js';
import { absentFeatureSections } from './absent-features.js';
import { realmFixedSection } from './realm-fixed.js';

/** Every register section; each area adds its own here. */
export function buildStateRegistry(): StateRegistry {
  const registry = new StateRegistry();
  registry.add(realmSection);
  registry.add(realmUserDefaultsSection);
  registry.add(realmFixedSection);
  registry.add(peopleSection);
  registry.add(profileFieldsSection);
  registry.add(draftsSection);
  registry.add(scheduledMessagesSection);
  registry.add(remindersSection);
  registry.add(playgroundsSection);
  registry.add(userGroupsSection);
  registry.add(channelRealmSection);
  registry.add(channelPermissionsSection);
  registry.add(subscriptionsSection);
  registry.add(streamsSection);
  registry.add(defaultStreamsSection);
  registry.add(channelFoldersSection);
  registry.add(typingSection);
  registry.add(userSettingsSection);
  registry.add(alertWordsSection);
  registry.add(mutedUsersSection);
  registry.add(userTopicsSection);
  registry.add(mutedTopicsSection);
  registry.add(userStatusSection);
  registry.add(presenceSection);
  registry.add(presenceRealmSection);
  registry.add(realmExtrasSection);
  registry.add(linkifiersSection);
  registry.add(legacyLinkifiersSection);
  registry.add(realmEmojiSection);
  registry.add(savedSnippetsSection);
  registry.add(navigationViewsSection);
  registry.add(maxMessageSection);
  registry.add(unreadSection);
  registry.add(recentPrivateSection);
  registry.add(starredSection);
  registry.add(emptyTopicNameSection);
  registry.add(botsSection);
  registry.add(botDomainSection);
  registry.add(devicesSection);
  registry.add(pushDevicesSection);
  registry.add(videoCallsSection);
  registry.add(uploadQuotaSection);
  for (const s of absentFeatureSections) registry.add(s);
  return registry;
}
