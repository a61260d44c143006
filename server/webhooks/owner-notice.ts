/**
 * A payload the sender was set up wrong to send (Zulip's integrations that call
 * send_rate_limited_pm_notification_to_bot_owner before raising, as zabbix does): the request is
 * answered with this error, and the view has the Notification Bot tell the bot's owner
 * `notice(the bot's full name)`, at most once a minute per bot.
 */
import { HearthError } from '../errors.js';

export class OwnerNoticeError extends HearthError {
  constructor(
    message: string,
    readonly notice: (botName: string) => string,
  ) {
    super(message);
  }
}
