import type { StateSection } from '../events/state.js';
import { jitsiServerUrl, SERVER_JITSI_SERVER_URL } from '../lib/realm/video-calls.js';

/**
 * The `realm` section's server-level call fields (`realm_video_chat_provider` and
 * `realm_jitsi_server_url` come from the settings table): the server's Jitsi default
 * and the deprecated `jitsi_server_url` (= realm_jitsi_server_url || server_jitsi_server_url).
 */
const videoCallsSection: StateSection = {
  wants: ['realm'],
  fetch: ({ app }) => ({
    server_jitsi_server_url: SERVER_JITSI_SERVER_URL,
    jitsi_server_url: jitsiServerUrl(app.store.realm.data.realm!.settings),
  }),
};

export const sections = [videoCallsSection];
