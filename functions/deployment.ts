/**
 * How each resource group's function is deployed in aws mode besides its routes: the one place for these facts.
 * functions/http-functions.ts joins them with the manifest's routes into serverless.yml's HTTP functions. Keyed by
 * ResourceName, so a resource group added to the manifest without an entry here fails typecheck. Not imported by
 * any handler: no Lambda bundle carries it.
 */
import type { ResourceName } from './manifest.js';

export interface GroupDeployment<Name extends string = string> {
  /** The function's description (Lambda console, CloudFormation). */
  description: string;
  /** Its least-privilege IAM role, a resource of serverless.yml named after the group. */
  role: `${Capitalize<Name>}Role`;
  /** Seconds it may run; without one, serverless.yml's provider timeout (10 s). API Gateway waits 30 s at most. */
  timeout?: number;
  /**
   * A route calls the owning host over RPC, so the function runs in the VPC's private subnets beside the hosts.
   * Those subnets reach DynamoDB, S3 and SQS through endpoints and nothing else (no NAT): a function that needs
   * no host stays outside.
   */
  callsHost: boolean;
}

export const GROUP_DEPLOYMENT: { readonly [Name in ResourceName]: GroupDeployment<Name> } = {
  sessions: {
    description: 'Sessions (/api/sessions…); calls the owning host over RPC',
    role: 'SessionsRole',
    timeout: 29,
    callsHost: true,
  },
  messages: {
    description:
      "Messages (/api/sessions/{sessionId}/messages…); asks the owning host over RPC for a send's outcome",
    role: 'MessagesRole',
    timeout: 15,
    callsHost: true,
  },
  contacts: {
    description: "Contacts (/api/sessions/{sessionId}/contacts…); asks the owning host's engine over RPC",
    role: 'ContactsRole',
    timeout: 29,
    callsHost: true,
  },
  chats: {
    description:
      "Chats, presence and calls (/api/sessions/{sessionId}/chats…, …/presence…, …/calls…); lists the chat store, asks the owning host's engine over RPC",
    role: 'ChatsRole',
    timeout: 29,
    callsHost: true,
  },
  groups: {
    description: "Groups (/api/sessions/{sessionId}/groups…); asks the owning host's engine over RPC",
    role: 'GroupsRole',
    timeout: 29,
    callsHost: true,
  },
  labels: {
    description: "Labels (/api/sessions/{sessionId}/labels…); asks the owning host's engine over RPC",
    role: 'LabelsRole',
    timeout: 29,
    callsHost: true,
  },
  statuses: {
    description:
      "Status updates (/api/sessions/{sessionId}/status…); reads the status store and its files, asks the owning host's engine over RPC to post",
    role: 'StatusesRole',
    timeout: 29,
    callsHost: true,
  },
  webhooks: {
    description:
      'Webhooks (/api/sessions/{sessionId}/webhooks…, /api/webhooks…); the test delivery posts to the receiver',
    role: 'WebhooksRole',
    // A test delivery may take WEBHOOK_TIMEOUT (10 s) after its DNS lookup; API Gateway waits 30 s at most.
    timeout: 29,
    // Outside the VPC on purpose: the test delivery reaches receivers on the internet, and no route calls a host.
    callsHost: false,
  },
  automation: {
    description: 'Autoreply rules (/api/sessions/{sessionId}/automation-rules…)',
    role: 'AutomationRole',
    callsHost: false,
  },
  templates: {
    description: 'Message templates (/api/sessions/{sessionId}/templates…)',
    role: 'TemplatesRole',
    callsHost: false,
  },
  auth: { description: 'API keys (/api/auth…)', role: 'AuthRole', callsHost: false },
  audit: { description: 'Audit log (/api/audit)', role: 'AuditRole', callsHost: false },
  stats: {
    description: 'Message statistics (/api/stats…): reads the sessions and the message counters',
    role: 'StatsRole',
    callsHost: false,
  },
  infra: {
    description:
      'Operations (/api/infra…): status, run-time settings, data export and import; an import stops running sessions over RPC when asked',
    role: 'InfraRole',
    // An import of a large document writes for as long as API Gateway waits (30 s); larger moves: docs/operations.md.
    timeout: 29,
    callsHost: true,
  },
  health: { description: 'Liveness, readiness, metrics', role: 'HealthRole', callsHost: false },
  docs: {
    description: 'OpenAPI document and reference page; and the 405 or 404 of every request no route claims',
    role: 'DocsRole',
    callsHost: false,
  },
};
