import type { ApiRequest, ViewResult } from '../context.js';
import { versionFields } from '../version.js';
import { baseUrl } from './common.js';
import { renderPlainDescription } from '../lib/text.js';
import { DEFAULT_ICON_URL, realmIconFields } from '../lib/realm/icon.js';
import { webPublicChannels } from '../lib/channels/queries.js';

/** GET /server_settings: unauthenticated; answers whatever Authorization header is sent. */
export function serverSettings(req: ApiRequest): ViewResult {
  const realm = req.app.store.realm.data.realm;
  const url = baseUrl(req);
  return {
    authentication_methods: {
      password: true,
      dev: false,
      email: true,
      ldap: false,
      remoteuser: false,
      github: false,
      azuread: false,
      gitlab: false,
      apple: false,
      google: false,
      saml: false,
      'openid connect': false,
      discord: false,
      slack: false,
    },
    external_authentication_methods: [],
    ...versionFields(),
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_url: url,
    realm_uri: url,
    realm_name: realm?.name ?? '',
    realm_icon: `${url}${realm ? realmIconFields(realm).icon_url : DEFAULT_ICON_URL}`,
    realm_description: renderPlainDescription(realm?.description ?? ''),
    // Zulip's allow_web_public_streams_access: the server setting, spectator access and a web-public channel.
    realm_web_public_access_enabled: realm !== null && webPublicChannels(req.app).length > 0,
    realm_setup_required: realm === null,
    // Hearth's own: an organization made by `hearth demo` (the sign-in pages say so).
    hearth_demo_organization: realm?.demo === true,
    // Hearth's own: the HTTPS port (this installation's authority; the trust page is /hearth/trust), or null.
    hearth_https_port: req.app.config.tlsAddress?.port ?? null,
  };
}
