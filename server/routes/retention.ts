/**
 * The route table's retention group (spread into `routes` in server/routes.ts): the dry run the
 * organization settings show before a retention period is shortened (views/retention.ts).
 */
import type { Route } from '../http/router.js';
import { previewRetention } from '../views/retention.js';

export const retentionRoutes: Route[] = [{ method: 'GET', path: '/api/v1/hearth/retention/preview', view: previewRetention, auth: 'required' }];
