/**
 * `required`: valid credentials needed (Basic, or the session cookie where the
 * route's AuthScheme takes it). `optional`: anonymous allowed, but credentials
 * that are sent must be valid. `none`: the endpoint ignores any Authorization
 * header and session cookie (server_settings, fetch_api_key, /json/login).
 */
export type AuthPolicy = 'required' | 'optional' | 'none';
