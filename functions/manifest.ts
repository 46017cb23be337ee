/**
 * The route manifest: every resource group of the API (one Lambda each in aws mode) with its route modules. It is
 * the one list of routes: the resource handlers are built from it, the embedded gateway routes by it, and the OpenAPI
 * document, the docs page and serverless.yml's HTTP functions (functions/http-functions.ts) are generated from it.
 */
import { auditRoutes } from './audit/routes.js';
import { authRoutes } from './auth/routes.js';
import { automationRoutes } from './automation/routes.js';
import { chatRoutes } from './chats/routes.js';
import { contactRoutes } from './contacts/routes.js';
import { createDocsRoutes } from './docs/routes.js';
import { groupRoutes } from './groups/routes.js';
import { healthRoutes } from './health/routes.js';
import type { AnyRoute } from './http/route.js';
import { infraRoutes } from './infra/routes.js';
import { labelRoutes } from './labels/routes.js';
import { messageRoutes } from './messages/routes.js';
import { sessionRoutes } from './sessions/routes.js';
import { statsRoutes } from './stats/routes.js';
import { statusRoutes } from './statuses/routes.js';
import { templateRoutes } from './templates/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

/**
 * A resource group; its key in API_RESOURCES is the name of the function that serves it in aws mode, deployed with
 * the facts functions/deployment.ts gives that name.
 */
export interface ResourceGroup {
  routes: readonly AnyRoute[];
  /**
   * Its function also takes what no route claims (the `*` event, API Gateway's `$default` route; the embedded
   * gateway's unmatched requests): 405 with `Allow` for a known path asked with another method, else 404. One group
   * has it: docs, whose bundle holds every route already (it documents them), so no other function grows.
   */
  catchAll?: true;
}

/** Every route, in manifest order (the OpenAPI document's order). */
export function allRoutes(): AnyRoute[] {
  return Object.values(API_RESOURCES).flatMap((group) => group.routes);
}

export const API_RESOURCES = {
  sessions: { routes: sessionRoutes },
  messages: { routes: messageRoutes },
  contacts: { routes: contactRoutes },
  chats: { routes: chatRoutes },
  groups: { routes: groupRoutes },
  labels: { routes: labelRoutes },
  statuses: { routes: statusRoutes },
  webhooks: { routes: webhookRoutes },
  automation: { routes: automationRoutes },
  templates: { routes: templateRoutes },
  auth: { routes: authRoutes },
  audit: { routes: auditRoutes },
  stats: { routes: statsRoutes },
  infra: { routes: infraRoutes },
  health: { routes: healthRoutes },
  docs: { routes: createDocsRoutes(allRoutes), catchAll: true },
} as const satisfies Record<string, ResourceGroup>;

export type ResourceName = keyof typeof API_RESOURCES;
