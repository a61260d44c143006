import type { App } from './context.js';
import type { Route } from './http/router.js';

import { devAuthUnavailable, fetchApiKey } from './views/auth.js';
import { serverSettings } from './views/server-settings.js';
import { getSession, login, logout } from './views/sessions.js';

import { deleteQueue, getEvents } from './views/events.js';
import { register } from './views/register.js';

import { sendMessage } from './views/messages-send.js';
import { renderMessageView } from './views/render.js';
import { getMessage, getMessageHistory, getMessages, matchesNarrow } from './views/messages.js';
import { updateMessage } from './views/messages-edit.js';
import { deleteMessage } from './views/messages-delete.js';
import { getReadReceipts } from './views/read-receipts.js';
import { reportMessage } from './views/message-report.js';
import { addReaction, removeReaction } from './views/reactions.js';
import { addSubmessage } from './views/submessage.js';
import { sendEditTyping, sendTyping } from './views/typing.js';
import { markAllAsRead, markStreamAsRead, markTopicAsRead, updateMessageFlags, updateMessageFlagsForNarrow } from './views/message-flags.js';

import { createDrafts, deleteDraft, editDraft, listDrafts } from './views/drafts.js';
import { createScheduledMessage, deleteScheduledMessage, listScheduledMessages, updateScheduledMessage } from './views/scheduled-messages.js';
import { createReminder, deleteReminder, listReminders } from './views/reminders.js';
import { createNavView, createSnippet, deleteNavView, deleteSnippet, editNavView, editSnippet, listNavViews, listSnippets } from './views/saved-items.js';

import { listSubscriptions, subscribe, unsubscribe, updateSubscriptions } from './views/subscriptions.js';
import { updateSubscriptionProperties } from './views/subscription-properties.js';
import { createChannelView } from './views/channel-create.js';
import {
  addDefaultStream,
  archiveStream,
  getStream,
  getStreamId,
  getSubscribers,
  getStreamEmailAddress,
  getSubscriptionStatus,
  getUserChannels,
  listDefaultStreams,
  listStreams,
  removeDefaultStream,
} from './views/channels.js';
import { updateChannel } from './views/channel-update.js';
import { createChannelFolder, listChannelFolders, reorderChannelFolders, updateChannelFolder } from './views/channel-folders.js';

import { getTopics } from './views/messages-topics.js';
import { deleteTopic } from './views/topic-delete.js';
import { legacyMuteTopic, setUserTopic } from './views/user-topics.js';

import { createUser, getOwnUser, regenerateOwnApiKey, getUser, listUsers } from './views/users.js';
import { deactivateOwnUser, deactivateUser, reactivateUser, updateUser } from './views/users-update.js';
import { deleteAvatar, getAvatar, getAvatarMedium, uploadAvatar } from './views/avatar.js';
import { createField, deleteField, deleteOwnProfileData, listFields, reorderFields, updateField, updateOwnProfileData } from './views/profile-fields.js';
import { realmPresence, updatePresence, userPresence } from './views/presence.js';
import { getStatus as getUserStatus, updateStatus, updateStatusForUser } from './views/user-status.js';
import { muteUser, unmuteUser } from './views/muted-users.js';

import { createUserGroup, deactivateUserGroup, listUserGroups, updateUserGroup } from './views/user-groups.js';
import { getGroupMembers, getGroupSubgroups, getIsGroupMember, updateGroupMembers, updateGroupSubgroups } from './views/user-group-members.js';

import { createBot, deactivateBot, getBotApiKey, listBots, regenerateBotApiKey, updateBot } from './views/bots.js';

import { changeSettings, getSettings } from './views/user-settings.js';
import { addAlertWords, listAlertWords, removeAlertWords } from './views/alert-words.js';
import { markOnboardingStep } from './views/onboarding.js';

import {
  addAndroidToken,
  addApnsToken,
  registerClientDevice,
  registerPushDevice,
  removeClientDevice,
  removeAndroidToken,
  testE2eePushNotification,
  testPushNotification,
  removeApnsToken,
} from './views/devices.js';

import { deleteRealmIcon, serveRealmIcon, updateRealm, updateRealmUserDefaults, uploadRealmIcon } from './views/realm.js';
import { addLinkifier, listLinkifiers, removeLinkifier, reorderLinkifiers, updateLinkifier } from './views/linkifiers.js';
import { addPlayground, removePlayground } from './views/playgrounds.js';
import { testWelcomeBotMessage } from './views/welcome-bot.js';
import { createInviteLink, editInviteLink, emailInvites, joinPage, joinWithInvite, listInvites, revokeInviteLink } from './views/invites.js';

import { serveEmojiData } from './views/emoji-data.js';
import { deleteRealmEmoji, listRealmEmoji, serveRealmEmojiImage, uploadRealmEmoji } from './views/realm-emoji.js';

import { callRoutes } from './routes/calls.js';
import { retentionRoutes } from './routes/retention.js';

import { fileTemporaryUrl, serveFile, serveFileDownload, serveTemporaryFile, serveThumbnail, uploadFile } from './views/uploads.js';
import { deleteAttachment, listAttachments } from './views/attachments.js';
import { tusViews } from './views/tus.js';

import { deleteExport, downloadExport, exportConsents, exportProgress, listExports, startExport } from './views/export.js';

import { getSetup, postSetup } from './views/setup.js';
import { getStatus } from './views/status.js';
import { testIntegration } from './views/integrations.js';
import { backupStatus, startBackup } from './views/backup.js';
import { resetPassword } from './views/password-reset.js';
import { incomingWebhook } from './views/webhooks.js';
import { chatAsset, chatIndex, redirectToAdmin } from './views/web-client.js';
import { staticFile } from './views/static.js';
import { caCertificate, caProfile, replaceCertificateAuthority, trustPage } from './views/trust.js';
import { helpIndex, helpPageView, helpRedirect, helpStyle, helpUnknown } from './views/help.js';

const api = (path: string) => `/api/v1${path}`;

/**
 * The one route table, grouped by resource. Order matters only between patterns that can
 * match the same path with the same method: a fixed path is looked up exactly first, but
 * otherwise the first matching pattern wins (a trailing slash, `/users/me/`, goes to the
 * patterns). So specific paths come before parameterised ones: /users/me before
 * /users/:user_id, /messages/matches_narrow before /messages/:message_id,
 * /users/me/status before /users/:user_id/status, and (channels before topics)
 * /users/:user_id/subscriptions/:stream_id before /users/me/:stream_id/topics.
 */
export const routes: Route[] = [
  // Server settings, API keys and browser sessions.
  { method: 'GET', path: api('/server_settings'), view: serverSettings, auth: 'none', needsRealm: false },
  { method: 'POST', path: api('/fetch_api_key'), view: fetchApiKey, auth: 'none' },
  // Browser sessions (server/API.md: Browser sessions): only under /json/, where the cookie is the credential.
  { method: 'POST', path: '/json/login', view: login, auth: 'none' },
  { method: 'POST', path: '/json/logout', view: logout, auth: 'required' },
  { method: 'GET', path: '/json/session', view: getSession, auth: 'required' },
  { method: 'POST', path: api('/dev_fetch_api_key'), view: devAuthUnavailable, auth: 'none' },
  { method: 'GET', path: api('/dev_list_users'), view: devAuthUnavailable, auth: 'none' },

  // Registering an event queue, and the events.
  { method: 'POST', path: api('/register'), view: register, auth: 'optional' },
  { method: 'GET', path: api('/events'), view: getEvents, auth: 'required' },
  { method: 'DELETE', path: api('/events'), view: deleteQueue, auth: 'required' },

  // Messages: sending, fetching, editing, deleting, flags, reactions, typing.
  // Incoming-webhook bots may use this endpoint only (Zulip: sending messages and webhooks).
  { method: 'POST', path: api('/messages'), view: sendMessage, auth: 'required', incomingWebhookBots: true },
  { method: 'POST', path: api('/messages/render'), view: renderMessageView, auth: 'required' },
  { method: 'GET', path: api('/messages'), view: getMessages, auth: 'optional' },
  { method: 'GET', path: api('/messages/matches_narrow'), view: matchesNarrow, auth: 'required' },
  { method: 'GET', path: api('/messages/:message_id'), view: getMessage, auth: 'required' },
  { method: 'GET', path: api('/messages/:message_id/history'), view: getMessageHistory, auth: 'required' },
  { method: 'GET', path: api('/messages/:message_id/read_receipts'), view: getReadReceipts, auth: 'required' },
  { method: 'POST', path: api('/messages/:message_id/report'), view: reportMessage, auth: 'required' },
  { method: 'DELETE', path: api('/messages/:message_id'), view: deleteMessage, auth: 'required' },
  { method: 'PATCH', path: api('/messages/:message_id'), view: updateMessage, auth: 'required' },
  { method: 'POST', path: api('/messages/:message_id/reactions'), view: addReaction, auth: 'required' },
  { method: 'DELETE', path: api('/messages/:message_id/reactions'), view: removeReaction, auth: 'required' },
  { method: 'POST', path: api('/submessage'), view: addSubmessage, auth: 'required' },
  { method: 'POST', path: api('/typing'), view: sendTyping, auth: 'required' },
  { method: 'POST', path: api('/messages/:message_id/typing'), view: sendEditTyping, auth: 'required' },
  { method: 'POST', path: api('/messages/flags'), view: updateMessageFlags, auth: 'required' },
  { method: 'POST', path: api('/messages/flags/narrow'), view: updateMessageFlagsForNarrow, auth: 'required' },
  { method: 'POST', path: api('/mark_all_as_read'), view: markAllAsRead, auth: 'required' },
  { method: 'POST', path: api('/mark_stream_as_read'), view: markStreamAsRead, auth: 'required' },
  { method: 'POST', path: api('/mark_topic_as_read'), view: markTopicAsRead, auth: 'required' },

  // Drafts, scheduled messages, reminders and saved snippets.
  { method: 'GET', path: api('/drafts'), view: listDrafts, auth: 'required' },
  { method: 'POST', path: api('/drafts'), view: createDrafts, auth: 'required' },
  { method: 'PATCH', path: api('/drafts/:draft_id'), view: editDraft, auth: 'required' },
  { method: 'DELETE', path: api('/drafts/:draft_id'), view: deleteDraft, auth: 'required' },
  { method: 'GET', path: api('/scheduled_messages'), view: listScheduledMessages, auth: 'required' },
  { method: 'POST', path: api('/scheduled_messages'), view: createScheduledMessage, auth: 'required' },
  { method: 'PATCH', path: api('/scheduled_messages/:scheduled_message_id'), view: updateScheduledMessage, auth: 'required' },
  { method: 'DELETE', path: api('/scheduled_messages/:scheduled_message_id'), view: deleteScheduledMessage, auth: 'required' },
  { method: 'GET', path: api('/reminders'), view: listReminders, auth: 'required' },
  { method: 'POST', path: api('/reminders'), view: createReminder, auth: 'required' },
  { method: 'DELETE', path: api('/reminders/:reminder_id'), view: deleteReminder, auth: 'required' },
  { method: 'GET', path: api('/saved_snippets'), view: listSnippets, auth: 'required' },
  { method: 'POST', path: api('/saved_snippets'), view: createSnippet, auth: 'required' },
  { method: 'PATCH', path: api('/saved_snippets/:saved_snippet_id'), view: editSnippet, auth: 'required' },
  { method: 'DELETE', path: api('/saved_snippets/:saved_snippet_id'), view: deleteSnippet, auth: 'required' },

  // Channels and subscriptions, default channels, channel folders.
  { method: 'GET', path: api('/users/me/subscriptions'), view: listSubscriptions, auth: 'required' },
  { method: 'POST', path: api('/users/me/subscriptions'), view: subscribe, auth: 'required' },
  { method: 'DELETE', path: api('/users/me/subscriptions'), view: unsubscribe, auth: 'required' },
  { method: 'PATCH', path: api('/users/me/subscriptions'), view: updateSubscriptions, auth: 'required' },
  {
    method: 'POST',
    path: api('/users/me/subscriptions/properties'),
    view: updateSubscriptionProperties,
    auth: 'required',
  },
  { method: 'POST', path: api('/channels/create'), view: createChannelView, auth: 'required' },
  { method: 'GET', path: api('/users/:user_id/subscriptions/:stream_id'), view: getSubscriptionStatus, auth: 'required' },
  { method: 'GET', path: api('/users/:user_id/channels'), view: getUserChannels, auth: 'required' },
  { method: 'GET', path: api('/streams/:stream_id/email_address'), view: getStreamEmailAddress, auth: 'required' },
  { method: 'GET', path: api('/streams'), view: listStreams, auth: 'required' },
  { method: 'GET', path: api('/streams/:stream_id'), view: getStream, auth: 'required' },
  { method: 'PATCH', path: api('/streams/:stream_id'), view: updateChannel, auth: 'required' },
  { method: 'DELETE', path: api('/streams/:stream_id'), view: archiveStream, auth: 'required' },
  { method: 'GET', path: api('/streams/:stream_id/members'), view: getSubscribers, auth: 'required' },
  { method: 'GET', path: api('/get_stream_id'), view: getStreamId, auth: 'required' },
  { method: 'GET', path: api('/default_streams'), view: listDefaultStreams, auth: 'required' },
  { method: 'POST', path: api('/default_streams'), view: addDefaultStream, auth: 'required' },
  { method: 'DELETE', path: api('/default_streams'), view: removeDefaultStream, auth: 'required' },
  { method: 'GET', path: api('/channel_folders'), view: listChannelFolders, auth: 'required' },
  { method: 'PATCH', path: api('/channel_folders'), view: reorderChannelFolders, auth: 'required' },
  { method: 'POST', path: api('/channel_folders/create'), view: createChannelFolder, auth: 'required' },
  { method: 'PATCH', path: api('/channel_folders/:channel_folder_id'), view: updateChannelFolder, auth: 'required' },

  // Topics: listing, deleting, a user's topic policies (after /users/:user_id/subscriptions/:stream_id).
  { method: 'GET', path: api('/users/me/:stream_id/topics'), view: getTopics, auth: 'required' },
  { method: 'POST', path: api('/streams/:stream_id/delete_topic'), view: deleteTopic, auth: 'required' },
  { method: 'POST', path: api('/user_topics'), view: setUserTopic, auth: 'required' },
  { method: 'PATCH', path: api('/users/me/subscriptions/muted_topics'), view: legacyMuteTopic, auth: 'required' },

  // Users and roles, avatars, custom profile fields, presence, status, muting (specific paths before /users/:user_id).
  { method: 'GET', path: api('/users/me'), view: getOwnUser, auth: 'required' },
  { method: 'POST', path: api('/users/me/api_key/regenerate'), view: regenerateOwnApiKey, auth: 'required' },
  { method: 'POST', path: api('/users'), view: createUser, auth: 'required' },
  { method: 'GET', path: api('/users'), view: listUsers, auth: 'optional' },
  { method: 'DELETE', path: api('/users/me'), view: deactivateOwnUser, auth: 'required' },
  { method: 'POST', path: api('/users/me/avatar'), view: uploadAvatar, auth: 'required' },
  { method: 'DELETE', path: api('/users/me/avatar'), view: deleteAvatar, auth: 'required' },
  { method: 'GET', path: '/avatar/:user_id', view: getAvatar, auth: 'optional' },
  { method: 'GET', path: '/avatar/:user_id/medium', view: getAvatarMedium, auth: 'optional' },
  { method: 'PATCH', path: api('/users/me/profile_data'), view: updateOwnProfileData, auth: 'required' },
  { method: 'DELETE', path: api('/users/me/profile_data'), view: deleteOwnProfileData, auth: 'required' },
  { method: 'GET', path: api('/realm/profile_fields'), view: listFields, auth: 'required' },
  { method: 'POST', path: api('/realm/profile_fields'), view: createField, auth: 'required' },
  { method: 'PATCH', path: api('/realm/profile_fields'), view: reorderFields, auth: 'required' },
  { method: 'PATCH', path: api('/realm/profile_fields/:field_id'), view: updateField, auth: 'required' },
  { method: 'DELETE', path: api('/realm/profile_fields/:field_id'), view: deleteField, auth: 'required' },
  { method: 'POST', path: api('/users/me/presence'), view: updatePresence, auth: 'required' },
  { method: 'GET', path: api('/realm/presence'), view: realmPresence, auth: 'required' },
  { method: 'GET', path: api('/users/:user_id_or_email/presence'), view: userPresence, auth: 'required' },
  { method: 'POST', path: api('/users/me/status'), view: updateStatus, auth: 'required' },
  { method: 'GET', path: api('/users/:user_id/status'), view: getUserStatus, auth: 'required' },
  { method: 'POST', path: api('/users/:user_id/status'), view: updateStatusForUser, auth: 'required' },
  { method: 'POST', path: api('/users/me/muted_users/:muted_user_id'), view: muteUser, auth: 'required' },
  { method: 'DELETE', path: api('/users/me/muted_users/:muted_user_id'), view: unmuteUser, auth: 'required' },
  // A user by ID or email (after every fixed /users/... path).
  { method: 'GET', path: api('/users/:user_id'), view: getUser, auth: 'required' },
  { method: 'PATCH', path: api('/users/:user_id'), view: updateUser, auth: 'required' },
  { method: 'DELETE', path: api('/users/:user_id'), view: deactivateUser, auth: 'required' },
  { method: 'POST', path: api('/users/:user_id/reactivate'), view: reactivateUser, auth: 'required' },

  // User groups and their members and subgroups.
  { method: 'GET', path: api('/user_groups'), view: listUserGroups, auth: 'required' },
  { method: 'POST', path: api('/user_groups/create'), view: createUserGroup, auth: 'required' },
  { method: 'PATCH', path: api('/user_groups/:user_group_id'), view: updateUserGroup, auth: 'required' },
  { method: 'POST', path: api('/user_groups/:user_group_id/deactivate'), view: deactivateUserGroup, auth: 'required' },
  { method: 'GET', path: api('/user_groups/:user_group_id/members'), view: getGroupMembers, auth: 'required' },
  { method: 'POST', path: api('/user_groups/:user_group_id/members'), view: updateGroupMembers, auth: 'required' },
  { method: 'GET', path: api('/user_groups/:user_group_id/members/:user_id'), view: getIsGroupMember, auth: 'required' },
  { method: 'GET', path: api('/user_groups/:user_group_id/subgroups'), view: getGroupSubgroups, auth: 'required' },
  { method: 'POST', path: api('/user_groups/:user_group_id/subgroups'), view: updateGroupSubgroups, auth: 'required' },

  // Bots.
  { method: 'GET', path: api('/bots'), view: listBots, auth: 'required' },
  { method: 'POST', path: api('/bots'), view: createBot, auth: 'required' },
  { method: 'PATCH', path: api('/bots/:bot_id'), view: updateBot, auth: 'required' },
  { method: 'DELETE', path: api('/bots/:bot_id'), view: deactivateBot, auth: 'required' },
  { method: 'POST', path: api('/bots/:bot_id/api_key/regenerate'), view: regenerateBotApiKey, auth: 'required' },
  { method: 'GET', path: api('/bots/:bot_id/api_key'), view: getBotApiKey, auth: 'required' },

  // Personal settings: preferences, alert words, onboarding steps, navigation views.
  { method: 'GET', path: api('/settings'), view: getSettings, auth: 'required' },
  { method: 'PATCH', path: api('/settings'), view: changeSettings, auth: 'required' },
  { method: 'PATCH', path: api('/settings/display'), view: changeSettings, auth: 'required' },
  { method: 'PATCH', path: api('/settings/notifications'), view: changeSettings, auth: 'required' },
  { method: 'GET', path: api('/users/me/alert_words'), view: listAlertWords, auth: 'required' },
  { method: 'POST', path: api('/users/me/alert_words'), view: addAlertWords, auth: 'required' },
  { method: 'DELETE', path: api('/users/me/alert_words'), view: removeAlertWords, auth: 'required' },
  { method: 'POST', path: api('/users/me/onboarding_steps'), view: markOnboardingStep, auth: 'required' },
  { method: 'GET', path: api('/navigation_views'), view: listNavViews, auth: 'required' },
  { method: 'POST', path: api('/navigation_views'), view: createNavView, auth: 'required' },
  { method: 'PATCH', path: api('/navigation_views/*fragment'), view: editNavView, auth: 'required' },
  { method: 'DELETE', path: api('/navigation_views/*fragment'), view: deleteNavView, auth: 'required' },

  // Devices and push registration (kept, never relayed).
  { method: 'POST', path: api('/users/me/android_gcm_reg_id'), view: addAndroidToken, auth: 'required' },
  { method: 'DELETE', path: api('/users/me/android_gcm_reg_id'), view: removeAndroidToken, auth: 'required' },
  { method: 'POST', path: api('/users/me/apns_device_token'), view: addApnsToken, auth: 'required' },
  { method: 'DELETE', path: api('/users/me/apns_device_token'), view: removeApnsToken, auth: 'required' },
  { method: 'POST', path: api('/register_client_device'), view: registerClientDevice, auth: 'required' },
  { method: 'POST', path: api('/remove_client_device'), view: removeClientDevice, auth: 'required' },
  { method: 'POST', path: api('/mobile_push/register'), view: registerPushDevice, auth: 'required' },
  { method: 'POST', path: api('/mobile_push/test_notification'), view: testPushNotification, auth: 'required' },
  { method: 'POST', path: api('/mobile_push/e2ee/test_notification'), view: testE2eePushNotification, auth: 'required' },

  // The organization: its settings and icon, linkifiers, code playgrounds, the welcome bot's message.
  { method: 'PATCH', path: api('/realm'), view: updateRealm, auth: 'required' },
  { method: 'PATCH', path: api('/realm/user_settings_defaults'), view: updateRealmUserDefaults, auth: 'required' },
  { method: 'POST', path: api('/realm/icon'), view: uploadRealmIcon, auth: 'required' },
  { method: 'DELETE', path: api('/realm/icon'), view: deleteRealmIcon, auth: 'required' },
  { method: 'GET', path: '/realm_icon/:file', view: serveRealmIcon, auth: 'none' },
  { method: 'GET', path: api('/realm/linkifiers'), view: listLinkifiers, auth: 'required' },
  { method: 'PATCH', path: api('/realm/linkifiers'), view: reorderLinkifiers, auth: 'required' },
  { method: 'POST', path: api('/realm/filters'), view: addLinkifier, auth: 'required' },
  { method: 'PATCH', path: api('/realm/filters/:filter_id'), view: updateLinkifier, auth: 'required' },
  { method: 'DELETE', path: api('/realm/filters/:filter_id'), view: removeLinkifier, auth: 'required' },
  { method: 'POST', path: api('/realm/playgrounds'), view: addPlayground, auth: 'required' },
  { method: 'DELETE', path: api('/realm/playgrounds/:playground_id'), view: removePlayground, auth: 'required' },
  { method: 'POST', path: api('/realm/test_welcome_bot_custom_message'), view: testWelcomeBotMessage, auth: 'required' },

  // Invitations, and joining with one.
  { method: 'GET', path: api('/invites'), view: listInvites, auth: 'required' },
  { method: 'POST', path: api('/invites'), view: emailInvites, auth: 'required' },
  { method: 'POST', path: api('/invites/multiuse'), view: createInviteLink, auth: 'required' },
  { method: 'DELETE', path: api('/invites/multiuse/:invite_id'), view: revokeInviteLink, auth: 'required' },
  { method: 'PATCH', path: api('/invites/multiuse/:invite_id'), view: editInviteLink, auth: 'required' },
  { method: 'DELETE', path: api('/invites/:invite_id'), view: emailInvites, auth: 'required' },
  { method: 'POST', path: api('/invites/:invite_id/resend'), view: emailInvites, auth: 'required' },
  { method: 'GET', path: '/join/:key', view: joinPage, auth: 'none' },
  { method: 'GET', path: '/join/:key/', view: joinPage, auth: 'none' },
  { method: 'POST', path: api('/hearth/join'), view: joinWithInvite, auth: 'none' },

  // Emoji: the Unicode set's data, the organization's custom emoji and their images.
  { method: 'GET', path: '/static/generated/emoji/emoji_api.json', view: serveEmojiData, auth: 'none', needsRealm: false },
  { method: 'GET', path: api('/realm/emoji'), view: listRealmEmoji, auth: 'required' },
  { method: 'POST', path: api('/realm/emoji/:emoji_name'), view: uploadRealmEmoji, auth: 'required' },
  { method: 'DELETE', path: api('/realm/emoji/:emoji_name'), view: deleteRealmEmoji, auth: 'required' },
  { method: 'GET', path: '/user_avatars/:realm_id/emoji/images/:file', view: serveRealmEmojiImage, auth: 'none' },

  // Calls: video-call links, BigBlueButton's paths, Hearth's own calls (server/routes/calls.ts).
  ...callRoutes,
  ...retentionRoutes,

  // Uploads (resumable ones: tusRoutes, below) and attachments.
  { method: 'POST', path: api('/user_uploads'), view: uploadFile, auth: 'required' },
  { method: 'GET', path: api('/user_uploads/:realm_id/:bucket/:token/:name'), view: fileTemporaryUrl, auth: 'required' },
  { method: 'GET', path: '/user_uploads/temporary/:token/:filename', view: serveTemporaryFile, auth: 'none' },
  { method: 'GET', path: '/user_uploads/download/:realm_id/:bucket/:token/:name', view: serveFileDownload, auth: 'optional' },
  {
    method: 'GET',
    path: '/user_uploads/thumbnail/:realm_id/:bucket/:token/:name/:format',
    view: serveThumbnail,
    auth: 'optional',
  },
  { method: 'GET', path: '/user_uploads/:realm_id/:bucket/:token/:name', view: serveFile, auth: 'optional' },
  { method: 'GET', path: api('/attachments'), view: listAttachments, auth: 'required' },
  { method: 'DELETE', path: api('/attachments/:attachment_id'), view: deleteAttachment, auth: 'required' },

  // Organization exports: the shape Zulip's Rocket.Chat importer reads (server/export/).
  { method: 'GET', path: api('/export/realm'), view: listExports, auth: 'required' },
  { method: 'POST', path: api('/export/realm'), view: startExport, auth: 'required' },
  { method: 'DELETE', path: api('/export/realm/:export_id'), view: deleteExport, auth: 'required' },
  { method: 'GET', path: api('/export/realm/consents'), view: exportConsents, auth: 'required' },
  { method: 'GET', path: api('/hearth/export'), view: exportProgress, auth: 'required' },
  { method: 'GET', path: '/hearth/exports/:id/:token/:name', view: downloadExport, auth: 'required' },

  // Hearth's desktop admin: first-run setup, status, backup, password reset, a new certificate authority, an integration's test message.
  { method: 'GET', path: api('/hearth/setup'), view: getSetup, auth: 'none', needsRealm: false },
  { method: 'POST', path: api('/hearth/setup'), view: postSetup, auth: 'none', needsRealm: false },
  { method: 'GET', path: api('/hearth/status'), view: getStatus, auth: 'required' },
  { method: 'GET', path: api('/hearth/backup'), view: backupStatus, auth: 'required' },
  { method: 'POST', path: api('/hearth/backup'), view: startBackup, auth: 'required' },
  { method: 'POST', path: api('/hearth/users/:user_id/password'), view: resetPassword, auth: 'required' },
  { method: 'POST', path: api('/hearth/tls/authority'), view: replaceCertificateAuthority, auth: 'required' },
  { method: 'POST', path: api('/hearth/integrations/test'), view: testIntegration, auth: 'required' },

  // Incoming webhooks (server/webhooks/): the view checks the key (`api_key` or Basic) and reads the body.
  { method: 'POST', path: api('/external/:integration'), view: incomingWebhook, auth: 'none', rawBody: true },
  // Pages and static files. The web app (renderer/): the chat at `/`, its organization settings at /admin/ (the same page), first-run setup while there is no organization.
  { method: 'GET', path: '/', view: chatIndex, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/static/web/:file', view: chatAsset, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/static/:name', view: staticFile, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/static/images/loading/:name', view: staticFile, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/admin', view: redirectToAdmin, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/admin/', view: chatIndex, auth: 'none', needsRealm: false },
  // The help center (renderer/help/*.md), readable without signing in or an organization.
  { method: 'GET', path: '/help', view: helpRedirect, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/help/', view: helpIndex, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/help/help.css', view: helpStyle, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/help/:page', view: helpPageView, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/help/*rest', view: helpUnknown, auth: 'none', needsRealm: false },
  // Trusting this installation's certificate authority (served over plain HTTP too).
  { method: 'GET', path: '/hearth/ca.crt', view: caCertificate, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/hearth/ca.mobileconfig', view: caProfile, auth: 'none', needsRealm: false },
  { method: 'GET', path: '/hearth/trust', view: trustPage, auth: 'none', needsRealm: false },
];

/**
 * Resumable uploads (the tus protocol: server/views/tus.ts) at /api/v1/tus and /json/tus, through
 * the same gate as every route (organization, credentials, rate limit). Apart from `routes`, whose
 * every answer is Zulip's JSON: these are answered by the protocol (its own status codes, headers
 * and bodies), and the view reads the upload's bytes itself (rawBody). OPTIONS (the protocol's
 * discovery) needs no credentials; GET and PUT are refused (405).
 */
export function tusRoutes(app: App): Route[] {
  const tus = tusViews(app);
  const path = api('/tus{/*upload}');
  return [
    { method: 'OPTIONS', path, view: tus.request, auth: 'none', needsRealm: false, rawBody: true },
    { method: 'POST', path, view: tus.request, auth: 'required', rawBody: true },
    { method: 'HEAD', path, view: tus.request, auth: 'required', rawBody: true },
    { method: 'PATCH', path, view: tus.request, auth: 'required', rawBody: true },
    { method: 'DELETE', path, view: tus.request, auth: 'required', rawBody: true },
    // After HEAD: a GET route answers HEAD too, and the first match wins.
    { method: 'GET', path, view: tus.notTus, auth: 'none', needsRealm: false, rawBody: true },
    { method: 'PUT', path, view: tus.notTus, auth: 'none', needsRealm: false, rawBody: true },
  ];
}
