/** The API level Hearth implements (the spec's level) and its version strings. */
export const FEATURE_LEVEL = 491;
export const HEARTH_VERSION = '0.1.0';
/** Reported as `zulip_version`/`service_version`: clients parse the leading major version. */
export const SERVICE_VERSION = `11.0-hearth-${HEARTH_VERSION}`;
export const MERGE_BASE = SERVICE_VERSION;

export const versionFields = () => ({
  service_feature_level: FEATURE_LEVEL,
  zulip_feature_level: FEATURE_LEVEL,
  service_version: SERVICE_VERSION,
  zulip_version: SERVICE_VERSION,
  service_merge_base: MERGE_BASE,
  zulip_merge_base: MERGE_BASE,
});

/** Limits announced in register and enforced by the views. */
export const LIMITS = {
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_topic_length: 60,
  max_message_length: 10000,
  max_channel_folder_name_length: 60,
  max_channel_folder_description_length: 1024,
  max_user_group_name_length: 100,
  event_queue_longpoll_timeout_seconds: 90,
} as const;
