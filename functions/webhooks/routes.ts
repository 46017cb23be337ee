/** The routes of the webhooks resource group (its Lambda), in the order the router tries them. */
import type { AnyRoute } from '#functions/http/route.js';
import { createWebhookRoute } from './create-webhook.route.js';
import { deleteWebhookRoute } from './delete-webhook.route.js';
import { getWebhookRoute } from './get-webhook.route.js';
import { listDeliveryFailuresRoute } from './list-delivery-failures.route.js';
import { listSessionWebhooksRoute } from './list-session-webhooks.route.js';
import { listWebhooksRoute } from './list-webhooks.route.js';
import { testWebhookRoute } from './test-webhook.route.js';
import { updateWebhookRoute } from './update-webhook.route.js';

export const webhookRoutes: readonly AnyRoute[] = [
  createWebhookRoute,
  listSessionWebhooksRoute,
  getWebhookRoute,
  updateWebhookRoute,
  deleteWebhookRoute,
  testWebhookRoute,
  listWebhooksRoute,
  listDeliveryFailuresRoute,
];
