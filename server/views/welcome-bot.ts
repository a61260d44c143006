/** POST /realm/test_welcome_bot_custom_message: Hearth has no Welcome Bot yet, so it says so. */
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { t } from '../http/params.js';
import { requireAdmin } from './common.js';

export function testWelcomeBotMessage(req: ApiRequest): ViewResult {
  requireAdmin(req);
  req.params.require('welcome_message_custom_text', t.string);
  throw errors.badRequest('This server has no Welcome Bot yet.');
}
