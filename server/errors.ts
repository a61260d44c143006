import type { ErrorCode } from './protocol/error-codes.js';

/**
 * The one error class application code throws. It carries the Zulip error
 * `code`, the HTTP status, the human message and any extra response fields
 * (`var_name`, `queue_id`, `retry-after`, ...). The envelope middleware turns
 * it into `{"result":"error","msg":...,"code":...,...extra}`.
 */
export class HearthError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    message: string,
    opts: { code?: ErrorCode; status?: number; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HearthError';
    this.code = opts.code ?? 'BAD_REQUEST';
    this.status = opts.status ?? 400;
    this.extra = opts.extra ?? {};
    this.headers = opts.headers ?? {};
  }
}

/** Shorthands for the errors Zulip clients recognise by code. */
export const errors = {
  badRequest: (msg: string, extra?: Record<string, unknown>) => new HearthError(msg, { extra }),
  missing: (name: string) =>
    new HearthError(`Missing '${name}' argument`, { code: 'REQUEST_VARIABLE_MISSING', extra: { var_name: name } }),
  invalidVar: (name: string, msg = `Invalid ${name}`) =>
    new HearthError(msg, { code: 'REQUEST_VARIABLE_INVALID', extra: { var_name: name } }),
  confusing: (a: string, b: string) =>
    new HearthError(`Can't decide between '${a}' and '${b}' arguments`, {
      code: 'REQUEST_CONFUSING_VAR',
      extra: { var_name1: a, var_name2: b },
    }),
  unauthorized: (msg = 'Not logged in: API authentication or user session required') =>
    new HearthError(msg, {
      code: 'UNAUTHORIZED',
      status: 401,
      headers: { 'WWW-Authenticate': 'Basic realm="zulip"' },
    }),
  /**
   * Zulip answers /json/ (session) requests' 401s with this challenge, so a browser shows no
   * Basic-auth dialog; `setCookie` clears a session cookie that no longer signs anyone in.
   */
  sessionUnauthorized: (setCookie?: string) =>
    new HearthError('Not logged in: API authentication or user session required', {
      code: 'UNAUTHORIZED',
      status: 401,
      headers: { 'WWW-Authenticate': 'Session realm="zulip"', ...(setCookie ? { 'Set-Cookie': setCookie } : {}) },
    }),
  csrfFailed: () => new HearthError('CSRF verification failed.', { code: 'CSRF_FAILED', status: 403 }),
  authFailed: () =>
    new HearthError('Your username or password is incorrect', { code: 'AUTHENTICATION_FAILED', status: 401 }),
  deactivated: () => new HearthError('Account is deactivated', { code: 'USER_DEACTIVATED', status: 401 }),
  /** Zulip turns validate_api_key's refusal into an UnauthorizedError (401). */
  incomingWebhookBot: () =>
    new HearthError('This API is not available to incoming webhook bots.', {
      code: 'UNAUTHORIZED',
      status: 401,
      headers: { 'WWW-Authenticate': 'Basic realm="zulip"' },
    }),
  rateLimited: (retryAfterSeconds: number) =>
    new HearthError('API usage exceeded rate limit', {
      code: 'RATE_LIMIT_HIT',
      status: 429,
      extra: { 'retry-after': retryAfterSeconds },
      headers: { 'Retry-After': String(Math.ceil(retryAfterSeconds)) },
    }),
  badQueue: (queueId: string) =>
    new HearthError(`Bad event queue ID: ${queueId}`, {
      code: 'BAD_EVENT_QUEUE_ID',
      extra: { queue_id: queueId },
    }),
  forbidden: (msg = 'Insufficient permission') => new HearthError(msg, { code: 'UNAUTHORIZED_PRINCIPAL', status: 400 }),
  notFound: (msg: string) => new HearthError(msg, { code: 'BAD_REQUEST', status: 404 }),
  adminRequired: () => new HearthError('Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' }),
  ownerRequired: () => new HearthError('Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' }),
  streamDoesNotExist: (name: string) =>
    new HearthError(`Channel '${name}' does not exist`, { code: 'STREAM_DOES_NOT_EXIST', extra: { stream: name } }),
  channelExists: (name: string, status = 400) =>
    new HearthError(`Channel '${name}' already exists`, {
      code: 'CHANNEL_ALREADY_EXISTS',
      status,
      extra: { channel_name: name },
    }),
  /** Zulip's BadNarrowOperatorError (the `desc` data field included). */
  badNarrow: (desc: string) =>
    new HearthError(`Invalid narrow operator: ${desc}`, { code: 'BAD_NARROW', extra: { desc } }),
  /** Zulip's InvalidOperatorCombinationError. */
  badNarrowCombination: (desc: string) =>
    new HearthError(`Invalid narrow operator combination: ${desc}`, { code: 'BAD_NARROW', extra: { desc } }),
  incompatibleParameters: (names: string[]) =>
    new HearthError(`Unsupported parameter combination: ${names.join(', ')}`, {
      extra: { parameters: names.join(', ') },
    }),
  /** Zulip's CannotDeactivateLastUserError: the only user, or the only organization owner. */
  cannotDeactivateLastUser: (isLastOwner: boolean) => {
    const entity = isLastOwner ? 'organization owner' : 'user';
    return new HearthError(`Cannot deactivate the only ${entity}.`, {
      code: 'CANNOT_DEACTIVATE_LAST_USER',
      extra: { is_last_owner: isLastOwner, entity },
    });
  },
  groupInUse: (objections: unknown[]) =>
    new HearthError('Cannot deactivate user group in use.', {
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      extra: { objections },
    }),
  storageFailed: (reason: string) =>
    new HearthError(
      reason === 'ENOSPC' || reason === 'EDQUOT'
        ? `The server could not save this change to disk (${reason}: the disk holding its data folder is full). Reading still works; changes are taken again by themselves once some disk space is freed.`
        : `The server could not save this change to disk (${reason}). Free some disk space or check the data folder, then try again.`,
      { code: 'STORAGE_FAILED', status: 503 },
    ),
  realmAlreadySetUp: () =>
    new HearthError('This Hearth server already has an organization; sign in as an administrator instead.', {
      code: 'REALM_ALREADY_SET_UP',
      status: 409,
    }),
  setupNotAllowed: () =>
    new HearthError(
      'First-run setup is only accepted on the server computer itself, or with the setup token that `hearth serve` printed.',
      { code: 'SETUP_TOKEN_REQUIRED', status: 403 },
    ),
  systemGroupMissing: (name: string) =>
    new HearthError(
      `The organization's system group ${name} is missing from the data folder; restart the server to recreate it.`,
      { code: 'SYSTEM_GROUP_MISSING', status: 503 },
    ),
  noOrganization: () =>
    new HearthError(
      'This Hearth server has no organization yet. Finish setup in the Hearth window, or run `hearth init`.',
      { code: 'REALM_NOT_SET_UP', status: 503 },
    ),
};
